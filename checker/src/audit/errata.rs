//! Root causes: the findings grouped by the one edit of the spec text that
//! would fix them, each with its class, its impact, and the proposed fix.
//!
//! Many findings are one defect seen at several sites: every signed
//! overflow of 9.7.1's blocks read as C comes down to the arithmetic of the
//! pseudocode never being defined. The table of root causes is data
//! (`checker/errata/root-causes.toml`, its format in the README there),
//! built into the binary; every finding of the audit names exactly one of
//! them, and takes its severity from it.
//!
//! Severity is not written in the table: it follows from the impact by
//! [`severity`], one rule for every root cause, so the rule can be stated
//! in the report and tested.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::audit::finding::{Finding, Severity};

/// What kind of defect a root cause is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    /// A worked example, table or example instruction that is wrong.
    WrongExample,
    /// Pseudocode that is not valid as written (a lost `:`, a precedence
    /// slip, names that do not parse).
    InvalidPseudocode,
    /// The Description or Notes state one result, the Semantics block
    /// computes another.
    ProseContradictsPseudocode,
    /// A case the text never settles: a type, a width, an overflow.
    UnstatedCase,
    /// Wording or a typo, the intent clear.
    Wording,
    /// A version, target or type restriction stated wrongly or not at all.
    Requirements,
    /// NVIDIA's own tools do other than the text says.
    VendorContradictsSpec,
}

impl Class {
    pub const ALL: [Class; 7] = [
        Class::WrongExample,
        Class::InvalidPseudocode,
        Class::ProseContradictsPseudocode,
        Class::UnstatedCase,
        Class::Wording,
        Class::Requirements,
        Class::VendorContradictsSpec,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Class::WrongExample => "wrong example",
            Class::InvalidPseudocode => "invalid pseudocode",
            Class::ProseContradictsPseudocode => "prose contradicts pseudocode",
            Class::UnstatedCase => "unstated case",
            Class::Wording => "wording/typo",
            Class::Requirements => "requirements",
            Class::VendorContradictsSpec => "vendor contradicts the spec",
        }
    }
}

/// What the defect does to someone implementing the instruction from the
/// text: the fact a severity is judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// Following the text as written (the pseudocode with its ordinary
    /// meaning, its syntax included) gives a wrong result on inputs the
    /// instruction accepts.
    WrongResult,
    /// Following the text gives no result at all on accepted inputs: the
    /// defining text cannot be read as written.
    UndefinedResult,
    /// An example instruction that NVIDIA's assembler rejects.
    ExampleDoesNotAssemble,
    /// The text leaves a result open that an implementer must pick (a type,
    /// a width, an overflow never stated).
    ResultOpen,
    /// Two parts of the text disagree, with no wrong result for a reader who
    /// follows the defining part.
    PartsDisagree,
    /// Wording: the intent is clear to every reader.
    Wording,
}

impl Impact {
    pub const ALL: [Impact; 6] = [
        Impact::WrongResult,
        Impact::UndefinedResult,
        Impact::ExampleDoesNotAssemble,
        Impact::ResultOpen,
        Impact::PartsDisagree,
        Impact::Wording,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Impact::WrongResult => "wrong result",
            Impact::UndefinedResult => "no result",
            Impact::ExampleDoesNotAssemble => "example does not assemble",
            Impact::ResultOpen => "result left open",
            Impact::PartsDisagree => "parts disagree",
            Impact::Wording => "wording",
        }
    }

    /// The rule in words, for the reports.
    pub fn rule(self) -> &'static str {
        match self {
            Impact::WrongResult => "following the text gives a wrong result on inputs the instruction accepts",
            Impact::UndefinedResult => "following the text gives no defined result on inputs the instruction accepts",
            Impact::ExampleDoesNotAssemble => "an example does not assemble",
            Impact::ResultOpen => "the text leaves a result open",
            Impact::PartsDisagree => "two parts of the text disagree, without a wrong result",
            Impact::Wording => "wording: the intent is clear",
        }
    }
}

/// The severity rule: impact on someone implementing from the text.
pub fn severity(impact: Impact) -> Severity {
    match impact {
        Impact::WrongResult | Impact::UndefinedResult | Impact::ExampleDoesNotAssemble => Severity::High,
        Impact::ResultOpen | Impact::PartsDisagree => Severity::Medium,
        Impact::Wording => Severity::Low,
    }
}

