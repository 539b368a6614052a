//! ptxcheck: proves that each PTX instruction's SMT encoding and its concrete
//! semantics agree for all inputs, evaluates instructions, and checks that
//! the proof catches wrong encodings.
//!
//! The binary (`main.rs`) parses the command line and hands it to [`cmd`],
//! one module per command, which renders all output into a `Write`; its
//! errors are [`error::Error`]s, each of a kind with its exit status.

pub mod audit;
pub mod cmd;
pub mod error;
pub mod eval;
pub mod exhaustive;
pub mod interrupt;
pub mod mutants;
pub mod oracle;
pub mod output;
pub mod prove;
pub mod pseudocode;
pub mod ptx;
pub mod report;
pub mod run;
pub mod select;
pub mod sm_90_report;
pub mod smtlib;
pub mod text_proof;
pub mod vectors;
