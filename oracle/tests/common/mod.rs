//! Helpers shared by the integration tests.

use rdnaprobe_oracle::{Comgr, OracleError};

/// True on CI (`CI=true`), where missing tools and libraries are failures, not skips.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Loads comgr; on a machine without it the test is skipped with a message, unless on CI.
pub fn comgr_or_skip(test: &str) -> Option<Comgr> {
    match Comgr::load() {
        Ok(c) => Some(c),
        Err(e @ OracleError::LibraryNotFound { .. }) if !on_ci() => {
            eprintln!("skipping {test}: {e}");
            None
        }
        Err(e) => panic!("{test}: comgr is required here: {e}"),
    }
}

#[allow(dead_code)] // used by the tests that disassemble, not by every test that has `common`
pub mod objdump;
