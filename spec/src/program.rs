//! Straight-line programs over machine words, compiled from the algebra.
//!
//! The generic models (the concrete semantics and the SMT encoding) run once
//! on [`Tracer`], an algebra whose values are places in a program: each
//! operation appends one step. Identical steps are shared (both models read
//! the same operands, and an unrolled loop repeats its tests), steps on
//! constants are folded, and steps whose result is known from a constant
//! operand (`ite` on a constant, `and` with 0, an extract of the whole word)
//! are not emitted at all. What is left is a short program over machine
//! words that [`Program::run`] executes on [`BLOCK`] inputs at once, one
//! tight loop per step, with no per-value width or definedness bookkeeping:
//! the widths are fixed when the program is built. The lanes are 32-bit
//! words where no value is wider (twice as many per vector instruction),
//! `u64` otherwise.
//!
//! When the program is built, the steps of an unrolled loop are fused: a
//! step reads a one-bit operand in place, a select between a value and that
//! value updated by a constant (a loop's guarded counter or shift) is one
//! step (`fuse_bit`), and a run of alike turns (two such updates on one
//! test, a bit counted, gathered or searched for), each reading only the
//! turn before, is rolled up again and run with its values in registers
//! (`pair_updates`, `chain_pairs`, `chain_bits`). Every operation is
//! [`word::Op2::apply`](crate::word::Op2::apply) or a shift and mask, the
//! same functions as the lane algebra's, and a test holds programs to
//! [`Concrete`](crate::bv::Concrete) on every variant.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::bv::Algebra;
use crate::word::{mask, Lane, Op2, MAX_WORD_WIDTH};

/// Inputs executed together by [`Program::run`].
pub const BLOCK: usize = 512;

/// A step's index in the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reg(u32);

/// A value of the traced models: a step's result read at `width` bits (a
/// zero extension is the same step read wider). Booleans are 1-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    reg: Reg,
    width: u32,
}

/// One step. `width` in [`Node`] is the operands' width for [`Step::Bin`]
/// and the result's for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    /// Operand `k` of the variant.
    Input(u8),
    Const(u64),
    Bin(Op2, Reg, Reg),
    Not(Reg),
    Neg(Reg),
    /// Bits from `lo` up, cut to the width: an extract.
    Shr(u32, Reg),
    /// `hi` above `lo`, `lo` being this many bits wide.
    Concat(Reg, Reg, u32),
    /// Sign extension from this many bits.
    Sext(u32, Reg),
    /// Condition (0 or 1), then, else.
    Ite(Reg, Reg, Reg),
    // The steps below are made only when a program is built: each is a
    // step above whose one-bit operand, an extract of one bit, is read in
    // place (see `fuse_bit`).
    /// [`Step::Ite`] on bit `i` of a word.
    IteBit(Reg, u32, Reg, Reg),
    /// [`Step::IteBit`] whose then-branch is a constant: a loop that picks
    /// a constant at each turn reads it from the step, not a slot.
    IteBitConst(Reg, u32, u64, Reg),
    /// `a op k` where bit `i` of `x` is `set` (a Boolean is its bit 0),
    /// else `a`, for an `op` that leaves `a` as it is when its right
    /// operand is 0, and a constant `k` below the width: computed as
    /// `a op (k or 0)`, so the two branches of a loop's guarded update (a
    /// counter raised, a word shifted) are one step with no shift test.
    UpdateIf {
        op: Op2,
        a: Reg,
        k: u64,
        x: Reg,
        i: u32,
        set: bool,
    },
    /// Two [`Step::UpdateIf`] in a row on the same test, each `Add` or
    /// `Shl` (a loop's counter raised and its word shifted: `d++; a <<= 1`):
    /// the first's result goes to the step's own slot, the second's to
    /// `second` (a slot), at `second_width` bits. Only a stage of building:
    /// pairs alike are chained, and the others made two steps again.
    UpdatePair {
        ops: [Op2; 2],
        a: [Reg; 2],
        k: [u64; 2],
        x: Reg,
        i: u32,
        set: bool,
        second: Reg,
        second_width: u32,
    },
    /// `turns` [`Step::UpdatePair`]s in a row, alike, each testing its
    /// second word and reading only the results of the one before, whose
    /// results nothing else reads: an unrolled loop rolled up again, run
    /// with its two values in registers (see `execute_chain`).
    UpdateChain {
        ops: [Op2; 2],
        a: [Reg; 2],
        k: [u64; 2],
        i: u32,
        set: bool,
        second: Reg,
        second_width: u32,
        turns: u32,
    },
    /// `count` [`Step::AddBit`]s (`concat` false) or [`Step::ConcatBit`]s
    /// in a row, on bits `first`, `first + 1`, ... of one word (`first`,
    /// `first - 1`, ... where `down`), each on the one before's result
    /// only: a loop that counts or gathers a word's bits, run in registers.
    BitRun {
        concat: bool,
        acc: Reg,
        x: Reg,
        first: u32,
        count: u32,
        down: bool,
    },
    /// `count` [`Step::IteBitConst`]s in a row on bits `first`, `first + 1`,
    /// ... of one word (down where `down`), each picking the bit's index
    /// plus `offset`, each on the one before's result only: a loop that
    /// records where it last found a set bit, run in registers.
    SelectRun {
        x: Reg,
        e: Reg,
        first: u32,
        count: u32,
        down: bool,
        offset: u64,
    },
    /// [`Op2::Add`] of a word and bit `i` of another.
    AddBit(Reg, Reg, u32),
    /// [`Step::Concat`] of a word above bit `i` of another.
    ConcatBit(Reg, Reg, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    step: Step,
    width: u32,
}

impl Node {
    fn operands(&self) -> Vec<Reg> {
        match self.step {
            Step::Input(_) | Step::Const(_) => vec![],
            Step::Not(a) | Step::Neg(a) | Step::Shr(_, a) | Step::Sext(_, a) => vec![a],
            Step::Bin(_, a, b) | Step::Concat(a, b, _) | Step::AddBit(a, b, _) | Step::ConcatBit(a, b, _) => {
                vec![a, b]
            }
            Step::Ite(c, t, e) | Step::IteBit(c, _, t, e) => vec![c, t, e],
            Step::IteBitConst(x, _, _, e) | Step::UpdateIf { x, a: e, .. } => vec![x, e],
            Step::UpdatePair { x, a: [a, b], .. } => vec![x, a, b],
            Step::UpdateChain { a: [a, b], .. } | Step::BitRun { acc: a, x: b, .. } => vec![a, b],
            Step::SelectRun { x, e, .. } => vec![x, e],
        }
    }
}

/// The algebra that records a program instead of computing.
#[derive(Debug, Default)]
pub struct Tracer {
    nodes: RefCell<Vec<Node>>,
    /// Per step, a bound on its value: no input gives more.
    bounds: RefCell<Vec<u64>>,
    shared: RefCell<HashMap<Node, Reg>>,
}

impl Tracer {
    pub fn new() -> Tracer {
        Tracer::default()
    }

    /// Operand `k` of `width` bits.
    pub fn input(&self, k: usize, width: u32) -> Word {
        assert!((1..=MAX_WORD_WIDTH).contains(&width), "input of {width} bits");
        let k = u8::try_from(k).expect("at most 255 operands");
        Word { reg: self.push(Node { step: Step::Input(k), width }), width }
    }

    fn constant_of(&self, w: Word) -> Option<u64> {
        match self.nodes.borrow()[w.reg.0 as usize].step {
            Step::Const(v) => Some(v),
            _ => None,
        }
    }

