//! The proof cache: solver answers kept on disk, so that a query asked
//! again (the same text, to the same solver) is answered without solving.
//!
//! - The key is a SHA-256 of the solver's name, version and options and the
//!   exact SMT-LIB text of the query. A query whose text differs by one
//!   character, or a solver of another version, is a different entry.
//! - Only answers that are evidence are kept: `unsat`, and a model that makes
//!   every assertion true when the query is evaluated on it without the
//!   solver ([`crate::eval`]). `unknown` and timeouts never are, nor a model
//!   that does not check out (a solver bug: such a `sat` is no evidence).
//! - Each entry is written to a temporary file in the cache directory and
//!   renamed into place, so a reader, in this process or another, sees a
//!   whole entry or none; two processes writing the same entry write the
//!   same text.
//! - An entry is trusted only if it parses and its checksum matches, and a
//!   cached model is evaluated again on every use; anything else is ignored
//!   as a miss (and overwritten by the fresh answer).
//!
//! The cache is off unless [`configure`] turns it on (the command line does,
//! unless `--no-cache` or `PTXCHECK_NO_CACHE` says otherwise): a library
//! user, and every test that calls the library, solves every query.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use easy_smt::{Context, SExpr};
use ptx_spec::bv::BitVec;
use sha2::{Digest, Sha256};

use crate::eval::Evaluator;
use crate::query::{SatResult, Var};

/// The format of an entry; part of every key, so that a change of format
/// never reads an old entry.
const FORMAT: &str = "ptxcheck-cache 1";

/// The environment variable naming the cache directory (default: the
/// user's cache directory, `$XDG_CACHE_HOME/ptxcheck` or `~/.cache/ptxcheck`
/// on Linux).
pub const DIR_VAR: &str = "PTXCHECK_CACHE_DIR";

/// The environment variable that turns the cache off, as `--no-cache` does
/// (any value but empty or `0`).
pub const OFF_VAR: &str = "PTXCHECK_NO_CACHE";

static CACHE: OnceLock<Option<Cache>> = OnceLock::new();

/// A cache directory.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
}

/// Turn the process-wide cache on (in `dir`) or off. Only the first call
/// counts; `false` if an earlier call had already decided.
pub fn configure(cache: Option<Cache>) -> bool {
    CACHE.set(cache).is_ok()
}

/// The process-wide cache, if it is on.
pub fn current() -> Option<&'static Cache> {
    CACHE.get().and_then(Option::as_ref)
}

/// Whether the environment turns the cache off.
pub fn off_by_environment() -> bool {
    std::env::var_os(OFF_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

impl Cache {
    /// The cache in `dir` (created when the first entry is written).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    /// The cache directory the environment names, else the user's cache
    /// directory; `None` where there is none.
    pub fn default_location() -> Option<Cache> {
        match std::env::var_os(DIR_VAR) {
            Some(dir) if !dir.is_empty() => Some(Cache::in_dir(dir)),
            _ => dirs::cache_dir().map(|d| Cache::in_dir(d.join("ptxcheck"))),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of a query: the solver (name, version, options) and its text.
    pub fn key(solver: &str, text: &str) -> String {
        let mut h = Sha256::new();
        for part in [FORMAT, solver, text] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        digest_text(&h.finalize())
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(&key[2..])
    }

    /// The cached answer to the query `text` (which declares `vars` and
    /// asserts `assertions` in `ctx`), if there is one that checks out.
    pub fn get(&self, key: &str, ctx: &Context, vars: &[Var], assertions: &[SExpr]) -> Option<SatResult> {
        let text = fs::read_to_string(self.path(key)).ok()?;
        let result = parse(key, &text, vars)?;
        match &result {
            SatResult::Sat(model) if !satisfies(ctx, vars, assertions, model) => None,
            SatResult::Unknown(_) => None,
            _ => Some(result),
        }
    }

    /// Keep `result` as the answer to the query, if it is evidence (see the
    /// module's notes). Failing to write is not an error: the cache only
    /// saves time.
    pub fn put(&self, key: &str, ctx: &Context, vars: &[Var], assertions: &[SExpr], result: &SatResult) {
        match result {
            SatResult::Unsat => {}
            SatResult::Sat(model) if satisfies(ctx, vars, assertions, model) => {}
            _ => return,
        }
        let _ = self.write(key, &render(key, result, vars));
    }

    fn write(&self, key: &str, text: &str) -> std::io::Result<()> {
        let path = self.path(key);
        let parent = path.parent().expect("an entry lies in a subdirectory");
        fs::create_dir_all(parent)?;
        let mut file = tempfile::NamedTempFile::new_in(parent)?;
        file.write_all(text.as_bytes())?;
        file.persist(&path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// A digest as lowercase hexadecimal, two digits a byte.
fn digest_text(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An entry: the key, the answer, each variable's value for a model, and a
/// checksum of all of it.
fn render(key: &str, result: &SatResult, vars: &[Var]) -> String {
    let mut body = format!("{FORMAT}\n{key}\n");
    match result {
        SatResult::Unsat => body.push_str("unsat\n"),
        SatResult::Sat(model) => {
            body.push_str("sat\n");
            for v in vars {
                if let Some(value) = model.get(&v.name) {
                    body.push_str(&format!("{} {}\n", v.name, value.smtlib()));
                }
            }
        }
        SatResult::Unknown(_) => unreachable!("unknown answers are not cached"),
    }
    let sum = digest_text(&Sha256::digest(body.as_bytes()));
    format!("{body}end {sum}\n")
}

fn parse(key: &str, text: &str, vars: &[Var]) -> Option<SatResult> {
    let (body, last) = text.strip_suffix('\n')?.rsplit_once('\n')?;
    let body = format!("{body}\n");
    if last.strip_prefix("end ")? != digest_text(&Sha256::digest(body.as_bytes())) {
        return None;
    }
    let mut lines = body.lines();
    if lines.next()? != FORMAT || lines.next()? != key {
        return None;
    }
    match lines.next()? {
        "unsat" => lines.next().is_none().then_some(SatResult::Unsat),
        "sat" => {
            let mut model = HashMap::new();
            for line in lines {
                let (name, value) = line.split_once(' ')?;
                let var = vars.iter().find(|v| v.name == name)?;
                let value = BitVec::parse_smtlib(value).filter(|b| b.width() == var.width)?;
                model.insert(name.to_string(), value);
            }
            Some(SatResult::Sat(model))
        }
        _ => None,
    }
}

/// Whether every assertion holds under `model` (inputs it leaves out read
/// as 0, as the checker reads them), evaluated without the solver.
fn satisfies(ctx: &Context, vars: &[Var], assertions: &[SExpr], model: &HashMap<String, BitVec>) -> bool {
    let env =
        vars.iter().map(|v| (v.name.clone(), model.get(&v.name).copied().unwrap_or(BitVec::new(v.width, 0)))).collect();
    let mut ev = Evaluator::new(ctx, env);
    assertions.iter().all(|&a| ev.eval_bool(a) == Ok(true))
}
