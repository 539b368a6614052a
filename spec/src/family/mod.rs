//! The concrete semantics, one file per instruction family. The SMT
//! encodings in `ptx-smt` mirror these files by name.

pub mod logic;
pub mod shift;
