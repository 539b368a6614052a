//! The operands pass: every sentence of a Description, a Notes block or a
//! group's introduction that states an operand's type or size, or which
//! types or modes an instruction or a qualifier has, read against the
//! catalogue for **each** variant it speaks of. A sentence that states one
//! thing for several modes, types or instructions at once is checked for
//! every one of them; where it fails for one, that variant is the witness.
//!
//! What a sentence says is read from a short list of shapes: a list of
//! operands in code marks followed by `has`/`have`/`is`/`are` and a type
//! (`type .b32`, `the instruction type`, `a 32-bit value`, `twice as wide
//! as a`), and a few fixed phrases (`the size of the operands must match`,
//! `only for signed integers`, `the .wide suffix is supported only for 16-
//! and 32-bit integer types`). A leading `For .u16x2, .s16x2 instruction
//! types,` or `If .wide is specified,` narrows the variants. A sentence of
//! none of these shapes is not read here.

use ptx_spec::catalogue::{OperandType, Role};
use ptx_spec::Variant;

use super::document::{BlockKind, Document};
use super::units::{units, Unit, UnitKind};
use crate::audit::finding::{Finding, FindingKind, Severity};

/// What the pass found.
#[derive(Debug, Default)]
pub struct Operands {
    /// Ids of the units it read and found true of every variant they
    /// speak of.
    pub checked: Vec<String>,
    /// Units it read that fail for some variant: the unit, the variant and
    /// what the catalogue says.
    pub fails: Vec<(Unit, String, String)>,
    /// Each operand a sentence gives a size or type to, for a variant:
    /// (the variant's mnemonic, the operand's name).
    pub stated: Vec<(String, String)>,
}

const BLOCKS: [BlockKind; 2] = [BlockKind::Description, BlockKind::Notes];

/// The width of a variant's instruction type (its last qualifier): `.u16x2`
/// is 32 bits, `.pred` 1.
fn type_width(v: &Variant) -> Option<u32> {
    qualifier_width(v.mnemonic().rsplit('.').next()?)
}

/// The width of its first instruction type (slct's `.dtype` in
/// `slct.b16.s32`): the first qualifier that is a type.
fn first_type_width(v: &Variant) -> Option<u32> {
    v.mnemonic().split(' ').next()?.split('.').skip(1).find_map(qualifier_width)
}

/// The width of type qualifier `q` (without its dot), as the catalogue's
/// `Type` gives it: `u16x2` is 32, `pred` 1; `None` for a qualifier that is
/// no type.
pub fn qualifier_width(q: &str) -> Option<u32> {
    ptx_spec::catalogue::Type::ALL.into_iter().find(|t| t.name() == q).map(|t| t.width())
}

fn qualifiers(v: &Variant) -> Vec<String> {
    v.mnemonic().split('.').skip(1).map(|q| format!(".{q}")).collect()
}

fn width(v: &Variant, name: &str) -> Option<u32> {
    v.operands().iter().find(|o| o.name == name).map(|o| o.ty.width())
}

/// Words of a sentence, code marks and closing punctuation dropped, with
/// whether each was in code marks.
pub fn words(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        for w in part.split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == ':') {
            let w = w.trim_end_matches(['.', ')']).trim_start_matches('(');
            if !w.is_empty() {
                out.push((w.to_string(), i % 2 == 1));
            }
        }
    }
    out
}

/// The variants a sentence speaks of: the section's, narrowed by a leading
/// `For ... ,` or `If ... is specified,` that names qualifiers. `None`
/// where it names a qualifier none of them has.
pub fn scope(text: &str, mine: &[Variant]) -> Option<Vec<Variant>> {
    let lower = text.to_lowercase();
    if !(lower.starts_with("for ") || lower.starts_with("if ")) {
        return Some(mine.to_vec());
    }
    let end = lower.find(" then ").or_else(|| lower.find(", ")).unwrap_or(lower.len());
    let named: Vec<String> =
        words(&text[..end]).into_iter().map(|(w, _)| w).filter(|w| w.starts_with('.') && w.len() > 1).collect();
    if named.is_empty() {
        return Some(mine.to_vec());
    }
    let out: Vec<Variant> = mine.iter().copied().filter(|v| qualifiers(v).iter().any(|q| named.contains(q))).collect();
    (!out.is_empty()).then_some(out)
}

