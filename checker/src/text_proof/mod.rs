//! The third proof: for each variant, the Semantics block of the document
//! in hand, parsed and evaluated over the bit-vector algebra, against the
//! hand-written SMT encoding, for all inputs.
//!
//! The first proof shows that the encoding and the emulator agree; this one
//! shows that the encoding says what the document says. The block is read
//! as the model reads it: integers exact until they are stored (see
//! `pseudocode::value`), helpers and phrases of prose as their sections
//! define them, and a few readings of one section's code, each named (see
//! `pseudocode::readings`). Where the block speaks of no more than part of
//! a variant (it never mentions `.sat`), the difference is named in
//! [`DIFFERENCES`], and the proof must still find it: a named difference
//! that no longer differs is reported, so that the table cannot hide a
//! change of the text.

mod lockstep;

use std::time::{Duration, Instant};

use ptx_smt::{encode, Backend, SatResult, SolverError, Sym, SymBv, SymOutputs, Var};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::carry::FLAG_NAME;
use ptx_spec::catalogue::shfl::WARP;
use ptx_spec::catalogue::{Out, Outputs, Role, Type, Variant};
use rayon::prelude::*;
use serde::Serialize;

use crate::audit::text::document::{BlockKind, Document, Section};
use crate::audit::text::semantics::vocabulary;
use crate::audit::{errata, syntax};
use crate::prove::{timeout_or_unknown, Comparison, Counterexample, Sides};
use crate::pseudocode::eval::{Machine, PassState, Thread};
use crate::pseudocode::fold::Fold;
use crate::pseudocode::readings::{
    self, SectionReading, BOOLOP_ABSENT_READINGS, GATHERED, NOT_C_READINGS, SECTION_READINGS,
};
use crate::pseudocode::setting::{Operand, Setting};
use crate::pseudocode::value::{Int, Truth, Value};
use crate::pseudocode::{self, Parsed, SourceLine};

/// Where a block speaks of less than the variant does, so that the text and
/// the encoding must differ: the variants it concerns and why.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Difference {
    pub id: &'static str,
    /// The opcode it concerns (`None`: every opcode) and the qualifier the
    /// variant writes (`None`: every variant of the opcode).
    pub opcode: Option<&'static str>,
    pub qualifier: Option<&'static str>,
    /// The assumption of the model that settles it, if one does.
    pub assumption: Option<&'static str>,
    pub why: &'static str,
}

/// The differences the model names between a block and its encoding.
pub const DIFFERENCES: &[Difference] = &[
    Difference {
        id: "sat-in-description-only",
        opcode: None,
        qualifier: Some(".sat"),
        assumption: Some("sat-of-exact-result"),
        why: "the block computes the wrapped result; only the Description says that `.sat` limits it",
    },
    Difference {
        id: "relu-in-description-only",
        opcode: None,
        qualifier: Some(".relu"),
        assumption: None,
        why: "the block computes the minimum or maximum; only the Description says that `.relu` clamps \
              negative results to 0, which the model follows",
    },
    Difference {
        id: "mul24-operands-in-description-only",
        opcode: Some("mul24"),
        qualifier: None,
        assumption: Some("mul24-low-24-bits"),
        why: "the block multiplies the whole 32-bit operands; the Description says that only their low 24 bits \
              are multiplied",
    },
    Difference {
        id: "mad24-operands-in-description-only",
        opcode: Some("mad24"),
        qualifier: None,
        assumption: Some("mul24-low-24-bits"),
        why: "the block multiplies the whole 32-bit operands; the Description says that only their low 24 bits \
              are multiplied",
    },
    Difference {
        id: "mad-cc-bounds-u64",
        opcode: Some("mad.cc"),
        qualifier: Some(".u64"),
        assumption: Some("mad-cc-product-halves"),
        why: SLICE_BOUNDS_OF_32_BITS,
    },
    Difference {
        id: "mad-cc-bounds-s64",
        opcode: Some("mad.cc"),
        qualifier: Some(".s64"),
        assumption: Some("mad-cc-product-halves"),
        why: SLICE_BOUNDS_OF_32_BITS,
    },
    Difference {
        id: "madc-bounds-u64",
        opcode: Some("madc"),
        qualifier: Some(".u64"),
        assumption: Some("mad-cc-product-halves"),
        why: SLICE_BOUNDS_OF_32_BITS,
    },
    Difference {
        id: "madc-bounds-s64",
        opcode: Some("madc"),
        qualifier: Some(".s64"),
        assumption: Some("mad-cc-product-halves"),
        why: SLICE_BOUNDS_OF_32_BITS,
    },
];

/// 9.7.2.5-6 at 64 bits.
const SLICE_BOUNDS_OF_32_BITS: &str = "the block takes bits 63..32 or 31..0 of the product, the halves of a 32-bit \
                                       type's; for .u64 and .s64 the model takes the upper or lower 64 bits of the \
                                       128-bit product";

