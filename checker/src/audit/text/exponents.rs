//! Powers of two that lost their exponent mark. An error bound or a range
//! written `2-23` (rendered from 2 with the superscript -23) reads, as the
//! text stands, as 2 minus 23: -21, which no error bound and no range end
//! can be. A sentence or table row that speaks of an error, a bound, a
//! range or ulps and writes `2-N` is a finding, with the edit that writes
//! the power as `2^-N`.

use super::document::{BlockKind, Document, Line};
use crate::audit::finding::{Finding, FindingKind, Repair};

/// The blocks whose prose states bounds.
const PROSE: [BlockKind; 3] = [BlockKind::Description, BlockKind::Notes, BlockKind::Semantics];

/// Words of a sentence that states a bound or a range.
const BOUND_WORDS: [&str; 5] = ["error", "range", "ulp", "bound", "precision"];

/// Each `2-N` or `2-N.M` of a line that stands alone (no digit, letter,
/// `.`, `_` or `-` before it, no digit after): its text.
fn lost_powers(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for (at, _) in text.match_indices("2-") {
        let before = at.checked_sub(1).map(|k| bytes[k] as char);
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '`' | '^')) {
            continue;
        }
        let rest = &text[at + 2..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        let digits = digits.trim_end_matches('.');
        if digits.is_empty() || !digits.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let after = rest[digits.len()..].chars().next();
        if after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        out.push(format!("2-{digits}"));
    }
    out
}

/// The value `2-N` has as written.
fn as_written(power: &str) -> String {
    let n: f64 = power[2..].parse().unwrap_or(0.0);
    let v = 2.0 - n;
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}").trim_end_matches('0').to_string()
    }
}

/// Words of a line that states a count's or a value's largest value.
const MAXIMUM_WORDS: [&str; 5] = ["count", "range", "max", "value", "limit"];

/// Each `2N - 1` of a line (`220 - 1`, rendered from 2 with the
/// superscript 20), N from 8 to 64: the largest value of an N-bit count,
/// its exponent's mark lost. As (where it starts, its text, N).
fn lost_maxima(text: &str) -> Vec<(usize, String, u32)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices('2') {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '^' | '`')) {
            continue;
        }
        let digits: String = text[at + 1..].chars().take_while(char::is_ascii_digit).collect();
        let Ok(n) = digits.parse::<u32>() else { continue };
        let rest = &text[at + 1 + digits.len()..];
        let Some(minus) = [" - 1", "-1", " -1", "- 1"].iter().find(|m| rest.starts_with(**m)) else { continue };
        let after = rest[minus.len()..].chars().next();
        if !(8..=64).contains(&n) || digits.len() != 2 || after.is_some_and(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        out.push((at, format!("2{digits}{minus}"), n));
    }
    out
}

/// Every `2N - 1` of the section's lines that speak of a count, a range
/// or a largest value: one finding per section, with an edit on each line.
fn maxima(doc: &Document) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for s in &doc.sections {
        for l in s.all_lines().filter(|l| !l.code) {
            let lower = l.text.to_lowercase();
            if !MAXIMUM_WORDS.iter().any(|w| lower.contains(w)) {
                continue;
            }
            for (at, written, n) in lost_maxima(&l.text) {
                let id = format!("text-exponent-{}-2-{n}-1", s.number);
                let edit = Repair::at(l.number, &l.text, at, at + 1 + n.to_string().len(), &format!("2^{n}"));
                // One edit for each place, on one line or several.
                if let Some(f) = out.iter_mut().find(|f| f.id == id) {
                    f.repairs.push(edit);
                    continue;
                }
                let mut f = Finding::of_text(
                    id,
                    s.number.clone(),
                    FindingKind::ClaimRefuted,
                    written.clone(),
                    format!(
                        "a largest value written `{written}`: read as the text stands it is {}, not 2^{n} - 1; the \
                         exponent's mark is lost",
                        2 * 10u64.pow(n.to_string().len() as u32) + u64::from(n) - 1
                    ),
                    vec![format!("{}:{}: `{written}`.", s.file, l.number)],
                );
                f.repairs = vec![edit];
                out.push(f);
            }
        }
    }
    out
}

