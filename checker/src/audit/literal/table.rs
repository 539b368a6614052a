//! The table of every Semantics block the literal C reading audits: its
//! section and opcode, why it is not C where it is not, and what the
//! model does at its fragments, for the findings' words. The reading
//! itself is the text's (`super::parsed`), or, for the families not yet
//! read from the text, a transcription (`super::blocks`).

use std::collections::BTreeMap;

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::bit_count::BitCount;
use ptx_spec::catalogue::bit_field::BitField;
use ptx_spec::catalogue::{Inputs, Outputs, Type, Variant};

use super::{CInt, C};

/// A block that is not valid C as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotC {
    /// Where it fails to parse.
    pub fragment: &'static str,
    /// Why, in one sentence.
    pub reason: &'static str,
    /// The smallest edit that makes it C, which the transcription reads
    /// literally: a block that is not C is still audited, so that the
    /// undefined operations of its repaired text are found too. Where the
    /// repair is a choice between readings, the ambiguity audit compares
    /// them.
    pub repair: &'static str,
}

/// One Semantics block of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub section: &'static str,
    pub opcode: &'static str,
    /// Set where the block does not parse as C.
    pub not_c: Option<NotC>,
    /// What the model does at a fragment of the block, for the findings
    /// about it: (fragment, one line).
    pub model_notes: &'static [(&'static str, &'static str)],
    /// Where the literal reading computes a defined result other than the
    /// model's: the fragment responsible and why, in one line. The audit
    /// finds such results on its own; this only explains them.
    pub wrong_result: Option<(&'static str, &'static str)>,
}

impl Block {
    /// The catalogue variants the block covers: every variant of its opcode
    /// (of set and setp, their covering sample, `Variant::sampled`: every
    /// operator at every type, every Boolean form at every destination).
    pub fn variants(&self) -> Vec<Variant> {
        Variant::sampled().into_iter().filter(|v| v.opcode() == self.opcode).collect()
    }
    /// The model's behaviour at `fragment`, where the table states it.
    pub fn model_note(&self, fragment: &str) -> Option<&'static str> {
        self.model_notes.iter().find(|(f, _)| *f == fragment).map(|(_, note)| *note)
    }
}

/// A literal C reading of Semantics blocks: the audit runs one on symbolic
/// inputs, and again on concrete ones to confirm what the solver found.
pub trait Transcription {
    /// The outputs of `variant` (in the order of [`Variant::outputs`]) as
    /// the block computes them read as C, recording hazards in `c`.
    fn literal<A: Algebra>(&self, c: &mut C<A>, variant: &Variant, inputs: &[A::Bv]) -> Outputs<A>;

    /// Why `block`, as this reading has it, is not C, if it is not: a
    /// transcription holds the table's word for it.
    fn not_c(&self, block: &Block) -> Option<NotC> {
        block.not_c
    }

    /// Whether the block's code names `qualifier` (`.sat`) for `variant`:
    /// a transcription names none.
    fn names(&self, _variant: &Variant, _qualifier: &str) -> bool {
        false
    }

    /// The states between the passes of the first loop of `variant`'s
    /// block that an input decides: from the loop's start, each pass's
    /// end; or, given `from`, `from` and the end of one pass run from it
    /// (the induction step of [`super::lockstep`]). `None` where the
    /// reading has no such loop.
    fn passes<A: Algebra>(
        &self,
        _c: &mut C<A>,
        _variant: &Variant,
        _inputs: &[A::Bv],
        _from: Option<PassState<A>>,
    ) -> Option<Vec<PassState<A>>> {
        None
    }
}

/// A loop's state between two passes: where the next pass runs, where a
/// `break` has left the loop, and the variables its body assigns.
pub struct PassState<A: Algebra> {
    pub live: A::Bool,
    pub left: A::Bool,
    pub vars: BTreeMap<String, CInt<A>>,
}

// By hand: a derive would ask the algebra itself to be `Clone`.
impl<A: Algebra> Clone for PassState<A> {
    fn clone(&self) -> Self {
        PassState { live: self.live, left: self.left, vars: self.vars.clone() }
    }
}

/// set's and setp's `BoolOp(t, c)`: a modifier of the instruction called
/// as a function.
const BOOLOP_NOT_C: NotC = NotC {
    fragment: "BoolOp(t, c)",
    reason: "`BoolOp` is the instruction's .BoolOp modifier, not a C function, and the forms without one have no c",
    repair: "t & c, t | c or t ^ c for .and, .or and .xor (c written !c where the operand is), and t alone where \
             there is no .BoolOp",
};

