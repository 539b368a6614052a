//! ptx-spec: the PTX instructions in scope as data and as executable,
//! concrete semantics.
//!
//! - [`bv`]: the bit-vector algebra both models are written in, and its
//!   concrete implementation;
//! - [`lanes`]: the same algebra on 64 inputs at once, for exhaustive checks;
//! - [`catalogue`]: every legal variant with its operands and requirements;
//! - [`family`]: the concrete semantics, one file per instruction family;
//! - [`assumption`]: the readings the model adopts where the spec is open;
//! - [`literal`]: the Semantics blocks read literally as C, with every C rule
//!   that makes them undefined;
//! - [`parse`]: the PTX instruction parser;
//! - [`program`]: straight-line PTX programs, run concretely or symbolically.
//!
//! This crate knows nothing of solvers.

pub mod assumption;
pub mod bv;
pub mod catalogue;
pub mod family;
pub mod lanes;

pub use bv::{Algebra, BitVec, Concrete};
pub use catalogue::{Operand, OperandType, Role, Type, Variant};
