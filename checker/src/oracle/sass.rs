//! Reading constants back from `cuobjdump -sass`: for each global store,
//! the value it stores, where ptxas folded it to a constant.
//!
//! Only straight-line definitions are followed back from a store: `MOV`,
//! `IMAD.MOV.U32 d, RZ, RZ, x`, `HFMA2.MMA d, -RZ, RZ, hi, lo` (two
//! half-precision constants, how ptxas loads some 32-bit constants),
//! `CS2R d, SRZ`, `UMOV`, and the zero register `RZ`. Anything else (an
//! arithmetic instruction, a guarded definition, a call) means the value
//! is computed at run time: "not folded", with the opcode that computes it.

use std::collections::BTreeMap;

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    pub guard: Option<String>,
    pub opcode: String,
    pub operands: Vec<String>,
}

/// What a store writes: a constant, or the opcode that computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    Constant(u128),
    NotFolded(String),
}

/// One global store: its byte offset from the base, its width in bits and
/// what it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub offset: u64,
    pub bits: u32,
    pub value: Stored,
}

/// The instructions of each function of a `cuobjdump -sass` listing.
pub fn functions(listing: &str) -> BTreeMap<String, Vec<Instr>> {
    let mut out: BTreeMap<String, Vec<Instr>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in listing.lines() {
        let line = line.trim();
        if let Some(name) = line.strip_prefix("Function :").or_else(|| line.strip_prefix("Function:")) {
            current = Some(name.trim().to_string());
            out.entry(name.trim().to_string()).or_default();
            continue;
        }
        let (Some(name), Some(instr)) = (&current, parse_line(line)) else { continue };
        out.entry(name.clone()).or_default().push(instr);
    }
    out
}

/// `/*0010*/  @P1 IADD3 R11, R11, 0x1, RZ ;  /* 0x... */` as an instruction.
pub fn parse_line(line: &str) -> Option<Instr> {
    let rest = line.strip_prefix("/*")?;
    let (address, rest) = rest.split_once("*/")?;
    if !address.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let text = rest.split(";").next()?.trim();
    if text.is_empty() {
        return None;
    }
    let (guard, text) = match text.strip_prefix('@') {
        Some(g) => {
            let (g, t) = g.split_once(char::is_whitespace)?;
            (Some(g.to_string()), t.trim())
        }
        None => (None, text),
    };
    let (opcode, operands) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let operands = operands.split(',').map(|o| o.trim().to_string()).filter(|o| !o.is_empty()).collect();
    Some(Instr { guard, opcode: opcode.to_string(), operands })
}

/// Every global store of a function, with what it writes.
pub fn stores(instrs: &[Instr]) -> Vec<Store> {
    let mut out = Vec::new();
    for (i, ins) in instrs.iter().enumerate() {
        if !ins.opcode.starts_with("STG") || ins.operands.len() != 2 {
            continue;
        }
        let bits = store_bits(&ins.opcode);
        let offset = address_offset(&ins.operands[0]);
        let data = &ins.operands[1];
        let value = if ins.guard.is_some() {
            Stored::NotFolded(format!("@{} STG", ins.guard.as_deref().unwrap_or("")))
        } else if bits == 64 {
            match (value_of(instrs, i, data), value_of(instrs, i, &next_register(data))) {
                (Ok(lo), Ok(hi)) => Stored::Constant(lo | hi << 32),
                (Err(op), _) | (_, Err(op)) => Stored::NotFolded(op),
            }
        } else {
            match value_of(instrs, i, data) {
                Ok(v) => Stored::Constant(v & ptx_spec::bv::mask(bits)),
                Err(op) => Stored::NotFolded(op),
            }
        };
        out.push(Store { offset, bits, value });
    }
    out
}

/// The width a store's opcode names (`STG.E.U16`, `STG.E.64`); 32 by default.
fn store_bits(opcode: &str) -> u32 {
    let parts: Vec<&str> = opcode.split('.').collect();
    if parts.iter().any(|p| *p == "U8" || *p == "S8") {
        8
    } else if parts.iter().any(|p| *p == "U16" || *p == "S16") {
        16
    } else if parts.contains(&"64") {
        64
    } else if parts.contains(&"128") {
        128
    } else {
        32
    }
}

/// The immediate offset of `desc[UR4][R2.64+0x18]` (0 when none).
fn address_offset(address: &str) -> u64 {
    let inner = address.rsplit('[').next().unwrap_or("").trim_end_matches(']');
    match inner.split_once('+') {
        Some((_, off)) => parse_immediate(off.trim()).unwrap_or(0) as u64,
        None => 0,
    }
}

/// `R5` -> `R6`: the high half of a 64-bit pair.
fn next_register(reg: &str) -> String {
    match reg.strip_prefix('R').and_then(|n| n.parse::<u32>().ok()) {
        Some(n) => format!("R{}", n + 1),
        None => reg.to_string(),
    }
}

/// `0xc`, `-0x1`, `12` as the 32-bit pattern a register holds.
fn parse_immediate(text: &str) -> Option<u128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let magnitude = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<u64>().ok()?,
    };
    let value = if negative { magnitude.wrapping_neg() } else { magnitude };
    Some(u128::from(value as u32))
}

