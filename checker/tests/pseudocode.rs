//! Every Semantics block of the user's copy of the document, and of the
//! sections of release 9.1 beside it, read by the pseudocode parser.

mod common;

use std::path::PathBuf;

use ptxcheck::audit::text::{document, semantics};

#[test]
fn every_block_parses_or_has_positioned_diagnostics() {
    let Some(seeds) = common::spec_text("every_block_parses_or_has_positioned_diagnostics") else { return };
    let release = seeds.join("../ptx-9.1");
    let mut paths: Vec<PathBuf> = vec![seeds.clone()];
    for sub in ["new-sections", "no-model"] {
        paths.push(release.join(sub));
    }
    let doc = document::read_any(&paths).unwrap();
    let mut out = String::new();
    for r in semantics::read(&doc) {
        let file = std::path::Path::new(&r.section.file).file_name().unwrap().to_string_lossy().to_string();
        for d in &r.parsed.diagnostics {
            out.push_str(&format!("{file}:{} {} `{}`: {}\n", d.pos, r.section.number, d.fragment, d.message));
        }
        if let Some((a, b)) = r.parsed.mixed_slices() {
            out.push_str(&format!(
                "{file} {} mixed: {} {} / {} {}\n",
                r.section.number,
                a.0,
                a.1.describe(),
                b.0,
                b.1.describe()
            ));
        }
    }
    println!("{out}");
    panic!();
}
