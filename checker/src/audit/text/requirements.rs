//! The requirements pass: every sentence of a PTX ISA Notes, Target ISA
//! Notes, Deprecation Note or Removal Note block that states a version, a
//! target or a deprecation, read against the catalogue's requirement of
//! the variants it names (the catalogue's requirements are in turn checked
//! against NVIDIA's assembler by `vendor syntax`).
//!
//! A sentence names its variants by code spans (`min.u16x2`,
//! `min{.relu}.s16x2`, a qualifier set such as `.BoolOp`, or the opcode);
//! one that names none speaks of the whole instruction, whose earliest
//! variant it then dates. A sentence this pass cannot read, or one that
//! disagrees with the catalogue, is not checked by it: the first stays
//! unread in the coverage, the second is listed with what the catalogue says.
//! A sentence that names a form the section does not have (`slct.f64`,
//! where the forms are `slct.f64.s32` and `slct.f64.f32`) is read as every
//! form with the qualifiers it writes, and is a finding.

use ptx_spec::catalogue::{PtxVersion, Target};
use ptx_spec::Variant;

use super::document::{BlockKind, Document};
use super::units::{units, Unit, UnitKind};
use crate::audit::finding::{Finding, FindingKind, Repair, Severity};

/// What the pass found.
#[derive(Debug, Default)]
pub struct Requirements {
    /// Ids of the units it read and found to agree with the catalogue.
    pub checked: Vec<String>,
    /// Units it read that disagree with the catalogue: the unit's id and
    /// what the catalogue says.
    pub disagree: Vec<(String, String)>,
    /// Units that name a form the section does not have, with the name.
    pub misnamed: Vec<(Unit, String)>,
}

const BLOCKS: [BlockKind; 4] =
    [BlockKind::PtxIsaNotes, BlockKind::TargetIsaNotes, BlockKind::DeprecationNote, BlockKind::RemovalNote];

/// What one sentence states.
#[derive(Debug, PartialEq, Eq)]
enum Statement {
    Introduced(PtxVersion),
    Requires(Target),
    Deprecated { since: PtxVersion, instead: Option<String> },
    Removed { ptx: PtxVersion, sm: u32 },
}

/// The first `N.M` after `PTX ISA version`.
pub(super) fn version(text: &str) -> Option<PtxVersion> {
    let at = text.find("PTX ISA version ")? + "PTX ISA version ".len();
    let v = text[at..].split(|c: char| !(c.is_ascii_digit() || c == '.')).next()?.trim_end_matches('.');
    let (major, minor) = v.split_once('.')?;
    Some(PtxVersion(major.parse().ok()?, minor.parse().ok()?))
}

