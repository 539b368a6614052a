//! The syntax tree of a Semantics block: C's statements and expressions,
//! and the dialect's own notations, each node at its place in the document.
//!
//! The tree keeps what was written: parentheses stay as nodes (so a reader
//! can tell `a & (m == 0)` written from `a&m == 0` read), a slice keeps its
//! notation and the order of its bounds, and a phrase of prose where an
//! expression should be (`bitwidth of type`) is a node of its own, not an
//! error and not a guess.

use std::fmt;

use serde::Serialize;

/// A place in the document: its 1-based line, and 1-based column in
/// characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Where a node starts, and the place just after its last character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Span {
    pub start: Pos,
    pub end: Pos,
}

/// A comment: where it starts, and its text without `//` or `/* */`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comment {
    pub pos: Pos,
    pub text: String,
}

/// A type named in a declaration or a cast, as spelled: a PTX type with or
/// without its dot (`.u32`, `u32`) or C's (`unsigned int`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeName {
    pub spelled: String,
}

impl TypeName {
    /// A PTX type's letter and width (`.s32` is ('s', 32)), where it is one.
    pub fn ptx(&self) -> Option<(char, u32)> {
        let name = self.spelled.strip_prefix('.').unwrap_or(&self.spelled);
        let mut chars = name.chars();
        let letter = chars.next()?;
        let bits: u32 = chars.as_str().parse().ok()?;
        (matches!(letter, 'u' | 's' | 'b' | 'f') && matches!(bits, 8 | 16 | 32 | 64)).then_some((letter, bits))
    }
    /// A C integer type's signedness and width on an LP64 target
    /// (`unsigned` is (false, 32)), GCC's and Clang's `unsigned __int128`
    /// included; `None` for any other name. The signed 128-bit type is not
    /// read: its overflow would need 256 bits to decide.
    pub fn c_integer(&self) -> Option<(bool, u32)> {
        let spelled = self.spelled.as_str();
        let words: Vec<&str> = spelled.split_whitespace().filter(|w| *w != "int" || spelled == "int").collect();
        Some(match words.join(" ").as_str() {
            "short" | "signed short" | "int16_t" => (true, 16),
            "unsigned short" | "uint16_t" => (false, 16),
            "int" | "signed" | "int32_t" => (true, 32),
            "unsigned" | "uint32_t" => (false, 32),
            "long" | "long long" | "signed long" | "signed long long" | "int64_t" => (true, 64),
            "unsigned long" | "unsigned long long" | "uint64_t" => (false, 64),
            "unsigned __int128" | "__uint128_t" => (false, 128),
            _ => return None,
        })
    }
}

/// C's unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnaryOp {
    Plus,
    Minus,
    Not,
    Complement,
    /// `*p`: the memory at an address (a load's Semantics).
    Deref,
    /// `&v`: a variable's address.
    AddressOf,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Plus => "+",
            UnaryOp::Minus => "-",
            UnaryOp::Not => "!",
            UnaryOp::Complement => "~",
            UnaryOp::Deref => "*",
            UnaryOp::AddressOf => "&",
        }
    }
}

/// C's binary operators, by precedence from the tightest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
}

impl BinaryOp {
    pub const ALL: [BinaryOp; 18] = [
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Shl,
        BinaryOp::Shr,
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::BitAnd,
        BinaryOp::BitXor,
        BinaryOp::BitOr,
        BinaryOp::And,
        BinaryOp::Or,
    ];

    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitXor => "^",
            BinaryOp::BitOr => "|",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }

    pub fn of(symbol: &str) -> Option<BinaryOp> {
        BinaryOp::ALL.into_iter().find(|op| op.symbol() == symbol)
    }

    /// C's precedence (C11 6.5): higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => PREC_MULTIPLICATIVE,
            BinaryOp::Add | BinaryOp::Sub => PREC_ADDITIVE,
            BinaryOp::Shl | BinaryOp::Shr => 11,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => 10,
            BinaryOp::Eq | BinaryOp::Ne => 9,
            BinaryOp::BitAnd => 8,
            BinaryOp::BitXor => 7,
            BinaryOp::BitOr => PREC_BIT_OR,
            BinaryOp::And => 5,
            BinaryOp::Or => PREC_OR,
        }
    }
}

