//! Silence: the inputs of a variant on which the prose's formulas decide
//! nothing.
//!
//! Each prose or Notes claim that holds over all inputs of a program that
//! runs the variant is a formula of its unit: a guard (its `assume`, and
//! what the program fixes) and a statement (its `holds`) about the
//! variant's result. A claim counts only where the document in hand still
//! has its words: a sentence deleted takes its formula with it.
//!
//! The formulas decide the result on an input where those whose guards hold
//! there allow one result only. The solver looks for the least legal input
//! (one every reading of every stated operand range allows) with two
//! different results that both meet every formula. Each such region is
//! given with what the Semantics block computes there ("stated only in the
//! pseudocode"), or that the model leaves it open too ("stated nowhere"),
//! and the guards that do not hold there, which bound it.
//!
//! The regions are listed by `text --coverage`: while the hand-written
//! formulas are partial, most regions are a formula missing rather than a
//! sentence missing. Where the prose is in fact silent, the table
//! `checker/text/silences.toml` names the variant and the sentence that
//! names the operation without its rule, and the least region is a finding
//! while that sentence is in the text ([`findings`]). A variant that no
//! formula speaks of is not asked about; its units are counted as without a
//! formula.

use std::collections::BTreeMap;
use std::time::Duration;

use ptx_smt::{Backend, SatResult, Sym, Var};
use ptx_spec::bv::{Algebra, BitVec, Concrete};
use ptx_spec::Variant;

use super::coverage::units_quoting;
use super::document::Document;
use super::units::units;
use crate::audit::claims::check::reader;
use crate::audit::claims::{self, Check, Claim, Kind};
use crate::ptx::expr::Condition;
use crate::ptx::parse::OperandText;
use crate::ptx::program::{Program, Value};
use serde::Serialize;

/// Where a register of a claim's program comes from in the shared query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// The variant's input operand k.
    Input(usize),
    /// The variant's output operand k.
    Output(usize),
    /// An input of the claim's other lines alone, of this width: no
    /// condition the formula keeps depends on it, so it is read as 0.
    Other(u32),
}

/// One claim as a formula over the variant's operands.
struct Formula {
    claim: Claim,
    /// The claim's program without the variant's line.
    rest: Program,
    /// Each input register of `rest`, and where it comes from.
    slots: Vec<(String, Slot)>,
    /// Inputs the first line fixes: an immediate operand, or a register
    /// given to two operands.
    pinned: Vec<(usize, Pin)>,
    assume: Vec<Condition>,
    holds: Vec<Condition>,
}

#[derive(Clone, Copy, Debug)]
enum Pin {
    Value(BitVec),
    SameAs(usize),
}

/// The claim as formulas of `v`: one for each line of its program that
/// runs `v`, where the claim is an `always` claim of the prose or the Notes
/// on one lane. A condition that compares the line's result with another
/// run of the same variant relates results to each other (`pos` read
/// modulo 256) and states none, and one on what the other lines compute
/// from inputs of their own says nothing of this line: in `holds` such a
/// condition is left out, and in `assume` it leaves no formula.
fn formulas(v: &Variant, claim: &Claim) -> Vec<Formula> {
    let Check::Always { program, .. } = &claim.check else { return Vec::new() };
    if !matches!(claim.kind, Kind::Prose | Kind::Note) {
        return Vec::new();
    }
    let Some(p) = Program::parse(program).ok().filter(|p| p.lanes == 1) else { return Vec::new() };
    let at = p.lines.iter().enumerate().filter(|(_, l)| l.instruction.variant == *v && l.guard.is_none());
    at.filter_map(|(k, _)| formula_at(v, claim, &p, k)).collect()
}

