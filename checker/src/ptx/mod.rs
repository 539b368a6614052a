//! PTX as text: the instruction parser (checked against the catalogue),
//! straight-line programs and their executor, generic over the algebra, and
//! the condition language that claims state their facts in. `eval`, `run`
//! and the claims read PTX through here.

pub mod expr;
pub mod parse;
pub mod program;