/// The width a predicate gives, relative to a variant: `None` where the
/// predicate states no width this pass reads.
fn expected(predicate: &[(String, bool)], v: &Variant) -> Option<u32> {
    // `a 32-bit value, regardless of the instruction type`: what follows
    // `regardless` is what the width does not depend on.
    let end = predicate.iter().position(|(w, _)| w == "regardless").unwrap_or(predicate.len());
    let predicate = &predicate[..end];
    let text: Vec<String> = predicate.iter().map(|(w, _)| w.to_lowercase()).collect();
    let joined = text.join(" ");
    let referenced = || predicate.iter().filter(|(w, code)| *code && width(v, w).is_some()).map(|(w, _)| w.as_str());
    if joined.contains("twice as wide as") {
        return referenced().next().and_then(|r| width(v, r)).map(|w| 2 * w);
    }
    if joined.contains("same size as") {
        return referenced().next().and_then(|r| width(v, r));
    }
    if joined.contains("first instruction type") {
        return first_type_width(v);
    }
    if joined.contains("instruction type") || joined.contains("type .type") {
        return type_width(v);
    }
    for w in &text {
        if let Some(bits) = w.strip_prefix(['.']).and_then(|t| t.strip_prefix(['b', 'u', 's'])) {
            if let Ok(n) = bits.parse::<u32>() {
                return Some(n);
            }
        }
        if let Some(n) = w.strip_suffix("-bit").and_then(|n| n.parse::<u32>().ok()) {
            return Some(n);
        }
    }
    None
}

/// A clause: the operands it names, and its words (each marked code or not).
type Clause = (Vec<String>, Vec<(String, bool)>);

/// Operand lists followed by `has`/`have`/`is`/`are`, each with what
/// follows up to the next such list.
fn clauses(ws: &[(String, bool)], names: &[&str]) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        let mut j = i;
        let mut list = Vec::new();
        while j < ws.len() {
            let (w, code) = &ws[j];
            if *code && names.contains(&w.as_str()) {
                list.push(w.clone());
            } else if w != "and" || list.is_empty() {
                break;
            }
            j += 1;
        }
        // `The b operand must be a 32-bit value`: the noun, and `must be`.
        if !list.is_empty() && j < ws.len() && matches!(ws[j].0.as_str(), "operand" | "operands") {
            j += 1;
        }
        if !list.is_empty() && j + 1 < ws.len() && ws[j].0 == "must" {
            j += 1;
        }
        if !list.is_empty() && j < ws.len() && matches!(ws[j].0.as_str(), "has" | "have" | "is" | "are" | "be") {
            if let Some(last) = out.last_mut() {
                // The previous predicate ends where this subject begins.
                let cut = last.1.len().saturating_sub(ws.len() - i);
                last.1.truncate(cut);
            }
            out.push((list, ws[j + 1..].to_vec()));
            i = j + 1;
        } else {
            i = j.max(i + 1);
        }
    }
    out
}

/// The phrases of fixed meaning, each a check over the variants in scope:
/// `Err` names the first variant it fails for, and what the catalogue says.
type Rule = fn(&[Variant], &str, Option<&str>) -> Option<Result<(), (String, String)>>;

fn same_width(vs: &[Variant], keep: impl Fn(&ptx_spec::catalogue::Operand) -> bool) -> Result<(), (String, String)> {
    for v in vs {
        let ops: Vec<_> = v.operands().into_iter().filter(|o| keep(o)).collect();
        if let Some(o) = ops.iter().find(|o| o.ty != ops[0].ty) {
            return Err((v.to_string(), format!("`{}` is {}, `{}` {}", ops[0].name, ops[0].ty, o.name, o.ty)));
        }
    }
    Ok(())
}

