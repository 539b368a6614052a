//! Straight-line PTX: a parser for short programs such as the spec's
//! multi-instruction examples, and an executor generic over the algebra, so
//! that the same program runs on concrete values (`ptxcheck run`) and on
//! symbolic ones (the claims' proofs).
//!
//! A program is a sequence of instructions from the catalogue, each with an
//! optional guard (`@p`, `@!p`), `//` and `/* */` comments and optional
//! register declarations (`.reg .b32 r, s;`, `.reg .pred p<4>;`), one
//! instruction or more per line. A register takes
//! its width from its declaration or else from its first use, and every
//! later use must agree. A register read before any write is an input of
//! the program. A program with a warp-wide instruction (shfl) runs on the 32
//! lanes of a warp, any other on one lane (lanes never interact).

use std::collections::{BTreeMap, HashMap, HashSet};

use thiserror::Error;

use crate::ptx::parse::{
    is_identifier, not_identifier_reason, parse_instruction, shown, Instruction, OperandText, ParseError,
};
use ptx_spec::bv::Algebra;
use ptx_spec::catalogue::carry::FLAG;
use ptx_spec::catalogue::shfl::{input, WARP};
use ptx_spec::catalogue::{OperandType, Variant};
use ptx_spec::hardware::Model;

/// The most registers a program may have, declared or used: far more than
/// any straight-line example needs, and few enough that `r<N>` cannot
/// exhaust memory.
pub const MAX_REGISTERS: usize = 65536;

/// A program rejected, with where: the line and column (from 1, the column
/// in characters) of the offending token, or else of the statement.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{column}: {message}")]
pub struct ProgramError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A guard: the predicate register, and whether it is negated (`@!p`).
pub type Guard = (String, bool);

/// One instruction of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line number in the source, from 1.
    pub number: usize,
    pub guard: Option<Guard>,
    pub instruction: Instruction,
}

/// A parsed program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub lines: Vec<Line>,
    /// Every register with its width, in order of first appearance.
    pub registers: Vec<(String, u32)>,
    /// Registers read before they are written, in order of first read.
    pub inputs: Vec<String>,
    /// Registers written, in order of first write.
    pub outputs: Vec<String>,
    /// 32 if some instruction acts on the whole warp, else 1.
    pub lanes: usize,
    /// Where each register is in `registers`.
    index: HashMap<String, usize>,
}

/// A register's value in one lane: its bits and whether they are defined
/// (not unspecified, not unpredictable, written at all).
#[derive(Debug)]
pub struct Value<A: Algebra> {
    pub bits: A::Bv,
    pub defined: A::Bool,
}

// By hand: a derive would ask for `A: Copy`, which the algebra need not be.
impl<A: Algebra> Clone for Value<A> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A: Algebra> Copy for Value<A> {}

impl Program {
    pub fn width(&self, register: &str) -> Option<u32> {
        self.index.get(register).map(|&i| self.registers[i].1)
    }

