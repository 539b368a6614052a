//! Sections 9.7.9.5 and 9.7.9.6: shfl (deprecated) and shfl.sync, the warp
//! shuffle.
//!
//! The one instruction in scope whose result depends on other lanes. Its
//! model is one thread's view of the warp, as the Semantics block is
//! written: the thread's lane id (`[Thread].laneid`), its own `b` and `c`,
//! and every lane's `a`, whether that lane executes (active, guard predicate
//! true) and the unpredictable value it supplies when it does not. shfl.sync
//! adds the thread's `membermask` and, for each lane, whether it executes
//! shfl.sync with that same mask. The outputs are the thread's `d` (and
//! `p`). A proof over this model, with the lane id free, holds for every
//! lane of the warp; [`Warp::run`] runs the 32 threads of a warp.
//!
//! The concrete semantics are what a warp emulator writes: decide whether the
//! source lane is in range with comparisons that cannot overflow, then read
//! the source lane's register by comparing its index with each lane in turn,
//! and test a lane's membership by shifting the mask. The SMT encoding
//! instead transcribes the pseudocode's arithmetic on `j`, indexes with a
//! mux tree on the bits of `j`, and tests the masks with whole-word logic.

use super::Semantics;
use crate::bv::{Algebra, BitVec, Concrete};
use crate::catalogue::shfl::*;
use crate::catalogue::{Inputs, Out, Outputs, Variant};
use crate::hardware::Model;

impl Semantics for Shfl {
    fn semantics<A: Algebra>(&self, alg: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
        let me = ins.get("lane");
        let a = ins.from("a0", WARP);
        let active = ins.from("active0", WARP);
        let (source, in_range) = source_lane(alg, self.mode, me, ins.get("b"), ins.get("c"));
        // A thread that does not execute writes nothing; one that reads from
        // such a lane gets an unpredictable value.
        let executes = alg.is_set(read_lane(alg, me, active));
        let source_executes = alg.is_set(read_lane(alg, source, active));
        // shfl.sync (9.7.9.6): a thread outside its own mask, or one whose
        // mask names a lane that executes with another mask, has undefined
        // results (assumptions shfl-sync-membermask, shfl-sync-mask-agreement);
        // a source lane outside the mask is like one that does not execute.
        let (takes_part, source_member) = if self.sync {
            let mask = ins.get("membermask");
            let agree = masks_agree(alg, me, mask, active, ins.from("agrees0", WARP));
            (alg.and(member(alg, mask, me), agree), member(alg, mask, source))
        } else {
            (alg.bool_constant(true), alg.bool_constant(true))
        };
        let defined = alg.and(executes, takes_part);
        let d_defined = alg.and(defined, alg.and(source_executes, source_member));
        let mut outs = vec![Out { value: read_lane(alg, source, a), defined: d_defined }];
        if self.pred {
            outs.push(Out { value: alg.bool_to_bv(in_range), defined });
        }
        outs
    }
}

/// Whether `lane` (5 bits) is a member of `mask`: its bit, shifted down.
pub fn member<A: Algebra>(alg: &A, mask: A::Bv, lane: A::Bv) -> A::Bool {
    alg.is_set(alg.extract(0, 0, alg.bvlshr(mask, alg.zero_extend(27, lane))))
}

/// Whether every other lane of `mask` that executes does so with the same
/// mask (`agrees[k]`): the condition under which the thread's wait ends.
pub fn masks_agree<A: Algebra>(alg: &A, me: A::Bv, mask: A::Bv, active: &[A::Bv], agrees: &[A::Bv]) -> A::Bool {
    (0..WARP).fold(alg.bool_constant(true), |acc, k| {
        let lane = alg.constant(5, k as u128);
        let waits_for = alg.and(alg.not(alg.eq(me, lane)), alg.and(member(alg, mask, lane), alg.is_set(active[k])));
        alg.and(acc, alg.or(alg.not(waits_for), alg.is_set(agrees[k])))
    })
}

/// One warp's registers and state, for running shfl on all of its lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warp {
    pub a: [u32; WARP],
    pub b: [u32; WARP],
    pub c: [u32; WARP],
    /// Each lane's membermask (read by shfl.sync only).
    pub membermask: [u32; WARP],
    /// Bit `l`: lane `l` is active with its guard predicate true.
    pub active: u32,
}

