//! The unstated-case pass over the Semantics blocks: every function a block
//! calls that the document never defines is a helper whose meaning the
//! reader must guess. Each is a finding (class unstated case, under a root
//! cause); the helper table (`checker/text/helpers.toml`) says how the
//! model reads it and which passages of the audit compare the readings that
//! matter, or why none differ. A helper the table does not know, or a use
//! the table lists that the document no longer has, is reported so that a
//! newer document's helpers are looked at.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Deserialize;

use super::document::{BlockKind, Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair, Severity};

/// One section's use of a helper, as the table records it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Use {
    pub section: String,
    /// The audit's passages that compare the readings that matter here.
    #[serde(default)]
    pub passages: Vec<String>,
    /// Why no reading of the helper differs here.
    #[serde(default)]
    pub agree: Option<String>,
}

/// A helper the blocks call, as the table records it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Helper {
    pub name: String,
    /// How the model reads it.
    pub model: String,
    #[serde(rename = "use")]
    pub uses: Vec<Use>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelperTable {
    /// Words followed by `(` that are not calls: C's keywords and operators
    /// spelled as words.
    pub not_calls: Vec<String>,
    /// Functions C's standard library defines: calls of C's, not helpers.
    pub c_library: Vec<String>,
    /// Names whose words fix their meaning: calls, not helpers to define.
    #[serde(default)]
    pub evident: Vec<Evident>,
    /// Sentences that define a helper, proposed as the fix of its calls.
    #[serde(default)]
    pub definition: Vec<Definition>,
    pub helper: Vec<Helper>,
}

/// A helper's meaning in a sentence of the fix: `{call}` stands for the call
/// as written (`isPresent(c)`), `{0}` for its operand.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Definition {
    pub name: String,
    pub sentence: String,
    pub reason: String,
}

/// A name whose words say all it does, with the reason no second reading
/// exists.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evident {
    pub name: String,
    /// Evident only on a type the Syntax names, the call's one operand.
    #[serde(default)]
    pub on_type: bool,
    pub reason: String,
}

/// Whether a call's one operand is a set of types the section's Syntax
/// names (`convertType` of `MAX(convertType)`, `.convertType = {...}`).
fn on_a_named_type(section: &Section, name: &str, fragment: &str) -> bool {
    let operand = fragment.strip_prefix(&format!("{name}(")).and_then(|a| a.strip_suffix(')'));
    let Some(operand) = operand.filter(|o| !o.is_empty() && o.chars().all(is_ident_char)) else { return false };
    let set = format!(".{operand}");
    section.block(BlockKind::Syntax).is_some_and(|b| {
        b.code().any(|l| l.text.split_once('=').is_some_and(|(n, _)| n.split('=').any(|n| n.trim() == set)))
    })
}

pub const FILE: (&str, &str) = ("checker/text/helpers.toml", include_str!("../../../text/helpers.toml"));

pub static TABLE: LazyLock<HelperTable> =
    LazyLock::new(|| toml::from_str(FILE.1).unwrap_or_else(|e| panic!("the built-in {}: {e}", FILE.0)));

impl HelperTable {
    pub fn helper(&self, name: &str) -> Option<&Helper> {
        self.helper.iter().find(|h| h.name == name)
    }
}

/// A call of a function the document does not define, in a Semantics block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    pub section: String,
    pub file: String,
    pub line: usize,
    /// The call as written, up to its closing parenthesis.
    pub fragment: String,
    /// A function the document does define whose name this one shortens or
    /// spells out (`optSecOp` for `optSecondaryOp`): the name the call
    /// most likely means.
    pub near: Option<String>,
}