    pub fn parse(text: &str) -> Result<Program, ProgramError> {
        // A byte-order mark says how the file is encoded; it is not code.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let code = blank_comments(text)?;
        let mut widths = Widths::default();
        let mut lines = Vec::new();
        let (mut inputs, mut outputs): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
        // Registers read or written so far, and written so far.
        let (mut seen, mut written): (HashSet<String>, HashSet<String>) = Default::default();
        for (i, raw) in code.lines().enumerate() {
            let number = i + 1;
            let mut start = 0;
            let pieces: Vec<&str> = raw.split(';').collect();
            for (k, piece) in pieces.iter().enumerate() {
                let statement = piece.trim();
                // Every piece but the last was ended by a `;`.
                let terminated = k + 1 < pieces.len();
                let at = start + (piece.len() - piece.trim_start().len());
                start += piece.len() + 1;
                if statement.is_empty() {
                    continue;
                }
                // Where a part of the statement begins, as a column.
                let column = |offset: usize| raw[..at + offset].chars().count() + 1;
                let err =
                    |offset: usize, message: String| ProgramError { line: number, column: column(offset), message };
                if let Some(decl) = directive(statement, ".reg") {
                    declare(statement, decl, &mut widths).map_err(|(offset, message)| err(offset, message))?;
                    continue;
                }
                if statement.starts_with('.') {
                    let name = statement.split_whitespace().next().unwrap_or(statement);
                    return Err(err(0, format!("`{}`: only `.reg` declarations are supported", shown(name))));
                }
                if let Some(label) = label(statement) {
                    return Err(err(
                        0,
                        format!("`{}:`: labels and branches are not supported (straight-line code only)", shown(label)),
                    ));
                }
                let (guard, rest) = split_guard(statement).map_err(|m| err(0, m))?;
                let rest_at = statement.len() - rest.len();
                let opcode = rest.split_whitespace().next().unwrap_or("");
                if opcode == "bra" || opcode.starts_with("bra.") {
                    return Err(err(
                        0,
                        format!(
                            "`{}`: labels and branches are not supported (straight-line code only)",
                            shown(statement)
                        ),
                    ));
                }
                // PTX ends every instruction with `;`, as ptxas requires.
                if !terminated {
                    return Err(err(statement.len(), format!("`{}`: an instruction ends with `;`", shown(statement))));
                }
                let instruction =
                    parse_instruction(rest).map_err(|e| err(rest_at + error_offset(rest, &e), e.to_string()))?;
                let mut use_register = |name: &str, width: u32, what: String, offset: usize| match widths.width(name) {
                    Some(w) if w != width => Err(err(
                        offset,
                        format!("register `{}` is {}, but {what} is {}", shown(name), describe(w), describe(width)),
                    )),
                    Some(_) => Ok(()),
                    None => widths.add(name, width).map_err(|m| err(offset, m)),
                };
                let operand_at = |name: &str| rest_at + operand_offset(rest, name);
                if let Some((p, _)) = &guard {
                    // The name follows `@` or `@!`.
                    let at = if statement.starts_with("@!") { 2 } else { 1 };
                    use_register(p, 1, "a guard".into(), at)?;
                    if seen.insert(p.clone()) {
                        inputs.push(p.clone());
                    }
                }
                let operands = instruction.variant.operands();
                // Reads first: `add r, r, 1` reads r before writing it. The
                // carry flag is read after the operands, as the variant's
                // inputs list it, and written after them.
                let flag = |yes: bool| yes.then(|| (FLAG.name.to_string(), FLAG));
                let reads = operands.iter().zip(&instruction.operands).filter_map(|(op, text)| match text {
                    OperandText::Reg(r) if !op.is_dest() => Some((r.clone(), *op)),
                    _ => None,
                });
                for (r, op) in reads.chain(flag(instruction.variant.reads_flag())) {
                    let what = format!("operand {} of {}", op.name, instruction.variant);
                    use_register(&r, op.ty.width(), what, operand_at(&r))?;
                    if seen.insert(r.clone()) {
                        inputs.push(r);
                    }
                }
                let writes = operands.iter().zip(&instruction.operands).filter_map(|(op, text)| match text {
                    OperandText::Reg(r) if op.is_dest() => Some((r.clone(), *op)),
                    _ => None,
                });
                for (r, op) in writes.chain(flag(instruction.variant.writes_flag())) {
                    let what = format!("operand {} of {}", op.name, instruction.variant);
                    use_register(&r, op.ty.width(), what, operand_at(&r))?;
                    // Written before any read: an output, never an input.
                    seen.insert(r.clone());
                    if written.insert(r.clone()) {
                        outputs.push(r);
                    }
                }
                lines.push(Line { number, guard, instruction });
            }
        }
        if lines.is_empty() {
            return Err(ProgramError { line: 1, column: 1, message: "no instructions".into() });
        }
        let lanes = if lines.iter().any(|l| l.instruction.variant.is_warp_wide()) { WARP } else { 1 };
        Ok(Program { lines, registers: widths.list, inputs, outputs, lanes, index: widths.index })
    }

    /// The registers an instruction line writes, in operand order, then the
    /// carry flag where it writes that.
    pub fn destinations(line: &Line) -> Vec<String> {
        let operands = line.instruction.variant.operands();
        let written = operands.iter().zip(&line.instruction.operands).filter(|(op, _)| op.is_dest());
        let mut names: Vec<String> = written
            .filter_map(|(_, text)| if let OperandText::Reg(r) = text { Some(r.clone()) } else { None })
            .collect();
        if line.instruction.variant.writes_flag() {
            names.push(FLAG.name.to_string());
        }
        names
    }

