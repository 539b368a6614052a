//! Grammar slips of the prose that a careful reader stops at, each with the
//! edit that mends it:
//!
//! - a singular noun before a list of operands (`Operand` before `a` and
//!   `b`), with the verb after it where that is singular too;
//! - a unit in the plural inside a modifier (`16-bits inputs`), where the
//!   unit of a compound modifier is singular;
//! - one sentence that joins two verbs in different forms (`Divides a by b,
//!   store the remainder`): a description of the instruction and an order
//!   to the reader at once;
//! - an article set in code font (`producing `a` result`): the operand `a`
//!   where the sentence wants the word;
//! - `same` with no article after a verb or a preposition (`have same
//!   value`), where the document writes `the same` everywhere else;
//! - "either" before a list of three or more (`either of` `64B`, `128B`,
//!   `256B`);
//! - a verb that does not agree with its subject's number (`Support for
//!   ... require`, `Sub byte types ... requires`), for the few verbs the
//!   notes and descriptions state rules with, which are never nouns;
//! - "only" written twice in one clause (`can only be accessed only by`);
//! - `following` after a preposition with no article (`in following
//!   table`), and `such case` with none (`such a case`);
//! - one noun on both sides of a code span (`the floating-point operation
//!   `.add` operation`);
//! - a noun where the verb is two words (`used to lookup in`, `look up`).
//!
//! Each is a slip of wording, the intent clear; the finding quotes the words
//! and proposes the mended ones.

use std::collections::BTreeSet;

use super::document::{Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The nouns that name an operand, singular, as a sentence writes them.
const OPERAND_NOUNS: [&str; 6] = ["Operand", "operand", "Input", "input", "Register", "register"];

/// Words after `N-bits` that make it a noun phrase of its own (`32-bits of
/// the result`), not a modifier.
const AFTER_A_NOUN: [&str; 18] = [
    "of", "in", "from", "to", "into", "and", "or", "are", "is", "wide", "long", "each", "at", "on", "for", "with",
    "as", "per",
];

/// Words that begin sentences without being verbs; never the second verb
/// of a pair.
const NOT_VERBS: [&str; 16] =
    ["for", "when", "if", "the", "in", "on", "with", "to", "as", "and", "or", "but", "then", "a", "an", "this"];

/// A prose line with its text.
struct At<'a> {
    line: &'a Line,
    text: &'a str,
}

fn prose(s: &Section) -> impl Iterator<Item = At<'_>> {
    s.all_lines().filter(|l| !l.code && !l.text.trim().is_empty()).map(|l| At { line: l, text: l.text.as_str() })
}

fn finding(s: &Section, at: &Line, slug: String, old: &str, new: &str, summary: String) -> Finding {
    let detail = vec![format!("At {}:{}.", s.file, at.number), format!("Mended: \"{new}\".")];
    let mut f = Finding::of_text(
        format!("text-grammar-{}-{slug}", s.number),
        s.number.clone(),
        FindingKind::Grammar,
        old.to_string(),
        summary,
        detail,
    );
    f.repairs = vec![Repair { line: at.number, old: old.to_string(), new: new.to_string() }];
    f
}

/// A run of code spans joined by commas and a final `and`, from the start
/// of `text`: its length and the names, where there are two or more.
fn code_list(text: &str) -> Option<(usize, Vec<&str>)> {
    let mut names = Vec::new();
    let mut at = 0;
    let mut joined_by_and = false;
    loop {
        let rest = &text[at..];
        let body = rest.strip_prefix('`')?;
        let end = body.find('`')?;
        names.push(&body[..end]);
        at += end + 2;
        let rest = &text[at..];
        let sep =
            [", and ", " and ", ", "].iter().find(|sep| rest.starts_with(**sep) && rest[sep.len()..].starts_with('`'));
        match sep {
            Some(sep) if !joined_by_and => {
                joined_by_and = sep.contains("and");
                at += sep.len();
            }
            _ => break,
        }
    }
    (names.len() >= 2 && joined_by_and).then_some((at, names))
}

/// `Operand \`a\` and \`b\` are`: the noun, and a singular verb after the
/// list, made plural.
fn operand_lists(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        for noun in OPERAND_NOUNS {
            for (i, _) in at.text.match_indices(&format!("{noun} `")) {
                if i > 0 && at.text[..i].chars().next_back().is_some_and(char::is_alphanumeric) {
                    continue;
                }
                let list_at = i + noun.len() + 1;
                let Some((len, names)) = code_list(&at.text[list_at..]) else { continue };
                let mut end = list_at + len;
                let mut new = format!("{noun}s{}", &at.text[i + noun.len()..end]);
                let after = &at.text[end..];
                for (one, many) in [(" has ", " have "), (" is ", " are ")] {
                    if after.starts_with(one) {
                        new.push_str(many.trim_end());
                        end += one.len() - 1;
                    }
                }
                let old = &at.text[i..end];
                out.push(finding(
                    s,
                    at.line,
                    format!("operand-list-{}", names.join("-")),
                    old,
                    &new,
                    format!("\"{old}\": the singular \"{noun}\" before a list of {} operands", names.len()),
                ));
            }
        }
    }
    out
}

/// `16-bits inputs`: a plural unit inside a modifier.
fn plural_units(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    // The prose, and the comments of code (`// 32-bits to 2-bit conversion`).
    let comments = s.all_lines().filter(|l| l.code).filter_map(|l| {
        let at = l.text.find("//")?;
        Some(At { line: l, text: &l.text[at..] })
    });
    for at in prose(s).chain(comments) {
        for (i, _) in at.text.match_indices("-bits ") {
            let digits = at.text[..i].chars().rev().take_while(char::is_ascii_digit).count();
            let word: String = at.text[i + 6..].chars().take_while(char::is_ascii_alphabetic).collect();
            // `32-bits to 2-bit conversion`: one modifier of two units, the
            // second written singular.
            let paired = word == "to" && {
                let rest = &at.text[i + 9..];
                let n = rest.chars().take_while(char::is_ascii_digit).count();
                n > 0 && rest[n..].starts_with("-bit ")
            };
            if digits == 0 || word.is_empty() || (AFTER_A_NOUN.contains(&word.to_lowercase().as_str()) && !paired) {
                continue;
            }
            let old = &at.text[i - digits..i + 6 + word.len()];
            let number = &at.text[i - digits..i];
            let new = format!("{number}-bit {word}");
            out.push(finding(
                s,
                at.line,
                format!("plural-unit-{number}-bits-{word}"),
                old,
                &new,
                format!("\"{old}\": the unit of a compound modifier is written in the plural"),
            ));
        }
    }
    out
}

