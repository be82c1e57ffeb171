//! Crash safety and sharding of `rdnaprobe sweep`, on the cpu backend: a sweep killed after a
//! chunk or in the middle of writing one resumes without losing or duplicating rows, and
//! shards merge into exactly the unsharded dataset. Every comparison is byte for byte against
//! an uninterrupted run (rows are deterministic whether the cpu model computes them or
//! reports them unsupported).

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{add_f32_spec, command, ok};

// 36 * 3 * 2 = 216 input rows x 4 modes = 864 rows.
const ROWS: usize = 864;

fn dir(name: &str) -> PathBuf {
    let d = common::scratch_dir(&format!("sweep-{name}"));
    std::fs::write(d.join("spec.toml"), add_f32_spec("resume_test", true)).unwrap();
    d
}

fn sweep(d: &Path, out: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    command(["sweep"])
        .arg(d.join("spec.toml"))
        .args(["--backend", "cpu", "--chunk", "100", "-o"])
        .arg(d.join(out))
        .args(extra)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn data_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|b| **b == b'\n').count() - 1
}

#[test]
fn killed_sweeps_resume_to_the_uninterrupted_dataset() {
    let d = dir("resume");
    ok(&sweep(&d, "full.csv", &[], &[]));
    let full = std::fs::read(d.join("full.csv")).unwrap();
    assert_eq!(data_lines(&full), ROWS);
    assert!(!d.join("full.csv.journal").exists());
    assert!(d.join("full.manifest.json").exists());

    // Killed right after chunk 3.
    let o = sweep(
        &d,
        "a.csv",
        &[],
        &[("RDNAPROBE_SWEEP_ABORT_AFTER_CHUNKS", "3")],
    );
    assert!(!o.status.success());
    assert!(
        !d.join("a.csv").exists(),
        "the output appears only when complete"
    );
    let partial = std::fs::read(d.join("a.csv.partial")).unwrap();
    assert_eq!(data_lines(&partial), 300);
    // Starting over without --resume is refused rather than clobbering the partial run.
    let o = sweep(&d, "a.csv", &[], &[]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    ok(&sweep(&d, "a.csv", &["--resume"], &[]));
    assert_eq!(std::fs::read(d.join("a.csv")).unwrap(), full);
    assert!(!d.join("a.csv.partial").exists());
    assert!(!d.join("a.csv.journal").exists());

    // Killed in the middle of writing chunk 5 (half a chunk on disk), then killed again
    // after one more chunk of the resumed run, then resumed to the end.
    let o = sweep(
        &d,
        "b.csv",
        &[],
        &[("RDNAPROBE_SWEEP_ABORT_MID_CHUNK", "5")],
    );
    assert!(!o.status.success());
    let partial = std::fs::read(d.join("b.csv.partial")).unwrap();
    assert!(!partial.ends_with(b"\n"), "the abort left a torn row");
    let o = sweep(
        &d,
        "b.csv",
        &["--resume"],
        &[("RDNAPROBE_SWEEP_ABORT_AFTER_CHUNKS", "1")],
    );
    assert!(!o.status.success());
    assert_eq!(
        data_lines(&std::fs::read(d.join("b.csv.partial")).unwrap()),
        500
    );
    ok(&sweep(&d, "b.csv", &["--resume"], &[]));
    assert_eq!(std::fs::read(d.join("b.csv")).unwrap(), full);

    // A journal from another spec is not resumed.
    let o = sweep(
        &d,
        "c.csv",
        &[],
        &[("RDNAPROBE_SWEEP_ABORT_AFTER_CHUNKS", "1")],
    );
    assert!(!o.status.success());
    std::fs::write(
        d.join("spec.toml"),
        add_f32_spec("resume_test", true).replace("seed = 99", "seed = 98"),
    )
    .unwrap();
    let o = sweep(&d, "c.csv", &["--resume"], &[]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("different sweep"));
}

#[test]
fn shards_merge_into_the_unsharded_dataset() {
    let d = dir("shards");
    ok(&sweep(&d, "full.csv", &[], &[]));
    let full = std::fs::read(d.join("full.csv")).unwrap();
    let mut total = 0;
    for i in 1..=3 {
        let name = format!("s{i}.csv");
        ok(&sweep(&d, &name, &["--shard", &format!("{i}/3")], &[]));
        total += data_lines(&std::fs::read(d.join(&name)).unwrap());
    }
    assert_eq!(total, ROWS);
    // Given out of order: merge orders shards by their sweep_row cells.
    let merge = |inputs: &[&str], out: &str| {
        command(["merge"])
            .args(inputs.iter().map(|n| d.join(n)))
            .arg("-o")
            .arg(d.join(out))
            .output()
            .unwrap()
    };
    ok(&merge(&["s3.csv", "s1.csv", "s2.csv"], "merged.csv"));
    assert_eq!(std::fs::read(d.join("merged.csv")).unwrap(), full);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("merged.manifest.json")).unwrap())
            .unwrap();
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("full.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(m["sweep"], f["sweep"]);
    assert_eq!(m["sha256"], f["sha256"]);
    assert_eq!(m["rows"], ROWS);
    // A missing shard or a duplicated one is an error, not a silently short dataset.
    let o = merge(&["s1.csv", "s3.csv"], "bad.csv");
    assert!(!o.status.success());
    let o = merge(&["s1.csv", "s2.csv", "s2.csv", "s3.csv"], "bad.csv");
    assert!(!o.status.success());
    let o = merge(&["s1.csv", "s2.csv"], "bad.csv");
    assert!(!o.status.success());
    assert!(
        !d.join("bad.csv").exists(),
        "a failed merge leaves no output"
    );
}