    /// The program without its line `k`, what that line writes read as
    /// inputs: the rest of it, and a condition on its registers, for any
    /// value line `k` might have left (the silence pass asks whether a claim
    /// pins that value).
    pub fn without(&self, k: usize) -> Program {
        let mut lines = self.lines.clone();
        let gone = lines.remove(k);
        let mut inputs = self.inputs.clone();
        for d in Self::destinations(&gone) {
            if !inputs.contains(&d) {
                inputs.push(d);
            }
        }
        let outputs: Vec<String> =
            self.outputs.iter().filter(|o| lines.iter().any(|l| Self::destinations(l).contains(o))).cloned().collect();
        Program {
            lines,
            registers: self.registers.clone(),
            inputs,
            outputs,
            lanes: self.lanes,
            index: self.index.clone(),
        }
    }

    /// Run the program: `inputs` gives every input register's value in every
    /// lane, `active` whether each lane executes at all. Returns every
    /// register's value in every lane at the end.
    pub fn execute<A: Algebra>(
        &self,
        alg: &A,
        inputs: &BTreeMap<String, Vec<A::Bv>>,
        active: &[A::Bool],
    ) -> BTreeMap<String, Vec<Value<A>>> {
        self.execute_in(Model::Spec, alg, inputs, active)
    }

    /// [`Program::execute`] with the semantics of `model`.
    pub fn execute_in<A: Algebra>(
        &self,
        model: Model,
        alg: &A,
        inputs: &BTreeMap<String, Vec<A::Bv>>,
        active: &[A::Bool],
    ) -> BTreeMap<String, Vec<Value<A>>> {
        assert_eq!(active.len(), self.lanes, "one activity per lane");
        let yes = alg.bool_constant(true);
        let mut regs: BTreeMap<String, Vec<Value<A>>> = BTreeMap::new();
        for name in &self.inputs {
            let values = &inputs[name];
            assert_eq!(values.len(), self.lanes, "input {name}: one value per lane");
            regs.insert(name.clone(), values.iter().map(|&bits| Value { bits, defined: yes }).collect());
        }
        for line in &self.lines {
            let variant = line.instruction.variant;
            let operands = variant.operands();
            // Which lanes execute this line.
            let executes: Vec<A::Bool> = (0..self.lanes)
                .map(|lane| match &line.guard {
                    None => active[lane],
                    Some((p, negated)) => {
                        let g = regs[p][lane];
                        let set = alg.is_set(g.bits);
                        let taken = if *negated { alg.not(set) } else { set };
                        alg.and(active[lane], taken)
                    }
                })
                .collect();
            // Source operands per lane, each with whether it is defined.
            let sources: Vec<Vec<Value<A>>> = (0..self.lanes)
                .map(|lane| {
                    let sources = operands.iter().zip(&line.instruction.operands).filter(|(op, _)| !op.is_dest());
                    let mut values: Vec<Value<A>> = sources
                        .map(|(_, text)| match text {
                            OperandText::Imm(v) => Value { bits: alg.constant(v.width(), v.unsigned()), defined: yes },
                            OperandText::Reg(r) => regs[r][lane],
                            OperandText::Sink => unreachable!("the parser only accepts `_` as a destination"),
                        })
                        .collect();
                    if variant.reads_flag() {
                        values.push(regs[FLAG.name][lane]);
                    }
                    values
                })
                .collect();
            let results: Vec<Vec<Value<A>>> = if variant.is_warp_wide() {
                warp_results(model, alg, &variant, &sources, &executes)
            } else {
                sources
                    .iter()
                    .map(|values| {
                        let bits: Vec<A::Bv> = values.iter().map(|v| v.bits).collect();
                        let defined = values.iter().fold(yes, |acc, v| alg.and(acc, v.defined));
                        variant
                            .semantics_in(model, alg, &bits)
                            .into_iter()
                            .map(|o| Value { bits: o.value, defined: alg.and(o.defined, defined) })
                            .collect()
                    })
                    .collect()
            };
            // Write the destinations of the lanes that execute, then the
            // carry flag (the variant's last output) where it writes it:
            // each register with its width and its place among the outputs.
            let dests = operands.iter().zip(&line.instruction.operands).filter(|(op, _)| op.is_dest());
            let mut written: Vec<(String, u32, usize)> = dests
                .enumerate()
                .filter_map(|(k, (op, text))| match text {
                    OperandText::Reg(r) => Some((r.clone(), op.ty.width(), k)),
                    _ => None,
                })
                .collect();
            if variant.writes_flag() {
                written.push((FLAG.name.to_string(), 1, variant.outputs().len() - 1));
            }
            for (r, width, k) in written {
                let old: Vec<Value<A>> = regs.get(&r).cloned().unwrap_or_else(|| {
                    let never = Value { bits: alg.constant(width, 0), defined: alg.bool_constant(false) };
                    vec![never; self.lanes]
                });
                let new = (0..self.lanes)
                    .map(|lane| {
                        let (run, out, was) = (executes[lane], results[lane][k], old[lane]);
                        Value {
                            bits: alg.ite(run, out.bits, was.bits),
                            defined: alg.or(alg.and(run, out.defined), alg.and(alg.not(run), was.defined)),
                        }
                    })
                    .collect();
                regs.insert(r, new);
            }
        }
        regs
    }
}

