//! The concrete semantics, one file per instruction family, as an emulator
//! author writes them. The catalogue (`crate::catalogue`) says which variants
//! exist; the files here say what each computes, and nothing else. The SMT
//! encodings in `ptx-smt` mirror these files by name.

pub mod add_sub;
pub mod bit_count;
pub mod bit_field;
pub mod carry;
pub mod compare;
pub mod compare_select;
pub mod div_rem;
pub mod dot;
pub mod logic;
pub mod min_max;
pub mod mul_mad;
pub mod prmt;
pub mod shfl;
pub mod shift;

use crate::bv::{Algebra, BitVec, Concrete};
use crate::catalogue::{Inputs, Outputs, Variant};

/// What every instruction family implements: its concrete semantics.
pub trait Semantics {
    /// The concrete semantics, as an emulator computes it.
    fn semantics<A: Algebra>(&self, alg: &A, inputs: &Inputs<A::Bv>) -> Outputs<A>;
    /// Where one proof over all inputs is too hard for the solvers, cases
    /// (a label and a condition on the inputs) that together cover every
    /// input, to be proven one by one; empty for a single proof.
    fn proof_cases<A: Algebra>(&self, _alg: &A, _inputs: &Inputs<A::Bv>) -> Vec<(String, A::Bool)> {
        Vec::new()
    }
    /// Whether the embedded Z3 proves the variant in one query, so that its
    /// [`Semantics::proof_cases`] only spare a slower solver: then whatever
    /// uses the embedded Z3 alone (the mutants) may prove it whole.
    fn whole_in_z3(&self) -> bool {
        true
    }
}

impl Variant {
    /// The concrete semantics, as an emulator computes it: `inputs` in the
    /// order of [`Variant::inputs`], outputs in the order of
    /// [`Variant::outputs`].
    pub fn semantics<A: Algebra>(&self, alg: &A, inputs: &[A::Bv]) -> Outputs<A> {
        let operands = self.inputs();
        let inputs = Inputs::new(&operands, inputs);
        crate::each_family!(self, v => v.semantics(alg, &inputs))
    }

    /// See [`Semantics::proof_cases`].
    pub fn proof_cases<A: Algebra>(&self, alg: &A, inputs: &[A::Bv]) -> Vec<(String, A::Bool)> {
        let operands = self.inputs();
        let inputs = Inputs::new(&operands, inputs);
        crate::each_family!(self, v => v.proof_cases(alg, &inputs))
    }

    /// See [`Semantics::whole_in_z3`].
    pub fn whole_in_z3(&self) -> bool {
        crate::each_family!(self, v => v.whole_in_z3())
    }

    /// Run the concrete semantics on unsigned input values (each taken
    /// modulo its operand's width); `None` for an unspecified output.
    pub fn run(&self, inputs: &[u128]) -> Vec<Option<BitVec>> {
        let ops = self.inputs();
        assert_eq!(inputs.len(), ops.len(), "{self}: wrong number of inputs");
        let ins: Vec<_> = ops.iter().zip(inputs).map(|(o, &x)| BitVec::new(o.ty.width(), x)).collect();
        self.semantics(&Concrete, &ins).into_iter().map(|o| o.defined.then_some(o.value)).collect()
    }
}

/// Shorthands for the families' tests: run a variant named by its mnemonic.
#[cfg(test)]
pub(crate) mod testing {
    use crate::catalogue::Variant;

    fn outputs(name: &str, inputs: &[u128]) -> Vec<Option<u128>> {
        let v = Variant::from_mnemonic(name).unwrap_or_else(|| panic!("no variant {name}"));
        v.run(inputs).into_iter().map(|o| o.map(|b| b.unsigned())).collect()
    }
    /// The first output, `None` where it is unspecified.
    pub fn run_opt(name: &str, inputs: &[u128]) -> Option<u128> {
        outputs(name, inputs)[0]
    }
    /// The first output, which must be defined.
    pub fn run(name: &str, inputs: &[u128]) -> u128 {
        run_opt(name, inputs).unwrap_or_else(|| panic!("{name}: unspecified result"))
    }
    /// Every output, each of which must be defined.
    pub fn run_all(name: &str, inputs: &[u128]) -> Vec<u128> {
        outputs(name, inputs).into_iter().map(|o| o.expect("a defined result")).collect()
    }
}
