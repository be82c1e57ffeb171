//! The texture report on two hand-made image-sweep runs (tests/common/texture.rs): the counts
//! per group, the ULP histogram, the largest distance, the candidate's statuses, the order of
//! the worst rows, the Markdown and JSON forms, and the errors of inputs it cannot report on.

#[path = "common/texture.rs"]
mod texture_data;

use std::path::PathBuf;

use rdnaprobe_reports::texture::{markdown, texture_report, TextureOptions, TextureReport};
use rdnaprobe_reports::{Class, Error};
use texture_data::{write_runs, GROUP_A, GROUP_B, REASON};

fn runs(body: Option<&[u32]>) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let (r, c) = (dir.path().join("ref.csv"), dir.path().join("cand.csv"));
    write_runs(&r, &c, body);
    (dir, r, c)
}

fn report(limit: usize) -> TextureReport {
    let (_dir, r, c) = runs(None);
    let options = TextureOptions {
        limit,
        ..TextureOptions::default()
    };
    texture_report(&r, &c, &options).expect("report")
}

#[test]
fn counts_per_group() {
    let rep = report(20);
    assert_eq!(rep.reference.backend, "cpu");
    assert_eq!(rep.candidate.backend, "vulkan:test+native-images");
    assert_eq!(rep.compared, ["image_sample_l: out0 (f32)"]);
    let labels: Vec<String> = rep.groups.iter().map(|g| g.label()).collect();
    assert_eq!(labels, [GROUP_A, GROUP_B]);

    let a = &rep.groups[0];
    assert_eq!(
        (a.dim.as_str(), a.format.as_str(), a.filter.as_str()),
        ("2D", "8_UNORM", "point")
    );
    assert_eq!((a.addressing.as_str(), a.compare.as_str()), ("wrap", "-"));
    assert_eq!((a.rows, a.both_ok, a.exact, a.dwords), (5, 4, 1, 4));
    assert_eq!(a.max_ulp, Some(300));
    let h = &a.ulp_histogram;
    assert_eq!(
        [h.get("0"), h.get("1"), h.get("256-65535"), h.get("nan")],
        [1, 1, 1, 1]
    );
    assert_eq!(h.0.iter().sum::<u64>(), 4);
    assert_eq!(
        [Class::Exact, Class::Ulp1, Class::Wrong].map(|c| a.classes.get(c)),
        [1, 1, 2]
    );
    assert_eq!(
        a.candidate_not_ok.get(&format!("unsupported: {REASON}")),
        Some(&1)
    );
    assert_eq!(a.candidate_not_ok.len(), 1);
    assert!(a.reference_not_ok.is_empty());

    // out1 differs on every lane of wave b but is not the body's output: not compared.
    let b = &rep.groups[1];
    assert_eq!(
        (b.format.as_str(), b.filter.as_str(), b.addressing.as_str()),
        ("32_FLOAT", "bilinear", "border (opaque white)")
    );
    assert_eq!((b.rows, b.both_ok, b.exact, b.dwords), (4, 4, 2, 4));
    assert_eq!(b.max_ulp, Some(300));
    let h = &b.ulp_histogram;
    assert_eq!([h.get("0"), h.get("1"), h.get("256-65535")], [2, 1, 1]);
    assert_eq!(h.0.iter().sum::<u64>(), 4);
    assert_eq!(
        [Class::Exact, Class::Ulp1, Class::Wrong].map(|c| b.classes.get(c)),
        [2, 1, 1]
    );
    assert!(b.candidate_not_ok.is_empty());

    let t = &rep.total;
    assert_eq!((t.rows, t.both_ok, t.exact, t.dwords), (9, 8, 3, 8));
    assert_eq!(t.max_ulp, Some(300));
    assert_eq!(t.ulp_histogram.get("0"), 3);
    assert_eq!(t.ulp_histogram.get("1"), 2);
    assert_eq!(t.ulp_histogram.get("256-65535"), 2);
    assert_eq!(t.ulp_histogram.get("nan"), 1);
}

