//! Example comments against the instructions they describe. A comment on a
//! line of its own in an Examples block captions the lines after it, up to
//! the next such comment, and speaks for certain of the first instruction
//! of each paragraph under it; a comment after an instruction speaks of
//! that instruction. Where a comment names a type (`f16`, `fp16`, `bf16x2`) or
//! calls its instructions `scalar` or `SIMD`, each instruction of the
//! section's own opcode it speaks of must be of that type and that shape:
//! `// scalar bf16 max` over `max.NaN.bf16x2` says something false of the
//! example. Other opcodes (the `cvt`, `ld` and `mov` that set up operands)
//! are not the comment's subject.

use super::document::{BlockKind, Document, Section};
use super::units::{collapse, split_comment};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// A type a comment or an instruction names: `f16`, `bf16x2`, `s32`,
/// `b128`, `e4m3`. `fp16` is the comments' spelling of `f16`. The one
/// reader of type names every pass uses.
pub(super) fn type_word(word: &str) -> Option<String> {
    let w = word.to_lowercase();
    let w = w.strip_prefix("fp").map(|rest| format!("f{rest}")).unwrap_or(w);
    let base = w.split_once('x').map_or(w.as_str(), |(b, lanes)| if lanes.parse::<u32>().is_ok() { b } else { "" });
    let kind = base.trim_end_matches(|c: char| c.is_ascii_digit());
    let bits = &base[kind.len()..];
    let plain = match kind {
        "f" | "s" | "u" => matches!(bits, "8" | "16" | "32" | "64"),
        "b" => matches!(bits, "8" | "16" | "32" | "64" | "128"),
        "bf" => bits == "16",
        "tf" => bits == "32",
        _ => false,
    };
    // The narrow floating-point types name their exponent and mantissa bits.
    let minifloat = matches!(base, "e4m3" | "e5m2" | "e2m3" | "e3m2" | "e2m1" | "ue8m0" | "ue4m3");
    (plain || minifloat).then_some(w)
}

/// The element type of a type, without its lanes: `bf16` of `bf16x2`.
fn element(t: &str) -> &str {
    t.split_once('x').map_or(t, |(b, _)| b)
}

fn packed(t: &str) -> bool {
    t.contains('x')
}

/// What a comment says of the instructions it speaks of.
#[derive(Debug, Default, PartialEq, Eq)]
struct Says {
    types: Vec<String>,
    scalar: bool,
    simd: bool,
}

fn says(comment: &str) -> Says {
    let words: Vec<&str> = comment
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_end_matches('.'))
        .collect();
    // A qualifier with its dot (`cnt is .u32`) is an operand's type, not
    // the instruction's.
    let mut types: Vec<String> = words.iter().filter(|w| !w.starts_with('.')).filter_map(|w| type_word(w)).collect();
    types.dedup();
    let has = |w: &str| words.iter().any(|x| x.eq_ignore_ascii_case(w));
    Says { types, scalar: has("scalar"), simd: has("simd") || has("packed") }
}

/// Why a comment is false of an instruction whose type qualifiers are
/// `types`, with the edit of the comment that makes it true.
fn contradiction(said: &Says, types: &[String], comment: &str) -> Option<(String, Option<(String, String)>)> {
    if types.is_empty() {
        return None;
    }
    let any_packed = types.iter().any(|t| packed(t));
    if said.scalar && any_packed {
        return Some(("a packed form".into(), Some(("scalar".into(), "SIMD".into()))));
    }
    if said.simd && !any_packed {
        return Some(("a scalar form".into(), None));
    }
    // Every type the comment names must be one of the instruction's, or
    // the element type of one (`f16` over `.f16x2`).
    let wrong =
        said.types.iter().find(|t| !types.iter().any(|u| u == *t || (!packed(t) && element(u) == t.as_str())))?;
    let fix = (types.len() == 1).then(|| {
        let written =
            comment.split(|c: char| !c.is_ascii_alphanumeric()).find(|w| type_word(w).as_ref() == Some(wrong));
        let new = if packed(wrong) { types[0].clone() } else { element(&types[0]).to_string() };
        (written.unwrap_or(wrong).to_string(), new)
    });
    Some((format!("of type `.{}`", types.join("`, `.")), fix))
}

/// An instruction line of the section's opcode: its text and the type
/// qualifiers of its mnemonic.
fn instruction<'a>(code: &'a str, opcode: &str) -> Option<(&'a str, Vec<String>)> {
    let body = crate::ptx::parse::without_guard(code).trim();
    let mnemonic = body.split_whitespace().next()?;
    let mut parts = mnemonic.trim_end_matches(';').split('.');
    (parts.next()? == opcode).then(|| (body, parts.filter_map(type_word).collect()))
}

