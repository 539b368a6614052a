//! Defaults against the Syntax. A sentence that gives a qualifier set a
//! default (`Rounding modifiers (default is .rn)`, `The default value of
//! rounding modifier is .rn`) says that a form without one is legal. Where
//! every Syntax line that writes the set writes it without braces, the
//! Syntax says the opposite: an assembler built from the Syntax rejects
//! the form the prose accepts. The reverse, a set the prose says has no
//! default written in braces on a Syntax line, is the same defect.

use std::collections::BTreeMap;

use super::document::{BlockKind, Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// A section's Syntax block read as grammar: its sets by name (each value
/// with its dot, `.eq` for a list that writes `eq`) and its instruction
/// lines.
#[derive(Clone)]
pub(super) struct Grammar {
    pub sets: BTreeMap<String, Vec<String>>,
    pub templates: Vec<String>,
    /// The sets defined more than once, with other values each time.
    pub redefined: Vec<String>,
}

pub(super) fn grammar(s: &Section) -> Option<Grammar> {
    Some(grammar_of(s.block(BlockKind::Syntax)?.code()))
}

/// Whether a Syntax line opens a set's definition (`.name = { ...`, or
/// `.a = .b = { ...`), however it is spaced: the one test of the passes
/// that read definitions.
pub(super) fn opens_definition(text: &str) -> bool {
    let Some((head, _)) = text.split_once('{') else { return false };
    let Some(names) = head.trim_end().strip_suffix('=') else { return false };
    names.split('=').all(|n| n.trim().starts_with('.') && !n.trim().contains(char::is_whitespace))
}

/// Lines of code read as grammar: a Syntax block's, or the general format
/// a group's introduction gives.
pub(super) fn grammar_of<'a>(lines: impl Iterator<Item = &'a Line>) -> Grammar {
    let mut sets: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut redefined: Vec<String> = Vec::new();
    let mut templates = Vec::new();
    // A definition runs over lines up to its closing brace.
    let mut pending: Option<String> = None;
    for l in lines {
        let text = l.text.split("//").next().unwrap_or_default().trim();
        if text.is_empty() {
            continue;
        }
        let joined = match pending.take() {
            Some(p) => format!("{p} {text}"),
            None => text.to_string(),
        };
        if !opens_definition(&joined) {
            // A space after a dot inside the instruction is read closed
            // (the punctuation pass reports it).
            let mut line = joined;
            while let Some(at) = spaced_dot(&line) {
                let end = at + line[at..].len() - line[at..].trim_start().len();
                line.replace_range(at..end, "");
            }
            templates.push(line);
            continue;
        }
        if joined.matches('{').count() > joined.matches('}').count() {
            pending = Some(joined);
            continue;
        }
        let Some((head, list)) = joined.split_once('{') else { continue };
        let vs = set_values(list.rsplit_once('}').map_or(list, |(inner, _)| inner));
        for n in head.trim_end().trim_end_matches('=').split('=') {
            let n = n.trim().to_string();
            // A set defined again (set's `.dtype` after each group of
            // lines) holds the values of every definition.
            let values: &mut Vec<String> = sets.entry(n.clone()).or_default();
            if !values.is_empty() && *values != vs {
                redefined.push(n);
            }
            values.extend(vs.iter().filter(|v| !values.contains(v)).cloned().collect::<Vec<_>>());
        }
    }
    redefined.dedup();
    Grammar { sets, templates, redefined }
}

/// Where a line of code cuts a qualifier from the dot before it with a
/// space (`.noftz{.level::cache_hint}. vec_16_bit`): the byte offset of the
/// space. Between operands a dot never ends a word.
pub(super) fn spaced_dot(code: &str) -> Option<usize> {
    code.match_indices(". ").map(|(i, _)| i + 1).find(|&i| {
        let before = code[..i - 1].chars().next_back();
        before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '}')
            && code[i..].trim_start().starts_with(|c: char| c.is_ascii_alphabetic())
    })
}

