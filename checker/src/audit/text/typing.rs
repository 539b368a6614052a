//! Operands whose type no sentence gives. By the document's convention an
//! instruction's operands have its type (`add.s32 d, a, b`), so a Syntax
//! line of one type types them all, unless the text leaves the convention:
//! - a line that writes two types (`add.f32.atype d, a, c`,
//!   `set.CmpOp.dtype.stype d, a, b`) gives it nothing to go by;
//! - a section that types some operands in words (szext's "Operand `b` is
//!   an unsigned 32-bit value") and not the others leaves the others to a
//!   convention it does not state;
//! - a section that types none, where most sections of its chapter type
//!   theirs (9.7.1: add, min, popc, bfe...), is the exception to its
//!   chapter's own practice.
//!
//! A chapter whose introduction states a rule for every operand (9.7.8's
//! "operands of any type, provided the operands are of the same size")
//! leaves no one-type line open. Each operand that no sentence of the
//! Description or Notes names beside a type (`` Operand `c` has type
//! `.pred` ``, `` Operands `a` and `d` have the same type as the
//! instruction type ``) is open: which registers an assembler accepts for
//! it is the prose's to say. One finding per section.

use std::collections::BTreeMap;

use super::captions::type_word;
use super::defaults::{grammar, Grammar};
use super::document::{BlockKind, Document, Section};
use super::names_operand as names;
use crate::audit::finding::{Finding, FindingKind};

/// Whether a qualifier names a type: `.f32`, `.bf16x2`, `.atype`, `.pred`.
fn is_type(q: &str) -> bool {
    let bare = q.trim_start_matches('.');
    type_word(bare).is_some() || bare.to_ascii_lowercase().ends_with("type") || bare == "pred"
}

/// The type slots of a Syntax line's mnemonic: each qualifier that names a
/// type, or a set of types.
fn type_slots(mnemonic: &str, sets: &std::collections::BTreeMap<String, Vec<String>>) -> usize {
    mnemonic
        .split(['.', '{', '}'])
        .filter(|w| !w.is_empty())
        .skip(1)
        .filter(|w| {
            let q = format!(".{w}");
            is_type(&q) || sets.get(&q).is_some_and(|vs| !vs.is_empty() && vs.iter().all(|v| is_type(v)))
        })
        .count()
}

/// What a Syntax line writes after its mnemonic.
fn operands_text(line: &str) -> &str {
    line.split_once(char::is_whitespace).map_or("", |(_, rest)| rest)
}

