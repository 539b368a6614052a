//! Names and types, read against the Syntax block that gives them.
//!
//! - **Example roles.** A Syntax line names each operand's place
//!   (`div.type d, a, b;`: `b` is the divisor). An example that writes one
//!   of those names in another place (`div.s32 b,n,i;`, where `b` is the
//!   quotient) asks the reader to forget the Syntax's meaning of the name.
//!   A name that also stands in its own place in the same example
//!   (`sad.u32 d,a,b,d;`, the destination accumulated) is one register
//!   used twice, not a renaming, and is not reported.
//! - **Type relations.** A Syntax line that gives two type names one set
//!   (`.atype = .btype = { .u32, .s32 };`) has two readings: each name
//!   takes a value of the set on its own, or the two are one type written
//!   twice. Both are expanded into forms and compared with the section's
//!   examples and the catalogue; ptxas's answer on the forms only the first
//!   reading admits is joined by the report (`report::vendor`).
//!
//! - **Unstated types.** An operand whose type is not the instruction type
//!   (a 32-bit shift amount of `shl.b16`, a predicate `p`, an 8-bit
//!   `immLut`) must have a sentence that gives it: the operands pass's
//!   reading of type sentences, or a noun phrase (`` `c` is a predicate``,
//!   ``the predicate `q` ``, ``8-bit value specified by operand `immLut` ``).
//!   One of the instruction type is typed by the Syntax line, by the
//!   document's convention, and is not asked for here.
//!
//! - **Predicates and registers.** The examples of a section are read
//!   together, as one program would be: a name one example uses as a
//!   predicate (a guard `@p`, a predicate operand) and another as a
//!   register of data (`mad.lo.s32 r,p,q,r;` after `@p mad...`) is one
//!   name for two registers of different kinds. So is a name one example
//!   uses as a 32-bit register and another as a 16-bit one (`fa` the
//!   destination of `mul.wide.s16` and of `mul.lo.s16`): the width is the
//!   catalogue operand's in a modelled variant, and elsewhere the
//!   destination's, by an instruction of one type qualifier.
//!
//! - **Forms in the prose.** A code span of a section's prose that writes
//!   one of its instructions (`setp.dtype.f64`) names each qualifier place
//!   by a name of the section's Syntax. A dotted word that another
//!   section's Syntax gives a set of values (`.dtype`, set's destination
//!   type) and this section's Syntax never writes is a name borrowed from
//!   another instruction: setp's Notes write `setp.dtype.f64` where setp's
//!   Syntax calls its one type `.type`.
//!
//! All but the third read the document alone, so they run on any section
//! that has a Syntax block, modelled or not; the third reads the
//! catalogue's variants of the section. A fourth, the names a Semantics block spells
//! otherwise than the Syntax, reads the parsed block: `super::spellings`.

use super::document::{BlockKind, Document, Section};
use super::operands;
use super::units::{units, Unit, UnitKind};
use crate::audit::finding::{Finding, FindingKind, Repair};
use ptx_spec::catalogue::OperandType;

/// What a type-relation finding's detail line starts with before the
/// examples only the independent reading admits; the report joins ptxas's
/// answer on them.
pub const INDEPENDENT_ONLY: &str = "Examples that only the independent reading admits:";

/// One instruction line of a Syntax block: its opcode, its qualifier parts
/// (`.atype`, `{.sat}`), and each operand's names (`d[|p]` is `d`, `p`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub opcode: String,
    pub qualifiers: Vec<String>,
    pub operands: Vec<Vec<String>>,
    pub text: String,
}

/// A Syntax statement that gives two or more names one set of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    pub names: Vec<String>,
    pub values: Vec<String>,
    /// The statement as written, white space collapsed.
    pub text: String,
}

/// The statements of a Syntax block, comments dropped, white space
/// collapsed, each without its `;`.
pub(super) fn statements(section: &Section) -> Vec<String> {
    let Some(block) = section.block(BlockKind::Syntax) else { return Vec::new() };
    // A set written without its `;` (`.atype = { .f16, .f16x2}`) ends at the
    // line that closes its braces; a template whose line ends with an
    // optional qualifier (`{.level}`) goes on to the next line.
    let mut in_set = false;
    let code: Vec<String> = block
        .code()
        .map(|l| l.text.split("//").next().unwrap_or(""))
        .map(|t| {
            in_set |= super::defaults::opens_definition(t);
            if in_set && t.contains('}') {
                in_set = false;
                if t.trim_end().ends_with('}') {
                    return format!("{t};");
                }
            }
            t.to_string()
        })
        .collect();
    let joined = code.join(" ");
    joined.split(';').map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|s| !s.is_empty()).collect()
}

/// The names of one operand as a Syntax line writes it: `d[|p]` → `d`, `p`.
fn operand_names(operand: &str) -> Vec<String> {
    operand
        .split(['|', '[', ']', '{', '}'])
        .map(str::trim)
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// A Syntax statement read as an instruction template, if it is one.
fn template(statement: &str) -> Option<Template> {
    let (head, operands) = statement.split_once(' ')?;
    if statement.contains('=') || !head.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    let opcode_end = head.find(['.', '{']).unwrap_or(head.len());
    let opcode = &head[..opcode_end];
    if !opcode.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let mut qualifiers = Vec::new();
    let mut rest = &head[opcode_end..];
    while !rest.is_empty() {
        let end = if rest.starts_with('{') {
            // Braces within the group pair (`{.shared{::cta}}`).
            let mut depth = 0;
            rest.char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(rest.len(), |(i, _)| i + 1)
        } else {
            rest[1..].find(['.', '{']).map_or(rest.len(), |i| i + 1)
        };
        qualifiers.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    let operands: Vec<Vec<String>> = operands.split(',').map(operand_names).collect();
    (!operands.iter().any(Vec::is_empty)).then(|| Template {
        opcode: opcode.to_string(),
        qualifiers,
        operands,
        text: format!("{statement};"),
    })
}

/// Every instruction template of a section's Syntax block.
pub fn templates(section: &Section) -> Vec<Template> {
    statements(section).iter().filter_map(|s| template(s)).collect()
}

/// Every statement of a section's Syntax block that relates type names:
/// `.atype = .btype = { .u32, .s32 }`.
pub fn relations(section: &Section) -> Vec<Relation> {
    let mut out = Vec::new();
    for s in statements(section) {
        let parts: Vec<&str> = s.split('=').map(str::trim).collect();
        let Some((set, names)) = parts.split_last() else { continue };
        let is_name = |n: &&str| n.starts_with('.') && n.len() > 1 && n[1..].chars().all(|c| c.is_ascii_alphanumeric());
        if names.len() < 2 || !names.iter().all(is_name) {
            continue;
        }
        let Some(values) = set.strip_prefix('{').and_then(|v| v.strip_suffix('}')) else { continue };
        out.push(Relation {
            names: names.iter().map(|n| n.to_string()).collect(),
            values: values.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect(),
            text: format!("{s};"),
        });
    }
    out
}

/// An example instruction split into its mnemonic and its operands' names
/// (`d|p` → `d`, `p`), guard and `;` dropped.
fn example_parts(text: &str) -> Option<(String, Vec<Vec<String>>)> {
    let code = crate::ptx::parse::without_guard(text.trim().trim_end_matches(';').trim());
    let (mnemonic, operands) = code.split_once(char::is_whitespace)?;
    let ops = operands.split(',').map(|o| o.split('|').map(|n| n.trim().to_string()).collect()).collect();
    Some((mnemonic.to_string(), ops))
}

/// The names a Syntax block gives sets of values to (`.type`, `.mode`).
fn set_names(section: &Section) -> Vec<String> {
    let left = |s: &String| s.split('=').next().map(str::trim).map(str::to_string);
    statements(section).iter().filter(|s| s.contains('=')).filter_map(left).collect()
}

/// The template an example is written after: of its opcode and operand
/// count, the first whose every required qualifier is a set's name or one
/// the example writes (`min.f64` after `min.f64 d, a, b;`, not after
/// `min.f32 d, a, b;`), and of those the one that names the most of the
/// example's qualifiers (`test_wait.parity`'s line for an example with
/// `.parity`, not the plain line it also fits); else the first of its
/// opcode and count.
fn template_of<'a>(ts: &'a [Template], sets: &[String], mnemonic: &str, count: usize) -> Option<&'a Template> {
    let written: Vec<String> = mnemonic.split('.').skip(1).map(|q| format!(".{q}")).collect();
    let opcode = mnemonic.split('.').next().unwrap_or("");
    let candidates: Vec<&Template> = ts.iter().filter(|t| t.opcode == opcode && t.operands.len() == count).collect();
    let fits = |t: &&&Template| {
        t.qualifiers.iter().filter(|q| !q.starts_with('{')).all(|q| sets.contains(q) || written.contains(q))
    };
    let named = |t: &Template| t.qualifiers.iter().filter(|q| written.contains(q)).count();
    let mut best: Option<&Template> = None;
    for t in candidates.iter().filter(fits) {
        if best.is_none_or(|b| named(t) > named(b)) {
            best = Some(t);
        }
    }
    best.or(candidates.first().copied())
}

/// The first name an example writes in a place whose Syntax name differs,
/// where the Syntax gives that name another place and the example never
/// writes it there: (the name, its place in the example, its place in the
/// Syntax), places 0-based.
fn misplaced(t: &Template, written: &[Vec<String>]) -> Option<(String, usize, usize)> {
    let place_of = |name: &str| t.operands.iter().position(|o| o.iter().any(|n| n == name));
    for (i, op) in written.iter().enumerate() {
        for (k, w) in op.iter().enumerate() {
            let Some(own) = place_of(w) else { continue };
            let here = t.operands[i].get(k).or(t.operands[i].first());
            let also_own = written.get(own).is_some_and(|o| o.iter().any(|n| n == w));
            if here.is_some_and(|h| h != w) && own != i && !also_own {
                return Some((w.clone(), i, own));
            }
        }
    }
    None
}

fn ordinal(i: usize) -> String {
    ["first", "second", "third", "fourth", "fifth", "sixth"]
        .get(i)
        .map_or(format!("operand {}", i + 1), |s| s.to_string())
}

