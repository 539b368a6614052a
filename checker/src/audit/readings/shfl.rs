//! Sections 9.7.9.5 and 9.7.9.6: shfl (deprecated) and shfl.sync, the warp
//! shuffle. The readings the model does not adopt, for the audit's passages.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::shfl::*;
use ptx_spec::catalogue::{Out, Outputs, Variant};
use ptx_spec::family::shfl::*;

/// Readings of the source lane `j` the model does not adopt (see assumption
/// shfl-source-lane), kept for the audit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceReading {
    /// `j` held in 5 bits like `lane[4:0]`: .up and .down wrap around the warp.
    FiveBit,
    /// `j` an unsigned 32-bit integer, as C's unsigned arithmetic: .up below
    /// lane 0 wraps to a huge index that passes `j >= maxLane`.
    Unsigned32,
    /// `j` the model's signed integer, and `maxLane` the upper bound the
    /// Description calls c's clamp in every mode: .up reads lane j where
    /// 0 <= j <= maxLane, as the other modes do.
    ClampAsUpperBound,
}

/// Under `reading`, for the thread in lane `lane` (5 bits): the source lane
/// index `j` (32 bits, may lie outside the warp) and `pval`, after an
/// out-of-range `j` is replaced by the lane.
pub fn source_lane_reading<A: Algebra>(
    alg: &A,
    reading: SourceReading,
    mode: Mode,
    lane: A::Bv,
    b: A::Bv,
    c: A::Bv,
) -> (A::Bv, A::Bool) {
    let width = match reading {
        SourceReading::FiveBit => 5,
        SourceReading::Unsigned32 | SourceReading::ClampAsUpperBound => 32,
    };
    let widen = |x: A::Bv| alg.zext_or_trunc(x, width);
    let bval = widen(alg.extract(4, 0, b));
    let cval = widen(alg.extract(4, 0, c));
    let mask = widen(alg.extract(12, 8, c));
    let me = widen(lane);
    let min_lane = alg.bvand(me, mask);
    let max_lane = alg.bvor(min_lane, alg.bvand(cval, alg.bvnot(mask)));
    let (j, pval) = match mode {
        Mode::Up if reading == SourceReading::ClampAsUpperBound => {
            let j = alg.bvsub(me, bval);
            (j, alg.and(alg.bvsge(j, alg.constant(32, 0)), alg.bvsle(j, max_lane)))
        }
        Mode::Up => {
            let j = alg.bvsub(me, bval);
            (j, alg.bvuge(j, max_lane))
        }
        Mode::Down => {
            let j = alg.bvadd(me, bval);
            (j, alg.bvule(j, max_lane))
        }
        Mode::Bfly => {
            let j = alg.bvxor(me, bval);
            (j, alg.bvule(j, max_lane))
        }
        Mode::Idx => {
            let j = alg.bvor(min_lane, alg.bvand(bval, alg.bvnot(mask)));
            (j, alg.bvule(j, max_lane))
        }
    };
    (alg.zext_or_trunc(alg.ite(pval, j, me), 32), pval)
}

/// What an executing thread gets from a source lane that does not execute
/// (assumption shfl-unpredictable-source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InactiveSource {
    /// Any value (the model).
    Unpredictable,
    /// The source lane's register a as it stands.
    RegisterAnyway,
    /// The thread's own a, as when the source is out of range.
    OwnValue,
}

