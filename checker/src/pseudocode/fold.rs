//! An algebra that folds Boolean constants on top of another: `and` with
//! `true`, `ite` on a known condition. The evaluator builds a definedness
//! condition beside every value, which is `true` almost everywhere; folded
//! here, a loop unrolled sixty times leaves the solver a term that only
//! says what the text computes.

use ptx_spec::bv::Algebra;

/// `A`, with each Boolean's value kept where it is a constant.
pub struct Fold<'a, A: Algebra>(pub &'a A);

/// A Boolean of `A`, and its value where it is a constant.
pub struct Bool<A: Algebra> {
    pub term: A::Bool,
    pub known: Option<bool>,
}

// By hand: a derive would ask the algebra itself to be `Copy`.
impl<A: Algebra> Clone for Bool<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Bool<A> {}
impl<A: Algebra> std::fmt::Debug for Bool<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.term)
    }
}

impl<A: Algebra> Fold<'_, A> {
    fn unknown(&self, term: A::Bool) -> Bool<A> {
        Bool { term, known: None }
    }
}

impl<A: Algebra> Algebra for Fold<'_, A> {
    type Bv = A::Bv;
    type Bool = Bool<A>;

    fn constant(&self, width: u32, value: u128) -> A::Bv {
        self.0.constant(width, value)
    }
    fn bool_constant(&self, b: bool) -> Bool<A> {
        Bool { term: self.0.bool_constant(b), known: Some(b) }
    }
    fn width(&self, x: A::Bv) -> u32 {
        self.0.width(x)
    }
    fn bvadd(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvadd(a, b)
    }
    fn bvsub(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvsub(a, b)
    }
    fn bvmul(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvmul(a, b)
    }
    fn bvudiv(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvudiv(a, b)
    }
    fn bvurem(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvurem(a, b)
    }
    fn bvsdiv(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvsdiv(a, b)
    }
    fn bvsrem(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvsrem(a, b)
    }
    fn bvneg(&self, a: A::Bv) -> A::Bv {
        self.0.bvneg(a)
    }
    fn bvnot(&self, a: A::Bv) -> A::Bv {
        self.0.bvnot(a)
    }
    fn bvand(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvand(a, b)
    }
    fn bvor(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvor(a, b)
    }
    fn bvxor(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvxor(a, b)
    }
    fn bvshl(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvshl(a, b)
    }
    fn bvlshr(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvlshr(a, b)
    }
    fn bvashr(&self, a: A::Bv, b: A::Bv) -> A::Bv {
        self.0.bvashr(a, b)
    }
    fn extract(&self, hi: u32, lo: u32, x: A::Bv) -> A::Bv {
        self.0.extract(hi, lo, x)
    }
    fn concat(&self, hi: A::Bv, lo: A::Bv) -> A::Bv {
        self.0.concat(hi, lo)
    }
    fn zero_extend(&self, extra: u32, x: A::Bv) -> A::Bv {
        self.0.zero_extend(extra, x)
    }
    fn sign_extend(&self, extra: u32, x: A::Bv) -> A::Bv {
        self.0.sign_extend(extra, x)
    }
    fn eq(&self, a: A::Bv, b: A::Bv) -> Bool<A> {
        self.unknown(self.0.eq(a, b))
    }
    fn bvult(&self, a: A::Bv, b: A::Bv) -> Bool<A> {
        self.unknown(self.0.bvult(a, b))
    }
    fn bvule(&self, a: A::Bv, b: A::Bv) -> Bool<A> {
        self.unknown(self.0.bvule(a, b))
    }
    fn bvslt(&self, a: A::Bv, b: A::Bv) -> Bool<A> {
        self.unknown(self.0.bvslt(a, b))
    }
    fn bvsle(&self, a: A::Bv, b: A::Bv) -> Bool<A> {
        self.unknown(self.0.bvsle(a, b))
    }
    fn ite(&self, c: Bool<A>, t: A::Bv, e: A::Bv) -> A::Bv {
        match c.known {
            Some(true) => t,
            Some(false) => e,
            None => self.0.ite(c.term, t, e),
        }
    }
    fn and(&self, a: Bool<A>, b: Bool<A>) -> Bool<A> {
        match (a.known, b.known) {
            (Some(false), _) | (_, Some(true)) => a,
            (_, Some(false)) | (Some(true), _) => b,
            _ => self.unknown(self.0.and(a.term, b.term)),
        }
    }
    fn or(&self, a: Bool<A>, b: Bool<A>) -> Bool<A> {
        match (a.known, b.known) {
            (Some(true), _) | (_, Some(false)) => a,
            (_, Some(true)) | (Some(false), _) => b,
            _ => self.unknown(self.0.or(a.term, b.term)),
        }
    }
    fn not(&self, a: Bool<A>) -> Bool<A> {
        match a.known {
            Some(k) => self.bool_constant(!k),
            None => self.unknown(self.0.not(a.term)),
        }
    }
}
