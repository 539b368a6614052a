//! The spec's checkable statements besides its pseudocode, as data: worked
//! examples, stated identities, prose and notes, and derived claims of our
//! own that an auditor would want. Each claim says what it states (in our
//! words, with at most a short quoted fragment) and how it is checked: a
//! program run on concrete values, or a fact over all inputs of a program
//! proven with a solver, written in the condition language of [`expr`]
//! (crate::ptx::expr).
//!
//! Programs are straight-line PTX ([`program`](crate::ptx::program)); where the
//! spec's example uses a floating-point add, the claim says that it uses an
//! integer add in its place.

pub mod check;

/// What kind of statement a claim is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A worked value in an Examples block or the prose.
    Example,
    /// An identity the text states (a sequence computes something).
    Identity,
    /// A statement of the Description about results.
    Prose,
    /// A statement of the Notes.
    Note,
    /// A claim of our own, derived from the spec, marked as such.
    Derived,
    /// An example instruction fits its section's Syntax block, or is a
    /// legal variant of the catalogue.
    Syntax,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Example => "example",
            Kind::Identity => "identity",
            Kind::Prose => "prose",
            Kind::Note => "note",
            Kind::Derived => "derived",
            Kind::Syntax => "syntax",
        }
    }
}

/// Which sum a warp program leaves in each lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpSum {
    /// Lane l: the sum over lanes 0..=l.
    Prefix,
    /// Lane l: the sum over lanes l..=31.
    Suffix,
    /// Every lane: the sum over all lanes.
    Total,
}

/// How a claim is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Run `program` once on `inputs`; every condition of `expect` holds.
    Values { program: String, inputs: Vec<(String, u128)>, expect: Vec<String> },
    /// For every input satisfying every condition of `assume`, every
    /// condition of `holds` holds after `program` (proven by a solver).
    Always { program: String, assume: Vec<String>, holds: Vec<String> },
    /// Some input satisfying `assume` makes some condition of `holds` fail:
    /// the claim that an identity stops holding outside its stated range.
    Fails { program: String, assume: Vec<String>, holds: Vec<String> },
    /// A warp program: for every 32-bit input of `register` in every lane,
    /// `register` ends holding the given sum (mod 2^32) in every lane.
    Warp { program: String, register: String, sum: WarpSum },
    /// The instruction (with an optional guard) parses against the
    /// catalogue: a legal variant, its operand count and forms.
    Parses { text: String },
    /// The instruction fits its section's Syntax block
    /// ([`syntax`](crate::audit::syntax)).
    FitsSyntax { text: String },
    /// Why the statement cannot be checked.
    NotCheckable { reason: String },
}

/// One claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Stable identifier: `<section>/<short name>`.
    pub id: String,
    pub section: &'static str,
    pub kind: Kind,
    /// What is claimed, in our words.
    pub statement: String,
    /// A short fragment of the spec text, where the claim quotes one.
    pub fragment: Option<&'static str>,
    pub check: Check,
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

fn claim(
    id: &str,
    section: &'static str,
    kind: Kind,
    statement: &str,
    fragment: Option<&'static str>,
    check: Check,
) -> Claim {
    Claim { id: format!("{section}/{id}"), section, kind, statement: statement.to_string(), fragment, check }
}

fn values(program: &str, inputs: &[(&str, u128)], expect: &[&str]) -> Check {
    Check::Values {
        program: program.to_string(),
        inputs: inputs.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        expect: strings(expect),
    }
}

fn always(program: &str, assume: &[&str], holds: &[&str]) -> Check {
    Check::Always { program: program.to_string(), assume: strings(assume), holds: strings(holds) }
}

fn not_checkable(reason: &str) -> Check {
    Check::NotCheckable { reason: reason.to_string() }
}

fn fails(program: &str, assume: &[&str], holds: &[&str]) -> Check {
    Check::Fails { program: program.to_string(), assume: strings(assume), holds: strings(holds) }
}

/// A shfl example program of 9.7.9.5: five rounds of `shfl.mode.b32` by
/// `offsets` with clamp `c`, each followed by an add (`@p`-guarded when the
/// shuffle writes `p`), with `add.u32` in place of the spec's `add.f32`.
fn shfl_program(mode: &str, offsets: [u32; 5], c: u32, guarded: bool) -> String {
    offsets
        .iter()
        .map(|b| {
            let (dest, guard) = if guarded { ("Ry|p", "@p ") } else { ("Ry", "") };
            format!("shfl.{mode}.b32 {dest}, Rx, {b:#x}, {c:#x};\n{guard}add.u32 Rx, Ry, Rx;\n")
        })
        .collect()
}

/// The inclusive plus-scan.
pub fn shfl_scan() -> String {
    shfl_program("up", [1, 2, 4, 8, 16], 0, true)
}

/// The inclusive plus reverse-scan.
pub fn shfl_reverse_scan() -> String {
    shfl_program("down", [1, 2, 4, 8, 16], 0x1f, true)
}

/// The butterfly reduction.
pub fn shfl_butterfly() -> String {
    shfl_program("bfly", [16, 8, 4, 2, 1], 0x1f, false)
}

/// The lop3 table of 9.7.8.6: column label number, the function as the
/// label writes it, the column's bits for rows (ta, tb, tc) = 000..111 (row
/// r in bit r), and the immLut row.
const LOP3_TABLE: [(u32, &str, u8, u8); 5] = [
    (0, "False", 0b0000_0000, 0x00),
    (1, "ta & tb & tc", 0b1000_0000, 0x80),
    (2, "ta & tb & ~tc", 0b0100_0000, 0x40),
    (254, "ta | tb | tc", 0b1111_1110, 0xfe),
    (255, "True", 0b1111_1111, 0xff),
];

/// Every claim, in section order.
pub fn all() -> Vec<Claim> {
    let mut c = integer_claims();
    c.extend(logic_claims());
    c.extend(shfl_claims());
    c.extend(description_claims());
    c.extend(syntax_claims());
    // Section order (9.7.1.2 before 9.7.1.10), the table's order within one.
    c.sort_by_key(|claim| section_key(claim.section));
    c
}

/// `9.7.1.12` as numbers, for sorting.
pub fn section_key(section: &str) -> Vec<u32> {
    section.split(['.', '-']).map(|n| n.parse().unwrap_or(0)).collect()
}

