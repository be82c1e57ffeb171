//! `rdnaprobe texture-report` end to end: the Markdown report on stdout or in `-o FILE.md`,
//! the JSON numbers with `--json`, exit 0 whatever the differences, and exit 2 with one line
//! naming the problem for inputs it cannot report on (a missing file, a body without an image
//! instruction, row sets that do not join). The datasets are those of the reports crate's
//! texture tests (reports/tests/common/texture.rs); one test runs a real image sweep on the
//! CPU model and on lavapipe.

mod common;

#[path = "../../reports/tests/common/texture.rs"]
mod texture_data;

use common::{ok, rdnaprobe, repo_root, s, scratch_dir, stderr, stdout};
use texture_data::{write_runs, GROUP_A, GROUP_B};

#[test]
fn markdown_on_stdout_and_files_with_json() {
    let dir = scratch_dir("texture_report_files");
    let (r, c) = (dir.join("ref.csv"), dir.join("cand.csv"));
    write_runs(&r, &c, None);
    let out = rdnaprobe(["texture-report", &s(&r), &s(&c), "--limit", "3"]);
    ok(&out);
    let md = stdout(&out);
    for needle in [
        "# Texture-unit report",
        "**9 rows** in 2 groups: 8 run on both sides, 3 exact (37.50%), max ULP 300",
        "| image_sample_l | 2D | 8_UNORM | point | wrap | 5 | 4 | 1 | 25.00% | 300 |",
        GROUP_B,
        "| 3 | 9 | b | 3 |",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }
    assert!(
        !md.contains("\n| 4 | "),
        "--limit 3 lists three rows:\n{md}"
    );

    let (md_file, json_file) = (dir.join("texture.md"), dir.join("texture.json"));
    let out = rdnaprobe([
        "texture-report",
        &s(&r),
        &s(&c),
        "-o",
        &s(&md_file),
        "--json",
        &s(&json_file),
    ]);
    let note = ok(&out);
    assert!(stdout(&out).is_empty(), "-o: nothing on stdout");
    assert!(note.contains("9 rows in 2 groups"), "{note}");
    let written = std::fs::read_to_string(&md_file).expect("-o written");
    assert!(written.contains(GROUP_A), "{written}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_file).expect("--json written")).expect("JSON");
    assert_eq!(json["total"]["rows"], 9);
    assert_eq!(json["total"]["exact"], 3);
    assert_eq!(json["groups"][0]["max_ulp"], 300);
    assert_eq!(json["groups"][1]["format"], "32_FLOAT");
    assert_eq!(json["worst"].as_array().map(Vec::len), Some(5));
    assert_eq!(json["worst"][0]["reference_row"], 4);
}

#[test]
fn bad_inputs_exit_2() {
    let dir = scratch_dir("texture_report_bad");
    let (r, c) = (dir.join("ref.csv"), dir.join("cand.csv"));
    write_runs(&r, &c, None);
    let missing = dir.join("missing.csv");
    let out = rdnaprobe(["texture-report", &s(&r), &s(&missing)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with("rdnaprobe: error: ") && err.contains("missing.csv"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());

    // An output directory that does not exist: refused before any work.
    let out = rdnaprobe([
        "texture-report",
        &s(&r),
        &s(&c),
        "-o",
        &s(&dir.join("nowhere/t.md")),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));

    // A body without an image instruction.
    let add = rdnaprobe_isa::assemble("v_add_f32 v10, v4, v5").expect("assembles");
    write_runs(&r, &c, Some(&add));
    let out = rdnaprobe(["texture-report", &s(&r), &s(&c)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("has no MIMG instruction"),
        "{}",
        stderr(&out)
    );

    // Datasets that do not join.
    let out = rdnaprobe([
        "texture-report",
        &s(&r),
        &s(&repo_root().join("reports/tests/fixtures/reference.csv")),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn an_image_sweep_on_cpu_and_lavapipe() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let dir = scratch_dir("texture_report_sweep");
    let spec = repo_root().join("datasets/specs/images/sample_unnorm_offsets.toml");
    let mut runs = Vec::new();
    for backend in ["cpu", "vulkan:lavapipe"] {
        let out_file = dir.join(format!("{}.csv", backend.replace(':', "_")));
        ok(&rdnaprobe([
            "sweep",
            &s(&spec),
            "--backend",
            backend,
            "-o",
            &s(&out_file),
        ]));
        runs.push(out_file);
    }
    let json_file = dir.join("texture.json");
    let out = rdnaprobe([
        "texture-report",
        &s(&runs[0]),
        &s(&runs[1]),
        "--json",
        &s(&json_file),
    ]);
    ok(&out);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_file).expect("--json written")).expect("JSON");
    // 2 formats x 8 samplers, 40 lanes each, every one the same on both software paths.
    assert_eq!(json["groups"].as_array().map(Vec::len), Some(16));
    assert_eq!(json["total"]["rows"], 640);
    assert_eq!(json["total"]["exact"], 640);
    assert_eq!(json["compared"][0], "image_sample_lz_o: out0 (f32)");
    assert_eq!(
        json["groups"][7]["addressing"],
        "border (opaque white), unnormalized"
    );
    assert!(stdout(&out).contains("No row differs."));
}
