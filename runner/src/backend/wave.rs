//! Wave datasets on the recompiler's backends: rows are cut into waves (the dataset schema's
//! [`group_waves`]: consecutive rows with one wave key), each wave becomes one run of the
//! kernel lowered under the wave contract, and each row gets its lane's outputs; the wave's
//! first row also gets the uniform outputs.
//!
//! The memory region's size is part of the kernel (the V# in s[20:23] holds it), so backends
//! key their kernels by it too ([`WaveJob::mem_bytes`]), and a body with image instructions is
//! lowered for its wave's `s_in` ([`WaveJob::sgpr_values`]).

use rdnaprobe_recompiler::LowerError;

use rdnaprobe_dataset::{group_waves, Row, WaveLayout, WaveOutputs, WaveRows};
use rdnaprobe_recompiler::spirv::{WAVE_OUT_DWORDS, WAVE_STATUS_WORD};
use rdnaprobe_recompiler::wave::{watchdog_message, UniformValues, WaveInput};

use super::{kernel_key, KernelKey, RowResult, Status};

/// The results of a batch of wave rows: one [`RowResult`] per row and, per row, the uniform
/// outputs (`Some` on the first row of each wave that ran).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaveResults {
    pub rows: Vec<RowResult>,
    pub uniform: Vec<Option<WaveOutputs>>,
}

impl WaveResults {
    /// `n` rows, all with `status` and no outputs.
    pub fn all(n: usize, status: Status) -> WaveResults {
        WaveResults {
            rows: vec![
                RowResult {
                    outputs: [None; 16],
                    status,
                };
                n
            ],
            uniform: vec![None; n],
        }
    }

    /// Gives the rows of `w` the status `status`.
    pub fn fail(&mut self, w: &WaveRows, status: &Status) {
        for r in w.start..w.end {
            self.rows[r] = RowResult {
                outputs: [None; 16],
                status: status.clone(),
            };
        }
    }

    /// Stores a wave's lanes' outputs (`lanes[lane]`), uniform values and LDS after the body.
    pub fn store(
        &mut self,
        w: &WaveRows,
        lanes: &[[u32; 16]],
        uniform: Option<UniformValues>,
        lds: Vec<u32>,
    ) {
        for (r, &lane) in (w.start..w.end).zip(&w.lanes) {
            self.rows[r] = RowResult {
                outputs: lanes[lane as usize].map(Some),
                status: Status::Ok,
            };
        }
        self.uniform[w.start] = uniform.map(|u| WaveOutputs {
            sgprs: u.sgprs,
            exec: u.exec,
            vcc: u.vcc,
            scc: u.scc,
            lds,
            mem: w.inputs.mem.clone(),
        });
    }
}

impl WaveResults {
    /// Replaces the memory region after the body of wave `w` (stored by [`Self::store`]).
    pub fn set_mem(&mut self, w: &WaveRows, mem: Vec<u32>) {
        if let Some(u) = self.uniform[w.start].as_mut() {
            u.mem = mem;
        }
    }
}

/// One wave ready to run: its rows, kernel key and state before the body.
pub struct WaveJob {
    pub rows: WaveRows,
    pub key: KernelKey,
    pub input: WaveInput,
    /// The memory region before the body (its whole size; empty: no region).
    pub mem: Vec<u32>,
    /// Whether the body's kernel is lowered for the wave's `s_in` ([`WaveJob::sgpr_values`]).
    pub specialised: bool,
}

impl WaveJob {
    /// The memory region's size in bytes.
    pub fn mem_bytes(&self) -> u32 {
        4 * self.mem.len() as u32
    }

    /// The SGPR inputs the wave's kernel is lowered for: `s_in` for a body the recompiler
    /// specialises on it (`rdnaprobe_recompiler::specialises_on_sgprs`: image instructions),
    /// `None` for a kernel that reads them at run time.
    pub fn sgpr_values(&self) -> Option<Vec<u32>> {
        self.specialised.then(|| self.input.sgprs.to_vec())
    }
}

/// The row status of a body that does not lower: an input the instruction cannot take (a bad
/// T# field) is the row's error, a missing lowering `unsupported`.
pub fn lower_status(e: &LowerError) -> Status {
    if e.is_bad_input() {
        Status::Error(e.to_string())
    } else {
        Status::Unsupported(e.to_string())
    }
}

