//! ptx-spec: the formal model of the PTX instructions in scope, and nothing
//! else.
//!
//! - [`bv`]: the bit-vector algebra both models are written in, and its
//!   concrete implementation (the trusted core, with [`catalogue`]);
//! - [`lanes`]: the same algebra on 64 inputs at once, and [`program`]: the
//!   models compiled to straight-line programs over machine words ([`word`]),
//!   for exhaustive checks;
//! - [`catalogue`]: every legal variant with its operands, requirements and
//!   assumptions;
//! - [`family`]: the concrete semantics, one file per instruction family;
//! - [`assumption`]: the readings the model adopts where the spec is open;
//! - [`hardware`]: hardware models (`sm_90`): the spec model changed by named
//!   rules to what a vendor's hardware computes.
//!
//! The audit (claims, passages, the C reading, Syntax blocks), the PTX text
//! front end and the oracles live in the `ptxcheck` crate. This crate knows
//! nothing of solvers.

pub mod assumption;
pub mod bv;
pub mod catalogue;
pub mod family;
pub mod hardware;
pub mod lanes;
pub mod program;
pub mod word;

pub use bv::{Algebra, BitVec, Concrete};
pub use catalogue::{Operand, OperandType, Role, Type, Variant};
