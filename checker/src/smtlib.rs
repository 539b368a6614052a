//! The SMT encodings as standalone SMT-LIB2: one `define-fun` per output of
//! each variant, over its inputs, for tools that want the formal model
//! without ptxcheck.
//!
//! A variant `bfe.s32` with output `d` becomes `|bfe.s32.d|`; an output the
//! spec may leave undefined also gets `|bfe.s32.d.defined|`, a Bool over the
//! same parameters (where it is false the value is meaningless). Shared
//! subterms are bound once with `let`, and the text is broken into lines of
//! at most about 100 characters so that a person can read it.

use std::collections::HashMap;
use std::fmt::Write as _;

use easy_smt::{Context, ContextBuilder, SExpr, SExprData};
use ptx_smt::solver::with_lets;
use ptx_smt::{encode, Sym, SymBv};
use ptx_spec::catalogue::{OperandType, Variant};
use ptx_spec::hardware::Model;

/// Lines of the exported text aim to stay within this many characters.
const LINE_WIDTH: usize = 100;

/// The name a variant's functions start with: its name, with the space and
/// `|` of shfl's `d|p` forms (`shfl.up.b32 d|p`) written as `.` and `_`,
/// since `|` cannot appear inside a quoted SMT-LIB symbol.
pub fn export_name(variant: &Variant) -> String {
    variant.to_string().replace(' ', ".").replace('|', "_")
}

/// The SMT-LIB2 text of `variants`' encodings: a header, `(set-logic
/// QF_BV)`, then each variant's functions.
pub fn export(variants: &[Variant]) -> String {
    export_in(variants, Model::Spec)
}

/// [`export`] of `model`'s SMT encodings; a vendor model's header and
/// variants name the rules that change them.
pub fn export_in(variants: &[Variant], model: Model) -> String {
    let mut text = String::new();
    text.push_str("; The SMT encodings of ptxcheck: each PTX instruction variant's Semantics as SMT-LIB2\n");
    text.push_str("; functions over bit-vectors, one per output, named |<variant>.<output>|. Where an\n");
    text.push_str("; output can be undefined, |<variant>.<output>.defined| says for which inputs it is\n");
    text.push_str("; defined. Predicates are 1-bit vectors. Each variant lists the assumptions its\n");
    text.push_str("; model makes where the spec leaves a case open.\n");
    if model != Model::Spec {
        let line = format!(
            "The {model} model: the spec model with the rules listed at each variant (`ptxcheck list \
             --model {model}` shows them in full), from an H100's results."
        );
        comment(&mut text, "", &line);
    }
    text.push_str("(set-logic QF_BV)\n");
    for v in variants {
        text.push('\n');
        variant_functions(&mut text, v, model);
    }
    text
}

fn variant_functions(text: &mut String, variant: &Variant, model: Model) {
    let ctx = ContextBuilder::new().build().expect("a context without a solver process");
    let sym = Sym::new(&ctx);
    let inputs = variant.inputs();
    let ins: Vec<SymBv> = inputs.iter().map(|o| sym.var(o.name, o.ty.width())).collect();
    let outs = encode::encode_in(model, variant, &sym, &ins);
    let name = export_name(variant);

    let _ = writeln!(text, "; {variant} (PTX ISA section {})", variant.section());
    let operands: Vec<String> = inputs.iter().map(|o| format!("{}:{}", o.name, describe(o.ty))).collect();
    comment(text, "  ", &format!("inputs: {}", operands.join(" ")));
    for a in variant.assumptions() {
        comment(text, "  ", &format!("assumes {} ({}): {}", a.id, a.section, a.reading));
    }
    for r in model.rules_for(variant) {
        comment(text, "  ", &format!("{model} rule {} ({}): {}", r.id, r.section, r.rule));
        if !r.open.is_empty() {
            comment(text, "  ", &format!("{model} leaves unspecified: {}", r.open));
        }
    }
    let params: Vec<String> = inputs.iter().map(|o| format!("({} (_ BitVec {}))", o.name, o.ty.width())).collect();
    let params = format!("({})", params.join(" "));
    for (operand, out) in variant.outputs().iter().zip(&outs) {
        let sort = format!("(_ BitVec {})", out.value.width);
        define(text, &ctx, &format!("{name}.{}", operand.name), &params, &sort, out.value.term);
        if ctx.get_atom(out.defined) != Some("true") {
            define(text, &ctx, &format!("{name}.{}.defined", operand.name), &params, "Bool", out.defined);
        }
    }
}

