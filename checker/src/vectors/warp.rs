//! The suite's shuffle vectors run as whole warps. A vector of shfl or
//! shfl.sync is one lane's view of a warp: its lane, its own `b` and `c`,
//! every lane's `a` and whether each lane executes (and for shfl.sync its
//! mask and whether every lane shares it). The vectors whose warps are the
//! ones `oracle::hw` writes (lane `l` holding `base + l`, every lane with
//! the thread's `b` and `c`, shfl.sync's mask the lanes that execute) are
//! grouped into its whole-warp cases, one case for all the lanes of a warp;
//! each vector's outputs are read back from its lane's result line. The
//! others cannot be run that way, and are counted with their reason.

use std::collections::{BTreeMap, HashMap};

use ptx_spec::catalogue::shfl::{input, WARP};

use super::files::Outcome;
use crate::oracle::hw::{shfl_label, ShflCase};
use ptx_spec::bv::parse_hex;

/// The shuffle vectors of a suite laid out as warp cases.
#[derive(Debug, Default)]
pub struct Warps {
    /// One case per warp, in the order of its first vector.
    pub cases: Vec<ShflCase>,
    /// The vectors (their numbers in the suite) behind each result line's
    /// label (the case's label and ` lane=N`).
    by_label: HashMap<String, Vec<usize>>,
    /// The vectors no case can run, with the reason.
    pub not_run: Vec<(usize, &'static str)>,
}

/// The warp case a shuffle vector is one lane of, and its lane; or why no
/// case of `oracle::hw` is that warp.
pub fn case_of(v: &Outcome) -> Result<(ShflCase, usize), &'static str> {
    let x = |i: usize| v.inputs.get(i).map_or(0, |&w| w as u32);
    if v.inputs.len() < input::COUNT {
        return Err("it does not hold a warp");
    }
    let lane = x(input::LANE) as usize;
    let base = x(input::A);
    if (0..WARP).any(|l| x(input::A + l) != base.wrapping_add(l as u32)) {
        return Err("its lanes' a are not base + lane");
    }
    let active = (0..WARP).fold(0u32, |m, l| m | (x(input::ACTIVE + l) & 1) << l);
    if active >> lane & 1 == 0 {
        return Err("its own lane does not execute");
    }
    if v.inputs.len() == input::SYNC_COUNT
        && (x(input::MEMBERMASK) != active || (0..WARP).any(|l| x(input::AGREES + l) != 1))
    {
        return Err("its mask is not the lanes that execute, shared by every lane");
    }
    Ok((ShflCase { variant: v.variant, b: x(input::B), c: x(input::C), active, base }, lane))
}

