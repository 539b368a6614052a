//! Example comments as claims. A comment on an Examples line that says
//! what its instruction computes (`// 16*16 bits yields 32 bits`, `// low
//! 32-bits of 24x24-bit signed multiply.`, `// d = 3`) is read into facts
//! about the example's variant, and each fact is checked against the
//! catalogue and the semantics:
//!
//! - `signed` / `unsigned`: the variant's type;
//! - `low` / `high`: its `.lo` / `.hi` mode;
//! - `A*A bits`, `AxA-bit`: the width of what it multiplies (24 for the
//!   24-bit multiplies, else operand `a`'s);
//! - `yields R bits`, `R bit result`, `low R bits`: the destination's width;
//! - the operations it names (`multiply`, `*`, `sum`, `%`): where it names
//!   the instruction's first operation, every other one must be named too
//!   (an operation left out), and it names none the instruction lacks;
//! - `d = N`, `Result is N`, `bitmask of N`: the value the model computes
//!   where every source operand of the example is a constant.
//!
//! A comment from which no fact is read is left to the claims.

use ptx_spec::bv::{BitVec, Concrete};
use ptx_spec::hardware::Model;
use ptx_spec::Variant;

use super::document::{BlockKind, Document};
use super::units::split_comment;
use crate::audit::finding::{Finding, FindingKind};
use crate::ptx::parse::{parse_instruction, parse_integer, OperandText};

/// An operation an instruction performs, or a comment names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Multiply,
    Add,
    Subtract,
    AbsDifference,
    Divide,
    Remainder,
}

impl Op {
    fn word(self) -> &'static str {
        match self {
            Op::Multiply => "multiply",
            Op::Add => "add",
            Op::Subtract => "subtract",
            Op::AbsDifference => "absolute difference",
            Op::Divide => "divide",
            Op::Remainder => "remainder",
        }
    }
}

/// What each opcode computes, its first operation first.
pub const OPERATIONS: &[(&str, &[Op])] = &[
    ("add", &[Op::Add]),
    ("sub", &[Op::Subtract]),
    ("mul", &[Op::Multiply]),
    ("mad", &[Op::Multiply, Op::Add]),
    ("mul24", &[Op::Multiply]),
    ("mad24", &[Op::Multiply, Op::Add]),
    ("sad", &[Op::AbsDifference, Op::Add]),
    ("div", &[Op::Divide]),
    ("rem", &[Op::Remainder]),
];

/// The width each opcode multiplies at, where it is not operand `a`'s.
const MULTIPLIES_AT: &[(&str, u32)] = &[("mul24", 24), ("mad24", 24)];

/// A fact a comment states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    Signed(bool),
    Half(&'static str),
    Multiplies(u32),
    ResultWidth(u32),
    Ops(Vec<Op>),
    Value(u128),
}

/// A word that is a non-negative integer, its sentence's punctuation dropped.
fn number(word: &str) -> Option<u128> {
    parse_integer(word.trim_end_matches(['.', ',', ';'])).and_then(|n| u128::try_from(n).ok())
}

/// The facts of a comment's text.
pub fn facts(comment: &str) -> Vec<Fact> {
    let text = comment.trim().trim_start_matches("//").trim();
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let mut out = Vec::new();
    if words.iter().any(|w| w.trim_end_matches('.') == "signed") {
        out.push(Fact::Signed(true));
    } else if words.iter().any(|w| w.trim_end_matches('.') == "unsigned") {
        out.push(Fact::Signed(false));
    }
    if words.contains(&"low") {
        out.push(Fact::Half("lo"));
    } else if words.contains(&"high") {
        out.push(Fact::Half("hi"));
    }
    // `16*16` and `24x24-bit`.
    for w in &words {
        let w = w.trim_end_matches("-bit").trim_end_matches("-bits");
        if let Some((a, b)) = w.split_once('*').or_else(|| w.split_once('x')) {
            if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                if a == b {
                    out.push(Fact::Multiplies(a));
                }
            }
        }
    }
    // `yields 32 bits`, `64 bit result`, `low 16 bits`, `low 32-bits`.
    for (i, w) in words.iter().enumerate() {
        let lead = i.checked_sub(1).map(|p| words[p]);
        let bits =
            w.strip_suffix("-bits").or_else(|| (words.get(i + 1).is_some_and(|n| n.starts_with("bit"))).then_some(*w));
        let Some(n) = bits.and_then(|b| b.parse::<u32>().ok()) else { continue };
        let result_after = words.get(i + 2).is_some_and(|n| n.starts_with("result"));
        if matches!(lead, Some("yields" | "low" | "high")) || result_after {
            out.push(Fact::ResultWidth(n));
        }
    }
    let mut ops = Vec::new();
    let mut name = |op: Op| {
        if !ops.contains(&op) {
            ops.push(op);
        }
    };
    if out.iter().any(|f| matches!(f, Fact::Multiplies(_)))
        || words.iter().any(|w| w.starts_with("multipl") || w.starts_with("product"))
    {
        name(Op::Multiply);
    }
    if words.iter().any(|w| matches!(w.trim_end_matches('.'), "sum" | "add" | "adds" | "plus" | "addition")) {
        name(Op::Add);
    }
    if lower.contains('%') || words.iter().any(|w| w.starts_with("remainder") || *w == "modulo") {
        name(Op::Remainder);
    }
    if !ops.is_empty() {
        out.push(Fact::Ops(ops));
    }
    // `d = 3`, `Result is 0.`, `a bitmask of 0x00000006.`
    for (i, w) in words.iter().enumerate() {
        let after = match *w {
            "=" if i == 1 && words[0] == "d" => words.get(i + 1),
            "is" if i == 1 && words[0] == "result" => words.get(i + 1),
            "of" if i > 0 && words[i - 1] == "bitmask" => words.get(i + 1),
            _ => None,
        };
        if let Some(v) = after.and_then(|a| number(a)) {
            if words.len() <= i + 2 {
                out.push(Fact::Value(v));
            }
        }
    }
    out
}

