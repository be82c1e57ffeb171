//! Replays every shipped hardware row (datasets/rdna2/*.csv, lane contract) through
//! decode -> lower -> interp and compares out0/out1 bit for bit (an empty expected cell is not
//! compared). Prints per-file exact shares, asserts the overall share >= 99% and that every
//! mismatching row is listed in tests/expected-mismatches.toml with its reason class.
//!
//! `BLESS=1 cargo test -p rdnaprobe-recompiler --test replay_hwdata` rewrites the list (new
//! rows get the class `unclassified`, rows that match again are dropped).
//! `RDNAPROBE_HWDATA=DIR` replays another folder of lane CSVs.

mod common;

use common::hwdata::{data_dir, load};
use rdnaprobe_recompiler::{interp, lower_words};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn expected_list_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected-mismatches.toml")
}

fn load_expected() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(expected_list_path()).unwrap_or_default();
    let v: toml::Value = toml::from_str(&text).expect("expected-mismatches.toml parses");
    let mut out = BTreeMap::new();
    if let Some(t) = v.get("rows").and_then(|r| r.as_table()) {
        for (k, v) in t {
            out.insert(k.clone(), v.as_str().unwrap_or("").to_string());
        }
    }
    out
}

#[test]
fn replay_shipped_hardware_rows() {
    let dir = data_dir();
    let rows = load(&dir);
    assert!(!rows.is_empty(), "no rows under {}", dir.display());
    let mut kernels = HashMap::new();
    // per file: (rows, exact); legacy gfx1010 rows counted apart
    let mut per_file: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut mism: BTreeMap<String, String> = BTreeMap::new();
    for r in &rows {
        let key = (r.words.clone(), r.mode, r.wave, r.gfx);
        let k = kernels
            .entry(key)
            .or_insert_with(|| lower_words(&r.words, r.mode, r.wave, r.gfx));
        let label = if r.gfx.is_rdna1() {
            format!("{} ({})", r.file, r.gfx)
        } else {
            r.file.clone()
        };
        let e = per_file.entry(label).or_default();
        e.0 += 1;
        match k {
            Ok(kernel) => {
                let out = interp::run(kernel, r.inputs, 0);
                let ok = r
                    .expect
                    .iter()
                    .enumerate()
                    .all(|(i, x)| x.is_none_or(|x| x == out[i]));
                if ok {
                    e.1 += 1;
                } else {
                    let got: Vec<String> = (0..2)
                        .filter(|&i| r.expect[i].is_some())
                        .map(|i| format!("{:#010x}", out[i]))
                        .collect();
                    let want: Vec<String> = r
                        .expect
                        .iter()
                        .flatten()
                        .map(|x| format!("{x:#010x}"))
                        .collect();
                    mism.insert(
                        r.id.clone(),
                        format!("got {} want {}", got.join(","), want.join(",")),
                    );
                }
            }
            Err(err) => {
                mism.insert(r.id.clone(), format!("unsupported: {err}"));
            }
        }
    }
    let (mut n, mut ok) = (0, 0);
    for (f, (rows, exact)) in &per_file {
        eprintln!(
            "{f:40} {exact:5}/{rows:5} = {:6.2}%",
            100.0 * *exact as f64 / *rows as f64
        );
        n += rows;
        ok += exact;
    }
    let share = ok as f64 / n as f64;
    eprintln!("{:40} {ok:5}/{n:5} = {:6.2}%", "total", 100.0 * share);

    let listed = load_expected();
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        let mut text = String::from(
            "# Rows of datasets/rdna2 that the CPU model does not reproduce bit for bit, with the\n\
             # reason class (docs/semantics.md). Regenerate with BLESS=1; classify new rows by hand.\n\n[rows]\n",
        );
        for id in mism.keys() {
            let class = listed
                .get(id)
                .cloned()
                .unwrap_or_else(|| "unclassified".into());
            text.push_str(&format!("{id:?} = {class:?}\n"));
        }
        std::fs::write(expected_list_path(), text).expect("write expected-mismatches.toml");
    }
    let new: Vec<String> = mism
        .iter()
        .filter(|(id, _)| !listed.contains_key(*id))
        .map(|(id, why)| format!("{id}: {why}"))
        .collect();
    let fixed: Vec<&String> = listed.keys().filter(|id| !mism.contains_key(*id)).collect();
    if !fixed.is_empty() {
        eprintln!(
            "{} listed rows match now (run with BLESS=1 to drop them): {:?}",
            fixed.len(),
            fixed
        );
    }
    assert!(
        new.is_empty(),
        "{} rows mismatch that are not in expected-mismatches.toml:\n{}",
        new.len(),
        new.join("\n")
    );
    assert!(share >= 0.99, "exact share {share:.4} is below 0.99");
}
