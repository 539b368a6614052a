//! Slips of typing a reader sees at once and a pass that reads words or
//! grammar does not: each one mechanical, each with its fix.
//!
//! - a sentence run into the next with no space (`level.The`);
//! - a paragraph of prose whose last sentence has no full stop;
//! - a Syntax block that ends its set definitions with `;` save one;
//! - an example that names a register with a hyphen (`cache-policy`),
//!   which no PTX identifier may hold: the Syntax's placeholder copied
//!   where a register belongs;
//! - a sub-qualifier written with one colon (`.L2:primary_priority`) where
//!   the section writes `::`;
//! - a Syntax comment copied onto the next form, which it does not
//!   describe (two comments alike over lines whose operands differ);
//! - a sentence ended with two full stops (`higher..`);
//! - a footnote's number run onto a code span (`` `fence.sc`1 ``), which
//!   reads as part of the name;
//! - a word cut short at a hyphen (`multi- operations`), where no second
//!   word shares the hyphen (`8- and 16-bit` does);
//! - a width with its number run onto its unit (`32bit integer`);
//! - an example line of two dots (`..`), where code is elided with `...`;
//! - a label defined twice in one block of examples, which read as one
//!   program does not assemble.

use super::document::{BlockKind, Document, Line, Section};
use super::retyped::spans;
use crate::audit::finding::{Finding, FindingKind, Repair};

fn finding(s: &Section, id: &str, kind: FindingKind, fragment: &str, summary: String, l: &Line) -> Finding {
    Finding::of_text(
        format!("text-punctuation-{}-{id}", s.number),
        s.number.clone(),
        kind,
        fragment.to_string(),
        summary,
        vec![format!("{}:{}: \"{}\".", s.file, l.number, l.text.trim())],
    )
}