/// The claim as a formula of `v` run on line `k` of its program `p`.
fn formula_at(v: &Variant, claim: &Claim, p: &Program, k: usize) -> Option<Formula> {
    let Check::Always { assume, holds, .. } = &claim.check else { return None };
    let line = &p.lines[k];
    let (mut ins, mut outs) = (0, 0);
    let mut names: Vec<(String, Slot)> = Vec::new();
    let mut pinned = Vec::new();
    for (op, text) in v.operands().iter().zip(&line.instruction.operands) {
        let slot = if op.is_dest() {
            outs += 1;
            Slot::Output(outs - 1)
        } else {
            ins += 1;
            Slot::Input(ins - 1)
        };
        match (text, slot) {
            (OperandText::Reg(r), _) => match names.iter().find(|(n, _)| n == r) {
                Some((_, Slot::Input(j))) if !op.is_dest() => pinned.push((ins - 1, Pin::SameAs(*j))),
                Some(_) => return None,
                None => names.push((r.clone(), slot)),
            },
            (OperandText::Imm(value), Slot::Input(k)) => pinned.push((k, Pin::Value(*value))),
            _ => {}
        }
    }
    let rest = p.without(k);
    let mine = Program::destinations(line);
    let again: Vec<String> =
        rest.lines.iter().filter(|l| l.instruction.variant == *v).flat_map(Program::destinations).collect();
    let parse = |list: &[String]| list.iter().map(|t| Condition::parse(t).ok()).collect::<Option<Vec<_>>>();
    let (assume, holds) = (parse(assume)?, parse(holds)?);
    let relational = |c: &Condition| {
        let read: Vec<String> = c.registers().into_iter().map(|(r, _)| r).collect();
        read.iter().any(|r| mine.contains(r)) && read.iter().any(|r| again.contains(r))
    };
    // What the claim's other lines compute from inputs of their own (bfe's
    // 64-bit operand `x` beside the 32-bit line) says nothing of this line:
    // a statement that reads it is left out, a guard that reads it leaves
    // no formula.
    let others: Vec<String> = rest.inputs.iter().filter(|r| !names.iter().any(|(n, _)| n == *r)).cloned().collect();
    let tainted = tainted_by(&rest, &others);
    let reads_others = |c: &Condition| c.registers().into_iter().any(|(r, _)| tainted.contains(&r));
    let holds: Vec<Condition> = holds.into_iter().filter(|c| !relational(c) && !reads_others(c)).collect();
    if assume.iter().any(|c| relational(c) || reads_others(c)) || holds.is_empty() {
        return None;
    }
    let slots: Vec<(String, Slot)> = rest
        .inputs
        .iter()
        .map(|r| match names.iter().find(|(n, _)| n == r) {
            Some(named) => named.clone(),
            None => (r.clone(), Slot::Other(rest.width(r).unwrap_or(32))),
        })
        .collect();
    Some(Formula { claim: claim.clone(), rest, slots, pinned, assume, holds })
}

/// The registers of `p` whose value depends on one of `inputs`: those
/// inputs, and what a line that reads one of them writes.
fn tainted_by(p: &Program, inputs: &[String]) -> Vec<String> {
    let mut tainted = inputs.to_vec();
    for line in &p.lines {
        let reads = line.instruction.operands.iter().any(|o| matches!(o, OperandText::Reg(r) if tainted.contains(r)));
        let guarded = line.guard.as_ref().is_some_and(|(g, _)| tainted.contains(g));
        if reads || guarded {
            tainted.extend(Program::destinations(line));
        }
    }
    tainted
}

impl Formula {
    /// Whether its guard holds, and whether its statement does, on the
    /// variant's inputs `xs` and outputs `rs`.
    fn eval<A: Algebra>(&self, alg: &A, xs: &[A::Bv], rs: &[A::Bv]) -> (A::Bool, A::Bool) {
        let yes = alg.bool_constant(true);
        let inputs: BTreeMap<String, Vec<A::Bv>> = self
            .slots
            .iter()
            .map(|(n, s)| {
                let bits = match s {
                    Slot::Input(k) => xs[*k],
                    Slot::Output(k) => rs[*k],
                    Slot::Other(width) => alg.constant(*width, 0),
                };
                (n.clone(), vec![bits])
            })
            .collect();
        let regs = self.rest.execute(alg, &inputs, &[yes]);
        let read = reader(alg, &self.rest, &inputs, &regs, 0);
        let all = |cs: &[Condition]| cs.iter().fold(yes, |acc, c| alg.and(acc, c.eval(alg, &read)));
        let pinned = self.pinned.iter().fold(yes, |acc, (k, pin)| {
            let to = match pin {
                Pin::Value(b) => alg.constant(alg.width(xs[*k]), b.unsigned()),
                Pin::SameAs(j) => xs[*j],
            };
            alg.and(acc, alg.eq(xs[*k], to))
        });
        (alg.and(pinned, all(&self.assume)), all(&self.holds))
    }

