//! The readings of ambiguous passages that the model does not adopt, one
//! file per instruction family, named as in `ptx_spec::family`. Each is a
//! concrete semantics generic over the algebra, so the audit can both prove
//! it against the model and run it on a witness; `passages` says which text
//! each one transcribes. The model's own reading is in `ptx_spec::family`.

pub mod add_sub;
pub mod bit_count;
pub mod bit_field;
pub mod carry;
pub mod compare;
pub mod compare_select;
pub mod div_rem;
pub mod dot;
pub mod mul_mad;
pub mod prmt;
pub mod shfl;
pub mod shift;

#[cfg(test)]
mod tests;
