//! `replay --backend hip-template-cpu`: the code objects the `hip` backend loads (the lane or
//! wave template around each row's body, assembled by comgr) dispatched on the CPU model with
//! the buffers and kernel arguments `hip` passes, against `replay --backend cpu` of the same
//! rows, for every row of every shipped lane dataset (datasets/rdna2) and wave dataset
//! (datasets/wave). Every column but `backend` must be equal, except in the waves that
//! tests/data/hip_template_cpu_known.csv lists with the reason; each of those must still show
//! the difference it names, so a stale entry fails too.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

struct Known {
    status: String,
    /// Columns allowed to differ in an `ok` row; `None` for a row that did not run.
    columns: Option<BTreeSet<String>>,
    hit: usize,
}

fn known() -> HashMap<(String, String), Known> {
    let path = common::repo_root().join("runner/tests/data/hip_template_cpu_known.csv");
    let mut r = csv::Reader::from_path(&path).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let columns = (&rec[3] != "-").then(|| rec[3].split(' ').map(String::from).collect());
            (
                (rec[0].to_string(), rec[1].to_string()),
                Known {
                    status: rec[2].to_string(),
                    columns,
                    hit: 0,
                },
            )
        })
        .collect()
}

/// Replays `input` on `backend`; `Err` with stderr when the backend cannot open.
fn replay(input: &Path, backend: &str, out: &Path) -> Result<Vec<csv::StringRecord>, String> {
    let o = Command::new(common::bin())
        .args(["replay", "-b", backend, "-o"])
        .arg(out)
        .arg(input)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    if !o.status.success() {
        return Err(stderr);
    }
    let mut r = csv::Reader::from_path(out).unwrap();
    let head = r.headers().unwrap().clone();
    let mut rows = vec![head];
    rows.extend(r.records().map(Result::unwrap));
    Ok(rows)
}

/// The one chip the rows' `gfx` cells name (the template is assembled for it), or gfx1030.
fn chip(rows: &[csv::StringRecord]) -> String {
    let gfx = rows[0].iter().position(|h| h == "gfx").unwrap();
    let cells: BTreeSet<&str> = rows[1..].iter().map(|r| &r[gfx]).collect();
    match cells.into_iter().collect::<Vec<_>>()[..] {
        [one] if one.starts_with("gfx10") && one != "gfx103x" => one.to_string(),
        _ => "gfx1030".to_string(),
    }
}

#[test]
fn templates_on_the_cpu_model_equal_the_cpu_replay() {
    let dir = common::scratch_dir("hip-template-cpu");
    let mut known = known();
    let mut total = (0, 0);
    for sub in ["rdna2", "wave"] {
        for input in common::repo_files(&format!("datasets/{sub}"), "csv") {
            let name = format!("{sub}/{}", input.file_stem().unwrap().to_str().unwrap());
            let stem = name.replace('/', "-");
            let cpu = replay(&input, "cpu", &dir.join(format!("{stem}-cpu.csv"))).unwrap();
            let backend = format!("hip-template-cpu:{}", chip(&cpu));
            let got = match replay(&input, &backend, &dir.join(format!("{stem}-tmpl.csv"))) {
                Ok(g) => g,
                Err(e) if e.contains("backend unavailable") => {
                    eprintln!("skipped: {}", e.trim());
                    return;
                }
                Err(e) => panic!("{name}: {e}"),
            };
            let head = &cpu[0];
            assert_eq!(head, &got[0], "{name}: columns");
            assert_eq!(cpu.len(), got.len(), "{name}: rows");
            let col = |n: &str| head.iter().position(|h| h == n);
            let (status, backend_col) = (col("status").unwrap(), col("backend").unwrap());
            let outs: Vec<usize> = (0..16).map(|k| col(&format!("out{k}")).unwrap()).collect();
            let (mut equal, mut explained) = (0, 0);
            for (line, (c, g)) in cpu[1..].iter().zip(&got[1..]).enumerate() {
                let differ: BTreeSet<String> = (0..head.len())
                    .filter(|&i| i != backend_col && c[i] != g[i])
                    .map(|i| head[i].to_string())
                    .collect();
                if differ.is_empty() {
                    equal += 1;
                    continue;
                }
                let wave = col("wave_id").map_or("", |i| &g[i]).to_string();
                // an entry for the wave, else one for every wave of the dataset (`*`)
                let key = if known.contains_key(&(name.clone(), wave.clone())) {
                    (name.clone(), wave)
                } else {
                    (name.clone(), "*".to_string())
                };
                let Some(k) = known.get_mut(&key) else {
                    panic!(
                        "{name} data row {}: {differ:?} differ (template `{}`, cpu `{}`): {}",
                        line + 1,
                        &g[status],
                        &c[status],
                        &g[0]
                    )
                };
                assert!(
                    g[status].starts_with(&k.status),
                    "{name} data row {}: template status `{}`, the known entry says `{}`",
                    line + 1,
                    &g[status],
                    k.status
                );
                match &k.columns {
                    Some(cols) => assert!(
                        differ.is_subset(cols),
                        "{name} data row {}: {differ:?} differ, the known entry allows {cols:?}",
                        line + 1
                    ),
                    None => assert!(
                        outs.iter().all(|&i| g[i].is_empty()),
                        "{name} data row {}: a row that did not run has outputs",
                        line + 1
                    ),
                }
                k.hit += 1;
                explained += 1;
            }
            eprintln!(
                "{name}: {} rows on {backend}: {equal} equal to cpu, {explained} in the known list",
                cpu.len() - 1
            );
            total.0 += cpu.len() - 1;
            total.1 += equal;
        }
    }
    for ((d, w), k) in &known {
        assert!(k.hit > 0, "known entry {d} {w} matched no row: remove it");
    }
    eprintln!("all: {} rows, {} equal", total.0, total.1);
    assert!(total.1 > 0);
}
