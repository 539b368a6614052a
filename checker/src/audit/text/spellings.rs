//! Names the Semantics block spells otherwise than the Syntax block.
//!
//! The Syntax gives each qualifier its dot (`.type`, `.u16x2`, `.mode`)
//! and names each placeholder once (`.atype`, `.btype`). A Semantics block
//! that names a placeholder the Syntax does not have (`type` where the
//! Syntax has `.atype` and `.btype`, `.dtype` where it has `.type`, `type`
//! where the Syntax writes its types out) asks the reader to guess which
//! name is meant. The pseudocode evaluator guesses too (`type` is read as
//! the variant's type), so the guess is a finding, not silence.
//!
//! A word that is one of the Syntax's own names without its dot (`stype`
//! for `.stype`, `u16x2` for `.u16x2`, `BoolOp(t, c)` for `.BoolOp`) names
//! one thing only: that is the notation of a block that is not C, and
//! readers of every chapter take it so. Whether a placeholder may be
//! called as a function is the helpers pass's question.
//!
//! A word counts only where the block reads it and never sets it: a
//! variable the block assigns, declares or takes as a parameter
//! (`xorsign = ...`) is the block's own, whatever its name. The dialect's
//! constants (`NaN`) are values, not names of qualifiers.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::document::{Block, BlockKind, Document, Section};
use super::helpers::code_of;
use super::names::{statements, templates};
use super::semantics;
use crate::audit::finding::{Finding, FindingKind, Repair};
use crate::pseudocode::ast::{BinaryOp, Expr, ExprKind, Pos, Stmt, StmtKind};

/// Words the blocks use as values, which no Syntax qualifier stands for.
const VALUES: &[&str] = &["NaN", "Inf", "true", "false"];

/// What a section's Syntax block names.
#[derive(Debug, Default)]
struct SyntaxNames {
    /// Every qualifier it writes, with its dot: the placeholders, their
    /// values and the qualifiers its templates spell out.
    qualifiers: BTreeSet<String>,
    /// The names it gives sets of values (`.type`, `.atype`, `.CmpOp`).
    placeholders: Vec<String>,
    /// Its operand names.
    operands: BTreeSet<String>,
}

fn syntax_names(section: &Section) -> SyntaxNames {
    let mut names = SyntaxNames::default();
    for s in statements(section) {
        // Every `.word` of the statement.
        let mut rest = s.as_str();
        while let Some(i) = rest.find('.') {
            let tail = &rest[i + 1..];
            let len = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len());
            if len > 0 {
                names.qualifiers.insert(format!(".{}", &tail[..len]));
            }
            rest = &tail[len..];
        }
        let parts: Vec<&str> = s.split('=').map(str::trim).collect();
        if let Some((values, left)) = parts.split_last() {
            let is_name =
                |n: &&&str| n.len() > 1 && n.starts_with('.') && n[1..].chars().all(|c| c.is_ascii_alphanumeric());
            names.placeholders.extend(left.iter().filter(is_name).map(|n| n.to_string()));
            // A set that lists its values without their dots (9.7.6.1's
            // `.BoolOp = { and, or, xor }`) names the qualifiers the
            // mnemonic writes with them (`.and`).
            if !left.is_empty() {
                let bare = values.trim_matches(|c: char| matches!(c, '{' | '}' | ';') || c.is_whitespace());
                for v in bare.split(',').map(str::trim) {
                    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric()) {
                        names.qualifiers.insert(format!(".{v}"));
                    }
                }
            }
        }
    }
    names.operands = templates(section).into_iter().flat_map(|t| t.operands.into_iter().flatten()).collect();
    names
}