    /// Its statement holds wherever its guard does.
    fn met<A: Algebra>(&self, alg: &A, xs: &[A::Bv], rs: &[A::Bv]) -> A::Bool {
        let (guard, holds) = self.eval(alg, xs, rs);
        alg.or(alg.not(guard), holds)
    }
}

/// The claims of `section` whose words the document still has.
fn present(doc: &Document, section: &str) -> Vec<Claim> {
    let all = units(doc);
    let sections = [section.to_string()];
    let found = |f: &String| !units_quoting(&all, &sections, f).is_empty();
    claims::all()
        .into_iter()
        .filter(|c| c.section == section)
        .filter(|c| c.fragment.iter().chain(&c.rests_on).all(found) && c.fragment.is_some())
        .collect()
}

/// A silent input: the variant's inputs, two results the formulas both
/// allow, and the formulas whose guards hold there.
struct Silent {
    inputs: Vec<BitVec>,
    results: [Vec<BitVec>; 2],
    guarded: Vec<bool>,
}

const TIMEOUT: Duration = Duration::from_secs(60);

/// The least legal input of `v` on which `formulas` allow two results, and
/// whose guards and input differ from each of `seen`; `None` where there is
/// none.
fn least_silent(
    v: &Variant,
    formulas: &[Formula],
    legal: &[Condition],
    seen: &[(Vec<bool>, Vec<BitVec>)],
) -> Result<Option<Silent>, String> {
    let backend = Backend::Embedded;
    let mut ctx = backend.context(TIMEOUT).map_err(|e| e.to_string())?;
    let (ins, outs) = (v.inputs(), v.outputs());
    let mut vars: Vec<Var> = ins.iter().map(|o| Var { name: o.name.to_string(), width: o.ty.width() }).collect();
    for copy in ["first", "second"] {
        vars.extend(outs.iter().map(|o| Var { name: format!("{}.{copy}", o.name), width: o.ty.width() }));
    }
    let goal = {
        let sym = Sym::new(&ctx);
        let bvs: Vec<_> = vars.iter().map(|var| sym.var(&var.name, var.width)).collect();
        let (xs, rest) = bvs.split_at(ins.len());
        let (r1, r2) = rest.split_at(outs.len());
        let differ = r1.iter().zip(r2).fold(ctx.false_(), |acc, (a, b)| ctx.or(acc, sym.not(sym.eq(*a, *b))));
        let mut goal = ctx.and(legal_at(&sym, v, legal, xs), differ);
        for f in formulas {
            goal = ctx.and(goal, ctx.and(f.met(&sym, xs, r1), f.met(&sym, xs, r2)));
        }
        // Another region: another set of guards, at another input.
        for (guards, at) in seen {
            let same = formulas.iter().zip(guards).fold(ctx.true_(), |acc, (f, &g)| {
                let guard = f.eval(&sym, xs, r1).0;
                ctx.and(acc, if g { guard } else { ctx.not(guard) })
            });
            let there = xs
                .iter()
                .zip(at)
                .fold(ctx.true_(), |acc, (x, v)| ctx.and(acc, sym.eq(*x, sym.constant(v.width(), v.unsigned()))));
            goal = ctx.and(goal, ctx.not(ctx.or(same, there)));
        }
        goal
    };
    let model = match backend.check(&mut ctx, &vars, &[goal], TIMEOUT).map_err(|e| e.to_string())? {
        SatResult::Unsat => return Ok(None),
        SatResult::Unknown(why) => return Err(format!("the solver gave no answer: {why}")),
        SatResult::Sat(model) => {
            crate::prove::minimise(&backend, &mut ctx, &vars, goal, model, TIMEOUT, true).map_err(|e| e.to_string())?
        }
    };
    let value = |var: &Var| model.get(&var.name).copied().unwrap_or(BitVec::new(var.width, 0));
    let xs: Vec<BitVec> = vars[..ins.len()].iter().map(value).collect();
    let r1: Vec<BitVec> = vars[ins.len()..ins.len() + outs.len()].iter().map(value).collect();
    let r2: Vec<BitVec> = vars[ins.len() + outs.len()..].iter().map(value).collect();
    // The solver's answer is trusted only once evaluated.
    let allowed = |rs: &[BitVec]| formulas.iter().all(|f| f.met(&Concrete, &xs, rs));
    if !(legal_at(&Concrete, v, legal, &xs) && r1 != r2 && allowed(&r1) && allowed(&r2)) {
        return Err(format!("the solver's input to {} is not silent when evaluated", v.mnemonic()));
    }
    let guarded = formulas.iter().map(|f| f.eval(&Concrete, &xs, &r1).0).collect();
    Ok(Some(Silent { inputs: xs, results: [r1, r2], guarded }))
}

