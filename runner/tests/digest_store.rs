//! Reference digests: an exhaustive run on the CPU model saves its per-block digests and
//! device hashes into a store (`--save-digests`); a re-check of lavapipe with
//! `--against-digests` hashes its blocks on the device, computes no reference for the blocks
//! whose hash matches and reads back and diffs the others row by row. Where lavapipe agrees
//! with the CPU model (v_sqrt_f32) no block is recomputed and only the hash words are read
//! back; a block whose stored device hash was altered is recomputed (and found exact), as is,
//! on the host path of a store without device hashes, a block whose stored SHA-256 was altered;
//! where the candidate differs
//! (lavapipe on v_log_f32 near 1.0 with out0 of every 10,007th row flipped by the test hook
//! `RDNAPROBE_EXHAUSTIVE_FLIP_EVERY`: lavapipe itself gives the CPU model's bits) exactly the
//! differing blocks are recomputed and the class counts and mismatch rows are those of the full
//! run against the CPU model. Without lavapipe the test is skipped with a message, unless
//! `CI=true`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{command, stderr};

fn dir(name: &str) -> PathBuf {
    common::scratch_path(&format!("digests-{name}"))
}

/// Rows whose out0 the test hook flips in the candidate: rows 0, 10007, 20014 and 30021 of each
/// mode's 32,768, in blocks 0, 2, 4 and 7.
const FLIP_EVERY: &str = "10007";

/// `exhaustive` of `asm` over `range` in both modes, 8,192-row chunks, two threads.
fn small_run(asm: &str, range: &str) -> std::process::Command {
    let mut c = command(["exhaustive", "--asm", asm, "--input", range]);
    c.args([
        "--modes",
        "denorm32=0/3",
        "--chunk",
        "8192",
        "--threads",
        "2",
    ]);
    c
}

fn exhaustive(asm: &str, range: &str, extra: &[&str], out: &Path) -> Output {
    small_run(asm, range)
        .env("RDNAPROBE_EXHAUSTIVE_FLIP_EVERY", FLIP_EVERY)
        .args(["--max-mismatches", "100000"])
        .args(extra)
        .arg("-o")
        .arg(out)
        .output()
        .expect("runs")
}

/// The CPU model's digests of `asm` over `range` in both modes, saved into `store`.
fn save_cpu_digests(asm: &str, range: &str, store: &Path, out: &Path) -> Output {
    command(["exhaustive", "--asm", asm, "--input", range])
        .args([
            "--modes",
            "denorm32=0/3",
            "--chunk",
            "8192",
            "--backend",
            "cpu",
        ])
        .args(["--reference", "none", "--save-digests"])
        .arg(store)
        .arg("-o")
        .arg(out)
        .output()
        .expect("runs")
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("manifest"))
        .expect("json")
}

