//! The statement forms of the Semantics blocks: declarations and scopes.
//!
//! The blocks rarely declare their variables; each is brought into being by
//! its first assignment. Read as C with that assignment as the declaration
//! (the literal reading's rule, `crate::audit::literal::parsed`), a variable
//! lives in the body that holds it: a `{ ... }`, or the single statement an
//! unbraced `if`, `else`, `for` or `while` runs (a `switch`'s cases share
//! its body). This pass parses each block
//! into statements and bodies and finds every variable that is used after
//! the body that first sets it has ended (as sbit, set in both branches of
//! bfe's `if`, is used by the loop after it): the block then relies on a
//! declaration it never writes. Where the variable's literal initialisers
//! have different C types (clz's `mask` is `0x80000000` in one branch and
//! `0x8000000000000000` in the other), no declaration by initialiser fits
//! both, and the finding says so: the type is an unstated case.

use std::collections::HashSet;

use super::document::{BlockKind, Document, Line, Section};
use super::helpers::{code_of, is_ident_char};
use crate::audit::finding::{Finding, FindingKind, Severity};
use crate::audit::literal::{parse_literal, CType};

/// Words that are not variables: C's keywords and the values the blocks
/// spell as words.
const KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "do", "break", "continue", "return", "true", "false", "int", "unsigned", "signed",
    "short", "long", "char", "bool", "void", "sizeof", "switch", "case", "default",
];

/// PTX types written as declarations (`.u32 d = 0;`, `for (.s32 i=msb; ...)`).
fn is_ptx_type(token: &str) -> bool {
    let Some(rest) = token.strip_prefix('.') else { return false };
    // A token of any characters: split after the first byte only where it
    // is a whole character.
    let Some((kind, bits)) = rest.split_at_checked(1) else { return false };
    matches!(kind, "u" | "s" | "b") && matches!(bits, "8" | "16" | "32" | "64")
}

fn is_c_type(token: &str) -> bool {
    // `u32 n = ...` (shf): a PTX type without its dot, as C's `uint32_t`.
    matches!(token, "int" | "unsigned" | "signed" | "short" | "long" | "char" | "bool")
        || is_ptx_type(&format!(".{token}"))
}

/// One token of a block, with the line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub line: usize,
}

/// The tokens of a block's code lines (see [`tokens`]).
pub fn tokens_of(lines: &[&Line]) -> Vec<Token> {
    tokens(lines)
}

/// The parse of a block's tokens: its bodies and the names it refers to.
pub fn parse_block(tokens: &[Token]) -> Parse {
    parse(tokens)
}

