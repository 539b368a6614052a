//! What the evaluator needs beyond C and the dialect to run the document's
//! Semantics blocks, each a reading the model adopts and says so: the
//! helpers the blocks call but do not define (each read as its section's
//! Description defines it), the phrases of prose they use as values, and
//! the comments that say which variant a line is for.
//!
//! The readings that change what a block's code says, for one section
//! (clz's `a & mask == 0` read as the model reads it), are data in
//! [`SECTION_READINGS`]; the third proof names each one it uses.

use ptx_spec::bv::Algebra;

use super::arith;
use super::ast::BinaryOp;
use super::setting::Setting;
use super::value::{select, Int, Refusal, Truth, Value};

/// A reading of one section's block that departs from its code as C reads
/// it.
#[derive(Clone, Copy, Debug)]
pub struct SectionReading {
    pub id: &'static str,
    pub section: &'static str,
    /// The code as written, and as the model reads it (`None`: the reading
    /// is not an edit of the code).
    pub written: &'static str,
    pub read_as: Option<&'static str>,
    /// The assumption of the model this reading is, if any.
    pub assumption: Option<&'static str>,
    pub why: &'static str,
}

/// The section readings the model adopts.
pub const SECTION_READINGS: &[SectionReading] = &[
    SectionReading {
        id: "clz-mask-test",
        section: "9.7.1.15",
        written: "a & mask == 0",
        read_as: Some("(a & mask) == 0"),
        assumption: Some("clz-mask-test"),
        why: "C binds `==` before `&`, so the test as written is `a & (mask == 0)`, which is 0; the loop is \
              meant to test the top bit",
    },
    SectionReading {
        id: "shf-cases-end-at-labels",
        section: "9.7.8.7",
        written: "case shf.r:",
        read_as: None,
        assumption: None,
        why: "the `switch` has no `break`, so in C `shf.l` falls through into `shf.r` and takes its result; \
              each case is read as ending at the next label",
    },
    SectionReading {
        id: "shfl-every-lane-runs-the-block",
        section: "9.7.9.5",
        written: "SourceA[lane] = a",
        read_as: None,
        assumption: Some("shfl-unpredictable-source"),
        why: "the block is one lane's, yet it reads `SourceA` at another lane's index: every lane of the warp runs \
              it, and `SourceA[k]` holds lane k's `a` where lane k executes, else a value no one can predict",
    },
    SectionReading {
        id: "shfl-sync-every-lane-runs-the-block",
        section: "9.7.9.6",
        written: "SourceA[lane] = a",
        read_as: None,
        assumption: Some("shfl-unpredictable-source"),
        why: "as in 9.7.9.5: every lane of the warp runs the block, and `SourceA[k]` holds lane k's `a` where lane \
              k executes, else a value no one can predict",
    },
    SectionReading {
        id: "set-cmpop-by-type",
        section: "9.7.6.1",
        written: "a CmpOp b",
        read_as: None,
        assumption: Some("compare-order-by-type"),
        why: COMPARISON_ORDER,
    },
    SectionReading {
        id: "setp-cmpop-by-type",
        section: "9.7.6.2",
        written: "a CmpOp b",
        read_as: None,
        assumption: Some("compare-order-by-type"),
        why: COMPARISON_ORDER,
    },
    SectionReading {
        id: "set-boolop-absent",
        section: "9.7.6.1",
        written: "BoolOp(t, c)",
        read_as: None,
        assumption: Some("compare-no-boolop"),
        why: BOOLOP_ABSENT,
    },
    SectionReading {
        id: "setp-boolop-absent",
        section: "9.7.6.2",
        written: "BoolOp(t, c)",
        read_as: None,
        assumption: Some("compare-no-boolop"),
        why: BOOLOP_ABSENT,
    },
    SectionReading {
        id: "set-not-c",
        section: "9.7.6.1",
        written: "BoolOp(t, c)",
        read_as: None,
        assumption: Some("compare-not-c"),
        why: NOT_C,
    },
    SectionReading {
        id: "setp-not-c",
        section: "9.7.6.2",
        written: "BoolOp(!t, c)",
        read_as: None,
        assumption: Some("compare-not-c"),
        why: NOT_C,
    },
    SectionReading {
        id: "set-f32-one",
        section: "9.7.6.1",
        written: "1.0f",
        read_as: None,
        assumption: Some("compare-set-f32-one"),
        why: "`d` holds bits, and `1.0f` is written to it as the bit pattern of single-precision 1.0",
    },
];

/// 9.7.6.1-2: `a CmpOp b`.
const COMPARISON_ORDER: &str = "`CmpOp` is the operator the variant writes; `lt`, `le`, `gt` and `ge` order `a` and \
                                `b` as their type says, and `lo`, `ls`, `hi` and `hs` (unsigned types only) as \
                                unsigned values";