/// The result each Description states, in the condition language and
/// without the pseudocode: the prose side of the audit's prose-against-
/// pseudocode check (the model these run on is proven equal to the
/// transcribed pseudocode). Each row: id, section, statement, fragment,
/// program, assumptions, conditions.
type DescriptionRow = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const DESCRIPTION_RESULTS: &[DescriptionRow] = &[
    (
        "add-is-sum",
        "9.7.1.1",
        "add.u32 writes a + b modulo 2^32",
        "Performs addition",
        "add.u32 d, a, b;",
        &[],
        &["d == a + b"],
    ),
    (
        "add-halves-in-parallel",
        "9.7.1.1",
        "add.u16x2 adds the two half-words independently",
        "added in parallel",
        "add.u16x2 d, a, b;",
        &[],
        &["d & 0xffff == (a + b) & 0xffff", "d >> 16 == (a >> 16) + (b >> 16) & 0xffff"],
    ),
    (
        "sub-is-difference",
        "9.7.1.2",
        "sub.s32 writes a - b modulo 2^32",
        "Performs subtraction",
        "sub.s32 d, a, b;",
        &[],
        &["d == a - b"],
    ),
    (
        "mul-wide-is-product",
        "9.7.1.3",
        "mul.wide.u32 writes the full 64-bit product",
        "product of two values",
        "mul.wide.u32 d, a, b;",
        &[],
        &["d == (0:a) * (0:b)"],
    ),
    (
        "mul-wide-signed-is-product",
        "9.7.1.3",
        "mul.wide.s32 writes the full 64-bit signed product",
        "product of two values",
        "mul.wide.s32 d, a, b;",
        &[],
        &["d == (a:a >>s 32) * (b:b >>s 32)"],
    ),
    (
        "mul-hi-is-high-half",
        "9.7.1.3",
        "mul.hi.u32 writes the high 32 bits of the product",
        "product of two values",
        "mul.hi.u32 d, a, b;",
        &[],
        &["d == (0:a) * (0:b) >> 32"],
    ),
    (
        "mul24-lo-of-24-bit-product",
        "9.7.1.5",
        "mul24.lo.u32 writes the low 32 bits of the product of a and b's low 24 bits",
        "product of two 24-bit integer values",
        "mul24.lo.u32 d, a, b;",
        &[],
        &["d == (a & 0xffffff) * (b & 0xffffff)"],
    ),
    (
        "mul24-hi-of-48-bit-product",
        "9.7.1.5",
        "mul24.hi.u32 writes the high 32 bits of the 48-bit product",
        "the high or low 32-bits of the 48-bit result",
        "mul24.hi.u32 d, a, b;",
        &[],
        &["d == (0:(a & 0xffffff)) * (0:(b & 0xffffff)) >> 16"],
    ),
    (
        "mad24-lo-adds-c",
        "9.7.1.6",
        "mad24.lo.u32 adds c to the low 32 bits of the 48-bit product",
        "add a third, 32-bit value",
        "mad24.lo.u32 d, a, b, c;",
        &[],
        &["d == (a & 0xffffff) * (b & 0xffffff) + c"],
    ),
    (
        "sad-signed-above",
        "9.7.1.7",
        "sad.s32 adds a - b to c where a >= b",
        "Adds the absolute value of `a-b` to `c`",
        "sad.s32 d, a, b, c;",
        &["a >=s b"],
        &["d == c + (a - b)"],
    ),
    (
        "sad-signed-below",
        "9.7.1.7",
        "sad.s32 adds b - a to c where a < b",
        "Adds the absolute value of `a-b` to `c`",
        "sad.s32 d, a, b, c;",
        &["a <s b"],
        &["d == c + (b - a)"],
    ),
    (
        "abs-non-negative",
        "9.7.1.10",
        "abs.s32 of a non-negative a is a",
        "Take the absolute value",
        "abs.s32 d, a;",
        &["a >=s 0"],
        &["d == a"],
    ),
    (
        "abs-negative",
        "9.7.1.10",
        "abs.s32 of a negative a other than the most negative is -a",
        "Take the absolute value",
        "abs.s32 d, a;",
        &["a <s 0", "a != 0x80000000"],
        &["d == 0 - a", "d >s 0"],
    ),
    (
        "neg-negates",
        "9.7.1.11",
        "neg.s32 writes -a modulo 2^32",
        "Negate the sign",
        "neg.s32 d, a;",
        &[],
        &["d == 0 - a"],
    ),
    (
        "min-signed-first",
        "9.7.1.12",
        "min.s32 gives a where a <= b",
        "the minimum of `a` and `b`",
        "min.s32 d, a, b;",
        &["a <=s b"],
        &["d == a"],
    ),
    (
        "min-signed-second",
        "9.7.1.12",
        "min.s32 gives b where b < a",
        "the minimum of `a` and `b`",
        "min.s32 d, a, b;",
        &["b <s a"],
        &["d == b"],
    ),
    (
        "min-unsigned-below-both",
        "9.7.1.12",
        "min.u32 is at most a and at most b",
        "the minimum of `a` and `b`",
        "min.u32 d, a, b;",
        &[],
        &["d <= a", "d <= b"],
    ),
    (
        "max-signed-first",
        "9.7.1.13",
        "max.s32 gives a where a >= b",
        "the maximum of `a` and `b`",
        "max.s32 d, a, b;",
        &["a >=s b"],
        &["d == a"],
    ),
    (
        "max-signed-second",
        "9.7.1.13",
        "max.s32 gives b where b > a",
        "the maximum of `a` and `b`",
        "max.s32 d, a, b;",
        &["b >s a"],
        &["d == b"],
    ),
    (
        "max-unsigned-above-both",
        "9.7.1.13",
        "max.u32 is at least a and at least b",
        "the maximum of `a` and `b`",
        "max.u32 d, a, b;",
        &[],
        &["d >= a", "d >= b"],
    ),
    ("and-bitwise", "9.7.8.1", "and.b32 writes a & b", "bit-wise and", "and.b32 d, a, b;", &[], &["d == a & b"]),
    ("or-bitwise", "9.7.8.2", "or.b32 writes a | b", "bit-wise or", "or.b32 d, a, b;", &[], &["d == a | b"]),
    (
        "xor-bitwise",
        "9.7.8.3",
        "xor.b32 writes a ^ b",
        "bit-wise exclusive-or",
        "xor.b32 d, a, b;",
        &[],
        &["d == a ^ b"],
    ),
    (
        "not-inverts",
        "9.7.8.4",
        "not.b32 inverts every bit",
        "Invert the bits",
        "not.b32 d, a;",
        &[],
        &["d == a ^ 0xffffffff"],
    ),
    (
        "cnot-of-zero",
        "9.7.8.5",
        "cnot.b32 of 0 is 1, as C's !",
        "logical negation using C/C++ semantics",
        "cnot.b32 d, a;",
        &["a == 0"],
        &["d == 1"],
    ),
    (
        "cnot-of-non-zero",
        "9.7.8.5",
        "cnot.b32 of anything else is 0, as C's !",
        "logical negation using C/C++ semantics",
        "cnot.b32 d, a;",
        &["a != 0"],
        &["d == 0"],
    ),
];

