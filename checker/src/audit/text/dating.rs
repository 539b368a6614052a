//! Dates that read two ways: a sentence of a notes block that states how
//! things stand (`not supported`, `required`) "in PTX ISA version 6.4",
//! with no word that carries it on to later versions (`and later`,
//! `starting`, `from`), says either that it holds in that version alone or
//! that it holds from that version on. An event (`introduced in`,
//! `deprecated in`, `removed in`) happens once and is left alone. Where
//! another sentence of the section dates the same version with a word that
//! carries it on, it is quoted beside: the section says the same thing two
//! ways.

use super::document::{BlockKind, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The blocks whose sentences date the instruction.
const DATING_BLOCKS: [BlockKind; 4] =
    [BlockKind::PtxIsaNotes, BlockKind::TargetIsaNotes, BlockKind::DeprecationNote, BlockKind::RemovalNote];

/// Words of a state that lasts, as against an event.
const STATES: [&str; 6] = ["not supported", "unsupported", "supported", "required", "not allowed", "illegal"];

/// Words that carry a date on to the versions after it.
const ONWARD: [&str; 8] =
    ["and later", "or later", "and above", "or above", "and higher", "onward", "starting", "from ptx isa"];

/// The sentences of a section's notes blocks, each with its block, without
/// a list item's bullet or the closing full stop.
fn dated_sentences(s: &Section) -> Vec<(BlockKind, String)> {
    let all = super::typing::sentences_in(s, &DATING_BLOCKS);
    all.into_iter().map(|(k, t)| (k, t.trim().trim_start_matches("* ").trim_end_matches('.').to_string())).collect()
}

/// The version a sentence dates: `6.4` of "in PTX ISA version 6.4" (or
/// "versions").
fn version(sentence: &str) -> Option<String> {
    let lower = sentence.to_ascii_lowercase();
    let at = lower.find("ptx isa version")?;
    let rest = lower[at..].trim_start_matches("ptx isa versions").trim_start_matches("ptx isa version").trim_start();
    let v: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let v = v.trim_end_matches('.');
    (v.contains('.') && !v.is_empty()).then(|| v.to_string())
}

/// The version after `v` by its minor number (`6.4`: `6.5`).
fn next_version(v: &str) -> String {
    let (major, minor) = v.split_once('.').unwrap_or((v, "0"));
    format!("{major}.{}", minor.parse::<u32>().map_or(1, |m| m + 1))
}

fn section(s: &Section) -> Vec<Finding> {
    let all = dated_sentences(s);
    let mut out = Vec::new();
    for (kind, sentence) in &all {
        let lower = sentence.to_ascii_lowercase();
        let Some(v) = version(sentence) else { continue };
        let states = STATES.iter().any(|w| lower.contains(w));
        let event = ["introduced", "deprecated", "removed", "renamed"].iter().any(|w| lower.contains(w));
        if !states || event || ONWARD.iter().any(|w| lower.contains(w)) || !lower.contains(" in ptx isa version") {
            continue;
        }
        let onward: Vec<&String> = all
            .iter()
            .map(|(_, t)| t)
            .filter(|t| *t != sentence && version(t).as_deref() == Some(v.as_str()))
            .filter(|t| ONWARD.iter().any(|w| t.to_ascii_lowercase().contains(w)))
            .collect();
        let next = next_version(&v);
        let mut detail = vec![format!(
            "Read as the date of one version, it holds in PTX ISA version {v} alone, and says nothing of {next}; \
             read as a date from which it holds, it holds in {v}, {next} and every version after. A program for \
             PTX ISA version {next} is under the sentence by the second reading and not by the first."
        )];
        if let Some(t) = onward.first() {
            detail.push(format!(
                "The section dates the same version elsewhere with a word that carries it on (\"{t}\"), so it says \
                 one thing two ways, or two things. The fix reads it as that sentence does."
            ));
        } else {
            detail.push(format!(
                "PROPOSED: the fix reads it from {v} on, the reading a later version's program needs settled; \
                 which reading holds is the vendor's to say."
            ));
        }
        let mut f = Finding::of_text(
            format!("text-dating-{}-{}", s.number, v),
            s.number.clone(),
            FindingKind::Ambiguity,
            sentence.clone(),
            format!(
                "the {} dates \"{}\" in PTX ISA version {v} alone: whether it holds in {next} and later is left to \
                 the reader",
                kind.label(),
                STATES.iter().find(|w| lower.contains(**w)).unwrap_or(&"it")
            ),
            detail,
        );
        f.also_quotes.extend(onward.into_iter().cloned());
        // The edit: the version written with the words that carry it on, on
        // the line of the block that dates it: the section's own `starting`
        // where its other sentence writes it, else `and later`.
        let starting = f.also_quotes.iter().any(|t| t.to_ascii_lowercase().contains("starting"));
        let dated = format!("{}PTX ISA version {v}", if starting { "in " } else { "" });
        let carried = if starting { format!("starting PTX ISA version {v}") } else { format!("{dated} and later") };
        // The sentence's own date: found with the sentence's words up to it
        // (another sentence of the block may begin alike and date the same
        // version), and the rest of the sentence after them on its line; a
        // sentence that wraps before its date gets no edit.
        let upto = sentence.find(&dated).map(|at| &sentence[..at + dated.len()]);
        let whole = |rest: &str| {
            let n = rest.len().min(sentence.len());
            rest.as_bytes()[..n] == sentence.as_bytes()[..n]
        };
        let place = upto.zip(s.block(*kind)).and_then(|(upto, b)| {
            b.lines.iter().find_map(|l| {
                let from = l.text.match_indices(upto).map(|(i, _)| i).find(|&i| whole(&l.text[i..]))?;
                Some((l, from + upto.len() - dated.len()))
            })
        });
        if let Some((l, at)) = place {
            f.repairs = vec![Repair::at(l.number, &l.text, at, at + dated.len(), &carried)];
        }
        out.push(f);
    }
    out
}

/// Every sentence that dates a lasting state by one version, each once.
pub fn check(doc: &super::document::Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::{check, next_version};

    fn found(notes: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.9.5. Data Movement and Conversion Instructions: `shfl`\n\nSyntax\n\n```\nshfl.mode.b32 d, a, \
             b, c;\n```\n\nPTX ISA Notes\n\n{notes}\n"
        );
        check(&Document::made(&text)).into_iter().map(|f| f.fragment).collect()
    }

    #[test]
    fn a_state_dated_by_one_version_reads_two_ways() {
        assert_eq!(
            found("Introduced in PTX ISA version 3.0.\n\nNot supported in PTX ISA version 6.4 for `sm_70`."),
            ["Not supported in PTX ISA version 6.4 for `sm_70`"]
        );
        let fix: Vec<(String, String)> = check(&Document::made(
            "#### 9.7.9.5. Data Movement and Conversion Instructions: `shfl`\n\nPTX ISA Notes\n\n\
             Removed in PTX ISA version 6.4.\n\nNot supported in PTX ISA version 6.4 for `sm_70`.\n",
        ))
        .into_iter()
        .flat_map(|f| f.repairs)
        .map(|r| (r.old, r.new))
        .collect();
        assert_eq!(fix, [("PTX ISA version 6.4".to_string(), "PTX ISA version 6.4 and later".to_string())]);
        let fix: Vec<String> = check(&Document::made(
            "#### 9.7.9.5. Data Movement and Conversion Instructions: `shfl`\n\nPTX ISA Notes\n\n\
             Not supported in PTX ISA version 6.4 for `sm_70`.\n\nTarget ISA Notes\n\n\
             Not supported on `sm_70` starting PTX ISA version 6.4.\n",
        ))
        .into_iter()
        .flat_map(|f| f.repairs)
        .map(|r| r.new)
        .collect();
        assert_eq!(fix, ["starting PTX ISA version 6.4"]);
        // Two sentences of one line date one version: the edit is the second's.
        let fix: Vec<(String, String)> = check(&Document::made(
            "#### 9.7.9.5. Data Movement and Conversion Instructions: `shfl`\n\nPTX ISA Notes\n\n\
             Introduced in PTX ISA version 6.4. Not supported in PTX ISA version 6.4 for `sm_70`.\n",
        ))
        .into_iter()
        .flat_map(|f| f.repairs)
        .map(|r| (r.old, r.new))
        .collect();
        assert_eq!(
            fix,
            [(
                "supported in PTX ISA version 6.4".to_string(),
                "supported in PTX ISA version 6.4 and later".to_string()
            )]
        );
        // Two sentences begin alike and date one version: the edit is on the
        // one that dates it alone.
        let fix: Vec<(usize, String)> = check(&Document::made(
            "#### 9.7.9.5. Data Movement and Conversion Instructions: `shfl`\n\nPTX ISA Notes\n\n\
             Not supported in PTX ISA version 6.4 and later for `sm_60`.\n\n\
             Not supported in PTX ISA version 6.4 for `sm_70`.\n",
        ))
        .into_iter()
        .flat_map(|f| f.repairs)
        .map(|r| (r.line, r.new))
        .collect();
        assert_eq!(fix, [(7, "PTX ISA version 6.4 and later".to_string())]);
        // Carried on, or an event: nothing to read two ways.
        assert!(found("Not supported on `sm_70` starting PTX ISA version 6.4.").is_empty());
        assert!(found("For PTX ISA version 1.4 and later, the `.approx` modifier is required.").is_empty());
        assert!(found("Removed in PTX ISA version 6.4 for `sm_70`.").is_empty());
        assert!(found("Introduced in PTX ISA version 6.4.").is_empty());
        assert_eq!(next_version("6.4"), "6.5");
        assert_eq!(next_version("1.9"), "1.10");
    }
}