/// A comment and the instructions of the section's opcode it speaks of:
/// their lines, texts and type qualifiers.
struct Speaker {
    line: usize,
    comment: String,
    caption: bool,
    instructions: Vec<(usize, String, Vec<String>)>,
    /// For a caption, the first line of each paragraph whose instruction it
    /// speaks of, in the order of `instructions`: (number, text).
    paragraphs: Vec<(usize, String)>,
}

fn speakers(s: &Section, opcode: &str) -> Vec<Speaker> {
    let mut out: Vec<Speaker> = Vec::new();
    let Some(b) = s.block(BlockKind::Examples) else { return out };
    // The caption in force, by its index in `out`.
    let mut caption: Option<usize> = None;
    // Whether the paragraph (lines between blank lines) has shown an
    // instruction of the opcode yet.
    let mut shown = false;
    let mut open = false;
    // The first line of the paragraph, where it is no caption.
    let mut first: Option<(usize, String)> = None;
    for l in b.code() {
        if l.text.trim().is_empty() {
            shown = false;
            first = None;
            continue;
        }
        let parts = split_comment(&l.text, &mut open);
        let code: String = parts.iter().filter(|(c, _)| !c).map(|(_, t)| t.as_str()).collect();
        let comment: String = parts.iter().filter(|(c, _)| *c).map(|(_, t)| t.as_str()).collect();
        if code.trim().is_empty() {
            if !comment.trim().is_empty() {
                caption = Some(out.len());
                shown = false;
                first = None;
                let paragraphs = Vec::new();
                out.push(Speaker { line: l.number, comment, caption: true, instructions: Vec::new(), paragraphs });
            }
            continue;
        }
        let first = first.get_or_insert_with(|| (l.number, l.text.clone())).clone();
        let Some((body, types)) = instruction(&code, opcode) else { continue };
        let at = (l.number, body.to_string(), types);
        // A caption speaks for certain of the first instruction of each
        // paragraph under it: the later lines of a paragraph may be
        // examples it does not describe (`// SIMD f16 max with .NaN` over
        // `max.NaN.f16x2` and then `max.bf16`).
        if let Some(k) = caption.filter(|_| !shown) {
            out[k].instructions.push(at.clone());
            out[k].paragraphs.push(first);
        }
        shown = true;
        if !comment.trim().is_empty() {
            let paragraphs = Vec::new();
            out.push(Speaker { line: l.number, comment, caption: false, instructions: vec![at], paragraphs });
        }
    }
    out
}

fn section(s: &Section) -> Vec<Finding> {
    let Some(opcode) = s.opcode() else { return Vec::new() };
    let opcode = opcode.split('.').next().unwrap_or_default().to_string();
    let mut out = Vec::new();
    for sp in speakers(s, &opcode) {
        let said = says(&sp.comment);
        let judged: Vec<Judged> = sp
            .instructions
            .iter()
            .map(|(line, body, types)| (line, body, contradiction(&said, types, &sp.comment)))
            .collect();
        let Some((line, body, Some((why, fix)))) = judged.iter().find(|(_, _, c)| c.is_some()) else { continue };
        // The comment's edit where it is false of every instruction it
        // speaks of, and in the same way.
        let same = judged.iter().all(|(_, _, c)| c.as_ref().is_some_and(|(_, f)| f == fix));
        let shown = collapse(sp.comment.trim());
        let mut f = Finding::of_text(
            format!("text-caption-{}-{}", s.number, sp.line),
            s.number.clone(),
            FindingKind::ClaimRefuted,
            shown.clone(),
            format!(
                "the comment `{shown}` {} `{}`, {why}",
                if sp.caption { "heads" } else { "is on" },
                body.trim_end_matches(';')
            ),
            vec![format!("{}:{}: `{shown}`; {}:{line}: `{body}`", s.file, sp.line, s.file)],
        );
        f.repairs = match fix {
            Some((old, new)) if same => vec![Repair { line: sp.line, old: old.clone(), new: new.clone() }],
            // A caption true of the first paragraph under it: the paragraphs
            // it is false of get a caption of their own, its word edited.
            Some(_) if sp.caption && judged[0].2.is_none() => new_captions(&sp, &judged),
            _ => Vec::new(),
        };
        out.push(f);
    }
    out
}

/// An instruction a comment speaks of (its line and text), and why the
/// comment is false of it, with the comment's edit, where it is.
type Judged<'a> = (&'a usize, &'a String, Option<(String, Option<(String, String)>)>);

