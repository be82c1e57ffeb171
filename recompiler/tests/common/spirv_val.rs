//! spirv-val (from spirv-tools) on emitted modules, for the tests that validate SPIR-V (the
//! runner's include this file too). Under `CI=true` a missing spirv-val is an error; elsewhere
//! validation is skipped with a message.

#![allow(dead_code)] // each test binary uses a part of the common helpers

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs spirv-val on `words`; `Ok(false)` when the tool is absent outside CI.
pub fn spirv_val(words: &[u32], what: &str) -> Result<bool, String> {
    let child = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                return Err("spirv-val not found: install spirv-tools (CI=true)".into());
            }
            eprintln!("spirv-val not found (install spirv-tools); skipping validation");
            return Ok(false);
        }
        Err(e) => return Err(format!("spawning spirv-val: {e}")),
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(&bytes)
        .map_err(|e| format!("writing to spirv-val: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("spirv-val: {e}"))?;
    if out.status.success() {
        Ok(true)
    } else {
        Err(format!(
            "spirv-val rejected {what}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
