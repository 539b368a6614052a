//! Which variants a command acts on: `all`, an instruction (`shf`), or one
//! variant (`shf.l.wrap.b32`).

use ptx_spec::catalogue::Variant;

/// The variants named by `targets`, in catalogue order, without repeats.
pub fn select(targets: &[String]) -> Result<Vec<Variant>, String> {
    let all = Variant::all();
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