/// Every example that writes a Syntax name in another place.
/// A name the Syntax writes as an address (`[a]`) and the example as a
/// value, or the other way, is two things that share a letter by chance:
/// `st.local.b32 [q+4],a;` beside `st [a], b` names nothing twice (the
/// judges of set h10 read every such finding a false alarm).
fn example_roles(doc: &Document, all: &[Unit]) -> Vec<Finding> {
    let mut out = Vec::new();
    let addressed = |text: &str, name: &str| {
        text.match_indices(&format!("[{name}"))
            .any(|(i, m)| !text[i + m.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    };
    for u in all.iter().filter(|u| u.kind == UnitKind::Example && !u.section.contains('@')) {
        let Some(section) = doc.section(u.base_section()) else { continue };
        let Some((mnemonic, written)) = example_parts(&u.text) else { continue };
        let all_templates = templates(section);
        let Some(t) = template_of(&all_templates, &set_names(section), &mnemonic, written.len()) else { continue };
        let Some((name, here, own)) = misplaced(t, &written) else { continue };
        if addressed(&t.text, &name) != addressed(&u.text, &name) {
            continue;
        }
        let section_no = u.base_section().to_string();
        let stands_for = t.operands[here].join("|");
        let mut f = Finding::of_text(
            format!("text-names-{}-{name}", u.id.replace('/', "-")),
            section_no,
            FindingKind::Name,
            u.text.clone(),
            format!(
                "the example `{}` writes `{name}` as the {} operand, `{stands_for}`'s place; the Syntax line \
                 `{}` gives `{name}` the {} place",
                u.text,
                ordinal(here),
                t.text,
                ordinal(own)
            ),
            vec![format!(
                "{}:{}: read with the Syntax's names, the example's `{name}` is another operand than the \
                 Syntax's `{name}`; a register name that is no operand name of the Syntax would not ask the \
                 reader to forget one of them.",
                u.file, u.line
            )],
        );
        f.repairs = syntax_names(t, example_line(section, u), &written)
            .into_iter()
            .map(|(old, new)| Repair { line: u.line, old, new })
            .collect();
        out.push(f);
    }
    out
}

/// The fix of an example that writes the Syntax's names in other places:
/// its operands renamed to the Syntax's names for their places (`min.f64
/// a,b,c;` → `d,a,b`), as (the operands as written, renamed).
fn syntax_names(t: &Template, (code, end): (&str, usize), written: &[Vec<String>]) -> Option<(String, String)> {
    let operands = code.get(end..)?.trim_end().trim_end_matches(';');
    let renamed: Vec<String> = written
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let names = t.operands.get(i);
            op.iter()
                .enumerate()
                .map(|(k, w)| names.and_then(|n| n.get(k)).unwrap_or(w).clone())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    // The example's own spacing after a comma, and before its operands.
    let comma = if operands.contains(", ") { ", " } else { "," };
    let gap = &operands[..operands.len() - operands.trim_start().len()];
    let terminator = if code.trim_end().ends_with(';') { ";" } else { "" };
    Some((code.to_string(), format!("{}{gap}{}{terminator}", &code[..end], renamed.join(comma))))
}

/// An example's line as written, its comment cut, and where its operands
/// start (after the guard and the mnemonic): the unit's text has its spaces
/// collapsed, and an edit must be of the line's own text.
fn example_line<'a>(section: &'a Section, u: &'a Unit) -> (&'a str, usize) {
    let raw = section.all_lines().find(|l| l.number == u.line).map_or(u.text.as_str(), |l| l.text.as_str());
    let code = raw.split("//").next().unwrap_or("").trim();
    let body = crate::ptx::parse::without_guard(code);
    let start = code.len() - body.len();
    (code, body.find(char::is_whitespace).map_or(code.len(), |e| start + e))
}

/// The qualifiers a mnemonic binds to a template's parts, where the
/// template has no optional part and the counts match: (part, value).
fn bind(t: &Template, mnemonic: &str) -> Option<Vec<(String, String)>> {
    let written: Vec<String> = mnemonic.split('.').skip(1).map(|q| format!(".{q}")).collect();
    let plain = t.qualifiers.iter().all(|q| !q.starts_with('{'));
    (plain && mnemonic.split('.').next() == Some(t.opcode.as_str()) && written.len() == t.qualifiers.len())
        .then(|| t.qualifiers.iter().cloned().zip(written).collect())
}

/// Whether a binding gives the related names different values.
fn mixed(bound: &[(String, String)], r: &Relation) -> bool {
    let values: Vec<&str> =
        r.names.iter().filter_map(|n| bound.iter().find(|(p, _)| p == n).map(|(_, v)| v.as_str())).collect();
    values.len() == r.names.len() && values.iter().any(|v| *v != values[0])
}

/// Whether a sentence of the section or of a group above it says which
/// combinations of the related names are valid (9.7.18.1's "all
/// combinations of `dtype`, `atype`, and `btype` are valid"): the relation
/// is then settled in words.
fn combinations_stated(doc: &Document, section: &Section, names: &[String]) -> bool {
    let bare: Vec<String> = names.iter().map(|n| n.trim_start_matches('.').to_lowercase()).collect();
    let mut numbers: Vec<&str> = vec![section.number.as_str()];
    let mut n = section.number.as_str();
    while let Some((up, _)) = n.rsplit_once('.') {
        numbers.push(up);
        n = up;
    }
    numbers.iter().filter_map(|n| doc.section(n)).any(|t| {
        let description = t.block(BlockKind::Description).into_iter().flat_map(|b| b.lines.iter());
        let prose: Vec<&str> = t.intro.iter().chain(description).filter(|l| !l.code).map(|l| l.text.trim()).collect();
        prose.join(" ").split(". ").any(|x| {
            let x = x.to_lowercase();
            let all_valid = x.contains("all combinations") && x.contains("valid");
            all_valid && !x.contains("not all") && !x.contains("invalid") && bare.iter().all(|b| x.contains(b.as_str()))
        })
    })
}

/// Every type relation of a Syntax block, both readings expanded and
/// compared with the examples and the catalogue.
fn type_relations(doc: &Document, all: &[Unit]) -> Vec<Finding> {
    let mut out = Vec::new();
    for section in doc.first_renderings() {
        let ts = templates(section);
        for r in relations(section) {
            let Some(t) = ts.iter().find(|t| r.names.iter().all(|n| t.qualifiers.contains(n))) else { continue };
            if combinations_stated(doc, section, &r.names) {
                continue;
            }
            let (n, k) = (r.values.len(), r.names.len());
            let examples: Vec<&Unit> = all
                .iter()
                .filter(|u| u.kind == UnitKind::Example && u.section == section.number)
                .filter(|u| {
                    let m = example_parts(&u.text).map(|(m, _)| m).unwrap_or_default();
                    bind(t, &m).is_some_and(|b| mixed(&b, &r))
                })
                .collect();
            let catalogue: Vec<String> = ptx_spec::Variant::all()
                .into_iter()
                .map(|v| v.mnemonic().split(' ').next().unwrap_or("").to_string())
                .filter(|m| bind(t, m).is_some_and(|b| mixed(&b, &r)))
                .collect();
            let names = r.names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" and ");
            let shown = |us: &[&Unit]| us.iter().map(|u| format!("`{}`", u.text)).collect::<Vec<_>>().join(", ");
            let evidence = if examples.is_empty() {
                "no example tells the two apart".to_string()
            } else {
                format!("the example {} is a form of the first reading only", shown(&examples[..1]))
            };
            let mut detail = vec![format!(
                "{}:{}: `{}` reads two ways: {names} each take a value of the set on their own ({} forms of `{}`), \
                 or they are one type written twice ({n} forms).",
                section.file,
                section.block(BlockKind::Syntax).map_or(section.line, |b| b.line),
                r.text,
                n.pow(k as u32),
                t.text.split(' ').next().unwrap_or(""),
            )];
            if !examples.is_empty() {
                detail.push(format!("{INDEPENDENT_ONLY} {}.", shown(&examples)));
            }
            let model = if catalogue.is_empty() {
                None
            } else {
                detail.push(format!("The catalogue holds {} such forms: {}.", catalogue.len(), catalogue.join(", ")));
                Some(format!("each of {names} from the set on its own (the catalogue's mixed forms)"))
            };
            let mut f = Finding::of_text(
                format!("text-names-{}-type-relation", section.number),
                section.number.clone(),
                FindingKind::Ambiguity,
                r.text.clone(),
                format!("`{}` gives {names} one set without saying whether they may differ: {evidence}", r.text),
                detail,
            );
            f.model_choice = model;
            out.push(f);
        }
    }
    out
}

/// Whether an operand's type can be taken from the instruction type (the
/// last qualifier that is a type: `.b32` of `prmt.b32.f4e`): of its width,
/// and a predicate only where that type is `.pred`.
fn of_instruction_type(v: &ptx_spec::Variant, o: &ptx_spec::catalogue::Operand) -> bool {
    let mnemonic = v.mnemonic();
    let last_type =
        mnemonic.split(' ').next().unwrap_or("").rsplit('.').find(|q| operands::qualifier_width(q).is_some());
    let pred = last_type == Some("pred");
    match o.ty {
        OperandType::Pred => pred,
        OperandType::Bits(w) => !pred && last_type.and_then(operands::qualifier_width) == Some(w),
    }
}

/// The operands a sentence gives a type qualifier: `` Operand `d` has type
/// `.dtype` ``, `` operands `p`, `q`, and `c` have type `.pred` `` (9.7.6.1-2):
/// each code word before `has type` or `have type` and a qualifier, within
/// one clause.
fn typed_by_qualifier(text: &str) -> Vec<String> {
    let ws = operands::words(text);
    let mut out = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (i, (w, code)) in ws.iter().enumerate() {
        let lower = w.to_lowercase();
        if *code {
            names.push(w.clone());
        } else if matches!(lower.as_str(), "has" | "have") {
            let typed = ws.get(i + 1).is_some_and(|(t, c)| !c && t == "type")
                && ws.get(i + 2).is_some_and(|(q, c)| *c && q.starts_with('.'));
            if typed {
                out.append(&mut names);
            }
            names.clear();
        } else if !matches!(lower.as_str(), "operand" | "operands" | "and" | "," | "the") {
            names.clear();
        }
    }
    out.retain(|n| !n.starts_with('.'));
    out
}

/// The operands a line types as predicates: `` Operand `c` has type
/// `.pred` `` (a line that gives no other type), `` `c` is a predicate``.
pub(super) fn predicates_typed(text: &str) -> Vec<String> {
    let by_phrase = typed_by_phrase(text).into_iter().filter(|(_, ty)| *ty == OperandType::Pred).map(|(n, _)| n);
    let qualifiers = text.split('`').skip(1).step_by(2).filter(|q| q.starts_with('.'));
    let only_pred = qualifiers.clone().count() > 0 && qualifiers.clone().all(|q| q == ".pred");
    let by_qualifier = if only_pred { typed_by_qualifier(text) } else { Vec::new() };
    by_phrase.chain(by_qualifier).collect()
}

