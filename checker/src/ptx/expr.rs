//! Conditions over a program's registers, the language the claims state
//! their facts in: `d <= 32`, `d == 0xffffffff`, `r7:r6:r5:r4 == r3@in:r2@in:r1@in:r0@in << n`.
//!
//! - a register name is its value at the end of the program, or its input
//!   value if the program never writes it; `r0@in` is always the input value;
//! - integers (decimal, `0x`, `-5`) take the width of the other operand;
//! - `a:b` concatenates (`a` the high part); `<<`, `>>` (logical), `>>s`
//!   (arithmetic), `&`, `|`, `^`, `+`, `-`, `*` are SMT-LIB's operations, the
//!   narrower operand zero-extended to the wider (a shift amount is cut or
//!   extended to the shifted value's width);
//! - comparisons `==`, `!=`, `<`, `<=`, `>`, `>=` are unsigned, `<s`, `<=s`,
//!   `>s`, `>=s` signed; a condition holds only where every register it
//!   reads is defined.
//!
//! Precedence, loosest first: comparison, `|`, `^`, `&`, shifts, `+` `-`,
//! `*`, `:`. Parentheses group.

use thiserror::Error;

use crate::ptx::parse::parse_integer;
use crate::ptx::program::Value;
use ptx_spec::bv::Algebra;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("condition `{text}`: {message}")]
pub struct ExprError {
    pub text: String,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Concat,
    Mul,
    Add,
    Sub,
    Shl,
    Lshr,
    Ashr,
    And,
    Xor,
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A register, at the end (`false`) or at the start (`true`, `@in`).
    Reg(String, bool),
    Int(i128),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The expression written out; `nested`: inside another operation, so
    /// an operation is parenthesised. A chain of `:` stays flat (it binds
    /// tightest and is associative).
    fn written(&self, nested: bool) -> String {
        match self {
            Expr::Reg(name, false) => name.clone(),
            Expr::Reg(name, true) => format!("{name}@in"),
            Expr::Int(i) if (0..10).contains(i) => i.to_string(),
            Expr::Int(i) if *i < 0 => format!("-{:#x}", i.unsigned_abs()),
            Expr::Int(i) => format!("{i:#x}"),
            Expr::Bin(BinOp::Concat, l, r) => {
                let part = |e: &Expr| {
                    if matches!(e, Expr::Bin(BinOp::Concat, ..)) {
                        e.written(false)
                    } else {
                        e.written(true)
                    }
                };
                format!("{}:{}", part(l), part(r))
            }
            Expr::Bin(op, l, r) => {
                let sym = LEVELS.iter().flat_map(|l| l.iter()).find(|(_, o)| o == op).map_or("?", |(s, _)| s);
                let text = format!("{} {sym} {}", l.written(true), r.written(true));
                if nested {
                    format!("({text})")
                } else {
                    text
                }
            }
        }
    }
}

/// `lhs op rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub text: String,
    pub op: CmpOp,
    pub lhs: Expr,
    pub rhs: Expr,
}

const CMP: [(&str, CmpOp); 10] = [
    ("<=s", CmpOp::Sle),
    (">=s", CmpOp::Sge),
    ("<s", CmpOp::Slt),
    (">s", CmpOp::Sgt),
    ("==", CmpOp::Eq),
    ("!=", CmpOp::Ne),
    ("<=", CmpOp::Le),
    (">=", CmpOp::Ge),
    ("<", CmpOp::Lt),
    (">", CmpOp::Gt),
];

/// Binary operators by level, loosest first.
const LEVELS: [&[(&str, BinOp)]; 7] = [
    &[("|", BinOp::Or)],
    &[("^", BinOp::Xor)],
    &[("&", BinOp::And)],
    &[("<<", BinOp::Shl), (">>s", BinOp::Ashr), (">>", BinOp::Lshr)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul)],
    &[(":", BinOp::Concat)],
];

impl Condition {
    pub fn parse(text: &str) -> Result<Condition, ExprError> {
        let err = |message: &str| ExprError { text: text.to_string(), message: message.to_string() };
        let tokens = tokenize(text).map_err(|m| err(&m))?;
        let at = tokens
            .iter()
            .position(|t| CMP.iter().any(|(s, _)| s == t))
            .ok_or_else(|| err("expected a comparison (==, !=, <, <=, >, >=, or <s, <=s, >s, >=s)"))?;
        let op = CMP.iter().find(|(s, _)| *s == tokens[at]).expect("found above").1;
        let lhs = parse_expr(&tokens[..at], 0).map_err(|m| err(&m))?;
        let rhs = parse_expr(&tokens[at + 1..], 0).map_err(|m| err(&m))?;
        Ok(Condition { text: text.to_string(), op, lhs, rhs })
    }

    /// The condition with every operation inside a side in parentheses
    /// (`(v & 0xff) == 1`), so that no reader has to know this language's
    /// precedence, which is not C's: a witness shown with the very
    /// ambiguity 9.7.1.15's finding is about would mislead.
    pub fn parenthesised(&self) -> String {
        let op = CMP.iter().find(|(_, o)| *o == self.op).map_or("?", |(s, _)| s);
        format!("{} {op} {}", self.lhs.written(true), self.rhs.written(true))
    }