    /// The step, folded to a constant when its operands are all constants,
    /// or the existing step that computes the same.
    fn push(&self, node: Node) -> Reg {
        let operands = node.operands();
        let node = {
            let nodes = self.nodes.borrow();
            let value = |r: Reg| match nodes[r.0 as usize].step {
                Step::Const(v) => Some(v),
                _ => None,
            };
            let values: Option<Vec<u64>> = operands.iter().map(|&r| value(r)).collect();
            match values {
                Some(values) if !values.is_empty() => {
                    Node { step: Step::Const(fold(&node, &values)), width: node.width }
                }
                _ => node,
            }
        };
        // A constant's width only says how it was made: share it by value.
        let key = match node.step {
            Step::Const(_) => Node { width: 0, ..node },
            _ => node,
        };
        if let Some(&r) = self.shared.borrow().get(&key) {
            return r;
        }
        let bound = self.bound_of(&node);
        let mut nodes = self.nodes.borrow_mut();
        let r = Reg(u32::try_from(nodes.len()).expect("fewer than 2^32 steps"));
        nodes.push(node);
        self.bounds.borrow_mut().push(bound);
        self.shared.borrow_mut().insert(key, r);
        r
    }

    /// The largest value `node` can take, from its operands' bounds: a
    /// counter that a loop raises by one at most once a step stays below
    /// the loop's limit, so the test against the limit folds away.
    fn bound_of(&self, node: &Node) -> u64 {
        let bounds = self.bounds.borrow();
        let b = |r: Reg| bounds[r.0 as usize];
        let m = mask(node.width);
        match node.step {
            Step::Const(v) => v,
            Step::Bin(Op2::Add, x, y) => b(x).checked_add(b(y)).filter(|&s| s <= m).unwrap_or(m),
            Step::Bin(Op2::And, x, y) => b(x).min(b(y)),
            Step::Bin(op, _, _) if op.is_comparison() => 1,
            // A quotient is not bounded so: division by zero gives all ones.
            Step::Bin(Op2::Lshr | Op2::Urem, x, _) => b(x),
            Step::Shr(lo, x) => (b(x) >> lo).min(m),
            Step::Ite(_, t, e) => b(t).max(b(e)),
            _ => m,
        }
    }

    /// The bit `i` of `x` alone, as a Boolean.
    fn bit_of(&self, x: Reg, i: u32) -> Word {
        self.word(Step::Shr(i, x), 1)
    }

    /// `x` is `y & 2^i` computed at `x`'s own width: the bit it tests.
    fn single_bit_test(&self, x: Word) -> Option<(Reg, u32)> {
        let node = self.nodes.borrow()[x.reg.0 as usize];
        let Step::Bin(Op2::And, p, q) = node.step else { return None };
        if node.width != x.width {
            return None;
        }
        let constant = |r: Reg| self.constant_of(Word { reg: r, width: x.width }).filter(|k| k.is_power_of_two());
        match (constant(p), constant(q)) {
            (_, Some(k)) => Some((p, k.trailing_zeros())),
            (Some(k), _) => Some((q, k.trailing_zeros())),
            _ => None,
        }
    }

    fn word(&self, step: Step, width: u32) -> Word {
        Word { reg: self.push(Node { step, width }), width }
    }

    fn bin(&self, op: Op2, a: Word, b: Word) -> Word {
        assert_eq!(a.width, b.width, "{op:?} of operands of different widths");
        let (ca, cb) = (self.constant_of(a), self.constant_of(b));
        let ones = mask(a.width);
        // Steps whose result is one operand as it stands.
        let same = match (op, ca, cb) {
            (Op2::And, Some(x), _) if x == ones => Some(b),
            (Op2::And, _, Some(y)) if y == ones => Some(a),
            (Op2::Or | Op2::Xor | Op2::Add, Some(0), _) => Some(b),
            (Op2::Or | Op2::Xor | Op2::Add | Op2::Sub | Op2::Shl | Op2::Lshr | Op2::Ashr, _, Some(0)) => Some(a),
            (Op2::And | Op2::Or, _, _) if a == b => Some(a),
            _ => None,
        };
        if let Some(x) = same {
            return x;
        }
        let zero = match (op, ca, cb) {
            (Op2::And | Op2::Mul, Some(0), _) | (Op2::And | Op2::Mul, _, Some(0)) => true,
            (Op2::Xor | Op2::Sub, _, _) => a == b,
            _ => false,
        };
        let width = if op.is_comparison() { 1 } else { a.width };
        if zero {
            return self.constant(width, 0);
        }
        // A comparison with a constant that every value of `a` is below.
        let bound = self.bounds.borrow()[a.reg.0 as usize];
        match (op, cb) {
            (Op2::Ult, Some(y)) if bound < y => return self.bool_constant(true),
            (Op2::Ule, Some(y)) if bound <= y => return self.bool_constant(true),
            _ => {}
        }
        Word { reg: self.push(Node { step: Step::Bin(op, a.reg, b.reg), width: a.width }), width }
    }

    /// The program computing `roots` from the inputs.
    pub fn program(&self, roots: &[Word]) -> Program {
        Program::new(&self.nodes.borrow(), roots)
    }
}

impl Algebra for Tracer {
    type Bv = Word;
    type Bool = Word;

    fn constant(&self, width: u32, value: u128) -> Word {
        assert!((1..=MAX_WORD_WIDTH).contains(&width), "constant of {width} bits");
        self.word(Step::Const(value as u64 & mask(width)), width)
    }
    fn bool_constant(&self, b: bool) -> Word {
        self.constant(1, u128::from(b))
    }
    fn width(&self, x: Word) -> u32 {
        x.width
    }
    fn bvadd(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Add, a, b)
    }
    fn bvsub(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Sub, a, b)
    }
    fn bvmul(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Mul, a, b)
    }
    fn bvudiv(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Udiv, a, b)
    }
    fn bvurem(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Urem, a, b)
    }
    fn bvsdiv(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Sdiv, a, b)
    }
    fn bvsrem(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Srem, a, b)
    }
    fn bvneg(&self, a: Word) -> Word {
        self.word(Step::Neg(a.reg), a.width)
    }
    fn bvnot(&self, a: Word) -> Word {
        let node = self.nodes.borrow()[a.reg.0 as usize];
        if let (Step::Not(inner), true) = (node.step, node.width == a.width) {
            return Word { reg: inner, width: a.width };
        }
        self.word(Step::Not(a.reg), a.width)
    }
    fn bvand(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::And, a, b)
    }
    fn bvor(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Or, a, b)
    }
    fn bvxor(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Xor, a, b)
    }
    fn bvshl(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Shl, a, b)
    }
    fn bvlshr(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Lshr, a, b)
    }
    fn bvashr(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Ashr, a, b)
    }
    fn extract(&self, hi: u32, lo: u32, x: Word) -> Word {
        assert!(hi >= lo && hi < x.width, "extract {hi}..{lo} of {} bits", x.width);
        if lo == 0 && hi + 1 == x.width {
            return x;
        }
        self.word(Step::Shr(lo, x.reg), hi - lo + 1)
    }
    fn concat(&self, hi: Word, lo: Word) -> Word {
        let width = hi.width + lo.width;
        assert!(width <= MAX_WORD_WIDTH, "concat wider than {MAX_WORD_WIDTH} bits");
        if self.constant_of(hi) == Some(0) {
            return Word { reg: lo.reg, width };
        }
        self.word(Step::Concat(hi.reg, lo.reg, lo.width), width)
    }
    // Bits above a word's width are zero: a zero extension reads it wider.
    fn zero_extend(&self, extra: u32, x: Word) -> Word {
        let width = x.width + extra;
        assert!(width <= MAX_WORD_WIDTH, "zero_extend to more than {MAX_WORD_WIDTH} bits");
        Word { reg: x.reg, width }
    }
    fn sign_extend(&self, extra: u32, x: Word) -> Word {
        let width = x.width + extra;
        assert!(width <= MAX_WORD_WIDTH, "sign_extend to more than {MAX_WORD_WIDTH} bits");
        if extra == 0 {
            return x;
        }
        self.word(Step::Sext(x.width, x.reg), width)
    }
    fn eq(&self, a: Word, b: Word) -> Word {
        if a == b {
            return self.bool_constant(true);
        }
        // `x >> k == 0` is `x < 2^k`: one step, where a binary search tests
        // whether a word's top bits are clear.
        let node = self.nodes.borrow()[a.reg.0 as usize];
        if let (Some(0), Step::Bin(Op2::Lshr, x, k)) = (self.constant_of(b), node.step) {
            match self.constant_of(Word { reg: k, width: a.width }) {
                Some(k) if k > 0 && k < u64::from(a.width) && node.width == a.width => {
                    let x = Word { reg: x, width: a.width };
                    return self.bin(Op2::Ult, x, self.constant(a.width, 1u128 << k));
                }
                _ => {}
            }
        }
        // A test of one bit: `(y & 2^i) == 0`, and a Boolean against 0 or 1.
        match (self.single_bit_test(a), self.constant_of(b)) {
            (Some((y, i)), Some(0)) => return self.bvnot(self.bit_of(y, i)),
            (_, Some(1)) if a.width == 1 => return a,
            (_, Some(0)) if a.width == 1 => return self.bvnot(a),
            _ => {}
        }
        self.bin(Op2::Eq, a, b)
    }
    fn bvult(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Ult, a, b)
    }
    fn bvule(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Ule, a, b)
    }
    fn bvslt(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Slt, a, b)
    }
    fn bvsle(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Sle, a, b)
    }
    fn ite(&self, c: Word, t: Word, e: Word) -> Word {
        assert_eq!(t.width, e.width, "ite of branches of different widths");
        match self.constant_of(c) {
            Some(1) => return t,
            Some(_) => return e,
            None if t.reg == e.reg => return t,
            None => {}
        }
        // `ite(!c, t, e)` is `ite(c, e, t)`.
        let cond = self.nodes.borrow()[c.reg.0 as usize];
        if let Step::Not(inner) = cond.step {
            return self.ite(Word { reg: inner, width: 1 }, e, t);
        }
        // `ite(c, 1, 0)` on a Boolean is `c` itself.
        if t.width == 1 && self.constant_of(t) == Some(1) && self.constant_of(e) == Some(0) {
            return c;
        }
        self.word(Step::Ite(c.reg, t.reg, e.reg), t.width)
    }
    fn and(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::And, a, b)
    }
    fn or(&self, a: Word, b: Word) -> Word {
        self.bin(Op2::Or, a, b)
    }
    fn not(&self, a: Word) -> Word {
        self.bvnot(a)
    }
}