/// shfl with the source lane computed as `reading` says (`None`: the model's
/// exact signed j) and a read from a lane that does not execute resolved as
/// `inactive` says; kept for the audit. A source index outside the warp (the
/// unsigned reading's wrapped j) names no lane, so d is undefined there.
pub fn shfl_reading<A: Algebra>(
    alg: &A,
    shfl: Shfl,
    reading: Option<SourceReading>,
    inactive: InactiveSource,
    ins: &[A::Bv],
) -> Outputs<A> {
    let me = ins[input::LANE];
    let a = &ins[input::A..input::A + WARP];
    let active = &ins[input::ACTIVE..input::ACTIVE + WARP];
    let (source, in_range, in_warp) = match reading {
        None => {
            let (source, in_range) = source_lane(alg, shfl.mode, me, ins[input::B], ins[input::C]);
            (source, in_range, alg.bool_constant(true))
        }
        Some(r) => {
            let (j, pval) = source_lane_reading(alg, r, shfl.mode, me, ins[input::B], ins[input::C]);
            (alg.extract(4, 0, j), pval, alg.bvult(j, alg.constant(32, WARP as u128)))
        }
    };
    let executes = alg.is_set(read_lane(alg, me, active));
    let source_executes = alg.is_set(read_lane(alg, source, active));
    let own = read_lane(alg, me, a);
    let (value, defined) = match inactive {
        InactiveSource::Unpredictable => (read_lane(alg, source, a), alg.and(executes, source_executes)),
        InactiveSource::RegisterAnyway => (read_lane(alg, source, a), executes),
        InactiveSource::OwnValue => (alg.ite(source_executes, read_lane(alg, source, a), own), executes),
    };
    let mut outs = vec![Out { value, defined: alg.and(defined, in_warp) }];
    if shfl.pred {
        outs.push(Out { value: alg.bool_to_bv(in_range), defined: executes });
    }
    outs
}

/// The outputs of an executing thread that reads lane `source`, with `p`
/// set to `in_range`: d is defined where the thread and its source execute.
fn reads_lane<A: Algebra>(alg: &A, shfl: Shfl, ins: &[A::Bv], source: A::Bv, in_range: A::Bool) -> Outputs<A> {
    let a = &ins[input::A..input::A + WARP];
    let active = &ins[input::ACTIVE..input::ACTIVE + WARP];
    let executes = alg.is_set(read_lane(alg, ins[input::LANE], active));
    let source_executes = alg.is_set(read_lane(alg, source, active));
    let mut outs = vec![Out { value: read_lane(alg, source, a), defined: alg.and(executes, source_executes) }];
    if shfl.pred {
        outs.push(Out { value: alg.bool_to_bv(in_range), defined: executes });
    }
    outs
}

/// shfl with c's bound read as a clamp, as the Description's "bound for
/// clamping the source lane index" may be read: a source index past the
/// bound is pulled back to it, and the thread reads the bound's lane where
/// the block has it read its own `a` (passage shfl-clamp-bound). `p` is
/// the model's: whether the index was in range.
pub fn shfl_clamped_reading<A: Algebra>(alg: &A, shfl: Shfl, ins: &[A::Bv]) -> Outputs<A> {
    let me = ins[input::LANE];
    let c = ins[input::C];
    let (source, in_range) = source_lane(alg, shfl.mode, me, ins[input::B], c);
    // The bound's lane: the last lane of this lane's segment after the
    // clamp value, as the block's maxLane.
    let segment = alg.extract(12, 8, c);
    let bound = alg.bvor(alg.bvand(me, segment), alg.bvand(alg.extract(4, 0, c), alg.bvnot(segment)));
    reads_lane(alg, shfl, ins, alg.ite(in_range, source, bound), in_range)
}

/// shfl with c's mask read as the Description's "splitting warps into
/// sub-segments": a source lane outside the thread's own sub-segment (its
/// lane bits under the mask differ) is out of range, so the thread copies
/// its own `a` and `p` is false. The block bounds `j` only from above, so
/// .bfly's `lane ^ bval` may reach a lower sub-segment (passage
/// shfl-bfly-segment).
pub fn shfl_within_segment_reading<A: Algebra>(alg: &A, shfl: Shfl, ins: &[A::Bv]) -> Outputs<A> {
    let me = ins[input::LANE];
    let (source, in_range) = source_lane(alg, shfl.mode, me, ins[input::B], ins[input::C]);
    let segment = alg.extract(12, 8, ins[input::C]);
    let same_segment = alg.eq(alg.bvand(source, segment), alg.bvand(me, segment));
    let in_range = alg.and(in_range, same_segment);
    reads_lane(alg, shfl, ins, alg.ite(in_range, source, me), in_range)
}

