//! The commands' errors, each with its kind; the kind gives the exit status
//! (`main.rs` lists them): bad usage or input, a missing or failing tool,
//! a failure to read or write, or an interrupt.
//!
//! The bottom of the library: it uses no module of it. Each module with an
//! error of its own says, beside that error, which kind it is.

use std::io;

use ptx_smt::SolverError;

/// The exit status of an interrupted run: 128 + SIGINT, as a shell reports
/// a program that SIGINT ended.
pub const INTERRUPTED_STATUS: u8 = 130;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad arguments, an unknown name, malformed input, or a path named on
    /// the command line that does not exist (or whose folder does not).
    #[error("{0}")]
    Usage(String),
    /// An external tool (a solver process, ptxas, cuobjdump) that is
    /// missing, cannot be run, or failed.
    #[error("{0}")]
    Tool(String),
    /// Reading or writing failed: a file, or standard output.
    #[error("{what}: {source}")]
    Io { what: String, source: io::Error },
    /// Ctrl-C (`crate::interrupt`): the run stopped, with no verdict.
    #[error("interrupted")]
    Interrupted,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Bad usage or input, as `message` says.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// A failure to read or write a path given on the command line; `what`
    /// says which ("cannot read FILE"). A path that does not exist, or is no
    /// file name, is bad input; anything else (permissions, a full disk, a
    /// folder where a file should be) is I/O.
    pub fn file(what: impl Into<String>, source: io::Error) -> Error {
        let what = what.into();
        if matches!(source.kind(), io::ErrorKind::NotFound | io::ErrorKind::InvalidInput) {
            Error::Usage(format!("{what}: {source}"))
        } else {
            Error::Io { what, source }
        }
    }

    /// The exit status for this error.
    pub fn status(&self) -> u8 {
        match self {
            // A missing tool is mended like bad usage: install it, or name it.
            Error::Usage(_) | Error::Tool(_) => 2,
            Error::Io { .. } => 3,
            Error::Interrupted => INTERRUPTED_STATUS,
        }
    }

    /// Whether the reader of standard output went away (`ptxcheck claims |
    /// head`): then there is nothing to report.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// An error and its causes, `: `-separated.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    text
}

/// Writing the output (standard output) failed.
impl From<io::Error> for Error {
    fn from(source: io::Error) -> Error {
        Error::Io { what: "cannot write the output".into(), source }
    }
}

impl From<SolverError> for Error {
    fn from(e: SolverError) -> Error {
        match e {
            SolverError::Unknown { .. } => Error::Usage(chain(&e)),
            SolverError::Interrupted => Error::Interrupted,
            SolverError::NotFound { .. } | SolverError::Io { .. } | SolverError::Rejected { .. } => {
                Error::Tool(chain(&e))
            }
        }
    }
}