/// A compiled program: the steps its roots need, in order, each with the
/// slot its result is kept in (slots are reused once a result is dead).
#[derive(Clone, Debug)]
pub struct Program {
    steps: Vec<(Node, u32)>,
    /// Input steps: operand, width, slot.
    inputs: Vec<(u8, u32, u32)>,
    /// Constants: value, slot (filled once per [`Scratch`]).
    constants: Vec<(u64, u32)>,
    roots: Vec<u32>,
    slots: usize,
}

/// The slots a program runs in; make one per thread with [`Program::scratch`].
pub struct Scratch {
    slots: Slots,
    isa: Isa,
}

impl Scratch {
    /// The same slots, the program's steps run with `isa`'s instructions.
    ///
    /// # Panics
    ///
    /// Where this processor does not have them ([`Isa::supported`]).
    pub fn on(self, isa: Isa) -> Scratch {
        assert!(isa.supported(), "this processor has no {}", isa.name());
        Scratch { isa, ..self }
    }

    pub fn isa(&self) -> Isa {
        self.isa
    }
}

/// The vector instructions a program's steps are compiled for: the same
/// code compiled three times, and the widest the processor has picked once
/// it is known ([`Isa::best`]), or one asked for, so that each path can be
/// tested, and timed, on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The target's baseline: on x86-64, SSE2 (two 64-bit or four 32-bit
    /// lanes per instruction).
    Baseline,
    /// AVX2: four or eight lanes, 64-bit comparisons in one instruction.
    Avx2,
    /// AVX-512 F and BW: eight or sixteen lanes, and mask registers.
    Avx512,
}

impl Isa {
    /// Widest last.
    pub const ALL: [Isa; 3] = [Isa::Baseline, Isa::Avx2, Isa::Avx512];

    /// The name `exhaustive --simd` takes.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Baseline => "baseline",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Whether this processor runs the path.
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Isa::Baseline => true,
                Isa::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
                Isa::Avx512 => {
                    std::arch::is_x86_feature_detected!("avx512f")
                        && std::arch::is_x86_feature_detected!("avx512bw")
                        && std::arch::is_x86_feature_detected!("avx512vl")
                        && std::arch::is_x86_feature_detected!("avx512dq")
                        && std::arch::is_x86_feature_detected!("avx2")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Isa::Baseline
        }
    }

    /// The widest path this processor runs.
    pub fn best() -> Isa {
        Isa::ALL.into_iter().rev().find(|i| i.supported()).unwrap_or(Isa::Baseline)
    }
}

/// A slot per value, each holding a block of lanes: 32-bit lanes where no
/// step is wider (twice as many per vector instruction), 64-bit otherwise.
enum Slots {
    Narrow(Vec<Vec<u32>>),
    Wide(Vec<Vec<u64>>),
}

/// `node` with a one-bit operand that extracts bit `i` of a word `x`
/// (`Shr(i, x)` at width 1) reading that bit of `x` itself, where `node`
/// has a step that does: an unrolled loop tests or adds one bit of a word
/// at each turn, and the fused step saves the pass that extracts it (the
/// extract is then left to no reader, and not run).
fn fuse_bit(nodes: &[Node], node: &Node) -> Node {
    let bit = |r: Reg| match nodes[r.0 as usize] {
        Node { step: Step::Shr(i, x), width: 1 } => Some((x, i)),
        _ => None,
    };
    let constant = |r: Reg| match nodes[r.0 as usize].step {
        Step::Const(k) => Some(k),
        _ => None,
    };
    // `e` computes `t op k` with an `op` that leaves `t` as it is for
    // k = 0, and a constant k below the width.
    let update_of = |t: Reg, e: Reg| match nodes[e.0 as usize] {
        Node {
            step: Step::Bin(op @ (Op2::Add | Op2::Sub | Op2::Or | Op2::Xor | Op2::Shl | Op2::Lshr | Op2::Ashr), a, k),
            width,
        } if a == t && width == node.width => constant(k).filter(|&k| k < u64::from(width)).map(|k| (op, k)),
        _ => None,
    };
    // A condition as a bit of a word: an extract of one bit, or a Boolean's bit 0.
    let condition = |c: Reg| bit(c).unwrap_or((c, 0));
    let step = match node.step {
        Step::Ite(c, t, e) => {
            let (x, i) = condition(c);
            match (update_of(e, t), update_of(t, e), constant(t)) {
                (Some((op, k)), _, _) => Some(Step::UpdateIf { op, a: e, k, x, i, set: true }),
                (_, Some((op, k)), _) => Some(Step::UpdateIf { op, a: t, k, x, i, set: false }),
                (_, _, Some(k)) if bit(c).is_some() => Some(Step::IteBitConst(x, i, k, e)),
                _ => bit(c).map(|(x, i)| Step::IteBit(x, i, t, e)),
            }
        }
        Step::Bin(Op2::Add, a, b) => {
            bit(b).map(|(x, i)| Step::AddBit(a, x, i)).or_else(|| bit(a).map(|(x, i)| Step::AddBit(b, x, i)))
        }
        Step::Concat(h, l, 1) => bit(l).map(|(x, i)| Step::ConcatBit(h, x, i)),
        _ => None,
    };
    Node { step: step.unwrap_or(node.step), width: node.width }
}

