//! `rdnaprobe diff` end to end: exit codes (0 clean, 1 unexpected differences, 2 error), the
//! three formats, `-o`, known discrepancies, and the message of each kind of bad input.

mod common;

use common::{fixture_arg, rdnaprobe, scratch_dir, text};

#[test]
fn identical_files_exit_0() {
    let r = fixture_arg("reference.csv");
    let out = rdnaprobe(["diff", &r, &r]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("13 rows: 13 exact, 0 expected, 0 unexpected"),
        "{stdout}"
    );
}

#[test]
fn differences_exit_1_with_a_table() {
    let out = rdnaprobe([
        "diff",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for needle in [
        "ulp<=1",
        "nan-payload",
        "denorm-flush",
        "unsupported",
        "11 unexpected",
    ] {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
    assert!(stdout.contains("v_exp_f32 v10, v4"), "{stdout}");
}

#[test]
fn known_file_and_csv_output() {
    let dir = scratch_dir("diff_cli");
    let out_file = dir.join("diff.csv");
    let out = rdnaprobe([
        "diff",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        "--known",
        &fixture_arg("known.toml"),
        "--format",
        "csv",
        "-o",
        out_file.to_str().expect("utf8 path"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 14, "header + 13 rows:\n{stdout}");
    assert_eq!(
        std::fs::read_to_string(&out_file).expect("-o written"),
        stdout
    );
    let nan = stdout
        .lines()
        .find(|l| l.contains("v_max_f32"))
        .expect("v_max_f32 row");
    assert!(
        nan.contains(",nan-payload,")
            && nan.contains(",yes,SPIR-V does not preserve NaN payloads,"),
        "{nan}"
    );
}

#[test]
fn json_lines_end_with_a_summary() {
    let out = rdnaprobe([
        "diff",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        "--format",
        "json",
        "--differences-only",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 12, "11 differences + summary");
    let last = lines.last().expect("summary");
    assert_eq!(last["record"], "summary");
    assert_eq!(last["rows"], 13);
    assert_eq!(last["unexpected"], 11);
}

#[test]
fn bad_inputs_exit_2_with_file_line_column() {
    let cases = [
        (
            "missing_column.csv",
            "missing_column.csv:1:7: header column is `round32`, expected `denorm16`",
        ),
        ("non_hex.csv", "non_hex.csv:3:12 (in1): `0xZZ`"),
        ("empty.csv", "empty.csv: empty file"),
        (
            "subset.csv",
            "row sets differ: 8 row(s) only in the reference",
        ),
    ];
    for (name, needle) in cases {
        let out = rdnaprobe(["diff", &fixture_arg("reference.csv"), &fixture_arg(name)]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("rdnaprobe: error: "), "{stderr}");
        assert!(stderr.contains(needle), "{name}: {stderr}");
    }
    let out = rdnaprobe([
        "diff",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        "--known",
        &fixture_arg("reference.csv"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("reference.csv: TOML parse error"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_ulp_bound_is_ulp_with_ulp_k_its_hidden_alias_and_at_least_1() {
    let diff = |flag: &str, k: &str| {
        rdnaprobe([
            "diff",
            &fixture_arg("reference.csv"),
            &fixture_arg("candidate.csv"),
            flag,
            k,
        ])
    };
    // The candidate has one row 2..=4 ULP off: `ulp<=k` at K = 4, `wrong` at K = 2.
    let four = text(&diff("--ulp", "4").stdout);
    assert!(four.contains("\nulp<=k "), "{four}");
    let two = diff("--ulp", "2");
    assert_eq!(two.status.code(), Some(1), "{}", text(&two.stderr));
    assert!(
        !text(&two.stdout).contains("\nulp<=k "),
        "{}",
        text(&two.stdout)
    );
    assert_eq!(diff("--ulp-k", "2").stdout, two.stdout);
    // K = 1 is taken as given (an empty `ulp<=k` class), not raised.
    assert_eq!(diff("--ulp", "1").stdout, two.stdout);
    for k in ["0", "1.5", "four"] {
        let out = diff("--ulp", k);
        assert_eq!(out.status.code(), Some(2), "{k}");
        assert!(out.stdout.is_empty(), "{k}");
        let err = text(&out.stderr);
        assert!(err.contains("--ulp <K>"), "{k}: {err}");
    }
    assert!(text(&diff("--ulp", "0").stderr).contains("at least 1"));
    let help = text(&rdnaprobe(["diff", "--help"]).stdout);
    assert!(
        help.contains("--ulp <K>") && !help.contains("ulp-k"),
        "{help}"
    );
}