/// Every condition of `legal` (on the variant's input operands, by name)
/// holds on `xs`.
fn legal_at<A: Algebra>(alg: &A, v: &Variant, legal: &[Condition], xs: &[A::Bv]) -> A::Bool {
    let ins = v.inputs();
    let yes = alg.bool_constant(true);
    let read = |name: &str, _: bool| -> Value<A> {
        let k = ins.iter().position(|o| o.name == name).unwrap_or(0);
        Value { bits: xs[k], defined: yes }
    };
    legal.iter().fold(yes, |acc, c| alg.and(acc, c.eval(alg, &read)))
}

/// At most this many silent regions are reported per variant: the least
/// input, and the least of each other set of guards that hold.
const REGIONS: usize = 3;

/// What the formulas of one variant leave open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Silence {
    pub variant: String,
    pub section: String,
    /// The claims read as its formulas.
    pub formulas: Vec<String>,
    /// The silent regions, least input first; none where the formulas
    /// decide every legal input.
    pub regions: Vec<Region>,
    /// Why the search stopped short, where it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsettled: Option<String>,
}

/// One silent region, by its least input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Region {
    pub inputs: Vec<(String, BitVec)>,
    /// Two results that meet every formula there.
    pub allowed: [Vec<(String, BitVec)>; 2],
    /// What the Semantics block (the model proven equal to it) gives there
    /// (`None`: it leaves the output unspecified too).
    pub semantics: Vec<(String, Option<BitVec>)>,
    /// The formulas whose guards do not hold there: the region's bounds.
    pub guards_off: Vec<String>,
    /// The formulas whose guards hold there but leave the result open.
    pub guards_on: Vec<String>,
}

impl Region {
    /// "stated only in the pseudocode", or "stated nowhere" where the
    /// Semantics block leaves an output unspecified too.
    pub fn stated(&self) -> &'static str {
        if self.semantics.iter().any(|(_, v)| v.is_none()) {
            "stated nowhere"
        } else {
            "stated only in the pseudocode"
        }
    }
}

/// What the prose's formulas leave open, for every variant they speak of,
/// in section order. A formula that runs the variant again
/// relates its results to each other (`pos` read modulo 256) and states no
/// value, so it is not one of them.
pub fn check(doc: &Document) -> Vec<Silence> {
    let mut out = Vec::new();
    for section in super::document::covered() {
        if doc.section(&section).is_none() {
            continue;
        }
        let claims = present(doc, &section);
        for v in Variant::all().into_iter().filter(|v| v.section() == section && !v.is_warp_wide()) {
            out.extend(of_variant(doc, &v, &claims));
        }
    }
    out
}

