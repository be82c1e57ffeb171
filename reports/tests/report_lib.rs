//! The report and the Parquet export at library level: aggregation figures, and Parquet that
//! reads back with the rows and types it was given.
#![cfg(feature = "polars")]

use std::path::{Path, PathBuf};

use polars::prelude::*;
use rdnaprobe_reports::export::export_parquet;
use rdnaprobe_reports::report::{build, ReportOptions};
use rdnaprobe_reports::Class;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

#[test]
fn report_aggregates_per_group_and_backend() {
    let report = build(
        &[fixture("reference.csv"), fixture("candidate.csv")],
        &ReportOptions::default(),
    )
    .expect("report builds");
    assert_eq!(report.reference, "hardware");
    assert_eq!(report.backends, ["vulkan:lavapipe"]);
    assert_eq!(report.compared_rows, 13);
    assert_eq!(report.unexpected_rows, 11);
    let total: u64 = report.groups.iter().map(|g| g.rows).sum();
    assert_eq!(total, 13);
    let per_class = |c: Class| -> u64 {
        report
            .groups
            .iter()
            .map(|g| g.classes[c.code() as usize])
            .sum()
    };
    assert_eq!(per_class(Class::Exact), 2);
    assert_eq!(per_class(Class::Ulp1), 4);
    assert_eq!(per_class(Class::Wrong), 2);
    assert_eq!(per_class(Class::Unsupported), 1);
    let mul = report
        .matrix
        .iter()
        .find(|m| m.instruction == "v_mul_f32")
        .expect("v_mul_f32 cell");
    assert_eq!((mul.rows, mul.exact, mul.max_ulp), (2, 0, Some(256)));
    let exp = report
        .histograms
        .iter()
        .find(|h| h.instruction == "v_exp_f32")
        .expect("hist");
    assert_eq!(exp.buckets, vec![(21, 1)], "2^20 ULP lands in bucket 21");
}

#[test]
fn parquet_reads_back() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report_lib_export");
    let summary = export_parquet(&[fixture("reference.csv"), fixture("candidate.csv")], &dir)
        .expect("export");
    assert_eq!(summary.dataset_rows, 26);
    let file = dir.join("datasets/instruction=v_fma_f64/backend=vulkan%3Alavapipe/part-0.parquet");
    let df = ParquetReader::new(std::fs::File::open(&file).expect("part exists"))
        .finish()
        .expect("reads");
    assert_eq!(df.height(), 1);
    let out0 = df.column("out0").expect("out0").u32().expect("u32").get(0);
    let out1 = df.column("out1").expect("out1").u32().expect("u32").get(0);
    assert_eq!((out0, out1), (Some(0xffff_ffff), Some(0x3fef_ffff)));
    assert_eq!(df.column("out2").expect("out2").null_count(), 1);
    let ieee = df.column("ieee").expect("ieee").u32().expect("u32").get(0);
    assert_eq!(ieee, Some(1));
    let text = df
        .column("instruction_text")
        .expect("text")
        .str()
        .expect("str")
        .get(0);
    assert_eq!(text, Some("v_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]"));
    let hw = dir.join("datasets/instruction=v_rcp_f32/backend=hardware/part-0.parquet");
    let df = ParquetReader::new(std::fs::File::open(&hw).expect("part exists"))
        .finish()
        .expect("reads");
    let extra = df
        .column("extra")
        .expect("extra")
        .str()
        .expect("str")
        .get(0);
    assert_eq!(extra, Some(r#"{"row_id":"fixture:1"}"#));
}