    /// Registers the condition reads: (name, at the start).
    pub fn registers(&self) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        collect(&self.lhs, &mut out);
        collect(&self.rhs, &mut out);
        out
    }

    /// Whether the condition holds, given how to read a register.
    pub fn eval<A: Algebra>(&self, alg: &A, read: &dyn Fn(&str, bool) -> Value<A>) -> A::Bool {
        let (l, r) = eval_pair(alg, &self.lhs, &self.rhs, read);
        let w = alg.width(l.bits).max(alg.width(r.bits));
        let (a, b) = (alg.zext_or_trunc(l.bits, w), alg.zext_or_trunc(r.bits, w));
        let holds = match self.op {
            CmpOp::Eq => alg.eq(a, b),
            CmpOp::Ne => alg.not(alg.eq(a, b)),
            CmpOp::Lt => alg.bvult(a, b),
            CmpOp::Le => alg.bvule(a, b),
            CmpOp::Gt => alg.bvugt(a, b),
            CmpOp::Ge => alg.bvuge(a, b),
            CmpOp::Slt => alg.bvslt(a, b),
            CmpOp::Sle => alg.bvsle(a, b),
            CmpOp::Sgt => alg.bvsgt(a, b),
            CmpOp::Sge => alg.bvsge(a, b),
        };
        alg.and(holds, alg.and(l.defined, r.defined))
    }
}

fn collect(e: &Expr, out: &mut Vec<(String, bool)>) {
    match e {
        Expr::Reg(n, start) => {
            if !out.contains(&(n.clone(), *start)) {
                out.push((n.clone(), *start));
            }
        }
        Expr::Int(_) => {}
        Expr::Bin(_, a, b) => {
            collect(a, out);
            collect(b, out);
        }
    }
}

/// Evaluate two operands, an integer taking the other one's width.
fn eval_pair<A: Algebra>(alg: &A, a: &Expr, b: &Expr, read: &dyn Fn(&str, bool) -> Value<A>) -> (Value<A>, Value<A>) {
    match (a, b) {
        (Expr::Int(_), Expr::Int(_)) => (eval(alg, a, 32, read), eval(alg, b, 32, read)),
        (Expr::Int(_), _) => {
            let vb = eval(alg, b, 32, read);
            (eval(alg, a, alg.width(vb.bits), read), vb)
        }
        _ => {
            let va = eval(alg, a, 32, read);
            let vb = eval(alg, b, alg.width(va.bits), read);
            (va, vb)
        }
    }
}

fn eval<A: Algebra>(alg: &A, e: &Expr, int_width: u32, read: &dyn Fn(&str, bool) -> Value<A>) -> Value<A> {
    match e {
        Expr::Reg(n, start) => read(n, *start),
        Expr::Int(v) => Value { bits: alg.constant(int_width, *v as u128), defined: alg.bool_constant(true) },
        Expr::Bin(op, x, y) => {
            let (l, r) = eval_pair(alg, x, y, read);
            let defined = alg.and(l.defined, r.defined);
            let (wl, wr) = (alg.width(l.bits), alg.width(r.bits));
            if *op == BinOp::Concat {
                return Value { bits: alg.concat(l.bits, r.bits), defined };
            }
            let w = if matches!(op, BinOp::Shl | BinOp::Lshr | BinOp::Ashr) { wl } else { wl.max(wr) };
            let (a, b) = (alg.zext_or_trunc(l.bits, w), alg.zext_or_trunc(r.bits, w));
            let bits = match op {
                BinOp::Mul => alg.bvmul(a, b),
                BinOp::Add => alg.bvadd(a, b),
                BinOp::Sub => alg.bvsub(a, b),
                BinOp::Shl => alg.bvshl(a, b),
                BinOp::Lshr => alg.bvlshr(a, b),
                BinOp::Ashr => alg.bvashr(a, b),
                BinOp::And => alg.bvand(a, b),
                BinOp::Xor => alg.bvxor(a, b),
                BinOp::Or => alg.bvor(a, b),
                BinOp::Concat => unreachable!("handled above"),
            };
            Value { bits, defined }
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '%' || (c == '-' && tokens_expect_operand(&tokens)) {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '_' | '@' | '%')) {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            let rest: String = chars[i..].iter().collect();
            let ops = ["<=s", ">=s", ">>s", "<<", ">>", "<s", ">s", "==", "!=", "<=", ">=", "<", ">", "(", ")"];
            let single = ["|", "^", "&", "+", "-", "*", ":"];
            match ops.iter().chain(single.iter()).find(|o| rest.starts_with(**o)) {
                Some(o) => {
                    tokens.push(o.to_string());
                    i += o.chars().count();
                }
                None => return Err(format!("unexpected `{c}`")),
            }
        }
    }
    Ok(tokens)
}

