//! The benchmarks, each cold (a fresh process per run, a fresh solver for
//! every query, no proof cache): `prove all`, timed as a whole and per
//! variant, and with `--jobs` 1, 2, 4, 8 and 16 (wall and CPU time);
//! `claims`, `audit` and the mutation self-test on CI's targets, timed as a
//! whole; and the exhaustive cross-check's throughput per variant.
//!
//! Run with `cargo bench -p ptxcheck`. `PTXCHECK_BENCH_RUNS` sets the number
//! of cold runs of each command (default 3; 0 runs only the throughput),
//! `PTXCHECK_BENCH_SOLVER` the solver (default embedded), and
//! `PTXCHECK_BENCH_ONLY` a comma-separated subset of `prove`, `jobs`,
//! `claims`, `audit`, `mutants` and `exhaustive`. The figures in the README come from
//! here.

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Instant;

use ptx_spec::catalogue::Variant;
use ptx_spec::program::Isa;
use ptxcheck::exhaustive;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The mutation self-test's targets in CI: all of 9.7.8, a sample of 9.7.1
/// and one shfl variant (the list in `.ci/run`).
const MUTANT_TARGETS: &[&str] = &[
    "and",
    "or",
    "xor",
    "not",
    "cnot",
    "lop3",
    "shf",
    "shl",
    "shr",
    "add.sat.s32",
    "sub.sat.s32",
    "add.s16x2",
    "sad.s16",
    "min.relu.s16x2",
    "max.u16x2",
    "neg.s32",
    "abs.s16",
    "div.s16",
    "rem.s16",
    "popc.b32",
    "bfind.shiftamt.s32",
    "brev.b32",
    "szext.wrap.s32",
    "bmsk.clamp.b32",
    "dp2a.hi.s32.u32",
    "mul24.lo.u32",
    "mad.lo.s16",
    "mul.hi.s16",
    "shfl.up.b32 d|p",
];

fn main() {
    let runs: usize = std::env::var("PTXCHECK_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    let only = std::env::var("PTXCHECK_BENCH_ONLY").ok();
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o.split(',').any(|w| w.trim() == name));
    if runs > 0 {
        if wanted("prove") {
            prove_all(runs);
        }
        if wanted("jobs") {
            jobs_scaling(runs);
        }
        for (name, args) in [
            ("claims", vec!["claims"]),
            ("audit", vec!["audit"]),
            ("mutants", [&["mutants"][..], MUTANT_TARGETS].concat()),
        ] {
            if wanted(name) {
                command_wall(name, &args, runs);
            }
        }
    }
    if wanted("exhaustive") {
        exhaustive_throughput();
    }
}

/// The CPU time (user and system) of the finished child processes so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// `prove all --no-cache` with 1, 2, 4, 8 and 16 jobs: the median wall and
/// CPU time of `runs` cold runs each, on this machine's cores.
fn jobs_scaling(runs: usize) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("prove all --no-cache by --jobs, {runs} cold runs each, {cores} cores:");
    println!("  | --jobs | wall | CPU |");
    println!("  | --- | --- | --- |");
    for jobs in [1, 2, 4, 8, 16] {
        let (mut walls, mut cpus) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let (start, cpu) = (Instant::now(), children_cpu());
            let status = Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
                .args(["prove", "all", "--no-cache", "--jobs", &jobs.to_string()])
                .stdout(std::process::Stdio::null())
                .status()
                .expect("ptxcheck runs");
            assert!(status.success(), "prove all --jobs {jobs}: {status}");
            walls.push(start.elapsed().as_secs_f64());
            cpus.push(children_cpu() - cpu);
        }
        println!("  | {jobs} | {:.1} s | {:.1} s |", median(walls), median(cpus));
    }
}

/// One command, run cold `runs` times: its wall time and its exit status
/// (1 from `audit` means some comparison was left unsettled).
fn command_wall(name: &str, args: &[&str], runs: usize) {
    let mut walls = Vec::new();
    let mut statuses = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_ptxcheck"))
            .args(args)
            .env("PTXCHECK_NO_CACHE", "1")
            .output()
            .expect("ptxcheck runs");
        walls.push(start.elapsed().as_secs_f64());
        statuses.push(out.status.code().map_or("signal".to_string(), |c| c.to_string()));
    }
    println!(
        "{name}: {runs} cold runs, wall median {:.1} s (min {:.1} s, max {:.1} s), exit status {}",
        median(walls.clone()),
        walls.iter().copied().fold(f64::INFINITY, f64::min),
        walls.iter().copied().fold(0.0, f64::max),
        statuses.join(", ")
    );
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
            .env("PTXCHECK_NO_CACHE", "1")
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
    let isas: Vec<Isa> = Isa::ALL.into_iter().filter(|i| i.supported()).collect();
    let names: Vec<&str> = isas.iter().map(|i| i.name()).collect();
    println!(
        "exhaustive cross-check throughput, one thread, 2^22 inputs each, M inputs/s on each path this processor has:"
    );
    println!("    {:<22} {}", "", names.iter().map(|n| format!("{n:>9}")).collect::<String>());
    let mut eligible: Vec<Variant> =
        Variant::all().into_iter().filter(|v| exhaustive::input_bits(v) == exhaustive::MAX_BITS).collect();
    eligible.sort_by_key(|v| v.to_string());
    let mut total_seconds = vec![0.0; isas.len()];
    for v in &eligible {
        let rates: Vec<f64> = isas.iter().map(|&isa| exhaustive::throughput(v, 1 << 22, isa)).collect();
        for (total, rate) in total_seconds.iter_mut().zip(&rates) {
            *total += (1u64 << 32) as f64 / rate;
        }
        println!("    {:<22} {}", v.to_string(), rates.iter().map(|r| format!("{:>9.1}", r / 1e6)).collect::<String>());
    }
    for (name, total) in names.iter().zip(&total_seconds) {
        println!(
            "  {} variants with 2^32 inputs on {name}: about {total:.0} CPU-seconds for all of them",
            eligible.len()
        );
    }
}