/// The first `sm_NN`.
pub(super) fn target(text: &str) -> Option<u32> {
    let at = text.find("sm_")? + 3;
    text[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

fn statement(text: &str) -> Option<Statement> {
    let lower = text.to_lowercase();
    if lower.contains("may be removed") || lower.contains("future") {
        return None; // a plan, not a fact
    }
    if lower.contains("supported on all target architectures") {
        return Some(Statement::Requires(Target::All));
    }
    if lower.contains("removed in ptx isa version") || lower.contains("not supported") {
        return Some(Statement::Removed { ptx: version(text)?, sm: target(text)? });
    }
    if lower.contains("deprecated") {
        let instead = lower.contains("in favor of").then(|| spans(text).last().cloned()).flatten();
        return Some(Statement::Deprecated { since: version(text)?, instead });
    }
    if lower.contains("introduced in ptx isa version") {
        return Some(Statement::Introduced(version(text)?));
    }
    if lower.contains(" or higher") && (lower.contains("require") || lower.contains("requires")) {
        return Some(Statement::Requires(Target::Sm(target(text)?)));
    }
    None
}

fn spans(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The operand width a sentence opens with: 64 in `64-bit `add.cc` ...`.
fn operand_width(text: &str) -> Option<u32> {
    text.split_once("-bit ").and_then(|(n, _)| n.parse().ok())
}

/// `min{.relu}.s16x2` as the mnemonics it stands for.
fn expand(span: &str) -> Vec<String> {
    match (span.find('{'), span.find('}')) {
        (Some(a), Some(b)) if a < b => {
            let (head, opt, tail) = (&span[..a], &span[a + 1..b], &span[b + 1..]);
            let mut out = expand(&format!("{head}{tail}"));
            out.extend(expand(&format!("{head}{opt}{tail}")));
            out
        }
        _ => vec![span.to_string()],
    }
}

/// The variants of `section` a sentence names, or all of them where it
/// names none of them, and the names it writes that are no variant's
/// mnemonic but are read as the variants with every qualifier they write
/// (`slct.f64` for `slct.f64.s32` and the rest); `None` where a span names
/// nothing the section has.
fn subject(section: &str, text: &str, all: &[Variant]) -> Option<(Vec<Variant>, Vec<String>)> {
    // `64-bit add.cc ...` (9.7.2): the forms whose operands are that wide.
    let width = operand_width(text);
    let mine: Vec<Variant> = all
        .iter()
        .copied()
        .filter(|v| v.section() == section)
        .filter(|v| width.is_none_or(|w| v.operands().first().is_some_and(|d| d.ty.width() == w)))
        .collect();
    let opcode = mine.first()?.opcode();
    let mut named: Vec<Variant> = Vec::new();
    let mut inexact: Vec<String> = Vec::new();
    let mut any = false;
    for span in spans(text) {
        if span == opcode || span.starts_with("sm_") || span == ".target" || span.ends_with(".sync") {
            continue;
        }
        any = true;
        let found: Vec<Variant> = if span.starts_with('.') {
            // A qualifier set of the section's Syntax block, or a qualifier.
            let members: Vec<String> = crate::audit::syntax::BLOCKS
                .iter()
                .filter(|b| b.section == section)
                .flat_map(|b| b.sets.iter())
                .find(|(name, _)| *name == span)
                .map_or_else(|| vec![span.clone()], |(_, m)| m.iter().map(|q| q.to_string()).collect());
            mine.iter()
                .copied()
                .filter(|v| {
                    let m = v.mnemonic();
                    let parts: Vec<&str> = m.split('.').skip(1).collect();
                    members.iter().any(|q| parts.contains(&q.trim_start_matches('.')))
                })
                .collect()
        } else {
            let names = expand(&span);
            let exact: Vec<Variant> = mine.iter().copied().filter(|v| names.contains(&v.mnemonic())).collect();
            if exact.is_empty() {
                let written: Vec<&str> = span.split('.').collect();
                let has_all = |v: &Variant| {
                    let m = v.mnemonic();
                    let parts: Vec<&str> = m.split('.').collect();
                    written.iter().all(|q| parts.contains(q))
                };
                let loose: Vec<Variant> = mine.iter().copied().filter(has_all).collect();
                if !loose.is_empty() {
                    inexact.push(span.clone());
                }
                loose
            } else {
                exact
            }
        };
        if found.is_empty() {
            return None;
        }
        named.extend(found);
    }
    Some((if any { named } else { mine }, inexact))
}

/// What the catalogue says against a statement, where it disagrees.
fn disagreement(s: &Statement, subject: &[Variant], named: bool) -> Option<String> {
    let requirement = |v: &Variant| v.requirement();
    match s {
        Statement::Introduced(ptx) => {
            let got: Vec<PtxVersion> = subject.iter().map(|v| requirement(v).ptx).collect();
            let ok = if named { got.iter().all(|g| g == ptx) } else { got.iter().min() == Some(ptx) };
            (!ok).then(|| format!("the catalogue dates them {}", list(&got)))
        }
        Statement::Requires(t) => {
            let got: Vec<Target> = subject.iter().map(|v| requirement(v).target).collect();
            let ok = if named { got.iter().all(|g| g == t) } else { got.iter().min() == Some(t) };
            (!ok).then(|| format!("the catalogue requires {}", list(&got)))
        }
        Statement::Deprecated { since, instead } => {
            let ok = subject.iter().all(|v| {
                v.deprecation().is_some_and(|d| d.since == *since && instead.as_deref().is_none_or(|i| i == d.instead))
            });
            (!ok).then(|| "the catalogue's deprecation differs".to_string())
        }
        Statement::Removed { ptx, sm } => {
            let ok = subject.iter().all(|v| v.deprecation().is_some_and(|d| d.removed == Some((*ptx, *sm))));
            (!ok).then(|| "the catalogue's removal differs".to_string())
        }
    }
}

fn list<T: std::fmt::Display + PartialEq>(items: &[T]) -> String {
    let mut seen: Vec<&T> = Vec::new();
    for i in items {
        if !seen.contains(&i) {
            seen.push(i);
        }
    }
    seen.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

/// Read every requirement sentence of the document.
pub fn check(doc: &Document) -> Requirements {
    let all = Variant::all();
    let mut out = Requirements::default();
    for u in units(doc) {
        if !u.block.is_some_and(|b| BLOCKS.contains(&b)) || !matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem) {
            continue;
        }
        let section = u.base_section();
        let Some(s) = statement(&u.text) else { continue };
        let Some((subject, inexact)) = subject(section, &u.text, &all) else { continue };
        let named = operand_width(&u.text).is_some()
            || spans(&u.text).iter().any(|sp| {
                !sp.starts_with("sm_")
                    && sp != ".target"
                    && !sp.ends_with(".sync")
                    && Some(sp.as_str()) != subject.first().map(|v| v.opcode())
            });
        if let Some(name) = inexact.first() {
            out.misnamed.push((u.clone(), name.clone()));
        }
        match disagreement(&s, &subject, named) {
            None => out.checked.push(u.id),
            Some(why) => out.disagree.push((u.id, why)),
        }
    }
    out
}

/// A finding for each sentence that names a form the section does not
/// have, and for each unqualified "supported on all target architectures"
/// beside a sentence that restricts some forms.
pub fn findings(doc: &Document) -> Vec<Finding> {
    let mut out = misnamed(doc);
    out.extend(unqualified_targets(doc));
    out
}

/// A Target ISA Notes sentence that says the instruction is supported on
/// every target with no subject (`Supported on all target architectures.`),
/// where another sentence of the block requires a newer target of forms it
/// names: read alone, the first admits those forms everywhere. The other
/// chapters write the subject (`` `add.f32` supported on all target
/// architectures``). Reads any section, modelled or not.
fn unqualified_targets(doc: &Document) -> Vec<Finding> {
    let all = units(doc);
    let in_notes = |u: &&Unit| u.block == Some(BlockKind::TargetIsaNotes) && u.kind == UnitKind::Sentence;
    let mut out = Vec::new();
    for u in all.iter().filter(in_notes).filter(|u| !u.section.contains('@')) {
        if !u.text.trim().to_lowercase().starts_with("supported on all target architectures") {
            continue;
        }
        let restricting = all.iter().filter(in_notes).find(|r| {
            r.section == u.section
                && !spans(&r.text).iter().all(|sp| sp.starts_with("sm_"))
                && matches!(statement(&r.text), Some(Statement::Requires(Target::Sm(_))))
        });
        let Some(r) = restricting else { continue };
        let forms: Vec<String> = spans(&r.text).into_iter().filter(|sp| !sp.starts_with("sm_")).collect();
        let target = target(&r.text).map_or_else(String::new, |t| format!("`sm_{t}` or higher"));
        let mut f = Finding::of_text(
            format!("text-requirements-{}-unqualified-all-targets", u.base_section()),
            u.base_section().to_string(),
            FindingKind::Structure,
            u.text.clone(),
            format!(
                "the Target ISA Notes say, with no subject, that the instruction is supported on all target \
                 architectures, and then require {target} for {}: read alone, the first sentence admits those \
                 forms on every target",
                forms.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
            ),
            vec![format!(
                "{}:{}: no subject; {}:{}: the forms it restricts. The other chapters name what is supported \
                 everywhere (`add.f32` supported on all target architectures).",
                u.file, u.line, r.file, r.line
            )],
        );
        // The fix says that the sentences after it restrict it, in the
        // sentence's own words.
        let said = u.text.trim().trim_end_matches('.');
        if let Some(rest) = said.strip_prefix("Supported") {
            f.repairs = vec![Repair {
                line: u.line,
                old: said.to_string(),
                new: format!("Except as the sentences below restrict it, supported{rest}"),
            }];
        }
        out.push(f);
    }
    out
}

/// A finding for each sentence that names a form the section does not have.
fn misnamed(doc: &Document) -> Vec<Finding> {
    let all = Variant::all();
    check(doc)
        .misnamed
        .into_iter()
        .map(|(u, name)| {
            let section = u.base_section().to_string();
            let forms: Vec<String> = all
                .iter()
                .filter(|v| v.section() == section && name.split('.').all(|q| v.mnemonic().split('.').any(|p| p == q)))
                .map(|v| format!("`{}`", v.mnemonic()))
                .collect();
            Finding {
                id: format!("text-requirements-{}", u.id.replace('/', "-")),
                section,
                kind: FindingKind::Structure,
                severity: Severity::Low,
                root_cause: String::new(),
                fragment: format!("`{name}`"),
                summary: format!("names `{name}`, which is no form of the instruction; the forms with its qualifiers are {}", forms.join(", ")),
                detail: vec![format!(
                    "{}:{}: the requirement is read as every form with the qualifiers `{name}` writes, and agrees with the catalogue for those.",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unqualified_all_targets_beside_a_restriction_is_found() {
        let text = |notes: &str| {
            format!(
                "#### 9.7.1.1. Integer Arithmetic Instructions: `add`\n\n`add`\n\nAdd.\n\nSyntax\n\n```\nadd.type d, a, b;\n```\n\n\
                 Description\n\nAdds.\n\nSemantics\n\n```\nd = a + b;\n```\n\nPTX ISA Notes\n\nIntroduced in PTX ISA version \
                 1.0.\n\nTarget ISA Notes\n\n{notes}\n\nExamples\n\n```\nadd.s32 d, a, b;\n```\n"
            )
        };
        let found = |notes: &str| {
            let doc =
                Document { sections: crate::audit::text::document::parse("made.md", text(notes).as_bytes()).unwrap() };
            unqualified_targets(&doc)
        };
        let f = found("Supported on all target architectures.\n\n`add.u16x2` requires `sm_90` or higher.");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].id, "text-requirements-9.7.1.1-unqualified-all-targets");
        assert!(f[0].summary.contains("require `sm_90` or higher for `add.u16x2`"), "{}", f[0].summary);
        let fix: Vec<(&str, &str)> = f[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(
            fix,
            [(
                "Supported on all target architectures",
                "Except as the sentences below restrict it, supported on all target architectures"
            )]
        );
        // A subject, or no restriction, is no finding.
        assert!(found("`add.s32` supported on all target architectures.\n\n`add.u16x2` requires `sm_90` or higher.")
            .is_empty());
        assert!(found("Supported on all target architectures.").is_empty());
    }

    #[test]
    fn statements_are_read() {
        assert_eq!(statement("Introduced in PTX ISA version 2.0."), Some(Statement::Introduced(PtxVersion(2, 0))));
        assert_eq!(statement("`bfe` requires `sm_20` or higher."), Some(Statement::Requires(Target::Sm(20))));
        assert_eq!(statement("Supported on all target architectures."), Some(Statement::Requires(Target::All)));
        assert_eq!(
            statement("Not supported in PTX ISA version 6.4 for .target `sm_70` or higher."),
            Some(Statement::Removed { ptx: PtxVersion(6, 4), sm: 70 })
        );
        assert_eq!(statement("Support may be removed in a future PTX ISA version."), None);
        assert_eq!(expand("min{.relu}.s16x2"), ["min.s16x2", "min.relu.s16x2"]);
    }

    #[test]
    fn sentences_are_read_against_the_catalogue() {
        let all = Variant::all();
        let (add, inexact) =
            subject("9.7.1.1", "`add.u16x2` and `add.s16x2` require `sm_90` or higher.", &all).unwrap();
        assert_eq!(add.len(), 2);
        assert!(inexact.is_empty());
        assert_eq!(disagreement(&Statement::Requires(Target::Sm(90)), &add, true), None);
        assert!(disagreement(&Statement::Requires(Target::Sm(80)), &add, true).is_some());
        // The whole instruction: its earliest variant.
        let (whole, _) = subject("9.7.1.1", "Introduced in PTX ISA version 1.0.", &all).unwrap();
        assert_eq!(disagreement(&Statement::Introduced(PtxVersion(1, 0)), &whole, false), None);
        assert!(disagreement(&Statement::Introduced(PtxVersion(2, 0)), &whole, false).is_some());
        // A qualifier set of the Syntax block.
        let (boolop, _) = subject("9.7.8.6", "Qualifier `.BoolOp` requires `sm_70` or higher.", &all).unwrap();
        assert_eq!(boolop.len(), 2);
        assert!(subject("9.7.1.1", "`add.u8x4` requires `sm_90` or higher.", &all).is_none());
        // A name that is no form, read as the forms with its qualifiers.
        let (f64s, inexact) = subject("9.7.6.4", "`slct.f64` requires `sm_13` or higher.", &all).unwrap();
        assert_eq!(f64s.len(), 3);
        assert_eq!(inexact, ["slct.f64"]);
        assert_eq!(disagreement(&Statement::Requires(Target::Sm(13)), &f64s, true), None);
    }
}
