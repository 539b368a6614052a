//! The HTML report (`reports/html/`) in a real browser: headless Chromium
//! loads every page, and the test reads the DOM it dumps after the scripts
//! ran. Every page loads with no console message, every internal link and
//! anchor resolves and no id is given twice, nothing is fetched from a network, the annotated
//! document shows as many units, marked units and findings as
//! `ptxcheck.json` says, and screenshots at a desktop's and a phone's width
//! are not blank. A site with a planted break (a dangling anchor, a finding
//! removed, a script error) is shown to fail each check.
//!
//! Where Chromium cannot be had the tests say `skipped:` and pass; under CI
//! they fail instead (`.ci/run` installs Debian's `chromium`).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use ptxcheck::report::data::Report;
use scraper::{Html, Selector};

/// The committed site and the report it renders (`report --check` holds
/// them to what `ptxcheck report` writes).
fn reports() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports")
}

/// The pages of the site: every `.html` file of the folder.
fn pages(site: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(site)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".html"))
        .collect();
    names.sort();
    names
}

/// Chromium: `PTXCHECK_CHROMIUM`, else the first of Debian's and others'
/// names on PATH. `None` (with a `skipped:` line, a failure under CI) where
/// there is none.
fn chromium(test: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXCHECK_CHROMIUM").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    common::skip(&format!(
        "{test} needs Chromium (Debian's `chromium`): none on PATH, and PTXCHECK_CHROMIUM is not set"
    ));
    None
}