impl Difference {
    /// Whether the difference concerns `variant`.
    pub fn concerns(&self, variant: &Variant) -> bool {
        let name = variant.mnemonic();
        let opcode = variant.opcode();
        self.opcode.is_none_or(|o| o == opcode)
            && self
                .qualifier
                .is_none_or(|q| name.split(' ').next().unwrap_or("").split('.').any(|w| format!(".{w}") == q))
    }
}

/// Placeholders a section's Semantics uses that its Syntax does not name:
/// shf's block switches on `shf.dir`, its Syntax writes `.l` and `.r`.
const UNNAMED_PLACEHOLDERS: &[(&str, &str, &[&str])] = &[("shf", ".dir", &[".l", ".r"])];

/// Operands whose type is not the variant's `.type` (each from its
/// section's Description): shift amounts and bit positions are `.u32`,
/// fns's offset is `.s32`, dp4a/dp2a's sources are `.atype` and
/// `.btype`, and their `c` and `d` are `.u32` where both of those are, else
/// `.s32` (9.7.1.23-24); set's `d` is `.dtype` (9.7.6.1).
const OPERAND_TYPES: &[(&str, &str, Sign)] = &[
    ("shl", "b", Sign::Unsigned),
    ("shr", "b", Sign::Unsigned),
    ("bfe", "b", Sign::Unsigned),
    ("bfe", "c", Sign::Unsigned),
    ("szext", "b", Sign::Unsigned),
    ("fns", "offset", Sign::Signed),
    ("dp4a", "a", Sign::Of(&[".atype"])),
    ("dp4a", "b", Sign::Of(&[".btype"])),
    ("dp4a", "c", Sign::Of(&[".atype", ".btype"])),
    ("dp4a", "d", Sign::Of(&[".atype", ".btype"])),
    ("dp2a", "a", Sign::Of(&[".atype"])),
    ("dp2a", "b", Sign::Of(&[".btype"])),
    ("dp2a", "c", Sign::Of(&[".atype", ".btype"])),
    ("dp2a", "d", Sign::Of(&[".atype", ".btype"])),
    ("set", "d", Sign::Of(&[".dtype"])),
];

/// Whether the block's operand `name` of `opcode` has a type of its own,
/// not the instruction's `.type` (shl's `b` is a `.u32` at every type).
pub fn operand_has_own_type(opcode: &str, name: &str) -> bool {
    OPERAND_TYPES.iter().any(|(op, n, _)| *op == opcode && *n == name)
}

/// Operands a block compares as floating-point values where the variant
/// writes the type as its last qualifier: (opcode, operand, type). The
/// evaluator holds integers and bits only, so such a variant is not read
/// there; the literal reading compares it as C does.
const FLOAT_COMPARED: &[(&str, &str, &str)] = &[("slct", "c", ".f32")];

#[derive(Clone, Copy, Debug)]
enum Sign {
    Unsigned,
    Signed,
    /// Signed where any of these placeholders is a signed type.
    Of(&'static [&'static str]),
}

/// A variant's block, read as the model reads it.
pub struct ReadBlock<'d> {
    pub section: &'d Section,
    pub parsed: Parsed,
    /// The section readings it needed.
    pub readings: Vec<&'static SectionReading>,
    /// The root causes whose proposed fixes it is read with: a block that
    /// does not parse is read as its fix edits it.
    pub fixes: Vec<&'static str>,
    /// The code lines parsed (number, text), the readings and fixes applied:
    /// what a place in `parsed` points into.
    pub lines: Vec<(usize, String)>,
}

/// The first Semantics block of `variant`'s section in `doc`, with the
/// section's readings applied; `Err` says why it cannot be evaluated.
pub fn read_block<'d>(doc: &'d Document, variant: &Variant) -> Result<ReadBlock<'d>, String> {
    read_block_with(doc, variant, true)
}

/// [`read_block`], the code as the text writes it: no reading's edit of
/// the code applied (clz's `a & mask == 0` stays as C binds it). A block
/// that does not parse is still read as its fix edits it.
pub fn read_block_as_written<'d>(doc: &'d Document, variant: &Variant) -> Result<ReadBlock<'d>, String> {
    read_block_with(doc, variant, false)
}

