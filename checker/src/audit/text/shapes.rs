//! Examples whose operands take a shape no Syntax line gives: an address
//! (an operand in brackets, `[a]`) where the lines write none, or none
//! where they write one. red has no destination, so `red.global.v2.f32.add
//! {%f0, %f1}, [g], {%f0, %f1};` writes its address second where every
//! line of red writes it first; atom's `atom.shared.b128.cas d, a, b, c;`
//! writes no brackets where its line writes `[a]`. The forms pass reads the
//! qualifiers; this pass reads where the address stands.
//!
//! Each Syntax line gives the shapes it allows: the places of its operands
//! that are addresses, with its optional operands (`b{, cache-policy}`)
//! and without. An example of the section's instruction, its operands
//! split at the commas outside braces and brackets, whose shape is none of
//! them is a finding. The fix, where one edit gives a shape of a line:
//! brackets around the operand that stands where the line's address does,
//! or the one operand whose removal leaves a line's shape.

use super::document::{Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// An operand list split at the commas outside braces and brackets:
/// `{%r0, %r1}, [a], b` gives three.
fn operand_groups(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().unwrap_or_else(|| unreachable!()).push(c);
    }
    out.into_iter().map(|g| g.trim().to_string()).filter(|g| !g.is_empty()).collect()
}

fn is_address(group: &str) -> bool {
    group.starts_with('[')
}

/// A Syntax line's operands with none of its optional ones (`b{, x}{, y}`
/// → `b`), with the first, and so on to all of them (`b, x, y`).
fn optional_prefixes(operands: &str) -> Vec<String> {
    let mut required = String::new();
    let mut optional: Vec<String> = Vec::new();
    let mut rest = operands;
    while let Some(at) = rest.find("{,").or_else(|| rest.find("{ ,")) {
        let Some(end) = rest[at..].find('}').map(|e| at + e) else { break };
        if optional.is_empty() {
            required.push_str(&rest[..at]);
        }
        optional.push(rest[at + 1..end].to_string());
        rest = &rest[end + 1..];
    }
    if optional.is_empty() {
        return vec![operands.to_string()];
    }
    (0..=optional.len()).map(|k| format!("{required}{}", optional[..k].concat())).collect()
}

/// The shapes the Syntax lines of `opcode` allow, each the list of which
/// places are addresses. A line whose operands the next line writes (red's
/// `.bf16` form) is read with them.
fn syntax_shapes(templates: &[String], opcode: &str) -> Vec<Vec<bool>> {
    let mut operands: Vec<String> = Vec::new();
    for t in templates {
        let (head, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let of_opcode = head.strip_prefix(opcode).is_some_and(|r| r.is_empty() || r.starts_with(['.', '{', ';']));
        if of_opcode {
            operands.push(rest.trim().trim_end_matches(';').to_string());
        } else if let Some(last) = operands.last_mut().filter(|o| o.is_empty()) {
            *last = t.trim().trim_end_matches(';').to_string();
        }
    }
    let mut out: Vec<Vec<bool>> = Vec::new();
    for o in operands.iter().filter(|o| !o.is_empty()) {
        for form in optional_prefixes(o) {
            let shape: Vec<bool> = operand_groups(&form).iter().map(|g| is_address(g)).collect();
            if !out.contains(&shape) {
                out.push(shape);
            }
        }
    }
    out
}

/// The statements of the examples that write `opcode`, each with the
/// lines it spans (a statement runs on while its line ends with a comma),
/// its mnemonic and its operand text.
fn statements<'a>(examples: &'a [&'a Line], opcode: &str) -> Vec<(Vec<&'a Line>, String, String)> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < examples.len() {
        let mut lines = vec![examples[k]];
        let code = |l: &Line| l.text.split("//").next().unwrap_or_default().trim().to_string();
        let mut text = code(examples[k]);
        while text.ends_with(',') && k + 1 < examples.len() {
            k += 1;
            lines.push(examples[k]);
            text = format!("{text} {}", code(examples[k]));
        }
        k += 1;
        let body = crate::ptx::parse::without_guard(&text).trim().trim_end_matches(';').to_string();
        // A vector operand may follow the mnemonic with no space.
        let Some(cut) = body.find(|c: char| c.is_whitespace() || c == '{') else { continue };
        let (mnemonic, operands) = body.split_at(cut);
        if mnemonic.strip_prefix(opcode).is_some_and(|r| r.is_empty() || r.starts_with('.')) {
            out.push((lines, mnemonic.to_string(), operands.trim().to_string()));
        }
    }
    out
}

fn places(shape: &[bool]) -> Vec<usize> {
    shape.iter().enumerate().filter(|(_, a)| **a).map(|(i, _)| i + 1).collect()
}