/// 9.7.6.1-2: `BoolOp(t, c)` in a form without `.BoolOp`.
const BOOLOP_ABSENT: &str = "the block calls `BoolOp(t, c)` in every form; a form that writes no `.BoolOp` has no \
                             `c`, and the call is read as `t`";
/// 9.7.6.1-2: the Syntax's `{!}c`.
const NOT_C: &str = "the Syntax allows `!c`, which the block never writes: where the variant writes it, the \
                     block's `c` is the complement of the operand";

/// The readings by which a form that writes no `.BoolOp` reads the call
/// `BoolOp(x, y)` as `x`.
pub const BOOLOP_ABSENT_READINGS: [&str; 2] = ["set-boolop-absent", "setp-boolop-absent"];

/// The readings by which a negated source (`!c`) is read as the
/// complement of its operand wherever the block names it.
pub const NOT_C_READINGS: [&str; 2] = ["set-not-c", "setp-not-c"];

/// Whether a reading found in a section's block concerns `variant`: those
/// of an absent `.BoolOp`, of `!c` and of set's `.f32` destination concern
/// only the forms that have them; every other reading, every variant of
/// its section.
pub fn concerns(id: &str, variant: &ptx_spec::catalogue::Variant) -> bool {
    let name = variant.mnemonic();
    let qualifiers: Vec<&str> = name.split(' ').next().unwrap_or("").split('.').skip(1).collect();
    match id {
        _ if BOOLOP_ABSENT_READINGS.contains(&id) => !qualifiers.iter().any(|q| matches!(*q, "and" | "or" | "xor")),
        _ if NOT_C_READINGS.contains(&id) => variant.inputs().iter().any(|o| o.negated),
        // set.CmpOp{.BoolOp}.dtype.stype: the destination's type is the last but one.
        "set-f32-one" => qualifiers.len() >= 2 && qualifiers[qualifiers.len() - 2] == "f32",
        _ => true,
    }
}

/// The arrays that every lane of a warp fills before any lane reads them,
/// each with the operand each lane writes into it (`SourceA` of shfl and
/// shfl.sync).
pub const GATHERED: &[(&str, &str, &str)] = &[("9.7.9.5", "SourceA", "a"), ("9.7.9.6", "SourceA", "a")];

/// The qualifier a trailing comment limits its line to: `// for .hi
/// variant` is `.hi`.
pub fn comment_guard(comment: &str) -> Option<String> {
    let rest = comment.trim().strip_prefix("for ")?;
    let word = rest.split_whitespace().next()?;
    (word.starts_with('.') && word.len() > 1).then(|| word.to_string())
}

/// A bare word that names a qualifier (`u16x2` in `type == u16x2`).
pub fn is_qualifier_word(setting: &Setting, word: &str) -> bool {
    let dotted = format!(".{word}");
    setting.bound.iter().any(|(_, v)| *v == dotted) || ptx_spec::catalogue::Type::ALL.iter().any(|t| t.name() == word)
}

/// `bitwidth of type`: the width of the type the variant writes for
/// `.type`.
pub fn type_width(setting: &Setting) -> Option<u32> {
    let ty = setting.bound(".type")?;
    ptx_spec::catalogue::Type::ALL.into_iter().find(|t| t.to_string() == ty).map(|t| t.width())
}

/// A phrase of prose as a value: `bitwidth of type` is the width of
/// `.type`; `BoolOp specified` whether the variant writes a `.BoolOp`;
/// `dest predicate selected` whether it writes a predicate destination.
pub fn prose<A: Algebra>(alg: &A, setting: &Setting, words: &[String]) -> Option<Value<A>> {
    Some(match phrase(setting, words)? {
        Phrase::Number(n) => Value::Int(Int::constant(alg, n)),
        Phrase::Truth(t) => Value::Truth(Truth::constant(alg, t)),
    })
}

/// What a phrase of prose is for a variant: a number or a truth.
pub enum Phrase {
    Number(i128),
    Truth(bool),
}

/// The phrases [`prose`] reads, decided by the variant alone.
pub fn phrase(setting: &Setting, words: &[String]) -> Option<Phrase> {
    Some(match words.join(" ").as_str() {
        "bitwidth of type" => Phrase::Number(i128::from(type_width(setting)?)),
        "BoolOp specified" => Phrase::Truth(setting.bound(".BoolOp").is_some()),
        "dest predicate selected" => Phrase::Truth(setting.operands.iter().any(|o| o.output && o.name == "p")),
        _ => return None,
    })
}

/// set (9.7.6.1)'s `isFloat`: whether a type qualifier is a floating-point
/// one (`.f32`, `.f16x2`, `.bf16`, `.tf32`).
pub fn is_float(qualifier: &str) -> bool {
    [".f", ".bf", ".tf"]
        .iter()
        .any(|p| qualifier.strip_prefix(p).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())))
}

