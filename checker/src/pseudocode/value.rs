//! The values of the pseudocode as the evaluator reads it: integers of
//! unbounded precision, held exactly in bit-vectors of whatever algebra
//! evaluates them (concrete values, or SMT terms for a proof).
//!
//! The reading is the one the model adopts for the document's pseudocode:
//! a variable with no declared type holds the exact mathematical value
//! (`t = a * b` is the whole product, so that `t<2n-1..n>` is its high
//! half), and a value is cut to a width only where it is stored in a typed
//! place (an operand, or `.u32 d`), as C's conversion does. Each integer
//! carries the interval it lies in, from which its width follows, in whole
//! bytes: an unsigned 32-bit operand is 32 bits wide, `a - b` of two of
//! them 33 bits signed (held in 40), their product 64 bits, `b & 0xff` 8
//! bits. Whole bytes keep a count that grows one step at a time at one
//! width, the shape the solver proves fast. The intervals also
//! decide comparisons that no input can change, which is how a loop over a
//! constant bound is unrolled exactly.
//!
//! A value too wide for 128 bits is kept modulo 2^128 (`modular`), which is
//! exact for what only reads its low bits (a store to an operand, `+`, `*`,
//! `&`); anything that would read its high bits is refused with a reason.

use ptx_spec::bv::Algebra;

/// The widest exact value the algebra holds.
const WIDEST: u32 = 128;

/// Why a text cannot be evaluated as the model reads it.
pub type Refusal = String;

/// An integer: its bits, how to read them, the interval it lies in, and
/// whether the text defines it (`ok` is false where it divides by zero or
/// reads a variable it never set).
#[derive(Debug)]
pub struct Int<A: Algebra> {
    pub bv: A::Bv,
    pub signed: bool,
    /// The least and greatest value it can take; `None` when the interval
    /// does not fit an `i128` (a 128-bit product).
    pub range: Option<(i128, i128)>,
    /// Kept modulo 2^128: only its low 128 bits are known.
    pub modular: bool,
    pub ok: A::Bool,
}

/// A truth value (a comparison, `&&`), with its value where no input can
/// change it.
#[derive(Debug)]
pub struct Truth<A: Algebra> {
    pub b: A::Bool,
    pub known: Option<bool>,
    pub ok: A::Bool,
}

// By hand: a derive would ask the algebra itself to be `Copy`.
impl<A: Algebra> Clone for Int<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Int<A> {}
impl<A: Algebra> Clone for Truth<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Truth<A> {}

/// The width and signedness that hold every value of `[lo, hi]`.
pub fn shape_of(lo: i128, hi: i128) -> (bool, u32) {
    let unsigned_bits = |x: i128| (128 - x.leading_zeros()).max(1);
    let signed_bits = |x: i128| if x >= 0 { 129 - x.leading_zeros() } else { 129 - (!x).leading_zeros() };
    if lo >= 0 {
        (false, unsigned_bits(hi))
    } else {
        (true, signed_bits(lo).max(signed_bits(hi)))
    }
}

impl<A: Algebra> Int<A> {
    /// The constant `v`.
    pub fn constant(alg: &A, v: i128) -> Int<A> {
        let (signed, width) = shape_of(v, v);
        Int {
            bv: alg.constant(width, v as u128),
            signed,
            range: Some((v, v)),
            modular: false,
            ok: alg.bool_constant(true),
        }
    }

    /// The bits `bv` read as `signed` or not, every value of the width
    /// possible.
    pub fn of_bits(alg: &A, bv: A::Bv, signed: bool) -> Int<A> {
        let w = alg.width(bv);
        let range = if w >= WIDEST {
            None
        } else if signed {
            Some((-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1))
        } else {
            Some((0, (1i128 << w) - 1))
        };
        Int { bv, signed, range, modular: false, ok: alg.bool_constant(true) }
    }

    pub fn width(&self, alg: &A) -> u32 {
        alg.width(self.bv)
    }

    /// Its value where no input can change it.
    pub fn known(&self) -> Option<i128> {
        match self.range {
            Some((lo, hi)) if lo == hi && !self.modular => Some(lo),
            _ => None,
        }
    }

    /// The same value with `ok` also requiring `more`.
    pub fn and_ok(mut self, alg: &A, more: A::Bool) -> Int<A> {
        self.ok = alg.and(self.ok, more);
        self
    }

    /// Refuse a value whose high bits are not known.
    pub fn exact(self, what: &str) -> Result<Int<A>, Refusal> {
        if self.modular {
            Err(format!("{what} reads a value wider than {WIDEST} bits"))
        } else {
            Ok(self)
        }
    }

    /// The bits of this value at `width`, as the signedness `signed` reads
    /// them: extended, or cut where `width` is narrower.
    pub fn bits_at(&self, alg: &A, width: u32) -> A::Bv {
        let w = self.width(alg);
        if width > w {
            alg.extend(self.signed, width - w, self.bv)
        } else if width < w {
            alg.extract(width - 1, 0, self.bv)
        } else {
            self.bv
        }
    }

    /// The value stored in a place of `width` bits read as `signed`: C's
    /// conversion, the exact value modulo 2^width.
    pub fn stored(&self, alg: &A, signed: bool, width: u32) -> Int<A> {
        // A value that already fits is unchanged: it keeps its tighter
        // interval, and its bits where they are no wider than the place's,
        // so that a sum stored step by step stays one chain of additions
        // at one width rather than a cut and an extension at each step.
        let fits = self.range.filter(|_| !self.modular).filter(|&(lo, hi)| {
            let (s, w) = shape_of(lo, hi);
            (s == signed && w <= width) || (!s && signed && w < width)
        });
        if fits.is_some() && self.width(alg) <= width {
            return *self;
        }
        let mut out = Int::of_bits(alg, self.bits_at(alg, width), signed);
        out.ok = self.ok;
        if fits.is_some() {
            out.range = self.range;
        }
        out
    }

