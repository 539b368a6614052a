//! The sign of a zero at a clamp. A floating-point result clamped to a
//! range that starts at zero (`.sat`: `[0.0, 1.0]`) or to zero where it is
//! negative (`.relu`) has two zeros to meet: -0.0 lies in `[0.0, 1.0]` as a
//! value, and is below +0.0 by its sign bit, so a -0.0 result is kept by
//! one reading and made +0.0 by the other. Where the section's prose
//! states the clamp and no sentence of it says what a -0.0 result becomes,
//! the result's bits are open: one finding per section, with both results
//! in the bits of the clamped type. Integer clamps (`min.relu.s32`) have one
//! zero and are not asked about.

use super::document::{BlockKind, Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The floating-point types and the bits of their -0.0 and +0.0.
const ZEROS: [(&str, &str, &str); 7] = [
    ("bf16x2", "0x8000", "0x0000"),
    ("bf16", "0x8000", "0x0000"),
    ("f16x2", "0x8000", "0x0000"),
    ("f16", "0x8000", "0x0000"),
    ("f32x2", "0x80000000", "0x00000000"),
    ("f32", "0x80000000", "0x00000000"),
    ("f64", "0x8000000000000000", "0x0000000000000000"),
];

/// The type names a text writes, as words (`f16` of `add.sat.{f16, f16x2}`,
/// `u32` of `.u32`), in order.
fn type_names(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| super::captions::type_word(w).is_some())
        .map(str::to_string)
        .collect()
}

/// Whether a line states a clamp at zero: to `[0.0, ...]`, or to 0 where
/// negative.
fn clamps_at_zero(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("clamp") && (lower.contains("[0.0,") || lower.contains("to 0 if negative"))
}

/// Whether a line speaks of a negative zero at a clamp: `+/-0.0` of an
/// operand (mad's `c = +/-0.0`) says nothing of what a clamp does.
fn names_negative_zero(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let zero = (lower.contains("-0.0") && !lower.contains("+/-0")) || lower.contains("negative zero");
    zero && ["clamp", "sat", "relu"].iter().any(|w| lower.contains(w))
}

fn section(s: &Section) -> Vec<Finding> {
    let Some(syntax) = s.block(BlockKind::Syntax) else { return Vec::new() };
    let prose: Vec<&Line> = [BlockKind::Description, BlockKind::Notes]
        .iter()
        .filter_map(|k| s.block(*k))
        .flat_map(|b| b.lines.iter().filter(|l| !l.code))
        .collect();
    if prose.iter().any(|l| names_negative_zero(&l.text)) {
        return Vec::new();
    }
    let syntax_types: Vec<String> = syntax.code().flat_map(|l| type_names(&l.text)).collect();
    let clamps: Vec<&&Line> = prose.iter().filter(|l| clamps_at_zero(&l.text)).collect();
    let Some(line) = clamps.first() else { return Vec::new() };
    // The types the clamp is stated for, else the Syntax's.
    let stated = type_names(&line.text);
    let types = if stated.is_empty() { syntax_types } else { stated };
    // An integer type among them: the clamp may be an integer's.
    let integer = |t: &String| t.starts_with(['u', 's']) || (t.starts_with('b') && !t.starts_with("bf"));
    if types.iter().any(integer) {
        return Vec::new();
    }
    // The first it names: the destination's, where the Syntax writes it first.
    let Some((ty, minus, plus)) = types.iter().find_map(|t| ZEROS.iter().find(|(z, _, _)| z == t)) else {
        return Vec::new();
    };
    let said = |l: &Line| l.text.trim().trim_start_matches(':').trim().to_string();
    let text = said(line);
    let mut f = Finding::of_text(
        format!("text-zero-{}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        text.clone(),
        format!(
            "the prose clamps a floating-point result at zero and never says what a -0.0 result becomes: kept as a \
             value within the range, or made +0.0 by its sign (`.{ty}`: {minus} or {plus})"
        ),
        clamps
            .iter()
            .map(|l| format!("{}:{}: \"{}\"", s.file, l.number, said(l)))
            .chain([format!(
                "A result of -0.0 (the sum of -0.0 and -0.0, or a negative result too small for the type) is \
                 {minus} if the clamp compares values, as -0.0 == 0.0, and {plus} if it clamps everything below \
                 +0.0. No sentence of section {} speaks of -0.0.",
                s.number
            )])
            .chain([PROPOSED.to_string()])
            .collect(),
    );
    // The fix: a sentence after the clamp's, where its line ends the sentence.
    let old = line.text.trim_end();
    if old.ends_with('.') {
        f.repairs = vec![Repair { line: line.number, old: old.to_string(), new: format!("{old} {STATED}") }];
    }
    vec![f]
}

/// The sentence the fix adds: one of the two readings, stated.
const STATED: &str = "A clamp makes a -0.0 result +0.0.";

/// What the fix is and is not.
const PROPOSED: &str = "The proposed edit states one reading, that a clamp makes -0.0 +0.0; a sentence that keeps \
                        -0.0 serves as well. Which one the hardware follows is the vendor's to say.";

/// Every section that clamps a floating-point result at zero and leaves
/// the sign of a zero result open.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, notes: &str) -> Vec<Finding> {
        let text = format!(
            "#### 9.7.4.1. Half Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nDescription\n\nAdds.\n\nNotes\n\n{notes}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn a_clamp_at_zero_that_leaves_the_sign_of_zero_open_is_found() {
        let f = found("add{.sat}.f32 d, a, b;", "`add.sat.f32` clamps the result to [0.0, 1.0].");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].id, "text-zero-9.7.4.1");
        assert!(f[0].summary.ends_with("(`.f32`: 0x80000000 or 0x00000000)"), "{}", f[0].summary);
        // The types the sentence names come before the Syntax's.
        let relu = found("fma.relu.type d, a, b, c;", "`fma.relu.{f16, bf16}` clamps the result to 0 if negative.");
        assert!(relu[0].summary.ends_with("(`.f16`: 0x8000 or 0x0000)"), "{}", relu[0].summary);
        // The fix states one reading after the clamp's sentence, and the
        // pass reads the sentence as speaking of -0.0.
        let r = &f[0].repairs[0];
        assert_eq!(r.new, format!("{} A clamp makes a -0.0 result +0.0.", r.old));
        assert!(found("add{.sat}.f32 d, a, b;", &r.new).is_empty());
        assert!(f[0].detail.iter().any(|d| d.contains("the vendor's to say")));
    }

    #[test]
    fn integer_clamps_and_stated_zeros_are_not_found() {
        assert!(found("min.relu.s32 d, a, b;", "`min.relu.s32` clamps the result to 0 if negative.").is_empty());
        assert!(found(
            "add{.sat}.f32 d, a, b;",
            "`add.sat.f32` clamps the result to [0.0, 1.0]. A -0.0 result is made +0.0."
        )
        .is_empty());
        assert!(found("add.f32 d, a, b;", "Adds, and rounds.").is_empty());
        // A -0.0 of an operand says nothing of the clamp.
        let mad = found(
            "mad.sat.f32 d, a, b, c;",
            "When `c = +/-0.0`, it is mul.\n\n`mad.sat.f32` clamps the result to [0.0, 1.0].",
        );
        assert_eq!(mad.len(), 1);
    }
}
