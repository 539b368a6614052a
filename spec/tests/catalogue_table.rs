//! The catalogue against a table written by hand from the spec text, and
//! against the forms NVIDIA's assembler accepted.
//!
//! Both encodings read their variants, operand widths and type signedness
//! from the catalogue, so a mistake there is the same on both sides and no
//! proof can see it (an `.s64` taken as unsigned makes `bfe.s64` wrong in
//! both). `data/syntax_table.txt` restates, independently of the code, every
//! instruction form of sections 9.7.1, 9.7.2, 9.7.6, 9.7.8, 9.7.9.5 and 9.7.9.7 with its type set,
//! its operands and its requirement. These tests check that:
//!
//! 1. the catalogue's variant names are exactly the table's, expanded;
//! 2. each variant's operands (destinations, sources and immediates; not the
//!    warp-wide inputs of shfl) have the table's names, order, roles, widths,
//!    `|` joins and sinks, and the carry flag `CC.CF` is read and written
//!    where the table says;
//! 3. every [`Type`] has the table's signedness, width and lanes, and each
//!    variant holds the types its name says;
//! 4. each variant's PTX ISA version and target are the table's;
//! 5. `reports/vendor/ptxas-syntax.json` records every variant as accepted by
//!    ptxas, written with the table's operands.

use std::collections::{BTreeMap, BTreeSet};

use ptx_spec::catalogue::{
    add_sub::AddSub, bit_count::BitCount, bit_field::BitField, carry::Carry, compare::Compare,
    compare_select::CompareSelect, div_rem::DivRem, dot::Dot, logic::Logic, min_max::MinMax, mul_mad::MulMad,
    prmt::Prmt, shfl::Shfl, shift::Shift,
};
use ptx_spec::catalogue::{OperandType, Role, Target, Type, Variant};

const TABLE: &str = include_str!("data/syntax_table.txt");

/// What the table says of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TypeFacts {
    signed: bool,
    lanes: u32,
    lane_width: u32,
}

impl TypeFacts {
    fn width(self) -> u32 {
        self.lanes * self.lane_width
    }
}

/// One operand as the table writes it, its width resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Op {
    name: String,
    role: Role,
    /// `pred`, or the width in bits.
    width: String,
    piped: bool,
    sink: bool,
    /// The carry flag, which no operand of the syntax names: read (a
    /// source) or written (a destination).
    flag: bool,
    /// Written `!c`.
    negated: bool,
}

/// One variant of the table.
#[derive(Clone, Debug)]
struct Row {
    /// Its line in the table, for messages.
    line: usize,
    types: Vec<String>,
    requirement: String,
    operands: Vec<Op>,
}

struct Table {
    types: BTreeMap<String, TypeFacts>,
    variants: BTreeMap<String, Row>,
}

/// `{.a,.b}` groups expanded, leftmost first.
fn alternatives(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else { return vec![pattern.to_string()] };
    let close = open + pattern[open..].find('}').expect("an unclosed {");
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    pattern[open + 1..close].split(',').flat_map(|alt| alternatives(&format!("{head}{alt}{tail}"))).collect()
}

/// Every choice of a type for each `T` component: (name, types chosen). An
/// operand form after a space (` d|p`, ` !c`) is kept as it is.
fn with_types(name: &str, types: &[String]) -> Vec<(String, Vec<String>)> {
    if let Some((name, form)) = name.split_once(' ') {
        let forms = with_types(name, types).into_iter();
        return forms.map(|(n, ts)| (format!("{n} {form}"), ts)).collect();
    }
    let mut out = vec![(String::new(), Vec::new())];
    for (i, part) in name.split('.').enumerate() {
        let choices: Vec<(String, Option<&String>)> = if part == "T" {
            types.iter().map(|t| (t.clone(), Some(t))).collect()
        } else {
            vec![(part.to_string(), None)]
        };
        out = out
            .into_iter()
            .flat_map(|(n, ts)| {
                choices.iter().map(move |(c, t)| {
                    let n = if i == 0 { c.clone() } else { format!("{n}.{c}") };
                    let mut ts = ts.clone();
                    ts.extend(t.cloned());
                    (n, ts)
                })
            })
            .collect();
    }
    out
}