/// The operands a sentence calls a predicate or gives a width in a noun
/// phrase, shapes the operands pass does not read: `` `c` is a
/// predicate``, ``the predicate result `p` ``, ``8-bit value specified by
/// operand `immLut` ``.
fn typed_by_phrase(text: &str) -> Vec<(String, OperandType)> {
    let ws = operands::words(text);
    let mut out = Vec::new();
    for (i, (w, code)) in ws.iter().enumerate() {
        let lower = w.to_lowercase();
        let next_code = |within: usize| ws.iter().skip(i + 1).take(within).find(|(_, c)| *c).map(|(n, _)| n.clone());
        if *code {
            let says = ws.iter().skip(i + 1).take(4).map(|(x, _)| x.to_lowercase()).collect::<Vec<_>>();
            let verb = matches!(says.first().map(String::as_str), Some("is" | "are" | "has" | "have"));
            if verb && says.iter().any(|x| x == "predicate") {
                out.push((w.clone(), OperandType::Pred));
            } else if matches!(says.first().map(String::as_str), Some("has" | "have"))
                || (verb && matches!(says.get(1).map(String::as_str), Some("a" | "an")))
            {
                // Not `a` is converted to `.f32`: a type it has or is.
                // `d` has `.b32` type: the width of the type it names.
                let named = ws.iter().skip(i + 2).take(3).find(|(x, c)| *c && x.starts_with('.')).and_then(|(x, _)| {
                    if x == ".pred" {
                        Some(OperandType::Pred)
                    } else {
                        operands::qualifier_width(&x[1..]).map(OperandType::Bits)
                    }
                });
                out.extend(named.map(|ty| (w.clone(), ty)));
            }
        } else if lower == "predicate" {
            out.extend(next_code(2).map(|n| (n, OperandType::Pred)));
        } else if let Some(bits) = lower.strip_suffix("-bit").and_then(|n| n.parse::<u32>().ok()) {
            out.extend(next_code(5).map(|n| (n, OperandType::Bits(bits))));
        }
    }
    out
}

/// Every modelled section with operands whose type is not the instruction
/// type and that no sentence gives a size or type to (the operands pass's
/// reading, `operands::Operands::stated`): one finding per section, each
/// operand with the variants it is unstated for.
fn unstated_types(doc: &Document) -> Vec<Finding> {
    let mut stated = operands::check(doc).stated;
    let prose = units(doc).into_iter().filter(|u| {
        matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem)
            && matches!(u.block, Some(BlockKind::Description | BlockKind::Notes))
    });
    for u in prose {
        for (name, ty) in typed_by_phrase(&u.text) {
            let of_section = ptx_spec::Variant::all().into_iter().filter(|v| v.section() == u.base_section());
            for v in of_section.filter(|v| v.operands().iter().any(|o| o.name == name && o.ty == ty)) {
                stated.push((v.mnemonic(), name.clone()));
            }
        }
        for name in typed_by_qualifier(&u.text) {
            let of_section = ptx_spec::Variant::all().into_iter().filter(|v| v.section() == u.base_section());
            for v in of_section.filter(|v| v.operands().iter().any(|o| o.name == name)) {
                stated.push((v.mnemonic(), name.clone()));
            }
        }
    }
    let mut out = Vec::new();
    for section in doc.first_renderings() {
        let variants: Vec<ptx_spec::Variant> =
            ptx_spec::Variant::all().into_iter().filter(|v| v.section() == section.number).collect();
        // Each operand unstated somewhere, with its variants, in Syntax order.
        let mut open: Vec<(&'static str, Vec<String>, String)> = Vec::new();
        for v in &variants {
            for o in v.operands().into_iter().filter(|o| !of_instruction_type(v, o)) {
                let m = v.mnemonic();
                if stated.iter().any(|(sm, so)| *sm == m && so == o.name) {
                    continue;
                }
                match open.iter_mut().find(|(n, _, _)| *n == o.name) {
                    Some((_, vs, _)) => vs.push(m),
                    None => open.push((o.name, vec![m], o.ty.to_string())),
                }
            }
        }
        if open.is_empty() {
            continue;
        }
        let shown: Vec<String> = open
            .iter()
            .map(|(n, vs, ty)| {
                let of = if vs.len() == variants.len() { "every variant".to_string() } else { vs.join(", ") };
                format!("`{n}` ({ty} in the model; {of})")
            })
            .collect();
        let fragment = section
            .block(BlockKind::Description)
            .and_then(|b| b.lines.iter().find(|l| !l.text.trim().is_empty()))
            .map(|l| l.text.trim().to_string())
            .unwrap_or_default();
        out.push(Finding::of_text(
            format!("text-names-{}-type-unstated", section.number),
            section.number.clone(),
            FindingKind::Name,
            fragment,
            format!(
                "no sentence gives the type of {}, which is not the instruction type",
                open.iter().map(|(n, _, _)| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ),
            vec![format!(
                "{}:{}: the Description and Notes give no size or type to {}; an operand of the instruction type \
                 is read from the Syntax, these are not.",
                section.file,
                section.line,
                shown.join(", ")
            )],
        ));
    }
    out
}

/// What an example's operand names: a predicate, or a register of data
/// whose width is known where the text gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RegisterKind {
    Predicate,
    Data(Option<u32>),
}

/// What an example's operand in place `i`, name `k` of that place (`d|p`:
/// `p` is name 1), names. Where the example is a modelled variant, the
/// catalogue's operand type says, width included. Else the place is a
/// predicate where it is a piped second name, the Syntax names it `p` or
/// `q` (the document's names for predicate operands), or a sentence of the
/// section calls its Syntax name a predicate; and the destination of an
/// instruction of one type qualifier (`add.f32`, not `cvt.f32.f16`) and
/// no mode that widens it is a register of that type's width, as the
/// document's convention types an operand by the instruction type.
fn place_kind(
    variant: Option<&ptx_spec::Variant>,
    template: Option<&Template>,
    predicates: &[String],
    mnemonic: &str,
    (i, k): (usize, usize),
) -> RegisterKind {
    if let Some(ty) = variant.and_then(|v| operand_at(v, (i, k))) {
        return match ty {
            OperandType::Pred => RegisterKind::Predicate,
            OperandType::Bits(w) => RegisterKind::Data(Some(w)),
        };
    }
    let syntax_name = template.and_then(|t| t.operands.get(i)).and_then(|names| names.get(k));
    if k > 0 || syntax_name.is_some_and(|n| predicates.contains(n)) {
        return RegisterKind::Predicate;
    }
    // An instruction of another section the catalogue models in other
    // forms (`setp.eq.f32`, where the integer `setp` is modelled): a place
    // that every modelled form of its opcode gives a predicate is one.
    let opcode = mnemonic.split('.').next().unwrap_or_default();
    let forms: Vec<ptx_spec::Variant> =
        ptx_spec::Variant::all().into_iter().filter(|v| v.mnemonic().split('.').next() == Some(opcode)).collect();
    if variant.is_none()
        && !forms.is_empty()
        && forms.iter().all(|v| matches!(operand_at(v, (i, k)), Some(OperandType::Pred)))
    {
        return RegisterKind::Predicate;
    }
    RegisterKind::Data(if (i, k) == (0, 0) { destination_width(mnemonic) } else { None })
}

/// The type of a variant's operand in place `i`, name `k` of that place.
fn operand_at(v: &ptx_spec::Variant, (i, k): (usize, usize)) -> Option<OperandType> {
    let mut place = 0;
    let mut name = 0;
    for (j, o) in v.operands().iter().enumerate() {
        if j > 0 {
            if o.piped {
                name += 1;
            } else {
                place += 1;
                name = 0;
            }
        }
        if (place, name) == (i, k) {
            return Some(o.ty);
        }
    }
    None
}

/// The width of the type qualifier of an instruction that writes one type
/// (`.s16`, `.f32`, `.b64`), where no qualifier makes the destination wider
/// or narrower than it (`.wide`, a comparison's `.pred`, a packed `x2`),
/// and the instruction is not one whose registers may be wider than its
/// type (`ld`, `st` and `cvt`, by the PTX ISA's operand size rules).
fn destination_width(mnemonic: &str) -> Option<u32> {
    let mut parts = mnemonic.split('.');
    if matches!(parts.next(), Some("ld" | "ldu" | "st" | "cvt" | "cvta")) {
        return None;
    }
    let parts: Vec<&str> = parts.collect();
    if parts.iter().any(|q| matches!(*q, "wide" | "pred") || q.ends_with("x2") || q.ends_with("x4")) {
        return None;
    }
    let widths: Vec<u32> = parts
        .iter()
        .filter_map(|q| {
            let q =
                q.strip_prefix("bf").or_else(|| q.strip_prefix("tf")).map_or(*q, |bits| &q[q.len() - bits.len() - 1..]);
            let (kind, bits) = q.split_at_checked(1)?;
            let typed = matches!(kind, "s" | "u" | "b" | "f");
            typed.then(|| bits.parse::<u32>().ok()).flatten().filter(|w| matches!(w, 8 | 16 | 32 | 64 | 128))
        })
        .collect();
    match widths.as_slice() {
        [w] => Some(*w),
        _ => None,
    }
}

/// How an example uses each register it names. A guard (`@p`, `@!p`) is a
/// predicate; constants, the sink `_` and anything that is not a plain name
/// are left out.
fn register_uses(
    section: &Section,
    predicates: &[String],
    sized: &[(String, u32)],
    text: &str,
) -> Vec<(String, RegisterKind)> {
    let mut out = Vec::new();
    if let Some(guard) = text.trim().strip_prefix('@') {
        let name = guard.trim_start_matches('!').split(char::is_whitespace).next().unwrap_or("");
        out.push((name.to_string(), RegisterKind::Predicate));
    }
    let Some((mnemonic, written)) = example_parts(text) else { return out };
    let variant = ptx_spec::Variant::from_mnemonic(&mnemonic);
    let ts = templates(section);
    let template = template_of(&ts, &set_names(section), &mnemonic, written.len());
    // An instruction neither modelled nor of this section, nor of an opcode
    // the catalogue models, says nothing of its places (mbarrier.test_wait's
    // `p` in cp.async.mbarrier.arrive's examples): its names are not read.
    let opcode = mnemonic.split('.').next().unwrap_or_default();
    let modelled_opcode = ptx_spec::Variant::all().iter().any(|v| v.mnemonic().split('.').next() == Some(opcode));
    if variant.is_none() && template.is_none() && !modelled_opcode {
        return out;
    }
    for (i, place) in written.iter().enumerate() {
        for (k, name) in place.iter().enumerate() {
            let plain = name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if plain {
                let syntax_name = template.and_then(|t| t.operands.get(i)).and_then(|names| names.get(k));
                let kind = match sized.iter().find(|(n, _)| Some(n) == syntax_name) {
                    Some((_, w)) if variant.is_none() => RegisterKind::Data(Some(*w)),
                    _ => place_kind(variant.as_ref(), template, predicates, &mnemonic, (i, k)),
                };
                out.push((name.clone(), kind));
            }
        }
    }
    out
}

