//! Section 9.7.2: add.cc, addc, sub.cc, subc, mad.cc, madc. The concrete
//! semantics, as an emulator author writes them: the arithmetic one bit
//! wider than the operands, the result its low n bits and the carry (or
//! borrow) its bit n.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::carry::{Arith, Carry, FLAG_NAME};
use crate::catalogue::mul_mad::MulMode;
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for Carry {
    /// Inputs: `a, b` (and `c` for mad.cc and madc), then `CC.CF` for the
    /// instructions that read it. Outputs: `d`, then `CC.CF` under `.cc`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let n = self.ty.width();
        let wide = |x: A::Bv| alg.zero_extend(n + 1 - alg.width(x), x);
        let carry_in = if self.carry_in { ins.get(FLAG_NAME) } else { alg.constant(1, 0) };
        let (a, b) = (ins.get("a"), ins.get("b"));
        // n + 1 bits: the exact sum of two n-bit values and a bit, or the
        // difference, whose bit n is set exactly when it is negative.
        let exact = match self.arith {
            Arith::Add => alg.bvadd(alg.bvadd(wide(a), wide(b)), wide(carry_in)),
            Arith::Sub => alg.bvsub(alg.bvsub(wide(a), wide(b)), wide(carry_in)),
            Arith::Mad(mode) => {
                let half = product_half(alg, self.ty.is_signed(), mode, a, b);
                alg.bvadd(alg.bvadd(wide(half), wide(ins.get("c"))), wide(carry_in))
            }
        };
        let mut outs = vec![defined(alg, alg.extract(n - 1, 0, exact))];
        if self.carry_out {
            outs.push(defined(alg, alg.bit(exact, n)));
        }
        outs
    }
}

/// The upper or lower n bits of the 2n-bit product of two n-bit values.
fn product_half<A: Algebra>(alg: &A, signed: bool, mode: MulMode, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = alg.width(a);
    let product = alg.bvmul(alg.extend(signed, n, a), alg.extend(signed, n, b));
    match mode {
        MulMode::Hi => alg.extract(2 * n - 1, n, product),
        _ => alg.extract(n - 1, 0, product),
    }
}

#[cfg(test)]
mod tests {
    use crate::family::testing::{run, run_all};
    use proptest::prelude::*;

    const MAX32: u128 = 0xffff_ffff;
    const MAX64: u128 = u64::MAX as u128;

    // Values worked by hand from 9.7.2.1-6: [d, CC.CF].
    #[test]
    fn hand_worked_values() {
        assert_eq!(run_all("add.cc.u32", &[MAX32, 1]), [0, 1]);
        assert_eq!(run_all("add.cc.s32", &[MAX32, 1]), [0, 1], "-1 + 1 carries: the unsigned carry");
        assert_eq!(run_all("add.cc.s32", &[0x7fff_ffff, 1]), [0x8000_0000, 0], "signed overflow is no carry");
        assert_eq!(run_all("addc.cc.u32", &[MAX32, 0, 1]), [0, 1]);
        assert_eq!(run_all("addc.cc.u64", &[MAX64, MAX64, 1]), [MAX64, 1]);
        assert_eq!(run("addc.u32", &[2, 3, 1]), 6);
        assert_eq!(run_all("sub.cc.u32", &[0, 1]), [MAX32, 1], "0 - 1 borrows");
        assert_eq!(run_all("sub.cc.u32", &[1, 1]), [0, 0]);
        // b + CC.CF taken exactly: 0 - (0xffffffff + 1) borrows.
        assert_eq!(run_all("subc.cc.u32", &[0, MAX32, 1]), [0, 1]);
        assert_eq!(run_all("subc.cc.u32", &[5, 2, 1]), [2, 0]);
        assert_eq!(run("subc.s64", &[0, 0, 1]), MAX64);
        // hi(0xffffffff * 0xffffffff) = 0xfffffffe; + 1 + 1 carries.
        assert_eq!(run_all("madc.hi.cc.u32", &[MAX32, MAX32, 1, 1]), [0, 1]);
        assert_eq!(run_all("mad.lo.cc.u32", &[MAX32, MAX32, MAX32]), [0, 1]);
        // mad.hi.cc.s32: hi(-1 * 1) = -1, plus 1 is 0 with a carry out.
        assert_eq!(run_all("mad.hi.cc.s32", &[MAX32, 1, 1]), [0, 1]);
        assert_eq!(run_all("mad.hi.cc.u64", &[MAX64, 2, 0]), [1, 0], "the upper 64 bits of a 128-bit product");
        assert_eq!(run("madc.lo.s64", &[3, 4, 5, 1]), 18);
    }

    proptest! {
        #[test]
        fn match_rust_carrying_arithmetic(a: u32, b: u32, c: u32, cf: bool) {
            let (sum, c1) = a.overflowing_add(b);
            let (sum, c2) = sum.overflowing_add(u32::from(cf));
            prop_assert_eq!(run_all("addc.cc.u32", &[a.into(), b.into(), cf.into()]), [sum.into(), u128::from(c1 | c2)]);
            let borrow = u64::from(a) < u64::from(b) + u64::from(cf);
            let diff = a.wrapping_sub(b).wrapping_sub(u32::from(cf));
            prop_assert_eq!(run_all("subc.cc.s32", &[a.into(), b.into(), cf.into()]), [diff.into(), u128::from(borrow)]);
            let exact = ((u64::from(a) * u64::from(b)) >> 32) + u64::from(c) + u64::from(cf);
            prop_assert_eq!(run_all("madc.hi.cc.u32", &[a.into(), b.into(), c.into(), cf.into()]),
                [u128::from(exact as u32), u128::from(exact >> 32)]);
        }
    }
}