/// A `-` starts a negative integer where an operand is expected.
fn tokens_expect_operand(tokens: &[String]) -> bool {
    tokens.last().is_none_or(|t| !(t == ")" || t.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')))
}

fn parse_expr(tokens: &[String], level: usize) -> Result<Expr, String> {
    if tokens.is_empty() {
        return Err("missing operand".into());
    }
    if level == LEVELS.len() {
        return parse_atom(tokens);
    }
    // Split at the last operator of this level outside parentheses: the
    // operators are left-associative.
    let mut depth = 0i32;
    for (i, t) in tokens.iter().enumerate().rev() {
        match t.as_str() {
            ")" => depth += 1,
            "(" => depth -= 1,
            _ if depth == 0 && i > 0 => {
                if let Some((_, op)) = LEVELS[level].iter().find(|(s, _)| s == t) {
                    let lhs = parse_expr(&tokens[..i], level)?;
                    let rhs = parse_expr(&tokens[i + 1..], level + 1)?;
                    return Ok(Expr::Bin(*op, Box::new(lhs), Box::new(rhs)));
                }
            }
            _ => {}
        }
    }
    parse_expr(tokens, level + 1)
}

fn parse_atom(tokens: &[String]) -> Result<Expr, String> {
    if tokens.len() >= 2 && tokens[0] == "(" && tokens[tokens.len() - 1] == ")" {
        return parse_expr(&tokens[1..tokens.len() - 1], 0);
    }
    let [t] = tokens else { return Err(format!("unexpected `{}`", tokens.join(" "))) };
    if t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return parse_integer(t).map(Expr::Int).ok_or_else(|| format!("`{t}` is not an integer"));
    }
    match t.split_once('@') {
        Some((name, "in")) => Ok(Expr::Reg(name.to_string(), true)),
        Some(_) => Err(format!("`{t}`: only `@in` may follow a register name")),
        None => Ok(Expr::Reg(t.clone(), false)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn conditions_are_shown_fully_parenthesised() {
        let shown = |t: &str| super::Condition::parse(t).unwrap().parenthesised();
        assert_eq!(shown("v & 0xff == 1"), "(v & 0xff) == 1");
        assert_eq!(
            shown("d >> 16 == (a >> 16) + (b >> 16) & 0xffff"),
            "(d >> 0x10) == (((a >> 0x10) + (b >> 0x10)) & 0xffff)"
        );
        assert_eq!(shown("r7:r6:r5:r4 == r3:r2:r1:r0 << n"), "r7:r6:r5:r4 == (r3:r2:r1:r0 << n)");
        assert_eq!(shown("d <s a@in + 1"), "d <s (a@in + 1)");
    }

    use super::*;
    use ptx_spec::bv::{BitVec, Concrete};

    fn holds(text: &str, regs: &[(&str, u32, u128)]) -> bool {
        let c = Condition::parse(text).unwrap();
        let read = |n: &str, _start: bool| -> Value<Concrete> {
            let (_, w, v) = regs.iter().find(|(r, _, _)| *r == n).unwrap_or_else(|| panic!("no {n}"));
            Value { bits: BitVec::new(*w, *v), defined: true }
        };
        c.eval(&Concrete, &read)
    }

    #[test]
    fn comparisons_and_operators() {
        assert!(holds("d <= 32", &[("d", 32, 32)]));
        assert!(!holds("d < 32", &[("d", 32, 32)]));
        assert!(holds("d <s 0", &[("d", 32, 0xffff_ffff)]));
        assert!(holds("d == -1", &[("d", 32, 0xffff_ffff)]));
        assert!(holds("d == a << 4 | b", &[("d", 32, 0x123), ("a", 32, 0x12), ("b", 32, 3)]));
        assert!(holds("x:y == 0x0000000100000002", &[("x", 32, 1), ("y", 32, 2)]));
        assert!(holds("x:y >> 32 == x", &[("x", 32, 7), ("y", 32, 2)]));
        assert!(holds("(a - b) & 0xff == 0xfe", &[("a", 32, 1), ("b", 32, 3)]));
        assert!(holds("a >>s 4 == 0xf8000000", &[("a", 32, 0x8000_0000)]));
        assert!(holds("d == (a:a >>s 16) * 3 + 1", &[("d", 32, 0xffff_fffe), ("a", 16, 0xffff)]));
    }

    #[test]
    fn registers_at_the_start() {
        let c = Condition::parse("r0 == r0@in + 1").unwrap();
        assert_eq!(c.registers(), [("r0".to_string(), false), ("r0".to_string(), true)]);
    }

    #[test]
    fn bad_conditions() {
        let err = |t: &str| Condition::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("d + 1"),
            "condition `d + 1`: expected a comparison (==, !=, <, <=, >, >=, or <s, <=s, >s, >=s)"
        );
        assert_eq!(err("d == "), "condition `d == `: missing operand");
        assert_eq!(err("d == a b"), "condition `d == a b`: unexpected `a b`");
        assert_eq!(err("d == a@out"), "condition `d == a@out`: `a@out`: only `@in` may follow a register name");
        assert_eq!(err("d == $"), "condition `d == $`: unexpected `$`");
    }
}
