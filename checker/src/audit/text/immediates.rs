//! Where an immediate may stand. An example that writes a constant in an
//! operand's place (`and.b32 x, q, 0xff`, `shf.l.clamp.b32 r1, r0, r0, 16`)
//! shows that the operand may be one; an emulator author or an assembler
//! writer needs the rule, not one instance of it: which operands may be
//! immediates, and which must be registers. A section whose examples put an
//! immediate in an operand's place, where no sentence of the section or of
//! its chapter's introduction says which operands may be immediates, leaves
//! the rule to the examples. A sentence states it when it speaks of
//! immediates (or constants) and of operands: one that names the operand
//! (`immLut is an integer constant`), or one on the operands in general
//! (`any source operand may be an immediate`). The introduction of 9.7.1
//! ("in register and constant immediate forms") says that immediates exist,
//! not where. One finding per section.

use super::document::{BlockKind, Document, Section};
use super::names_operand as names;
use crate::audit::finding::{Finding, FindingKind, Repair};

/// Whether an operand token is a constant: a decimal, hexadecimal, octal or
/// binary integer, with its sign, or a float in decimal or PTX's hex form
/// (`0f3f800000`).
fn is_immediate(token: &str) -> bool {
    let t = token.trim().trim_start_matches(['-', '+', '~', '!']);
    t.chars().next().is_some_and(|c| c.is_ascii_digit())
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
        && !t.contains("..")
}

/// The comma-separated operand groups of an instruction or a Syntax line
/// (`d[|p], a, b, {!}c;` gives four); a group written `d|p` keeps its
/// first name.
fn groups(operands: &str) -> Vec<String> {
    operands
        .trim()
        .trim_end_matches(';')
        .split(',')
        .map(|g| {
            let g = g.trim().trim_start_matches("{!}").trim_start_matches('!');
            // An optional operand's braces (`size{, immAlign}`) are not its name.
            g.split(['[', '|', ' ']).next().unwrap_or_default().trim().replace(['{', '}'], "")
        })
        .filter(|g| !g.is_empty())
        .collect()
}

/// A Syntax line's operands without those written optional (`{, x}`).
fn without_optional(operands: &str) -> String {
    let mut out = operands.to_string();
    while let Some(at) = out.find("{,").or_else(|| out.find("{ ,")) {
        let Some(end) = out[at..].find('}') else { break };
        out.replace_range(at..at + end + 1, "");
    }
    out
}

/// The sentences of a section's Description and Notes, and of its
/// chapter's introduction.
fn sentences(doc: &Document, s: &Section) -> Vec<String> {
    let mut out = super::typing::sentences(s);
    let chapter = s.number.rsplit_once('.').map_or("", |(c, _)| c);
    if let Some(intro) = doc.sections.iter().find(|x| x.number == chapter) {
        let lines: Vec<&str> = intro.intro.iter().map(|l| l.text.trim()).collect();
        out.extend(lines.join(" ").split(". ").map(str::to_string));
    }
    // "It" after a sentence about an operand (`immAlign` is a 32-bit value.
    // It is an integer constant.) is that operand.
    for i in 1..out.len() {
        let subject = out[i - 1].strip_prefix('`').and_then(|t| t.split_once('`')).map(|(name, _)| name.to_string());
        if let (Some(name), Some(rest)) = (subject, out[i].strip_prefix("It ")) {
            out[i] = format!("`{name}` {rest}");
        }
    }
    out
}

/// Whether a sentence says `operand` may (or may not) be an immediate.
fn states(sentence: &str, operand: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    let about = lower.contains("immediate") || lower.contains("constant");
    let general =
        ["operand", "source", "argument"].iter().any(|w| lower.contains(w)) && !lower.contains("immediate forms");
    about && (names(sentence, operand) || general)
}