/// `1`, `1 or 2`, `1, 2 or 3`.
fn or_list(places: &[usize]) -> String {
    let words: Vec<String> = places.iter().map(|p| p.to_string()).collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn said_places(places: &[usize]) -> String {
    let words: Vec<String> = places.iter().map(|p| p.to_string()).collect();
    format!("{} {}", if places.len() == 1 { "operand" } else { "operands" }, super::and_list(&words))
}

/// The edit that gives the example a line's shape: brackets around the
/// operand where a line of as many operands has its only address, or the
/// one operand whose removal leaves a line's shape; on a statement of one
/// line only, and where exactly one such edit fits.
fn reshape(line: &Line, mnemonic: &str, groups: &[String], shapes: &[Vec<bool>]) -> Option<Repair> {
    let shape: Vec<bool> = groups.iter().map(|g| is_address(g)).collect();
    let mut edits: Vec<(String, String)> = Vec::new();
    for s in shapes.iter().filter(|s| s.len() == shape.len()) {
        let differ: Vec<usize> = (0..s.len()).filter(|&i| s[i] != shape[i]).collect();
        if let [i] = differ[..] {
            if s[i] && !groups[i].contains(['{', '[']) {
                let mut new = groups.to_vec();
                new[i] = format!("[{}]", groups[i]);
                edits.push((groups.join(", "), new.join(", ")));
            }
        }
    }
    for k in 0..groups.len() {
        let mut fewer: Vec<bool> = shape.clone();
        fewer.remove(k);
        if shapes.contains(&fewer) {
            let mut new = groups.to_vec();
            new.remove(k);
            edits.push((groups.join(", "), new.join(", ")));
        }
    }
    edits.dedup();
    let [(old, new)] = &edits[..] else { return None };
    // The edit on the line as written: from its first operand to its last.
    let (first, last) = (groups.first()?, groups.last()?);
    let code = line.text.split("//").next()?;
    let start = code.find(mnemonic)? + mnemonic.len();
    let from = start + code[start..].find(first.as_str())?;
    let to = code.rfind(last.as_str())? + last.len();
    (line.text[from..to].split(',').count() == old.split(',').count())
        .then(|| Repair::at(line.number, &line.text, from, to, new))
}

fn section(s: &Section, modelled: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some((g, examples, opcode)) = super::forms::unmodelled(s, modelled) else { return out };
    let shapes = syntax_shapes(&g.templates, opcode);
    if shapes.is_empty() {
        return out;
    }
    let lines: Vec<&Line> = examples.code().collect();
    for (spanned, mnemonic, operands) in statements(&lines, opcode) {
        let groups = operand_groups(&operands);
        let shape: Vec<bool> = groups.iter().map(|g| is_address(g)).collect();
        // The lines of as many operands say where the address belongs; an
        // example of another count, or one whose operands a period
        // separates (the periods pass reads it), is not read here.
        let of: Vec<&Vec<bool>> = shapes.iter().filter(|s| s.len() == shape.len()).collect();
        if of.is_empty() || shapes.contains(&shape) || operands.contains(". ") {
            continue;
        }
        let line = spanned[0];
        let count = format!(" of {} operands", shape.len());
        let mut at: Vec<usize> = of.iter().flat_map(|s| places(s)).collect();
        at.sort_unstable();
        at.dedup();
        let bare = of.iter().any(|s| !s.contains(&true));
        let theirs = match (at.is_empty(), bare) {
            (true, _) => "no operand in brackets".to_string(),
            (false, false) => format!("the address as operand {}", or_list(&at)),
            (false, true) => format!("the address as operand {}, or none", or_list(&at)),
        };
        let written = places(&shape);
        let ours = if written.is_empty() {
            "no operand in brackets".to_string()
        } else {
            let addresses: Vec<String> = groups.iter().filter(|g| is_address(g)).map(|g| format!("`{g}`")).collect();
            format!("{} as {}", super::and_list(&addresses), said_places(&written))
        };
        let mut f = Finding::of_text(
            format!("text-shape-{}-{}", s.number, line.number),
            s.number.clone(),
            FindingKind::ExampleSyntax,
            mnemonic.clone(),
            format!("the example `{mnemonic}` writes {ours}, where its section's Syntax lines{count} write {theirs}"),
            vec![format!(
                "{}:{}: `{} {operands};`; the Syntax lines: {}.",
                s.file,
                line.number,
                mnemonic,
                g.templates.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
            )],
        );
        if spanned.len() == 1 {
            f.repairs = reshape(line, &mnemonic, &groups, &shapes).into_iter().collect();
        }
        out.push(f);
    }
    out
}

/// Every example of a section without a model whose operands take a shape
/// no Syntax line of its section gives.
pub fn check(doc: &Document) -> Vec<Finding> {
    let modelled = super::modelled_sections();
    super::each_section(doc, |s| section(s, &modelled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, examples: &str) -> Vec<(String, Vec<(String, String)>)> {
        let text = format!(
            "#### 9.7.13.6. Parallel Synchronization and Communication Instructions: `red`\n\n`red`\n\n\
             Reduce.\n\nSyntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\n{examples}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().map(|r| (r.old, r.new)).collect())).collect()
    }

    #[test]
    fn an_example_with_its_address_out_of_place_or_unbracketed_is_found_and_mended() {
        let syntax = "red.op.type [a], b{, cache-policy};\nred.op.v2.f32\n        [a], b;\n\
                      red.cas.b128 d, [a], b, c;\n.op = { .add };\n.type = { .u32 };";
        let examples =
            "red.add.u32 [a], 1;\nred.add.u32 [a], 1, policy;\nred.add.v2.f32 {%f0, %f1}, [g], {%f0, %f1};\n\
                        red.cas.b128 d, a, b, c; // 128-bit\nred.add.v2.f32 [g],\n    {%f0, %f1};\ncvta.u32 a, b;";
        let got = found(syntax, examples);
        let said: Vec<(&str, Vec<(String, String)>)> = got.iter().map(|(s, r)| (s.as_str(), r.clone())).collect();
        assert_eq!(
            said,
            [
                (
                    "the example `red.add.v2.f32` writes `[g]` as operand 2, where its section's Syntax lines of 3 \
                     operands write the address as operand 1",
                    vec![("{%f0, %f1}, [g], {%f0, %f1}".to_string(), "[g], {%f0, %f1}".to_string())]
                ),
                (
                    "the example `red.cas.b128` writes no operand in brackets, where its section's Syntax lines of 4 \
                     operands write the address as operand 2",
                    vec![("d, a, b, c".to_string(), "d, [a], b, c".to_string())]
                ),
            ]
        );
        assert_eq!(operand_groups("{%r0, %r1}, [a+4], b"), ["{%r0, %r1}", "[a+4]", "b"]);
    }
}