/// The text of a prose line outside its code spans and link targets, each
/// replaced by spaces so that places keep their offsets.
pub(super) fn prose_only(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut in_code = false;
    let mut in_target = false;
    for (i, c) in text.char_indices() {
        if c == '`' {
            in_code = !in_code;
        }
        if !in_code && text[..i].ends_with("](") {
            in_target = true;
        }
        if in_target && c == ')' {
            in_target = false;
        }
        if in_code || in_target || c == '`' {
            for b in &mut out[i..i + c.len_utf8()] {
                *b = b' ';
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The prose lines of a section: its introduction and its blocks' lines
/// outside code, table rows aside.
fn prose_lines(s: &Section) -> impl Iterator<Item = &Line> {
    s.all_lines().filter(|l| !l.code && !l.text.trim_start().starts_with('|'))
}

/// `word.Word`: a full stop with the next sentence run onto it.
fn run_on(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for l in prose_lines(s) {
        let plain = prose_only(&l.text);
        let b = plain.as_bytes();
        for i in 2..b.len().saturating_sub(2) {
            let joined = b[i] == b'.'
                && b[i - 1].is_ascii_lowercase()
                && b[i - 2].is_ascii_lowercase()
                && b[i + 1].is_ascii_uppercase()
                && b[i + 2].is_ascii_lowercase();
            if !joined {
                continue;
            }
            let start = plain[..i].rfind(|c: char| !c.is_ascii_alphabetic()).map_or(0, |k| k + 1);
            let end = plain[i + 1..].find(|c: char| !c.is_ascii_alphabetic()).map_or(plain.len(), |k| i + 1 + k);
            let word = &l.text[start..end];
            let mut f = finding(
                s,
                &format!("run-on-{}", l.number),
                FindingKind::Grammar,
                word,
                format!("`{word}`: a sentence runs into the next with no space after its full stop"),
                l,
            );
            let fixed = format!("{}. {}", &l.text[start..i], &l.text[i + 1..end]);
            f.repairs = vec![Repair::at(l.number, &l.text, start, end, &fixed)];
            out.push(f);
        }
    }
    out
}

/// A paragraph of prose of some length whose last word has no full stop
/// (nor any mark that ends or introduces: `:`, `?`, `!`, `)`); a list item,
/// a label and a heading end as they like.
fn unended(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let prose = |k: BlockKind| {
        matches!(k, BlockKind::Description | BlockKind::Notes | BlockKind::PtxIsaNotes | BlockKind::TargetIsaNotes)
    };
    for b in s.blocks.iter().filter(|b| prose(b.kind)) {
        for p in b.paragraphs() {
            let Some(last) = p.last() else { continue };
            let listed = |l: &&Line| {
                let t = l.text.trim_start();
                // A definition list's definition (`:   ...`) too.
                t.starts_with(['*', '-', '+', '|', '#', '>', ':'])
                    || t.split_once(". ").is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            };
            // A caption (`Table 33 Tensormap new_val validity`) names what
            // follows; it is no sentence.
            let caption = p.first().is_some_and(|l| {
                ["Table ", "Figure "].iter().any(|c| {
                    l.text.trim_start().strip_prefix(c).is_some_and(|r| r.starts_with(|d: char| d.is_ascii_digit()))
                })
            });
            if p.iter().any(listed) || caption {
                continue;
            }
            let words: usize = p.iter().map(|l| l.text.split_whitespace().count()).sum();
            // A link ends with its target: the sentence ends with its label.
            let text = last.text.trim_end();
            let shown = match text.strip_suffix(')').and_then(|t| t.rfind("](").map(|k| &t[..k])) {
                Some(label) => label.trim_end_matches(']'),
                None => text,
            };
            let ends =
                shown.ends_with(['.', ':', '?', '!', ')', ';']) || shown.ends_with(".`") || shown.ends_with(".*");
            if words < 6 || ends {
                continue;
            }
            let shown = shown.replace('[', "");
            let tail: String = shown
                .split_whitespace()
                .rev()
                .take(3)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join(" ");
            let mut f = finding(
                s,
                &format!("unended-{}", last.number),
                FindingKind::Grammar,
                &tail,
                format!("the paragraph that ends \"{tail}\" has no full stop"),
                last,
            );
            f.repairs = vec![Repair::at(last.number, &last.text, 0, text.len(), &format!("{text}."))];
            out.push(f);
        }
    }
    out
}

/// The line a set definition that opens on line `k` closes on: its braces
/// paired.
fn closing(code: &[&Line], k: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (j, l) in code.iter().enumerate().skip(k) {
        let text = l.text.split("//").next().unwrap_or_default();
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return Some(j);
        }
    }
    None
}

/// A set definition without the `;` every other one of its block has.
fn set_terminators(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(b) = s.block(BlockKind::Syntax) else { return out };
    let code: Vec<&Line> = b.code().collect();
    let mut ends: Vec<(&Line, bool)> = Vec::new();
    for (k, l) in code.iter().enumerate() {
        if super::defaults::opens_definition(l.text.split("//").next().unwrap_or_default()) {
            if let Some(j) = closing(&code, k) {
                let text = code[j].text.split("//").next().unwrap_or_default().trim_end();
                ends.push((code[j], text.ends_with(';')));
            }
        }
    }
    let ended = ends.iter().filter(|(_, e)| *e).count();
    let open: Vec<&Line> = ends.iter().filter(|(_, e)| !e).map(|(l, _)| *l).collect();
    if ended < 2 || open.len() != 1 {
        return out;
    }
    let l = open[0];
    let code_part = l.text.split("//").next().unwrap_or_default().trim_end();
    let mut f = finding(
        s,
        &format!("set-terminator-{}", l.number),
        FindingKind::MalformedCode,
        code_part.trim(),
        format!(
            "the set definition that ends `{}` has no `;`, where the block's {ended} other definitions end with one",
            code_part.trim()
        ),
        l,
    );
    let start = l.text.find(code_part.trim()).unwrap_or(0);
    f.repairs = vec![Repair::at(l.number, &l.text, start, code_part.len(), &format!("{};", code_part.trim()))];
    out.push(f);
    out
}

/// Whether an operand word is a name with a hyphen between letters:
/// `cache-policy`, which PTX reads as `cache` minus `policy`.
fn hyphenated(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '%'));
    let parts: Vec<&str> = w.split('-').collect();
    parts.len() > 1
        && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '%'))
        && parts.iter().all(|p| p.trim_start_matches('%').starts_with(|c: char| c.is_ascii_alphabetic()))
}

/// Registers an example names with a hyphen: one finding per name, whose
/// fix writes `_` for the hyphen on every line of the Examples that has it.
fn hyphenated_registers(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(b) = s.block(BlockKind::Examples) else { return out };
    let code: Vec<&Line> = b.code().collect();
    let mut names: Vec<(String, &Line)> = Vec::new();
    for l in &code {
        let instruction = l.text.split("//").next().unwrap_or_default();
        let Some((_, operands)) = instruction.trim().split_once(char::is_whitespace) else { continue };
        // An address (`[a-4]`) may subtract; a name may not.
        let outside = operands.split(',').filter(|o| !o.contains('['));
        for w in outside.flat_map(|o| o.split(['{', '}', ';', ' ', '(', ')', '+'])) {
            let w = w.trim();
            if hyphenated(w) && !names.iter().any(|(n, _)| n == w) {
                names.push((w.to_string(), l));
            }
        }
    }
    for (name, first) in names {
        let new = name.replace('-', "_");
        let mut f = finding(
            s,
            &format!("hyphen-{}", name.replace('-', "")),
            FindingKind::MalformedCode,
            &name,
            format!(
                "the Examples name a register `{name}`: a PTX name holds no hyphen, so the line reads `{}`",
                name.replace('-', " - ")
            ),
            first,
        );
        f.repairs = super::on_each_line(code.iter().copied(), &name, &new);
        out.push(f);
    }
    out
}