/// A warp-wide instruction's outputs in every lane: each lane's thread sees
/// every lane's `a` and whether it executes. (The unpredictable values are
/// only read by the SMT encoding; the concrete semantics mark what depends
/// on them undefined.) `d` is defined where the semantics define it, the
/// lane's own b and c are defined, and so is the source lane's a: found by
/// running the same shuffle on each lane's undefinedness in place of its a
/// (so that a model which reads 0 from a lane that does not execute reads
/// "defined" there).
fn warp_results<A: Algebra>(
    model: Model,
    alg: &A,
    variant: &Variant,
    sources: &[Vec<Value<A>>],
    executes: &[A::Bool],
) -> Vec<Vec<Value<A>>> {
    let sync = matches!(variant, Variant::Shfl(s) if s.sync);
    let thread = |lane: usize, a: &dyn Fn(&Vec<Value<A>>) -> A::Bv| {
        let own = &sources[lane];
        let mut ins = vec![alg.constant(5, lane as u128), own[1].bits, own[2].bits];
        ins.extend(sources.iter().map(a));
        ins.extend(executes.iter().map(|&e| alg.bool_to_bv(e)));
        ins.extend((0..WARP).map(|_| alg.constant(32, 0)));
        if sync {
            // shfl.sync: the thread's membermask (its fourth source), and
            // whether each lane's is the same.
            ins.push(own[3].bits);
            ins.extend(sources.iter().map(|s| alg.bool_to_bv(alg.eq(s[3].bits, own[3].bits))));
        }
        debug_assert_eq!(ins.len(), if sync { input::SYNC_COUNT } else { input::COUNT });
        variant.semantics_in(model, alg, &ins)
    };
    (0..WARP)
        .map(|lane| {
            let outs = thread(lane, &|s| s[0].bits);
            let a_undefined = thread(lane, &|s| alg.zero_extend(31, alg.bool_to_bv(alg.not(s[0].defined))))[0].value;
            let bc_defined = sources[lane][1..].iter().fold(alg.bool_constant(true), |acc, s| alg.and(acc, s.defined));
            outs.into_iter()
                .enumerate()
                .map(|(k, o)| {
                    let defined = if k == 0 {
                        alg.and(o.defined, alg.not(alg.is_set(alg.bit(a_undefined, 0))))
                    } else {
                        o.defined
                    };
                    Value { bits: o.value, defined: alg.and(defined, bc_defined) }
                })
                .collect()
        })
        .collect()
}

fn describe(width: u32) -> String {
    if width == 1 {
        "a predicate".into()
    } else {
        format!("{width}-bit")
    }
}

/// The registers of a program with their widths, in order of first
/// appearance, and an index into them: every look-up and the duplicate
/// check take constant time, however many registers are declared.
#[derive(Default)]
struct Widths {
    list: Vec<(String, u32)>,
    index: HashMap<String, usize>,
}