/// The operand names of a Syntax line: `d, a, b, {!}c;` gives d, a, b, c;
/// `p[|q]` gives p and q.
fn operands(line: &str) -> Vec<String> {
    let rest = operands_text(line);
    // An address (`[a]`) is no value of the instruction's type.
    let mut rest = rest.trim().trim_end_matches(';').to_string();
    while let Some((open, close)) =
        rest.find('[').zip(rest.find(']')).filter(|&(o, c)| o < c && !rest[o + 1..].starts_with('|'))
    {
        rest.replace_range(open..=close, "");
    }
    let rest = rest.replace(['[', ']'], " ");
    rest.split([',', '|', '{', '}', '!'])
        .map(str::trim)
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// The sentences of a section's Description and Notes.
pub(super) fn sentences(s: &Section) -> Vec<String> {
    sentences_in(s, &[BlockKind::Description, BlockKind::Notes]).into_iter().map(|(_, t)| t).collect()
}

/// The sentences of a section's blocks of the given kinds, each with its
/// block: each paragraph's lines joined, then split at ". ".
pub(super) fn sentences_in(s: &Section, kinds: &[BlockKind]) -> Vec<(BlockKind, String)> {
    let mut out = Vec::new();
    for b in s.blocks.iter().filter(|b| kinds.contains(&b.kind)) {
        for p in b.paragraphs() {
            let text: Vec<&str> = p.iter().map(|l| l.text.trim()).collect();
            out.extend(text.join(" ").split(". ").map(|t| (b.kind, t.to_string())));
        }
    }
    out
}

/// Whether a sentence gives `operand` a type: names it beside a type
/// qualifier's code span, a predicate, a width, the instruction's type
/// (`have the same type as the instruction type`, `The type of the
/// operation represents the types of the `a` and `b` operands`), or speaks
/// of all operands at once (`All operands are of the same type and size`).
fn types(sentence: &str, operand: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    if lower.contains("all operands") && lower.contains("type") {
        return true;
    }
    if !names(sentence, operand) {
        return false;
    }
    let spans = sentence.split('`').skip(1).step_by(2);
    // A span may take the sentence's full stop inside it (`` `.b32.` ``).
    // A vector's span names its element type after its length (`.v2.s32`).
    let typed_span =
        |c: &str| c.trim_end_matches('.').split('.').filter(|w| !w.is_empty()).any(|w| is_type(&format!(".{w}")));
    spans.into_iter().any(|c| c.starts_with('.') && typed_span(c))
        || ["predicate", "instruction type", "same type", "type of the operation"].iter().any(|w| lower.contains(w))
        // An opaque handle: a texture, sampler or surface is its own type
        // (`An optional texture sampler `b``).
        || opaque_beside(&lower, operand)
        // An integer immediate (`The immediate integer operand `ord``): its
        // value is read as an integer, in no register.
        || ["immediate integer", "integer constant", "integer immediate"].iter().any(|w| lower.contains(w))
        || width_beside(sentence, operand)
        || width_handed_to(sentence, operand)
}

/// Whether the operand's name follows `texture`, `sampler` or `surface`:
/// "the texture named by operand `a`", "texture sampler `b`".
fn opaque_beside(lower: &str, operand: &str) -> bool {
    let words: Vec<&str> = lower.split_whitespace().collect();
    let key = format!("`{}`", operand.to_ascii_lowercase());
    (0..words.len()).filter(|&k| words[k].trim_end_matches(['.', ',', ';']) == key).any(|k| {
        words[k.saturating_sub(4)..k]
            .iter()
            .any(|w| ["texture", "sampler", "surface"].contains(&w.trim_end_matches(['.', ','])))
    })
}

/// Whether a width begins what the sentence returns in the operand as its
/// destination, however long the phrase: "returns an opaque 64-bit register
/// capturing the phase ... in the destination operand `state`" types
/// `state`, as no other code span stands between the width and the name.
/// A width before a source ("a 32-bit mask from the bit position in operand
/// `a`") is the result's.
fn width_handed_to(sentence: &str, operand: &str) -> bool {
    let key = format!("destination operand `{operand}");
    let Some(at) = sentence.match_indices(&key).map(|(i, _)| i).find(|&i| {
        let rest = &sentence[i + key.len()..];
        rest.starts_with('`') || rest.starts_with(".`")
    }) else {
        return false;
    };
    let before = &sentence[..at];
    before.rfind("-bit").is_some_and(|w| !before[w..].contains('`'))
}

/// Whether a width (`32-bit`, `32 bit`) stands within a few words of the operand's
/// name: `Operand `b` is an unsigned 32-bit value` types `b`, where "a
/// 32-bit mask starting from the bit position specified in operand `a`"
/// is the width of the result, not of `a`.
fn width_beside(sentence: &str, operand: &str) -> bool {
    const NEAR: usize = 4;
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let at: Vec<usize> = (0..words.len()).filter(|&k| names(words[k], operand)).collect();
    // `32-bit`, or `32 bit` in two words.
    let two_words = |k: usize| {
        k > 0 && words[k].trim_end_matches(['.', ',']) == "bit" && words[k - 1].chars().all(|c| c.is_ascii_digit())
    };
    let widths = (0..words.len()).filter(|&k| words[k].contains("-bit") || two_words(k));
    widths.into_iter().any(|w| at.iter().any(|&k| k.abs_diff(w) <= NEAR))
}

/// Whether a sentence gives `operand` a predicate: a predicate is never of
/// the instruction's type, so saying so leaves the convention standing.
fn predicate(sentence: &str, operand: &str) -> bool {
    names(sentence, operand) && sentence.to_ascii_lowercase().contains("predicate")
}

/// The operands of a set of Syntax lines, each once, in order.
fn operands_of(lines: &[&String]) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    // A name some line writes with an offset (`var + imm`) is a variable
    // whose address the line takes, on every line.
    let offset = |o: &str| {
        lines.iter().any(|t| {
            operands_text(t)
                .split(',')
                .any(|p| p.trim().strip_prefix(o).is_some_and(|r| r.trim_start().starts_with('+')))
        })
    };
    for t in lines {
        // The sink symbol `_` stands where no value is kept: it has no type.
        for o in operands(t).into_iter().filter(|o| o != "_") {
            if !all.contains(&o) && !offset(&o) {
                all.push(o);
            }
        }
    }
    all
}

