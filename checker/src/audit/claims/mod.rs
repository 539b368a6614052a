//! The spec's checkable statements besides its pseudocode: worked examples,
//! stated identities, prose and notes, and derived claims of our own that an
//! auditor would want. Each claim says what it states (in our words, with at
//! most a short quoted fragment) and how it is checked: a program run on
//! concrete values, or a fact over all inputs of a program proven with a
//! solver, written in the condition language of [`expr`](crate::ptx::expr).
//!
//! The claims are data: the TOML files of `checker/claims/` (their format is
//! in the README there), built into the binary and read by [`load`]. Only
//! the examples' syntax claims are generated, two per instruction of
//! [`EXAMPLE_INSTRUCTIONS`].
//!
//! Programs are straight-line PTX ([`program`](crate::ptx::program)); where the
//! spec's example uses a floating-point add, the claim says that it uses an
//! integer add in its place.

pub mod check;
pub mod json;

use std::sync::LazyLock;

use serde::{Deserialize, Deserializer};

use crate::audit::syntax::EXAMPLE_INSTRUCTIONS;

/// What kind of statement a claim is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(try_from = "String")]
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
    pub const ALL: [Kind; 6] = [Kind::Example, Kind::Identity, Kind::Prose, Kind::Note, Kind::Derived, Kind::Syntax];

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

impl TryFrom<String> for Kind {
    type Error = String;

    fn try_from(label: String) -> Result<Kind, String> {
        Kind::ALL.into_iter().find(|k| k.label() == label).ok_or_else(|| {
            let labels: Vec<&str> = Kind::ALL.iter().map(|k| k.label()).collect();
            format!("unknown kind `{label}`, expected one of {}", labels.join(", "))
        })
    }
}

/// Which sum a warp program leaves in each lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarpSum {
    /// Lane l: the sum over lanes 0..=l.
    Prefix,
    /// Lane l: the sum over lanes l..=31.
    Suffix,
    /// Every lane: the sum over all lanes.
    Total,
}

/// How a claim is checked. In a claims file, `check` names the variant and
/// its fields sit beside it in the claim's table.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "check", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Check {
    /// Run `program` once on `inputs`; every condition of `expect` holds.
    Values {
        program: String,
        #[serde(default, deserialize_with = "inputs")]
        inputs: Vec<(String, u128)>,
        expect: Vec<String>,
    },
    /// For every input satisfying every condition of `assume`, every
    /// condition of `holds` holds after `program` (proven by a solver).
    Always {
        program: String,
        #[serde(default)]
        assume: Vec<String>,
        holds: Vec<String>,
    },
    /// Some input satisfying `assume` makes some condition of `holds` fail:
    /// the claim that an identity stops holding outside its stated range.
    Fails {
        program: String,
        #[serde(default)]
        assume: Vec<String>,
        holds: Vec<String>,
    },
    /// A warp program: for every 32-bit input of `register` in every lane,
    /// `register` ends holding the given sum (mod 2^32) in every lane.
    Warp { program: String, register: String, sum: WarpSum },
    /// The instruction (with an optional guard) parses against the
    /// catalogue: a legal variant, its operand count and forms.
    Parses { text: String },
    /// The instruction fits its section's Syntax block
    /// ([`syntax`](crate::audit::syntax)).
    FitsSyntax { text: String },
    /// The instruction is no form the text allows: the catalogue does not
    /// parse it, and it fits no line of its section's Syntax block (a
    /// modifier the Notes exclude, 9.7.2's `No saturation.`).
    Rejected { text: String },
    /// Why the statement cannot be checked.
    NotCheckable { reason: String },
}

/// One claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Stable identifier: `<section>/<short name>`.
    pub id: String,
    pub section: String,
    pub kind: Kind,
    /// What is claimed, in our words.
    pub statement: String,
    /// A short fragment of the spec text, where the claim quotes one.
    pub fragment: Option<String>,
    /// Further short fragments of the text the claim rests on (the lines of
    /// a worked example, the rows of a table), for the document's coverage.
    pub rests_on: Vec<String>,
    /// What a refutation shows, stated positively (the finding's title).
    pub refuted: Option<String>,
    pub check: Check,
}

/// The inputs of a `values` check, in the order written: a table of
/// register names to integers, or to strings (`"0xffffffffffffffff"`) for
/// values past TOML's 64-bit signed integers.
fn inputs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, u128)>, D::Error> {
    use serde::de::Error;
    let table = toml::Table::deserialize(d)?;
    let value = |v: &toml::Value| -> Option<u128> {
        match v {
            toml::Value::Integer(i) => u128::try_from(*i).ok(),
            toml::Value::String(s) => match s.replace('_', "").strip_prefix("0x") {
                Some(hex) => u128::from_str_radix(hex, 16).ok(),
                None => s.replace('_', "").parse().ok(),
            },
            _ => None,
        }
    };
    table
        .iter()
        .map(|(name, v)| match value(v) {
            Some(n) => Ok((name.clone(), n)),
            None => Err(D::Error::custom(format!("input `{name}` = {v} is not a natural number"))),
        })
        .collect()
}