impl Widths {
    fn width(&self, name: &str) -> Option<u32> {
        self.index.get(name).map(|&i| self.list[i].1)
    }

    fn room(&self, count: usize) -> bool {
        self.list.len().checked_add(count).is_some_and(|n| n <= MAX_REGISTERS)
    }

    /// Add a register not seen before.
    fn add(&mut self, name: &str, width: u32) -> Result<(), String> {
        if !self.room(1) {
            return Err(format!("`{}`: a program has at most {MAX_REGISTERS} registers", shown(name)));
        }
        self.index.insert(name.to_string(), self.list.len());
        self.list.push((name.to_string(), width));
        Ok(())
    }
}

/// `text` with its comments (`//` to the end of the line, `/* */` anywhere)
/// replaced by spaces, character for character, so that every line and
/// column stays where it was.
fn blank_comments(text: &str) -> Result<String, ProgramError> {
    enum State {
        Code,
        Line,
        Block { start: usize },
    }
    let mut out = String::with_capacity(text.len());
    let mut state = State::Code;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        state = match (state, c, next) {
            (State::Code, '/', Some('/')) => {
                chars.next();
                out.push_str("  ");
                State::Line
            }
            (State::Code, '/', Some('*')) => {
                chars.next();
                out.push_str("  ");
                State::Block { start: i }
            }
            (State::Block { .. }, '*', Some('/')) => {
                chars.next();
                out.push_str("  ");
                State::Code
            }
            (State::Line, '\n', _) => {
                out.push('\n');
                State::Code
            }
            (State::Code, c, _) => {
                out.push(c);
                State::Code
            }
            (state, c, _) => {
                out.push(if c == '\n' { '\n' } else { ' ' });
                state
            }
        };
    }
    if let State::Block { start } = state {
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        return Err(ProgramError { line, column, message: "`/*` comment is never closed with `*/`".into() });
    }
    Ok(out)
}

/// The rest of `statement` if it is the directive `name` (followed by
/// white space or nothing).
fn directive<'a>(statement: &'a str, name: &str) -> Option<&'a str> {
    let rest = statement.strip_prefix(name)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// The label `name` of a statement `name:` or `name: instruction`.
fn label(statement: &str) -> Option<&str> {
    let (name, _) = statement.split_once(':')?;
    let name = name.trim_end();
    is_identifier(name).then_some(name)
}

/// Where the token a parse error names is in `instruction` (a byte
/// offset): an operand among the operands, anything else (the opcode,
/// the operand count) at the start.
fn error_offset(instruction: &str, e: &ParseError) -> usize {
    match e {
        ParseError::BadOperand { token, .. }
        | ParseError::OutOfRange { token, .. }
        | ParseError::MissingOperand { token, .. } => operand_offset(instruction, token),
        ParseError::EmptyOperand { position, .. } => {
            let operands = mnemonic_end(instruction);
            let commas = instruction[operands..].match_indices(',').map(|(i, _)| operands + i + 1);
            let after = commas.take(position - 1).last().unwrap_or(operands);
            after + instruction[after..].len() - instruction[after..].trim_start().len()
        }
        _ => 0,
    }
}

/// Where the operands of `instruction` begin.
fn mnemonic_end(instruction: &str) -> usize {
    instruction.find(char::is_whitespace).unwrap_or(instruction.len())
}

/// Where `token` is among the operands of `instruction`: its first
/// occurrence as a whole operand or name (not inside a longer one), else
/// where the operands begin.
fn operand_offset(instruction: &str, token: &str) -> usize {
    let operands = mnemonic_end(instruction);
    let part = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '%'));
    let whole = instruction[operands..].match_indices(token).map(|(i, _)| operands + i).find(|&i| {
        !token.is_empty()
            && !part(instruction[..i].chars().next_back())
            && !part(instruction[i + token.len()..].chars().next())
    });
    whole.unwrap_or(operands + instruction[operands..].len() - instruction[operands..].trim_start().len())
}