/// Each two steps in a row that are [`Step::UpdateIf`] on the same test,
/// `Add` or `Shl`, as one [`Step::UpdatePair`], where that runs them as
/// they were: the second reads neither the first's result nor the test's
/// word in the slot it writes. (It may write where the first reads its
/// word, a counter's slot given to the shifted word: a chain copies its
/// inputs before it writes, and a pair left alone runs as its two steps in
/// order.)
fn pair_updates(steps: Vec<(Node, u32)>) -> Vec<(Node, u32)> {
    let mut paired = Vec::with_capacity(steps.len());
    let mut rest = steps.into_iter().peekable();
    while let Some((first, dest)) = rest.next() {
        let next = rest.peek().copied();
        let pair = match (first.step, next) {
            (
                Step::UpdateIf { op, a, k, x, i, set },
                Some((Node { step: Step::UpdateIf { op: op2, a: a2, k: k2, x: x2, i: i2, set: set2 }, width }, second)),
            ) if (x, i, set) == (x2, i2, set2)
                && [op, op2].iter().all(|o| matches!(o, Op2::Add | Op2::Shl))
                && ![a2.0, x.0].contains(&dest)
                && x.0 != second =>
            {
                Some(Step::UpdatePair {
                    ops: [op, op2],
                    a: [a, a2],
                    k: [k, k2],
                    x,
                    i,
                    set,
                    second: Reg(second),
                    second_width: width,
                })
            }
            _ => None,
        };
        match pair {
            Some(step) => {
                rest.next();
                paired.push((Node { step, width: first.width }, dest));
            }
            None => paired.push((first, dest)),
        }
    }
    paired
}

/// Runs of [`Step::UpdatePair`] as [`Step::UpdateChain`]s: each pair
/// alike the one before and reading just its two results (the second as
/// its word and its test), whose results no other step and no root reads.
fn chain_pairs(steps: Vec<(Node, u32)>, roots: &[u32]) -> Vec<(Node, u32)> {
    let only_next = read_only_by_next(&steps, roots);
    // `None` past the last step too: a program may end in a chain.
    let pair = |j: usize| match steps.get(j)?.0.step {
        Step::UpdatePair { ops, a, k, x, i, set, second, second_width } if x == a[1] => {
            Some((ops, a, k, i, set, second, second_width, steps[j].0.width, steps[j].1))
        }
        _ => None,
    };
    // A pair left alone: its two updates, in order (the second reads
    // nothing the first writes); any other step as it is.
    let alone = |(node, dest): (Node, u32)| match node.step {
        Step::UpdatePair { ops, a, k, x, i, set, second, second_width } => {
            let update = |n: usize| Step::UpdateIf { op: ops[n], a: a[n], k: k[n], x, i, set };
            vec![
                (Node { step: update(0), width: node.width }, dest),
                (Node { step: update(1), width: second_width }, second.0),
            ]
        }
        _ => vec![(node, dest)],
    };
    let mut chained = Vec::with_capacity(steps.len());
    let mut j = 0;
    while j < steps.len() {
        let Some((ops, a, k, i, set, second, second_width, width, dest)) = pair(j) else {
            chained.extend(alone(steps[j]));
            j += 1;
            continue;
        };
        // Extend while the next pair continues this one.
        let (mut end, mut last) = (j, (second, dest));
        while let Some(next) = pair(end + 1) {
            let (ops2, a2, k2, i2, set2, second2, sw2, width2, dest2) = next;
            let continues = (ops2, k2, i2, set2, sw2, width2) == (ops, k, i, set, second_width, width)
                && a2 == [Reg(last.1), last.0]
                && only_next[end];
            if !continues {
                break;
            }
            end += 1;
            last = (second2, dest2);
        }
        if end == j {
            chained.extend(alone(steps[j]));
        } else {
            let turns = u32::try_from(end - j + 1).expect("fewer than 2^32 turns");
            let step = Step::UpdateChain { ops, a, k, i, set, second: last.0, second_width, turns };
            chained.push((Node { step, width }, last.1));
        }
        j = end + 1;
    }
    chained
}

/// For each step, whether its results are read by the next step alone (no
/// other step, no root): by slot, each read is of the slot's last writer.
fn read_only_by_next(steps: &[(Node, u32)], roots: &[u32]) -> Vec<bool> {
    let mut writer: HashMap<u32, usize> = HashMap::new();
    let mut only_next = vec![true; steps.len()];
    for (j, (node, dest)) in steps.iter().enumerate() {
        for r in node.operands() {
            if let Some(&w) = writer.get(&r.0) {
                only_next[w] &= w + 1 == j;
            }
        }
        writer.insert(*dest, j);
        if let Step::UpdatePair { second, .. } | Step::UpdateChain { second, .. } = node.step {
            writer.insert(second.0, j);
        }
    }
    for r in roots {
        if let Some(&w) = writer.get(r) {
            only_next[w] = false;
        }
    }
    only_next
}

/// Runs of [`Step::AddBit`], of [`Step::ConcatBit`] or of
/// [`Step::IteBitConst`] on one word's bits in order as [`Step::BitRun`]s
/// and [`Step::SelectRun`]s: each step on the one before's result, which
/// nothing else reads.
fn chain_bits(steps: Vec<(Node, u32)>, roots: &[u32]) -> Vec<(Node, u32)> {
    let only_next = read_only_by_next(&steps, roots);
    // Kind (a count, a gathering, or a select with the offset of its
    // constant from its bit), running value, word, bit.
    #[derive(PartialEq)]
    enum Kind {
        Count,
        Gather,
        Select(u64),
    }
    let bit_step = |j: usize| match steps.get(j).map(|s| s.0.step) {
        Some(Step::AddBit(acc, x, i)) => Some((Kind::Count, acc, x, i)),
        Some(Step::ConcatBit(acc, x, i)) => Some((Kind::Gather, acc, x, i)),
        Some(Step::IteBitConst(x, i, k, e)) => Some((Kind::Select(k.wrapping_sub(u64::from(i))), e, x, i)),
        _ => None,
    };
    let mut chained = Vec::with_capacity(steps.len());
    let mut j = 0;
    while j < steps.len() {
        let Some((kind, acc, x, first)) = bit_step(j) else {
            chained.push(steps[j]);
            j += 1;
            continue;
        };
        let (mut end, mut last, mut down) = (j, first, None);
        while let Some((kind2, acc2, x2, i2)) = bit_step(end + 1) {
            let dir = if i2 + 1 == last {
                true
            } else if last + 1 == i2 {
                false
            } else {
                break;
            };
            // A gathering grows by a bit a turn; the others keep their width.
            let same_width = kind == Kind::Gather || steps[end + 1].0.width == steps[j].0.width;
            if (&kind2, x2, acc2) != (&kind, x, Reg(steps[end].1)) || !only_next[end] || !same_width {
                break;
            }
            if *down.get_or_insert(dir) != dir {
                break;
            }
            end += 1;
            last = i2;
        }
        if end == j {
            chained.push(steps[j]);
        } else {
            let (count, down) = (u32::try_from(end - j + 1).expect("fewer than 2^32 bits"), down.unwrap_or(false));
            let step = match kind {
                Kind::Select(offset) => Step::SelectRun { x, e: acc, first, count, down, offset },
                gather => Step::BitRun { concat: gather == Kind::Gather, acc, x, first, count, down },
            };
            chained.push((Node { step, width: steps[end].0.width }, steps[end].1));
        }
        j = end + 1;
    }
    chained
}

