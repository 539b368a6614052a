//! What the audit reports: findings about the spec text, each with the
//! evidence a person can check by hand.
//!
//! Every producer (the ambiguous passages, the literal C reading of the
//! Semantics blocks, prose against pseudocode, the claims) turns its results
//! into [`Finding`]s; `ptxcheck audit` and `ptxcheck report` render them.

use ptx_spec::bv::BitVec;
use serde::{Deserialize, Serialize};

/// What kind of discrepancy a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A passage that admits two or more readings that compute different
    /// results.
    Ambiguity,
    /// The pseudocode read literally as C computes something other than the
    /// model (or the prose) for some input.
    LiteralReading,
    /// The pseudocode read literally as C is undefined (or
    /// implementation-defined) for some inputs.
    Undefined,
    /// A result stated in the Description or Notes disagrees with the
    /// Semantics block.
    ProseVsPseudocode,
    /// A claim of the spec (worked example, identity, table) is false.
    ClaimRefuted,
    /// An example instruction that the section's own Syntax block rejects.
    ExampleSyntax,
    /// A word of the document in neither the dictionary nor the PTX
    /// glossary (`ptxcheck text`).
    Spelling,
    /// A label, heading or list that does not match what it heads or
    /// summarises (`ptxcheck text`).
    Structure,
    /// A code span, Syntax line or example that is malformed: an unmatched
    /// bracket, a missing `;` (`ptxcheck text`).
    MalformedCode,
    /// A function a Semantics block calls that the text never defines: an
    /// unstated case (`ptxcheck text`).
    UndefinedHelper,
    /// A type, qualifier, version or target the text excludes that NVIDIA's
    /// assembler accepts, or one the text allows that it rejects.
    VendorSyntax,
    /// A sentence that states an operand's type or size, or a mode's
    /// restriction, for several modes, types or instructions at once, and
    /// is false for one of them (`ptxcheck text`).
    Overgeneral,
    /// An example that writes an operand name of the Syntax in another
    /// operand's place (`ptxcheck text`).
    Name,
    /// Two sentences of the prose that demand different things of the same
    /// input, whatever reading each is given (`ptxcheck text`).
    Conflict,
    /// A slip of grammar in the prose: a singular noun before a list of
    /// operands, a plural unit in a modifier, two verb forms in one
    /// sentence (`ptxcheck text`).
    Grammar,
}

impl FindingKind {
    pub const ALL: [FindingKind; 15] = [
        FindingKind::Ambiguity,
        FindingKind::LiteralReading,
        FindingKind::Undefined,
        FindingKind::ProseVsPseudocode,
        FindingKind::ClaimRefuted,
        FindingKind::ExampleSyntax,
        FindingKind::Spelling,
        FindingKind::Structure,
        FindingKind::MalformedCode,
        FindingKind::UndefinedHelper,
        FindingKind::VendorSyntax,
        FindingKind::Overgeneral,
        FindingKind::Name,
        FindingKind::Conflict,
        FindingKind::Grammar,
    ];

    pub fn label(self) -> &'static str {
        match self {
            FindingKind::Ambiguity => "ambiguity",
            FindingKind::LiteralReading => "literal-reading",
            FindingKind::Undefined => "undefined",
            FindingKind::ProseVsPseudocode => "prose-vs-pseudocode",
            FindingKind::ClaimRefuted => "claim refuted",
            FindingKind::ExampleSyntax => "example syntax",
            FindingKind::Spelling => "spelling",
            FindingKind::Structure => "structure",
            FindingKind::MalformedCode => "malformed code",
            FindingKind::UndefinedHelper => "undefined helper",
            FindingKind::VendorSyntax => "vendor syntax",
            FindingKind::Overgeneral => "overgeneral",
            FindingKind::Name => "name",
            FindingKind::Conflict => "conflict",
            FindingKind::Grammar => "grammar",
        }
    }
}