/// One `[[claim]]` of a claims file: its short id is not yet prefixed with
/// its section.
#[derive(Deserialize)]
struct Entry {
    id: String,
    section: String,
    kind: Kind,
    statement: String,
    fragment: Option<String>,
    #[serde(default)]
    rests_on: Vec<String>,
    refuted: Option<String>,
    #[serde(flatten)]
    check: Check,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimsFile {
    #[serde(default)]
    claim: Vec<Entry>,
}

/// A malformed claims file: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ClaimsError {
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

/// The claims files, built in: each name (as the repository has it) with
/// its text, in section order.
pub const FILES: [(&str, &str); 8] = [
    ("checker/claims/9.7.1-integer.toml", include_str!("../../../claims/9.7.1-integer.toml")),
    ("checker/claims/9.7.2-carry.toml", include_str!("../../../claims/9.7.2-carry.toml")),
    ("checker/claims/9.7.6-set-setp.toml", include_str!("../../../claims/9.7.6-set-setp.toml")),
    ("checker/claims/9.7.6-compare-select.toml", include_str!("../../../claims/9.7.6-compare-select.toml")),
    ("checker/claims/9.7.8-logic-shift.toml", include_str!("../../../claims/9.7.8-logic-shift.toml")),
    ("checker/claims/9.7.9.5-shfl.toml", include_str!("../../../claims/9.7.9.5-shfl.toml")),
    ("checker/claims/9.7.9.6-shfl-sync.toml", include_str!("../../../claims/9.7.9.6-shfl-sync.toml")),
    ("checker/claims/9.7.9.7-prmt.toml", include_str!("../../../claims/9.7.9.7-prmt.toml")),
];

/// The claims of one file, `text`, in the order written; `name` names it
/// in errors.
pub fn load(name: &str, text: &str) -> Result<Vec<Claim>, ClaimsError> {
    let file: ClaimsFile = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |span| position(text, span.start));
        // serde's word for an unknown `check` is "variant".
        let message = match e.message().strip_prefix("unknown variant") {
            Some(rest) if rest.contains("`not-checkable`") => format!("unknown check{rest}"),
            _ => e.message().to_string(),
        };
        ClaimsError { file: name.to_string(), line, column, message }
    })?;
    Ok(file
        .claim
        .into_iter()
        .map(|e| Claim {
            id: format!("{}/{}", e.section, e.id),
            section: e.section,
            kind: e.kind,
            statement: e.statement,
            fragment: e.fragment,
            rests_on: e.rests_on,
            refuted: e.refuted,
            check: e.check,
        })
        .collect())
}

/// Line and column (1-based) of byte `offset` of `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

static CLAIMS: LazyLock<Vec<Claim>> = LazyLock::new(|| {
    let mut c = Vec::new();
    for (name, text) in FILES {
        c.extend(load(name, text).unwrap_or_else(|e| panic!("the built-in claims: {e}")));
    }
    c.extend(syntax_claims());
    // Section order (9.7.1.2 before 9.7.1.10); within one, the files' order,
    // then the syntax claims.
    c.sort_by_key(|claim| section_key(&claim.section));
    c
});

/// Every claim, in section order.
pub fn all() -> Vec<Claim> {
    CLAIMS.clone()
}

/// `9.7.1.12` as numbers, for sorting.
pub fn section_key(section: &str) -> Vec<u32> {
    section.split(['.', '-']).map(|n| n.parse().unwrap_or(0)).collect()
}