/// Why a fact does not hold for an example, if it does not.
fn refuted(fact: &Fact, v: &Variant, operands: &[OperandText]) -> Option<String> {
    let mnemonic = v.mnemonic();
    let quals: Vec<&str> = mnemonic.split('.').collect();
    let opcode = v.opcode();
    let width = |name: &str| v.operands().into_iter().find(|o| o.name == name).map(|o| o.ty.width());
    match fact {
        Fact::Signed(s) => {
            let t = quals.iter().rev().find(|q| q.starts_with('s') || q.starts_with('u'))?;
            let signed = t.starts_with('s') && t[1..].chars().all(|c| c.is_ascii_digit() || c == 'x');
            (signed != *s)
                .then(|| format!("it says {}, the type `.{t}` is not", if *s { "signed" } else { "unsigned" }))
        }
        Fact::Half(h) => {
            let mode = quals.iter().find(|q| matches!(**q, "lo" | "hi" | "wide"))?;
            (mode != h).then(|| {
                format!("it says the {} half, the instruction is `.{mode}`", if *h == "lo" { "low" } else { "high" })
            })
        }
        Fact::Multiplies(n) => {
            let at = MULTIPLIES_AT.iter().find(|(o, _)| *o == opcode).map(|(_, w)| *w).or_else(|| width("a"))?;
            (at != *n).then(|| format!("it multiplies {n}-bit values, the instruction {at}-bit ones"))
        }
        Fact::ResultWidth(n) => {
            let d = width("d")?;
            (d != *n).then(|| format!("it gives {n} bits, the destination has {d}"))
        }
        Fact::Ops(named) => {
            let (_, does) = OPERATIONS.iter().find(|(o, _)| *o == opcode)?;
            if let Some(extra) = named.iter().find(|n| !does.contains(n)) {
                return Some(format!("it names a {}, which `{opcode}` does not do", extra.word()));
            }
            let left = does.iter().filter(|d| !named.contains(d)).map(|d| d.word()).collect::<Vec<_>>();
            (named.contains(&does[0]) && !left.is_empty())
                .then(|| format!("it names the {} and leaves out the {}", does[0].word(), left.join(" and the ")))
        }
        Fact::Value(n) => {
            let ins: Vec<BitVec> = v
                .inputs()
                .iter()
                .map(|o| {
                    let k = v.operands().iter().position(|x| x.name == o.name)?;
                    match &operands[k] {
                        OperandText::Imm(b) => Some(*b),
                        _ => None,
                    }
                })
                .collect::<Option<_>>()?;
            let out = v.semantics_in(Model::Spec, &Concrete, &ins);
            let first = out.first().filter(|o| o.defined)?;
            (first.value.unsigned() != *n).then(|| format!("it gives {n:#x}, the model {}", first.value.hex()))
        }
    }
}

/// One example comment the pass read: where, and its facts.
#[derive(Clone, Debug)]
pub struct Read {
    pub section: String,
    pub line: usize,
    pub facts: usize,
}