#[test]
fn lavapipe_rechecks_against_cpu_digests() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let store = dir("store");
    let sqrt = ("v_sqrt_f32 v10, v4", "in0=range:0x3f000000:0x3f03ffff");
    let saved = dir("sqrt-cpu");
    let o = save_cpu_digests(sqrt.0, sqrt.1, &store, &saved);
    assert!(o.status.success(), "{}", stderr(&o));
    let keys: Vec<PathBuf> = std::fs::read_dir(&store)
        .expect("store")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "digests"))
        .collect();
    assert_eq!(keys.len(), 2, "one digest file per mode");
    for k in &keys {
        assert!(k.with_extension("dhash").exists(), "{}", k.display());
    }

    // The re-check agrees, computing no reference block.
    let check = dir("sqrt-lavapipe");
    let against = ["--backend", "vulkan:lavapipe", "--against-digests"];
    let run_against = |out: &Path| {
        small_run(sqrt.0, sqrt.1)
            .args(against)
            .arg(&store)
            .arg("-o")
            .arg(out)
            .output()
            .expect("runs")
    };
    let o = run_against(&check);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(&check);
    assert_eq!(m["against_digests"]["blocks_recomputed"], 0, "{m}");
    assert_eq!(m["against_digests"]["device_hash"], true, "{m}");
    assert_eq!(m["against_digests"]["blocks"], 128);
    // 8 bytes of hash per block, no output row.
    assert_eq!(m["bytes_read_back"], 128 * 8, "{m}");
    assert_eq!(m["digest"]["sha256"], manifest(&saved)["digest"]["sha256"]);
    assert_eq!(m["mismatches"]["total"], 0);

    // One altered stored device hash: that block alone is read back, recomputed and diffed
    // (it is exact).
    let dfile = keys[0].with_extension("dhash");
    let original = std::fs::read_to_string(&dfile).expect("dhash");
    let mut lines: Vec<String> = original.lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 64);
    lines[5] = if lines[5] == "0".repeat(16) {
        "1".repeat(16)
    } else {
        "0".repeat(16)
    };
    std::fs::write(&dfile, lines.join("\n") + "\n").expect("write");
    let tampered = dir("sqrt-dhash-tampered");
    let o = run_against(&tampered);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(&tampered);
    assert_eq!(m["against_digests"]["blocks_recomputed"], 1, "{m}");
    assert_eq!(m["bytes_read_back"], 128 * 8 + 4096 * 4, "{m}");
    assert_eq!(m["mismatches"]["total"], 0);
    assert_eq!(m["digest"]["sha256"], manifest(&saved)["digest"]["sha256"]);

    // A store without device hashes (as written before they existed) serves through the host
    // path: every output is read back and hashed with SHA-256. One altered stored digest: that
    // block alone is recomputed and diffed (it is exact).
    for k in &keys {
        std::fs::remove_file(k.with_extension("dhash")).expect("remove");
    }
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
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(&tampered);
    assert_eq!(m["against_digests"]["blocks_recomputed"], 1, "{m}");
    assert_eq!(m["against_digests"]["device_hash"], false, "{m}");
    assert_eq!(m["bytes_read_back"], 2 * 0x40000 * 4, "{m}");
    assert_eq!(m["mismatches"]["total"], 0);

    // Where the candidate differs from the CPU model (the hook's flipped rows): the blocks that
    // differ are diffed row by row, with the counts and rows of the full comparison.
    let log = ("v_log_f32 v10, v4", "in0=range:0x3f7fc000:0x3f803fff");
    let log_store = dir("log-store");
    let o = save_cpu_digests(log.0, log.1, &log_store, &dir("log-cpu"));
    assert!(o.status.success(), "{}", stderr(&o));
    let full = dir("log-full");
    let o = exhaustive(log.0, log.1, &["--backend", "vulkan:lavapipe"], &full);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let by_digest = dir("log-against");
    let o = exhaustive(
        log.0,
        log.1,
        &[
            "--backend",
            "vulkan:lavapipe",
            "--against-digests",
            log_store.to_str().expect("utf-8 path"),
        ],
        &by_digest,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let (a, b) = (manifest(&full), manifest(&by_digest));
    assert_eq!(a["classes"], b["classes"]);
    assert_eq!(a["mismatches"]["total"], 8, "{a}");
    assert_eq!(a["mismatches"]["total"], b["mismatches"]["total"]);
    assert_eq!(a["digest"], b["digest"]);
    // 4 flipped blocks in each of the 2 modes, and no other, read back.
    assert_eq!(b["against_digests"]["blocks_recomputed"], 8, "{b}");
    assert_eq!(b["against_digests"]["device_hash"], true, "{b}");
    assert_eq!(b["bytes_read_back"], 16 * 8 + 8 * 4096 * 4, "{b}");
    assert_eq!(
        std::fs::read(full.join("mismatches.csv")).expect("csv"),
        std::fs::read(by_digest.join("mismatches.csv")).expect("csv")
    );
}

