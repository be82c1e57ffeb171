//! The shipped hardware rows (datasets/rdna2/*.csv, lane contract) as the recompiler's tests
//! read them: body words, float mode, wave, target, inputs and the measured out0/out1.
//! `RDNAPROBE_HWDATA=DIR` reads another folder of lane CSVs.

#![allow(dead_code)] // each test binary uses a part of it

use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_recompiler::{interp, lower_words};
use std::path::{Path, PathBuf};

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

pub fn data_dir() -> PathBuf {
    if let Ok(d) = std::env::var("RDNAPROBE_HWDATA") {
        return PathBuf::from(d);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/rdna2")
}

pub fn hex(s: &str) -> Option<u32> {
    let s = s.trim();
    let s = s.strip_prefix("0x").unwrap_or(s);
    u32::from_str_radix(s, 16).ok()
}

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
        let mut rd = csv::Reader::from_path(&path).expect("readable csv");
        let hdr: Vec<String> = rd
            .headers()
            .expect("header")
            .iter()
            .map(String::from)
            .collect();
        let col = |n: &str| hdr.iter().position(|h| h == n);
        if col("encoding").is_none() || col("row_id").is_none() {
            continue;
        }
        for (i, rec) in rd.records().enumerate() {
            let rec = rec.expect("csv record");
            let get = |n: &str| col(n).and_then(|c| rec.get(c)).unwrap_or("").to_string();
            let enc = get("encoding");
            if enc.trim() == "n/a" || enc.trim().is_empty() {
                continue;
            }
            let words: Vec<u32> = enc.split_whitespace().filter_map(hex).collect();
            let d = FloatMode::DEFAULT;
            let cell = |n: &str, dflt: u8| get(n).trim().parse::<u8>().unwrap_or(dflt);
            let mode = FloatMode {
                ieee: cell("ieee", u8::from(d.ieee)) != 0,
                dx10_clamp: cell("dx10_clamp", u8::from(d.dx10_clamp)) != 0,
                denorm32: cell("denorm32", d.denorm32),
                denorm16: cell("denorm16", d.denorm16),
                round32: cell("round32", d.round32),
                round16: cell("round16", d.round16),
                fp16_overflow: cell("fp16_overflow", u8::from(d.fp16_overflow)) != 0,
            };
            let wave = if get("wave").trim() == "64" {
                Wave::W64
            } else {
                Wave::W32
            };
            let gfx: Target = get("gfx").parse().unwrap_or(Target::Gfx1030);
            let mut inputs = [0u32; 6];
            for (k, v) in inputs.iter_mut().enumerate() {
                *v = hex(&get(&format!("in{k}"))).unwrap_or(0);
            }
            let expect = [hex(&get("out0")), hex(&get("out1"))];
            let id = get("row_id");
            let id = if id.is_empty() {
                format!("{name}:{i}")
            } else {
                id
            };
            rows.push(Row {
                file: name.clone(),
                id,
                words,
                mode,
                wave,
                gfx,
                inputs,
                expect,
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
