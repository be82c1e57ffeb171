//! One fuzz case (a program and the state of its wave before the body) as wave-dataset rows,
//! run on two backends and compared output by output.

use rdnaprobe_dataset::{ModeCells, Row, WaveLayout};
use rdnaprobe_recompiler::spirv::arbitrary::Rng;

use super::gen::{value, Program};
use crate::backend::{Backend, Status, WaveResults};

/// LDS dwords every case carries (`lds_bytes` = 4 x this).
pub const LDS_DWORDS: usize = 128;

/// Memory-region dwords every case carries (`mem_bytes` = 4 x this; the generator's global
/// accesses address it from s[16:17]).
pub const MEM_DWORDS: usize = 64;

/// The wave columns a case's rows carry, in order.
pub const COLUMNS: [&str; 14] = [
    "wave_id",
    "lane",
    "exec_in",
    "s_in",
    "lds_in",
    "lds_bytes",
    "mem_in",
    "mem_bytes",
    "mem_out",
    "s_out",
    "exec_out",
    "vcc_out",
    "scc_out",
    "lds_out",
];

/// A program and its wave's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub program: Program,
    pub exec: u64,
    pub s_in: [u32; 16],
    pub lds: Vec<u32>,
    /// The memory region before the body.
    pub mem: Vec<u32>,
    /// in0..in5 per lane.
    pub lanes: Vec<[u32; 6]>,
    pub mode: ModeCells,
}

fn mode_cell(rng: &mut Rng, max: usize) -> Option<u8> {
    (rng.below(3) != 0).then(|| rng.below(max + 1) as u8)
}

impl Case {
    /// Random inputs for `program`: EXEC full, random, sparse, one lane or empty; values
    /// biased to special values; a random float mode (cells left empty a third of the time).
    pub fn random(rng: &mut Rng, program: Program) -> Case {
        let full = if program.wave == 64 {
            u64::MAX
        } else {
            u32::MAX as u64
        };
        let exec = match rng.below(10) {
            0..=3 => full,
            4..=6 => rng.next_u64() & full,
            7 => rng.next_u64() & rng.next_u64() & full,
            8 => 1 << rng.below(program.wave as usize),
            _ => 0,
        };
        let lanes = (0..program.wave)
            .map(|_| std::array::from_fn(|_| value(rng)))
            .collect();
        Case {
            exec,
            s_in: std::array::from_fn(|_| value(rng)),
            lds: (0..LDS_DWORDS).map(|_| value(rng)).collect(),
            mem: (0..MEM_DWORDS).map(|_| value(rng)).collect(),
            lanes,
            mode: ModeCells {
                ieee: mode_cell(rng, 1),
                dx10_clamp: mode_cell(rng, 1),
                denorm32: mode_cell(rng, 3),
                denorm16: mode_cell(rng, 3),
                round32: mode_cell(rng, 3),
                round16: mode_cell(rng, 3),
                fp16_overflow: mode_cell(rng, 1),
            },
            program,
        }
    }

    /// Fresh inputs (EXEC, SGPRs, LDS, lanes) for the same program in the same float mode: one
    /// more wave through the same compiled kernel.
    pub fn with_new_inputs(&self, rng: &mut Rng) -> Case {
        Case {
            mode: self.mode,
            ..Case::random(rng, self.program.clone())
        }
    }

