//! The PTX instruction parser: one instruction, checked against the
//! catalogue (mnemonic, operand count, `d|p`, sink `_`, immediate ranges).

use thiserror::Error;

use ptx_spec::bv::BitVec;
use ptx_spec::catalogue::{Operand, OperandType, Role, Variant};

/// One operand as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperandText {
    /// A register name.
    Reg(String),
    /// The sink `_`.
    Sink,
    /// An integer (or predicate) constant, already sized to its operand.
    Imm(BitVec),
}

/// A parsed instruction: its variant and one operand text per catalogue
/// operand, in the same order as [`Variant::operands`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub variant: Variant,
    pub operands: Vec<OperandText>,
}

/// Why an instruction was rejected. Each message is one line and names the
/// offending token.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("empty instruction")]
    Empty,
    #[error("unknown opcode `{opcode}` (known: {})", known.join(", "))]
    UnknownOpcode { opcode: String, known: Vec<&'static str> },
    #[error("`{mnemonic}` is not a legal variant of {opcode} (legal: {})", legal.join(", "))]
    IllegalVariant { mnemonic: String, opcode: String, legal: Vec<String> },
    #[error("{mnemonic} takes {expected} operands ({syntax}), found {found}")]
    OperandCount { mnemonic: String, expected: usize, found: usize, syntax: String },
    #[error("operand {position} of {mnemonic} is empty")]
    EmptyOperand { mnemonic: String, position: usize },
    #[error("bad operand `{token}` for {operand}: {reason}")]
    BadOperand { token: String, operand: String, reason: String },
    #[error("immediate `{token}` out of range for {operand} ({range})")]
    OutOfRange { token: String, operand: String, range: String },
    #[error("unexpected `{token}`: {reason}")]
    Unexpected { token: String, reason: String },
}

/// The syntax line of a variant: `lop3.or.b32 d|p, a, b, c, immLut, q`.
pub fn syntax(variant: &Variant) -> String {
    format!("{} {}", variant.mnemonic(), operand_groups(variant).join(", "))
}

/// Operand names as written, `d|p` joined.
fn operand_groups(variant: &Variant) -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for o in variant.operands() {
        match groups.last_mut() {
            Some(last) if o.piped => {
                last.push('|');
                last.push_str(o.name);
            }
            _ => groups.push(o.name.to_string()),
        }
    }
    groups
}

/// Parse one instruction such as `shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1;`.
pub fn parse_instruction(text: &str) -> Result<Instruction, ParseError> {
    let text = text.trim();
    let text = text.strip_suffix(';').unwrap_or(text).trim_end();
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    if text.starts_with('@') {
        let token = text.split_whitespace().next().unwrap_or(text).to_string();
        return Err(ParseError::Unexpected {
            token,
            reason: "a guard predicate is not allowed here; give one unguarded instruction".into(),
        });
    }
    let (mnemonic, rest) = match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    };
    let written: Vec<&str> = if rest.is_empty() { Vec::new() } else { rest.split(',').map(str::trim).collect() };
    let variant = choose_form(lookup(mnemonic)?, &written);

    let groups = operand_groups(&variant);
    if written.len() != groups.len() {
        return Err(ParseError::OperandCount {
            mnemonic: mnemonic.to_string(),
            expected: groups.len(),
            found: written.len(),
            syntax: groups.join(", "),
        });
    }
    if let Some(position) = written.iter().position(|w| w.is_empty()) {
        return Err(ParseError::EmptyOperand { mnemonic: mnemonic.to_string(), position: position + 1 });
    }

    // Pair each catalogue operand with its text, splitting `d|p`.
    let mut operands = Vec::new();
    let mut written = written.into_iter();
    let catalogue = variant.operands();
    let mut i = 0;
    while i < catalogue.len() {
        let token = written.next().expect("count checked above");
        let op = &catalogue[i];
        let piped_next = catalogue.get(i + 1).is_some_and(|o| o.piped);
        if piped_next {
            let Some((first, second)) = token.split_once('|') else {
                return Err(ParseError::BadOperand {
                    token: token.to_string(),
                    operand: format!("{}|{}", op.name, catalogue[i + 1].name),
                    reason: "expected two destinations joined by `|`".into(),
                });
            };
            operands.push(parse_operand(first.trim(), op)?);
            operands.push(parse_operand(second.trim(), &catalogue[i + 1])?);
            i += 2;
        } else {
            if token.contains('|') {
                return Err(ParseError::BadOperand {
                    token: token.to_string(),
                    operand: op.name.to_string(),
                    reason: "`|` is only allowed in a `d|p` destination".into(),
                });
            }
            operands.push(parse_operand(token, op)?);
            i += 1;
        }
    }
    Ok(Instruction { variant, operands })
}

