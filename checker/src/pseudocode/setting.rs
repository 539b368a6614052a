//! What the evaluator is told about the variant whose block it runs: the
//! qualifiers it writes, its operands and their types, and the readings in
//! force.

/// What the evaluator is told about the variant: its qualifiers, its
/// operands, and the readings in force.
#[derive(Clone, Debug, Default)]
pub struct Setting {
    /// Each placeholder of the Syntax with the qualifier the variant writes
    /// for it (`.type` → `.u32`), and each optional qualifier it writes
    /// (`.sat` → `.sat`).
    pub bound: Vec<(String, String)>,
    /// Every qualifier the variant writes (`.hi`, `.s32`).
    pub written: Vec<String>,
    /// The operands: name, whether read as signed, width, and whether the
    /// instruction writes it.
    pub operands: Vec<Operand>,
    /// The width of one element where `.type` is a packed type.
    pub lane: Option<(u32, bool)>,
    /// How many times a loop whose stop no input decides may run.
    pub loop_bound: u32,
    /// Each `case` of a `switch` ends at the next label (the reading of a
    /// `switch` written without `break`).
    pub cases_end_at_labels: bool,
    /// Inputs known to lie in an interval (a case of a split proof).
    pub ranges: Vec<(String, (i128, i128))>,
    /// The block read as code: a trailing comment that names a variant
    /// (`// for .hi variant`) is a comment, not a guard.
    pub comments_not_guards: bool,
    /// Placeholders of the Syntax that the variant leaves out and whose
    /// call the block still makes: each call returns its first argument
    /// (9.7.6.1-2: a form without `.BoolOp` reads `BoolOp(t, c)` as `t`).
    pub identity_operators: Vec<String>,
    /// A literal with the `f` suffix (`1.0f`) is the bit pattern of its
    /// single-precision value, where a destination holds it as bits.
    pub single_literals_as_bits: bool,
}

#[derive(Clone, Debug)]
pub struct Operand {
    pub name: String,
    pub signed: bool,
    pub width: u32,
    pub output: bool,
    /// A single-precision value the block compares as a float (slct's
    /// `.f32` c), where the evaluator holds integers and bits only.
    pub float: bool,
}

impl Setting {
    /// The qualifier bound to a placeholder (`.type`), if any.
    pub fn bound(&self, placeholder: &str) -> Option<&str> {
        self.bound.iter().find(|(p, _)| p == placeholder).map(|(_, v)| v.as_str())
    }
    pub fn writes(&self, qualifier: &str) -> bool {
        self.written.iter().any(|q| q == qualifier)
    }
}
