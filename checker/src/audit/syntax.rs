//! The sections' Syntax blocks as data, and a strict matcher of one
//! instruction against its section's block: qualifiers in the order and from
//! the sets the block gives (`{.sat}` optional, `.type` from its set),
//! the operand count, `d|p` and `d[|p]` destinations, the sink `_` where the
//! section allows it, and operands that are single names or constants.
//!
//! This is independent of the catalogue: the catalogue also applies the
//! Description's restrictions (mul.wide has no 64-bit form), the block does
//! not, so an instruction can fit the block and still not be a legal variant.

/// One section's Syntax block: its lines (mnemonic template and operand
/// templates) and its qualifier sets, and whether `_` may stand for the
/// destination of a `d|p` pair.
pub struct SyntaxBlock {
    pub section: &'static str,
    pub lines: &'static [&'static str],
    pub sets: &'static [(&'static str, &'static [&'static str])],
    pub sink: bool,
}

const INT: &[&str] = &[".u16", ".u32", ".u64", ".s16", ".s32", ".s64"];
const MINMAX_A: &[&str] = &[".u16", ".u32", ".u64", ".u16x2", ".s16", ".s64"];
const MINMAX_B: &[&str] = &[".s16x2", ".s32"];
const B32_64: &[&str] = &[".b32", ".b64"];
const BFIND: &[&str] = &[".u32", ".u64", ".s32", ".s64"];
const US32: &[&str] = &[".u32", ".s32"];
/// selp's .type and slct's .dtype.
const SELECTED: &[&str] = &[".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".f32", ".f64"];
const LOGIC: &[&str] = &[".pred", ".b16", ".b32", ".b64"];
/// Every .type of 9.7.2.
const CARRY: &[&str] = &[".u32", ".s32", ".u64", ".s64"];
/// set's and setp's `.CmpOp`, the float comparisons included.
const CMP_OP: &[&str] = &[
    ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu",
    ".geu", ".num", ".nan",
];
const BOOL_OP: &[&str] = &[".and", ".or", ".xor"];

/// Every Syntax block of the seed sections.
pub const BLOCKS: &[SyntaxBlock] = &[
    SyntaxBlock {
        section: "9.7.1.1",
        lines: &["add.type d, a, b", "add{.sat}.s32 d, a, b"],
        sets: &[(".type", &[".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".u16x2", ".s16x2"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.2",
        lines: &["sub.type d, a, b", "sub{.sat}.s32 d, a, b"],
        sets: &[(".type", INT)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.3",
        lines: &["mul.mode.type d, a, b"],
        sets: &[(".mode", &[".hi", ".lo", ".wide"]), (".type", INT)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.4",
        lines: &["mad.mode.type d, a, b, c", "mad.hi.sat.s32 d, a, b, c"],
        sets: &[(".mode", &[".hi", ".lo", ".wide"]), (".type", INT)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.5",
        lines: &["mul24.mode.type d, a, b"],
        sets: &[(".mode", &[".hi", ".lo"]), (".type", US32)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.6",
        lines: &["mad24.mode.type d, a, b, c", "mad24.hi.sat.s32 d, a, b, c"],
        sets: &[(".mode", &[".hi", ".lo"]), (".type", US32)],
        sink: false,
    },
    SyntaxBlock { section: "9.7.1.7", lines: &["sad.type d, a, b, c"], sets: &[(".type", INT)], sink: false },
    SyntaxBlock { section: "9.7.1.8", lines: &["div.type d, a, b"], sets: &[(".type", INT)], sink: false },
    SyntaxBlock { section: "9.7.1.9", lines: &["rem.type d, a, b"], sets: &[(".type", INT)], sink: false },
    SyntaxBlock {
        section: "9.7.1.10",
        lines: &["abs.type d, a"],
        sets: &[(".type", &[".s16", ".s32", ".s64"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.11",
        lines: &["neg.type d, a"],
        sets: &[(".type", &[".s16", ".s32", ".s64"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.12",
        lines: &["min.atype d, a, b", "min{.relu}.btype d, a, b"],
        sets: &[(".atype", MINMAX_A), (".btype", MINMAX_B)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.13",
        lines: &["max.atype d, a, b", "max{.relu}.btype d, a, b"],
        sets: &[(".atype", MINMAX_A), (".btype", MINMAX_B)],
        sink: false,
    },
    SyntaxBlock { section: "9.7.1.14", lines: &["popc.type d, a"], sets: &[(".type", B32_64)], sink: false },
    SyntaxBlock { section: "9.7.1.15", lines: &["clz.type d, a"], sets: &[(".type", B32_64)], sink: false },
    SyntaxBlock {
        section: "9.7.1.16",
        lines: &["bfind.type d, a", "bfind.shiftamt.type d, a"],
        sets: &[(".type", BFIND)],
        sink: false,
    },
    SyntaxBlock { section: "9.7.1.17", lines: &["fns.b32 d, mask, base, offset"], sets: &[], sink: false },
    SyntaxBlock { section: "9.7.1.18", lines: &["brev.type d, a"], sets: &[(".type", B32_64)], sink: false },
    SyntaxBlock { section: "9.7.1.19", lines: &["bfe.type d, a, b, c"], sets: &[(".type", BFIND)], sink: false },
    SyntaxBlock { section: "9.7.1.20", lines: &["bfi.type f, a, b, c, d"], sets: &[(".type", B32_64)], sink: false },
    SyntaxBlock {
        section: "9.7.1.21",
        lines: &["szext.mode.type d, a, b"],
        sets: &[(".mode", &[".clamp", ".wrap"]), (".type", US32)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.22",
        lines: &["bmsk.mode.b32 d, a, b"],
        sets: &[(".mode", &[".clamp", ".wrap"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.23",
        lines: &["dp4a.atype.btype d, a, b, c"],
        sets: &[(".atype", US32), (".btype", US32)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.1.24",
        lines: &["dp2a.mode.atype.btype d, a, b, c"],
        sets: &[(".mode", &[".lo", ".hi"]), (".atype", US32), (".btype", US32)],
        sink: false,
    },
    SyntaxBlock { section: "9.7.2.1", lines: &["add.cc.type d, a, b"], sets: &[(".type", CARRY)], sink: false },
    SyntaxBlock { section: "9.7.2.2", lines: &["addc{.cc}.type d, a, b"], sets: &[(".type", CARRY)], sink: false },
    SyntaxBlock { section: "9.7.2.3", lines: &["sub.cc.type d, a, b"], sets: &[(".type", CARRY)], sink: false },
    SyntaxBlock { section: "9.7.2.4", lines: &["subc{.cc}.type d, a, b"], sets: &[(".type", CARRY)], sink: false },
    SyntaxBlock {
        section: "9.7.2.5",
        lines: &["mad{.hi,.lo}.cc.type d, a, b, c"],
        sets: &[(".type", CARRY)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.2.6",
        lines: &["madc{.hi,.lo}{.cc}.type d, a, b, c"],
        sets: &[(".type", CARRY)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.6.1",
        lines: &["set.CmpOp{.ftz}.dtype.stype d, a, b", "set.CmpOp.BoolOp{.ftz}.dtype.stype d, a, b, {!}c"],
        sets: &[(".CmpOp", CMP_OP), (".BoolOp", BOOL_OP), (".dtype", &[".u32", ".s32", ".f32"]), (".stype", SELECTED)],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.6.2",
        lines: &["setp.CmpOp{.ftz}.type p[|q], a, b", "setp.CmpOp.BoolOp{.ftz}.type p[|q], a, b, {!}c"],
        sets: &[(".CmpOp", CMP_OP), (".BoolOp", BOOL_OP), (".type", SELECTED)],
        sink: true,
    },
    SyntaxBlock { section: "9.7.6.3", lines: &["selp.type d, a, b, c"], sets: &[(".type", SELECTED)], sink: false },
    SyntaxBlock {
        section: "9.7.6.4",
        lines: &["slct.dtype.s32 d, a, b, c", "slct{.ftz}.dtype.f32 d, a, b, c"],
        sets: &[(".dtype", SELECTED)],
        sink: false,
    },
    SyntaxBlock { section: "9.7.8.1", lines: &["and.type d, a, b"], sets: &[(".type", LOGIC)], sink: false },
    SyntaxBlock { section: "9.7.8.2", lines: &["or.type d, a, b"], sets: &[(".type", LOGIC)], sink: false },
    SyntaxBlock { section: "9.7.8.3", lines: &["xor.type d, a, b"], sets: &[(".type", LOGIC)], sink: false },
    SyntaxBlock { section: "9.7.8.4", lines: &["not.type d, a"], sets: &[(".type", LOGIC)], sink: false },
    SyntaxBlock {
        section: "9.7.8.5",
        lines: &["cnot.type d, a"],
        sets: &[(".type", &[".b16", ".b32", ".b64"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.8.6",
        lines: &["lop3.b32 d, a, b, c, immLut", "lop3.BoolOp.b32 d|p, a, b, c, immLut, q"],
        sets: &[(".BoolOp", &[".or", ".and"])],
        // "The sink symbol '_' may be used in place of the destination operand d when .BoolOp qualifier is specified"
        sink: true,
    },
    SyntaxBlock {
        section: "9.7.8.7",
        lines: &["shf.l.mode.b32 d, a, b, c", "shf.r.mode.b32 d, a, b, c"],
        sets: &[(".mode", &[".clamp", ".wrap"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.8.8",
        lines: &["shl.type d, a, b"],
        sets: &[(".type", &[".b16", ".b32", ".b64"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.8.9",
        lines: &["shr.type d, a, b"],
        sets: &[(".type", &[".b16", ".b32", ".b64", ".u16", ".u32", ".u64", ".s16", ".s32", ".s64"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.9.5",
        lines: &["shfl.mode.b32 d[|p], a, b, c"],
        sets: &[(".mode", &[".up", ".down", ".bfly", ".idx"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.9.6",
        lines: &["shfl.sync.mode.b32 d[|p], a, b, c, membermask"],
        sets: &[(".mode", &[".up", ".down", ".bfly", ".idx"])],
        sink: false,
    },
    SyntaxBlock {
        section: "9.7.9.7",
        lines: &["prmt.b32{.mode} d, a, b, c"],
        sets: &[(".mode", &[".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"])],
        sink: false,
    },
];

/// Whether `instruction` (an example's text, its guard allowed) is a float
/// form outside the catalogue (`add.f32`): a qualifier that names a float
/// type (not one that starts with `f`, as prmt's `.f4e`), and a mnemonic
/// the catalogue does not hold (it holds `selp.f32`, selected as bits).
pub fn is_float_outside_catalogue(instruction: &str) -> bool {
    let float = |q: &str| matches!(q, "f16" | "f16x2" | "f32" | "f64" | "bf16" | "bf16x2" | "tf32");
    let mnemonic = crate::ptx::parse::without_guard(instruction).split_whitespace().next().unwrap_or("");
    mnemonic.split('.').any(float) && ptx_spec::catalogue::Variant::with_mnemonic(mnemonic).is_empty()
}

/// The block of `section`.
pub fn block(section: &str) -> Option<&'static SyntaxBlock> {
    BLOCKS.iter().find(|b| b.section == section)
}

/// Split `.a{.b}.c` into parts: (`.a`, required), (`.b`, optional), ...
fn template_parts(mnemonic: &str) -> Vec<(String, bool)> {
    let mut parts = Vec::new();
    let mut rest = mnemonic;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('{') {
            let end = r.find('}').expect("a closed brace in a Syntax template");
            parts.push((r[..end].to_string(), true));
            rest = &r[end + 1..];
        } else {
            let end = rest[1..].find(['.', '{']).map_or(rest.len(), |i| i + 1);
            parts.push((rest[..end].to_string(), false));
            rest = &rest[end..];
        }
    }
    parts
}

/// Every mnemonic a Syntax line writes: each optional qualifier left out
/// and put in, each set's every value (`add{.sat}.s32 d, a, b` gives
/// `add.s32` and `add.sat.s32`).
pub fn expand<S: AsRef<str>>(line: &str, sets: &[(&str, &[S])]) -> Vec<String> {
    let template = line.split_once(' ').map_or(line, |(t, _)| t);
    let opcode = line_opcode(template);
    let mut out = vec![opcode.to_string()];
    for (part, optional) in template_parts(&template[opcode.len()..]) {
        let values: Vec<&str> = match sets.iter().find(|(name, _)| *name == part) {
            Some((_, values)) => values.iter().map(AsRef::as_ref).collect(),
            None => part.split(',').collect(),
        };
        let mut next = Vec::new();
        for m in &out {
            if optional {
                next.push(m.clone());
            }
            next.extend(values.iter().map(|v| format!("{m}{v}")));
        }
        out = next;
    }
    out
}

/// Whether a mnemonic (`add.sat.u32`) fits some line of a Syntax block.
pub fn mnemonic_fits(block: &SyntaxBlock, mnemonic: &str) -> bool {
    bind(block, mnemonic).is_some()
}

/// How a mnemonic fits its section's Syntax block: each part of the
/// matching line's template that the mnemonic writes, with the qualifier
/// written for it (`.type` → `.u32`; a literal part such as `.hi` or an
/// optional `{.sat}` → itself). `None` where no line fits.
pub fn bind(block: &SyntaxBlock, mnemonic: &str) -> Option<Vec<(String, String)>> {
    fitting_line(block, mnemonic).map(|(_, bound)| bound)
}

/// The template of the first line of `block` that `mnemonic` fits, with
/// each placeholder's written qualifier.
fn fitting_line(block: &SyntaxBlock, mnemonic: &str) -> Option<(&'static str, Vec<(String, String)>)> {
    let opcode = mnemonic.split('.').next().unwrap_or("");
    let qualifiers: Vec<String> = mnemonic.split('.').skip(1).map(|q| format!(".{q}")).collect();
    let qualifiers: Vec<&str> = qualifiers.iter().map(String::as_str).collect();
    block.lines.iter().find_map(|line| {
        let template = line.split_once(' ').map_or(*line, |(t, _)| t);
        let (t_opcode, rest) = template.split_at(line_opcode(template).len());
        let mut bound = Vec::new();
        (t_opcode == opcode && bind_parts(&template_parts(rest), &qualifiers, block.sets, &mut bound))
            .then_some((template, bound))
    })
}

/// The optional placeholders (`.mode` of `prmt.b32{.mode}`) of the
/// Syntax line that `mnemonic` fits, whether or not it writes them: a
/// block that reads one as a value reads whether the variant writes it.
pub fn optional_placeholders(block: &SyntaxBlock, mnemonic: &str) -> Vec<String> {
    let Some((template, _)) = fitting_line(block, mnemonic) else { return Vec::new() };
    let placeholder = |part: &String| block.sets.iter().any(|(name, _)| name == part);
    template_parts(&template[line_opcode(template).len()..])
        .into_iter()
        .filter(|(part, optional)| *optional && placeholder(part))
        .map(|(part, _)| part)
        .collect()
}

/// Whether the written qualifiers fit the template's parts, in order,
/// each part's written qualifier recorded in `bound`.
fn bind_parts(
    parts: &[(String, bool)],
    written: &[&str],
    sets: &[(&str, &[&str])],
    bound: &mut Vec<(String, String)>,
) -> bool {
    let Some(((part, optional), rest)) = parts.split_first() else { return written.is_empty() };
    // A braced list (`{.hi,.lo}`, 9.7.2.5) offers each of its qualifiers.
    let accepts = |q: &str| match sets.iter().find(|(name, _)| name == part) {
        Some((_, values)) => values.contains(&q),
        None => part.split(',').any(|alternative| alternative == q),
    };
    if let Some((q, more)) = written.split_first().filter(|(q, _)| accepts(q)) {
        bound.push((part.clone(), q.to_string()));
        if bind_parts(rest, more, sets, bound) {
            return true;
        }
        bound.pop();
    }
    *optional && bind_parts(rest, written, sets, bound)
}

/// The opcode a Syntax line writes (`min` of `min{.relu}.btype d, a, b`).
fn line_opcode(line: &str) -> &str {
    let end = line.find(['.', '{', ' ']).unwrap_or(line.len());
    &line[..end]
}

/// Match one instruction (an optional guard, a trailing `;` allowed) from
/// the Examples of `section` against the Syntax block that defines its
/// opcode: that section's own, or, for an example that uses an instruction
/// of another section (shf's examples use shl and shr), that section's.
/// Where blocks of several sections begin with the opcode (`add.type` of
/// 9.7.1.1 and `add.cc.type` of 9.7.2.1), the instruction fits if one of
/// them takes it. `Err` says why it does not fit.
pub fn check(section: &str, text: &str) -> Result<(), String> {
    let mut text = text.trim().trim_end_matches(';').trim();
    if text.starts_with('@') {
        text = text.split_once(char::is_whitespace).map_or("", |(_, rest)| rest.trim());
    }
    let (mnemonic, operands) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let opcode = mnemonic.split('.').next().unwrap_or("");
    let defines = |b: &&SyntaxBlock| b.lines.iter().any(|l| line_opcode(l) == opcode);
    let own = block(section).filter(defines);
    let others = BLOCKS.iter().filter(defines).filter(|b| own.is_none_or(|o| o.section != b.section));
    let mut candidates = own.into_iter().chain(others).peekable();
    if candidates.peek().is_none() {
        return Err(format!("no Syntax block of the seed sections defines `{opcode}`"));
    }
    let mut first_reasons = None;
    for block in candidates {
        match fit(block, opcode, mnemonic, operands) {
            Ok(()) => return Ok(()),
            Err(reasons) => {
                first_reasons.get_or_insert(reasons);
            }
        }
    }
    Err(first_reasons.unwrap_or_default().join("; "))
}

/// Whether `mnemonic` with `operands` fits a line of `block`, else why not,
/// line by line.
fn fit(block: &SyntaxBlock, opcode: &str, mnemonic: &str, operands: &str) -> Result<(), Vec<String>> {
    let written_ops: Vec<&str> =
        if operands.trim().is_empty() { Vec::new() } else { operands.split(',').map(str::trim).collect() };
    let qualifiers: Vec<String> = mnemonic.split('.').skip(1).map(|q| format!(".{q}")).collect();
    let qualifiers: Vec<&str> = qualifiers.iter().map(String::as_str).collect();
    let mut reasons = Vec::new();
    for line in block.lines {
        let (template, ops) = line.split_once(' ').expect("a Syntax line has operands");
        let (t_opcode, t_rest) = template.split_at(line_opcode(template).len());
        if t_opcode != opcode {
            continue;
        }
        if !bind_parts(&template_parts(t_rest), &qualifiers, block.sets, &mut Vec::new()) {
            reasons.push(format!("qualifiers `{}` do not fit `{template}`", mnemonic.trim_start_matches(opcode)));
            continue;
        }
        let template_ops: Vec<&str> = ops.split(',').map(str::trim).collect();
        if template_ops.len() != written_ops.len() {
            reasons.push(format!("{} operands where `{line}` has {}", written_ops.len(), template_ops.len()));
            continue;
        }
        match template_ops.iter().zip(&written_ops).find_map(|(t, w)| operand_mismatch(t, w, block.sink)) {
            Some(why) => reasons.push(why),
            None => return Ok(()),
        }
    }
    Err(reasons)
}

/// Why operand `written` does not fit the template operand `template`.
fn operand_mismatch(template: &str, written: &str, sink: bool) -> Option<String> {
    let single = |w: &str| !w.is_empty() && !w.contains(char::is_whitespace) && !w.contains('|');
    let piped = written.split_once('|');
    match (template.contains("[|"), template.contains('|'), piped) {
        (true, _, None) if single(written) && written != "_" => None,
        (_, true, Some((d, p)))
            if single(d.trim()) && single(p.trim()) && p.trim() != "_" && (d.trim() != "_" || sink) =>
        {
            None
        }
        (_, true, None) if !template.contains("[|") => Some(format!("operand `{written}` must be a `{template}` pair")),
        (false, false, None) if single(written) && written != "_" => None,
        (false, false, Some(_)) => Some(format!("operand `{written}`: `|` where `{template}` is one operand")),
        _ if written.contains(char::is_whitespace) => Some(format!("operand `{written}` is not one name or constant")),
        _ => Some(format!("operand `{written}` does not fit `{template}`")),
    }
}

/// Every instruction of the seed sections' Examples blocks, as written
/// (each once per section).
pub const EXAMPLE_INSTRUCTIONS: [(&str, &str); 127] = [
    ("9.7.1.1", "@p  add.u32     x,y,z;"),
    ("9.7.1.1", "add.sat.s32 c,c,1;"),
    ("9.7.1.1", "add.u16x2   u,v,w;"),
    ("9.7.1.2", "sub.s32 c,a,b;"),
    ("9.7.1.3", "mul.wide.s16 fa,fxs,fys;"),
    ("9.7.1.3", "mul.lo.s16 fa,fxs,fys;"),
    ("9.7.1.3", "mul.wide.s32 z,x,y;"),
    ("9.7.1.4", "@p  mad.lo.s32 d,a,b,c;"),
    ("9.7.1.4", "mad.lo.s32 r,p,q,r;"),
    ("9.7.1.5", "mul24.lo.s32 d,a,b;"),
    ("9.7.1.6", "mad24.lo.s32 d,a,b,c;"),
    ("9.7.1.7", "sad.s32  d,a,b,c;"),
    ("9.7.1.7", "sad.u32  d,a,b,d;"),
    ("9.7.1.8", "div.s32  b,n,i;"),
    ("9.7.1.9", "rem.s32  x,x,8;"),
    ("9.7.1.10", "abs.s32  r0,a;"),
    ("9.7.1.11", "neg.s32  r0,a;"),
    ("9.7.1.12", "min.s32  r0,a,b;"),
    ("9.7.1.12", "@p  min.u16  h,i,j;"),
    ("9.7.1.12", "min.s16x2.relu u,v,w;"),
    ("9.7.1.13", "max.u32  d,a,b;"),
    ("9.7.1.13", "max.s32  q,q,0;"),
    ("9.7.1.13", "max.relu.s16x2 t,t,u;"),
    ("9.7.1.14", "popc.b32  d, a;"),
    ("9.7.1.14", "popc.b64  cnt, X;"),
    ("9.7.1.15", "clz.b32  d, a;"),
    ("9.7.1.15", "clz.b64  cnt, X;"),
    ("9.7.1.16", "bfind.u32  d, a;"),
    ("9.7.1.16", "bfind.shiftamt.s64  cnt, X;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 3, 1;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 3, -1;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 2, 1;"),
    ("9.7.1.17", "fns.b32 d, 0xaaaaaaaa, 2, -1;"),
    ("9.7.1.18", "brev.b32  d, a;"),
    ("9.7.1.19", "bfe.b32  d,a,start,len;"),
    ("9.7.1.20", "bfi.b32  d,a,b,start,len;"),
    ("9.7.1.21", "szext.clamp.s32 rd, ra, rb;"),
    ("9.7.1.21", "szext.wrap.u32  rd, 0xffffffff, 0;"),
    ("9.7.1.22", "bmsk.clamp.b32  rd, ra, rb;"),
    ("9.7.1.22", "bmsk.wrap.b32   rd, 1, 2;"),
    ("9.7.1.23", "dp4a.u32.u32           d0, a0, b0, c0;"),
    ("9.7.1.23", "dp4a.u32.s32           d1, a1, b1, c1;"),
    ("9.7.1.24", "dp2a.lo.u32.u32           d0, a0, b0, c0;"),
    ("9.7.1.24", "dp2a.hi.u32.s32           d1, a1, b1, c1;"),
    ("9.7.2.1", "@p  add.cc.u32   x1,y1,z1;"),
    ("9.7.2.1", "@p  addc.cc.u32  x2,y2,z2;"),
    ("9.7.2.1", "@p  addc.cc.u32  x3,y3,z3;"),
    ("9.7.2.1", "@p  addc.u32     x4,y4,z4;"),
    ("9.7.2.2", "@p  add.cc.u32   x1,y1,z1;"),
    ("9.7.2.2", "@p  addc.cc.u32  x2,y2,z2;"),
    ("9.7.2.2", "@p  addc.cc.u32  x3,y3,z3;"),
    ("9.7.2.2", "@p  addc.u32     x4,y4,z4;"),
    ("9.7.2.3", "@p  sub.cc.u32   x1,y1,z1;"),
    ("9.7.2.3", "@p  subc.cc.u32  x2,y2,z2;"),
    ("9.7.2.3", "@p  subc.cc.u32  x3,y3,z3;"),
    ("9.7.2.3", "@p  subc.u32     x4,y4,z4;"),
    ("9.7.2.4", "@p  sub.cc.u32   x1,y1,z1;"),
    ("9.7.2.4", "@p  subc.cc.u32  x2,y2,z2;"),
    ("9.7.2.4", "@p  subc.cc.u32  x3,y3,z3;"),
    ("9.7.2.4", "@p  subc.u32     x4,y4,z4;"),
    ("9.7.2.5", "@p  mad.lo.cc.u32 d,a,b,c;"),
    ("9.7.2.5", "mad.lo.cc.u32 r,p,q,r;"),
    ("9.7.2.6", "mul.lo.u32     r0,r4,r6;"),
    ("9.7.2.6", "mul.hi.u32     r1,r4,r6;"),
    ("9.7.2.6", "mad.lo.cc.u32  r1,r5,r6,r1;"),
    ("9.7.2.6", "madc.hi.u32    r2,r5,r6,0;"),
    ("9.7.2.6", "mad.lo.cc.u32   r1,r4,r7,r1;"),
    ("9.7.2.6", "madc.hi.cc.u32  r2,r4,r7,r2;"),
    ("9.7.2.6", "addc.u32        r3,0,0;"),
    ("9.7.2.6", "mad.lo.cc.u32   r2,r5,r7,r2;"),
    ("9.7.2.6", "madc.hi.u32     r3,r5,r7,r3;"),
    ("9.7.6.1", "@p  set.lt.and.f32.s32  d,a,b,r;"),
    ("9.7.6.1", "set.eq.u32.u32      d,i,n;"),
    ("9.7.6.2", "setp.lt.and.s32  p|q,a,b,r;"),
    ("9.7.6.2", "@q  setp.eq.u32      p,i,n;"),
    ("9.7.6.3", "selp.s32  r0,r,g,p;"),
    ("9.7.6.3", "@q  selp.f32  f0,t,x,xp;"),
    ("9.7.6.4", "slct.u32.s32  x, y, z, val;"),
    ("9.7.6.4", "slct.ftz.u64.f32  A, B, C, fval;"),
    ("9.7.8.1", "and.b32  x,q,r;"),
    ("9.7.8.1", "and.b32  sign,fpvalue,0x80000000;"),
    ("9.7.8.2", "or.b32  mask mask,0x00010001"),
    ("9.7.8.2", "or.pred  p,q,r;"),
    ("9.7.8.3", "xor.b32  d,q,r;"),
    ("9.7.8.3", "xor.b16  d,x,0x0001;"),
    ("9.7.8.4", "not.b32  mask,mask;"),
    ("9.7.8.4", "not.pred  p,q;"),
    ("9.7.8.5", "cnot.b32 d,a;"),
    ("9.7.8.6", "lop3.b32       d, a, b, c, 0x40;"),
    ("9.7.8.6", "lop3.or.b32  d|p, a, b, c, 0x3f, q;"),
    ("9.7.8.6", "lop3.and.b32 _|p, a, b, c, 0x3f, q;"),
    ("9.7.8.7", "shf.l.clamp.b32  r3,r1,r0,16;"),
    ("9.7.8.7", "shf.l.clamp.b32  r7,r2,r3,n;"),
    ("9.7.8.7", "shf.l.clamp.b32  r6,r1,r2,n;"),
    ("9.7.8.7", "shf.l.clamp.b32  r5,r0,r1,n;"),
    ("9.7.8.7", "shl.b32          r4,r0,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r4,r0,r1,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r5,r1,r2,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r6,r2,r3,n;"),
    ("9.7.8.7", "shr.s32          r7,r3,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r1,r0,r0,n;"),
    ("9.7.8.7", "shf.l.clamp.b32  r1,r0,r0,n;"),
    ("9.7.8.7", "shf.r.clamp.b32  r0,r0,r1,n;"),
    ("9.7.8.8", "shl.b32  q,a,2;"),
    ("9.7.8.9", "shr.u16  c,a,2;"),
    ("9.7.8.9", "shr.s32  i,i,1;"),
    ("9.7.8.9", "shr.b16  k,i,j;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x1,  0x0;"),
    ("9.7.9.5", "@p  add.f32      Rx, Ry, Rx;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x2,  0x0;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x4,  0x0;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x8,  0x0;"),
    ("9.7.9.5", "shfl.up.b32  Ry|p, Rx, 0x10, 0x0;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x1,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x2,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x4,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x8,  0x1f;"),
    ("9.7.9.5", "shfl.down.b32  Ry|p, Rx, 0x10, 0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x10, 0x1f;"),
    ("9.7.9.5", "add.f32        Rx, Ry, Rx;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x8,  0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x4,  0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x2,  0x1f;"),
    ("9.7.9.5", "shfl.bfly.b32  Ry, Rx, 0x1,  0x1f;"),
    ("9.7.9.6", "shfl.sync.up.b32  Ry|p, Rx, 0x1,  0x0, 0xffffffff;"),
    ("9.7.9.7", "prmt.b32      r1, r2, r3, r4;"),
    ("9.7.9.7", "prmt.b32.f4e  r1, r2, r3, r4;"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_optional_placeholder_is_named_whether_or_not_it_is_written() {
        let prmt = block("9.7.9.7").unwrap();
        assert_eq!(optional_placeholders(prmt, "prmt.b32"), vec![".mode"]);
        assert_eq!(optional_placeholders(prmt, "prmt.b32.f4e"), vec![".mode"]);
        assert_eq!(bind(prmt, "prmt.b32"), Some(vec![(".b32".to_string(), ".b32".to_string())]));
        assert!(optional_placeholders(block("9.7.1.1").unwrap(), "add.sat.s32").is_empty());
    }

    #[test]
    fn the_blocks_accept_their_own_forms() {
        for (section, text) in [
            ("9.7.1.1", "add.sat.s32 c, c, 1;"),
            ("9.7.1.1", "@p add.u16x2 u, v, w"),
            ("9.7.1.12", "min.relu.s16x2 u, v, w"),
            ("9.7.1.12", "min.s16x2 u, v, w"),
            ("9.7.1.3", "mul.wide.u64 d, a, b"),
            ("9.7.8.6", "lop3.and.b32 _|p, a, b, c, 0x3f, q"),
            ("9.7.9.5", "shfl.up.b32 Ry|p, Rx, 0x1, 0x0"),
            ("9.7.9.5", "shfl.bfly.b32 Ry, Rx, 0x10, 0x1f"),
            ("9.7.9.6", "shfl.sync.idx.b32 Ry, Rx, 0x1, 0x1f, m"),
            ("9.7.1.24", "dp2a.hi.u32.s32 d1, a1, b1, c1"),
            // shf's examples use shl and shr, defined in 9.7.8.8 and 9.7.8.9.
            ("9.7.8.7", "shr.s32 r7,r3,n;"),
        ] {
            assert_eq!(check(section, text), Ok(()), "{text}");
        }
    }

    #[test]
    fn the_blocks_reject_what_they_do_not_give() {
        let cases = [
            ("9.7.1.12", "min.s16x2.relu u,v,w", "qualifiers `.s16x2.relu` do not fit `min.atype`; qualifiers `.s16x2.relu` do not fit `min{.relu}.btype`"),
            ("9.7.1.19", "bfe.b32 d,a,start,len", "qualifiers `.b32` do not fit `bfe.type`"),
            ("9.7.8.2", "or.b32  mask mask,0x00010001", "2 operands where `or.type d, a, b` has 3"),
            ("9.7.8.2", "or.b32  d, mask mask,0x00010001", "operand `mask mask` is not one name or constant"),
            ("9.7.1.1", "add.sat.u32 d, a, b", "qualifiers `.sat.u32` do not fit `add.type`; qualifiers `.sat.u32` do not fit `add{.sat}.s32`"),
            ("9.7.8.6", "lop3.b32 _, a, b, c, 0x3f", "operand `_` does not fit `d`"),
            ("9.7.9.5", "shfl.up.b32 _|p, a, b, c", "operand `_|p` does not fit `d[|p]`"),
            ("9.7.8.6", "lop3.or.b32 d, a, b, c, 0x3f, q", "operand `d` must be a `d|p` pair"),
        ];
        for (section, text, why) in cases {
            let got = check(section, text).unwrap_err();
            assert!(got.contains(why), "{text}: {got}");
        }
    }

    #[test]
    fn every_section_with_examples_has_a_block() {
        for (section, _) in EXAMPLE_INSTRUCTIONS {
            assert!(block(section).is_some(), "{section}");
        }
    }
}
