//! Wave-contract rows (docs/dataset-format.md, "Wave contract") as the recompiler's tests read
//! them: each wave of a CSV in a folder, named `FILE:WAVE_ID`, run on the CPU model of a wave
//! and compared with its expected cells (lane outputs and the wave's uniform outputs).

#![allow(dead_code)] // each test binary uses a part of it

use rdnaprobe_dataset::{
    group_waves, read_dataset, Row, WaveCol, WaveInputs, WaveLayout, WaveOutputs,
};
use rdnaprobe_recompiler::wave::{run_wave_mem, WaveInput};
use rdnaprobe_recompiler::{lower_wave_words_sgprs, specialises_on_sgprs};
use std::path::{Path, PathBuf};

/// One wave of a wave dataset: its rows (lanes) and where their wave cells are.
pub struct Wave {
    pub id: String,
    pub rows: Vec<Row>,
    pub lanes: Vec<u32>,
    pub inputs: WaveInputs,
    pub layout: WaveLayout,
}

/// Every wave of every wave-contract CSV in `dir` (lane-contract CSVs are skipped).
pub fn load(dir: &Path) -> Vec<Wave> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("wave rows not found in {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let ds = read_dataset(&path).unwrap_or_else(|e| panic!("{e}"));
        let Some(layout) = WaveLayout::from_columns(&ds.extra_columns) else {
            continue;
        };
        let waves =
            group_waves(&ds.rows, &layout).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for w in waves {
            let first = &ds.rows[w.start];
            out.push(Wave {
                id: format!("{name}:{}", layout.cell(first, WaveCol::WaveId)),
                rows: ds.rows[w.start..w.end].to_vec(),
                lanes: w.lanes,
                inputs: w.inputs,
                layout: layout.clone(),
            });
        }
    }
    out
}

impl Wave {
    /// The wave's kernel, lowered as the runner lowers it: for its `s_in` when the body has image
    /// instructions (`specialises_on_sgprs`).
    pub fn lower(
        &self,
    ) -> Result<rdnaprobe_recompiler::ir::Kernel, rdnaprobe_recompiler::LowerError> {
        let first = &self.rows[0];
        let words = &first.encoding;
        let sgprs = specialises_on_sgprs(words).then_some(&self.inputs.sgprs);
        lower_wave_words_sgprs(
            words,
            first.float_mode(),
            first.wave_size().unwrap_or_default(),
            first.target().unwrap_or(rdnaprobe_isa::Target::DEFAULT),
            4 * self.inputs.mem.len() as u32,
            sgprs,
        )
    }

    /// Runs the wave on the CPU model and lists every expected cell it does not reproduce
    /// (empty: bit for bit), or why it could not run.
    pub fn replay(&self) -> Result<Vec<String>, String> {
        let first = &self.rows[0];
        let wave = first.wave_size().map_err(|e| e.to_string())?;
        first.target().map_err(|e| e.to_string())?;
        let n = wave.lanes();
        let mut lanes = vec![[0u32; 6]; n as usize];
        for (r, &lane) in self.rows.iter().zip(&self.lanes) {
            lanes[lane as usize] = r.inputs;
        }
        let input = WaveInput {
            lanes,
            sgprs: self.inputs.sgprs,
            exec: self.inputs.exec_mask(n),
            lds: self.inputs.lds.clone(),
        };
        let mem = &self.inputs.mem;
        let kernel = self.lower().map_err(|e| e.to_string())?;
        let (out, mem_after) = run_wave_mem(&kernel, &input, mem);
        if let Some(e) = out.error {
            return Err(e);
        }
        let mut diffs = Vec::new();
        for (r, &lane) in self.rows.iter().zip(&self.lanes) {
            let got = out.lanes[lane as usize];
            for (i, want) in r.outputs.iter().enumerate() {
                if let Some(w) = want.filter(|&w| w != got[i]) {
                    diffs.push(format!(
                        "lane {lane} out{i}: {:#010x}, expected {w:#010x}",
                        got[i]
                    ));
                }
            }
        }
        let u = out.uniform.unwrap_or_default();
        let computed = WaveOutputs {
            sgprs: u.sgprs,
            exec: u.exec,
            vcc: u.vcc,
            scc: u.scc,
            lds: out.lds,
            mem: mem_after,
        };
        let mut got_row = first.clone();
        self.layout.set_outputs(&mut got_row, Some(&computed));
        for c in WaveCol::UNIFORM_OUT
            .into_iter()
            .filter(|&c| self.layout.has(c))
        {
            let (want, got) = (self.layout.cell(first, c), self.layout.cell(&got_row, c));
            if !want.is_empty() && want != got {
                diffs.push(format!("{}: {got}, expected {want}", c.name()));
            }
        }
        Ok(diffs)
    }
}
