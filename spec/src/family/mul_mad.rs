//! Section 9.7.1.3-6: mul, mad, mul24, mad24.
//! The concrete semantics, as an emulator author writes them: one
//! double-width product of the extended operands, then the half asked for.

use std::fmt;

use crate::assumption::{Assumption, MUL24_LOW_BITS, SAT_OF_EXACT_RESULT, WRAPAROUND};
use crate::bv::Algebra;
use crate::catalogue::{defined, Family, Operand, OperandType, Outputs, PtxVersion, Requirement, Target, Type};
use crate::family::add_sub::{signed_max, signed_min, INT_TYPES};

/// Which part of the product is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulMode {
    Hi,
    Lo,
    /// The whole double-width product (16- and 32-bit types only).
    Wide,
}

impl MulMode {
    fn name(self) -> &'static str {
        match self {
            MulMode::Hi => "hi",
            MulMode::Lo => "lo",
            MulMode::Wide => "wide",
        }
    }
}

/// A variant of mul, mad, mul24 or mad24.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MulMad {
    Mul(MulMode, Type),
    /// `mad.mode.type`; `sat` only in `mad.hi.sat.s32`.
    Mad {
        mode: MulMode,
        ty: Type,
        sat: bool,
    },
    Mul24(MulMode, Type),
    /// `mad24.mode.type`; `sat` only in `mad24.hi.sat.s32`.
    Mad24 {
        mode: MulMode,
        ty: Type,
        sat: bool,
    },
}

const WIDE_TYPES: [Type; 4] = [Type::U16, Type::U32, Type::S16, Type::S32];
const TYPES_24: [Type; 2] = [Type::U32, Type::S32];

fn modes_and_types() -> Vec<(MulMode, Type)> {
    let mut v = Vec::new();
    for mode in [MulMode::Hi, MulMode::Lo] {
        v.extend(INT_TYPES.map(|t| (mode, t)));
    }
    v.extend(WIDE_TYPES.map(|t| (MulMode::Wide, t)));
    v
}

impl Family for MulMad {
    fn all() -> Vec<MulMad> {
        let mut all: Vec<MulMad> = modes_and_types().into_iter().map(|(m, t)| MulMad::Mul(m, t)).collect();
        all.extend(modes_and_types().into_iter().map(|(mode, ty)| MulMad::Mad { mode, ty, sat: false }));
        all.push(MulMad::Mad { mode: MulMode::Hi, ty: Type::S32, sat: true });
        for mode in [MulMode::Hi, MulMode::Lo] {
            all.extend(TYPES_24.map(|t| MulMad::Mul24(mode, t)));
        }
        for mode in [MulMode::Hi, MulMode::Lo] {
            all.extend(TYPES_24.map(|ty| MulMad::Mad24 { mode, ty, sat: false }));
        }
        all.push(MulMad::Mad24 { mode: MulMode::Hi, ty: Type::S32, sat: true });
        all
    }