fn parse_operands(text: &str, ty: Option<&TypeFacts>, line: usize) -> Vec<Op> {
    text.split_whitespace()
        .map(|tok| {
            let (piped, tok) = tok.strip_prefix('|').map_or((false, tok), |t| (true, t));
            let (role, tok) = match tok.as_bytes()[0] {
                b'>' => (Role::Dest, &tok[1..]),
                b'#' => (Role::Imm, &tok[1..]),
                _ => (Role::Src, tok),
            };
            let (flag, tok) = tok.strip_prefix('~').map_or((false, tok), |t| (true, t));
            let (negated, tok) = tok.strip_prefix('!').map_or((false, tok), |t| (true, t));
            let mut fields = tok.split(':');
            let name = fields.next().unwrap().to_string();
            let width = fields.next().unwrap_or_else(|| panic!("line {line}: {tok} has no width"));
            let type_width = |times: u32| {
                let t = ty.unwrap_or_else(|| panic!("line {line}: {tok} needs a type"));
                match (t.width(), times) {
                    (1, 1) => "pred".to_string(),
                    (1, _) => panic!("line {line}: a predicate has no double width"),
                    (w, k) => (w * k).to_string(),
                }
            };
            let width = match width {
                "t" => type_width(1),
                "2t" => type_width(2),
                "pred" => "pred".to_string(),
                w => w.parse::<u32>().unwrap_or_else(|_| panic!("line {line}: width {w}")).to_string(),
            };
            let sink = match fields.next() {
                None => false,
                Some("sink") => true,
                Some(f) => panic!("line {line}: unknown flag {f}"),
            };
            Op { name, role, width, piped, sink, flag, negated }
        })
        .collect()
}

fn table() -> Table {
    let mut types = BTreeMap::new();
    let mut variants: BTreeMap<String, Row> = BTreeMap::new();
    for (i, text) in TABLE.lines().enumerate() {
        let line = i + 1;
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if let Some(rest) = text.strip_prefix("type ") {
            let f: Vec<&str> = rest.split_whitespace().collect();
            let [name, signed, shape] = f[..] else { panic!("line {line}: a type line has three fields") };
            let signed = match signed {
                "signed" => true,
                "not-signed" => false,
                s => panic!("line {line}: {s}"),
            };
            let (lanes, lane_width) = shape.split_once('x').expect("LANESxWIDTH");
            let facts = TypeFacts { signed, lanes: lanes.parse().unwrap(), lane_width: lane_width.parse().unwrap() };
            types.insert(name.to_string(), facts);
            continue;
        }
        // Columns are separated by ` | `; a `|` with no space either side
        // belongs to a column (d|p).
        let f: Vec<&str> = text.split(" | ").map(str::trim).collect();
        let [pattern, types_column, requirement, operands] = f[..] else {
            panic!("line {line}: PATTERN | TYPES | PTX TARGET | OPERANDS")
        };
        let type_set: Vec<String> =
            if types_column == "-" { Vec::new() } else { types_column.split_whitespace().map(String::from).collect() };
        let requirement = requirement.split_whitespace().collect::<Vec<_>>().join(" ");
        for alt in alternatives(pattern) {
            for (name, chosen) in with_types(&alt, &type_set) {
                let ty = chosen
                    .first()
                    .map(|t| types.get(t).unwrap_or_else(|| panic!("line {line}: type {t} has no type line")));
                let row = Row {
                    line,
                    types: chosen.clone(),
                    requirement: requirement.clone(),
                    operands: parse_operands(operands, ty, line),
                };
                if let Some(old) = variants.insert(name.clone(), row) {
                    panic!("line {line}: {name} already on line {}", old.line);
                }
            }
        }
    }
    Table { types, variants }
}

