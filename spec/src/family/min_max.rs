//! Section 9.7.1.12-13: min, max.
//! The concrete semantics, as an emulator author writes them: a compare and
//! select per lane, then .relu's clamp of negative lanes to zero.

use super::Semantics;
use crate::bv::Algebra;
use crate::catalogue::min_max::*;
use crate::catalogue::{defined, Inputs, Outputs};

impl Semantics for MinMax {
    /// Inputs: `a, b`.
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let (is_min, ty, relu) = match *self {
            MinMax::Min { ty, relu } => (true, ty, relu),
            MinMax::Max { ty, relu } => (false, ty, relu),
        };
        let lane_width = ty.lane_width();
        let mut d: Option<A::Bv> = None;
        for lane in 0..ty.lanes() {
            let lo = lane * lane_width;
            let a = alg.extract(lo + lane_width - 1, lo, ins.get("a"));
            let b = alg.extract(lo + lane_width - 1, lo, ins.get("b"));
            let a_less = alg.less(ty.is_signed(), a, b);
            let mut r = if is_min { alg.ite(a_less, a, b) } else { alg.ite(a_less, b, a) };
            if relu {
                // A negative lane has its top bit set; zero it whole.
                let keep = alg.bvnot(alg.sign_extend(lane_width - 1, alg.bit(r, lane_width - 1)));
                r = alg.bvand(r, keep);
            }
            d = Some(match d {
                None => r,
                Some(low) => alg.concat(r, low),
            });
        }
        vec![defined(alg, d.expect("at least one lane"))]
    }
}

#[cfg(test)]
mod tests {
    use crate::family::testing::run;
    use proptest::prelude::*;

    // Values worked by hand from 9.7.1.12-13.
    #[test]
    fn hand_worked_values() {
        assert_eq!(run("min.u32", &[0xffff_ffff, 1]), 1);
        assert_eq!(run("min.s32", &[0xffff_ffff, 1]), 0xffff_ffff);
        assert_eq!(run("min.relu.s32", &[0xffff_ffff, 1]), 0);
        assert_eq!(run("max.relu.s32", &[0xffff_ffff, 0xffff_fffe]), 0);
        assert_eq!(run("max.s64", &[u128::from(u64::MAX), 0]), 0);
        assert_eq!(run("max.u16x2", &[0x0001_ffff, 0x0002_0000]), 0x0002_ffff);
        assert_eq!(run("min.s16x2", &[0x0001_ffff, 0x0002_0000]), 0x0001_ffff);
        assert_eq!(run("min.relu.s16x2", &[0x0001_ffff, 0x0002_0000]), 0x0001_0000);
        assert_eq!(run("max.relu.s16x2", &[0x8000_0005, 0x9000_0003]), 0x0000_0005);
    }

    proptest! {
        #[test]
        fn match_rust_min_max(a: i32, b: i32) {
            let u = |x: i32| u128::from(x as u32);
            prop_assert_eq!(run("min.s32", &[u(a), u(b)]), u(a.min(b)));
            prop_assert_eq!(run("max.relu.s32", &[u(a), u(b)]), u(a.max(b).max(0)));
            prop_assert_eq!(run("min.u32", &[u(a), u(b)]), u128::from((a as u32).min(b as u32)));
            let lane = |x: i32, i: u32| (x as u32 >> (16 * i)) as u16 as i16;
            let packed = |f: &dyn Fn(i16, i16) -> i16| u128::from(f(lane(a, 0), lane(b, 0)) as u16) | u128::from(f(lane(a, 1), lane(b, 1)) as u16) << 16;
            prop_assert_eq!(run("max.s16x2", &[u(a), u(b)]), packed(&|x, y| x.max(y)));
            prop_assert_eq!(run("min.relu.s16x2", &[u(a), u(b)]), packed(&|x, y| x.min(y).max(0)));
        }
    }
}
