//! A requirement on what a program does at run time, with no outcome for
//! the program that breaks it. "`a` must be aligned to 128 bytes" and "all
//! warps in the warpgroup must synchronize explicitly" ask something of
//! values and threads that only exist when the program runs; the assembler
//! cannot reject the program that breaks them, and the text says neither
//! that the behavior is then undefined nor what else happens. An emulator
//! must pick one; a programmer cannot tell a hang from a wrong value from a
//! trap.
//!
//! A requirement on what the assembler sees (an operand's type or size, a
//! label, a declaration, a constant's range) is left alone: breaking it
//! makes a program that does not assemble, which the document says once
//! for all such rules. So is a requirement whose sentence, or a sentence of
//! its paragraph that names the same action, gives the outcome
//! ("otherwise", "undefined", "error").
//!
//! One finding per sentence. The fix adds the reading other sentences of
//! the document give a broken requirement ("the behavior is undefined"), as
//! one the authors may replace with another.

use super::document::{BlockKind, Document, Section};
use super::units::{block_sentences, Sentence};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// Words of a requirement about threads, addresses and register contents:
/// what a program does, or holds, at run time.
const RUN_TIME: &[&str] = &[
    "thread",
    "warp",
    "lane",
    "cta",
    "cluster",
    "grid",
    "address",
    "aligned",
    "alignment",
    "initialized",
    "synchronize",
    "converge",
];

/// Words of a requirement the assembler checks: of types, sizes, names and
/// constants.
const STATIC: &[&str] = &[
    "type",
    "size",
    "label",
    "declared",
    "defined",
    "specified",
    "immediate",
    "constant",
    "directive",
    "qualifier",
    "abi",
    "state space",
    // An operand's form: a register, or `register + immOff`.
    "of the form",
    "be a register",
    "be either a register",
];

/// Words that give the outcome of a broken requirement.
const OUTCOME: &[&str] =
    &["otherwise", "undefined", "error", "illegal", "unpredictable", "ignored", "no effect", "not allowed"];

/// The verb a requirement asks for: the first word of four letters or more
/// after "must" ("be" and "not" skipped), cut to its stem of six letters, so
/// that "initialized" meets "initial" and "executed" meets "executing".
fn asked(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let after = &lower[lower.find(" must ")? + 6..];
    let verb = after
        .split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| w.len() >= 3 && !matches!(*w, "not" | "all" | "the" | "only" | "always"))?;
    Some(verb.chars().take(6).collect())
}

fn words(text: &str) -> Vec<String> {
    text.to_lowercase().split(|c: char| !c.is_ascii_alphanumeric()).map(str::to_string).collect()
}

/// Whether a sentence asks something of a program at run time.
fn run_time(text: &str) -> bool {
    let lower = text.to_lowercase();
    let w = words(text);
    let has = |k: &&str| w.iter().any(|x| x.starts_with(k)) || (k.contains(' ') && lower.contains(k));
    RUN_TIME.iter().any(has) && !STATIC.iter().any(has)
}

fn gives_outcome(text: &str) -> bool {
    let lower = text.to_lowercase();
    OUTCOME.iter().any(|o| lower.contains(o))
}

/// Whether the paragraph of a requirement gives its outcome: in its own
/// sentence, in the next one when that begins "Otherwise", or in one that
/// names the same action.
fn settled(req: &Sentence, all: &[Sentence], at: usize, verb: &str) -> bool {
    if gives_outcome(&req.text) {
        return true;
    }
    if all.get(at + 1).is_some_and(|n| n.paragraph == req.paragraph && n.text.starts_with("Otherwise")) {
        return true;
    }
    // A list's lead-in, or an item nested in a list, whose list ends in
    // "Otherwise" (red.async's conditions on `a` and `mbar`).
    let nested = |n: &Sentence| {
        n.text.starts_with("+ ") || (n.start.text.starts_with([' ', '\t']) && n.text.starts_with(['-', '*']))
    };
    if req.text.trim_end().ends_with(':') || nested(req) {
        for n in &all[at + 1..] {
            if n.text.starts_with("Otherwise") {
                return true;
            }
            if !nested(n) {
                break;
            }
        }
    }
    all.iter()
        .filter(|o| o.paragraph == req.paragraph)
        .any(|o| gives_outcome(&o.text) && o.text.to_lowercase().contains(verb))
}