fn description_claims() -> Vec<Claim> {
    let mut c: Vec<Claim> = DESCRIPTION_RESULTS
        .iter()
        .map(|&(id, section, statement, fragment, program, assume, holds)| {
            claim(id, section, Kind::Prose, statement, Some(fragment), always(program, assume, holds))
        })
        .collect();
    // Sums and bit orders too long to write out by hand.
    let dot = |signed: bool, bytes: [u32; 4]| -> String {
        let byte = |r: &str, k: u32| {
            if signed {
                format!("({r} << {} >>s 24)", 24 - 8 * k)
            } else {
                format!("({r} >> {} & 0xff)", 8 * k)
            }
        };
        bytes
            .iter()
            .enumerate()
            .map(|(i, &k)| format!("{} * {}", byte("a", i as u32), byte("b", k)))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let popc = |width: u32| (0..width).map(|i| format!("(a >> {i} & 1)")).collect::<Vec<_>>().join(" + ");
    let brev: Vec<String> = (0..32).map(|i| format!("d >> {i} & 1 == a >> {} & 1", 31 - i)).collect();
    let prose = |id: &str,
                 section: &'static str,
                 statement: &str,
                 fragment: &'static str,
                 program: &str,
                 holds: Vec<String>| {
        let holds: Vec<&str> = holds.iter().map(String::as_str).collect();
        claim(id, section, Kind::Prose, statement, Some(fragment), always(program, &[], &holds))
    };
    c.extend([
        prose(
            "popc-counts-ones-b32",
            "9.7.1.14",
            "popc.b32 is the number of one bits of a",
            "Count the number of one bits",
            "popc.b32 d, a;",
            vec![format!("d == {}", popc(32))],
        ),
        prose(
            "popc-counts-ones-b64",
            "9.7.1.14",
            "popc.b64 is the number of one bits of a",
            "Count the number of one bits",
            "popc.b64 d, a;",
            vec![format!("0:d == {}", popc(64))],
        ),
        prose(
            "brev-reverses",
            "9.7.1.18",
            "brev.b32 puts bit 31 - i of a at bit i",
            "bitwise reversal",
            "brev.b32 d, a;",
            brev,
        ),
        prose(
            "dp4a-unsigned",
            "9.7.1.23",
            "dp4a.u32.u32 adds the four byte products to c",
            "Four-way byte dot product",
            "dp4a.u32.u32 d, a, b, c;",
            vec![format!("d == c + {}", dot(false, [0, 1, 2, 3]))],
        ),
        prose(
            "dp4a-signed",
            "9.7.1.23",
            "dp4a.s32.s32 adds the four signed byte products to c",
            "Four-way byte dot product",
            "dp4a.s32.s32 d, a, b, c;",
            vec![format!("d == c + {}", dot(true, [0, 1, 2, 3]))],
        ),
    ]);
    c
}

/// Two claims per example instruction: it fits its section's Syntax block,
/// and it is a legal variant of the catalogue. Floating-point instructions
/// (the spec's shfl examples add with add.f32) lie outside both.
fn syntax_claims() -> Vec<Claim> {
    let mut numbered: Vec<(&str, usize)> = Vec::new();
    let mut claims = Vec::new();
    for &(section, text) in EXAMPLE_INSTRUCTIONS.iter() {
        let n = match numbered.iter_mut().find(|(s, _)| *s == section) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                numbered.push((section, 1));
                1
            }
        };
        let outside = |what: &str| Check::NotCheckable {
            reason: format!("a floating-point instruction, outside {what} (integer, logic and shift only)"),
        };
        let float = text.contains(".f32");
        claims.push(claim(
            &format!("example-syntax-{n}"),
            section,
            Kind::Syntax,
            &format!("the example `{text}` fits the section's Syntax block"),
            None,
            if float { outside("the section's Syntax block") } else { Check::FitsSyntax { text: text.to_string() } },
        ));
        claims.push(claim(
            &format!("example-catalogue-{n}"),
            section,
            Kind::Syntax,
            &format!("the example `{text}` is a legal variant of the catalogue"),
            None,
            if float { outside("the catalogue") } else { Check::Parses { text: text.to_string() } },
        ));
    }
    claims
}

/// The three claims of a `.sat` modifier: `program` computes the saturated
/// result `d` and the exact result `e` in 64 bits; `d` is `e` where that fits
/// in 32 bits, MAXINT above and MININT below.
fn saturation_claims(name: &str, section: &'static str, what: &str, program: &str) -> Vec<Claim> {
    let fragment = Some("limits result to MININT..MAXINT");
    let id = name.replace('.', "-");
    vec![
        claim(
            &format!("{id}-sat-in-range"),
            section,
            Kind::Prose,
            &format!("{name}.sat.s32 gives the exact {what} wherever it fits in 32 bits"),
            fragment,
            always(program, &["e >=s 0xffffffff80000000", "e <=s 0x7fffffff"], &["e == d:d >>s 32"]),
        ),
        claim(
            &format!("{id}-sat-above"),
            section,
            Kind::Prose,
            &format!("{name}.sat.s32 gives MAXINT where the exact {what} is above it"),
            fragment,
            always(program, &["e >s 0x7fffffff"], &["d == 0x7fffffff"]),
        ),
        claim(
            &format!("{id}-sat-below"),
            section,
            Kind::Prose,
            &format!("{name}.sat.s32 gives MININT where the exact {what} is below it"),
            fragment,
            always(program, &["e <s 0xffffffff80000000"], &["d == 0x80000000"]),
        ),
    ]
}

