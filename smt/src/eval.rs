//! Concrete evaluation of SMT-LIB terms, without a solver.
//!
//! A counterexample is only shown once both sides have been evaluated on it
//! here: the evaluator reads the very term that was sent to the solver and
//! computes it with the concrete algebra.

use std::collections::HashMap;

use easy_smt::{Context, SExpr, SExprData};
use ptx_spec::bv::{Algebra, BitVec, Concrete};
use thiserror::Error;

/// The value of a term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Bv(BitVec),
    Bool(bool),
}

impl Value {
    pub fn bv(self) -> Option<BitVec> {
        match self {
            Value::Bv(v) => Some(v),
            Value::Bool(_) => None,
        }
    }
    pub fn bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            Value::Bv(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EvalError {
    #[error("unbound variable `{0}`")]
    Unbound(String),
    #[error("cannot evaluate `{0}`")]
    Unsupported(String),
    #[error("ill-sorted term `{0}`")]
    IllSorted(String),
}

/// Evaluates terms of one context under one assignment of the free variables.
pub struct Evaluator<'c> {
    ctx: &'c Context,
    env: HashMap<String, BitVec>,
    memo: HashMap<SExpr, Value>,
}

impl<'c> Evaluator<'c> {
    pub fn new(ctx: &'c Context, env: HashMap<String, BitVec>) -> Evaluator<'c> {
        Evaluator { ctx, env, memo: HashMap::new() }
    }

    pub fn eval_bv(&mut self, e: SExpr) -> Result<BitVec, EvalError> {
        self.eval(e)?.bv().ok_or_else(|| self.ill_sorted(e))
    }

    pub fn eval_bool(&mut self, e: SExpr) -> Result<bool, EvalError> {
        self.eval(e)?.bool().ok_or_else(|| self.ill_sorted(e))
    }

    fn ill_sorted(&self, e: SExpr) -> EvalError {
        EvalError::IllSorted(crate::term::display_bounded(self.ctx, e, 200))
    }

    pub fn eval(&mut self, e: SExpr) -> Result<Value, EvalError> {
        if let Some(v) = self.memo.get(&e) {
            return Ok(*v);
        }
        let v = self.compute(e)?;
        self.memo.insert(e, v);
        Ok(v)
    }

    fn compute(&mut self, e: SExpr) -> Result<Value, EvalError> {
        match self.ctx.get(e) {
            SExprData::Atom(a) => self.atom(a),
            SExprData::String(s) => Err(EvalError::Unsupported(s.to_string())),
            SExprData::List(items) => {
                let items = items.to_vec();
                self.apply(e, &items)
            }
        }
    }

    fn atom(&self, a: &str) -> Result<Value, EvalError> {
        match a {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ if a.starts_with('#') => {
                BitVec::parse_smtlib(a).map(Value::Bv).ok_or_else(|| EvalError::Unsupported(a.to_string()))
            }
            _ => self.env.get(a).copied().map(Value::Bv).ok_or_else(|| EvalError::Unbound(a.to_string())),
        }
    }

    /// An indexed operator applied to one argument: `((_ extract i j) x)`,
    /// `((_ zero_extend k) x)`, `((_ sign_extend k) x)`.
    fn apply_indexed(&mut self, e: SExpr, index: &[SExpr], args: &[SExpr]) -> Result<Value, EvalError> {
        let c = Concrete;
        let unsupported = || EvalError::Unsupported(crate::term::display_bounded(self.ctx, e, 200));
        let name = index.get(1).and_then(|&n| self.ctx.get_atom(n)).ok_or_else(unsupported)?;
        let nums: Vec<u32> =
            index[2..].iter().map(|&n| self.ctx.get_u32(n)).collect::<Option<_>>().ok_or_else(unsupported)?;
        let [x] = args else { return Err(unsupported()) };
        let x = self.eval_bv(*x)?;
        let check = |ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(EvalError::IllSorted(crate::term::display_bounded(self.ctx, e, 200)))
            }
        };
        Ok(Value::Bv(match (name, nums.as_slice()) {
            ("extract", &[hi, lo]) => {
                check(hi >= lo && hi < x.width())?;
                c.extract(hi, lo, x)
            }
            ("zero_extend", &[k]) => {
                check(x.width() + k <= 128)?;
                c.zero_extend(k, x)
            }
            ("sign_extend", &[k]) => {
                check(x.width() + k <= 128)?;
                c.sign_extend(k, x)
            }
            _ => return Err(unsupported()),
        }))
    }