/// Whether one name is the other with letters left out, from the same
/// first three letters to the same last one: `optSecOp` and
/// `optSecondaryOp`, not `min` and `max`.
fn shortens(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    if short.len() == long.len() || short.len() < 4 || !long.starts_with(&short[..3]) {
        return false;
    }
    if short.chars().last() != long.chars().last() {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

/// A line of code without its comment.
pub(super) fn code_of(text: &str) -> &str {
    let end = [text.find("//"), text.find("/*")].into_iter().flatten().min().unwrap_or(text.len());
    &text[..end]
}

pub(super) fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `name(` of a line of code: the name, where it starts, and the call
/// up to its matching `)` (or the end of the line).
fn calls_in(code: &str) -> Vec<(String, usize, String)> {
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let (start, c) = chars[k];
        let after_ident = start > 0 && code[..start].chars().next_back().is_some_and(|p| is_ident_char(p) || p == '.');
        if !(c.is_ascii_alphabetic() || c == '_') || after_ident {
            k += 1;
            continue;
        }
        let mut j = k;
        while j < chars.len() && is_ident_char(chars[j].1) {
            j += 1;
        }
        let name = &code[start..chars.get(j).map_or(code.len(), |x| x.0)];
        let mut m = j;
        while m < chars.len() && chars[m].1 == ' ' {
            m += 1;
        }
        if m < chars.len() && chars[m].1 == '(' {
            let mut depth = 0;
            let mut end = code.len();
            for &(at, ch) in &chars[m..] {
                match ch {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = at + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            out.push((name.to_string(), start, code[start..end].trim_end().to_string()));
        }
        k = j;
    }
    out
}

/// The names a block assigns (`F = ...`): locals, defined where they are.
fn assigned(lines: &[&Line]) -> HashSet<String> {
    let mut out = HashSet::new();
    for l in lines {
        for statement in code_of(&l.text).split(';') {
            let s = statement.trim();
            let name: String = s.chars().take_while(|c| is_ident_char(*c)).collect();
            let rest = s[name.len()..].trim_start();
            if !name.is_empty() && rest.starts_with('=') && !rest.starts_with("==") {
                out.insert(name);
            }
        }
    }
    out
}

/// The helper a line defines by an equation (`inc(r, s) = (r >= s) ? 0 :
/// r+1;`, under a `where`): its name, where its parameters are plain names.
fn equation_name(code: &str) -> Option<String> {
    let (head, rest) = code.split_once('=')?;
    if rest.starts_with('=') {
        return None;
    }
    let (name, params) = head.trim().strip_suffix(')')?.split_once('(')?;
    let plain = |w: &str| !w.is_empty() && w.chars().all(is_ident_char);
    (plain(name.trim()) && params.split(',').all(|p| plain(p.trim()))).then(|| name.trim().to_string())
}

/// The functions the document's code defines: a line `[type] name(...) {`
/// or `[type] name(...)` that is no statement (no `;`).
fn defined(doc: &Document, not_calls: &[String]) -> HashSet<String> {
    let mut out = HashSet::new();
    for s in &doc.sections {
        for l in s.all_lines().filter(|l| l.code) {
            let code = code_of(&l.text).trim();
            if let Some(name) = equation_name(code) {
                out.insert(name);
                continue;
            }
            if code.ends_with(';') {
                continue;
            }
            for (name, start, call) in calls_in(code) {
                let before = code[..start].trim();
                let rest = code[start + call.len()..].trim();
                // A C type (`int`, `unsigned int`) or a PTX one (`.s33`).
                let head_is_type = before.is_empty()
                    || before.split_whitespace().all(|w| {
                        let w = w.strip_prefix('.').unwrap_or(w);
                        !w.is_empty() && w.chars().all(is_ident_char)
                    });
                if head_is_type && (rest.is_empty() || rest == "{") && !not_calls.contains(&name) {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// `isS16`, `isU16`: a test of whether a type is the qualifier its name
/// spells, which no reader can take two ways.
fn tests_a_type(name: &str) -> bool {
    name.strip_prefix("is").is_some_and(|t| super::captions::type_word(t).is_some())
}

/// A helper named by a verb that the section's Description uses of the
/// operands (`convert` where it says "Converts input operand `a` from
/// `.atype` into `.f32`"), or by a noun it gives an operand ("the length
/// of `tlist`" for `length(tlist)`), or a call the Description writes in
/// code and goes on to define (`` `isPresent(c)` is true ... ``): the prose
/// says what it does.
fn described(s: &Section, name: &str) -> bool {
    let Some(b) = s.block(BlockKind::Description) else { return false };
    let prose: Vec<&Line> = b.lines.iter().filter(|l| !l.code).collect();
    let joined = prose.iter().map(|l| l.text.trim()).collect::<Vec<_>>().join(" ");
    let opened = format!("`{name}(");
    let spans = joined.split(&opened).skip(1);
    // `` `f(x)` is undefined`` or `` is not ...`` defines nothing.
    let defines = |rest: &str| {
        rest.split_once('`').is_some_and(|(_, after)| {
            DEFINING.iter().any(|v| after.starts_with(v))
                && !["is undefined", "is not ", "is unspecified"].iter().any(|n| after[1..].starts_with(n))
        })
    };
    if spans.clone().any(defines) {
        return true;
    }
    if name.len() < 4 || !name.chars().all(|c| c.is_ascii_lowercase()) {
        return false;
    }
    let verb = prose.iter().any(|l| {
        let lower = l.text.to_lowercase();
        lower.contains("operand") && lower.split(|c: char| !c.is_ascii_alphabetic()).any(|w| w.starts_with(name))
    });
    verb || joined.to_lowercase().contains(&format!("{name} of `"))
}

/// The words after a call's code span that define it.
const DEFINING: [&str; 3] = [" is ", " returns ", " gives "];

/// The Syntax's set a helper's name spells (`BoolOp` for `.BoolOp`) and a
/// form the Syntax writes without it, where it has one.
fn placeholder_left_out(section: &Section, name: &str) -> Option<String> {
    let b = section.block(BlockKind::Syntax)?;
    let set = format!(".{name}");
    let lines: Vec<&str> = b.code().map(|l| l.text.trim()).collect();
    let defined = lines.iter().any(|l| l.split_once('=').is_some_and(|(n, _)| n.trim() == set));
    let templates = lines.iter().filter(|l| l.contains(' ') && !l.contains('=') && !l.starts_with('.'));
    let without = templates.clone().find(|l| !l.split_whitespace().next().unwrap_or_default().contains(&set));
    (defined && templates.count() > 0).then_some(without.map(|l| l.to_string())).flatten()
}

/// The fix of a call the table has a definition for: its sentence, ending
/// the Description's first paragraph.
fn defined_by_sentence(section: &Section, call: &Call, table: &HelperTable) -> Vec<Repair> {
    let Some(d) = table.definition.iter().find(|d| d.name == call.name) else { return Vec::new() };
    let operand = call.fragment.strip_prefix(&format!("{}(", call.name)).and_then(|a| a.strip_suffix(')'));
    let Some(operand) = operand.filter(|o| o.chars().all(is_ident_char)) else { return Vec::new() };
    // A sentence on a type (`.{0}`) holds only where the operand is a type
    // the Syntax names.
    let syntax: String =
        section.block(BlockKind::Syntax).map(|b| b.code().map(|l| l.text.clone()).collect()).unwrap_or_default();
    if d.sentence.contains(".{0}") && !syntax.contains(&format!(".{operand}")) {
        return Vec::new();
    }
    let sentence = d.sentence.replace("{call}", &call.fragment).replace("{0}", operand);
    super::ending_description(section, &sentence).into_iter().collect()
}

/// The C operator of each value of a Boolean set (`.BoolOp = { and, or,
/// xor }`).
const BOOLEAN_OPERATORS: [(&str, &str); 3] = [("and", "&"), ("or", "|"), ("xor", "^")];

/// The fix of a Boolean set called as a function (`BoolOp(t, c)`) that some
/// forms lack: each call of two operands written out as the choice of its
/// set's values, each value its C operator (as in the seeds' fix of set and
/// setp), and the first operand where the form has none of them, as it has
/// no `c`. None where a value of the set is no Boolean operator.
fn set_written_out(section: &Section, name: &str) -> Vec<Repair> {
    let Some(syntax) = section.block(BlockKind::Syntax) else { return Vec::new() };
    let set = format!(".{name}");
    let text: String = syntax.code().map(|l| l.text.trim()).collect::<Vec<_>>().join(" ");
    let Some(values) = text
        .split_once(&format!("{set} = {{"))
        .or_else(|| text.split_once(&format!("{set}={{")))
        .and_then(|(_, rest)| rest.split_once('}'))
        .map(|(list, _)| list.split(',').map(|v| v.trim().trim_start_matches('.')).collect::<Vec<_>>())
    else {
        return Vec::new();
    };
    let Some(ops) = values
        .iter()
        .map(|v| BOOLEAN_OPERATORS.iter().find(|(n, _)| n == v).map(|(n, op)| (*n, *op)))
        .collect::<Option<Vec<_>>>()
    else {
        return Vec::new();
    };
    let Some(b) = section.block(BlockKind::Semantics) else { return Vec::new() };
    let mut out = Vec::new();
    for l in b.code() {
        let mut new = l.text.clone();
        for (call_name, _, call) in calls_in(code_of(&l.text)) {
            let args = call.strip_prefix(&format!("{name}(")).and_then(|a| a.strip_suffix(')'));
            let Some((x, y)) = args.filter(|_| call_name == name).and_then(split_two) else { continue };
            let choices: String = ops.iter().map(|(v, op)| format!("({set} == .{v}) ? ({x} {op} {y}) : ")).collect();
            new = new.replacen(&call, &format!("({choices}{x})"), 1);
        }
        if new != l.text {
            out.push(Repair { line: l.number, old: l.text.trim().to_string(), new: new.trim().to_string() });
        }
    }
    out
}

/// A call's two operands, split at the comma outside brackets.
fn split_two(args: &str) -> Option<(String, String)> {
    let mut depth = 0i32;
    for (i, c) in args.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => return Some((args[..i].trim().to_string(), args[i + 1..].trim().to_string())),
            _ => {}
        }
    }
    None
}

/// Every helper call of the Semantics blocks, one per section and name (the
/// first; a section rendered twice speaks once).
pub fn calls(doc: &Document, table: &HelperTable) -> Vec<Call> {
    let defined = defined(doc, &table.not_calls);
    let mut out: Vec<Call> = Vec::new();
    for s in &doc.sections {
        let Some(b) = s.block(BlockKind::Semantics) else { continue };
        let lines: Vec<&Line> = b.code().collect();
        let locals = assigned(&lines);
        for l in &lines {
            for (name, _, fragment) in calls_in(code_of(&l.text)) {
                let evident = |e: &Evident| e.name == name && (!e.on_type || on_a_named_type(s, &name, &fragment));
                let c_library = table.c_library.contains(&name)
                    || table.evident.iter().any(evident)
                    || tests_a_type(&name)
                    || described(s, &name);
                if c_library || table.not_calls.contains(&name) || locals.contains(&name) || defined.contains(&name) {
                    continue;
                }
                if out.iter().any(|c| c.section == s.number && c.name == name) {
                    continue;
                }
                let mut near: Vec<&String> = defined.iter().filter(|d| shortens(d, &name)).collect();
                near.sort();
                let near = near.first().map(|d| d.to_string());
                out.push(Call {
                    name,
                    section: s.number.clone(),
                    file: s.file.clone(),
                    line: l.number,
                    fragment,
                    near,
                });
            }
        }
    }
    out
}

/// The finding for a call: an unstated case, with the model's reading and
/// where its readings are compared.
fn finding(call: &Call, section: &Section, table: &HelperTable) -> Finding {
    let mut detail = vec![format!("At {}:{}.", call.file, call.line)];
    let entry = table.helper(&call.name);
    let used = entry.and_then(|h| h.uses.iter().find(|u| u.section == call.section));
    match (entry, used) {
        (Some(h), Some(u)) => {
            detail.push(format!("The model reads it as {}.", h.model));
            if !u.passages.is_empty() {
                let ids: Vec<String> = u.passages.iter().map(|p| format!("`{p}`")).collect();
                detail.push(format!("Its readings are compared in {} (`ptxcheck audit --id`).", ids.join(", ")));
            }
            if let Some(why) = &u.agree {
                detail.push(format!("No reading differs here: {why}."));
            }
        }
        _ => detail.push(format!(
            "Not in {} for section {}: look at what it may mean, and record it there.",
            FILE.0, call.section
        )),
    }
    Finding {
        id: format!("text-helper-{}-{}", call.section, call.name.to_lowercase()),
        section: section.number.clone(),
        kind: FindingKind::UndefinedHelper,
        severity: Severity::Low,
        root_cause: String::new(),
        fragment: call.fragment.clone(),
        summary: match placeholder_left_out(section, &call.name) {
            // The Syntax's set called as a function: defined for the forms
            // that have it, and open for those that do not.
            Some(form) => format!(
                "the Semantics block calls `{}` on every form, but the Syntax's `{}` has no `.{}`: what the \
                 call gives there is stated nowhere",
                call.fragment,
                form.split_whitespace().next().unwrap_or_default(),
                call.name
            ),
            None => match &call.near {
                Some(near) => format!(
                    "the Semantics block calls `{}`, which the text never defines; it defines `{near}`, the same \
                     name with letters {}",
                    call.name,
                    if near.len() < call.name.len() { "left out" } else { "added" }
                ),
                None => format!("the Semantics block calls `{}`, which the text never defines", call.name),
            },
        },
        detail,
        model_choice: used.and(entry).map(|h| h.model.clone()),
        witness: None,
        more_witnesses: Vec::new(),
        also_quotes: Vec::new(),
        repairs: match placeholder_left_out(section, &call.name) {
            // The set's calls written out, each value its operator.
            Some(_) => set_written_out(section, &call.name),
            None if call.near.is_none() => defined_by_sentence(section, call, table),
            // The call renamed to the function the text defines, as a whole
            // word (`max` is also the end of `fmax`).
            None => call
                .near
                .iter()
                .filter_map(|near| {
                    let l = section.all_lines().find(|l| l.number == call.line)?;
                    let at = super::names_at(&l.text, &call.name).next()?;
                    Some(Repair::at(l.number, &l.text, at, at + call.name.len(), near))
                })
                .collect(),
        },
    }
}

/// The number of arguments of a call as written (`f( a, g(b, c) )` has
/// two; `f()` none).
fn arity(call: &str) -> usize {
    let Some((_, args)) = call.split_once('(') else { return 0 };
    let args = args.strip_suffix(')').unwrap_or(args);
    if args.trim().is_empty() {
        return 0;
    }
    let mut depth = 0i32;
    let mut n = 1;
    for c in args.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => n += 1,
            _ => {}
        }
    }
    n
}

/// A function the Semantics blocks call with fewer arguments in one place
/// than everywhere else (`extractAndSignExt_2( c )` beside
/// `extractAndSignExt_2( a, b, .asel, .atype )`): what the short call
/// extracts, and how, is left to the reader.
pub fn arities(doc: &Document, table: &HelperTable) -> Vec<Finding> {
    let mut calls: Vec<(String, usize, &Section, &Line, String)> = Vec::new();
    for s in doc.first_renderings() {
        let Some(b) = s.block(BlockKind::Semantics) else { continue };
        for l in b.code() {
            for (name, _, fragment) in calls_in(code_of(&l.text)) {
                if table.not_calls.contains(&name) || table.c_library.contains(&name) {
                    continue;
                }
                calls.push((name, arity(&fragment), s, l, fragment));
            }
        }
    }
    let mut out = Vec::new();
    for (name, n, s, l, fragment) in &calls {
        let others: Vec<&(String, usize, &Section, &Line, String)> =
            calls.iter().filter(|c| c.0 == *name && c.1 != *n).collect();
        // The short call is the odd one: a call of one argument (or none),
        // complete on its line, where every other call passes three or
        // more (`max(a, b)` beside `max(a, b, c)` is another arity of one
        // function, not a call left short).
        let complete = fragment.ends_with(')');
        let (Some(other), true) = (others.first(), complete && *n <= 1 && others.iter().all(|c| c.1 >= 3)) else {
            continue;
        };
        if out.iter().any(|f: &Finding| f.section == s.number && f.fragment == *fragment) {
            continue;
        }
        out.push(Finding::of_text(
            format!("text-helper-{}-{}-arguments-{}", s.number, name.to_lowercase(), l.number),
            s.number.clone(),
            FindingKind::Ambiguity,
            fragment.clone(),
            format!(
                "the Semantics block calls `{name}` with {n} argument{}, where the text's other calls pass {}: \
                 what the short call takes from its operand, and how it extends it, is stated nowhere",
                if *n == 1 { "" } else { "s" },
                other.1
            ),
            vec![format!(
                "{}:{}: `{fragment}` against `{}` ({} {}): the arguments the other calls pass (selectors, types) \
                 are the ones that say what is extracted.",
                s.file, l.number, other.4, other.2.number, other.3.number
            )],
        ));
    }
    out
}

/// What the pass found: a finding per helper call, and every disagreement
/// between the document and the table, one line each.
pub struct HelperCheck {
    pub findings: Vec<Finding>,
    pub unlisted: Vec<String>,
}

/// Check the document's helpers against `table`. A use the table lists for
/// a section the document renders without calling the helper there is
/// reported as well; sections the document does not render are not.
pub fn check(doc: &Document, table: &HelperTable) -> HelperCheck {
    let calls = calls(doc, table);
    let covered = super::document::covered();
    let mut findings = Vec::new();
    let mut unlisted = Vec::new();
    for c in &calls {
        let Some(section) = doc.section(&c.section) else { continue };
        let known = table.helper(&c.name).is_some_and(|h| h.uses.iter().any(|u| u.section == c.section));
        // The table lists the helpers of the sections ptxcheck models; a
        // call elsewhere is a finding, with nothing to add to the table.
        if !known && covered.contains(&c.section) {
            unlisted.push(format!("helper not in {}: `{}` in {} ({}:{})", FILE.0, c.name, c.section, c.file, c.line));
        }
        findings.push(finding(c, section, table));
    }
    for h in &table.helper {
        for u in &h.uses {
            let rendered = doc.section(&u.section).is_some();
            if rendered && !calls.iter().any(|c| c.name == h.name && c.section == u.section) {
                unlisted.push(format!(
                    "helper gone: {} lists `{}` in {}, the text no longer calls it",
                    FILE.0, h.name, u.section
                ));
            }
        }
    }
    HelperCheck { findings, unlisted }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::passages::PASSAGES;
    use ptx_spec::catalogue::Variant;

    #[test]
    fn calls_are_found_with_their_fragment() {
        let found = calls_in("if (isActive(Thread) && isGuardPredicateTrue(Thread)) {");
        let names: Vec<&str> = found.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names, ["if", "isActive", "isGuardPredicateTrue"]);
        assert_eq!(found[1].2, "isActive(Thread)");
        assert_eq!(calls_in("sbit = a[min(pos+len-1,msb)];")[0].2, "min(pos+len-1,msb)");
        // A member or a qualifier followed by `(` is no call.
        assert!(calls_in("x = s.f(1); y = .op (2);").is_empty());
        assert_eq!(code_of("d = c; // sign (or zero)"), "d = c; ");
    }

    #[test]
    fn assignments_and_definitions_are_not_helpers() {
        let line = |t: &str| Line { number: 1, text: t.into(), code: true };
        let (a, b) = (line("F = Get(x); // F (a function)"), line("d = F(a, b, c);"));
        assert_eq!(assigned(&[&a, &b]), HashSet::from(["F".to_string(), "d".to_string()]));
        let doc = Document {
            sections: vec![Section {
                number: "9.7.1.1".into(),
                title: String::new(),
                file: "f".into(),
                line: 1,
                intro: vec![
                    line("int clamp(int x) {"),
                    line("if (x) {"),
                    line("y = g(x);"),
                    line(".s33 sat33( .s34 tmp, Bool sat ) {"),
                ],
                blocks: Vec::new(),
            }],
        };
        let not_calls = TABLE.not_calls.clone();
        let both = HashSet::from(["clamp".to_string(), "sat33".to_string()]);
        assert_eq!(defined(&doc, &not_calls), both);
    }

    /// `sqrt` is C's (<math.h>) and `isNaN` IEEE 754's; `isQuiet` is
    /// neither, and no name says which NaN it means.
    #[test]
    fn the_c_library_is_not_a_helper() {
        let text = "#### 9.7.3.15. sqrt\n\nSemantics\n\n```\nd = isNaN(a) && !isQuiet(a) ? a : sqrt(a);\n```\n";
        let doc = Document { sections: super::super::document::parse("f.md", text.as_bytes()).unwrap() };
        let names: Vec<String> = calls(&doc, &TABLE).into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["isQuiet"]);
    }

    /// A type test by its name, a verb the Description uses of the
    /// operands, a noun it gives one, and the Syntax's set called as a
    /// function.
    #[test]
    fn a_helper_defined_by_an_equation_is_defined() {
        assert_eq!(equation_name("inc(r, s)  = (r >= s) ? 0 : r+1;"), Some("inc".to_string()));
        assert_eq!(equation_name("cas(r,s,t) = (r == s) ? t : r;"), Some("cas".to_string()));
        assert_eq!(equation_name("d = f(a, b);"), None);
        assert_eq!(equation_name("if (f(a) == b)"), None);
        let text = "#### 9.7.13.6. Parallel Synchronization and Communication Instructions: `red`\n\n`red`\n\n\
                    Reduce.\n\nSemantics\n\n```\n*a = inc(*a, b);\n\nwhere\n    inc(r, s) = (r >= s) ? 0 : r+1;\n```\n";
        let doc = Document { sections: super::super::document::parse_any("red.md", text.as_bytes()).unwrap() };
        assert!(check(&doc, &TABLE).findings.is_empty());
        let undefined = text.replace("    inc(r, s) = (r >= s) ? 0 : r+1;\n", "");
        let doc = Document { sections: super::super::document::parse_any("red.md", undefined.as_bytes()).unwrap() };
        assert_eq!(check(&doc, &TABLE).findings.len(), 1);
    }

    /// `MAX(convertType)` on a type the Syntax names has one meaning;
    /// `MAX(a, b)` on values is still a helper to define.
    #[test]
    fn a_bound_of_a_named_type_is_evident() {
        let text = "#### 9.7.9.22. Data Movement: `cvt.pack`\n\n`cvt.pack`\n\nPack.\n\nSyntax\n\n```\n\
                    cvt.pack.sat.convertType d, a, b;\n.convertType = { .u8 }\n```\n\nDescription\n\nPacks.\n\n\
                    Semantics\n\n```\nt = MIN(convertType) + sizeInBits(convertType);\nd = MAX(a, b) + t;\n```\n";
        let doc = Document { sections: super::super::document::parse_any("f.md", text.as_bytes()).unwrap() };
        let names: Vec<String> = calls(&doc, &TABLE).into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["MAX"]);
    }

    #[test]
    fn names_the_text_explains_and_sets_called_as_functions() {
        assert!(
            tests_a_type("isS16") && tests_a_type("isBF16x2") && !tests_a_type("isFloat") && !tests_a_type("isActive")
        );
        let text = "#### 9.7.7.1. Half Precision Comparison Instructions: `set`\n\n`set`\n\nSet.\n\nSyntax\n\n```\n\
                    set.CmpOp.f16 d, a, b;\nset.CmpOp.BoolOp.f16 d, a, b, {!}c;\n.BoolOp = { and, or, xor };\n```\n\n\
                    Description\n\nConverts input operand `a` to `.f32`, below the length\nof `b`.\n\nSemantics\n\n```\n\
                    t = convert(a) < lookup(b) + length(b);\nd = isS16(d) ? BoolOp(t, c) : 0;\n```\n";
        let doc = Document { sections: super::super::document::parse_any("f.md", text.as_bytes()).unwrap() };
        let found = check(&doc, &TABLE).findings;
        let summaries: Vec<&str> = found.iter().map(|f| f.summary.as_str()).collect();
        assert_eq!(
            summaries,
            [
                "the Semantics block calls `lookup`, which the text never defines",
                "the Semantics block calls `BoolOp(t, c)` on every form, but the Syntax's `set.CmpOp.f16` has no \
                 `.BoolOp`: what the call gives there is stated nowhere"
            ]
        );
        // The set's call written out, each value its operator, and the first
        // operand for the forms without it.
        let fix: Vec<&str> = found[1].repairs.iter().map(|r| r.new.as_str()).collect();
        assert_eq!(
            fix,
            ["d = isS16(d) ? ((.BoolOp == .and) ? (t & c) : (.BoolOp == .or) ? (t | c) : (.BoolOp == .xor) ? (t ^ c) \
              : t) : 0;"]
        );
    }

    #[test]
    fn a_helper_the_table_defines_gets_its_sentence_and_the_sentence_defines_it() {
        let text = |extra: &str| {
            format!(
                "#### 9.7.3.11. Floating-Point Instructions: `min`\n\n`min`\n\nSyntax\n\n```\nmin.f32 d, a, b;\n\
                 min.f32 d, a, b, c;\n```\n\nDescription\n\nStore the minimum in `d`.{extra}\n\nSemantics\n\n\
                 ```\nif (isPresent(c)) {{\n    d = c;\n}}\n```\n"
            )
        };
        let doc = Document { sections: super::super::document::parse_any("f.md", text("").as_bytes()).unwrap() };
        let found = check(&doc, &TABLE).findings;
        assert_eq!(found.len(), 1, "{found:?}");
        let r = &found[0].repairs[0];
        let sentence = "`isPresent(c)` is true for the forms that write operand `c`, and false for the others.";
        assert_eq!(r.new, format!("Store the minimum in `d`. {sentence}"));
        let fixed = text(&format!(" {sentence}"));
        let doc = Document { sections: super::super::document::parse_any("f.md", fixed.as_bytes()).unwrap() };
        assert!(check(&doc, &TABLE).findings.is_empty());
    }

    /// A call of a name the text defines shortened is found with the
    /// defined name, and renaming the call is its repair.
    #[test]
    fn a_call_of_a_defined_name_spelled_out_names_the_definition() {
        assert!(shortens("optSecOp", "optSecondaryOp") && shortens("optSecondaryOp", "optSecOp"));
        assert!(!shortens("min", "max") && !shortens("optMerge", "optMerge") && !shortens("clamp", "clampHi"));
        let text = "### 9.7.18.1. Scalar\n\nThe helpers.\n\n```\n.s33 optSecOp(Modifier secop, .s33 tmp) {\n\
                    return tmp;\n}\n```\n\n#### 9.7.18.1.1. Scalar: `vadd`\n\n`vadd`\n\nAdd.\n\nSemantics\n\n```\n\
                    d = optSecondaryOp( op2, tmp, c );\n```\n";
        let doc = Document { sections: super::super::document::parse_any("f.md", text.as_bytes()).unwrap() };
        let found = check(&doc, &TABLE).findings;
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].summary.ends_with("it defines `optSecOp`, the same name with letters left out"));
        let r = found[0].repairs.first().expect("a rename");
        assert_eq!((r.old.as_str(), r.new.as_str()), ("optSecondaryOp", "optSecOp"));
        // The call, not a longer name that ends with it.
        let longer = text.replace("d = optSecondaryOp(", "d = xoptSecondaryOp(a) + optSecondaryOp(");
        let doc = Document { sections: super::super::document::parse_any("f.md", longer.as_bytes()).unwrap() };
        let found = check(&doc, &TABLE).findings;
        let r = found.iter().find_map(|f| f.repairs.first()).expect("a rename");
        assert_eq!((r.old.as_str(), r.new.as_str()), ("+ optSecondaryOp", "+ optSecOp"));
    }

    #[test]
    fn a_call_with_fewer_arguments_than_the_others_is_found() {
        assert_eq!((arity("f()"), arity("f( a, g(b, c) )"), arity("f(x)")), (0, 2, 1));
        let text = "#### 9.7.18.2.1. SIMD: `vadd2`\n\n`vadd2`\n\nAdd.\n\nSemantics\n\n```\n\
                    Va = ext2( a, b, .asel, .atype );\nVb = ext2( a, b, .bsel, .btype );\nVc = ext2( c );\n```\n";
        let doc = Document { sections: super::super::document::parse_any("f.md", text.as_bytes()).unwrap() };
        let found = arities(&doc, &TABLE);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].fragment, "ext2( c )");
        assert!(found[0].summary.contains("with 1 argument, where the text's other calls pass 4"));
    }

    #[test]
    fn the_table_is_well_formed() {
        let mut names = HashSet::new();
        for h in &TABLE.helper {
            assert!(names.insert(h.name.as_str()), "{} twice", h.name);
            assert!(!h.uses.is_empty(), "{}", h.name);
            for u in &h.uses {
                assert!(
                    u.passages.is_empty() != u.agree.is_none(),
                    "{} in {}: either passages or why no reading differs",
                    h.name,
                    u.section
                );
                for p in &u.passages {
                    let passage = PASSAGES.iter().find(|q| q.id == p);
                    assert!(passage.is_some(), "{} in {}: no passage {p}", h.name, u.section);
                }
            }
        }
    }

    /// The table's claim for bfe's `min(pos+len-1, msb)` (9.7.1.19): on the
    /// branch that calls it (len not 0), signed and unsigned min agree for
    /// every masked pos and len, at 32 bits, and both operands fit 0..509.
    #[test]
    fn bfe_min_operands_agree_signed_and_unsigned() {
        for msb in [31u32, 63] {
            for pos in 0u32..=255 {
                for len in 1u32..=255 {
                    let x = pos + len - 1;
                    assert!(x <= 509);
                    assert_eq!((x as i32).min(msb as i32) as u32, x.min(msb));
                }
            }
        }
    }

    /// The table's claim for lop3's `GetFunctionFromTable` (9.7.8.6): the
    /// model applied to ta, tb, tc gives immLut for every immLut, so the
    /// Description's construction is the model's reading.
    #[test]
    fn lop3_function_from_table_is_the_description_construction() {
        let v = Variant::from_mnemonic("lop3.b32").unwrap();
        for imm in 0u128..=255 {
            let d = v.run(&[0xf0, 0xcc, 0xaa, imm])[0].unwrap().unsigned();
            assert_eq!(d & 0xff, imm, "immLut {imm:#x}");
        }
    }
}
