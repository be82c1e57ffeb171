//! `rdnaprobe store add` beyond replay outputs, and its failure behaviour:
//! - an `rdnaprobe exhaustive` result directory is one run of kind `exhaustive`, with the
//!   manifest's counts, its mismatching rows in the results, listed by `store ls` and shown in
//!   the site's history and matrix;
//! - a sweep output is a run of kind `sweep`, joined to the `--reference` of the same name;
//! - bad input (a malformed cell) fails with file:line:column and exit 2 and leaves no store;
//! - a run an interrupted add left half-written is not listed, and the next add completes it;
//! - `regress --format md` prints the Markdown table, with the exit codes 0/1/2.
#![cfg(feature = "report")]

mod common;

use std::path::Path;

use common::{printed, rdnaprobe, rdnaprobe_env, s};
use serde_json::Value;

fn ls(store: &Path) -> Vec<Value> {
    let o = rdnaprobe(["store", "ls", "--store", &s(store), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    serde_json::from_slice::<Value>(&o.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn replay_log(dir: &Path) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let hw = common::repo_root().join("datasets/rdna2/log.csv");
    let out = format!("{}/", dir.display());
    let o = rdnaprobe(["replay", &s(&hw), "--backend", "cpu", "-o", &out]);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", printed(&o));
    s(&dir.join("log.csv"))
}

#[test]
fn bad_input_leaves_no_store_and_half_runs_are_completed() {
    let tmp = common::scratch_dir("store_kinds_bad");
    let good = replay_log(&tmp.join("good"));

    // A malformed cell in data row 6 (line 7): exit 2, the file:line:column, and no store directory.
    let bad_dir = tmp.join("bad");
    std::fs::create_dir_all(&bad_dir).unwrap();
    for ext in ["csv", "manifest.json"] {
        let name = format!("log.{ext}");
        std::fs::copy(tmp.join("good").join(&name), bad_dir.join(&name)).unwrap();
    }
    let bad = bad_dir.join("log.csv");
    let mut reader = csv::Reader::from_path(&bad).unwrap();
    let header = reader.headers().unwrap().clone();
    let mut records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let col = header.iter().position(|h| h == "in0").unwrap();
    let mut cells: Vec<String> = records[5].iter().map(String::from).collect();
    cells[col] = "0xZZ".into();
    records[5] = csv::StringRecord::from(cells);
    let mut writer = csv::Writer::from_path(&bad).unwrap();
    writer.write_record(&header).unwrap();
    for r in &records {
        writer.write_record(r).unwrap();
    }
    writer.flush().unwrap();
    let fresh = tmp.join("fresh");
    let o = rdnaprobe(["store", "add", &s(&bad), "--store", &s(&fresh)]);
    assert_eq!(o.status.code(), Some(2), "{}", printed(&o));
    assert!(
        printed(&o).contains(&format!("log.csv:7:{} (in0)", col + 1)),
        "{}",
        printed(&o)
    );
    assert!(
        !fresh.exists(),
        "a failed add into a new store leaves nothing"
    );
    // A missing output: checked before anything is created.
    let o = rdnaprobe(["store", "add", &good, "nope.csv", "--store", &s(&fresh)]);
    assert_eq!(o.status.code(), Some(2), "{}", printed(&o));
    assert!(!fresh.exists());

    // An add killed after writing the run but before its rename leaves `runs/.tmp-<id>`.
    let whole = tmp.join("whole");
    let o = rdnaprobe(["store", "add", &good, "--store", &s(&whole)]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    let id = ls(&whole)[0]["id"].as_str().unwrap().to_string();
    let half = tmp.join("half");
    std::fs::create_dir_all(half.join("runs")).unwrap();
    std::fs::create_dir_all(half.join("objects")).unwrap();
    let tmp_run = half.join("runs").join(format!(".tmp-{id}"));
    std::fs::create_dir_all(&tmp_run).unwrap();
    for f in ["run.json", "results.parquet"] {
        std::fs::copy(whole.join("runs").join(&id).join(f), tmp_run.join(f)).unwrap();
    }
    assert!(ls(&half).is_empty(), "a half-written run is not a run");
    let o = rdnaprobe(["store", "add", &good, "--store", &s(&half)]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    assert!(
        printed(&o).starts_with(&format!("added run {id}")),
        "{}",
        printed(&o)
    );
    let runs = ls(&half);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["rows"], ls(&whole)[0]["rows"]);
    assert!(!tmp_run.exists());

    // regress --format md: the Markdown table, exit 1 on a regression, 0 without, 2 on bad
    // input.
    let worse = tmp.join("worse");
    std::fs::create_dir_all(&worse).unwrap();
    for ext in ["csv", "manifest.json"] {
        let name = format!("log.{ext}");
        std::fs::copy(tmp.join("good").join(&name), worse.join(&name)).unwrap();
    }
    let log = worse.join("log.csv");
    let t = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, t.replacen(",0xbf800000,", ",0x7fc00000,", 1)).unwrap();
    let o = rdnaprobe(["regress", &good, &s(&log), "--format", "md"]);
    assert_eq!(o.status.code(), Some(1), "{}", printed(&o));
    let md = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = md.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("| instruction | mode |"))
        .expect("a Markdown table header");
    assert!(lines[header + 1].starts_with("|---|---|--:|"), "{md}");
    let row: Vec<&str> = lines[header + 2].split(" | ").collect();
    assert_eq!(row[0], "| `v_log_f32`", "{md}");
    assert_eq!(row[3], "**1**", "one row regressed: {md}");
    assert!(
        lines[header + 3].starts_with("| **total** | 1 groups moved |"),
        "{md}"
    );
    let o = rdnaprobe(["regress", &good, &good, "--format", "md"]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    assert!(
        printed(&o).contains("| **total** | 0 groups moved |"),
        "{}",
        printed(&o)
    );
    let o = rdnaprobe(["regress", &good, "nope.csv", "--format", "md"]);
    assert_eq!(o.status.code(), Some(2), "{}", printed(&o));
}

#[test]
fn exhaustive_and_sweep_outputs_are_runs() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let tmp = common::scratch_dir("store_kinds_runs");
    let ex = tmp.join("ex");
    // lavapipe gives the CPU model's bits on v_log_f32 (its IR is exact operations), so the
    // exhaustive run gets its mismatching rows from the test hook: out0 of every 97th row
    // flipped, 338 rows over both modes, more than the 300 it may write.
    let flip = [("RDNAPROBE_EXHAUSTIVE_FLIP_EVERY", "97")];
    let o = rdnaprobe_env(
        [
            "exhaustive",
            "--asm",
            "v_log_f32 v10, v4",
            "--input",
            "in0=range:0x3f7fe000:0x3f801fff",
            "--modes",
            "denorm32=0/3",
            "--backend",
            "vulkan:lavapipe",
            "--reference",
            "cpu",
            "--max-mismatches",
            "300",
            "-o",
            &s(&ex),
        ],
        &flip,
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "flipped rows differ: {}",
        printed(&o)
    );
    let m: Value =
        serde_json::from_slice(&std::fs::read(ex.join("manifest.json")).unwrap()).unwrap();
    let store = tmp.join("store");
    let st = s(&store);
    let o = rdnaprobe(["store", "add", &s(&ex), "--store", &st]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    let o = rdnaprobe([
        "store",
        "add",
        &s(&ex.join("manifest.json")),
        "--store",
        &st,
    ]);
    assert!(printed(&o).starts_with("already stored"), "{}", printed(&o));

    // A sweep on lavapipe against the same sweep on the CPU model.
    let spec = common::repo_root().join("datasets/specs/dx10_clamp.toml");
    for (backend, dir) in [("cpu", "sw-cpu"), ("vulkan:lavapipe", "sw-lvp")] {
        std::fs::create_dir_all(tmp.join(dir)).unwrap();
        let out = s(&tmp.join(dir).join("dx10_clamp.csv"));
        let o = rdnaprobe(["sweep", &s(&spec), "--backend", backend, "-o", &out]);
        assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    }
    let sweep_rows = csv::Reader::from_path(tmp.join("sw-lvp/dx10_clamp.csv"))
        .unwrap()
        .records()
        .count() as u64;
    let lvp = s(&tmp.join("sw-lvp/dx10_clamp.csv"));
    let o = rdnaprobe(["store", "add", &lvp, "--store", &st]);
    assert_eq!(o.status.code(), Some(2), "no reference: {}", printed(&o));
    assert!(printed(&o).contains("--reference"), "{}", printed(&o));
    let hw = common::repo_root().join("datasets/rdna2/dx10_clamp.csv");
    let o = rdnaprobe(["store", "add", &lvp, "--store", &st, "--reference", &s(&hw)]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "other experiments: {}",
        printed(&o)
    );
    assert!(printed(&o).contains("none of its"), "{}", printed(&o));
    let cpu_sweep = s(&tmp.join("sw-cpu/dx10_clamp.csv"));
    let o = rdnaprobe([
        "store",
        "add",
        &lvp,
        "--store",
        &st,
        "--reference",
        &cpu_sweep,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));

    let runs = ls(&store);
    assert_eq!(runs.len(), 2);
    let exh = runs.iter().find(|r| r["kind"] == "exhaustive").unwrap();
    assert_eq!(exh["backend"], "vulkan:lavapipe");
    assert_eq!(exh["rows"], m["rows"]);
    assert_eq!(exh["classes"], m["classes"]);
    assert_eq!(exh["exact"], m["classes"]["exact"]);
    assert_eq!(exh["unexpected"], m["mismatches"]["total"]);
    assert_eq!(exh["result_rows"], m["mismatches"]["written"]);
    let modes = exh["modes"].as_array().unwrap();
    assert_eq!(modes.len(), 2);
    for (mine, theirs) in modes.iter().zip(m["modes_detail"].as_array().unwrap()) {
        assert_eq!(mine["instruction"], "v_log_f32");
        assert_eq!(mine["rows"], theirs["rows"]);
        assert_eq!(mine["classes"], theirs["classes"]);
    }
    let sweep = runs.iter().find(|r| r["kind"] == "sweep").unwrap();
    assert_eq!(sweep["compared"], sweep_rows);
    assert_eq!(sweep["outputs"][0]["reference"]["name"], "dx10_clamp.csv");
    let table = printed(&rdnaprobe(["store", "ls", "--store", &st]));
    assert!(
        table.contains("  exhaustive  ") && table.contains("  sweep  "),
        "{table}"
    );

    // The results hold the written mismatching rows, with their classes and repros.
    let handle = rdnaprobe_reports::store::Store::open(&store).unwrap();
    let id = exh["id"].as_str().unwrap();
    let df = rdnaprobe_reports::store::results::scan_run(&handle, id)
        .unwrap()
        .collect()
        .unwrap();
    assert_eq!(
        df.height() as u64,
        m["mismatches"]["written"].as_u64().unwrap()
    );
    let classes = df.column("class").unwrap().str().unwrap().clone();
    let exact = (0..classes.len())
        .filter(|&i| classes.get(i) == Some("exact"))
        .count();
    assert_eq!(exact, 0, "only mismatching rows");
    assert_eq!(df.column("repro").unwrap().null_count(), 0);
    let o = rdnaprobe(["regress", id, id, "--store", &st]);
    assert_eq!(o.status.code(), Some(2), "{}", printed(&o));
    assert!(printed(&o).contains("kind exhaustive"), "{}", printed(&o));

    // The site: an exhaustive column whose per-mode exact shares are the manifest's, and the
    // kinds in the history.
    let site = tmp.join("site");
    let o = rdnaprobe(["publish", "--store", &st, "-o", &s(&site)]);
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    let page = std::fs::read_to_string(site.join("i/v_log_f32.html")).unwrap();
    let shares: Vec<String> = page
        .lines()
        .filter(|l| l.contains("data-backend=\"vulkan:lavapipe exhaustive\""))
        .map(|l| {
            let at = l.find("class=\"num exact\">").unwrap() + "class=\"num exact\">".len();
            l[at..l[at..].find('<').unwrap() + at].to_string()
        })
        .collect();
    let want: Vec<String> = m["modes_detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let exact = d["classes"]["exact"].as_u64().unwrap_or(0) as f64;
            format!("{:.2}%", 100.0 * exact / d["rows"].as_u64().unwrap() as f64)
        })
        .collect();
    assert_eq!(shares, want, "{page}");
    assert!(site
        .join("img/heat-vulkan-lavapipe-exhaustive.svg")
        .is_file());
    let history = std::fs::read_to_string(site.join("history.html")).unwrap();
    for kind in ["exhaustive", "sweep"] {
        assert!(
            history.contains(&format!("<td class=\"kind\">{kind}</td>")),
            "{history}"
        );
    }
}