/// One root cause: one defect, fixed by one edit of the text, and every
/// finding that shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootCause {
    /// Stable, kebab-case.
    pub id: String,
    /// The sections the edit touches (`9.7.1.12`).
    pub sections: Vec<String>,
    pub class: Class,
    pub impact: Impact,
    /// The short fragment of the spec text the defect is in.
    pub quote: String,
    /// The problem, in one line.
    pub problem: String,
    /// The proposed fix as edits of the text, applied in order; the prose
    /// of the fix ([`RootCause::fix`]) is made from them.
    #[serde(rename = "edit")]
    pub edits: Vec<Edit>,
    /// What the edits leave to words: an alternative, or what else the
    /// edit settles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub also: Option<String>,
    /// Where the fix is a choice between readings: the reading proposed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// The ids of the findings it covers (its sites).
    pub findings: Vec<String>,
    /// The C rules (`conversion-out-of-range`, as in a literal finding's
    /// id) whose result its prose states wherever a Semantics block of its
    /// sections meets them: a literal finding of one of them there that no
    /// root cause lists is a site of this one too. Such a finding is one
    /// that another fix brings to light (a hazard that an earlier one hid)
    /// or that an edited block adds; it is the same defect, with the same
    /// fix, not a new one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settles: Vec<String>,
}

/// One edit of the spec text: in unit `unit` (a coverage unit's id, where
/// the edit starts), the first `old` at or after that unit's block becomes
/// `new`. White space in `old` matches any white space of the text, line
/// breaks included; `new` is written as given. An addition keeps `old` at
/// the start or end of `new`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    pub unit: String,
    pub old: String,
    pub new: String,
}

/// What an edit does, as the prose of a fix says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditKind<'a> {
    /// `new` is `old` followed by this text.
    AddAfter(&'a str),
    /// `new` is this text followed by `old`.
    AddBefore(&'a str),
    /// `old` is replaced.
    Replace,
}

impl Edit {
    pub fn kind(&self) -> EditKind<'_> {
        // An addition is whole words or lines: `Example` to `Examples` is a
        // replacement.
        let words = |r: &&str| !r.trim().is_empty();
        let after = self.new.strip_prefix(self.old.as_str()).filter(|r| words(r) && r.starts_with(char::is_whitespace));
        let before = self.new.strip_suffix(self.old.as_str()).filter(|r| words(r) && r.ends_with(char::is_whitespace));
        if let Some(rest) = after {
            EditKind::AddAfter(rest)
        } else if let Some(rest) = before {
            EditKind::AddBefore(rest)
        } else {
            EditKind::Replace
        }
    }

    /// The text the edit puts in the document that was not there: what a
    /// newer document must hold for the edit to be present.
    pub fn added(&self) -> &str {
        match self.kind() {
            EditKind::AddAfter(t) | EditKind::AddBefore(t) => t,
            EditKind::Replace => &self.new,
        }
    }

    /// The section it edits (`9.7.1.9`).
    pub fn section(&self) -> &str {
        self.unit.split('/').next().unwrap_or(&self.unit)
    }

    /// Where it is, in words: `9.7.1.9 Notes`, `9.7.1's introduction`.
    pub fn place(&self) -> String {
        let block = self.unit.split('/').nth(1).unwrap_or("intro");
        if self.unit.split('/').nth(2).is_some_and(|u| u.starts_with("heading-")) {
            return format!("{}'s heading", self.section());
        }
        match crate::audit::text::document::BlockKind::from_key(block) {
            Some(kind) => format!("{} {}", self.section(), kind.label()),
            None => format!("{}'s introduction", self.section()),
        }
    }

    /// The edit in one sentence: where, and what to add or replace.
    pub fn prose(&self) -> String {
        match self.kind() {
            EditKind::AddAfter(t) => format!("In {}, after {}, add {}.", self.place(), quoted(&self.old), quoted(t)),
            EditKind::AddBefore(t) => {
                format!("In {}, before {}, add {}.", self.place(), quoted(&self.old), quoted(t))
            }
            EditKind::Replace => {
                format!("In {}, replace {} by {}.", self.place(), quoted(&self.old), quoted(&self.new))
            }
        }
    }
}

/// A text in quotes, one line: each of its lines quoted, joined by `/` (a
/// line break of the text).
fn quoted(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .map(|l| format!("\"{l}\""))
        .collect();
    lines.join(" / ")
}

impl RootCause {
    pub fn severity(&self) -> Severity {
        severity(self.impact)
    }

    /// The proposed fix in words: each edit, then what they leave to words.
    pub fn fix(&self) -> String {
        let mut parts: Vec<String> = self.edits.iter().map(Edit::prose).collect();
        parts.extend(self.also.clone());
        parts.join(" ")
    }