/// What the formulas of `claims` leave open for `v`; `None` where none of
/// them speaks of it.
fn of_variant(doc: &Document, v: &Variant, claims: &[Claim]) -> Option<Silence> {
    let formulas: Vec<Formula> = claims.iter().flat_map(|c| formulas(v, c)).collect();
    if formulas.is_empty() {
        return None;
    }
    let legal: Vec<Condition> = super::domains::legal(doc, v).iter().filter_map(|t| Condition::parse(t).ok()).collect();
    Some(silence(v, &formulas, &legal))
}

/// A silence of the prose that is a finding: the table's entry.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub variant: String,
    pub quote: String,
    pub says: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    silence: Vec<Entry>,
}

pub const TABLE_FILE: (&str, &str) = ("checker/text/silences.toml", include_str!("../../../text/silences.toml"));

/// The silences that are findings, from the built-in table; a malformed
/// table is a one-line error naming the file.
pub fn table() -> Result<Vec<Entry>, String> {
    let t: Table = toml::from_str(TABLE_FILE.1).map_err(|e| format!("{}: {}", TABLE_FILE.0, e.message()))?;
    for e in &t.silence {
        if Variant::from_mnemonic(&e.variant).is_none() {
            return Err(format!("{}: no variant `{}`", TABLE_FILE.0, e.variant));
        }
    }
    Ok(t.silence)
}

/// The table's silences as findings, on the document in hand: each while
/// its sentence is in the text and the prose's formulas leave the variant
/// open, at the least input they leave open, with the two results they
/// allow there and what the Semantics block gives.
pub fn findings(doc: &Document, entries: &[Entry]) -> Vec<crate::audit::finding::Finding> {
    use crate::audit::finding::{Finding, FindingKind, WitnessTable};
    let all = units(doc);
    let mut out = Vec::new();
    for e in entries {
        let Some(v) = Variant::from_mnemonic(&e.variant) else { continue };
        let section = v.section().to_string();
        if units_quoting(&all, std::slice::from_ref(&section), &e.quote).is_empty() {
            continue;
        }
        let Some(silence) = of_variant(doc, &v, &present(doc, &section)) else { continue };
        let Some(r) = silence.regions.first() else { continue };
        let list =
            |xs: &[(String, BitVec)]| xs.iter().map(|(n, x)| format!("{n} = {x}")).collect::<Vec<_>>().join(", ");
        let given: Vec<String> =
            r.semantics.iter().map(|(n, x)| x.map_or(format!("{n} unspecified"), |x| format!("{n} = {x}"))).collect();
        let summary = format!(
            "the prose leaves {} open at {}: its sentences allow {} and {}; {} decides ({})",
            r.semantics.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "),
            list(&r.inputs),
            list(&r.allowed[0]),
            list(&r.allowed[1]),
            if r.stated() == "stated nowhere" { "nothing" } else { "only the Semantics block" },
            given.join(", "),
        );
        let detail = vec![
            format!("{}: {}.", e.variant, e.says),
            format!("The solver's least input that the prose's formulas leave open, evaluated: {}.", describe(r)),
        ];
        let mut f = Finding::of_text(
            format!("text-silence-{}", e.variant),
            section,
            FindingKind::Ambiguity,
            e.quote.clone(),
            summary,
            detail,
        );
        f.witness = Some(WitnessTable {
            variant: e.variant.clone(),
            inputs: r.inputs.clone(),
            columns: vec!["prose, one result".into(), "prose, another".into(), "pseudocode".into()],
            rows: r
                .semantics
                .iter()
                .enumerate()
                .map(|(k, (n, given))| (n.clone(), vec![Some(r.allowed[0][k].1), Some(r.allowed[1][k].1), *given]))
                .collect(),
        });
        out.push(f);
    }
    out
}

