//! Section 9.7.1.23-24: dp4a, dp2a.
//! The concrete semantics, as an emulator author writes them: each lane
//! product formed at 16 (dp4a) or 32 (dp2a) bits, where it cannot overflow,
//! then extended and summed into the 32-bit accumulator.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::dot::*;
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for Dot {
    /// Inputs: `a, b, c`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let (a, b, c) = (ins.get("a"), ins.get("b"), ins.get("c"));
        let lane = |x: A::Bv, i: u32, bits: u32| alg.extract(i * bits + bits - 1, i * bits, x);
        let mut d = c;
        match *self {
            Dot::Dp4a { atype, btype } => {
                let signed_product = atype.is_signed() || btype.is_signed();
                for i in 0..4 {
                    // 8 x 8 bits fit in 16 bits, signed or not.
                    let p = alg.bvmul(
                        alg.extend(atype.is_signed(), 8, lane(a, i, 8)),
                        alg.extend(btype.is_signed(), 8, lane(b, i, 8)),
                    );
                    d = alg.bvadd(d, alg.extend(signed_product, 16, p));
                }
            }
            Dot::Dp2a { half, atype, btype } => {
                let first = match half {
                    Half::Lo => 0,
                    Half::Hi => 2,
                };
                for i in 0..2 {
                    let p = alg.bvmul(
                        alg.extend(atype.is_signed(), 16, lane(a, i, 16)),
                        alg.extend(btype.is_signed(), 24, lane(b, first + i, 8)),
                    );
                    d = alg.bvadd(d, p);
                }
            }
        }
        vec![defined(alg, d)]
    }
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.23-24.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("dp4a.u32.u32", &[0x0102_0304, 0x0101_0101, 10]), 20);
        assert_eq!(run("dp4a.s32.s32", &[0xff, 0xff, 0]), 1); // -1 * -1
        assert_eq!(run("dp4a.u32.s32", &[0xff, 0xff, 0]), 0xffff_ff01); // 255 * -1
        assert_eq!(run("dp4a.u32.u32", &[0xffff_ffff, 0xffff_ffff, 0]), 4 * 255 * 255);
        assert_eq!(run("dp2a.lo.u32.u32", &[0x0002_0003, 0x0403_0201, 1]), 1 + 3 + 2 * 2);
        assert_eq!(run("dp2a.hi.u32.u32", &[0x0002_0003, 0x0403_0201, 1]), 1 + 3 * 3 + 2 * 4);
        assert_eq!(run("dp2a.lo.s32.s32", &[0xffff, 0xff, 0]), 1);
        assert_eq!(run("dp2a.hi.s32.u32", &[0x8000_8000, 0xffff_0000, 0]), (-2i64 * 32768 * 255) as u32 as u128);
    }

    proptest! {
        #[test]
        fn match_rust_dot_products(a: u32, b: u32, c: u32) {
            let bytes = |x: u32| x.to_le_bytes();
            let mut expect = c;
            for i in 0..4 {
                expect = expect.wrapping_add((i32::from(bytes(a)[i] as i8) * i32::from(bytes(b)[i])) as u32);
            }
            prop_assert_eq!(run("dp4a.s32.u32", &[a.into(), b.into(), c.into()]), expect.into());
            let halves = [a as u16 as i16, (a >> 16) as u16 as i16];
            let mut expect = c;
            for (i, half) in halves.iter().enumerate() {
                expect = expect.wrapping_add((i32::from(*half) * i32::from(bytes(b)[2 + i] as i8)) as u32);
            }
            prop_assert_eq!(run("dp2a.hi.s32.s32", &[a.into(), b.into(), c.into()]), expect.into());
        }
    }
}
