//! Section 9.7.2: the Semantics of add.cc, addc, sub.cc, subc, mad.cc and
//! madc, and the sentence under each block that says what goes to `CC.CF`.

use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::carry::{Arith, Carry, FLAG_NAME};
use ptx_spec::catalogue::mul_mad::MulMode;
use ptx_spec::catalogue::{defined, Inputs, Outputs};

pub fn encode<A: Algebra>(v: &Carry, sym: &A, ins: &Inputs<A::Bv>) -> Outputs<A> {
    let n = v.ty.width();
    // CC.CF as an n-bit addend; 0 where the instruction does not read it.
    let cf = if v.carry_in { sym.zero_extend(n - 1, ins.get(FLAG_NAME)) } else { sym.constant(n, 0) };
    let (a, b) = (ins.get("a"), ins.get("b"));
    let (d, flag) = match v.arith {
        // 9.7.2.1-2: d = a + b (+ CC.CF); the carry-out (assumption
        // carry-out-unsigned): the exact sum of the unsigned addends reaches 2^n.
        Arith::Add => (sym.bvadd(sym.bvadd(a, b), cf), carries(sym, &[a, b, cf])),
        // 9.7.2.3-4: d = a - (b + CC.CF); the borrow-out (assumption
        // borrow-out): a is below b + CC.CF, the sum taken exactly.
        Arith::Sub => {
            let exact = |x: A::Bv| sym.zero_extend(1, x);
            let borrow = sym.bvult(exact(a), sym.bvadd(exact(b), exact(cf)));
            (sym.bvsub(a, sym.bvadd(b, cf)), borrow)
        }
        // 9.7.2.5-6: t = a * b; d = t<hi or lo half> + c (+ CC.CF)
        // (assumption mad-cc-product-halves: the halves of the 2n-bit t).
        Arith::Mad(mode) => {
            let t = full_product(sym, v.ty.is_signed(), a, b);
            let half = match mode {
                MulMode::Hi => sym.extract(2 * n - 1, n, t),
                _ => sym.extract(n - 1, 0, t),
            };
            let c = ins.get("c");
            (sym.bvadd(sym.bvadd(half, c), cf), carries(sym, &[half, c, cf]))
        }
    };
    let mut outs = vec![defined(sym, d)];
    if v.carry_out {
        outs.push(defined(sym, sym.bool_to_bv(flag)));
    }
    outs
}

/// Whether the n-bit addends, read as unsigned and added exactly (two bits
/// wider: three addends cannot overflow), reach 2^n.
fn carries<A: Algebra>(sym: &A, addends: &[A::Bv]) -> A::Bool {
    let n = sym.width(addends[0]);
    let sum = addends.iter().fold(sym.constant(n + 2, 0), |s, &x| sym.bvadd(s, sym.zero_extend(2, x)));
    sym.bvuge(sum, sym.constant(n + 2, 1u128 << n))
}

/// t = a * b, all 2n bits, of the operands as signed or unsigned integers.
fn full_product<A: Algebra>(sym: &A, signed: bool, a: A::Bv, b: A::Bv) -> A::Bv {
    let n = sym.width(a);
    let widen = |x: A::Bv| if signed { sym.sign_extend(n, x) } else { sym.zero_extend(n, x) };
    sym.bvmul(widen(a), widen(b))
}