const WRAPS: &str = "wraps modulo 2^n (assumption int-wraparound)";
const CONVERTS: &str = "keeps the low bits of the result, two's complement (assumption int-wraparound)";

/// The table: every Semantics block, in spec order.
/// mul and mad share their product and its halves.
const WIDE_PRODUCT: (&str, &str) = (
    "t = a * b",
    "for .wide, `a * b` multiplies in the operands' own type, so t keeps only the low n bits of the product",
);
const EXACT_PRODUCT: (&str, &str) = ("t = a * b", "forms the exact 2n-bit product of the n-bit operands");
const HIGH_HALF: (&str, &str) = ("t<2n-1..n>", "takes the high half of the exact 2n-bit product");
/// So do mul24 and mad24.
const WHOLE_OPERANDS_24: (&str, &str) =
    ("t = a * b", "the block multiplies the whole 32-bit operands; the 24-bit restriction is in the Description only");
const LOW_24_PRODUCT: (&str, &str) =
    ("t = a * b", "multiplies the low 24 bits of each operand into a 48-bit product (mul24-low-24-bits)");
const BITS_47_16: (&str, &str) =
    ("t<47..16>", "takes bits 47..16 of the 48-bit product (assumption mul24-low-24-bits)");

/// 9.7.2: the carry flag as an addend.
const CARRIES_IN: &str = "adds CC.CF as 0 or 1 (assumption cc-flag-state: either value, where nothing set it)";
/// mad.cc and madc: the product and its halves.
const CC_PRODUCT: (&str, &str) = (
    "t = a * b",
    "`a * b` multiplies in the operands' own type, so t keeps only the low n bits of the product: t<63..32> is not \
     the upper half of a 32-bit product, and t<63..32> and t<31..0> of a 64-bit t are not the halves of a 128-bit one",
);
const CC_HALVES: (&str, &str) = (
    "t = a * b",
    "forms the exact 2n-bit product and takes its upper or lower n bits (assumption mad-cc-product-halves)",
);
const CC_SLICES: NotC = NotC {
    fragment: "d = t<63..32> + c;",
    reason: "`t<63..32>` is not C, and the block assigns d twice on unconditional lines, the variant named only in \
             comments",
    repair: "read `t<hi..lo>` as bits hi..lo of t, and each assignment as guarded by the variant its comment names",
};