    /// The wave's rows (one per lane); `Err` when the text does not encode.
    pub fn rows(&self, id: &str) -> Result<Vec<Row>, String> {
        let text = self.program.text();
        let words = self.program.words()?;
        let hexes = |v: &[u32]| {
            v.iter()
                .map(|x| format!("0x{x:08x}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        Ok(self
            .lanes
            .iter()
            .enumerate()
            .map(|(lane, inputs)| {
                let first = |s: String| if lane == 0 { s } else { String::new() };
                let mut extra = vec![
                    id.to_string(),
                    lane.to_string(),
                    first(format!("0x{:x}", self.exec)),
                    first(hexes(&self.s_in)),
                    first(hexes(&self.lds)),
                    first((4 * self.lds.len()).to_string()),
                    first(hexes(&self.mem)),
                    first((4 * self.mem.len()).to_string()),
                ];
                extra.resize(COLUMNS.len(), String::new());
                Row {
                    instruction: text.replace('\n', "; "),
                    encoding: words.clone(),
                    wave: Some(self.program.wave),
                    mode: self.mode,
                    inputs: *inputs,
                    gfx: "gfx1030".into(),
                    extra,
                    ..Row::default()
                }
            })
            .collect())
    }
}

/// The wave layout of [`COLUMNS`].
pub fn layout() -> WaveLayout {
    WaveLayout::from_columns(&COLUMNS.map(String::from)).expect("wave columns")
}

/// What a comparison of two backends' results found.
#[derive(Clone, Debug, Default)]
pub struct Compared {
    /// Output dwords compared (per-lane outputs, SGPRs, EXEC, VCC, SCC, LDS, memory region).
    pub dwords: u64,
    /// Rows that ran (status ok on both sides).
    pub lanes: u64,
    /// Waves that did not run on the reference (same status on both sides).
    pub not_run: u64,
    /// The statuses of the first waves that did not run.
    pub not_run_why: Vec<String>,
    /// The first difference of each differing wave, by the wave's first row index.
    pub differences: Vec<(usize, String)>,
}

/// Compares `a` (the reference) and `b` over `rows`, wave by wave (a wave starts at each row
/// with lane 0).
pub fn compare(rows: &[Row], a: &WaveResults, b: &WaveResults) -> Compared {
    let mut c = Compared::default();
    let mut wave_start = 0;
    let mut reported = usize::MAX;
    for (i, row) in rows.iter().enumerate() {
        if row.extra[1] == "0" {
            wave_start = i;
        }
        let (ra, rb) = (&a.rows[i], &b.rows[i]);
        let mut diff = None;
        if ra.status != rb.status {
            diff = Some(format!(
                "lane {}: status {} vs {}",
                row.extra[1], ra.status, rb.status
            ));
        } else if ra.status != Status::Ok {
            if row.extra[1] == "0" {
                c.not_run += 1;
                if c.not_run_why.len() < 8 {
                    c.not_run_why
                        .push(format!("{}: {}", row.instruction, ra.status));
                }
            }
            continue;
        } else {
            c.lanes += 1;
            c.dwords += 16;
            if let Some(k) = (0..16).find(|&k| ra.outputs[k] != rb.outputs[k]) {
                diff = Some(format!(
                    "lane {} out{k} (v{}): {:08x?} vs {:08x?}",
                    row.extra[1],
                    10 + k,
                    ra.outputs[k],
                    rb.outputs[k]
                ));
            }
            if let (Some(ua), Some(ub)) = (&a.uniform[i], &b.uniform[i]) {
                c.dwords += 16 + 5 + (ua.lds.len() + ua.mem.len()) as u64;
                if let Some(k) = (0..16).find(|&k| ua.sgprs[k] != ub.sgprs[k]) {
                    diff = Some(format!(
                        "s{k}: 0x{:08x} vs 0x{:08x}",
                        ua.sgprs[k], ub.sgprs[k]
                    ));
                } else if ua.exec != ub.exec {
                    diff = Some(format!("exec: 0x{:x} vs 0x{:x}", ua.exec, ub.exec));
                } else if ua.vcc != ub.vcc {
                    diff = Some(format!("vcc: 0x{:x} vs 0x{:x}", ua.vcc, ub.vcc));
                } else if ua.scc != ub.scc {
                    diff = Some(format!("scc: {} vs {}", ua.scc, ub.scc));
                } else if let Some(k) =
                    (0..ua.lds.len().max(ub.lds.len())).find(|&k| ua.lds.get(k) != ub.lds.get(k))
                {
                    diff = Some(format!(
                        "lds dword {k}: {:08x?} vs {:08x?}",
                        ua.lds.get(k),
                        ub.lds.get(k)
                    ));
                } else if let Some(k) =
                    (0..ua.mem.len().max(ub.mem.len())).find(|&k| ua.mem.get(k) != ub.mem.get(k))
                {
                    diff = Some(format!(
                        "memory dword {k}: {:08x?} vs {:08x?}",
                        ua.mem.get(k),
                        ub.mem.get(k)
                    ));
                }
            } else if a.uniform[i] != b.uniform[i] {
                diff = Some("uniform outputs present on one side only".into());
            }
        }
        if let Some(d) = diff {
            if reported != wave_start {
                reported = wave_start;
                c.differences.push((wave_start, d));
            }
        }
    }
    c
}

/// Runs one case on both backends; the first difference, if any.
pub fn differs(case: &Case, a: &mut dyn Backend, b: &mut dyn Backend) -> Option<String> {
    let rows = case.rows("w").ok()?;
    let layout = layout();
    let ra = a.run_waves(&rows, &layout);
    let rb = b.run_waves(&rows, &layout);
    compare(&rows, &ra, &rb)
        .differences
        .into_iter()
        .next()
        .map(|d| d.1)
}
