//! What a query is over and what a solver answers: below both the solvers
//! (`crate::solver`) and the proof cache (`crate::cache`), which stores the
//! answers.

use std::collections::HashMap;

use ptx_spec::bv::BitVec;

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Unsat,
    /// A model: a value for each declared variable.
    Sat(HashMap<String, BitVec>),
    /// No answer; the reason as the solver gives it ("timeout", ...).
    Unknown(String),
}

/// A free variable of a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    pub name: String,
    pub width: u32,
}
