//! The threads that take part in an instruction, named two ways in one
//! section. A warp-level instruction ranges over a set of threads (those in
//! `membermask`, those of the warp), and its section narrows the set with a
//! word (`non-exited`, `active`, `predicated-on active`). Where the section
//! narrows the set in some sentences and not in others ("`True` for all
//! non-exited threads in `membermask`" beside "for some thread in
//! `membermask`"), or narrows it by two different words ("each predicated
//! active thread" beside "all non-exited threads"), a thread that is in one
//! range and not the other (one that has exited, or whose guard predicate
//! is false) is left open: whether it is waited for, what it contributes,
//! whether it is counted.
//!
//! - One finding per set a section names both narrowed and not: the fix
//!   writes the section's word where it is missing.
//! - One finding per section that narrows by two words: the fix writes the
//!   more specific word where one word holds the other (`active` within
//!   `predicated-on active`), else the word most places use.
//!
//! A phrase that names the threads outside the set (`inactive`, `exited`,
//! `predicated-off`, "not in `membermask`") and the set's own definition
//! ("a set of threads specified by `membermask`") are neither.

use std::collections::BTreeSet;

use super::document::{Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// Words that narrow a set to the threads that take part.
const NARROWING: [&str; 3] = ["non-exited", "active", "predicated-on"];

/// Words that name the threads outside the set.
const OUTSIDE: [&str; 3] = ["inactive", "exited", "predicated-off"];

/// Words that join narrowing words ("exited or inactive").
const JOINING: [&str; 2] = ["or", "and"];

/// Quantifiers that make an unnarrowed phrase a claim about every thread
/// of the set, or about any of them.
const QUANTIFIERS: [&str; 5] = ["all", "each", "every", "some", "any"];

/// The words between `thread` and its set.
const PREPOSITIONS: [&[&str]; 7] =
    [&["in"], &["from"], &["of"], &["within"], &["corresponding", "to"], &["belonging", "to"], &["specified", "by"]];

/// The sets, as words, and as a finding writes them.
const SETS: [(&[&str], &str); 6] = [
    (&["membermask"], "`membermask`"),
    (&["warp"], "the warp"),
    (&["warpgroup"], "the warpgroup"),
    (&["thread", "group"], "the thread group"),
    (&["cta"], "the CTA"),
    (&["cluster"], "the cluster"),
];

/// A word of the prose: where it is, and its letters in lower case without
/// the punctuation and marks around it.
struct Word<'a> {
    line: &'a Line,
    start: usize,
    end: usize,
    text: String,
    /// A comma, full stop, colon or semicolon ends it: no phrase runs on.
    ends_clause: bool,
}

/// The words of a run of lines, each from its byte `from` on (a code line's
/// comment).
fn words<'a>(lines: &[(&'a Line, usize)]) -> Vec<Word<'a>> {
    let mut out = Vec::new();
    for &(line, from) in lines {
        let text = &line.text;
        let mut at = from;
        for raw in text[from..].split(|c: char| c.is_whitespace() || c == '/') {
            let start = at;
            at += raw.len() + 1;
            let lead = raw.len() - raw.trim_start_matches(|c: char| !c.is_alphanumeric()).len();
            let core = raw.trim_matches(|c: char| !c.is_alphanumeric());
            if core.is_empty() {
                continue;
            }
            let tail = &raw[lead + core.len()..];
            out.push(Word {
                line,
                start: start + lead,
                end: start + lead + core.len(),
                text: core.to_lowercase(),
                ends_clause: tail.contains([',', '.', ';', ':']),
            });
        }
    }
    out
}

/// Words as the text writes them: the stretch of each line they are on,
/// with a code mark that closes the last.
fn written(words: &[Word]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for run in words.chunk_by(|a, b| a.line.number == b.line.number) {
        let text = &run[0].line.text;
        let (mut start, mut end) = (run[0].start, run[run.len() - 1].end);
        let open = |a: usize, b: usize| text[a..b].matches('`').count() % 2 == 1;
        if open(start, end) && text[end..].starts_with('`') {
            end += 1;
        }
        if open(start, end) && text[..start].ends_with('`') {
            start -= 1;
        }
        parts.push(&text[start..end]);
    }
    parts.join(" ")
}

/// How a phrase narrows its set.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Narrowing {
    /// No word: every thread of the set.
    None,
    /// The words, normalised (`predicated-on active`).
    By(String),
    /// The threads outside the set.
    Outside,
}

/// A phrase that names threads of a set.
struct Mention<'a> {
    line: &'a Line,
    /// The set as a finding writes it; none for "an active thread".
    set: Option<&'static str>,
    narrowing: Narrowing,
    /// A quantifier counts it as a claim about the whole set, or a plural.
    claims_the_set: bool,
    /// Bytes of its narrowing words, with an article before them, and of
    /// the word `thread(s)`.
    narrowing_span: (usize, usize),
    thread_span: (usize, usize),
    /// The phrase as the text writes it, for the finding.
    quoted: String,
}

