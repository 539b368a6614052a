//! Sections 9.7.6.1-2, set and setp. The readings of their text the model
//! does not adopt, for the audit's passages: lt, le, gt and ge in the
//! order of the other signedness, the forms without a Boolean operator
//! read as the Semantics line writes them, `!c` read as the Semantics names
//! it, setp's `q` as the complement of `p`, and set's `1.0f` as the
//! integer one. Each is the model run on a variant changed in one place,
//! or the model's outputs changed in one place.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::compare::{Combine, Compare, Dest};
use ptx_spec::catalogue::{defined, Outputs, Type, Variant};
use ptx_spec::family::compare::F32_ONE;

/// How a reading departs from the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareReading {
    /// lt, le, gt and ge in the other kind's order: the bit patterns of a
    /// signed type compared unsigned, those of an unsigned type signed.
    OtherOrder,
    /// A form without .BoolOp computes `BoolOp(t, c)` with no c: read as
    /// and with a false c, it writes false.
    AbsentCFalse,
    /// `!c` read as the Semantics names the operand: c itself.
    NotCIgnored,
    /// setp's q is the complement of p.
    QComplementOfP,
    /// set's .f32 destination gets the integer 1 where the result is true.
    SetF32IntOne,
}

/// The variant's outputs under `reading`, where the reading concerns it.
pub fn compare_reading<A: Algebra>(alg: &A, v: Compare, reading: CompareReading, ins: &[A::Bv]) -> Option<Outputs<A>> {
    let model = |v: Compare| Variant::Compare(v).semantics(alg, ins);
    let ordered = !matches!(v.cmp.name(), "eq" | "ne");
    let retyped = |signed: bool| Compare { ty: Type::integer(v.ty.width(), signed).expect("an integer width"), ..v };
    match reading {
        // lo, ls, hi and hs are the unsigned order by name: lt..ge alone.
        CompareReading::OtherOrder => {
            let unsigned_spelling = matches!(v.cmp.name(), "lo" | "ls" | "hi" | "hs");
            (ordered && !unsigned_spelling).then(|| model(retyped(!v.ty.is_signed())))
        }
        CompareReading::AbsentCFalse => v.combine.is_none().then(|| {
            let width = |o: &ptx_spec::catalogue::Operand| o.ty.width();
            Variant::Compare(v).outputs().iter().map(|o| defined(alg, alg.constant(width(o), 0))).collect()
        }),
        CompareReading::NotCIgnored => match v.combine {
            Some(Combine { op, not_c: true }) => {
                Some(model(Compare { combine: Some(Combine { op, not_c: false }), ..v }))
            }
            _ => None,
        },
        CompareReading::QComplementOfP => (v.dest == Dest::Setp { q: true }).then(|| {
            let outs = model(v);
            vec![outs[0], defined(alg, alg.bvnot(outs[0].value))]
        }),
        CompareReading::SetF32IntOne => (v.dest == Dest::Set(Type::F32)).then(|| {
            let d = model(v)[0].value;
            let written = alg.eq(d, alg.constant(32, F32_ONE));
            vec![defined(alg, alg.ite(written, alg.constant(32, 1), alg.constant(32, 0)))]
        }),
    }
}
