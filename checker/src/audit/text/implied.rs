//! A qualifier written alone that stands for a sub-qualifier the notes ask
//! more for. Where a section says that a qualifier with no sub-qualifier
//! means one (`.shared` alone is `.shared::cta`), and its PTX ISA Notes or
//! Target ISA Notes give that sub-qualifier a later version or a higher
//! target than the qualifier itself (`::cta` requires `sm_30`, the
//! instruction `sm_20`), the qualifier written alone on the earlier target
//! is allowed by one sentence and not by the other: whether `.shared` on
//! `sm_20` assembles, and what it means there, is left open.
//!
//! One finding per qualifier and sub-qualifier. The fix is a sentence in
//! the notes that says the qualifier written alone needs no more than the
//! qualifier: the reading in which the default does not raise the
//! requirement, as the requirement of the qualifier itself says.

use std::collections::BTreeMap;

use super::document::{BlockKind, Document, Section};
use super::requirements::{target, version};
use super::retyped::spans;
use super::units::{block_sentences as sentences, Sentence};
use crate::audit::finding::{Finding, FindingKind, Repair};
use ptx_spec::catalogue::PtxVersion;

/// What a sentence of the notes asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Need {
    Ptx(PtxVersion),
    Sm(u32),
}

impl Need {
    fn kind(self) -> usize {
        matches!(self, Need::Sm(_)) as usize
    }

    fn written(self) -> String {
        match self {
            Need::Ptx(v) => format!("PTX ISA version {v}"),
            Need::Sm(n) => format!("`sm_{n}`"),
        }
    }
}

/// What a requirement is of.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Of {
    Instruction,
    Qualifier(String),
    Sub(String),
}

/// The qualifier and sub-qualifier a sentence says is assumed by default
/// (`.shared`, `::cta`).
fn default_of(text: &str) -> Option<(String, String)> {
    if !text.contains("default") {
        return None;
    }
    let spans = spans(text);
    let with_sub = spans.iter().find_map(|s| s.find("::").map(|at| (&s[..at], &s[at..])))?;
    let qualifier = spans.iter().find(|s| s.starts_with('.') && !s.contains("::")).copied().unwrap_or(with_sub.0);
    let sub: String = with_sub.1.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == ':' || *c == '_').collect();
    (qualifier.starts_with('.') && sub.len() > 2).then(|| (qualifier.to_string(), sub))
}

/// What a sentence of the notes asks for, and of what: each sub-qualifier
/// it names outside braces, else the qualifier after the opcode, else the
/// instruction.
fn requirement(text: &str, opcode: &str) -> Option<(Need, Vec<Of>)> {
    let lower = text.to_lowercase();
    let need = if lower.contains("introduced in ptx isa version") {
        Need::Ptx(version(text)?)
    } else if lower.contains("require") && lower.contains(" or higher") {
        Need::Sm(target(text)?)
    } else {
        return None;
    };
    let spans = spans(text);
    let subs: Vec<Of> = spans
        .iter()
        .filter_map(|s| s.find("::").filter(|&at| !s[..at].ends_with('{')).map(|at| &s[at..]))
        .map(|sub| Of::Sub(sub.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == ':' || *c == '_').collect()))
        .collect();
    if !subs.is_empty() {
        return Some((need, subs));
    }
    let qualifiers: Vec<Of> = spans
        .iter()
        .filter_map(|s| s.strip_prefix(opcode).or(s.strip_prefix('.').map(|_| *s)))
        .filter_map(|rest| rest.trim_start_matches('.').split(['.', '{']).next().filter(|q| !q.is_empty()))
        .map(|q| Of::Qualifier(format!(".{q}")))
        .collect();
    Some((need, if qualifiers.is_empty() { vec![Of::Instruction] } else { qualifiers }))
}

/// Whether a sentence of the notes already says what the qualifier written
/// alone needs (the fix's sentence).
fn settles(text: &str, qualifier: &str) -> bool {
    text.contains("without a sub-qualifier") && spans(text).contains(&qualifier)
}