fn section(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for kind in [BlockKind::Description, BlockKind::Notes] {
        let all = block_sentences(s, kind);
        for (at, req) in all.iter().enumerate() {
            let Some(verb) = asked(&req.text) else { continue };
            if !run_time(&req.text) || settled(req, &all, at, &verb) {
                continue;
            }
            let mut f = Finding::of_text(
                format!("text-consequence-{}-{}", s.number, req.start.number),
                s.number.clone(),
                FindingKind::Ambiguity,
                req.text.clone(),
                format!(
                    "\"{}\" asks something of the program at run time, and no sentence says what happens when \
                     it does not: undefined behavior, an error, or a result of its own",
                    req.text
                ),
                vec![format!(
                    "At {}:{}: the requirement is on values or threads the assembler cannot see, so breaking it \
                     makes a program that assembles; an emulator must choose its outcome. The fix writes the \
                     reading the document gives other broken requirements (the behavior is undefined); the \
                     authors may mean another.",
                    s.file, req.start.number
                )],
            );
            // The sentence gains its outcome after its last word.
            let last_word = req.text.split_whitespace().last().unwrap_or_default();
            let end = &req.end.text;
            if let Some(at) = end.rfind(last_word) {
                let stop = at + last_word.len();
                f.repairs = vec![Repair::at(
                    req.end.number,
                    end,
                    at,
                    stop,
                    &format!("{last_word} Otherwise, the behavior is undefined."),
                )];
            }
            out.push(f);
        }
    }
    out
}

/// The code span right after `words` in `text` (`cp-size` of "less than
/// `cp-size`").
fn span_after(text: &str, words: &str) -> Option<String> {
    let at = text.find(words)? + words.len();
    let rest = text[at..].trim_start().strip_prefix('`')?;
    Some(rest.split('`').next()?.to_string())
}

/// A strict bound whose outcome is stated for one side only: "`src-size`
/// ... must be less than `cp-size`" beside "Specifying `src-size` larger
/// than `cp-size` results in undefined behavior". The value equal to the
/// bound breaks the requirement and is in no sentence's outcome: allowed,
/// undefined, or an error. One finding per requirement; the fix writes the
/// bound as the outcome's sentence draws it ("at most"), the reading in
/// which every value has its outcome.
fn equal_left_open(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for kind in [BlockKind::Description, BlockKind::Notes] {
        let all = block_sentences(s, kind);
        for req in &all {
            let Some(bound) = span_after(&req.text, "must be less than") else { continue };
            let above = |x: &&Sentence| {
                ["larger than", "greater than"].iter().any(|w| span_after(&x.text, w).as_ref() == Some(&bound))
                    && x.text.contains("undefined")
            };
            let Some(outcome) = all.iter().find(above) else { continue };
            if all.iter().any(|x| x.text.contains("equal to")) {
                continue;
            }
            let mut f = Finding::of_text(
                format!("text-consequence-{}-{}-equal", s.number, req.start.number),
                s.number.clone(),
                FindingKind::Ambiguity,
                req.text.clone(),
                format!(
                    "a value equal to `{bound}` breaks \"must be less than `{bound}`\", yet the outcome stated is \
                     for one larger only (\"{}\"): whether the equal value is allowed, undefined or an error is \
                     left open",
                    outcome.text
                ),
                vec![format!("At {}:{} and {}:{}.", s.file, req.start.number, s.file, outcome.start.number)],
            );
            let old = format!("less than `{bound}`");
            if let Some(line) = [req.start, req.end, req.last].into_iter().find(|l| l.text.contains(&old)) {
                let at = line.text.find(&old).unwrap_or_default();
                f.repairs =
                    vec![Repair::at(line.number, &line.text, at, at + old.len(), &format!("at most `{bound}`"))];
            }
            out.push(f);
        }
    }
    out
}

