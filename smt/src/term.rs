//! The symbolic implementation of the bit-vector algebra: every operation
//! builds the SMT-LIB term of the same name in an `easy_smt::Context`.
//!
//! Widths are tracked beside the terms, so an ill-sorted term is caught when
//! it is built, not by the solver.

use easy_smt::{Context, SExpr, SExprData};
use ptx_spec::bv::{Algebra, BitVec, MAX_WIDTH};

/// A bit-vector term and its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymBv {
    pub term: SExpr,
    pub width: u32,
}

/// The algebra over SMT-LIB terms.
pub struct Sym<'c> {
    ctx: &'c Context,
}

impl<'c> Sym<'c> {
    pub fn new(ctx: &'c Context) -> Sym<'c> {
        Sym { ctx }
    }
    pub fn ctx(&self) -> &'c Context {
        self.ctx
    }
    /// A free bit-vector variable (declared by whoever sends the query).
    pub fn var(&self, name: &str, width: u32) -> SymBv {
        assert!((1..=MAX_WIDTH).contains(&width), "variable {name} of width {width}");
        SymBv { term: self.ctx.atom(name), width }
    }
    /// The term of a concrete value.
    pub fn literal(&self, value: BitVec) -> SymBv {
        SymBv { term: self.ctx.atom(value.smtlib()), width: value.width() }
    }
    fn indexed(&self, op: &str, indices: &[u32], x: SExpr) -> SExpr {
        let mut head = vec![self.ctx.atom("_"), self.ctx.atom(op)];
        head.extend(indices.iter().map(|&i| self.ctx.numeral(i)));
        self.ctx.list(vec![self.ctx.list(head), x])
    }
    fn app(&self, op: &str, args: &[SExpr]) -> SExpr {
        let mut items = vec![self.ctx.atom(op)];
        items.extend_from_slice(args);
        self.ctx.list(items)
    }
    fn same(&self, a: SymBv, b: SymBv) -> u32 {
        assert_eq!(a.width, b.width, "operands of different widths");
        a.width
    }
    fn binary(&self, op: &str, a: SymBv, b: SymBv) -> SymBv {
        let width = self.same(a, b);
        SymBv { term: self.app(op, &[a.term, b.term]), width }
    }
    fn compare(&self, op: &str, a: SymBv, b: SymBv) -> SExpr {
        self.same(a, b);
        self.app(op, &[a.term, b.term])
    }
}

impl Algebra for Sym<'_> {
    type Bv = SymBv;
    type Bool = SExpr;

    fn constant(&self, width: u32, value: u128) -> SymBv {
        self.literal(BitVec::new(width, value))
    }
    fn bool_constant(&self, b: bool) -> SExpr {
        if b {
            self.ctx.true_()
        } else {
            self.ctx.false_()
        }
    }
    fn width(&self, x: SymBv) -> u32 {
        x.width
    }
    fn bvadd(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvadd", a, b)
    }
    fn bvsub(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvsub", a, b)
    }
    fn bvmul(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvmul", a, b)
    }
    fn bvudiv(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvudiv", a, b)
    }
    fn bvurem(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvurem", a, b)
    }
    fn bvsdiv(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvsdiv", a, b)
    }
    fn bvsrem(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvsrem", a, b)
    }
    fn bvneg(&self, a: SymBv) -> SymBv {
        SymBv { term: self.app("bvneg", &[a.term]), width: a.width }
    }
    fn bvnot(&self, a: SymBv) -> SymBv {
        SymBv { term: self.app("bvnot", &[a.term]), width: a.width }
    }
    fn bvand(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvand", a, b)
    }
    fn bvor(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvor", a, b)
    }
    fn bvxor(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvxor", a, b)
    }
    fn bvshl(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvshl", a, b)
    }
    fn bvlshr(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvlshr", a, b)
    }
    fn bvashr(&self, a: SymBv, b: SymBv) -> SymBv {
        self.binary("bvashr", a, b)
    }
    fn extract(&self, hi: u32, lo: u32, x: SymBv) -> SymBv {
        assert!(hi >= lo && hi < x.width, "extract {hi}..{lo} of {} bits", x.width);
        SymBv { term: self.indexed("extract", &[hi, lo], x.term), width: hi - lo + 1 }
    }
    fn concat(&self, hi: SymBv, lo: SymBv) -> SymBv {
        let width = hi.width + lo.width;
        assert!(width <= MAX_WIDTH, "concat wider than {MAX_WIDTH} bits");
        SymBv { term: self.app("concat", &[hi.term, lo.term]), width }
    }
    fn zero_extend(&self, extra: u32, x: SymBv) -> SymBv {
        if extra == 0 {
            return x;
        }
        SymBv { term: self.indexed("zero_extend", &[extra], x.term), width: x.width + extra }
    }
    fn sign_extend(&self, extra: u32, x: SymBv) -> SymBv {
        if extra == 0 {
            return x;
        }
        SymBv { term: self.indexed("sign_extend", &[extra], x.term), width: x.width + extra }
    }
    fn eq(&self, a: SymBv, b: SymBv) -> SExpr {
        self.compare("=", a, b)
    }
    fn bvult(&self, a: SymBv, b: SymBv) -> SExpr {
        self.compare("bvult", a, b)
    }
    fn bvule(&self, a: SymBv, b: SymBv) -> SExpr {
        self.compare("bvule", a, b)
    }
    fn bvslt(&self, a: SymBv, b: SymBv) -> SExpr {
        self.compare("bvslt", a, b)
    }
    fn bvsle(&self, a: SymBv, b: SymBv) -> SExpr {
        self.compare("bvsle", a, b)
    }
    fn ite(&self, c: SExpr, t: SymBv, e: SymBv) -> SymBv {
        let width = self.same(t, e);
        SymBv { term: self.app("ite", &[c, t.term, e.term]), width }
    }
    fn and(&self, a: SExpr, b: SExpr) -> SExpr {
        self.app("and", &[a, b])
    }
    fn or(&self, a: SExpr, b: SExpr) -> SExpr {
        self.app("or", &[a, b])
    }
    fn not(&self, a: SExpr) -> SExpr {
        self.app("not", &[a])
    }
}

/// The outputs of a symbolic semantic function.
pub type SymOutputs = Vec<ptx_spec::catalogue::Out<SymBv, SExpr>>;

/// `e` as SMT-LIB text, cut with `...` after about `limit` characters. A
/// term graph printed as a tree can be exponentially large: every message
/// that shows a term uses this.
pub fn display_bounded(ctx: &Context, e: SExpr, limit: usize) -> String {
    fn write(ctx: &Context, e: SExpr, limit: usize, out: &mut String) {
        if out.len() >= limit {
            if !out.ends_with("...") {
                out.push_str("...");
            }
            return;
        }
        match ctx.get(e) {
            SExprData::Atom(a) => out.push_str(a),
            SExprData::String(s) => out.push_str(&format!("{s:?}")),
            SExprData::List(items) => {
                out.push('(');
                for (i, &item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    write(ctx, item, limit, out);
                    if out.ends_with("...") {
                        return;
                    }
                }
                out.push(')');
            }
        }
    }
    let mut text = String::new();
    write(ctx, e, limit, &mut text);
    text
}
