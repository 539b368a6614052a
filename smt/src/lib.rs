//! ptx-smt: the bit-vector SMT encodings of the PTX instructions, the
//! symbolic implementation of the algebra, a concrete evaluator of terms, and
//! the solver back ends.
//!
//! - [`term`]: the algebra over SMT-LIB terms (easy-smt);
//! - [`encode`]: the SMT encodings, one file per family;
//! - [`eval`]: evaluate a term on concrete values, without a solver;
//! - [`query`]: a query's free variables and a solver's answer;
//! - [`solver`]: the embedded Z3 and solver processes;
//! - [`cache`]: the proof cache on disk;
//! - [`interrupt`]: stopping every query part-way (Ctrl-C);
//! - [`products`]: the embedded Z3's queries with cheaper products.

pub mod cache;
pub mod encode;
pub mod eval;
pub mod interrupt;
pub mod products;
pub mod query;
pub mod slots;
pub mod solver;
pub mod term;

pub use easy_smt;
pub use solver::{Backend, Goals, Incremental, Pin, SatResult, SolverError, Var};
pub use term::{Sym, SymBv, SymOutputs};