/// The words that begin the document's sentences as orders to the reader
/// (`Compute`, `Store`), in lower case: a capitalised first word not ending
/// in `s`.
fn imperatives(doc: &Document) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in &doc.sections {
        for at in prose(s) {
            for sentence in at.text.split(". ") {
                let Some(first) = sentence.split_whitespace().next() else { continue };
                let capitalised = first.chars().next().is_some_and(char::is_uppercase);
                if capitalised && first.chars().all(|c| c.is_ascii_alphabetic()) && !first.ends_with('s') {
                    out.insert(first.to_lowercase());
                }
            }
        }
    }
    for w in NOT_VERBS {
        out.remove(w);
    }
    out
}

/// The base form of a verb in the third person (`divides` → `divide`,
/// `pushes` → `push`), where the document orders with that verb elsewhere.
fn base_form<'v>(word: &str, verbs: &'v BTreeSet<String>) -> Option<&'v String> {
    let lower = word.to_lowercase();
    let stem = lower.strip_suffix('s')?;
    verbs.get(stem).or_else(|| verbs.get(stem.strip_suffix('e')?))
}

/// Whether a sentence begins with a verb in the third person: one whose
/// base form the document orders with, or a capitalised word in `s` with an
/// object after it (`Divides \`a\``).
fn describes(sentence: &str, verbs: &BTreeSet<String>) -> bool {
    let mut words = sentence.split_whitespace();
    let Some(first) = words.next() else { return false };
    let lower = first.to_lowercase();
    if !first.chars().next().is_some_and(char::is_uppercase) || !first.chars().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    if base_form(first, verbs).is_some() {
        return true;
    }
    let object = words.next().is_some_and(|w| w.starts_with('`') || ["the", "two", "a", "an"].contains(&w));
    let plural_or_word =
        lower.ends_with("ss") || ["its", "this", "is", "as", "has", "was", "operands"].contains(&lower.as_str());
    lower.ends_with('s') && object && !plural_or_word
}

