//! Examples against their own section's Syntax, for the sections ptxcheck
//! does not model (a modelled section's examples are read against the
//! catalogue and the assembler). Each Syntax line is read as a sequence of
//! slots: a qualifier the line writes bare is required, one in braces
//! (`{.sat}`, `{.xorsign.abs}`) may be left out, and a name the block
//! defines as a set (`.rnd = { .rn, .rz }`) stands for one of its values;
//! a placeholder the block never defines stands for any one qualifier. An
//! example of the section's instruction whose qualifiers, in order, fit no
//! line is a finding: `add.rz.f32.bf16.sat` where the Syntax writes
//! `add{.rnd}{.sat}.f32.atype` puts `.sat` after the types.

use super::defaults::{grammar, Grammar};
use super::document::{BlockKind, Document, Line, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// One slot of a Syntax line: the qualifiers it may be, or any one where
/// the set is not defined; optional slots come from braces.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Slot {
    One(Option<Vec<String>>),
    Optional(Vec<Slot>),
}

fn slot(word: &str, g: &Grammar) -> Slot {
    let q = format!(".{}", word.trim_start_matches('.'));
    match g.sets.get(&q) {
        // `none` among a set's values is its absence (`.vec = { none, .v2,
        // .v4 }`): the slot may be left out.
        Some(values) if values.iter().any(|v| v == ".none") => {
            Slot::Optional(vec![Slot::One(Some(values.iter().filter(|v| *v != ".none").cloned().collect()))])
        }
        Some(values) => Slot::One(Some(values.clone())),
        // A placeholder never defined (`.type`, `.CmpOp` where the block
        // leaves it to the prose): any one qualifier. A literal: itself.
        None if word.chars().any(|c| c.is_ascii_uppercase()) || word.ends_with("type") => Slot::One(None),
        None => Slot::One(Some(vec![q])),
    }
}

/// Where the brace that closes an opened one stands in `inner` (the text
/// after the `{`): braces within it pair (`.shared{::cta}}`).
fn closing(inner: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    inner.len()
}

/// The qualifiers of a group, split at the dots outside braces
/// (`.sem.scope`, `.shared{::cta}`).
fn words(group: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '.' if depth == 0 => {
                out.push(group[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(group[start..].trim());
    out.retain(|w| !w.is_empty());
    out
}

/// A qualifier's slot, where one with sub-qualifiers in braces
/// (`shared{::cta}`, `shared{::cta, ::cluster}`) is itself or itself with
/// one of them.
fn with_subqualifiers(word: &str, g: &Grammar) -> Slot {
    let Some((base, subs)) = word.split_once('{') else { return slot(word, g) };
    let base = format!(".{}", base.trim_start_matches('.'));
    let subs = subs.trim_end_matches('}');
    let mut values = vec![base.clone()];
    values.extend(subs.split(',').map(|v| format!("{base}{}", v.trim())).filter(|v| *v != base));
    Slot::One(Some(values))
}

/// A word's slots, where a set whose one value is itself several
/// qualifiers (`.cp_qualifiers = { .global.shared::cta }`, whose
/// `.fence_qualifiers = { .to_proxy::from_proxy.release.scope }` names
/// sets in turn) stands for them in order, each read as a word.
fn expanded(word: &str, g: &Grammar, depth: usize) -> Vec<Slot> {
    let q = format!(".{}", word.trim_start_matches('.'));
    match g.sets.get(&q).map(Vec::as_slice) {
        Some([value]) if depth < 4 && value.matches('.').count() > 1 && !value.contains(['{', ' ']) => {
            value.split('.').filter(|p| !p.is_empty()).flat_map(|p| expanded(p, g, depth + 1)).collect()
        }
        _ => vec![slot(word, g)],
    }
}

/// The slots of a Syntax line's mnemonic after its opcode.
fn slots(mnemonic: &str, g: &Grammar) -> Vec<Slot> {
    let mut out = Vec::new();
    let mut rest = mnemonic;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('{') {
            let end = closing(inner);
            // `.{1d,2d,3d}`: a choice of values written in place, one of
            // which the form writes, not an optional group.
            if inner[..end].contains(',') && !inner[..end].contains('.') {
                let values = inner[..end].split(',').map(|v| format!(".{}", v.trim())).collect();
                out.push(Slot::One(Some(values)));
                rest = inner.get(end + 1..).unwrap_or_default();
                continue;
            }
            let group: Vec<Slot> = words(&inner[..end]).iter().map(|w| with_subqualifiers(w, g)).collect();
            out.push(Slot::Optional(group));
            rest = inner.get(end + 1..).unwrap_or_default();
        } else {
            let body = rest.trim_start_matches('.');
            let mut end = body.find(['.', '{']).unwrap_or(body.len());
            // A qualifier with its sub-qualifiers in braces
            // (`.shared{::cta}`) is one slot.
            if body[end..].starts_with("{::") {
                end += 1 + closing(&body[end + 1..]) + 1;
                out.push(with_subqualifiers(&body[..end.min(body.len())], g));
                rest = body.get(end..).unwrap_or_default();
                continue;
            }
            if end > 0 {
                out.extend(expanded(&body[..end], g, 0));
            }
            rest = &body[end..];
        }
    }
    out
}

/// Whether each definition of set `name` stands in a paragraph of the
/// Syntax block (lines between blank lines) that defines every set its own
/// lines use: then each paragraph is a grammar of its own (redux.sync's
/// `.op`, once under each form), and which lines a definition holds for is
/// plain. Where a paragraph defines the set twice, or uses a set defined in
/// another (half-precision set's `.CmpOp`, defined once for all), a reader
/// cannot tell which definitions hold for which lines.
fn scoped_by_paragraph(s: &Section, g: &Grammar, name: &str) -> bool {
    let Some(block) = s.block(BlockKind::Syntax) else { return false };
    let lines: Vec<&str> = block.code().map(|l| l.text.split("//").next().unwrap_or_default().trim()).collect();
    // A set a paragraph's list leaves out is its own finding.
    let gaps: Vec<String> = unlisted(s, g).into_iter().map(|u| u.name).collect();
    let defines = |l: &str, n: &str| defines(l, n);
    let uses_name = |p: &[&str]| {
        let head = |l: &&&str| l.split_whitespace().next().unwrap_or_default().to_string();
        p.iter().filter(|l| !l.contains('=')).any(|l| word_at(&head(&l), name).is_some())
    };
    let groups = form_groups(&lines);
    // Every paragraph whose lines use the set defines it.
    if groups.iter().any(|p| uses_name(p) && !p.iter().any(|l| defines(l, name))) {
        return false;
    }
    let paragraphs: Vec<&Vec<&str>> = groups.iter().filter(|p| p.iter().any(|l| defines(l, name))).collect();
    // Each paragraph defines the set once.
    paragraphs.iter().all(|p| p.iter().filter(|l| defines(l, name)).count() == 1)
        && paragraphs.iter().all(|p| {
            let uses = p.iter().filter(|l| !l.contains('=')).flat_map(|l| {
                g.sets.keys().filter(move |n| {
                    let head = l.split_whitespace().next().unwrap_or_default();
                    word_at(head, n).is_some()
                })
            });
            uses.into_iter().all(|n| gaps.contains(n) || p.iter().any(|l| defines(l, n)))
        })
}

/// The definitions of a set written more than once, each with the form
/// its comment gives it to (`.ctype = { .b32, .b64 }; // for sured.p`),
/// where every definition has such a comment, each naming another form:
/// the comments scope them, and a form reads the values of the definition
/// whose form its mnemonic begins with.
fn comment_scopes(s: &Section, name: &str) -> Option<Vec<(String, Vec<String>)>> {
    let block = s.block(BlockKind::Syntax)?;
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for l in block.code() {
        let (code, comment) = l.text.split_once("//").unwrap_or((&l.text, ""));
        if !defines(code, name) {
            continue;
        }
        let list = code.split_once('{')?.1.split_once('}')?.0;
        let form = comment.trim().strip_prefix("for ")?.trim().trim_matches('`').trim_end_matches('.');
        if form.is_empty() || form.contains(char::is_whitespace) || out.iter().any(|(f, _)| f == form) {
            return None;
        }
        out.push((form.to_string(), super::defaults::set_values(list)));
    }
    (out.len() > 1).then_some(out)
}

/// The grammar a Syntax line reads: each set its comments scope takes the
/// values of the definition given to the line's form.
fn scoped_grammar(s: &Section, g: &Grammar, template: &str) -> Grammar {
    let mut scoped = g.clone();
    let head = template.split_whitespace().next().unwrap_or_default();
    for name in &g.redefined {
        let Some(scopes) = comment_scopes(s, name) else { continue };
        let of = scopes.iter().find(|(form, _)| {
            head.strip_prefix(form.as_str()).is_some_and(|r| r.is_empty() || r.starts_with(['.', '{', ';']))
        });
        if let Some((_, values)) = of {
            scoped.sets.insert(name.clone(), values.clone());
        }
    }
    scoped
}

/// Whether the Syntax writes its forms in code blocks of their own, and
/// each block that uses the set defines it once: atom's scalar and vector
/// forms, each block with its own `.op`, scoped by the block it stands in.
fn scoped_by_block(s: &Section, name: &str) -> bool {
    let Some(block) = s.block(BlockKind::Syntax) else { return false };
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut open = false;
    for l in block.lines.iter().filter(|l| l.code) {
        if super::document::is_fence(&l.text) {
            open = !open;
            if open {
                blocks.push(Vec::new());
            }
        } else if let Some(b) = blocks.last_mut().filter(|_| open) {
            b.push(l.text.split("//").next().unwrap_or_default().trim());
        }
    }
    let defines = |l: &str| l.split_once('=').is_some_and(|(d, _)| d.split('=').any(|d| d.trim() == name));
    let uses = |l: &str| !l.contains('=') && word_at(l.split_whitespace().next().unwrap_or_default(), name).is_some();
    blocks.len() > 1
        && blocks.iter().all(|b| {
            let (used, defined) = (b.iter().any(|l| uses(l)), b.iter().filter(|l| defines(l)).count());
            (used && defined == 1) || (!used && defined == 0)
        })
}

/// The Syntax block's paragraphs, each paragraph of definitions alone (its
/// lines all begin with a set's name) read with the forms of the paragraph
/// before it: st.async's forms, a blank line, then their sets.
fn form_groups<'a>(lines: &[&'a str]) -> Vec<Vec<&'a str>> {
    form_group_indices(lines).into_iter().map(|g| g.into_iter().map(|i| lines[i]).collect()).collect()
}

