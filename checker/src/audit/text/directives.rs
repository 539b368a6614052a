//! Directives of the examples. A line of an example that begins with a
//! dotted word is a directive (`.reg .u32 r;`, `.func foo () {`), and PTX
//! has a fixed set of them (the PTX ISA's chapter on directives). A word
//! outside that set (9.7.12.4's `.function foo () {`) is one an assembler
//! rejects: the example does not assemble as written. The finding names the
//! nearest directive, and the edit writes it where one is near enough.

use super::document::{BlockKind, Document, Section};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The directives of PTX ISA 9.1: module, function, variable, performance
/// tuning and debugging directives, and the state spaces a declaration
/// begins with.
const DIRECTIVES: [&str; 38] = [
    ".address_size",
    ".alias",
    ".align",
    ".blocksareclusters",
    ".branchtargets",
    ".callprototype",
    ".calltargets",
    ".common",
    ".const",
    ".entry",
    ".explicitcluster",
    ".extern",
    ".file",
    ".func",
    ".global",
    ".loc",
    ".local",
    ".maxclusterrank",
    ".maxnctapersm",
    ".maxnreg",
    ".maxntid",
    ".minnctapersm",
    ".noreturn",
    ".param",
    ".pragma",
    ".reg",
    ".reqnctapercluster",
    ".reqntid",
    ".section",
    ".shared",
    ".sreg",
    ".target",
    ".tex",
    ".version",
    ".visible",
    ".weak",
    ".abi_preserve",
    ".abi_preserve_control",
];

/// The edit distance of two short words.
pub(super) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

fn section(s: &Section) -> Vec<Finding> {
    let Some(examples) = s.block(BlockKind::Examples) else { return Vec::new() };
    let mut out = Vec::new();
    for l in examples.code() {
        let code = l.text.split("//").next().unwrap_or_default().trim_start();
        let Some(rest) = code.strip_prefix('.') else { continue };
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let word = format!(".{name}");
        if name.is_empty() || DIRECTIVES.contains(&word.as_str()) {
            continue;
        }
        // The nearest directive: one that begins the word (`.func` of
        // `.function`), else the fewest edits away.
        let nearest = DIRECTIVES
            .iter()
            .find(|d| word.starts_with(*d) && d.len() > 3)
            .or_else(|| DIRECTIVES.iter().min_by_key(|d| distance(&word, d)))
            .copied()
            .unwrap_or(".func");
        let close = word.starts_with(nearest) || distance(&word, nearest) <= 2;
        let mut f = Finding::of_text(
            format!("text-directive-{}-{}", s.number, l.number),
            s.number.clone(),
            FindingKind::ExampleSyntax,
            code.trim_end().to_string(),
            format!(
                "the example writes `{word}`, which is no PTX directive{}: an assembler rejects the line",
                if close { format!(" (the nearest is `{nearest}`)") } else { String::new() }
            ),
            vec![format!("{}:{}: `{}`", s.file, l.number, code.trim_end())],
        );
        if close {
            f.repairs = vec![Repair { line: l.number, old: word.clone(), new: nearest.to_string() }];
        }
        out.push(f);
    }
    out
}

/// Every example line that begins with a word no PTX directive is.
pub fn check(doc: &Document) -> Vec<Finding> {
    super::each_section(doc, section)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    fn found(examples: &str) -> Vec<Finding> {
        let text = format!(
            "#### 9.7.12.4. Control Flow Instructions: `brx.idx`\n\n`brx.idx`\n\nBranch.\n\n\
             Syntax\n\n```\nbrx.idx index, tlist;\n```\n\nExamples\n\n```\n{examples}\n```\n"
        );
        check(&Document { sections: parse_any("made.md", text.as_bytes()).unwrap() })
    }

    #[test]
    fn a_word_no_directive_is_found_with_the_nearest() {
        let f = found(".function foo () {\n    .reg .u32 r;\n    ret;\n}\n.visible .entry k () { ret; }");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].summary.contains("`.function`, which is no PTX directive (the nearest is `.func`)"));
        let repair = f[0].repairs.first().expect("an edit");
        assert_eq!((repair.old.as_str(), repair.new.as_str()), (".function", ".func"));
        assert!(found(".branchtargets L1, L2;\n@p brx.idx i, ts;").is_empty());
        assert_eq!(distance(".fnuc", ".func"), 2);
    }
}