    /// The value with the interval `range`, its bits cut to the whole bytes
    /// the interval needs (`bv` holds the value exactly at its own width).
    pub fn fitted(alg: &A, bv: A::Bv, signed: bool, range: Option<(i128, i128)>, ok: A::Bool) -> Int<A> {
        match range {
            Some((lo, hi)) => {
                let (s, w) = shape_of(lo, hi);
                let at = alg.width(bv);
                // Cut to whole bytes: a count that grows by one each step
                // keeps one width rather than a new one at each.
                let cut = w.div_ceil(8) * 8;
                let bv = if cut < at {
                    alg.extract(cut - 1, 0, bv)
                } else if w > at {
                    alg.extend(signed, w - at, bv)
                } else {
                    bv
                };
                Int { bv, signed: s, range, modular: false, ok }
            }
            None => Int { bv, signed, range: None, modular: false, ok },
        }
    }
}

impl<A: Algebra> Truth<A> {
    pub fn constant(alg: &A, b: bool) -> Truth<A> {
        Truth { b: alg.bool_constant(b), known: Some(b), ok: alg.bool_constant(true) }
    }
    pub fn of(b: A::Bool, ok: A::Bool) -> Truth<A> {
        Truth { b, known: None, ok }
    }
    pub fn not(self, alg: &A) -> Truth<A> {
        Truth { b: alg.not(self.b), known: self.known.map(|k| !k), ok: self.ok }
    }
    pub fn and(self, alg: &A, other: Truth<A>) -> Truth<A> {
        match (self.known, other.known) {
            (Some(false), _) => self,
            (_, Some(false)) => other,
            (Some(true), _) => other,
            (_, Some(true)) => self,
            // As C's `&&`: where the left side is false, the right side's
            // definedness does not matter.
            _ => Truth {
                b: alg.and(self.b, other.b),
                known: None,
                ok: alg.and(self.ok, alg.or(alg.not(self.b), other.ok)),
            },
        }
    }
    pub fn or(self, alg: &A, other: Truth<A>) -> Truth<A> {
        self.not(alg).and(alg, other.not(alg)).not(alg)
    }
    /// As an integer, 1 or 0 (C's value of a comparison).
    pub fn to_int(self, alg: &A) -> Int<A> {
        match self.known {
            Some(k) => Int::constant(alg, k as i128).and_ok(alg, self.ok),
            None => Int { bv: alg.bool_to_bv(self.b), signed: false, range: Some((0, 1)), modular: false, ok: self.ok },
        }
    }
}

/// The common form of several integers for one operation: signed if any is,
/// and wide enough for each (and for `at_least`); `None` past 128 bits.
pub fn common<A: Algebra>(alg: &A, xs: &[Int<A>], at_least: u32) -> Option<(bool, u32)> {
    let signed = xs.iter().any(|x| x.signed);
    let width = xs.iter().map(|x| x.width(alg) + u32::from(signed && !x.signed)).max().unwrap_or(1).max(at_least);
    (width <= WIDEST).then_some((signed, width))
}

/// The interval hull of two intervals.
pub fn hull(a: Option<(i128, i128)>, b: Option<(i128, i128)>) -> Option<(i128, i128)> {
    Some((a?.0.min(b?.0), a?.1.max(b?.1)))
}

/// Bool `if c then t else e`, which the algebra spells with connectives.
pub fn choose<A: Algebra>(alg: &A, c: A::Bool, t: A::Bool, e: A::Bool) -> A::Bool {
    alg.or(alg.and(c, t), alg.and(alg.not(c), e))
}

/// `if c then t else e` of two integers: their common form, the hull of
/// their intervals.
pub fn select<A: Algebra>(alg: &A, c: Truth<A>, t: Int<A>, e: Int<A>) -> Result<Int<A>, Refusal> {
    match c.known {
        Some(true) => return Ok(t.and_ok(alg, c.ok)),
        Some(false) => return Ok(e.and_ok(alg, c.ok)),
        None => {}
    }
    let (signed, width) = common(alg, &[t, e], 1).ok_or("a choice between values wider than 128 bits")?;
    let bv = alg.ite(c.b, t.bits_at(alg, width), e.bits_at(alg, width));
    let ok = alg.and(c.ok, choose(alg, c.b, t.ok, e.ok));
    let range = if t.modular || e.modular { None } else { hull(t.range, e.range) };
    let mut out = Int::fitted(alg, bv, signed, range, ok);
    out.modular = t.modular || e.modular;
    Ok(out)
}

/// A value of the pseudocode.
#[derive(Debug)]
pub enum Value<A: Algebra> {
    Int(Int<A>),
    Truth(Truth<A>),
    /// A qualifier as a value (`.clamp`, `.u32`), with its dot.
    Qualifier(String),
    /// Elements by index (`iA[0]`, the bytes of `Va`).
    Array(Vec<Option<Value<A>>>),
    /// A function of three operands given by its truth table (lop3's `F`).
    Table(Int<A>),
}

// By hand: a derive would ask the algebra itself to be `Clone`.
impl<A: Algebra> Clone for Value<A> {
    fn clone(&self) -> Self {
        match self {
            Value::Int(i) => Value::Int(*i),
            Value::Truth(t) => Value::Truth(*t),
            Value::Qualifier(q) => Value::Qualifier(q.clone()),
            Value::Array(items) => Value::Array(items.clone()),
            Value::Table(t) => Value::Table(*t),
        }
    }
}