/// Headless Chromium on one file, with a profile of its own (so that tests
/// running at once do not share one) and the console sent to stderr.
fn headless(browser: &Path, profile: &Path, extra: &[String], page: &Path) -> std::process::Output {
    let url = format!("file://{}", page.canonicalize().unwrap().display());
    Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"])
        .args(["--enable-logging=stderr", "--v=0"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", browser.display()))
}

/// One page as the browser left it: its DOM after the scripts ran, and
/// what it wrote to the console (a message, an uncaught error).
struct Loaded {
    dom: Html,
    console: Vec<String>,
}

fn load(browser: &Path, profile: &Path, page: &Path) -> Loaded {
    let out = headless(browser, profile, &["--dump-dom".to_string()], page);
    assert!(out.status.success(), "{}: {}", page.display(), common::stderr(&out));
    // `[pid:tid:time:INFO:CONSOLE:line] "message", source: url (line)`:
    // the message and its source, without the log line's prefix.
    let console = common::stderr(&out)
        .lines()
        .filter_map(|l| {
            let at = l.find(":CONSOLE")?;
            Some(l[at..].split_once("] ").map_or(&l[at..], |(_, m)| m).to_string())
        })
        .collect();
    Loaded { dom: Html::parse_document(&common::stdout(&out)), console }
}

fn select<'a>(dom: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    dom.select(&Selector::parse(css).unwrap()).collect()
}

/// What the annotated document should show, from the typed report: units,
/// units that some finding names, and findings.
fn expected_counts(report: &Report) -> (usize, usize, usize) {
    let units: BTreeSet<&str> =
        report.spec_text.iter().flat_map(|t| &t.sections).flat_map(|s| &s.units).map(|u| u.id.as_str()).collect();
    let marked: BTreeSet<&str> = report
        .audit
        .findings
        .iter()
        .flat_map(|f| f.units.iter().flatten())
        .map(String::as_str)
        .filter(|u| units.contains(u))
        .collect();
    (units.len(), marked.len(), report.audit.findings.len())
}

/// Every problem the browser shows in the site in `site`, rendered from
/// `report`: one line each, empty for a sound site.
fn problems(browser: &Path, site: &Path, report: &Report) -> Vec<String> {
    let profile = tempfile::tempdir().unwrap();
    let names = pages(site);
    let loaded: BTreeMap<&str, Loaded> =
        names.iter().map(|n| (n.as_str(), load(browser, profile.path(), &site.join(n)))).collect();
    let ids: BTreeMap<&str, BTreeSet<String>> = loaded
        .iter()
        .map(|(n, l)| (*n, select(&l.dom, "[id]").iter().filter_map(|e| e.attr("id")).map(str::to_string).collect()))
        .collect();
    let mut found = Vec::new();
    for (name, page) in &loaded {
        found.extend(page.console.iter().map(|m| format!("{name}: console: {m}")));
        // An id given twice is an anchor that names two places.
        let mut seen = BTreeSet::new();
        for id in select(&page.dom, "[id]").iter().filter_map(|e| e.attr("id")) {
            if !seen.insert(id) {
                found.push(format!("{name}: id {id} is given twice"));
            }
        }
        let links = select(&page.dom, "[href], [src]");
        for target in links.iter().filter_map(|e| e.attr("href").or(e.attr("src"))) {
            if target.contains("://") || target.starts_with("//") || target.starts_with("mailto:") {
                found.push(format!("{name}: `{target}` needs a network"));
                continue;
            }
            let (file, fragment) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() { *name } else { file };
            if !site.join(file).is_file() {
                found.push(format!("{name}: `{target}`: no file {file}"));
            } else if !fragment.is_empty() && !ids.get(file).is_some_and(|ids| ids.contains(fragment)) {
                found.push(format!("{name}: `{target}`: no id {fragment} in {file}"));
            }
        }
    }
    match loaded.get("index.html") {
        None => found.push("no index.html".to_string()),
        Some(index) => {
            let (units, marked, findings) = expected_counts(report);
            let shown = (
                select(&index.dom, "div.unit").len(),
                select(&index.dom, "div.unit[data-status^=sev-]").len(),
                select(&index.dom, "details.finding").len(),
            );
            if shown != (units, marked, findings) {
                found.push(format!(
                    "index.html shows {} units, {} with findings, {} findings; ptxcheck.json says {units}, {marked}, \
                     {findings}",
                    shown.0, shown.1, shown.2
                ));
            }
        }
    }
    found
}

fn committed_report() -> Report {
    serde_json::from_str(&std::fs::read_to_string(reports().join("ptxcheck.json")).unwrap()).unwrap()
}

#[test]
fn every_page_loads_cleanly_and_every_link_resolves() {
    let Some(browser) = chromium("the browser test") else { return };
    let found = problems(&browser, &reports().join("html"), &committed_report());
    assert!(found.is_empty(), "reports/html in Chromium:\n{}", found.join("\n"));
}

/// `ptxcheck text DIR --html OUT` on a chapter with no model (the
/// floating-point chapter of the 9.1 release): the same checks, the counts
/// against the report of that text built here.
#[test]
fn a_chapter_read_by_text_is_a_sound_site() {
    let Some(seeds) = common::spec_text("the browser test of `text --html`") else { return };
    let chapter = seeds.join("../ptx-9.1/no-model");
    if !chapter.is_dir() {
        common::skip(&format!("the browser test of `text --html` needs {}", chapter.display()));
        return;
    }
    let Some(browser) = chromium("the browser test of `text --html`") else { return };
    let site = tempfile::tempdir().unwrap();
    let out = site.path().join("site");
    let run = common::ptxcheck(&["text", chapter.to_str().unwrap(), "--html", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert!(common::stderr(&run).contains("wrote 6 files to"), "{}", common::stderr(&run));
    let audit = ptxcheck::audit::text::run(&[chapter]).unwrap();
    let report = ptxcheck::report::json::text_report(&audit);
    assert!(!report.audit.findings.is_empty() && report.root_causes.iter().all(|rc| rc.id != "unassigned"));
    let found = problems(&browser, &out, &report);
    assert!(found.is_empty(), "`text --html` in Chromium:\n{}", found.join("\n"));
}

/// `ptxcheck conform RESULTS --html FILE` on an implementation with a bug
/// (add.u32 gives 0 where a's top bit is set): the page loads cleanly, its
/// links resolve, and it shows the variant's row and its group.
#[test]
fn a_conformance_page_is_sound() {
    let Some(browser) = chromium("the browser test of `conform --html`") else { return };
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let o = common::ptxcheck(&["vectors", "add.u32", "--output", suite.to_str().unwrap()]);
    assert!(o.status.success(), "{}", common::stderr(&o));
    let mut results = String::new();
    for line in std::fs::read_to_string(suite.join("vectors.jsonl")).unwrap().lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let top = u32::from_str_radix(v["inputs"]["a"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap() >> 31;
        let d = if top == 1 { serde_json::json!("0x00000000") } else { v["spec"]["d"].clone() };
        v["actual"] = serde_json::json!({ "d": d });
        results.push_str(&format!("{v}\n"));
    }
    let file = dir.path().join("results.jsonl");
    std::fs::write(&file, results).unwrap();
    let page = dir.path().join("conform.html");
    let o = common::ptxcheck(&["conform", file.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "the bug fails against the spec: {}", common::stderr(&o));
    let profile = tempfile::tempdir().unwrap();
    let loaded = load(&browser, profile.path(), &page);
    assert!(loaded.console.is_empty(), "{:?}", loaded.console);
    let ids: BTreeSet<&str> = select(&loaded.dom, "[id]").iter().filter_map(|e| e.attr("id")).collect();
    for href in select(&loaded.dom, "[href]").iter().filter_map(|e| e.attr("href")) {
        assert!(
            href.strip_prefix('#').is_some_and(|id| ids.contains(id)),
            "a link to {href}: the page holds only itself"
        );
    }
    assert_eq!(select(&loaded.dom, "table.proofs tbody tr").len(), 1, "one variant, one row");
    assert!(ids.contains("v-add.u32"), "the variant's groups: {ids:?}");
    let captions: Vec<String> =
        select(&loaded.dom, "table.witness caption").iter().map(|c| c.text().collect()).collect();
    assert!(captions.iter().any(|c| c.contains("a[31] = 1") || c.contains("a >=")), "{captions:?}");
}

/// A copy of the committed site with `edit` applied to one page's text.
fn planted(page: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in std::fs::read_dir(reports().join("html")).unwrap() {
        let name = name.unwrap().file_name();
        std::fs::copy(reports().join("html").join(&name), dir.path().join(&name)).unwrap();
    }
    let path = dir.path().join(page);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(&text);
    assert!(edited != text, "the planted break changes {page}");
    std::fs::write(&path, edited).unwrap();
    dir
}

#[test]
fn a_planted_break_is_caught() {
    let Some(browser) = chromium("the browser test's planted breaks") else { return };
    let report = committed_report();
    // Each break, and the words its problem line must hold. The small pages
    // carry the breaks that do not need the document, to keep this quick.
    let dangling = planted("coverage.html", |t| t.replacen("href=\"index.html#s-", "href=\"index.html#s-gone-", 1));
    let missing_file = planted("proofs.html", |t| t.replacen("href=\"index.html", "href=\"indx.html", 1));
    let script_error =
        planted("coverage.html", |t| t.replacen("</body>", "<script>noSuchFunction();</script></body>", 1));
    let twice = planted("coverage.html", |t| t.replacen("</main>", "<p id=\"main\">again</p></main>", 1));
    let network = planted("coverage.html", |t| {
        t.replacen("</head>", "<link rel=\"stylesheet\" href=\"https://example.org/x.css\"></head>", 1)
    });
    let one_finding_less = planted("index.html", |t| {
        let start = t.find("<details class=\"finding").unwrap();
        let end = start + t[start..].find("</details>").unwrap() + "</details>".len();
        format!("{}{}", &t[..start], &t[end..])
    });
    for (site, words) in [
        (&dangling, "no id s-gone-"),
        (&missing_file, "no file indx.html"),
        (&script_error, "console: \"Uncaught ReferenceError: noSuchFunction"),
        (&twice, "id main is given twice"),
        (&network, "`https://example.org/x.css` needs a network"),
        (&one_finding_less, "findings; ptxcheck.json says"),
    ] {
        let found = problems(&browser, site.path(), &report);
        assert!(
            found.iter().any(|p| p.contains(words)),
            "a break that should say `{words}` gave:\n{}",
            found.join("\n")
        );
    }
}

/// Whether a screenshot shows something: more than a handful of colours,
/// and at least 2% of its pixels away from the commonest one.
fn blank(png_bytes: &[u8]) -> Option<String> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let mut counts: BTreeMap<&[u8], usize> = BTreeMap::new();
    for px in buf[..info.buffer_size()].chunks(channels) {
        *counts.entry(px).or_default() += 1;
    }
    let total: usize = counts.values().sum();
    let commonest = counts.values().copied().max().unwrap_or(0);
    let away = (total - commonest) as f64 / total as f64;
    (counts.len() < 8 || away < 0.02)
        .then(|| format!("{} colours, {:.1}% of pixels off the background", counts.len(), away * 100.0))
}

#[test]
fn screenshots_at_desktop_and_phone_widths_are_not_blank() {
    let Some(browser) = chromium("the browser test's screenshots") else { return };
    let profile = tempfile::tempdir().unwrap();
    let shots = tempfile::tempdir().unwrap();
    let site = reports().join("html");
    let mut found = Vec::new();
    for page in ["index.html", "errata.html"] {
        for (width, height) in [(1280, 900), (390, 844)] {
            let file = shots.path().join(format!("{page}-{width}.png"));
            let extra = [format!("--screenshot={}", file.display()), format!("--window-size={width},{height}")];
            let out = headless(&browser, profile.path(), &extra, &site.join(page));
            assert!(out.status.success() && file.is_file(), "{page} at {width}: {}", common::stderr(&out));
            if let Some(why) = blank(&std::fs::read(&file).unwrap()) {
                found.push(format!("{page} at {width}x{height} is blank: {why}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check itself: a page with nothing on it is called blank.
    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("empty.html"), "<!doctype html><title>empty</title>").unwrap();
    let file = shots.path().join("empty.png");
    let extra = [format!("--screenshot={}", file.display()), "--window-size=390,844".to_string()];
    headless(&browser, profile.path(), &extra, &empty.path().join("empty.html"));
    assert!(blank(&std::fs::read(&file).unwrap()).is_some(), "an empty page is not called blank");
}