// The levels of C's grammar, loosest first: the comma, assignment, the
// conditional, the placeholders, then the binary operators, unary and
// postfix.
pub const PREC_COMMA: u8 = 0;
pub const PREC_ASSIGN: u8 = 1;
pub const PREC_CONDITIONAL: u8 = 2;
pub const PREC_OR: u8 = 4;
pub const PREC_BIT_OR: u8 = 6;
pub const PREC_ADDITIVE: u8 = 12;
pub const PREC_MULTIPLICATIVE: u8 = 13;
pub const PREC_UNARY: u8 = 14;
pub const PREC_POSTFIX: u8 = 15;
pub const PREC_PRIMARY: u8 = 16;
/// An operator the section names by a placeholder (`a CmpOp b`,
/// `(d != 0) BoolOp q`) binds like `||`'s neighbour: above `?:`, below
/// every C operator, so each operand is whole. Every use in the document
/// is parenthesised, so no reading turns on it.
pub const PREC_PLACEHOLDER: u8 = 3;

/// `++` or `--`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum StepOp {
    Increment,
    Decrement,
}

/// `=` or a compound assignment: `+=` is `Some(Add)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct AssignOp(pub Option<BinaryOp>);

impl AssignOp {
    pub fn symbol(self) -> String {
        self.0.map_or("=".to_string(), |op| format!("{}=", op.symbol()))
    }
}

/// How a slice is written: `x[a:b]` or `x<a..b>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SliceNotation {
    Brackets,
    Angles,
}

