//! The benchmark: `prove all`, cold (a fresh process each run, a fresh
//! solver for every query), timed as a whole and per variant; and the
//! exhaustive cross-check's throughput per variant.
//!
//! Run with `cargo bench -p ptxcheck`; `PTXCHECK_BENCH_RUNS` sets the number
//! of cold runs (default 3; 0 skips `prove all`), `PTXCHECK_BENCH_SOLVER` the solver (default
//! embedded). The figures in the README come from here.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Instant;

use ptx_spec::catalogue::Variant;
use ptxcheck::exhaustive;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("PTXCHECK_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    if runs > 0 {
        prove_all(runs);
    }
    exhaustive_throughput();
}

fn prove_all(runs: usize) {
    let solver = std::env::var("PTXCHECK_BENCH_SOLVER").unwrap_or_else(|_| "embedded".into());
    let mut walls = Vec::new();
    let mut per_variant: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut not_proven = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
            .args(["prove", "all", "--format", "json", "--solver", &solver])
            .output()
            .expect("ptxcheck runs");
        walls.push(start.elapsed().as_secs_f64());
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
        for r in report["results"].as_array().expect("results") {
            if r["verdict"] != "proven" {
                not_proven += 1;
            }
            per_variant
                .entry(r["variant"].as_str().unwrap().to_string())
                .or_default()
                .push(r["time_s"].as_f64().unwrap());
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("prove all --solver {solver}: {} variants, {runs} cold runs, {threads} threads", per_variant.len());
    println!(
        "  wall: median {:.2} s, min {:.2} s, max {:.2} s",
        median(walls.clone()),
        walls.iter().copied().fold(f64::INFINITY, f64::min),
        walls.iter().copied().fold(0.0, f64::max)
    );
    println!("  verdicts other than proven: {not_proven}");
    let mut medians: Vec<(f64, String)> = per_variant.into_iter().map(|(v, t)| (median(t), v)).collect();
    medians.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("  slowest variants (median of runs):");
    for (t, v) in medians.iter().take(12) {
        println!("    {v:<22} {t:>7.3} s");
    }
    println!("  variants above 5 s: {}", medians.iter().filter(|(t, _)| *t > 5.0).count());
}

fn exhaustive_throughput() {
    println!("exhaustive cross-check throughput, one thread, 2^22 inputs each:");
    let mut eligible: Vec<Variant> =
        Variant::all().into_iter().filter(|v| exhaustive::input_bits(v) == exhaustive::MAX_BITS).collect();
    eligible.sort_by_key(|v| v.to_string());
    let mut total_seconds = 0.0;
    for v in &eligible {
        let rate = exhaustive::throughput(v, 1 << 22);
        total_seconds += (1u64 << 32) as f64 / rate;
        println!("    {:<22} {:>7.1} M inputs/s", v.to_string(), rate / 1e6);
    }
    println!(
        "  {} variants with 2^32 inputs: about {:.1} CPU-hours for all of them",
        eligible.len(),
        total_seconds / 3600.0
    );
}