impl Warps {
    /// Lay out the shuffle vectors of `suite` (each with its number).
    pub fn new<'a>(suite: impl IntoIterator<Item = (usize, &'a Outcome)>) -> Warps {
        let mut w = Warps::default();
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for (id, v) in suite {
            match case_of(v) {
                Ok((case, lane)) => {
                    let label = shfl_label(&case);
                    if !index.contains_key(&label) {
                        index.insert(label.clone(), w.cases.len());
                        w.cases.push(case);
                    }
                    w.by_label.entry(format!("{label} lane={lane}")).or_default().push(id);
                }
                Err(why) => w.not_run.push((id, why)),
            }
        }
        w
    }

    /// The outcome of every vector laid out, from the result lines of the
    /// cases (`label lane=N -> v1 v2`); `suite` gives each vector's line
    /// and reason. A vector whose line is missing, or holds the wrong
    /// number of values, is an error: the run did not finish as written.
    pub fn outcomes(&self, lines: &[String], suite: &[Outcome]) -> Result<Vec<Outcome>, String> {
        let mut got: HashMap<&str, Vec<u128>> = HashMap::new();
        for line in lines {
            let (label, values) = line.split_once(" -> ").ok_or_else(|| format!("result line `{line}`: no ` -> `"))?;
            let values: Option<Vec<u128>> = values.split_whitespace().map(parse_hex).collect();
            got.insert(label, values.ok_or_else(|| format!("result line `{line}`: not hex values"))?);
        }
        let mut out = Vec::new();
        for (label, ids) in &self.by_label {
            let values = got.get(label.as_str()).ok_or_else(|| format!("no result for `{label}`"))?;
            for &id in ids {
                let v = &suite[id];
                if values.len() != v.variant.outputs().len() {
                    return Err(format!(
                        "`{label}`: {} values for {} outputs",
                        values.len(),
                        v.variant.outputs().len()
                    ));
                }
                out.push(Outcome { actual: values.clone(), event: None, ..v.clone() });
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::conform::compare;
    use crate::vectors::{generate, Size};
    use ptx_spec::catalogue::Variant;
    use ptx_spec::family::shfl::Warp;

    /// What a GPU that follows the spec's model would print for `cases`,
    /// where the model defines each value (0 elsewhere).
    fn model_lines(cases: &[ShflCase]) -> Vec<String> {
        let mut lines = Vec::new();
        for case in cases {
            let Variant::Shfl(shfl) = case.variant else { unreachable!("a shuffle case") };
            let warp =
                Warp::uniform(std::array::from_fn(|l| case.base.wrapping_add(l as u32)), case.b, case.c, case.active);
            for (lane, r) in warp.run(shfl).into_iter().enumerate().filter(|(l, _)| case.active >> l & 1 == 1) {
                let mut values = vec![format!("{:#x}", r.d.unwrap_or(0))];
                if shfl.pred {
                    values.push(format!("{:#x}", u8::from(r.p.unwrap_or(false))));
                }
                lines.push(format!("{} lane={lane} -> {}", shfl_label(case), values.join(" ")));
            }
        }
        lines
    }

    fn suite(name: &str) -> Vec<Outcome> {
        let v = Variant::from_mnemonic(name).expect("a variant");
        generate(&v, &[], Size::default())
            .into_iter()
            .map(|x| Outcome {
                at: String::new(),
                variant: x.variant,
                inputs: x.inputs,
                actual: vec![],
                event: None,
                reason: None,
            })
            .collect()
    }

    #[test]
    fn every_generated_shuffle_vector_runs_as_a_lane_of_a_warp() {
        for name in ["shfl.up.b32 d|p", "shfl.sync.idx.b32 d|p", "shfl.sync.bfly.b32"] {
            let suite = suite(name);
            let warps = Warps::new(suite.iter().enumerate());
            assert_eq!(warps.not_run, vec![], "{name}");
            assert!(warps.cases.len() * 2 <= suite.len(), "{name}: lanes share their warps");
            let outcomes = warps.outcomes(&model_lines(&warps.cases), &suite).expect("every lane answers");
            assert_eq!(outcomes.len(), suite.len());
            let tallies = compare(&outcomes);
            assert!(tallies.iter().all(|(_, t)| t.failed_spec == 0), "{name}: the model's own warps pass");
        }
    }

    #[test]
    fn a_planted_wrong_lane_is_reported() {
        let suite = suite("shfl.sync.down.b32 d|p");
        let warps = Warps::new(suite.iter().enumerate());
        let mut lines = model_lines(&warps.cases);
        // Lane 1 of the first full warp: its d is defined, and now wrong.
        let k =
            lines.iter().position(|l| l.contains("active=0xffffffff") && l.contains(" lane=1 ")).expect("a full warp");
        let line = lines[k].clone();
        let (label, values) = line.split_once(" -> ").expect("a result line");
        let d = parse_hex(values.split_whitespace().next().expect("d")).expect("hex");
        lines[k] = format!("{label} -> {:#x} {}", d ^ 1, values.split_whitespace().nth(1).expect("p"));
        let outcomes = warps.outcomes(&lines, &suite).expect("every lane answers");
        let tallies = compare(&outcomes);
        let failed: usize = tallies.iter().map(|(_, t)| t.failed_spec).sum();
        assert_eq!(failed, warps.by_label[&label.to_string()].len(), "the vectors of that lane, and no others");
    }

    #[test]
    fn a_vector_that_is_no_warp_of_the_kernels_says_why() {
        let mut v = suite("shfl.sync.up.b32").remove(0);
        v.inputs[input::A + 3] ^= 1;
        assert_eq!(case_of(&v).map(|_| ()), Err("its lanes' a are not base + lane"));
        let mut v = suite("shfl.sync.up.b32").remove(0);
        v.inputs[input::MEMBERMASK] = 0x1234;
        assert_eq!(case_of(&v).map(|_| ()), Err("its mask is not the lanes that execute, shared by every lane"));
    }
}
