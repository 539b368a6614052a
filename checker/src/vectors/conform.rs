//! `ptxcheck conform`: an implementation's results against both models.
//!
//! Each result is compared with the spec model and with the sm_90 model,
//! recomputed from its inputs. Against a model, a result fails when an
//! output the model defines differs; where the spec leaves an output open,
//! any value passes, and a result with one is an "implementation pick".
//!
//! A result may be an event instead of a value (a trap, a crash, an
//! unimplemented instruction, a timeout). Where the model defines an
//! output, it fails; where the model leaves every output open, it is the
//! implementation's pick, counted apart from the value picks.

use std::collections::{BTreeMap, HashMap};

use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use super::files::{Event, Outcome};
use super::Vector;
use ptx_spec::bv::hex;

/// One failing result, as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub at: String,
    pub inputs: Vec<u128>,
    pub actual: Vec<u128>,
    /// What happened instead of a value (`crash: SIGFPE`), if it was no value.
    pub event: Option<String>,
    pub expected: Vec<Option<u128>>,
    pub reason: String,
}

/// One variant's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub results: usize,
    /// Every output the spec defines matches, and the spec defines all.
    pub passed: usize,
    pub failed_spec: usize,
    /// Failed against sm_90 but not against the spec.
    pub failed_sm_90_only: usize,
    /// Passed against sm_90 but failed against the spec (the H100's rules
    /// replace a reading of the spec model there).
    pub failed_spec_only: usize,
    /// The spec leaves an output open, the implementation gives a value,
    /// and every output the spec defines matches.
    pub picks: usize,
    /// Results that are an event (trap, crash, unimplemented, timeout)
    /// rather than a value, whatever their verdict.
    pub events: usize,
    /// Events where the spec leaves every output open (and sm_90 too):
    /// the implementation's pick, apart from the value picks.
    pub event_picks: usize,
    /// Results answered `unimplemented`.
    pub unimplemented: usize,
    /// The least failing input against each model, with the reasons of
    /// every failing vector (named findings, readings and claims first).
    pub spec_failure: Option<Failure>,
    pub sm_90_failure: Option<Failure>,
    pub spec_reasons: Vec<String>,
    pub sm_90_reasons: Vec<String>,
}

impl Tally {
    /// The failures against `model`.
    pub fn failed(&self, model: Model) -> usize {
        match model {
            Model::Spec => self.failed_spec,
            Model::Sm90 => self.failed_sm_90_only + self.failed_spec - self.failed_spec_only,
        }
    }

    pub fn failure(&self, model: Model) -> Option<&Failure> {
        match model {
            Model::Spec => self.spec_failure.as_ref(),
            Model::Sm90 => self.sm_90_failure.as_ref(),
        }
    }

    pub fn reasons(&self, model: Model) -> &[String] {
        match model {
            Model::Spec => &self.spec_reasons,
            Model::Sm90 => &self.sm_90_reasons,
        }
    }
}

/// Whether `actual` fails against `expected`: an output the model defines
/// differs.
pub fn fails(expected: &[Option<u128>], actual: &[u128]) -> bool {
    expected.iter().zip(actual).any(|(e, a)| e.is_some_and(|e| e != *a))
}

fn keep(slot: &mut Option<Failure>, reasons: &mut Vec<String>, f: Failure) {
    if !reasons.contains(&f.reason) && reasons.len() < 64 {
        reasons.push(f.reason.clone());
    }
    // The least input in operand order, as the audit's witnesses are.
    if slot.as_ref().is_none_or(|s| f.inputs < s.inputs) {
        *slot = Some(f);
    }
}

/// Every result compared; per variant in catalogue order.
pub fn compare(outcomes: &[Outcome]) -> Vec<(Variant, Tally)> {
    let all = Variant::all();
    let index: HashMap<Variant, usize> = all.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let mut out: BTreeMap<usize, Tally> = BTreeMap::new();
    for o in outcomes {
        let v = Vector::new(o.variant, o.inputs.clone(), super::Reason::Exhaustive);
        let t = out.entry(index[&o.variant]).or_default();
        t.results += 1;
        // An event fails against a model wherever that model defines an
        // output.
        let defines = |expected: &[Option<u128>]| expected.iter().any(Option::is_some);
        let (spec, sm_90) = match &o.event {
            Some(_) => (defines(&v.spec), defines(&v.sm_90)),
            None => (fails(&v.spec, &o.actual), fails(&v.sm_90, &o.actual)),
        };
        if let Some((event, _)) = &o.event {
            t.events += 1;
            if *event == Event::Unimplemented {
                t.unimplemented += 1;
            }
        }
        let event = o.event.as_ref().map(|(e, m)| match m {
            Some(m) => format!("{}: {m}", e.word()),
            None => e.word().to_string(),
        });
        let failure = |expected: &[Option<u128>]| Failure {
            at: o.at.clone(),
            inputs: o.inputs.clone(),
            actual: o.actual.clone(),
            event: event.clone(),
            expected: expected.to_vec(),
            reason: o.reason.clone().unwrap_or_else(|| "-".into()),
        };
        if spec {
            t.failed_spec += 1;
            keep(&mut t.spec_failure, &mut t.spec_reasons, failure(&v.spec));
            if !sm_90 {
                t.failed_spec_only += 1;
            }
        } else if sm_90 {
            t.failed_sm_90_only += 1;
        } else if o.event.is_some() {
            t.event_picks += 1;
        } else if v.spec.iter().any(Option::is_none) {
            t.picks += 1;
        } else {
            t.passed += 1;
        }
        if sm_90 {
            keep(&mut t.sm_90_failure, &mut t.sm_90_reasons, failure(&v.sm_90));
        }
    }
    out.into_iter().map(|(i, t)| (all[i], t)).collect()
}

/// Operand values as `a=0x1 b=0x2`.
pub fn show_inputs(v: &Variant, inputs: &[u128]) -> String {
    v.inputs()
        .iter()
        .zip(inputs)
        .map(|(o, &x)| format!("{}={}", o.name, hex(x, o.ty.width())))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Output values as `d=0x1`, `unspecified` where open.
pub fn show_outputs(v: &Variant, values: impl Iterator<Item = Option<u128>>) -> String {
    v.outputs()
        .iter()
        .zip(values)
        .map(|(o, x)| format!("{}={}", o.name, x.map_or("unspecified".into(), |x| hex(x, o.ty.width()))))
        .collect::<Vec<_>>()
        .join(" ")
}
