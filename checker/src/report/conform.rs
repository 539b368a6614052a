//! `ptxcheck conform`'s verdict on an implementation's results as one typed
//! value: `--format json` prints it serialised, and `--html FILE` renders it
//! as one page (a row per variant, then each variant's groups of failures
//! with their least failing inputs).

use askama::Template;
use serde::{Deserialize, Serialize};

pub use crate::vectors::files::Values;

/// The whole verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConformReport {
    pub schema_version: u32,
    /// The model the exit status counts failures against.
    pub model: String,
    pub results: usize,
    pub passed: usize,
    pub failed_spec: usize,
    pub failed_sm_90_only: usize,
    pub picks: usize,
    pub no_value: usize,
    /// Results failing against `model`.
    pub failed: usize,
    pub variants: Vec<VariantResult>,
    /// Variants that answered `unimplemented` to every result.
    pub unimplemented: Vec<String>,
    pub not_run: NotRun,
    pub partial: Vec<Partial>,
}

/// The variants with no result, of the suite's (or the catalogue's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotRun {
    pub count: usize,
    pub of: usize,
    pub variants: Vec<String>,
}

/// A variant the results cover in part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partial {
    pub variant: String,
    pub results: usize,
    pub suite: usize,
}

/// One variant's counts and groups of failures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantResult {
    pub variant: String,
    pub results: usize,
    pub passed: usize,
    pub failed_spec: usize,
    pub failed_sm_90: usize,
    pub picks: usize,
    pub no_value: usize,
    pub no_value_picks: usize,
    pub unimplemented: usize,
    /// The suite's vectors of it, where the results cover it in part.
    pub suite: Option<usize>,
    pub groups: Groups,
}

/// The groups of failures against each model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Groups {
    pub spec: Vec<GroupEntry>,
    pub sm_90: Vec<GroupEntry>,
}

/// Failures that fail the same way on inputs one condition covers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupEntry {
    pub size: usize,
    /// `value`, or the event (`crash`, `trap`, ...).
    pub kind: String,
    pub condition: String,
    pub pattern: String,
    /// The findings, readings and claims among its vectors, or the least
    /// input's reason.
    pub named: Vec<String>,
    pub least_input: LeastInput,
}

/// A group's least failing input and what came of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeastInput {
    /// Where the vector is in the results (`line 12`).
    pub at: String,
    pub inputs: Values,
    /// `None` where the implementation gave no value (see `outcome`).
    pub actual: Option<Values>,
    pub outcome: Option<String>,
    pub expected: Values,
    pub reason: String,
}

struct GroupView<'a> {
    model: &'static str,
    group: &'a GroupEntry,
    inputs: String,
    actual: String,
    expected: String,
}

struct VariantView<'a> {
    anchor: String,
    v: &'a VariantResult,
    groups: Vec<GroupView<'a>>,
}

#[derive(Template)]
#[template(path = "html/conform.html")]
struct ConformPage<'a> {
    report: &'a ConformReport,
    variants: Vec<VariantView<'a>>,
    style: &'static str,
}

/// `a=0x1 b=0x2`; an open value is `unspecified`.
fn show(values: &Values) -> String {
    let each: Vec<String> =
        values.iter().map(|(k, v)| format!("{k}={}", v.as_deref().unwrap_or("unspecified"))).collect();
    each.join(" ")
}

impl ConformReport {
    /// The page, one file with its style inside: it opens from anywhere.
    pub fn html(&self) -> String {
        let variants = self
            .variants
            .iter()
            .map(|v| {
                // sm_90's groups, where they are the spec's, are said once.
                let key = |g: &GroupEntry| {
                    (g.size, g.condition.clone(), g.least_input.inputs.clone(), g.least_input.expected.clone())
                };
                let same = v.groups.spec.iter().map(key).eq(v.groups.sm_90.iter().map(key));
                let models: &[(&'static str, &Vec<GroupEntry>)] = if same {
                    &[("the spec and sm_90", &v.groups.spec)]
                } else {
                    &[("the spec", &v.groups.spec), ("sm_90", &v.groups.sm_90)]
                };
                let groups = models
                    .iter()
                    .copied()
                    .flat_map(|(model, gs)| gs.iter().map(move |g| (model, g)))
                    .map(|(model, group)| GroupView {
                        model,
                        group,
                        inputs: show(&group.least_input.inputs),
                        actual: group
                            .least_input
                            .actual
                            .as_ref()
                            .map_or_else(|| group.least_input.outcome.clone().unwrap_or_default(), show),
                        expected: show(&group.least_input.expected),
                    })
                    .collect();
                VariantView { anchor: format!("v-{}", v.variant), v, groups }
            })
            .collect();
        let page = ConformPage { report: self, variants, style: super::html::STYLE };
        page.render().expect("the template renders") + "\n"
    }
}
