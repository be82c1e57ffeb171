//! `rdnaprobe store add/ls` and `rdnaprobe regress` on real replays of two shipped datasets:
//! content addressing (the same outputs are one run, whatever their order or when they were
//! replayed), the manifest, the results table read back through a polars scan, and the exit
//! codes (0, 1 on a regression, 2 on bad input).
#![cfg(feature = "report")]

mod common;

use std::path::Path;

use common::{printed, rdnaprobe, s};
use serde_json::Value;

const DATASETS: [&str; 2] = ["log", "dx10_clamp"];

fn replay(dir: &Path) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    let root = common::repo_root().join("datasets/rdna2");
    let hw: Vec<String> = DATASETS
        .iter()
        .map(|d| s(&root.join(format!("{d}.csv"))))
        .collect();
    let mut args: Vec<&str> = vec!["replay"];
    args.extend(hw.iter().map(String::as_str));
    let d = format!("{}/", dir.display());
    args.extend(["--backend", "cpu", "-o", &d]);
    let o = rdnaprobe(&args);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", printed(&o));
    DATASETS
        .iter()
        .map(|d| s(&dir.join(format!("{d}.csv"))))
        .collect()
}

fn data_rows(path: &str) -> u64 {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().count() as u64
}

fn objects(store: &Path) -> usize {
    std::fs::read_dir(store.join("objects")).unwrap().count()
}

#[test]
fn store_add_ls_and_regress() {
    let tmp = common::scratch_dir("store_cli");
    let store = tmp.join("store");
    let st = s(&store);
    let first = replay(&tmp.join("a"));
    let o = rdnaprobe(["store", "add", &first[0], &first[1], "--store", &st]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    assert!(
        printed(&o).contains("4 files stored, 0 already stored"),
        "{}",
        printed(&o)
    );
    assert_eq!(objects(&store), 4, "two outputs and their two datasets");

    // The same outputs again, in the other order: the same run, nothing stored.
    let o = rdnaprobe(["store", "add", &first[1], &first[0], "--store", &st]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    assert!(
        printed(&o).starts_with("already stored: run "),
        "{}",
        printed(&o)
    );
    // A fresh replay of the same rows has the same bytes: still one run.
    let again = replay(&tmp.join("b"));
    let o = rdnaprobe(["store", "add", &again[0], &again[1], "--store", &st]);
    assert!(printed(&o).starts_with("already stored"), "{}", printed(&o));
    assert_eq!(objects(&store), 4);

    let o = rdnaprobe(["store", "ls", "--store", &st, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    let runs: Value = serde_json::from_slice(&o.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    let rows: u64 = first.iter().map(|f| data_rows(f)).sum();
    assert_eq!(r["rows"], rows);
    assert_eq!(
        r["compared"], rows,
        "every replayed row has its hardware row"
    );
    let classes: u64 = r["classes"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(classes, rows);
    assert_eq!(r["backend"], "cpu");
    assert_eq!(
        r["driver"].as_str().unwrap().split(' ').next(),
        Some("rdnaprobe-recompiler")
    );
    assert!(!r["host"].as_str().unwrap().is_empty());
    assert_eq!(r["git_commit"].as_str().unwrap().len(), 40);
    assert_eq!(r["outputs"].as_array().unwrap().len(), 2);
    let table = rdnaprobe(["store", "ls", "--store", &st]);
    assert!(printed(&table).contains(r["id"].as_str().unwrap()));

    // The results table, through a polars lazy scan over the store.
    let handle = rdnaprobe_reports::store::Store::open(&store).unwrap();
    let df = rdnaprobe_reports::store::results::scan_results(&handle)
        .unwrap()
        .collect()
        .unwrap();
    assert_eq!(df.height() as u64, rows);
    let columns: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        columns.join(","),
        "run,backend,family,instruction,mode,wave,class,class_code,max_ulp,ulp_bucket,\
         unexpected,row_id,file,row,detail,repro"
    );

    // regress: a run against itself moves nothing; a worse copy regresses; bad input is 2.
    let id = r["id"].as_str().unwrap();
    let o = rdnaprobe(["regress", &id[..6], id, "--store", &st]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    assert!(printed(&o).contains("0 groups moved"), "{}", printed(&o));
    let worse = tmp.join("worse");
    std::fs::create_dir_all(&worse).unwrap();
    for d in DATASETS {
        for ext in ["csv", "manifest.json"] {
            let name = format!("{d}.{ext}");
            std::fs::copy(tmp.join("a").join(&name), worse.join(&name)).unwrap();
        }
    }
    let log = worse.join("log.csv");
    let t = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, t.replacen(",0xbf800000,", ",0x7fc00000,", 1)).unwrap();
    let o = rdnaprobe(["regress", &s(&tmp.join("a")), &s(&worse)]);
    assert_eq!(o.status.code(), Some(1), "{}", printed(&o));
    let out = printed(&o);
    assert!(
        out.contains("v_log_f32") && out.contains("REGRESSED"),
        "{out}"
    );
    let o = rdnaprobe([
        "regress",
        &s(&worse),
        &s(&tmp.join("a")),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (
            j["totals"]["fixed"].as_u64(),
            j["totals"]["regressed"].as_u64()
        ),
        (Some(1), Some(0))
    );

    let hw = common::repo_root().join("datasets/rdna2/log.csv");
    let o = rdnaprobe(["store", "add", &s(&hw), "--store", &st]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        printed(&o).contains("not a replay output"),
        "{}",
        printed(&o)
    );
    let o = rdnaprobe(["store", "ls", "--store", &s(&tmp.join("a"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        printed(&o).contains("not a results store"),
        "{}",
        printed(&o)
    );
    let o = rdnaprobe(["regress", "nope", id, "--store", &st]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        printed(&o).contains("no run id starts with \"nope\""),
        "{}",
        printed(&o)
    );
}