/// An expression at its place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Levels of the tree from here down (1 for a leaf): what bounds the
    /// recursion of every walk (`parser::MAX_HEIGHT`).
    #[serde(skip)]
    pub height: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ExprKind {
    /// An integer constant: its text as written and its value.
    Int {
        text: String,
        value: u128,
    },
    /// A floating-point constant as written.
    Float(String),
    Name(String),
    /// A qualifier used as a value (`.mode`, `.clamp`), without its dot.
    Qualifier(String),
    /// A name in brackets (`[Thread]`).
    Bracketed(String),
    /// `x.field`: `shf.dir`, `CC.CF`, `[Thread].laneid`.
    Member(Box<Expr>, String),
    Paren(Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    /// `|x|`.
    Abs(Box<Expr>),
    Step {
        op: StepOp,
        prefix: bool,
        target: Box<Expr>,
    },
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a CmpOp b`: an operator the section names by a placeholder.
    Placeholder {
        name: String,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    Assign(AssignOp, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `x[first:second]` or `x<first..second>`, bounds as written.
    Slice {
        base: Box<Expr>,
        first: Box<Expr>,
        second: Box<Expr>,
        notation: SliceNotation,
    },
    Cast(TypeName, Box<Expr>),
    /// C's comma operator.
    Comma(Box<Expr>, Box<Expr>),
    /// Words where an expression should be (`bitwidth of type`).
    Prose(Vec<String>),
    /// What did not parse (its diagnostic says why).
    Malformed,
}

impl ExprKind {
    /// The operands, in written order.
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let (boxed, listed): (Vec<&Expr>, &[Expr]) = match self {
            ExprKind::Member(e, _)
            | ExprKind::Paren(e)
            | ExprKind::Unary(_, e)
            | ExprKind::Abs(e)
            | ExprKind::Step { target: e, .. }
            | ExprKind::Cast(_, e) => (vec![e], &[]),
            ExprKind::Binary(_, l, r)
            | ExprKind::Placeholder { lhs: l, rhs: r, .. }
            | ExprKind::Assign(_, l, r)
            | ExprKind::Index(l, r)
            | ExprKind::Comma(l, r) => (vec![l, r], &[]),
            ExprKind::Conditional(c, t, e) => (vec![c, t, e], &[]),
            ExprKind::Slice { base, first, second, .. } => (vec![base, first, second], &[]),
            ExprKind::Call(f, args) => (vec![f], args),
            ExprKind::Int { .. }
            | ExprKind::Float(_)
            | ExprKind::Name(_)
            | ExprKind::Qualifier(_)
            | ExprKind::Bracketed(_)
            | ExprKind::Prose(_)
            | ExprKind::Malformed => (Vec::new(), &[]),
        };
        boxed.into_iter().chain(listed.iter())
    }
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        let height = 1 + kind.children().map(|e| e.height).max().unwrap_or(0);
        Expr { kind, span, height }
    }

    /// The expression with every `Paren` node removed, for comparing trees
    /// by structure.
    pub fn without_parens(&self) -> Expr {
        let b = |e: &Expr| Box::new(e.without_parens());
        let kind = match &self.kind {
            ExprKind::Paren(e) => return e.without_parens(),
            ExprKind::Member(e, f) => ExprKind::Member(b(e), f.clone()),
            ExprKind::Unary(op, e) => ExprKind::Unary(*op, b(e)),
            ExprKind::Abs(e) => ExprKind::Abs(b(e)),
            ExprKind::Step { op, prefix, target } => ExprKind::Step { op: *op, prefix: *prefix, target: b(target) },
            ExprKind::Binary(op, l, r) => ExprKind::Binary(*op, b(l), b(r)),
            ExprKind::Placeholder { name, lhs, rhs } => {
                ExprKind::Placeholder { name: name.clone(), lhs: b(lhs), rhs: b(rhs) }
            }
            ExprKind::Conditional(c, t, e) => ExprKind::Conditional(b(c), b(t), b(e)),
            ExprKind::Assign(op, t, v) => ExprKind::Assign(*op, b(t), b(v)),
            ExprKind::Call(f, args) => ExprKind::Call(b(f), args.iter().map(Expr::without_parens).collect()),
            ExprKind::Index(x, i) => ExprKind::Index(b(x), b(i)),
            ExprKind::Slice { base, first, second, notation } => {
                ExprKind::Slice { base: b(base), first: b(first), second: b(second), notation: *notation }
            }
            ExprKind::Cast(t, e) => ExprKind::Cast(t.clone(), b(e)),
            ExprKind::Comma(l, r) => ExprKind::Comma(b(l), b(r)),
            other => other.clone(),
        };
        Expr::new(kind, self.span)
    }

    /// Every sub-expression, this one first, in written order.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Expr)) {
        visit(self);
        match &self.kind {
            ExprKind::Member(e, _) | ExprKind::Paren(e) | ExprKind::Unary(_, e) | ExprKind::Abs(e) => e.walk(visit),
            ExprKind::Cast(_, e) | ExprKind::Step { target: e, .. } => e.walk(visit),
            ExprKind::Binary(_, l, r)
            | ExprKind::Placeholder { lhs: l, rhs: r, .. }
            | ExprKind::Assign(_, l, r)
            | ExprKind::Index(l, r)
            | ExprKind::Comma(l, r) => {
                l.walk(visit);
                r.walk(visit);
            }
            ExprKind::Conditional(c, t, e) | ExprKind::Slice { base: c, first: t, second: e, .. } => {
                c.walk(visit);
                t.walk(visit);
                e.walk(visit);
            }
            ExprKind::Call(f, args) => {
                f.walk(visit);
                args.iter().for_each(|a| a.walk(visit));
            }
            _ => {}
        }
    }
}

impl Expr {
    /// The variable a loop's step counts with (`i++`, `i--`, `i += 1`).
    pub fn counter(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Step { target, .. } | ExprKind::Assign(AssignOp(Some(_)), target, _) => match &target.kind {
                ExprKind::Name(n) => Some(n),
                _ => None,
            },
            _ => None,
        }
    }

    /// The expression with every name `from` written `to` (the two one
    /// variable).
    pub fn rename(&mut self, from: &str, to: &str) {
        match &mut self.kind {
            ExprKind::Name(n) if n == from => *n = to.to_string(),
            ExprKind::Member(e, _)
            | ExprKind::Paren(e)
            | ExprKind::Unary(_, e)
            | ExprKind::Abs(e)
            | ExprKind::Cast(_, e)
            | ExprKind::Step { target: e, .. } => e.rename(from, to),
            ExprKind::Binary(_, l, r)
            | ExprKind::Placeholder { lhs: l, rhs: r, .. }
            | ExprKind::Assign(_, l, r)
            | ExprKind::Index(l, r)
            | ExprKind::Comma(l, r) => {
                l.rename(from, to);
                r.rename(from, to);
            }
            ExprKind::Conditional(c, t, e) | ExprKind::Slice { base: c, first: t, second: e, .. } => {
                c.rename(from, to);
                t.rename(from, to);
                e.rename(from, to);
            }
            ExprKind::Call(f, args) => {
                f.rename(from, to);
                args.iter_mut().for_each(|a| a.rename(from, to));
            }
            _ => {}
        }
    }
}

/// One declarator of a declaration: `d = 0`, `SourceA[32]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Declarator {
    pub name: String,
    pub pos: Pos,
    pub array: Option<Expr>,
    pub init: Option<Expr>,
}

/// A parameter of a helper, with its type where one is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    pub ty: Option<TypeName>,
    pub name: String,
}

/// A statement at its place, with the comment that ends its line, if any
/// (`// for .hi variant`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    pub comment: Option<Comment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StmtKind {
    Expr(Expr),
    Declare {
        ty: TypeName,
        declarators: Vec<Declarator>,
    },
    Block(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    /// A `switch`: its body's statements, the `case` labels among them.
    Switch {
        subject: Expr,
        body: Vec<Stmt>,
    },
    Case(Expr),
    Default,
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    /// A helper the block defines: `def name (x, y) { ... }`, C's
    /// `u32 name(u32 x) { ... }`, or a signature alone, `name(x, y) { ... }`.
    Function {
        name: String,
        returns: Option<TypeName>,
        params: Vec<Param>,
        body: Vec<Stmt>,
    },
    Empty,
    /// What did not parse (its diagnostic says why); the parse goes on
    /// after it.
    Malformed,
}

impl Stmt {
    /// Whether the statement assigns or declares the variable `name`
    /// anywhere, in the statements inside it too.
    pub fn assigns(&self, name: &str) -> bool {
        let mut found = false;
        self.walk(&mut |s| {
            for e in s.expressions() {
                e.walk(&mut |x| {
                    let target = match &x.kind {
                        ExprKind::Assign(_, t, _) | ExprKind::Step { target: t, .. } => Some(t),
                        _ => None,
                    };
                    if target.is_some_and(|t| matches!(&t.kind, ExprKind::Name(n) if n == name)) {
                        found = true;
                    }
                });
            }
            if let StmtKind::Declare { declarators, .. } = &s.kind {
                found |= declarators.iter().any(|d| d.name == name);
            }
        });
        found
    }

    /// Every statement, this one first, in written order.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Stmt)) {
        visit(self);
        match &self.kind {
            StmtKind::Block(body) | StmtKind::Switch { body, .. } | StmtKind::Function { body, .. } => {
                body.iter().for_each(|s| s.walk(visit))
            }
            StmtKind::If { then, otherwise, .. } => {
                then.walk(visit);
                if let Some(o) = otherwise {
                    o.walk(visit);
                }
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    i.walk(visit);
                }
                body.walk(visit);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => body.walk(visit),
            _ => {}
        }
    }

    /// The statement with every name `from` written `to`, in the
    /// statements inside it too (the two one variable).
    pub fn rename(&mut self, from: &str, to: &str) {
        let list = |body: &mut Vec<Stmt>| body.iter_mut().for_each(|s| s.rename(from, to));
        match &mut self.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => e.rename(from, to),
            StmtKind::Declare { declarators, .. } => {
                for d in declarators {
                    if d.name == from {
                        d.name = to.to_string();
                    }
                    d.array.iter_mut().chain(d.init.iter_mut()).for_each(|e| e.rename(from, to));
                }
            }
            StmtKind::Block(body) | StmtKind::Function { body, .. } => list(body),
            StmtKind::Switch { subject, body } => {
                subject.rename(from, to);
                list(body);
            }
            StmtKind::If { cond, then, otherwise } => {
                cond.rename(from, to);
                then.rename(from, to);
                if let Some(o) = otherwise {
                    o.rename(from, to);
                }
            }
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    i.rename(from, to);
                }
                cond.iter_mut().chain(step.iter_mut()).for_each(|e| e.rename(from, to));
                body.rename(from, to);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                cond.rename(from, to);
                body.rename(from, to);
            }
            StmtKind::Return(e) => e.iter_mut().for_each(|e| e.rename(from, to)),
            _ => {}
        }
    }

    /// The expressions this statement holds itself (not those of the
    /// statements inside it).
    pub fn expressions(&self) -> Vec<&Expr> {
        match &self.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => vec![e],
            StmtKind::Declare { declarators, .. } => {
                declarators.iter().flat_map(|d| d.array.iter().chain(d.init.iter())).collect()
            }
            StmtKind::If { cond, .. } | StmtKind::While { cond, .. } | StmtKind::DoWhile { cond, .. } => vec![cond],
            StmtKind::Switch { subject, .. } => vec![subject],
            StmtKind::For { cond, step, .. } => cond.iter().chain(step.iter()).collect(),
            StmtKind::Return(e) => e.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// The statement with every `Paren` node removed and every place and
    /// comment cleared, for comparing trees by structure.
    pub fn shape(&self) -> Stmt {
        let e = |x: &Expr| strip(x);
        let s = |x: &Stmt| Box::new(x.shape());
        let list = |xs: &[Stmt]| xs.iter().map(Stmt::shape).collect::<Vec<_>>();
        let kind = match &self.kind {
            StmtKind::Expr(x) => StmtKind::Expr(e(x)),
            StmtKind::Declare { ty, declarators } => StmtKind::Declare {
                ty: ty.clone(),
                declarators: declarators
                    .iter()
                    .map(|d| Declarator {
                        name: d.name.clone(),
                        pos: Pos::default(),
                        array: d.array.as_ref().map(e),
                        init: d.init.as_ref().map(e),
                    })
                    .collect(),
            },
            StmtKind::Block(b) => StmtKind::Block(list(b)),
            StmtKind::If { cond, then, otherwise } => {
                StmtKind::If { cond: e(cond), then: s(then), otherwise: otherwise.as_deref().map(s) }
            }
            StmtKind::Switch { subject, body } => StmtKind::Switch { subject: e(subject), body: list(body) },
            StmtKind::Case(x) => StmtKind::Case(e(x)),
            StmtKind::For { init, cond, step, body } => StmtKind::For {
                init: init.as_deref().map(s),
                cond: cond.as_ref().map(e),
                step: step.as_ref().map(e),
                body: s(body),
            },
            StmtKind::While { cond, body } => StmtKind::While { cond: e(cond), body: s(body) },
            StmtKind::DoWhile { body, cond } => StmtKind::DoWhile { body: s(body), cond: e(cond) },
            StmtKind::Return(x) => StmtKind::Return(x.as_ref().map(e)),
            StmtKind::Function { name, returns, params, body } => StmtKind::Function {
                name: name.clone(),
                returns: returns.clone(),
                params: params.clone(),
                body: list(body),
            },
            other => other.clone(),
        };
        Stmt { kind, span: Span::default(), comment: None }
    }
}

/// An expression's structure: no parentheses, no places.
fn strip(e: &Expr) -> Expr {
    let mut out = e.without_parens();
    clear_spans(&mut out);
    out
}

fn clear_spans(e: &mut Expr) {
    e.span = Span::default();
    match &mut e.kind {
        ExprKind::Member(x, _)
        | ExprKind::Paren(x)
        | ExprKind::Unary(_, x)
        | ExprKind::Abs(x)
        | ExprKind::Cast(_, x)
        | ExprKind::Step { target: x, .. } => clear_spans(x),
        ExprKind::Binary(_, l, r)
        | ExprKind::Placeholder { lhs: l, rhs: r, .. }
        | ExprKind::Assign(_, l, r)
        | ExprKind::Index(l, r)
        | ExprKind::Comma(l, r) => {
            clear_spans(l);
            clear_spans(r);
        }
        ExprKind::Conditional(c, t, f) | ExprKind::Slice { base: c, first: t, second: f, .. } => {
            clear_spans(c);
            clear_spans(t);
            clear_spans(f);
        }
        ExprKind::Call(f, args) => {
            clear_spans(f);
            args.iter_mut().for_each(clear_spans);
        }
        _ => {}
    }
}
