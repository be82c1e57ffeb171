//! Running wave modules (`rdnaprobe_recompiler::spirv::emit_wave`): one workgroup per wave.
//!
//! A wave module's dispatch unit is one wave: its pipeline is made with one row per
//! workgroup, a "row" of the input buffer is the wave's lanes' inputs plus its uniform input
//! words ([`wave_in_stride`]), and a row of the output buffer the lanes' outputs plus the
//! uniform output words ([`wave_out_stride`]), each followed by the wave's LDS. Jobs of
//! different wave or LDS sizes go in separate submits, since the row size depends on both.

use anyhow::{bail, Context};
use rdnaprobe_isa::Wave;
use rdnaprobe_recompiler::spirv::{wave_in_stride, wave_out_stride};

use super::dispatch::{plan_batches, plan_dispatches};
use super::exec::{Executor, PipelineId, MAX_BATCH_OUTPUT_BYTES};

/// One wave module and its waves.
#[derive(Clone, Copy, Debug)]
pub struct WaveJob<'a> {
    pub pipeline: PipelineId,
    pub wave: Wave,
    /// The LDS size the module was emitted for.
    pub lds_dwords: u32,
    /// Per wave, its [`wave_in_stride`] input words (lanes' in0..in5, then EXEC low/high and
    /// s0..s15).
    pub waves: &'a [Vec<u32>],
}

/// Per job, per wave, its [`wave_out_stride`] output words.
pub type WaveRun = Vec<Vec<Vec<u32>>>;

impl Executor {
    /// The pipeline of a wave module.
    pub fn wave_pipeline(&mut self, spirv: &[u32]) -> anyhow::Result<PipelineId> {
        self.pipeline_per_group(spirv, 1)
    }

    /// Runs every job's waves; returns each wave's output words, in order.
    pub fn run_waves(&mut self, jobs: &[WaveJob<'_>]) -> anyhow::Result<WaveRun> {
        let mut results: WaveRun = jobs.iter().map(|j| vec![vec![]; j.waves.len()]).collect();
        let mut shapes_seen: Vec<(u32, u32)> = jobs
            .iter()
            .map(|j| (j.wave.lanes(), j.lds_dwords))
            .collect();
        shapes_seen.sort_unstable();
        shapes_seen.dedup();
        for (lanes, lds) in shapes_seen {
            let wave = if lanes == 64 { Wave::W64 } else { Wave::W32 };
            let picked: Vec<usize> = (0..jobs.len())
                .filter(|&j| jobs[j].wave == wave && jobs[j].lds_dwords == lds)
                .collect();
            let in_words = wave_in_stride(wave, lds) as usize;
            let out_words = wave_out_stride(wave, lds) as usize;
            let (in_bytes, out_bytes) = (in_words as u64 * 4, out_words as u64 * 4);
            let mut shapes = Vec::with_capacity(picked.len());
            for &j in &picked {
                let job = &jobs[j];
                if let Some(w) = job.waves.iter().find(|w| w.len() != in_words) {
                    bail!(
                        "a {wave:?} wave has {} input words, expected {in_words}",
                        w.len()
                    );
                }
                let pipe = self
                    .pipelines
                    .get(job.pipeline.0)
                    .with_context(|| format!("unknown pipeline {:?}", job.pipeline))?;
                anyhow::ensure!(
                    pipe.wave == 1,
                    "pipeline {:?} is not a wave module",
                    job.pipeline
                );
                anyhow::ensure!(
                    pipe.images == 0,
                    "pipeline {:?} samples native images (run it with run_image_wave)",
                    job.pipeline
                );
                shapes.push((job.waves.len(), 1));
            }
            let max_waves = (self.max_range / out_bytes).min(MAX_BATCH_OUTPUT_BYTES / out_bytes);
            let pending = plan_dispatches(&shapes, self.max_groups, max_waves);
            for range in plan_batches(&pending, self.align, out_bytes, MAX_BATCH_OUTPUT_BYTES) {
                let parts = &pending[range];
                let pipelines: Vec<PipelineId> =
                    parts.iter().map(|p| jobs[picked[p.0]].pipeline).collect();
                let dispatches = self.layout_dispatches(parts, in_bytes, out_bytes)?;
                let Some(input) = &self.input else {
                    bail!("internal: buffers missing after allocation");
                };
                // SAFETY: the previous batch's fence was waited for; `layout_dispatches` sized
                // the buffer for every dispatch's waves.
                unsafe {
                    for d in &dispatches.list {
                        let waves = &jobs[picked[d.job]].waves[d.first_row..d.first_row + d.rows];
                        let dst = input.ptr.add(d.in_offset as usize) as *mut u32;
                        for (r, w) in waves.iter().enumerate() {
                            std::ptr::copy_nonoverlapping(
                                w.as_ptr(),
                                dst.add(r * in_words),
                                in_words,
                            );
                        }
                    }
                }
                self.execute(&dispatches, &pipelines, |d| [d.rows as u32, 0, 0])?;
                let Some(output) = &self.output else {
                    bail!("internal: output buffer missing");
                };
                // SAFETY: the batch's fence was waited for; offsets are inside the buffer.
                unsafe {
                    for d in &dispatches.list {
                        let src = output.ptr.add(d.out_offset as usize) as *const u32;
                        let out = &mut results[picked[d.job]][d.first_row..d.first_row + d.rows];
                        for (r, w) in out.iter_mut().enumerate() {
                            *w = std::slice::from_raw_parts(src.add(r * out_words), out_words)
                                .to_vec();
                        }
                    }
                }
            }
        }
        Ok(results)
    }
}