pub const BLOCKS: &[Block] = &[
    Block {
        section: "9.7.1.1",
        opcode: "add",
        wrong_result: None,
        not_c: None,
        model_notes: &[("d = a + b", WRAPS), ("d[i] = iA[i] + iB[i]", CONVERTS)],
    },
    Block { section: "9.7.1.2", opcode: "sub", wrong_result: None, not_c: None, model_notes: &[("d = a - b", WRAPS)] },
    Block {
        section: "9.7.1.3",
        opcode: "mul",
        wrong_result: Some(WIDE_PRODUCT),
        not_c: None,
        model_notes: &[EXACT_PRODUCT, HIGH_HALF],
    },
    Block {
        section: "9.7.1.4",
        opcode: "mad",
        wrong_result: Some(WIDE_PRODUCT),
        not_c: None,
        model_notes: &[
            EXACT_PRODUCT,
            HIGH_HALF,
            ("t + c", "wraps modulo 2^n, or saturates under .sat (assumptions int-wraparound, sat-of-exact-result)"),
        ],
    },
    Block {
        section: "9.7.1.5",
        opcode: "mul24",
        wrong_result: Some(WHOLE_OPERANDS_24),
        not_c: None,
        model_notes: &[LOW_24_PRODUCT, BITS_47_16],
    },
    Block {
        section: "9.7.1.6",
        opcode: "mad24",
        wrong_result: Some(WHOLE_OPERANDS_24),
        not_c: None,
        model_notes: &[
            LOW_24_PRODUCT,
            BITS_47_16,
            ("t<47..16> + c", "wraps modulo 2^32, or saturates under .sat (assumption sat-of-exact-result)"),
            ("t<31..0> + c", WRAPS),
        ],
    },
    Block { section: "9.7.1.7", opcode: "sad", wrong_result: None, not_c: None, model_notes: &[] },
    Block {
        section: "9.7.1.8",
        opcode: "div",
        wrong_result: None,
        not_c: None,
        model_notes: &[(
            "a / b",
            "leaves the quotient by zero unspecified and wraps MIN / -1 to MIN \
             (assumptions div-by-zero-unspecified, div-signed-overflow)",
        )],
    },
    Block {
        section: "9.7.1.9",
        opcode: "rem",
        wrong_result: None,
        not_c: None,
        model_notes: &[(
            "a % b",
            "leaves the remainder by zero, and of negative signed operands, unspecified \
             (assumptions rem-by-zero-unspecified, rem-negative-machine-dependent)",
        )],
    },
    Block {
        section: "9.7.1.10",
        opcode: "abs",
        wrong_result: None,
        not_c: None,
        model_notes: &[("|a|", "wraps: |MIN| is MIN (assumption abs-neg-most-negative)")],
    },
    Block {
        section: "9.7.1.11",
        opcode: "neg",
        wrong_result: None,
        not_c: None,
        model_notes: &[("-a", "wraps: -MIN is MIN (assumption abs-neg-most-negative)")],
    },
    Block {
        section: "9.7.1.12",
        opcode: "min",
        wrong_result: Some(("d = (a < b) ? a : b", "the block has no .relu: a negative minimum is not clamped to 0")),
        not_c: None,
        model_notes: &[],
    },
    Block {
        section: "9.7.1.13",
        opcode: "max",
        wrong_result: Some(("d = (a > b) ? a : b", "the block has no .relu: a negative maximum is not clamped to 0")),
        not_c: None,
        model_notes: &[],
    },
    Block { section: "9.7.1.14", opcode: "popc", wrong_result: None, not_c: None, model_notes: &[] },
    Block {
        section: "9.7.1.15",
        opcode: "clz",
        wrong_result: Some((
            "a&mask == 0",
            "`==` binds tighter than `&`, so the test is a & (mask == 0), always 0: the loop never runs and d is 0",
        )),
        not_c: None,
        model_notes: &[("a&mask == 0", "tests (a & mask) == 0 (assumption clz-mask-test)")],
    },
    Block {
        section: "9.7.1.16",
        opcode: "bfind",
        wrong_result: None,
        not_c: None,
        model_notes: &[
            ("1<<msb", "tests the operand's sign bit at the operand's width (assumption bfind-shift-width)"),
            ("1<<i", "forms the single-bit mask at the operand's width (assumption bfind-shift-width)"),
        ],
    },
    Block {
        section: "9.7.1.17",
        opcode: "fns",
        wrong_result: None,
        not_c: None,
        model_notes: &[
            ("mask[base]", "leaves d undefined for base > 31 (assumption fns-base-above-31-undefined)"),
            (
                "|offset|",
                "takes the exact magnitude, so offset = -2^31 finds no bit (assumption fns-most-negative-offset)",
            ),
        ],
    },
    Block { section: "9.7.1.18", opcode: "brev", wrong_result: None, not_c: None, model_notes: &[] },
    Block { section: "9.7.1.19", opcode: "bfe", wrong_result: None, not_c: None, model_notes: &[] },
    Block { section: "9.7.1.20", opcode: "bfi", wrong_result: None, not_c: None, model_notes: &[] },
    Block {
        section: "9.7.1.21",
        opcode: "szext",
        wrong_result: None,
        not_c: Some(NotC {
            fragment: "sign_bit ? mask | 0",
            reason: "the conditional operator has no `:`, so the last statement is not a C expression",
            repair:
                "`sign_bit ? mask : 0`, the model's reading (the other readings are compared in szext-mask-or-zero)",
        }),
        model_notes: &[("sign_bit ? mask | 0", "reads it as sign_bit ? mask : 0 (assumption szext-mask-or-zero)")],
    },
    Block {
        section: "9.7.1.22",
        opcode: "bmsk",
        wrong_result: None,
        not_c: Some(NotC {
            fragment: "sum-overflow = ...",
            reason: "the hyphenated names parse as subtractions (`sum - overflow`), which cannot be assigned to",
            repair: "each hyphenated name read as one identifier (`sum_overflow`)",
        }),
        model_notes: &[
            ("(~0) << a1", "shifts an all-ones 32-bit mask left by a1 (bits shifted out are lost)"),
            ("(~0) << sum", "shifts an all-ones 32-bit mask, and treats sum >= 32 as sum-overflow"),
        ],
    },
    Block {
        section: "9.7.1.23",
        opcode: "dp4a",
        wrong_result: None,
        not_c: None,
        model_notes: &[("d += Va[i] * Vb[i]", WRAPS)],
    },
    Block {
        section: "9.7.1.24",
        opcode: "dp2a",
        wrong_result: None,
        not_c: None,
        model_notes: &[("d += Va[i] * Vb[b_select + i]", WRAPS)],
    },
    Block { section: "9.7.8.1", opcode: "and", wrong_result: None, not_c: None, model_notes: &[] },
    Block { section: "9.7.8.2", opcode: "or", wrong_result: None, not_c: None, model_notes: &[] },
    Block { section: "9.7.8.3", opcode: "xor", wrong_result: None, not_c: None, model_notes: &[] },
    Block {
        section: "9.7.8.4",
        opcode: "not",
        wrong_result: Some((
            "d = ~a",
            "for .pred, ~ of a _Bool promoted to int is -1 or -2, both nonzero, so the stored predicate is always 1",
        )),
        not_c: None,
        model_notes: &[("d = ~a", "inverts every bit of the operand: for .pred, the logical negation")],
    },
    Block { section: "9.7.8.5", opcode: "cnot", wrong_result: None, not_c: None, model_notes: &[] },
    Block {
        section: "9.7.8.6",
        opcode: "lop3",
        wrong_result: None,
        not_c: Some(NotC {
            fragment: "p = (d != 0) BoolOp q;",
            reason: "the test of whether .BoolOp is given is words (`BoolOp specified`), not a condition, and the \
                     modifier stands between two operands as if it were a C operator",
            repair: "(d != 0) && q for .and and (d != 0) || q for .or, under a test of the modifier \
                     (`.BoolOp == .and`)",
        }),
        model_notes: &[(
            "p = (d != 0) BoolOp q;",
            "combines whether d is nonzero with q by the Boolean operator: logical and, logical or",
        )],
    },
    Block {
        section: "9.7.8.7",
        opcode: "shf",
        wrong_result: Some((
            "case shf.l:",
            "the switch has no break: read as C, case shf.l runs on into case shf.r, whose d is the one kept",
        )),
        not_c: None,
        model_notes: &[
            ("a >> (32-n)", "a 32-bit shift by 32 yields 0 (assumption shf-shift-by-32)"),
            ("b << (32-n)", "a 32-bit shift by 32 yields 0 (assumption shf-shift-by-32)"),
            ("b << n", "a 32-bit shift by 32 yields 0 (assumption shf-shift-by-32)"),
            ("a >> n", "a 32-bit shift by 32 yields 0 (assumption shf-shift-by-32)"),
        ],
    },
    Block {
        section: "9.7.8.8",
        opcode: "shl",
        wrong_result: None,
        not_c: None,
        model_notes: &[(
            "a << b",
            "shifts bits out of the operand's width; b >= width gives 0 (shift-clamped-to-width)",
        )],
    },
    Block {
        section: "9.7.8.9",
        opcode: "shr",
        wrong_result: None,
        not_c: None,
        model_notes: &[(
            "a >> b",
            "shifts in the sign bit for .s types and zeros otherwise, clamping b at the width \
             (assumption shift-clamped-to-width)",
        )],
    },
    Block { section: "9.7.9.5", opcode: "shfl", wrong_result: None, not_c: None, model_notes: &[] },
    Block {
        section: "9.7.9.6",
        opcode: "shfl.sync",
        wrong_result: None,
        not_c: None,
        model_notes: &[(
            "wait_for_specified_threads(membermask)",
            "ends with defined results where the thread is in membermask and every member that executes has the \
             same mask (assumptions shfl-sync-membermask, shfl-sync-mask-agreement)",
        )],
    },
    Block {
        section: "9.7.9.7",
        opcode: "prmt",
        wrong_result: Some((
            "(b<<32) | a",
            "b is a 32-bit operand, so the shift is done in 32 bits and b is lost: every byte selected from b reads 0",
        )),
        not_c: Some(NotC {
            fragment: "tmp[15:08]",
            reason: "`08` is not a C integer constant: the leading 0 makes it octal, and 8 is not an octal digit",
            repair: "`tmp[15:8]`, the bits 15..8 the other slices of the block line up with",
        }),
        model_notes: &[
            ("(b<<32) | a", "the 64-bit value whose high word is b and low word is a (assumption prmt-source-pair)"),
            (
                "ReadByte( mode, ctl[0], tmp64 )",
                "the byte the Description's selector bits or mode table give, at each target position \
                 (assumption prmt-byte-select)",
            ),
            ("tmp[31:24]", "d is tmp, which the block never assigns to d (assumption prmt-byte-select)"),
        ],
    },
    Block {
        section: "9.7.2.1",
        opcode: "add.cc",
        wrong_result: None,
        not_c: None,
        model_notes: &[("d = a + b", WRAPS)],
    },
    Block {
        section: "9.7.2.2",
        opcode: "addc",
        wrong_result: None,
        not_c: None,
        model_notes: &[("a + b", WRAPS), ("a + b + CC.CF", CARRIES_IN)],
    },
    Block {
        section: "9.7.2.3",
        opcode: "sub.cc",
        wrong_result: None,
        not_c: None,
        model_notes: &[("d = a - b", WRAPS)],
    },
    Block {
        section: "9.7.2.4",
        opcode: "subc",
        wrong_result: None,
        not_c: None,
        model_notes: &[("b + CC.CF", CARRIES_IN), ("a - (b + CC.CF)", WRAPS)],
    },
    Block {
        section: "9.7.2.5",
        opcode: "mad.cc",
        wrong_result: Some(CC_PRODUCT),
        not_c: Some(CC_SLICES),
        model_notes: &[CC_HALVES, ("t<63..32> + c", WRAPS), ("t<31..0> + c", WRAPS)],
    },
    Block {
        section: "9.7.2.6",
        opcode: "madc",
        wrong_result: Some(CC_PRODUCT),
        not_c: Some(CC_SLICES),
        model_notes: &[CC_HALVES, ("t<63..32> + c", WRAPS), ("t<31..0> + c", WRAPS), ("+ CC.CF", CARRIES_IN)],
    },
    Block {
        section: "9.7.6.3",
        opcode: "selp",
        wrong_result: None,
        not_c: None,
        model_notes: &[("d = (c == 1) ? a : b;", "moves the bits of a or b, a NaN's included (assumption selp-float-bits)")],
    },
    Block {
        section: "9.7.6.1",
        opcode: "set",
        wrong_result: None,
        not_c: Some(BOOLOP_NOT_C),
        model_notes: &[
            ("BoolOp(t, c)", "combines t with c by the Boolean operator, or is t itself where there is none"),
            ("0xffffffff", "writes all ones to a .u32 or .s32 d (assumption compare-set-f32-one for .f32)"),
        ],
    },
    Block {
        section: "9.7.6.2",
        opcode: "setp",
        wrong_result: None,
        not_c: Some(BOOLOP_NOT_C),
        model_notes: &[("BoolOp(t, c)", "combines t with c by the Boolean operator, or is t itself where there is none")],
    },
    Block {
        section: "9.7.6.4",
        opcode: "slct",
        wrong_result: Some((
            "d = (c >= 0) ? a : b;",
            "the block has no step for .ftz: a negative subnormal c is below 0 and selects b, where the Floating Point \
             Notes flush it to -0 under .ftz, which selects a",
        )),
        not_c: None,
        model_notes: &[(
            "d = (c >= 0) ? a : b;",
            "compares an .f32 c as IEEE does, after flushing a subnormal c under .ftz (assumption slct-f32-test)",
        )],
    },
];