fn section(s: &Section) -> Vec<Finding> {
    let Some(opcode) = s.opcode() else { return Vec::new() };
    let defaults: Vec<(String, String)> = [BlockKind::Description, BlockKind::Notes]
        .iter()
        .flat_map(|k| sentences(s, *k))
        .filter_map(|x| default_of(&x.text))
        .collect();
    if defaults.is_empty() {
        return Vec::new();
    }
    let notes: Vec<Sentence> =
        [BlockKind::PtxIsaNotes, BlockKind::TargetIsaNotes].iter().flat_map(|k| sentences(s, *k)).collect();
    // The highest need of each kind stated for each subject, with the
    // sentence that states it.
    let mut needs: BTreeMap<(Of, usize), (Need, &Sentence)> = BTreeMap::new();
    for x in &notes {
        let Some((need, subjects)) = requirement(&x.text, opcode) else { continue };
        for of in subjects {
            let entry = needs.entry((of, need.kind())).or_insert((need, x));
            if need > entry.0 {
                *entry = (need, x);
            }
        }
    }
    let mut out = Vec::new();
    for (qualifier, sub) in defaults {
        if notes.iter().any(|x| settles(&x.text, &qualifier)) {
            continue;
        }
        let mut raised: Vec<(Need, Need, &Sentence)> = Vec::new();
        for kind in [0, 1] {
            let Some(&(sub_need, said)) = needs.get(&(Of::Sub(sub.clone()), kind)) else { continue };
            let own = needs.get(&(Of::Qualifier(qualifier.clone()), kind)).or(needs.get(&(Of::Instruction, kind)));
            if let Some(&(own, _)) = own.filter(|(own, _)| sub_need > *own) {
                raised.push((own, sub_need, said));
            }
        }
        let Some(&(_, _, last)) = raised.last() else { continue };
        let asks: Vec<String> = raised
            .iter()
            .map(|(own, sub_need, _)| format!("{} where it allows {}", sub_need.written(), own.written()))
            .collect();
        let mut f = Finding::of_text(
            format!("text-implied-{}-{}{}", s.number, qualifier.trim_start_matches('.'), sub.replace("::", "-")),
            s.number.clone(),
            FindingKind::Conflict,
            last.text.clone(),
            format!(
                "`{qualifier}` written alone means `{qualifier}{sub}`, for which the notes ask {}: whether \
                 `{qualifier}` alone is allowed there, and what it means, is left open",
                super::and_list(&asks)
            ),
            raised.iter().map(|(_, _, x)| format!("At {}:{}: \"{}\".", s.file, x.start.number, x.text)).collect(),
        );
        // The notes' last sentence on the sub-qualifier gains one that says
        // what the default needs.
        let old = last.last.text.trim_end().to_string();
        f.repairs = vec![Repair {
            line: last.last.number,
            new: format!(
                "{old} `{qualifier}` written without a sub-qualifier, which means `{qualifier}{sub}`, needs no \
                 more than `{qualifier}`."
            ),
            old,
        }];
        out.push(f);
    }
    out
}

/// A sentence of the notes that asks for a qualifier less than the
/// instruction itself needs (cp.async's "Sub-qualifier `::cta` requires
/// `sm_30`", where the instruction requires `sm_80`): it allows nothing
/// the instruction's own note does not, so it says nothing as written, and
/// a reader cannot tell which target was meant. One finding per sentence;
/// the fix names the instruction's own need, the least at which the
/// sentence holds.
fn below_the_instruction(s: &Section) -> Vec<Finding> {
    let Some(opcode) = s.opcode() else { return Vec::new() };
    let notes: Vec<Sentence> =
        [BlockKind::PtxIsaNotes, BlockKind::TargetIsaNotes].iter().flat_map(|k| sentences(s, *k)).collect();
    let read: Vec<(Need, Vec<Of>, &Sentence)> =
        notes.iter().filter_map(|x| requirement(&x.text, opcode).map(|(need, of)| (need, of, x))).collect();
    let mut out = Vec::new();
    for (need, of, x) in &read {
        // The instruction's own need: a sentence that names nothing but it
        // (`Requires `sm_80` or higher.`, `` `cvta` requires ``), not one
        // of its forms (`` `min` with three input arguments requires ``).
        let whole = |x: &Sentence| {
            let t = x.text.trim_start().to_lowercase();
            t.starts_with("requires")
                || t.starts_with(&format!("`{opcode}` requires"))
                || t.starts_with("introduced in")
        };
        let own =
            read.iter().find(|(n, o, x)| n.kind() == need.kind() && o.as_slice() == [Of::Instruction] && whole(x));
        let (Some((own, _, _)), false) = (own, of.contains(&Of::Instruction)) else { continue };
        if need >= own {
            continue;
        }
        let (was, now) = (need.written(), own.written());
        let (bare_was, bare_now) = (was.trim_matches('`'), now.trim_matches('`'));
        let line = &x.start;
        let mut f = Finding::of_text(
            format!("text-implied-{}-below-{}", s.number, bare_was.replace([' ', '.'], "-").to_lowercase()),
            s.number.clone(),
            FindingKind::Conflict,
            x.text.clone(),
            format!(
                "the notes ask {was} for part of the instruction, less than the {now} the instruction itself \
                 needs: as written the sentence allows nothing more, and which {} was meant is left open",
                if matches!(need, Need::Sm(_)) { "target" } else { "version" }
            ),
            vec![format!("At {}:{}: \"{}\".", s.file, line.number, x.text)],
        );
        if let Some(at) = line.text.find(bare_was).filter(|_| x.start.number == x.last.number) {
            f.repairs = vec![Repair::at(line.number, &line.text, at, at + bare_was.len(), bare_now)];
        }
        out.push(f);
    }
    out
}