/// How much a finding matters to someone implementing the instruction from
/// the spec; judged per root cause, from its impact
/// ([`errata::severity`](crate::audit::errata::severity)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Following the text gives a wrong or undefined result on inputs the
    /// instruction accepts, or an example does not assemble.
    High,
    /// The text leaves a result open, or two parts disagree without a wrong
    /// result.
    Medium,
    /// Wording: the intent is clear.
    Low,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// Inputs on which the compared readings (or sides) differ, with each one's
/// outputs, all computed by concrete evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WitnessTable {
    /// The instruction the inputs are for (`bfe.s32`).
    pub variant: String,
    /// Input operands and their values. For a warp-wide instruction only the
    /// inputs that are not zero are listed.
    pub inputs: Vec<(String, BitVec)>,
    /// The readings or sides compared, one column each.
    pub columns: Vec<String>,
    /// Per output: its name and its value under each column (`None`: the
    /// reading leaves it undefined or unspecified).
    pub rows: Vec<(String, Vec<Option<BitVec>>)>,
}

/// One finding about the spec text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable, kebab-case, unique across the audit (`szext-mask-or-zero`).
    pub id: String,
    /// The spec section (`9.7.1.21`).
    pub section: String,
    pub kind: FindingKind,
    /// The severity of its root cause ([`errata::severity`](crate::audit::errata::severity)).
    pub severity: Severity,
    /// The id of the root cause it is a site of
    /// ([`errata`](crate::audit::errata)).
    pub root_cause: String,
    /// A short fragment of the spec text it is about.
    pub fragment: String,
    /// One line.
    pub summary: String,
    /// The full account: readings, what agrees with what, the verdicts, one
    /// paragraph per entry.
    pub detail: Vec<String>,
    /// Which reading the model adopts, where it adopts one.
    pub model_choice: Option<String>,
    /// The confirmed inputs that show it, where inputs can.
    pub witness: Option<WitnessTable>,
    /// Further inputs with the same columns, where other inputs tell the
    /// readings apart differently (at most two): with `witness`, the
    /// columns of the report's compact table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_witnesses: Vec<WitnessTable>,
    /// Further fragments of its section's text that it rests on, besides
    /// `fragment`: a conflict's second sentence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_quotes: Vec<String>,
    /// The edits of the text that remove it (one a line), where its pass knows one (a
    /// heading's group name, a word the document spells otherwise
    /// elsewhere): the proposed fix of a root cause no table lists
    /// ([`chapter`](crate::audit::chapter)). Not in the reports: they
    /// state the fix of the finding's root cause.
    #[serde(skip)]
    pub repairs: Vec<Repair>,
}

/// One edit a pass proposes for its finding: on line `line` of the
/// finding's section (its heading's line for the heading), the first `old`
/// becomes `new`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repair {
    pub line: usize,
    pub old: String,
    pub new: String,
}

impl Repair {
    /// The edit that writes `new` in place of `text[start..end]` on line
    /// `line`, its `old` widened leftwards, a word at a time, until its first
    /// occurrence on the line is this one: an edit mends the first `old` of
    /// its line, and "warp id" is also the start of "warp identifier".
    pub fn at(line: usize, text: &str, start: usize, end: usize, new: &str) -> Repair {
        let mut from = start;
        while from > 0 && text.find(&text[from..end]) != Some(from) {
            // Back over the space before, then the word before it.
            from = text[..from].trim_end().trim_end_matches(|c: char| !c.is_whitespace()).len();
        }
        Repair { line, old: text[from..end].to_string(), new: format!("{}{new}", &text[from..start]) }
    }
}

impl Finding {
    /// A finding of the text passes: no root cause yet (`errata::assign`
    /// gives it), no reading adopted, no witness.
    pub fn of_text(
        id: String,
        section: String,
        kind: FindingKind,
        fragment: String,
        summary: String,
        detail: Vec<String>,
    ) -> Finding {
        Finding {
            id,
            section,
            kind,
            severity: Severity::Low,
            root_cause: String::new(),
            fragment,
            summary,
            detail,
            model_choice: None,
            witness: None,
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        }
    }
}
