//! Crash safety of `rdnaprobe exhaustive`: a run killed after a chunk, or in the middle of
//! writing a chunk's journal line, continues with `--resume` and ends with exactly the digest,
//! class counts and mismatch rows of an uninterrupted run. The candidate is lavapipe on
//! `v_log_f32` near 1.0 with every 7th row's out0 flipped (`RDNAPROBE_EXHAUSTIVE_FLIP_EVERY`:
//! lavapipe itself gives the CPU model's bits), so mismatch rows cross the interruption too.
//! Without lavapipe the test is skipped with a message, unless `CI=true`, where it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::text;

/// 8 chunks of 4,096 rows x 2 modes.
const ARGS: &[&str] = &[
    "exhaustive",
    "--asm",
    "v_log_f32 v10, v4",
    "--input",
    "in0=range:0x3f7fc000:0x3f803fff",
    "--modes",
    "denorm32=0/3",
    "--backend",
    "vulkan:lavapipe",
    "--reference",
    "cpu",
    "--chunk",
    "4096",
    "--max-mismatches",
    "5000",
    "--threads",
    "2",
];

fn dir(name: &str) -> PathBuf {
    common::scratch_path(&format!("exhaustive-{name}"))
}

fn exhaustive(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = common::command(ARGS);
    cmd.arg("-o").arg(out).args(extra);
    cmd.env("RDNAPROBE_EXHAUSTIVE_FLIP_EVERY", "7");
    cmd.envs(env.iter().copied());
    cmd.output().unwrap()
}

/// The parts of a manifest that do not depend on time or on the process.
fn results(out: &Path) -> serde_json::Value {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    serde_json::json!({
        "rows": m["rows"],
        "digest": m["digest"],
        "classes": m["classes"],
        "mismatches": m["mismatches"],
        "modes": m["modes_detail"],
    })
}

#[test]
fn killed_runs_resume_to_the_uninterrupted_result() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let whole = dir("whole");
    let o = exhaustive(&whole, &[], &[]);
    // Exit 1: the flipped rows differ from the CPU model.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let want = results(&whole);
    assert!(want["mismatches"]["total"].as_u64().unwrap() > 0, "{want}");
    assert_eq!(want["rows"], 65536);
    assert!(!whole.join("journal.jsonl").exists());
    let want_csv = std::fs::read(whole.join("mismatches.csv")).unwrap();

    for (name, hook, value) in [
        ("after", "RDNAPROBE_EXHAUSTIVE_ABORT_AFTER_CHUNKS", "3"),
        ("mid", "RDNAPROBE_EXHAUSTIVE_ABORT_MID_CHUNK", "11"),
    ] {
        let out = dir(name);
        let o = exhaustive(&out, &[], &[(hook, value)]);
        assert!(!o.status.success(), "{name}: the hook did not stop the run");
        assert!(out.join("journal.jsonl").exists());
        assert!(!out.join("manifest.json").exists());

        // Without --resume the journal is not overwritten.
        let o = exhaustive(&out, &[], &[]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains("--resume"), "{}", text(&o.stderr));

        // Another run's settings are refused.
        let o = exhaustive(&out, &["--resume", "--ulp", "9"], &[]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("different run"),
            "{}",
            text(&o.stderr)
        );

        let o = exhaustive(&out, &["--resume"], &[]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("resuming after"),
            "{}",
            text(&o.stderr)
        );
        assert_eq!(results(&out), want, "{name}");
        assert_eq!(
            std::fs::read(out.join("mismatches.csv")).unwrap(),
            want_csv,
            "{name}: mismatches.csv"
        );
        assert!(!out.join("journal.jsonl").exists());
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        let resumed = m["resumed"]["chunks"].as_u64().unwrap();
        assert_eq!(resumed, if name == "after" { 3 } else { 11 }, "{name}");
    }

    // --resume with nothing to resume says so.
    let o = exhaustive(&dir("none"), &["--resume"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no interrupted run"),
        "{}",
        text(&o.stderr)
    );
}
