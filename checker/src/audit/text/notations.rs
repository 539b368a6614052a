//! Notations of the Semantics blocks that are not C, and that no sentence
//! defines: the absolute value written with bars (`d = |a|`), and bit
//! ranges, which the blocks write three ways (`a[0:15]` with the low bit
//! first, `b[4:0]` with the high bit first, `t<47..16>`). Read as C, `|a|`
//! does not parse, `a[0:15]` is no expression and `t<47..16>` compares;
//! read as notation, whether a range is inclusive and which end is bit 0 is
//! the reader's guess, and a block that writes the low bit first beside
//! one that writes it last says it twice, differently. A notation counts
//! as defined where a sentence of the section's Description or Notes, or
//! of its chapter's introduction, writes it in code (`` `x[j:i]` is bits i
//! through j of x ``). One finding per section, naming each notation the
//! block uses with its first site, and the other ways the document writes
//! a bit range. A single bit is written as an index (`a[pos+i]` in bfe,
//! `mask[base]` in fns): read as C, a register or a value set from one is
//! a scalar and takes no index, and which end is bit 0 is again the
//! reader's guess. An index counts as a bit only where the indexed name is
//! an operand of the Syntax, or a variable set to one, in a section with
//! no packed type (there `d[i]` is an element: `lanes.rs`), and only in a
//! block that does not name its top index `msb` (brev, bfe, bfi): there
//! `a[msb]` is the most significant bit, so the order is the block's own
//! and the index reads as plain notation.

use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// A notation of the blocks that C does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notation {
    /// `|a|`: the absolute value.
    Bars,
    /// `a[0:15]`, `b[4:0]`: a range of bits in brackets.
    Brackets,
    /// `t<47..16>`: a range of bits in angle brackets.
    Angles,
    /// `a[pos+i]`: one bit of a scalar, as an index.
    BitIndex,
    /// `.u32 d = 0;`: a variable declared with a PTX type, which C does not
    /// have.
    PtxTypeDeclaration,
}

impl Notation {
    fn name(self) -> &'static str {
        match self {
            Notation::Bars => "bars for the absolute value",
            Notation::Brackets => "a bit range in brackets",
            Notation::Angles => "a bit range in angle brackets",
            Notation::BitIndex => "a bit of a scalar as an index",
            Notation::PtxTypeDeclaration => "a declaration with a PTX type",
        }
    }

    /// Whether it writes a range of bits, not one bit or a value.
    fn is_range(self) -> bool {
        matches!(self, Notation::Brackets | Notation::Angles)
    }
}

/// Whether `c` may stand in a bound of a bit range: `0`, `15`, `2n-1`.
fn bound_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | ' ')
}

/// The most characters read between bars: an absolute value is a short
/// expression, and a bound keeps a line of many bars linear.
const BARS_WINDOW: usize = 80;

