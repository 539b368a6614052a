//! Examples against their own section's Syntax, for the sections ptxcheck
//! does not model (a modelled section's examples are read against the
//! catalogue and the assembler). Each Syntax line is read as a sequence of
//! slots: a qualifier the line writes bare is required, one in braces
//! (`{.sat}`, `{.xorsign.abs}`) may be left out, and a name the block
//! defines as a set (`.rnd = { .rn, .rz }`) stands for one of its values;
//! a placeholder the block never defines stands for any one qualifier. An
//! example of the section's instruction whose qualifiers, in order, fit no
//! line is a finding: `add.rz.f32.bf16.sat` where the Syntax writes
//! `add{.rnd}{.sat}.f32.atype` puts `.sat` after the types.

use super::defaults::{grammar, Grammar};
use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// One slot of a Syntax line: the qualifiers it may be, or any one where
/// the set is not defined; optional slots come from braces.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Slot {
    One(Option<Vec<String>>),
    Optional(Vec<Slot>),
}

fn slot(word: &str, g: &Grammar) -> Slot {
    let q = format!(".{}", word.trim_start_matches('.'));
    match g.sets.get(&q) {
        Some(values) => Slot::One(Some(values.clone())),
        // A placeholder never defined (`.type`, `.CmpOp` where the block
        // leaves it to the prose): any one qualifier. A literal: itself.
        None if word.chars().any(|c| c.is_ascii_uppercase()) || word.ends_with("type") => Slot::One(None),
        None => Slot::One(Some(vec![q])),
    }
}

/// The slots of a Syntax line's mnemonic after its opcode.
fn slots(mnemonic: &str, g: &Grammar) -> Vec<Slot> {
    let mut out = Vec::new();
    let mut rest = mnemonic;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            let group: Vec<Slot> =
                inner[..end].split('.').filter(|w| !w.trim().is_empty()).map(|w| slot(w.trim(), g)).collect();
            out.push(Slot::Optional(group));
            rest = inner.get(end + 1..).unwrap_or_default();
        } else {
            let body = rest.trim_start_matches('.');
            let end = body.find(['.', '{']).unwrap_or(body.len());
            if end > 0 {
                out.push(slot(&body[..end], g));
            }
            rest = &body[end..];
        }
    }
    out
}

/// Whether `qs` (an example's qualifiers, with dots) fit `slots` in order.
fn fits(slots: &[Slot], qs: &[String]) -> bool {
    match slots.split_first() {
        None => qs.is_empty(),
        Some((Slot::One(values), rest)) => qs.split_first().is_some_and(|(q, more)| {
            values.as_ref().is_none_or(|vs| vs.iter().any(|v| v.eq_ignore_ascii_case(q))) && fits(rest, more)
        }),
        Some((Slot::Optional(group), rest)) => {
            fits(rest, qs) || {
                let joined: Vec<Slot> = group.iter().cloned().chain(rest.iter().cloned()).collect();
                fits(&joined, qs)
            }
        }
    }
}

fn section(s: &Section, modelled: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    if modelled.contains(&s.number) {
        return out;
    }
    let (Some(g), Some(examples), Some(opcode)) = (grammar(s), s.block(BlockKind::Examples), s.opcode()) else {
        return out;
    };
    let lines: Vec<Vec<Slot>> = g
        .templates
        .iter()
        .filter_map(|t| t.split_whitespace().next())
        .filter_map(|m| m.strip_prefix(opcode))
        .map(|rest| slots(rest, &g))
        .collect();
    if lines.is_empty() {
        return out;
    }
    // A set written twice with other values: which lines each definition
    // holds for is the block's layout alone. Examples are read with the
    // values of every definition.
    for name in &g.redefined {
        let count = s
            .block(BlockKind::Syntax)
            .map_or(0, |b| b.code().filter(|l| l.text.split_once('=').is_some_and(|(n, _)| n.trim() == name)).count());
        out.push(Finding::of_text(
            format!("text-form-{}-redefined-{}", s.number, name.trim_start_matches('.').to_lowercase()),
            s.number.clone(),
            FindingKind::Ambiguity,
            format!("{name} = {{"),
            format!(
                "the Syntax defines `{name}` {count} times, with other values each time: which lines each \
                 definition holds for is stated only by where it stands"
            ),
            vec![format!("{}: section {}'s Syntax block.", s.file, s.number)],
        ));
    }
    for l in examples.code() {
        let code = l.text.split("//").next().unwrap_or_default();
        let body = crate::ptx::parse::without_guard(code).trim();
        let Some(mnemonic) = body.split_whitespace().next() else { continue };
        let Some(rest) = mnemonic.strip_prefix(opcode).filter(|r| r.is_empty() || r.starts_with('.')) else {
            continue;
        };
        let qs: Vec<String> = rest.split('.').filter(|q| !q.is_empty()).map(|q| format!(".{q}")).collect();
        if lines.iter().any(|slots| fits(slots, &qs)) {
            continue;
        }
        let id = format!("text-form-{}-{}", s.number, l.number);
        let fit = refit(&qs, &|q: &[String]| lines.iter().any(|slots| fits(slots, q)));
        let mut f = Finding::of_text(
            id,
            s.number.clone(),
            FindingKind::ExampleSyntax,
            mnemonic.to_string(),
            format!("the example `{mnemonic}` fits no Syntax line of its section: its qualifiers, in order, are none the lines allow"),
            vec![format!(
                "{}:{}: `{}`; the Syntax lines: {}.",
                s.file,
                l.number,
                body,
                g.templates.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
            )],
        );
        if let Some(qs) = fit {
            let new = format!("{opcode}{}", qs.concat());
            f.repairs = vec![Repair { line: l.number, old: mnemonic.to_string(), new }];
        }
        out.push(f);
    }
    out
}