/// A code span that writes a sub-qualifier with one colon (`.L2:evict`),
/// in a section that writes `::` elsewhere.
fn single_colons(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    if !s.all_lines().any(|l| l.text.contains("::")) {
        return out;
    }
    for l in prose_lines(s) {
        for span in spans(&l.text) {
            let b = span.as_bytes();
            let single = span.starts_with('.')
                && (1..b.len().saturating_sub(1))
                    .any(|i| b[i] == b':' && b[i - 1].is_ascii_alphanumeric() && b[i + 1].is_ascii_alphabetic());
            if !single {
                continue;
            }
            let fixed: String = {
                let mut t = String::new();
                for (i, c) in span.char_indices() {
                    t.push(c);
                    if c == ':' && b[i - 1] != b':' && b.get(i + 1) != Some(&b':') {
                        t.push(':');
                    }
                }
                t
            };
            let quoted = format!("`{span}`");
            let Some(at) = l.text.find(&quoted) else { continue };
            let mut f = finding(
                s,
                &format!("colon-{}", l.number),
                FindingKind::MalformedCode,
                &quoted,
                format!("`{span}` writes its sub-qualifier after one colon, where the section writes `::`"),
                l,
            );
            f.repairs = vec![Repair::at(l.number, &l.text, at, at + quoted.len(), &format!("`{fixed}`"))];
            out.push(f);
        }
    }
    out
}

/// Two comments alike in a Syntax block, each over a line, where the
/// lines' operands differ: the second describes the first's form. The fix
/// names the second's own operands.
fn copied_comments(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(b) = s.block(BlockKind::Syntax) else { return out };
    let code: Vec<&Line> = b.code().filter(|l| !l.text.trim().is_empty()).collect();
    let comment_over = |k: usize| -> Option<(&Line, &str, &str)> {
        let c = code[k].text.trim().strip_prefix("//")?.trim();
        let next = code.get(k + 1)?.text.trim();
        (!next.starts_with("//")).then_some((code[k], c, next))
    };
    let pairs: Vec<(&Line, &str, &str)> = (0..code.len()).filter_map(comment_over).collect();
    for w in pairs.windows(2) {
        let ((_, first, line_a), (l, second, line_b)) = (w[0], w[1]);
        let operands = |t: &str| t.split_once(char::is_whitespace).map(|(_, o)| o.trim().to_string());
        let (Some(a), Some(b)) = (operands(line_a), operands(line_b)) else { continue };
        if first != second || a == b {
            continue;
        }
        let own: Vec<&str> = b.trim_end_matches(';').split(',').map(str::trim).filter(|o| !a.contains(*o)).collect();
        let Some(differs) = own.first() else { continue };
        let mut f = finding(
            s,
            &format!("copied-comment-{}", l.number),
            FindingKind::Structure,
            second,
            format!(
                "the Syntax comment \"{second}\" stands over two forms, `{}` and `{}`: the second's describes the first",
                line_a.trim_end_matches(';'),
                line_b.trim_end_matches(';')
            ),
            l,
        );
        let text = l.text.trim_end();
        let body = second.trim_end_matches('.');
        let at = text.rfind(second).unwrap_or(0);
        f.repairs = vec![Repair::at(l.number, &l.text, at, text.len(), &format!("{body}, as `{differs}`."))];
        out.push(f);
    }
    out
}

/// `higher..`: two full stops after a word at the end of a sentence. An
/// ellipsis, and a range between code spans or numbers, are no slips.
fn double_stops(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for l in prose_lines(s) {
        let plain = prose_only(&l.text);
        let b = plain.as_bytes();
        for (i, _) in plain.match_indices("..") {
            let after_word = i > 0 && b[i - 1].is_ascii_alphabetic();
            let ends = b.get(i + 2).is_none_or(|c| c.is_ascii_whitespace());
            let ellipsis = i > 0 && b[i - 1] == b'.' || b.get(i + 2) == Some(&b'.');
            if !after_word || !ends || ellipsis {
                continue;
            }
            let start = plain[..i].rfind(|c: char| !c.is_ascii_alphabetic()).map_or(0, |k| k + 1);
            let word = &l.text[start..i + 2];
            let mut f = finding(
                s,
                &format!("double-stop-{}", l.number),
                FindingKind::Grammar,
                word,
                format!("`{word}`: the sentence ends with two full stops"),
                l,
            );
            f.repairs = vec![Repair::at(l.number, &l.text, start, i + 2, &word[..word.len() - 1])];
            out.push(f);
        }
    }
    out
}

