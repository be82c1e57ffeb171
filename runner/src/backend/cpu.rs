//! `cpu`: the recompiler's IR interpreted on the host.
//!
//! Rows are grouped by kernel ([`KernelKey`]: body words, resolved float mode, wave, target);
//! each group is decoded and lowered once and its rows run in parallel (rayon). Empty cells
//! resolve as on every backend (the dataset schema's `Row::float_mode`, `Row::wave_size`,
//! `Row::target`); an empty `gfx` cell replays as gfx1030 (the GFX10.3 table). A body that does
//! not decode or lower gives `unsupported: <reason>` for its rows only.

use super::phase::{span, Phase};
use super::{kernel_key, wave, Backend, KernelKey, Producer, RowResult, Status, WaveResults};
use rayon::prelude::*;
use rdnaprobe_dataset::{Row, WaveLayout};
use rdnaprobe_recompiler::{interp, ir::Kernel, lower_wave_words_sgprs, lower_words, LowerError};
use std::collections::HashMap;

pub struct CpuBackend {}

impl CpuBackend {
    pub fn new() -> CpuBackend {
        CpuBackend {}
    }
}

impl Default for CpuBackend {
    fn default() -> Self {
        CpuBackend::new()
    }
}

impl Backend for CpuBackend {
    fn producer(&self) -> Producer {
        Producer {
            backend: "cpu".into(),
            device: "host CPU (IR interpreter)".into(),
            driver: format!("rdnaprobe-recompiler {}", env!("CARGO_PKG_VERSION")),
            gfx: None,
        }
    }

    fn run(&mut self, rows: &[Row]) -> Vec<RowResult> {
        let lowering = span(Phase::Lower);
        let keys: Vec<Result<KernelKey, String>> = rows.iter().map(kernel_key).collect();
        let mut kernels: HashMap<&KernelKey, Result<Kernel, LowerError>> = HashMap::new();
        for k in keys.iter().flatten() {
            kernels
                .entry(k)
                .or_insert_with(|| lower_words(&k.words, k.mode, k.wave, k.target));
        }
        drop(lowering);
        let _s = span(Phase::Run);
        rows.par_iter()
            .zip(keys.par_iter())
            .enumerate()
            .map(|(i, (row, k))| {
                let k = match k {
                    Ok(k) => k,
                    Err(e) => return unsupported(e.clone()),
                };
                match &kernels[k] {
                    Ok(kernel) => {
                        // the row's lane within its wave: rows fill waves in order
                        let lane = (i as u32) % k.wave.lanes();
                        let out = interp::run(kernel, row.inputs, lane);
                        RowResult {
                            outputs: out.map(Some),
                            status: Status::Ok,
                        }
                    }
                    Err(e) => unsupported(e.to_string()),
                }
            })
            .collect()
    }

    /// Each wave runs through the CPU model of the wave contract
    /// (`rdnaprobe_recompiler::wave::run_wave`); waves run in parallel.
    fn run_waves(&mut self, rows: &[Row], layout: &WaveLayout) -> WaveResults {
        let mut results = WaveResults::all(rows.len(), Status::Error("not scheduled".into()));
        let jobs = wave::prepare(rows, layout, &mut results);
        // The region's size is part of the kernel (the V# in s[20:23] holds it), and so is
        // `s_in` for an image body (`WaveJob::sgpr_values`).
        let lowering = span(Phase::Lower);
        type Key<'a> = (&'a KernelKey, u32, Option<Vec<u32>>);
        let mut kernels: HashMap<Key<'_>, Result<Kernel, LowerError>> = HashMap::new();
        for j in &jobs {
            let k = &j.key;
            let bytes = j.mem_bytes();
            kernels
                .entry((k, bytes, j.sgpr_values()))
                .or_insert_with(|| {
                    let sgprs = j.specialised.then_some(&j.input.sgprs);
                    lower_wave_words_sgprs(&k.words, k.mode, k.wave, k.target, bytes, sgprs)
                });
        }
        drop(lowering);
        let running = span(Phase::Run);
        let outs: Vec<_> = jobs
            .par_iter()
            .map(
                |j| match &kernels[&(&j.key, j.mem_bytes(), j.sgpr_values())] {
                    Ok(k) => Ok(rdnaprobe_recompiler::wave::run_wave_mem(
                        k, &j.input, &j.mem,
                    )),
                    Err(e) => Err(wave::lower_status(e)),
                },
            )
            .collect();
        drop(running);
        let _s = span(Phase::Store);
        for (j, out) in jobs.iter().zip(outs) {
            match out {
                Ok((o, mem)) => match o.error {
                    Some(e) => results.fail(&j.rows, &Status::Error(e)),
                    None => {
                        results.store(&j.rows, &o.lanes, o.uniform, o.lds);
                        results.set_mem(&j.rows, mem);
                    }
                },
                Err(status) => results.fail(&j.rows, &status),
            }
        }
        results
    }
}

fn unsupported(reason: String) -> RowResult {
    RowResult {
        outputs: [None; 16],
        status: Status::Unsupported(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(words: Vec<u32>, inputs: [u32; 6]) -> Row {
        Row {
            encoding: words,
            inputs,
            wave: Some(32),
            gfx: "gfx1036".into(),
            ..Row::default()
        }
    }

    #[test]
    fn runs_rows_and_reports_unsupported_ones() {
        let rows = vec![
            // v_add_f32 v10, v4, v5
            row(vec![0x0614_0b04], [0x3f80_0000, 0x4000_0000, 0, 0, 0, 0]),
            // a truncated VOP3 word
            row(vec![0xd503_800a], [0; 6]),
            // v_mov_b32 v10, v4
            row(vec![0x7e14_0304], [0x1234_5678, 0, 0, 0, 0, 0]),
        ];
        let r = CpuBackend::new().run(&rows);
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].status, Status::Ok);
        assert_eq!(r[0].outputs[0], Some(0x4040_0000));
        assert_eq!(r[0].outputs[1], Some(0));
        assert!(
            matches!(r[1].status, Status::Unsupported(_)),
            "{:?}",
            r[1].status
        );
        assert_eq!(r[2].outputs[0], Some(0x1234_5678));
    }

    #[test]
    fn empty_mode_cells_take_the_default() {
        let r = Row::default();
        assert_eq!(
            kernel_key(&Row {
                encoding: vec![0x7e14_0304],
                ..r
            })
            .unwrap()
            .mode,
            rdnaprobe_isa::FloatMode::DEFAULT
        );
    }
}