/// The section's Syntax lines with `slots` type slots (2 stands for two or
/// more).
fn lines_with(g: &Grammar, slots: usize) -> Vec<&String> {
    let count = |t: &String| t.split_whitespace().next().map_or(0, |m| type_slots(m, &g.sets).min(2));
    g.templates.iter().filter(|t| count(t) == slots).collect()
}

/// The operands of the section's one-type lines that a sentence types,
/// predicates aside.
fn typed_operands(s: &Section) -> Vec<String> {
    let Some(g) = grammar(s) else { return Vec::new() };
    let said = sentences(s);
    let typed = |o: &String| said.iter().any(|x| types(x, o)) && !said.iter().any(|x| predicate(x, o));
    operands_of(&lines_with(&g, 1)).into_iter().filter(typed).collect()
}

/// What a section's chapter says of its operands' types: whether its
/// introduction states a rule for all of them (9.7.8's "operands of any
/// type, provided the operands are of the same size"), and which of its
/// sections type theirs in a sentence, of how many with one-type forms.
#[derive(Default)]
struct Chapter {
    rule: bool,
    typing: Vec<String>,
    of: usize,
}

/// The chapter of a section: its number less the last part (`9.7.1` for
/// `9.7.1.10`).
fn chapter_of(number: &str) -> &str {
    number.rsplit_once('.').map_or(number, |(c, _)| c)
}

fn chapters(doc: &Document) -> BTreeMap<String, Chapter> {
    let mut out: BTreeMap<String, Chapter> = BTreeMap::new();
    let mut seen: Vec<&str> = Vec::new();
    for s in &doc.sections {
        if seen.contains(&s.number.as_str()) {
            continue;
        }
        seen.push(&s.number);
        let intro: Vec<&str> = s.intro.iter().map(|l| l.text.trim()).collect();
        let states = intro.join(" ").split(". ").any(|x| {
            let x = x.to_ascii_lowercase();
            x.contains("operands") && (x.contains("type") || x.contains("size"))
        });
        if states {
            out.entry(s.number.clone()).or_default().rule = true;
        }
        if grammar(s).is_some_and(|g| !lines_with(&g, 1).is_empty()) {
            let c = out.entry(chapter_of(&s.number).to_string()).or_default();
            c.of += 1;
            if !typed_operands(s).is_empty() {
                c.typing.push(s.number.clone());
            }
        }
    }
    out
}

fn list(names: &[&String]) -> String {
    super::and_list(&names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>())
}

fn have(open: &[&String]) -> String {
    format!("{} {}", list(open), if open.len() == 1 { "has" } else { "have" })
}

/// `Operand `b` has`, `Operands `d` and `c` have`: a sentence's start.
fn operands_have(open: &[&String]) -> String {
    format!("{} {}", if open.len() == 1 { "Operand" } else { "Operands" }, have(open))
}

