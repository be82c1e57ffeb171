//! The results store at the library level: `add` finds the hardware dataset by the hash its
//! manifest records (after the dataset moved), stores each file once across runs, and the
//! polars query of docs/store.md reads the results back.

use std::path::{Path, PathBuf};

use polars::prelude::*;
use rdnaprobe_dataset::sha256_file;
use rdnaprobe_reports::store::results::{add, scan_results, AddOptions};
use rdnaprobe_reports::store::Store;

const HEADER: &str = "instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,in0,in1,in2,in3,in4,in5,out0,out1,out2,out3,out4,out5,out6,out7,out8,out9,out10,out11,out12,out13,out14,out15,gfx,source,note";

fn row(a: u32, out: u32, tail: &str) -> String {
    format!(
        "\"v_add_f32 v10, v4, v5\",0x06140b04,32,1,1,3,3,0,0,0,0x{a:08x},0x00000000,0x00000000,0x00000000,0x00000000,0x00000000,0x{out:08x},,,,,,,,,,,,,,,,gfx1036,test,{tail}"
    )
}

/// A replay output of `outs` (one per hardware row) with a manifest naming `hw`.
fn replay(dir: &Path, name: &str, hw: &Path, recorded: &str, outs: &[u32]) -> PathBuf {
    let path = dir.join(format!("{name}.csv"));
    let mut text = format!("{HEADER},backend,status\n");
    for (i, o) in outs.iter().enumerate() {
        text.push_str(&row(0x3f80_0000 + i as u32, *o, ",cpu,ok"));
        text.push('\n');
    }
    std::fs::write(&path, &text).unwrap();
    let manifest = serde_json::json!({
        "schema_version": 1, "format": "rdnaprobe dataset schema v1", "dataset": format!("{name}.csv"),
        "producer": {"backend": "cpu", "device": "host", "driver": "rdnaprobe-recompiler 0.1.0",
                     "rdnaprobe_version": "0.1.0", "git_commit": "0123456789abcdef0123456789abcdef01234567"},
        "generator": "test", "rows": outs.len(), "sha256": sha256_file(&path).unwrap(),
        "created": "2026-01-01T00:00:00Z",
        "provenance": {"inputs": [{"path": recorded, "sha256": sha256_file(hw).unwrap()}]}
    });
    std::fs::write(
        dir.join(format!("{name}.manifest.json")),
        manifest.to_string(),
    )
    .unwrap();
    path
}

#[test]
fn add_and_query() {
    let tmp = tempfile::tempdir().unwrap();
    let hw = tmp.path().join("adds.csv");
    let hw_rows: Vec<String> = (0..4u32)
        .map(|i| row(0x3f80_0000 + i, 0x3f80_0000 + i, ""))
        .collect();
    std::fs::write(&hw, format!("{HEADER}\n{}\n", hw_rows.join("\n"))).unwrap();
    let store = Store::create(&tmp.path().join("store")).unwrap();
    // Run 1: row 2 one ULP off. Its manifest records a path that no longer exists.
    let good = 0x3f80_0000u32;
    let out1 = replay(
        tmp.path(),
        "one",
        &hw,
        "moved/adds.csv",
        &[good, good + 1, good + 3, good + 3],
    );
    let missing = add(&store, std::slice::from_ref(&out1), &AddOptions::default()).unwrap_err();
    assert!(missing.to_string().contains("--reference"), "{missing}");
    let options = AddOptions {
        references: vec![hw.clone()],
        time: Some("2026-01-01T00:00:00Z".into()),
        ..AddOptions::default()
    };
    let a = add(&store, std::slice::from_ref(&out1), &options).unwrap();
    assert!(a.new_run);
    assert_eq!((a.stored_files, a.reused_files), (2, 0));
    assert_eq!((a.run.compared, a.run.exact, a.run.unexpected), (4, 3, 1));
    // Run 2: every row exact; the dataset is reused.
    let out2 = replay(
        tmp.path(),
        "two",
        &hw,
        "moved/adds.csv",
        &[good, good + 1, good + 2, good + 3],
    );
    let b = add(&store, std::slice::from_ref(&out2), &options).unwrap();
    assert_eq!((b.stored_files, b.reused_files), (1, 1));
    assert_ne!(a.run.id, b.run.id);
    let again = add(&store, &[out1], &options).unwrap();
    assert!(!again.new_run);
    assert_eq!(again.run.id, a.run.id);
    assert_eq!(store.runs().unwrap().len(), 2);

    // The query of docs/store.md.
    let df = scan_results(&store)
        .unwrap()
        .group_by([col("run"), col("backend"), col("instruction")])
        .agg([
            len().alias("rows"),
            col("class")
                .eq(lit("exact"))
                .cast(DataType::UInt32)
                .sum()
                .alias("exact"),
            col("max_ulp").max().alias("max_ulp"),
        ])
        .sort(["exact"], SortMultipleOptions::default())
        .collect()
        .unwrap();
    assert_eq!(df.height(), 2);
    let run = df
        .column("run")
        .unwrap()
        .str()
        .unwrap()
        .get(0)
        .unwrap()
        .to_string();
    assert_eq!(run, a.run.id, "the run with fewer exact rows sorts first");
    let exact = df.column("exact").unwrap().cast(&DataType::UInt64).unwrap();
    let ulp = df
        .column("max_ulp")
        .unwrap()
        .cast(&DataType::UInt64)
        .unwrap();
    assert_eq!(exact.u64().unwrap().get(0), Some(3));
    assert_eq!(ulp.u64().unwrap().get(0), Some(1));
    assert_eq!(exact.u64().unwrap().get(1), Some(4));
    let instruction = df
        .column("instruction")
        .unwrap()
        .str()
        .unwrap()
        .get(1)
        .unwrap()
        .to_string();
    assert_eq!(instruction, "v_add_f32");
}