/// `Divides \`a\` by \`b\`, store the remainder`: a sentence begun in the
/// third person whose coordinated verb is an order.
fn verb_forms(s: &Section, verbs: &BTreeSet<String>) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        for sentence in at.text.split(". ") {
            let Some(first) = sentence.split_whitespace().next() else { continue };
            if !describes(sentence, verbs) {
                continue;
            }
            for joint in [", ", " and "] {
                for (i, _) in sentence.match_indices(joint) {
                    let rest = &sentence[i + joint.len()..];
                    let verb: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
                    let next = rest[verb.len()..].trim_start();
                    let object = ["the ", "it ", "a ", "an ", "`"].iter().any(|w| next.starts_with(w));
                    if verb.is_empty() || !verbs.contains(&verb) || !object || !rest[verb.len()..].starts_with(' ') {
                        continue;
                    }
                    let old = format!("{}{joint}{verb}", &sentence[..i]);
                    let new = format!(
                        "{}{joint}{verb}{}",
                        &sentence[..i],
                        if verb.ends_with(['s', 'h']) { "es" } else { "s" }
                    );
                    out.push(finding(
                        s,
                        at.line,
                        format!("verb-forms-{}-{verb}", first.to_lowercase()),
                        &old,
                        &new,
                        format!(
                            "`{first}` and `{verb}`: one sentence joins a verb that describes the instruction and one \
                             that orders the reader"
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// Words after which a name in code is read as the name, never as an
/// article: a verb, a conjunction or a preposition follows an operand.
const AFTER_A_NAME: [&str; 47] = [
    "and",
    "or",
    "is",
    "are",
    "was",
    "be",
    "has",
    "have",
    "to",
    "by",
    "with",
    "in",
    "into",
    "from",
    "of",
    "for",
    "as",
    "at",
    "on",
    "if",
    "then",
    "must",
    "may",
    "can",
    "will",
    "should",
    "not",
    "only",
    "plus",
    "minus",
    "times",
    "equals",
    "contains",
    "holds",
    "gives",
    "specifies",
    "does",
    "but",
    "when",
    "so",
    "left",
    "right",
    "up",
    "down",
    "where",
    "which",
    "that",
];

/// The words that follow the article `a` or `an` in the document's prose,
/// outside code, at least twice: the nouns it writes an article before
/// (`a result`, `an integer`).
fn article_nouns(doc: &Document) -> BTreeSet<String> {
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    // Words the document writes after another operand's name (`b` value):
    // there "`a` value" is the operand's phrase too.
    let mut after_operand: BTreeSet<String> = BTreeSet::new();
    for s in &doc.sections {
        for at in prose(s) {
            let pieces: Vec<&str> = at.text.split('`').collect();
            for pair in pieces.windows(2).skip(1).step_by(2) {
                let (name, rest) = (pair[0], pair[1]);
                let plain_name = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if plain_name && name != "a" && name != "an" && rest.starts_with(' ') {
                    let word: String = rest.trim_start().chars().take_while(char::is_ascii_alphabetic).collect();
                    after_operand.insert(word);
                }
            }
            let plain: String = at.text.split('`').step_by(2).collect::<Vec<_>>().join(" ");
            let words: Vec<&str> = plain.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()).collect();
            for pair in words.windows(2) {
                if pair[0] == "a" || pair[0] == "an" {
                    *counts.entry(pair[1].to_string()).or_default() += 1;
                }
            }
        }
    }
    // A participle after a name reads as its verb (`a` starting at bit 0).
    let participle = |w: &str| w.ends_with("ing") || w.ends_with("ed");
    counts
        .into_iter()
        .filter(|(w, n)| *n >= 2 && !AFTER_A_NAME.contains(&w.as_str()) && !participle(w) && !after_operand.contains(w))
        .map(|(w, _)| w)
        .collect()
}

/// `producing `a` result`: the article in code font, before a noun the
/// document writes after the article elsewhere, and not after a word that
/// names an operand (`operand `a` value` is the operand).
fn code_articles(s: &Section, nouns: &BTreeSet<String>) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        for article in ["a", "an"] {
            let span = format!("`{article}` ");
            for (i, _) in at.text.match_indices(&span) {
                let after = &at.text[i + span.len()..];
                let word: String = after.chars().take_while(char::is_ascii_alphabetic).collect();
                let before = at.text[..i].split_whitespace().last().unwrap_or_default().to_lowercase();
                let names_an_operand = OPERAND_NOUNS.iter().any(|n| before.trim_end_matches('s') == n.to_lowercase())
                    || ["source", "destination", "operands", "registers", "inputs"].contains(&before.as_str());
                // After a determiner the name is a noun's modifier (`the
                // `a` value`), where no article can stand.
                let determined = DETERMINERS.contains(&before.as_str());
                if !nouns.contains(&word) || names_an_operand || determined {
                    continue;
                }
                let old = format!("{span}{word}");
                let mut f = finding(
                    s,
                    at.line,
                    format!("code-article-{article}-{word}"),
                    &old,
                    &format!("{article} {word}"),
                    format!("\"{old}\": the article is set in code font, where it reads as the operand `{article}`"),
                );
                f.repairs = vec![Repair::at(at.line.number, at.text, i, i + old.len(), &format!("{article} {word}"))];
                out.push(f);
            }
        }
    }
    out
}

/// Words before a noun that leave no place for an article.
const DETERMINERS: [&str; 12] =
    ["the", "this", "that", "these", "those", "each", "every", "its", "their", "his", "any", "no"];

/// Words after which `same` wants its article: verbs and prepositions.
const BEFORE_THE_SAME: [&str; 14] =
    ["have", "has", "had", "with", "of", "to", "in", "on", "for", "is", "are", "be", "at", "from"];

/// `have same value`: `same` after a verb or a preposition, with no article.
fn bare_same(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        // Each slip: the word before `same`, and where that word starts.
        let slips: Vec<(&str, usize)> = at
            .text
            .match_indices(" same ")
            .map(|(i, _)| {
                let before = at.text[..i].rsplit(' ').next().unwrap_or_default();
                (before, i - before.len())
            })
            .filter(|(before, _)| BEFORE_THE_SAME.contains(before))
            .collect();
        let Some((first, _)) = slips.first() else { continue };
        let old = format!("{first} same");
        let mut f = finding(
            s,
            at.line,
            format!("bare-same-{first}-{}", at.line.number),
            &old,
            &format!("{first} the same"),
            format!("\"{old}\": `same` without its article"),
        );
        // One edit for each on the line, from the last, so that each
        // finds its words where they were.
        f.repairs = slips
            .iter()
            .rev()
            .map(|(b, from)| {
                Repair::at(at.line.number, at.text, *from, from + b.len() + " same".len(), &format!("{b} the same"))
            })
            .collect();
        out.push(f);
    }
    out
}

/// Prepositions before which `following` takes its article (`depicted in
/// following table`, `Supported on following architectures`).
const BEFORE_THE_FOLLOWING: [&str; 8] = ["in", "on", "of", "to", "by", "from", "with", "as"];

/// Parts of a value that a preposition names with `the` (`into the lower
/// bits of d`): one value has one lower half.
const PARTS: [&str; 8] = ["bits", "bit", "half", "byte", "bytes", "part", "word", "lanes"];

/// `into specified type`, `from lower bits of c`: after a preposition, a
/// participle that picks one thing out (`specified`), or a position that
/// picks one part (`lower`, `upper`, `remaining` before `bits`), with no
/// article. What is said of it, where it is a slip.
fn needs_the(before: &str, word: &str, next: &str) -> Option<&'static str> {
    let preposition =
        ["in", "into", "on", "of", "to", "by", "from", "with", "at"].contains(&before.to_lowercase().as_str());
    let next = next.trim_end_matches([',', '.', ';', ')']);
    let function_word =
        ["by", "in", "as", "to", "with", "than", "and", "or", "for", "on", "at", "of", "if", "is", "are"];
    if !preposition || !next.chars().all(|c| c.is_ascii_lowercase()) || next.is_empty() || function_word.contains(&next)
    {
        return None;
    }
    match word {
        "specified" => Some("`specified` without its article"),
        "lower" | "upper" | "remaining" | "lowest" | "highest" if PARTS.contains(&next) => {
            Some("a part of one value without its article")
        }
        _ => None,
    }
}

/// `in following table`: `following` after a preposition, with no
/// article; and `such case`, a count noun with none (`such a case`).
fn bare_following(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut previous: Option<At> = None;
    for at in prose(s) {
        let words: Vec<(usize, &str)> =
            at.text.split_whitespace().map(|w| (w.as_ptr() as usize - at.text.as_ptr() as usize, w)).collect();
        // A line that begins with `following` after one that ends with a
        // preposition (`supported on` / `following architectures`): the
        // article goes at the end of the line before.
        let before_line = previous.take().filter(|p| p.line.number + 1 == at.line.number);
        if let (Some(p), Some((_, "following"))) = (&before_line, words.first()) {
            let last = p.text.trim_end();
            let word = last.rsplit(char::is_whitespace).next().unwrap_or_default();
            if BEFORE_THE_FOLLOWING.contains(&word.to_lowercase().as_str()) {
                // Said as the one-line slip is, so that both are one defect.
                let (old, new) = (format!("{word} following"), format!("{word} the"));
                let mut f = finding(
                    s,
                    p.line,
                    format!("bare-article-following-{}", p.line.number),
                    word,
                    &new,
                    format!("\"{old}\": `following` without its article"),
                );
                f.repairs = vec![Repair::at(p.line.number, p.text, last.len() - word.len(), last.len(), &new)];
                out.push(f);
            }
        }
        previous = Some(At { line: at.line, text: at.text });
        for (k, (i, w)) in words.iter().enumerate().skip(1) {
            let before = words[k - 1].1;
            let (old, new, what) = if *w == "following"
                && BEFORE_THE_FOLLOWING.contains(&before.to_lowercase().as_str())
            {
                (format!("{before} following"), format!("{before} the following"), "`following` without its article")
            } else if before.eq_ignore_ascii_case("such") && w.trim_end_matches([',', '.', ';']) == "case" {
                (format!("{before} case"), format!("{before} a case"), "`such case` without its article")
            } else if let Some(what) = words.get(k + 1).and_then(|(_, next)| needs_the(before, w, next)) {
                (format!("{before} {w}"), format!("{before} the {w}"), what)
            } else {
                continue;
            };
            let from = words[k - 1].0;
            let mut f = finding(
                s,
                at.line,
                format!("bare-article-{}-{}", w.trim_end_matches([',', '.', ';']), at.line.number),
                &old,
                &new,
                format!("\"{old}\": {what}"),
            );
            let end = i + w.trim_end_matches([',', '.', ';']).len();
            f.repairs = vec![Repair::at(at.line.number, at.text, from, end, &new)];
            out.push(f);
        }
    }
    out
}

/// Prepositions a relative clause may open with (`in which`) and strand at
/// its end (`belongs to`).
const STRANDED: [&str; 6] = ["in", "to", "of", "on", "for", "with"];

/// `the group in which the copy belongs to`: a relative clause opened by a
/// preposition and `which`, whose verb strands a preposition as well, before
/// the clause ends (a conjunction, a mark, the paragraph's end). One
/// preposition says it; the fix drops the stranded one.
fn preposition_twice(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let lines: Vec<Line> = s.all_lines().filter(|l| !l.code).cloned().collect();
    for p in super::document::paragraphs(&lines) {
        let words: Vec<(&Line, usize, &str)> = p
            .iter()
            .flat_map(|l| {
                l.text.split_whitespace().map(move |w| (*l, w.as_ptr() as usize - l.text.as_ptr() as usize, w))
            })
            .collect();
        for k in 1..words.len() {
            let opening = words[k - 1].2.to_lowercase();
            if words[k].2 != "which" || !STRANDED.contains(&opening.as_str()) {
                continue;
            }
            // The clause: up to eight words, to a mark or a conjunction.
            let end = (k + 1..words.len().min(k + 10))
                .find(|&j| words[j].2.ends_with([',', '.', ';', ':']) || ["or", "and"].contains(&words[j].2))
                .unwrap_or(words.len().min(k + 10));
            let last = if words.get(end).is_some_and(|w| w.2.ends_with([',', '.', ';', ':'])) { end } else { end - 1 };
            let Some(&(line, at, word)) = words.get(last).filter(|_| last > k + 2) else { continue };
            let bare = word.trim_end_matches([',', '.', ';', ':']);
            if !STRANDED.contains(&bare) {
                continue;
            }
            let verb = words[last - 1].2;
            let old = format!("{verb} {bare}");
            let mut f = finding(
                s,
                line,
                format!("preposition-twice-{bare}-{}", line.number),
                &old,
                verb,
                format!("\"{opening} which ... {old}\": the clause says its preposition twice, before `which` and at its end"),
            );
            let (verb_line, verb_at, _) = words[last - 1];
            if verb_line.number != line.number {
                continue;
            }
            f.repairs = vec![Repair::at(line.number, &line.text, verb_at, at + bare.len(), verb)];
            out.push(f);
        }
    }
    out
}

/// `the Table 33`: a table, figure or section named by its number takes
/// no article (the name is a proper noun), whether the number follows in
/// prose or in a link's text on the next line. The fix drops the article.
fn article_before_number(s: &Section) -> Vec<Finding> {
    const NUMBERED: [&str; 4] = ["Table", "Figure", "Section", "Chapter"];
    let numbered = |text: &str| {
        let t = text.trim_start().trim_start_matches('[');
        NUMBERED.iter().find(|n| {
            t.strip_prefix(**n)
                .and_then(|r| r.strip_prefix(' '))
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
    };
    let mut out = Vec::new();
    let mut previous: Option<At> = None;
    for at in prose(s) {
        let before_line = previous.take().filter(|p| p.line.number + 1 == at.line.number);
        if let (Some(p), Some(name)) = (&before_line, numbered(at.text)) {
            let last = p.text.trim_end();
            if last.ends_with(" the") || last.ends_with(" The") {
                let start = last.rfind(' ').unwrap_or(0);
                let prior = last[..start].rsplit(' ').next().unwrap_or_default();
                let (old, new) = (format!("{prior} the"), prior.to_string());
                let mut f = finding(
                    s,
                    p.line,
                    format!("the-{}-{}", name.to_lowercase(), p.line.number),
                    &old,
                    &new,
                    format!("\"the {name} ...\": a {} named by its number takes no article", name.to_lowercase()),
                );
                if !prior.is_empty() {
                    f.repairs = vec![Repair::at(p.line.number, p.text, start - prior.len(), last.len(), &new)];
                    out.push(f);
                }
            }
        }
        for (i, _) in at.text.match_indices("the ") {
            let starts_word = i == 0 || at.text[..i].ends_with([' ', '(']);
            let Some(name) = numbered(&at.text[i + 4..]).filter(|_| starts_word && !at.text[i + 4..].starts_with('['))
            else {
                continue;
            };
            let number: String = at.text[i + 4 + name.len() + 1..].chars().take_while(char::is_ascii_digit).collect();
            let old = format!("the {name} {number}");
            let new = format!("{name} {number}");
            let mut f = finding(
                s,
                at.line,
                format!("the-{}-{}", name.to_lowercase(), at.line.number),
                &old,
                &new,
                format!("\"{old}\": a {} named by its number takes no article", name.to_lowercase()),
            );
            f.repairs = vec![Repair::at(at.line.number, at.text, i, i + old.len(), &new)];
            out.push(f);
        }
        previous = Some(At { line: at.line, text: at.text });
    }
    out
}

/// `the floating-point operation \`.add\` operation`: one noun on both
/// sides of a code span, where one says it. The fix drops the second.
fn doubled_around_code(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        for (i, _) in at.text.match_indices(" `") {
            let Some(close) = at.text[i + 2..].find('`').map(|c| i + 2 + c) else { continue };
            let before = at.text[..i].rsplit(' ').next().unwrap_or_default();
            let after_from = close + 1;
            let Some(rest) = at.text[after_from..].strip_prefix(' ') else { continue };
            let after: String = rest.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            let noun = before.len() > 3 && before.chars().all(|c| c.is_ascii_alphabetic());
            if !noun || !after.eq_ignore_ascii_case(before) {
                continue;
            }
            let old = &at.text[i - before.len()..after_from + 1 + after.len()];
            let new = &at.text[i - before.len()..after_from];
            let mut f = finding(
                s,
                at.line,
                format!("doubled-{}-{}", before.to_lowercase(), at.line.number),
                old,
                new,
                format!("\"{old}\": `{before}` on both sides of the code span"),
            );
            f.repairs = vec![Repair::at(at.line.number, at.text, i - before.len(), after_from + 1 + after.len(), new)];
            out.push(f);
        }
    }
    out
}

/// `either of \`64B\`, \`128B\`, \`256B\``: "either" before a list of three
/// or more, where it speaks of two. A list may run over the lines of its
/// paragraph; the fix writes "one of".
fn either_of_many(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let lines: Vec<Line> = s.all_lines().cloned().collect();
    for p in super::document::paragraphs(&lines) {
        let joined = p.iter().map(|l| l.text.trim()).collect::<Vec<_>>().join(" ");
        for (i, _) in joined.match_indices("either ") {
            let rest = joined[i + "either ".len()..].trim_start_matches("of ");
            let mut count = 0;
            let mut tail = rest;
            while let Some(body) = tail.strip_prefix('`') {
                let Some(end) = body.find('`') else { break };
                count += 1;
                tail = &body[end + 1..];
                let Some(next) = [", or ", ", ", " or "].iter().find(|sep| tail.starts_with(**sep)) else { break };
                tail = &tail[next.len()..];
            }
            if count < 3 {
                continue;
            }
            let old = if joined[i..].starts_with("either of ") { "either of" } else { "either" };
            let Some(at) = p.iter().find(|l| l.text.contains(old)) else { continue };
            out.push(finding(
                s,
                at,
                format!("either-of-{count}-{}", at.number),
                old,
                "one of",
                format!("\"{old}\" before a list of {count} values, where it speaks of two"),
            ));
        }
    }
    out
}

/// The verbs a rule is stated with, as (singular, plural): none is also a
/// noun, so a word of these is the sentence's verb; and "is", the verb of
/// most sentences (`Supported addressing modes ... is`).
const RULE_VERBS: [(&str, &str); 8] = [
    ("is", "are"),
    ("does", "do"),
    ("requires", "require"),
    ("specifies", "specify"),
    ("performs", "perform"),
    ("indicates", "indicate"),
    ("determines", "determine"),
    ("operates", "operate"),
];

/// Verbs that are also nouns (`test`, `holds`, `returns`): a word of these
/// is read as the verb only where the subject's head is qualified by words
/// that end in a noun of the verb's number, the other number than the
/// head's: the verb agreeing with the nearest noun, not its subject (`The
/// variant of the instructions test`, `The ordering of memory operations
/// hold`).
const NOUN_VERBS: [(&str, &str); 14] = [
    ("holds", "hold"),
    ("returns", "return"),
    ("tests", "test"),
    ("contains", "contain"),
    ("supports", "support"),
    ("has", "have"),
    ("writes", "write"),
    ("reads", "read"),
    ("takes", "take"),
    ("waits", "wait"),
    ("applies", "apply"),
    ("refers", "refer"),
    ("represents", "represent"),
    ("guarantees", "guarantee"),
];

/// Words that open a clause before its subject (`When the operations ...
/// returns`): the subject is what follows.
const OPENS_A_CLAUSE: [&str; 7] = ["when", "if", "once", "after", "before", "unless", "while"];

/// Words that end a subject's head: what follows qualifies it (`Support
/// for ...`, `types with ...`).
const AFTER_A_HEAD: [&str; 10] = ["for", "of", "with", "on", "in", "from", "at", "by", "between", "to"];

/// Words a subject of a plain rule does not hold: a clause, a modal, a
/// determiner alone.
const NOT_IN_A_SUBJECT: [&str; 14] =
    ["which", "that", "when", "if", "where", "whether", "to", "not", "can", "may", "must", "will", "should", "shall"];

/// The number of a subject's head, as written: plural where it joins two
/// with `and` or ends in a plural noun, singular where it ends in a
/// singular noun or in one code span; none where the words do not say
/// (a determiner, an adverb, a set of forms in one span).
fn number_of(head: &[&str]) -> Option<bool> {
    // `and` between two adjectives joins what qualifies one noun (`The
    // optional and non-immediate predicate argument`), not two subjects.
    let adjective = |w: &str| {
        let w = w.to_lowercase();
        w.starts_with("non-") || ["al", "ive", "ous", "able", "ible", "ic"].iter().any(|e| w.ends_with(e))
    };
    let joins_adjectives = |i: usize| i > 0 && i + 1 < head.len() && adjective(head[i - 1]) && adjective(head[i + 1]);
    let joins: Vec<usize> = (0..head.len()).filter(|&i| head[i] == "and").collect();
    if !joins.is_empty() && !joins.iter().all(|&i| joins_adjectives(i)) {
        return Some(true);
    }
    // Two adjectives of one noun after an article name one thing with both
    // properties; with none (`positive and negative zero`), two things.
    let one_thing =
        head.first().is_some_and(|w| ["the", "a", "an", "this", "each"].contains(&w.to_lowercase().as_str()));
    if !joins.is_empty() && !one_thing {
        return None;
    }
    let last = *head.last()?;
    if last.contains('`') {
        return (!last.contains(['{', '}', '/', ',', '(', ')'])).then_some(false);
    }
    let lower = last.to_lowercase();
    // Pronouns say their number by themselves.
    if matches!(lower.as_str(), "they" | "we" | "these" | "those" | "both" | "you") {
        return Some(true);
    }
    let determiner = ["the", "a", "an", "this", "these", "each", "every", "all", "any", "its", "optional"];
    if !lower.chars().all(|c| c.is_ascii_alphabetic() || c == '-') || determiner.contains(&lower.as_str()) {
        return None;
    }
    if lower.ends_with("ly") {
        return None;
    }
    // Nouns in `-s` that take either number (`semantics ... is`).
    if ["semantics", "series", "means", "news", "mathematics"].contains(&lower.as_str()) {
        return None;
    }
    let singular_s = ["ss", "us", "is", "as"].iter().any(|e| lower.ends_with(e));
    Some(lower.ends_with('s') && !singular_s)
}

/// Whether words before a verb are a plain subject of it: a few words,
/// with no clause, modal, other verb, parenthesis left open (`Rounding
/// modifiers (default is`), and not begun by a conjunction, `there` or a
/// footnote's number, nor ended by a conjunction (`completes and is`).
fn plain_subject(subject: &[&str]) -> bool {
    let verbs_in = |w: &&str| RULE_VERBS.iter().any(|(a, b)| w == a || w == b);
    let clause = |w: &&str| NOT_IN_A_SUBJECT.contains(&w.to_lowercase().as_str());
    let (Some(first), Some(last)) = (subject.first(), subject.last()) else { return false };
    let opened: usize = subject.iter().map(|w| w.matches('(').count()).sum();
    let closed: usize = subject.iter().map(|w| w.matches(')').count()).sum();
    subject.len() <= 8
        && !matches!(first.to_lowercase().as_str(), "and" | "or" | "but" | "there" | "here")
        && !first.chars().all(|c| c.is_ascii_digit())
        && !matches!(*last, "and" | "or")
        && opened == closed
        && !subject.iter().any(|w| verbs_in(w) || clause(w))
}

/// The head of a subject: its words up to the first that qualifies it (a
/// preposition, a parenthesis, skipped), or a participle or an adverb
/// after a plural noun (`Operations supported on ...`, `Barriers
/// exclusively waiting ...`).
fn head_of<'a>(subject: &[&'a str]) -> Vec<&'a str> {
    let mut head: Vec<&str> = Vec::new();
    let mut depth = 0usize;
    for w in subject {
        let in_brackets = depth > 0 || w.starts_with('(');
        depth = (depth + w.matches('(').count()).saturating_sub(w.matches(')').count());
        if in_brackets {
            continue;
        }
        let lower = w.to_lowercase();
        if AFTER_A_HEAD.contains(&lower.as_str()) {
            break;
        }
        let qualifies = ["ed", "ing", "ly"].iter().any(|e| lower.ends_with(e));
        if qualifies && head.last().is_some_and(|h| h.ends_with('s') || h.ends_with('`')) {
            break;
        }
        head.push(w);
    }
    head
}