/// Whether the words from `at` are `expected`, no clause ending before the
/// last: the index after them.
fn matches(words: &[Word], at: usize, expected: &[&str]) -> Option<usize> {
    let got = words.get(at..at + expected.len())?;
    let same = got.iter().zip(expected).all(|(w, e)| w.text == *e);
    let runs_on = got[..got.len() - 1].iter().all(|w| !w.ends_clause);
    (same && runs_on).then_some(at + expected.len())
}

/// The set the words after `thread` at `at` name, and the index after it.
fn set_after(words: &[Word], at: usize) -> Option<(&'static str, usize)> {
    if words[at].ends_clause {
        return None;
    }
    let mut i = PREPOSITIONS.iter().find_map(|p| matches(words, at + 1, p))?;
    for skip in [&["the"][..], &["a"], &["currently", "executing"], &["executing"]] {
        if words[i - 1].ends_clause {
            return None;
        }
        i = matches(words, i, skip).unwrap_or(i);
    }
    if words[i - 1].ends_clause {
        return None;
    }
    SETS.iter().find_map(|(set, written)| matches(words, i, set).map(|end| (*written, end)))
}

/// The phrase whose word `thread(s)` is at `at`, if it names a set or
/// narrows one.
fn mention<'a>(words: &[Word<'a>], at: usize) -> Option<Mention<'a>> {
    let thread = &words[at];
    let set = set_after(words, at);
    // Back over the narrowing words, then a quantifier or an article; a
    // phrase with no set may have one noun between ("active leader
    // thread").
    let narrowed_back = |end: usize| {
        let mut k = end;
        while k > 0 && !words[k - 1].ends_clause {
            let w = words[k - 1].text.as_str();
            let narrowing = NARROWING.contains(&w) || OUTSIDE.contains(&w) || w == "predicated";
            let joins = JOINING.contains(&w) && k < end;
            if !(narrowing || joins) {
                break;
            }
            k -= 1;
        }
        k
    };
    let mut first = narrowed_back(at);
    if set.is_none() && first == at && at > 1 && !words[at - 1].ends_clause {
        first = narrowed_back(at - 1);
        if first == at - 1 {
            return None;
        }
    }
    let narrowing_words: Vec<&str> = words[first..at]
        .iter()
        .map(|w| w.text.as_str())
        .filter(|w| !JOINING.contains(w) && NARROWING.iter().chain(&OUTSIDE).chain(&["predicated"]).any(|n| n == w))
        .collect();
    let narrowing = if narrowing_words.iter().any(|w| OUTSIDE.contains(w)) {
        Narrowing::Outside
    } else if narrowing_words.is_empty() {
        Narrowing::None
    } else {
        let normal: Vec<&str> =
            narrowing_words.iter().map(|w| if *w == "predicated" { "predicated-on" } else { w }).collect();
        Narrowing::By(normal.join(" "))
    };
    let last_narrowing = (first..at).rev().find(|&k| {
        let w = words[k].text.as_str();
        NARROWING.contains(&w) || OUTSIDE.contains(&w) || w == "predicated"
    });
    let set = match (set, &narrowing) {
        (Some((set, _)), _) => Some(set),
        (None, Narrowing::By(_)) => None,
        (None, _) => return None,
    };
    let before = first.checked_sub(1).map(|k| &words[k]).filter(|w| !w.ends_clause);
    let quantified = before.is_some_and(|w| QUANTIFIERS.contains(&w.text.as_str()));
    // "a set of threads specified by `membermask`" defines the set.
    let defines = at >= 2 && words[at - 1].text == "of" && words[at - 2].text == "set";
    let article = before.filter(|w| (w.text == "a" || w.text == "an") && w.line.number == words[first].line.number);
    let narrowing_start = article.map_or(words[first].start, |w| w.start);
    let end = set.and_then(|_| set_after(words, at)).map_or(at + 1, |(_, end)| end);
    let from = before.filter(|_| quantified).map_or(first, |_| first - 1);
    let quoted = written(&words[from..end]);
    Some(Mention {
        line: thread.line,
        set,
        narrowing,
        claims_the_set: !defines && (quantified || thread.text == "threads"),
        narrowing_span: (narrowing_start, last_narrowing.map_or(thread.start, |k| words[k].end)),
        thread_span: (thread.start, thread.end),
        quoted,
    })
}