/// [`form_groups`], each line by its index in `lines`.
pub(super) fn form_group_indices(lines: &[&str]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut paragraph: Vec<usize> = Vec::new();
    for i in 0..=lines.len() {
        if i < lines.len() && !lines[i].is_empty() {
            paragraph.push(i);
            continue;
        }
        if paragraph.is_empty() {
            continue;
        }
        let p = std::mem::take(&mut paragraph);
        let sets_only = p.iter().all(|&k| lines[k].starts_with('.'));
        match out.last_mut() {
            Some(before) if sets_only && before.iter().any(|&k| !lines[k].starts_with('.')) => before.extend(p),
            _ => out.push(p),
        }
    }
    out
}

/// Whether a Syntax line defines set `name` (`.type = {`, `.a = .b = {`).
pub(super) fn defines(line: &str, name: &str) -> bool {
    line.split_once('=').is_some_and(|(d, _)| d.split('=').any(|d| d.trim() == name))
}

/// A set one paragraph's forms write and its own list of sets leaves out,
/// where the one definition of it stands in the list of another paragraph
/// that defines sets this list also defines: each paragraph lists its own
/// forms' sets (cp.reduce.async.bulk's third form writes
/// `{.level::cache_hint}`, which only the second form's list gives). The
/// set, the line of its definition, and the last line of the list that
/// lacks it.
struct Unlisted<'a> {
    name: String,
    definition: &'a Line,
    after: &'a Line,
}

fn unlisted<'a>(s: &'a Section, g: &Grammar) -> Vec<Unlisted<'a>> {
    let Some(block) = s.block(BlockKind::Syntax) else { return Vec::new() };
    let code: Vec<&Line> = block.code().collect();
    let lines: Vec<&str> = code.iter().map(|l| l.text.split("//").next().unwrap_or_default().trim()).collect();
    let groups = form_group_indices(&lines);
    let defined_in = |p: &[usize], n: &str| p.iter().any(|&k| defines(lines[k], n));
    let mut out: Vec<Unlisted> = Vec::new();
    for p in &groups {
        let own: Vec<&String> = g.sets.keys().filter(|n| defined_in(p, n)).collect();
        if own.is_empty() {
            continue;
        }
        for name in g.sets.keys() {
            let used = p.iter().any(|&k| {
                !lines[k].contains('=') && {
                    let head = lines[k].split_whitespace().next().unwrap_or_default();
                    word_at(head, name).is_some()
                }
            });
            if !used || defined_in(p, name) {
                continue;
            }
            let mut definitions = (0..lines.len()).filter(|&k| defines(lines[k], name));
            let (Some(d), None) = (definitions.next(), definitions.next()) else { continue };
            // The paragraph, between blank lines, the definition stands in:
            // a list of one form's sets, where it defines one of this list's
            // sets too, not a list of sets every form shares (half-precision
            // set's `.CmpOp`).
            let start = lines[..d].iter().rposition(|l| l.is_empty()).map_or(0, |k| k + 1);
            let end = lines[d..].iter().position(|l| l.is_empty()).map_or(lines.len(), |k| d + k);
            let paragraph: Vec<usize> = (start..end).collect();
            let peer = own.iter().any(|n| defined_in(&paragraph, n));
            let last = p.iter().rev().find(|&&k| lines[k].starts_with('.') && lines[k].contains('}'));
            if let (true, Some(&last)) = (peer, last) {
                out.push(Unlisted { name: name.clone(), definition: code[d], after: code[last] });
            }
        }
    }
    out
}

