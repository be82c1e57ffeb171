//! `rdnaprobe exhaustive` results in the store: a result directory (`manifest.json` of format
//! [`FORMAT`], with the digest, the class counts per mode and the timings, and
//! `mismatches.csv`, the first mismatching rows) becomes one run of kind `exhaustive`.
//!
//! Such a run cannot keep one results row per experiment (an exhaustive sweep has millions and
//! writes only its digest), so its counts live in the run manifest: `rows`, `compared`,
//! `exact`, `unexpected` (the mismatching rows: the CPU model is the reference, not the
//! hardware, and `--known` does not apply), `classes`, and per instruction x mode in `modes`.
//! `results.parquet` holds the written mismatching rows (`result_rows` of them), with the
//! columns of a replay run, so the worst rows, their repros and the ULP histograms of the site
//! come from the same scans.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use rdnaprobe_dataset::{parse_encoding, rfc3339_utc, sha256_file, FloatMode, ModeCells, Target};
use serde_json::Value;

use super::results::ResultsWriter;
use super::results::{begin_run, commit_run, AddOptions, Added, PlainRow, RemoveOnDrop};
use super::{host_name, run_id, ModeCounts, Put, RunManifest, RunOutput, Store};
use crate::classify::Class;
use crate::error::{Error, Result};
use crate::format;
use crate::input::Input;

/// The `format` of an exhaustive result's `manifest.json`.
pub const FORMAT: &str = "rdnaprobe exhaustive result v1";

/// The dataset family of an exhaustive run's rows.
pub const FAMILY: &str = "exhaustive";

/// The `manifest.json` of the exhaustive result at `path` (the result directory or that file
/// itself), or `None` when `path` is not one.
pub fn result_manifest(path: &Path) -> Option<PathBuf> {
    let manifest = if path.is_dir() {
        path.join("manifest.json")
    } else if path.file_name().is_some_and(|n| n == "manifest.json") {
        path.to_path_buf()
    } else {
        return None;
    };
    let text = fs::read_to_string(&manifest).ok()?;
    // The format line comes first; a cheap look before the full parse in `read`.
    text.contains(FORMAT).then_some(manifest)
}

fn bad(path: &Path, what: &str) -> Error {
    Error::Usage(format!(
        "{}: exhaustive result: {what} (expected the manifest.json `rdnaprobe exhaustive` writes)",
        path.display()
    ))
}

fn read(path: &Path) -> Result<Value> {
    let text = fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}:{}: exhaustive result manifest: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    if v["format"] != FORMAT {
        return Err(bad(path, "`format` is not the exhaustive result's"));
    }
    Ok(v)
}

fn str_at<'a>(path: &Path, v: &'a Value, pointer: &str) -> Result<&'a str> {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(path, &format!("no string at {pointer}")))
}

fn u64_at(path: &Path, v: &Value, pointer: &str) -> Result<u64> {
    v.pointer(pointer)
        .and_then(Value::as_u64)
        .ok_or_else(|| bad(path, &format!("no count at {pointer}")))
}

fn classes_of(path: &Path, v: &Value) -> Result<BTreeMap<String, u64>> {
    let Some(map) = v.as_object() else {
        return Err(bad(path, "class counts are not an object"));
    };
    map.iter()
        .map(|(k, n)| {
            if !Class::ALL.iter().any(|c| c.name() == k) {
                return Err(bad(path, &format!("unknown class {k:?}")));
            }
            n.as_u64()
                .map(|n| (k.clone(), n))
                .ok_or_else(|| bad(path, &format!("class {k:?}: not a count")))
        })
        .collect()
}

/// What the manifest says, checked.
struct Parsed {
    instruction: String,
    modes: Vec<ModeCounts>,
    mismatches: PathBuf,
    written: u64,
}

fn parse(path: &Path, v: &Value) -> Result<Parsed> {
    let words = parse_encoding(str_at(path, v, "/generator/body/encoding")?)
        .map_err(|e| bad(path, &format!("generator.body.encoding: {e}")))?;
    let text = str_at(path, v, "/generator/body/instruction")?;
    let gfx: Target = str_at(path, v, "/generator/gfx")?
        .parse()
        .map_err(|e| bad(path, &format!("generator.gfx: {e}")))?;
    let wave = u64_at(path, v, "/generator/wave")? as u32;
    let instruction = crate::subject::instruction_under_test(&words, text, gfx, FAMILY);
    let Some(details) = v["modes_detail"].as_array() else {
        return Err(bad(path, "no modes_detail"));
    };
    let mut modes = Vec::new();
    for (i, d) in details.iter().enumerate() {
        let mode: FloatMode = serde_json::from_value(d["mode"].clone())
            .map_err(|e| bad(path, &format!("modes_detail[{i}].mode: {e}")))?;
        modes.push(ModeCounts {
            instruction: instruction.clone(),
            mode: format::mode(&ModeCells::stated(&mode), Some(wave)),
            rows: u64_at(path, d, "/rows")?,
            classes: classes_of(path, &d["classes"])?,
            max_ulp: d["max_ulp"].as_u64(),
        });
    }
    let file = str_at(path, v, "/mismatches/file")?;
    Ok(Parsed {
        instruction,
        modes,
        mismatches: path.with_file_name(file),
        written: u64_at(path, v, "/mismatches/written")?,
    })
}