fn read_block_with<'d>(doc: &'d Document, variant: &Variant, edits: bool) -> Result<ReadBlock<'d>, String> {
    let number = variant.section();
    let section = doc
        .sections
        .iter()
        .find(|s| s.number == number && s.block(BlockKind::Semantics).is_some())
        .ok_or_else(|| format!("the text has no Semantics block for section {number}"))?;
    let block = section.block(BlockKind::Semantics).expect("a Semantics block");
    let mut readings = Vec::new();
    let mut lines: Vec<(usize, String)> = block.code().map(|l| (l.number, l.text.clone())).collect();
    for r in SECTION_READINGS.iter().filter(|r| r.section == number && readings::concerns(r.id, variant)) {
        let mut found = false;
        for (_, t) in lines.iter_mut() {
            if let Some((start, end)) = find_ignoring_spaces(t, r.written) {
                found = true;
                if let Some(read_as) = r.read_as.filter(|_| edits) {
                    t.replace_range(start..end, read_as);
                }
            }
        }
        if found {
            readings.push(r);
        }
    }
    let parse = |lines: &[(usize, String)]| {
        let source: Vec<SourceLine<'_>> = lines.iter().map(|(n, t)| SourceLine { number: *n, text: t }).collect();
        pseudocode::parse(&source, &vocabulary(section))
    };
    let mut parsed = parse(&lines);
    let mut fixes = Vec::new();
    if let Some(d) = parsed.diagnostics.first() {
        // A block that does not parse is read as the proposed fix of each
        // malformed place's root cause edits it.
        let broken = format!("the block does not parse at line {}: {}", d.pos, d.message);
        let prefix = format!("text-parse-{number}-");
        for cause in errata::all().iter().filter(|c| c.findings.iter().any(|f| f.starts_with(&prefix))) {
            for edit in cause.edits.iter().filter(|e| e.unit.starts_with(&format!("{number}/semantics/"))) {
                let Some(k) = lines.iter().position(|(_, t)| find_ignoring_spaces(t, &edit.old).is_some()) else {
                    return Err(format!("{broken}; the fix of {} no longer applies", cause.id));
                };
                let (start, end) = find_ignoring_spaces(&lines[k].1, &edit.old).expect("found above");
                let (number, mut text) = lines[k].clone();
                text.replace_range(start..end, &edit.new);
                let new: Vec<(usize, String)> = text.split('\n').map(|t| (number, t.to_string())).collect();
                lines.splice(k..=k, new);
            }
            fixes.push(cause.id.as_str());
        }
        parsed = parse(&lines);
        if let Some(d) = parsed.diagnostics.first() {
            if fixes.is_empty() {
                return Err(broken);
            }
            return Err(format!(
                "{broken}; as the fix of {} edits it, at line {}: {}",
                fixes.join(", "),
                d.pos,
                d.message
            ));
        }
    }
    Ok(ReadBlock { section, parsed, readings, fixes, lines })
}

/// Where `line` holds `fragment`, spaces aside (`a&mask == 0` holds
/// `a & mask == 0`): the byte range.
fn find_ignoring_spaces(line: &str, fragment: &str) -> Option<(usize, usize)> {
    let wanted: Vec<char> = fragment.chars().filter(|c| !c.is_whitespace()).collect();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    (0..chars.len()).find_map(|i| {
        let mut k = 0;
        let mut j = i;
        while k < wanted.len() && j < chars.len() {
            if chars[j].1.is_whitespace() && k > 0 {
                j += 1;
                continue;
            }
            if chars[j].1 != wanted[k] {
                return None;
            }
            k += 1;
            j += 1;
        }
        let end = chars.get(j).map_or(line.len(), |c| c.0);
        (k == wanted.len()).then_some((chars[i].0, end))
    })
}

/// What the evaluator is told about `variant`: refused where the block
/// compares a float, which the evaluator does not hold.
pub fn setting(variant: &Variant, readings: &[&SectionReading]) -> Result<Setting, String> {
    let setting = setting_with_floats(variant, readings)?;
    match setting.operands.iter().find(|o| o.float) {
        Some(o) => Err(format!(
            "`{}` is an .f32 value the block compares as a float, and the evaluator holds integers and bits only",
            o.name
        )),
        None => Ok(setting),
    }
}

/// What a reading is told about `variant`, each operand the block compares
/// as a float marked ([`Operand::float`]): the literal reading compares it
/// as C does.
pub fn setting_with_floats(variant: &Variant, readings: &[&SectionReading]) -> Result<Setting, String> {
    let section = variant.section();
    if variant.is_warp_wide() && !readings.iter().any(|r| EVERY_LANE.contains(&r.id)) {
        return Err("the block is run by every thread of the warp (`[Thread]`, `SourceA[lane] = a`, `d = \
                    SourceA[j]`), and no reading says how the lanes meet"
            .into());
    }
    let name = variant.mnemonic();
    let mnemonic = name.split(' ').next().unwrap_or("");
    let block = syntax::block(section).ok_or_else(|| format!("no Syntax block for section {section}"))?;
    let mut bound = syntax::bind(block, mnemonic).ok_or_else(|| format!("`{mnemonic}` fits no line of its Syntax"))?;
    let written: Vec<String> = mnemonic.split('.').skip(1).map(|q| format!(".{q}")).collect();
    let ty = written.iter().rev().find_map(|q| Type::ALL.into_iter().find(|t| t.to_string() == *q));
    if !bound.iter().any(|(p, _)| p == ".type") {
        if let Some(t) = ty {
            bound.push((".type".into(), t.to_string()));
        }
    }
    for (opcode, placeholder, values) in UNNAMED_PLACEHOLDERS {
        if *opcode == variant.opcode() {
            if let Some(q) = written.iter().find(|q| values.contains(&q.as_str())) {
                bound.push((placeholder.to_string(), q.clone()));
            }
        }
    }
    let signed_type = ty.is_some_and(Type::is_signed);
    let operands = variant
        .operands()
        .iter()
        .filter(|o| matches!(o.role, Role::Dest | Role::Src | Role::Imm))
        .map(|o| {
            let sign = OPERAND_TYPES.iter().find(|(op, n, _)| *op == variant.opcode() && *n == o.name).map(|t| t.2);
            let signed = match sign {
                Some(Sign::Unsigned) => false,
                Some(Sign::Signed) => true,
                Some(Sign::Of(ps)) => bound.iter().any(|(b, v)| ps.contains(&b.as_str()) && v.starts_with(".s")),
                None => signed_type && o.ty.width() > 1,
            };
            let float = FLOAT_COMPARED.iter().any(|(opcode, operand, float)| {
                *opcode == variant.opcode() && *operand == o.name && written.last().is_some_and(|q| q == float)
            });
            Operand { name: o.name.to_string(), signed, width: o.ty.width(), output: o.is_dest(), float }
        })
        .collect::<Vec<_>>();
    let widest = operands.iter().map(|o| o.width).max().unwrap_or(32);
    // 9.7.2: the carry flag the block reads as `CC.CF`, one unsigned bit. What
    // the flag becomes is said under the block, not in it: the block's
    // outputs are the destination operands.
    let mut operands = operands;
    if variant.reads_flag() {
        operands.push(Operand { name: FLAG_NAME.to_string(), signed: false, width: 1, output: false, float: false });
    }
    let lane = ty.filter(|t| t.lanes() > 1).map(|t| (t.lane_width(), t.is_signed()));
    let identity_operators = identity_operators(&bound, readings);
    Ok(Setting {
        bound,
        written,
        operands,
        lane,
        loop_bound: widest + 2,
        cases_end_at_labels: readings.iter().any(|r| r.id == "shf-cases-end-at-labels"),
        ranges: Vec::new(),
        comments_not_guards: false,
        identity_operators,
        single_literals_as_bits: readings.iter().any(|r| r.id == "set-f32-one"),
    })
}

