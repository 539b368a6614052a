//! The pseudocode of the PTX ISA, read from the document: a parser from a
//! Semantics block's text to a syntax tree whose every node knows its line
//! and column.
//!
//! The dialect is C's statements and expressions (C's precedence, C's
//! constants: a leading `0` is octal) with what the document adds:
//! declarations by PTX type (`.u32 d = 0;`, `u32 n = ...`), qualifiers as
//! values (`.mode`, `shf.dir`, `CC.CF`), bit slices in two notations
//! (`x[4:0]`, `t<47..16>`) read with their bounds as written, absolute
//! values (`|a|`), a number run into a name (`2n`), names in brackets
//! (`[Thread]`), helpers defined with `def`, operators named by the
//! section's placeholders (`a CmpOp b`), and phrases of prose where an
//! expression should be (`bitwidth of type`). Each use of a notation C does
//! not have is recorded ([`Notation`]), so that a later pass can say where
//! the text leaves C.
//!
//! Nothing is fatal: a statement that does not parse is a [`Diagnostic`] at
//! its exact place (a malformed-code finding) and a `Malformed` node, and
//! the rest of the block is still read.

pub mod arith;
pub mod ast;
pub mod eval;
pub mod fold;
pub mod lexer;
pub mod parser;
pub mod print;
pub mod readings;
pub mod setting;
pub mod value;

#[cfg(test)]
mod tests;

use serde::Serialize;

use ast::{Comment, Pos, SliceNotation, Stmt};

/// One line of code as the document has it: its number in its file and its
/// text.
#[derive(Clone, Copy, Debug)]
pub struct SourceLine<'a> {
    pub number: usize,
    pub text: &'a str,
}

/// Where the text is not the dialect: the place, the text there, and why,
/// in one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub pos: Pos,
    pub fragment: String,
    /// What is wrong, as a short stable name (`no-colon`,
    /// `hyphenated-name`): findings are named after it.
    pub code: &'static str,
    pub message: String,
}

impl Diagnostic {
    pub fn new(pos: Pos, fragment: &str, code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { pos, fragment: fragment.to_string(), code, message: message.into() }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.pos, self.message)
    }
}

/// The order of a slice's constant bounds as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SliceOrder {
    /// `x[4:0]`, `t<47..16>`.
    HighFirst,
    /// `a[0:15]`.
    LowFirst,
    /// `x[3:3]`.
    OneBit,
}

/// A notation of the dialect that C does not have, where it is used.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Notation {
    /// A bit slice; the order of its bounds where both are constants.
    Slice { notation: SliceNotation, order: Option<SliceOrder> },
    /// `|x|`.
    AbsoluteValue,
    /// `2n`: a number run into a name.
    ImplicitProduct,
    /// Words where an expression should be.
    Prose,
    /// An operator named by a placeholder of the section (`CmpOp`).
    PlaceholderOperator(String),
    /// `[Thread]`.
    BracketedName,
    /// `def f (x) { ... }`.
    HelperDefinition,
    /// A PTX type without its dot in a declaration (`u32 n`).
    TypeWithoutDot,
    /// `atomic { ... }`.
    AtomicBlock,
    /// `f(x, y) = ...;`, under a `where` or alone.
    EquationDefinition,
}

impl Notation {
    pub fn describe(&self) -> String {
        match self {
            Notation::Slice { notation: SliceNotation::Brackets, order } => match order {
                Some(SliceOrder::HighFirst) => "a slice `x[hi:lo]`".into(),
                Some(SliceOrder::LowFirst) => "a slice `x[lo:hi]`".into(),
                _ => "a slice `x[a:b]`".into(),
            },
            Notation::Slice { notation: SliceNotation::Angles, order } => match order {
                Some(SliceOrder::LowFirst) => "a slice `x<lo..hi>`".into(),
                _ => "a slice `x<hi..lo>`".into(),
            },
            Notation::AbsoluteValue => "an absolute value `|x|`".into(),
            Notation::ImplicitProduct => "a number run into a name (`2n`)".into(),
            Notation::Prose => "prose where an expression should be".into(),
            Notation::PlaceholderOperator(name) => format!("the placeholder `{name}` used as an operator"),
            Notation::BracketedName => "a name in brackets (`[Thread]`)".into(),
            Notation::HelperDefinition => "a helper defined with `def`".into(),
            Notation::TypeWithoutDot => "a PTX type without its dot (`u32`)".into(),
            Notation::AtomicBlock => "an atomic block `atomic { ... }`".into(),
            Notation::EquationDefinition => "a helper defined by an equation `f(x) = ...`".into(),
        }
    }
}

/// What the section tells the parser: the names its Syntax gives to sets
/// of operators (`.CmpOp = { eq, ne, ... }`), which its pseudocode then
/// uses between operands.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    pub operators: Vec<String>,
}