/// The values of a set's list, between its braces: a value with
/// sub-qualifiers in braces of its own (`.shared{::cta, ::cluster}`) is
/// itself and itself with each (`.shared::cta`); each with its dot.
pub(super) fn set_values(list: &str) -> Vec<String> {
    let mut items: Vec<String> = vec![String::new()];
    let mut depth = 0;
    for c in list.chars() {
        match c {
            ',' if depth == 0 => items.push(String::new()),
            '{' | '}' => {
                depth += if c == '{' { 1 } else { -1 };
                items.last_mut().into_iter().for_each(|i| i.push(c));
            }
            _ => items.last_mut().into_iter().for_each(|i| i.push(c)),
        }
    }
    let mut out: Vec<String> = Vec::new();
    for item in &items {
        let (base, subs) = match item.split_once('{') {
            Some((base, subs)) => (base, subs.trim_end().trim_end_matches('}').split(',').collect::<Vec<_>>()),
            None => (item.as_str(), Vec::new()),
        };
        let base = base.trim().trim_start_matches('.');
        let spelled = |v: &str| v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        // A value of several qualifiers (`.global.shared::cta`) is one value.
        let several = |v: &str| !v.ends_with('.') && !v.contains("..") && v.split('.').all(spelled);
        if base.is_empty() || !several(base) {
            continue;
        }
        out.push(format!(".{base}"));
        out.extend(
            subs.iter().map(|s| s.trim()).filter(|s| !s.is_empty() && spelled(s)).map(|s| format!(".{base}{s}")),
        );
    }
    out
}

/// Where a template writes qualifier `q` (`.rnd`): `Some(true)` inside
/// braces, `Some(false)` bare, `None` where it does not write it.
fn written(template: &str, q: &str) -> Option<bool> {
    let mnemonic = template.split_whitespace().next()?;
    let bytes = mnemonic.as_bytes();
    for (at, _) in mnemonic.match_indices(q) {
        let end = at + q.len();
        if end < bytes.len() && (bytes[end] as char).is_ascii_alphanumeric() {
            continue;
        }
        let depth = mnemonic[..at].matches('{').count() as i32 - mnemonic[..at].matches('}').count() as i32;
        return Some(depth > 0);
    }
    None
}

/// What a sentence says of a default: the value it names (`.rn`) with the
/// words that say so, or that there is none.
#[derive(Debug, PartialEq, Eq)]
enum Default {
    Is { value: String, phrase: String },
    None { phrase: String },
}

fn default_of(text: &str) -> Option<Default> {
    // ASCII lower case keeps every byte where it was: `lower`'s positions
    // are `text`'s.
    let lower = text.to_ascii_lowercase();
    if let Some(at) = lower.find("no default") {
        return Some(Default::None { phrase: text[at..at + "no default".len()].to_string() });
    }
    let at = lower.find("default is ").or_else(|| lower.find("default value of"))?;
    // The first code span after the words is the value.
    let rest = &text[at..];
    let open = rest.find('`')?;
    let close = rest[open + 1..].find('`')? + open + 1;
    let value = &rest[open + 1..close];
    (value.starts_with('.') && value[1..].chars().all(|c| c.is_ascii_alphanumeric()))
        .then(|| Default::Is { value: value.to_string(), phrase: rest[..=close].to_string() })
}

/// The set a sentence speaks of: the one holding its value, or, for "no
/// default", the one holding the first qualifier written after it in the
/// block (a list of the set's values under its label).
fn set_of<'a>(g: &'a Grammar, value: &str) -> Option<(&'a String, &'a Vec<String>)> {
    g.sets.iter().find(|(name, vs)| *name == value || vs.iter().any(|v| v == value))
}

fn first_qualifier_after(lines: &[&Line], k: usize) -> Option<String> {
    lines[k + 1..].iter().take(6).find_map(|l| {
        l.text.split('`').skip(1).step_by(2).find(|s| s.starts_with('.') && s.len() > 1).map(str::to_string)
    })
}

fn section(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(g) = grammar(s) else { return out };
    for b in [BlockKind::Description, BlockKind::Notes].iter().filter_map(|k| s.block(*k)) {
        let lines: Vec<&Line> = b.lines.iter().filter(|l| !l.code).collect();
        for (k, l) in lines.iter().enumerate() {
            let Some(said) = default_of(&l.text) else { continue };
            let value = match &said {
                Default::Is { value, .. } => Some(value.clone()),
                Default::None { .. } => first_qualifier_after(&lines, k),
            };
            let Some((set, _)) = value.as_deref().and_then(|v| set_of(&g, v)) else { continue };
            let writes: Vec<(&String, bool)> =
                g.templates.iter().filter_map(|t| written(t, set).map(|braced| (t, braced))).collect();
            if writes.is_empty() {
                continue;
            }
            let (against, why, repair) = match &said {
                Default::Is { value, phrase } if writes.iter().all(|(_, braced)| !braced) => (
                    writes[0].0,
                    format!("gives `{set}` a default (`{value}`), but no Syntax line writes `{set}` in braces"),
                    // The parenthesised form, `(default is .rn)`, reads as
                    // `(no default)`; another wording is the writer's to redo.
                    phrase.starts_with("default is").then(|| (phrase.clone(), "no default".to_string())),
                ),
                Default::None { .. } => match writes.iter().find(|(_, braced)| *braced) {
                    Some((t, _)) => {
                        (*t, format!("says `{set}` has no default, but a Syntax line writes it in braces"), None)
                    }
                    None => continue,
                },
                _ => continue,
            };
            let fragment = match &said {
                Default::Is { phrase, .. } | Default::None { phrase } => phrase.clone(),
            };
            let id = format!("text-default-{}-{}", s.number, set.trim_start_matches('.').to_lowercase());
            if out.iter().any(|f: &Finding| f.id == id) {
                continue;
            }
            let mut f = Finding::of_text(
                id,
                s.number.clone(),
                FindingKind::Conflict,
                fragment,
                format!(
                    "a {} sentence {why}: the prose and the Syntax disagree on whether a form without it is legal",
                    b.kind.label()
                ),
                vec![format!("{}:{}: \"{}\"; the Syntax line `{against}`.", s.file, l.number, l.text.trim())],
            );
            f.repairs = repair.map(|(old, new)| Repair { line: l.number, old, new }).into_iter().collect();
            out.push(f);
        }
    }
    out
}