/// Every [`Type`]; the match fails to compile when one is added, so that it
/// is added here and to the table.
fn every_type() -> Vec<Type> {
    let all = vec![
        Type::Pred,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::U16x2,
        Type::S16x2,
        Type::F32,
        Type::F64,
    ];
    for t in &all {
        match t {
            Type::Pred
            | Type::B16
            | Type::B32
            | Type::B64
            | Type::U16
            | Type::U32
            | Type::U64
            | Type::S16
            | Type::S32
            | Type::S64
            | Type::U16x2
            | Type::S16x2
            | Type::F32
            | Type::F64 => {}
        }
    }
    all
}

/// The types a variant holds, in the order its name writes them; none for
/// the forms whose mnemonic names `.b32` outright (fns, bmsk, lop3, shf,
/// shfl, prmt), which hold no type.
fn held_types(v: &Variant) -> Vec<Type> {
    match *v {
        Variant::AddSub(AddSub::Add { ty, .. } | AddSub::Sub { ty, .. }) => vec![ty],
        Variant::AddSub(AddSub::Sad(t) | AddSub::Abs(t) | AddSub::Neg(t)) => vec![t],
        Variant::MulMad(MulMad::Mul(_, t) | MulMad::Mul24(_, t)) => vec![t],
        Variant::MulMad(MulMad::Mad { ty, .. } | MulMad::Mad24 { ty, .. }) => vec![ty],
        Variant::DivRem(DivRem::Div(t) | DivRem::Rem(t)) => vec![t],
        Variant::MinMax(MinMax::Min { ty, .. } | MinMax::Max { ty, .. }) => vec![ty],
        Variant::BitCount(BitCount::Popc(t) | BitCount::Clz(t) | BitCount::Brev(t)) => vec![t],
        Variant::BitCount(BitCount::Bfind { ty, .. }) => vec![ty],
        Variant::BitCount(BitCount::Fns) => vec![],
        Variant::BitField(BitField::Bfe(t) | BitField::Bfi(t) | BitField::Szext(_, t)) => vec![t],
        Variant::BitField(BitField::Bmsk(_)) => vec![],
        Variant::Dot(Dot::Dp4a { atype, btype } | Dot::Dp2a { atype, btype, .. }) => vec![atype, btype],
        Variant::Carry(Carry { ty, .. }) => vec![ty],
        Variant::Logic(Logic::And(t) | Logic::Or(t) | Logic::Xor(t) | Logic::Not(t) | Logic::Cnot(t)) => vec![t],
        Variant::Logic(Logic::Lop3(_)) => vec![],
        Variant::Shift(Shift::Shl(t) | Shift::Shr(t)) => vec![t],
        Variant::Shift(Shift::Shf(..)) => vec![],
        Variant::Shfl(Shfl { .. }) => vec![],
        Variant::Prmt(Prmt { .. }) => vec![],
        // set's .dtype is written outright in the table, as slct's second type (c's) is.
        Variant::Compare(Compare { ty, .. }) => vec![ty],
        // slct's second type (c's) is written outright in the table.
        Variant::CompareSelect(CompareSelect::Selp(t) | CompareSelect::Slct { dtype: t, .. }) => vec![t],
    }
}

/// The catalogue's operands in the table's terms: destinations, sources and
/// immediates (shfl's other inputs are no operands of the syntax), then the
/// carry flag where the variant reads it and where it writes it.
fn catalogue_operands(v: &Variant) -> Vec<Op> {
    let op = |o: ptx_spec::catalogue::Operand, role: Role, flag: bool| Op {
        name: o.name.to_string(),
        role,
        width: match o.ty {
            OperandType::Pred => "pred".to_string(),
            OperandType::Bits(w) => w.to_string(),
        },
        piped: o.piped,
        sink: o.sink,
        flag,
        negated: o.negated,
    };
    let syntax = v.operands().into_iter().filter(|o| matches!(o.role, Role::Dest | Role::Src | Role::Imm));
    let mut ops: Vec<Op> = syntax.map(|o| op(o, o.role, false)).collect();
    ops.extend(v.inputs().into_iter().filter(|o| o.role == Role::Flag).map(|o| op(o, Role::Src, true)));
    ops.extend(v.outputs().into_iter().filter(|o| o.role == Role::Flag).map(|o| op(o, Role::Dest, true)));
    ops
}