/// A two-type line's operands no sentence types.
fn two_types(s: &Section, g: &Grammar) -> Option<Finding> {
    let two = lines_with(g, 2);
    let line = two.first()?.split_whitespace().collect::<Vec<_>>().join(" ");
    let said = sentences(s);
    let all = operands_of(&two);
    // A type whose set is named for the operand (`.dtype` for `d`, `.ctype`
    // for `c`) types it by the document's naming: `tex.geom.v4.dtype.ctype
    // d, [a, c]`.
    let named = |o: &str| {
        two.iter().any(|t| {
            let mnemonic = t.split_whitespace().next().unwrap_or("");
            mnemonic.split(['.', '{', '}']).skip(1).any(|w| w.strip_suffix("type") == Some(o))
        })
    };
    let open: Vec<&String> = all.iter().filter(|o| !said.iter().any(|x| types(x, o)) && !named(o)).collect();
    if open.is_empty() {
        return None;
    }
    let typed: Vec<&String> = all.iter().filter(|o| !open.contains(o)).collect();
    let others = if typed.is_empty() {
        String::new()
    } else {
        format!(" (of its operands, a sentence types only {})", list(&typed))
    };
    let mut f = Finding::of_text(
        format!("text-typing-{}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        line.clone(),
        format!(
            "the Syntax line `{line}` writes two types, and no sentence says which {} {}{others}",
            if open.len() == 1 { "type" } else { "types" },
            have(&open)
        ),
        vec![format!(
            "{}: section {}'s Description and Notes name {} beside no type; with two types on the line, the \
             convention that operands take the instruction's type gives none, so the registers an assembler \
             accepts for {} are the reader's guess.",
            s.file,
            s.number,
            list(&open),
            if open.len() == 1 { "it" } else { "them" }
        )],
    );
    // The fix: where a sentence converts the typed operands into a type of
    // the line (`from .atype into .f32`), the operation is of that type,
    // and the others are its operands: a sentence gives them that type.
    let line_types: Vec<&str> = line.split_whitespace().next().unwrap_or("").split('.').skip(1).collect();
    let target = said.iter().find_map(|x| {
        let (_, after) = x.split_once("into `.")?;
        let ty = after.split('`').next()?;
        line_types.contains(&ty).then(|| ty.to_string())
    });
    if let Some(ty) = target.filter(|_| !typed.is_empty()) {
        f.repairs =
            super::ending_description(s, &format!("{} type `.{ty}`.", operands_have(&open))).into_iter().collect();
    } else if let Some(sentence) = by_position(&two, &all, &open) {
        f.repairs = super::ending_description(s, &sentence).into_iter().collect();
    }
    Some(f)
}

/// The fix of a two-type Syntax whose own set names say which type is whose:
/// a set `.dtype` written first on a line and `.stype` second (half-precision
/// set's `set.CmpOp.dtype.f16` and `set.CmpOp.f16.stype`). The destination
/// takes the type a form writes first, the other operands open the second.
fn by_position(two: &[&String], all: &[String], open: &[&String]) -> Option<String> {
    let types_of = |t: &String| -> Vec<String> {
        let mnemonic = t.split_whitespace().next().unwrap_or("");
        let words = mnemonic.split(['.', '{', '}']).skip(1).filter(|w| !w.is_empty());
        words.map(|w| format!(".{w}")).filter(|q| is_type(q)).collect()
    };
    let pairs: Vec<Vec<String>> = two.iter().map(|t| types_of(t)).filter(|ts| ts.len() == 2).collect();
    let first = pairs.iter().any(|p| p[0] == ".dtype");
    let second = pairs.iter().any(|p| p[1] == ".stype");
    let destination = all.first()?;
    let sources: Vec<&String> = open.iter().copied().filter(|o| *o != destination).collect();
    if !(first && second && !sources.is_empty()) {
        return None;
    }
    let (one, many) = if sources.len() == 1 { ("Operand", "has") } else { ("Operands", "have") };
    // The destination's type is said only where its set's name does not
    // say it (`.dtype` for `d`).
    if !open.contains(&destination) {
        return Some(format!("{one} {} {many} the type a form writes second (`.stype`).", list(&sources)));
    }
    Some(format!(
        "Operand `{destination}` has the type a form writes first (`.dtype`), and {} {} the type it writes second \
         (`.stype`).",
        one.to_lowercase(),
        list(&sources)
    ))
}

/// A one-type line's operands no sentence types, where the section or its
/// chapter has left the convention: the section types some of its operands
/// and not the others, or it types none where most sections of its chapter
/// type theirs. A chapter whose introduction states a rule for every
/// operand leaves nothing open.
fn one_type(s: &Section, g: &Grammar, chapter: &Chapter) -> Option<Finding> {
    let one = lines_with(g, 1);
    let line = one.first()?.split_whitespace().collect::<Vec<_>>().join(" ");
    let said = sentences(s);
    let all = operands_of(&one);
    // A sentence on "the destination register" beside a type (a load's
    // "A destination register wider than the specified type may be used")
    // types the line's first operand without naming it.
    let destination = said.iter().any(|x| {
        let lower = x.to_ascii_lowercase();
        lower.contains("destination register") && lower.contains(" type")
    });
    let open: Vec<&String> = all
        .iter()
        .enumerate()
        .filter(|&(k, o)| !((k == 0 && destination) || said.iter().any(|x| types(x, o))))
        .map(|(_, o)| o)
        .collect();
    let typed: Vec<&String> =
        all.iter().filter(|o| !open.contains(o) && !said.iter().any(|x| predicate(x, o))).collect();
    if open.is_empty() || chapter.rule {
        return None;
    }
    let why = if !typed.is_empty() {
        format!(
            "a sentence types {} and none the rest: having typed some operands in words, the section leaves the \
             others to a convention it does not state",
            list(&typed)
        )
    } else if 2 * chapter.typing.len() > chapter.of {
        let named: Vec<String> = chapter.typing.iter().take(3).cloned().collect();
        format!(
            "{} of the chapter's {} sections give their operands' types in a sentence ({}{}), and no sentence \
             states the rule for the rest",
            chapter.typing.len(),
            chapter.of,
            named.join(", "),
            if chapter.typing.len() > 3 { ", ..." } else { "" }
        )
    } else {
        return None;
    };
    // The fix states the convention for the rest: the instruction's type;
    // an operand a sentence gives `True` or `False` is a predicate.
    let truths: Vec<String> = said.iter().flat_map(|x| super::truth_valued(x)).collect();
    let (truth, rest): (Vec<&String>, Vec<&String>) = open.iter().partition(|o| truths.contains(o));
    let mut sentence = Vec::new();
    if !rest.is_empty() {
        sentence.push(format!("{} the same type as the instruction type.", operands_have(&rest)));
    }
    if !truth.is_empty() {
        let (them, are) = if truth.len() == 1 { ("Operand", "is a predicate") } else { ("Operands", "are predicates") };
        sentence.push(format!("{them} {} {are}.", list(&truth)));
    }
    let repair = super::ending_description(s, &sentence.join(" "));
    let mut f = Finding::of_text(
        format!("text-typing-{}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        line.clone(),
        format!("no sentence says which type {} in `{line}`", have(&open)),
        vec![format!(
            "{}: section {}'s Description and Notes name {} beside no type; {why}. Which registers an assembler \
             accepts for {}, and how its bits are read, is the reader's guess.",
            s.file,
            s.number,
            list(&open),
            if open.len() == 1 { "it" } else { "them" }
        )],
    );
    f.repairs = repair.into_iter().collect();
    Some(f)
}

/// Whether the group above a section gives, in its introduction, both the
/// rule for every operand's type and the general format whose type sets
/// the section's two-type line writes (9.7.18.1's "The type of each
/// operand ... is specified in the instruction type" beside its
/// `.dtype = .atype = .btype = { .u32, .s32 };`): the format's own words
/// then type the line's operands.
fn format_types(doc: &Document, s: &Section, g: &Grammar, chapter: &Chapter) -> bool {
    let Some(line) = lines_with(g, 2).into_iter().next() else { return false };
    let Some(group) = doc.section(chapter_of(&s.number)) else { return false };
    let code: Vec<&str> = group.intro.iter().filter(|l| l.code).map(|l| l.text.as_str()).collect();
    let mnemonic = line.split_whitespace().next().unwrap_or("");
    let slots: Vec<String> =
        mnemonic.split(['.', '{', '}']).skip(1).filter(|w| w.ends_with("type")).map(|w| format!(".{w}")).collect();
    let defines = |slot: &String| code.iter().any(|c| c.split('=').rev().skip(1).any(|n| n.trim() == slot));
    chapter.rule && !slots.is_empty() && slots.iter().all(defines)
}

fn section(doc: &Document, s: &Section, chapters: &BTreeMap<String, Chapter>) -> Vec<Finding> {
    let Some(g) = grammar(s) else { return Vec::new() };
    let none = Chapter::default();
    let chapter = chapters.get(chapter_of(&s.number)).unwrap_or(&none);
    if format_types(doc, s, &g, chapter) {
        return Vec::new();
    }
    two_types(s, &g).or_else(|| one_type(s, &g, chapter)).into_iter().collect()
}

/// Every section whose forms leave an operand's type unstated.
pub fn check(doc: &Document) -> Vec<Finding> {
    let chapters = chapters(doc);
    super::each_section(doc, |s| section(doc, s, &chapters))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, description: &str) -> Vec<Finding> {
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nDescription\n\n{description}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn an_address_or_a_variable_taken_with_an_offset_is_no_operand_of_the_type() {
        let lines = [
            "mapa.type d, a, b;".to_string(),
            "mapa.type d, sh + imm, b;".to_string(),
            "mapa.type d, sh, b;".to_string(),
            "ldu.type d, [a];".to_string(),
        ];
        let refs: Vec<&String> = lines.iter().collect();
        assert_eq!(super::operands_of(&refs), ["d", "a", "b"]);
        assert_eq!(super::operands("setp.type p[|q], a, b;"), ["p", "q", "a", "b"]);
    }

    #[test]
    fn a_width_handed_to_an_operand_far_from_it_types_it() {
        let sentence = "`mbarrier.arrive` returns an opaque 64-bit register capturing the phase of the object \
                        prior to the [arrive-on operation](#a) in the destination operand `state`.";
        assert!(types(sentence, "state"));
        assert!(types(&sentence.replace("`state`.", "`state.`"), "state"));
        // Another operand between the width and the name takes the width.
        assert!(!types("a 64-bit mask from operand `a`, written to the destination operand `d`.", "d"));
        assert!(!types("Generates a 32-bit mask from the bit position in operand `a`.", "a"));
        assert!(types("The immediate integer operand `ord` specifies the ordinal of the field.", "ord"));
    }

    #[test]
    fn an_operand_given_a_truth_value_is_stated_a_predicate_by_the_fix() {
        let f = chapter(
            "Integer instructions.",
            &[("wait.b64 done, a, b;", "Operand `b` is a 64-bit value. `done` returns `True` where it ended.")],
        );
        assert_eq!(f.len(), 1, "{f:?}");
        let fixed = &f[0].repairs[0].new;
        assert!(
            fixed.ends_with("Operand `a` has the same type as the instruction type. Operand `done` is a predicate."),
            "{fixed}"
        );
    }

    #[test]
    fn operands_of_a_two_type_form_no_sentence_types_are_found() {
        let syntax = "add{.rnd}.f32.atype d, a, c;\n.atype = { .f16, .bf16 };\n.rnd = { .rn };";
        let f = found(syntax, "Converts input operand `a` from `.atype` into `.f32` type. The result goes to `d`.");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].summary,
            "the Syntax line `add{.rnd}.f32.atype d, a, c;` writes two types, and no sentence says which types `d` \
             and `c` have (of its operands, a sentence types only `a`)"
        );
        // The fix: the others take the type `a` is converted into.
        let fixed = &f[0].repairs[0].new;
        assert!(fixed.ends_with("The result goes to `d`. Operands `d` and `c` have type `.f32`."), "{fixed}");
        assert!(found(syntax, fixed).is_empty());
        let set = "set.CmpOp.dtype.stype d, a, b, {!}c;\n.dtype = { .u32 };\n.stype = { .f16 };";
        let f = found(set, "Operand `c` has type `.pred`.");
        // `.dtype` is named for `d`.
        assert!(f[0].summary.contains("which types `a` and `b` have"), "{}", f[0].summary);
        // No conversion names the operation's type, but the Syntax's own
        // names say whose each type is: the destination's first.
        let fixed = &f[0].repairs[0].new;
        assert!(fixed.ends_with("Operands `a` and `b` have the type a form writes second (`.stype`)."), "{fixed}");
        assert!(found(set, fixed).is_empty());
        // Names that say nothing of whose: no fix.
        let other = set.replace("dtype", "xtype").replace("stype", "ytype");
        assert!(found(&other, "Operand `c` has type `.pred`.")[0].repairs.is_empty());
    }

    #[test]
    fn a_type_named_for_its_operand_a_handle_and_a_vector_type_each_type_their_operand() {
        // `.dtype` types `d` and `.ctype` types `c` by name; a sampler is
        // its own type; `.v2.s32` names an element type.
        let syntax = "tex.geom.v4.dtype.ctype d, [a, b, c], e;\n.dtype = { .u32 };\n.ctype = { .s32 };";
        let description = "Loads from the texture named by operand `a` with the optional sampler `b`. \
                           Operand `e` is a vector of type `.v2.s32`.";
        assert!(found(syntax, description).is_empty(), "{:?}", found(syntax, description));
        // Without the sentence on `e`, it alone is open.
        let f = found(syntax, "Loads from the texture named by operand `a` with the optional sampler `b`.");
        assert!(f[0].summary.contains("which type `e` has"), "{}", f[0].summary);
    }

    /// A chapter of sections, each a one-type Syntax line and a
    /// Description, after an introduction.
    fn chapter(intro: &str, sections: &[(&str, &str)]) -> Vec<Finding> {
        let mut text = format!("### 9.7.1. Integer Arithmetic Instructions\n\n{intro}\n\n");
        for (k, (syntax, description)) in sections.iter().enumerate() {
            let name = syntax.split('.').next().unwrap();
            text += &format!(
                "#### 9.7.1.{}. Integer Arithmetic Instructions: `{name}`\n\n`{name}`\n\nDo.\n\n\
                 Syntax\n\n```\n{syntax}\n```\n\nDescription\n\n{description}\n\n",
                k + 1
            );
        }
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn a_section_that_types_some_operands_leaves_the_others_open() {
        let f =
            chapter("Integer instructions.", &[("szext.type d, a, b;", "Operand `b` is an unsigned 32-bit value.")]);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].summary, "no sentence says which type `d` and `a` have in `szext.type d, a, b;`");
        assert!(f[0].detail[0].contains("a sentence types `b` and none the rest"), "{}", f[0].detail[0]);
        // The fix states the convention for the rest.
        let fixed = &f[0].repairs[0].new;
        assert!(fixed.ends_with("Operands `d` and `a` have the same type as the instruction type."), "{fixed}");
        let f = chapter("Integer instructions.", &[("szext.type d, a, b;", fixed)]);
        assert!(f.is_empty(), "{f:?}");
        // A width far from the name is another thing's: here the result's.
        let f = chapter(
            "Integer instructions.",
            &[(
                "bmsk.b32 d, a, b;",
                "Generates a 32-bit mask from the bit position in operand `a`. Operand `b` is a 32-bit value.",
            )],
        );
        assert_eq!(f[0].summary, "no sentence says which type `d` and `a` have in `bmsk.b32 d, a, b;`");
        // A predicate is never of the instruction's type: saying so leaves
        // the convention standing.
        let f = chapter("Integer instructions.", &[("shfl.b32 d|p, a;", "The predicate `p` is set where it ran.")]);
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn a_section_that_types_none_where_its_chapter_types_is_open() {
        let typed = ("add.type d, a, b;", "Operands `d`, `a` and `b` have type `.type`.");
        let also = ("min.type d, a, b;", "Operands `d`, `a` and `b` have the same type as the instruction type.");
        let silent = ("abs.type d, a;", "Take the absolute value of `a`.");
        let f = chapter("Integer instructions.", &[typed, also, silent]);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].section, "9.7.1.3");
        assert!(f[0].detail[0].contains("2 of the chapter's 3 sections"), "{}", f[0].detail[0]);
        // Where most sections say nothing, the convention holds.
        assert!(chapter("Integer instructions.", &[typed, silent, silent]).is_empty());
        // An introduction that states the rule for every operand settles it.
        let rule = "Unless its section says otherwise, the operands of each instruction have the instruction type.";
        assert!(chapter(rule, &[typed, also, silent]).is_empty());
        // A two-type line too, where the introduction also gives the
        // general format that defines its type sets (9.7.18.1's).
        let two = ("vadd.xtype.ytype d, a;\n.xtype = .ytype = { .u32, .s32 };", "Add.");
        assert_eq!(chapter(rule, &[two]).len(), 1);
        let format = format!("{rule}\n\n```\nvop.xtype.ytype d, a;\n.xtype = .ytype = {{ .u32, .s32 }};\n```");
        assert!(chapter(&format, &[two]).is_empty());
    }

    #[test]
    fn one_type_forms_and_typed_operands_are_not_found() {
        assert!(found("add.f32 d, a, b;", "Adds.").is_empty());
        assert!(found(
            "add.f32.atype d, a, c;\n.atype = { .f16 };",
            "Operand `d` has type `.f32`. Operand `a` has type `.atype`, and `c` is a 32-bit value."
        )
        .is_empty());
        // A set of rounding modes is no type.
        assert!(found("add.rnd.f32 d, a, b;\n.rnd = { .rn, .rz };", "Adds.").is_empty());
        // A width in two words types the name beside it.
        assert!(width_beside("It reads the 32 bit source register src.", "src"));
        assert!(!width_beside("It reads 32 bits of many other registers and then src.", "src"));
    }
}