/// `provided the operands are of the same size`, and where the sentence
/// goes on `but the shift amount of shl and shr is a 32-bit value`: those
/// instructions' amount (`b`) is then held to 32 bits instead.
fn same_size_but_shift_amounts(vs: &[Variant], t: &str) -> Result<(), (String, String)> {
    let plain = t.replace('`', "");
    let excepted: Vec<&str> = plain
        .split_once("shift amount of ")
        .filter(|(_, rest)| rest.contains("is a 32-bit value"))
        .map(|(_, rest)| {
            let named = rest.split(" is ").next().unwrap_or("");
            named.split([' ', ',']).filter(|w| !w.is_empty() && *w != "and").collect()
        })
        .unwrap_or_default();
    let amount = |v: &Variant, o: &ptx_spec::catalogue::Operand| {
        o.name == "b" && excepted.iter().any(|e| v.mnemonic().split('.').next() == Some(*e))
    };
    for v in vs {
        if let Some(o) = v.operands().into_iter().find(|o| amount(v, o) && o.ty.width() != 32) {
            return fail(v, format!("the shift amount `{}` is {}, not 32 bits", o.name, o.ty));
        }
        let keep = |o: &ptx_spec::catalogue::Operand| {
            matches!(o.role, Role::Dest | Role::Src) && !o.piped && o.ty != OperandType::Pred && !amount(v, o)
        };
        same_width(std::slice::from_ref(v), keep)?;
    }
    Ok(())
}

fn fail(v: &Variant, why: String) -> Result<(), (String, String)> {
    Err((v.to_string(), why))
}