/// The digit as a superscript, as a footnote's mark is set.
fn superscript(d: char) -> char {
    match d {
        '1' => '\u{b9}',
        '2' => '\u{b2}',
        '3' => '\u{b3}',
        _ => char::from_u32(0x2070 + d.to_digit(10).unwrap_or(0)).unwrap_or(d),
    }
}

/// `` `fence.sc`1, ``: a footnote's number right after a code span, which
/// reads as the end of the name (`fence.sc1`). The fix sets it as a
/// superscript.
fn fused_footnotes(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for l in prose_lines(s) {
        let mut open = false;
        for (i, _) in l.text.match_indices('`') {
            open = !open;
            let rest = &l.text[i + 1..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let follows = rest[digits.len()..].chars().next();
            if open || digits.is_empty() || digits.len() > 1 || follows.is_some_and(|c| c.is_alphanumeric()) {
                continue;
            }
            let start = l.text[..i].rfind('`').unwrap_or(i);
            let span = &l.text[start..=i];
            let old = format!("{span}{digits}");
            let mut f = finding(
                s,
                &format!("footnote-{}", l.number),
                FindingKind::Structure,
                &old,
                format!(
                    "`` {old} ``: the footnote number `{digits}` runs onto the code span and reads as part of the name"
                ),
                l,
            );
            let mark: String = digits.chars().map(superscript).collect();
            f.repairs = vec![Repair::at(l.number, &l.text, start, i + 1 + digits.len(), &format!("{span}{mark}"))];
            out.push(f);
        }
    }
    out
}

/// `multi- operations`: a word cut at its hyphen, with no second word to
/// share it (`8- and 16-bit`). The fix writes the one longer word of the
/// section that begins so (`multimem`), where there is one.
fn cut_words(s: &Section) -> Vec<Finding> {
    let shares = ["and", "or", "to", "through", "as", "nor"];
    let mut out = Vec::new();
    for l in prose_lines(s) {
        let plain = prose_only(&l.text);
        for (i, _) in plain.match_indices("- ") {
            let start = plain[..i].rfind(|c: char| !c.is_ascii_alphabetic()).map_or(0, |k| k + 1);
            let next: String = plain[i + 2..].chars().take_while(char::is_ascii_alphabetic).collect();
            let prefix = &plain[start..i];
            if prefix.len() < 3 || next.is_empty() || shares.contains(&next.as_str()) {
                continue;
            }
            // The words of the section's code, and of its code spans: a
            // name, not an English word that begins so (`multiple`).
            let code: Vec<String> =
                s.all_lines().map(|m| if m.code { m.text.clone() } else { spans(&m.text).join(" ") }).collect();
            let mut whole: Vec<String> = code
                .iter()
                .flat_map(|t| t.split(|c: char| !c.is_ascii_alphanumeric()).map(str::to_string).collect::<Vec<_>>())
                .filter(|w| w.len() > prefix.len() && w.starts_with(prefix))
                .collect();
            whole.sort();
            whole.dedup();
            let old = &l.text[start..i + 1];
            let mut f = finding(
                s,
                &format!("cut-word-{}", l.number),
                FindingKind::Grammar,
                &l.text[start..i + 2 + next.len()],
                format!("`{old}` is a word cut short at its hyphen: no second word shares it"),
                l,
            );
            if let [one] = whole.as_slice() {
                f.repairs = vec![Repair::at(l.number, &l.text, start, i + 1, one)];
            }
            out.push(f);
        }
    }
    out
}

/// A width written as one word, its number run onto its unit (`32bit
/// integer`): the document writes `32-bit` as an adjective and `32 bits`
/// as a count. The fix writes the hyphen, or the space before a plural.
fn run_on_widths(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    for l in prose_lines(s) {
        let plain = prose_only(&l.text);
        for word in plain.split(|c: char| !c.is_ascii_alphanumeric()) {
            let start = word.as_ptr() as usize - plain.as_ptr() as usize;
            let digits = word.chars().take_while(char::is_ascii_digit).count();
            let unit = &word[digits..];
            if digits == 0 || !["bit", "bits", "byte", "bytes"].contains(&unit) {
                continue;
            }
            let joined = if unit.ends_with('s') { " " } else { "-" };
            let mended = format!("{}{joined}{unit}", &word[..digits]);
            let mut f = finding(
                s,
                &format!("run-on-width-{}-{}", word.to_lowercase(), l.number),
                FindingKind::Grammar,
                word,
                format!("`{word}` runs the number onto its unit: the document writes `{mended}`"),
                l,
            );
            f.repairs = vec![Repair::at(l.number, &l.text, start, start + word.len(), &mended)];
            out.push(f);
        }
    }
    out
}

/// A Syntax line whose instruction a space cuts after a dot: read as
/// written, the instruction ends at the dot and the rest of its name is
/// its first operand. The fix closes the space.
fn spaced_dots(s: &Section) -> Vec<Finding> {
    let Some(b) = s.block(BlockKind::Syntax) else { return Vec::new() };
    let mut out = Vec::new();
    for l in b.code() {
        let code = l.text.split("//").next().unwrap_or_default();
        if super::defaults::opens_definition(code) {
            continue;
        }
        let Some(at) = super::defaults::spaced_dot(code) else { continue };
        let end = at + code[at..].len() - code[at..].trim_start().len();
        let word: String = code[end..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let mut f = finding(
            s,
            &format!("spaced-dot-{}", l.number),
            FindingKind::MalformedCode,
            &code[at - 1..end + word.len()],
            format!(
                "the Syntax line cuts `.{word}` from its instruction with a space after the dot: read as written, the instruction ends at `.` and `{word}` is an operand"
            ),
            l,
        );
        f.repairs = vec![Repair::at(l.number, &l.text, at - 1, end + word.len(), &format!(".{word}"))];
        out.push(f);
    }
    out
}

/// An example guarded by a predicate that it also reads as its address
/// (`@p atom.global.cas.b32 d,[p],...`): one register is a predicate or an
/// address, not both. The fix names the address apart (`[p_addr]`).
fn guard_as_address(s: &Section) -> Vec<Finding> {
    let Some(b) = s.block(BlockKind::Examples) else { return Vec::new() };
    let mut out = Vec::new();
    for l in b.code() {
        let code = l.text.split("//").next().unwrap_or_default();
        let Some(guard) = code.trim_start().strip_prefix('@') else { continue };
        let name: String = guard.trim_start_matches('!').chars().take_while(|c| super::in_name(*c)).collect();
        if name.is_empty() {
            continue;
        }
        let Some(open) = code
            .match_indices('[')
            .map(|(i, _)| i + 1)
            .find(|&i| code[i..].starts_with(name.as_str()) && !code[i + name.len()..].starts_with(super::in_name))
        else {
            continue;
        };
        let fresh = format!("{name}_addr");
        let mut f = finding(
            s,
            &format!("guard-address-{}", l.number),
            FindingKind::ExampleSyntax,
            &format!("[{name}"),
            format!(
                "the example is guarded by `@{name}` and reads `[{name}]` as its address: one register is a predicate \
                 or an address, not both"
            ),
            l,
        );
        f.repairs = vec![Repair::at(l.number, &l.text, open, open + name.len(), &fresh)];
        out.push(f);
    }
    out
}

/// A code span that writes a value of a Syntax set without its dot, paired
/// by a slash with one of the same set that has it (`` `.f16`/ `bf16` ``):
/// the dot lost, as its twin shows. The fix writes it.
fn undotted_spans(s: &Section) -> Vec<Finding> {
    let Some(g) = super::defaults::grammar(s) else { return Vec::new() };
    let mut out = Vec::new();
    for l in s.all_lines().filter(|l| !l.code) {
        let ticks: Vec<usize> = l.text.match_indices('`').map(|(i, _)| i).collect();
        // Each span: where its text starts and ends.
        let spans: Vec<(usize, usize)> = ticks.chunks_exact(2).map(|p| (p[0] + 1, p[1])).collect();
        for k in 0..spans.len() {
            let (at, end) = spans[k];
            let w = &l.text[at..end];
            let dotted = format!(".{w}");
            let twins = |j: usize| {
                let (a, b) = spans[j];
                let between = if j < k { &l.text[b + 1..at - 1] } else { &l.text[end + 1..a - 1] };
                let twin = &l.text[a..b];
                between.trim() == "/" && g.sets.values().any(|vs| vs.contains(&dotted) && vs.iter().any(|v| v == twin))
            };
            let plain = !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !plain || !((k > 0 && twins(k - 1)) || (k + 1 < spans.len() && twins(k + 1))) {
                continue;
            }
            let mut f = finding(
                s,
                &format!("undotted-{w}-{}", l.number),
                FindingKind::Name,
                &format!("`{w}`"),
                format!("the code span `{w}` writes the value `{dotted}` without its dot, where its twin across the slash has one"),
                l,
            );
            f.repairs = vec![Repair::at(l.number, &l.text, at, end, &dotted)];
            out.push(f);
        }
    }
    out
}

/// A code span of the prose that writes a dot before a braced qualifier
/// whose own dot is inside the braces (`cp.async.bulk.{.prefetch}`):
/// filled in, the name has two dots (`bulk..prefetch`), or ends in one
/// where the qualifier is left out. The fix drops the dot before the brace.
fn doubled_dots(s: &Section) -> Vec<Finding> {
    // Each span, once, with every line that writes it.
    let mut sites: Vec<(String, usize, Vec<Repair>, &Line)> = Vec::new();
    for l in s.all_lines().filter(|l| !l.code) {
        let ticks: Vec<usize> = l.text.match_indices('`').map(|(i, _)| i).collect();
        for pair in ticks.chunks_exact(2) {
            let (at, end) = (pair[0] + 1, pair[1]);
            let span = &l.text[at..end];
            let Some(k) = span.find(".{.") else { continue };
            if span.contains(char::is_whitespace) || !span.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue;
            }
            let fixed = format!("{}{}", &span[..k], &span[k + 1..]);
            let repair = Repair::at(l.number, &l.text, at, end, &fixed);
            match sites.iter_mut().find(|(w, ..)| w == span) {
                Some((_, _, repairs, _)) if !repairs.iter().any(|r| r.line == l.number) => repairs.push(repair),
                Some(_) => {}
                None => sites.push((span.to_string(), l.number, vec![repair], l)),
            }
        }
    }
    sites
        .into_iter()
        .map(|(span, first, repairs, l)| {
            let mut f = finding(
                s,
                &format!("doubled-dot-{first}"),
                FindingKind::Name,
                &format!("`{span}`"),
                format!(
                    "`{span}` writes a dot before `{{.`, whose qualifier brings its own: filled in, the name has two \
                     dots in a row, or ends in one ({} lines)",
                    repairs.len()
                ),
                l,
            );
            f.detail.extend(repairs.iter().skip(1).map(|r| format!("{}:{}: the same span.", s.file, r.line)));
            f.repairs = repairs;
            f
        })
        .collect()
}

/// `..` alone on a line of the examples: an elision with a dot lost.
fn short_elisions(s: &Section) -> Vec<Finding> {
    let Some(b) = s.block(BlockKind::Examples) else { return Vec::new() };
    b.code()
        .filter(|l| l.text.trim() == "..")
        .map(|l| {
            let mut f = finding(
                s,
                &format!("elision-{}", l.number),
                FindingKind::MalformedCode,
                "..",
                "a line of the examples holds `..` alone: no statement, and not the `...` that elides code".into(),
                l,
            );
            f.repairs = vec![Repair { line: l.number, old: "..".into(), new: "...".into() }];
            f
        })
        .collect()
}

/// Whether a line is a comment that opens an example of its own
/// (`// Example 1: no .noinc`).
fn opens_example(text: &str) -> bool {
    text.trim_start().strip_prefix("//").is_some_and(|c| c.trim_start().to_ascii_lowercase().starts_with("example"))
}

/// The label a line of code defines (`waitLoop:`), if any.
fn label_of(text: &str) -> Option<&str> {
    let code = text.split("//").next()?.trim();
    let (name, _) = code.split_once(':')?;
    let first = name.chars().next()?;
    let ok = (first.is_ascii_alphabetic() || matches!(first, '_' | '$'))
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$'));
    // `.shared::cta` and `a ? b : c` are no labels.
    (ok && !code[name.len()..].starts_with("::")).then_some(name)
}

/// A label defined twice in one block of examples. The fix renames the
/// second and its uses after it (`waitLoop2`).
fn twice_labelled(s: &Section) -> Vec<Finding> {
    let Some(b) = s.block(BlockKind::Examples) else { return Vec::new() };
    let code: Vec<&Line> = b.code().collect();
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (k, l) in code.iter().enumerate() {
        // A comment that opens an example (`// Example 2: with .noinc`) starts
        // a program of its own.
        if opens_example(&l.text) {
            seen.clear();
        }
        let Some(name) = label_of(&l.text) else { continue };
        if !seen.contains(&name) {
            seen.push(name);
            continue;
        }
        let fresh = (2..).map(|n| format!("{name}{n}")).find(|f| !code.iter().any(|m| m.text.contains(f.as_str())));
        let mut f = finding(
            s,
            &format!("label-twice-{}", l.number),
            FindingKind::ExampleSyntax,
            &format!("{name}:"),
            format!("the examples define the label `{name}` twice: read as one program, the second is an error"),
            l,
        );
        if let Some(fresh) = fresh {
            f.repairs = code[k..]
                .iter()
                .take_while(|m| m.number == l.number || (label_of(&m.text) != Some(name) && !opens_example(&m.text)))
                .filter_map(|m| {
                    super::names_at(&m.text, name)
                        .next()
                        .map(|i| Repair::at(m.number, &m.text, i, i + name.len(), &fresh))
                })
                .collect();
        }
        out.push(f);
    }
    out
}

fn section(s: &Section) -> Vec<Finding> {
    let mut out = run_on(s);
    out.extend(short_elisions(s));
    out.extend(spaced_dots(s));
    out.extend(guard_as_address(s));
    out.extend(undotted_spans(s));
    out.extend(doubled_dots(s));
    out.extend(twice_labelled(s));
    out.extend(double_stops(s));
    out.extend(fused_footnotes(s));
    out.extend(cut_words(s));
    out.extend(run_on_widths(s));
    out.extend(unended(s));
    out.extend(set_terminators(s));
    out.extend(hyphenated_registers(s));
    out.extend(single_colons(s));
    out.extend(copied_comments(s));
    out
}

/// Every slip of typing the passes above name.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::check;

    fn found(text: &str) -> Vec<(String, Vec<(String, String)>)> {
        let doc = Document::made(text);
        check(&doc).into_iter().map(|f| (f.summary, f.repairs.into_iter().map(|r| (r.old, r.new)).collect())).collect()
    }

    const HEAD: &str = "#### 9.7.9.18. Data Movement and Conversion Instructions: `createpolicy`\n\n`createpolicy`\n\n";

    #[test]
    fn a_run_on_sentence_and_a_paragraph_without_its_full_stop_are_found() {
        let got = found(&format!(
            "{HEAD}Description\n\nThe hint fetches data into the cache level.The size is one of\n`64B` or `128B` \
             respectively\n\nSupported modes are described in [Addresses as Operands](https://x.y/#a-b)\n\nShort label\n\n\
             Table 33 Tensormap new value validity and its long caption[](https://x.y/#t)\n\nAn `e.g.` and a `.b32.The` \
             are code, and i.e. this ends.\n"
        ));
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0].1, vec![("level.The".to_string(), "level. The".to_string())]);
        assert!(got[1].0.contains("`128B` respectively\""), "{got:?}");
        assert_eq!(got[1].1[0].1, "`64B` or `128B` respectively.");
        assert!(got[2].0.contains("Addresses as Operands"), "{got:?}");
    }

    #[test]
    fn a_width_run_onto_its_unit_is_found() {
        let got = found(&format!("{HEAD}Description\n\nIt’s a 32bit integer, and 8bytes, in `32bit` code.\n"));
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].1, vec![("32bit".to_string(), "32-bit".to_string())]);
        assert_eq!(got[1].1, vec![("8bytes".to_string(), "8 bytes".to_string())]);
    }

    #[test]
    fn a_dot_before_a_braced_qualifier_with_its_own_is_doubled() {
        let got = found(&format!(
            "{HEAD}Description\n\nThe prior `cp{{.reduce}}.async.bulk.{{.prefetch}}{{.tensor}}` instructions, and \
             `cp.async{{.bulk}}` and `x .{{.y}}` are read.\n\nThe `cp{{.reduce}}.async.bulk.{{.prefetch}}{{.tensor}}` ones.\n"
        ));
        // One finding, an edit on each line that writes the span.
        assert_eq!(got.len(), 1, "{got:?}");
        let edit = (
            "cp{.reduce}.async.bulk.{.prefetch}{.tensor}".to_string(),
            "cp{.reduce}.async.bulk{.prefetch}{.tensor}".to_string(),
        );
        assert_eq!(got[0].1, vec![edit.clone(), edit]);
    }

    #[test]
    fn slips_of_the_code_are_found_with_their_fixes() {
        let got = found(&format!(
            "{HEAD}Syntax\n\n```\n// Maps a variable.\nmapa.type d, sh, b;\n\n// Maps a variable.\n\
             mapa.type d, sh + imm, b;\n\n.a = {{ .x }};\n.b = {{ .y }};\n.c = {{ .z,\n       .w }}\n```\n\n\
             Description\n\nThe policy `.L2:evict_last` is the `.L2::evict_last` one.\n\nExamples\n\n```\n\
             createpolicy.cvt.L2.b64 policy, access-prop;\nld.u32 d, [a-b], cache-policy; // cache-policy\n```\n"
        ));
        let fixes: Vec<Vec<(String, String)>> = got.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(fixes[0], vec![(".w }".to_string(), ".w };".to_string())]);
        assert_eq!(fixes[1], vec![("access-prop".to_string(), "access_prop".to_string())]);
        assert_eq!(fixes[2].len(), 1, "the name once per line: {fixes:?}");
        assert_eq!(fixes[3], vec![("`.L2:evict_last`".to_string(), "`.L2::evict_last`".to_string())]);
        assert_eq!(fixes[4], vec![("Maps a variable.".to_string(), "Maps a variable, as `sh + imm`.".to_string())]);
    }

    #[test]
    fn a_short_elision_and_a_label_defined_twice_are_found() {
        let got = found(&format!(
            "{HEAD}Examples\n\n```\nwaitLoop:\n@p bra waitLoop;\n..\nx = a ? b : c;\n\
             ld.shared::cta.b32 r, [a];\nwaitLoop:\n@!p bra waitLoop;\ndone:\n```\n"
        ));
        let fixes: Vec<Vec<(String, String)>> = got.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(fixes[0], vec![("..".to_string(), "...".to_string())]);
        assert_eq!(
            fixes[1],
            vec![("waitLoop".to_string(), "waitLoop2".to_string()), ("waitLoop".to_string(), "waitLoop2".to_string())]
        );
        // Two programs, each under a comment that opens it, may each have it.
        let two = found(&format!(
            "{HEAD}Examples\n\n```\n// Example 1: one\nwaitLoop:\n@p bra waitLoop;\n\
             // Example 2: two\nwaitLoop:\n@!p bra waitLoop;\n```\n"
        ));
        assert!(two.is_empty(), "{two:?}");
    }

    #[test]
    fn a_syntax_line_cut_by_a_space_after_a_dot_is_found_and_read_closed() {
        let text = format!(
            "{HEAD}Syntax\n\n```\ncreatepolicy.op.noftz{{.hint}}. vec.half [a], b;\n.op = {{ .add }};\n.vec = {{ .v2 }};\n\
             .half = {{ .f16 }};\n```\n\nExamples\n\n```\ncreatepolicy.add.noftz.v2.f16 [a], b;\n```\n"
        );
        let got = found(&text);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].1, vec![(". vec".to_string(), ".vec".to_string())]);
        assert!(super::super::forms::check(&Document::made(&text)).is_empty());
        // Before a number, a dot ends no qualifier.
        assert_eq!(super::super::defaults::spaced_dot("add.u32 d, a. 1;"), None);
        assert_eq!(super::super::defaults::spaced_dot("add. u32 d, a;"), Some(4));
    }

    #[test]
    fn a_value_written_without_its_dot_beside_its_dotted_twin_is_found() {
        let got = found(&format!(
            "{HEAD}Syntax\n\n```\ncreatepolicy.type d;\n.type = {{ .f16, .bf16 }};\n```\n\nDescription\n\n\
             | Types | Ops |\n| --- | --- |\n| `.f16`/ `bf16` | `add` |\n\nThe `bf16` alone, and `.f16`, `bf16`, are words here.\n"
        ));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].1, vec![("bf16".to_string(), ".bf16".to_string())]);
    }

    #[test]
    fn a_guard_read_as_the_address_too_is_found() {
        let got = found(&format!(
            "{HEAD}Examples\n\n```\n@p  atom.global.cas.b32  d,[p],my_val,my_new_val;\n@!p red.add.u32 [pa], 1;\n\
             @q red.add.u32 [a+4], q;\n```\n"
        ));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].1, vec![("d,[p".to_string(), "d,[p_addr".to_string())]);
    }

    #[test]
    fn two_stops_a_fused_footnote_and_a_cut_word_are_found() {
        let got = found(&format!(
            "{HEAD}Description\n\nThe `fence` requires `sm_90` or higher.. The `multimem.st` acts.\n\n\
             A range `MIN`.. `MAX` and 0..31 and so on... are fine.\n\n\
             The `membar` is `fence.sc`1, and the `fence.sc`s and `x`2b are not.\n\n\
             For multi- operations and 8- and 16-bit ones, see multiple.\n"
        ));
        let said: Vec<(&str, Vec<(String, String)>)> = got.iter().map(|(s, r)| (s.as_str(), r.clone())).collect();
        assert_eq!(
            said,
            [
                ("`higher..`: the sentence ends with two full stops", vec![("higher..".into(), "higher.".into())]),
                (
                    "`` `fence.sc`1 ``: the footnote number `1` runs onto the code span and reads as part of the name",
                    vec![("`fence.sc`1".into(), "`fence.sc`\u{b9}".into())]
                ),
                (
                    "`multi-` is a word cut short at its hyphen: no second word shares it",
                    vec![("multi-".into(), "multimem".into())]
                ),
            ]
        );
    }
}