/// Operands written as the table writes them.
fn show(ops: &[Op]) -> String {
    let one = |o: &Op| {
        let role = match o.role {
            Role::Dest => ">",
            Role::Imm => "#",
            Role::Src => "",
            Role::Warp => "(warp)",
            Role::Unpredictable => "(unpredictable)",
            Role::Flag => "(flag)",
        };
        let (pipe, sink) = (if o.piped { "|" } else { "" }, if o.sink { ":sink" } else { "" });
        let flag = if o.flag { "~" } else { "" };
        let not = if o.negated { "!" } else { "" };
        format!("{pipe}{role}{flag}{not}{}:{}{sink}", o.name, o.width)
    };
    ops.iter().map(one).collect::<Vec<_>>().join(" ")
}

/// Operands as an instruction writes them: `d|p, a, b, c, #, q`, where `#`
/// stands for an immediate.
fn show_as_written(ops: &[Op]) -> String {
    let mut out = String::new();
    for (i, o) in ops.iter().filter(|o| !o.flag).enumerate() {
        if i > 0 {
            out.push_str(if o.piped { "|" } else { ", " });
        }
        if o.negated {
            out.push('!');
        }
        out.push_str(if o.role == Role::Imm { "#" } else { &o.name });
    }
    out
}

fn fail_on(problems: Vec<String>, what: &str) {
    assert!(problems.is_empty(), "{} {what}:\n  {}", problems.len(), problems.join("\n  "));
}

#[test]
fn the_table_reads_and_counts_2184_variants() {
    let t = table();
    assert_eq!(t.variants.len(), 2184);
    assert_eq!(t.types.len(), every_type().len());
}

#[test]
fn variant_names_are_the_tables() {
    let t = table();
    let ours: BTreeSet<String> = Variant::all().iter().map(|v| v.to_string()).collect();
    let theirs: BTreeSet<String> = t.variants.keys().cloned().collect();
    let mut problems = Vec::new();
    for name in theirs.difference(&ours) {
        problems.push(format!("missing from the catalogue: {name} (table line {})", t.variants[name].line));
    }
    for name in ours.difference(&theirs) {
        problems.push(format!("in the catalogue, not in the table: {name}"));
    }
    assert_eq!(ours.len(), Variant::all().len(), "the catalogue repeats a name");
    fail_on(problems, "variant names differ");
}

#[test]
fn operands_are_the_tables() {
    let t = table();
    let mut problems = Vec::new();
    for v in Variant::all() {
        let Some(row) = t.variants.get(&v.to_string()) else { continue };
        let (ours, theirs) = (catalogue_operands(&v), &row.operands);
        if ours != *theirs {
            problems.push(format!("{v}: catalogue `{}`, table `{}` (line {})", show(&ours), show(theirs), row.line));
        }
    }
    fail_on(problems, "variants have other operands than the table's");
}

#[test]
fn types_are_signed_and_as_wide_as_the_table_says() {
    let t = table();
    let mut problems = Vec::new();
    let check = |ty: Type, context: &str, problems: &mut Vec<String>| {
        let Some(&facts) = t.types.get(ty.name()) else {
            problems.push(format!("{context}{ty}: no such type in the table"));
            return;
        };
        if ty.is_signed() != facts.signed {
            let said = if facts.signed { "signed" } else { "not signed" };
            problems.push(format!("{context}{ty}: is_signed() is {}, but the table says {said}", ty.is_signed()));
        }
        let (ours, theirs) =
            ((ty.lanes(), ty.lane_width(), ty.width()), (facts.lanes, facts.lane_width, facts.width()));
        if ours != theirs {
            problems.push(format!(
                "{context}{ty}: lanes, lane width, width are {ours:?} in the catalogue, {theirs:?} in the table"
            ));
        }
        let operand = if facts.width() == 1 { OperandType::Pred } else { OperandType::Bits(facts.width()) };
        if ty.operand() != operand {
            problems.push(format!("{context}{ty}: a register of it is {}, not {operand}", ty.operand()));
        }
    };
    for ty in every_type() {
        check(ty, "", &mut problems);
    }
    for v in Variant::all() {
        let held = held_types(&v);
        for &ty in &held {
            check(ty, &format!("{v}: "), &mut problems);
        }
        let Some(row) = t.variants.get(&v.to_string()) else { continue };
        let names: Vec<&str> = held.iter().map(|ty| ty.name()).collect();
        if !held.is_empty() && names != row.types {
            problems.push(format!("{v}: holds the types {names:?}, its name says {:?}", row.types));
        }
    }
    fail_on(problems, "types differ from the table");
}

