//! Values the prose gives a placeholder that the Syntax never lets it take.
//! "When `.sem` is `.weak`" where every definition of `.sem` in the Syntax
//! block is `{ .release }`, or "`.scope` must be `.sys`" where the sets of
//! `.scope` hold `.gpu` and `.cluster`: an assembler built from the Syntax
//! rejects the form the prose speaks of, and a reader of the prose looks
//! for a form that does not exist. One of the two is wrong; the text does
//! not say which.
//!
//! The fix adds the value to the definition of the set that the sentence's
//! forms use: the definition in the group of Syntax lines that writes
//! another qualifier the sentence names (`.mmio`), or the set's only
//! definition. The finding says the authors may mean the prose to change
//! instead.

use super::defaults::{grammar, opens_definition};
use super::document::{BlockKind, Document, Line, Section};
use super::retyped::spans;
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The words between a placeholder and the value a sentence gives it.
const GIVES: [&str; 4] = [" is ", " must be ", " is either ", " is set to "];

/// Each placeholder a prose line gives a value, with the value: a code span
/// naming a set, one of [`GIVES`], and a code span holding one value.
fn given(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices('`') {
        let Some(body) = text[i + 1..].split('`').next() else { continue };
        let after = &text[i + 1 + body.len()..];
        let Some(rest) = after.strip_prefix('`') else { continue };
        let Some(word) = GIVES.iter().find(|g| rest.starts_with(**g)) else { continue };
        let Some(value) = rest[word.len()..].strip_prefix('`').and_then(|v| v.split('`').next()) else { continue };
        let one = |t: &str| t.starts_with('.') && !t.contains([' ', ',', '{', '|']);
        if one(body) && one(value) {
            out.push((body.to_string(), value.to_string()));
        }
    }
    out
}

/// Whether a set's values hold `value`, or a value it abbreviates
/// (`.shared` of `.shared::cta`) or that abbreviates it.
fn holds(values: &[String], value: &str) -> bool {
    values.iter().any(|v| v == value || v.starts_with(&format!("{value}::")) || value.starts_with(&format!("{v}::")))
}

/// The lines of the Syntax block's code, each paragraph of definitions read
/// with the forms above it: which definition of `name` serves the forms
/// that write `also`, as the line of that definition. The set's only
/// definition where no group writes `also`.
fn definition_for<'a>(code: &[&'a Line], name: &str, also: &[String]) -> Option<&'a Line> {
    let defines = |l: &Line| opens_definition(&l.text) && l.text.split('=').next().is_some_and(|n| n.trim() == name);
    let all: Vec<&Line> = code.iter().copied().filter(|l| defines(l)).collect();
    if let [only] = all.as_slice() {
        return Some(only);
    }
    // A definition serves the forms written since the definition before it.
    let mut forms: Vec<&Line> = Vec::new();
    let mut chosen = None;
    for l in code {
        if defines(l) {
            let writes = |q: &String| forms.iter().any(|f| f.text.contains(q.as_str()));
            if also.iter().any(writes) {
                chosen = chosen.or(Some(*l));
            }
            forms.clear();
        } else if !opens_definition(&l.text) && !l.text.trim_start().starts_with('.') {
            forms.push(l);
        }
    }
    chosen
}

fn section(s: &Section) -> Vec<Finding> {
    let Some(g) = grammar(s) else { return Vec::new() };
    let code: Vec<&Line> = s.block(BlockKind::Syntax).map(|b| b.code().collect()).unwrap_or_default();
    let mut out = Vec::new();
    for l in s.all_lines().filter(|l| !l.code) {
        for (name, value) in given(&l.text) {
            let Some(values) = g.sets.get(&name) else { continue };
            if holds(values, &value) {
                continue;
            }
            let id = format!(
                "text-values-{}-{}-{}",
                s.number,
                name.trim_start_matches('.').to_lowercase(),
                value.trim_start_matches('.').replace("::", "-").to_lowercase()
            );
            if out.iter().any(|f: &Finding| f.id == id) {
                continue;
            }
            let listed = values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
            let mut f = Finding::of_text(
                id,
                s.number.clone(),
                FindingKind::Conflict,
                format!("`{name}` {}", l.text.trim()),
                format!(
                    "the text gives `{name}` the value `{value}`, which no definition of `{name}` in the Syntax \
                     holds ({listed}): the form it speaks of is one the Syntax does not have"
                ),
                vec![format!(
                    "{}:{}: \"{}\". The fix adds `{value}` to the set the sentence's forms use; the authors may \
                     instead mean the sentence to name another value.",
                    s.file,
                    l.number,
                    l.text.trim()
                )],
            );
            let others: Vec<String> =
                spans(&l.text).into_iter().filter(|q| *q != name && *q != value).map(str::to_string).collect();
            if let Some(d) = definition_for(&code, &name, &others).filter(|d| d.text.contains('}')) {
                let close = d.text.rfind('}').unwrap_or_default();
                let end = d.text[..close].trim_end().len();
                f.repairs = vec![Repair::at(d.number, &d.text, end, end, &format!(", {value}"))];
            }
            out.push(f);
        }
    }
    out
}

/// Every value the prose gives a placeholder whose Syntax sets lack it.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::super::document::Document;
    use super::{check, given};

    #[test]
    fn a_value_no_set_holds_is_found_with_the_set_of_its_forms() {
        assert_eq!(
            given("When `.sem` is `.weak`: and `.scope` must be `.sys`; `d` is `a`."),
            [(".sem".to_string(), ".weak".to_string()), (".scope".to_string(), ".sys".to_string())]
        );
        let doc = Document::made(
            "#### 9.7.13.7. Parallel Synchronization and Communication Instructions: `red.async`\n\nSyntax\n\n```\n\
             red.async.sem.scope.add.u32 [a], b, [mbar];\n\n.sem = { .relaxed };\n.scope = { .cluster };\n\n\
             red.async{.mmio}.sem.scope.add.u32 [a], b;\n\n.sem = { .release };\n.scope = { .gpu, .cluster };\n\
             ```\n\nDescription\n\nWhen `.sem` is `.release`, and `.ss` is `.shared::cluster`:\n\n\
             * If `.mmio` is specified, `.scope` must be `.sys`.\n* When `.sem` is `.weak`, nothing.\n",
        );
        let found = check(&doc);
        let got: Vec<(&str, Vec<(&str, &str)>)> = found
            .iter()
            .map(|f| (f.id.as_str(), f.repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect()))
            .collect();
        assert_eq!(
            got,
            [
                ("text-values-9.7.13.7-scope-sys", vec![(".cluster", ".cluster, .sys")]),
                // Two definitions and no other qualifier named: no fix.
                ("text-values-9.7.13.7-sem-weak", vec![]),
            ]
        );
        assert!(found[0].summary.contains("(`.cluster`, `.gpu`)") || found[0].summary.contains("`.gpu`"));
    }
}