impl Vocabulary {
    /// The placeholders a Syntax block defines: each `.Name = { ... }`
    /// whose name is capitalised (`.CmpOp`, `.BoolOp`); lower-case names
    /// (`.type`, `.mode`) are qualifiers, not operators.
    pub fn of_syntax<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vocabulary {
        let mut operators: Vec<String> = Vec::new();
        for line in lines {
            let Some((left, right)) = line.split_once('=') else { continue };
            let name = left.trim().trim_start_matches('.');
            let capitalised = name.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            if capitalised
                && right.trim_start().starts_with('{')
                && name.chars().all(lexer::is_word_char)
                && !operators.iter().any(|o| o == name)
            {
                operators.push(name.to_string());
            }
        }
        Vocabulary { operators }
    }
}

/// A notation at its place.
pub type Placed<'a> = (Pos, &'a Notation);

/// A block read: its statements, every comment, what did not parse, and
/// where it uses notations C does not have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Parsed {
    pub statements: Vec<Stmt>,
    pub comments: Vec<Comment>,
    pub diagnostics: Vec<Diagnostic>,
    pub notations: Vec<(Pos, Notation)>,
}

impl Parsed {
    /// Where the block writes slices with their bounds in both orders
    /// (`a[0:15]` and `x[4:0]`), or in both notations: the first use of
    /// each, in written order.
    pub fn mixed_slices(&self) -> Option<(Placed<'_>, Placed<'_>)> {
        let slices: Vec<(Pos, &Notation)> =
            self.notations.iter().filter(|(_, n)| matches!(n, Notation::Slice { .. })).map(|(p, n)| (*p, n)).collect();
        let key = |n: &Notation| match n {
            Notation::Slice { notation, order: Some(o @ (SliceOrder::HighFirst | SliceOrder::LowFirst)) } => {
                Some((*notation, Some(*o)))
            }
            Notation::Slice { notation, .. } => Some((*notation, None)),
            _ => None,
        };
        let first = slices.iter().find(|(_, n)| key(n).is_some_and(|(_, o)| o.is_some()))?;
        let (n0, o0) = key(first.1)?;
        let other = slices
            .iter()
            .find(|(_, n)| key(n).is_some_and(|(n1, o1)| n1 != n0 || o1.is_some_and(|o1| Some(o1) != o0)))?;
        let mut pair = [*first, *other];
        pair.sort_by_key(|(p, _)| *p);
        Some((pair[0], pair[1]))
    }
}

/// Parse the code lines of one block (fences dropped, in order).
pub fn parse(lines: &[SourceLine<'_>], vocabulary: &Vocabulary) -> Parsed {
    let (tokens, comments, mut diagnostics) = lexer::lex(lines);
    let mut parser = parser::Parser::new(&tokens, vocabulary);
    let mut statements = parser.block();
    diagnostics.append(&mut parser.diagnostics);
    diagnostics.sort_by_key(|d| d.pos);
    let mut notations = std::mem::take(&mut parser.notations);
    notations.sort_by_key(|(p, _)| *p);
    attach_comments(&mut statements, &comments);
    Parsed { statements, comments, diagnostics, notations }
}

/// Give each comment that ends a line to the last statement that ends on
/// that line before it (`d = t<2n-1..n>;   // for .hi variant`).
fn attach_comments(statements: &mut [Stmt], comments: &[Comment]) {
    fn visit(stmts: &mut [Stmt], f: &mut dyn FnMut(&mut Stmt)) {
        for s in stmts {
            f(s);
            match &mut s.kind {
                ast::StmtKind::Block(b)
                | ast::StmtKind::Switch { body: b, .. }
                | ast::StmtKind::Function { body: b, .. } => visit(b, f),
                ast::StmtKind::If { then, otherwise, .. } => {
                    visit(std::slice::from_mut(then), f);
                    if let Some(o) = otherwise {
                        visit(std::slice::from_mut(o), f);
                    }
                }
                ast::StmtKind::For { body, .. }
                | ast::StmtKind::While { body, .. }
                | ast::StmtKind::DoWhile { body, .. } => visit(std::slice::from_mut(body), f),
                _ => {}
            }
        }
    }
    // The last statement, in written order, ending before each comment on
    // its line.
    let mut owner: Vec<Option<usize>> = vec![None; comments.len()];
    let mut k = 0;
    visit(statements, &mut |s| {
        for (c, o) in comments.iter().zip(owner.iter_mut()) {
            if s.span.end.line == c.pos.line && s.span.end.column <= c.pos.column {
                *o = Some(k);
            }
        }
        k += 1;
    });
    let mut k = 0;
    visit(statements, &mut |s| {
        if let Some(c) = owner.iter().position(|o| *o == Some(k)) {
            s.comment = Some(comments[c].clone());
        }
        k += 1;
    });
}