/// The qualifiers put right by the smallest edit that makes them fit: a
/// qualifier written twice kept once, else one qualifier moved. None where
/// no such edit fits, or two different ones do.
fn refit(qs: &[String], fit: &dyn Fn(&[String]) -> bool) -> Option<Vec<String>> {
    let mut once: Vec<String> = Vec::new();
    for q in qs {
        if !once.contains(q) {
            once.push(q.clone());
        }
    }
    if once.len() < qs.len() {
        return fit(&once).then_some(once);
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    for from in 0..qs.len() {
        for to in 0..qs.len() {
            let mut moved = qs.to_vec();
            let q = moved.remove(from);
            moved.insert(to, q);
            if from != to && fit(&moved) && !found.contains(&moved) {
                found.push(moved);
            }
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// Every example of a section without a model that fits none of its
/// Syntax lines.
pub fn check(doc: &Document) -> Vec<Finding> {
    let modelled = super::modelled_sections();
    super::each_section(doc, |s| section(s, &modelled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, examples: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\n{examples}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| f.fragment).collect()
    }

    #[test]
    fn an_example_that_fits_no_syntax_line_is_a_finding() {
        let syntax = "add{.rnd}{.sat}.f32.atype d, a, c;\nadd.CmpOp{.xorsign.abs}.f16 d, a, c;\n\
                      .atype = { .f16, .bf16 };\n.rnd = { .rn, .rz,\n         .rm, .rp };";
        let examples = ".reg .f32 fc;\nadd.rz.f32.bf16.sat fd, fa, fc;\nadd.rz.sat.f32.f16.sat fd, fa, fc;\n\
                        add.sat.f32.f16 fd, fa, fc;\n@p add.rp.f32.bf16 fd, fa, fc;\nadd.lt.xorsign.abs.f16 d, a, c;\n\
                        add.lt.xorsign.f16 d, a, c;\nadd.f32 fd, fa, fc;";
        assert_eq!(
            found(syntax, examples),
            ["add.rz.f32.bf16.sat", "add.rz.sat.f32.f16.sat", "add.lt.xorsign.f16", "add.f32"]
        );
    }

    /// A set defined twice holds both definitions' values, and is a
    /// finding of its own.
    #[test]
    fn a_set_defined_twice_is_read_as_both() {
        let syntax = "add.dtype.f16 d, a, b;\n.dtype = { .u16 }\nadd.dtype.f16x2 d, a, b;\n.dtype = { .u32 }";
        assert_eq!(found(syntax, "add.u16.f16 d, a, b;\nadd.u32.f16x2 d, a, b;"), [".dtype = {"]);
    }

    #[test]
    fn the_fix_moves_a_qualifier_or_drops_its_second_writing() {
        let syntax = "add{.rnd}{.sat}.f32.atype d, a, c;\n.atype = { .f16, .bf16 };\n.rnd = { .rn, .rz };";
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\nadd.rz.f32.bf16.sat d, a, c;\n\
             add.rz.sat.f32.f16.sat d, a, c;\nadd.f16.f32 d, a, c;\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let fixes: Vec<Option<String>> =
            check(&doc).into_iter().map(|f| f.repairs.first().map(|r| r.new.clone())).collect();
        // Two types swapped: moving either gives the same fix.
        assert_eq!(
            fixes,
            [Some("add.rz.sat.f32.bf16".into()), Some("add.rz.sat.f32.f16".into()), Some("add.f32.f16".into())]
        );
    }
}
