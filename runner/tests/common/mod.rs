//! Helpers shared by the integration tests (each test file uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub const BIN: &str = env!("CARGO_BIN_EXE_rdnaprobe");

/// The files with extension `ext` in the repository folder `dir` (e.g. `datasets/rdna2`), sorted.
pub fn repo_files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .{ext} files in {}", dir.display());
    v
}

/// Whether `rdnaprobe devices` lists a Vulkan device of `driver` (as `vulkan:DRIVER` names it).
pub fn vulkan_driver_present(driver: &str) -> Result<(), String> {
    let o = Command::new(BIN)
        .args(["devices", "--format", "json"])
        .output()
        .map_err(|e| e.to_string())?;
    let devices: serde_json::Value = serde_json::from_slice(&o.stdout).map_err(|e| {
        format!(
            "`rdnaprobe devices --format json` printed no JSON ({e}): {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )
    })?;
    let found = devices["vulkan"]["devices"]
        .as_array()
        .is_some_and(|l| l.iter().any(|d| d["driver"] == driver));
    if found {
        Ok(())
    } else {
        Err(format!(
            "no {driver} device in `rdnaprobe devices`: {devices}"
        ))
    }
}

/// `Some(reason)` when lavapipe is missing and the test should be skipped (after saying so);
/// under `CI=true` a missing lavapipe is a failure instead.
pub fn skip_without_lavapipe() -> Option<String> {
    let why = vulkan_driver_present("lavapipe").err()?;
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("lavapipe is required under CI=true: {why}");
    }
    eprintln!("skipped: {why} (set CI=true to make this a failure)");
    Some(why)
}