/// Of the variants sharing a mnemonic, the one whose `d|p` destinations
/// match how the operands are written (the first, if none matches).
fn choose_form(forms: Vec<Variant>, written: &[&str]) -> Variant {
    let piped = |v: &Variant| operand_groups(v).iter().map(|g| g.contains('|')).collect::<Vec<_>>();
    let as_written: Vec<bool> = written.iter().map(|w| w.contains('|')).collect();
    forms.iter().copied().find(|v| piped(v) == as_written).unwrap_or(forms[0])
}

/// The variants written `mnemonic` (one, or the forms of shfl), or why there
/// is none.
pub fn lookup(mnemonic: &str) -> Result<Vec<Variant>, ParseError> {
    let forms = Variant::with_mnemonic(mnemonic);
    if !forms.is_empty() {
        return Ok(forms);
    }
    let opcode = mnemonic.split('.').next().unwrap_or(mnemonic);
    let mut legal: Vec<String> =
        Variant::all().into_iter().filter(|v| v.opcode() == opcode).map(|v| v.mnemonic()).collect();
    legal.dedup();
    if legal.is_empty() {
        Err(ParseError::UnknownOpcode { opcode: opcode.to_string(), known: Variant::opcodes() })
    } else {
        Err(ParseError::IllegalVariant { mnemonic: mnemonic.to_string(), opcode: opcode.to_string(), legal })
    }
}

fn is_identifier(token: &str) -> bool {
    let mut chars = token.chars();
    let first_ok = match chars.next() {
        Some(c) => c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '%'),
        None => false,
    };
    first_ok && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$'))
}

/// `token` as an immediate value of operand `op`, checked against its range.
pub fn immediate(token: &str, op: &Operand) -> Result<BitVec, ParseError> {
    let src = Operand { role: Role::Src, sink: false, ..*op };
    match parse_operand(token, &src)? {
        OperandText::Imm(v) => Ok(v),
        _ => Err(ParseError::BadOperand {
            token: token.to_string(),
            operand: op.name.to_string(),
            reason: "not an integer constant (decimal, 0x hex, 0b binary, 0 octal)".into(),
        }),
    }
}

fn parse_operand(token: &str, op: &Operand) -> Result<OperandText, ParseError> {
    let bad = |reason: &str| ParseError::BadOperand {
        token: token.to_string(),
        operand: op.name.to_string(),
        reason: reason.to_string(),
    };
    if token == "_" {
        return if op.sink { Ok(OperandText::Sink) } else { Err(bad("the sink `_` is not allowed here")) };
    }
    if op.role == Role::Dest {
        return if is_identifier(token) {
            Ok(OperandText::Reg(token.to_string()))
        } else {
            Err(bad("a destination must be a register name"))
        };
    }
    let starts_like_number = token.starts_with(|c: char| c.is_ascii_digit() || c == '-');
    if op.ty == OperandType::Pred && matches!(token, "true" | "false") {
        return Ok(OperandText::Imm(BitVec::new(1, u128::from(token == "true"))));
    }
    if !starts_like_number {
        return if is_identifier(token) && op.role == Role::Src {
            Ok(OperandText::Reg(token.to_string()))
        } else if op.role == Role::Imm {
            Err(bad("must be an integer constant"))
        } else {
            Err(bad("neither a register name nor an integer constant"))
        };
    }
    let value =
        parse_integer(token).ok_or_else(|| bad("not an integer constant (decimal, 0x hex, 0b binary, 0 octal)"))?;
    let (width, signed_ok) = match (op.role, op.ty) {
        (_, OperandType::Pred) => (1, false),
        // immLut is a table index set, not a signed number (9.7.8.6: 0 to 255).
        (Role::Imm, ty) => (ty.width(), false),
        (_, ty) => (ty.width(), true),
    };
    let max = ptx_spec::bv::mask(width);
    let min_negative: i128 = if signed_ok { -(1i128 << (width - 1)) } else { 0 };
    let fits = match value {
        v if v >= 0 => (v as u128) <= max,
        v => v >= min_negative,
    };
    if !fits {
        let range = match op.ty {
            OperandType::Pred => "predicate: 0, 1, true or false".to_string(),
            _ if !signed_ok => format!("{} must be 0..={max}", op.name),
            _ => format!("{}: 0..={:#x} or {}..=-1", op.ty, max, min_negative),
        };
        return Err(ParseError::OutOfRange { token: token.to_string(), operand: op.name.to_string(), range });
    }
    Ok(OperandText::Imm(BitVec::new(width, value as u128)))
}