fn silence(v: &Variant, formulas: &[Formula], legal: &[Condition]) -> Silence {
    let mut found: Vec<Silent> = Vec::new();
    let mut unsettled = None;
    while found.len() < REGIONS {
        let seen: Vec<(Vec<bool>, Vec<BitVec>)> = found.iter().map(|s| (s.guarded.clone(), s.inputs.clone())).collect();
        match least_silent(v, formulas, legal, &seen) {
            Ok(Some(s)) => found.push(s),
            Ok(None) => break,
            Err(why) => {
                unsettled = Some(why);
                break;
            }
        }
    }
    let (ins, outs) = (v.inputs(), v.outputs());
    let named = |ops: &[ptx_spec::catalogue::Operand], xs: &[BitVec]| -> Vec<(String, BitVec)> {
        ops.iter().zip(xs).map(|(o, x)| (o.name.to_string(), *x)).collect()
    };
    let quoted = |f: &Formula| format!("`{}`", f.claim.fragment.clone().unwrap_or_default());
    let regions = found
        .iter()
        .map(|s| {
            let model = v.run(&s.inputs.iter().map(|b| b.unsigned()).collect::<Vec<_>>());
            let pick = |on: bool| -> Vec<String> {
                let chosen = formulas.iter().zip(&s.guarded).filter(|(_, g)| **g == on);
                chosen
                    .map(|(f, _)| if on { quoted(f) } else { format!("{} ({})", quoted(f), guard_text(v, f)) })
                    .collect()
            };
            Region {
                inputs: named(&ins, &s.inputs),
                allowed: [named(&outs, &s.results[0]), named(&outs, &s.results[1])],
                semantics: outs.iter().zip(model).map(|(o, r)| (o.name.to_string(), r)).collect(),
                guards_off: pick(false),
                guards_on: pick(true),
            }
        })
        .collect();
    Silence {
        variant: v.mnemonic(),
        section: v.section().to_string(),
        formulas: formulas.iter().map(|f| f.claim.id.clone()).collect(),
        regions,
        unsettled,
    }
}

/// A formula's guard in the claims' language: what its program's line
/// fixes (`immLut == 0xfe`) and its `assume` (`always` where it has none).
fn guard_text(v: &Variant, f: &Formula) -> String {
    let ins = v.inputs();
    let mut parts: Vec<String> = f
        .pinned
        .iter()
        .map(|(k, pin)| match pin {
            Pin::Value(b) => format!("{} == {:#x}", ins[*k].name, b.unsigned()),
            Pin::SameAs(j) => format!("{} == {}", ins[*k].name, ins[*j].name),
        })
        .collect();
    if let Check::Always { assume, .. } = &f.claim.check {
        parts.extend(assume.iter().cloned());
    }
    if parts.is_empty() {
        "always".to_string()
    } else {
        parts.join(" and ")
    }
}