/// Where `name` stands in `text` as a whole word: its byte offset.
fn word_at(text: &str, name: &str) -> Option<usize> {
    text.match_indices(name)
        .map(|(at, _)| at)
        .find(|&at| !text[at + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// The fix of a set defined again with other values: each definition whose
/// values no earlier one has gets a name of its own (`.dtype2`), written on
/// its definition and on the lines of its group (the lines since the
/// definition of the set before it), so that which lines a definition holds
/// for is stated by a name, not by where it stands. A definition that repeats
/// an earlier one's values takes that one's name.
fn renames(lines: &[&Line], name: &str) -> Vec<Repair> {
    let mut out = Vec::new();
    // Each distinct list of values in the order first defined, with its name.
    let mut lists: Vec<(Vec<String>, String)> = Vec::new();
    let mut group: Vec<&Line> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let l = lines[k];
        let text = l.text.split("//").next().unwrap_or_default();
        let is_definition = text.trim_start().strip_prefix(name).is_some_and(|r| r.trim_start().starts_with('='));
        if !is_definition {
            if word_at(text, name).is_some() {
                group.push(l);
            }
            k += 1;
            continue;
        }
        // The definition runs to its closing brace.
        let mut joined = text.to_string();
        while !joined.contains('}') && k + 1 < lines.len() {
            k += 1;
            joined.push(' ');
            joined.push_str(lines[k].text.split("//").next().unwrap_or_default());
        }
        // The group a definition serves is the lines before it: a block
        // that defines the set before any line uses it is laid out the
        // other way, and gets no edit.
        if lists.is_empty() && group.is_empty() {
            return Vec::new();
        }
        let list = joined.split_once('{').map_or("", |(_, r)| r.rsplit_once('}').map_or(r, |(inner, _)| inner));
        let values = super::defaults::set_values(list);
        let renamed = match lists.iter().find(|(vs, _)| *vs == values) {
            Some((_, n)) => n.clone(),
            None => {
                let n = if lists.is_empty() { name.to_string() } else { format!("{name}{}", lists.len() + 1) };
                lists.push((values, n.clone()));
                n
            }
        };
        if renamed != name {
            for g in group.iter().chain(std::iter::once(&l)) {
                if let Some(at) = word_at(&g.text, name) {
                    let after = at + name.len();
                    let end = after + g.text[after..].chars().next().map_or(0, char::len_utf8);
                    let old = g.text[at..end].to_string();
                    let new = format!("{renamed}{}", &g.text[after..end]);
                    out.push(Repair { line: g.number, old, new });
                }
            }
        }
        group.clear();
        k += 1;
    }
    // Lines after the last definition belong to none.
    if !group.is_empty() {
        return Vec::new();
    }
    out
}

/// Whether `qs` (an example's qualifiers, with dots) fit `slots` in order.
fn fits(slots: &[Slot], qs: &[String]) -> bool {
    match slots.split_first() {
        None => qs.is_empty(),
        Some((Slot::One(values), rest)) => qs.split_first().is_some_and(|(q, more)| {
            values.as_ref().is_none_or(|vs| vs.iter().any(|v| v.eq_ignore_ascii_case(q))) && fits(rest, more)
        }),
        Some((Slot::Optional(group), rest)) => {
            fits(rest, qs) || {
                let joined: Vec<Slot> = group.iter().cloned().chain(rest.iter().cloned()).collect();
                fits(&joined, qs)
            }
        }
    }
}

/// A section the catalogue does not model, with its Syntax read as
/// grammar, its Examples and its instruction: what the passes that read
/// examples against the text alone need (a modelled section's examples are
/// read against the catalogue and ptxas).
pub(super) fn unmodelled<'a>(
    s: &'a Section,
    modelled: &[String],
) -> Option<(Grammar, &'a super::document::Block, &'a str)> {
    if modelled.contains(&s.number) {
        return None;
    }
    Some((grammar(s)?, s.block(BlockKind::Examples)?, s.opcode()?))
}

/// The slots of each Syntax line that writes `opcode`, each read with the
/// sets its comments scope to it.
fn form_lines(s: &Section, g: &Grammar, opcode: &str) -> Vec<Vec<Slot>> {
    g.templates
        .iter()
        // An instruction with no operands ends its mnemonic with `;`
        // (`griddepcontrol.action;`).
        .filter_map(|t| {
            let rest = t.split_whitespace().next()?.trim_end_matches(';').strip_prefix(opcode)?;
            Some(slots(rest, &scoped_grammar(s, g, t)))
        })
        .collect()
}

/// Another section's instruction, read as its Syntax reads it: what an
/// example that writes it is held against. A modelled section has no
/// lines here: its examples are the catalogue's to read.
struct Owner<'a> {
    section: &'a Section,
    opcode: &'a str,
    grammar: Option<Grammar>,
    lines: Vec<Vec<Slot>>,
}

/// Every section of the text that names an instruction, with its Syntax
/// lines where it has no model.
fn owners<'a>(doc: &'a Document, modelled: &[String]) -> Vec<Owner<'a>> {
    doc.sections
        .iter()
        .filter_map(|s| {
            let opcode = s.opcode()?;
            let grammar = grammar(s).filter(|_| !modelled.contains(&s.number));
            let lines = grammar.as_ref().map(|g| form_lines(s, g, opcode)).unwrap_or_default();
            Some(Owner { section: s, opcode, grammar, lines })
        })
        .collect()
}

/// The mnemonic of an example line, with the line's code before any
/// comment and guard.
fn mnemonic_of(l: &Line) -> Option<(&str, &str)> {
    let code = l.text.split("//").next().unwrap_or_default();
    let body = crate::ptx::parse::without_guard(code).trim();
    // A vector operand may follow the mnemonic with no space
    // (`tex.grad.cube.v4.f32.f32{%f4, ...}`).
    let mnemonic = body.split_whitespace().next().map(|m| m.split('{').next().unwrap_or(m).trim_end_matches(';'))?;
    Some((body, mnemonic))
}

/// Examples of one section that write another section's instruction
/// (`cp.async.bulk.tensor` in the examples of `cp.async.bulk.commit_group`),
/// held against that section's Syntax: the instruction whose name is the
/// longest that begins the mnemonic. Where several sections define it
/// (`add` for each type), the example is held against them all, and any
/// of them modelled leaves it to the catalogue. An example is read only
/// where each of its qualifiers is a word that instruction's Syntax
/// writes: one it never writes (`.cc` in `add.cc.u32` against the
/// floating-point `add`) is more likely of a section the text lacks than
/// a slip.
fn of_other_sections(s: &Section, owners: &[Owner]) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(examples) = s.block(BlockKind::Examples) else { return out };
    let own = s.opcodes();
    for l in examples.code() {
        let Some((body, mnemonic)) = mnemonic_of(l) else { continue };
        let writes = |opcode: &str| mnemonic.strip_prefix(opcode).is_some_and(|r| r.is_empty() || r.starts_with('.'));
        let Some(opcode) = owners.iter().map(|o| o.opcode).filter(|&o| writes(o)).max_by_key(|o| o.len()) else {
            continue;
        };
        // The section's own instruction, or a longer one of its own, is
        // read by `section`.
        if own.iter().any(|&m| writes(m) && m.len() >= opcode.len()) {
            continue;
        }
        let defining: Vec<&Owner> = owners.iter().filter(|o| o.opcode == opcode).collect();
        if defining.iter().any(|o| o.grammar.is_none() || std::ptr::eq(o.section, s)) {
            continue;
        }
        let lines: Vec<Vec<Slot>> = defining.iter().flat_map(|o| o.lines.iter().cloned()).collect();
        let Some(words) = values_allowed(&lines) else { continue };
        let rest = &mnemonic[opcode.len()..];
        if lines.is_empty() || rest.split('.').filter(|q| !q.is_empty()).any(|q| !words.contains(&format!(".{q}"))) {
            continue;
        }
        let o = defining[0];
        let g = o.grammar.as_ref().expect("a defining section with lines has a grammar");
        out.extend(unfit(s, l, body, mnemonic, opcode, g, &lines, examples, Some(o.section)));
    }
    out
}

