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
/// offending token; the fields hold the tokens as written, and the messages
/// show them through [`shown`], so that no input reaches the terminal raw.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("empty instruction")]
    Empty,
    #[error("unknown opcode `{}` (known: {})", shown(opcode), known.join(", "))]
    UnknownOpcode { opcode: String, known: Vec<&'static str> },
    #[error("`{}`: no opcode before the first `.`", shown(mnemonic))]
    MissingOpcode { mnemonic: String },
    #[error("`{}` is not a legal variant of {} (legal: {})", shown(mnemonic), shown(opcode), legal.join(", "))]
    IllegalVariant { mnemonic: String, opcode: String, legal: Vec<String> },
    #[error("{} takes {expected} operands ({syntax}), found {found}", shown(mnemonic))]
    OperandCount { mnemonic: String, expected: usize, found: usize, syntax: String },
    #[error("operand {position} of {} is empty", shown(mnemonic))]
    EmptyOperand { mnemonic: String, position: usize },
    #[error("operand {operand} is missing in `{}`", shown(token))]
    MissingOperand { token: String, operand: String },
    #[error("no value for {operand}")]
    NoValue { operand: String },
    #[error("bad operand `{}` for {operand}: {reason}", shown(token))]
    BadOperand { token: String, operand: String, reason: String },
    #[error("immediate `{}` out of range for {operand} ({range})", shown(token))]
    OutOfRange { token: String, operand: String, range: String },
    #[error("unexpected `{}`: {reason}", shown(token))]
    Unexpected { token: String, reason: String },
}

impl ParseError {
    /// The token the error is about, as written, where there is one.
    pub fn token(&self) -> Option<&str> {
        match self {
            ParseError::UnknownOpcode { opcode: t, .. }
            | ParseError::MissingOpcode { mnemonic: t }
            | ParseError::IllegalVariant { mnemonic: t, .. }
            | ParseError::OperandCount { mnemonic: t, .. }
            | ParseError::EmptyOperand { mnemonic: t, .. }
            | ParseError::MissingOperand { token: t, .. }
            | ParseError::BadOperand { token: t, .. }
            | ParseError::OutOfRange { token: t, .. }
            | ParseError::Unexpected { token: t, .. } => Some(t),
            ParseError::Empty | ParseError::NoValue { .. } => None,
        }
    }
}

/// The longest token an error message shows, in characters; longer ones
/// are cut, with an ellipsis. A message stays one readable line however
/// long the input is.
pub const SHOWN_CHARS: usize = 60;

/// User text as an error message shows it: control characters (a newline,
/// an ANSI escape), backslashes and invisible characters escaped as Rust
/// writes them (`\n`, `\u{1b}`), so that the message stays one line and
/// nothing in it acts on the terminal; then cut to [`SHOWN_CHARS`].
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        let piece = escape(c);
        let n = piece.chars().count();
        if count + n > SHOWN_CHARS {
            out.push('…');
            break;
        }
        out.push_str(&piece);
        count += n;
    }
    out
}

/// User text escaped as [`shown`] does, but not cut: for file names.
pub fn escaped(text: &str) -> String {
    text.chars().map(escape).collect()
}

fn escape(c: char) -> String {
    // Quotes are harmless here; escape_debug would put a backslash before them.
    if matches!(c, '\'' | '"') {
        c.to_string()
    } else {
        c.escape_debug().collect()
    }
}

/// The syntax line of a variant: `lop3.or.b32 d|p, a, b, c, immLut, q`.
pub fn syntax(variant: &Variant) -> String {
    format!("{} {}", variant.mnemonic(), operand_groups(variant).join(", "))
}

/// Operand names as written, `d|p` joined, `!c` negated.
fn operand_groups(variant: &Variant) -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for o in variant.operands() {
        match groups.last_mut() {
            Some(last) if o.piped => {
                last.push('|');
                last.push_str(o.name);
            }
            _ => groups.push(format!("{}{}", if o.negated { "!" } else { "" }, o.name)),
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
            for (half, op) in [(first.trim(), op), (second.trim(), &catalogue[i + 1])] {
                if half.is_empty() {
                    return Err(ParseError::MissingOperand { token: token.to_string(), operand: op.name.to_string() });
                }
                operands.push(parse_operand(half, op)?);
            }
            i += 2;
        } else {
            if token.contains('|') {
                return Err(ParseError::BadOperand {
                    token: token.to_string(),
                    operand: op.name.to_string(),
                    reason: "`|` is only allowed in a `d|p` destination".into(),
                });
            }
            let token = if op.negated {
                token.strip_prefix('!').map(str::trim_start).ok_or_else(|| ParseError::BadOperand {
                    token: token.to_string(),
                    operand: op.name.to_string(),
                    reason: "expected `!` before the predicate".into(),
                })?
            } else if token.starts_with('!') {
                return Err(ParseError::BadOperand {
                    token: token.to_string(),
                    operand: op.name.to_string(),
                    reason: "`!` is only allowed before the predicate `c` of set and setp with a Boolean operator"
                        .into(),
                });
            } else {
                token
            };
            operands.push(parse_operand(token, op)?);
            i += 1;
        }
    }
    Ok(Instruction { variant, operands })
}

