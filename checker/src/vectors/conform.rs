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
//!
//! The failures of each variant against each model are grouped by cause
//! (`super::groups`).

use std::collections::{BTreeMap, HashMap};

use ptx_spec::catalogue::Variant;
use ptx_spec::hardware::Model;

use rayon::prelude::*;

use super::files::{Event, Outcome};
pub use super::groups::Failure;
use super::groups::{groups, Case, Class, Group, Shape};
use ptx_spec::bv::hex;

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
    /// The failures against each model, grouped by cause (`groups`).
    pub spec_groups: Vec<Group>,
    pub sm_90_groups: Vec<Group>,
}

impl Tally {
    /// The failures against `model`.
    pub fn failed(&self, model: Model) -> usize {
        match model {
            Model::Spec => self.failed_spec,
            Model::Sm90 => self.failed_sm_90_only + self.failed_spec - self.failed_spec_only,
        }
    }

    pub fn groups(&self, model: Model) -> &[Group] {
        match model {
            Model::Spec => &self.spec_groups,
            Model::Sm90 => &self.sm_90_groups,
        }
    }
}

/// Whether `actual` fails against `expected`: an output the model defines
/// differs.
pub fn fails(expected: &[Option<u128>], actual: &[u128]) -> bool {
    expected.iter().zip(actual).any(|(e, a)| e.is_some_and(|e| e != *a))
}

/// Both models' outputs for one result.
struct Expected {
    spec: Vec<Option<u128>>,
    sm_90: Vec<Option<u128>>,
}

impl Expected {
    fn of(&self, model: Model) -> &[Option<u128>] {
        match model {
            Model::Spec => &self.spec,
            Model::Sm90 => &self.sm_90,
        }
    }
}

/// Whether `o` fails against a model whose outputs are `expected`: an
/// event fails wherever the model defines an output.
fn fails_against(o: &Outcome, expected: &[Option<u128>]) -> bool {
    match &o.event {
        Some(_) => expected.iter().any(Option::is_some),
        None => fails(expected, &o.actual),
    }
}

fn failure(o: &Outcome, expected: &[Option<u128>]) -> Failure {
    Failure {
        at: o.at.clone(),
        inputs: o.inputs.clone(),
        actual: o.actual.clone(),
        event: o.event.as_ref().map(|(e, m)| match m {
            Some(m) => format!("{}: {m}", e.word()),
            None => e.word().to_string(),
        }),
        expected: expected.to_vec(),
        reason: o.reason.clone().unwrap_or_else(|| "-".into()),
    }
}

/// Every result compared; per variant in catalogue order, each with its
/// failures grouped against each model.
pub fn compare(outcomes: &[Outcome]) -> Vec<(Variant, Tally)> {
    let all = Variant::all();
    let index: HashMap<Variant, usize> = all.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let expected: Vec<Expected> = outcomes
        .par_iter()
        .map(|o| {
            let run = |model| o.variant.run_in(model, &o.inputs).into_iter().map(|x| x.map(|b| b.unsigned())).collect();
            Expected { spec: run(Model::Spec), sm_90: run(Model::Sm90) }
        })
        .collect();
    let mut out: BTreeMap<usize, (Tally, Vec<usize>)> = BTreeMap::new();
    for (k, (o, x)) in outcomes.iter().zip(&expected).enumerate() {
        let (t, members) = out.entry(index[&o.variant]).or_default();
        members.push(k);
        t.results += 1;
        let (spec, sm_90) = (fails_against(o, &x.spec), fails_against(o, &x.sm_90));
        if let Some((event, _)) = &o.event {
            t.events += 1;
            if *event == Event::Unimplemented {
                t.unimplemented += 1;
            }
        }
        if spec {
            t.failed_spec += 1;
            if !sm_90 {
                t.failed_spec_only += 1;
            }
        } else if sm_90 {
            t.failed_sm_90_only += 1;
        } else if o.event.is_some() {
            t.event_picks += 1;
        } else if x.spec.iter().any(Option::is_none) {
            t.picks += 1;
        } else {
            t.passed += 1;
        }
    }
    let mut tallies: Vec<(usize, Tally, Vec<usize>)> = out.into_iter().map(|(i, (t, m))| (i, t, m)).collect();
    tallies.par_iter_mut().for_each(|(i, t, members)| {
        let variant = all[*i];
        for model in Model::ALL {
            if t.failed(model) == 0 {
                continue;
            }
            let other = if model == Model::Spec { Model::Sm90 } else { Model::Spec };
            let cases: Vec<Case> = members
                .iter()
                .map(|&k| {
                    let (o, x) = (&outcomes[k], &expected[k]);
                    let fails = fails_against(o, x.of(model));
                    let theirs = x.of(other).iter().zip(&o.actual).all(|(e, a)| *e == Some(*a));
                    let class = match (&o.event, fails) {
                        (_, false) => Class::Passed,
                        (Some((e, _)), true) => Class::Event(*e),
                        (None, true) if theirs => Class::Theirs,
                        (None, true) => Class::Value(Shape::of(x.of(model), &o.actual)),
                    };
                    Case {
                        class,
                        inputs: &o.inputs,
                        failure: fails.then(|| failure(o, x.of(model))),
                        other: x.of(other),
                    }
                })
                .collect();
            let name = |m: Model| if m == Model::Spec { "the spec" } else { "sm_90" };
            let found = groups(&variant, &cases, name(model), name(other));
            match model {
                Model::Spec => t.spec_groups = found,
                Model::Sm90 => t.sm_90_groups = found,
            }
        }
    });
    tallies.into_iter().map(|(i, t, _)| (all[i], t)).collect()
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