/// Several bodies in one command (`--asm` repeated): each runs into OUTPUT/NN-MNEMONIC with
/// its own manifest, and its digest and counts are those of the same body run alone; a
/// re-check of the list against the saved store recomputes nothing; `--resume` of a finished
/// list skips every body.
#[test]
fn a_list_of_bodies_saves_and_rechecks_each() {
    let range = "in0=range:0x3f800000:0x3f807fff";
    let bodies = [
        "v_sqrt_f32 v10, v4",
        "v_rcp_f32 v10, v4",
        "v_exp_f32 v10, v4",
    ];
    let store = dir("list-store");
    // the three bodies in one command (the first through small_run, the others added)
    let list_cmd = |extra: &[&str], out: &Path| {
        let mut c = small_run(bodies[0], range);
        for b in &bodies[1..] {
            c.args(["--asm", b]);
        }
        c.args(extra).arg("-o").arg(out);
        c
    };
    let list = |extra: &[&str], out: &Path| list_cmd(extra, out).output().expect("runs");
    let saved = dir("list-save");
    let store_arg = store.to_str().expect("utf-8 path");
    let o = list(
        &[
            "--backend",
            "cpu",
            "--reference",
            "none",
            "--save-digests",
            store_arg,
        ],
        &saved,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let names = ["00-v_sqrt_f32_e32", "01-v_rcp_f32_e32", "02-v_exp_f32_e32"];
    for (body, name) in bodies.iter().zip(names) {
        let alone = dir(&format!("list-alone-{name}"));
        let o = exhaustive(
            body,
            range,
            &["--backend", "cpu", "--reference", "none"],
            &alone,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let (a, b) = (manifest(&saved.join(name)), manifest(&alone));
        assert_eq!(a["digest"]["sha256"], b["digest"]["sha256"], "{name}");
        assert_eq!(a["rows"], 2 * 32768, "{name}");
    }
    // Three bodies x two modes: six digest files.
    let digests = std::fs::read_dir(&store)
        .expect("store")
        .filter(|e| {
            let p = e.as_ref().expect("entry").path();
            p.extension().is_some_and(|e| e == "digests")
        })
        .count();
    assert_eq!(digests, 6);

    let check = dir("list-check");
    let o = list(
        &["--backend", "cpu", "--against-digests", store_arg],
        &check,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for name in names {
        let m = manifest(&check.join(name));
        assert_eq!(m["against_digests"]["blocks_recomputed"], 0, "{name}: {m}");
        assert_eq!(m["mismatches"]["total"], 0, "{name}");
        assert_eq!(
            m["digest"]["sha256"],
            manifest(&saved.join(name))["digest"]["sha256"]
        );
    }
    let o = list(
        &[
            "--backend",
            "cpu",
            "--against-digests",
            store_arg,
            "--resume",
        ],
        &check,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).matches("already finished").count(),
        3,
        "{}",
        stderr(&o)
    );

    // Killed in the first body (after 3 of its 8 chunks): --resume continues it and starts
    // the two that had not begun, with the digests of the whole run.
    let cut = dir("list-cut");
    let o = list_cmd(&["--backend", "cpu", "--against-digests", store_arg], &cut)
        .env("RDNAPROBE_EXHAUSTIVE_ABORT_AFTER_CHUNKS", "3")
        .output()
        .expect("runs");
    assert!(!o.status.success(), "the hook aborts the run");
    assert!(
        !cut.join(names[1]).exists(),
        "the second body had not begun"
    );
    let resume = [
        "--backend",
        "cpu",
        "--against-digests",
        store_arg,
        "--resume",
    ];
    let o = list(&resume, &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("resuming after 3 finished chunks"),
        "{}",
        stderr(&o)
    );
    for name in names {
        assert_eq!(
            manifest(&cut.join(name))["digest"]["sha256"],
            manifest(&saved.join(name))["digest"]["sha256"],
            "{name}"
        );
    }
}

/// A device re-check whose blocks all match records each chunk as the store's (no digest per
/// block in the journal); killed after some chunks and resumed, it ends with the digest and
/// counts of the uninterrupted re-check, which are the saved run's.
#[test]
fn an_interrupted_device_recheck_resumes_from_the_store() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let range = "in0=range:0x3f800000:0x3f807fff";
    let sqrt = "v_sqrt_f32 v10, v4";
    let store = dir("resume-store");
    let saved = dir("resume-save");
    let o = save_cpu_digests(sqrt, range, &store, &saved);
    assert!(o.status.success(), "{}", stderr(&o));
    let recheck = |out: &Path, envs: &[(&str, &str)], resume: bool| {
        let mut c = small_run(sqrt, range);
        c.args(["--backend", "vulkan:lavapipe", "--against-digests"])
            .arg(&store)
            .arg("-o")
            .arg(out)
            .envs(envs.iter().copied());
        if resume {
            c.arg("--resume");
        }
        c.output().expect("runs")
    };
    let whole = dir("resume-whole");
    let o = recheck(&whole, &[], false);
    assert!(o.status.success(), "{}", stderr(&o));
    let cut = dir("resume-cut");
    let o = recheck(
        &cut,
        &[("RDNAPROBE_EXHAUSTIVE_ABORT_AFTER_CHUNKS", "3")],
        false,
    );
    assert!(!o.status.success(), "the hook aborts the run");
    let journal = std::fs::read_to_string(cut.join("journal.jsonl")).expect("journal");
    let chunks: Vec<&str> = journal.lines().skip(1).collect();
    assert_eq!(chunks.len(), 3, "{journal}");
    for line in &chunks {
        assert!(line.contains("\"from_store\":true"), "{line}");
        assert!(line.contains("\"blocks\":[]"), "{line}");
    }
    let o = recheck(&cut, &[], true);
    assert!(o.status.success(), "{}", stderr(&o));
    let (a, b) = (manifest(&cut), manifest(&whole));
    assert_eq!(a["digest"]["sha256"], b["digest"]["sha256"]);
    assert_eq!(a["digest"]["sha256"], manifest(&saved)["digest"]["sha256"]);
    assert_eq!(a["rows"], b["rows"]);
    assert_eq!(a["mismatches"]["total"], 0);
}