/// Cuts `rows` into waves. Waves whose rows cannot run (no words, a bad cell) get their
/// status in `results` and are left out.
pub fn prepare(rows: &[Row], layout: &WaveLayout, results: &mut WaveResults) -> Vec<WaveJob> {
    let _s = super::phase::span(super::phase::Phase::Prepare);
    let waves = match group_waves(rows, layout) {
        Ok(w) => w,
        Err(e) => {
            *results = WaveResults::all(rows.len(), Status::Error(e));
            return vec![];
        }
    };
    let mut jobs = Vec::with_capacity(waves.len());
    let mut specialises: std::collections::HashMap<Vec<u32>, bool> = Default::default();
    for w in waves {
        let key = match kernel_key(&rows[w.start]) {
            Ok(k) => k,
            Err(reason) => {
                results.fail(&w, &Status::Unsupported(reason));
                continue;
            }
        };
        let n = key.wave.lanes();
        let mut lanes = vec![[0u32; 6]; n as usize];
        for (r, &lane) in (w.start..w.end).zip(&w.lanes) {
            lanes[lane as usize] = rows[r].inputs;
        }
        let input = WaveInput {
            lanes,
            sgprs: w.inputs.sgprs,
            exec: w.inputs.exec_mask(n),
            lds: w.inputs.lds.clone(),
        };
        let mem = w.inputs.mem.clone();
        let specialised = *specialises
            .entry(key.words.clone())
            .or_insert_with(|| rdnaprobe_recompiler::specialises_on_sgprs(&key.words));
        jobs.push(WaveJob {
            rows: w,
            key,
            input,
            mem,
            specialised,
        });
    }
    jobs
}

/// A wave's input words for the SPIR-V wave module: lanes' in0..in5, EXEC low/high, s0..s15,
/// the LDS.
pub fn module_inputs(input: &WaveInput) -> Vec<u32> {
    let mut words: Vec<u32> = input.lanes.iter().flatten().copied().collect();
    words.extend([input.exec as u32, (input.exec >> 32) as u32]);
    words.extend(input.sgprs);
    words.extend(&input.lds);
    words
}

/// [`module_inputs`] followed by the memory region and its zero claim words
/// (`spirv::emit_wave_mem`, `spirv::region_words`).
pub fn module_inputs_mem(input: &WaveInput, mem: &[u32]) -> Vec<u32> {
    let mut words = module_inputs(input);
    words.extend(mem);
    let claims = rdnaprobe_recompiler::spirv::region_words(mem.len() as u32) as usize - mem.len();
    words.resize(words.len() + claims, 0);
    words
}

/// The memory region among a wave module's output words after the LDS (`after_lds`: the
/// region's [`rdnaprobe_recompiler::spirv::region_words`], then any resume words), and the
/// words after the region's.
pub fn module_region(after_lds: &[u32], mem_dwords: usize) -> (&[u32], &[u32]) {
    let words = rdnaprobe_recompiler::spirv::region_words(mem_dwords as u32) as usize;
    (&after_lds[..mem_dwords], &after_lds[words..])
}

/// A wave's results: the lanes' outputs, the uniform values and the LDS after the body.
pub type ModuleOutputs = (Vec<[u32; 16]>, UniformValues, Vec<u32>);

/// A wave module's output words as lanes' outputs and uniform values, or the error its
/// status word reports.
pub fn module_outputs(words: &[u32], lanes: usize) -> Result<ModuleOutputs, String> {
    let (lane_words, uni) = words.split_at(lanes * 16);
    match uni[WAVE_STATUS_WORD as usize] {
        0 => {}
        1 => return Err(watchdog_message()),
        s if s == rdnaprobe_recompiler::spirv::LDS_FAULT_STATUS => {
            return Err(rdnaprobe_recompiler::wave::LDS_FAULT.to_string())
        }
        s if s == rdnaprobe_recompiler::spirv::LOOP_CUT_STATUS => {
            return Err(
                "the driver ended one of the module's loops early (lavapipe stops a \
                        shader's loops after 65535 iterations in all): the wave's results are \
                        not the program's"
                    .to_string(),
            )
        }
        s => return Err(format!("wave module status {s}")),
    }
    let outs = lane_words
        .chunks_exact(16)
        .map(|c| {
            let mut o = [0u32; 16];
            o.copy_from_slice(c);
            o
        })
        .collect();
    let mut sgprs = [0u32; 16];
    sgprs.copy_from_slice(&uni[..16]);
    let pair = |i: usize| u64::from(uni[i]) | u64::from(uni[i + 1]) << 32;
    let lds = uni[WAVE_OUT_DWORDS as usize..].to_vec();
    Ok((
        outs,
        UniformValues {
            sgprs,
            exec: pair(16),
            vcc: pair(18),
            scc: uni[20] != 0,
        },
        lds,
    ))
}