fn integer_claims() -> Vec<Claim> {
    use Kind::*;
    // Exact results in 64 bits: each 32-bit operand sign-extended by
    // mul.wide.s32 by 1.
    let mut c = saturation_claims(
        "add",
        "9.7.1.1",
        "sum",
        "add.sat.s32 d, a, b; mul.wide.s32 ea, a, 1; mul.wide.s32 eb, b, 1; add.s64 e, ea, eb;",
    );
    c.extend(saturation_claims(
        "sub",
        "9.7.1.2",
        "difference",
        "sub.sat.s32 d, a, b; mul.wide.s32 ea, a, 1; mul.wide.s32 eb, b, 1; sub.s64 e, ea, eb;",
    ));
    c.extend(saturation_claims("mad.hi", "9.7.1.4", "sum of the high product half and c",
        "mad.hi.sat.s32 d, a, b, c; mul.hi.s32 h, a, b; mul.wide.s32 eh, h, 1; mul.wide.s32 ec, c, 1; add.s64 e, eh, ec;"));
    c.extend(vec![
        // 9.7.1.3-7: what the examples' comments say
        claim(
            "mul-wide-s16-comment",
            "9.7.1.3",
            Example,
            "mul.wide.s16 gives the whole 32-bit product of two 16-bit operands",
            Some("16*16 bits yields 32 bits"),
            always("mul.wide.s16 fa, fxs, fys;", &[], &["fa == (fxs:fxs >>s 16) * (fys:fys >>s 16)"]),
        ),
        claim(
            "mul-lo-s16-comment",
            "9.7.1.3",
            Example,
            "mul.lo.s16 keeps the low 16 bits of the product",
            Some("save only the low 16 bits"),
            always("mul.lo.s16 fa, fxs, fys;", &[], &["fa == fxs * fys"]),
        ),
        claim(
            "mul-wide-s32-comment",
            "9.7.1.3",
            Example,
            "mul.wide.s32 gives the whole 64-bit product of two 32-bit operands",
            Some("creates 64 bit result"),
            always("mul.wide.s32 z, x, y;", &[], &["z == (x:x >>s 32) * (y:y >>s 32)"]),
        ),
        claim(
            "mul24-lo-comment",
            "9.7.1.5",
            Example,
            "mul24.lo.s32 gives the low 32 bits of the product of the operands' low 24 bits, read as signed",
            Some("low 32-bits of 24x24-bit signed multiply"),
            always("mul24.lo.s32 d, a, b;", &[], &["d == ((a << 8) >>s 8) * ((b << 8) >>s 8)"]),
        ),
        claim(
            "mad24-lo-comment",
            "9.7.1.6",
            Example,
            "mad24.lo.s32 adds c to the low 32 bits of the signed 24x24-bit product",
            Some("low 32-bits of 24x24-bit signed multiply"),
            always("mad24.lo.s32 d, a, b, c;", &[], &["d == ((a << 8) >>s 8) * ((b << 8) >>s 8) + c"]),
        ),
        claim(
            "sad-running-sum-above",
            "9.7.1.7",
            Example,
            "sad.u32 d, a, b, d adds a - b to d where a >= b",
            Some("running sum"),
            always("sad.u32 d, a, b, d;", &["a >= b"], &["d == d@in + (a - b)"]),
        ),
        claim(
            "sad-running-sum-below",
            "9.7.1.7",
            Example,
            "sad.u32 d, a, b, d adds b - a to d where a < b",
            Some("running sum"),
            always("sad.u32 d, a, b, d;", &["a < b"], &["d == d@in + (b - a)"]),
        ),
        // 9.7.1.17: fns
        claim(
            "fns-not-found",
            "9.7.1.17",
            Prose,
            "fns of an empty mask gives 0xffffffff for every base and offset",
            Some("If not found, store 0xffffffff in `d`."),
            always("fns.b32 d, 0, base, offset;", &["base <= 31"], &["d == 0xffffffff"]),
        ),
        claim(
            "fns-finds-a-set-bit",
            "9.7.1.17",
            Prose,
            "whatever fns finds is a set bit of mask",
            Some("find the n-th (given by offset) set bit in `mask` from the `base` bit"),
            always(
                "fns.b32 d, mask, base, offset;",
                &["base <= 31", "d != 0xffffffff"],
                &["d <= 31", "(mask >> d) & 1 == 1"],
            ),
        ),
        claim(
            "fns-direction",
            "9.7.1.17",
            Derived,
            "fns searches upwards from base for a positive offset and downwards for a negative one",
            None,
            always(
                "fns.b32 d, mask, base, offset; fns.b32 e, mask, base, neg;",
                &["base <= 31", "offset >s 0", "neg <s 0", "d != 0xffffffff", "e != 0xffffffff"],
                &["d >= base", "e <= base"],
            ),
        ),
        claim(
            "fns-example-1",
            "9.7.1.17",
            Example,
            "fns.b32 d, 0xaaaaaaaa, 3, 1 gives d = 3",
            Some("// d = 3"),
            values("fns.b32 d, 0xaaaaaaaa, 3, 1;", &[], &["d == 3"]),
        ),
        claim(
            "fns-example-2",
            "9.7.1.17",
            Example,
            "fns.b32 d, 0xaaaaaaaa, 3, -1 gives d = 3",
            Some("// d = 3"),
            values("fns.b32 d, 0xaaaaaaaa, 3, -1;", &[], &["d == 3"]),
        ),
        claim(
            "fns-example-3",
            "9.7.1.17",
            Example,
            "fns.b32 d, 0xaaaaaaaa, 2, 1 gives d = 3",
            Some("// d = 3"),
            values("fns.b32 d, 0xaaaaaaaa, 2, 1;", &[], &["d == 3"]),
        ),
        claim(
            "fns-example-4",
            "9.7.1.17",
            Example,
            "fns.b32 d, 0xaaaaaaaa, 2, -1 gives d = 1",
            Some("// d = 1"),
            values("fns.b32 d, 0xaaaaaaaa, 2, -1;", &[], &["d == 1"]),
        ),
        // 9.7.1.21-22: szext and bmsk worked values
        claim(
            "szext-example",
            "9.7.1.21",
            Example,
            "szext.wrap.u32 rd, 0xffffffff, 0 gives 0",
            Some("Result is 0."),
            values("szext.wrap.u32 rd, 0xffffffff, 0;", &[], &["rd == 0"]),
        ),
        claim(
            "szext-n-zero",
            "9.7.1.21",
            Prose,
            "szext with N = 0 gives 0, in both modes and for both types",
            Some("If the value of N is 0, then the result of `szext` is 0"),
            always(
                "szext.clamp.u32 d1, a, 0; szext.wrap.u32 d2, a, 0; szext.clamp.s32 d3, a, 0; szext.wrap.s32 d4, a, 0;",
                &[],
                &["d1 == 0", "d2 == 0", "d3 == 0", "d4 == 0"],
            ),
        ),
        claim(
            "szext-clamp-wide",
            "9.7.1.21",
            Prose,
            "szext.clamp with N >= 32 gives a unchanged",
            Some("If `.mode` is `.clamp`, then the result is the same as the source operand"),
            always("szext.clamp.u32 d1, a, b; szext.clamp.s32 d2, a, b;", &["b >= 32"], &["d1 == a", "d2 == a"]),
        ),
        claim(
            "szext-wrap-wide",
            "9.7.1.21",
            Prose,
            "szext.wrap with N >= 32 gives the result for N mod 32",
            Some("computed using the wrapped value of N"),
            always(
                "szext.wrap.u32 d1, a, b; szext.wrap.u32 e1, a, c; szext.wrap.s32 d2, a, b; szext.wrap.s32 e2, a, c;",
                &["b >= 32", "c == b & 31"],
                &["d1 == e1", "d2 == e2"],
            ),
        ),
        claim(
            "bmsk-example",
            "9.7.1.22",
            Example,
            "bmsk.wrap.b32 rd, 1, 2 creates the mask 0x00000006",
            Some("Creates a bitmask of 0x00000006."),
            values("bmsk.wrap.b32 rd, 1, 2;", &[], &["rd == 6"]),
        ),
        claim(
            "bmsk-zero-clamp-position",
            "9.7.1.22",
            Prose,
            "bmsk.clamp gives 0 when a >= 32",
            Some("When the value of `a` is 32 or higher and `.mode` is `.clamp`"),
            always("bmsk.clamp.b32 d, a, b;", &["a >= 32"], &["d == 0"]),
        ),
        claim(
            "bmsk-zero-width",
            "9.7.1.22",
            Prose,
            "bmsk gives 0 when b is 0 (either mode) or b mod 32 is 0 under .wrap",
            Some("the specified value of `b` or the wrapped value of `b`"),
            always(
                "bmsk.clamp.b32 d1, a, b; bmsk.wrap.b32 d2, a, b; bmsk.wrap.b32 d3, a, c;",
                &["b == 0", "c & 31 == 0"],
                &["d1 == 0", "d2 == 0", "d3 == 0"],
            ),
        ),
        claim(
            "bmsk-zero-only-then",
            "9.7.1.22",
            Derived,
            "bmsk.wrap gives a non-zero mask whenever b mod 32 is not 0: a mask running past bit 31 is cut there, \
             never emptied, so the listed cases are the only zero ones",
            None,
            always("bmsk.wrap.b32 d, a, b;", &["b & 31 != 0"], &["d != 0"]),
        ),
        // 9.7.1.14-16: result ranges
        claim(
            "popc-range-b32",
            "9.7.1.14",
            Derived,
            "popc.b32 gives at most 32",
            None,
            always("popc.b32 d, a;", &[], &["d <= 32"]),
        ),
        claim(
            "popc-range-b64",
            "9.7.1.14",
            Derived,
            "popc.b64 gives at most 64",
            None,
            always("popc.b64 d, a;", &[], &["d <= 64"]),
        ),
        claim(
            "clz-range-b32",
            "9.7.1.15",
            Prose,
            "clz.b32 gives 0 to 32",
            Some("between 0 and 32, inclusively"),
            always("clz.b32 d, a;", &[], &["d <= 32"]),
        ),
        claim(
            "clz-range-b64",
            "9.7.1.15",
            Prose,
            "clz.b64 gives 0 to 64",
            Some("between 0 and 64, inclusively"),
            always("clz.b64 d, a;", &[], &["d <= 64"]),
        ),
        claim(
            "clz-of-zero",
            "9.7.1.15",
            Derived,
            "clz.b32 of 0 is 32",
            None,
            always("clz.b32 d, a;", &["a == 0"], &["d == 32"]),
        ),
        claim(
            "clz-of-non-zero",
            "9.7.1.15",
            Derived,
            "clz.b32 of a non-zero a is below 32",
            None,
            always("clz.b32 d, a;", &["a != 0"], &["d < 32"]),
        ),
        claim(
            "bfind-none-found",
            "9.7.1.16",
            Prose,
            "bfind gives 0xffffffff when no non-sign bit is found: a = 0 (unsigned and signed) or a = -1 (signed)",
            Some("`bfind` returns `0xffffffff` if no non-sign bit is found"),
            always(
                "bfind.u32 d1, 0; bfind.s32 d2, 0; bfind.s32 d3, -1; bfind.u64 d4, 0; bfind.s64 d5, -1; \
                    bfind.shiftamt.u32 d6, 0; bfind.shiftamt.s64 d7, -1;",
                &[],
                &[
                    "d1 == 0xffffffff",
                    "d2 == 0xffffffff",
                    "d3 == 0xffffffff",
                    "d4 == 0xffffffff",
                    "d5 == 0xffffffff",
                    "d6 == 0xffffffff",
                    "d7 == 0xffffffff",
                ],
            ),
        ),
        claim(
            "bfind-range",
            "9.7.1.16",
            Derived,
            "bfind.u32 of a non-zero a gives a bit position 0..31",
            None,
            always("bfind.u32 d, a;", &["a != 0"], &["d <= 31"]),
        ),
        claim(
            "bfind-shiftamt-is-clz",
            "9.7.1.16",
            Derived,
            "bfind.shiftamt.u32 equals clz.b32 for every non-zero a",
            None,
            always("bfind.shiftamt.u32 d, a; clz.b32 z, a;", &["a != 0"], &["d == z"]),
        ),
        claim(
            "bfind-shiftamt-shifts-to-msb",
            "9.7.1.16",
            Prose,
            "bfind.shiftamt.u32 gives the left shift that moves the found bit into bit 31",
            Some("the shift amount needed to left-shift the found bit"),
            always("bfind.shiftamt.u32 d, a; shl.b32 s, a, d;", &["a != 0"], &["s >> 31 == 1"]),
        ),
        // 9.7.1.19-20: bfe and bfi
        claim(
            "bfe-zero-length",
            "9.7.1.19",
            Prose,
            "bfe with length 0 gives 0 for every type and position",
            Some("If the bit field length is zero, the result is zero."),
            always(
                "bfe.u32 d1, a, b, 0; bfe.s32 d2, a, b, 0; bfe.u64 d3, x, b, 0; bfe.s64 d4, x, b, 0;",
                &[],
                &["d1 == 0", "d2 == 0", "d3 == 0", "d4 == 0"],
            ),
        ),
        claim(
            "bfe-start-past-msb",
            "9.7.1.19",
            Prose,
            "bfe with a start position past the msb fills d with the field's sign bit: 0 unsigned, the msb of a signed",
            Some("the destination `d` is filled with the replicated sign bit"),
            always(
                "bfe.u32 d1, a, b, c; bfe.s32 d2, a, b, c;",
                &["b >= 32", "b <= 255", "c >= 1", "c <= 255"],
                &["d1 == 0", "d2 == a >>s 31"],
            ),
        ),
        claim(
            "bfe-examples-u-and-s",
            "9.7.1.19",
            Derived,
            "bfe.u32 of 0xf0 at 4 for 4 bits gives 0xf, and bfe.s32 sign-extends it to 0xffffffff",
            None,
            values("bfe.u32 d1, 0xf0, 4, 4; bfe.s32 d2, 0xf0, 4, 4;", &[], &["d1 == 0xf", "d2 == 0xffffffff"]),
        ),
        claim(
            "bfi-zero-length",
            "9.7.1.20",
            Prose,
            "bfi with length 0 gives b",
            Some("If the bit field length is zero, the result is `b`."),
            always("bfi.b32 f, a, b, c, 0; bfi.b64 g, x, y, c, 0;", &[], &["f == b", "g == y"]),
        ),
        claim(
            "bfi-start-past-msb",
            "9.7.1.20",
            Prose,
            "bfi with a start position past the msb gives b",
            Some("If the start position is beyond the msb of the input, the result is `b`."),
            always("bfi.b32 f, a, b, c, d;", &["c >= 32", "c <= 255"], &["f == b"]),
        ),
        claim(
            "bfe-undoes-bfi",
            "9.7.1.20",
            Derived,
            "bfe.u32 reads back the field bfi.b32 inserted, wherever the field fits in the word",
            None,
            always(
                "bfi.b32 f, a, b, c, d; bfe.u32 e, f, c, d; bfe.u32 lo, a, 0, d;",
                &["d >= 1", "c + d <= 32", "c <= 31", "d <= 32"],
                &["e == lo"],
            ),
        ),
        // Derived identities between variants
        claim(
            "add-u16x2-is-s16x2",
            "9.7.1.1",
            Derived,
            "add.u16x2 and add.s16x2 compute the same bits",
            None,
            always("add.u16x2 d, a, b; add.s16x2 e, a, b;", &[], &["d == e"]),
        ),
        claim(
            "mul-lo-sign-free",
            "9.7.1.3",
            Derived,
            "mul.lo.s32 and mul.lo.u32 compute the same bits",
            None,
            always("mul.lo.s32 d, a, b; mul.lo.u32 e, a, b;", &[], &["d == e"]),
        ),
        claim(
            "brev-involution",
            "9.7.1.18",
            Derived,
            "brev.b32 twice gives a back",
            None,
            always("brev.b32 r, a; brev.b32 s, r;", &[], &["s == a"]),
        ),
        claim(
            "max-relu-non-negative",
            "9.7.1.13",
            Prose,
            "max.relu.s32 never gives a negative result",
            Some(".relu"),
            always("max.relu.s32 d, a, b;", &[], &["d >=s 0"]),
        ),
        claim(
            "min-relu-non-negative",
            "9.7.1.12",
            Prose,
            "min.relu.s32 never gives a negative result",
            Some(".relu"),
            always("min.relu.s32 d, a, b;", &[], &["d >=s 0"]),
        ),
        claim(
            "mul24-hi-efficiency",
            "9.7.1.5",
            Note,
            "mul24.hi may be less efficient without 24-bit multiply hardware",
            Some("may be less efficient"),
            not_checkable("a statement about speed, not about values"),
        ),
        claim(
            "mad24-hi-efficiency",
            "9.7.1.6",
            Note,
            "mad24.hi may be less efficient without 24-bit multiply hardware",
            Some("may be less efficient"),
            not_checkable("a statement about speed, not about values"),
        ),
        claim(
            "div-by-zero",
            "9.7.1.8",
            Prose,
            "division by zero gives an unspecified, machine-specific value",
            Some("unspecified, machine-specific value"),
            not_checkable(
                "it states that the spec defines no value; the model leaves the result undefined \
                           (assumption div-by-zero-unspecified) and every proof covers that",
            ),
        ),
        claim(
            "rem-negative",
            "9.7.1.9",
            Prose,
            "rem of negative operands is machine-dependent",
            Some("machine-dependent"),
            not_checkable(
                "it states that the spec defines no value; the model leaves the result undefined \
                           (assumption rem-negative-machine-dependent) and keeps both roundings as readings",
            ),
        ),
        claim(
            "fns-base-undefined",
            "9.7.1.17",
            Prose,
            "fns with base above 31 is undefined",
            Some("otherwise behavior is undefined"),
            not_checkable(
                "it states that the spec defines nothing; the model leaves the result undefined \
                           (assumption fns-base-above-31-undefined)",
            ),
        ),
        claim(
            "rem-example",
            "9.7.1.9",
            Example,
            "rem.s32 x, x, 8 computes x % 8 for non-negative x",
            Some("x = x%8;"),
            always("rem.s32 y, x, 8;", &["x >=s 0"], &["y == x & 7"]),
        ),
    ]);
    c
}

