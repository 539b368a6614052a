//! The concrete semantics, one file per instruction family. The SMT
//! encodings in `ptx-smt` mirror these files by name.

pub mod add_sub;
pub mod bit_count;
pub mod bit_field;
pub mod div_rem;
pub mod dot;
pub mod logic;
pub mod min_max;
pub mod mul_mad;
pub mod shfl;
pub mod shift;