/// The first examples that use one name in two ways: as a predicate and
/// as a register of data, or as data registers of two widths.
#[derive(Default)]
struct FirstUses<'a> {
    predicate: Option<&'a Unit>,
    register: Option<&'a Unit>,
    /// The first example at each width, in the order met.
    widths: Vec<(u32, &'a Unit)>,
    /// Every example that uses the name, with how.
    all: Vec<(&'a Unit, RegisterKind)>,
}

/// Every name a section's examples use as registers of two kinds: as a
/// predicate and as a register of data, or as registers of two widths
/// (`fa` the 32-bit destination of `mul.wide.s16` and the 16-bit one of
/// `mul.lo.s16`). Written as one program, with each register declared
/// once, the examples cannot be assembled. One finding per section, name
/// and kind of clash.
fn register_kinds(doc: &Document, all: &[Unit]) -> Vec<Finding> {
    let mut out = Vec::new();
    let modelled = super::modelled_sections();
    for section in doc.first_renderings() {
        let in_section = |u: &&Unit| u.base_section() == section.number && !u.section.contains('@');
        let mut predicates: Vec<String> = all
            .iter()
            .filter(in_section)
            .filter(|u| matches!(u.block, Some(BlockKind::Description | BlockKind::Notes)))
            .flat_map(|u| typed_by_phrase(&u.text))
            .filter(|(_, ty)| *ty == OperandType::Pred)
            .map(|(n, _)| n)
            .collect();
        // What a sentence says returns `True` or `False` holds a truth value.
        predicates.extend(
            all.iter()
                .filter(in_section)
                .filter(|u| matches!(u.block, Some(BlockKind::Description | BlockKind::Notes)))
                .flat_map(|u| super::truth_valued(&u.text)),
        );
        // `p` and `q` are predicates by their names where the section speaks
        // of predicates at all; cvta's `p` is an address.
        if section.all_lines().any(|l| l.text.to_lowercase().contains("predicate") || l.text.contains(".pred")) {
            predicates.extend(["p".to_string(), "q".to_string()]);
        }
        // Operands a sentence gives a width (`d` has `.b32` type), whatever
        // the instruction's type; not one that sentences type two ways, each
        // for some forms (vote.sync's `d`, a predicate in one form and a
        // `.b32` register in the other).
        let typed: Vec<(String, OperandType)> = all
            .iter()
            .filter(in_section)
            .filter(|u| matches!(u.block, Some(BlockKind::Description | BlockKind::Notes)))
            .flat_map(|u| typed_by_phrase(&u.text))
            .collect();
        let sized: Vec<(String, u32)> = typed
            .iter()
            .filter_map(|(n, ty)| match ty {
                OperandType::Bits(w) if typed.iter().all(|(m, t)| m != n || t == ty) => Some((n.clone(), *w)),
                _ => None,
            })
            .collect();
        let mut uses: Vec<(String, FirstUses)> = Vec::new();
        for u in all.iter().filter(in_section).filter(|u| u.kind == UnitKind::Example) {
            for (name, kind) in register_uses(section, &predicates, &sized, &u.text) {
                let i = match uses.iter().position(|(n, _)| *n == name) {
                    Some(i) => i,
                    None => {
                        uses.push((name, FirstUses::default()));
                        uses.len() - 1
                    }
                };
                let first = &mut uses[i].1;
                first.all.push((u, kind));
                match kind {
                    RegisterKind::Predicate => {
                        first.predicate.get_or_insert(u);
                    }
                    RegisterKind::Data(width) => {
                        first.register.get_or_insert(u);
                        if let Some(w) = width.filter(|w| !first.widths.iter().any(|(x, _)| x == w)) {
                            first.widths.push((w, u));
                        }
                    }
                }
            }
        }
        let taken: Vec<&str> = uses.iter().map(|(n, _)| n.as_str()).collect();
        let fragments = fragments_of_forms(section, &modelled);
        for (name, first) in uses.iter().filter(|(n, _)| !fragments.contains(n)) {
            let lower = name.to_ascii_lowercase();
            if let (Some(p), Some(r)) = (first.predicate, first.register) {
                let data = |k: RegisterKind| matches!(k, RegisterKind::Data(_));
                let width = first.all.iter().find_map(|(_, k)| match k {
                    RegisterKind::Data(w) => *w,
                    RegisterKind::Predicate => None,
                });
                out.push(clash(
                    section,
                    format!("predicate-register-{lower}"),
                    r,
                    format!(
                        "the examples use `{name}` as a predicate in `{}` and as a register in `{}`",
                        p.text, r.text
                    ),
                    format!("{}:{}: `{name}` a predicate; {}:{}: `{name}` a register", p.file, p.line, r.file, r.line),
                    renamed(section, &first.all, name, &fresh_name(name, width, &taken), data),
                ));
            }
            if let [(w0, u0), (w1, u1), ..] = first.widths[..] {
                let other = |k: RegisterKind| matches!(k, RegisterKind::Data(Some(w)) if w == w1);
                out.push(clash(
                    section,
                    format!("register-widths-{lower}"),
                    u1,
                    format!(
                        "the examples use `{name}` as a {w0}-bit register in `{}` and as a {w1}-bit one in `{}`",
                        u0.text, u1.text
                    ),
                    format!("{}:{}: `{name}` {w0} bits; {}:{}: `{name}` {w1} bits", u0.file, u0.line, u1.file, u1.line),
                    renamed(section, &first.all, name, &fresh_name(name, Some(w1), &taken), other),
                ));
            }
        }
    }
    out
}

/// The Syntax's operand names that a section without a model writes in
/// examples that declare no register: each line is then one of the
/// Syntax's forms filled in, read alone (atom's `d`, 32 bits in one form and
/// 64 in another), not a line of one program. A modelled section's
/// examples are assembled as one program by the examples pass, and keep
/// the check.
fn fragments_of_forms(section: &Section, modelled: &[String]) -> Vec<String> {
    let declares = |b: &super::document::Block| b.code().any(|l| l.text.trim_start().starts_with(".reg"));
    if modelled.contains(&section.number) || section.block(BlockKind::Examples).is_none_or(declares) {
        return Vec::new();
    }
    let Some(syntax) = section.block(BlockKind::Syntax) else { return Vec::new() };
    syntax
        .code()
        .filter_map(|l| {
            l.text.split("//").next()?.trim().split_once(char::is_whitespace).map(|(_, ops)| ops.to_string())
        })
        .flat_map(|ops| {
            ops.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map(str::to_string).collect::<Vec<_>>()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// The finding of a name the examples use two ways (`what`: its kind and
/// name), at the example of the second use, with the fix.
fn clash(section: &Section, what: String, second: &Unit, summary: String, at: String, repairs: Vec<Repair>) -> Finding {
    let mut f = Finding::of_text(
        format!("text-names-{}-{what}", section.number),
        section.number.clone(),
        FindingKind::Name,
        second.text.clone(),
        summary,
        vec![at, ONE_PROGRAM.to_string()],
    );
    f.repairs = repairs;
    f
}

/// A name for the second kind of a name the examples use two ways: the
/// name with the register's width (`xi` → `xi64`), else with `r`, and a
/// number after it where the examples use that too.
fn fresh_name(name: &str, width: Option<u32>, taken: &[&str]) -> String {
    let sep = if name.ends_with(|c: char| c.is_ascii_digit()) { "_" } else { "" };
    let base = width.map_or(format!("{name}{sep}r"), |w| format!("{name}{sep}{w}"));
    let free = |n: &String| !taken.contains(&n.as_str());
    std::iter::once(base.clone()).chain((2..).map(|i| format!("{base}_{i}"))).find(free).unwrap_or(base)
}

/// The fix of a name used two ways: on every example that uses it in the
/// way `chosen` picks, the name renamed in the operands (never in the
/// mnemonic or the guard).
fn renamed(
    section: &Section,
    all: &[(&Unit, RegisterKind)],
    name: &str,
    fresh: &str,
    chosen: impl Fn(RegisterKind) -> bool,
) -> Vec<Repair> {
    let mut out: Vec<Repair> = Vec::new();
    for (u, _) in all.iter().filter(|(_, k)| chosen(*k)) {
        if out.iter().any(|r| r.line == u.line) {
            continue;
        }
        // The line as written: its guard and mnemonic kept, the name
        // renamed in its operands.
        let (code, end) = example_line(section, u);
        let new = format!("{}{}", &code[..end], rename_word(&code[end..], name, fresh));
        if new != code {
            out.push(Repair { line: u.line, old: code.to_string(), new });
        }
    }
    out
}

/// `text` with every whole word `name` (letters, digits, `_`) written `to`.
fn rename_word(text: &str, name: &str, to: &str) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| word(c)) {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        out.push_str(if &rest[..end] == name { to } else { &rest[..end] });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Why a name of two kinds in a section's examples is a defect.
const ONE_PROGRAM: &str = "Assembled as one program, with each register declared once, the examples cannot give one \
                           name both kinds; a reader who takes them together cannot either.";

/// The ids of the units the pass reads: each example written after a
/// Syntax line of its section, and each Syntax line read as a template or
/// a type relation.
pub fn read_units(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for u in units(doc).into_iter().filter(|u| !u.section.contains('@')) {
        let Some(section) = doc.section(u.base_section()) else { continue };
        let read = match u.kind {
            UnitKind::Example => example_parts(&u.text).is_some_and(|(m, written)| {
                template_of(&templates(section), &set_names(section), &m, written.len()).is_some()
            }),
            UnitKind::Syntax => {
                let statement = u.text.trim().trim_end_matches(';');
                template(statement).is_some() || relations(section).iter().any(|r| r.text == u.text.trim())
            }
            _ => false,
        };
        if read {
            out.push(u.id);
        }
    }
    out
}

/// Every name a Syntax block gives a set of values (`.type`, both of
/// `.atype = .btype = {...}`).
fn all_set_names(section: &Section) -> Vec<String> {
    // The name is the last word before each `=`: a Syntax whose sets end
    // without `;` runs one set's values into the next set's name.
    let names = |s: &String| {
        let parts: Vec<&str> = s.split('=').collect();
        parts[..parts.len() - 1]
            .iter()
            .filter_map(|p| p.split_whitespace().last().map(str::to_string))
            .collect::<Vec<_>>()
    };
    statements(section).iter().filter(|s| s.contains('=')).flat_map(names).collect()
}

/// The dotted words of a section's Syntax block (`.ftz`, `.type`, `.u32`).
fn syntax_words(section: &Section) -> Vec<String> {
    let mut out = Vec::new();
    for s in statements(section) {
        for piece in s.split('.').skip(1) {
            let word: String = piece.chars().take_while(char::is_ascii_alphanumeric).collect();
            if !word.is_empty() && !out.contains(&format!(".{word}")) {
                out.push(format!(".{word}"));
            }
        }
    }
    out
}

/// Each code span of a section's prose that writes one of its instructions
/// with a placeholder another section's Syntax names and its own never
/// writes: one finding per span, with the edit to the section's own name
/// where its Syntax has one of that kind (a type's, for a `...type`).
fn foreign_placeholders(doc: &Document, all: &[Unit]) -> Vec<Finding> {
    let sections: Vec<(&Section, Vec<String>)> = doc.first_renderings().map(|s| (s, all_set_names(s))).collect();
    let mut out = Vec::new();
    for (section, own_sets) in &sections {
        let opcodes: Vec<String> = templates(section).into_iter().map(|t| t.opcode).collect();
        if opcodes.is_empty() {
            continue;
        }
        let own = syntax_words(section);
        // The nearest section that names the set: one of the same chapter
        // before one of another.
        let near = |o: &Section| o.number.split('.').zip(section.number.split('.')).take_while(|(a, b)| a == b).count();
        let elsewhere = |w: &String| {
            let mut others: Vec<&Section> = sections
                .iter()
                .filter(|(o, sets)| o.number != section.number && sets.contains(w))
                .map(|(o, _)| *o)
                .collect();
            others.sort_by_key(|o| std::cmp::Reverse(near(o)));
            others.first().copied()
        };
        let prose = |u: &&Unit| {
            u.base_section() == section.number
                && !u.section.contains('@')
                && matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem)
        };
        let mut seen = 0;
        for u in all.iter().filter(prose) {
            for span in u.text.split('`').skip(1).step_by(2) {
                let Some((opcode, _)) = span.split_once('.') else { continue };
                // A form of the instruction (`setp.dtype.f64`), or a
                // placeholder alone (`.atype`), which the prose gives the
                // instruction.
                let alone = opcode.is_empty() && span[1..].chars().all(|c| c.is_ascii_alphanumeric());
                if !(alone || opcodes.iter().any(|o| o == opcode)) || span.contains(char::is_whitespace) {
                    continue;
                }
                let opcode = if alone { opcodes[0].as_str() } else { opcode };
                for word in span.split('.').skip(1).map(|w| format!(".{w}")) {
                    let Some(other) = elsewhere(&word).filter(|_| !own.contains(&word)) else { continue };
                    seen += 1;
                    let kind_of = |n: &String| word.ends_with("type") && n.ends_with("type");
                    let instead: Vec<&String> = own_sets.iter().filter(|n| kind_of(n)).collect();
                    let names = own_sets.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
                    let bare = word.trim_start_matches('.');
                    let mut f = Finding::of_text(
                        format!("text-names-{}-form-{bare}-{seen}", section.number),
                        section.number.clone(),
                        FindingKind::Name,
                        span.to_string(),
                        format!(
                            "the prose {} `{word}`, a name {opcode}'s Syntax never writes (its sets are {names}; \
                             `{word}` is {}'s)",
                            if alone { "names".to_string() } else { format!("writes {opcode} with") },
                            other.opcode().unwrap_or(&other.number)
                        ),
                        vec![format!(
                            "At {}:{}: `{span}`. A reader who looks `{word}` up in this section's Syntax finds \
                             nothing, and in section {} finds another instruction's operand.",
                            u.file, u.line, other.number
                        )],
                    );
                    // `setp.dtype.f64` writes its type already: the name goes;
                    // else it becomes the section's own name of its kind.
                    let without = span.replacen(&word, "", 1);
                    let typed = without.split('.').skip(1).any(|q| super::captions::type_word(q).is_some());
                    // A placeholder alone where the section has several of
                    // its kind, one a form (`.atype`, `.btype`): the names,
                    // as the prose means whichever the form writes.
                    let new = match &instead[..] {
                        _ if word.ends_with("type") && typed => Some(without),
                        [name] => Some(span.replacen(&word, name, 1)),
                        [_, _, ..] if alone => {
                            let names: Vec<String> = instead.iter().map(|n| format!("`{n}`")).collect();
                            Some(super::and_list(&names).replace(" and ", " or "))
                        }
                        _ => None,
                    };
                    // The replacement of a name alone takes its code marks.
                    let (old, new) = match new {
                        Some(n) if alone && instead.len() > 1 => (format!("`{span}`"), Some(n)),
                        n => (span.to_string(), n),
                    };
                    if let (Some(new), Some(line)) = (new, section.all_lines().find(|l| l.text.contains(&old))) {
                        f.repairs = vec![Repair { line: line.number, old, new }];
                    }
                    out.push(f);
                }
            }
        }
    }
    out
}

/// The words a section's Syntax writes as operands, in order: the runs
/// of letters, digits, `_` and `-` after each instruction's opcode and
/// qualifiers that no `.` or `:` starts (`d`, `a`, `immOff` of
/// `[a+immOff]`, `cache-policy`). Read line by line, so that a form whose
/// operands stand on the line below its mnemonic counts; the lines of a
/// set's definition are not forms.
pub(super) fn operand_words(section: &Section) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Some(block) = section.block(BlockKind::Syntax) else { return out };
    let mut in_set = false;
    for line in block.code() {
        let code = line.text.split("//").next().unwrap_or_default().trim();
        if in_set {
            in_set = !code.contains('}');
            continue;
        }
        if code.contains('=') {
            in_set = code.contains('{') && !code.contains('}');
            continue;
        }
        // The mnemonic of a form: its first word, dotted or braced.
        let rest = match code.split_once(char::is_whitespace) {
            Some((head, rest)) if head.contains(['.', '{']) => rest,
            None if code.contains(['.', '{']) => "",
            _ => code,
        };
        for w in code_words(rest) {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The words of a piece of code that no `.` or `:` starts.
fn code_words(code: &str) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut out = Vec::new();
    let mut before = ' ';
    let mut current = String::new();
    for c in code.chars().chain([' ']) {
        if word(c) {
            current.push(c);
            continue;
        }
        if !current.is_empty() {
            let w = current.trim_matches('-').to_string();
            if !matches!(before, '.' | ':') && w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                out.push(w);
            }
            current.clear();
        }
        before = c;
    }
    out
}

/// The code spans a sentence calls operands: a list of them after
/// "operand" (`` operands `a` and `b` ``) or before it (`` its `mbarrier`
/// operand ``), each a plain name.
fn called_operands(text: &str) -> Vec<String> {
    let pieces: Vec<&str> = text.split('`').collect();
    let mut out = Vec::new();
    let joins = |t: &str| matches!(t.trim(), "," | "and" | ", and" | "or" | ", or" | "");
    let mut i = 1;
    while i < pieces.len() {
        // A list: spans joined by `,`, `and` or `or` alone.
        let mut j = i;
        while j + 2 < pieces.len() && joins(pieces[j + 1]) {
            j += 2;
        }
        let before = pieces[i - 1].trim_end().to_lowercase();
        let after = pieces.get(j + 1).map_or(String::new(), |t| t.trim_start().to_lowercase());
        let ends = |w: &str| before.ends_with(w) && !before[..before.len() - w.len()].ends_with(char::is_alphanumeric);
        let called = ends("operand") || ends("operands") || after.starts_with("operand");
        if called {
            for span in pieces[i..=j].iter().step_by(2) {
                let plain = span.starts_with(|c: char| c.is_ascii_alphabetic())
                    && span.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if plain && !out.contains(&span.to_string()) {
                    out.push(span.to_string());
                }
            }
        }
        i = j + 2;
    }
    out
}

/// Each name a section's prose calls an operand that its Syntax never
/// writes: st's "Operand `d`", copied from ld, where st's operands are
/// `a` and `b`. One finding per name, with every sentence that writes it;
/// the edit, where one operand's name begins the other (`mbarrier` for
/// `mbar`), renames it.
fn unknown_operands(doc: &Document, all: &[Unit]) -> Vec<Finding> {
    let mut out = Vec::new();
    for section in doc.first_renderings() {
        let operands = operand_words(section);
        if operands.is_empty() {
            continue;
        }
        // Any word of the block, comments included, is a name it knows.
        let block: Vec<String> = section
            .block(BlockKind::Syntax)
            .map(|b| b.code().flat_map(|l| code_words(&l.text)).collect())
            .unwrap_or_default();
        let mut found: Vec<(String, Vec<&Unit>)> = Vec::new();
        for u in all.iter().filter(|u| {
            u.base_section() == section.number
                && !u.section.contains('@')
                && matches!(u.kind, UnitKind::Sentence | UnitKind::ListItem)
        }) {
            for name in called_operands(&u.text) {
                if block.contains(&name) {
                    continue;
                }
                match found.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, at)) => at.push(u),
                    None => found.push((name, vec![u])),
                }
            }
        }
        let opcode = section.opcode().unwrap_or(&section.number).to_string();
        let list = operands.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>();
        for (name, at) in found {
            let mut f = Finding::of_text(
                format!("text-names-{}-operand-{}", section.number, name.to_lowercase()),
                section.number.clone(),
                FindingKind::Name,
                name.clone(),
                format!(
                    "the prose calls `{name}` an operand, and no Syntax form of {opcode} writes it (its operands are {})",
                    super::and_list(&list)
                ),
                at.iter()
                    .map(|u| {
                        format!(
                            "At {}:{}: `{name}`. A reader who looks for it among the operands finds none.",
                            u.file, u.line
                        )
                    })
                    .collect(),
            );
            // One operand whose name begins the other's: the one meant.
            let near: Vec<&String> = operands
                .iter()
                .filter(|o| o.len() >= 3 && name.len() >= 3 && (name.starts_with(o.as_str()) || o.starts_with(&name)))
                .collect();
            if let [meant] = near[..] {
                let old = format!("`{name}`");
                f.repairs = section
                    .all_lines()
                    .filter(|l| l.text.contains(&old) && at.iter().any(|u| u.text.contains(&old)))
                    .filter(|l| called_operands(&l.text).contains(&name))
                    .map(|l| Repair { line: l.number, old: old.clone(), new: format!("`{meant}`") })
                    .collect();
            }
            out.push(f);
        }
    }
    out
}