/// The tokens of a block's code lines, comments dropped: identifiers (a
/// leading `.` kept, so qualifiers and PTX types stay whole), numbers, and
/// operators of one or two characters.
fn tokens(lines: &[&Line]) -> Vec<Token> {
    const TWO: &[&str] = &["==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "<<", ">>", "..", "|=", "&="];
    let mut out = Vec::new();
    for l in lines {
        let code: Vec<char> = code_of(&l.text).chars().collect();
        let mut k = 0;
        while k < code.len() {
            let c = code[k];
            if c.is_whitespace() {
                k += 1;
                continue;
            }
            let starts_word =
                is_ident_char(c) || (c == '.' && code.get(k + 1).is_some_and(|n| n.is_ascii_alphabetic()));
            let len = if starts_word {
                1 + code[k + 1..].iter().take_while(|x| is_ident_char(**x)).count()
            } else {
                let pair: String = code[k..(k + 2).min(code.len())].iter().collect();
                if TWO.contains(&pair.as_str()) {
                    2
                } else {
                    1
                }
            };
            out.push(Token { text: code[k..k + len].iter().collect(), line: l.number });
            k += len;
        }
    }
    out
}

/// A reference to a variable: where, in which body, and whether it sets it.
#[derive(Clone, Debug)]
struct Reference {
    name: String,
    line: usize,
    body: usize,
    sets: bool,
    /// The literal it is set to, where the statement is `name = literal;`.
    literal: Option<String>,
    declares: bool,
}

/// The parse of one block: its bodies (each with its parent) and every
/// reference to a name.
pub struct Parse {
    parents: Vec<Option<usize>>,
    /// Per body, how it runs within its parent.
    guards: Vec<Guard>,
    references: Vec<Reference>,
}

impl Parse {
    /// Every name declared twice in one body (the cases of a `switch` share
    /// its body): the name, and the lines of the first and the second
    /// declaration.
    pub fn declared_twice(&self) -> Vec<(String, usize, usize)> {
        let mut out: Vec<(String, usize, usize)> = Vec::new();
        let declarations: Vec<&Reference> = self.references.iter().filter(|r| r.declares).collect();
        for (i, r) in declarations.iter().enumerate() {
            if let Some(first) = declarations[..i].iter().find(|f| f.name == r.name && f.body == r.body) {
                if !out.iter().any(|(n, l, _)| *n == r.name && *l == first.line) {
                    out.push((r.name.clone(), first.line, r.line));
                }
            }
        }
        out
    }

    /// The bodies from `body` up to the top, `body` first.
    fn chain(&self, body: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut b = Some(body);
        while let Some(x) = b {
            out.push(x);
            b = self.parents[x];
        }
        out
    }
    /// Whether every input that reaches `used` ran `set` first, by their
    /// guards: below the body both are in, `set` runs under conditions the
    /// instruction's form fixes (`.xorsign`, `!isPresent(c)`), with no
    /// `else`, loop or value test on the way, and `used` runs under each
    /// of those terms too.
    fn same_guard(&self, set: usize, used: usize) -> bool {
        let (up, other) = (self.chain(set), self.chain(used));
        let below = |chain: &[usize]| {
            chain.iter().take_while(|b| !up.contains(b) || !other.contains(b)).copied().collect::<Vec<_>>()
        };
        let mut needed: Vec<&str> = Vec::new();
        for b in below(&up) {
            match &self.guards[b] {
                Guard::Always => {}
                Guard::Then(terms, true) => needed.extend(terms.iter().map(String::as_str)),
                Guard::Then(_, false) | Guard::Other => return false,
            }
        }
        let have: Vec<&str> = below(&other)
            .into_iter()
            .flat_map(|b| match &self.guards[b] {
                Guard::Then(terms, _) => terms.iter().map(String::as_str).collect(),
                _ => Vec::new(),
            })
            .collect();
        !needed.is_empty() && needed.iter().all(|t| have.contains(t))
    }
    fn within(&self, body: usize, outer: usize) -> bool {
        let mut b = Some(body);
        while let Some(x) = b {
            if x == outer {
                return true;
            }
            b = self.parents[x];
        }
        false
    }
}

struct Parser<'t> {
    tokens: &'t [Token],
    at: usize,
    parse: Parse,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(|t| t.text.as_str())
    }
    fn new_body(&mut self, parent: usize) -> usize {
        self.parse.parents.push(Some(parent));
        self.parse.guards.push(Guard::Always);
        self.parse.parents.len() - 1
    }
    /// Statements up to the end of the tokens or a `}` closing `body`.
    fn statements(&mut self, body: usize) {
        while let Some(t) = self.peek() {
            if t == "}" {
                return;
            }
            self.statement(body);
        }
    }
    /// One statement of `body`.
    fn statement(&mut self, body: usize) {
        match self.peek() {
            Some("{") => {
                self.at += 1;
                let inner = self.new_body(body);
                self.statements(inner);
                self.at += 1; // the `}` (or the end)
            }
            // A label of a `switch` body: `case .up:`, `default:`.
            Some("case") | Some("default") => {
                while self.peek().is_some_and(|t| t != ":") {
                    self.at += 1;
                }
                self.at += 1;
            }
            Some("if") | Some("while") | Some("for") | Some("switch") => {
                let is_if = self.peek() == Some("if");
                self.at += 1;
                // A `for`'s header belongs to the loop: its `i` lives there.
                let own = self.new_body(body);
                let from = self.at;
                self.parenthesised(own);
                let inner = self.new_body(own);
                self.parse.guards[inner] = if is_if { terms(&self.tokens[from..self.at]) } else { Guard::Other };
                self.statement(inner);
                if is_if && self.peek() == Some("else") {
                    self.at += 1;
                    let other = self.new_body(body);
                    self.parse.guards[other] = Guard::Other;
                    self.statement(other);
                }
            }
            Some(";") => self.at += 1,
            Some(_) => self.expression_statement(body),
            None => {}
        }
    }
    /// `( ... )` after `if`, `while` or `for`: its statements (a `for`
    /// header has three) belong to `body`.
    fn parenthesised(&mut self, body: usize) {
        if self.peek() != Some("(") {
            return;
        }
        self.at += 1;
        let start = self.at;
        let mut depth = 1;
        while let Some(t) = self.peek() {
            match t {
                "(" => depth += 1,
                ")" => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            self.at += 1;
        }
        let end = self.at;
        self.at = (self.at + 1).min(self.tokens.len());
        for part in self.tokens[start..end].split(|t| t.text == ";") {
            self.references_in(part, body);
        }
    }
    /// A statement up to its `;` at bracket depth 0.
    fn expression_statement(&mut self, body: usize) {
        let start = self.at;
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                ";" if depth <= 0 => break,
                "}" if depth <= 0 => break,
                _ => {}
            }
            self.at += 1;
        }
        let end = self.at;
        if self.peek() == Some(";") {
            self.at += 1;
        }
        self.references_in(&self.tokens[start..end], body);
    }
    /// The names one statement refers to: a leading type makes it a
    /// declaration; `name =`, `name[...] =`, `name op=`, `name++` set.
    fn references_in(&mut self, part: &[Token], body: usize) {
        let mut k = 0;
        let mut declares = false;
        while k < part.len() && (is_ptx_type(&part[k].text) || is_c_type(&part[k].text)) {
            declares = true;
            k += 1;
        }
        let mut first = true;
        while k < part.len() {
            let t = &part[k];
            let word = t.text.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
            if !word || KEYWORDS.contains(&t.text.as_str()) {
                k += 1;
                continue;
            }
            let next = part.get(k + 1).map(|x| x.text.as_str());
            if next == Some("(") {
                k += 1; // a call: the helpers pass's business
                continue;
            }
            // Skip an index, so that `d[i] = ...` sets d.
            let mut after = k + 1;
            if next == Some("[") {
                let mut depth = 0;
                while after < part.len() {
                    match part[after].text.as_str() {
                        "[" => depth += 1,
                        "]" => {
                            depth -= 1;
                            if depth == 0 {
                                after += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    after += 1;
                }
            }
            let op = part.get(after).map(|x| x.text.as_str());
            let sets = first && matches!(op, Some("=" | "+=" | "-=" | "|=" | "&=" | "++" | "--"));
            let literal = (sets && op == Some("=") && after + 2 == part.len())
                .then(|| part[after + 1].text.clone())
                .filter(|l| parse_literal(l).is_some());
            self.parse.references.push(Reference {
                name: t.text.clone(),
                line: t.line,
                body,
                sets,
                literal,
                declares: declares && first,
            });
            first = false;
            k += 1;
        }
    }
}

/// How a body runs within its parent.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Guard {
    /// Whenever its parent does: a braced block, an `if`'s or a loop's
    /// header.
    Always,
    /// As the then-branch of an `if`: the condition's terms (`a && b` is
    /// `a`, `b`), each written out, and whether each is fixed by the
    /// instruction's form.
    Then(Vec<String>, bool),
    /// On some passes or none: an `else`, a loop's or a `switch`'s body.
    Other,
}

/// Helpers whose value the instruction's form fixes, not its operands'
/// values: whether an optional operand is written.
const FORM_HELPERS: &[&str] = &["isPresent"];

/// The then-branch guard of an `if`'s parenthesised condition
/// (`( ... )`): its terms, split at its top-level `&&` (none where it has a
/// top-level `||`), and whether each is fixed by the form: qualifiers and
/// [`FORM_HELPERS`] calls joined by `!`, `==`, `!=` and brackets.
fn terms(condition: &[Token]) -> Guard {
    let inner = condition.get(1..condition.len().saturating_sub(1)).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    let mut fixed_all = !inner.is_empty();
    let mut depth = 0;
    let mut term: Vec<&str> = Vec::new();
    for (k, t) in inner.iter().enumerate() {
        let text = t.text.as_str();
        match text {
            "(" => depth += 1,
            ")" => depth -= 1,
            "&&" if depth == 0 => {
                out.push(std::mem::take(&mut term).join(" "));
                continue;
            }
            "||" if depth == 0 => return Guard::Then(Vec::new(), false),
            _ => {}
        }
        let called = inner.get(k + 1).is_some_and(|n| n.text == "(");
        // An argument of a form helper (`c` of `isPresent(c)`).
        let argument = depth > 0 && term.iter().any(|w| FORM_HELPERS.contains(w));
        let fixed = text.starts_with('.')
            || ["(", ")", "!", "==", "!="].contains(&text)
            || (called && FORM_HELPERS.contains(&text))
            || argument;
        fixed_all &= fixed;
        term.push(text);
    }
    out.push(term.join(" "));
    let fixed = fixed_all && !out.iter().any(String::is_empty);
    Guard::Then(out, fixed)
}

fn parse(tokens: &[Token]) -> Parse {
    let mut p = Parser {
        tokens,
        at: 0,
        parse: Parse { parents: vec![None], guards: vec![Guard::Always], references: Vec::new() },
    };
    while p.at < tokens.len() {
        p.statements(0);
        // A stray `}` at the top: step over it (the brackets check names it).
        p.at += 1;
    }
    p.parse
}

/// The operands the section's Syntax block names (`d, a, b` of
/// `szext.mode.type d, a, b;`), over every instruction line it has.
pub(super) fn operands(section: &Section) -> HashSet<String> {
    let mut out = HashSet::new();
    let Some(syntax) = section.block(BlockKind::Syntax) else { return out };
    for l in syntax.code() {
        let code = code_of(&l.text).trim();
        if !code.ends_with(';') || code.starts_with('.') {
            continue;
        }
        let Some((_, list)) = code.trim_end_matches(';').split_once(char::is_whitespace) else { continue };
        for name in list.split(',') {
            let name: String = name.trim().chars().take_while(|c| is_ident_char(*c)).collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// A variable of a block used outside the body that first sets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfScope {
    pub section: String,
    pub name: String,
    /// Where it is first set, and where it is used after that body (a read
    /// where there is one, else another assignment).
    pub first_set: usize,
    pub used_at: usize,
    /// The C types of its literal initialisers, where they differ
    /// (`[("0x80000000", unsigned int), ("0x8000000000000000", unsigned long long)]`).
    pub conflicting: Vec<(String, CType)>,
}

/// The variables of one parsed block that escape the body of their first
/// assignment, never declared and not among `operands`.
fn escapes(section: &str, parse: &Parse, operands: &HashSet<String>) -> Vec<OutOfScope> {
    let mut out = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for r in &parse.references {
        if !seen.insert(&r.name) || operands.contains(&r.name) || !r.sets {
            continue;
        }
        let all: Vec<&Reference> = parse.references.iter().filter(|x| x.name == r.name).collect();
        if all.iter().any(|x| x.declares) {
            continue;
        }
        // A use is covered by an assignment before it whose body it is in,
        // or whose guards it runs under too (`if (.xorsign) { xorsign = ...; }`
        // ... `if (.xorsign) { ... xorsign ... }`): on every input that
        // reaches the use, the assignment ran. An assignment covers itself.
        let sets: Vec<(usize, &Reference)> =
            all.iter().enumerate().filter(|(_, s)| s.sets).map(|(k, s)| (k, *s)).collect();
        let covered = |k: usize, x: &Reference| {
            x.sets
                || sets
                    .iter()
                    .take_while(|(j, _)| *j < k)
                    .any(|(_, s)| parse.within(x.body, s.body) || parse.same_guard(s.body, x.body))
        };
        let outside: Vec<&Reference> = all
            .iter()
            .enumerate()
            .filter(|(k, x)| !parse.within(x.body, r.body) && !covered(*k, x))
            .map(|(_, x)| *x)
            .collect();
        let Some(used) = outside.first() else { continue };
        let mut types: Vec<(String, CType)> = Vec::new();
        for l in all.iter().filter_map(|x| x.literal.as_deref()) {
            if let Some((_, ty)) = parse_literal(l) {
                if !types.iter().any(|(_, t)| *t == ty) {
                    types.push((l.to_string(), ty));
                }
            }
        }
        out.push(OutOfScope {
            section: section.to_string(),
            name: r.name.clone(),
            first_set: r.line,
            used_at: used.line,
            conflicting: if types.len() > 1 { types } else { Vec::new() },
        });
    }
    out
}

/// Every variable of every Semantics block that the block uses outside the
/// body its first assignment is in, and never declares.
pub fn out_of_scope(doc: &Document) -> Vec<OutOfScope> {
    let mut out: Vec<OutOfScope> = Vec::new();
    for s in &doc.sections {
        let Some(b) = s.block(BlockKind::Semantics) else { continue };
        if out.iter().any(|o| o.section == s.number) {
            continue; // a section rendered twice speaks once
        }
        let lines: Vec<&Line> = b.code().collect();
        out.extend(escapes(&s.number, &parse(&tokens(&lines)), &operands(s)));
    }
    out
}

/// One finding per block: the variables it uses out of the scope their
/// first assignment would give them, with any initialisers whose types
/// differ.
pub fn check(doc: &Document) -> Vec<Finding> {
    let all = out_of_scope(doc);
    let mut findings = Vec::new();
    for s in &doc.sections {
        let here: Vec<&OutOfScope> = all.iter().filter(|o| o.section == s.number).collect();
        if here.is_empty() || findings.iter().any(|f: &Finding| f.section == s.number) {
            continue;
        }
        let names: Vec<String> = here.iter().map(|o| format!("`{}`", o.name)).collect();
        let mut detail: Vec<String> = here
            .iter()
            .map(|o| {
                format!(
                    "`{}` is first set at {}:{}, inside a branch or loop body, and used at {}:{}, after that body.",
                    o.name, s.file, o.first_set, s.file, o.used_at
                )
            })
            .collect();
        detail.push(
            "Read as C with each first assignment as the declaration (the literal reading's rule), the later use \
             names a variable no longer in scope: the block relies on declarations it never writes."
                .to_string(),
        );
        for o in &here {
            if !o.conflicting.is_empty() {
                let typed: Vec<String> = o.conflicting.iter().map(|(l, t)| format!("{l} ({t})")).collect();
                detail.push(format!(
                    "`{}` is set to {}: no one declaration by initialiser fits them all, so its type is an unstated \
                     case (the literal reading gives it each branch's type).",
                    o.name,
                    typed.join(" and ")
                ));
            }
        }
        let first = here[0];
        findings.push(Finding {
            id: format!("text-scope-{}", s.number),
            section: s.number.clone(),
            kind: FindingKind::MalformedCode,
            severity: Severity::Low,
            root_cause: String::new(),
            fragment: first.name.clone(),
            summary: format!(
                "the Semantics block uses {} outside the body that first sets {}",
                names.join(", "),
                if names.len() == 1 { "it" } else { "them" }
            ),
            detail,
            model_choice: None,
            witness: None,
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        });
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<Line> {
        text.lines().enumerate().map(|(k, t)| Line { number: k + 1, text: t.to_string(), code: true }).collect()
    }

    /// (name, first set, used after) of a block's escaping variables.
    fn escaping(text: &str) -> Vec<(String, usize, usize)> {
        let ls = lines(text);
        let refs: Vec<&Line> = ls.iter().collect();
        let operands: HashSet<String> = ["d", "a"].map(String::from).into();
        escapes("x", &parse(&tokens(&refs)), &operands).into_iter().map(|o| (o.name, o.first_set, o.used_at)).collect()
    }

    #[test]
    fn ptx_types_are_told_on_tokens_of_any_characters() {
        assert!(is_ptx_type(".u32") && is_ptx_type(".s8") && is_c_type("u64"));
        assert!(!is_ptx_type(".f32") && !is_ptx_type(".") && !is_ptx_type("u32"));
        // A first character of four bytes is no type, and no panic.
        assert!(!is_ptx_type(".\u{83861}32") && !is_c_type("\u{e9}8"));
    }

    #[test]
    fn a_variable_set_in_both_branches_and_used_after_escapes() {
        // bfe's shape: an unbraced if/else, then a loop that reads it.
        let text = "if (len==0)\n    sbit = 0;\nelse\n    sbit = a[pos];\nfor (i=0; i<=31; i++) {\n    d[i] = sbit;\n}";
        assert_eq!(escaping(text), [("sbit".to_string(), 2, 6)]);
    }

    #[test]
    fn declared_loop_counters_and_top_level_variables_do_not_escape() {
        let text = ".u32 d = 0xffffffff;\nfor (.s32 i=msb; i>=0; i--) {\n    if (a & (1<<i))  { d = i; break; }\n}\nmsb = 31;\nx = msb;";
        assert!(escaping(text).is_empty(), "{:?}", escaping(text));
        // A for's own counter lives in the loop, header and body.
        assert!(escaping("for (i=0; i<4; i++) { t = i; s = t; }").is_empty());
    }

    /// The float min's shape: set under `.xorsign`, read under `.xorsign`
    /// again. On every input that reaches the read, the set ran; under
    /// another condition, or none, it may not have.
    #[test]
    fn a_use_under_the_modifier_condition_of_its_assignment_does_not_escape() {
        let set = "if (.xorsign) {\n    xorsign = a ^ b;\n}\nd = a;\n";
        assert!(escaping(&format!("{set}if (.xorsign) {{\n    if (.abs) {{ d = xorsign; }}\n}}")).is_empty());
        let other = escaping(&format!("{set}if (.abs) {{\n    d = xorsign;\n}}"));
        assert_eq!(other, [("xorsign".to_string(), 2, 6)]);
        let none = escaping(&format!("{set}d = xorsign;"));
        assert_eq!(none, [("xorsign".to_string(), 2, 5)]);
        // A use under more terms than the assignment, one a test of a
        // value, and a form helper's term; an `else` is not the guard.
        let form = "if (.xorsign && !isPresent(c)) {\n    xorsign = a;\n}\n";
        assert!(escaping(&format!("{form}if (.xorsign && !isPresent(c) && !isNaN(d)) {{ d = xorsign; }}")).is_empty());
        assert_eq!(escaping(&format!("{form}if (.xorsign) {{ d = xorsign; }}")).len(), 1, "a term the use lacks");
        let in_else = "if (.xorsign) {\n    if (x) { t = 1; } else { xorsign = a; }\n}\nif (.xorsign) { d = xorsign; }";
        assert_eq!(escaping(in_else).len(), 1, "set in an else");
        // The guards both are under do not count: the half-precision min's
        // shape, inside `if (type == f16)` and a loop.
        let shared = "for (i = 0; i < 2; i++) {\n    if (.xorsign) { xorsign = a; }\n    if (.xorsign && !isNaN(d)) { d = xorsign; }\n}";
        assert!(escaping(shared).is_empty(), "{:?}", escaping(shared));
    }

    #[test]
    fn a_switch_body_scopes_what_its_cases_set() {
        // shfl's shape: j and pval set in the cases, read after the switch.
        let text = "switch (.mode) {\n    case .up:    j = lane - b; pval = (j >= 3); break;\n    default: j = 0; pval = 1; break;\n}\nif (!pval) j = lane;\nd = j;";
        let names: Vec<String> = escaping(text).into_iter().map(|(n, _, _)| n).collect();
        assert_eq!(names, ["j", "pval"]);
    }

    #[test]
    fn braced_branches_scope_their_first_assignment() {
        // clz's shape.
        let text = "if (.type == .b32)   { max = 32; mask = 0x80000000; }\nelse { max = 64; mask = 0x8000000000000000; }\nwhile (d < max && (a&mask == 0)) { d++; }";
        assert_eq!(escaping(text), [("max".to_string(), 1, 3), ("mask".to_string(), 1, 3)]);
        let ls = lines(text);
        let refs: Vec<&Line> = ls.iter().collect();
        let found = escapes("x", &parse(&tokens(&refs)), &HashSet::new());
        let mask = found.iter().find(|o| o.name == "mask").expect("mask");
        assert_eq!(
            mask.conflicting,
            [("0x80000000".to_string(), CType::UInt), ("0x8000000000000000".to_string(), CType::ULongLong)]
        );
    }
}
