//! Hardware models: the spec model with the cases it leaves open, and the rules
//! a vendor's hardware contradicts, replaced by what that hardware does.
//!
//! A [`Model`] names the model `eval`, `run`, `prove`, `smtlib` and `list`
//! use. `spec` is the model of `crate::family` and `crate::assumption`;
//! `sm_90` ([`sm_90`]) is what one NVIDIA H100 computed, each change a named
//! [`Rule`] with its evidence, just as each reading of the spec model is a
//! named assumption. The SMT side of a vendor model lives in `ptx-smt`
//! (`encode/sm_90.rs`), written apart from the concrete side here, and the
//! two are proven equal like every variant.

pub mod sm_90;

use std::fmt;

use serde::Serialize;

use crate::bv::{Algebra, BitVec, Concrete};
use crate::catalogue::{Outputs, Variant};

/// Which model of the instructions to run or prove.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Model {
    /// The spec text, with the model's named assumptions where it is open.
    #[default]
    Spec,
    /// The spec model changed by the rules of [`sm_90::RULES`]: what an
    /// H100 (compute capability 9.0) gives.
    Sm90,
}

impl Model {
    /// Every model, the default first.
    pub const ALL: [Model; 2] = [Model::Spec, Model::Sm90];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Model::Spec => "spec",
            Model::Sm90 => "sm_90",
        }
    }

    /// The model named `name`, exactly as [`Model::name`] writes it.
    pub fn from_name(name: &str) -> Option<Model> {
        Model::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The rules this model changes the spec model by (none for `spec`).
    pub fn rules(self) -> &'static [Rule] {
        match self {
            Model::Spec => &[],
            Model::Sm90 => sm_90::RULES,
        }
    }

    /// The rules of this model that change `variant`.
    pub fn rules_for(self, variant: &Variant) -> Vec<&'static Rule> {
        let name = variant.to_string();
        self.rules().iter().filter(|r| r.variants.iter().any(|v| *v == name)).collect()
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a vendor rule does to the spec model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Change {
    /// Gives a value where the spec model leaves the result unspecified.
    FillsUnspecified,
    /// Replaces a reading of the spec model that the hardware contradicts.
    Replaces,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::FillsUnspecified => "fills unspecified",
            Change::Replaces => "replaces",
        }
    }
}

/// One change of a vendor model to the spec model, with its evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Stable identifier, used in tables and JSON.
    pub id: &'static str,
    /// The spec sections of the instructions it changes.
    pub section: &'static str,
    pub change: Change,
    /// The spec model's assumption it fills in or replaces (its id), or,
    /// for a rule of the spec text itself, a short fragment of that text.
    pub assumption: &'static str,
    /// The variants it changes, by name.
    pub variants: &'static [&'static str],
    /// The rule as a formula over its variant's operands (w: the width).
    pub formula: &'static str,
    /// What the vendor's hardware does, and where the data stops.
    pub rule: &'static str,
    /// What stays unspecified in the vendor model, and why ("" if nothing).
    pub open: &'static str,
    /// Hardware results in the rule's case, per variant: the evidence.
    pub evidence: &'static [(&'static str, u32)],
}

impl Rule {
    /// Hardware results in the rule's case, over every variant.
    pub fn results(&self) -> u32 {
        self.evidence.iter().map(|(_, n)| n).sum()
    }
}

impl Variant {
    /// The concrete semantics of `model` (see [`Variant::semantics`]).
    pub fn semantics_in<A: Algebra>(&self, model: Model, alg: &A, inputs: &[A::Bv]) -> Outputs<A> {
        match model {
            Model::Spec => self.semantics(alg, inputs),
            Model::Sm90 => sm_90::semantics(self, alg, inputs),
        }
    }

    /// [`Variant::run`] in `model`.
    pub fn run_in(&self, model: Model, inputs: &[u128]) -> Vec<Option<BitVec>> {
        let ops = self.inputs();
        assert_eq!(inputs.len(), ops.len(), "{self}: wrong number of inputs");
        let ins: Vec<_> = ops.iter().zip(inputs).map(|(o, &x)| BitVec::new(o.ty.width(), x)).collect();
        self.semantics_in(model, &Concrete, &ins).into_iter().map(|o| o.defined.then_some(o.value)).collect()
    }
}
