//! Section 9.7.1.23-24, the dot products: dp4a, dp2a.
//! The readings of the blocks' extract helpers the model does not adopt,
//! for the audit's passages.
//!
//! Both blocks call `extractAndSignOrZeroExt_4` and (dp2a)
//! `extractAndSignOrZeroExt_2`, which the text never defines. Their
//! comments say what they extract (four bytes, two half-words) and how each
//! is extended (by the operand's type), not which element is element 0.
//! Each reading here is the block as written with the helpers' element
//! order read as given; the model's order (element i in the i-th lowest
//! bits) is the one `ptx_spec::family::dot` computes.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::dot::{Dot, Half};

/// Which element of a packed register a helper returns as element 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementOrder {
    /// Element i is the i-th lowest: bits 8i..8i+7 (16i..16i+15), as add's
    /// .u16x2 block (9.7.1.1) packs its halves.
    LeastSignificantFirst,
    /// Element 0 is the most significant, as the register reads when
    /// written out (bytes in big-endian order).
    MostSignificantFirst,
}

/// A reading of the two helpers: the order of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtractOrder {
    /// `extractAndSignOrZeroExt_2`: a's two half-words (dp2a).
    pub halves: ElementOrder,
    /// `extractAndSignOrZeroExt_4`: the four bytes of a (dp4a) and of b.
    pub bytes: ElementOrder,
}

impl ExtractOrder {
    /// The model's reading: both helpers least significant first.
    pub const MODEL: ExtractOrder =
        ExtractOrder { halves: ElementOrder::LeastSignificantFirst, bytes: ElementOrder::LeastSignificantFirst };
}

/// The helper `extractAndSignOrZeroExt_N` of the 32-bit `x`: its `count`
/// elements in the order `order`, each extended to 32 bits, signed when
/// `signed` (the operand's type, as the blocks' comments say).
pub fn extract_and_extend<A: Algebra>(alg: &A, x: A::Bv, count: u32, signed: bool, order: ElementOrder) -> Vec<A::Bv> {
    let bits = 32 / count;
    (0..count)
        .map(|i| {
            let k = match order {
                ElementOrder::LeastSignificantFirst => i,
                ElementOrder::MostSignificantFirst => count - 1 - i,
            };
            alg.extend(signed, 32 - bits, alg.extract(k * bits + bits - 1, k * bits, x))
        })
        .collect()
}

/// dp4a or dp2a as its Semantics block computes it, with the helpers' order
/// read as `order`: `d = c + sum of Va[i] * Vb[select + i]`, modulo 2^32
/// (assumption int-wraparound).
pub fn dot_reading<A: Algebra>(alg: &A, dot: Dot, order: ExtractOrder, a: A::Bv, b: A::Bv, c: A::Bv) -> A::Bv {
    let (va, vb, select) = match dot {
        Dot::Dp4a { atype, btype } => (
            extract_and_extend(alg, a, 4, atype.is_signed(), order.bytes),
            extract_and_extend(alg, b, 4, btype.is_signed(), order.bytes),
            0,
        ),
        Dot::Dp2a { half, atype, btype } => (
            extract_and_extend(alg, a, 2, atype.is_signed(), order.halves),
            extract_and_extend(alg, b, 4, btype.is_signed(), order.bytes),
            match half {
                Half::Lo => 0,
                Half::Hi => 2,
            },
        ),
    };
    va.iter().enumerate().fold(c, |d, (i, &x)| alg.bvadd(d, alg.bvmul(x, vb[select + i])))
}
