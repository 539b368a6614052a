//! Sections 9.7.9.5 and 9.7.9.6: shfl and shfl.sync, transcribed from the
//! Semantics block for one thread with a free lane id: `SourceA` built from
//! every lane, then `maxLane`, `minLane`, `j` and `pval` as the pseudocode
//! computes them, and `d = SourceA[j]` read through a mux tree on the bits
//! of `j`. shfl.sync's `wait_for_specified_threads(membermask)` ends, with
//! defined results, when the thread is in its mask and every other member
//! that executes has the same mask: whole-word tests on the masks.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::shfl::{Mode, Shfl, WARP};
use ptx_spec::catalogue::{Inputs, Out, Outputs};

pub fn encode<A: Algebra>(v: &Shfl, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let lane = ins.get("lane");
    let (b, c) = (ins.get("b"), ins.get("c"));
    let a = ins.from("a0", WARP);
    let active = ins.from("active0", WARP);
    let unpredictable = ins.from("unpredictable0", WARP);
    // SourceA[k]: a if lane k is active with its guard true, else a value
    // nobody can predict (a free input of the proof).
    let source_a: Vec<A::Bv> = (0..WARP).map(|k| sym.ite(sym.is_set(active[k]), a[k], unpredictable[k])).collect();
    let bval = sym.extract(4, 0, b);
    let cval = sym.extract(4, 0, c);
    let mask = sym.extract(12, 8, c);
    let max_lane = sym.bvor(sym.bvand(lane, mask), sym.bvand(cval, sym.bvnot(mask)));
    let min_lane = sym.bvand(lane, mask);
    // j is an integer (assumption shfl-source-lane): 32-bit two's
    // complement holds every value lane +- bval takes exactly.
    let int = |x: A::Bv| sym.zero_extend(32 - sym.width(x), x);
    let (j, pval) = match v.mode {
        Mode::Up => {
            let j = sym.bvsub(int(lane), int(bval));
            (j, sym.bvsge(j, int(max_lane)))
        }
        Mode::Down => {
            let j = sym.bvadd(int(lane), int(bval));
            (j, sym.bvsle(j, int(max_lane)))
        }
        Mode::Bfly => {
            let j = sym.bvxor(int(lane), int(bval));
            (j, sym.bvsle(j, int(max_lane)))
        }
        Mode::Idx => {
            let j = int(sym.bvor(min_lane, sym.bvand(bval, sym.bvnot(mask))));
            (j, sym.bvsle(j, int(max_lane)))
        }
    };
    let j = sym.ite(pval, j, int(lane));
    // SourceA[j] exists only for j in 0..31; anything else would read
    // outside the warp, which no value can stand for.
    let in_warp = sym.bvult(j, sym.constant(32, WARP as u128));
    let index = sym.extract(4, 0, j);
    let executes = sym.is_set(mux(sym, lane, active));
    let source_executes = sym.is_set(mux(sym, index, active));
    let (executes, source_executes) = if v.sync {
        let membermask = ins.get("membermask");
        let members: Vec<A::Bv> = (0..WARP as u32).map(|k| sym.bit(membermask, k)).collect();
        let waits_ends = sym.and(sym.is_set(mux(sym, lane, &members)), masks_agree(sym, lane, membermask, ins));
        (sym.and(executes, waits_ends), sym.and(source_executes, sym.is_set(mux(sym, index, &members))))
    } else {
        (executes, source_executes)
    };
    let mut outs =
        vec![Out { value: mux(sym, index, &source_a), defined: sym.and(executes, sym.and(in_warp, source_executes)) }];
    if v.pred {
        outs.push(Out { value: sym.bool_to_bv(pval), defined: executes });
    }
    outs
}

/// Whether the other lanes of `membermask` that execute all have the same
/// mask: the word of lanes that execute with another mask (bit k:
/// `active[k]` and not `agrees[k]`) meets the mask, less the thread's own
/// bit, nowhere.
fn masks_agree<A: Algebra>(sym: &A, lane: A::Bv, membermask: A::Bv, ins: &Inputs<A::Bv>) -> A::Bool {
    let active = ins.from("active0", WARP);
    let agrees = ins.from("agrees0", WARP);
    let other_mask =
        (0..WARP).rev().map(|k| sym.bvand(active[k], sym.bvnot(agrees[k]))).reduce(|hi, lo| sym.concat(hi, lo));
    let other_mask = other_mask.expect("a warp has lanes");
    let own = sym.bvshl(sym.constant(32, 1), sym.zero_extend(27, lane));
    sym.is_zero(sym.bvand(other_mask, sym.bvand(membermask, sym.bvnot(own))))
}

/// `values[index]` for 2^k values: halve the candidates on each bit of the
/// index, lowest bit first.
fn mux<A: Algebra>(sym: &A, index: A::Bv, values: &[A::Bv]) -> A::Bv {
    let mut level = values.to_vec();
    let mut bit = 0;
    while level.len() > 1 {
        let set = sym.is_set(sym.bit(index, bit));
        level = level.chunks(2).map(|pair| sym.ite(set, pair[1], pair[0])).collect();
        bit += 1;
    }
    level[0]
}