/// `Support for ... require`: a rule's verb in the other number than its
/// subject. The subject runs back from the verb to the sentence's start
/// or a comma; its head ends before the first word that qualifies it.
fn agreement(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let lines: Vec<Line> = s.all_lines().cloned().collect();
    for p in super::document::paragraphs(&lines) {
        let words: Vec<(&Line, usize, &str)> = p
            .iter()
            .flat_map(|l| {
                l.text.split_whitespace().map(move |w| (*l, w.as_ptr() as usize - l.text.as_ptr() as usize, w))
            })
            .collect();
        for (i, (line, at, word)) in words.iter().enumerate() {
            let noun_verb = NOUN_VERBS.iter().find(|(a, b)| word == a || word == b);
            let Some((singular, plural)) = RULE_VERBS.iter().find(|(a, b)| word == a || word == b).or(noun_verb) else {
                continue;
            };
            let mut start = words[..i]
                .iter()
                .rposition(|(_, _, w)| w.ends_with([',', ':', ';', '.']) && !w.ends_with("`."))
                .map_or(0, |k| k + 1);
            if start < i && OPENS_A_CLAUSE.contains(&words[start].2.to_lowercase().as_str()) {
                start += 1;
            }
            let subject: Vec<&str> = words[start..i].iter().map(|(_, _, w)| *w).collect();
            if !plain_subject(&subject) {
                continue;
            }
            // After a code span and a comma, the subject is the end of a
            // list (`.e5m2`, `.e4m3x4` are).
            if start > 0 && words[start - 1].2.ends_with("`,") {
                continue;
            }
            let head = head_of(&subject);
            let Some(many) = number_of(&head) else { continue };
            if many == (word == plural) {
                continue;
            }
            // A word that is also a noun: the verb only where it agrees
            // with the last noun of what qualifies the head.
            if noun_verb.is_some()
                && (head.len() == subject.len() || number_of(&subject[subject.len() - 1..]) != Some(word == plural))
            {
                continue;
            }
            let right = if many { plural } else { singular };
            let said = subject.join(" ");
            let mut f = finding(
                s,
                line,
                format!("agreement-{word}-{}", line.number),
                word,
                right,
                format!(
                    "\"{said} {word}\": the verb is {}, its subject ({}) {}",
                    if many { "singular" } else { "plural" },
                    head.join(" "),
                    if many { "plural" } else { "singular" }
                ),
            );
            f.repairs = vec![Repair::at(line.number, &line.text, *at, at + word.len(), right)];
            // A singular count noun with no article before a plural verb
            // (`Cache operator are treated as hints`) lost its plural: the
            // noun takes it, not the verb.
            let first = head.first().map(|w| w.to_lowercase()).unwrap_or_default();
            let bare = !many
                && head.len() == subject.len()
                && !["the", "a", "an", "this", "that", "each", "every", "its", "their", "any", "no", "one"]
                    .contains(&first.as_str())
                && head.iter().all(|w| w.chars().all(|c| c.is_ascii_alphabetic() || c == '-'));
            if let (true, Some((noun_line, noun_at, noun))) = (bare, words.get(start + head.len().saturating_sub(1))) {
                let plural_noun = if noun.ends_with(['s', 'x']) || noun.ends_with("ch") || noun.ends_with("sh") {
                    format!("{noun}es")
                } else {
                    format!("{noun}s")
                };
                f.summary = format!(
                    "\"{said} {word}\": the verb is plural, its subject ({}) a singular noun with no article: the \
                     noun lost its plural",
                    head.join(" ")
                );
                f.fragment = noun.to_string();
                f.detail = vec![format!("At {}:{}.", s.file, noun_line.number), format!("Mended: \"{plural_noun}\".")];
                f.repairs =
                    vec![Repair::at(noun_line.number, &noun_line.text, *noun_at, noun_at + noun.len(), &plural_noun)];
            }
            out.push(f);
        }
    }
    out
}