/// Each set a section's Syntax defines (`.sem = { .relaxed, .release }`)
/// that no form and no other set writes: a name with no place, whose
/// values the forms spell out or leave out. The edit drops the definition
/// where it is a line of its own.
fn unused_sets(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for section in doc.first_renderings() {
        let statements = statements(section);
        if operand_words(section).is_empty() {
            continue;
        }
        for name in all_set_names(section) {
            // Written where a word of its own ends: `.sem` in `st.sem.scope`
            // and `{.sem}`, not in `.semantics`.
            let writes = |s: &String| {
                let uses = s.match_indices(name.as_str()).filter(|(at, _)| {
                    let next = s[at + name.len()..].chars().next();
                    !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                });
                // A definition writes its own name before its `=`.
                let own = s.split('=').next().is_some_and(|lhs| lhs.split_whitespace().any(|w| w == name));
                uses.count() > usize::from(own)
            };
            if statements.iter().any(writes) {
                continue;
            }
            let Some(line) = section.block(BlockKind::Syntax).and_then(|b| {
                b.code().find(|l| l.text.split('=').next().is_some_and(|lhs| lhs.split_whitespace().any(|w| w == name)))
            }) else {
                continue;
            };
            let mut f = Finding::of_text(
                format!("text-names-{}-unused-set-{}", section.number, name.trim_start_matches('.')),
                section.number.clone(),
                FindingKind::Name,
                name.clone(),
                format!("the Syntax defines `{name}`, and no form writes it: the set has no place in the instruction"),
                vec![format!(
                    "At {}:{}: `{}`. No Syntax line of the section writes `{name}`, so a reader cannot tell where                      its values go, or whether a form is missing.",
                    section.file,
                    line.number,
                    line.text.trim()
                )],
            );
            // A line that defines this set alone goes.
            let alone = line.text.matches('=').count() == 1 && line.text.contains('}');
            if alone {
                f.repairs = vec![Repair { line: line.number, old: line.text.clone(), new: String::new() }];
            }
            out.push(f);
        }
    }
    out
}

