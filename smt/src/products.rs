//! Products in the embedded Z3's queries, made cheaper before it solves them.
//!
//! Z3 bit-blasts a product at the width it is written at. The literal C
//! reading and the overflow hazards take "mathematical" products of narrow
//! values at twice the width of their C type: two 16-bit operands, sign
//! extended to `int` and then to 64 bits, make a 64-bit multiplier, which
//! takes Z3 a second or more to see that a 32-bit product never overflows.
//! Two rewrites, both done on Z3's own terms (which know their widths):
//!
//! - [`narrowed`]: a product of two extended values is taken at the width
//!   its value needs and extended again. The same function of the inputs,
//!   so the query keeps its answer and its models.
//! - [`abstracted`]: every product left becomes a free value. The query is
//!   weaker: an `unsat` answer of it holds for the query, any other answer
//!   says nothing. Where the property does not rest on the product's value
//!   (a saturating `mad.hi` whose sum is in range), this answers in a
//!   fraction of the time.

use std::collections::HashMap;

use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::DeclKind;

/// `assertions` with every product of two extended values taken at the
/// width its value needs: `x * y` over `w` bits, where `x` is the sign
/// extension of its low `p` bits and `y` of its low `q` bits and `p + q <
/// w`, is the sign extension of the `p + q`-bit product of their low bits
/// (the exact product fits in `p + q` signed bits); likewise for zero
/// extensions. The same function of the inputs.
pub fn narrowed(assertions: &[Bool]) -> Vec<Bool> {
    rewrite(assertions, &mut |node| match node.decl().kind() {
        DeclKind::Bmul => node.as_bv().and_then(|p| narrow_product(&p)).map(|p| Dynamic::from_ast(&p)),
        _ => None,
    })
}

/// `assertions` with every product whose operands are not both numerals
/// replaced by a fresh value of its width (one per distinct product);
/// `None` where there is no such product. Weaker than the query: only its
/// `unsat` carries over.
pub fn abstracted(assertions: &[Bool]) -> Option<Vec<Bool>> {
    let mut any = false;
    let weaker = rewrite(assertions, &mut |node| {
        let product = node.as_bv().filter(|_| node.decl().kind() == DeclKind::Bmul)?;
        if node.children().iter().all(|c| c.kind() == z3::AstKind::Numeral) {
            return None;
        }
        any = true;
        Some(Dynamic::from_ast(&BV::fresh_const("product", product.get_size())))
    });
    any.then_some(weaker)
}

/// Whether the SMT-LIB text of a query has a product (the rewrites above
/// have nothing to do otherwise, and a query is not walked for nothing).
pub fn has_product(text: &str) -> bool {
    text.contains("(bvmul ")
}

/// The narrower form of the product `p`, where there is one. Each operand
/// is taken as the extension of its core ([`unsigned_core`],
/// [`signed_core`]), so a product the C reading writes over extended
/// values and the model's product of the same narrow values are one term.
fn narrow_product(p: &BV) -> Option<BV> {
    let [x, y] = <[Dynamic; 2]>::try_from(p.children()).ok()?;
    let (x, y) = (x.as_bv()?, y.as_bv()?);
    let width = p.get_size();
    let (ux, uy) = (unsigned_core(&x), unsigned_core(&y));
    let unsigned = ux.get_size() + uy.get_size();
    if unsigned < width {
        let wide = |c: &BV| extended(c, unsigned, false);
        return Some(wide(&ux).bvmul(wide(&uy)).zero_ext(width - unsigned));
    }
    let (sx, sy) = (signed_core(&x), signed_core(&y));
    let signed = sx.get_size() + sy.get_size();
    if signed < width {
        let wide = |c: &BV| extended(c, signed, true);
        return Some(wide(&sx).bvmul(wide(&sy)).sign_ext(width - signed));
    }
    None
}

/// The fewest low bits of `v` of which `v` is the zero extension.
#[cfg(test)]
fn unsigned_bits(v: &BV) -> u32 {
    unsigned_core(v).get_size()
}