/// Of the variants sharing a mnemonic, the one whose `d|p` destinations
/// and `!c` match how the operands are written (the first, if none matches).
fn choose_form(forms: Vec<Variant>, written: &[&str]) -> Variant {
    let shape = |g: &str| (g.contains('|'), g.starts_with('!'));
    let form = |v: &Variant| operand_groups(v).iter().map(|g| shape(g)).collect::<Vec<_>>();
    let as_written: Vec<(bool, bool)> = written.iter().map(|w| shape(w)).collect();
    forms.iter().copied().find(|v| form(v) == as_written).unwrap_or(forms[0])
}

/// The variants written `mnemonic` (one, or the forms of shfl), or why there
/// is none.
pub fn lookup(mnemonic: &str) -> Result<Vec<Variant>, ParseError> {
    let forms = Variant::with_mnemonic(mnemonic);
    if !forms.is_empty() {
        return Ok(forms);
    }
    let opcode = mnemonic.split('.').next().unwrap_or(mnemonic);
    if opcode.is_empty() {
        return Err(ParseError::MissingOpcode { mnemonic: mnemonic.to_string() });
    }
    let mut legal: Vec<String> =
        Variant::all().into_iter().filter(|v| v.opcode() == opcode).map(|v| v.mnemonic()).collect();
    legal.dedup();
    if legal.is_empty() {
        Err(ParseError::UnknownOpcode { opcode: opcode.to_string(), known: Variant::opcodes() })
    } else {
        Err(ParseError::IllegalVariant { mnemonic: mnemonic.to_string(), opcode: opcode.to_string(), legal })
    }
}

/// The longest identifier accepted, in characters. PTX sets no limit;
/// this one keeps a declaration such as `.reg .b32 name<65536>` with a
/// very long name from expanding into gigabytes.
pub const MAX_IDENTIFIER: usize = 256;

/// Whether `token` is a PTX identifier: a letter followed by letters,
/// digits, `_` and `$`; or `_`, `$` or `%` followed by at least one of
/// those. No longer than [`MAX_IDENTIFIER`].
pub fn is_identifier(token: &str) -> bool {
    let follows = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$');
    let mut chars = token.chars();
    let rest_ok = match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => true,
        Some('_' | '$' | '%') => chars.clone().next().is_some(),
        _ => false,
    };
    rest_ok && chars.all(follows) && token.len() <= MAX_IDENTIFIER
}

/// Why `token` is not an identifier, for a message.
pub fn not_identifier_reason(token: &str) -> String {
    if token.len() > MAX_IDENTIFIER {
        format!("a register name is at most {MAX_IDENTIFIER} characters")
    } else {
        "a register name is a letter, or `_`, `$` or `%` and one more character, then letters, digits, `_` or `$`"
            .into()
    }
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
    if token.is_empty() {
        return Err(ParseError::NoValue { operand: op.name.to_string() });
    }
    if token == "_" {
        return if op.sink { Ok(OperandText::Sink) } else { Err(bad("the sink `_` is not allowed here")) };
    }
    if op.role == Role::Dest {
        return if is_identifier(token) {
            Ok(OperandText::Reg(token.to_string()))
        } else if token.len() > MAX_IDENTIFIER {
            Err(bad(&not_identifier_reason(token)))
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
        } else if token.len() > MAX_IDENTIFIER {
            Err(bad(&not_identifier_reason(token)))
        } else {
            Err(bad("neither a register name nor an integer constant"))
        };
    }
    let (width, signed_ok) = match (op.role, op.ty) {
        (_, OperandType::Pred) => (1, false),
        // immLut is a table index set, not a signed number (9.7.8.6: 0 to 255).
        (Role::Imm, ty) => (ty.width(), false),
        (_, ty) => (ty.width(), true),
    };
    let max = ptx_spec::bv::mask(width);
    let min_negative: i128 = if signed_ok { -(1i128 << (width - 1)) } else { 0 };
    let value = match integer(token) {
        Ok(v) => Some(v),
        Err(IntegerError::TooLarge) => None,
        Err(IntegerError::Malformed) => {
            return Err(bad("not an integer constant (decimal, 0x hex, 0b binary, 0 octal)"));
        }
    };
    let fits = match value {
        Some(v) if v >= 0 => (v as u128) <= max,
        Some(v) => v >= min_negative,
        None => false,
    };
    let Some(value) = value.filter(|_| fits) else {
        let range = match op.ty {
            OperandType::Pred => "predicate: 0, 1, true or false".to_string(),
            _ if !signed_ok => format!("{} must be 0..={max}", op.name),
            _ => format!("{}: 0..={:#x} or {}..=-1", op.ty, max, min_negative),
        };
        return Err(ParseError::OutOfRange { token: token.to_string(), operand: op.name.to_string(), range });
    };
    Ok(OperandText::Imm(BitVec::new(width, value as u128)))
}