/// `can only be accessed only by`: "only" twice within four words, where
/// one says it. The fix drops the second.
fn doubled_only(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        let words: Vec<(usize, &str)> =
            at.text.split_whitespace().map(|w| (w.as_ptr() as usize - at.text.as_ptr() as usize, w)).collect();
        for (k, (_, w)) in words.iter().enumerate().filter(|(_, (_, w))| w.eq_ignore_ascii_case("only")) {
            let Some((second, _)) = words[k + 1..(k + 5).min(words.len())].iter().find(|(_, w)| *w == "only") else {
                continue;
            };
            let (from, end) = (words[k].0, second + "only".len());
            let old = &at.text[from..end];
            // The second word goes with the space after it, or before it
            // at the end of a line.
            let (to, new) = match at.text[end..].starts_with(' ') {
                true => (end + 1, at.text[from..*second].to_string()),
                false => (end, at.text[from..*second].trim_end().to_string()),
            };
            let mut f = finding(
                s,
                at.line,
                format!("doubled-only-{}", at.line.number),
                old,
                &new,
                format!("\"{old}\": `{w}` twice in one clause"),
            );
            f.repairs = vec![Repair::at(at.line.number, at.text, from, to, &new)];
            out.push(f);
            break;
        }
    }
    out
}

/// Nouns written as one word whose verb is two (`a lookup`, to `look
/// up`): after `to`, where the next word makes it a verb, the sentence
/// wants the verb.
const NOUN_FOR_VERB: [(&str, &str); 5] = [
    ("lookup", "look up"),
    ("setup", "set up"),
    ("backup", "back up"),
    ("shutdown", "shut down"),
    ("cleanup", "clean up"),
];