fn describe(ty: OperandType) -> String {
    match ty {
        OperandType::Pred => "pred".to_string(),
        other => format!("{}", other.width()),
    }
}

/// `line` as `;` comment lines of at most about [`LINE_WIDTH`] characters,
/// continuation lines indented by `indent` more.
fn comment(text: &mut String, indent: &str, line: &str) {
    let mut current = String::from(";");
    let mut empty = true;
    for word in line.split_whitespace() {
        if !empty && current.len() + 1 + word.len() > LINE_WIDTH {
            text.push_str(&current);
            text.push('\n');
            current = format!(";{indent}");
        }
        current.push(' ');
        current.push_str(word);
        empty = false;
    }
    text.push_str(&current);
    text.push('\n');
}

fn define(text: &mut String, ctx: &Context, name: &str, params: &str, sort: &str, body: SExpr) {
    let body = with_lets(ctx, body);
    let _ = writeln!(text, "(define-fun |{name}| {params} {sort}");
    let mut printer = Printer { ctx, widths: HashMap::new() };
    printer.print(text, body, 2);
    text.push_str(")\n");
}

/// Prints a term inline where it fits in the line, else its head on one
/// line and each argument on its own, indented.
struct Printer<'c> {
    ctx: &'c Context,
    /// The inline width of each term printed so far.
    widths: HashMap<SExpr, usize>,
}

impl Printer<'_> {
    fn width(&mut self, e: SExpr) -> usize {
        if let Some(&w) = self.widths.get(&e) {
            return w;
        }
        let w = match self.ctx.get(e) {
            SExprData::Atom(a) => a.len(),
            SExprData::String(s) => s.len() + 2,
            SExprData::List(items) => {
                let items = items.to_vec();
                1 + items.len() + items.iter().map(|&i| self.width(i)).sum::<usize>()
            }
        };
        self.widths.insert(e, w);
        w
    }

    fn print(&mut self, text: &mut String, e: SExpr, indent: usize) {
        text.push_str(&" ".repeat(indent));
        self.print_rest(text, e, indent);
    }

    /// Print `e` at the current position, which is column `indent`.
    fn print_rest(&mut self, text: &mut String, e: SExpr, indent: usize) {
        let items = match self.ctx.get_list(e) {
            Some(items) if indent + self.width(e) > LINE_WIDTH => items.to_vec(),
            _ => {
                let _ = write!(text, "{}", self.ctx.display(e));
                return;
            }
        };
        // The head (an operator, or a `let`'s bindings) stays on the first line.
        text.push('(');
        self.print_rest(text, items[0], indent + 1);
        let Some((last, middle)) = items[1..].split_last() else {
            text.push(')');
            return;
        };
        for &item in middle {
            text.push('\n');
            self.print(text, item, indent + 1);
        }
        text.push('\n');
        // A word built bit by bit is a chain of `concat`s nested in their
        // last argument: print the chain's links one under another rather
        // than ever further to the right.
        if self.ctx.get_list(*last).is_some_and(|l| l[0] == items[0]) && self.ctx.get_atom(items[0]) == Some("concat") {
            text.push_str(&" ".repeat(indent));
            self.print_rest(text, *last, indent);
        } else {
            self.print(text, *last, indent + 1);
        }
        text.push(')');
    }
}