/// The fix of a caption false of some paragraphs under it: before each, a
/// caption of its own, the caption's words with the one the paragraph's
/// instruction contradicts edited (`// SIMD fp16 addition` over
/// `add.bf16x2` gets `// SIMD bf16 addition`). None where a contradiction
/// has no such edit.
fn new_captions(sp: &Speaker, judged: &[Judged]) -> Vec<Repair> {
    let mut out = Vec::new();
    let caption = sp.comment.trim();
    for ((_, _, c), (line, text)) in judged.iter().zip(&sp.paragraphs) {
        let Some((_, fix)) = c else { continue };
        let Some((old, new)) = fix else { return Vec::new() };
        let indent: String = text.chars().take_while(|c| c.is_whitespace()).collect();
        let edited = caption.replacen(old.as_str(), new, 1);
        let first = text.trim_end();
        out.push(Repair { line: *line, old: first.to_string(), new: format!("{indent}{edited}\n{first}") });
    }
    out
}

/// Every comment of the Examples blocks that a type or shape of an
/// instruction it speaks of contradicts, once per comment.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    #[test]
    fn a_caption_false_of_a_later_paragraph_gets_one_of_its_own_there() {
        let text = "#### 9.7.4.1. Half Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
                    Examples\n\n```\n// SIMD fp16 addition\nld.b32 f0, [a];\nadd.f16x2 f2, f0, f1;\n\n\
                    ld.b32 f3, [a];\nadd.bf16x2 f5, f3, f4;\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let f = check(&doc);
        assert_eq!(f.len(), 1);
        let fix: Vec<(&str, &str)> = f[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("ld.b32 f3, [a];", "// SIMD bf16 addition\nld.b32 f3, [a];")]);
    }

    fn found(examples: &str) -> Vec<(String, Option<(String, String)>)> {
        let text = format!(
            "#### 9.7.4.8. Half Precision Floating Point Instructions: `max`\n\n`max`\n\nMaximum.\n\n\
             Examples\n\n```\n{examples}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().next().map(|r| (r.old, r.new)))).collect()
    }

    #[test]
    fn type_words_are_read_from_comments() {
        assert_eq!(says("// SIMD fp16 max with NaN").types, ["f16"]);
        assert_eq!(says("// pack two f16 to 32bit f16x2").types, ["f16", "f16x2"]);
        assert!(says("// scalar bf16 max").scalar);
        assert_eq!(type_word("x2"), None);
        assert_eq!(type_word("b0"), None);
        assert_eq!(type_word("u8x4").as_deref(), Some("u8x4"));
    }

    #[test]
    fn a_caption_is_read_against_the_instructions_under_it() {
        let f = found(
            "max.ftz.f16 h0,h1,h2;\n// scalar bf16 max and NaN\nmax.NaN.bf16x2 b0, b1, b2;\n\
             // SIMD f16 max\nmov.b32 p1, {h0, h1};\nmax.f16x2 b0,b1,b2;\n// SIMD fp16 max\nmax.bf16x2 b0,b1,b2;\n",
        );
        assert_eq!(
            f,
            [
                (
                    "the comment `// scalar bf16 max and NaN` heads `max.NaN.bf16x2 b0, b1, b2`, a packed form".into(),
                    Some(("scalar".into(), "SIMD".into()))
                ),
                (
                    "the comment `// SIMD fp16 max` heads `max.bf16x2 b0,b1,b2`, of type `.bf16x2`".into(),
                    Some(("fp16".into(), "bf16".into()))
                )
            ]
        );
    }

    /// Later lines of a caption's paragraph may be other examples; a typed
    /// qualifier in a comment is an operand's type.
    #[test]
    fn what_a_comment_does_not_speak_of() {
        assert!(found("// scalar f16 max\nmax.f16 d0, a0, b0;\nmax.bf16 d1, a1, b1;\n").is_empty());
        assert!(found("max.s64 cnt, X; // cnt is .u32\n").is_empty());
    }

    /// A caption stays in force over a blank line, up to the next one; an
    /// instruction's own comment speaks of it alone.
    #[test]
    fn a_caption_holds_to_the_next_and_a_line_comment_to_its_line() {
        let f = found(
            "// SIMD fp16 max\nmax.f16x2 f2, f0, f1;\n\nmax.bf16x2 f5, f3, f4; // SIMD bf16x2 max\n\
             max.bf16 f5, f3, f4; // SIMD bf16x2 max\n",
        );
        assert_eq!(
            f,
            [
                (
                    "the comment `// SIMD fp16 max` heads `max.bf16x2 f5, f3, f4`, of type `.bf16x2`".into(),
                    // True of the first paragraph: the second gets its own.
                    Some((
                        "max.bf16x2 f5, f3, f4; // SIMD bf16x2 max".into(),
                        "// SIMD bf16 max\nmax.bf16x2 f5, f3, f4; // SIMD bf16x2 max".into()
                    ))
                ),
                ("the comment `// SIMD bf16x2 max` is on `max.bf16 f5, f3, f4`, a scalar form".into(), None),
            ]
        );
    }
}