/// Words that make the noun before them a verb after `to`: a preposition,
/// an article or a pronoun that opens its object (`to lookup in the
/// cubemap`, `to setup the texture`). Before any other word the noun may
/// be the object of `to` (`refer to lookup tables`).
const OPENS_AN_OBJECT: [&str; 11] = ["in", "into", "the", "a", "an", "from", "its", "their", "this", "these", "it"];

/// `to lookup in` for `to look up in`: the noun for the verb.
fn noun_for_verb(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for at in prose(s) {
        let words: Vec<(usize, &str)> =
            at.text.split_whitespace().map(|w| (w.as_ptr() as usize - at.text.as_ptr() as usize, w)).collect();
        for k in 1..words.len() {
            let Some((noun, verb)) = NOUN_FOR_VERB.iter().find(|(n, _)| words[k].1 == *n) else { continue };
            let next = words.get(k + 1).map(|(_, w)| w.trim_matches(|c: char| !c.is_ascii_alphabetic()));
            if !words[k - 1].1.eq_ignore_ascii_case("to") || !next.is_some_and(|w| OPENS_AN_OBJECT.contains(&w)) {
                continue;
            }
            let from = words[k - 1].0;
            let old = &at.text[from..words[k].0 + noun.len()];
            let new = format!("{} {verb}", words[k - 1].1);
            out.push(finding(
                s,
                at.line,
                format!("noun-for-verb-{noun}-{}", at.line.number),
                old,
                &new,
                format!("\"{old}\": `{noun}` is the noun; the verb is `{verb}`"),
            ));
        }
    }
    out
}