    fn opcode(&self) -> &'static str {
        match self {
            MulMad::Mul(..) => "mul",
            MulMad::Mad { .. } => "mad",
            MulMad::Mul24(..) => "mul24",
            MulMad::Mad24 { .. } => "mad24",
        }
    }

    fn section(&self) -> &'static str {
        match self {
            MulMad::Mul(..) => "9.7.1.3",
            MulMad::Mad { .. } => "9.7.1.4",
            MulMad::Mul24(..) => "9.7.1.5",
            MulMad::Mad24 { .. } => "9.7.1.6",
        }
    }

    fn operands(&self) -> Vec<Operand> {
        let (mode, ty, addend) = match *self {
            MulMad::Mul(mode, ty) | MulMad::Mul24(mode, ty) => (mode, ty, false),
            MulMad::Mad { mode, ty, .. } | MulMad::Mad24 { mode, ty, .. } => (mode, ty, true),
        };
        let n = ty.operand();
        // .wide: d (and mad's c) are twice as wide as a and b (Notes).
        let result = if mode == MulMode::Wide { OperandType::Bits(2 * ty.width()) } else { n };
        let mut ops = vec![Operand::dest("d", result), Operand::src("a", n), Operand::src("b", n)];
        if addend {
            ops.push(Operand::src("c", result));
        }
        ops
    }

    fn requirement(&self) -> Requirement {
        Requirement { ptx: PtxVersion(1, 0), target: Target::All }
    }

    fn assumptions(&self) -> Vec<&'static Assumption> {
        match self {
            MulMad::Mul(..) | MulMad::Mad { sat: false, .. } => vec![&WRAPAROUND],
            MulMad::Mad { sat: true, .. } => vec![&SAT_OF_EXACT_RESULT],
            MulMad::Mul24(..) | MulMad::Mad24 { sat: false, .. } => vec![&MUL24_LOW_BITS, &WRAPAROUND],
            MulMad::Mad24 { sat: true, .. } => vec![&MUL24_LOW_BITS, &SAT_OF_EXACT_RESULT],
        }
    }

    /// Inputs: `a, b` (mul, mul24) and `c` (mad, mad24).
    fn semantics<A: Algebra>(&self, alg: &A, ins: &[A::Bv]) -> Outputs<A> {
        let d = match *self {
            MulMad::Mul(mode, ty) => part(alg, mode, product(alg, ty.is_signed(), ins[0], ins[1])),
            MulMad::Mad { mode, ty, sat } => {
                add_c(alg, sat, part(alg, mode, product(alg, ty.is_signed(), ins[0], ins[1])), ins[2])
            }
            MulMad::Mul24(mode, ty) => part24(alg, mode, product24(alg, ty.is_signed(), ins[0], ins[1])),
            MulMad::Mad24 { mode, ty, sat } => {
                add_c(alg, sat, part24(alg, mode, product24(alg, ty.is_signed(), ins[0], ins[1])), ins[2])
            }
        };
        vec![defined(alg, d)]
    }
}

/// The full product of two n-bit values, 2n bits.
fn product<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = alg.width(a);
    alg.bvmul(alg.extend(signed, n, a), alg.extend(signed, n, b))
}

fn part<A: Algebra>(alg: &A, mode: MulMode, t: A::Bv) -> A::Bv {
    let n = alg.width(t) / 2;
    match mode {
        MulMode::Hi => alg.extract(2 * n - 1, n, t),
        MulMode::Lo => alg.extract(n - 1, 0, t),
        MulMode::Wide => t,
    }
}

/// The 48-bit product of the low 24 bits of each operand.
fn product24<A: Algebra>(alg: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let low24 = |x: A::Bv| alg.extend(signed, 24, alg.extract(23, 0, x));
    alg.bvmul(low24(a), low24(b))
}

/// mul24.hi keeps bits 47..16, .lo bits 31..0.
fn part24<A: Algebra>(alg: &A, mode: MulMode, t: A::Bv) -> A::Bv {
    match mode {
        MulMode::Hi => alg.extract(47, 16, t),
        _ => alg.extract(31, 0, t),
    }
}

/// mad's `+ c`: saturating under .sat, wrapping otherwise.
fn add_c<A: Algebra>(alg: &A, sat: bool, p: A::Bv, c: A::Bv) -> A::Bv {
    if sat {
        saturating_add(alg, p, c)
    } else {
        alg.bvadd(p, c)
    }
}

/// a + b for signed 32-bit values, clamped instead of wrapping: computed
/// one bit wider, where it cannot overflow.
fn saturating_add<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> A::Bv {
    let sum = alg.bvadd(alg.sign_extend(1, a), alg.sign_extend(1, b));
    let (min, max) = (alg.sign_extend(1, signed_min(alg, a)), alg.sign_extend(1, signed_max(alg, a)));
    let clamped = alg.ite(alg.bvslt(sum, min), min, alg.ite(alg.bvsgt(sum, max), max, sum));
    alg.extract(alg.width(a) - 1, 0, clamped)
}

/// A reading of mul24 the model does not adopt (see assumption
/// mul24-low-24-bits), kept for the audit: the full 32-bit operands are
/// multiplied, and bits 47..16 (.hi) or 31..0 (.lo) of the 64-bit product kept.
pub fn mul24_full_operands<A: Algebra>(alg: &A, mode: MulMode, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let t = alg.bvmul(alg.extend(signed, 32, a), alg.extend(signed, 32, b));
    match mode {
        MulMode::Hi => alg.extract(47, 16, t),
        _ => alg.extract(31, 0, t),
    }
}