/// Whether a form of the Syntax writes `name` optional: inside braces
/// (`{, cache-policy}`, `{.level::cache_hint}`).
fn optional_in(form: &str, name: &str) -> bool {
    form.match_indices('{').any(|(at, _)| {
        let inner = &form[at + 1..];
        let inner = &inner[..inner.find('}').unwrap_or(inner.len())];
        inner.match_indices(name).any(|(k, _)| {
            let after = inner[k + name.len()..].chars().next();
            !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    })
}

/// The word before a code span that says what the name is (`qualifier`
/// of "the qualifier `.level::cache_hint`").
fn noun_before(text: &str, span: &str) -> Option<&'static str> {
    let before = text[..text.find(&format!("`{span}`"))?].trim_end().to_lowercase();
    ["qualifier", "argument", "operand", "modifier"].into_iter().find(|n| before.ends_with(n))
}

/// "When `A` is specified, `B` is required", where a form of the Syntax
/// writes both optional, each on its own (cp.reduce.async.bulk's `{,
/// cache-policy}` and `{.level::cache_hint}`): the sentence gives one
/// direction, and the form also admits `B` without `A`, which no sentence
/// allows, forbids or explains. One finding per sentence; the fix states
/// the converse, the reading in which the two go together, as one the
/// authors may replace.
fn one_way(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let forms: Vec<String> = super::defaults::grammar(s).map(|g| g.templates).unwrap_or_default();
    let syntax: Vec<String> = s
        .block(BlockKind::Syntax)
        .map(|b| b.code().map(|l| l.text.split("//").next().unwrap_or_default().trim().to_string()).collect())
        .unwrap_or_default();
    // A form's mnemonic and operands, its operands perhaps on the next line.
    let written: Vec<String> = syntax.windows(2).map(|w| format!("{} {}", w[0], w[1])).chain(forms).collect();
    for kind in [BlockKind::Description, BlockKind::Notes] {
        let all = block_sentences(s, kind);
        for (at, sentence) in all.iter().enumerate() {
            let text = &sentence.text;
            let lower = text.to_lowercase();
            let Some((condition, consequent)) = text.split_once(',') else { continue };
            let opens = lower.starts_with("when ") || lower.starts_with("if ");
            let given = [" is specified", " is present", " is used"].iter().any(|w| condition.contains(w));
            let asks = [" is required", " must be specified", " must also be specified"]
                .iter()
                .any(|w| consequent.contains(w));
            if !(opens && given && asks) {
                continue;
            }
            let span = |t: &str| t.split('`').nth(1).map(str::to_string);
            let (Some(a), Some(b)) = (span(condition), span(consequent)) else { continue };
            let both = written.iter().any(|f| {
                optional_in(f, &a) && optional_in(f, &b) && {
                    // Each in braces of its own: `{.b}` and `{, a}`.
                    !f.split('{').any(|g| g.split('}').next().is_some_and(|g| g.contains(&a) && g.contains(&b)))
                }
            });
            if !both {
                continue;
            }
            // Another sentence that names both, or `b` "without" anything,
            // says what the form without `a` does.
            let converse = all.iter().enumerate().any(|(k, x)| {
                k != at
                    && x.text.contains(&format!("`{b}`"))
                    && (x.text.contains(&format!("`{a}`")) || x.text.contains("without"))
            });
            if converse {
                continue;
            }
            let (noun_a, noun_b) =
                (noun_before(text, &a).unwrap_or("operand"), noun_before(text, &b).unwrap_or("qualifier"));
            let mut f = Finding::of_text(
                format!("text-consequence-{}-{}-one-way", s.number, sentence.start.number),
                s.number.clone(),
                FindingKind::Ambiguity,
                text.clone(),
                format!(
                    "\"{text}\" gives one direction only: the Syntax writes `{b}` and `{a}` optional each on its own, \
                     and no sentence says whether `{b}` without `{a}` is allowed, or what it does"
                ),
                vec![format!(
                    "At {}:{}: the form admits `{b}` with no `{a}`; a reader, an assembler and an emulator must each \
                     choose whether that is an error or a form of its own. The fix states the reading in which the \
                     two go together; the authors may mean another.",
                    s.file, sentence.start.number
                )],
            );
            let end = &sentence.end.text;
            let last_word = text.split_whitespace().last().unwrap_or_default();
            if let Some(k) = end.rfind(last_word) {
                f.repairs = vec![Repair::at(
                    sentence.end.number,
                    end,
                    k,
                    k + last_word.len(),
                    &format!("{last_word} The {noun_b} `{b}` is not allowed without the {noun_a} `{a}`."),
                )];
            }
            out.push(f);
        }
    }
    out
}

/// Every run-time requirement whose breach the text gives no outcome, or
/// gives for one side of a strict bound only.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out = super::each_section(doc, section);
    out.extend(super::each_section(doc, equal_left_open));
    out.extend(super::each_section(doc, one_way));
    out
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::check;

    fn found(description: &str) -> Vec<(String, Vec<String>)> {
        let doc = Document::made(&format!(
            "#### 9.7.9.16. Data Movement and Conversion Instructions: `applypriority`\n\nSyntax\n\n```\n\
             applypriority.global.level::eviction_priority [a], size;\n```\n\nDescription\n\n{description}\n"
        ));
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().map(|r| r.new).collect())).collect()
    }

    #[test]
    fn a_run_time_requirement_with_no_outcome_is_a_finding_and_its_fix_settles_it() {
        let got = found("The address `a` must be aligned to 128 bytes.\nThe operand `size` is 128.");
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].0.starts_with("\"The address `a` must be aligned to 128 bytes.\" asks"), "{got:?}");
        assert_eq!(got[0].1, vec!["bytes. Otherwise, the behavior is undefined.".to_string()]);
        assert!(found("The address `a` must be aligned to 128 bytes. Otherwise, the behavior is undefined.").is_empty());
    }

    #[test]
    fn a_strict_bound_whose_outcome_is_for_one_side_leaves_the_equal_value_open() {
        let text = "Operand `size` is the bytes to copy and must\nbe less than `cp-size`. In such a case the rest is \
                    zero.\nSpecifying `size` larger than `cp-size` results in undefined behavior.";
        let got = found(text);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].0.starts_with("a value equal to `cp-size` breaks"), "{got:?}");
        assert_eq!(got[0].1, ["at most `cp-size`"]);
        assert!(found(&text.replace("larger than", "larger than or equal to")).is_empty());
    }

    #[test]
    fn a_requirement_the_assembler_checks_or_whose_outcome_is_stated_is_none() {
        // On types and constants: a program that breaks it does not assemble.
        assert!(found("Operand `a` must be of type `.u64`.").is_empty());
        assert!(found("It is an integer constant and must be a power of 2.").is_empty());
        // On an operand's form: a register, or `register + immOff`.
        assert!(
            found("* `a` is a destination address, and must be either a register, or of the form `r + i`.").is_empty()
        );
        // A list's lead-in and its items, the list ending in "Otherwise".
        assert!(found(
            "* The addresses of `a` and `mbar` must meet all of the following conditions:\n\n  \
             + They belong to the same CTA.\n  + The CTA is another than the thread's, but must be within the same \
             cluster.\n\n  Otherwise, the behavior is undefined.\n* `.mmio` must not be specified."
        )
        .is_empty());
        // The outcome in the sentence, or in one of its paragraph on the same action.
        assert!(found("The address must be aligned to 16 bytes, otherwise the behavior is undefined.").is_empty());
        assert!(found(
            "The same instruction must be executed by all warps in a warpgroup. If it is not executed by all \
             warps, then the behavior is undefined."
        )
        .is_empty());
        // Another action's outcome settles nothing.
        assert_eq!(
            found(
                "All warps in the warpgroup must synchronize explicitly. If it is not executed by all warps, then \
                 the behavior is undefined."
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_requirement_one_way_between_two_optional_parts_is_found() {
        let text = |syntax: &str, more: &str| {
            format!(
                "#### 9.7.9.25.4.2. Data Movement and Conversion Instructions: `cp.bulk`\n\nSyntax\n\n```\n{syntax}\n```\n\n\
                 Description\n\nWhen the optional argument `cache-policy` is specified, the qualifier \
                 `.level::cache_hint` is required.{more}\n"
            )
        };
        let found = |syntax: &str, more: &str| -> Vec<(String, Vec<String>)> {
            let doc = Document::made(&text(syntax, more));
            check(&doc)
                .into_iter()
                .filter(|f| f.id.ends_with("one-way"))
                .map(|f| (f.id, f.repairs.into_iter().map(|r| r.new).collect()))
                .collect()
        };
        // Operands on the line below the mnemonic, as the section writes them.
        let apart = "cp.bulk.dst{.level::cache_hint}\n    [a], [b], size{, cache-policy}\n.dst = { .global }";
        let got = found(apart, "");
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            got[0].1,
            ["required. The qualifier `.level::cache_hint` is not allowed without the argument `cache-policy`."]
        );
        // The converse stated, or the two written as one optional group.
        assert!(found(apart, " The qualifier `.level::cache_hint` without `cache-policy` is an error.").is_empty());
        assert!(found("cp.bulk.dst [a], [b]{.level::cache_hint, cache-policy};", "").is_empty());
        assert!(found("cp.bulk.dst.level::cache_hint [a], [b]{, cache-policy};", "").is_empty());
    }
}
