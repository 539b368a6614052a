//! Which variants a command acts on: `all`, an instruction (`shf`), or one
//! variant (`shf.l.wrap.b32`).

use ptx_spec::catalogue::Variant;

/// The variants named by `targets`, in catalogue order, without repeats.
pub fn select(targets: &[String]) -> Result<Vec<Variant>, String> {
    select_from(targets, Variant::all())
}

/// [`select`], where `all` means every variant but of set and setp only
/// their covering sample (`Variant::sampled`): for the checks that run
/// each form's terms on every input or every fault (`mutants`,
/// `exhaustive`), where set's and setp's 1,890 forms differ only in the
/// operator, the types and the Boolean form. Named (`setp`), every form
/// runs.
pub fn select_sampled(targets: &[String]) -> Result<Vec<Variant>, String> {
    let sampled = Variant::sampled();
    let everything = targets.iter().all(|t| t == "all");
    let chosen = select(targets)?;
    Ok(if everything { chosen.into_iter().filter(|v| sampled.contains(v)).collect() } else { chosen })
}

fn select_from(targets: &[String], all: Vec<Variant>) -> Result<Vec<Variant>, String> {
    let mut chosen = Vec::new();
    for t in targets {
        let matching: Vec<Variant> = if t == "all" {
            all.clone()
        } else if let Some(v) = Variant::from_mnemonic(t) {
            vec![v]
        } else {
            all.iter().copied().filter(|v| v.opcode() == t).collect()
        };
        if matching.is_empty() {
            return Err(format!(
                "unknown instruction or variant `{t}` (give `all`, an instruction such as `shf`, or a variant such as `shf.l.wrap.b32`)"
            ));
        }
        chosen.extend(matching);
    }
    Ok(all.into_iter().filter(|v| chosen.contains(v)).collect())
}