/// What one lane of a warp computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneResult {
    /// The lane executed the instruction.
    pub executes: bool,
    /// For shfl.sync, the lane is in its own mask and the lanes of its mask
    /// agree on it; always true for shfl. Where false, d and p are `None`.
    pub takes_part: bool,
    /// The lane it read `a` from (its own when the source was out of range).
    pub source: u32,
    /// `pval`: the computed source was in range.
    pub in_range: bool,
    /// `None` where the source lane did not execute (unpredictable) or this
    /// lane did not execute (nothing written).
    pub d: Option<u32>,
    /// `None` where this lane did not execute.
    pub p: Option<bool>,
}

impl Warp {
    /// A warp of `a`, every lane with the same `b` and `c`, and with the
    /// lanes that execute as every lane's membermask (shfl.sync's usual
    /// mask; shfl reads none).
    pub fn uniform(a: [u32; WARP], b: u32, c: u32, active: u32) -> Warp {
        Warp { a, b: [b; WARP], c: [c; WARP], membermask: [active; WARP], active }
    }

    /// The inputs of `shfl`'s model for the thread in `lane` (unpredictable
    /// values 0: the concrete semantics never read them).
    pub fn thread_inputs(&self, shfl: Shfl, lane: usize) -> Vec<BitVec> {
        let w = |x: u32| BitVec::new(32, x.into());
        let bit = |x: bool| BitVec::new(1, u128::from(x));
        let mut ins = vec![BitVec::new(5, lane as u128), w(self.b[lane]), w(self.c[lane])];
        ins.extend(self.a.map(w));
        ins.extend((0..WARP).map(|l| bit(self.active >> l & 1 == 1)));
        ins.extend((0..WARP).map(|_| w(0)));
        if shfl.sync {
            let mine = self.membermask[lane];
            ins.push(w(mine));
            ins.extend(self.membermask.map(|m| bit(m == mine)));
        }
        ins
    }

    /// Run `shfl` on every lane, with the concrete semantics (`p` is
    /// reported whichever form `shfl` is).
    pub fn run(&self, shfl: Shfl) -> Vec<LaneResult> {
        self.run_in(shfl, Model::Spec)
    }

    /// [`Warp::run`] with the concrete semantics of `model`.
    pub fn run_in(&self, shfl: Shfl, model: Model) -> Vec<LaneResult> {
        let c = Concrete;
        let with_p = Shfl { pred: true, ..shfl };
        (0..WARP)
            .map(|lane| {
                let values = self.thread_inputs(with_p, lane);
                let operands = Variant::Shfl(with_p).inputs();
                let ins = Inputs::new(&operands, &values);
                let (d, p) = match Variant::Shfl(with_p).semantics_in(model, &c, &values)[..] {
                    [d, p] => (d, p),
                    _ => unreachable!("shfl with d|p writes two outputs"),
                };
                let (source, in_range) = source_lane(&c, shfl.mode, ins.get("lane"), ins.get("b"), ins.get("c"));
                let executes = self.active >> lane & 1 == 1;
                LaneResult {
                    executes,
                    takes_part: !executes || p.defined,
                    source: source.unsigned() as u32,
                    in_range,
                    d: d.defined.then(|| d.value.unsigned() as u32),
                    p: p.defined.then(|| p.value.unsigned() == 1),
                }
            })
            .collect()
    }
}

/// The lane the thread in lane `me` (5 bits) reads from, and whether the
/// computed source was in range; out of range, the thread reads its own lane.
pub fn source_lane<A: Algebra>(alg: &A, mode: Mode, me: A::Bv, b: A::Bv, c: A::Bv) -> (A::Bv, A::Bool) {
    let bval = alg.extract(4, 0, b);
    let clamp = alg.extract(4, 0, c);
    let segment = alg.extract(12, 8, c);
    let segment_start = alg.bvand(me, segment);
    // The highest lane of this lane's segment, after clamping.
    let last = alg.bvor(segment_start, alg.bvand(clamp, alg.bvnot(segment)));
    let (source, in_range) = match mode {
        Mode::Up => {
            // lane - bval, in range when it is neither below 0 nor below `last`.
            let source = alg.bvsub(me, bval);
            (source, alg.and(alg.bvule(bval, me), alg.bvuge(source, last)))
        }
        Mode::Down => {
            // lane + bval in 6 bits, so it cannot wrap past lane 31.
            let sum = alg.bvadd(alg.zero_extend(1, me), alg.zero_extend(1, bval));
            (alg.extract(4, 0, sum), alg.bvule(sum, alg.zero_extend(1, last)))
        }
        Mode::Bfly => {
            let source = alg.bvxor(me, bval);
            (source, alg.bvule(source, last))
        }
        Mode::Idx => {
            let source = alg.bvor(segment_start, alg.bvand(bval, alg.bvnot(segment)));
            (source, alg.bvule(source, last))
        }
    };
    (alg.ite(in_range, source, me), in_range)
}