/// The dotted names of a piece of text: `.completion_mechanism`,
/// `.shared::cta`, `.completion-mechanism`, each with its byte offset.
fn dotted_names(text: &str) -> Vec<(usize, &str)> {
    let part = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':');
    let mut out = Vec::new();
    for (at, _) in text.match_indices('.') {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &text[at + 1..];
        let len = rest.find(|c: char| !part(c)).unwrap_or(rest.len());
        let name = rest[..len].trim_end_matches(['-', ':']);
        if name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.push((at, &text[at..at + 1 + name.len()]));
        }
    }
    out
}

/// Each dotted name of a section's prose or tables that differs from a
/// name of its Syntax only by `-` for `_` (a table's `.completion-mechanism`
/// where the Syntax writes `.completion_mechanism`): one finding per
/// spelling, with the edit to the Syntax's on every line that writes it.
fn hyphen_for_underscore(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for section in doc.first_renderings() {
        let Some(syntax) = section.block(BlockKind::Syntax) else { continue };
        let names: Vec<&str> = syntax.code().flat_map(|l| dotted_names(&l.text)).map(|(_, n)| n).collect();
        let mut found: Vec<(String, &str, Vec<&super::document::Line>)> = Vec::new();
        for line in section.all_lines().filter(|l| !l.code) {
            for (_, written) in dotted_names(&line.text) {
                if !written.contains('-') || names.contains(&written) {
                    continue;
                }
                let Some(meant) = names.iter().find(|n| n.replace('-', "_") == written.replace('-', "_")) else {
                    continue;
                };
                match found.iter_mut().find(|(w, _, _)| w == written) {
                    Some((_, _, lines)) if !lines.iter().any(|l| l.number == line.number) => lines.push(line),
                    Some(_) => {}
                    None => found.push((written.to_string(), meant, vec![line])),
                }
            }
        }
        for (written, meant, lines) in found {
            let mut f = Finding::of_text(
                format!("text-names-{}-spelled-{}", section.number, written.trim_start_matches('.').replace("::", "-")),
                section.number.clone(),
                FindingKind::Name,
                written.clone(),
                format!("the text writes `{written}`, a name the Syntax spells `{meant}`"),
                lines
                    .iter()
                    .map(|l| {
                        format!(
                            "At {}:{}: `{written}`. A reader who looks it up in the Syntax finds `{meant}`, and \
                             must guess that the two are one name.",
                            section.file, l.number
                        )
                    })
                    .collect(),
            );
            f.repairs =
                lines.iter().map(|l| Repair { line: l.number, old: written.clone(), new: meant.to_string() }).collect();
            out.push(f);
        }
    }
    out
}

/// Whether two names are one slip apart: one letter changed, added or
/// dropped.
fn one_slip(a: &str, b: &str) -> bool {
    super::directives::distance(a, b) == 1
}

/// Each branch of a code block (`bra try_wait loop;`) to a label the block
/// never defines, where a label it does define is the target with its
/// spaces written `_`, or one slip from it (`try_wait_loop:`): the example
/// does not assemble. The fix writes the label.
fn branch_targets(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in doc.first_renderings() {
        for block in &s.blocks {
            let code: Vec<&super::document::Line> = block.code().collect();
            let labels: Vec<&str> = code
                .iter()
                .filter_map(|l| l.text.trim().split_once(':').map(|(name, _)| name))
                .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                .collect();
            for l in &code {
                let body = crate::ptx::parse::without_guard(l.text.split("//").next().unwrap_or_default()).trim();
                let Some((mnemonic, rest)) = body.split_once(char::is_whitespace) else { continue };
                if mnemonic != "bra" && !mnemonic.starts_with("bra.") {
                    continue;
                }
                let target = rest.trim().trim_end_matches(';').trim();
                if target.is_empty() || labels.contains(&target) {
                    continue;
                }
                let joined = target.split_whitespace().collect::<Vec<_>>().join("_");
                let meant: Vec<&&str> =
                    labels.iter().filter(|n| **n == joined || (!target.contains(' ') && one_slip(n, target))).collect();
                let [label] = meant[..] else { continue };
                let mut f = Finding::of_text(
                    format!("text-names-{}-branch-{}", s.number, l.number),
                    s.number.clone(),
                    FindingKind::ExampleSyntax,
                    body.to_string(),
                    format!("`{body}` branches to `{target}`, which the block never defines; its label is `{label}`"),
                    vec![format!(
                        "At {}:{}: the block defines the label `{label}:` and no `{target}`; as written the \
                         example does not assemble.",
                        s.file, l.number
                    )],
                );
                f.repairs = vec![Repair { line: l.number, old: target.to_string(), new: label.to_string() }];
                out.push(f);
            }
        }
    }
    out
}

/// The names pass over a document: example roles, type relations,
/// operands whose type the text never gives, names the examples use as
/// registers of two kinds (a predicate and data, or two widths), and
/// placeholders of another instruction in the prose's forms.
/// Nouns that name an operand before its name (`operand `c``).
const OPERAND_NOUNS: [&str; 6] = ["operand", "operands", "destination", "source", "register", "argument"];

/// Words that may follow a name the article `a` could also be: after
/// `operand a`, only these make `a` the operand (`operand a is`, `operand
/// a using`), where any other word makes it an article (`operand a 32-bit
/// value`).
const AFTER_A_NAME: [&str; 16] = [
    "is",
    "at",
    "in",
    "to",
    "and",
    "or",
    "with",
    "of",
    "must",
    "may",
    "using",
    "holds",
    "has",
    "are",
    "specifies",
    "contains",
];

/// An operand's name written in prose without code marks (`named by
/// operand a`, `Operand offset has`), where the document sets operand
/// names in code. One finding per line; the fix sets each name in code.
fn uncoded_operands(s: &Section, modelled: &[String]) -> Vec<Finding> {
    let names = operand_words(s);
    let mut out = Vec::new();
    // A modelled section's operands are the catalogue's, read by the
    // wording pass (`bare-operand`).
    if modelled.contains(&s.number) {
        return out;
    }
    for l in s.all_lines().filter(|l| !l.code) {
        let plain = super::punctuation::prose_only(&l.text);
        let words: Vec<(usize, &str)> = plain
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(|w| (w.as_ptr() as usize - plain.as_ptr() as usize, w))
            .collect();
        let mut hits: Vec<(usize, &str)> = Vec::new();
        for k in 1..words.len() {
            let (at, word) = words[k];
            let (before_at, before) = words[k - 1];
            // The noun right before the name, with only a space between.
            let adjacent = plain[before_at + before.len()..at].chars().all(|c| c == ' ');
            if !adjacent || !OPERAND_NOUNS.contains(&before.to_lowercase().as_str()) || !names.iter().any(|n| n == word)
            {
                continue;
            }
            // A longer name may be an English word (`destination value`):
            // only `operand` before it makes it a name.
            if word.len() > 1 && !before.to_lowercase().starts_with("operand") {
                continue;
            }
            let after = &plain[at + word.len()..];
            let next = words.get(k + 1).map(|(_, w)| *w);
            let punctuated = after.starts_with([',', '.', ';', ')']) || after.trim().is_empty();
            if word == "a" && !(punctuated || next.is_some_and(|n| AFTER_A_NAME.contains(&n))) {
                continue;
            }
            hits.push((at, word));
        }
        let Some(&(_, name)) = hits.first() else { continue };
        let mut f = Finding::of_text(
            {
                let id = format!("text-names-{}-uncoded-{}", s.number, name.to_lowercase());
                let n = out.iter().filter(|f: &&Finding| f.id == id || f.id.starts_with(&format!("{id}-"))).count();
                if n == 0 {
                    id
                } else {
                    format!("{id}-{}", n + 1)
                }
            },
            s.number.clone(),
            FindingKind::Grammar,
            name.to_string(),
            format!(
                "the operand `{name}` is named in prose without code marks, where the document sets operand names in code"
            ),
            vec![format!("{}:{}: \"{}\".", s.file, l.number, l.text.trim())],
        );
        let spans: Vec<(usize, usize)> = hits.iter().map(|(at, w)| (*at, at + w.len())).collect();
        f.repairs = vec![super::wording::in_code_marks(l, &spans)];
        out.push(f);
    }
    out
}