/// The fewest low bits of `v` of which `v` is the sign extension.
#[cfg(test)]
fn signed_bits(v: &BV) -> u32 {
    signed_core(v).get_size()
}

/// A value `c` of which `v` is the zero extension, as narrow as the
/// term shows: `v` itself where it shows nothing narrower. Seen through:
/// a numeral, an extension, a branch the condition of which is a
/// constant, and a mask of low bits (`x & 0xffffff`, C's way to keep 24
/// bits), whose core is the bits of `x` it keeps.
fn unsigned_core(v: &BV) -> BV {
    let v = taken_branch(v);
    let width = v.get_size();
    if let Some(n) = numeral(&v) {
        let bits = (u64::BITS - n.leading_zeros()).clamp(1, width);
        return v.extract(bits - 1, 0).simplify();
    }
    let narrower = |c: BV| if c.get_size() < width { c } else { v.clone() };
    match app_kind(&v) {
        Some(DeclKind::ZeroExt) => only_child(&v).map_or(v.clone(), |c| unsigned_core(&c)),
        // A sign extension of a value whose top bit is clear.
        Some(DeclKind::SignExt) => only_child(&v).map_or(v.clone(), |c| {
            let core = unsigned_core(&c);
            if core.get_size() < c.get_size() {
                core
            } else {
                v.clone()
            }
        }),
        Some(DeclKind::Band) => match both_children(&v) {
            Some((x, m)) | Some((m, x)) if numeral(&m).is_some_and(|m| m != 0 && (m & (m + 1)) == 0) => {
                let kept = u64::BITS - numeral(&m).expect("just seen").leading_zeros();
                narrower(x.extract(kept.min(width) - 1, 0))
            }
            _ => v.clone(),
        },
        _ => v.clone(),
    }
}

/// A value `c` of which `v` is the sign extension, as narrow as the term
/// shows: `v` itself where it shows nothing narrower. Seen through, as
/// for [`unsigned_core`]: a numeral, a sign extension, a zero-extended
/// value (one bit wider, a clear sign), and the sign extension of a k-bit
/// field written in C, `(x ^ 2^(k-1)) - 2^(k-1)` where x is a zero
/// extension of at most k bits.
fn signed_core(v: &BV) -> BV {
    let v = taken_branch(v);
    let width = v.get_size();
    if let Some(n) = numeral(&v) {
        let n = sign_extended(n, width);
        // Bits of the magnitude (of the complement, for a negative
        // value), and the sign.
        let magnitude = if n < 0 { !n } else { n };
        let bits = (i64::BITS - magnitude.leading_zeros() + 1).min(width);
        return v.extract(bits - 1, 0).simplify();
    }
    if app_kind(&v) == Some(DeclKind::SignExt) {
        return only_child(&v).map_or(v.clone(), |c| signed_core(&c));
    }
    if let Some(core) = field_sign_extended(&v) {
        return core;
    }
    let unsigned = unsigned_core(&v);
    if unsigned.get_size() < width {
        return unsigned.zero_ext(1);
    }
    v
}

/// The k-bit field of `(x ^ c) - c`, `c` being 2^(k-1) and `x` the zero
/// extension of at most k bits: the field's bits, of which the whole is
/// the sign extension.
fn field_sign_extended(v: &BV) -> Option<BV> {
    if app_kind(v) != Some(DeclKind::Bsub) {
        return None;
    }
    let (flipped, c) = both_children(v)?;
    let c = numeral(&c)?;
    if app_kind(&flipped) != Some(DeclKind::Bxor) || !c.is_power_of_two() {
        return None;
    }
    let (x, c2) = both_children(&flipped)?;
    let k = c.trailing_zeros() + 1;
    let x = unsigned_core(&x);
    (numeral(&c2) == Some(c) && x.get_size() <= k && k < v.get_size()).then(|| extended(&x, k, false))
}

/// `c` extended to `width` bits (itself where it has them).
fn extended(c: &BV, width: u32, signed: bool) -> BV {
    match width - c.get_size() {
        0 => c.clone(),
        by if signed => c.sign_ext(by),
        by => c.zero_ext(by),
    }
}