/// Every qualifier whose default sub-qualifier the notes ask more for, and
/// every note that asks less than the instruction needs.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out = super::each_section(doc, section);
    out.extend(super::each_section(doc, below_the_instruction));
    out
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::check;

    fn found(description: &str, notes: &str) -> Vec<(String, Vec<String>)> {
        let doc = Document::made(&format!(
            "#### 9.7.9.19. Data Movement and Conversion Instructions: `isspacep`\n\nSyntax\n\n```\n\
             isspacep.space p, a;\n```\n\nDescription\n\n{description}\n\n{notes}\n"
        ));
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().map(|r| r.new).collect())).collect()
    }

    const DEFAULT: &str =
        "If no sub-qualifier is specified with `.shared` state space, then `::cta` is assumed by default.";

    #[test]
    fn a_default_sub_qualifier_the_notes_ask_more_for_is_a_finding() {
        let got = found(
            DEFAULT,
            "PTX ISA Notes\n\nIntroduced in PTX ISA version 2.0.\n\nSupport for `::cta` and `::cluster` \
             sub-qualifiers introduced in PTX ISA version 7.8.\n\nTarget ISA Notes\n\n`isspacep` requires `sm_20` \
             or higher.\n\nSub-qualifier `::cta` requires `sm_30` or higher.",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            got[0].0,
            "`.shared` written alone means `.shared::cta`, for which the notes ask PTX ISA version 7.8 where it \
             allows PTX ISA version 2.0 and `sm_30` where it allows `sm_20`: whether `.shared` alone is allowed \
             there, and what it means, is left open"
        );
        assert!(got[0].1[0].ends_with("which means `.shared::cta`, needs no more than `.shared`."), "{got:?}");
    }

    #[test]
    fn a_note_that_asks_less_than_the_instruction_is_a_finding() {
        let got = found(
            "Test.",
            "Target ISA Notes\n\nRequires `sm_80` or higher.\n\nSub-qualifier `::cta` requires `sm_30` or higher.\n\n\
             Sub-qualifier `::cluster` requires `sm_90` or higher.",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].0.starts_with("the notes ask `sm_30` for part of the instruction, less than the `sm_80`"));
        assert_eq!(got[0].1, ["sm_80"]);
    }

    #[test]
    fn a_default_the_notes_ask_no_more_for_is_none() {
        // The qualifier's own requirement, as high as its default's.
        assert!(found(
            "If `.param` is specified without any sub-qualifiers then it defaults to `.param::entry`.",
            "PTX ISA Notes\n\n`isspacep.param` introduced in PTX ISA version 8.3.\n\nSupport for sub-qualifier \
             `::entry` on `.param` space introduced in PTX ISA version 8.3."
        )
        .is_empty());
        // A default of a modifier, not a sub-qualifier; or no requirement of the sub-qualifier.
        assert!(found(
            "`sqrt.f32` defaults to `sqrt.approx.ftz.f32`.",
            "PTX ISA Notes\n\nIntroduced in PTX ISA version 1.0."
        )
        .is_empty());
        assert!(found(DEFAULT, "Target ISA Notes\n\n`isspacep` requires `sm_20` or higher.").is_empty());
    }
}
