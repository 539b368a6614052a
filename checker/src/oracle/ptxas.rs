//! Finding and running NVIDIA's assembler (`ptxas`) and disassembler
//! (`cuobjdump -sass`).
//!
//! Lookup order, for each tool: the path given on the command line, then the
//! tool on `PATH`, then the Python wheel that ships it (`ptxas` in
//! `nvidia-cuda-nvcc-cu12`, module `nvidia.cuda_nvcc`; `cuobjdump` in
//! `nvidia-cuda-cuobjdump`, module `nvidia.cu13`), found by asking
//! `python3` where the module lives. Nothing else is searched, so a missing
//! tool is reported with the one command that installs it.

use std::path::{Path, PathBuf};
use std::process::Command;

use thiserror::Error;

/// The pinned wheels that ship the tools (README, `.ci/run`).
pub const PTXAS_WHEEL: &str = "nvidia-cuda-nvcc-cu12==12.9.86";
pub const CUOBJDUMP_WHEELS: &str = "nvidia-cuda-cuobjdump==13.2.51 nvidia-cuda-nvdisasm==13.2.51";

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ToolError {
    #[error("{tool} not found: give --{tool} PATH, put it on PATH, or install it with `pip install {install}`")]
    Missing { tool: &'static str, install: &'static str },
    #[error("{tool} at {path} cannot be run: {reason}")]
    Broken { tool: &'static str, path: String, reason: String },
    #[error("{0}")]
    Io(String),
    /// Ctrl-C: the tool's answer, if any, is not its own.
    #[error("interrupted")]
    Interrupted,
}

impl From<ToolError> for crate::error::Error {
    fn from(e: ToolError) -> crate::error::Error {
        use crate::error::{chain, Error};
        match e {
            ToolError::Interrupted => Error::Interrupted,
            e => Error::Tool(chain(&e)),
        }
    }
}

/// A tool: where it is, and which wheel it came from (when it came from one).
#[derive(Clone, Debug)]
pub struct Tool {
    pub path: PathBuf,
    pub wheel: Option<String>,
}

/// The Python module and distribution of a wheel that ships a tool.
struct Wheel {
    module: &'static str,
    distribution: &'static str,
}

const PTXAS_FROM: &[Wheel] = &[Wheel { module: "nvidia.cuda_nvcc", distribution: "nvidia-cuda-nvcc-cu12" }];
const CUOBJDUMP_FROM: &[Wheel] = &[
    Wheel { module: "nvidia.cu13", distribution: "nvidia-cuda-cuobjdump" },
    Wheel { module: "nvidia.cuda_cuobjdump", distribution: "nvidia-cuda-cuobjdump-cu12" },
];

/// `ptxas`: `explicit`, else on PATH, else from the `nvidia-cuda-nvcc-cu12` wheel.
pub fn find_ptxas(explicit: Option<&Path>) -> Result<Tool, ToolError> {
    find("ptxas", PTXAS_WHEEL, explicit, PTXAS_FROM)
}

/// `cuobjdump` (which runs `nvdisasm` from its own folder).
pub fn find_cuobjdump(explicit: Option<&Path>) -> Result<Tool, ToolError> {
    find("cuobjdump", CUOBJDUMP_WHEELS, explicit, CUOBJDUMP_FROM)
}

fn find(
    tool: &'static str,
    install: &'static str,
    explicit: Option<&Path>,
    wheels: &[Wheel],
) -> Result<Tool, ToolError> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(Tool { path: path.to_path_buf(), wheel: None })
        } else {
            Err(ToolError::Broken { tool, path: path.display().to_string(), reason: "no such file".into() })
        };
    }
    if let Some(path) = on_path(tool) {
        return Ok(Tool { path, wheel: None });
    }
    for wheel in wheels {
        if let Some((dir, version)) = python_module_dir(wheel) {
            let path = dir.join("bin").join(tool);
            if path.is_file() {
                return Ok(Tool { path, wheel: Some(format!("{}=={version}", wheel.distribution)) });
            }
        }
    }
    Err(ToolError::Missing { tool, install })
}

