//! Reference digests: an exhaustive run on the CPU model saves its per-block digests into a
//! store (`--save-digests`); a re-check of lavapipe with `--against-digests` computes no
//! reference for the blocks whose digest matches and diffs the others row by row. Where
//! lavapipe agrees with the CPU model (v_sqrt_f32) no block is recomputed; a block whose
//! stored digest was altered is recomputed (and found exact); where lavapipe differs
//! (v_log_f32 near 1.0) exactly the differing blocks are recomputed and the class counts and
//! mismatch rows are those of the full run against the CPU model. Without lavapipe the test is
//! skipped with a message, unless `CI=true`.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::BIN;

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("digests-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `rdnaprobe exhaustive` of `asm` over `range` under denorm32 0/3 in chunks of 8192, with
/// `extra`, into `out`.
fn exhaustive(asm: &str, range: &str, extra: &[&str], out: &Path) -> Output {
    std::process::Command::new(BIN)
        .args(["exhaustive", "--asm", asm, "--input", range])
        .args(["--modes", "denorm32=0/3", "--chunk", "8192"])
        .args(extra)
        .arg("-o")
        .arg(out)
        .output()
        .expect("runs")
}

/// The CPU model's run of `asm` over `range`, its digests saved into `store`.
fn save_cpu_digests((asm, range): (&str, &str), store: &Path, out: &Path) -> Output {
    let store = store.to_str().expect("utf-8 path");
    let extra = [
        "--backend",
        "cpu",
        "--reference",
        "none",
        "--save-digests",
        store,
    ];
    exhaustive(asm, range, &extra, out)
}

/// The lavapipe run of `asm` over `range` on two threads, with `extra`.
fn lavapipe((asm, range): (&str, &str), extra: &[&str], out: &Path) -> Output {
    let extra = [&["--threads", "2", "--backend", "vulkan:lavapipe"], extra].concat();
    exhaustive(asm, range, &extra, out)
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("manifest"))
        .expect("json")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn lavapipe_rechecks_against_cpu_digests() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let store = dir("store");
    let sqrt = ("v_sqrt_f32 v10, v4", "in0=range:0x3f000000:0x3f03ffff");
    let saved = dir("sqrt-cpu");
    let o = save_cpu_digests(sqrt, &store, &saved);
    assert!(o.status.success(), "{}", text(&o));
    let keys: Vec<PathBuf> = std::fs::read_dir(&store)
        .expect("store")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "digests"))
        .collect();
    assert_eq!(keys.len(), 2, "one digest file per mode");

    // The re-check agrees, computing no reference block.
    let check = dir("sqrt-lavapipe");
    let store_arg = store.to_str().expect("utf-8 path");
    let run_against = |out: &Path| lavapipe(sqrt, &["--against-digests", store_arg], out);
    let o = run_against(&check);
    assert!(o.status.success(), "{}", text(&o));
    let m = manifest(&check);
    assert_eq!(m["against_digests"]["blocks_recomputed"], 0, "{m}");
    assert_eq!(m["against_digests"]["blocks"], 128);
    assert_eq!(m["digest"]["sha256"], manifest(&saved)["digest"]["sha256"]);
    assert_eq!(m["mismatches"]["total"], 0);

    // One altered stored digest: that block alone is recomputed and diffed (it is exact).
    let file = &keys[0];
    let mut lines: Vec<String> = std::fs::read_to_string(file)
        .expect("digests")
        .lines()
        .map(str::to_string)
        .collect();
    lines[5] = "0".repeat(64);
    std::fs::write(file, lines.join("\n") + "\n").expect("write");
    let tampered = dir("sqrt-tampered");
    let o = run_against(&tampered);
    assert!(o.status.success(), "{}", text(&o));
    let m = manifest(&tampered);
    assert_eq!(m["against_digests"]["blocks_recomputed"], 1, "{m}");
    assert_eq!(m["mismatches"]["total"], 0);

    // Where lavapipe differs from the CPU model: the blocks that differ are diffed row by row,
    // with the counts and rows of the full comparison.
    let log = ("v_log_f32 v10, v4", "in0=range:0x3f7fc000:0x3f803fff");
    let log_store = dir("log-store");
    let o = save_cpu_digests(log, &log_store, &dir("log-cpu"));
    assert!(o.status.success(), "{}", text(&o));
    let full = dir("log-full");
    let all = ["--max-mismatches", "100000"];
    let o = lavapipe(log, &all, &full);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let by_digest = dir("log-against");
    let log_store = log_store.to_str().expect("utf-8 path");
    let o = lavapipe(
        log,
        &[&all[..], &["--against-digests", log_store]].concat(),
        &by_digest,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let (a, b) = (manifest(&full), manifest(&by_digest));
    assert_eq!(a["classes"], b["classes"]);
    assert_eq!(a["mismatches"]["total"], b["mismatches"]["total"]);
    assert_eq!(a["digest"], b["digest"]);
    let recomputed = b["against_digests"]["blocks_recomputed"]
        .as_u64()
        .expect("count");
    assert!(recomputed > 0 && recomputed <= 16, "{b}");
    assert_eq!(
        std::fs::read(full.join("mismatches.csv")).expect("csv"),
        std::fs::read(by_digest.join("mismatches.csv")).expect("csv")
    );
}