/// `v` with a branch on a constant condition (`ite true x y`) taken.
fn taken_branch(v: &BV) -> BV {
    let mut v = v.clone();
    while app_kind(&v) == Some(DeclKind::Ite) {
        let children = v.children();
        let taken = match children.first().and_then(Dynamic::as_bool).and_then(|c| c.as_bool()) {
            Some(true) => &children[1],
            Some(false) => &children[2],
            None => break,
        };
        match taken.as_bv() {
            Some(t) => v = t,
            None => break,
        }
    }
    v
}

/// The value of `v` where it is a constant of at most 64 bits, written as
/// a numeral or as an extension of one.
fn numeral(v: &BV) -> Option<u64> {
    if v.kind() == z3::AstKind::Numeral {
        return v.as_u64();
    }
    match app_kind(v) {
        Some(DeclKind::SignExt | DeclKind::ZeroExt) if only_child(v)?.kind() == z3::AstKind::Numeral => {
            v.simplify().as_u64()
        }
        _ => None,
    }
}

fn both_children(v: &BV) -> Option<(BV, BV)> {
    let [x, y] = <[Dynamic; 2]>::try_from(v.children()).ok()?;
    Some((x.as_bv()?, y.as_bv()?))
}

/// `n`, the value of a `width`-bit numeral, read as signed.
fn sign_extended(n: u64, width: u32) -> i64 {
    let shift = u64::BITS - width;
    ((n << shift) as i64) >> shift
}

fn app_kind(v: &BV) -> Option<DeclKind> {
    (v.kind() == z3::AstKind::App).then(|| v.decl().kind())
}

fn only_child(v: &BV) -> Option<BV> {
    let [c] = <[Dynamic; 1]>::try_from(v.children()).ok()?;
    c.as_bv()
}