    pub fn sections_text(&self) -> String {
        self.sections.join(", ")
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    root_cause: Vec<RootCause>,
}

/// The table's file, as the repository names it, and its text.
pub const FILE: (&str, &str) = ("checker/errata/root-causes.toml", include_str!("../../errata/root-causes.toml"));

/// The root causes of a table, in the order written; a malformed table is a
/// one-line error naming the file and line.
pub fn load(name: &str, text: &str) -> Result<Vec<RootCause>, String> {
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        format!("{name}:{line}: {}", e.message())
    })?;
    let mut seen: Vec<&str> = Vec::new();
    for rc in &file.root_cause {
        if seen.contains(&rc.id.as_str()) {
            return Err(format!("{name}: root cause `{}` twice", rc.id));
        }
        seen.push(&rc.id);
    }
    // A settled rule is one the literal reading names in its finding ids:
    // a C rule, or the signed reading of the bit types.
    let rules = || crate::audit::literal::Rule::ALL.map(|r| r.slug()).into_iter().chain(["bit-types-signed"]);
    for rc in &file.root_cause {
        if let Some(r) = rc.settles.iter().find(|r| !rules().any(|k| k == r.as_str())) {
            return Err(format!("{name}: root cause `{}` settles `{r}`, not a rule the literal reading names", rc.id));
        }
    }
    let mut sites: Vec<&str> = Vec::new();
    for f in file.root_cause.iter().flat_map(|rc| rc.findings.iter()) {
        if sites.contains(&f.as_str()) {
            return Err(format!("{name}: finding `{f}` under two root causes"));
        }
        sites.push(f);
    }
    Ok(file.root_cause)
}

static ROOT_CAUSES: LazyLock<Vec<RootCause>> =
    LazyLock::new(|| load(FILE.0, FILE.1).unwrap_or_else(|e| panic!("the built-in root causes: {e}")));

/// Every root cause, in the table's order.
pub fn all() -> &'static [RootCause] {
    &ROOT_CAUSES
}

/// The root cause that lists a finding among its sites.
pub fn of(finding_id: &str) -> Option<&'static RootCause> {
    all().iter().find(|rc| rc.findings.iter().any(|f| f == finding_id))
}

/// The root cause a finding is a site of: the one that lists it, else the
/// one whose prose settles its C rule in its section ([`RootCause::settles`]).
pub fn of_finding(f: &Finding) -> Option<&'static RootCause> {
    of(&f.id).or_else(|| all().iter().find(|rc| rc.settles_site(f)))
}

impl RootCause {
    /// Whether `f`, a literal finding no root cause lists, meets a C rule
    /// this root cause's prose settles, in one of its sections.
    fn settles_site(&self, f: &Finding) -> bool {
        let Some(rest) = f.id.strip_prefix("literal-") else { return false };
        let in_section = self
            .sections
            .iter()
            .any(|s| f.section == *s || f.section.strip_prefix(s.as_str()).is_some_and(|r| r.starts_with('.')));
        // `literal-OPCODE-RULE[-FRAGMENT]`: the rule follows one of the
        // opcode's dash-separated words.
        let rule_follows = |rule: &String| {
            rest.match_indices('-').any(|(i, _)| {
                rest[i + 1..].strip_prefix(rule.as_str()).is_some_and(|r| r.is_empty() || r.starts_with('-'))
            })
        };
        in_section && self.settles.iter().any(rule_follows)
    }
}

/// The prefix of the ids of the findings of the spec-text pass
/// (`crate::audit::text`).
pub const TEXT_PREFIX: &str = "text-";

/// The id a finding the table does not list is filed under: the reports
/// list it as a row of its own, so a new finding is never hidden.
pub const UNASSIGNED: &str = "unassigned";

/// Name each finding's root cause and give it that root cause's severity.
pub fn assign(findings: &mut [Finding]) {
    for f in findings {
        match of_finding(f) {
            Some(rc) => {
                f.root_cause = rc.id.clone();
                f.severity = rc.severity();
            }
            None => f.root_cause = UNASSIGNED.to_string(),
        }
    }
}

