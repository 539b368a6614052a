//! Ground truth from the vendor: NVIDIA's assembler as an oracle for what is
//! legal PTX (`syntax`) and, through its constant folding, for what an
//! instruction computes (`fold`); and a program that asks the hardware
//! (`hw`), ready for a machine with a GPU.

pub mod boundary;
pub mod defects;
pub mod fold;
pub mod gpu;
pub mod hw;
pub mod kernel;
pub mod negative;
pub mod ptxas;
pub mod record;
pub mod sass;
pub mod sweep;
pub mod syntax;