/// `roots` rebuilt bottom up, each application whose children changed made
/// again over the new ones, and `at` given the chance to replace each
/// application (after its children): `None` keeps it. Shared subterms are
/// visited once; an explicit stack, as a query's terms nest deeply.
fn rewrite(roots: &[Bool], at: &mut dyn FnMut(&Dynamic) -> Option<Dynamic>) -> Vec<Bool> {
    let mut done: HashMap<Dynamic, Dynamic> = HashMap::new();
    let mut stack: Vec<(Dynamic, bool)> = roots.iter().map(|r| (Dynamic::from_ast(r), false)).collect();
    while let Some((node, expanded)) = stack.pop() {
        if done.contains_key(&node) {
            continue;
        }
        if node.kind() != z3::AstKind::App || node.num_children() == 0 {
            done.insert(node.clone(), node);
            continue;
        }
        let children = node.children();
        if !expanded {
            stack.push((node, true));
            stack.extend(children.into_iter().filter(|c| !done.contains_key(c)).map(|c| (c, false)));
            continue;
        }
        let new: Vec<Dynamic> = children.iter().map(|c| done[c].clone()).collect();
        let rebuilt = if new == children {
            node.clone()
        } else {
            let args: Vec<&dyn Ast> = new.iter().map(|c| c as &dyn Ast).collect();
            node.decl().apply(&args)
        };
        let replaced = at(&rebuilt).unwrap_or(rebuilt);
        done.insert(node, replaced);
    }
    roots.iter().map(|r| done[&Dynamic::from_ast(r)].as_bool().expect("an assertion stays Boolean")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn var(name: &str, width: u32) -> BV {
        BV::new_const(name, width)
    }

    /// `t` after [`narrowed`] (as the right side of an equation).
    fn narrowed_term(t: &BV) -> BV {
        let probe = var("probe", t.get_size());
        let [eq] = <[Bool; 1]>::try_from(narrowed(&[probe.eq(t)])).unwrap();
        eq.children()[1].as_bv().unwrap()
    }

    /// The widths of the products in `t`.
    fn product_widths(t: &Dynamic) -> Vec<u32> {
        let mut widths = Vec::new();
        if t.kind() == z3::AstKind::App {
            if t.decl().kind() == DeclKind::Bmul {
                widths.push(t.as_bv().unwrap().get_size());
            }
            for c in t.children() {
                widths.extend(product_widths(&c));
            }
        }
        widths
    }

    /// `t` with the inputs `a` and `b` given values, evaluated.
    fn value(t: &BV, a: (&BV, u64), b: (&BV, u64)) -> u64 {
        let (va, vb) = (BV::from_u64(a.1, a.0.get_size()), BV::from_u64(b.1, b.0.get_size()));
        t.substitute(&[(a.0, &va), (b.0, &vb)]).simplify().as_u64().expect("a numeral")
    }

    #[test]
    fn a_product_of_sign_extensions_is_taken_at_the_width_it_needs() {
        let (a, b) = (var("a", 16), var("b", 16));
        // int * int of two 16-bit values, at 64 bits, as the literal C
        // reading takes it.
        let p = a.sign_ext(16).sign_ext(32).bvmul(b.sign_ext(16).sign_ext(32));
        let n = narrowed_term(&p);
        assert_eq!(product_widths(&Dynamic::from_ast(&n)), vec![32]);
        for (x, y) in [(0x8000, 0x8000), (0x7fff, 0x8000), (0xffff, 0x8000), (0x1234, 0xfedc), (0, 0xffff)] {
            assert_eq!(value(&p, (&a, x), (&b, y)), value(&n, (&a, x), (&b, y)), "{x:#x} * {y:#x}");
        }
    }

    #[test]
    fn a_product_of_zero_extensions_is_zero_extended() {
        let (a, b) = (var("a", 8), var("b", 8));
        let p = a.zero_ext(24).bvmul(b.zero_ext(24));
        let n = narrowed_term(&p);
        assert_eq!(product_widths(&Dynamic::from_ast(&n)), vec![16]);
        assert_eq!(n.decl().kind(), DeclKind::ZeroExt);
        assert_eq!(value(&n, (&a, 0xff), (&b, 0xff)), 0xfe01);
    }

    #[test]
    fn a_product_at_the_width_its_value_needs_is_left_alone() {
        let (a, b) = (var("a", 32), var("b", 32));
        // mul.wide: the 64-bit product of two 32-bit values needs 64 bits.
        let wide = a.sign_ext(32).bvmul(b.sign_ext(32));
        assert_eq!(narrowed_term(&wide), wide);
        let plain = a.bvmul(&b);
        assert_eq!(narrowed_term(&plain), plain);
        // A numeral of all 32 bits does not narrow either.
        let by_numeral = a.bvmul(BV::from_u64(0x8000_0001, 32));
        assert_eq!(narrowed_term(&by_numeral), by_numeral);
    }

    #[test]
    fn numerals_count_the_bits_of_their_value() {
        assert_eq!(signed_bits(&BV::from_u64(0xffff_fffd, 32)), 3); // -3
        assert_eq!(signed_bits(&BV::from_u64(3, 32)), 3);
        assert_eq!(signed_bits(&BV::from_u64(0, 32)), 1);
        assert_eq!(signed_bits(&BV::from_u64(0x8000_0000, 32)), 32);
        assert_eq!(unsigned_bits(&BV::from_u64(0, 32)), 1);
        assert_eq!(unsigned_bits(&BV::from_u64(0xff, 32)), 8);
        assert_eq!(unsigned_bits(&BV::from_u64(0x8000_0000, 32)), 32);
        assert_eq!(signed_bits(&var("v", 8).zero_ext(24)), 9);
    }

    /// mul24's 24-bit operands as C writes them: `a & 0xffffff`, and for
    /// a signed operand `(x ^ 0x800000) - 0x800000`, in a 64-bit type and
    /// under a branch on a constant. The product is the model's own
    /// product of the 24-bit fields, the same term, at 48 bits.
    #[test]
    fn a_product_of_c_masked_and_sign_extended_fields_is_the_fields_product() {
        let (a, b) = (var("a", 32), var("b", 32));
        let mask = BV::from_u64(0xff_ffff, 32);
        let half = BV::from_u64(0x80_0000, 32).sign_ext(32);
        let field = |v: &BV| v.bvand(&mask).sign_ext(32);
        let signed = |v: &BV| {
            let f = field(v);
            Bool::from_bool(true).ite(&f.bvxor(&half).bvsub(&half), &BV::from_u64(0, 64))
        };
        let low24 = |v: &BV| v.extract(23, 0);
        for (p, model) in [
            (field(&a).bvmul(field(&b)), low24(&a).zero_ext(24).bvmul(low24(&b).zero_ext(24)).zero_ext(16)),
            (signed(&a).bvmul(signed(&b)), low24(&a).sign_ext(24).bvmul(low24(&b).sign_ext(24)).sign_ext(16)),
        ] {
            let n = narrowed_term(&p);
            assert_eq!(n, model);
            for (x, y) in [(0x0080_0000, 0x0080_0000), (0xff7f_ffff, 0x0080_0001), (0x1234_5678, 0xffff_ffff)] {
                assert_eq!(value(&p, (&a, x), (&b, y)), value(&n, (&a, x), (&b, y)), "{x:#x} * {y:#x}");
            }
        }
        // A mask that keeps more than the low bits, or a flip of the wrong
        // bit, shows no narrower field.
        let other = BV::from_u64(0x80_0001, 32);
        assert_eq!(unsigned_bits(&a.bvand(&other).sign_ext(32)), 64);
        let wrong = field(&a).bvxor(half.bvshl(BV::from_u64(1, 64))).bvsub(&half);
        assert_eq!(signed_bits(&wrong), 64);
    }

    proptest! {
        /// Any two extensions, of any widths, multiplied at any width the
        /// extensions fit: the narrowed product has the same value.
        #[test]
        fn a_narrowed_product_has_the_same_value(
            p in 1u32..=12, q in 1u32..=12, extra in 0u32..=30,
            x_signed: bool, y_signed: bool, x: u64, y: u64, by_numeral: bool,
        ) {
            let width = p.max(q) + 1 + extra;
            let (a, b) = (var("a", p), var("b", q));
            let extend = |v: &BV, signed: bool| {
                let by = width - v.get_size();
                if signed { v.sign_ext(by) } else { v.zero_ext(by) }
            };
            let left = extend(&a, x_signed);
            let right = if by_numeral {
                extend(&BV::from_u64(y & ((1 << q) - 1), q), y_signed).simplify()
            } else {
                extend(&b, y_signed)
            };
            let product = left.bvmul(&right);
            let narrow = narrowed_term(&product);
            let (x, y) = (x & ((1 << p) - 1), y & ((1 << q) - 1));
            prop_assert_eq!(value(&product, (&a, x), (&b, y)), value(&narrow, (&a, x), (&b, y)));
        }
    }

    #[test]
    fn an_abstracted_query_frees_its_products_and_keeps_their_sharing() {
        let (a, b, c) = (var("a", 32), var("b", 32), var("c", 32));
        let product = a.bvmul(&b);
        // (a*b) + c != c + (a*b): unsat, and still unsat with the product
        // free, as both sides share it.
        let query = product.bvadd(&c).eq(c.bvadd(&product)).not();
        let [weaker] = <[Bool; 1]>::try_from(abstracted(&[query]).expect("a product")).unwrap();
        assert!(product_widths(&Dynamic::from_ast(&weaker)).is_empty());
        let s = z3::Solver::new();
        s.assert(&weaker);
        assert_eq!(s.check(), z3::SatResult::Unsat);
        // A product of numerals is no product to free; no product, no query.
        let numerals = BV::from_u64(3, 8).bvmul(BV::from_u64(5, 8)).eq(var("d", 8));
        assert!(abstracted(&[numerals]).is_none());
        assert!(abstracted(&[a.eq(&b)]).is_none());
    }
}