/// The finding for an example line that writes `opcode` with qualifiers
/// none of `lines` allows, with the fix that makes it fit where one does.
/// `owner` is the section whose Syntax the lines are, where it is not the
/// example's own.
#[allow(clippy::too_many_arguments)]
fn unfit(
    s: &Section,
    l: &Line,
    body: &str,
    mnemonic: &str,
    opcode: &str,
    g: &Grammar,
    lines: &[Vec<Slot>],
    examples: &super::document::Block,
    owner: Option<&Section>,
) -> Option<Finding> {
    let rest = mnemonic.strip_prefix(opcode)?;
    let qs: Vec<String> = rest.split('.').filter(|q| !q.is_empty()).map(|q| format!(".{q}")).collect();
    if lines.iter().any(|slots| fits(slots, &qs)) {
        return None;
    }
    let id = format!("text-form-{}-{}", s.number, l.number);
    let fits_a_line = |q: &[String]| lines.iter().any(|slots| fits(slots, q));
    // Else the type the examples declare the destination with, where
    // one place takes it (`alloca ptr, ...` after `.reg .u32 ptr`).
    let declared = body.split_whitespace().nth(1).and_then(|d| declared_type(examples, d.trim_end_matches([',', ';'])));
    let mut fit = refit(&qs, lines).or_else(|| declared.and_then(|t| inserted(&qs, &t, &fits_a_line)));
    let mut why = "its qualifiers, in order, are none the lines allow".to_string();
    if let (None, Some(stray)) = (&fit, stray_value(&qs, lines)) {
        why = stray.why();
        fit = stray.fixed;
    }
    // A value another line allows, where one of the same width fits
    // (`.u32` of `sured.b` in a `sured.p` example, where `.b32` fits).
    if fit.is_none() {
        if let Some((wrong, right, fixed)) = same_width(&qs, lines) {
            why = format!("`{wrong}` is a value no line of this form allows; `{right}`, of the same width, fits");
            fit = Some(fixed);
        }
    }
    let whose = match owner {
        None => "no Syntax line of its section".to_string(),
        Some(o) => format!("no Syntax line of `{opcode}` in section {}", o.number),
    };
    let mut summary = format!("the example `{mnemonic}` fits {whose}: {why}");
    // A required set the example leaves out (`.clamp` of suld): the summary
    // names the set alone, so that every example that leaves it out is one
    // defect; the fix writes the value the section's other examples write.
    if fit.is_none() {
        if let Some(missing) = missing_set(&qs, lines, g, examples, opcode) {
            let of = owner.map(|o| format!(" in section {}", o.number)).unwrap_or_default();
            summary = format!(
                "an example leaves out `{}`, which every Syntax line of `{opcode}`{of} writes bare (one of {})",
                missing.set,
                missing.values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
            );
            fit = missing.fixed;
        }
    }
    let mut f = Finding::of_text(
        id,
        s.number.clone(),
        FindingKind::ExampleSyntax,
        mnemonic.to_string(),
        summary,
        vec![format!(
            "{}:{}: `{}`; the Syntax lines: {}.",
            s.file,
            l.number,
            body,
            g.templates
                .iter()
                .filter(|t| owner.is_none() || t.split_whitespace().next().is_some_and(|m| m.starts_with(opcode)))
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )],
    );
    if let Some(qs) = fit {
        let new = format!("{opcode}{}", qs.concat());
        f.repairs = vec![Repair { line: l.number, old: mnemonic.to_string(), new }];
    }
    Some(f)
}

fn section(s: &Section, modelled: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some((g, examples, opcode)) = unmodelled(s, modelled) else { return out };
    let lines = form_lines(s, &g, opcode);
    if lines.is_empty() {
        return out;
    }
    // A set written twice with other values: which lines each definition
    // holds for is the block's layout alone. Examples are read with the
    // values of every definition.
    for name in g
        .redefined
        .iter()
        .filter(|n| !scoped_by_paragraph(s, &g, n) && !scoped_by_block(s, n) && comment_scopes(s, n).is_none())
    {
        let count = s
            .block(BlockKind::Syntax)
            .map_or(0, |b| b.code().filter(|l| l.text.split_once('=').is_some_and(|(n, _)| n.trim() == name)).count());
        out.push(Finding::of_text(
            format!("text-form-{}-redefined-{}", s.number, name.trim_start_matches('.').to_lowercase()),
            s.number.clone(),
            FindingKind::Ambiguity,
            format!("{name} = {{"),
            format!(
                "the Syntax defines `{name}` {count} times, with other values each time: which lines each \
                 definition holds for is stated only by where it stands"
            ),
            vec![format!("{}: section {}'s Syntax block.", s.file, s.number)],
        ));
        if let (Some(f), Some(b)) = (out.last_mut(), s.block(BlockKind::Syntax)) {
            f.repairs = renames(&b.code().collect::<Vec<_>>(), name);
        }
    }
    for u in unlisted(s, &g) {
        let name = &u.name;
        let mut f = Finding::of_text(
            format!(
                "text-form-{}-unlisted-{}",
                s.number,
                name.trim_start_matches('.').replace("::", "-").to_lowercase()
            ),
            s.number.clone(),
            FindingKind::Ambiguity,
            name.clone(),
            format!(
                "a form of the Syntax writes `{name}`, and the list of sets under it leaves `{name}` out: only \
                 another form's list defines it"
            ),
            vec![format!(
                "{}:{}: each form's list defines its own sets, and the list that ends at line {} lacks `{name}`; \
                 read by its own list, the form writes a name with no values.",
                s.file, u.definition.number, u.after.number
            )],
        );
        // The definition, written again at the end of the list.
        let indent: String = u.after.text.chars().take_while(|c| c.is_whitespace()).collect();
        f.repairs = vec![Repair {
            line: u.after.number,
            old: u.after.text.clone(),
            new: format!("{}\n{indent}{}", u.after.text, u.definition.text.trim()),
        }];
        out.push(f);
    }
    for l in examples.code() {
        let Some((body, mnemonic)) = mnemonic_of(l) else { continue };
        if !mnemonic.strip_prefix(opcode).is_some_and(|r| r.is_empty() || r.starts_with('.')) {
            out.extend(opcode_slip(s, l, mnemonic, opcode));
            continue;
        }
        out.extend(unfit(s, l, body, mnemonic, opcode, &g, &lines, examples, None));
    }
    out
}