/// The lines a section's sentences about threads are on: its prose, and
/// the comments of its code.
fn prose_and_comments(s: &Section) -> Vec<Vec<(&Line, usize)>> {
    let mut out: Vec<Vec<(&Line, usize)>> = Vec::new();
    let mut run: Vec<(&Line, usize)> = Vec::new();
    for l in s.all_lines() {
        if !l.code && !l.text.trim().is_empty() {
            run.push((l, 0));
            continue;
        }
        out.extend((!run.is_empty()).then(|| std::mem::take(&mut run)));
        if let Some(at) = l.text.find("//").filter(|_| l.code) {
            out.push(vec![(l, at + 2)]);
        }
    }
    out.extend((!run.is_empty()).then_some(run));
    out
}

fn mentions(s: &Section) -> Vec<Mention<'_>> {
    let mut out = Vec::new();
    for run in prose_and_comments(s) {
        let words = words(&run);
        for at in 0..words.len() {
            if words[at].text == "thread" || words[at].text == "threads" {
                out.extend(mention(&words, at));
            }
        }
    }
    // A phrase with no set ("an active thread") is about the one set the
    // section names, if it names one.
    let sets: BTreeSet<&str> = out.iter().filter_map(|m| m.set).collect();
    if let [only] = sets.into_iter().collect::<Vec<_>>()[..] {
        for m in &mut out {
            m.set.get_or_insert(only);
        }
    }
    out
}

/// The word most mentions narrow by (the first on a tie).
fn most_used<'a>(words: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let all: Vec<&str> = words.collect();
    let most = all.iter().map(|w| all.iter().filter(|v| *v == w).count()).max()?;
    all.iter().find(|w| all.iter().filter(|v| v == w).count() == most).copied()
}