/// The placeholders a form does not write whose calls a reading takes as
/// their first argument: `BoolOp` of set and setp without `.BoolOp`.
fn identity_operators(bound: &[(String, String)], readings: &[&SectionReading]) -> Vec<String> {
    let absent = !bound.iter().any(|(p, _)| p == ".BoolOp");
    let read = readings.iter().any(|r| BOOLOP_ABSENT_READINGS.contains(&r.id));
    if absent && read {
        vec!["BoolOp".to_string()]
    } else {
        Vec::new()
    }
}

/// The name of the variable that holds a destination's value before the
/// block runs.
fn before(name: &str) -> String {
    format!("{name}.before")
}

/// The block's outputs for `variant` over `alg`: `inputs` in the order of
/// the variant's inputs, `befores` one per destination (its value before
/// the block runs).
pub fn text_semantics<A: Algebra>(
    alg: &A,
    variant: &Variant,
    block: &ReadBlock<'_>,
    setting: &Setting,
    inputs: &[A::Bv],
    befores: &[A::Bv],
) -> Result<Outputs<A>, String> {
    evaluate(alg, variant, block, setting, inputs, befores, false).map(|(outputs, _)| outputs)
}

/// The state of the block's first outermost loop at the top of one pass,
/// as terms of the algebra: each integer variable's bits, whether they are
/// read as signed, and whether the text defines them; the inputs on which
/// the pass runs and those that have left by `break` (each with whether it
/// is defined).
pub struct Pass<A: Algebra> {
    pub ints: std::collections::BTreeMap<String, (A::Bv, bool, A::Bool)>,
    pub live: (A::Bool, A::Bool),
    pub left: (A::Bool, A::Bool),
}

impl<A: Algebra> Pass<A> {
    fn of(state: &PassState<Fold<'_, A>>) -> Pass<A> {
        let ints = state
            .vars
            .iter()
            .filter_map(|(name, v)| match v {
                Value::Int(i) => Some((name.clone(), (i.bv, i.signed, i.ok.term))),
                _ => None,
            })
            .collect();
        Pass { ints, live: (state.live.b.term, state.live.ok.term), left: (state.left.b.term, state.left.ok.term) }
    }
}

/// [`text_semantics`]; with `trace`, also the state at the top of each
/// pass of the block's first outermost loop (none where it has no loop).
fn evaluate<A: Algebra>(
    alg: &A,
    variant: &Variant,
    block: &ReadBlock<'_>,
    setting: &Setting,
    inputs: &[A::Bv],
    befores: &[A::Bv],
    trace: bool,
) -> Result<(Outputs<A>, Vec<Pass<A>>), String> {
    // 9.7.6.1-2: a source written `!c` is its complement where the block names it.
    let complement = block.readings.iter().any(|r| NOT_C_READINGS.contains(&r.id));
    let mut values: Vec<(String, A::Bv)> = variant
        .inputs()
        .iter()
        .zip(inputs)
        .map(|(o, v)| (o.name.to_string(), if o.negated && complement { alg.bvnot(*v) } else { *v }))
        .collect();
    values.extend(variant.outputs().iter().zip(befores).map(|(o, v)| (o.name.to_string(), *v)));
    let fold = Fold(alg);
    let warp = variant.is_warp_wide().then(|| warp_inputs(&fold, variant, block, inputs));
    if let Some((a, _, _)) = &warp {
        values.extend(a.iter().cloned());
    }
    let mut machine = Machine::new(&fold, setting, &values);
    if let Some((_, thread, gathered)) = warp {
        machine.in_warp(thread, gathered);
    }
    if trace {
        machine.trace_first_loop();
    }
    let at = |e: String| format!("section {}, line {e}", block.section.number);
    machine.run(&block.parsed.statements).map_err(at)?;
    let outputs = machine.outputs().map_err(at)?;
    let passes = machine.passes().iter().map(Pass::of).collect();
    Ok((outputs.into_iter().map(|o| Out { value: o.value, defined: o.defined.term }).collect(), passes))
}