/// Why a token is not an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegerError {
    /// Not an integer literal at all.
    Malformed,
    /// A well-formed literal whose magnitude needs more than 128 bits.
    TooLarge,
}

/// An instruction line without its guard (`@p`, `@!q`), trimmed: the text
/// after the guard's first white space, nothing where the guard stands
/// alone.
pub fn without_guard(line: &str) -> &str {
    let line = line.trim();
    match line.strip_prefix('@') {
        Some(rest) => rest.split_once(char::is_whitespace).map_or("", |(_, body)| body.trim()),
        None => line,
    }
}

/// A PTX integer literal: decimal, `0x` hex, `0b` binary, `0` octal, an
/// optional leading `-` and an optional `U` suffix. `None` if malformed or
/// beyond 128 bits.
pub fn parse_integer(token: &str) -> Option<i128> {
    integer(token).ok()
}

/// As [`parse_integer`], saying whether the literal is malformed or too
/// large (beyond the range of a signed 128-bit integer).
pub fn integer(token: &str) -> Result<i128, IntegerError> {
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
        return Err(IntegerError::Malformed);
    }
    // The digits are valid, so the only failure left is size.
    let magnitude = u128::from_str_radix(digits, radix).map_err(|_| IntegerError::TooLarge)?;
    let magnitude = i128::try_from(magnitude).map_err(|_| IntegerError::TooLarge)?;
    Ok(if negative { -magnitude } else { magnitude })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_guard_is_dropped_with_its_white_space() {
        assert_eq!(super::without_guard("  @q  selp.f32  f0,t,x,xp; "), "selp.f32  f0,t,x,xp;");
        assert_eq!(super::without_guard("@!p add.u32 x, y, z;"), "add.u32 x, y, z;");
        assert_eq!(super::without_guard("add.u32 x, y, z;"), "add.u32 x, y, z;");
        assert_eq!(super::without_guard("@p"), "");
    }

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
    fn errors_never_name_an_empty_token() {
        let msg = |t: &str| parse_instruction(t).unwrap_err().to_string();
        assert_eq!(msg(".b32 d, 1, 2"), "`.b32`: no opcode before the first `.`");
        assert_eq!(msg("lop3.or.b32 |p, 1, 2, 3, 4, 1"), "operand d is missing in `|p`");
        assert_eq!(msg("lop3.or.b32 d|, 1, 2, 3, 4, 1"), "operand p is missing in `d|`");
        let a = Operand::src("a", OperandType::Bits(32));
        assert_eq!(immediate("", &a).unwrap_err().to_string(), "no value for a");
    }

    #[test]
    fn identifiers_follow_ptx() {
        for good in ["a", "r1", "%r1", "_x", "$y", "%_", "a$b_c9"] {
            assert!(is_identifier(good), "{good}");
        }
        for bad in ["", "%", "_", "$", "1x", "%%r", "a%", "a-b", "a.b"] {
            assert!(!is_identifier(bad), "{bad}");
        }
        let msg = |t: &str| parse_instruction(t).unwrap_err().to_string();
        assert!(msg("add.s32 %, 1, 2").starts_with("bad operand `%` for d"));
        assert!(msg("add.s32 d, %, 2").starts_with("bad operand `%` for a"));
        assert!(msg(&format!("add.s32 {}, 1, 2", "r".repeat(300))).contains("at most 256 characters"));
    }

    #[test]
    fn over_128_bits_is_out_of_range() {
        let msg = |t: &str| parse_instruction(t).unwrap_err().to_string();
        assert_eq!(integer("0x1ffffffffffffffffffffffffffffffff"), Err(IntegerError::TooLarge));
        assert_eq!(integer("0xffffffffffffffffffffffffffffffff"), Err(IntegerError::TooLarge));
        assert_eq!(integer("1z"), Err(IntegerError::Malformed));
        assert!(msg("add.u32 d, 0x1ffffffffffffffffffffffffffffffff, 1").contains("out of range for a (32-bit"));
        assert!(msg("add.u32 d, -99999999999999999999999999999999999999999, 1").contains("out of range for a"));
    }

    #[test]
    fn shown_escapes_and_cuts() {
        assert_eq!(shown("plain `text`"), "plain `text`");
        assert_eq!(shown("a\nb\x1b[31m\u{feff}\\"), "a\\nb\\u{1b}[31m\\u{feff}\\\\");
        let long = shown(&"x".repeat(10_000));
        assert_eq!(long.chars().count(), SHOWN_CHARS + 1);
        assert!(long.ends_with('…'));
        assert_eq!(shown(&"é".repeat(60)), "é".repeat(60));
        let cut = shown(&"\u{7}".repeat(100));
        assert!(cut.chars().count() <= SHOWN_CHARS + 1 && cut.ends_with('…'), "{cut}");
        assert_eq!(escaped("/tmp/a\nb"), "/tmp/a\\nb");
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