/// `@p rest` or `@!p rest`: the guard and the instruction.
fn split_guard(statement: &str) -> Result<(Option<Guard>, &str), String> {
    let Some(rest) = statement.strip_prefix('@') else { return Ok((None, statement)) };
    let (negated, rest) = match rest.strip_prefix('!') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (name, written) = (&rest[..end], &statement[..statement.len() - rest.len() + end]);
    if !is_identifier(name) {
        return Err(format!("`{}`: not a predicate register name", shown(written)));
    }
    if rest[end..].trim().is_empty() {
        return Err(format!("`{}`: a guard needs an instruction", shown(written)));
    }
    Ok((Some((name.to_string(), negated)), rest[end..].trim()))
}

/// `.reg .b32 r, s<4>` (`statement`; `decl` is what follows `.reg`):
/// declare registers (`s<4>` is s0..s3). An error comes with the byte
/// offset in `statement` of what it is about.
fn declare(statement: &str, decl: &str, widths: &mut Widths) -> Result<(), (usize, String)> {
    // Every part below is a slice of `statement`, so its offset is exact.
    let offset = |part: &str| part.as_ptr() as usize - statement.as_ptr() as usize;
    let decl = decl.trim();
    let Some((ty, names)) = decl.split_once(char::is_whitespace) else {
        return Err((0, format!("`{}`: expected a type and names", shown(statement))));
    };
    let width = match ty {
        ".pred" => 1,
        ".b16" | ".u16" | ".s16" => 16,
        ".b32" | ".u32" | ".s32" => 32,
        ".b64" | ".u64" | ".s64" => 64,
        _ => return Err((offset(ty), format!("`{}`: not an integer or predicate register type", shown(ty)))),
    };
    for name in names.split(',').map(str::trim) {
        let at = offset(name);
        if name.is_empty() {
            return Err((at, "a register name is missing".into()));
        }
        let (base, count) = match name.split_once('<') {
            Some((base, count)) => {
                let count = count.strip_suffix('>').filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()));
                let Some(count) = count else {
                    return Err((at, format!("`{}`: expected name<count>", shown(name))));
                };
                // Only digits, so the parse fails on size alone.
                let n = count.parse::<usize>().unwrap_or(usize::MAX);
                if n == 0 {
                    return Err((at, format!("`{}`: declares no register", shown(name))));
                }
                if !widths.room(n) {
                    let message = format!("`{}`: a program has at most {MAX_REGISTERS} registers", shown(name));
                    return Err((at, message));
                }
                (base.trim_end(), Some(n))
            }
            None => (name, None),
        };
        if base.is_empty() {
            return Err((at, format!("`{}`: the register name is missing", shown(name))));
        }
        if !is_identifier(base) {
            return Err((at, format!("`{}`: not a register name: {}", shown(base), not_identifier_reason(base))));
        }
        let mut one = |n: &str| {
            if widths.width(n).is_some() {
                return Err((at, format!("register `{}` is declared twice", shown(n))));
            }
            widths.add(n, width).map_err(|m| (at, m))
        };
        match count {
            Some(count) => (0..count).try_for_each(|i| one(&format!("{base}{i}")))?,
            None => one(base)?,
        }
    }
    Ok(())
}

