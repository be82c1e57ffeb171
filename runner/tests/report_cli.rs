//! `rdnaprobe report` and `rdnaprobe export --parquet` end to end on the fixtures.
#![cfg(feature = "report")]

mod common;

use common::{fixture_arg, rdnaprobe, scratch_dir};

#[test]
fn report_writes_every_file() {
    let dir = scratch_dir("report_cli").join("report");
    let d = dir.to_str().expect("utf8");
    let out = rdnaprobe([
        "report",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        "-o",
        d,
        "--known",
        &fixture_arg("known.toml"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("13 rows compared against hardware (13 reference rows), 1 backends"),
        "{stdout}"
    );
    assert!(stdout.contains("9 unexpected"), "{stdout}");
    for file in ["index.html", "summary.md", "summary.csv", "summary.json"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).expect("json"))
            .expect("parses");
    assert_eq!(json["reference"], "hardware");
    assert_eq!(json["compared_rows"], 13);
    assert_eq!(json["unexpected_rows"], 9);
    // Row 11/12 have ieee unstated: a group of their own, and counted as unstated.
    assert_eq!(json["unstated"]["ieee"], 2);
    let groups = json["groups"].as_array().expect("groups");
    let rows: u64 = groups
        .iter()
        .map(|g| g["rows"].as_u64().expect("rows"))
        .sum();
    assert_eq!(rows, 13);
    let add = groups
        .iter()
        .find(|g| {
            g["instruction"] == "v_add_f32"
                && g["mode"].as_str().is_some_and(|m| m.starts_with("ieee=?"))
        })
        .expect("v_add_f32 with ieee unstated");
    assert_eq!(add["rows"], 2);
    assert_eq!(add["exact"], 1);
    assert_eq!(add["max_ulp"], 1);
    let worst = json["worst"].as_array().expect("worst");
    assert_eq!(
        worst[0]["class"], "unsupported",
        "status classes rank worst"
    );
    // The repro is one replay command: the body as assembly, the input, the mode fields that
    // differ from the default mode.
    assert!(
        worst
            .iter()
            .any(|w| w["repro"].as_str().is_some_and(|r| r.starts_with(
                "rdnaprobe replay --asm 'v_exp_f32 v10, v4' --in0 0x3f800000 --mode denorm32=3"
            ))),
        "{worst:?}"
    );
    let csv = std::fs::read_to_string(dir.join("summary.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 1 + groups.len());
    assert!(csv.starts_with(
        "instruction,mode,backend,rows,exact,exact_share,max_ulp,unexpected,exact,no-outputs,"
    ));
    let md = std::fs::read_to_string(dir.join("summary.md")).expect("md");
    assert!(
        md.contains("| `v_exp_f32` | 0.00% (1 rows, max 1048576 ulp) |"),
        "{md}"
    );
    assert!(std::fs::read_dir(dir.join("plots")).expect("plots").count() >= 5);

    // A second run replaces the directory as a whole.
    std::fs::write(dir.join("stale.txt"), "old").expect("write");
    let again = rdnaprobe([
        "report",
        &fixture_arg("reference.csv"),
        &fixture_arg("reference.csv"),
        "-o",
        d,
        "--reference",
        "hardware",
    ]);
    assert_eq!(
        again.status.code(),
        Some(2),
        "reference only: nothing to compare"
    );
    assert!(
        dir.join("stale.txt").exists(),
        "a failed run leaves the old report alone"
    );
}

#[test]
fn report_needs_a_reference() {
    let dir = scratch_dir("report_noref").join("r");
    let out = rdnaprobe([
        "report",
        &fixture_arg("candidate.csv"),
        "-o",
        dir.to_str().expect("utf8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot tell the reference") && stderr.contains("--reference"),
        "{stderr}"
    );
    assert!(!dir.exists());
}

#[test]
fn export_partitions_datasets_and_diffs() {
    let tmp = scratch_dir("export_cli");
    let diff = tmp.join("diff.csv");
    let out = rdnaprobe([
        "diff",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        "-o",
        diff.to_str().expect("utf8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let dir = tmp.join("lake");
    let out = rdnaprobe([
        "export",
        "--parquet",
        dir.to_str().expect("utf8"),
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        diff.to_str().expect("utf8"),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("26 dataset rows, 13 diff rows"), "{stdout}");
    for part in [
        "datasets/instruction=v_add_f32/backend=hardware/part-0.parquet",
        "datasets/instruction=v_add_f32/backend=vulkan%3Alavapipe/part-0.parquet",
        "diffs/instruction=v_fma_f64/backend=vulkan%3Alavapipe/part-0.parquet",
    ] {
        let bytes = std::fs::read(dir.join(part)).unwrap_or_else(|e| panic!("{part}: {e}"));
        assert!(
            bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"),
            "{part} is not Parquet"
        );
    }
}