/// Every default the prose states that the Syntax contradicts, once per
/// section and set.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    #[test]
    fn a_set_is_read_with_its_sub_qualifiers_and_every_name_it_defines() {
        let lines = |code: &str| -> Vec<Line> {
            code.lines().enumerate().map(|(n, t)| Line { number: n + 1, text: t.to_string(), code: true }).collect()
        };
        let g = grammar_of(
            lines(
                "isspacep.space p, a;\n.space = { .global, .shared{::cta, ::cluster},\n  .param{::entry} };\n\
                 .atype = .btype = { .u32, .s32 };\n.action   = { .wait }",
            )
            .iter(),
        );
        assert_eq!(g.templates, ["isspacep.space p, a;"]);
        assert_eq!(
            g.sets[".space"],
            [".global", ".shared", ".shared::cta", ".shared::cluster", ".param", ".param::entry"]
        );
        assert_eq!(g.sets[".atype"], g.sets[".btype"]);
        assert_eq!(g.sets[".action"], [".wait"]);
        assert!(opens_definition(".a = .b = { .x }") && !opens_definition("add{.sat}.s32 d, a, b;"));
    }

    fn found(syntax: &str, notes: &str) -> Vec<(String, Option<(String, String)>)> {
        let text = format!(
            "#### 9.7.4.4. Half Precision Floating Point Instructions: `fma`\n\n`fma`\n\nFma.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nNotes\n\n{notes}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().next().map(|r| (r.old, r.new)))).collect()
    }

    #[test]
    fn a_default_for_a_mandatory_set_is_a_finding() {
        let syntax = "fma.rnd{.ftz}.f16 d, a, b, c;\nfma.rnd.bf16 d, a, b, c;\n.rnd = { .rn };";
        assert_eq!(
            found(syntax, "Rounding modifiers (default is `.rn`):\n\n`.rn`\n:   to nearest even"),
            [(
                "a Notes sentence gives `.rnd` a default (`.rn`), but no Syntax line writes `.rnd` in braces: the \
                 prose and the Syntax disagree on whether a form without it is legal"
                    .to_string(),
                Some(("default is `.rn`".to_string(), "no default".to_string()))
            )]
        );
        // Optional on one line: the default is for that form.
        assert!(found(
            "fma{.rnd}.f16 d, a, b, c;\nfma.rnd.bf16 d, a, b, c;\n.rnd = { .rn };",
            "The default value of rounding modifier is `.rn`."
        )
        .is_empty());
    }

    /// Letters whose lower case is longer do not move the phrase.
    #[test]
    fn a_sentence_with_other_letters_is_read_in_place() {
        assert_eq!(
            default_of("İİ: default is `.rn`"),
            Some(Default::Is { value: ".rn".into(), phrase: "default is `.rn`".into() })
        );
        assert_eq!(default_of("ẞİ no default"), Some(Default::None { phrase: "no default".into() }));
    }

    #[test]
    fn no_default_for_an_optional_set_is_a_finding() {
        let notes = "Rounding modifiers (no default):\n\n`.rn`\n:   to nearest even\n\n`.rz`\n:   towards zero";
        let f = found("rcp{.rnd}.f32 d, a;\n.rnd = { .rn,\n         .rz };", notes);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].0.starts_with("a Notes sentence says `.rnd` has no default"), "{}", f[0].0);
        assert!(found("rcp.rnd.f32 d, a;\n.rnd = { .rn, .rz };", notes).is_empty());
    }
}