/// One region in words: where, what the prose allows, what the Semantics
/// block gives.
pub fn describe(r: &Region) -> String {
    let list = |xs: &[(String, BitVec)]| xs.iter().map(|(n, x)| format!("{n} = {x}")).collect::<Vec<_>>().join(", ");
    let mut why = Vec::new();
    if !r.guards_off.is_empty() {
        why.push(format!("no guard holds of {}", r.guards_off.join(", ")));
    }
    if !r.guards_on.is_empty() {
        why.push(format!("{} hold but leave the result open", r.guards_on.join(", ")));
    }
    let semantics: Vec<String> =
        r.semantics.iter().map(|(n, v)| v.map_or(format!("{n} unspecified"), |v| format!("{n} = {v}"))).collect();
    format!(
        "at {} ({}): the formulas allow {} and {}; the Semantics block gives {}: {}",
        list(&r.inputs),
        why.join("; "),
        list(&r.allowed[0]),
        list(&r.allowed[1]),
        semantics.join(", "),
        r.stated()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formulas_of(v: &Variant, ids: &[&str]) -> Vec<Formula> {
        let all = claims::all();
        ids.iter()
            .map(|id| {
                let c = all.iter().find(|c| c.id == *id).unwrap_or_else(|| panic!("no claim {id}"));
                let mut fs = formulas(v, c);
                assert_eq!(fs.len(), 1, "{id} is one formula of {v}");
                fs.remove(0)
            })
            .collect()
    }

    #[test]
    fn the_table_of_silences_loads_and_names_variants() {
        let entries = table().unwrap();
        assert!(entries.iter().any(|e| e.variant == "fns.b32"));
        for e in &entries {
            assert!(!e.quote.is_empty() && !e.says.contains('\n'), "{}", e.variant);
        }
    }

    #[test]
    fn cnot_is_decided_by_its_two_formulas_and_silent_without_one() {
        let v = Variant::from_mnemonic("cnot.b32").unwrap();
        let both = formulas_of(&v, &["9.7.8.5/cnot-of-zero", "9.7.8.5/cnot-of-non-zero"]);
        let s = silence(&v, &both, &[]);
        assert!(s.regions.is_empty() && s.unsettled.is_none(), "{s:?}");
        let zero_only = formulas_of(&v, &["9.7.8.5/cnot-of-zero"]);
        let s = silence(&v, &zero_only, &[]);
        let r = &s.regions[0];
        assert_eq!(r.inputs, [("a".to_string(), BitVec::new(32, 1))], "the least input no formula decides");
        assert_eq!(r.semantics, [("d".to_string(), Some(BitVec::new(32, 0)))]);
        assert_eq!(r.guards_off, ["`logical negation using C/C++ semantics` (a == 0)"]);
        assert_eq!(r.stated(), "stated only in the pseudocode");
        assert_ne!(r.allowed[0], r.allowed[1]);
    }

    #[test]
    fn a_legal_range_narrows_the_search() {
        let v = Variant::from_mnemonic("cnot.b32").unwrap();
        let zero_only = formulas_of(&v, &["9.7.8.5/cnot-of-zero"]);
        let legal = [Condition::parse("a == 0").unwrap()];
        assert!(silence(&v, &zero_only, &legal).regions.is_empty(), "only a = 0 is legal, and it is decided");
    }

    #[test]
    fn a_formula_that_runs_its_variant_again_states_no_value() {
        let v = Variant::from_mnemonic("bfe.u32").unwrap();
        let all = claims::all();
        let low_byte = all.iter().find(|c| c.id == "9.7.1.19/bfe-operands-low-byte").unwrap();
        assert!(formulas(&v, low_byte).is_empty(), "it compares bfe with bfe");
        let field = all.iter().find(|c| c.id == "9.7.1.19/bfe-extracts-field").unwrap();
        assert_eq!(formulas(&v, field).len(), 1);
    }

    /// bfind's claim on "no non-sign bit" runs bfind.s32 twice, on 0 and on
    /// -1: a formula each. bfe's on a zero length runs the 64-bit forms on
    /// an `x` of their own: bfe.u32's formula leaves their statements out.
    #[test]
    fn a_claim_on_several_lines_is_a_formula_of_each() {
        let all = claims::all();
        let claim = |id: &str| all.iter().find(|c| c.id == id).unwrap().clone();
        let s32 = Variant::from_mnemonic("bfind.s32").unwrap();
        let none = formulas(&s32, &claim("9.7.1.16/bfind-none-found"));
        let guards: Vec<String> = none.iter().map(|f| guard_text(&s32, f)).collect();
        assert_eq!(guards, ["a == 0x0", "a == 0xffffffff"]);
        let u32 = Variant::from_mnemonic("bfe.u32").unwrap();
        let zero = formulas(&u32, &claim("9.7.1.19/bfe-zero-length"));
        assert_eq!(zero.len(), 1);
        let read: Vec<String> = zero[0].holds.iter().flat_map(|c| c.registers()).map(|(r, _)| r).collect();
        assert!(!read.iter().any(|r| r == "d3" || r == "d4"), "{read:?}");
        let s = silence(&u32, &zero, &[Condition::parse("c == 0").unwrap()]);
        assert!(s.regions.is_empty(), "a zero length decides bfe.u32: {s:?}");
    }
}