/// Every notation of a line of code, each with the text it is written as.
/// Each opener reads ahead only as far as its notation can reach, so a
/// line of any length is read in time linear in its length.
fn notations(line: &str) -> Vec<(Notation, String)> {
    let code = line.split("//").next().unwrap_or_default().split("/*").next().unwrap_or_default();
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let after_name = |k: usize| k > 0 && is_name(chars[k - 1]);
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        match c {
            '[' | '<' if after_name(k) => {
                let (close, sep, kind) =
                    if c == '[' { (']', ":", Notation::Brackets) } else { ('>', "..", Notation::Angles) };
                // A bound holds only `bound_char`s, so the range ends at the
                // first character that is neither one nor a separator.
                let len = chars[k + 1..].iter().take_while(|&&x| bound_char(x) || x == ':' || x == '.').count();
                if chars.get(k + 1 + len) == Some(&close) {
                    let inside: String = chars[k + 1..k + 1 + len].iter().collect();
                    let ok = inside.split_once(sep).is_some_and(|(lo, hi)| {
                        !lo.trim().is_empty() && !hi.trim().is_empty() && lo.chars().chain(hi.chars()).all(bound_char)
                    });
                    if ok {
                        let from = chars[..k].iter().rev().take_while(|&&x| is_name(x)).count();
                        let name: String = chars[k - from..k].iter().collect();
                        out.push((kind, format!("{name}{c}{inside}{close}")));
                    }
                }
            }
            '|' => {
                let single = chars.get(k + 1) != Some(&'|') && (k == 0 || chars[k - 1] != '|');
                let before = chars[..k].iter().rev().find(|c| !c.is_whitespace());
                let opens = before.is_none_or(|b| "=(+-*,?:".contains(*b));
                if single && opens {
                    let window = &chars[k + 1..chars.len().min(k + 1 + BARS_WINDOW)];
                    let end = window.iter().position(|&x| x == '|');
                    if let Some(end) = end.filter(|&e| chars.get(k + 2 + e) != Some(&'|')) {
                        let inside: String = window[..end].iter().collect();
                        if !inside.trim().is_empty() {
                            out.push((Notation::Bars, format!("|{inside}|")));
                            k += end + 1;
                        }
                    }
                }
            }
            '.' if k == 0 || !(is_name(chars[k - 1]) || chars[k - 1] == '.') => {
                // A PTX type (`.u32`, `.s64`, `.b16`) before a name: a
                // declaration. `.type==.b32` compares and is left alone.
                let word: String = chars[k + 1..].iter().take_while(|&&x| is_name(x)).collect();
                let rest = &chars[k + 1 + word.len()..];
                let gap = rest.iter().take_while(|x| x.is_whitespace()).count();
                let is_type = word.len() >= 2
                    && matches!(word.as_bytes()[0], b'u' | b's' | b'b')
                    && word[1..].parse::<u32>().is_ok_and(|w| [8, 16, 32, 64].contains(&w));
                let named = rest.get(gap).is_some_and(|x| x.is_ascii_alphabetic() || *x == '_');
                if is_type && gap > 0 && named {
                    let name: String = rest[gap..].iter().take_while(|&&x| is_name(x)).collect();
                    out.push((Notation::PtxTypeDeclaration, format!(".{word} {name}")));
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// Every index of a line of code, `name[expr]` with no range in it, with
/// the name and the text it is written as: `("a", "a[pos+i]")`.
fn indices(line: &str) -> Vec<(String, String)> {
    let code = line.split("//").next().unwrap_or_default();
    let mut out = Vec::new();
    for (k, _) in code.match_indices('[') {
        let name: String = code[..k].chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let name: String = name.chars().rev().collect();
        let Some(len) = code[k + 1..].find(']') else { continue };
        let inside = &code[k + 1..k + 1 + len];
        let simple = inside.chars().all(|c| c.is_ascii_alphanumeric() || "_+-* ".contains(c));
        if name.starts_with(|c: char| c.is_ascii_alphabetic()) && !inside.trim().is_empty() && simple {
            out.push((name.clone(), format!("{name}[{inside}]")));
        }
    }
    out
}

/// Whether a Syntax names a packed type of any element: `.s16x2`,
/// `.f32x2`, `.bf16x2`, `.e4m3x2`.
fn packed(syntax: &str) -> bool {
    syntax.split('.').skip(1).any(|t| {
        let word: String = t.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        word.rsplit_once('x').is_some_and(|(element, lanes)| {
            element.ends_with(|c: char| c.is_ascii_digit())
                && !lanes.is_empty()
                && lanes.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

/// The scalars of a section a block may index by bit: the operands of its
/// Syntax and the variables the block sets to one (`f = b;`). None where
/// the Syntax names a packed type, whose elements the blocks index.
fn scalars(s: &Section) -> Vec<String> {
    let syntax: String =
        s.block(BlockKind::Syntax).map_or(String::new(), |b| b.code().map(|l| l.text.as_str()).collect());
    if packed(&syntax) {
        return Vec::new();
    }
    // A name with a length is a sequence (brx.idx's `tlist`), not a scalar.
    let text: String = s.all_lines().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n");
    let sequence = |n: &str| text.contains(&format!("length({n})")) || text.contains(&format!("length of `{n}`"));
    let mut out: Vec<String> = super::declarations::operands(s).into_iter().filter(|n| !sequence(n)).collect();
    out.sort();
    for b in s.blocks.iter().filter(|b| b.kind == BlockKind::Semantics) {
        for l in b.code() {
            let code = l.text.split("//").next().unwrap_or_default().trim();
            let Some((lhs, rhs)) = code.trim_end_matches(';').split_once('=') else { continue };
            let (lhs, rhs) = (lhs.trim(), rhs.trim());
            let name = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if name(lhs) && name(rhs) && out.iter().any(|o| o == rhs) && !out.iter().any(|o| o == lhs) {
                out.push(lhs.to_string());
            }
        }
    }
    out
}

/// The notations the prose defines for a section: those written in a code
/// span of its Description or Notes, or of its chapter's introduction.
fn defined(doc: &Document, s: &Section) -> Vec<Notation> {
    let mut lines: Vec<&str> = Vec::new();
    for b in s.blocks.iter().filter(|b| matches!(b.kind, BlockKind::Description | BlockKind::Notes)) {
        lines.extend(b.lines.iter().filter(|l| !l.code).map(|l| l.text.as_str()));
    }
    let chapter = s.number.rsplit_once('.').map_or("", |(c, _)| c);
    if let Some(intro) = doc.sections.iter().find(|x| x.number == chapter) {
        lines.extend(intro.intro.iter().map(|l| l.text.as_str()));
    }
    let spans: Vec<&str> = lines.iter().flat_map(|l| l.split('`').skip(1).step_by(2)).collect();
    let mut out: Vec<Notation> = spans.iter().flat_map(|t| notations(t)).map(|(n, _)| n).collect();
    if spans.iter().any(|t| !indices(t).is_empty()) {
        out.push(Notation::BitIndex);
    }
    out
}

/// The notations a section's Semantics block uses, each with its first
/// site, in the order the block first uses them.
fn used(s: &Section) -> Vec<(Notation, String)> {
    let mut out: Vec<(Notation, String)> = Vec::new();
    let names_msb = s
        .blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Semantics)
        .flat_map(|b| b.code())
        .any(|l| l.text.trim_start().starts_with("msb") && l.text.contains('='));
    let scalars = if names_msb { Vec::new() } else { scalars(s) };
    for b in s.blocks.iter().filter(|b| b.kind == BlockKind::Semantics) {
        for l in b.code() {
            let bits = indices(&l.text).into_iter().filter(|(name, _)| scalars.contains(name));
            let found = notations(&l.text).into_iter().chain(bits.map(|(_, text)| (Notation::BitIndex, text)));
            for (n, text) in found {
                if !out.iter().any(|(m, _)| *m == n) {
                    out.push((n, text));
                }
            }
        }
    }
    out
}

/// Which end a bracketed range writes first, where its bounds are numbers.
fn low_first(text: &str) -> Option<bool> {
    let inside = text.split_once('[')?.1.trim_end_matches(']');
    let (a, b) = inside.split_once(':')?;
    Some(a.trim().parse::<u32>().ok()? < b.trim().parse::<u32>().ok()?)
}

fn section(doc: &Document, s: &Section, ranges: &[(String, String)]) -> Vec<Finding> {
    let known = defined(doc, s);
    let open: Vec<(Notation, String)> = used(s).into_iter().filter(|(n, _)| !known.contains(n)).collect();
    let Some((_, first)) = open.first() else { return Vec::new() };
    let kinds: Vec<String> = open.iter().map(|(n, _)| n.name().to_string()).collect();
    let sites: Vec<String> = open.iter().map(|(_, t)| format!("`{t}`")).collect();
    // The other ways the document writes a bit range, one site each.
    let mine: Vec<&String> = open.iter().filter(|(n, _)| n.is_range()).map(|(_, t)| t).collect();
    let order = |t: &str| (t.contains('<'), low_first(t));
    let others: Vec<String> = ranges
        .iter()
        .filter(|(n, t)| n != &s.number && !mine.iter().any(|m| order(m) == order(t)))
        .fold(Vec::<(String, String)>::new(), |mut acc, (n, t)| {
            if !acc.iter().any(|(_, u)| order(u) == order(t)) {
                acc.push((n.clone(), t.clone()));
            }
            acc
        })
        .into_iter()
        .map(|(n, t)| format!("`{t}` in {n}"))
        .collect();
    let mut why: Vec<String> = Vec::new();
    if open.iter().any(|(n, _)| *n == Notation::Bars) {
        why.push("Read as C, `|` is a binary operator and the bars do not parse.".into());
    }
    if !mine.is_empty() {
        why.push(
            "Read as C, a bit range is no expression; read as notation, whether it includes both ends and which \
             end is bit 0 is left to the reader."
                .into(),
        );
        if !others.is_empty() {
            why.push(format!("The document writes bit ranges other ways too: {}.", super::and_list(&others)));
        }
    }
    if open.iter().any(|(n, _)| *n == Notation::PtxTypeDeclaration) {
        why.push(
            "Read as C, a PTX type is no type and the declaration does not parse; read as notation, the variable's \
             width and sign are the PTX type's, which no sentence says."
                .into(),
        );
    }
    if let Some((_, t)) = open.iter().find(|(n, _)| *n == Notation::BitIndex) {
        let name = t.split('[').next().unwrap_or_default();
        why.push(format!(
            "Read as C, `{name}` is a scalar and takes no index; read as a bit, which end is bit 0 is left to the \
             reader."
        ));
    }
    let mut f = Finding::of_text(
        format!("text-notation-{}-undefined", s.number),
        s.number.clone(),
        FindingKind::MalformedCode,
        first.clone(),
        format!(
            "the Semantics block writes {}, which {} not C and which no sentence defines",
            super::and_list(&kinds),
            if kinds.len() == 1 { "is" } else { "are" }
        ),
        vec![format!(
            "{}: section {}'s Semantics block writes {}. {}",
            s.file,
            s.number,
            super::and_list(&sites),
            why.join(" ")
        )],
    );
    f.repairs = repair(s, &open).into_iter().collect();
    vec![f]
}

/// The fix: the Description's first paragraph ends with a sentence that
/// defines each notation the block uses, in the block's own order.
fn repair(s: &Section, open: &[(Notation, String)]) -> Option<Repair> {
    let defs: Vec<String> = open
        .iter()
        .map(|(n, t)| match n {
            Notation::Bars => "`|x|` is the absolute value of x".to_string(),
            Notation::Brackets if low_first(t) == Some(false) => "`x[j:i]` is bits i through j of x".to_string(),
            Notation::Brackets => "`x[i:j]` is bits i through j of x".to_string(),
            Notation::Angles => "`x<j..i>` is bits i through j of x".to_string(),
            Notation::BitIndex => "`x[i]` is bit i of x".to_string(),
            Notation::PtxTypeDeclaration => "a name after a PTX type (`.u32 x`) is a variable of that type".to_string(),
        })
        .collect();
    let ranges = open.iter().any(|(n, _)| n.is_range());
    let bits = open.iter().any(|(n, _)| *n == Notation::BitIndex);
    let tail = match (ranges, bits) {
        (true, _) => ", both ends included, bit 0 the least significant",
        (false, true) => ", bit 0 the least significant",
        (false, false) => "",
    };
    super::ending_description(s, &format!("In the Semantics block, {}{tail}.", super::and_list(&defs)))
}

/// Every section whose Semantics block uses a notation that is not C and
/// that no sentence defines.
pub fn check(doc: &Document) -> Vec<Finding> {
    let ranges: Vec<(String, String)> = doc
        .sections
        .iter()
        .flat_map(|s| used(s).into_iter().filter(|(n, _)| n.is_range()).map(|(_, t)| (s.number.clone(), t)))
        .collect();
    super::each_section(doc, |s| section(doc, s, &ranges))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    #[test]
    fn the_notations_of_a_line() {
        let kinds = notations;
        assert_eq!(kinds("d = |a|;"), [(Notation::Bars, "|a|".to_string())]);
        assert_eq!(kinds("iA[0] = a[0:15];"), [(Notation::Brackets, "a[0:15]".to_string())]);
        assert_eq!(kinds("d = t<2n-1..n>; // for .hi"), [(Notation::Angles, "t<2n-1..n>".to_string())]);
        assert_eq!(kinds(".u32 d = 0;"), [(Notation::PtxTypeDeclaration, ".u32 d".to_string())]);
        assert_eq!(kinds("for (.s32 i=msb; i>=0; i--) {"), [(Notation::PtxTypeDeclaration, ".s32 i".to_string())]);
        // A comparison with a type, a modifier and a float are no declarations.
        assert!(kinds("msb = (.type==.u32 || .type==.s32) ? 31 : 63;").is_empty());
        assert!(kinds("if (.shiftamt && d != 0) x = 1.5;").is_empty());
        assert!(kinds("d = a;  /* for .u32 operands */").is_empty());
        // C's own: an index, a comparison, a logical or, a bitwise or.
        assert!(kinds("d[i] = (a < b) ? a : b;").is_empty());
        assert!(kinds("if (p || q) d = a | b;").is_empty());
        assert!(kinds("x = a[i];").is_empty());
    }

    fn found(intro: &str, description: &str, semantics: &str) -> Vec<Finding> {
        let text = format!(
            "### 9.7.1. Integer Arithmetic Instructions\n\n{intro}\n\n\
             #### 9.7.1.10. Integer Arithmetic Instructions: `abs`\n\n`abs`\n\nAbsolute value.\n\n\
             Syntax\n\n```\nabs.type d, a;\n```\n\nDescription\n\n{description}\n\n\
             Semantics\n\n```\n{semantics}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn a_notation_no_sentence_defines_is_found_and_a_code_span_defines_it() {
        let f = found("Integer instructions.", "Take the absolute value of `a`.", "d = |a|;");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].summary,
            "the Semantics block writes bars for the absolute value, which is not C and which no sentence defines"
        );
        // The fix the pass proposes defines the notation, as a code span.
        let repair = f[0].repairs.first().expect("a repair");
        assert!(repair.new.ends_with("In the Semantics block, `|x|` is the absolute value of x."), "{repair:?}");
        assert!(found("In the blocks, `|x|` is the absolute value of x.", "Abs.", "d = |a|;").is_empty());
        assert!(found("Integer instructions.", "Abs.", "d = (a < 0) ? -a : a;").is_empty());
    }

    #[test]
    fn a_bit_of_an_operand_as_an_index_is_found_and_an_array_is_not() {
        let reverse = "t = a;\nfor (i = 0; i <= 31; i++) {\n    d[i] = t[31-i];\n}";
        let f = found("Integer instructions.", "Reverse the bits of `a`.", reverse);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].fragment, "d[i]");
        assert!(f[0].detail[0].contains("Read as C, `d` is a scalar"), "{:?}", f[0].detail);
        // A variable set to an operand is a scalar too.
        assert_eq!(found("Integer instructions.", "Abs.", "t = a;\nd = t[0];")[0].fragment, "t[0]");
        let repair = f[0].repairs.first().expect("a repair");
        assert!(repair.new.ends_with("`x[i]` is bit i of x, bit 0 the least significant."), "{repair:?}");
        // An array of the block's own, and an index the prose defines.
        assert!(found("Integer instructions.", "Abs.", "iA[0] = 1;\nd = iA[0];").is_empty());
        assert!(found("In the blocks, `x[i]` is bit i of x.", "Abs.", reverse).is_empty());
        // An operand with a length is a sequence.
        assert!(found("Integer instructions.", "Abs.", "if (i < length(a)) d = a[i];").is_empty());
        // A block that names its top bit `msb` fixes the order itself.
        assert!(
            found("Integer instructions.", "Abs.", "msb = 31;\nfor (i = 0; i <= msb; i++) d[i] = a[msb-i];").is_empty()
        );
    }
}