/// The root causes that have at least one of `findings`, in the table's
/// order, each with its findings; findings no root cause lists come last,
/// under [`UNASSIGNED`].
pub fn group(findings: &[Finding]) -> Vec<(Option<&'static RootCause>, Vec<&Finding>)> {
    let mut out: Vec<(Option<&'static RootCause>, Vec<&Finding>)> = all()
        .iter()
        .map(|rc| {
            let listed = rc.findings.iter().filter_map(|id| findings.iter().find(|f| &f.id == id));
            let settled =
                findings.iter().filter(|f| of(&f.id).is_none() && of_finding(f).is_some_and(|r| r.id == rc.id));
            (Some(rc), listed.chain(settled).collect())
        })
        .filter(|(_, fs): &(_, Vec<&Finding>)| !fs.is_empty())
        .collect();
    let loose: Vec<&Finding> = findings.iter().filter(|f| of_finding(f).is_none()).collect();
    if !loose.is_empty() {
        out.push((None, loose));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::finding::FindingKind;

    fn finding(id: &str) -> Finding {
        Finding {
            id: id.into(),
            section: "9.7.1.1".into(),
            kind: FindingKind::Undefined,
            severity: Severity::Low,
            root_cause: String::new(),
            fragment: String::new(),
            summary: String::new(),
            detail: vec![],
            model_choice: None,
            witness: None,
            more_witnesses: Vec::new(),
            also_quotes: Vec::new(),
            repairs: Vec::new(),
        }
    }

    #[test]
    fn the_severity_rule() {
        assert_eq!(severity(Impact::WrongResult), Severity::High);
        assert_eq!(severity(Impact::UndefinedResult), Severity::High);
        assert_eq!(severity(Impact::ExampleDoesNotAssemble), Severity::High);
        assert_eq!(severity(Impact::ResultOpen), Severity::Medium);
        assert_eq!(severity(Impact::PartsDisagree), Severity::Medium);
        assert_eq!(severity(Impact::Wording), Severity::Low);
    }

    /// The severities the issue tracker found inverted: C's `~` on a
    /// `_Bool` (9.7.8.4) is not high; an example the assembler rejects
    /// (9.7.1.19) and a block that is not C (9.7.1.21) are not low.
    #[test]
    fn severities_follow_the_impact_not_the_check() {
        let sev = |id: &str| of(id).unwrap_or_else(|| panic!("{id} has no root cause")).severity();
        assert_ne!(sev("literal-not-wrong-result"), Severity::High);
        assert_eq!(sev("9.7.1.19/example-syntax-1"), Severity::High);
        assert_ne!(sev("literal-szext-not-c"), Severity::Low);
        assert_eq!(sev("szext-mask-or-zero"), sev("literal-szext-not-c"), "one defect, one severity");
    }

    #[test]
    fn the_table_loads_and_every_root_cause_has_a_fix_and_sites() {
        // The seeds' errata stay a short read; each section modelled beyond
        // them (9.7.9.7 on) adds its own defects. The bound was 50 until the
        // passes that read the prose and the names as a whole (silence,
        // spellings) began to find defects of kinds no earlier pass could,
        // and 55 until the order of a block's writes and reads, registers
        // of two widths and the order of the shuffle's slots were read, and
        // 60 until the prose questions of careful readers (`text/reads/`)
        // began to be asked, each a defect of its own, and 70 until the
        // questions of their second, held-out round were (operand types,
        // immediates, notation, bmsk's and bfi's unstated cases), and 75
        // until the Notes' and the Description's own recipes were checked
        // per mode (shf's rotate and its distance of 32, lop3's immLut), and
        // 80 until the grammar of the prose was read (a singular noun
        // before a list of operands, a plural unit in a modifier), and 85
        // until the prose's silences (fns's search, bmsk's field past bit
        // 31), its sizes (mul24's 48 bits) and mad's and mad24's sentences
        // copied from mul and mul24 were findings, and 95 until the dates
        // that read two ways, the operand bits no block reads, the operands
        // typed twice and shfl's sub-segments were, and 100 until sad's
        // difference and comparison, bfind's shift target, bfi's field and
        // bmsk's zero width were read two ways.
        let seeds = |s: &String| s.starts_with("9.7.1") || s.starts_with("9.7.8") || s == "9.7.9.5";
        let on_seeds = all().iter().filter(|rc| rc.sections.iter().any(seeds)).count();
        assert!(!all().is_empty() && on_seeds <= 100, "at most 100 root causes on the seed sections: {on_seeds}");
        for rc in all() {
            assert!(!rc.findings.is_empty(), "{}: no sites", rc.id);
            assert!(!rc.edits.is_empty() && !rc.problem.trim().is_empty(), "{}", rc.id);
            assert!(!rc.problem.contains('\n'), "{}: the problem is one line", rc.id);
            assert!(!rc.sections.is_empty(), "{}", rc.id);
        }
    }

    /// A literal finding no root cause lists, of a C rule whose result the
    /// prose of one states in its sections, is that one's site there, and
    /// only there: elsewhere it stays visible as unassigned.
    #[test]
    fn a_settled_rule_is_a_site_in_its_sections_only() {
        let mut fs = vec![
            finding("literal-szext-conversion-out-of-range"),
            Finding { section: "9.7.3.1".into(), ..finding("literal-testp-conversion-out-of-range") },
            finding("literal-szext-conversion-out-of-rangey"),
            finding("literal-szext-left-shift-of-negative-x"),
        ];
        assign(&mut fs);
        assert_eq!(fs[0].root_cause, "integer-arithmetic-undefined");
        assert_eq!(fs[1].root_cause, UNASSIGNED, "another chapter's block");
        assert_eq!(fs[2].root_cause, UNASSIGNED, "a rule is a whole word of the id");
        assert_eq!(fs[3].root_cause, UNASSIGNED, "a rule no root cause settles");
        let groups = group(&fs);
        let rc = groups.iter().find(|(rc, _)| rc.is_some_and(|r| r.id == "integer-arithmetic-undefined")).unwrap();
        assert_eq!(rc.1.len(), 1);
        assert_eq!(groups.last().unwrap().1.len(), 3);
    }

    #[test]
    fn grouping_collects_every_site_and_keeps_strays_visible() {
        let mut fs = vec![
            finding("literal-add-signed-overflow"),
            finding("int-wraparound"),
            finding("no-such-finding"),
            finding("literal-clz-wrong-result"),
        ];
        assign(&mut fs);
        assert_eq!(fs[0].root_cause, fs[1].root_cause, "signed overflow in C is the undefined arithmetic");
        assert_eq!(fs[2].root_cause, UNASSIGNED);
        let groups = group(&fs);
        let wrap = groups.iter().find(|(rc, _)| rc.is_some_and(|r| r.id == fs[0].root_cause)).unwrap();
        let ids: Vec<&str> = wrap.1.iter().map(|f| f.id.as_str()).collect();
        assert!(ids.contains(&"literal-add-signed-overflow") && ids.contains(&"int-wraparound"), "{ids:?}");
        let (last, stray) = groups.last().unwrap();
        assert!(last.is_none() && stray.len() == 1 && stray[0].id == "no-such-finding");
    }

    #[test]
    fn a_malformed_table_is_one_line_naming_the_file_and_line() {
        let e = load("t.toml", "[[root_cause]]\nid = \"x\"\nclass = \"wrong exampel\"\n").unwrap_err();
        assert!(e.starts_with("t.toml:3: ") && !e.contains('\n'), "{e}");
        let twice = "[[root_cause]]\nid = \"x\"\nsections = []\nclass = \"wording\"\nimpact = \"wording\"\n\
                     quote = \"\"\nproblem = \"\"\nfindings = [\"f\"]\n\
                     [[root_cause.edit]]\nunit = \"9.7.1/intro/sentence-1\"\nold = \"a\"\nnew = \"b\"\n";
        let e = load("t.toml", &format!("{twice}{}", twice.replace("\"x\"", "\"y\""))).unwrap_err();
        assert_eq!(e, "t.toml: finding `f` under two root causes");
    }

    /// Every finding of the committed report names a root cause of the
    /// table, and every site the table lists is a finding there: the table
    /// and the audit cannot drift apart unnoticed.
    #[test]
    fn the_committed_report_and_the_table_agree() {
        let text = include_str!("../../../reports/ptxcheck.json");
        let report: serde_json::Value = serde_json::from_str(text).unwrap();
        let findings = report["audit"]["findings"].as_array().unwrap();
        let ids: Vec<&str> = findings.iter().map(|f| f["id"].as_str().unwrap()).collect();
        for f in findings {
            let id = f["id"].as_str().unwrap();
            let rc = of(id).unwrap_or_else(|| panic!("finding {id} has no root cause"));
            assert_eq!(f["root_cause"], rc.id.as_str(), "{id}");
        }
        // The text pass's findings (`text-...`) come from the user's copy
        // of the spec; a report written without it has none, and
        // `tests/text.rs` holds them to the table against the seeds.
        let with_text = ids.iter().any(|id| id.starts_with(TEXT_PREFIX));
        // A passage the report does not list is newer than the report: its
        // finding joins it when `ptxcheck report` is next run, and is held
        // to the table from then on.
        let reported: Vec<&str> =
            report["audit"]["passages"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
        let newer = |f: &str| crate::audit::passages::PASSAGES.iter().any(|p| p.id == f) && !reported.contains(&f);
        for rc in all() {
            let sites = rc.findings.iter().filter(|f| with_text || !f.starts_with(TEXT_PREFIX));
            for f in sites.filter(|f| !newer(f)) {
                assert!(ids.contains(&f.as_str()), "{}: site {f} is not a finding of the report", rc.id);
            }
        }
    }
}