const RULES: &[Rule] = &[
    // A group's introduction: `... operands of any type, provided the
    // operands are of the same size`, said of every instruction of the group.
    |vs, t, _| t.contains("provided the operands are of the same size").then(|| same_size_but_shift_amounts(vs, t)),
    // `Integer arithmetic instructions operate on the integer types`: every
    // variant's type is an integer (`.bN`, `.uN`, `.sN`); constants as
    // operands are the Syntax matcher's to accept.
    |vs, t, _| {
        t.contains("operate on the integer types").then(|| {
            match vs.iter().find(|v| !v.mnemonic().rsplit('.').next().is_some_and(|q| q.starts_with(['b', 'u', 's']))) {
                Some(v) => fail(v, "not an integer type".into()),
                None => Ok(()),
            }
        })
    },
    // `The sink symbol '_' may be used in place of the destination operand
    // d when .BoolOp qualifier is specified`: exactly those variants.
    |vs, t, _| {
        let at = t.find("may be used in place of the destination operand ")?;
        let phrase = "the destination operand ";
        let operand = t[at..].split(phrase).nth(1)?.split_whitespace().next()?.to_string();
        let when: Vec<String> = t[at..]
            .split_whitespace()
            .filter(|w| w.starts_with('.'))
            .map(|w| w.trim_end_matches('.').to_string())
            .collect();
        let sets: Vec<String> = crate::audit::syntax::BLOCKS
            .iter()
            .flat_map(|b| b.sets.iter())
            .filter(|(name, _)| when.iter().any(|w| w.eq_ignore_ascii_case(name)))
            .flat_map(|(_, members)| members.iter().map(|m| m.to_string()))
            .collect();
        Some(
            match vs.iter().find(|v| {
                let sink = v.operands().iter().any(|o| o.name == operand && o.sink);
                sink != qualifiers(v).iter().any(|q| sets.contains(q))
            }) {
                Some(v) => fail(
                    v,
                    format!(
                        "the sink for `{operand}`: {}",
                        if qualifiers(v).iter().any(|q| sets.contains(q)) { "not allowed" } else { "allowed" }
                    ),
                ),
                None => Ok(()),
            },
        )
    },
    // `immLut is an integer constant that can take values from 0 to 255`:
    // an immediate operand whose width holds exactly that range.
    |vs, t, _| {
        let at = t.find(" is an integer constant that can take values from ")?;
        let operand = t[..at].split_whitespace().last()?.to_string();
        let bounds: Vec<u128> =
            t[at..].split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).take(2).collect();
        let [low, high] = bounds[..] else { return None };
        Some(
            match vs.iter().find(|v| {
                !v.operands().iter().any(|o| {
                    o.name.eq_ignore_ascii_case(&operand)
                        && o.role == Role::Imm
                        && low == 0
                        && (1u128 << o.ty.width()) - 1 == high
                })
            }) {
                Some(v) => fail(v, format!("`{operand}` is no immediate of values {low} to {high}")),
                None => Ok(()),
            },
        )
    },
    // The operands of an untyped instruction: all one size.
    |vs, t, _| {
        (t.contains("size of the operands must match") || t.contains("all operands are of the same type and size"))
            .then(|| same_width(vs, |o| matches!(o.role, Role::Dest | Role::Src) && !o.piped))
    },
    // The destination and the first source.
    |vs, t, _| {
        t.contains("sizes of the destination and first source operand must match")
            .then(|| same_width(vs, |o| o.name == "d" || o.name == "a"))
    },
    // `a` and `b` have the operation's type.
    |vs, t, _| {
        t.contains("type of the operation represents the types of the a and b operands").then(|| {
            for v in vs {
                for name in ["a", "b"] {
                    if width(v, name) != type_width(v) {
                        return fail(v, format!("`{name}` is {:?} bits, the type {:?}", width(v, name), type_width(v)));
                    }
                }
            }
            Ok(())
        })
    },
    |vs, t, _| {
        t.contains("only for signed integers").then(|| match vs.iter().find(|v| !v.mnemonic().contains(".s")) {
            Some(v) => fail(v, "an unsigned variant".into()),
            None => Ok(()),
        })
    },
    |vs, t, _| {
        (t.contains("allowed types include predicate")).then(|| {
            if vs.iter().any(|v| v.operands().iter().any(|o| o.ty == OperandType::Pred)) {
                Ok(())
            } else {
                Err((vs[0].opcode().to_string(), "no variant on predicates".into()))
            }
        })
    },
    // `The .wide suffix is supported only for 16- and 32-bit integer types.`
    |vs, t, _| {
        let at = t.find(" suffix is supported only for ")?;
        let qualifier = t[..at].split_whitespace().last()?.to_string();
        let sizes: Vec<u32> = t[at..].split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
        Some(
            match vs
                .iter()
                .find(|v| qualifiers(v).contains(&qualifier) && type_width(v).is_none_or(|w| !sizes.contains(&w)))
            {
                Some(v) => fail(v, format!("{qualifier} at {} bits", type_width(v).unwrap_or(0))),
                None => Ok(()),
            },
        )
    },
    // `Applies only to .s32 type in .hi mode.`, of `.sat` (named in the
    // sentence, or by the `Saturation modifier:` before it).
    |vs, t, before| {
        let at = t.find("applies only to ")?;
        let sat = t.contains(".sat")
            || before.is_some_and(|b| b.to_lowercase().starts_with("saturation modifier") || b.contains("`.sat`"));
        if !sat {
            return None;
        }
        let need: Vec<String> = t[at..]
            .split_whitespace()
            .filter(|w| w.starts_with('.'))
            .map(|w| w.trim_end_matches('.').to_string())
            .collect();
        Some(
            match vs
                .iter()
                .find(|v| qualifiers(v).contains(&".sat".into()) && !need.iter().all(|q| qualifiers(v).contains(q)))
            {
                Some(v) => fail(v, format!(".sat without {}", need.join(" "))),
                None => Ok(()),
            },
        )
    },
];