#[test]
fn requirements_are_the_tables() {
    let t = table();
    let mut problems = Vec::new();
    for v in Variant::all() {
        let Some(row) = t.variants.get(&v.to_string()) else { continue };
        let r = v.requirement();
        let target = match r.target {
            Target::All => "all".to_string(),
            Target::Sm(n) => format!("sm_{n}"),
        };
        let ours = format!("{} {target}", r.ptx);
        if ours != row.requirement {
            problems.push(format!("{v}: catalogue {ours}, table {} (line {})", row.requirement, row.line));
        }
    }
    fail_on(problems, "variants have another requirement than the table's");
}

#[test]
fn ptxas_accepted_every_variant_with_the_tables_operands() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../reports/vendor/ptxas-syntax.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: serde_json::Value = serde_json::from_str(&text).expect("ptxas-syntax.json is JSON");
    let cases = json["cases"].as_array().expect("a list of cases");
    let mut recorded: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for case in cases.iter().filter(|c| c["kind"] == "variant") {
        let field = |k: &str| case[k].as_str().unwrap_or_else(|| panic!("a variant case without {k}: {case}"));
        recorded.insert(field("name"), (field("ptxas"), field("instruction")));
    }
    let t = table();
    let mut problems = Vec::new();
    let all = Variant::all();
    for v in &all {
        let name = v.to_string();
        let Some(&(verdict, instruction)) = recorded.get(name.as_str()) else {
            problems.push(format!("{name}: not recorded"));
            continue;
        };
        if verdict != "accepted" {
            problems.push(format!("{name}: ptxas {verdict} `{instruction}`"));
        }
        let (mnemonic, operands) = instruction.split_once(char::is_whitespace).unwrap_or((instruction, ""));
        if mnemonic != v.mnemonic() {
            problems.push(format!("{name}: recorded as `{instruction}`, whose mnemonic is not {}", v.mnemonic()));
        }
        let written: Vec<String> = operands
            .trim()
            .trim_end_matches(';')
            .split(',')
            .map(|group| {
                // `%c` a register, `!%c` a negated one, anything else an immediate.
                let operand = |o: &str| match o.strip_prefix('!') {
                    Some(o) => o.strip_prefix('%').map_or("#".to_string(), |r| format!("!{r}")),
                    None => o.strip_prefix('%').unwrap_or("#").to_string(),
                };
                group.trim().split('|').map(operand).collect::<Vec<_>>().join("|")
            })
            .collect();
        let written = written.join(", ");
        if let Some(row) = t.variants.get(&name) {
            if written != show_as_written(&row.operands) {
                problems.push(format!(
                    "{name}: ptxas was given `{written}`, the table says `{}`",
                    show_as_written(&row.operands)
                ));
            }
        }
    }
    let ours: BTreeSet<String> = all.iter().map(|v| v.to_string()).collect();
    for name in recorded.keys().filter(|n| !ours.contains(**n)) {
        problems.push(format!("{name}: recorded as a variant, not in the catalogue"));
    }
    fail_on(problems, "differences between the catalogue and what ptxas accepted");
}

/// Each family's name is the name of its two files, the concrete semantics
/// and the SMT encoding, so that a reader finds them side by side.
#[test]
fn every_family_names_its_files() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for v in Variant::all() {
        for dir in ["src/family", "src/catalogue", "../smt/src/encode"] {
            let file = root.join(dir).join(format!("{}.rs", v.family()));
            assert!(file.is_file(), "{v}: no {dir}/{}.rs", v.family());
        }
    }
}
