//! C's grammar over the tokens of a Semantics block, with the dialect's
//! notations, recovering from every error: a statement that does not parse
//! becomes a diagnostic at its exact place and a `Malformed` node, and the
//! parse goes on with the next statement.

use super::ast::*;
use super::lexer::{Token, TokenKind};
use super::{Diagnostic, Notation, SliceOrder, Vocabulary};

type Parse<T> = Result<T, Diagnostic>;

/// How deep the parser recurses (statements in statements, operands in
/// operands) before it reports the rest of the statement instead of
/// reading it: every later walk of the tree recurses as deep, and the
/// document's deepest block nests a handful of levels.
pub const MAX_NESTING: usize = 96;

/// How many levels one expression's tree may have: a left-to-right chain
/// of operators is read in a loop but walked by recursion.
pub const MAX_HEIGHT: u32 = 128;

/// The three clauses of a `for`.
type ForHeader = (Option<Box<Stmt>>, Option<Expr>, Option<Expr>);

/// C's keywords, and the dialect's `def`: never a name, never prose.
const KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return", "def", "goto",
    "sizeof",
];

/// C's type keywords, and GCC's and Clang's `__int128`.
const C_TYPES: &[&str] =
    &["int", "unsigned", "signed", "short", "long", "char", "bool", "_Bool", "float", "double", "void", "__int128"];

/// Words that start a statement: where recovery from an error stops when
/// one begins a line.
const STATEMENT_WORDS: &[&str] =
    &["if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return", "def"];

pub struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
    /// How many of `statement`, `assignment`, `conditional` and `unary`
    /// are open now.
    depth: usize,
    vocabulary: &'a Vocabulary,
    pub diagnostics: Vec<Diagnostic>,
    pub notations: Vec<(Pos, Notation)>,
}