/// The names statements give values to: assigned, declared or stepped.
fn set_in(statements: &[Stmt]) -> HashSet<String> {
    let mut set = HashSet::new();
    let base = |e: &Expr, set: &mut HashSet<String>| {
        let mut e = e;
        loop {
            match &e.kind {
                ExprKind::Index(b, _) | ExprKind::Slice { base: b, .. } | ExprKind::Paren(b) => e = b,
                ExprKind::Name(n) => {
                    set.insert(n.clone());
                    return;
                }
                _ => return,
            }
        }
    };
    for s in statements {
        s.walk(&mut |s| {
            if let StmtKind::Declare { declarators, .. } = &s.kind {
                set.extend(declarators.iter().map(|d| d.name.clone()));
            }
            for e in s.expressions() {
                e.walk(&mut |e| match &e.kind {
                    ExprKind::Assign(_, target, _) | ExprKind::Step { target, .. } => base(target, &mut set),
                    _ => {}
                });
            }
        });
    }
    set
}

/// The block's scopes, each with the names it sets: the statements outside
/// any helper it defines, then each helper's body, whose parameters and
/// variables are its own. Every helper's name is set in all of them.
fn scopes(statements: &[Stmt]) -> Vec<(Vec<Stmt>, HashSet<String>)> {
    let (helpers, top): (Vec<&Stmt>, Vec<&Stmt>) =
        statements.iter().partition(|s| matches!(s.kind, StmtKind::Function { .. }));
    let names: HashSet<String> = helpers
        .iter()
        .filter_map(|h| match &h.kind {
            StmtKind::Function { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let top: Vec<Stmt> = top.into_iter().cloned().collect();
    let mut set = set_in(&top);
    set.extend(names.iter().cloned());
    let mut out = vec![(top, set)];
    for h in helpers {
        if let StmtKind::Function { params, body, .. } = &h.kind {
            let mut set = set_in(body);
            set.extend(params.iter().map(|p| p.name.clone()));
            set.extend(names.iter().cloned());
            out.push((body.clone(), set));
        }
    }
    out
}

/// How a block uses a word it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    /// As a value.
    Read,
    /// Compared with a qualifier (`type` in `type == u16x2`): the name of
    /// a placeholder.
    Compared,
    /// Called, as a helper.
    Called,
}

/// Every word a block reads, as written (`type`, `.dtype`), with where and
/// how. `qualifier` tells whether a word is one of the Syntax's qualifiers,
/// with or without its dot.
fn read_words(statements: &[Stmt], qualifier: &dyn Fn(&str) -> bool) -> Vec<(String, Pos, Use)> {
    let word = |e: &Expr| match &e.without_parens().kind {
        ExprKind::Name(n) => Some(n.clone()),
        ExprKind::Qualifier(q) => Some(format!(".{q}")),
        _ => None,
    };
    let mut compared: Vec<Pos> = Vec::new();
    let mut called: Vec<Pos> = Vec::new();
    let mut out = Vec::new();
    for s in statements {
        s.walk(&mut |s| {
            for e in s.expressions() {
                e.walk(&mut |e| match &e.kind {
                    ExprKind::Binary(BinaryOp::Eq | BinaryOp::Ne, l, r) => {
                        for (this, other) in [(l, r), (r, l)] {
                            if word(other).is_some_and(|w| qualifier(&w)) {
                                compared.push(this.without_parens().span.start);
                            }
                        }
                    }
                    ExprKind::Call(f, _) => called.push(f.span.start),
                    ExprKind::Name(n) => out.push((n.clone(), e.span.start, Use::Read)),
                    ExprKind::Qualifier(q) => out.push((format!(".{q}"), e.span.start, Use::Read)),
                    _ => {}
                });
            }
        });
    }
    for (_, pos, how) in &mut out {
        if called.contains(pos) {
            *how = Use::Called;
        } else if compared.contains(pos) {
            *how = Use::Compared;
        }
    }
    out
}

/// How the Syntax spells a word the block reads, where it spells it
/// otherwise: the Syntax's names for it, none where it has no name for a
/// placeholder the block compares with its qualifiers.
fn syntax_spelling(word: &str, how: Use, syntax: &SyntaxNames) -> Option<Vec<String>> {
    if syntax.qualifiers.contains(word) || syntax.operands.contains(word) {
        return None;
    }
    let bare = word.trim_start_matches('.');
    let dotted = format!(".{bare}");
    // A word that is one of the Syntax's names without its dot (`stype`
    // for `.stype`, `u16x2` for `.u16x2`) can be read only one way: the
    // notation of a block that is not C, and no finding.
    if !word.starts_with('.') && syntax.qualifiers.contains(&dotted) {
        return None;
    }
    // A placeholder of another name that ends as this one does: `type`
    // for `.atype`, `.dtype` for `.type`.
    let stem_of = |p: &str| p.trim_start_matches('.').to_ascii_lowercase();
    let lower = bare.to_ascii_lowercase();
    let near: Vec<String> = syntax
        .placeholders
        .iter()
        .filter(|p| {
            let stem = stem_of(p);
            stem != lower && stem.len() >= 3 && lower.len() >= 3 && (stem.ends_with(&lower) || lower.ends_with(&stem))
        })
        .cloned()
        .collect();
    (!near.is_empty() || how == Use::Compared || word.starts_with('.')).then_some(near)
}

fn list(names: &[String]) -> String {
    super::and_list(&names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>())
}

/// A word the block spells otherwise: the Syntax's names for it, how the
/// block uses it, and where.
struct Spelled {
    syntax: Vec<String>,
    how: Use,
    places: Vec<Pos>,
}

/// One word the block spells otherwise, as the finding says it.
fn describe(word: &str, how: Use, spelled: &[String]) -> String {
    let called = if how == Use::Called { " (called as a helper)" } else { "" };
    match spelled {
        [] => format!("`{word}`{called}, which the Syntax does not name"),
        _ => format!("`{word}`{called}, which the Syntax names {}", list(spelled)),
    }
}

/// Every word a section's Semantics block reads that its Syntax spells
/// otherwise: one finding per section, each word and its places in it.
pub fn check(doc: &Document) -> Vec<Finding> {
    let firsts: Vec<&str> = doc.first_renderings().map(|s| s.number.as_str()).collect();
    let mut out = Vec::new();
    let mut done: HashSet<&str> = HashSet::new();
    for r in semantics::read(doc) {
        let section = r.section;
        if !firsts.contains(&section.number.as_str()) || !done.insert(section.number.as_str()) {
            continue;
        }
        let Some(block) = section.block(BlockKind::Semantics) else { continue };
        let syntax = syntax_names(section);
        let qualifier = |w: &str| syntax.qualifiers.contains(&format!(".{}", w.trim_start_matches('.')));
        let defined = defined_in_prose(doc, section);
        let mut found: BTreeMap<String, Spelled> = BTreeMap::new();
        for (statements, set) in scopes(&r.parsed.statements) {
            for (word, pos, how) in read_words(&statements, &qualifier) {
                if set.contains(&word) || VALUES.contains(&word.as_str()) || defined.contains(&word) {
                    continue;
                }
                if let Some(spelled) = syntax_spelling(&word, how, &syntax) {
                    let entry = found.entry(word).or_insert(Spelled { syntax: spelled, how, places: Vec::new() });
                    entry.how = entry.how.max(how);
                    entry.places.push(pos);
                }
            }
        }
        // In the order the block first writes them.
        let mut found: Vec<(String, Spelled)> = found.into_iter().collect();
        found.sort_by_key(|(_, w)| w.places[0]);
        let Some(first) = found.first().map(|(_, w)| w.places[0]) else { continue };
        let line = block.lines.iter().find(|l| l.number == first.line).map_or("", |l| l.text.as_str());
        let words: Vec<String> = found.iter().map(|(w, s)| describe(w, s.how, &s.syntax)).collect();
        let mut detail: Vec<String> = found
            .iter()
            .map(|(w, s)| {
                let at: Vec<String> = s.places.iter().map(|p| p.to_string()).collect();
                format!("{}:{}: `{w}` read at {}", section.file, s.places[0].line, at.join(", "))
            })
            .collect();
        detail.push(
            "The block never sets these words, so each names something the instruction is given, which the \
             Syntax block names otherwise or not at all: the reader, and the model, must guess which name is meant \
             (the model reads a bare word as the qualifier of the same name, and `type` as the variant's type)."
                .to_string(),
        );
        let mut f = Finding::of_text(
            format!("text-names-{}-spellings", section.number),
            section.number.clone(),
            FindingKind::Name,
            code_of(line).trim().to_string(),
            format!("the Semantics block writes {}", words.join("; ")),
            detail,
        );
        f.repairs = repairs(section, block, &found);
        out.push(f);
    }
    out
}

/// The identifiers of a section's code: its Syntax, Semantics and examples.
fn code_words(section: &Section) -> HashSet<String> {
    section
        .all_lines()
        .filter(|l| l.code)
        .flat_map(|l| l.text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map(str::to_string))
        .filter(|w| !w.is_empty())
        .collect()
}

/// A name in a code span of the prose that no code of the section writes,
/// a letter or two from one of the Syntax's placeholders
/// (`MAX(convertedType)` where the Syntax names `.convertType`): the
/// placeholder misspelled. One finding per section and name, with the fix
/// that writes the placeholder's name.
pub fn in_prose(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for section in doc.first_renderings() {
        let syntax = syntax_names(section);
        // The placeholders' names, and the instruction's own (`isspacep`,
        // misspelled `ispacep`), each once.
        let opcode = section.opcode().unwrap_or_default();
        // Each name as (the name, as shown, what it is).
        let mut names: Vec<(&str, &str, &str)> =
            syntax.placeholders.iter().map(|p| (p.trim_start_matches('.'), p.as_str(), "the Syntax names")).collect();
        names.extend(opcode.split('.').next().filter(|o| !o.is_empty()).map(|o| (o, o, "the instruction is")));
        names.extend(syntax.operands.iter().map(|o| (o.as_str(), o.as_str(), "the Syntax's operand is")));
        names.sort();
        names.dedup_by(|a, b| a.0 == b.0);
        let written = code_words(section);
        let mut seen: HashSet<String> = HashSet::new();
        for l in section.all_lines().filter(|l| !l.code) {
            for span in super::retyped::spans(&l.text) {
                for word in span.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                    if word.len() < 6 || written.contains(word) || !seen.insert(word.to_string()) {
                        continue;
                    }
                    let near: Vec<(usize, &str, &str, &str)> = names
                        .iter()
                        // A name within another (`barrier` of `mbarrier`) is
                        // another instruction's, not a slip.
                        .filter(|(p, _, _)| p.len() >= 5 && !p.contains(word) && !word.contains(p))
                        .map(|(p, shown, what)| (super::directives::distance(p, word), *p, *shown, *what))
                        .filter(|(d, _, _, _)| *d <= 2)
                        .collect();
                    // The nearest, where one is nearer than the others.
                    let Some(least) = near.iter().map(|(d, _, _, _)| *d).min() else { continue };
                    let [(_, name, shown, what)] = near.iter().filter(|(d, ..)| *d == least).collect::<Vec<_>>()[..]
                    else {
                        continue;
                    };
                    let mut f = Finding::of_text(
                        format!("text-names-{}-prose-{}", section.number, word.to_lowercase()),
                        section.number.clone(),
                        FindingKind::Name,
                        format!("`{span}`"),
                        format!("the prose writes `{word}`, which no code of the section writes; {what} `{shown}`"),
                        vec![format!("{}:{}: \"{}\".", section.file, l.number, l.text.trim())],
                    );
                    f.repairs = super::on_each_line(section.all_lines().filter(|m| !m.code), word, name);
                    out.push(f);
                }
            }
        }
    }
    out
}

/// The words a sentence of the section's Description or Notes, or of its
/// chapter's introduction, defines: a code span followed by `is`
/// (`` `type` is the type qualifier ``). A word so defined is no guess.
fn defined_in_prose(doc: &Document, s: &Section) -> HashSet<String> {
    let chapter = s.number.rsplit_once('.').map_or("", |(c, _)| c);
    let intro = doc.sections.iter().filter(|x| x.number == chapter).flat_map(|x| x.intro.iter());
    let prose = s.blocks.iter().filter(|b| matches!(b.kind, BlockKind::Description | BlockKind::Notes));
    let lines = prose.flat_map(|b| b.lines.iter()).chain(intro).filter(|l| !l.code);
    let mut out = HashSet::new();
    for l in lines {
        let parts: Vec<&str> = l.text.split('`').collect();
        for pair in parts.windows(2).skip(1).step_by(2) {
            if pair[1].starts_with(" is ") {
                out.insert(pair[0].to_string());
            }
        }
    }
    out
}

/// The fix of a section's spellings: a word the Syntax spells one way is
/// renamed where the block reads it (one edit a line); a placeholder of
/// types the Syntax does not name (`type` compared with `f32`) is defined
/// by a sentence that ends the Description's first paragraph, as is one
/// compared with types where the Syntax has several names for it. None
/// where the Syntax has two names for another word (which is meant is the
/// question) or where a word's meaning is not known.
fn repairs(section: &Section, block: &Block, found: &[(String, Spelled)]) -> Vec<Repair> {
    let mut renames: BTreeMap<usize, Vec<(usize, &str, &str)>> = BTreeMap::new();
    let mut defines: Vec<&str> = Vec::new();
    for (word, s) in found {
        match s.syntax.as_slice() {
            [one] => {
                for p in &s.places {
                    renames.entry(p.line).or_default().push((p.column, word, one));
                }
            }
            // No name, or several (`.atype` and `.btype` for `.type`, one
            // a line of the Syntax): the form's own type is meant.
            _ if s.how == Use::Compared && word.to_ascii_lowercase().ends_with("type") => defines.push(word),
            _ => return Vec::new(),
        }
    }
    let mut out = Vec::new();
    for (number, mut edits) in renames {
        let Some(line) = block.lines.iter().find(|l| l.number == number) else { return Vec::new() };
        let old = line.text.trim_end().to_string();
        let mut new = old.clone();
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        for (column, word, to) in edits {
            let at = column.saturating_sub(1);
            if !new.get(at..).is_some_and(|t| t.starts_with(word)) {
                return Vec::new();
            }
            new.replace_range(at..at + word.len(), to);
        }
        out.push(Repair { line: number, old, new });
    }
    if !defines.is_empty() {
        let defs: Vec<String> =
            defines.iter().map(|w| format!("`{w}` is the type qualifier of the instruction's form")).collect();
        let Some(r) =
            super::ending_description(section, &format!("In the Semantics block, {}.", super::and_list(&defs)))
        else {
            return Vec::new();
        };
        out.push(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse;

    fn doc(syntax: &str, semantics: &str) -> Document {
        let text = format!(
            "#### 9.7.1.12. [Integer Arithmetic Instructions: `min`](#x)\n\nSyntax\n\n```\n{syntax}\n```\n\n\
             Description\n\nStore the minimum.\n\nSemantics\n\n```\n{semantics}\n```\n\n\
             PTX ISA Notes\n\nIntroduced in PTX ISA version 1.0.\n\nTarget ISA Notes\n\nAll targets.\n\n\
             Examples\n\n```\nmin.u32 d, a, b;\n```\n"
        );
        Document { sections: parse("made.md", text.as_bytes()).unwrap() }
    }

    fn ids(d: &Document) -> Vec<String> {
        check(d).into_iter().map(|f| f.id).collect()
    }

    #[test]
    fn a_placeholder_the_syntax_names_otherwise_or_not_at_all_is_found() {
        let d = doc(
            "min.atype d, a, b;\nmin.btype d, a, b;\n.atype = { .u32 };\n.btype = { .s32 };",
            "if (type == .u32) d = a; else d = b;",
        );
        assert_eq!(
            check(&d)[0].summary,
            "the Semantics block writes `type`, which the Syntax names `.atype` and `.btype`"
        );
        let dtype = doc("setp.type p, a, b;\n.type = { .u32 };", "p = (.dtype == .u32);");
        assert_eq!(check(&dtype)[0].summary, "the Semantics block writes `.dtype`, which the Syntax names `.type`");
        // Compared with the Syntax's qualifiers, a placeholder it never names.
        let literal = doc("add.f32 d, a, b;\nadd.f64 d, a, b;", "if (type == f32) d = a + b;");
        assert_eq!(check(&literal)[0].summary, "the Semantics block writes `type`, which the Syntax does not name");
        // Where the block's `type` may be either of two names, the one the
        // reader must guess is the finding, not the dot-less value beside it.
        let both = doc(
            "min.atype d, a, b;\nmin.btype d, a, b;\n.atype = { .u16x2 };\n.btype = { .s16x2 };",
            "if (type == u16x2 || type == s16x2) d = a; else d = b;",
        );
        assert_eq!(
            check(&both)[0].summary,
            "the Semantics block writes `type`, which the Syntax names `.atype` and `.btype`"
        );
        assert_eq!(check(&both)[0].fragment, "if (type == u16x2 || type == s16x2) d = a; else d = b;");
    }

    #[test]
    fn the_blocks_own_names_and_the_syntaxs_spellings_are_not_findings() {
        // Dotted as in the Syntax, an operand, a variable the block sets
        // (named like a qualifier), a helper's parameter, a constant, a
        // word compared with a number.
        let d = doc(
            "min{.xorsign}{.NaN}.type d, a, b;\n.type = { .u32 };",
            "def pick (x) { return x; }\nif (.type == .u32 && .NaN) xorsign = a;\nd = pick(b) + xorsign + NaN + (CC == 1);",
        );
        assert!(ids(&d).is_empty(), "{:?}", ids(&d));
        // The Syntax's own names without their dots, read, compared or
        // called, each name one thing only: notation.
        let dotless = doc(
            "set.CmpOp.BoolOp.dtype.stype d, a, b, c;\n.dtype = { .u32, .f16x2 };\n.stype = { .bf16x2 };\n\
             .BoolOp = { .and };\n.CmpOp = { .eq };",
            "if (dtype == f16x2 || stype == bf16x2) d = BoolOp(a, c); else d = mode;",
        );
        assert!(ids(&dotless).is_empty(), "{:?}", check(&dotless));
        // A placeholder of another name is still found beside them.
        let scoped = doc("prmt.b32{.mode} d, a, b, c;\n.mode = { .f4e };", "d = (mode == f4e) ? a : .dtype;");
        assert_eq!(check(&scoped)[0].summary, "the Semantics block writes `.dtype`, which the Syntax does not name");
    }

    #[test]
    fn the_fix_renames_a_word_the_syntax_spells_one_way_and_defines_a_type_placeholder() {
        let d = doc("setp.type p, a, b;\n.type = { .u32 };", "if (.dtype == .u32 || .dtype == .u32) p = a;");
        let r = &check(&d)[0].repairs;
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].new, "if (.type == .u32 || .type == .u32) p = a;");
        let literal = doc("add.f32 d, a, b;\nadd.f64 d, a, b;", "if (type == f32) d = a + b;");
        let r = &check(&literal)[0].repairs;
        assert_eq!(
            r[0].new,
            "Store the minimum. In the Semantics block, `type` is the type qualifier of the instruction's form."
        );
        // Two type names the Syntax has, one a line (ex2's `.atype` and
        // `.btype`, sets written without `;`): the form's own type is meant.
        let two = doc(
            "min.atype d, a, b;\nmin.btype d, a, b;\n.atype = { .u32 }\n.btype = { .s32 }",
            "if (.type == .u32) d = a; else d = b;",
        );
        let f = &check(&two)[0];
        assert!(f.summary.ends_with("which the Syntax names `.atype` and `.btype`"), "{}", f.summary);
        assert!(f.repairs[0]
            .new
            .ends_with("In the Semantics block, `.type` is the type qualifier of the instruction's form."));
        // Two names for a word of another kind: which is meant is the
        // question, and no edit is proposed.
        let modes = doc(
            "min.amode d, a, b;\nmin.bmode d, a, b;\n.amode = { .x };\n.bmode = { .y };",
            "if (.mode == .x) d = a; else d = b;",
        );
        assert!(check(&modes)[0].repairs.is_empty());
    }

    #[test]
    fn a_word_the_prose_defines_is_no_guess() {
        let text = "#### 9.7.1.12. [Integer Arithmetic Instructions: `min`](#x)\n\nSyntax\n\n```\nadd.f32 d, a, b;\n```\n\n\
                    Description\n\nStore the minimum. In the Semantics block, `type` is the type qualifier of the form.\n\n\
                    Semantics\n\n```\nif (type == f32) d = a + b;\n```\n";
        let d = Document { sections: crate::audit::text::document::parse_any("made.md", text.as_bytes()).unwrap() };
        assert!(ids(&d).is_empty(), "{:?}", ids(&d));
    }

    #[test]
    fn a_placeholder_misspelled_in_the_prose_is_found_with_its_fix() {
        let text = "#### 9.7.9.22. Data Movement and Conversion Instructions: `cvt.pack`\n\nSyntax\n\n```\n\
                    cvt.pack.sat.convertType.abType d, a, b;\n.convertType = { .u16, .s16 }\n.abType = { .s32 }\n\
                    ```\n\nDescription\n\nIt limits to `MIN(convertType)`.. `MAX(convertedType)`, `abType` and \
                    `abTpye`.\n";
        let d = Document { sections: crate::audit::text::document::parse_any("made.md", text.as_bytes()).unwrap() };
        let found = super::in_prose(&d);
        let got: Vec<(&str, Vec<(&str, &str)>)> = found
            .iter()
            .map(|f| (f.summary.as_str(), f.repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "the prose writes `convertedType`, which no code of the section writes; the Syntax names \
                     `.convertType`",
                    vec![("convertedType", "convertType")]
                ),
                (
                    "the prose writes `abTpye`, which no code of the section writes; the Syntax names `.abType`",
                    vec![("abTpye", "abType")]
                )
            ]
        );
        // The instruction's own name is one to misspell too, and the
        // nearer name is the one meant.
        let text = "#### 9.7.9.19. Data Movement and Conversion Instructions: `isspacep`\n\nSyntax\n\n```\n\
                    isspacep.space p, a;\n.space = { .const, .global };\n```\n\nDescription\n\n\
                    `ispacep.global` returns 1.\n";
        let d = Document { sections: crate::audit::text::document::parse_any("made.md", text.as_bytes()).unwrap() };
        let found = super::in_prose(&d);
        assert_eq!(found.len(), 1);
        assert!(found[0].summary.ends_with("the instruction is `isspacep`"), "{}", found[0].summary);
        assert_eq!(found[0].repairs[0].new, "isspacep");
        // And an operand's.
        let text =
            "#### 9.7.13.15.14. Parallel Synchronization and Communication Instructions: `mbarrier.arrive_drop`\n\n\
                    Syntax\n\n```\nmbarrier.arrive_drop.b64 state, [addr], tx_count;\n```\n\nDescription\n\n\
                    The operand `txCount` counts.\n";
        let d = Document { sections: crate::audit::text::document::parse_any("made.md", text.as_bytes()).unwrap() };
        let found = super::in_prose(&d);
        assert!(found[0].summary.ends_with("the Syntax's operand is `tx_count`"), "{}", found[0].summary);
    }
}
