//! ptxcheck: proves that each PTX instruction's SMT encoding and its concrete
//! semantics agree for all inputs, evaluates instructions, and checks that
//! the proof catches wrong encodings.
//!
//! The binary (`main.rs`) is a thin command line over these modules; all
//! output is rendered into a `Write` by [`render`].

pub mod audit;
pub mod eval;
pub mod exhaustive;
pub mod mutants;
pub mod oracle;
pub mod prove;
pub mod ptx;
pub mod render;
pub mod report;
pub mod run;
pub mod select;
pub mod smtlib;