#[test]
fn worst_rows_worst_class_then_distance_then_file_order() {
    let rep = report(20);
    let got: Vec<(u64, &str, u32, &str, Option<u64>)> = rep
        .worst
        .iter()
        .map(|w| {
            (
                w.reference_row,
                w.wave_id.as_str(),
                w.lane,
                w.class.as_str(),
                w.ulp,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (4, "a", 3, "wrong", None),
            (3, "a", 2, "wrong", Some(300)),
            (9, "b", 3, "wrong", Some(300)),
            (2, "a", 1, "ulp<=1", Some(1)),
            (8, "b", 2, "ulp<=1", Some(1)),
        ]
    );
    let nan = &rep.worst[0];
    assert_eq!(nan.group, GROUP_A);
    assert_eq!((nan.reference, nan.candidate), (0x3f00_0000, 0x7fc0_0000));
    assert_eq!(nan.out, "out0");
    assert_eq!(nan.inputs, [0.75f32.to_bits(), 0x3f00_0000, 0]);
    assert_eq!(rep.worst[2].group, GROUP_B);
    // --limit keeps the first ones.
    let two = report(2);
    assert_eq!(
        two.worst
            .iter()
            .map(|w| w.reference_row)
            .collect::<Vec<_>>(),
        [4, 3]
    );
}

#[test]
fn markdown_and_json_forms() {
    let rep = report(20);
    let md = markdown(&rep);
    for needle in [
        "# Texture-unit report",
        "**9 rows** in 2 groups: 8 run on both sides, 3 exact (37.50%), max ULP 300",
        "| image_sample_l | 2D | 8_UNORM | point | wrap | 5 | 4 | 1 | 25.00% | 300 | 1 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 1 | 0 | 1 |",
        "| image_sample_l | 2D | 32_FLOAT | bilinear | border (opaque white) | 4 | 4 | 2 | 50.00% | 300 | 2 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 0 | 0 |",
        "| **total** |  |  |  |  | 9 | 8 | 3 | 37.50% | 300 |",
        "| image_sample_l 2D 8_UNORM point wrap | candidate | unsupported: native image: test reason | 1 |",
        "| 1 | 4 | a | 3 | image_sample_l 2D 8_UNORM point wrap | 0x3f400000 (0.75) | 0x3f000000 (0.5) | 0x00000000 (0) | out0 (f32) | 0x3f000000 (0.5) | 0x7fc00000 (NaN) | - | wrong |",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }
    let json = serde_json::to_value(&rep).expect("json");
    assert_eq!(json["total"]["rows"], 9);
    assert_eq!(json["groups"][0]["ulp_histogram"]["256-65535"], 1);
    assert_eq!(json["groups"][0]["classes"]["wrong"], 2);
    assert_eq!(
        json["groups"][0]["candidate_not_ok"][format!("unsupported: {REASON}")],
        1
    );
    assert_eq!(json["worst"][0]["candidate"], "0x7fc00000");
    assert_eq!(json["worst"][0]["ulp"], serde_json::Value::Null);
    assert_eq!(json["worst"][1]["inputs"][0], "0x3f000000");
}

#[test]
fn inputs_it_cannot_report_on_are_errors() {
    // A body without an image instruction.
    let add = rdnaprobe_isa::assemble("v_add_f32 v10, v4, v5").expect("assembles");
    let (_dir, r, c) = runs(Some(&add));
    let err = texture_report(&r, &c, &TextureOptions::default()).expect_err("no MIMG");
    let text = err.to_string();
    assert!(
        text.contains("data row 1") && text.contains("has no MIMG instruction"),
        "{text}"
    );

    // Row sets that do not join: the candidate lacks a row.
    let (dir, r, c) = runs(None);
    let lines: Vec<String> = std::fs::read_to_string(&c)
        .expect("read")
        .lines()
        .map(str::to_string)
        .collect();
    std::fs::write(&c, lines[..lines.len() - 1].join("\n") + "\n").expect("write");
    let err = texture_report(&r, &c, &TextureOptions::default()).expect_err("unmatched");
    assert!(matches!(err, Error::Unmatched { .. }), "{err}");

    // A missing file.
    let missing = dir.path().join("missing.csv");
    let err = texture_report(&missing, &r, &TextureOptions::default()).expect_err("missing");
    assert!(err.to_string().contains("missing.csv"), "{err}");

    // A lane-contract dataset: no s_in to decode.
    let lane = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reference.csv");
    let err = texture_report(&lane, &lane, &TextureOptions::default()).expect_err("no s_in");
    assert!(err.to_string().contains("not a wave dataset"), "{err}");
}