impl fmt::Display for MulMad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mode, ty, sat) = match *self {
            MulMad::Mul(mode, ty) | MulMad::Mul24(mode, ty) => (mode, ty, false),
            MulMad::Mad { mode, ty, sat } | MulMad::Mad24 { mode, ty, sat } => (mode, ty, sat),
        };
        write!(f, "{}.{}{}{ty}", self.opcode(), mode.name(), if sat { ".sat" } else { "" })
    }
}

#[cfg(test)]
mod tests {
    use crate::catalogue::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.3-6.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("mul.lo.u16", &[0x100, 0x100]), 0);
        assert_eq!(run("mul.hi.u16", &[0x100, 0x100]), 1);
        assert_eq!(run("mul.wide.s16", &[0xffff, 0xffff]), 1);
        assert_eq!(run("mul.wide.u16", &[0xffff, 0xffff]), 0xfffe_0001);
        assert_eq!(run("mul.hi.s32", &[0xffff_ffff, 2]), 0xffff_ffff);
        assert_eq!(run("mul.hi.u32", &[0xffff_ffff, 2]), 1);
        assert_eq!(run("mul.hi.u64", &[u128::from(u64::MAX), u128::from(u64::MAX)]), u128::from(u64::MAX - 1));
        assert_eq!(run("mad.lo.s32", &[3, 4, 5]), 17);
        assert_eq!(run("mad.wide.u32", &[0xffff_ffff, 0xffff_ffff, 1]), 0xffff_fffe_0000_0002);
        // hi(0x7fffffff * 0x7fffffff) = 0x3fffffff, plus 0x7fffffff saturates.
        assert_eq!(run("mad.hi.sat.s32", &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]), 0x7fff_ffff);
        assert_eq!(run("mad.hi.s32", &[0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff]), 0xbfff_fffe);
        // mul24: bits 24..31 do not take part.
        assert_eq!(run("mul24.lo.u32", &[0xff00_0002, 3]), 6);
        assert_eq!(run("mul24.lo.s32", &[0x00ff_ffff, 3]), 0xffff_fffd);
        assert_eq!(run("mul24.hi.u32", &[0x00ff_ffff, 0x00ff_ffff]), 0xffff_fe00);
        assert_eq!(run("mad24.hi.sat.s32", &[0x0080_0000, 0x0080_0000, 0x7fff_ffff]), 0x7fff_ffff);
    }

    #[test]
    fn the_full_operand_reading_of_mul24_differs_when_bits_24_to_31_are_set() {
        use super::{mul24_full_operands, MulMode};
        use crate::bv::{BitVec, Concrete};
        let (a, b) = (BitVec::new(32, 0xff00_0002), BitVec::new(32, 3));
        assert_eq!(mul24_full_operands(&Concrete, MulMode::Lo, false, a, b), BitVec::new(32, 0xfd00_0006));
        assert_eq!(run("mul24.lo.u32", &[0xff00_0002, 3]), 6);
        // Where bits 24..31 are a sign or zero extension, the readings agree.
        let (a, b) = (BitVec::new(32, 0xffff_fffe), BitVec::new(32, 3));
        assert_eq!(
            mul24_full_operands(&Concrete, MulMode::Lo, true, a, b).unsigned(),
            run("mul24.lo.s32", &[0xffff_fffe, 3])
        );
    }

    proptest! {
        #[test]
        fn match_rust_wide_products(a: i32, b: i32, c: i64) {
            let u = |x: i32| u128::from(x as u32);
            let p = i64::from(a) * i64::from(b);
            prop_assert_eq!(run("mul.lo.s32", &[u(a), u(b)]), u(a.wrapping_mul(b)));
            prop_assert_eq!(run("mul.hi.s32", &[u(a), u(b)]), u((p >> 32) as i32));
            prop_assert_eq!(run("mul.wide.s32", &[u(a), u(b)]), u128::from(p as u64));
            prop_assert_eq!(run("mad.wide.s32", &[u(a), u(b), u128::from(c as u64)]), u128::from(p.wrapping_add(c) as u64));
            let hi = (p >> 32) as i32;
            prop_assert_eq!(run("mad.hi.sat.s32", &[u(a), u(b), u(c as i32)]), u(hi.saturating_add(c as i32)));
            let (a24, b24) = (i64::from((a << 8) >> 8), i64::from((b << 8) >> 8));
            prop_assert_eq!(run("mul24.hi.s32", &[u(a), u(b)]), u(((a24 * b24) >> 16) as i32));
        }
    }
}
