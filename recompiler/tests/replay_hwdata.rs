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
use rdnaprobe_isa::known::{self, KnownEntry, Scope};
use rdnaprobe_recompiler::{interp, lower_words};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn expected_list_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected-mismatches.toml")
}

/// The `hardware` entries of tests/expected-mismatches.toml (the project's known-differences
/// format): every listed row id with the id of its entry.
fn load_expected() -> (Vec<KnownEntry>, BTreeMap<String, String>) {
    let path = expected_list_path();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let entries = known::parse(&text, Scope::Hardware, &["rows", "instruction"])
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows = entries
        .iter()
        .flat_map(|e| e.rows.iter().map(|r| (r.clone(), e.id.clone())))
        .collect();
    (entries, rows)
}

/// Rewrites tests/expected-mismatches.toml: each entry keeps the rows that still mismatch, new
/// rows go to an `unclassified` entry (to be classified by hand), entries left without rows go.
fn bless_expected(entries: &[KnownEntry], mism: &BTreeMap<String, String>) {
    let listed: BTreeMap<&str, &str> = entries
        .iter()
        .flat_map(|e| e.rows.iter().map(|r| (r.as_str(), e.id.as_str())))
        .collect();
    let q = |s: &str| format!("{s:?}");
    let mut text = String::from(
        "# Known differences of scope `hardware`: rows of datasets/rdna2 that the CPU model does not\n\
         # reproduce bit for bit, grouped by reason (format: recompiler/isa/src/known.rs). The\n\
         # replay_hwdata test fails on a mismatching row listed nowhere; BLESS=1 rewrites the row\n\
         # lists (new rows go to `unclassified`: classify them by hand).\n",
    );
    let mut write =
        |id: &str, rule: Option<&str>, reason: &str, evidence: &str, rows: Vec<&str>| {
            if rows.is_empty() {
                return;
            }
            text.push_str(&format!(
                "\n[[known]]\nid = {}\nscope = \"hardware\"\n",
                q(id)
            ));
            if let Some(r) = rule {
                text.push_str(&format!("rule = {}\n", q(r)));
            }
            text.push_str(&format!(
                "reason = {}\nevidence = {}\nrows = [\n",
                q(reason),
                q(evidence)
            ));
            for r in rows {
                text.push_str(&format!("    {},\n", q(r)));
            }
            text.push_str("]\n");
        };
    for e in entries.iter().filter(|e| e.id != "unclassified") {
        let rows = e
            .rows
            .iter()
            .map(String::as_str)
            .filter(|r| mism.contains_key(*r))
            .collect();
        write(&e.id, e.rule.as_deref(), &e.reason, &e.evidence, rows);
    }
    let new = mism
        .keys()
        .map(String::as_str)
        .filter(|r| listed.get(r).is_none_or(|id| *id == "unclassified"))
        .collect();
    write(
        "unclassified",
        None,
        "not classified yet",
        "the replay_hwdata test's output",
        new,
    );
    std::fs::write(expected_list_path(), text).expect("write expected-mismatches.toml");
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

    let (entries, listed) = load_expected();
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        bless_expected(&entries, &mism);
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
