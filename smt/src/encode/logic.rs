//! Section 9.7.8.1-6: the Semantics of and, or, xor, not, cnot and lop3.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::logic::{BoolOp, Logic};
use ptx_spec::catalogue::{defined, Inputs, Outputs};

pub fn encode<A: Algebra>(v: &Logic, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    match v {
        // 9.7.8.1-4: d = a & b; d = a | b; d = a ^ b; d = ~a.
        Logic::And(_) => vec![defined(sym, sym.bvand(ins.get("a"), ins.get("b")))],
        Logic::Or(_) => vec![defined(sym, sym.bvor(ins.get("a"), ins.get("b")))],
        Logic::Xor(_) => vec![defined(sym, sym.bvxor(ins.get("a"), ins.get("b")))],
        Logic::Not(_) => vec![defined(sym, sym.bvnot(ins.get("a")))],
        // 9.7.8.5: d = (a == 0) ? 1 : 0.
        Logic::Cnot(_) => {
            let a = ins.get("a");
            let is_zero = sym.eq(a, sym.constant_like(a, 0));
            vec![defined(sym, sym.ite(is_zero, sym.constant_like(a, 1), sym.constant_like(a, 0)))]
        }
        Logic::Lop3(bool_op) => {
            let d = lop3_table_lookup(sym, ins.get("a"), ins.get("b"), ins.get("c"), ins.get("immLut"));
            let mut outs = vec![defined(sym, d)];
            // 9.7.8.6: p = (d != 0) BoolOp q.
            if let Some(op) = bool_op {
                let d_nonzero = sym.not(sym.eq(d, sym.constant(32, 0)));
                let q = sym.eq(ins.get("q"), sym.constant(1, 1));
                let p = match op {
                    BoolOp::Or => sym.or(d_nonzero, q),
                    BoolOp::And => sym.and(d_nonzero, q),
                };
                outs.push(defined(sym, sym.ite(p, sym.constant(1, 1), sym.constant(1, 0))));
            }
            outs
        }
    }
}

/// 9.7.8.6: F = GetFunctionFromTable(immLut); d = F(a, b, c). The table's
/// row for inputs (ta, tb, tc) is immLut's bit 4*ta + 2*tb + tc (row 111
/// holds bit 7: `0xF0 & 0xCC & 0xAA = 0x80`). F applies to each bit position
/// independently, so each result bit is a look-up of that row.
fn lop3_table_lookup<A: Algebra>(sym: &A, a: A::Bv, b: A::Bv, c: A::Bv, imm_lut: A::Bv) -> A::Bv {
    let mut d: Option<A::Bv> = None;
    for i in 0..32 {
        let row = sym.concat(sym.concat(sym.bit(a, i), sym.bit(b, i)), sym.bit(c, i));
        let entry = sym.extract(0, 0, sym.bvlshr(imm_lut, sym.zero_extend(5, row)));
        d = Some(match d {
            None => entry,
            Some(lower) => sym.concat(entry, lower),
        });
    }
    d.expect("32 bits")
}