/// The program of the warp claim `id`.
fn warp_program(id: &str) -> String {
    CLAIMS
        .iter()
        .find_map(|c| match &c.check {
            Check::Warp { program, .. } if c.id == id => Some(program.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no warp claim `{id}`"))
}

/// The inclusive plus-scan of 9.7.9.5 (`add.u32` for `add.f32`).
pub fn shfl_scan() -> String {
    warp_program("9.7.9.5/shfl-inclusive-scan")
}

/// The inclusive plus reverse-scan of 9.7.9.5.
pub fn shfl_reverse_scan() -> String {
    warp_program("9.7.9.5/shfl-reverse-scan")
}

/// The butterfly reduction of 9.7.9.5.
pub fn shfl_butterfly() -> String {
    warp_program("9.7.9.5/shfl-butterfly")
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
        let float = crate::audit::syntax::is_float_outside_catalogue(text);
        let claim = |id: String, statement: String, check: Check| Claim {
            id: format!("{section}/{id}"),
            section: section.to_string(),
            kind: Kind::Syntax,
            statement,
            fragment: None,
            rests_on: Vec::new(),
            refuted: None,
            check,
        };
        claims.push(claim(
            format!("example-syntax-{n}"),
            format!("the example `{text}` fits the section's Syntax block"),
            if float { outside("the section's Syntax block") } else { Check::FitsSyntax { text: text.to_string() } },
        ));
        claims.push(claim(
            format!("example-catalogue-{n}"),
            format!("the example `{text}` is a legal variant of the catalogue"),
            if float { outside("the catalogue") } else { Check::Parses { text: text.to_string() } },
        ));
    }
    claims
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An id names one claim: the report, the coverage and the recorded
    /// fingerprints find a claim by it.
    #[test]
    fn every_claim_id_is_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for c in all() {
            assert!(seen.insert(c.id.clone()), "claim id {} is given twice", c.id);
        }
    }

    const GOOD: &str = r#"
[[claim]]
id = "sum"
section = "9.7.1.1"
kind = "prose"
statement = "add.u32 adds"
check = "always"
program = "add.u32 d, a, b;"
holds = ["d == a + b"]
"#;

    fn error(text: &str) -> String {
        load("test.toml", text).expect_err("a malformed entry").to_string()
    }

    #[test]
    fn every_file_loads() {
        for (name, text) in FILES {
            let claims = load(name, text).unwrap_or_else(|e| panic!("{e}"));
            assert!(!claims.is_empty(), "{name}");
            for c in claims {
                assert!(c.id.starts_with(&format!("{}/", c.section)) && c.kind != Kind::Syntax, "{}", c.id);
            }
        }
    }

    #[test]
    fn an_entry_becomes_a_claim() {
        let c = load("test.toml", GOOD).unwrap();
        assert_eq!(
            c,
            [Claim {
                id: "9.7.1.1/sum".into(),
                section: "9.7.1.1".into(),
                kind: Kind::Prose,
                statement: "add.u32 adds".into(),
                fragment: None,
                rests_on: Vec::new(),
                refuted: None,
                check: Check::Always {
                    program: "add.u32 d, a, b;".into(),
                    assume: vec![],
                    holds: vec!["d == a + b".into()]
                },
            }]
        );
    }

    #[test]
    fn inputs_keep_their_order_and_take_wide_values() {
        let text = r#"
[[claim]]
id = "v"
section = "9.7.1.1"
kind = "example"
statement = "s"
check = "values"
program = "add.u64 d, b, a;"
inputs = { b = 0x10, a = "0xffff_ffff_ffff_ffff" }
expect = ["d == 0xf"]
"#;
        let Check::Values { inputs, .. } = &load("test.toml", text).unwrap()[0].check else { panic!() };
        assert_eq!(inputs, &[("b".to_string(), 0x10), ("a".to_string(), u64::MAX as u128)]);
        let negative = text.replace("b = 0x10", "b = -1");
        assert_eq!(error(&negative), "test.toml:2:1: input `b` = -1 is not a natural number");
    }

    #[test]
    fn a_bad_entry_names_its_file_and_line() {
        let cases = [
            (
                "kind = \"prose\"",
                "kind = \"exampel\"",
                "test.toml:5:8: unknown kind `exampel`, expected one of example, ",
            ),
            ("statement = \"add.u32 adds\"\n", "", "test.toml:2:1: missing field `statement`"),
            (
                "check = \"always\"",
                "check = \"alway\"",
                "test.toml:2:1: unknown check `alway`, expected one of `values`",
            ),
            ("check = \"always\"\n", "", "test.toml:2:1: missing field `check`"),
            ("holds =", "hold =", "test.toml:2:1: unknown field `hold`"),
            ("check = \"always\"", "check = \"warp\"\nsum = \"prefx\"", "test.toml:2:1: unknown variant `prefx`"),
            (
                "holds = [\"d == a + b\"]",
                "holds = [\"d == a + b\"]\nreason = \"r\"",
                "test.toml:2:1: unknown field `reason`",
            ),
            ("[[claim]]", "[[claims]]", "test.toml:2:3: unknown field `claims`"),
            ("program = \"add.u32 d, a, b;\"", "program = \"add.u32 d, a, b;", "test.toml:8:28: invalid basic string"),
        ];
        for (from, to, expected) in cases {
            let text = GOOD.replacen(from, to, 1);
            assert_ne!(text, GOOD, "{from}");
            let got = error(&text);
            assert!(got.starts_with(expected) && !got.contains('\n'), "{from}: {got}");
        }
    }

    #[test]
    fn the_readme_shows_a_real_error() {
        let (name, text) = FILES[0];
        let got = load(name, &text.replacen("kind = \"prose\"", "kind = \"exampel\"", 1)).unwrap_err().to_string();
        let readme = include_str!("../../../claims/README.md");
        assert!(readme.contains(&got), "{got}");
    }

    #[test]
    fn the_warp_programs_are_the_claims() {
        for (program, mode) in [(shfl_scan(), "up"), (shfl_reverse_scan(), "down"), (shfl_butterfly(), "bfly")] {
            assert_eq!(program.lines().filter(|l| l.starts_with(&format!("shfl.{mode}.b32"))).count(), 5);
        }
    }
}