/// The value lane `index` holds: each lane compared with the index in turn.
pub fn read_lane<A: Algebra>(alg: &A, index: A::Bv, values: &[A::Bv]) -> A::Bv {
    values[1..]
        .iter()
        .enumerate()
        .fold(values[0], |acc, (k, &v)| alg.ite(alg.eq(index, alg.constant(5, k as u128 + 1)), v, acc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn uniform(b: u32, c: u32) -> Warp {
        Warp::uniform(std::array::from_fn(|l| 100 + l as u32), b, c, u32::MAX)
    }

    /// Per lane: d and p.
    fn run(w: &Warp, mode: Mode) -> Vec<(Option<u32>, Option<bool>)> {
        w.run(Shfl { mode, pred: true, sync: false }).iter().map(|r| (r.d, r.p)).collect()
    }

    fn run_sync(w: &Warp, mode: Mode) -> Vec<(Option<u32>, Option<bool>)> {
        w.run(Shfl { mode, pred: true, sync: true }).iter().map(|r| (r.d, r.p)).collect()
    }

    /// What a warp emulator computes for lane `lane`, written with plain
    /// integers straight from the Description.
    fn reference(w: &Warp, mode: Mode, lane: usize) -> (Option<u32>, Option<bool>) {
        if w.active >> lane & 1 == 0 {
            return (None, None);
        }
        let (bval, cval, mask) = ((w.b[lane] & 31) as i32, (w.c[lane] & 31) as i32, (w.c[lane] >> 8 & 31) as i32);
        let me = lane as i32;
        let max_lane = (me & mask) | (cval & !mask);
        let (j, pval) = match mode {
            Mode::Up => (me - bval, me - bval >= max_lane),
            Mode::Down => (me + bval, me + bval <= max_lane),
            Mode::Bfly => (me ^ bval, (me ^ bval) <= max_lane),
            Mode::Idx => ((me & mask) | (bval & !mask), ((me & mask) | (bval & !mask)) <= max_lane),
        };
        let j = if pval { j as usize } else { lane };
        let d = (w.active >> j & 1 == 1).then_some(w.a[j]);
        (d, Some(pval))
    }

    /// [`reference`] for shfl.sync: the Description's conditions on the
    /// member mask, checked lane by lane.
    fn reference_sync(w: &Warp, mode: Mode, lane: usize) -> (Option<u32>, Option<bool>) {
        let mask = w.membermask[lane];
        let in_mask = |l: usize| mask >> l & 1 == 1;
        let disagrees = (0..WARP).any(|k| k != lane && in_mask(k) && w.active >> k & 1 == 1 && w.membermask[k] != mask);
        if !in_mask(lane) || disagrees {
            return (None, None);
        }
        let (d, p) = reference(w, mode, lane);
        let source = w.run(Shfl { mode, pred: true, sync: false })[lane].source as usize;
        (d.filter(|_| in_mask(source)), p)
    }

    #[test]
    fn sync_lanes_outside_the_mask_or_disagreeing_are_undefined() {
        let mut w = uniform(1, 0);
        w.membermask = [0x0000_ffff; WARP];
        let out = run_sync(&w, Mode::Up);
        assert_eq!(out[3], (Some(102), Some(true)));
        assert_eq!(out[20], (None, None), "lane 20 is outside its own mask");
        // Lane 16 reads lane 15 with its own mask 0xffff0000: lane 15 is not
        // a member of it.
        w.membermask[16..].fill(0xffff_0000);
        assert_eq!(run_sync(&w, Mode::Up)[16], (None, Some(true)));
        assert_eq!(run_sync(&w, Mode::Up)[17], (Some(116), Some(true)));
        // Lane 5 executes with another mask: every other member of lane 4's
        // mask must agree.
        w.membermask[5] = 0x0000_00ff;
        assert_eq!(run_sync(&w, Mode::Up)[4], (None, None));
    }

    #[test]
    fn up_by_one_shifts_the_warp_and_lane_0_keeps_its_value() {
        let out = run(&uniform(1, 0), Mode::Up);
        assert_eq!(out[0], (Some(100), Some(false)));
        for (l, o) in out.iter().enumerate().skip(1) {
            assert_eq!(*o, (Some(100 + l as u32 - 1), Some(true)), "lane {l}");
        }
    }

    #[test]
    fn down_by_two_with_clamp_31() {
        let out = run(&uniform(2, 0x1f), Mode::Down);
        assert_eq!(out[29], (Some(131), Some(true)));
        assert_eq!(out[30], (Some(130), Some(false)));
        assert_eq!(out[31], (Some(131), Some(false)));
    }

    #[test]
    fn bfly_by_16_swaps_the_halves() {
        // c = 0x1f: one segment, maxLane 31.
        let out = run(&uniform(0x10, 0x1f), Mode::Bfly);
        assert_eq!(out[3], (Some(119), Some(true)));
        assert_eq!(out[19], (Some(103), Some(true)));
    }

    #[test]
    fn idx_reads_the_named_lane_of_each_segment() {
        // mask = 0x18: segments of 8 lanes; clamp 0x07: the whole segment.
        let out = run(&uniform(5, 0x1807), Mode::Idx);
        for (l, o) in out.iter().enumerate() {
            assert_eq!(*o, (Some(100 + (l as u32 & 0x18) + 5), Some(true)), "lane {l}");
        }
        // Only b[4:0] counts: b = 37 names lane 5 too.
        assert_eq!(run(&uniform(37, 0x1807), Mode::Idx), out);
    }

    #[test]
    fn inactive_lanes_write_nothing_and_their_readers_get_unpredictable() {
        let mut w = uniform(1, 0);
        w.active = !(1 << 4);
        let out = w.run(Shfl { mode: Mode::Up, pred: true, sync: false });
        assert_eq!((out[4].executes, out[4].d, out[4].p), (false, None, None));
        assert_eq!((out[5].source, out[5].d, out[5].p), (4, None, Some(true)), "lane 5 reads lane 4");
        assert_eq!(out[6].d, Some(105));
    }

    fn warp_strategy() -> impl Strategy<Value = Warp> {
        // Small b and c fields hit the edges of the warp and segments often;
        // the bits shfl ignores are set at random.
        let field = || (0u32..40, 0u32..32, any::<u32>());
        (
            prop::array::uniform32(any::<u32>()),
            prop::array::uniform32(field()),
            prop::array::uniform32(field()),
            prop_oneof![Just(u32::MAX), any::<u32>()],
            // A full mask; one mask for all lanes; two masks; any masks.
            prop_oneof![
                Just([u32::MAX; WARP]),
                any::<u32>().prop_map(|m| [m; WARP]),
                (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(m, n, which)| std::array::from_fn(|l| {
                    if which >> l & 1 == 1 {
                        m
                    } else {
                        n
                    }
                })),
                prop::array::uniform32(any::<u32>()),
            ],
        )
            .prop_map(|(a, b, c, active, membermask)| Warp {
                a,
                b: b.map(|(v, _, junk)| v | (junk & !0x3f)),
                c: c.map(|(clamp, mask, junk)| clamp | mask << 8 | (junk & !0x1f1f)),
                membermask,
                active,
            })
    }

    proptest! {
        #[test]
        fn matches_integer_reference(w in warp_strategy(), m in 0usize..4) {
            let mode = Mode::ALL[m];
            let out = run(&w, mode);
            for (lane, o) in out.iter().enumerate() {
                prop_assert_eq!(*o, reference(&w, mode, lane), "lane {}", lane);
            }
        }

        #[test]
        fn sync_matches_integer_reference(w in warp_strategy(), m in 0usize..4) {
            let mode = Mode::ALL[m];
            let out = run_sync(&w, mode);
            for (lane, o) in out.iter().enumerate() {
                prop_assert_eq!(*o, reference_sync(&w, mode, lane), "lane {}", lane);
            }
        }

        /// With every lane's mask full, shfl.sync is shfl.
        #[test]
        fn sync_with_a_full_mask_is_shfl(w in warp_strategy(), m in 0usize..4) {
            let w = Warp { membermask: [u32::MAX; WARP], ..w };
            prop_assert_eq!(run_sync(&w, Mode::ALL[m]), run(&w, Mode::ALL[m]));
        }
    }
}