/// A call of a helper the block does not define, read as its section says;
/// `None` for a helper no reading defines.
pub fn call<A: Algebra>(alg: &A, name: &str, args: &[Value<A>]) -> Option<Result<Value<A>, Refusal>> {
    let int = |v: &Value<A>| match v {
        Value::Int(i) => Ok(*i),
        Value::Truth(t) => Ok(t.to_int(alg)),
        _ => Err(format!("`{name}` takes numbers")),
    };
    Some(match (name, args) {
        // set (9.7.6.1): whether a type is a floating-point one (`.f32`,
        // `.f16x2`, `.bf16`, `.tf32`).
        ("isFloat", [Value::Qualifier(q)]) => Ok(Value::Truth(Truth::constant(alg, is_float(q)))),
        // The smaller or larger of two integers.
        ("min" | "max", [x, y]) => (|| {
            let (x, y) = (int(x)?, int(y)?);
            let op = if name == "min" { BinaryOp::Lt } else { BinaryOp::Gt };
            let mut out = match arith::binary(alg, op, x, y)? {
                Err(first) => select(alg, first, x, y)?,
                Ok(_) => unreachable!("a comparison gives a truth value"),
            };
            // The interval of the smaller (larger) of two values.
            if let (Some(a), Some(b)) = (x.range, y.range) {
                let pick = if name == "min" { i128::min } else { i128::max };
                if !out.modular {
                    out.range = Some((pick(a.0, b.0), pick(a.1, b.1)));
                }
            }
            Ok(Value::Int(out))
        })(),
        // shfl.sync (9.7.9.6): the wait ends. Where it would not, or the
        // members disagree on the mask, the model leaves d and p
        // unspecified (assumption shfl-sync-mask-agreement), which the
        // block does not say; the proof reports the block as defining more.
        ("wait_for_specified_threads", [_]) => Ok(Value::Truth(Truth::constant(alg, true))),
        // lop3 (9.7.8.6): the function whose truth table is immLut.
        ("GetFunctionFromTable", [lut]) => int(lut).map(Value::Table),
        // dp4a and dp2a (9.7.1.23-24): the four bytes or two halves of a
        // word, each extended as the type says (signed for `.s32`).
        ("extractAndSignOrZeroExt_4" | "extractAndSignOrZeroExt_2", [x, Value::Qualifier(ty)]) => (|| {
            let x = int(x)?;
            let parts: u32 = if name.ends_with('4') { 4 } else { 2 };
            let size = 32 / parts;
            let signed = ty == ".s32";
            let items = (0..parts)
                .map(|k| {
                    let bits = arith::slice(alg, x, size * k + size - 1, size * k)?;
                    let mut v = Int::of_bits(alg, bits.bv, signed);
                    v.ok = bits.ok;
                    Ok(Some(Value::Int(v)))
                })
                .collect::<Result<Vec<_>, Refusal>>()?;
            Ok(Value::Array(items))
        })(),
        _ => return None,
    })
}

/// The bits of a table's function of three words of one width: bit i is
/// entry k of the table (`entries`, eight 1-bit values), k the bits a[i],
/// b[i], c[i] read as a number with a[i] highest.
pub fn looked_up<A: Algebra>(alg: &A, entries: &[A::Bv], [a, b, c]: [A::Bv; 3]) -> A::Bv {
    let w = alg.width(a);
    let pick = |x: A::Bv, one: bool| if one { x } else { alg.bvnot(x) };
    let mut out = alg.constant(w, 0);
    for (k, entry) in (0..8u32).zip(entries) {
        let term = alg.bvand(alg.bvand(pick(a, k & 4 != 0), pick(b, k & 2 != 0)), pick(c, k & 1 != 0));
        out = alg.bvor(out, alg.bvand(term, alg.sign_extend(w - 1, *entry)));
    }
    out
}

/// lop3's `F(a, b, c)`: bit i of the result is bit k of the table, where k
/// is the three bits a[i], b[i], c[i] read as a number with a[i] highest
/// (so that F(0xF0, 0xCC, 0xAA) is the table itself).
pub fn table<A: Algebra>(alg: &A, lut: Int<A>, xs: &[Int<A>]) -> Result<Value<A>, Refusal> {
    let [a, b, c] = xs else { return Err("the table's function takes three operands".into()) };
    let w = [a, b, c].iter().map(|x| x.width(alg)).max().unwrap_or(1);
    let entries = (0..8u32).map(|k| arith::slice(alg, lut, k, k).map(|bit| bit.bv)).collect::<Result<Vec<_>, _>>()?;
    let out = looked_up(alg, &entries, [a.bits_at(alg, w), b.bits_at(alg, w), c.bits_at(alg, w)]);
    let mut v = Int::of_bits(alg, out, false);
    v.ok = lut.ok;
    Ok(Value::Int(v))
}
