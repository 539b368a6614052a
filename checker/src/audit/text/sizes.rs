//! Sizes the prose works out: a sentence that gives a result as twice the
//! size of the operands and names the number (`twice the size of the input
//! operands, i.e., 48-bits`) is checked against the widths of the types
//! the Syntax gives the operands. Where no type's width doubles to the
//! number, "the operands" means something the types do not (mul24's
//! 24-bit values in 32-bit registers), and a sentence of the same section
//! that calls every operand the same size reads the word the other way.

use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind};

/// The widths of the types a Syntax block's lines name (`.u32` and `.s32`:
/// 32), in order, each once.
fn syntax_widths(s: &Section) -> Vec<u32> {
    let mut out = Vec::new();
    for l in s.block(BlockKind::Syntax).into_iter().flat_map(|b| b.code()) {
        for w in l.text.split(|c: char| !c.is_ascii_alphanumeric()) {
            let Some(t) = super::captions::type_word(w) else { continue };
            let (base, lanes) = t.split_once('x').map_or((t.as_str(), 1), |(b, n)| (b, n.parse().unwrap_or(1)));
            let bits: u32 = base.trim_start_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(0);
            if bits > 0 && !out.contains(&(bits * lanes)) {
                out.push(bits * lanes);
            }
        }
    }
    out
}

/// `twice the size of the input operands, i.e., 48-bits`: the words from
/// `twice` to the last number of bits, and that number; `None` where the
/// sentence names the halved width too (`the 24-bit values ..., i.e., 48
/// bits`), for then it says what the operands are.
fn doubled(sentence: &str) -> Option<(String, u32)> {
    let at = sentence.find("twice the size of").or_else(|| sentence.find("twice the width of"))?;
    let rest = &sentence[at..];
    // Each number of bits after `twice`: (its value, where it ends).
    let mut sizes: Vec<(u32, usize)> = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let c = rest.as_bytes()[i];
        let starts = c.is_ascii_digit() && (i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let digits: String = rest[i..].chars().take_while(char::is_ascii_digit).collect();
        let after = &rest[i + digits.len()..];
        if let (Some(unit), Ok(n)) =
            (["-bits", "-bit", " bits"].iter().find(|u| after.starts_with(**u)), digits.parse())
        {
            sizes.push((n, i + digits.len() + unit.len()));
        }
        i += digits.len();
    }
    let &(n, end) = sizes.last()?;
    if sizes.iter().any(|(m, _)| 2 * m == n) {
        return None;
    }
    Some((rest[..end].to_string(), n))
}

fn section(s: &Section) -> Vec<Finding> {
    let widths = syntax_widths(s);
    if widths.is_empty() {
        return Vec::new();
    }
    let all = super::typing::sentences(s);
    let mut out = Vec::new();
    for sentence in &all {
        let Some((fragment, n)) = doubled(sentence) else { continue };
        if widths.iter().any(|w| 2 * w == n) {
            continue;
        }
        let names: Vec<String> = widths.iter().map(|w| format!("{w}")).collect();
        let same = all.iter().find(|t| t.contains("same type and size") || t.contains("same size"));
        let mut detail = vec![format!(
            "The Syntax gives the operands types of {} bits, and twice that is {}, not {n}: \"the operands\" here \
             are values of {} bits, which no type of the Syntax has.",
            names.join(" or "),
            widths.iter().map(|w| (2 * w).to_string()).collect::<Vec<_>>().join(" or "),
            n / 2
        )];
        if let Some(t) = same {
            detail.push(format!(
                "The section also says \"{}\", which holds only of the types' {} bits.",
                t.trim_end_matches('.'),
                names.join(" or ")
            ));
        }
        let mut f = Finding::of_text(
            format!("text-size-{}-twice-{n}", s.number),
            s.number.clone(),
            FindingKind::Conflict,
            fragment.clone(),
            format!(
                "\"{fragment}\": the operands' types are {} bits by the Syntax, twice that is not {n}",
                names.join(" or ")
            ),
            detail,
        );
        if let Some(t) = same {
            f.also_quotes.push(t.trim_end_matches('.').to_string());
        }
        out.push(f);
    }
    out
}

/// Every size the prose doubles to a number the operands' types do not
/// give, each once.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::{parse_any, Document};
    use super::check;

    fn found(syntax: &str, notes: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.1.5. Integer Arithmetic Instructions: `mul24`\n\nSyntax\n\n```\n{syntax}\n```\n\nNotes\n\n{notes}\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| f.fragment).collect()
    }

    #[test]
    fn a_doubled_size_is_checked_against_the_operand_types() {
        let syntax = "mul24.mode.type  d, a, b;\n.type = { .u32, .s32 };";
        assert_eq!(
            found(
                syntax,
                "A result twice the size of the input operands, i.e., 48-bits. All operands are of the same size."
            ),
            ["twice the size of the input operands, i.e., 48-bits"]
        );
        // Twice 32 is 64: no finding; no number: nothing to check.
        assert!(found(syntax, "A result twice the size of the input operands, i.e., 64 bits.").is_empty());
        assert!(found(syntax, "A result twice the size of the input operands.").is_empty());
        // The halved width named: the sentence says what the operands are.
        assert!(found(syntax, "A result twice the size of the 24-bit values, i.e., 48 bits.").is_empty());
    }
}