/// The readings that every lane of the warp runs the block (of shfl and
/// of shfl.sync).
const EVERY_LANE: [&str; 2] = ["shfl-every-lane-runs-the-block", "shfl-sync-every-lane-runs-the-block"];

/// What one lane's block is given where every lane of a warp runs it (the
/// model's inputs: the lane id, then each lane's `a`, state and
/// unpredictable value): the thread's own operands (its `a`), the thread,
/// and each array the lanes fill, element k as lane k writes it.
#[allow(clippy::type_complexity)]
fn warp_inputs<'a, A: Algebra>(
    alg: &Fold<'a, A>,
    variant: &Variant,
    block: &ReadBlock<'_>,
    inputs: &[A::Bv],
) -> (Vec<(String, A::Bv)>, Thread<Fold<'a, A>>, Vec<(String, Vec<A::Bv>)>) {
    let names = variant.inputs();
    let get = |name: &str| names.iter().position(|o| o.name == name).map(|k| inputs[k]);
    let lane = get("lane").expect("a warp-wide variant has a lane id");
    let per_lane = |base: &str| (0..WARP).map(|k| get(&format!("{base}{k}")).expect("an input per lane")).collect();
    let (executes, unpredictable): (Vec<A::Bv>, Vec<A::Bv>) = (per_lane("active"), per_lane("unpredictable"));
    let of_lane = |values: &[A::Bv]| {
        (0..WARP).rev().fold(values[WARP - 1], |rest, k| {
            alg.ite(alg.eq(lane, alg.constant(alg.width(lane), k as u128)), values[k], rest)
        })
    };
    let mut own = Vec::new();
    let mut gathered = Vec::new();
    for (_, array, operand) in GATHERED.iter().filter(|(s, _, _)| *s == block.section.number) {
        let written: Vec<A::Bv> = per_lane(operand);
        own.push((operand.to_string(), of_lane(&written)));
        let items = (0..WARP).map(|k| alg.ite(alg.is_set(executes[k]), written[k], unpredictable[k])).collect();
        gathered.push((array.to_string(), items));
    }
    let executes_here = alg.is_set(of_lane(&executes));
    let thread =
        Thread { lane: Int::of_bits(alg, lane, false), executes: Truth::of(executes_here, alg.bool_constant(true)) };
    (own, thread, gathered)
}

/// The outcome of one variant's third proof.
#[derive(Clone, Debug)]
pub enum TextVerdict {
    /// The block, as the model reads it, and the encoding agree on every
    /// input; `narrower` is an input where the model leaves unspecified
    /// what the block defines, if there is one.
    Proven {
        narrower: Option<Vec<(String, ptx_spec::bv::BitVec)>>,
    },
    /// They differ, as the named difference says they must.
    Named {
        difference: &'static Difference,
        witness: Box<Counterexample>,
    },
    /// They differ, and nothing names why: a finding.
    Differs(Box<Counterexample>),
    /// A named difference that the proof no longer finds.
    Stale(&'static Difference),
    /// The block cannot be evaluated as it stands: why, and where.
    NotRead(String),
    Unknown(String),
    Timeout,
}

impl TextVerdict {
    pub fn label(&self) -> &'static str {
        match self {
            TextVerdict::Proven { .. } => "proven",
            TextVerdict::Named { .. } => "named difference",
            TextVerdict::Differs(_) => "counterexample",
            TextVerdict::Stale(_) => "stale difference",
            TextVerdict::NotRead(_) => "not read",
            TextVerdict::Unknown(_) => "unknown",
            TextVerdict::Timeout => "timeout",
        }
    }
    /// Whether the proof holds or names its difference.
    pub fn accounted(&self) -> bool {
        matches!(self, TextVerdict::Proven { .. } | TextVerdict::Named { .. } | TextVerdict::NotRead(_))
    }
}

/// One variant's third proof.
#[derive(Clone, Debug)]
pub struct TextProof {
    pub variant: Variant,
    pub verdict: TextVerdict,
    /// The section readings the block needed.
    pub readings: Vec<&'static SectionReading>,
    pub fixes: Vec<&'static str>,
    pub time: Duration,
}