/// Every lost exponent of the prose, one finding per section and power.
pub fn check(doc: &Document) -> Vec<Finding> {
    let mut out: Vec<Finding> = maxima(doc);
    for s in &doc.sections {
        for b in PROSE.iter().filter_map(|k| s.block(*k)) {
            for p in b.paragraphs() {
                let lines: Vec<&Line> = p.into_iter().filter(|l| !l.code).collect();
                let text = lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join(" ");
                for sentence in text.split(". ") {
                    let lower = sentence.to_lowercase();
                    if !BOUND_WORDS.iter().any(|w| lower.contains(w)) {
                        continue;
                    }
                    for power in lost_powers(sentence) {
                        let id = format!("text-exponent-{}-{}", s.number, power.replace('.', "-"));
                        let exponent = &power[1..];
                        // Where the line writes the power itself, not the end of
                        // another number (`12-23`).
                        let at = |t: &str| {
                            t.match_indices(power.as_str()).map(|(i, _)| i).find(|&i| {
                                !t[..i].ends_with(|c: char| {
                                    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '`' | '^')
                                })
                            })
                        };
                        let edit = |l: &Line| {
                            let i = at(&l.text).unwrap_or_default();
                            Repair::at(l.number, &l.text, i, i + power.len(), &format!("2^{exponent}"))
                        };
                        // A power written twice is one finding, with an
                        // edit on each line that writes it.
                        let existing = out.iter_mut().find(|f| f.id == id);
                        let edited: Vec<usize> =
                            existing.iter().flat_map(|f| f.repairs.iter().map(|r| r.line)).collect();
                        let Some(l) = lines.iter().find(|l| at(&l.text).is_some() && !edited.contains(&l.number))
                        else {
                            continue;
                        };
                        if let Some(f) = existing {
                            f.repairs.push(edit(l));
                            continue;
                        }
                        let mut f = Finding::of_text(
                            id,
                            s.number.clone(),
                            FindingKind::ClaimRefuted,
                            power.clone(),
                            "a bound written `2-N`: read as the text stands it is 2 minus N, not a power of two; \
                             the exponent's mark is lost"
                                .into(),
                            vec![format!(
                                "{}:{}: `{power}` reads as {}; 2^{exponent} is meant.",
                                s.file,
                                l.number,
                                as_written(&power)
                            )],
                        );
                        f.repairs = vec![edit(l)];
                        out.push(f);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::text::document::parse_any;

    #[test]
    fn a_power_without_its_mark_is_found_where_a_bound_is_stated() {
        assert_eq!(lost_powers("the maximum relative error is 2-22.9."), ["2-22.9"]);
        assert_eq!(lost_powers("in [2-126, 2126], the error"), ["2-126"]);
        assert!(lost_powers("sm_52-8, 32-bit, 12-16, x2-3, 2^-23, 2-bit").is_empty());
        assert_eq!(as_written("2-23"), "-21");
        assert_eq!(as_written("2-10.987"), "-8.987");
        let text = "#### 9.7.4.9. Half Precision Floating Point Instructions: `tanh`\n\n`tanh`\n\nTanh.\n\n\
                    Description\n\nThe maximum relative error for `.f16` type is\n2-10.987. Requires 2-3 registers.\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found = check(&doc);
        assert_eq!(found.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["text-exponent-9.7.4.9-2-10-987"]);
        let r = found[0].repairs.first().unwrap();
        assert_eq!((r.old.as_str(), r.new.as_str()), ("2-10.987", "2^-10.987"));
    }

    #[test]
    fn a_largest_value_without_its_mark_is_found() {
        assert_eq!(lost_maxima("| count | 1 | 220 - 1 |")[0].1, "220 - 1");
        assert!(lost_maxima("x 2120 - 1, a2 20 - 1, 216 - 10, 299 - 1, 25-1").is_empty());
        let text = "#### 9.7.13.15.9. Parallel Synchronization and Communication Instructions: `mbarrier.init`\n\n\
                    Description\n\nThe valid range of `count` is [1, ..., 220 - 1].\n\n| tx-count | -(220 - 1) | 220 - 1 |\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found = check(&doc);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].summary.contains("it is 219, not 2^20 - 1"), "{}", found[0].summary);
        let fixes: Vec<(&str, &str)> = found[0].repairs.iter().map(|r| (r.old.as_str(), r.new.as_str())).collect();
        assert_eq!(fixes, [("220", "2^20"), ("220", "2^20"), ("| 220", "| 2^20")]);
    }

    #[test]
    fn a_power_written_on_two_lines_is_one_finding_with_an_edit_on_each() {
        let text = "#### 9.7.3.20. Floating Point Instructions: `ex2`\n\n`ex2`\n\nEx2.\n\n\
                    Description\n\nThe maximum absolute error is 2-22 in range.\nOtherwise, the maximum\n\
                    relative error is 2-22.\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let found = check(&doc);
        assert_eq!(found.len(), 1);
        let lines: Vec<usize> = found[0].repairs.iter().map(|r| r.line).collect();
        assert_eq!(lines.len(), 2, "{:?}", found[0].repairs);
        assert_ne!(lines[0], lines[1]);
        // The edit is the power's, not the end of a range before it.
        let text = "#### 9.7.3.20. Floating Point Instructions: `ex2`\n\n`ex2`\n\nEx2.\n\n\
                    Description\n\nFor inputs in the range 12-23, the maximum relative error is 2-23.\n";
        let doc = Document { sections: parse_any("made.md", text.as_bytes()).unwrap() };
        let r = &check(&doc)[0].repairs[0];
        assert_eq!((r.old.as_str(), r.new.as_str()), ("is 2-23", "is 2^-23"));
    }
}