/// The one qualifier of an example that, replaced by the one value of the
/// same width (`.u32` by `.b32`), makes it fit: the value, its
/// replacement, and the example with it.
fn same_width(qs: &[String], lines: &[Vec<Slot>]) -> Option<(String, String, Vec<String>)> {
    let fit = |q: &[String]| lines.iter().any(|slots| fits(slots, q));
    let allowed = values_allowed(lines)?;
    let digits = |v: &str| v.trim_start_matches(|c: char| !c.is_ascii_digit()).to_string();
    let mut found: Vec<(String, String, Vec<String>)> = Vec::new();
    for (k, q) in qs.iter().enumerate() {
        let width = digits(q);
        if width.is_empty() || super::captions::type_word(q.trim_start_matches('.')).is_none() {
            continue;
        }
        for other in allowed.iter().filter(|o| *o != q && digits(o) == width) {
            let mut tried = qs.to_vec();
            tried[k] = other.clone();
            if super::captions::type_word(other.trim_start_matches('.')).is_some() && fit(&tried) {
                found.push((q.clone(), other.clone(), tried));
            }
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// A set whose value, written into the example, makes it fit: the one
/// set it leaves out, with its values, and the example with the value the
/// block's other examples of the instruction write most often, where one
/// of them writes a value of the set.
struct Missing {
    set: String,
    values: Vec<String>,
    fixed: Option<Vec<String>>,
}

fn missing_set(
    qs: &[String],
    lines: &[Vec<Slot>],
    g: &Grammar,
    examples: &super::document::Block,
    opcode: &str,
) -> Option<Missing> {
    let fit = |q: &[String]| lines.iter().any(|slots| fits(slots, q));
    let sets: Vec<(&String, &Vec<String>)> = g
        .sets
        .iter()
        .filter(|(_, values)| values.iter().any(|v| !qs.contains(v) && inserted(qs, v, &fit).is_some()))
        .collect();
    let [(set, values)] = sets.as_slice() else { return None };
    // The values the other examples write, by how often.
    let mut written: Vec<(usize, &String)> = values
        .iter()
        .map(|v| {
            let n = examples
                .code()
                .filter_map(|l| mnemonic_of(l).map(|(_, m)| m))
                .filter(|m| m.starts_with(opcode) && m.split('.').any(|q| format!(".{q}") == **v))
                .count();
            (n, v)
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    written.sort_by_key(|w| std::cmp::Reverse(w.0));
    let fixed = written.first().and_then(|(_, v)| inserted(qs, v, &fit));
    Some(Missing { set: set.to_string(), values: values.to_vec(), fixed })
}

/// The one qualifier of an example that no Syntax line allows in any slot
/// (`.acquire` in `red.global.acquire.gpu.add.u32` where red's `.sem` is
/// `.relaxed` or `.release`), with the value one slip from it that makes
/// the example fit (`.v3` for `.v4`), else, where the example fits without
/// it, the example without it.
struct Stray {
    value: String,
    near: Option<String>,
    fixed: Option<Vec<String>>,
}

impl Stray {
    fn why(&self) -> String {
        let Self { value, near, fixed } = self;
        match (near, fixed) {
            (Some(near), Some(_)) => format!("`{value}` is a value no line allows, one slip from `{near}`, which fits"),
            (None, Some(_)) => format!("`{value}` is a value no line allows, and without it the example fits"),
            _ => format!("`{value}` is a value no line allows"),
        }
    }
}

/// Every value the lines' slots may take, or None where a slot takes any
/// qualifier (a placeholder with no set).
fn values_allowed(lines: &[Vec<Slot>]) -> Option<Vec<String>> {
    fn walk(slots: &[Slot], out: &mut Vec<String>) -> Option<()> {
        for slot in slots {
            match slot {
                Slot::One(None) => return None,
                Slot::One(Some(values)) => out.extend(values.iter().cloned()),
                Slot::Optional(group) => walk(group, out)?,
            }
        }
        Some(())
    }
    let mut out = Vec::new();
    for slots in lines {
        walk(slots, &mut out)?;
    }
    out.sort();
    out.dedup();
    Some(out)
}

fn stray_value(qs: &[String], lines: &[Vec<Slot>]) -> Option<Stray> {
    let allowed = values_allowed(lines)?;
    let known = |q: &String| allowed.iter().any(|v| v.eq_ignore_ascii_case(q));
    let strays: Vec<usize> = (0..qs.len()).filter(|&i| !known(&qs[i])).collect();
    let &[at] = &strays[..] else { return None };
    let with = |value: Option<&String>| {
        let mut q = qs.to_vec();
        match value {
            Some(v) => q[at] = v.clone(),
            None => drop(q.remove(at)),
        }
        if lines.iter().any(|slots| fits(slots, &q)) {
            Some(q)
        } else {
            refit(&q, lines)
        }
    };
    let value = qs[at].clone();
    let bare = |v: &str| v.trim_start_matches('.').to_lowercase();
    let near: Vec<(&String, Vec<String>)> = allowed
        .iter()
        .filter(|v| {
            let (a, b) = (bare(v), bare(&value));
            super::directives::distance(&a, &b) <= 1 || super::wording::transposed(&a, &b)
        })
        .filter_map(|v| Some((v, with(Some(v))?)))
        .collect();
    if let [(v, fixed)] = &near[..] {
        return Some(Stray { value, near: Some(v.to_string()), fixed: Some(fixed.clone()) });
    }
    Some(Stray { fixed: if near.is_empty() { with(None) } else { None }, value, near: None })
}

/// An example that writes its section's instruction with one of its words
/// one slip from the heading's (`ld.gloal.nc` in `ld.global.nc`): a
/// letter left out, added, changed, or two swapped. A word that is another
/// instruction's is no slip; the fix writes the word right.
fn opcode_slip(s: &Section, l: &Line, mnemonic: &str, opcode: &str) -> Option<Finding> {
    let want: Vec<&str> = opcode.split('.').collect();
    let have: Vec<&str> = mnemonic.split('.').collect();
    if have.len() < want.len() || have[0] != want[0] {
        return None;
    }
    let differ: Vec<usize> = (1..want.len()).filter(|&i| have[i] != want[i]).collect();
    let &[i] = &differ[..] else { return None };
    let (wrong, right) = (have[i], want[i]);
    if super::directives::distance(wrong, right) > 1 && !super::wording::transposed(wrong, right) {
        return None;
    }
    let written: String = have[..want.len()].join(".");
    let mut f = Finding::of_text(
        format!("text-form-{}-{}-opcode", s.number, l.number),
        s.number.clone(),
        FindingKind::ExampleSyntax,
        written.clone(),
        format!(
            "the example `{mnemonic}` writes its instruction `{opcode}` as `{written}`: `.{wrong}` for `.{right}`, \
             an instruction no section defines"
        ),
        vec![format!("{}:{}: `{}`.", s.file, l.number, l.text.trim())],
    );
    let at = l.text.find(&written)?;
    f.repairs = vec![Repair::at(l.number, &l.text, at, at + written.len(), opcode)];
    Some(f)
}

/// Each example line that writes a period where its operands take a comma
/// (`{%r0, %r1. %r2}. [a]`): a period followed by a space, outside a
/// comment, ends no PTX token. One finding per line; the fix writes the
/// commas.
fn operand_periods(s: &Section) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(examples) = s.block(BlockKind::Examples) else { return out };
    for l in examples.code() {
        let code = l.text.split("//").next().unwrap_or_default();
        let Some(start) = code.trim_start().find(char::is_whitespace) else { continue };
        let start = start + (code.len() - code.trim_start().len());
        let operands = &code[start..];
        let periods: Vec<usize> = operands
            .match_indices(". ")
            .map(|(i, _)| i)
            .filter(|&i| operands[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '}' || c == ']'))
            .collect();
        if periods.is_empty() {
            continue;
        }
        let mut f = Finding::of_text(
            format!("text-code-{}-examples-period-{}", s.number, l.number),
            s.number.clone(),
            FindingKind::MalformedCode,
            operands.trim().to_string(),
            format!(
                "the example's operands `{}` are separated by {} where commas belong",
                operands.trim().trim_end_matches(';'),
                if periods.len() == 1 { "a period".to_string() } else { format!("{} periods", periods.len()) }
            ),
            vec![format!("{}:{}: `{}`.", s.file, l.number, l.text.trim())],
        );
        let fixed = operands.trim().replace(". ", ", ");
        f.repairs = vec![Repair { line: l.number, old: operands.trim().to_string(), new: fixed }];
        out.push(f);
    }
    out
}

/// The qualifiers put right by the smallest edit that makes them fit: a
/// qualifier written twice kept once, else one qualifier moved, else all
/// written in the order of a Syntax line (`atom.global.v8.f16.max.noftz`
/// as `atom.global.max.noftz.v8.f16`). None where no such edit fits, or two
/// different ones do.
fn refit(qs: &[String], lines: &[Vec<Slot>]) -> Option<Vec<String>> {
    let fit = |q: &[String]| lines.iter().any(|slots| fits(slots, q));
    let moved = moved_once(qs, &fit);
    if moved.is_some() || qs.iter().enumerate().any(|(i, q)| qs[..i].contains(q)) {
        return moved;
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    for ordered in lines.iter().filter_map(|slots| in_line_order(slots, qs)) {
        if fit(&ordered) && !found.contains(&ordered) {
            found.push(ordered);
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// The qualifiers taken in the order of a line's slots, each slot taking
/// the one qualifier its values hold, an optional group only where its
/// first slot finds one; None where a slot finds none, or takes any
/// qualifier (a placeholder with no set), or some are left over.
fn in_line_order(slots: &[Slot], qs: &[String]) -> Option<Vec<String>> {
    fn take(slots: &[Slot], left: &mut Vec<String>, out: &mut Vec<String>) -> Option<()> {
        for slot in slots {
            match slot {
                Slot::One(None) => return None,
                Slot::One(Some(values)) => {
                    let i = left.iter().position(|q| values.iter().any(|v| v.eq_ignore_ascii_case(q)))?;
                    out.push(left.remove(i));
                }
                Slot::Optional(group) => {
                    let (mut l, mut o) = (left.clone(), out.clone());
                    if take(group, &mut l, &mut o).is_some() {
                        (*left, *out) = (l, o);
                    }
                }
            }
        }
        Some(())
    }
    let (mut left, mut out) = (qs.to_vec(), Vec::new());
    take(slots, &mut left, &mut out)?;
    left.is_empty().then_some(out)
}

/// A qualifier written twice kept once, else one qualifier moved, where
/// exactly one such edit fits.
fn moved_once(qs: &[String], fit: &dyn Fn(&[String]) -> bool) -> Option<Vec<String>> {
    let mut once: Vec<String> = Vec::new();
    for q in qs {
        if !once.contains(q) {
            once.push(q.clone());
        }
    }
    if once.len() < qs.len() {
        return fit(&once).then_some(once);
    }
    let mut found: Vec<Vec<String>> = Vec::new();
    for from in 0..qs.len() {
        for to in 0..qs.len() {
            let mut moved = qs.to_vec();
            let q = moved.remove(from);
            moved.insert(to, q);
            if from != to && fit(&moved) && !found.contains(&moved) {
                found.push(moved);
            }
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// The type a `.reg` line of the examples declares `name` with (`.u32`
/// in `.reg .u32 ra, ptr;`).
fn declared_type(examples: &super::document::Block, name: &str) -> Option<String> {
    examples.code().find_map(|l| {
        let rest = l.text.split("//").next()?.trim().strip_prefix(".reg")?;
        let (ty, names) = rest.trim_start().split_once(char::is_whitespace)?;
        names.split([',', ';']).any(|n| n.trim() == name).then(|| ty.to_string())
    })
}

/// The qualifiers with `q` written in, where exactly one place makes them
/// fit.
fn inserted(qs: &[String], q: &str, fit: &dyn Fn(&[String]) -> bool) -> Option<Vec<String>> {
    let mut found: Vec<Vec<String>> = (0..=qs.len())
        .map(|at| {
            let mut with = qs.to_vec();
            with.insert(at, q.to_string());
            with
        })
        .filter(|with| fit(with))
        .collect();
    (found.len() == 1).then(|| found.remove(0))
}

/// Every example of a section without a model that fits none of its
/// Syntax lines.
pub fn check(doc: &Document) -> Vec<Finding> {
    let modelled = super::modelled_sections();
    let mut out = super::each_section(doc, |s| section(s, &modelled));
    let owners = owners(doc, &modelled);
    out.extend(super::each_section(doc, |s| of_other_sections(s, &owners)));
    out.extend(super::each_section(doc, operand_periods));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(syntax: &str, examples: &str) -> Vec<String> {
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\n{examples}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        check(&doc).into_iter().map(|f| f.fragment).collect()
    }

    #[test]
    fn an_example_that_fits_no_syntax_line_is_a_finding() {
        let syntax = "add{.rnd}{.sat}.f32.atype d, a, c;\nadd.CmpOp{.xorsign.abs}.f16 d, a, c;\n\
                      .atype = { .f16, .bf16 };\n.rnd = { .rn, .rz,\n         .rm, .rp };";
        let examples = ".reg .f32 fc;\nadd.rz.f32.bf16.sat fd, fa, fc;\nadd.rz.sat.f32.f16.sat fd, fa, fc;\n\
                        add.sat.f32.f16 fd, fa, fc;\n@p add.rp.f32.bf16 fd, fa, fc;\nadd.lt.xorsign.abs.f16 d, a, c;\n\
                        add.lt.xorsign.f16 d, a, c;\nadd.f32 fd, fa, fc;";
        assert_eq!(
            found(syntax, examples),
            ["add.rz.f32.bf16.sat", "add.rz.sat.f32.f16.sat", "add.lt.xorsign.f16", "add.f32"]
        );
        // Forms with no operands end the mnemonic with `;`; a value with
        // sub-qualifiers is written with any of them.
        assert!(found("add.action;\n.action   = { .wait, .go }", "add.wait;\nadd.go;").is_empty());
        // A type left out is written in, as the examples declare the
        // destination.
        let text = "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
                    Syntax\n\n```\nadd.type ptr, size;\n.type = { .u32, .u64 };\n```\n\nExamples\n\n```\n\
                    .reg .u32 ptr, size;\nadd ptr, size;\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let r = &check(&doc)[0].repairs[0];
        assert_eq!((r.old.as_str(), r.new.as_str()), ("add", "add.u32"));
        let spaces = "add.space.size p, a;\n.space = { .global, .shared{::cta, ::cluster} };\n.size = { .u32 };";
        assert_eq!(
            found(spaces, "add.shared.u32 p, a;\nadd.shared::cta.u32 p, a;\nadd.shared::gpu.u32 p, a;"),
            ["add.shared::gpu.u32"]
        );
    }

    #[test]
    fn qualifiers_out_of_order_are_put_in_a_lines_order_and_sets_of_separate_blocks_are_their_own() {
        let text = "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\nSyntax\n\n\
                    Scalar:\n\n```\nadd{.sem}{.scope}{.global}.op.type d, a;\n.sem = { .relaxed };\n\
                    .scope = { .gpu, .sys };\n.op = { .and, .add, .max };\n.type = { .u32 };\n```\n\nVector:\n\n\
                    ```\nadd{.global}.op.noftz.vec.half d, a;\n.op = { .add, .max };\n.vec = { .v2, .v8 };\n\
                    .half = { .f16 };\n```\n\nExamples\n\n```\nadd.global.sys.relaxed.add.u32 d, a;\n\
                    add.global.v8.f16.max.noftz d, a;\nadd.global.v4.f16.max.noftz d, a;\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found = check(&doc);
        let fixes: Vec<(&str, Vec<(&str, &str)>)> = found
            .iter()
            .map(|f| (f.fragment.as_str(), f.repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect()))
            .collect();
        // Two moves each, to the line's order; `.v4` is no vector size, so
        // no order fits; `.op`, defined once in each block, is no set
        // defined twice.
        assert_eq!(
            fixes,
            [
                (
                    "add.global.sys.relaxed.add.u32",
                    vec![("add.global.sys.relaxed.add.u32", "add.relaxed.sys.global.add.u32")]
                ),
                ("add.global.v8.f16.max.noftz", vec![("add.global.v8.f16.max.noftz", "add.global.max.noftz.v8.f16")]),
                ("add.global.v4.f16.max.noftz", vec![]),
            ]
        );
    }

    /// A set defined twice holds both definitions' values, and is a
    /// finding of its own.
    #[test]
    fn sub_qualifiers_in_braces_are_read() {
        let syntax = "mbarrier.init{.shared{::cta}}.b64 [addr], count;\n\
                      mbarrier.arrive{.sem.scope}{.shared::cluster}.b64 _, [addr];\n\
                      mbarrier.inval.global{::cta, ::gpu}.b64 [addr];\n.sem = { .release };\n.scope = { .cta };";
        let text = |examples: &str| {
            format!(
                "#### 9.7.13.15.9. Parallel Synchronization and Communication Instructions: `mbarrier.init`\n\n\
                 Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\n{examples}\n```\n"
            )
        };
        let ids = |examples: &str| -> Vec<String> {
            let doc = Document { sections: parse_any("made.md", text(examples).as_bytes()).unwrap() };
            check(&doc).into_iter().map(|f| f.fragment).collect()
        };
        let fine = "mbarrier.init.b64 [a], 1;\nmbarrier.init.shared.b64 [a], 1;\nmbarrier.init.shared::cta.b64 [a], 1;";
        assert!(ids(fine).is_empty(), "{:?}", ids(fine));
        assert_eq!(ids("mbarrier.init.shared::gpu.b64 [a], 1;"), ["mbarrier.init.shared::gpu.b64"]);
    }

    #[test]
    fn a_set_defined_twice_is_read_as_both() {
        let syntax = "add.dtype.f16 d, a, b;\n.dtype = { .u16 }\nadd.dtype.f16x2 d, a, b;\n.dtype = { .u32 }";
        assert_eq!(found(syntax, "add.u16.f16 d, a, b;\nadd.u32.f16x2 d, a, b;"), [".dtype = {"]);
    }

    /// Forms, then their sets in a paragraph of their own, then the next
    /// forms and theirs (st.async): each paragraph of sets serves the forms
    /// just above it, and the layout says so.
    #[test]
    fn sets_in_a_paragraph_after_their_forms_are_scoped() {
        let syntax = "st.async.scope.type [a], b;\n\n.scope = { .cluster };\n.type = { .b32,\n .b64 };\n\n\
                      st.async.sem.scope.type [a], b;\n\n.sem = { .release };\n.scope = { .gpu };\n.type = { .b8 };";
        assert!(found(syntax, "st.async.cluster.b32 [a], b;").is_empty());
        // Forms that use a set a list of its own gives every form still are.
        let shared = "add.dtype.op.f16 d, a, b;\n\n.dtype = { .u16 };\n\nadd.dtype.op.f16x2 d, a, b;\n\n\
                      .dtype = { .u32 };\n\n.op = { .x };";
        assert_eq!(found(shared, "add.u16.x.f16 d, a, b;"), [".dtype = {"]);
        // One form's list that gives a set the other's leaves out: the gap.
        let peer = shared.replace(";\n\n.op", ";\n.op");
        assert_eq!(found(&peer, "add.u16.x.f16 d, a, b;"), [".op"]);
    }

    /// Each definition with values of its own gets a name of its own, on
    /// its line and on the lines of its group; a repeat keeps the name.
    #[test]
    fn a_set_defined_again_is_renamed_per_group() {
        let syntax = "add.dtype.f16 d, a, b;\n.dtype = { .u16 }\nadd.dtype.bf16 d, a, b;\n.dtype = { .u16 }\n\
                      add.dtype.f16x2 d, a, b;\nadd.dtype.f16x2 d, a, b, c;\n.dtype  = { .u32,\n .f16x2 }";
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\nadd.u16.f16 d, a, b;\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let repairs: Vec<(usize, String, String)> =
            check(&doc).into_iter().flat_map(|f| f.repairs).map(|r| (r.line, r.old, r.new)).collect();
        assert_eq!(
            repairs,
            [
                (14, ".dtype.".into(), ".dtype2.".into()),
                (15, ".dtype.".into(), ".dtype2.".into()),
                (16, ".dtype ".into(), ".dtype2 ".into())
            ]
        );
        // Definitions before the lines they serve: which definition a line
        // takes is not read from the layout, and no edit is proposed.
        let first = text
            .replace(syntax, ".dtype = { .u16 }\nadd.dtype.f16 d, a, b;\n.dtype = { .u32 }\nadd.dtype.f16x2 d, a, b;");
        let doc = Document { sections: parse_any("made.md", first.as_bytes()).unwrap() };
        let found = check(&doc);
        assert!(found.iter().any(|f| f.id.contains("redefined")), "{found:?}");
        assert!(found.iter().all(|f| f.repairs.is_empty()), "{found:?}");
    }

    /// A form whose list of sets leaves out one that another form's list
    /// gives (cp.reduce.async.bulk's `.level::cache_hint`): the gap is the
    /// finding, and the sets both lists define are scoped by them.
    #[test]
    fn a_set_one_list_leaves_out_is_found_and_copied_in() {
        let syntax = "cp.dst{.level}.type [d], [s]\n\n.dst = { .global }\n.level = { .L2 }\n.type = { .u32 }\n\n\
                      cp.dst{.level}.type [d], [s]\n.dst = { .shared }\n.type = { .f16 }";
        let text = format!(
            "#### 9.7.9.99. Data Movement: `cp`\n\n`cp`\n\nCopy.\n\nSyntax\n\n```\n{syntax}\n```\n\n\
             Examples\n\n```\ncp.global.u32 [d], [s];\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found = check(&doc);
        assert_eq!(found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["text-form-9.7.9.99-unlisted-level"]);
        assert_eq!(found[0].repairs[0].new, ".type = { .f16 }\n.level = { .L2 }");
    }

    /// A set defined again in paragraphs that each define every set their
    /// lines use is scoped by its paragraph: no finding.
    #[test]
    fn a_set_defined_once_per_paragraph_is_scoped_by_it() {
        let own = "add.op.type d, a, b;\n.op = { .min }\n.type = { .u32 }\n\nadd.op.b32 d, a, b;\n.op = { .or }";
        assert!(found(own, "add.min.u32 d, a, b;").is_empty());
        let shared = "add.op.type d, a, b;\n.op = { .min }\n\nadd.op.b32 d, a, b;\n.op = { .or }\n\n.type = { .u32 }";
        assert_eq!(found(shared, "add.min.u32 d, a, b;"), [".op = {"]);
        let apart = "add.op.type d, a, b;\n.type = { .u32 }\n\n.op = { .min }\n\n.op = { .or }";
        assert_eq!(found(apart, "add.min.u32 d, a, b;"), [".op = {"]);
    }

    #[test]
    fn the_fix_moves_a_qualifier_or_drops_its_second_writing() {
        let syntax = "add{.rnd}{.sat}.f32.atype d, a, c;\n.atype = { .f16, .bf16 };\n.rnd = { .rn, .rz };";
        let text = format!(
            "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\n\
             Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\nadd.rz.f32.bf16.sat d, a, c;\n\
             add.rz.sat.f32.f16.sat d, a, c;\nadd.f16.f32 d, a, c;\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let fixes: Vec<Option<String>> =
            check(&doc).into_iter().map(|f| f.repairs.first().map(|r| r.new.clone())).collect();
        // Two types swapped: moving either gives the same fix.
        assert_eq!(
            fixes,
            [Some("add.rz.sat.f32.bf16".into()), Some("add.rz.sat.f32.f16".into()), Some("add.f32.f16".into())]
        );
    }

    #[test]
    fn a_value_no_line_allows_is_named_with_its_fix() {
        let text = "#### 9.7.5.1. Mixed Precision Floating Point Instructions: `add`\n\n`add`\n\nAdd.\n\nSyntax\n\n\
                    ```\nadd{.sem}{.scope}.global.op.type [a], b;\n.sem = { .relaxed, .release };\n\
                    .scope = { .gpu, .sys };\n.op = { .add, .max };\n.type = { .u32, .v2, .v8 };\n```\n\n\
                    Examples\n\n```\nadd.global.acquire.gpu.add.u32 [a], b;\nadd.relase.gpu.global.add.u32 [a], b;\n\
                    add.global.add.v4 [a], b;\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let got: Vec<(String, Option<String>)> =
            check(&doc).into_iter().map(|f| (f.summary, f.repairs.first().map(|r| r.new.clone()))).collect();
        // Without `.acquire` the rest is put in order; `.relase` is one
        // letter from `.release`; `.v4` is one from both `.v2` and `.v8`.
        assert!(got[0].0.contains("`.acquire` is a value no line allows, and without it"), "{got:?}");
        assert_eq!(got[0].1.as_deref(), Some("add.gpu.global.add.u32"));
        assert!(got[1].0.contains("one slip from `.release`"), "{got:?}");
        assert_eq!(got[1].1.as_deref(), Some("add.release.gpu.global.add.u32"));
        assert!(got[2].0.ends_with("`.v4` is a value no line allows"), "{got:?}");
        assert_eq!(got[2].1, None);
    }

    #[test]
    fn a_choice_written_in_place_is_one_value_of_it() {
        let syntax = "add.p.{1d,2d}.vec.f32.clamp [a, b], c;\n.vec = { .v2 };\n.clamp = { .trap };";
        assert!(found(syntax, "add.p.1d.v2.f32.trap [s, {x}], r;").is_empty());
        assert_eq!(found(syntax, "add.p.1d.v2.f32 [s, {x}], r;").len(), 1);
    }

    #[test]
    fn sets_scoped_by_comments_a_left_out_set_and_a_type_of_another_form_are_read() {
        let syntax = "sured.b.op.ctype.clamp [a], c;\nsured.p.op.ctype.clamp [a], c;\n.op = { .add, .min };\n\
                      .ctype = { .u32, .s32 };  // for sured.b\n.ctype = { .b32, .b64 };  // for sured.p\n\
                      .clamp = { .trap, .zero };";
        let examples = "sured.b.add.u32.trap [a], c;\nsured.p.min.u32.trap [a], c;\nsured.p.min.b64.trap [a], c;\n\
                        sured.b.min.s32 [a], c;";
        let text = format!(
            "#### 9.7.11.3. Surface Instructions: `sured`\n\n`sured`\n\nReduce.\n\nSyntax\n\n```\n{syntax}\n```\n\n\
             Examples\n\n```\n{examples}\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let got: Vec<(String, Vec<(String, String)>)> = check(&doc)
            .into_iter()
            .map(|f| (f.summary, f.repairs.into_iter().map(|r| (r.old, r.new)).collect()))
            .collect();
        // The comments scope the two `.ctype`: no finding of the set, and
        // `sured.p` reads only its own.
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].0.contains("`.u32` is a value no line of this form allows; `.b32`"), "{got:?}");
        assert_eq!(got[0].1, [("sured.p.min.u32.trap".to_string(), "sured.p.min.b32.trap".to_string())]);
        assert_eq!(
            got[1],
            (
                "an example leaves out `.clamp`, which every Syntax line of `sured` writes bare (one of `.trap`, \
                 `.zero`)"
                    .to_string(),
                vec![("sured.b.min.s32".to_string(), "sured.b.min.s32.trap".to_string())]
            )
        );
    }

    #[test]
    fn an_example_of_another_sections_instruction_is_read_against_its_syntax() {
        let section = |n: &str, name: &str, syntax: &str, examples: &str| {
            format!(
                "#### 9.7.9.{n}. Data Movement and Conversion Instructions: `{name}`\n\n`{name}`\n\nCopy.\n\n\
                 Syntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\n{examples}\n```\n"
            )
        };
        let text = section(
            "1",
            "cp.bulk.tensor",
            "cp.bulk.tensor.dim.dst.src.completion [d], [a];\n.dim = { .1d, .2d };\n.dst = { .shared };\n\
             .src = { .global };\n.completion = { .mbarrier };",
            "cp.bulk.tensor.1d.shared.global.mbarrier [d], [a];",
        ) + &section(
            "2",
            "cp.bulk.commit",
            "cp.bulk.commit;",
            // The completion left out; a word the other Syntax never
            // writes (`.cc`) is of a section the text lacks; an
            // instruction no section names is no one's.
            "cp.bulk.tensor.1d.shared.global [d], [a];\ncp.bulk.tensor.cc.1d [d], [a];\ncp.other.x [d];\n\
             cp.bulk.commit;",
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let got: Vec<String> = check(&doc).into_iter().map(|f| f.summary).collect();
        assert_eq!(
            got,
            ["an example leaves out `.completion`, which every Syntax line of `cp.bulk.tensor` in section 9.7.9.1 \
              writes bare (one of `.mbarrier`)"]
        );
    }

    #[test]
    fn an_example_that_misspells_its_instruction_or_separates_operands_by_periods_is_a_finding() {
        let text = "#### 9.7.9.9. Data Movement and Conversion Instructions: `ld.global.nc`\n\n`ld.global.nc`\n\n\
                    Load.\n\nSyntax\n\n```\nld.global.nc.type d, [a];\n.type = { .u32, .f64 };\n```\n\n\
                    Examples\n\n```\nld.gloal.nc.u32 d, [a];\nld.global.nc.f64 {%r0, %r1. %r2}. [a]; // a. b\n\
                    ld.local.u32 d, [a];\nld.global.nc.u32 d, [a];\n```\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let got: Vec<(String, Vec<(String, String)>)> = check(&doc)
            .into_iter()
            .map(|f| (f.summary, f.repairs.into_iter().map(|r| (r.old, r.new)).collect()))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].0.contains("`.gloal` for `.global`"), "{got:?}");
        assert_eq!(got[0].1, vec![("ld.gloal.nc".to_string(), "ld.global.nc".to_string())]);
        assert!(got[1].0.contains("separated by 2 periods"), "{got:?}");
        assert_eq!(got[1].1[0].1, "{%r0, %r1, %r2}, [a];");
    }

    /// A set whose one value is several qualifiers, one of them a set in
    /// turn, stands for them in order (tensormap.cp_fenceproxy).
    #[test]
    fn a_set_of_one_sequence_of_qualifiers_stands_for_them() {
        let syntax = "tensormap.cp_fenceproxy.cp_qualifiers.fence_qualifiers.sync.aligned [dst], [src], size;\n\
                      .cp_qualifiers = { .global.shared::cta }\n.fence_qualifiers = { .to_proxy::from_proxy.release.scope }\n\
                      .to_proxy::from_proxy = { .tensormap::generic }\n.scope = { .cta, .gpu }";
        let text = format!(
            "#### 9.7.13.16. Parallel Synchronization and Communication Instructions: tensormap.cp_fenceproxy\n\n\
             Fence.\n\nSyntax\n\n```\n{syntax}\n```\n\nExamples\n\n```\n\
             tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [g], [s], 128;\n\
             tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.sys.sync.aligned [g], [s], 128;\n```\n"
        );
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let ids: Vec<String> = check(&doc).into_iter().map(|f| f.id).collect();
        assert_eq!(ids, ["text-form-9.7.13.16-19"]);
    }
}