impl Program {
    fn new(nodes: &[Node], roots: &[Word]) -> Program {
        let fused: Vec<Node> = nodes.iter().map(|n| fuse_bit(nodes, n)).collect();
        let nodes = &fused[..];
        // The steps the roots need, and each one's last reader.
        let mut needed = vec![false; nodes.len()];
        for r in roots {
            needed[r.reg.0 as usize] = true;
        }
        let mut last_use = vec![0usize; nodes.len()];
        for i in (0..nodes.len()).rev() {
            if needed[i] {
                for o in nodes[i].operands() {
                    needed[o.0 as usize] = true;
                    last_use[o.0 as usize] = last_use[o.0 as usize].max(i);
                }
            }
        }
        for r in roots {
            last_use[r.reg.0 as usize] = usize::MAX;
        }
        let mut slot_of = vec![u32::MAX; nodes.len()];
        let (mut free, mut slots) = (Vec::new(), 0u32);
        let mut fresh = |free: &mut Vec<u32>| {
            free.pop().unwrap_or_else(|| {
                slots += 1;
                slots - 1
            })
        };
        let (mut steps, mut inputs, mut constants) = (Vec::new(), Vec::new(), Vec::new());
        // Inputs and constants first, kept for the whole run.
        for (i, n) in nodes.iter().enumerate().filter(|(i, _)| needed[*i]) {
            match n.step {
                Step::Input(k) => {
                    slot_of[i] = fresh(&mut free);
                    inputs.push((k, n.width, slot_of[i]));
                }
                Step::Const(v) => {
                    slot_of[i] = fresh(&mut free);
                    constants.push((v, slot_of[i]));
                }
                _ => {}
            }
        }
        for (i, n) in nodes.iter().enumerate().filter(|(i, _)| needed[*i]) {
            if matches!(n.step, Step::Input(_) | Step::Const(_)) {
                continue;
            }
            // The result's slot is taken before the operands' are given
            // back: a step never writes the slot it reads.
            slot_of[i] = fresh(&mut free);
            let step = rename(n, |r| Reg(slot_of[r.0 as usize]));
            steps.push((step, slot_of[i]));
            for o in n.operands() {
                let o = o.0 as usize;
                if last_use[o] == i && !matches!(nodes[o].step, Step::Input(_) | Step::Const(_)) {
                    free.push(slot_of[o]);
                    last_use[o] = usize::MAX - 1; // given back once
                }
            }
        }
        let roots: Vec<u32> = roots.iter().map(|r| slot_of[r.reg.0 as usize]).collect();
        let steps = chain_bits(chain_pairs(pair_updates(steps), &roots), &roots);
        Program { steps, inputs, constants, roots, slots: slots as usize }
    }

    /// How many steps run per block (inputs and constants aside).
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether every step's values fit 32 bits.
    fn fits_narrow(&self) -> bool {
        let widest = self.steps.iter().map(|(n, _)| n.width).chain(self.inputs.iter().map(|&(_, w, _)| w)).max();
        widest.unwrap_or(0) <= u32::BITS && self.constants.iter().all(|&(v, _)| v <= u64::from(u32::MAX))
    }

    /// Slots for this program, its constants filled in: 32-bit lanes
    /// where its values fit them; the steps run on the widest path the
    /// processor has ([`Isa::best`]; another with [`Scratch::on`]).
    pub fn scratch(&self) -> Scratch {
        if self.fits_narrow() {
            Scratch { slots: Slots::Narrow(self.slots_of()), isa: Isa::best() }
        } else {
            self.wide_scratch()
        }
    }

    /// Slots of 64-bit lanes, whatever the program's widths (tests hold the
    /// two kinds of lanes to each other).
    pub fn wide_scratch(&self) -> Scratch {
        Scratch { slots: Slots::Wide(self.slots_of()), isa: Isa::best() }
    }

    fn slots_of<L: Lane>(&self) -> Vec<Vec<L>> {
        let mut slots = vec![vec![L::ZERO; BLOCK]; self.slots.max(1)];
        for &(v, s) in &self.constants {
            slots[s as usize] = vec![L::from_u64(v); BLOCK];
        }
        slots
    }

    /// Run on the [`BLOCK`] inputs numbered `first..first + BLOCK`: operand
    /// `k` of input `n` is the bits of `n` from `shifts[k]` up, cut to its
    /// width. Root `i`'s values are then `scratch.root(self, i)`.
    pub fn run(&self, first: u64, shifts: &[u32], scratch: &mut Scratch) {
        match &mut scratch.slots {
            Slots::Narrow(slots) => self.run_on(first, shifts, slots, scratch.isa),
            Slots::Wide(slots) => self.run_on(first, shifts, slots, scratch.isa),
        }
    }

    fn run_on<L: Lane>(&self, first: u64, shifts: &[u32], slots: &mut [Vec<L>], isa: Isa) {
        for &(k, width, s) in &self.inputs {
            let (shift, m) = (shifts[k as usize], mask(width));
            let out = &mut slots[s as usize];
            for (i, v) in out.iter_mut().enumerate() {
                *v = L::from_u64(((first + i as u64) >> shift) & m);
            }
        }
        run_steps(&self.steps, slots, isa);
    }

    /// The value of root `i` in lane `lane` after [`Program::run`].
    pub fn root(&self, scratch: &Scratch, i: usize, lane: usize) -> u64 {
        let slot = self.roots[i] as usize;
        match &scratch.slots {
            Slots::Narrow(slots) => u64::from(slots[slot][lane]),
            Slots::Wide(slots) => slots[slot][lane],
        }
    }

    /// The first lane where root `i` is not 0 after [`Program::run`].
    pub fn first_nonzero(&self, scratch: &Scratch, i: usize) -> Option<usize> {
        fn first<L: Lane>(lanes: &[L]) -> Option<usize> {
            // One pass with no early exit (it vectorises), then the search.
            if lanes.iter().fold(L::ZERO, |acc, &d| acc | d) == L::ZERO {
                return None;
            }
            lanes.iter().position(|&d| d != L::ZERO)
        }
        let slot = self.roots[i] as usize;
        match &scratch.slots {
            Slots::Narrow(slots) => first(&slots[slot]),
            Slots::Wide(slots) => first(&slots[slot]),
        }
    }
}

/// A step on constant operands (`values`, in the order of
/// [`Node::operands`]), executed on a block like any other step: constant
/// folding shares the executor's definition of every step.
fn fold(node: &Node, values: &[u64]) -> u64 {
    let mut slots: Vec<Vec<u64>> = values.iter().map(|&v| vec![v; BLOCK]).collect();
    slots.push(vec![0; BLOCK]);
    let mut next = 0;
    let step = rename(node, |_| {
        next += 1;
        Reg(next - 1)
    });
    execute(&step, values.len(), &mut slots);
    slots[values.len()][0]
}

/// Lanes run together by [`execute_chain`]: eight vector registers' worth
/// of 32-bit lanes for each of the two values, which the compiler keeps in
/// registers through all turns. A turn waits on the one before, so the
/// eight independent vectors are what keeps the processor busy.
const CHAIN_LANES: usize = 128;

/// [`Step::UpdateChain`]: every turn of the loop on a few lanes at a time,
/// the counter and the word held in registers from the first turn to the
/// last (each turn is the pair's update: `d = hit ? d op k0 : d`, `w = hit ?
/// w op k1 : w`, with hit bit `i` of `w` being `set`).
#[inline(always)]
fn execute_chain<L: Lane>(
    ops: [Op2; 2],
    a: [Reg; 2],
    k: [u64; 2],
    (bit, set, turns): (u32, bool, u32),
    dest: [usize; 2],
    widths: [u32; 2],
    slots: &mut [Vec<L>],
) {
    // The inputs copied first: the results may be written where they were.
    let (mut first, mut second) = (slots[a[0].0 as usize].clone(), slots[a[1].0 as usize].clone());
    // A hit is all ones where bit `bit` is `set`: the amounts are masked
    // with it, with no comparison (whose Boolean AVX2 widens again).
    let (k0, k1, miss) = (L::from_u64(k[0]), L::from_u64(k[1]), if set { L::ZERO } else { L::ONES });
    let (m0, m1) = (L::mask(widths[0]), L::mask(widths[1]));
    if ops == [Op2::Add, Op2::Shl] && k[1] == 1 && bit + 1 == widths[1] && widths[1] <= L::BITS {
        // A loop that counts a word's leading zeros (ones where `set`),
        // shifting each out: a turn that finds the top bit changed leaves
        // both values as they are, and so does every turn after it. So the
        // loop raises the counter by the count, up to `turns`, and shifts
        // the word by as much, in one step (the shift in two halves, each
        // below the lane's width, for a count as wide as the lane).
        let (flip, above) = (if set { m1 } else { L::ZERO }, L::from_u64(u64::from(L::BITS - widths[1])));
        let turns = L::from_u64(u64::from(turns));
        for (d, w) in first.iter_mut().zip(second.iter_mut()) {
            let n = (*w ^ flip).leading_zeros().wrapping_sub(above).min(turns);
            let half = n.shr(1);
            *d = d.wrapping_add(n.wrapping_mul(k0)) & m0;
            *w = w.shl(half.to_u64() as u32).shl(n.wrapping_sub(half).to_u64() as u32) & m1;
        }
        slots[dest[0]] = first;
        slots[dest[1]] = second;
        return;
    }
    macro_rules! chain {
        ($($f:ident, $g:ident: |$v:ident, $n:ident| $body:expr, |$v2:ident, $n2:ident| $body2:expr);*) => {
            match (ops[0], ops[1]) {
                $((Op2::$f, Op2::$g) => {
                    for (d, w) in first.chunks_exact_mut(CHAIN_LANES).zip(second.chunks_exact_mut(CHAIN_LANES)) {
                        let mut dv: [L; CHAIN_LANES] = d.try_into().expect("a chunk");
                        let mut wv: [L; CHAIN_LANES] = w.try_into().expect("a chunk");
                        for _ in 0..turns {
                            for j in 0..CHAIN_LANES {
                                let hit = wv[j].bit_mask(bit) ^ miss;
                                let ($v, $n) = (dv[j], k0 & hit);
                                let ($v2, $n2) = (wv[j], k1 & hit);
                                dv[j] = $body & m0;
                                wv[j] = $body2 & m1;
                            }
                        }
                        d.copy_from_slice(&dv);
                        w.copy_from_slice(&wv);
                    }
                })*
                _ => unreachable!("{ops:?} are not paired"),
            }
        };
    }
    // The amounts are below the widths: the shifts need no test.
    chain!(
        Add, Add: |v, n| v.wrapping_add(n), |u, p| u.wrapping_add(p);
        Add, Shl: |v, n| v.wrapping_add(n), |u, p| u.shl(p.to_u64() as u32);
        Shl, Add: |v, n| v.shl(n.to_u64() as u32), |u, p| u.wrapping_add(p);
        Shl, Shl: |v, n| v.shl(n.to_u64() as u32), |u, p| u.shl(p.to_u64() as u32)
    );
    slots[dest[0]] = first;
    slots[dest[1]] = second;
}