/// The operand type a register of `width` bits holds, for messages.
pub fn register_type(width: u32) -> OperandType {
    if width == 1 {
        OperandType::Pred
    } else {
        OperandType::Bits(width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_spec::bv::{BitVec, Concrete};

    fn run(text: &str, inputs: &[(&str, Vec<u128>)]) -> BTreeMap<String, Vec<Option<u128>>> {
        let p = Program::parse(text).unwrap();
        let ins = inputs
            .iter()
            .map(|(n, vs)| (n.to_string(), vs.iter().map(|&v| BitVec::new(p.width(n).unwrap(), v)).collect()))
            .collect();
        let out = p.execute(&Concrete, &ins, &vec![true; p.lanes]);
        out.into_iter().map(|(n, vs)| (n, vs.iter().map(|v| v.defined.then(|| v.bits.unsigned())).collect())).collect()
    }

    #[test]
    fn registers_take_widths_and_inputs_are_read_before_written() {
        let p = Program::parse("add.u32 x, y, 1;\n@p add.u32 x, x, y; // again\nmul.wide.u16 w, h, h;").unwrap();
        assert_eq!(p.inputs, ["y", "p", "h"]);
        assert_eq!(p.outputs, ["x", "w"]);
        assert_eq!((p.width("x"), p.width("p"), p.width("w"), p.width("h")), (Some(32), Some(1), Some(32), Some(16)));
        assert_eq!(p.lanes, 1);
    }

    #[test]
    fn guards_choose_whether_a_line_writes() {
        let text = "add.u32 x, y, 1;\n@p add.u32 x, x, y;\n@!p add.u32 z, y, y;";
        let out = run(text, &[("y", vec![5]), ("p", vec![1])]);
        assert_eq!((out["x"][0], out["z"][0]), (Some(11), None), "z is never written");
        let out = run(text, &[("y", vec![5]), ("p", vec![0])]);
        assert_eq!((out["x"][0], out["z"][0]), (Some(6), Some(10)));
    }

    #[test]
    fn unspecified_results_propagate() {
        let out = run("div.u32 q, a, 0;\nadd.u32 r, q, 1;", &[("a", vec![7])]);
        assert_eq!((out["q"][0], out["r"][0]), (None, None));
    }

    #[test]
    fn shfl_runs_on_the_warp() {
        let text = ".reg .b32 Rx, Ry;\n.reg .pred p;\nshfl.up.b32 Ry|p, Rx, 0x1, 0x0;\n@p add.u32 Rx, Ry, Rx;";
        let out = run(text, &[("Rx", (0..32).map(|l| 1 << l).collect())]);
        assert_eq!(out["Rx"][0], Some(1));
        assert_eq!(out["Rx"][5], Some(0b110000));
    }

    #[test]
    fn bad_programs_name_their_line_and_column() {
        let err = |t: &str| Program::parse(t).unwrap_err().to_string();
        assert_eq!(
            err("add.u32 x, y, 1;\nadd.u64 z, x, 1;"),
            "2:12: register `x` is 32-bit, but operand a of add.u64 is 64-bit"
        );
        assert!(err("\n\nfoo.b32 x, y;").starts_with("3:1: unknown opcode `foo` (known: add, sub, sad,"));
        assert!(err("add.u32 x, y, 1; foo.b32 x, y;").starts_with("1:18: unknown opcode `foo`"));
        assert_eq!(
            err("add.u32 x, y, 1z;"),
            "1:15: bad operand `1z` for b: not an integer constant (decimal, 0x hex, 0b binary, 0 octal)"
        );
        assert_eq!(err("add.u32 x, y,;"), "1:14: operand 3 of add.u32 is empty");
        assert_eq!(err("L1:"), "1:1: `L1:`: labels and branches are not supported (straight-line code only)");
        assert_eq!(
            err("L1: add.u32 x, y, 1;"),
            "1:1: `L1:`: labels and branches are not supported (straight-line code only)"
        );
        assert_eq!(err(".reg .f32 x;"), "1:6: `.f32`: not an integer or predicate register type");
        assert_eq!(err("@ add.u32 x, y, 1;"), "1:1: `@`: not a predicate register name");
        assert_eq!(err("@! add.u32 x, y, 1;"), "1:1: `@!`: not a predicate register name");
        assert_eq!(err("@p"), "1:1: `@p`: a guard needs an instruction");
        assert_eq!(err("// nothing"), "1:1: no instructions");
        assert_eq!(err("@x add.u32 x, y, 1;"), "1:12: register `x` is a predicate, but operand d of add.u32 is 32-bit");
        assert_eq!(err(".version 8.0"), "1:1: `.version`: only `.reg` declarations are supported");
        assert_eq!(err("add.u32 x, y, 1;\nadd.u32 z, x, 1"), "2:16: `add.u32 z, x, 1`: an instruction ends with `;`");
        assert_eq!(err("add.u32 x, y, 1 // no end"), "1:16: `add.u32 x, y, 1`: an instruction ends with `;`");
    }

    #[test]
    fn branches_are_the_opcode_bra_only() {
        let err = |t: &str| Program::parse(t).unwrap_err().to_string();
        let p = Program::parse("add.u32 x, brand, 1;\nadd.u32 bra, x, 1;").unwrap();
        assert_eq!(p.inputs, ["brand"]);
        assert_eq!(p.outputs, ["x", "bra"]);
        let rejected = "labels and branches are not supported (straight-line code only)";
        assert_eq!(err("bra L1;"), format!("1:1: `bra L1`: {rejected}"));
        assert_eq!(err("@p bra.uni L1;"), format!("1:1: `@p bra.uni L1`: {rejected}"));
        assert!(err("brand.u32 x, 1;").contains("unknown opcode `brand`"));
    }

    #[test]
    fn comments_and_byte_order_mark() {
        let p = Program::parse("\u{feff}add.u32 x, y, 1; /* a comment */ add.u32 z, x, 1;").unwrap();
        assert_eq!(
            (p.inputs.as_slice(), p.outputs.as_slice()),
            (&["y".to_string()][..], &["x".to_string(), "z".to_string()][..])
        );
        let p = Program::parse("/* spans\n   lines; add.u32 q, q, 1; */ add.u32 x, /* y */ 1, 2; // add.u32 w, w, 1;")
            .unwrap();
        assert_eq!((p.inputs.len(), p.outputs.as_slice()), (0, &["x".to_string()][..]));
        assert_eq!(p.lines[0].number, 2, "lines keep their numbers");
        let err = |t: &str| Program::parse(t).unwrap_err().to_string();
        assert_eq!(err("add.u32 x, y, 1;\n  /* open\n"), "2:3: `/*` comment is never closed with `*/`");
        assert_eq!(err("/**/ foo.u32 x, 1;\n").split(" (").next().unwrap(), "1:6: unknown opcode `foo`");
    }

    #[test]
    fn declarations_are_bounded_and_checked_in_linear_time() {
        let err = |t: &str| Program::parse(t).unwrap_err().to_string();
        let start = std::time::Instant::now();
        let p = Program::parse(".reg .b32 r<65536>;\nadd.u32 r65535, r0, 1;").unwrap();
        assert_eq!((p.registers.len(), p.width("r65535")), (65536, Some(32)));
        assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
        let cap = "a program has at most 65536 registers";
        assert_eq!(err(".reg .b32 r<1000000000>;"), format!("1:11: `r<1000000000>`: {cap}"));
        assert_eq!(
            err(".reg .b32 r<99999999999999999999999999>;"),
            format!("1:11: `r<99999999999999999999999999>`: {cap}")
        );
        assert_eq!(err(".reg .b32 r<65536>, s;"), format!("1:21: `s`: {cap}"));
        assert_eq!(err(".reg .b32 r<0>;"), "1:11: `r<0>`: declares no register");
        assert_eq!(err(".reg .b32 r<x>;"), "1:11: `r<x>`: expected name<count>");
        assert_eq!(err(".reg .b32 <4>;"), "1:11: `<4>`: the register name is missing");
        assert_eq!(err(".reg .b32 r, , s;"), "1:13: a register name is missing");
        assert_eq!(err(".reg .b32 r<2>, r1;"), "1:17: register `r1` is declared twice");
        assert!(err(".reg .b32 1x;").starts_with("1:11: `1x`: not a register name: "));
        assert!(err(".reg .b32 %;").starts_with("1:11: `%`: not a register name: "));
        assert!(err(&format!(".reg .b32 {};", "r".repeat(300))).contains("at most 256 characters"));
        assert_eq!(err(".reg"), "1:1: `.reg`: expected a type and names");
        assert!(Program::parse(".reg .b32 %r<2>, $x, _y;\nadd.u32 %r1, $x, _y;").is_ok());
    }

    #[test]
    fn errors_escape_and_cut_what_they_echo() {
        let err = |t: &str| Program::parse(t).unwrap_err().to_string();
        let e = err("add.u32 x, \u{1b}[31mred, 1;");
        assert_eq!(e, "1:12: bad operand `\\u{1b}[31mred` for a: neither a register name nor an integer constant");
        let long = format!("add.u32 x, {}, 1;", "9".repeat(10_000));
        let e = err(&long);
        assert!(e.len() < 200 && e.contains("…` out of range for a"), "{e}");
    }
}