/// Every same-line Examples comment with facts: the ones read, and a
/// finding for each that does not hold.
pub fn check(doc: &Document) -> (Vec<Read>, Vec<Finding>) {
    let mut read = Vec::new();
    let mut out: Vec<Finding> = Vec::new();
    for s in &doc.sections {
        let Some(b) = s.block(BlockKind::Examples) else { continue };
        let mut open = false;
        for l in b.code() {
            let parts = split_comment(&l.text, &mut open);
            let code: String = parts.iter().filter(|(c, _)| !c).map(|(_, t)| t.as_str()).collect();
            let comment: String = parts.iter().filter(|(c, _)| *c).map(|(_, t)| t.as_str()).collect();
            let body = crate::ptx::parse::without_guard(&code);
            if body.is_empty() || comment.trim().is_empty() {
                continue;
            }
            let found = facts(&comment);
            let Ok(instr) = parse_instruction(body.trim_end_matches(';')) else { continue };
            if found.is_empty() {
                continue;
            }
            read.push(Read { section: s.number.clone(), line: l.number, facts: found.len() });
            let why: Vec<String> = found.iter().filter_map(|f| refuted(f, &instr.variant, &instr.operands)).collect();
            let id = format!("text-example-comment-{}-{}", s.number, instr.variant.mnemonic());
            if why.is_empty() || out.iter().any(|f| f.id == id) {
                continue;
            }
            let comment = super::units::collapse(comment.trim());
            out.push(Finding::of_text(
                id,
                s.number.clone(),
                FindingKind::ClaimRefuted,
                comment.trim_start_matches("//").trim().to_string(),
                format!(
                    "the comment on `{}` does not say what it computes: {}",
                    body.trim_end_matches(';'),
                    why.join("; ")
                ),
                vec![format!("{}:{}: `{}` {comment}", s.file, l.number, body)],
            ));
        }
    }
    (read, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(example: &str, comment: &str) -> Vec<String> {
        let instr = parse_instruction(example).unwrap();
        facts(comment).iter().filter_map(|f| refuted(f, &instr.variant, &instr.operands)).collect()
    }

    #[test]
    fn facts_are_read_from_the_comments_words() {
        assert_eq!(
            facts("// 16*16 bits, save only the low 16 bits"),
            [Fact::Half("lo"), Fact::Multiplies(16), Fact::ResultWidth(16), Fact::Ops(vec![Op::Multiply])]
        );
        assert_eq!(
            facts("// low 32-bits of 24x24-bit signed multiply."),
            [
                Fact::Signed(true),
                Fact::Half("lo"),
                Fact::Multiplies(24),
                Fact::ResultWidth(32),
                Fact::Ops(vec![Op::Multiply])
            ]
        );
        assert_eq!(facts("// 32*32 bits, creates 64 bit result")[1], Fact::ResultWidth(64));
        assert_eq!(facts("// Creates a bitmask of 0x00000006."), [Fact::Value(6)]);
        assert_eq!(facts("// d = 3"), [Fact::Value(3)]);
        assert_eq!(facts("// cnt is .u32"), []);
    }

    #[test]
    fn a_comment_that_holds_gives_nothing() {
        assert!(judged("mul.wide.s16 fa,fxs,fys", "// 16*16 bits yields 32 bits").is_empty());
        assert!(judged("mul24.lo.s32 d,a,b", "// low 32-bits of 24x24-bit signed multiply.").is_empty());
        assert!(judged("fns.b32 d, 0xaaaaaaaa, 3, 1", "// d = 3").is_empty());
        assert!(judged("bmsk.wrap.b32 rd, 1, 2", "// Creates a bitmask of 0x00000006.").is_empty());
    }

    #[test]
    fn each_kind_of_wrong_comment_is_caught() {
        // An operation left out, the wrong half, signed for unsigned, the
        // wrong widths and the wrong value.
        assert_eq!(
            judged("mad24.lo.s32 d,a,b,c", "// low 32-bits of 24x24-bit signed multiply."),
            ["it names the multiply and leaves out the add"]
        );
        assert_eq!(
            judged("mul.hi.u32 d,a,b", "// low 32 bits of a signed multiply"),
            ["it says signed, the type `.u32` is not", "it says the low half, the instruction is `.hi`"]
        );
        assert_eq!(
            judged("mul.wide.s16 d,a,b", "// 32*32 bits yields 32 bits"),
            ["it multiplies 32-bit values, the instruction 16-bit ones"]
        );
        assert_eq!(
            judged("bmsk.wrap.b32 rd, 1, 2", "// Creates a bitmask of 0x00000007."),
            ["it gives 0x7, the model 0x00000006"]
        );
    }
}