/// [`Step::UpdateIf`], one loop per operation, and per kind of mask: none
/// at the lane's full width (the commonest), so that the loop has nothing
/// to do for it.
#[inline(always)]
fn execute_update_if<L: Lane>(
    op: Op2,
    [a, x]: [Reg; 2],
    k: u64,
    (bit, set): (u32, bool),
    dest: usize,
    w: u32,
    slots: &mut [Vec<L>],
) {
    let mut taken = std::mem::take(&mut slots[dest]);
    let out: &mut [L; BLOCK] = (&mut taken[..]).try_into().expect("a slot holds a block");
    let get = |r: Reg| -> &[L; BLOCK] { slots[r.0 as usize][..].try_into().expect("a slot holds a block") };
    // As in `execute_chain`: the amount masked with the bit, no comparison.
    let (a, x, k, miss, m) = (get(a), get(x), L::from_u64(k), if set { L::ZERO } else { L::ONES }, L::mask(w));
    macro_rules! update {
        ($($name:ident: |$v:ident, $n:ident, $m:ident| $body:expr),*) => {
            match op {
                $(Op2::$name => {
                    macro_rules! lanes {
                        ($mask:expr) => {{
                            let $m = $mask;
                            for i in 0..BLOCK {
                                let $n = k & (x[i].bit_mask(bit) ^ miss);
                                let $v = a[i];
                                out[i] = $body;
                            }
                        }};
                    }
                    if m == L::ONES { lanes!(L::ONES) } else { lanes!(m) }
                })*
                _ => unreachable!("{op:?} is not fused"),
            }
        };
    }
    // The amount `n` is below the width: the shifts need no test.
    update!(
        Add: |v, n, m| v.wrapping_add(n) & m,
        Sub: |v, n, m| v.wrapping_sub(n) & m,
        Or: |v, n, m| (v | n) & m,
        Xor: |v, n, m| (v ^ n) & m,
        Shl: |v, n, m| v.shl(n.to_u64() as u32) & m,
        Lshr: |v, n, m| v.shr(n.to_u64() as u32) & m,
        Ashr: |v, n, m| v.sext(w).sar(n.to_u64() as u32) & m
    );
    slots[dest] = taken;
}

/// What a run of one-bit steps does at each bit.
enum Run {
    /// Adds it.
    Count,
    /// Puts it below the value.
    Gather,
    /// Where it is set, takes its index plus this offset.
    Select(u64),
}

/// [`Step::BitRun`] and [`Step::SelectRun`] in closed form. A run's bits
/// are one field of `x`, so counting them is the field's population count,
/// gathering them (the first turn's bit ends highest) is the field itself,
/// reversed where the run goes up, and the last set bit a run meets is the
/// field's highest (going up) or lowest (going down). Each is a word-wide
/// bit count, which the compiler makes vector instructions on every path
/// (AVX2 has no count of its own: table look-ups in the vector registers),
/// where a turn at a time the run cost one pass per bit.
#[inline(always)]
fn execute_bit_run<L: Lane>(
    kind: Run,
    [acc, x]: [Reg; 2],
    (first, count, down): (u32, u32, bool),
    dest: usize,
    width: u32,
    slots: &mut [Vec<L>],
) {
    // Copied first: the result may be written where the running value was.
    let mut kept = slots[acc.0 as usize].clone();
    let out: &mut [L; BLOCK] = (&mut kept[..]).try_into().expect("a slot holds a block");
    let x: &[L; BLOCK] = slots[x.0 as usize][..].try_into().expect("a slot holds a block");
    let (low, field, m) = (if down { first + 1 - count } else { first }, L::mask(count), L::mask(width));
    match kind {
        Run::Count => {
            for i in 0..BLOCK {
                out[i] = out[i].wrapping_add((x[i].shr(low) & field).count_ones()) & m;
            }
        }
        // A gathering's value grows a bit a turn, to `width` at most: no
        // mask. It starts from a bit at least, and fits its lanes, so the
        // run is narrower than they are.
        Run::Gather => {
            assert!(count < L::BITS, "a gathering of {count} bits in {}-bit lanes", L::BITS);
            for i in 0..BLOCK {
                let bits = x[i].shr(low) & field;
                let bits = if down { bits } else { bits.reverse_bits().shr(L::BITS - count) };
                out[i] = out[i].shl(count) | bits;
            }
        }
        Run::Select(offset) => {
            let base = L::from_u64(u64::from(low).wrapping_add(offset));
            let top = base.wrapping_add(L::from_u64(u64::from(L::BITS - 1)));
            for i in 0..BLOCK {
                let bits = x[i].shr(low) & field;
                let at = if down {
                    base.wrapping_add(bits.trailing_zeros())
                } else {
                    top.wrapping_sub(bits.leading_zeros())
                };
                out[i] = if bits != L::ZERO { at & m } else { out[i] };
            }
        }
    }
    slots[dest] = kept;
}

/// The node with each operand `r` renamed to `s(r)`, in the order of
/// [`Node::operands`].
fn rename(n: &Node, mut s: impl FnMut(Reg) -> Reg) -> Node {
    let step = match n.step {
        Step::Bin(op, a, b) => Step::Bin(op, s(a), s(b)),
        Step::Not(a) => Step::Not(s(a)),
        Step::Neg(a) => Step::Neg(s(a)),
        Step::Shr(lo, a) => Step::Shr(lo, s(a)),
        Step::Concat(h, l, w) => Step::Concat(s(h), s(l), w),
        Step::Sext(f, a) => Step::Sext(f, s(a)),
        Step::Ite(c, t, e) => Step::Ite(s(c), s(t), s(e)),
        Step::IteBit(c, i, t, e) => Step::IteBit(s(c), i, s(t), s(e)),
        Step::IteBitConst(x, i, k, e) => Step::IteBitConst(s(x), i, k, s(e)),
        Step::UpdateIf { op, a, k, x, i, set } => {
            // In the order of `Node::operands`: x, a.
            let x = s(x);
            Step::UpdateIf { op, a: s(a), k, x, i, set }
        }
        Step::AddBit(a, x, i) => Step::AddBit(s(a), s(x), i),
        Step::ConcatBit(h, x, i) => Step::ConcatBit(s(h), s(x), i),
        other => other,
    };
    Node { step, width: n.width }
}