/// Every grammar slip of the document, each once.
pub fn check(doc: &Document) -> Vec<Finding> {
    let verbs = imperatives(doc);
    let nouns = article_nouns(doc);
    super::each_section(doc, |s| {
        let mut out = operand_lists(s);
        out.extend(plural_units(s));
        out.extend(code_articles(s, &nouns));
        out.extend(bare_same(s));
        out.extend(either_of_many(s));
        out.extend(agreement(s));
        out.extend(doubled_only(s));
        out.extend(noun_for_verb(s));
        out.extend(bare_following(s));
        out.extend(article_before_number(s));
        out.extend(preposition_twice(s));
        out.extend(doubled_around_code(s));
        out.extend(verb_forms(s, &verbs));
        out
    })
}

#[cfg(test)]
mod tests {
    use super::super::document::{parse_any, Document};
    use super::check;

    /// The finding ids and proposed edits of a section whose Description is
    /// the given prose, in a document that also orders the reader to
    /// `Store` and `Take`.
    fn found(description: &str) -> Vec<(String, String, String)> {
        let text = format!(
            "#### 9.7.1.9. Integer Arithmetic Instructions: `rem`\n\nDescription\n\n{description}\n\n\
             Take the value. Store it. It is a result, and a result.\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
            .into_iter()
            .map(|f| {
                let r = f.repairs[0].clone();
                (f.id, r.old, r.new)
            })
            .collect()
    }

    #[test]
    fn a_noun_where_the_verb_is_two_words_is_a_slip() {
        let got = found("The pair is used to lookup in the selected cube face.");
        assert_eq!(
            got,
            [(
                "text-grammar-9.7.1.9-noun-for-verb-lookup-5".to_string(),
                "to lookup".to_string(),
                "to look up".to_string()
            )]
        );
        // The noun as the object of `to`.
        assert!(found("Refer to lookup tables for the values.").is_empty());
    }

    #[test]
    fn a_singular_noun_before_a_list_of_operands_is_a_slip() {
        assert_eq!(
            found("Operand `a` and `b` are 32-bit inputs."),
            [(
                "text-grammar-9.7.1.9-operand-list-a-b".to_string(),
                "Operand `a` and `b`".to_string(),
                "Operands `a` and `b`".to_string()
            )]
        );
        assert_eq!(found("Operand `c`, `p` and `q` has type `.pred`.")[0].2, "Operands `c`, `p` and `q` have",);
        // One operand, a list joined by `or`, a plural noun: no slip.
        assert!(found("Operand `a` has type `.u32`.").is_empty());
        assert!(found("Operand `a` or `b` is zero.").is_empty());
        assert!(found("Operands `a` and `b` are inputs.").is_empty());
    }

    #[test]
    fn a_plural_unit_inside_a_modifier_is_a_slip() {
        assert_eq!(found("It holds two 16-bits inputs.")[0].2, "16-bit inputs");
        // The unit as a noun: no modifier.
        assert!(found("It writes the low 32-bits of the result.").is_empty());
        assert!(found("It writes 32-bits in order.").is_empty());
        assert!(found("It shifts 32-bits to the left.").is_empty());
        // In a code comment, one of two units written singular.
        let got = found("Packs.\n\n```\ncvt.pack.u2 d, a; // 32-bits to 2-bit conversion\n```");
        assert_eq!((got[0].1.as_str(), got[0].2.as_str()), ("32-bits to", "32-bit to"));
    }

    #[test]
    fn same_without_its_article_is_a_slip() {
        assert_eq!(
            found("Threads that have same value of `a` are matched.")
                .into_iter()
                .map(|(_, old, new)| (old, new))
                .collect::<Vec<_>>(),
            [("have same".to_string(), "have the same".to_string())]
        );
        assert!(found("Threads that have the same value, and same mask, match.").is_empty());
        // The edit mends the slip, not an earlier `is same` inside `this same`.
        assert_eq!(
            found("For this same reason, the result is same as `a`.")
                .into_iter()
                .map(|(_, old, new)| (old, new))
                .collect::<Vec<_>>(),
            [("result is same".to_string(), "result is the same".to_string())]
        );
        // Two on a line: one finding, an edit for each.
        let text = "#### 9.7.1.9. Integer Arithmetic Instructions: `rem`\n\nDescription\n\n\
                    All that have same `a` and all that have same `b`.\n";
        let found = check(&Document { sections: parse_any("made.md", text.as_bytes()).unwrap() });
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].repairs.len(), 2);
    }

    #[test]
    fn an_article_in_code_font_is_a_slip() {
        assert_eq!(
            found("Compares `a` and `b`, producing `a` result in `d`."),
            [(
                "text-grammar-9.7.1.9-code-article-a-result".to_string(),
                "`a` result".to_string(),
                "a result".to_string()
            )]
        );
        // The operand before a verb or a conjunction, after a word that
        // names it, or before a word no article precedes: none.
        assert!(found("Source `a` is 32 bits, `a` and `b` too, `a` by `b`.").is_empty());
        assert!(found("The operand `a` result is kept.").is_empty());
        assert!(found("It keeps `a` value.").is_empty());
        assert!(found("Compares the `a` value with `b`, a value and a value.").is_empty());
        // A noun the document writes after another operand's name: the
        // operand's phrase, though the document writes the noun after `a`.
        assert!(found("Compares `a` value with `b` value; a value and a value.").is_empty());
    }

    #[test]
    fn a_description_and_an_order_in_one_sentence_is_a_slip() {
        assert_eq!(
            found("Divides `a` by `b`, store the remainder in `d`."),
            [(
                "text-grammar-9.7.1.9-verb-forms-divides-store".to_string(),
                "Divides `a` by `b`, store".to_string(),
                "Divides `a` by `b`, stores".to_string()
            )]
        );
        // Both descriptions, both orders, or a noun after the comma: none.
        assert!(found("Divides `a` by `b`, and stores the remainder.").is_empty());
        assert!(found("Take `a`, and store the remainder.").is_empty());
        assert!(found("Divides `a` by `b`, for the remainder.").is_empty());
    }

    #[test]
    fn either_before_three_values_is_a_slip() {
        let got = found("The size can be set to either of `64B`,\n`128B`, `256B` thereby.");
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!((got[0].1.as_str(), got[0].2.as_str()), ("either of", "one of"));
        assert!(found("It is either `a` or `b`, and either of `c`, `d`.").is_empty());
    }

    #[test]
    fn a_verb_agrees_with_its_subject() {
        let fixes = |text: &str| -> Vec<(String, String)> { found(text).into_iter().map(|f| (f.1, f.2)).collect() };
        let pair = |a: &str, b: &str| vec![(a.to_string(), b.to_string())];
        assert_eq!(fixes("Support for `.v8` and\n`.v4` require `sm_100` or higher."), pair("require", "requires"));
        assert_eq!(fixes("Sub byte types (`.u4` and `.u2`) requires `sm_75`."), pair("requires", "require"));
        assert_eq!(fixes("In contrast, the `multimem.red` perform reduction."), pair("perform", "performs"));
        assert_eq!(fixes("The `.weak` qualifier and `.x` requires no more."), pair("requires", "require"));
        assert_eq!(fixes("Supported addressing modes for operand `a` is as described."), pair("is", "are"));
        assert_eq!(fixes("The type of operands `d` and `a` are the same."), pair("are", "is"));
        // A verb that is also a noun, agreeing with the nearest noun; a
        // clause's opening word is no part of its subject.
        assert_eq!(fixes("The `.parity` variant of the instructions test a phase."), pair("test", "tests"));
        assert_eq!(fixes("The ordering of memory operations hold here."), pair("hold", "holds"));
        assert_eq!(fixes("The `a` and `b` instructions does not wait."), pair("does", "do"));
        assert_eq!(fixes("Cache operator are treated as hints."), pair("operator", "operators"));
        assert_eq!(
            fixes("The optional and non-immediate predicate argument `p` specify it."),
            pair("specify", "specifies")
        );
        assert_eq!(
            fixes("When `a` and `b` operations with `.acquire` qualifier returns `True`."),
            pair("returns", "return")
        );
        // Subjects that agree, or whose number the words do not say.
        for fine in [
            "`prefetch` and `prefetchu` require `sm_20`.",
            "Indirect texture access requires `sm_20`.",
            "`set.{s16,u16}` require `sm_90`.",
            "`{min,max}.{bf16, bf16x2}` require `sm_90`.",
            "`mul24` performs a multiply and returns the bits.",
            "The values fully specify the field.",
            "The operand `a` shall specify an address.",
            "The value of the operands is 1.",
            "Its address is aligned.",
            "There are two, but are not three.",
            "Operations supported on *mbarrier object*s are: these.",
            "Single precision (`.f32`) operands are fine.",
            "Rounding modifiers (default is `.rn`): here.",
            "Types `.e5m2`, `.e4m3x4` are supported.",
            "When the barrier completes and is reset.",
            "1 The semantics of `fence.sc` is a superset.",
            "The relationship between events and counters is open.",
            "The completion test holds.",
            "The optional and non-immediate predicate argument `p` specifies it.",
            "The signal and the wait are ordered.",
            "Positive and negative zero are equal.",
            "The results of the tests hold.",
            "The number of tests returns.",
            "If the operands are equal.",
        ] {
            assert!(fixes(fine).is_empty(), "{fine}: {:?}", fixes(fine));
        }
    }

    #[test]
    fn only_twice_in_a_clause_is_a_slip() {
        let got = found("Addresses can only be accessed only by these. Only a few, only.");
        let fixes: Vec<(&str, &str)> = got.iter().map(|f| (f.1.as_str(), f.2.as_str())).collect();
        assert_eq!(fixes, [("only be accessed only ", "only be accessed ")]);
    }

    #[test]
    fn an_article_lost_before_following_or_such_case_and_a_noun_doubled_around_code_are_slips() {
        let got = found(
            "They are depicted in following table, and in the following one. In\nsuch case, it holds. \
             The operation `.add` operation rounds; the operand `a` and operand `b` are read.",
        );
        let fixes: Vec<(&str, &str, &str)> = got.iter().map(|f| (f.0.as_str(), f.1.as_str(), f.2.as_str())).collect();
        assert_eq!(
            fixes,
            [
                ("text-grammar-9.7.1.9-bare-article-following-5", "in following", "in the following"),
                ("text-grammar-9.7.1.9-bare-article-case-6", "such case", "such a case"),
                ("text-grammar-9.7.1.9-doubled-operation-6", "operation `.add` operation", "operation `.add`"),
            ]
        );
        let split = found("It is supported on\nfollowing architectures.");
        assert_eq!(split, [("text-grammar-9.7.1.9-bare-article-following-5".into(), "on".into(), "on the".into())]);
    }

    #[test]
    fn a_participle_or_a_part_after_a_preposition_takes_its_article() {
        let got = found(
            "Convert `a` into specified type and pack into lower bits of `d`; copy from remaining bits. \
             The value specified by `a`, in lower case, with higher precision, in the specified type.",
        );
        let fixes: Vec<(&str, &str)> = got.iter().map(|f| (f.1.as_str(), f.2.as_str())).collect();
        assert_eq!(
            fixes,
            [
                ("into specified", "into the specified"),
                ("into lower", "into the lower"),
                ("from remaining", "from the remaining")
            ]
        );
    }

    #[test]
    fn a_preposition_said_twice_in_a_relative_clause_is_a_slip() {
        let got = found("The wait on the group in which the `cp.async`\n   belongs to or the barrier.");
        assert_eq!(
            got,
            [("text-grammar-9.7.1.9-preposition-twice-to-6".into(), "belongs to".into(), "belongs".into())]
        );
        for fine in ["The group to which it belongs, and more.", "The case in which it is written to memory."] {
            assert!(found(fine).is_empty(), "{fine}");
        }
    }

    #[test]
    fn an_article_before_a_numbered_table_is_a_slip() {
        let got = found("The mapping is shown in the\n[Table 33](#t) and in the table below; see Table 4.");
        assert_eq!(got, [("text-grammar-9.7.1.9-the-table-5".into(), "in the".into(), "in".into())]);
        assert_eq!(
            found("The mapping is in the Table 33 here."),
            [("text-grammar-9.7.1.9-the-table-5".into(), "the Table 33".into(), "Table 33".into())]
        );
    }
}
