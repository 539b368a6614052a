//! Section 9.7.9.7: the Semantics of prmt, with `ReadByte` (never defined)
//! read from the Description: the generic form's selector bits, and each
//! mode's table of source bytes, kept here as the table it is.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::prmt::{Mode, Prmt};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

/// The Description's second table: for each mode, the row for c[1:0] = 0..3,
/// each row the source byte of d.b3, d.b2, d.b1, d.b0 as the table writes them.
fn table(mode: Mode) -> [[u32; 4]; 4] {
    match mode {
        Mode::F4e => [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
        Mode::B4e => [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
        Mode::Rc8 => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        Mode::Ecl => [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
        Mode::Ecr => [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
        Mode::Rc16 => [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
    }
}

pub fn encode<A: Algebra>(v: &Prmt, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    // tmp64 = (b<<32) | a, with b taken as 64 bits (assumption prmt-source-pair).
    let (a, b) = (sym.zero_extend(32, ins.get("a")), sym.zero_extend(32, ins.get("b")));
    let tmp64 = sym.bvor(sym.bvshl(b, sym.constant(64, 32)), a);
    vec![defined(sym, permute(sym, v.mode, tmp64, ins.get("c"), read_byte))]
}

/// The block from `ctl` on, for a given tmp64 and ReadByte: the audit's
/// readings of the block vary those two.
pub fn permute<A: Algebra>(
    sym: &A,
    mode: Option<Mode>,
    tmp64: A::Bv,
    c: A::Bv,
    read: impl Fn(&A, Option<Mode>, A::Bv, u32, A::Bv) -> A::Bv,
) -> A::Bv {
    // ctl[i]: c's nibble i in the generic form, else c & 3 at every position.
    let ctl = |i: u32| match mode {
        None => sym.bvand(sym.bvlshr(c, sym.constant(32, 4 * i as u128)), sym.constant(32, 0xf)),
        Some(_) => sym.bvand(c, sym.constant(32, 0x3)),
    };
    // tmp[8i+7:8i] = ReadByte(mode, ctl[i], tmp64); d is tmp (prmt-byte-select).
    let bytes: Vec<A::Bv> = (0..4).map(|i| read(sym, mode, ctl(i), i, tmp64)).collect();
    sym.concat(sym.concat(bytes[3], bytes[2]), sym.concat(bytes[1], bytes[0]))
}

/// ReadByte for target byte `position`: the source byte number the
/// Description gives, then that byte of tmp64 (numbered b0..b7 from the low
/// end). `ctl` is 32 bits. The literal C reading of the audit reads the
/// helper this way too, on the tmp64 its C computes.
pub fn read_byte<A: Algebra>(sym: &A, mode: Option<Mode>, ctl: A::Bv, position: u32, tmp64: A::Bv) -> A::Bv {
    let source = |k: u32| sym.extract(8 * k + 7, 8 * k, tmp64);
    let ctl_is = |value: u32| sym.eq(ctl, sym.constant(32, value as u128));
    match mode {
        None => {
            // The 3 lsbs pick the byte; msb = 1 replicates its sign.
            let lsbs = sym.extract(2, 0, ctl);
            let mut byte = source(0);
            for k in 1..8 {
                byte = sym.ite(sym.eq(lsbs, sym.constant(3, k as u128)), source(k), byte);
            }
            let msb = sym.is_set(sym.extract(3, 3, ctl));
            let sign = sym.extract(7, 7, byte);
            let replicated = sym.ite(sym.is_set(sign), sym.constant(8, 0xff), sym.constant(8, 0));
            sym.ite(msb, replicated, byte)
        }
        Some(mode) => {
            // The table's column for this position: d.b3 is column 0.
            let column = 3 - position as usize;
            let rows = table(mode);
            let mut byte = source(rows[0][column]);
            for (selector, row) in rows.iter().enumerate().skip(1) {
                byte = sym.ite(ctl_is(selector as u32), source(row[column]), byte);
            }
            byte
        }
    }
}