/// The steps on a block, with `isa`'s instructions ([`Isa`]).
fn run_steps<L: Lane>(steps: &[(Node, u32)], slots: &mut [Vec<L>], isa: Isa) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a scratch is only ever set to a supported path
        // (`Scratch::on`), and AVX-512's features are `run_steps_avx512`'s
        // requirements.
        Isa::Avx512 => unsafe { run_steps_avx512(steps, slots) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above; AVX2 is `run_steps_avx2`'s only requirement.
        Isa::Avx2 => unsafe { run_steps_avx2(steps, slots) },
        _ => {
            for (node, dest) in steps {
                execute(node, *dest as usize, slots);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq,avx2")]
unsafe fn run_steps_avx512<L: Lane>(steps: &[(Node, u32)], slots: &mut [Vec<L>]) {
    for (node, dest) in steps {
        execute(node, *dest as usize, slots);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_steps_avx2<L: Lane>(steps: &[(Node, u32)], slots: &mut [Vec<L>]) {
    for (node, dest) in steps {
        execute(node, *dest as usize, slots);
    }
}

/// One step on a block. The destination is taken out of the slots while
/// the step runs (a step never reads the slot it writes), so the loop over
/// the lanes reads and writes plain arrays of [`BLOCK`] words; each kind of
/// step gets its own loop (the `match` is outside it), which the compiler
/// vectorises.
#[inline(always)]
fn execute<L: Lane>(node: &Node, dest: usize, slots: &mut [Vec<L>]) {
    if let Step::BitRun { concat, acc, x, first, count, down } = node.step {
        let kind = if concat { Run::Gather } else { Run::Count };
        return execute_bit_run(kind, [acc, x], (first, count, down), dest, node.width, slots);
    }
    if let Step::SelectRun { x, e, first, count, down, offset } = node.step {
        return execute_bit_run(Run::Select(offset), [e, x], (first, count, down), dest, node.width, slots);
    }
    if let Step::UpdateIf { op, a, k, x, i, set } = node.step {
        return execute_update_if(op, [a, x], k, (i, set), dest, node.width, slots);
    }
    if let Step::UpdateChain { ops, a, k, i, set, second, second_width, turns } = node.step {
        let widths = [node.width, second_width];
        return execute_chain(ops, a, k, (i, set, turns), [dest, second.0 as usize], widths, slots);
    }
    let w = node.width;
    let m = L::mask(w);
    let mut taken = std::mem::take(&mut slots[dest]);
    let out: &mut [L; BLOCK] = (&mut taken[..]).try_into().expect("a slot holds a block");
    let get = |r: Reg| -> &[L; BLOCK] { slots[r.0 as usize][..].try_into().expect("a slot holds a block") };
    macro_rules! lanes1 {
        ($a:expr, |$x:ident| $body:expr) => {{
            let a = get($a);
            for i in 0..BLOCK {
                let $x = a[i];
                out[i] = $body;
            }
        }};
    }
    macro_rules! bin {
        ($op:expr, $a:expr, $b:expr; $($name:ident),*) => {{
            let (a, b) = (get($a), get($b));
            match $op {
                $(Op2::$name => {
                    for i in 0..BLOCK {
                        out[i] = Op2::$name.apply(w, a[i], b[i]);
                    }
                })*
            }
        }};
    }
    match node.step {
        Step::Input(_) | Step::Const(_) => unreachable!("loaded before the steps"),
        Step::UpdatePair { .. } => unreachable!("made into a chain"),
        Step::UpdateChain { .. } => unreachable!("run by execute_chain"),
        Step::BitRun { .. } | Step::SelectRun { .. } => unreachable!("run by execute_bit_run"),
        Step::UpdateIf { .. } => unreachable!("run by execute_update_if"),
        Step::Bin(op, a, b) => bin!(op, a, b; Add, Sub, Mul, Udiv, Urem, Sdiv, Srem, And, Or, Xor, Shl, Lshr, Ashr,
            Eq, Ult, Ule, Slt, Sle),
        Step::Not(a) => lanes1!(a, |x| !x & m),
        Step::Neg(a) => lanes1!(a, |x| x.wrapping_neg() & m),
        Step::Shr(lo, a) => lanes1!(a, |x| x.shr(lo) & m),
        Step::Sext(from, a) => lanes1!(a, |x| x.sext(from) & m),
        Step::Concat(h, l, lw) => {
            let (h, l) = (get(h), get(l));
            for i in 0..BLOCK {
                out[i] = h[i].shl(lw) | l[i];
            }
        }
        Step::Ite(c, t, e) => {
            let (c, t, e) = (get(c), get(t), get(e));
            for i in 0..BLOCK {
                let pick = c[i].wrapping_neg();
                out[i] = (t[i] & pick) | (e[i] & !pick);
            }
        }
        Step::IteBit(x, bit, t, e) => {
            let (x, t, e) = (get(x), get(t), get(e));
            for i in 0..BLOCK {
                let pick = x[i].bit_mask(bit);
                out[i] = (t[i] & pick) | (e[i] & !pick);
            }
        }
        Step::IteBitConst(x, bit, k, e) => {
            let (x, e, k) = (get(x), get(e), L::from_u64(k));
            for i in 0..BLOCK {
                let pick = x[i].bit_mask(bit);
                out[i] = (k & pick) | (e[i] & !pick);
            }
        }
        Step::AddBit(a, x, bit) => {
            let (a, x) = (get(a), get(x));
            for i in 0..BLOCK {
                out[i] = a[i].wrapping_add(x[i].shr(bit) & L::ONE) & m;
            }
        }
        Step::ConcatBit(h, x, bit) => {
            let (h, x) = (get(h), get(x));
            for i in 0..BLOCK {
                out[i] = h[i].shl(1) | (x[i].shr(bit) & L::ONE);
            }
        }
    }
    slots[dest] = taken;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bv::{BitVec, Concrete};

    /// A small function written against the algebra, run both ways.
    fn f<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> (A::Bv, A::Bool) {
        let zero = alg.constant(16, 0);
        let q = alg.bvsdiv(a, b);
        let hi = alg.extract(15, 8, alg.bvmul(alg.zero_extend(16, a), alg.sign_extend(16, b)));
        let pick = alg.ite(alg.bvslt(a, zero), alg.bvneg(q), alg.bvnot(q));
        let cat = alg.concat(hi, alg.extract(7, 0, pick));
        (alg.bvxor(cat, alg.bvashr(b, alg.constant(16, 3))), alg.not(alg.eq(b, zero)))
    }

    /// `p`, of two 16-bit operands, run on the blocks from each of
    /// `firsts` in 32- and 64-bit lanes, on every path this processor has;
    /// `check` gets each lane with its input's number and operands.
    fn run_both(p: &Program, firsts: [u64; 4], mut check: impl FnMut(&Scratch, usize, u64, BitVec, BitVec)) {
        let isas = Isa::ALL.into_iter().filter(|i| i.supported());
        let scratches = isas.flat_map(|isa| {
            firsts.into_iter().flat_map(move |first| [(first, p.scratch().on(isa)), (first, p.wide_scratch().on(isa))])
        });
        for (first, mut s) in scratches {
            p.run(first, &[0, 16], &mut s);
            for i in 0..BLOCK {
                let n = first + i as u64;
                let (a, b) = (BitVec::new(16, u128::from(n & 0xffff)), BitVec::new(16, u128::from(n >> 16 & 0xffff)));
                check(&s, i, n, a, b);
            }
        }
    }

    #[test]
    fn a_program_computes_what_the_algebra_does() {
        let t = Tracer::new();
        let (v, d) = f(&t, t.input(0, 16), t.input(1, 16));
        let p = t.program(&[v, d]);
        run_both(&p, [0, 0x1234_5600, 0xffff_ff00, 0x8000_7f00], |s, i, n, a, b| {
            let (cv, cd) = f(&Concrete, a, b);
            assert_eq!(p.root(s, 0, i), cv.unsigned() as u64, "value at {n:#x}");
            assert_eq!(p.root(s, 1, i), u64::from(cd), "defined at {n:#x}");
        });
    }

    type Update<A> = fn(&A, <A as Algebra>::Bv, <A as Algebra>::Bv) -> <A as Algebra>::Bv;

    /// Loops' turns as the models write them: a bit tested, a counter
    /// raised or a word shifted under a condition, a bit added or put below
    /// a word. Each becomes one fused step, and computes what the algebra does.
    fn turns<A: Algebra>(alg: &A, a: A::Bv, b: A::Bv) -> Vec<A::Bv> {
        let k = |v: u128| alg.constant(16, v);
        let bit = |x: A::Bv, i: u32| alg.eq(alg.extract(i, i, x), alg.constant(1, 1));
        let boolean = alg.bvult(a, b);
        let updates: [Update<A>; 7] = [
            |alg, x, n| alg.bvadd(x, n),
            |alg, x, n| alg.bvsub(x, n),
            |alg, x, n| alg.bvor(x, n),
            |alg, x, n| alg.bvxor(x, n),
            |alg, x, n| alg.bvshl(x, n),
            |alg, x, n| alg.bvlshr(x, n),
            |alg, x, n| alg.bvashr(x, n),
        ];
        let mut out = Vec::new();
        for (j, update) in updates.iter().enumerate() {
            let n = k(j as u128 + 3);
            for c in [bit(b, j as u32), boolean] {
                out.push(alg.ite(c, update(alg, a, n), a));
                out.push(alg.ite(c, a, update(alg, a, n)));
            }
        }
        // A leading-zero count's loop, three turns, its middle counter
        // read again (so the chain stops there), then three more.
        let (mut d, mut w) = (b, a);
        for turn in 0..6 {
            let top = bit(w, 15);
            d = alg.ite(top, d, alg.bvadd(d, k(1)));
            w = alg.ite(top, w, alg.bvshl(w, k(1)));
            if turn == 2 {
                out.push(d);
            }
        }
        out.extend([d, w]);
        // Bits 4 to 6 of `b` counted, bits 9 down to 6 of `a` gathered.
        let count = (4..7).fold(a, |n, i| alg.bvadd(n, alg.zero_extend(15, alg.extract(i, i, b))));
        let gathered = (6..9).rev().fold(alg.extract(9, 9, a), |g, i| alg.concat(g, alg.extract(i, i, a)));
        out.extend([count, alg.zero_extend(12, gathered)]);
        // The highest of bits 2 to 4 of `b` set, plus 8, else `a`.
        out.push((2..5).fold(a, |d, i| alg.ite(bit(b, i), k(u128::from(i) + 8), d)));
        // Run in closed form: a leading-ones count whose turns outnumber
        // the bits (all of `a` shifted out where it is all ones), bits 3
        // to 6 of `b` gathered going up, and the lowest of bits 10 to 13 set.
        let (mut d, mut w) = (b, a);
        for _ in 0..18 {
            let top = bit(w, 15);
            d = alg.ite(top, alg.bvadd(d, k(1)), d);
            w = alg.ite(top, alg.bvshl(w, k(1)), w);
        }
        out.extend([d, w]);
        let gathered = (4..7).fold(alg.extract(3, 3, b), |g, i| alg.concat(g, alg.extract(i, i, b)));
        out.push(alg.zero_extend(12, gathered));
        out.push((10..14).rev().fold(b, |d, i| alg.ite(bit(b, i), k(u128::from(i)), d)));
        out.push(alg.ite(bit(b, 5), k(7), a));
        out.push(alg.ite(bit(b, 6), a, b));
        out.push(alg.bvadd(a, alg.zero_extend(15, alg.extract(9, 9, b))));
        out.push(alg.concat(alg.extract(14, 0, a), alg.extract(2, 2, b)));
        out
    }

    #[test]
    fn fused_steps_compute_what_the_algebra_does() {
        let t = Tracer::new();
        let roots = turns(&t, t.input(0, 16), t.input(1, 16));
        let p = t.program(&roots);
        // One step per turn, and four that no turn fuses: the comparison,
        // and the extracts the two gatherings and the last turn start from.
        // The counting loop's six turns are two chains of three, with three
        // roots, and the leading-ones count one chain with two; the counts,
        // the gatherings and the selects are a run each.
        assert_eq!(p.len(), roots.len() + 4 - 2, "{p:#?}");
        let count = |f: fn(&Step) -> bool| p.steps.iter().filter(|(n, _)| f(&n.step)).count();
        assert_eq!(count(|s| matches!(s, Step::UpdateChain { turns: 3, .. })), 2, "{p:#?}");
        assert_eq!(count(|s| matches!(s, Step::UpdateChain { turns: 18, set: true, .. })), 1, "{p:#?}");
        assert_eq!(count(|s| matches!(s, Step::BitRun { count: 3, .. })), 3, "{p:#?}");
        assert_eq!(count(|s| matches!(s, Step::SelectRun { count: 3, offset: 8, down: false, .. })), 1, "{p:#?}");
        assert_eq!(count(|s| matches!(s, Step::SelectRun { count: 4, down: true, .. })), 1, "{p:#?}");
        run_both(&p, [0, 0x8000_0000, 0x7fff_fe00, 0xffff_fe00], |s, i, n, a, b| {
            for (r, want) in turns(&Concrete, a, b).into_iter().enumerate() {
                assert_eq!(p.root(s, r, i), want.unsigned() as u64, "turn {r} at {n:#x}");
            }
        });
    }

    /// A leading-ones count of a 32-bit word, more turns than bits, in
    /// 32-bit lanes: where the word is all ones, the count is the lanes'
    /// whole width, and shifting it out leaves 0 (one shift by 32 would
    /// leave the word as it was).
    #[test]
    fn a_count_as_wide_as_the_lane_shifts_the_whole_word_out() {
        let t = Tracer::new();
        let (mut d, mut w) = (t.input(1, 32), t.input(0, 32));
        for _ in 0..34 {
            let top = t.eq(t.extract(31, 31, w), t.constant(1, 1));
            d = t.ite(top, t.bvadd(d, t.constant(32, 1)), d);
            w = t.ite(top, t.bvshl(w, t.constant(32, 1)), w);
        }
        let p = t.program(&[d, w]);
        assert!(p.steps.iter().any(|(n, _)| matches!(n.step, Step::UpdateChain { turns: 34, .. })), "{p:#?}");
        for isa in Isa::ALL.into_iter().filter(|i| i.supported()) {
            let mut s = p.scratch().on(isa);
            // `d` is 5 in every lane, `w` the block's number.
            p.run(0x5_ffff_fe00, &[0, 32], &mut s);
            for (lane, a) in (0xffff_fe00u64..1 << 32).enumerate() {
                let ones = (a as u32).leading_ones();
                let expect = (u64::from(5 + ones), u64::from((a as u32).checked_shl(ones).unwrap_or(0)));
                assert_eq!((p.root(&s, 0, lane), p.root(&s, 1, lane)), expect, "{a:#x} on {isa:?}");
            }
        }
    }

    #[test]
    fn constants_fold_and_steps_are_shared() {
        let t = Tracer::new();
        let a = t.input(0, 8);
        let c = t.bvadd(t.constant(8, 200), t.constant(8, 100));
        assert_eq!(t.constant_of(c), Some(44));
        let x = t.bvadd(a, c);
        let y = t.bvadd(a, t.constant(8, 44));
        assert_eq!(x, y, "the same step is shared");
        assert_eq!(t.ite(t.bool_constant(true), x, a), x);
        assert_eq!(t.bvand(a, t.constant(8, 0xff)), a);
        let p = t.program(&[t.bvxor(x, y), x]);
        assert_eq!(p.len(), 1, "x ^ x folds to 0; only the add is left");
    }
}