fn logic_claims() -> Vec<Claim> {
    use Kind::*;
    let mut c = Vec::new();
    // 9.7.8.6 lop3: the four worked immLut values, and that each table
    // function is computed by its immLut for all inputs.
    let worked: [(&str, &str, &str, u32); 4] = [
        ("and3", "and.b32 t, 0xF0, 0xCC; and.b32 v, t, 0xAA;", "a & b & c", 0x80),
        ("or3", "or.b32 t, 0xF0, 0xCC; or.b32 v, t, 0xAA;", "a | b | c", 0xfe),
        ("and-and-not", "and.b32 t, 0xF0, 0xCC; not.b32 n, 0xAA; and.b32 v, t, n;", "a & b & (c ^ -1)", 0x40),
        ("mixed", "and.b32 t, 0xF0, 0xCC; or.b32 u, t, 0xAA; xor.b32 v, u, 0xF0;", "(a & b | c) ^ a", 0x1a),
    ];
    for (name, program, f, lut) in worked {
        c.push(claim(
            &format!("lop3-immlut-{name}"),
            "9.7.8.6",
            Example,
            &format!("for F = {f}, F(0xF0, 0xCC, 0xAA) = {lut:#04x}"),
            Some("immLut = F(ta, tb, tc)"),
            values(program, &[], &[&format!("v == {lut:#x}")]),
        ));
        c.push(claim(
            &format!("lop3-computes-{name}"),
            "9.7.8.6",
            Identity,
            &format!("lop3.b32 with immLut {lut:#04x} computes {f} for all a, b, c"),
            Some("immLut = F(ta, tb, tc)"),
            always(&format!("lop3.b32 d, a, b, c, {lut:#x};"), &[], &[&format!("d == {f}")]),
        ));
    }
    for (label, name, bits, lut) in LOP3_TABLE {
        let rows: String =
            (0..8u32).map(|r| format!("lop3.b32 r{r}, {}, {}, {}, {lut:#x}; ", r >> 2, r >> 1 & 1, r & 1)).collect();
        let expect: Vec<String> = (0..8u32).map(|r| format!("r{r} & 1 == {}", bits >> r & 1)).collect();
        let expect: Vec<&str> = expect.iter().map(String::as_str).collect();
        c.push(claim(&format!("lop3-table-column-{label}"), "9.7.8.6", Example,
            &format!("the table's column `Oper {label} ({name})` lists, for rows ta tb tc = 000..111, the outputs of immLut {lut:#04x}"),
            None, values(&rows, &[], &expect)));
        c.push(claim(
            &format!("lop3-table-label-{label}"),
            "9.7.8.6",
            Example,
            &format!("the column labelled `Oper {label} ({name})` is the operation whose immLut is {label}"),
            Some("Oper 1 (ta & tb & tc)"),
            values(&format!("lop3.b32 v, 0xF0, 0xCC, 0xAA, {lut:#x};"), &[], &[&format!("v & 0xff == {label}")]),
        ));
    }

    // 9.7.8.7 shf: rotates and multi-word shifts.
    let rotl = "r == (a << (n & 31)) | (a >> (32 - (n & 31)))";
    c.extend([
        claim("shf-rotate-left-wrap", "9.7.8.7", Note, "shf.l.wrap with a = b rotates a left by n mod 32, for every n",
            Some("supplying the same value for source arguments `a` and `b`"),
            always("shf.l.wrap.b32 r, a, a, n;", &[], &[rotl])),
        claim("shf-rotate-right-wrap", "9.7.8.7", Note, "shf.r.wrap with a = b rotates a right by n mod 32, for every n",
            Some("supplying the same value for source arguments `a` and `b`"),
            always("shf.r.wrap.b32 r, a, a, n;", &[], &["r == (a >> (n & 31)) | (a << (32 - (n & 31)))"])),
        claim("shf-rotate-left-clamp", "9.7.8.7", Example, "shf.l.clamp with a = b rotates a left by n, for n < 32",
            Some("rotate left by n; n < 32"),
            always("shf.l.clamp.b32 r1, r0, r0, n;", &["n < 32"], &["r1 == (r0 << n) | (r0 >> (32 - n))"])),
        claim("shf-rotate-right-clamp", "9.7.8.7", Example, "shf.r.clamp with a = b rotates a right by n, for n < 32",
            Some("rotate right by n; n < 32"),
            always("shf.r.clamp.b32 r1, r0, r0, n;", &["n < 32"], &["r1 == (r0 >> n) | (r0 << (32 - n))"])),
        claim("shf-rotate-clamp-stops", "9.7.8.7", Derived,
            "shf.l.clamp with a = b is not a rotate by n mod 32 once n >= 32: it rotates by 32 (returns a) instead",
            None,
            fails("shf.l.clamp.b32 r1, r0, r0, n;", &["n >= 33"], &["r1 == (r0 << (n & 31)) | (r0 >> (32 - (n & 31)))"])),
        claim("shf-128-left", "9.7.8.7", Example, "the four-instruction sequence shifts the 128-bit [r3,r2,r1,r0] left by n, for n < 32",
            Some("128-bit left shift; n < 32"),
            always(SHF_128_LEFT, &["n < 32"], &["r7:r6:r5:r4 == r3:r2:r1:r0 << n"])),
        claim("shf-128-left-stops", "9.7.8.7", Derived,
            "the 128-bit left shift sequence does not shift by n once n >= 32 (shf.clamp stops at 32, shl at the word)",
            None, fails(SHF_128_LEFT, &["n >= 32", "n < 128"], &["r7:r6:r5:r4 == r3:r2:r1:r0 << n"])),
        claim("shf-128-right", "9.7.8.7", Example,
            "the four-instruction sequence shifts the 128-bit [r3,r2,r1,r0] right arithmetically by n, for n < 32",
            Some("128-bit right shift, arithmetic; n < 32"),
            always(SHF_128_RIGHT, &["n < 32"], &["r7:r6:r5:r4 == r3:r2:r1:r0 >>s n"])),
        claim("shf-128-right-stops", "9.7.8.7", Derived,
            "the 128-bit right shift sequence does not shift by n once n >= 32", None,
            fails(SHF_128_RIGHT, &["n >= 32", "n < 128"], &["r7:r6:r5:r4 == r3:r2:r1:r0 >>s n"])),
        claim("shf-clamp-limits-amount", "9.7.8.7", Note, "shf.clamp shifts by 32 for every amount of 32 or more",
            Some("limited to the range `0..32` in clamp mode"),
            always("shf.l.clamp.b32 d, a, b, c; shf.l.clamp.b32 e, a, b, 32; shf.r.clamp.b32 f, a, b, c; shf.r.clamp.b32 g, a, b, 32;",
                &["c >= 32"], &["d == e", "f == g", "d == a", "f == b"])),
        claim("shf-wrap-limits-amount", "9.7.8.7", Note, "shf.wrap shifts by the amount mod 32",
            Some("`0..31` in wrap mode"),
            always("shf.l.wrap.b32 d, a, b, c; and.b32 k, c, 31; shf.l.wrap.b32 e, a, b, k; shf.r.wrap.b32 f, a, b, c; shf.r.wrap.b32 g, a, b, k;",
                &[], &["d == e", "f == g"])),
        claim("shf-funnel", "9.7.8.7", Prose,
            "shf.l.clamp writes the high word, shf.r.clamp the low word, of [b, a] shifted by c (c <= 32)",
            Some("Shift the 64-bit value formed by concatenating operands"),
            always("shf.l.clamp.b32 d, a, b, c; shf.r.clamp.b32 e, a, b, c;", &["c <= 32"],
                &["d == (b:a << c) >> 32", "e == (b:a >> c) & 0xffffffff"])),
        claim("shf-extract-64", "9.7.8.7", Example, "shf.r.clamp extracts the 32 bits of [r1,r0] starting at bit n, for n < 32",
            Some("extract 32-bits from [r1,r0] starting at position n < 32"),
            always("shf.r.clamp.b32 r0, r0, r1, n;", &["n < 32"], &["r0 == (r1:r0@in >> n) & 0xffffffff"])),
        claim("shf-extract-64-clamps", "9.7.8.7", Derived,
            "for n >= 32 the extraction gives r1 (bits 32..63), not bits n..n+31", None,
            always("shf.r.clamp.b32 r0, r0, r1, n;", &["n >= 32"], &["r0 == r1"])),
        // 9.7.8.8-9: clamping notes
        claim("shl-clamped", "9.7.8.8", Note, "shl by any amount above the width gives what a shift by the width gives: 0",
            Some("Shift amounts greater than the register width *N* are clamped to *N*."),
            always("shl.b16 h, x, b; shl.b16 hn, x, 16; shl.b32 w, a, b; shl.b32 wn, a, 32; shl.b64 q, y, b; shl.b64 qn, y, 64;",
                &["b > 64"], &["h == hn", "h == 0", "w == wn", "w == 0", "q == qn", "q == 0"])),
        claim("shr-bit-types-are-unsigned", "9.7.8.9", Note,
            "shr of a .b type shifts like the .u type of its width (zero fill)",
            Some("Bit-size types are included for symmetry with `shl`."),
            always("shr.b16 h, x, b; shr.u16 hu, x, b; shr.b32 w, a, b; shr.u32 wu, a, b; shr.b64 q, y, b; shr.u64 qu, y, b;",
                &[], &["h == hu", "w == wu", "q == qu"])),
        claim("shr-clamped", "9.7.8.9", Note,
            "shr by any amount above the width gives what a shift by the width gives: 0, or the sign for .s types",
            Some("Shift amounts greater than the register width *N* are clamped to *N*."),
            always("shr.u32 w, a, b; shr.u32 wn, a, 32; shr.s32 s, a, b; shr.s32 sn, a, 32;", &["b > 32"],
                &["w == wn", "w == 0", "s == sn", "s == a >>s 31"])),
    ]);
    c
}