pub fn check(doc: &Document) -> Vec<Finding> {
    let all = units(doc);
    let mut out = example_roles(doc, &all);
    out.extend(type_relations(doc, &all));
    out.extend(unstated_types(doc));
    out.extend(register_kinds(doc, &all));
    out.extend(foreign_placeholders(doc, &all));
    out.extend(unknown_operands(doc, &all));
    out.extend(unused_sets(doc));
    out.extend(hyphen_for_underscore(doc));
    out.extend(branch_targets(doc));
    let modelled = super::modelled_sections();
    out.extend(super::each_section(doc, |s| uncoded_operands(s, &modelled)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse;

    fn section(syntax: &str, examples: &str) -> Document {
        let text = format!(
            "#### 9.7.1.23. Integer Arithmetic Instructions: `dp4a`\n\n`dp4a`\n\nDot product.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nDescription\n\nFour-way dot product.\n\nSemantics\n\n```\nd = c;\n```\n\n\
             PTX ISA Notes\n\nIntroduced in PTX ISA version 5.0.\n\nTarget ISA Notes\n\nRequires sm_61 or higher.\n\n\
             Examples\n\n```\n{examples}\n```\n"
        );
        Document { sections: parse("made.md", text.as_bytes()).unwrap() }
    }

    #[test]
    fn an_operand_named_in_prose_without_code_marks_is_found() {
        let text = "#### 9.7.10.3. Texture Instructions: `tex`\n\n`tex`\n\nLoad.\n\nSyntax\n\n```\n\
                    tex.2d.v4.s32 d, [a, c], offset;\n```\n\nDescription\n\nLoads from the texture named by \
                    operand a at the coordinates of operand c. Operand offset has type `.s32`.\n\nIt reads operand \
                    a 32-bit value, as destination `d` and operand `c` say.\n";
        let doc = Document { sections: parse("made.md", text.as_bytes()).unwrap() };
        let got: Vec<(String, String)> = super::uncoded_operands(&doc.sections[0], &[])
            .into_iter()
            .flat_map(|f| f.repairs)
            .map(|r| (r.old, r.new))
            .collect();
        assert_eq!(
            got,
            [(
                "a at the coordinates of operand c. Operand offset".to_string(),
                "`a` at the coordinates of operand `c`. Operand `offset`".to_string()
            )]
        );
    }

    #[test]
    fn syntax_lines_are_read_as_templates_and_relations() {
        let doc = section(
            "dp4a.atype.btype  d, a, b, c;\nshfl.mode.b32 d[|p], a, b, c;\n\n.atype = .btype = { .u32, .s32 };",
            "",
        );
        let s = &doc.sections[0];
        let ts = templates(s);
        assert_eq!(ts[0].qualifiers, [".atype", ".btype"]);
        assert_eq!(ts[1].operands[0], ["d", "p"]);
        let rs = relations(s);
        assert_eq!(rs.len(), 1);
        assert_eq!(
            (rs[0].names.as_slice(), rs[0].values.as_slice()),
            (&[".atype".to_string(), ".btype".to_string()][..], &[".u32".to_string(), ".s32".to_string()][..])
        );
    }

    #[test]
    fn definitions_end_at_their_brace_however_they_are_spaced() {
        // Aligned definitions without `;` are two statements.
        let doc = section("add.dtype.atype d, a, b;\n.dtype =   { .u32 }\n.atype =   { .u16 }", "");
        assert_eq!(statements(&doc.sections[0]), ["add.dtype.atype d, a, b", ".dtype = { .u32 }", ".atype = { .u16 }"]);
        // A definition closed with `;` on its own line leaves the next
        // template, which runs on after `{.level}`, whole.
        let doc =
            section("cp.dst.src{.level}\n    [dstMem], [srcMem];\n.op = { .min, .max };\ncp.dst{.level}\n    [d];", "");
        assert_eq!(
            statements(&doc.sections[0]),
            ["cp.dst.src{.level} [dstMem], [srcMem]", ".op = { .min, .max }", "cp.dst{.level} [d]"]
        );
    }

    #[test]
    fn an_example_that_moves_a_syntax_name_is_a_finding() {
        let doc = section(
            "dp4a.atype.btype d, a, b, c;\n.atype = { .u32 };",
            "dp4a.u32.u32 c, a, b, d;\ndp4a.u32.u32 d, a, b, d;\n@p dp4a.u32.u32 x, y, z, w;",
        );
        let found = check(&doc);
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        // The accumulating `d, a, b, d` writes d in its own place too.
        assert_eq!(ids, ["text-names-9.7.1.23-examples-example-1-c"]);
        assert!(found[0].summary.contains("writes `c` as the first operand, `d`'s place"), "{}", found[0].summary);
        assert!(found[0].summary.contains("gives `c` the fourth place"), "{}", found[0].summary);
        // The fix writes the Syntax's names in their places.
        let r = &found[0].repairs[0];
        assert_eq!((r.old.as_str(), r.new.as_str()), ("dp4a.u32.u32 c, a, b, d;", "dp4a.u32.u32 d, a, b, c;"));
        // The edit is of the line as written, its spaces kept.
        let doc = section("dp4a.atype.btype d, a, b, c;\n.atype = { .u32 };", "dp4a.u32.u32  c,a,b,  d;");
        let r = &check(&doc)[0].repairs[0];
        assert_eq!((r.old.as_str(), r.new.as_str()), ("dp4a.u32.u32  c,a,b,  d;", "dp4a.u32.u32  d, a, b, c;"));
    }

    #[test]
    fn a_form_in_the_prose_with_another_instructions_placeholder_is_found() {
        let section = |number: &str, name: &str, syntax: &str, notes: &str| {
            format!(
                "#### {number}. Comparison and Selection Instructions: `{name}`\n\n`{name}`\n\nCompare.\n\n\
                 Syntax\n\n```\n{syntax}\n```\n\nDescription\n\nCompares.\n\nSemantics\n\n```\nd = a;\n```\n\n\
                 Notes\n\n{notes}\n\nPTX ISA Notes\n\nIntroduced in PTX ISA version 1.0.\n\n\
                 Target ISA Notes\n\nSupported on all target architectures.\n\nExamples\n\n```\n{name}.eq.u32 p, a, b;\n```\n"
            )
        };
        let text =
            section("9.7.6.1", "set", "set.CmpOp.dtype.stype d, a, b;\n.dtype = { .u32 };", "`set.dtype.f64` is.")
                + &section(
                    "9.7.6.2",
                    "setp",
                    "setp.CmpOp.type p, a, b;\n.type = { .u32 };",
                    "`setp.dtype.f64` flushes. `setp.type` and `setp.mode` are fine.",
                );
        let doc = Document { sections: parse("made.md", text.as_bytes()).unwrap() };
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("-form-")).collect();
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        // set's own `.dtype` is no finding; setp's is, and `.mode` is no
        // section's set.
        assert_eq!(ids, ["text-names-9.7.6.2-form-dtype-1"]);
        assert!(found[0].summary.contains("`.dtype` is set's"), "{}", found[0].summary);
        let repair = found[0].repairs.first().expect("an edit");
        assert_eq!((repair.old.as_str(), repair.new.as_str()), ("setp.dtype.f64", "setp.f64"));
        // Without a type in the span, the name becomes setp's own.
        let bare = text.replace("`setp.dtype.f64`", "`setp.dtype`");
        let doc = Document { sections: parse("made.md", bare.as_bytes()).unwrap() };
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("-form-")).collect();
        assert_eq!(found[0].repairs.first().map(|r| r.new.as_str()), Some("setp.type"));
        // A placeholder alone in the prose is the instruction's: another
        // section's is found, the nearest named, and the section's own
        // name of its kind is the edit.
        let alone = text.replace("`setp.dtype.f64`", "from `.dtype` to")
            + &section("9.8.1", "cvt", "cvt.dtype.atype d, a;\n.dtype = { .u32 };\n.atype = { .u8 }", "Nothing.");
        let doc = Document { sections: parse("made.md", alone.as_bytes()).unwrap() };
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("-form-")).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].summary.starts_with("the prose names `.dtype`, a name setp's"), "{}", found[0].summary);
        assert!(found[0].summary.ends_with("`.dtype` is set's)"), "{}", found[0].summary);
        assert_eq!(found[0].repairs.first().map(|r| r.new.as_str()), Some(".type"));
        // The set names of a Syntax whose sets end without `;`.
        let runs = parse("made.md", alone.as_bytes()).unwrap();
        assert_eq!(all_set_names(&runs[2]), [".dtype", ".atype"]);
        assert_eq!(statements(&runs[2]), ["cvt.dtype.atype d, a", ".dtype = { .u32 }", ".atype = { .u8 }"]);
        // Where the section has several names of the kind, one a line, the
        // edit names them all: the prose means whichever the form writes.
        let several = alone.replace(
            "setp.CmpOp.type p, a, b;\n.type = { .u32 };",
            "setp.CmpOp.atype p, a, b;\nsetp.CmpOp.btype p, a, b;\n.atype = { .u32 }\n.btype = { .s32 }",
        );
        let doc = Document { sections: parse("made.md", several.as_bytes()).unwrap() };
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("-form-")).collect();
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("`.dtype`", "`.atype` or `.btype`")]);
    }

    #[test]
    fn noun_phrases_give_types() {
        let read = |t: &str| typed_by_phrase(t);
        assert_eq!(
            read("`d`, `a`, and `b` must be of the same type. Operand `c` is a predicate."),
            [("c".to_string(), OperandType::Pred)]
        );
        assert_eq!(
            read("a Boolean operation on `d` with the predicate `q` in the following manner"),
            [("q".to_string(), OperandType::Pred)]
        );
        assert_eq!(
            read("the 8-bit value specified by operand `immLut` as described below"),
            [("immLut".to_string(), OperandType::Bits(8))]
        );
        // A list of operands with `are`: the operands pass's shape, not this one's.
        assert!(read("Operands `b` and `c` are 32-bit values.").is_empty());
        assert!(read("Compute the product of two values.").is_empty());
    }

    #[test]
    fn a_name_used_as_a_predicate_and_as_a_register_is_found() {
        let syntax = "dp4a.atype.btype d[|p], a, b, c;\n.atype = .btype = { .u32, .s32 };";
        let doc = section(syntax, "@p dp4a.u32.u32 d, a, b, c;\ndp4a.u32.u32 r, p, q, r;");
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("predicate-register")).collect();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].id, "text-names-9.7.1.23-predicate-register-p");
        assert_eq!(
            found[0].summary,
            "the examples use `p` as a predicate in `@p dp4a.u32.u32 d, a, b, c;` and as a register in \
             `dp4a.u32.u32 r, p, q, r;`"
        );
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("dp4a.u32.u32 r, p, q, r;", "dp4a.u32.u32 r, p32, q, r;")]);
        // The guard and the mnemonic are never renamed, and the line keeps
        // its spacing.
        let guarded = section(syntax, "@p dp4a.u32.u32 d, a, b, c;\n@p  dp4a.u32.u32   r,  p, q, r;");
        let found: Vec<Finding> = check(&guarded).into_iter().filter(|f| f.id.contains("predicate-register")).collect();
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("@p  dp4a.u32.u32   r,  p, q, r;", "@p  dp4a.u32.u32   r,  p32, q, r;")]);
        // A guard and a piped predicate destination are one kind; a
        // constant and the sink are no register.
        let consistent = section(syntax, "dp4a.u32.u32 d|p, a, b, c;\n@!p dp4a.u32.u32 _, a, 1, c;");
        assert!(!check(&consistent).iter().any(|f| f.id.contains("predicate-register")));
        // A form the catalogue does not model, of an opcode whose modelled
        // forms all write a predicate there (`setp`), writes a predicate.
        let setp = section(syntax, "setp.eq.f32 p, y, 0;\n@!p dp4a.u32.u32 d, a, b, c;");
        assert!(!check(&setp).iter().any(|f| f.id.contains("predicate-register")));
        // An instruction of no section here and no modelled opcode says
        // nothing of its places.
        let other = section(syntax, "mbarrier.test_wait.b64 p, [a], s;\n@!p dp4a.u32.u32 d, a, b, c;");
        assert!(!check(&other).iter().any(|f| f.id.contains("predicate-register")));
    }

    #[test]
    fn a_truth_valued_operand_is_a_predicate_and_an_example_takes_the_line_that_names_its_qualifiers() {
        let text = "#### 9.7.1.23. Integer Arithmetic Instructions: `wait`\n\n`wait`\n\nWait.\n\nSyntax\n\n```\n\
                    wait{.sem}{.shared{::cta}}.b64 done, [addr], state;\n\
                    wait.parity{.sem}{.shared{::cta}}.b64 done, [addr], parity;\n.sem = { .acquire };\n```\n\n\
                    Description\n\nThe 64-bit operand `state` names the phase. The 32-bit operand `parity` names \
                    its parity. For a phase complete, `done` returns `True`.\n\nExamples\n\n```\n\
                    and.b32 par, i, 1;\nwait.parity.shared.b64 p, [a], par;\n@!p bra loop;\n```\n";
        let doc = Document { sections: crate::audit::text::document::parse_any("made.md", text.as_bytes()).unwrap() };
        let found: Vec<String> = check(&doc).into_iter().map(|f| f.id).collect();
        assert!(!found.iter().any(|id| id.contains("register")), "{found:?}");
        assert_eq!(crate::audit::text::truth_valued("`done` returns `True`, and `x` is `1`."), ["done"]);
    }

    #[test]
    fn a_name_used_at_two_widths_is_found() {
        let syntax = "dp4a.atype.btype d, a, b, c;\n.atype = .btype = { .u32, .s32 };";
        let doc = section(syntax, "dp4a.u32.u32 d, a, b, c;\nadd.u16 d, x, y;\nadd.u16 d, y, x;");
        let found: Vec<Finding> = check(&doc).into_iter().filter(|f| f.id.contains("register-widths")).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].id, "text-names-9.7.1.23-register-widths-d");
        assert_eq!(
            found[0].summary,
            "the examples use `d` as a 32-bit register in `dp4a.u32.u32 d, a, b, c;` and as a 16-bit one in \
             `add.u16 d, x, y;`"
        );
        // The fix renames the 16-bit uses, in their operands only.
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("add.u16 d, x, y;", "add.u16 d16, x, y;"), ("add.u16 d, y, x;", "add.u16 d16, y, x;")]);
        // A third width is not the second's: only the second is renamed.
        let three = section(syntax, "dp4a.u32.u32 d, a, b, c;\nadd.u16 d, x, y;\nadd.u64 d, y, x;");
        let found: Vec<Finding> = check(&three).into_iter().filter(|f| f.id.contains("register-widths")).collect();
        let fix: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fix, [("add.u16 d, x, y;", "add.u16 d16, x, y;")]);
        // The same width throughout, and an instruction whose registers may
        // be wider than its type, are no finding.
        let consistent = section(syntax, "dp4a.u32.u32 d, a, b, c;\nadd.u32 d, a, b;\nld.global.u16 d, [a];");
        assert!(!check(&consistent).iter().any(|f| f.id.contains("register-widths")));
    }

    /// A sentence that gives an operand a type fixes its width in every
    /// form: `d` of `match.any.sync.b64` is 32 bits, not the form's 64.
    #[test]
    fn an_operand_a_sentence_types_keeps_its_width_in_every_form() {
        assert_eq!(
            typed_by_phrase("Operand `a` has instruction type and `d` has `.b32` type."),
            [("d".to_string(), OperandType::Bits(32))]
        );
        assert_eq!(typed_by_phrase("Operand `c` has type `.pred`."), [("c".to_string(), OperandType::Pred)]);
        let text = |description: &str, declared: &str| {
            format!(
                "#### 9.7.13.10. Parallel Synchronization and Communication Instructions: `match.sync`\n\n\
                 `match.sync`\n\nMatch.\n\nSyntax\n\n```\nmatch.any.sync.type d, a, m;\n.type = {{ .b32, .b64 }};\n\
                 ```\n\nDescription\n\n{description}\n\nExamples\n\n```\n{declared}match.any.sync.b32 d, a, m;\n\
                 match.any.sync.b64 d, a, m;\n```\n"
            )
        };
        let widths = |description: &str, declared: &str| {
            let doc = Document { sections: parse("made.md", text(description, declared).as_bytes()).unwrap() };
            check(&doc).into_iter().filter(|f| f.id.contains("register-widths")).count()
        };
        let program = ".reg .b32 m;\n";
        assert_eq!(widths("Operand `d` has `.b32` type.", program), 0);
        assert_eq!(widths("Operand `a` has instruction type.", program), 1);
        // Examples that declare nothing and write the Syntax's own names
        // are its forms filled in, each read alone.
        assert_eq!(widths("Operand `a` has instruction type.", ""), 0);
    }

    #[test]
    fn the_destination_width_is_read_from_one_type_qualifier() {
        assert_eq!(destination_width("add.f32"), Some(32));
        assert_eq!(destination_width("ex2.approx.ftz.f32"), Some(32));
        assert_eq!(destination_width("mul.hi.s16"), Some(16));
        assert_eq!(destination_width("cvt.rn.f32.f16"), None);
        assert_eq!(destination_width("set.ltu.or.bf16.f16"), None);
        assert_eq!(destination_width("mul.wide.s16"), None);
        assert_eq!(destination_width("add.f16x2"), None);
        assert_eq!(destination_width("ld.global.b32"), None);
        assert_eq!(destination_width("bar.sync"), None);
    }

    /// A sentence of the section or of a group above it that says which
    /// combinations are valid settles the relation.
    #[test]
    fn a_relation_whose_combinations_a_sentence_gives_is_settled() {
        let syntax = "vadd.dtype.atype d, a;\n.dtype = .atype = { .u32, .s32 };";
        let group = |sentence: &str| {
            let text = format!(
                "#### 9.7.18.1. Scalar Video Instructions\n\n{sentence}\n\n\
                 ##### 9.7.18.1.1. Scalar Video Instructions: `vadd`\n\n`vadd`\n\nAdd.\n\n\
                 Syntax\n\n```\n{syntax}\n```\n\nDescription\n\nThe sum.\n"
            );
            let doc = Document { sections: parse("made.md", text.as_bytes()).unwrap() };
            check(&doc).into_iter().filter(|f| f.id.ends_with("type-relation")).count()
        };
        assert_eq!(group("All combinations of `dtype` and `atype` are valid."), 0);
        assert_eq!(group("The operands are registers."), 1);
    }

    #[test]
    fn a_type_relation_is_read_both_ways() {
        let doc = section(
            "dp4a.atype.btype d, a, b, c;\n.atype = .btype = { .u32, .s32 };",
            "dp4a.u32.u32 d0, a0, b0, c0;\ndp4a.u32.s32 d1, a1, b1, c1;",
        );
        let found = check(&doc);
        assert_eq!(found.len(), 1);
        let f = &found[0];
        assert_eq!(f.id, "text-names-9.7.1.23-type-relation");
        assert!(
            f.summary.contains("`dp4a.u32.s32 d1, a1, b1, c1;` is a form of the first reading only"),
            "{}",
            f.summary
        );
        assert!(
            f.detail[0].contains("(4 forms of `dp4a.atype.btype`), or they are one type written twice (2 forms)"),
            "{}",
            f.detail[0]
        );
        assert!(f.detail.iter().any(|d| d.starts_with(INDEPENDENT_ONLY)));
        assert!(f.detail.iter().any(|d| d.contains("dp4a.s32.u32")), "{:?}", f.detail);
        assert!(f.model_choice.is_some());
        assert_eq!(
            read_units(&doc),
            [
                "9.7.1.23/syntax/syntax-1",
                "9.7.1.23/syntax/syntax-2",
                "9.7.1.23/examples/example-1",
                "9.7.1.23/examples/example-2"
            ]
        );
        // Two lines, one set each, read one way.
        let fixed = section(
            "dp4a.atype.btype d, a, b, c;\n.atype = { .u32, .s32 };\n.btype = { .u32, .s32 };",
            "dp4a.u32.s32 d1, a1, b1, c1;",
        );
        assert!(check(&fixed).is_empty());
    }

    fn store_section(prose: &str, syntax: &str) -> Document {
        Document::of_markdown(&format!(
            "#### 9.7.9.11. Data Movement and Conversion Instructions: `st`\n\n`st`\n\nStore.\n\nSyntax\n\n\
             ```\n{syntax}\n```\n\nDescription\n\n{prose}\n\nExamples\n\n```\nst.global.b32 [a], r;\n```\n"
        ))
    }

    const STORE: &str = "st{.ss}.type [a], b{, cache-policy};\ncp.bulk [dst], [src], size, [mbar];\n.ss = { .global };";

    #[test]
    fn a_name_the_prose_calls_an_operand_is_one_the_syntax_writes() {
        assert_eq!(called_operands("Operand `d` is a vector."), ["d"]);
        assert_eq!(called_operands("Operands `a`, `b` and `c` are integers."), ["a", "b", "c"]);
        assert_eq!(called_operands("its `mbarrier` operand, and `x` is not"), ["mbarrier"]);
        assert!(called_operands("the `.f64` operand and the suboperand `q`").is_empty());
        let doc = store_section(
            "Operand `d` is a vector. Its `mbarrier` operand is shared. Operand `b` and `cache-policy` are registers.",
            STORE,
        );
        let found = unknown_operands(&doc, &units(&doc));
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["text-names-9.7.9.11-operand-d", "text-names-9.7.9.11-operand-mbarrier"]);
        assert!(
            found[0].summary.contains("`a`, `b`, `cache-policy`, `dst`, `src`, `size` and `mbar`"),
            "{}",
            found[0].summary
        );
        // No operand's name begins `d`'s: no edit; `mbar` begins `mbarrier`.
        assert!(found[0].repairs.is_empty());
        assert_eq!(found[1].repairs[0].new, "`mbar`");
        // A name the Syntax writes anywhere, a comment included, is known.
        let doc = store_section("Operand `d` is a vector.", &format!("{STORE}\n// d is the data"));
        assert!(unknown_operands(&doc, &units(&doc)).is_empty());
    }

    #[test]
    fn a_set_no_form_writes_is_found_and_dropped() {
        let syntax = "st{.sem}.type [a], b;\nst.relaxed.scope [a], b;\n.sem = { .relaxed, .release };\n.scope = { .cta };\n.semantics = { .x };\n.type = { .b32 };";
        let doc = store_section("Stores.", syntax);
        let found = unused_sets(&doc);
        assert_eq!(
            found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(),
            ["text-names-9.7.9.11-unused-set-semantics"]
        );
        assert_eq!(found[0].repairs[0].new, "");
        let doc = store_section("Stores.", &syntax.replace("st{.sem}", "st"));
        let ids: Vec<String> = unused_sets(&doc).into_iter().map(|f| f.id).collect();
        assert_eq!(ids, ["text-names-9.7.9.11-unused-set-sem", "text-names-9.7.9.11-unused-set-semantics"]);
    }

    #[test]
    fn a_name_spelled_with_a_hyphen_for_the_syntaxs_underscore_is_found() {
        assert_eq!(
            dotted_names("| .completion-mechanism | `.shared::cta` | x.y | 1.5 |"),
            [(2, ".completion-mechanism"), (27, ".shared::cta")]
        );
        let doc = store_section(
            "| .completion-mechanism | `.dst` |\n| --- | --- |\n| `.bulk_group` | `.global` |\n\nThe `.cp-mask` and `.bulk-group` modes.",
            "cp.dst.completion_mechanism{.cp_mask} [a], b;\n.dst = { .global };\n.completion_mechanism = { .bulk_group };",
        );
        let found = hyphen_for_underscore(&doc);
        let ids: Vec<&str> = found.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "text-names-9.7.9.11-spelled-completion-mechanism",
                "text-names-9.7.9.11-spelled-cp-mask",
                "text-names-9.7.9.11-spelled-bulk-group"
            ]
        );
        assert_eq!(found[0].repairs[0].new, ".completion_mechanism");
    }

    #[test]
    fn a_branch_to_a_label_written_otherwise_is_found() {
        assert!(one_slip("loop", "lop") && one_slip("L23", "L24") && !one_slip("L23", "L2345"));
        // A label written otherwise, one slip off, and one the block does
        // not show (`L_exit`, left alone).
        let doc = Document::of_markdown(
            "#### 9.7.13.16. Parallel Synchronization: `fence`\n\n`fence`\n\nFence.\n\nExamples\n\n\
             ```\ntry_wait_loop:\n@!p bra try_wait loop;\n@p bra.uni try_wait_lop;\nbra L_exit;\n```\n",
        );
        let found = branch_targets(&doc);
        let fixes: Vec<(String, String)> =
            found.iter().flat_map(|f| f.repairs.iter().map(|r| (r.old.clone(), r.new.clone()))).collect();
        assert_eq!(
            fixes,
            [("try_wait loop".into(), "try_wait_loop".into()), ("try_wait_lop".into(), "try_wait_loop".into())]
        );
    }
}