/// A group's introduction: `Instructions and, or, xor, and not also operate
/// on predicates`: exactly the named opcodes of the group have a predicate
/// variant.
fn predicates_named(vs: &[Variant], text: &str) -> Option<Result<(), (String, String)>> {
    if !text.to_lowercase().contains("also operate on predicates") {
        return None;
    }
    let named: Vec<String> = words(text).into_iter().filter(|(_, c)| *c).map(|(w, _)| w).collect();
    let on_predicates = |op: &str| {
        vs.iter().any(|v| v.opcode() == op && v.operands().iter().any(|o| o.ty == OperandType::Pred && o.name == "d"))
    };
    for v in vs {
        let (pred, listed) = (on_predicates(v.opcode()), named.iter().any(|n| n == v.opcode()));
        if pred != listed {
            let why = if pred { "has a predicate variant, not named" } else { "named, has no predicate variant" };
            return Some(Err((v.opcode().to_string(), why.into())));
        }
    }
    Some(Ok(()))
}

/// Read one sentence; `None` where it has no shape this pass reads.
fn read(
    u: &Unit,
    mine: &[Variant],
    before: Option<&str>,
    stated: &mut Vec<(String, String)>,
) -> Option<Result<(), (String, String)>> {
    let vs = scope(&u.text, mine)?;
    let plain = u.text.replace('`', "").to_lowercase();
    if let Some(r) = predicates_named(&vs, &u.text) {
        return Some(r);
    }
    for rule in RULES {
        if let Some(r) = rule(&vs, &plain, before) {
            return Some(r);
        }
    }
    let names: Vec<&str> = {
        let mut n: Vec<&str> = Vec::new();
        for v in &vs {
            for o in v.operands() {
                if !n.contains(&o.name) {
                    n.push(o.name);
                }
            }
        }
        n
    };
    let ws = words(&u.text);
    let clauses = clauses(&ws, &names);
    let mut read_any = false;
    for (subjects, predicate) in &clauses {
        // `Operands d, a, and b must be of the same type`: of one width.
        if predicate.iter().map(|(w, _)| w.as_str()).eq(["of", "the", "same", "type"]) {
            for v in &vs {
                let widths: Vec<(&String, u32)> = subjects.iter().filter_map(|s| Some((s, width(v, s)?))).collect();
                read_any |= widths.len() > 1;
                stated.extend(widths.iter().map(|(s, _)| (v.mnemonic(), s.to_string())));
                if let Some((s, w)) = widths.iter().find(|(_, w)| *w != widths[0].1) {
                    let first = widths[0];
                    return Some(fail(v, format!("`{}` is {} bits, `{s}` {w}", first.0, first.1)));
                }
            }
            continue;
        }
        for v in &vs {
            let Some(want) = expected(predicate, v) else { continue };
            for s in subjects {
                let Some(got) = width(v, s) else { continue };
                read_any = true;
                stated.push((v.mnemonic(), s.clone()));
                if got != want {
                    return Some(fail(v, format!("`{s}` is {got} bits, the sentence gives {want}")));
                }
            }
        }
    }
    read_any.then_some(Ok(()))
}

/// An example's comment with the example's registers named by the
/// operands they stand for (`// cnt is .u32` on `popc.b64 cnt, X;` reads
/// `` `d` is .u32 ``), and the variant it is about.
fn example_comment(example: &str, comment: &str) -> Option<(Variant, String)> {
    let code = crate::ptx::parse::without_guard(example.trim().trim_end_matches(';'));
    let (mnemonic, rest) = code.split_once(char::is_whitespace)?;
    let variant = Variant::with_mnemonic(mnemonic).into_iter().next()?;
    let registers: Vec<&str> = rest.split([',', '|']).map(str::trim).collect();
    let operands = variant.operands();
    if registers.len() != operands.len() {
        return None;
    }
    let text = comment.trim_start_matches('/').trim();
    let named: Vec<String> = text
        .split(' ')
        .map(|w| match registers.iter().position(|r| *r == w) {
            Some(i) => format!("`{}`", operands[i].name),
            None => w.to_string(),
        })
        .collect();
    Some((variant, named.join(" ")))
}