/// `out3 ref 0x... got 0x...`: the first output that differs from the reference's, whose
/// values sit in the `ref_out0..ref_out15` columns.
fn detail(item: &crate::input::Item, ref_cols: &[Option<usize>; 16]) -> String {
    for (k, col) in ref_cols.iter().enumerate() {
        let Some(reference) = col.and_then(|c| item.row.extra.get(c)) else {
            continue;
        };
        let got = item.row.outputs[k].map(|v| format!("0x{v:08x}"));
        if got.as_deref() != Some(reference.trim()) {
            return format!(
                "out{k} ref {} got {}",
                reference.trim(),
                got.unwrap_or_else(|| "-".into())
            );
        }
    }
    String::new()
}

/// Adds the exhaustive result whose `manifest.json` is `manifest` as one run.
pub fn add(store: &Store, manifest: &Path, options: &AddOptions) -> Result<Added> {
    let v = read(manifest)?;
    let parsed = parse(manifest, &v)?;
    let mm = Input::open(&parsed.mismatches)?;
    let col = |name: &str| mm.extra_columns().iter().position(|c| c == name);
    let (class_col, ulp_col, index_col) = (col("class"), col("ulp"), col("row_index"));
    if class_col.is_none() {
        return Err(bad(
            &parsed.mismatches,
            "no `class` column in the mismatching rows",
        ));
    }
    let ref_cols: [Option<usize>; 16] = std::array::from_fn(|k| col(&format!("ref_out{k}")));
    let hashes = [sha256_file(manifest)?, sha256_file(&parsed.mismatches)?];
    let id = run_id(&hashes);
    let run_json = store.run_dir(&id).join("run.json");
    if run_json.is_file() {
        return Ok(Added {
            run: super::read_run(&run_json)?,
            new_run: false,
            stored_files: 0,
            reused_files: 2,
        });
    }
    let backend = str_at(manifest, &v, "/candidate/backend")?.to_string();
    let rows = u64_at(manifest, &v, "/rows")?;
    let classes = classes_of(manifest, &v["classes"])?;
    let has_reference = v["reference"].is_object();

    let store = Store::create(&store.dir)?;
    let tmp = begin_run(&store, &id)?;
    let _cleanup = RemoveOnDrop(tmp.clone());
    let mut results = ResultsWriter::create(&tmp.join("results.parquet"), &id)?;
    let mut input = mm;
    while let Some(item) = input.next_item()? {
        let cell = |c: Option<usize>| c.and_then(|c| item.row.extra.get(c)).map(|s| s.trim());
        let name = cell(class_col).unwrap_or("");
        let Some(class) = Class::ALL.into_iter().find(|c| c.name() == name) else {
            return Err(Error::Usage(format!(
                "{}: row {}: unknown class {name:?}",
                parsed.mismatches.display(),
                item.index
            )));
        };
        let ulp = cell(ulp_col).filter(|s| !s.is_empty());
        let max_ulp = match ulp.map(str::parse::<u64>) {
            None => None,
            Some(Ok(u)) => Some(u),
            Some(Err(e)) => {
                return Err(Error::Usage(format!(
                    "{}: row {}: ulp {:?}: {e}",
                    parsed.mismatches.display(),
                    item.index,
                    ulp.unwrap_or("")
                )))
            }
        };
        let index = cell(index_col)
            .and_then(|s| s.parse().ok())
            .unwrap_or(item.index);
        results.push_plain(&PlainRow {
            backend: &backend,
            family: FAMILY,
            instruction: &parsed.instruction,
            row: &item.row,
            class,
            max_ulp,
            file: "mismatches.csv",
            index,
            detail: detail(&item, &ref_cols),
        })?;
    }
    let written = results.finish()?;
    if written != parsed.written {
        return Err(bad(
            manifest,
            &format!(
                "mismatches.written is {} but {} holds {written} rows",
                parsed.written,
                parsed.mismatches.display()
            ),
        ));
    }
    let (mut stored, mut reused) = (0u64, 0u64);
    let mut outputs = Vec::new();
    for (path, n) in [(manifest, rows), (parsed.mismatches.as_path(), written)] {
        let (file, put) = store.put(path, Some(n))?;
        match put {
            Put::Stored => stored += 1,
            Put::AlreadyStored => reused += 1,
        }
        outputs.push(RunOutput {
            output: file,
            reference: None,
        });
    }
    let exact = classes.get(Class::Exact.name()).copied().unwrap_or(0);
    let compared = if has_reference { rows } else { 0 };
    let run = RunManifest {
        id: id.clone(),
        kind: "exhaustive".into(),
        backend,
        device: str_at(manifest, &v, "/candidate/device")
            .unwrap_or("")
            .to_string(),
        driver: str_at(manifest, &v, "/candidate/driver")
            .unwrap_or("")
            .to_string(),
        driver_version: String::new(),
        recompiler_version: str_at(manifest, &v, "/rdnaprobe_version")?.to_string(),
        git_commit: v["git_commit"].as_str().unwrap_or("").to_string(),
        time: match &options.time {
            Some(t) => t.clone(),
            None => str_at(manifest, &v, "/created")?.to_string(),
        },
        added: rfc3339_utc(std::time::SystemTime::now()),
        host: options.host.clone().unwrap_or_else(host_name),
        outputs,
        rows,
        compared,
        exact,
        unexpected: u64_at(manifest, &v, "/mismatches/total")?,
        classes,
        result_rows: Some(written),
        modes: parsed.modes,
    };
    commit_run(&store, &tmp, &run)?;
    Ok(Added {
        run,
        new_run: true,
        stored_files: stored,
        reused_files: reused,
    })
}