/// The half-precision bits of a constant as cuobjdump prints it
/// (`0`, `-0`, `1.430511474609375e-05`); only exact values are accepted.
fn half_bits(text: &str) -> Option<u128> {
    let value: f64 = text.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    let sign: u16 = if value.is_sign_negative() { 0x8000 } else { 0 };
    let magnitude = value.abs();
    // Every finite half is (m / 1024) * 2^(e - 15), or m * 2^-24 below 2^-14.
    for bits in 0u16..0x7c00 {
        if half_value(bits) == magnitude {
            return Some(u128::from(sign | bits));
        }
    }
    None
}

fn half_value(bits: u16) -> f64 {
    let exponent = i32::from(bits >> 10);
    let fraction = f64::from(bits & 0x3ff);
    if exponent == 0 {
        fraction * 2f64.powi(-24)
    } else {
        (1.0 + fraction / 1024.0) * 2f64.powi(exponent - 15)
    }
}

/// Whether `ins` writes `reg`: its destination (the first register operand
/// after any predicate destination), or the high half of a 64-bit one.
fn writes(ins: &Instr, reg: &str) -> bool {
    let dest = ins.operands.iter().find(|o| !(o.starts_with('P') || o.starts_with("!P")) || o.starts_with("PT"));
    let Some(dest) = dest else { return false };
    let dest = dest.trim_start_matches('-');
    if dest == reg {
        return true;
    }
    let pair = ins.opcode.contains(".64") || ins.opcode.contains("WIDE") || ins.opcode.starts_with("CS2R");
    pair && next_register(dest) == reg
}

/// The constant `reg` holds just before instruction `before`, or the opcode
/// that computes it.
fn value_of(instrs: &[Instr], before: usize, reg: &str) -> Result<u128, String> {
    if reg == "RZ" || reg == "URZ" {
        return Ok(0);
    }
    for i in (0..before).rev() {
        let ins = &instrs[i];
        if ["CALL", "BRA", "RET", "BSYNC", "WARPSYNC", "JMP"].iter().any(|c| ins.opcode.starts_with(c)) {
            return Err(ins.opcode.clone());
        }
        if ins.opcode.starts_with("ST") || !writes(ins, reg) {
            continue;
        }
        if ins.guard.is_some() {
            return Err(format!("@{} {}", ins.guard.as_deref().unwrap_or(""), ins.opcode));
        }
        let ops = &ins.operands;
        let source = match (ins.opcode.as_str(), ops.len()) {
            ("MOV" | "UMOV", 2) | ("MOV" | "UMOV", 3) => ops[1].as_str(),
            ("IMAD.MOV.U32", 4) if ops[1] == "RZ" && ops[2] == "RZ" => ops[3].as_str(),
            ("HFMA2.MMA" | "HFMA2", 5) if ops[1] == "-RZ" && ops[2] == "RZ" => {
                return match (half_bits(&ops[3]), half_bits(&ops[4])) {
                    (Some(hi), Some(lo)) => Ok(hi << 16 | lo),
                    _ => Err(ins.opcode.clone()),
                };
            }
            ("CS2R", 2) if ops[1] == "SRZ" => return Ok(0),
            _ => return Err(ins.opcode.clone()),
        };
        return match parse_immediate(source) {
            Some(v) => Ok(v),
            None if source.starts_with('R') || source.starts_with("UR") => value_of(instrs, i, source),
            None => Err(ins.opcode.clone()),
        };
    }
    Err("no definition".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece of real `cuobjdump -sass` output (ptxas 12.9, -O3, sm_90)
    /// of a kernel storing folded constants, and two that are not folded.
    const LISTING: &str = include_str!("../../tests/data/sass-fold.txt");

    #[test]
    fn folded_constants_are_read_back() {
        let fs = functions(LISTING);
        let f = &fs["fold"];
        let got: Vec<(u64, u32, Stored)> = stores(f).into_iter().map(|s| (s.offset, s.bits, s.value)).collect();
        let c = Stored::Constant;
        let expected = vec![
            (0x0, 32, c(0xc)),
            (0x8, 32, c(0xffffffff)),
            (0x18, 64, c(0xfffffffe00000001)),
            (0x30, 32, c(0x20)),
            (0x38, 32, c(0x3)),
            (0x20, 32, Stored::NotFolded("LOP3.LUT".into())),
            (0x10, 16, c(0x8000)),
            (0x28, 32, Stored::NotFolded("SEL".into())),
            (0x40, 32, Stored::NotFolded("@P2 IADD3".into())),
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn half_precision_constants_are_exact() {
        assert_eq!(half_bits("1.430511474609375e-05"), Some(0xf0));
        assert_eq!(half_bits("0"), Some(0));
        assert_eq!(half_bits("-0"), Some(0x8000));
        assert_eq!(half_bits("1"), Some(0x3c00));
        assert_eq!(half_bits("0.1"), None);
        assert_eq!(parse_immediate("-0x2"), Some(0xfffffffe));
    }
}