/// Each sentence that fails for some variant, as a finding: the variant is
/// its witness.
pub fn findings(doc: &Document) -> Vec<Finding> {
    check(doc)
        .fails
        .into_iter()
        .map(|(u, variant, why)| {
            let words: Vec<&str> = u.text.split_whitespace().collect();
            let fragment = words[..words.len().min(8)].join(" ");
            Finding {
                id: format!("text-operands-{}", u.id.replace('/', "-")),
                section: u.base_section().to_string(),
                kind: FindingKind::Overgeneral,
                severity: Severity::Low,
                root_cause: String::new(),
                fragment,
                summary: format!("said of every variant it covers, false for `{variant}`: {why}"),
                detail: vec![format!(
                    "{}:{}: the sentence is read against the catalogue for each variant it speaks of; for `{variant}`, {why}.",
                    u.file, u.line
                )],
                model_choice: None,
                witness: None,
                more_witnesses: Vec::new(),
                also_quotes: Vec::new(),
                repairs: Vec::new(),
            }
        })
        .collect()
}

/// Read every operand sentence of the document.
pub fn check(doc: &Document) -> Operands {
    let all = Variant::all();
    let mut out = Operands::default();
    let units = units(doc);
    for (i, u) in units.iter().enumerate() {
        let section = u.base_section();
        // An example's comment speaks of that example's variant alone.
        if u.kind == UnitKind::ExampleComment {
            let example =
                i.checked_sub(1).map(|j| &units[j]).filter(|e| e.kind == UnitKind::Example && e.line == u.line);
            if let Some((variant, text)) = example.and_then(|e| example_comment(&e.text, &u.text)) {
                let named = Unit { text, ..u.clone() };
                match read(&named, &[variant], None, &mut out.stated) {
                    None => {}
                    Some(Ok(())) => out.checked.push(u.id.clone()),
                    Some(Err((variant, why))) => out.fails.push((u.clone(), variant, why)),
                }
            }
            continue;
        }
        let prose = matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem);
        let place = u.block.is_some_and(|b| BLOCKS.contains(&b)) || (u.block.is_none() && u.kind == UnitKind::Sentence);
        // A Syntax block's comment states a restriction of its forms.
        let syntax_comment = u.kind == UnitKind::Comment && u.block == Some(BlockKind::Syntax);
        if !(syntax_comment || prose && place) {
            continue;
        }
        // A section's variants; a group's introduction speaks of all its
        // subsections'.
        let mine: Vec<Variant> = all
            .iter()
            .copied()
            .filter(|v| v.section() == section || v.section().starts_with(&format!("{section}.")))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let before = i.checked_sub(1).map(|j| &units[j]).filter(|b| b.block == u.block).map(|b| b.text.as_str());
        match read(u, &mine, before, &mut out.stated) {
            None => {}
            Some(Ok(())) => {
                out.checked.push(u.id.clone());
                // `Saturation modifier:` heads the sentence that says what
                // the modifier applies to: read with it.
                if before.is_some_and(|b| b.to_lowercase().starts_with("saturation modifier")) {
                    out.checked.push(units[i - 1].id.clone());
                }
            }
            Some(Err((variant, why))) => out.fails.push((u.clone(), variant, why)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(section: &str, text: &str) -> Unit {
        Unit {
            id: format!("{section}/description/sentence-1"),
            section: section.into(),
            block: Some(BlockKind::Description),
            kind: UnitKind::Sentence,
            file: "t".into(),
            line: 1,
            text: text.into(),
            sha256: String::new(),
        }
    }

    fn of(section: &str) -> Vec<Variant> {
        Variant::all().into_iter().filter(|v| v.section() == section).collect()
    }

    #[test]
    fn operand_types_are_read_for_every_variant() {
        let clz = of("9.7.1.15");
        let ok = unit("9.7.1.15", "Operand `a` has the instruction type, and destination `d` has type `.u32`.");
        assert_eq!(read(&ok, &clz, None, &mut Vec::new()), Some(Ok(())));
        // Said of every type at once, false for the 64-bit one.
        let wrong = unit("9.7.1.15", "Operand `a` has type `.b32`.");
        let Some(Err((variant, why))) = read(&wrong, &clz, None, &mut Vec::new()) else { panic!() };
        assert_eq!(variant, "clz.b64");
        assert!(why.contains("64 bits"), "{why}");
        // Narrowed to some types by its lead.
        let add = of("9.7.1.1");
        let packed =
            unit("9.7.1.1", "For instruction types `.u16x2`, `.s16x2`, operands `d`, `a` and `b` have type `.b32`.");
        assert_eq!(read(&packed, &add, None, &mut Vec::new()), Some(Ok(())));
        let mul = of("9.7.1.3");
        let wide = unit("9.7.1.3", "If `.wide` is specified, then `d` is twice as wide as `a` and `b`.");
        assert_eq!(read(&wide, &mul, None, &mut Vec::new()), Some(Ok(())));
        let not_wide = unit("9.7.1.3", "If `.hi` is specified, then `d` is twice as wide as `a` and `b`.");
        assert!(matches!(read(&not_wide, &mul, None, &mut Vec::new()), Some(Err(_))));
        assert_eq!(read(&unit("9.7.1.3", "Multiplies two values."), &mul, None, &mut Vec::new()), None);
        let shl = of("9.7.8.8");
        let amount = unit("9.7.8.8", "The `b` operand must be a 32-bit value, regardless of the instruction type.");
        assert_eq!(read(&amount, &shl, None, &mut Vec::new()), Some(Ok(())));
        let typed = unit("9.7.8.8", "The `b` operand must have the instruction type.");
        let Some(Err((variant, _))) = read(&typed, &shl, None, &mut Vec::new()) else { panic!() };
        assert_eq!(variant, "shl.b16");
    }

    #[test]
    fn fixed_phrases_are_read_for_every_variant() {
        let mul = of("9.7.1.3");
        let wide = unit("9.7.1.3", "The `.wide` suffix is supported only for 16- and 32-bit integer types.");
        assert_eq!(read(&wide, &mul, None, &mut Vec::new()), Some(Ok(())));
        let narrower = unit("9.7.1.3", "The `.wide` suffix is supported only for 16-bit integer types.");
        assert!(matches!(read(&narrower, &mul, None, &mut Vec::new()), Some(Err(_))));
        let abs = of("9.7.1.10");
        assert_eq!(read(&unit("9.7.1.10", "Only for signed integers."), &abs, None, &mut Vec::new()), Some(Ok(())));
        let add = of("9.7.1.1");
        assert!(matches!(
            read(&unit("9.7.1.1", "Only for signed integers."), &add, None, &mut Vec::new()),
            Some(Err(_))
        ));
        let mad = of("9.7.1.4");
        let sat = unit("9.7.1.4", "Applies only to `.s32` type in `.hi` mode.");
        assert_eq!(read(&sat, &mad, Some("Saturation modifier:"), &mut Vec::new()), Some(Ok(())));
        let logic: Vec<Variant> = Variant::all().into_iter().filter(|v| v.section().starts_with("9.7.8.")).collect();
        let preds = unit("9.7.8", "Instructions `and`, `or`, `xor`, and `not` also operate on predicates.");
        assert_eq!(read(&preds, &logic, None, &mut Vec::new()), Some(Ok(())));
        let fewer = unit("9.7.8", "Instructions `and`, `or` also operate on predicates.");
        assert!(matches!(read(&fewer, &logic, None, &mut Vec::new()), Some(Err(_))));
    }
}