/// A PTX integer literal: decimal, `0x` hex, `0b` binary, `0` octal, an
/// optional leading `-` and an optional `U` suffix. `None` if malformed or
/// beyond 128 bits.
pub fn parse_integer(token: &str) -> Option<i128> {
    let (negative, body) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let body = body.strip_suffix('U').unwrap_or(body);
    let (digits, radix) = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (b, 2)
    } else if body.len() > 1 && body.starts_with('0') {
        (&body[1..], 8)
    } else {
        (body, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u128::from_str_radix(digits, radix).ok()?;
    let magnitude = i128::try_from(magnitude).ok()?;
    Some(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imm(w: u32, v: u128) -> OperandText {
        OperandText::Imm(BitVec::new(w, v))
    }

    #[test]
    fn parses_the_eval_example() {
        let i = parse_instruction("shf.l.wrap.b32 d, 0x80000001, 0x80000001, 1").unwrap();
        assert_eq!(i.variant.to_string(), "shf.l.wrap.b32");
        assert_eq!(
            i.operands,
            vec![OperandText::Reg("d".into()), imm(32, 0x8000_0001), imm(32, 0x8000_0001), imm(32, 1)]
        );
    }

    #[test]
    fn parses_pipe_sink_and_predicates() {
        let i = parse_instruction("lop3.and.b32 _|p, 1, 2, 3, 0x3f, true;").unwrap();
        assert_eq!(i.operands[0], OperandText::Sink);
        assert_eq!(i.operands[1], OperandText::Reg("p".into()));
        assert_eq!(i.operands[5], imm(8, 0x3f));
        assert_eq!(i.operands[6], imm(1, 1));
        let i = parse_instruction("and.pred p, 1, false").unwrap();
        assert_eq!(i.operands[2], imm(1, 0));
    }

    #[test]
    fn literals() {
        assert_eq!(parse_integer("42"), Some(42));
        assert_eq!(parse_integer("-1"), Some(-1));
        assert_eq!(parse_integer("0x1F"), Some(31));
        assert_eq!(parse_integer("0b101"), Some(5));
        assert_eq!(parse_integer("017"), Some(15));
        assert_eq!(parse_integer("0"), Some(0));
        assert_eq!(parse_integer("10U"), Some(10));
        assert_eq!(parse_integer("08"), None);
        assert_eq!(parse_integer("0x"), None);
        assert_eq!(parse_integer("--1"), None);
        // negative immediates are two's complement of the operand width
        let i = parse_instruction("shl.b16 d, -1, 1").unwrap();
        assert_eq!(i.operands[1], imm(16, 0xffff));
    }

    #[test]
    fn errors_name_the_offending_token() {
        let msg = |t: &str| parse_instruction(t).unwrap_err().to_string();
        assert!(msg("foo.b32 d, 1, 2").starts_with("unknown opcode `foo`"));
        assert!(msg("shf.l.b32 d, 1, 2, 3").starts_with("`shf.l.b32` is not a legal variant of shf"));
        assert!(msg("cnot.pred p, 1").contains("cnot.b16"));
        assert_eq!(msg("and.b32 d, 1"), "and.b32 takes 3 operands (d, a, b), found 2");
        assert_eq!(msg("lop3.b32 d, 1, 2, 3, 256"), "immediate `256` out of range for immLut (immLut must be 0..=255)");
        assert_eq!(
            msg("and.b16 d, 0x10000, 1"),
            "immediate `0x10000` out of range for a (16-bit: 0..=0xffff or -32768..=-1)"
        );
        assert!(msg("and.b32 _, 1, 2").contains("sink `_` is not allowed"));
        assert!(msg("lop3.or.b32 d, 1, 2, 3, 4, 1").contains("joined by `|`"));
        assert!(msg("and.pred p, 2, 1").contains("predicate: 0, 1, true or false"));
        assert!(msg("and.b32 d, 1,").contains("operand 3 of and.b32 is empty"));
        assert!(msg("and.b32 d, 1z, 2").starts_with("bad operand `1z` for a"));
        assert!(msg("lop3.b32 d, 1, 2, 3, x").contains("must be an integer constant"));
        assert_eq!(msg("  "), "empty instruction");
    }

    #[test]
    fn every_variant_parses_with_its_own_syntax_names_as_registers() {
        for v in Variant::all() {
            let line = syntax(&v).replace("immLut", "0x80");
            let i = parse_instruction(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(i.variant, v);
        }
    }
}
