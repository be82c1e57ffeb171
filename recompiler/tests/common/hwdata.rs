//! The shipped hardware rows (datasets/rdna2/*.csv, lane contract) as the recompiler's tests
//! read them: body words, float mode, wave, target, inputs and the measured out0/out1.
//! `RDNAPROBE_HWDATA=DIR` reads another folder of lane CSVs.

#![allow(dead_code)] // each test binary uses a part of it

use rdnaprobe_dataset::{read_dataset, WaveLayout};
use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_recompiler::{interp, lower_words};
use std::path::{Path, PathBuf};

/// One hardware row, resolved: its mode, wave and target as the dataset crate reads them.
pub struct Row {
    pub file: String,
    pub id: String,
    pub words: Vec<u32>,
    pub mode: FloatMode,
    pub wave: Wave,
    pub gfx: Target,
    pub inputs: [u32; 6],
    pub expect: [Option<u32>; 2],
}

/// datasets/rdna2, or `RDNAPROBE_HWDATA`.
pub fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("RDNAPROBE_HWDATA") {
        return PathBuf::from(d);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/rdna2")
}

/// Every row with instruction words of every lane-contract CSV in `dir`, through the dataset
/// crate's reader;
/// a row is named by its `row_id` cell, or `FILE:INDEX` without one.
pub fn load(dir: &Path) -> Vec<Row> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("hardware rows not found in {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    let mut rows = Vec::new();
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let ds = read_dataset(&path).unwrap_or_else(|e| panic!("{e}"));
        if WaveLayout::from_columns(&ds.extra_columns).is_some() {
            continue; // a wave-contract CSV: common::wavedata reads it
        }
        let id_col = ds.extra_columns.iter().position(|c| c == "row_id");
        for (i, r) in ds.rows.into_iter().enumerate() {
            if r.encoding.is_empty() {
                continue;
            }
            let id = id_col
                .and_then(|c| r.extra.get(c))
                .filter(|id| !id.is_empty())
                .cloned()
                .unwrap_or_else(|| format!("{name}:{i}"));
            rows.push(Row {
                file: name.clone(),
                id,
                mode: r.float_mode(),
                wave: r
                    .wave_size()
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
                gfx: r
                    .target()
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
                inputs: r.inputs,
                expect: [r.outputs[0], r.outputs[1]],
                words: r.encoding,
            });
        }
    }
    rows
}

impl Row {
    /// Runs the row on the CPU model: the sixteen output dwords, or why it could not be lowered.
    pub fn replay(&self) -> Result<[u32; 16], String> {
        let kernel =
            lower_words(&self.words, self.mode, self.wave, self.gfx).map_err(|e| e.to_string())?;
        Ok(interp::run(&kernel, self.inputs, 0))
    }

    /// Whether `out` equals every measured output (an empty expected cell is not compared).
    pub fn matches(&self, out: &[u32; 16]) -> bool {
        self.expect
            .iter()
            .enumerate()
            .all(|(i, x)| x.is_none_or(|x| x == out[i]))
    }
}
