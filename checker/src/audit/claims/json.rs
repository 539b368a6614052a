//! The claims' results counted; `report::json::claims` gives them for
//! tools.

use super::check::ClaimResult;

/// How many results have the verdict `label` (`holds`, `refuted`, ...).
pub fn count(results: &[ClaimResult], label: &str) -> usize {
    results.iter().filter(|r| r.verdict.label() == label).count()
}