/// The third proof of `variant` against the text `doc`.
pub fn prove_text(doc: &Document, variant: &Variant, backend: &Backend, timeout: Duration) -> TextProof {
    let start = Instant::now();
    let (verdict, readings, fixes) = match read_block(doc, variant) {
        Err(why) => (TextVerdict::NotRead(why), Vec::new(), Vec::new()),
        Ok(block) => {
            let readings = block.readings.clone();
            let fixes = block.fixes.clone();
            let verdict = match setting(variant, &readings) {
                Err(why) => TextVerdict::NotRead(why),
                Ok(setting) => run(variant, &block, &setting, backend, timeout)
                    .unwrap_or_else(|e| TextVerdict::Unknown(e.to_string())),
            };
            (verdict, readings, fixes)
        }
    };
    TextProof { variant: *variant, verdict, readings, fixes, time: start.elapsed() }
}

/// One case of a split: each named input's values limited to a bound.
type Case = Vec<(&'static str, Bound)>;

/// What a case says of one input.
#[derive(Clone, Copy, Debug)]
enum Bound {
    /// The value (read as the operand's type reads it) in `lo..=hi`; the
    /// evaluator knows the interval, and the value where it is one.
    Range(i128, i128),
    /// The low `bits` bits, unsigned, in `lo..=hi`: the solver alone knows.
    LowBits(u32, u128, u128),
}

/// How a block the solver cannot take whole is split into cases that the
/// evaluator unrolls exactly, each a split of one input's values; the cases
/// of several splits are their product.
#[derive(Clone, Copy, Debug)]
enum Split {
    /// Each value from 0 to `last`, then every value above.
    Each(&'static str, i128),
    /// Each value from `-n` to `n` of a signed value, then every value
    /// below, and every value above.
    Around(&'static str, i128),
    /// Zero, then each band `2^k..2^(k+1)` of an unsigned value: a loop
    /// that shifts it to zero runs `k + 1` times in band `k`.
    Bands(&'static str),
    /// The low `bits` bits: each value from 0 to `last`, then above.
    LowBits(&'static str, u32, u128),
    /// The values below the first cut, from each cut to the next, and from
    /// the last cut up (read as the operand's type reads it).
    Cuts(&'static str, &'static [i128]),
}

/// The splits of the blocks whose loops run as many times as an input says.
const SPLITS: &[(&str, &[Split])] = &[
    // fns's count of set bits to pass is |offset| - 1, and the loop visits
    // at most 32 positions: past 32 either way, no count reaches 0.
    ("fns", &[Split::Each("base", 31), Split::Around("offset", 33)]),
    ("popc", &[Split::Bands("a")]),
    ("bfi", &[Split::LowBits("c", 8, 63)]),
];

/// fns's cases where its two walks are proven by induction ([`lockstep`]):
/// base in 0..31 or above, offset below 0, 0, or above 0. The two cases
/// of base in 0..31 and an offset other than 0 are the induction's; the
/// others the solver takes whole.
const INDUCTION_SPLITS: &[Split] = &[Split::Cuts("base", &[lockstep::LAST_BASE + 1]), Split::Cuts("offset", &[0, 1])];

/// The cases of `variant`'s splits (one case, empty, where it has none).
fn cases(variant: &Variant, setting: &Setting) -> Vec<Case> {
    let splits = SPLITS.iter().find(|(op, _)| *op == variant.opcode()).map_or(&[][..], |(_, s)| *s);
    cases_of(variant, setting, splits)
}

/// The cases of `splits`: the product of each split's parts.
fn cases_of(variant: &Variant, setting: &Setting, splits: &[Split]) -> Vec<Case> {
    let widths = variant.inputs();
    let width = |name: &str| widths.iter().find(|o| o.name == name).map_or(32, |o| o.ty.width());
    let signed = |name: &str| setting.operands.iter().any(|o| o.name == name && o.signed);
    let mut out: Vec<Case> = vec![Vec::new()];
    for split in splits {
        let parts: Vec<(&'static str, Bound)> = match *split {
            Split::Each(input, last) => {
                let top = (1i128 << width(input).min(126)) - 1;
                (0..=last).map(|k| (input, Bound::Range(k, k))).chain([(input, Bound::Range(last + 1, top))]).collect()
            }
            Split::Around(input, n) => {
                let half = 1i128 << (width(input) - 1).min(126);
                [(input, Bound::Range(-half, -n - 1)), (input, Bound::Range(n + 1, half - 1))]
                    .into_iter()
                    .chain((-n..=n).map(|k| (input, Bound::Range(k, k))))
                    .collect()
            }
            Split::Bands(input) => {
                let w = width(input);
                let band = |k: u32| (1i128 << k, (1i128 << (k + 1)) - 1);
                [(input, Bound::Range(0, 0))]
                    .into_iter()
                    .chain((0..w.min(126)).map(|k| (input, Bound::Range(band(k).0, band(k).1))))
                    .collect()
            }
            Split::LowBits(input, bits, last) => (0..=last)
                .map(|k| (input, Bound::LowBits(bits, k, k)))
                .chain([(input, Bound::LowBits(bits, last + 1, (1u128 << bits) - 1))])
                .collect(),
            Split::Cuts(input, cuts) => {
                let w = width(input).min(126);
                let (least, most) =
                    if signed(input) { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) } else { (0, (1i128 << w) - 1) };
                let starts = std::iter::once(least).chain(cuts.iter().copied());
                let ends = cuts.iter().map(|c| c - 1).chain([most]);
                starts.zip(ends).map(|(lo, hi)| (input, Bound::Range(lo, hi))).collect()
            }
        };
        out = out.iter().flat_map(|case| parts.iter().map(move |p| [case.clone(), vec![*p]].concat())).collect();
    }
    out
}

/// A case's bounds as a condition on the solver's variables.
fn condition(sym: &Sym, variant: &Variant, setting: &Setting, case: &Case, ins: &[SymBv]) -> easy_smt::SExpr {
    let names = variant.inputs();
    let mut all = sym.bool_constant(true);
    for (input, bound) in case {
        let k = names.iter().position(|o| o.name == *input).expect("a split names an input");
        let x = ins[k];
        let w = x.width;
        let signed = setting.operands.iter().any(|o| o.name == *input && o.signed);
        let holds = match *bound {
            // A single value as an equation, which the solver substitutes.
            Bound::Range(lo, hi) if lo == hi => sym.eq(x, sym.constant(w, lo as u128)),
            Bound::Range(lo, hi) => {
                let (lo, hi) = (sym.constant(w, lo as u128), sym.constant(w, hi as u128));
                if signed {
                    sym.and(sym.bvsle(lo, x), sym.bvsle(x, hi))
                } else {
                    sym.and(sym.bvule(lo, x), sym.bvule(x, hi))
                }
            }
            Bound::LowBits(bits, lo, hi) => {
                let low = sym.extract(bits - 1, 0, x);
                sym.and(sym.bvule(sym.constant(bits, lo), low), sym.bvule(low, sym.constant(bits, hi)))
            }
        };
        all = sym.and(all, holds);
    }
    all
}

/// What one case found: the comparison, and an input where the model is
/// narrower than the block.
type CaseOutcome = (Comparison, Option<Vec<(String, ptx_spec::bv::BitVec)>>);

fn run_case(
    variant: &Variant,
    block: &ReadBlock<'_>,
    setting: &Setting,
    case: &Case,
    backend: &Backend,
    timeout: Duration,
) -> Result<Result<CaseOutcome, String>, SolverError> {
    let mut ctx = backend.context(timeout)?;
    let sym = Sym::new(&ctx);
    let (vars, ins, befores) = operands(&sym, variant);
    let mut known = setting.clone();
    known.ranges = case
        .iter()
        .filter_map(|(n, b)| match b {
            Bound::Range(lo, hi) => Some((n.to_string(), (*lo, *hi))),
            Bound::LowBits(..) => None,
        })
        .collect();
    let text: SymOutputs = match text_semantics(&sym, variant, block, &known, &ins, &befores) {
        Ok(t) => t,
        Err(why) => return Ok(Err(why)),
    };
    let constraint = (!case.is_empty()).then(|| condition(&sym, variant, setting, case, &ins));
    Ok(Ok(against_encoding(backend, &mut ctx, variant, &vars, &ins, &text, constraint, timeout)?))
}

/// A variant's operands as the solver's variables: its inputs, then each
/// destination's value before the block runs; with the terms of each.
fn operands<'c>(sym: &Sym<'c>, variant: &Variant) -> (Vec<Var>, Vec<SymBv>, Vec<SymBv>) {
    let outs = variant.outputs();
    let mut vars: Vec<Var> =
        variant.inputs().iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
    let ins: Vec<SymBv> = vars.iter().map(|v| sym.var(&v.name, v.width)).collect();
    let befores: Vec<SymBv> = outs.iter().map(|o| sym.var(&before(o.name), o.ty.width())).collect();
    vars.extend(outs.iter().map(|o| Var { name: before(o.name), width: o.ty.width() }));
    (vars, ins, befores)
}

/// The block's outputs `text` against the encoding on the inputs that
/// satisfy `constraint`, and where they agree, an input on which the model
/// is narrower than the block.
#[allow(clippy::too_many_arguments)]
fn against_encoding(
    backend: &Backend,
    ctx: &mut easy_smt::Context,
    variant: &Variant,
    vars: &[Var],
    ins: &[SymBv],
    text: &SymOutputs,
    constraint: Option<easy_smt::SExpr>,
    timeout: Duration,
) -> Result<CaseOutcome, SolverError> {
    let sym = Sym::new(ctx);
    let smt: SymOutputs = encode::encode(variant, &sym, ins);
    let names: Vec<String> = variant.outputs().iter().map(|o| o.name.to_string()).collect();
    // Where the model leaves an output unspecified, the block may say
    // anything: compare the block's value only where the model defines one.
    let defined_both: SymOutputs =
        text.iter().zip(&smt).map(|(t, s)| Out { value: t.value, defined: sym.and(t.defined, s.defined) }).collect();
    let sides = Sides { vars, constraint, output_names: &names, smt: &smt, concrete: &defined_both };
    let comparison = crate::prove::compare(backend, ctx, &sides, timeout)?;
    let wider = match comparison {
        Comparison::Equivalent => narrower(backend, ctx, vars, constraint, text, &smt, timeout)?,
        _ => None,
    };
    Ok((comparison, wider))
}

fn run(
    variant: &Variant,
    block: &ReadBlock<'_>,
    setting: &Setting,
    backend: &Backend,
    timeout: Duration,
) -> Result<TextVerdict, SolverError> {
    let start = Instant::now();
    let named = DIFFERENCES.iter().find(|d| d.concerns(variant));
    // The cases partition the inputs by construction (each split covers
    // every value of its input once), so equivalent in each is equivalent.
    // fns goes by induction over its loop where that goes through (6
    // cases); its 2,277 fine cases are the fallback. The cases run in
    // parallel, beside the other variants, each in a Z3 context of its own,
    // dropped after it: thousands of cases in one context slow every later
    // check.
    let outcomes = match by_induction(variant, block, setting, backend, timeout)? {
        Some(outcomes) => outcomes,
        None => cases(variant, setting)
            .par_iter()
            .map(|case| ptx_smt::solver::in_own_context(|| run_case(variant, block, setting, case, backend, timeout)))
            .collect(),
    };
    let mut narrower_at = None;
    for outcome in outcomes {
        let (comparison, wider) = match outcome? {
            Ok(o) => o,
            Err(why) => return Ok(TextVerdict::NotRead(why)),
        };
        narrower_at = narrower_at.or(wider);
        match comparison {
            Comparison::Equivalent => {}
            Comparison::Differ(cex) => {
                return Ok(match named {
                    Some(d) => TextVerdict::Named { difference: d, witness: Box::new(cex) },
                    None => TextVerdict::Differs(Box::new(cex)),
                })
            }
            Comparison::Unconfirmed(_) => {
                return Ok(TextVerdict::Unknown("the solver's witness did not check out".into()))
            }
            Comparison::Unknown(reason) => {
                return Ok(match timeout_or_unknown(reason, start.elapsed(), timeout) {
                    crate::prove::Verdict::Timeout => TextVerdict::Timeout,
                    v => TextVerdict::Unknown(format!("{v:?}")),
                })
            }
        }
    }
    Ok(match named {
        Some(d) => TextVerdict::Stale(d),
        None => TextVerdict::Proven { narrower: narrower_at },
    })
}

/// The outcomes of fns's cases where its walks are proven by induction
/// ([`lockstep`]): the two directions by induction, the other cases of
/// [`INDUCTION_SPLITS`] whole; `None` where the variant is not fns or the
/// induction does not go through (its fine cases decide then).
#[allow(clippy::type_complexity)]
fn by_induction(
    variant: &Variant,
    block: &ReadBlock<'_>,
    setting: &Setting,
    backend: &Backend,
    timeout: Duration,
) -> Result<Option<Vec<Result<Result<CaseOutcome, String>, SolverError>>>, SolverError> {
    if !lockstep::applies(variant) {
        return Ok(None);
    }
    let walked: Vec<Option<CaseOutcome>> = lockstep::DIRECTIONS
        .par_iter()
        .map(|(up, _)| {
            ptx_smt::solver::in_own_context(|| lockstep::prove(variant, block, setting, *up, backend, timeout))
        })
        .collect::<Result<_, _>>()?;
    let Some(walked) = walked.into_iter().collect::<Option<Vec<CaseOutcome>>>() else { return Ok(None) };
    let inducted = |case: &Case| {
        let bound = |name: &str| case.iter().find(|(n, _)| *n == name).map(|(_, b)| *b);
        matches!(bound("base"), Some(Bound::Range(0, lockstep::LAST_BASE)))
            && lockstep::DIRECTIONS
                .iter()
                .any(|(_, (lo, hi))| matches!(bound("offset"), Some(Bound::Range(l, h)) if (l, h) == (*lo, *hi)))
    };
    let rest: Vec<Case> = cases_of(variant, setting, INDUCTION_SPLITS).into_iter().filter(|c| !inducted(c)).collect();
    let mut outcomes: Vec<_> = walked.into_iter().map(|o| Ok(Ok(o))).collect();
    outcomes.par_extend(
        rest.par_iter()
            .map(|case| ptx_smt::solver::in_own_context(|| run_case(variant, block, setting, case, backend, timeout))),
    );
    Ok(Some(outcomes))
}

/// An input on which the model leaves an output unspecified that the block
/// defines, if there is one.
fn narrower(
    backend: &Backend,
    ctx: &mut easy_smt::Context,
    vars: &[Var],
    constraint: Option<easy_smt::SExpr>,
    text: &SymOutputs,
    smt: &SymOutputs,
    timeout: Duration,
) -> Result<Option<Vec<(String, ptx_spec::bv::BitVec)>>, SolverError> {
    let any: Vec<_> = text.iter().zip(smt).map(|(t, s)| ctx.and(t.defined, ctx.not(s.defined))).collect();
    let mut goal = ctx.or_many(any);
    if let Some(c) = constraint {
        goal = ctx.and(c, goal);
    }
    Ok(match backend.check(ctx, vars, &[goal], timeout)? {
        SatResult::Sat(model) => Some(
            vars.iter()
                .filter(|v| !v.name.ends_with(".before"))
                .filter_map(|v| model.get(&v.name).map(|b| (v.name.clone(), *b)))
                .collect(),
        ),
        _ => None,
    })
}