/// shfl as the block reads for a thread that does not execute (inactive, or
/// its guard false): the block's only test of that is where it fills
/// `SourceA`, so the thread still computes `j`, writes `d = SourceA[j]`
/// (its own slot unpredictable) and `p = pval`. The model writes nothing
/// there, as a false guard means elsewhere in PTX.
pub fn shfl_guard_off_reading<A: Algebra>(alg: &A, shfl: Shfl, ins: &[A::Bv]) -> Outputs<A> {
    let me = ins[input::LANE];
    let a = &ins[input::A..input::A + WARP];
    let active = &ins[input::ACTIVE..input::ACTIVE + WARP];
    let (source, in_range) = source_lane(alg, shfl.mode, me, ins[input::B], ins[input::C]);
    let source_executes = alg.is_set(read_lane(alg, source, active));
    let mut outs = vec![Out { value: read_lane(alg, source, a), defined: source_executes }];
    if shfl.pred {
        outs.push(Out { value: alg.bool_to_bv(in_range), defined: alg.bool_constant(true) });
    }
    outs
}

/// Readings of shfl.sync's member mask the model does not adopt
/// (assumptions shfl-sync-membermask and shfl-sync-mask-agreement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyncReading {
    /// The Semantics block alone: after the wait, membermask is never read,
    /// so the data moves as under a full mask that every lane shares.
    MaskIgnored,
    /// Only the source lane must be a member: a thread outside its own mask
    /// shuffles like any other.
    OwnBitIgnored,
    /// Each thread waits for its own mask's lanes whatever mask they give:
    /// lanes that disagree change nothing.
    DisagreementIgnored,
    /// The mask names the lanes of a barrier and nothing more, as the
    /// operand's sentence words it: the thread must be in it and its lanes
    /// must agree on it, but a source lane outside it still supplies its a.
    BarrierOnly,
}

/// shfl.sync under `reading`: the model's semantics on inputs where what the
/// reading ignores is made to hold.
pub fn shfl_sync_reading<A: Algebra>(alg: &A, shfl: Shfl, reading: SyncReading, ins: &[A::Bv]) -> Outputs<A> {
    let mut changed = ins.to_vec();
    let agree_all = |changed: &mut Vec<A::Bv>| {
        for slot in &mut changed[input::AGREES..input::AGREES + WARP] {
            *slot = alg.constant(1, 1);
        }
    };
    match reading {
        SyncReading::MaskIgnored => {
            changed[input::MEMBERMASK] = alg.ones(32);
            agree_all(&mut changed);
        }
        SyncReading::OwnBitIgnored => {
            let own = alg.bvshl(alg.constant(32, 1), alg.zero_extend(27, ins[input::LANE]));
            changed[input::MEMBERMASK] = alg.bvor(ins[input::MEMBERMASK], own);
        }
        SyncReading::DisagreementIgnored => agree_all(&mut changed),
        SyncReading::BarrierOnly => {
            // A member's mask made full, so that every source is a member,
            // with the lanes outside the real mask agreeing, so that the
            // wait asks of the real mask's lanes alone.
            let mask = ins[input::MEMBERMASK];
            let own = member(alg, mask, ins[input::LANE]);
            changed[input::MEMBERMASK] = alg.ite(own, alg.ones(32), mask);
            for (k, slot) in changed[input::AGREES..input::AGREES + WARP].iter_mut().enumerate() {
                let outside = alg.not(member(alg, mask, alg.constant(5, k as u128)));
                *slot = alg.bvor(*slot, alg.bool_to_bv(outside));
            }
        }
    }
    Variant::Shfl(shfl).semantics(alg, &changed)
}

/// shfl and shfl.sync as the block reads when each thread runs it in its
/// own order: nothing orders lane j's write of `SourceA[j]` before this
/// thread's read of it (shfl.sync's wait comes before both), so a value read
/// from another lane's slot is unpredictable. Only a thread that reads its
/// own slot, which it wrote a few lines before, has a known d; p, which no
/// other lane's write reaches, is as the model has it.
pub fn shfl_unordered_slots_reading<A: Algebra>(alg: &A, shfl: Shfl, ins: &[A::Bv]) -> Outputs<A> {
    let me = ins[input::LANE];
    let (source, _) = source_lane(alg, shfl.mode, me, ins[input::B], ins[input::C]);
    let mut outs = Variant::Shfl(shfl).semantics(alg, ins);
    outs[0].defined = alg.and(outs[0].defined, alg.eq(source, me));
    outs
}