fn finding(s: &Section, slug: &str, sites: &[&Mention], summary: String, why: String, repairs: Vec<Repair>) -> Finding {
    let mut detail: Vec<String> =
        sites.iter().map(|m| format!("At {}:{}: \"{}\".", s.file, m.line.number, m.quoted)).collect();
    detail.push(why);
    let mut f = Finding::of_text(
        format!("text-threads-{}-{slug}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        sites[0].quoted.clone(),
        summary,
        detail,
    );
    f.repairs = repairs;
    f
}

/// A set the section narrows in some phrases and not in others.
fn unnarrowed(s: &Section, all: &[Mention]) -> Vec<Finding> {
    let mut out = Vec::new();
    let sets: BTreeSet<&str> = all.iter().filter_map(|m| m.set).collect();
    for set in sets {
        let of_set = || all.iter().filter(move |m| m.set == Some(set));
        let Some(word) = most_used(of_set().filter_map(|m| match &m.narrowing {
            Narrowing::By(w) => Some(w.as_str()),
            _ => None,
        })) else {
            continue;
        };
        let narrowed = of_set().filter(|m| m.narrowing == Narrowing::By(word.to_string())).count();
        let bare: Vec<&Mention> =
            of_set().filter(|m| m.narrowing == Narrowing::None && m.claims_the_set && m.set.is_some()).collect();
        if bare.is_empty() {
            continue;
        }
        // The word as the text writes it where it narrows this set.
        let written = of_set()
            .find(|m| m.narrowing == Narrowing::By(word.to_string()))
            .map(|m| {
                let (a, b) = m.narrowing_span;
                let text = &m.line.text[a..b];
                text.strip_prefix("an ").or(text.strip_prefix("a ")).unwrap_or(text).to_string()
            })
            .unwrap_or_else(|| word.to_string());
        let repairs = bare
            .iter()
            .map(|m| {
                let (a, b) = m.thread_span;
                Repair::at(m.line.number, &m.line.text, a, b, &format!("{written} {}", &m.line.text[a..b]))
            })
            .collect();
        let places = |n: usize| if n == 1 { "1 place".to_string() } else { format!("{n} places") };
        let summary = format!(
            "the threads of {set} that take part are \"{written}\" in {} and every thread in {}",
            places(narrowed),
            places(bare.len())
        );
        let why = format!(
            "A thread of {set} that is not {written} is inside one range and outside the other: whether it is \
             waited for, what it contributes and whether it is counted are open. Mended: \"{written}\" in each \
             phrase that names the set without it."
        );
        let slug = set.trim_start_matches("the ").trim_matches('`').replace(' ', "-");
        out.push(finding(s, &slug, &bare, summary, why, repairs));
    }
    out
}

/// A section that narrows its threads by two different words.
fn two_words(s: &Section, all: &[Mention]) -> Option<Finding> {
    let by: Vec<(&Mention, &str)> = all
        .iter()
        .filter_map(|m| match &m.narrowing {
            Narrowing::By(w) => Some((m, w.as_str())),
            _ => None,
        })
        .collect();
    let words: BTreeSet<&str> = by.iter().map(|(_, w)| *w).collect();
    if words.len() < 2 {
        return None;
    }
    // The word that holds every other, else the one most places use.
    let holds = |a: &str, b: &str| a.split(' ').collect::<BTreeSet<_>>().is_superset(&b.split(' ').collect());
    let widest = words.iter().find(|a| words.iter().all(|b| holds(a, b))).copied();
    let chosen = widest.or_else(|| most_used(by.iter().map(|(_, w)| *w)))?;
    let (model, _) = by.iter().find(|(_, w)| *w == chosen)?;
    let written = {
        let (a, b) = model.narrowing_span;
        let text = &model.line.text[a..b];
        text.split_once(' ').filter(|(art, _)| matches!(*art, "a" | "an" | "A" | "An")).map_or(text, |(_, t)| t)
    };
    let others: Vec<&Mention> = by.iter().filter(|(_, w)| *w != chosen).map(|(m, _)| *m).collect();
    let repairs = others
        .iter()
        .map(|m| {
            let (a, b) = m.narrowing_span;
            let old = &m.line.text[a..b];
            let new = match old.split_once(' ').map(|(art, _)| art) {
                Some(art @ ("a" | "an" | "A" | "An")) => {
                    let vowel = written.starts_with(['a', 'e', 'i', 'o', 'u']);
                    let article = if vowel { "an" } else { "a" };
                    let article =
                        if art.starts_with('A') { format!("A{}", &article[1..]) } else { article.to_string() };
                    format!("{article} {written}")
                }
                _ => written.to_string(),
            };
            Repair::at(m.line.number, &m.line.text, a, b, &new)
        })
        .collect();
    let named: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    let summary = format!("the threads that take part are named {} ways: {}", words.len(), named.join(" and "));
    let why = format!(
        "A thread that is one and not the other (one that has not exited but is inactive, or whose guard \
         predicate is false) takes part by one sentence and not by another. Mended: \"{written}\" throughout."
    );
    Some(finding(s, "narrowed-two-ways", &others, summary, why, repairs))
}

fn section(s: &Section) -> Vec<Finding> {
    let all = mentions(s);
    let mut out = unnarrowed(s, &all);
    out.extend(two_words(s, &all));
    out
}

/// Every section whose threads that take part are named two ways.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::check;

    fn found(description: &str) -> Vec<(String, Vec<(String, String)>)> {
        let doc = Document::of_markdown(&format!(
            "#### 9.7.13.9. Parallel Synchronization and Communication Instructions: `vote.sync`\n\n\
             Description\n\n{description}\n"
        ));
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().map(|r| (r.old, r.new)).collect())).collect()
    }

    #[test]
    fn a_set_narrowed_in_some_places_and_not_in_others_is_a_finding() {
        let got = found(
            "It waits for all non-exited threads corresponding to\n`membermask`. `.all`: `True` for all \
             non-exited threads in `membermask`.\n\n`.any`: `True` for some thread in `membermask`. The \
             value is the same across all threads in `membermask`.",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            got[0].0,
            "the threads of `membermask` that take part are \"non-exited\" in 2 places and every thread in 2 places"
        );
        assert_eq!(
            got[0].1,
            [
                ("thread".to_string(), "non-exited thread".to_string()),
                ("threads".to_string(), "non-exited threads".to_string()),
            ]
        );
    }

    #[test]
    fn threads_outside_the_set_its_definition_and_one_thread_are_not_sites() {
        // Threads outside the set, the set's definition, a thread with no
        // quantifier, a phrase cut by a full stop: none.
        assert!(found(
            "It reads all non-exited threads in `membermask`. A thread not in `membermask` gives 0. \
             An inactive thread in `membermask` gives 0. It elects one from a set of threads specified by \
             `membermask`. The position of thread in `membermask` is its lane. It waits for all threads. In \
             `membermask` order."
        )
        .is_empty());
        // A set no phrase narrows: none.
        assert!(found("It waits for all threads in the warp. Each thread in the warp reads `a`.").is_empty());
    }

    #[test]
    fn two_words_for_the_threads_that_take_part_are_a_finding() {
        let got = found(
            "Reduce the data from each predicated active thread in the thread group. It waits for all \
             non-exited threads in `membermask`, and reads all non-exited threads in `membermask`.",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            got[0].0,
            "the threads that take part are named 2 ways: \"non-exited\" and \"predicated-on active\""
        );
        assert_eq!(got[0].1, [("predicated active".to_string(), "non-exited".to_string())]);
        // One word within the other: the wider one, with its article.
        let got = found(
            "It queries the active threads within a warp: the predicated-on active threads of the warp. An \
             active thread gives 1.",
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(
            got[0].1,
            [
                ("active".to_string(), "predicated-on active".to_string()),
                ("An active".to_string(), "A predicated-on active".to_string()),
            ]
        );
    }
}