/// The block of `opcode`.
pub fn block(opcode: &str) -> Option<&'static Block> {
    BLOCKS.iter().find(|b| b.opcode == opcode)
}

/// Cases the comparison of `variant`'s literal result with the model is
/// split into, each its own query; together they cover every input, which
/// the audit shows before it trusts them. Empty: one query (or the
/// variant's own proof cases, fns's). Each split is where one input fixes
/// the loop's shape, so that every case is a short straight line:
/// - popc.b64: the position of a's highest set bit (or a = 0) fixes how many
///   times `while (a != 0)` runs;
/// - bfi: `pos` fixes which bit of f each iteration writes; 64 or more
///   writes none. (bfi.b64 in one query did not finish in 20 s; each case
///   takes a few hundredths of a second.)
pub fn literal_cases<A: Algebra>(alg: &A, variant: &Variant, ins: &[A::Bv]) -> Vec<(String, A::Bool)> {
    let operands = variant.inputs();
    let ins = Inputs::new(&operands, ins);
    match *variant {
        Variant::BitCount(BitCount::Popc(Type::B64)) => {
            let a = ins.get("a");
            let mut cases = vec![("a = 0".to_string(), alg.is_zero(a))];
            for k in 0..64 {
                let top = alg.extract(63, k, a);
                cases.push((format!("highest set bit of a = {k}"), alg.eq(top, alg.constant(64 - k, 1))));
            }
            cases
        }
        Variant::BitField(BitField::Bfi(ty)) => {
            let w = ty.width();
            let pos = alg.extract(7, 0, ins.get("c"));
            let mut cases: Vec<(String, A::Bool)> =
                (0..w).map(|p| (format!("pos = {p}"), alg.eq(pos, alg.constant(8, u128::from(p))))).collect();
            cases.push((format!("pos > {}", w - 1), alg.bvuge(pos, alg.constant(8, u128::from(w)))));
            cases
        }
        _ => Vec::new(),
    }
}