/// The first `name` on PATH that is a file.
fn on_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// Where python3 finds the wheel's module, and the wheel's version.
fn python_module_dir(wheel: &Wheel) -> Option<(PathBuf, String)> {
    let script = format!(
        "import importlib.metadata as m, {module} as t; print(list(t.__path__)[0]); print(m.version('{dist}'))",
        module = wheel.module,
        dist = wheel.distribution
    );
    let out = Command::new("python3").args(["-c", &script]).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let mut lines = text.lines();
    let dir = PathBuf::from(lines.next()?.trim());
    let version = lines.next()?.trim().to_string();
    Some((dir, version))
}

/// The last line of `tool --version` (`Cuda compilation tools, release 12.9, V12.9.86`
/// is the second-last for ptxas; the release line is what identifies it).
pub fn version(tool: &Tool, name: &'static str) -> Result<String, ToolError> {
    let out = Command::new(&tool.path).arg("--version").output().map_err(|e| ToolError::Broken {
        tool: name,
        path: tool.path.display().to_string(),
        reason: e.to_string(),
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find(|l| l.starts_with("Cuda compilation tools")).map(|l| l.trim().to_string()).ok_or_else(|| {
        ToolError::Broken {
            tool: name,
            path: tool.path.display().to_string(),
            reason: "`--version` does not name a CUDA release".into(),
        }
    })
}

/// A fresh scratch folder with a unique name (no two runs share one, and
/// none can be made in its place beforehand), removed when dropped.
pub struct Scratch {
    pub dir: PathBuf,
    _folder: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Result<Scratch, ToolError> {
        let folder = tempfile::Builder::new()
            .prefix("ptxcheck-vendor-")
            .tempdir()
            .map_err(|e| ToolError::Io(format!("cannot create a scratch folder: {e}")))?;
        Ok(Scratch { dir: folder.path().to_path_buf(), _folder: folder })
    }
}

/// What one ptxas run said.
pub struct Assembled {
    pub ok: bool,
    /// Its diagnostics, one per line, with the file name taken out.
    pub messages: Vec<String>,
}

/// Assemble `ptx` for `arch` (`sm_90`) with `extra` options; the cubin, if
/// `cubin` is given, is written there.
pub fn assemble(
    ptxas: &Tool,
    scratch: &Scratch,
    ptx: &str,
    arch: &str,
    extra: &[&str],
    cubin: Option<&Path>,
) -> Result<Assembled, ToolError> {
    // A ptxas killed by the interrupt looks like one that rejected the
    // kernel: no verdict is taken from a run once interrupted.
    if crate::interrupt::requested() {
        return Err(ToolError::Interrupted);
    }
    let file = scratch.dir.join("input.ptx");
    std::fs::write(&file, ptx).map_err(|e| ToolError::Io(format!("cannot write {}: {e}", file.display())))?;
    let null = scratch.dir.join("discarded.cubin");
    let out = Command::new(&ptxas.path)
        .arg(format!("-arch={arch}"))
        .args(extra)
        .arg(&file)
        .arg("-o")
        .arg(cubin.unwrap_or(&null))
        .output()
        .map_err(|e| ToolError::Broken {
            tool: "ptxas",
            path: ptxas.path.display().to_string(),
            reason: e.to_string(),
        })?;
    let text = String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    let name = file.display().to_string();
    let messages = text.lines().map(|l| l.replace(&name, "input.ptx")).filter(|l| !l.trim().is_empty()).collect();
    if crate::interrupt::requested() {
        return Err(ToolError::Interrupted);
    }
    Ok(Assembled { ok: out.status.success(), messages })
}

/// `cuobjdump -sass` of a cubin.
pub fn disassemble(cuobjdump: &Tool, cubin: &Path) -> Result<String, ToolError> {
    let out = Command::new(&cuobjdump.path).arg("-sass").arg(cubin).output().map_err(|e| ToolError::Broken {
        tool: "cuobjdump",
        path: cuobjdump.path.display().to_string(),
        reason: e.to_string(),
    })?;
    if !out.status.success() {
        return Err(ToolError::Broken {
            tool: "cuobjdump",
            path: cuobjdump.path.display().to_string(),
            reason: String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("failed").to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).to_string())
}

/// The line of the input file a diagnostic names (`input.ptx, line 14; error ...`).
pub fn message_line(message: &str) -> Option<usize> {
    let rest = &message[message.find(", line ")? + ", line ".len()..];
    rest[..rest.find(';')?].trim().parse().ok()
}

/// A diagnostic without its file and line prefix: `error   : Unexpected ...`.
pub fn message_text(message: &str) -> String {
    let text = match message.find("; ") {
        Some(i) if message_line(message).is_some() => &message[i + 2..],
        _ => message.strip_prefix("ptxas ").unwrap_or(message),
    };
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The outcome of [`assemble_each`]: per kernel, `None` when ptxas accepted
/// it or its first error; and the cubin of the accepted ones, if asked.
pub struct Each {
    pub rejected: Vec<Option<String>>,
}

/// Assemble many kernels under one header in as few ptxas runs as it takes:
/// each run drops the kernels its errors point at (ptxas stops at the first
/// parse error), until the rest assemble. Where an error names no line, the
/// remaining kernels are assembled one by one. With `cubin`, the accepted
/// kernels' cubin is left there.
pub fn assemble_each(
    ptxas: &Tool,
    header: &str,
    kernels: &[String],
    arch: &str,
    extra: &[&str],
    cubin: Option<&Path>,
) -> Result<Each, ToolError> {
    let scratch = Scratch::new()?;
    let mut rejected: Vec<Option<String>> = vec![None; kernels.len()];
    let mut pending: Vec<usize> = (0..kernels.len()).collect();
    let first_error =
        |a: &Assembled| a.messages.iter().find(|m| m.contains("error") || m.contains("fatal")).map(|m| message_text(m));
    loop {
        if pending.is_empty() {
            return Ok(Each { rejected });
        }
        let mut text = header.to_string();
        // The first line of each kernel, in file lines (1-based).
        let mut starts = Vec::new();
        for &k in &pending {
            starts.push(text.lines().count() + 1);
            text.push_str(&kernels[k]);
        }
        let run = assemble(ptxas, &scratch, &text, arch, extra, cubin)?;
        if run.ok {
            return Ok(Each { rejected });
        }
        let mut hit = Vec::new();
        for m in &run.messages {
            let is_error = m.contains("; error") || m.contains("; fatal");
            if let (true, Some(line)) = (is_error, message_line(m)) {
                let at = starts.partition_point(|&s| s <= line);
                if at > 0 && !hit.contains(&(at - 1)) {
                    hit.push(at - 1);
                    rejected[pending[at - 1]] = Some(message_text(m));
                }
            }
        }
        if hit.is_empty() {
            // No error points into a kernel (the header, say): one by one.
            for &k in &pending {
                let alone = format!("{header}{}", kernels[k]);
                let run = assemble(ptxas, &scratch, &alone, arch, extra, None)?;
                if !run.ok {
                    rejected[k] = Some(first_error(&run).unwrap_or_else(|| "rejected without a message".into()));
                }
            }
            let accepted: Vec<usize> = pending.iter().copied().filter(|&k| rejected[k].is_none()).collect();
            if let Some(cubin) = cubin {
                let text: String =
                    std::iter::once(header.to_string()).chain(accepted.iter().map(|&k| kernels[k].clone())).collect();
                assemble(ptxas, &scratch, &text, arch, extra, Some(cubin))?;
            }
            return Ok(Each { rejected });
        }
        let dropped: Vec<usize> = hit.iter().map(|&i| pending[i]).collect();
        pending.retain(|k| !dropped.contains(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_tool_names_the_wheel_that_installs_it() {
        let e = find("ptxas", PTXAS_WHEEL, Some(Path::new("/nonexistent/ptxas")), PTXAS_FROM).unwrap_err();
        assert_eq!(e.to_string(), "ptxas at /nonexistent/ptxas cannot be run: no such file");
        let e = ToolError::Missing { tool: "ptxas", install: PTXAS_WHEEL };
        assert_eq!(
            e.to_string(),
            "ptxas not found: give --ptxas PATH, put it on PATH, or install it with `pip install nvidia-cuda-nvcc-cu12==12.9.86`"
        );
    }

    #[test]
    fn diagnostics_lose_their_file_and_line() {
        let m = "ptxas input.ptx, line 14; fatal   : Parsing error near 'mask': syntax error";
        assert_eq!(message_line(m), Some(14));
        assert_eq!(message_text(m), "fatal : Parsing error near 'mask': syntax error");
        let m = "ptxas fatal   : Ptx assembly aborted due to errors";
        assert_eq!(message_line(m), None);
        assert_eq!(message_text(m), "fatal : Ptx assembly aborted due to errors");
    }
}