fn section(doc: &Document, s: &Section) -> Vec<Finding> {
    let (Some(examples), Some(opcode)) = (s.block(BlockKind::Examples), s.opcode()) else { return Vec::new() };
    let Some(syntax) = s.block(BlockKind::Syntax) else { return Vec::new() };
    // The operand names of the Syntax's lines of the opcode, by position;
    // a line with optional operands (`b{, cache-policy}`) also without them.
    let templates: Vec<Vec<String>> = syntax
        .code()
        .filter_map(|l| {
            let text = l.text.split("//").next().unwrap_or_default().trim();
            let (mnemonic, rest) = text.split_once(char::is_whitespace)?;
            let m = mnemonic.strip_prefix(opcode)?;
            (m.is_empty() || m.starts_with(['.', '{'])).then(|| [groups(rest), groups(&without_optional(rest))])
        })
        .flatten()
        .fold(Vec::new(), |mut all, t| {
            if !all.contains(&t) {
                all.push(t);
            }
            all
        });
    let said = sentences(doc, s);
    // Where the text calls operands registers, one it calls an integer instead
    // (`membermask` "specifies a 32-bit integer", beside "Operand `a` is a
    // predicate register") is said to be one, register or immediate.
    let own = super::typing::sentences(s);
    let operands: Vec<&String> = templates.iter().flatten().collect();
    let registers = |name: &str| {
        own.iter().any(|x| {
            x.to_ascii_lowercase().contains("register") && !names(x, name) && operands.iter().any(|o| names(x, o))
        })
    };
    let a_value = |x: &String, name: &str| {
        let lower = x.to_ascii_lowercase();
        names(x, name) && !lower.contains("register") && lower.contains(" integer")
    };
    let mut open: Vec<(String, String)> = Vec::new();
    for l in examples.code() {
        let code = l.text.split("//").next().unwrap_or_default();
        let body = crate::ptx::parse::without_guard(code).trim();
        let Some((mnemonic, rest)) = body.split_once(char::is_whitespace) else { continue };
        if !mnemonic.strip_prefix(opcode).is_some_and(|r| r.is_empty() || r.starts_with('.')) {
            continue;
        }
        let written = groups(rest);
        // A form of as many operands, else (an example that lost a comma)
        // the longest form, read from the right: the last operands stay in
        // their places.
        let same = templates.iter().find(|t| t.len() == written.len());
        let Some(form) = same.or_else(|| templates.iter().filter(|t| t.len() > written.len()).max_by_key(|t| t.len()))
        else {
            continue;
        };
        let names = &form[form.len() - written.len()..];
        // An example whose every source is an immediate shows that each may
        // be one: no operand of its form is left to guess.
        if names.len() == form.len() && written.iter().skip(1).all(|t| is_immediate(t)) {
            continue;
        }
        for (name, token) in names.iter().zip(&written) {
            let stated = said.iter().any(|x| states(x, name) || (a_value(x, name) && registers(name)));
            if is_immediate(token) && !stated && !open.iter().any(|(n, _)| n == name) {
                open.push((name.clone(), body.to_string()));
            }
        }
    }
    // A section without a model is read against the manual's rules for
    // operands at large, which let a source be an immediate and size it:
    // what its examples leave open is only the packed type's reading, one
    // value for the register or one for each element. A modelled section
    // keeps the whole question, which its variants' inputs depend on.
    let questions = reading_questions(s);
    let packed = questions.iter().any(|q| q.contains("packed type"));
    if !packed && !super::modelled_sections().contains(&s.number) {
        open.clear();
    }
    let Some((_, example)) = open.first() else {
        // The source operands of the Syntax's first form.
        let sources: Vec<String> =
            templates.first().and_then(|t| t.get(1..)).map(<[String]>::to_vec).unwrap_or_default();
        return narrow_sources(doc, s, &said, &sources);
    };
    let list: Vec<String> = open.iter().map(|(n, _)| format!("`{n}`")).collect();
    let (list, them) = (super::and_list(&list), if open.len() == 1 { "it" } else { "them" });
    let one = if open.len() == 1 { "an immediate" } else { "immediates" };
    let mut detail = vec![format!(
        "{}: section {}'s Description and Notes, and its chapter's introduction, say nothing of where an \
         immediate may stand; the examples show {list} as one, and leave open whether the other operands \
         may be, and whether {them} may be in every form. Nor does a sentence say how an immediate is read \
         against its operand's width: one wider than the operand's type (0x1ffff for a 16-bit operand) \
         may be rejected, or cut to the width.",
        s.file, s.number
    )];
    detail.extend(questions);
    let names: Vec<String> = open.iter().map(|(n, _)| n.clone()).collect();
    let repairs: Vec<Repair> = stated_after(s, &names, &list, one).into_iter().collect();
    let mut f = Finding::of_text(
        format!("text-immediates-{}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        example.clone(),
        format!(
            "the examples write {list} as {one} (`{example}`), and no sentence says which operands may be \
             immediates"
        ),
        detail,
    );
    f.repairs = repairs;
    vec![f]
}

/// The fix of operands the examples write as immediates with no sentence
/// allowing it: a sentence that does (`Operand \`membermask\` may be an
/// immediate.`), after the Description's first sentence that names the
/// first of them, where that sentence ends on its line.
fn stated_after(s: &Section, names: &[String], list: &str, one: &str) -> Option<Repair> {
    let first = format!("`{}`", names.first()?);
    let block = s.block(BlockKind::Description)?;
    // The sentence that introduces the operand (`Operand \`membermask\`
    // specifies ...`), else the first that names it.
    let introduced = format!("Operand {first}");
    let prose = || block.lines.iter().filter(|l| !l.code);
    let (l, at) = prose()
        .find_map(|l| l.text.find(&introduced).map(|at| (l, at)))
        .or_else(|| prose().find_map(|l| l.text.find(&first).map(|at| (l, at))))?;
    // Where the sentence ends on the line, as the units read sentences: not
    // at an abbreviation's full stop (`i.e.`, `e.g.`).
    let words: Vec<(usize, &str)> = l.text[at..]
        .split(' ')
        .scan(at, |k, w| {
            let start = *k;
            *k += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let end = words
        .iter()
        .enumerate()
        .find(|(i, (_, w))| super::units::ends_sentence(w, words.get(i + 1).map(|(_, n)| *n)))
        .map(|(_, (k, w))| k + w.len())?;
    let old = l.text[..end].to_string();
    let operand = if names.len() == 1 { "Operand" } else { "Operands" };
    Some(Repair { line: l.number, old: old.clone(), new: format!("{old} {operand} {list} may be {one}.") })
}

/// The widths written as `N-bit` in a piece of text, in order.
fn bit_widths(text: &str) -> Vec<u32> {
    text.match_indices("-bit")
        .filter_map(|(i, _)| {
            let digits: String = text[..i].chars().rev().take_while(char::is_ascii_digit).collect();
            digits.chars().rev().collect::<String>().parse().ok()
        })
        .collect()
}

/// A Description sentence that holds the sources as values narrower than
/// their registers (mul24's "24-bit integer values held in 32-bit source
/// registers"): the value's width and the register's.
fn narrow_in_register(sentence: &str) -> Option<(u32, u32)> {
    let (values, registers) = sentence.split_once(" held in ")?;
    let value = *bit_widths(values).last()?;
    let register = *bit_widths(registers).first()?;
    let sources = registers.contains("register") && !registers.contains("destination");
    (sources && value < register).then_some((value, register))
}

/// A section with no immediate in its examples whose Description holds its
/// sources as values narrower than their registers, where its chapter's
/// introduction gives the instructions immediate forms and no sentence says
/// where one may stand: whether a source may be an immediate, and at which
/// of the two widths it is read, is left open.
fn narrow_sources(doc: &Document, s: &Section, said: &[String], sources: &[String]) -> Vec<Finding> {
    let chapter = s.number.rsplit_once('.').map_or("", |(c, _)| c);
    let immediate_forms = doc
        .sections
        .iter()
        .find(|x| x.number == chapter)
        .is_some_and(|intro| intro.intro.iter().any(|l| l.text.to_ascii_lowercase().contains("immediate")));
    let on_immediates = sources.iter().any(|o| said.iter().any(|x| states(x, o)));
    let sentences: Vec<String> =
        super::typing::sentences_in(s, &[BlockKind::Description]).into_iter().map(|(_, t)| t).collect();
    let Some((sentence, (value, register))) =
        sentences.iter().find_map(|x| narrow_in_register(x).map(|w| (x.trim_end_matches('.').to_string(), w)))
    else {
        return Vec::new();
    };
    if !immediate_forms || on_immediates {
        return Vec::new();
    }
    // The least value that does not fit: written out where it is short.
    let over = 1u128.checked_shl(value).map_or(format!("2^{value}"), |v| format!("{v:#x}"));
    // The fragment: from the values' width to the registers, at most 80
    // bytes.
    // The last width before " held in " is the values' (`bit_widths`).
    let held = sentence.find(" held in ").unwrap_or(sentence.len());
    let from = sentence[..held].rfind(&format!("{value}-bit")).unwrap_or(0);
    let rest = &sentence[from..];
    let end = rest.find("registers").map(|k| k + "registers".len()).or_else(|| rest.find("register").map(|k| k + 8));
    let mut fragment = &rest[..end.unwrap_or(rest.len())];
    if fragment.len() > 80 {
        let cut = (0..=80).rev().find(|&k| fragment.is_char_boundary(k)).unwrap_or(0);
        fragment = &fragment[..cut];
    }
    let fragment = fragment.to_string();
    vec![Finding::of_text(
        format!("text-immediates-{}", s.number),
        s.number.clone(),
        FindingKind::Ambiguity,
        fragment,
        format!(
            "{value}-bit values are held in {register}-bit source registers, and no sentence says whether a \
             source may be an immediate, or at which width an immediate is read"
        ),
        vec![format!(
            "{}: section {}'s Description holds {value}-bit values in {register}-bit source registers \
             (\"{sentence}\"), and its chapter's introduction gives the instructions immediate forms. No sentence \
             says whether a source may be an immediate, nor, if it may, whether the immediate is read at {value} \
             bits (so that {over} is rejected, or cut to 0) or at {register} bits, as a register holds it.",
            s.file, s.number
        )],
    )]
}

/// The questions of how an immediate is read that the section's types
/// raise: a packed type (`.u16x2`: one 32-bit value, or one value for
/// each element) and an unsigned type (a negative immediate, and its
/// extension to a wider type).
fn reading_questions(s: &Section) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    for l in s.block(BlockKind::Syntax).into_iter().flat_map(|b| b.code()) {
        for w in l.text.split(|c: char| !c.is_ascii_alphanumeric()) {
            if let Some(t) = super::captions::type_word(w).filter(|t| !types.contains(t)) {
                types.push(t);
            }
        }
    }
    let mut out = Vec::new();
    if let Some(t) = types.iter().find(|t| t.contains('x') && !t.starts_with('f') && !t.starts_with("bf")) {
        out.push(format!(
            "Nor is it said how an immediate is read for the packed type `.{t}`: as one 32-bit value, so that 1 \
             adds to element 0 alone (0x00000001), or as one element's value given to each element \
             (0x00010001)."
        ));
    }
    if let Some(t) = types.iter().find(|t| t.starts_with('u') && !t.contains('x')) {
        out.push(format!(
            "Nor whether an immediate is signed: whether a negative immediate (-1) may stand for `.{t}`, and \
             whether an immediate written in 32 bits is sign- or zero-extended to a wider operand (0xffffffff as \
             -1 or as 4294967295)."
        ));
    }
    out
}

/// Every section whose examples put an immediate where no sentence says
/// one may stand.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, |s| section(doc, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(intro: &str, description: &str, examples: &str) -> Vec<Finding> {
        let text = format!(
            "### 9.7.8. Logic and Shift Instructions\n\n{intro}\n\n\
             #### 9.7.8.1. Logic and Shift Instructions: `and`\n\n`and`\n\nAnd.\n\n\
             Syntax\n\n```\nand.type d, a, b;\n```\n\nDescription\n\n{description}\n\n\
             Examples\n\n```\n{examples}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc)
    }

    #[test]
    fn an_operand_written_optional_may_be_left_out_before_an_immediate_is_placed() {
        assert_eq!(without_optional("d, [a], b{, cache-policy};"), "d, [a], b;");
        assert_eq!(without_optional("[a], b {, x} {, y};"), "[a], b  ;");
    }

    #[test]
    fn an_example_immediate_no_sentence_allows_is_found() {
        let f = found(
            "Bit-wise operations.",
            "Compute `a` and `b`.",
            "and.b32 x, q, r;\nand.b32 sign, fpvalue, 0x80000000;",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].summary,
            "the examples write `b` as an immediate (`and.b32 sign, fpvalue, 0x80000000;`), and no sentence says \
             which operands may be immediates"
        );
        // The fix says what the example shows, after the sentence that
        // introduces the operand.
        let fix: Vec<(String, String)> = f[0].repairs.iter().map(|r| (r.old.clone(), r.new.clone())).collect();
        assert_eq!(
            fix,
            [("Compute `a` and `b`.".to_string(), "Compute `a` and `b`. Operand `b` may be an immediate.".to_string())]
        );
        // Saying that immediate forms exist is not saying where.
        assert_eq!(
            found("Instructions in register and constant immediate forms.", "And.", "and.b32 x, q, 1;").len(),
            1
        );
    }

    #[test]
    fn narrow_sources_in_wider_registers_ask_how_an_immediate_is_sized() {
        let text = "### 9.7.1. Integer Arithmetic Instructions\n\nIn register and constant immediate forms.\n\n\
                    #### 9.7.1.5. Integer Arithmetic Instructions: `mul24`\n\n`mul24`\n\nMultiply.\n\n\
                    Syntax\n\n```\nmul24.lo.u32 d, a, b;\n```\n\nDescription\n\n\
                    Multiply two 24-bit integer values held in 32-bit source registers.\n\n\
                    Examples\n\n```\nmul24.lo.u32 d, a, b;\n```\n";
        let f = check(&Document::made(text));
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].summary.starts_with("24-bit values are held in 32-bit source registers"), "{f:?}");
        // A sentence on any source settles it; a destination is no source.
        let on_b = text.replace("Multiply two", "Operand `b` may be an immediate. Multiply two");
        assert!(check(&Document::made(&on_b)).is_empty());
        assert_eq!(narrow_in_register("a 16-bit value held in a 32-bit destination register"), None);
        assert!(f[0].detail[0].contains("0x1000000 is rejected"), "{f:?}");
        // A sentence on immediates settles it; so does a chapter with none.
        let said = text.replace("Multiply two", "Any source operand may be an immediate. Multiply two");
        assert!(check(&Document::made(&said)).is_empty());
        let none = text.replace("In register and constant immediate forms.", "In registers.");
        assert!(check(&Document::made(&none)).is_empty());
        assert_eq!(narrow_in_register("two 32-bit values held in 32-bit registers"), None);
        // Any width is read without overflow.
        let wide = text.replace("24-bit", "64-bit").replace("32-bit", "128-bit");
        assert!(check(&Document::made(&wide))[0].detail[0].contains("0x10000000000000000 is rejected"));
        let wider = text.replace("24-bit", "200-bit").replace("32-bit", "256-bit");
        assert!(check(&Document::made(&wider))[0].detail[0].contains("2^200 is rejected"));
        assert_eq!(bit_widths("the 8-bit and 16-bit"), vec![8, 16]);
    }

    #[test]
    fn a_sentence_on_immediates_settles_it() {
        assert!(found("Any source operand may be an immediate.", "And.", "and.b32 x, q, 1;").is_empty());
        assert!(found("Bit-wise.", "Operand `b` may be an immediate.", "and.b32 x, q, 1;").is_empty());
        // A value where the others are registers says it may be either.
        let value = "Operand `a` is a register. Operand `b` specifies a 32-bit integer.";
        assert!(found("Bit-wise.", value, "and.b32 x, q, 1;").is_empty());
        assert_eq!(found("Bit-wise.", "Operand `b` specifies a 32-bit integer.", "and.b32 x, q, 1;").len(), 1);
        assert!(found("Bit-wise.", "And.", "and.b32 x, q, r;\n@p and.pred p, q, r;").is_empty());
        // An example that lost a comma is read from the right.
        let f = found("Bit-wise.", "And.", "and.b32 x q,0xff;");
        assert!(f.len() == 1 && f[0].summary.starts_with("the examples write `b` as an immediate"), "{f:?}");
        // An example whose every source is an immediate leaves none to guess.
        assert!(found("Bit-wise.", "And.", "and.b32 x, 1, 2;").is_empty());
        // A register whose name starts with a digit does not exist; a label
        // or a name is no immediate.
        assert!(!is_immediate("r1") && !is_immediate("%r1") && !is_immediate("L1"));
        assert!(is_immediate("-1") && is_immediate("0x96") && is_immediate("0f3f800000") && is_immediate("1.0"));
    }
}