    fn apply(&mut self, e: SExpr, items: &[SExpr]) -> Result<Value, EvalError> {
        let c = Concrete;
        let unsupported = || EvalError::Unsupported(crate::term::display_bounded(self.ctx, e, 200));
        let (&head, args) = items.split_first().ok_or_else(unsupported)?;
        // Indexed operators: ((_ extract i j) x), ((_ zero_extend k) x), ...
        if let Some(index) = self.ctx.get_list(head) {
            return self.apply_indexed(e, index, args);
        }
        let op = self.ctx.get_atom(head).ok_or_else(unsupported)?.to_string();
        let mut vals = Vec::with_capacity(args.len());
        for &a in args {
            vals.push(self.eval(a)?);
        }
        let ill = || EvalError::IllSorted(crate::term::display_bounded(self.ctx, e, 200));
        // Binary bit-vector operations check widths before the algebra sees them.
        let bv2 = |vals: &[Value]| -> Result<(BitVec, BitVec), EvalError> {
            match vals {
                [Value::Bv(a), Value::Bv(b)] if a.width() == b.width() => Ok((*a, *b)),
                _ => Err(ill()),
            }
        };
        let bv1 = |vals: &[Value]| -> Result<BitVec, EvalError> {
            match vals {
                [Value::Bv(a)] => Ok(*a),
                _ => Err(ill()),
            }
        };
        let bools = |vals: &[Value]| -> Result<Vec<bool>, EvalError> {
            vals.iter().map(|v| v.bool().ok_or_else(ill)).collect()
        };
        let bv = |f: fn(&Concrete, BitVec, BitVec) -> BitVec| -> Result<Value, EvalError> {
            let (a, b) = bv2(&vals)?;
            Ok(Value::Bv(f(&c, a, b)))
        };
        let cmp = |f: fn(&Concrete, BitVec, BitVec) -> bool| -> Result<Value, EvalError> {
            let (a, b) = bv2(&vals)?;
            Ok(Value::Bool(f(&c, a, b)))
        };
        match op.as_str() {
            "bvadd" => bv(Concrete::bvadd),
            "bvsub" => bv(Concrete::bvsub),
            "bvmul" => bv(Concrete::bvmul),
            "bvudiv" => bv(Concrete::bvudiv),
            "bvurem" => bv(Concrete::bvurem),
            "bvsdiv" => bv(Concrete::bvsdiv),
            "bvsrem" => bv(Concrete::bvsrem),
            "bvand" => bv(Concrete::bvand),
            "bvor" => bv(Concrete::bvor),
            "bvxor" => bv(Concrete::bvxor),
            "bvshl" => bv(Concrete::bvshl),
            "bvlshr" => bv(Concrete::bvlshr),
            "bvashr" => bv(Concrete::bvashr),
            "bvneg" => Ok(Value::Bv(c.bvneg(bv1(&vals)?))),
            "bvnot" => Ok(Value::Bv(c.bvnot(bv1(&vals)?))),
            "concat" => match vals.as_slice() {
                [Value::Bv(a), Value::Bv(b)] if a.width() + b.width() <= 128 => Ok(Value::Bv(c.concat(*a, *b))),
                _ => Err(ill()),
            },
            "bvult" => cmp(Concrete::bvult),
            "bvule" => cmp(Concrete::bvule),
            "bvugt" => cmp(Concrete::bvugt),
            "bvuge" => cmp(Concrete::bvuge),
            "bvslt" => cmp(Concrete::bvslt),
            "bvsle" => cmp(Concrete::bvsle),
            "bvsgt" => cmp(Concrete::bvsgt),
            "bvsge" => cmp(Concrete::bvsge),
            "=" | "distinct" => {
                let same = match vals.as_slice() {
                    [Value::Bv(a), Value::Bv(b)] if a.width() == b.width() => a == b,
                    [Value::Bool(a), Value::Bool(b)] => a == b,
                    _ => return Err(ill()),
                };
                Ok(Value::Bool(if op == "=" { same } else { !same }))
            }
            "ite" => match vals.as_slice() {
                [Value::Bool(cond), t, f] if std::mem::discriminant(t) == std::mem::discriminant(f) => {
                    if let (Value::Bv(x), Value::Bv(y)) = (t, f) {
                        if x.width() != y.width() {
                            return Err(ill());
                        }
                    }
                    Ok(if *cond { *t } else { *f })
                }
                _ => Err(ill()),
            },
            "and" => Ok(Value::Bool(bools(&vals)?.iter().all(|&b| b))),
            "or" => Ok(Value::Bool(bools(&vals)?.iter().any(|&b| b))),
            "xor" => Ok(Value::Bool(bools(&vals)?.iter().fold(false, |x, &b| x ^ b))),
            "not" => match bools(&vals)?.as_slice() {
                [b] => Ok(Value::Bool(!b)),
                _ => Err(ill()),
            },
            "=>" => match bools(&vals)?.as_slice() {
                [a, b] => Ok(Value::Bool(!a || *b)),
                _ => Err(ill()),
            },
            _ => Err(unsupported()),
        }
    }
}