impl<'a> Parser<'a> {
    pub fn new(tokens: &'a [Token], vocabulary: &'a Vocabulary) -> Parser<'a> {
        Parser { tokens, at: 0, depth: 0, vocabulary, diagnostics: Vec::new(), notations: Vec::new() }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.at)
    }
    fn peek_at(&self, ahead: usize) -> Option<&'a Token> {
        self.tokens.get(self.at + ahead)
    }
    fn next_is(&self, punct: &str) -> bool {
        self.peek().is_some_and(|t| t.is(punct))
    }
    fn next_is_word(&self, word: &str) -> bool {
        self.peek().is_some_and(|t| t.is_word(word))
    }
    fn bump(&mut self) -> &'a Token {
        let t = &self.tokens[self.at];
        self.at += 1;
        t
    }
    /// The end of the last token taken.
    fn last_end(&self) -> Pos {
        self.at.checked_sub(1).map(|k| self.tokens[k].end).unwrap_or_default()
    }
    fn here(&self) -> Pos {
        self.peek().map_or(self.last_end(), |t| t.pos)
    }
    fn span_from(&self, start: Pos) -> Span {
        Span { start, end: self.last_end() }
    }

    /// An error at the next token (or where the block ends).
    fn error(&self, code: &'static str, message: impl Into<String>) -> Diagnostic {
        match self.peek() {
            Some(t) => Diagnostic::new(t.pos, &t.text, code, message),
            None => Diagnostic::new(self.last_end(), "", code, message),
        }
    }
    /// `read` one level deeper, or a diagnostic where that passes
    /// `MAX_NESTING`.
    fn nested<T>(&mut self, read: fn(&mut Self) -> Parse<T>) -> Parse<T> {
        if self.depth >= MAX_NESTING {
            return Err(self.error(
                "too-deep",
                format!("nested more than {MAX_NESTING} levels deep: the reader does not read past this point"),
            ));
        }
        self.depth += 1;
        let read = read(self);
        self.depth -= 1;
        read
    }

    /// `e`, or a diagnostic where its tree passes `MAX_HEIGHT` levels.
    fn within_height(&self, e: Expr) -> Parse<Expr> {
        if e.height > MAX_HEIGHT {
            let message =
                format!("an expression of more than {MAX_HEIGHT} levels: the reader does not read past this point");
            return Err(self.error("too-long", message));
        }
        Ok(e)
    }

    fn describe_next(&self) -> String {
        self.peek().map_or("the end of the block".to_string(), |t| format!("`{}`", t.text))
    }
    fn expect(&mut self, punct: &str, what: &str) -> Parse<&'a Token> {
        if self.next_is(punct) {
            return Ok(self.bump());
        }
        let found = self.describe_next();
        // Two operands side by side: `isPresent(c) !isNaN(d)`.
        if self.operand_follows() {
            let end = self.last_end();
            return Err(self.error(
                "no-operator",
                format!(
                    "two operands with no operator between them: {found} follows the operand that ends at {end} \
                 (expected `{punct}` {what} or an operator)"
                ),
            ));
        }
        Err(self.error("expected-token", format!("expected `{punct}` {what}, found {found}")))
    }

    /// Whether the next token can only start an operand (not continue one).
    fn operand_follows(&self) -> bool {
        self.peek().is_some_and(|t| match t.kind {
            TokenKind::Int { .. } | TokenKind::Float | TokenKind::Dotted => true,
            TokenKind::Word => !KEYWORDS.contains(&t.text.as_str()),
            TokenKind::Punct => matches!(t.text.as_str(), "!" | "~"),
        })
    }

    /// Every statement up to a `}` (not taken) or the end.
    pub fn statements(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        while let Some(t) = self.peek() {
            if t.is("}") {
                break;
            }
            out.push(self.statement());
        }
        out
    }

    /// Every statement of the block; a `}` that closes nothing is a
    /// diagnostic, and the parse goes on after it.
    pub fn block(&mut self) -> Vec<Stmt> {
        let mut out = self.statements();
        while let Some(t) = self.peek() {
            self.diagnostics.push(Diagnostic::new(t.pos, "}", "stray-brace", "a `}` that closes no `{`"));
            self.bump();
            out.extend(self.statements());
        }
        out
    }

    /// One statement; where it does not parse, a diagnostic and a
    /// `Malformed` statement up to where the next one starts.
    fn statement(&mut self) -> Stmt {
        let start = self.here();
        let from = self.at;
        match self.try_statement() {
            Ok(s) => s,
            Err(d) => {
                self.diagnostics.push(d);
                self.recover();
                if self.at == from && self.peek().is_some() {
                    self.bump();
                }
                Stmt { kind: StmtKind::Malformed, span: self.span_from(start), comment: None }
            }
        }
    }

    /// Skip to the end of the statement an error is in: past a `;` or a
    /// braced body, or up to a `}` that closes the enclosing body or a word
    /// that starts a statement on a line of its own.
    fn recover(&mut self) {
        let mut depth = 0usize;
        let mut line = self.peek().map_or(0, |t| t.pos.line);
        while let Some(t) = self.peek() {
            let new_line = t.pos.line != line;
            line = t.pos.line;
            if depth == 0 {
                if t.is("}") {
                    return;
                }
                if t.is(";") {
                    self.bump();
                    return;
                }
                if new_line && t.kind == TokenKind::Word && STATEMENT_WORDS.contains(&t.text.as_str()) {
                    return;
                }
            }
            match t.text.as_str() {
                "(" | "[" | "{" if t.kind == TokenKind::Punct => depth += 1,
                ")" | "]" if t.kind == TokenKind::Punct => depth = depth.saturating_sub(1),
                "}" if t.kind == TokenKind::Punct => {
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn try_statement(&mut self) -> Parse<Stmt> {
        self.nested(Self::statement_here)
    }

    fn statement_here(&mut self) -> Parse<Stmt> {
        let start = self.here();
        let t = self.peek().ok_or_else(|| self.error("expected-statement", "expected a statement"))?;
        let kind = match (t.kind.clone(), t.text.as_str()) {
            (TokenKind::Punct, "{") => {
                self.bump();
                let body = self.statements();
                self.close_brace(start);
                StmtKind::Block(body)
            }
            (TokenKind::Punct, ";") => {
                self.bump();
                StmtKind::Empty
            }
            (TokenKind::Word, "if") => {
                self.bump();
                let cond = self.condition("if")?;
                let then = Box::new(self.statement());
                let otherwise = if self.next_is_word("else") {
                    self.bump();
                    Some(Box::new(self.statement()))
                } else {
                    None
                };
                StmtKind::If { cond, then, otherwise }
            }
            (TokenKind::Word, "while") => {
                self.bump();
                let cond = self.condition("while")?;
                StmtKind::While { cond, body: Box::new(self.statement()) }
            }
            (TokenKind::Word, "do") => {
                self.bump();
                let body = Box::new(self.statement());
                if !self.next_is_word("while") {
                    return Err(self.error(
                        "do-without-while",
                        format!("expected `while` after the body of `do`, found {}", self.describe_next()),
                    ));
                }
                self.bump();
                let cond = self.condition("do ... while")?;
                self.end_statement()?;
                StmtKind::DoWhile { body, cond }
            }
            (TokenKind::Word, "for") => self.for_statement()?,
            (TokenKind::Word, "switch") => {
                self.bump();
                let subject = self.condition("switch")?;
                let open = self.here();
                self.expect("{", "to open the body of `switch`")?;
                let body = self.statements();
                self.close_brace(open);
                StmtKind::Switch { subject, body }
            }
            (TokenKind::Word, "case") => {
                self.bump();
                let label = self.conditional()?;
                self.expect(":", "after the `case` label")?;
                StmtKind::Case(label)
            }
            (TokenKind::Word, "default") => {
                self.bump();
                self.expect(":", "after `default`")?;
                StmtKind::Default
            }
            (TokenKind::Word, "break") => {
                self.bump();
                self.end_statement()?;
                StmtKind::Break
            }
            (TokenKind::Word, "continue") => {
                self.bump();
                self.end_statement()?;
                StmtKind::Continue
            }
            (TokenKind::Word, "return") => {
                self.bump();
                let value = if self.next_is(";") || self.peek().is_none_or(|t| t.pos.line != start.line) {
                    None
                } else {
                    Some(self.expression()?)
                };
                self.end_statement()?;
                StmtKind::Return(value)
            }
            (TokenKind::Word, "def") => self.function()?,
            // `atomic { ... }`: the statements as one indivisible step.
            (TokenKind::Word, "atomic") if self.peek_at(1).is_some_and(|n| n.is("{")) => self.atomic_block(),
            // `where` before the helpers the block's statements call, each
            // defined by an equation.
            (TokenKind::Word, "where") if self.equation_follows(1) => {
                self.bump();
                StmtKind::Empty
            }
            _ if self.equation_follows(0) => self.equation()?,
            (TokenKind::Word, "else") => return Err(self.error("else-without-if", "`else` with no `if` before it")),
            _ if self.declaration_starts() => {
                let kind = self.declaration()?;
                if !matches!(kind, StmtKind::Function { .. }) {
                    self.end_statement()?;
                }
                kind
            }
            _ => {
                let e = self.expression()?;
                if let Some(function) = self.signature(&e) {
                    function?
                } else {
                    self.end_statement()?;
                    StmtKind::Expr(e)
                }
            }
        };
        Ok(Stmt { kind, span: self.span_from(start), comment: None })
    }

    /// The `}` of a body opened at `open`: its absence is a diagnostic (the
    /// body then runs to the end of the block).
    fn close_brace(&mut self, open: Pos) {
        if self.next_is("}") {
            self.bump();
        } else {
            self.diagnostics.push(Diagnostic::new(
                open,
                "{",
                "unclosed-brace",
                format!("the `{{` at {open} is never closed"),
            ));
        }
    }

    /// A statement's `;`. Where the line ends without one, or a `}` follows,
    /// the missing `;` is a diagnostic and the statement stands; anything
    /// else on the same line is an error.
    fn end_statement(&mut self) -> Parse<()> {
        let end = self.last_end();
        match self.peek() {
            Some(t) if t.is(";") => {
                self.bump();
                Ok(())
            }
            next if next.is_none_or(|t| t.pos.line != end.line || t.is("}")) => {
                // At the statement's last token, which the `;` should follow.
                let last = &self.tokens[self.at - 1];
                let message = format!("the statement does not end with `;` (none after the `{}` here)", last.text);
                self.diagnostics.push(Diagnostic::new(last.pos, &last.text, "no-semicolon", message));
                Ok(())
            }
            _ if self.operand_follows() => Err(self.error(
                "no-operator",
                format!(
                    "two operands with no operator between them: {} follows the operand that ends at {end}",
                    self.describe_next()
                ),
            )),
            _ => {
                Err(self
                    .error("expected-token", format!("expected `;` or an operator, found {}", self.describe_next())))
            }
        }
    }

    /// `( expression )` after `if`, `while` or `switch`. An error inside is
    /// a diagnostic and a `Malformed` condition, so that the body is still
    /// read.
    fn condition(&mut self, after: &str) -> Parse<Expr> {
        let open = self.expect("(", &format!("after `{after}`"))?.pos;
        match self.expression().and_then(|e| self.expect(")", &format!("to close the `(` at {open}")).map(|_| e)) {
            Ok(e) => Ok(e),
            Err(d) => {
                self.diagnostics.push(d);
                self.skip_to_close(1);
                Ok(Expr::new(ExprKind::Malformed, self.span_from(open)))
            }
        }
    }

    /// Skip past the `)` that closes `depth` open parentheses, stopping
    /// early at a `{`, `}` or `;` outside them.
    fn skip_to_close(&mut self, mut depth: usize) {
        while let Some(t) = self.peek() {
            if t.kind == TokenKind::Punct {
                match t.text.as_str() {
                    "(" => depth += 1,
                    ")" => {
                        depth -= 1;
                        if depth == 0 {
                            self.bump();
                            return;
                        }
                    }
                    "{" | "}" | ";" if depth <= 1 => return,
                    _ => {}
                }
            }
            self.bump();
        }
    }

    fn for_statement(&mut self) -> Parse<StmtKind> {
        self.bump();
        let open = self.expect("(", "after `for`")?.pos;
        let header = (|| -> Parse<ForHeader> {
            let init = if self.next_is(";") {
                self.bump();
                None
            } else {
                let start = self.here();
                let kind =
                    if self.declaration_starts() { self.declaration()? } else { StmtKind::Expr(self.expression()?) };
                let span = self.span_from(start);
                self.expect(";", "after the first clause of `for`")?;
                Some(Box::new(Stmt { kind, span, comment: None }))
            };
            let cond = if self.next_is(";") { None } else { Some(self.expression()?) };
            self.expect(";", "after the condition of `for`")?;
            let step = if self.next_is(")") { None } else { Some(self.expression()?) };
            self.expect(")", &format!("to close the `(` at {open}"))?;
            Ok((init, cond, step))
        })();
        let (init, cond, step) = match header {
            Ok(h) => h,
            Err(d) => {
                self.diagnostics.push(d);
                self.skip_to_close(1);
                (None, Some(Expr::new(ExprKind::Malformed, self.span_from(open))), None)
            }
        };
        Ok(StmtKind::For { init, cond, step, body: Box::new(self.statement()) })
    }

    /// `def name (a, b) { ... }`.
    fn function(&mut self) -> Parse<StmtKind> {
        let def = self.bump().pos;
        self.notations.push((def, Notation::HelperDefinition));
        let name = self.name("after `def`")?;
        self.function_rest(name, None)
    }

    /// A helper's parameters, each with its type where one is written, and
    /// its body: what follows its name.
    fn function_rest(&mut self, name: String, returns: Option<TypeName>) -> Parse<StmtKind> {
        self.expect("(", "before the parameters")?;
        let mut params = Vec::new();
        while !self.next_is(")") {
            let ty =
                if self.declaration_starts() { Some(TypeName { spelled: self.bump().text.clone() }) } else { None };
            params.push(Param { ty, name: self.name("as a parameter")? });
            if !self.next_is(")") {
                self.expect(",", "between parameters")?;
            }
        }
        self.bump();
        self.function_body(name, returns, params)
    }

    fn function_body(&mut self, name: String, returns: Option<TypeName>, params: Vec<Param>) -> Parse<StmtKind> {
        let open = self.here();
        self.expect("{", &format!("to open the body of `{name}`"))?;
        let body = self.statements();
        self.close_brace(open);
        Ok(StmtKind::Function { name, returns, params, body })
    }

    /// `atomic { ... }`, read as its statements.
    fn atomic_block(&mut self) -> StmtKind {
        self.notations.push((self.here(), Notation::AtomicBlock));
        self.bump();
        let open = self.here();
        self.bump();
        let body = self.statements();
        self.close_brace(open);
        StmtKind::Block(body)
    }

    /// Whether the tokens `ahead` of here define a helper by an equation:
    /// `name(x, y) =`, its parameters plain names.
    fn equation_follows(&self, ahead: usize) -> bool {
        let word = |k: usize| self.peek_at(k).is_some_and(|t| t.kind == TokenKind::Word);
        let punct = |k: usize, p: &str| self.peek_at(k).is_some_and(|t| t.is(p));
        if !word(ahead) || !punct(ahead + 1, "(") {
            return false;
        }
        let mut k = ahead + 2;
        loop {
            if !word(k) {
                return false;
            }
            k += 1;
            if punct(k, ")") {
                return punct(k + 1, "=");
            }
            if !punct(k, ",") {
                return false;
            }
            k += 1;
        }
    }

    /// `name(x, y) = expression;`: a helper whose body returns the
    /// expression.
    fn equation(&mut self) -> Parse<StmtKind> {
        let at = self.here();
        self.notations.push((at, Notation::EquationDefinition));
        let name = self.bump().text.clone();
        self.bump();
        let mut params = Vec::new();
        while !self.next_is(")") {
            params.push(Param { ty: None, name: self.bump().text.clone() });
            if self.next_is(",") {
                self.bump();
            }
        }
        self.bump();
        self.bump();
        let start = self.here();
        let value = self.expression()?;
        self.end_statement()?;
        let body = vec![Stmt { kind: StmtKind::Return(Some(value)), span: self.span_from(start), comment: None }];
        Ok(StmtKind::Function { name, returns: None, params, body })
    }

    /// `name(x, y) {`: a helper's signature with its body, where a call of
    /// names is followed by a brace.
    fn signature(&mut self, e: &Expr) -> Option<Parse<StmtKind>> {
        let ExprKind::Call(callee, args) = &e.kind else { return None };
        let ExprKind::Name(name) = &callee.kind else { return None };
        let params: Option<Vec<Param>> = args
            .iter()
            .map(|a| match &a.kind {
                ExprKind::Name(n) => Some(Param { ty: None, name: n.clone() }),
                _ => None,
            })
            .collect();
        let params = params?;
        if !self.next_is("{") {
            return None;
        }
        self.notations.push((e.span.start, Notation::HelperDefinition));
        Some(self.function_body(name.clone(), None, params))
    }

    fn name(&mut self, what: &str) -> Parse<String> {
        match self.peek() {
            Some(t) if t.kind == TokenKind::Word && !KEYWORDS.contains(&t.text.as_str()) => {
                Ok(self.bump().text.clone())
            }
            _ => Err(self.error("expected-name", format!("expected a name {what}, found {}", self.describe_next()))),
        }
    }

    /// Whether a declaration starts here: a type (`.u32`, `u32`, `unsigned
    /// int`) followed by a name.
    fn declaration_starts(&self) -> bool {
        let Some(t) = self.peek() else { return false };
        let is_name =
            |t: Option<&Token>| t.is_some_and(|t| t.kind == TokenKind::Word && !KEYWORDS.contains(&t.text.as_str()));
        if t.kind == TokenKind::Word && C_TYPES.contains(&t.text.as_str()) {
            return true;
        }
        let ptx = TypeName { spelled: t.text.clone() };
        let typed = match t.kind {
            TokenKind::Dotted => ptx.ptx().is_some() || t.text == ".pred",
            TokenKind::Word => ptx.ptx().is_some() || t.text == "pred",
            _ => false,
        };
        typed && is_name(self.peek_at(1))
    }

    fn declaration(&mut self) -> Parse<StmtKind> {
        let first = self.bump();
        let mut spelled = first.text.clone();
        if first.kind == TokenKind::Word && C_TYPES.contains(&first.text.as_str()) {
            while let Some(t) = self.peek().filter(|t| t.kind == TokenKind::Word && C_TYPES.contains(&t.text.as_str()))
            {
                spelled.push(' ');
                spelled.push_str(&t.text);
                self.bump();
            }
        } else if first.kind == TokenKind::Word {
            self.notations.push((first.pos, Notation::TypeWithoutDot));
        }
        let mut declarators = Vec::new();
        loop {
            let pos = self.here();
            let name = self.name("to declare")?;
            // `u32 min(u32 x, u32 y) { ... }`: C's definition of a helper.
            if declarators.is_empty() && self.next_is("(") {
                return self.function_rest(name, Some(TypeName { spelled }));
            }
            let array = if self.next_is("[") {
                self.bump();
                let size = self.expression()?;
                self.expect("]", "after the array's size")?;
                Some(size)
            } else {
                None
            };
            let init = if self.next_is("=") {
                self.bump();
                Some(self.assignment()?)
            } else {
                None
            };
            declarators.push(Declarator { name, pos, array, init });
            if !self.next_is(",") {
                break;
            }
            self.bump();
        }
        Ok(StmtKind::Declare { ty: TypeName { spelled }, declarators })
    }

    /// C's expression: assignments joined by the comma operator.
    pub fn expression(&mut self) -> Parse<Expr> {
        let start = self.here();
        let mut e = self.assignment()?;
        while self.next_is(",") {
            self.bump();
            let r = self.assignment()?;
            e = self.within_height(Expr::new(ExprKind::Comma(Box::new(e), Box::new(r)), self.span_from(start)))?;
        }
        Ok(e)
    }

    fn assignment(&mut self) -> Parse<Expr> {
        self.nested(Self::assignment_here)
    }

    fn assignment_here(&mut self) -> Parse<Expr> {
        let start = self.here();
        let target = self.conditional()?;
        let Some(t) = self.peek().filter(|t| t.kind == TokenKind::Punct) else { return Ok(target) };
        let op = match t.text.as_str() {
            "=" => AssignOp(None),
            s if s.len() >= 2 && s.ends_with('=') && !matches!(s, "==" | "!=" | "<=" | ">=") => {
                match BinaryOp::of(&s[..s.len() - 1]) {
                    Some(op) => AssignOp(Some(op)),
                    None => return Ok(target),
                }
            }
            _ => return Ok(target),
        };
        if !assignable(&target) {
            let text = self.text_between(target.span);
            let why = if hyphenated(&target) {
                format!("`{text}` cannot be assigned to: C reads the hyphenated name as a subtraction")
            } else {
                format!("`{text}` cannot be assigned to: it is not a variable, element or slice")
            };
            let code = if hyphenated(&target) { "hyphenated-name" } else { "not-assignable" };
            return Err(Diagnostic::new(target.span.start, &text, code, why));
        }
        self.bump();
        let value = self.assignment()?;
        Ok(Expr::new(ExprKind::Assign(op, Box::new(target), Box::new(value)), self.span_from(start)))
    }

    /// The tokens' text within `span`, spaced as in the document where
    /// they were spaced.
    fn text_between(&self, span: Span) -> String {
        let mut out = String::new();
        for t in self.tokens.iter().filter(|t| t.pos >= span.start && t.end <= span.end) {
            if t.space_before && !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&t.text);
        }
        out
    }

    fn conditional(&mut self) -> Parse<Expr> {
        self.nested(Self::conditional_here)
    }

    fn conditional_here(&mut self) -> Parse<Expr> {
        let start = self.here();
        let cond = self.binary(PREC_PLACEHOLDER)?;
        if !self.next_is("?") {
            return Ok(cond);
        }
        let question = self.bump().pos;
        let then = self.expression()?;
        if !self.next_is(":") {
            return Err(self.error(
                "no-colon",
                format!(
                    "the conditional operator `?` at {question} has no `:`, found {} where it should be",
                    self.describe_next()
                ),
            ));
        }
        self.bump();
        let otherwise = self.conditional()?;
        Ok(Expr::new(ExprKind::Conditional(Box::new(cond), Box::new(then), Box::new(otherwise)), self.span_from(start)))
    }

    /// Binary operators of precedence `min` or tighter, left to right; the
    /// section's placeholder operators; words run together as prose.
    fn binary(&mut self, min: u8) -> Parse<Expr> {
        let start = self.here();
        let mut lhs = self.unary()?;
        while let Some(t) = self.peek() {
            if t.kind == TokenKind::Punct {
                let Some(op) = BinaryOp::of(&t.text).filter(|op| op.precedence() >= min) else { break };
                self.bump();
                let rhs = self.binary(op.precedence() + 1)?;
                lhs = self.within_height(Expr::new(
                    ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    self.span_from(start),
                ))?;
                continue;
            }
            if t.kind != TokenKind::Word || KEYWORDS.contains(&t.text.as_str()) {
                break;
            }
            if self.vocabulary.operators.contains(&t.text) {
                if PREC_PLACEHOLDER < min {
                    break;
                }
                self.bump();
                self.notations.push((t.pos, Notation::PlaceholderOperator(t.text.clone())));
                let rhs = self.binary(PREC_PLACEHOLDER + 1)?;
                let kind = ExprKind::Placeholder { name: t.text.clone(), lhs: Box::new(lhs), rhs: Box::new(rhs) };
                lhs = self.within_height(Expr::new(kind, self.span_from(start)))?;
                continue;
            }
            // `bitwidth of type`: a name followed by words is prose.
            let mut words = match &lhs.kind {
                ExprKind::Name(n) => vec![n.clone()],
                ExprKind::Prose(w) => w.clone(),
                _ => break,
            };
            if words.len() == 1 {
                self.notations.push((lhs.span.start, Notation::Prose));
            }
            words.push(self.bump().text.clone());
            lhs = Expr::new(ExprKind::Prose(words), self.span_from(start));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Parse<Expr> {
        self.nested(Self::unary_here)
    }

    fn unary_here(&mut self) -> Parse<Expr> {
        let start = self.here();
        let Some(t) = self.peek() else {
            return Err(self.error("expected-expression", "expected an expression, but the block ends"));
        };
        if t.kind != TokenKind::Punct {
            let e = self.primary()?;
            return self.postfix(e);
        }
        let op = match t.text.as_str() {
            "+" => Some(UnaryOp::Plus),
            "-" => Some(UnaryOp::Minus),
            "!" => Some(UnaryOp::Not),
            "~" => Some(UnaryOp::Complement),
            "*" => Some(UnaryOp::Deref),
            "&" => Some(UnaryOp::AddressOf),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let operand = self.unary()?;
            return Ok(Expr::new(ExprKind::Unary(op, Box::new(operand)), self.span_from(start)));
        }
        if t.is("++") || t.is("--") {
            self.bump();
            let op = if t.is("++") { StepOp::Increment } else { StepOp::Decrement };
            let target = Box::new(self.unary()?);
            return Ok(Expr::new(ExprKind::Step { op, prefix: true, target }, self.span_from(start)));
        }
        if t.is("|") {
            // `|x|`: the absolute value, its operand up to the closing bar.
            self.bump();
            self.notations.push((start, Notation::AbsoluteValue));
            let inner = self.binary(PREC_BIT_OR + 1)?;
            if !self.next_is("|") {
                return Err(self.error(
                    "unclosed-abs",
                    format!(
                        "the `|` at {start} opens an absolute value that is never closed, found {}",
                        self.describe_next()
                    ),
                ));
            }
            self.bump();
            let e = Expr::new(ExprKind::Abs(Box::new(inner)), self.span_from(start));
            return self.postfix(e);
        }
        if t.is("(") && self.cast_follows() {
            self.bump();
            let mut spelled = self.bump().text.clone();
            while !self.next_is(")") {
                spelled.push(' ');
                spelled.push_str(&self.bump().text);
            }
            self.bump();
            let operand = self.unary()?;
            return Ok(Expr::new(ExprKind::Cast(TypeName { spelled }, Box::new(operand)), self.span_from(start)));
        }
        let e = self.primary()?;
        self.postfix(e)
    }

    /// Whether `(` opens a cast: type words only, then `)`.
    fn cast_follows(&self) -> bool {
        let mut k = 1;
        while let Some(t) = self.peek_at(k) {
            let ptx = TypeName { spelled: t.text.clone() };
            let typed = match t.kind {
                TokenKind::Word => C_TYPES.contains(&t.text.as_str()) || ptx.ptx().is_some(),
                TokenKind::Dotted => ptx.ptx().is_some(),
                _ => false,
            };
            if !typed {
                return k > 1 && t.is(")");
            }
            k += 1;
        }
        false
    }

    fn primary(&mut self) -> Parse<Expr> {
        let start = self.here();
        let t = self
            .peek()
            .ok_or_else(|| self.error("expected-expression", "expected an expression, but the block ends"))?;
        let kind = match &t.kind {
            TokenKind::Int { value } => {
                self.bump();
                let int = ExprKind::Int { text: t.text.clone(), value: *value };
                // `2n`: a number run into a name is their product.
                if let Some(n) = self
                    .peek()
                    .filter(|n| n.kind == TokenKind::Word && !n.space_before && !KEYWORDS.contains(&n.text.as_str()))
                {
                    self.bump();
                    self.notations.push((start, Notation::ImplicitProduct));
                    let lhs = Expr::new(int, Span { start, end: t.end });
                    let rhs = Expr::new(ExprKind::Name(n.text.clone()), Span { start: n.pos, end: n.end });
                    ExprKind::Binary(BinaryOp::Mul, Box::new(lhs), Box::new(rhs))
                } else {
                    int
                }
            }
            TokenKind::Float => {
                self.bump();
                ExprKind::Float(t.text.clone())
            }
            // `sizeof (expression)`: read as a call, which the readings
            // give C's meaning (the size of the operand's type).
            TokenKind::Word if t.text == "sizeof" && self.peek_at(1).is_some_and(|n| n.is("(")) => {
                self.bump();
                ExprKind::Name(t.text.clone())
            }
            TokenKind::Word if KEYWORDS.contains(&t.text.as_str()) || C_TYPES.contains(&t.text.as_str()) => {
                return Err(self
                    .error("expected-expression", format!("expected an expression, found the keyword `{}`", t.text)));
            }
            TokenKind::Word => {
                self.bump();
                ExprKind::Name(t.text.clone())
            }
            TokenKind::Dotted => {
                self.bump();
                ExprKind::Qualifier(t.text[1..].to_string())
            }
            TokenKind::Punct if t.text == "(" => {
                self.bump();
                let inner = self.expression()?;
                self.expect(")", &format!("to close the `(` at {start}"))?;
                ExprKind::Paren(Box::new(inner))
            }
            TokenKind::Punct if t.text == "[" && self.peek_at(1).is_some_and(|n| n.kind == TokenKind::Word) => {
                self.bump();
                let name = self.bump().text.clone();
                self.expect("]", "after the bracketed name")?;
                self.notations.push((start, Notation::BracketedName));
                ExprKind::Bracketed(name)
            }
            TokenKind::Punct => {
                return Err(self.error("expected-expression", format!("expected an expression, found `{}`", t.text)));
            }
        };
        Ok(Expr::new(kind, self.span_from(start)))
    }

    fn postfix(&mut self, mut e: Expr) -> Parse<Expr> {
        let start = e.span.start;
        while let Some(t) = self.peek() {
            let kind = if t.is("(") {
                self.bump();
                let mut args = Vec::new();
                while !self.next_is(")") {
                    args.push(self.assignment()?);
                    if !self.next_is(")") {
                        self.expect(",", "between the arguments")?;
                    }
                }
                self.bump();
                ExprKind::Call(Box::new(e), args)
            } else if t.is("[") {
                self.bump();
                let first = self.expression()?;
                if self.next_is(":") {
                    self.bump();
                    let second = self.expression()?;
                    self.expect("]", "to close the slice")?;
                    self.slice_notation(t.pos, SliceNotation::Brackets, &first, &second);
                    let (base, first, second) = (Box::new(e), Box::new(first), Box::new(second));
                    ExprKind::Slice { base, first, second, notation: SliceNotation::Brackets }
                } else {
                    self.expect("]", "to close the index")?;
                    ExprKind::Index(Box::new(e), Box::new(first))
                }
            } else if t.is("<") && self.angle_slice_follows() {
                self.bump();
                let first = self.binary(PREC_ADDITIVE)?;
                self.expect("..", "between the bounds of the slice")?;
                let second = self.binary(PREC_ADDITIVE)?;
                self.expect(">", "to close the slice")?;
                self.slice_notation(t.pos, SliceNotation::Angles, &first, &second);
                let (base, first, second) = (Box::new(e), Box::new(first), Box::new(second));
                ExprKind::Slice { base, first, second, notation: SliceNotation::Angles }
            } else if t.kind == TokenKind::Dotted && !t.space_before {
                self.bump();
                ExprKind::Member(Box::new(e), t.text[1..].to_string())
            } else if t.is("++") || t.is("--") {
                self.bump();
                let op = if t.is("++") { StepOp::Increment } else { StepOp::Decrement };
                ExprKind::Step { op, prefix: false, target: Box::new(e) }
            } else {
                break;
            };
            e = self.within_height(Expr::new(kind, self.span_from(start)))?;
        }
        Ok(e)
    }

    /// Whether the `<` here opens a slice `<hi..lo>`: a `..` comes before
    /// its `>`, outside parentheses.
    fn angle_slice_follows(&self) -> bool {
        // Parentheses and brackets, and slices nested in the bounds.
        let (mut depth, mut angles) = (0usize, 0usize);
        for t in &self.tokens[self.at + 1..] {
            if t.kind != TokenKind::Punct {
                continue;
            }
            match t.text.as_str() {
                "(" | "[" => depth += 1,
                ")" | "]" if depth == 0 => return false,
                ")" | "]" => depth -= 1,
                "<" if depth == 0 => angles += 1,
                ">" if depth == 0 && angles > 0 => angles -= 1,
                ".." if depth == 0 && angles == 0 => return true,
                ">" | ";" | "{" | "}" | "?" | ":" | "=" if depth == 0 => return false,
                _ => {}
            }
        }
        false
    }

    fn slice_notation(&mut self, pos: Pos, notation: SliceNotation, first: &Expr, second: &Expr) {
        let order = match (&first.without_parens().kind, &second.without_parens().kind) {
            (ExprKind::Int { value: a, .. }, ExprKind::Int { value: b, .. }) => Some(if a > b {
                SliceOrder::HighFirst
            } else if a < b {
                SliceOrder::LowFirst
            } else {
                SliceOrder::OneBit
            }),
            _ => None,
        };
        self.notations.push((pos, Notation::Slice { notation, order }));
    }
}

/// Whether `e` is names joined by `-` with no space (`bit-width-overflow`):
/// a hyphenated name, which C reads as subtractions.
fn hyphenated(e: &Expr) -> bool {
    fn names(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Name(_) => true,
            ExprKind::Binary(BinaryOp::Sub, l, r) => names(l) && matches!(r.kind, ExprKind::Name(_)),
            _ => false,
        }
    }
    matches!(e.kind, ExprKind::Binary(BinaryOp::Sub, ..)) && names(e)
}

/// Whether C can assign to `e`: a variable, an element, a member, a slice
/// (the dialect's), or one of those in parentheses.
fn assignable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Name(_) | ExprKind::Index(..) | ExprKind::Member(..) | ExprKind::Slice { .. } => true,
        // The memory an address names (`*a = ...`).
        ExprKind::Unary(UnaryOp::Deref, _) => true,
        ExprKind::Paren(inner) => assignable(inner),
        _ => false,
    }
}