const SHF_128_LEFT: &str = "\
shf.l.clamp.b32  r7,r2,r3,n;
shf.l.clamp.b32  r6,r1,r2,n;
shf.l.clamp.b32  r5,r0,r1,n;
shl.b32          r4,r0,n;
";
const SHF_128_RIGHT: &str = "\
shf.r.clamp.b32  r4,r0,r1,n;
shf.r.clamp.b32  r5,r1,r2,n;
shf.r.clamp.b32  r6,r2,r3,n;
shr.s32          r7,r3,n;
";

fn shfl_claims() -> Vec<Claim> {
    use Kind::*;
    vec![
        claim(
            "shfl-inclusive-scan",
            "9.7.9.5",
            Example,
            "the shfl.up program leaves in each lane the sum of Rx over lanes 0 to itself (integer add for add.f32)",
            Some("Warp-level INCLUSIVE PLUS SCAN"),
            Check::Warp { program: shfl_scan(), register: "Rx".into(), sum: WarpSum::Prefix },
        ),
        claim(
            "shfl-reverse-scan",
            "9.7.9.5",
            Example,
            "the shfl.down program leaves in each lane the sum of Rx over lanes itself to 31 (integer add for add.f32)",
            Some("Warp-level INCLUSIVE PLUS REVERSE-SCAN"),
            Check::Warp { program: shfl_reverse_scan(), register: "Rx".into(), sum: WarpSum::Suffix },
        ),
        claim(
            "shfl-butterfly",
            "9.7.9.5",
            Example,
            "the shfl.bfly program leaves the sum of Rx over all lanes in every lane (integer add for add.f32)",
            Some("All threads now hold sum in Rx"),
            Check::Warp { program: shfl_butterfly(), register: "Rx".into(), sum: WarpSum::Total },
        ),
        claim(
            "shfl-out-of-range-b",
            "9.7.9.5",
            Note,
            "a value of b above 31 can still name a valid source lane: data moves and p is true",
            Some("an out of range value of `b` may still result in a valid computed source lane"),
            fails("shfl.up.b32 d|p, a, b, c;", &["b > 31"], &["p == 0"]),
        ),
        claim(
            "shfl-deprecated",
            "9.7.9.5",
            Note,
            "shfl without .sync is deprecated from PTX 6.0 and not supported for sm_70 and above from PTX 6.4",
            Some("deprecated in PTX ISA version 6.0"),
            not_checkable(
                "a statement about PTX versions and targets, recorded in the catalogue and shown by \
                           `prove`, `eval` and `list`; only an assembler can confirm it",
            ),
        ),
        claim(
            "shfl-divergent",
            "9.7.9.5",
            Prose,
            "results are undefined when an active thread reads a register of an inactive thread",
            Some("results are undefined in divergent control flow"),
            Check::NotCheckable {
                reason: "it states where the spec defines nothing; the model follows it (assumption \
                         shfl-unpredictable-source) and the proof covers every unpredictable value"
                    .into(),
            },
        ),
    ]
}
/// Every instruction of the seed sections' Examples blocks, as written
/// (each once per section).
pub const EXAMPLE_INSTRUCTIONS: [(&str, &str); 89] = [
    ("9.7.1.1", "@p  add.u32     x,y,z;"),
    ("9.7.1.1", "add.sat.s32 c,c,1;"),
    ("9.7.1.1", "add.u16x2   u,v,w;"),
    ("9.7.1.2", "sub.s32 c,a,b;"),
    ("9.7.1.3", "mul.wide.s16 fa,fxs,fys;"),
    ("9.7.1.3", "mul.lo.s16 fa,fxs,fys;"),
    ("9.7.1.3", "mul.wide.s32 z,x,y;"),
    ("9.7.1.4", "@p  mad.lo.s32 d,a,b,c;"),
    ("9.7.1.4", "mad.lo.s32 r,p,q,r;"),
    ("9.7.1.5", "mul24.lo.s32 d,a,b;"),
    ("9.7.1.6", "mad24.lo.s32 d,a,b,c;"),
    ("9.7.1.7", "sad.s32  d,a,b,c;"),
    ("9.7.1.7", "sad.u32  d,a,b,d;"),
    ("9.7.1.8", "div.s32  b,n,i;"),
    ("9.7.1.9", "rem.s32  x,x,8;"),
    ("9.7.1.10", "abs.s32  r0,a;"),
    ("9.7.1.11", "neg.s32  r0,a;"),
    ("9.7.1.12", "min.s32  r0,a,b;"),
    ("9.7.1.12", "@p  min.u16  h,i,j;"),
    ("9.7.1.12", "min.s16x2.relu u,v,w;"),
    ("9.7.1.13", "max.u32  d,a,b;"),
    ("9.7.1.13", "max.s32  q,q,0;"),
    ("9.7.1.13", "max.relu.s16x2 t,t,u;"),
    ("9.7.1.14", "popc.b32  d, a;"),
    ("9.7.1.14", "popc.b64  cnt, X;"),
    ("9.7.1.15", "clz.b32  d, a;"),
    ("9.7.1.15", "clz.b64  cnt, X;"),
    ("9.7.1.16", "bfind.u32  d, a;"),
    ("9.7.1.16", "bfind.shiftamt.s64  cnt, X;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 3, 1;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 3, -1;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 2, 1;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 2, -1;"),
    ("9.7.1.18", "brev.b32  d, a;"),
    ("9.7.1.19", "bfe.b32  d,a,start,len;"),
    ("9.7.1.20", "bfi.b32  d,a,b,start,len;"),
    ("9.7.1.21", "szext.clamp.s32 rd, ra, rb;"),
    ("9.7.1.21", "szext.wrap.u32  rd, 0xffffffff, 0;"),
    ("9.7.1.22", "bmsk.clamp.b32  rd, ra, rb;"),
    ("9.7.1.22", "bmsk.wrap.b32   rd, 1, 2;"),
    ("9.7.1.23", "dp4a.u32.u32           d0, a0, b0, c0;"),
    ("9.7.1.23", "dp4a.u32.s32           d1, a1, b1, c1;"),
    ("9.7.1.24", "dp2a.lo.u32.u32           d0, a0, b0, c0;"),
    ("9.7.1.24", "dp2a.hi.u32.s32           d1, a1, b1, c1;"),
    ("9.7.8.1", "and.b32  x,q,r;"),
    ("9.7.8.1", "and.b32  sign,fpvalue,0x80000000;"),
    ("9.7.8.2", "or.b32  mask mask,0x00010001"),
    ("9.7.8.2", "or.pred  p,q,r;"),
    ("9.7.8.3", "xor.b32  d,q,r;"),
    ("9.7.8.3", "xor.b16  d,x,0x0001;"),
    ("9.7.8.4", "not.b32  mask,mask;"),
    ("9.7.8.4", "not.pred  p,q;"),
    ("9.7.8.5", "cnot.b32 d,a;"),
    ("9.7.8.6", "lop3.b32       d, a, b, c, 0x40;"),
    ("9.7.8.6", "lop3.or.b32  d|p, a, b, c, 0x3f, q;"),
    ("9.7.8.6", "lop3.and.b32 _|p, a, b, c, 0x3f, q;"),
    ("9.7.8.7", "shf.l.clamp.b32  r3,r1,r0,16;"),
    ("9.7.8.7", "shf.l.clamp.b32  r7,r2,r3,n;"),
    ("9.7.8.7", "shf.l.clamp.b32  r6,r1,r2,n;"),
    ("9.7.8.7", "shf.l.clamp.b32  r5,r0,r1,n;"),
    ("9.7.8.7", "shl.b32          r4,r0,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r4,r0,r1,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r5,r1,r2,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r6,r2,r3,n;"),
    ("9.7.8.7", "shr.s32          r7,r3,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r1,r0,r0,n;"),
    ("9.7.8.7", "shf.l.clamp.b32  r1,r0,r0,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r0,r0,r1,n;"),
    ("9.7.8.8", "shl.b32  q,a,2;"),
    ("9.7.8.9", "shr.u16  c,a,2;"),
    ("9.7.8.9", "shr.s32  i,i,1;"),
    ("9.7.8.9", "shr.b16  k,i,j;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x1,  0x0;"),
    ("9.7.9.5", "@p  add.f32      Rx, Ry, Rx;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x2,  0x0;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x4,  0x0;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x8,  0x0;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x10, 0x0;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x1,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x2,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x4,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x8,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x10, 0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x10, 0x1f;"),
    ("9.7.9.5", "add.f32        Rx, Ry, Rx;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x8,  0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x4,  0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x2,  0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x1,  0x1f;"),
];
