//! Running a generated-input kernel with its device block hash in the same submission: the
//! kernel's dispatches (outputs into a device-local buffer), a compute-to-compute barrier,
//! then the hash module ([`hash_module`](super::hash_module)) over the same rows. Only the
//! per-block hash words cross the bus; a block whose hash differs from the expected one is run
//! again through the read-back path ([`Executor::run_generated`]) for a row-by-row diff.

use anyhow::{bail, Context};

use super::dispatch::plan_dispatches;
use super::exec::{Executor, PipelineId, MAX_BATCH_OUTPUT_BYTES};
use super::hash_module::{self, BLOCK_ROWS, GROUP_ROWS};

/// What [`Executor::run_generated_hashed`] found for one range of rows.
#[derive(Clone, Debug, Default)]
pub struct HashedRun {
    /// The device hash of every block, in row order.
    pub hashes: Vec<u64>,
    /// Per block: whether its hash differed from the expected one (its rows are in `outputs`).
    pub differ: Vec<bool>,
    /// The packed outputs: empty when no block differs, else `rows * stride` words holding the
    /// differing blocks' rows (zeros elsewhere). A run that agrees never allocates or clears a
    /// chunk-sized buffer.
    pub outputs: Vec<u32>,
    /// Bytes copied from device-written memory: the hash slots and the differing blocks.
    pub bytes_read: u64,
}

/// A hash pipeline and the slot count it was built for.
#[derive(Clone, Copy, Debug)]
pub struct HashPipeline {
    pub id: PipelineId,
    pub slots: u32,
}

impl Executor {
    /// The hash pipeline for rows of the packed dwords `live`, for runs of up to `max_rows`
    /// rows at a time (see [`hash_module`](super::hash_module) for `flip_every`).
    pub fn hash_pipeline(
        &mut self,
        live: &[usize],
        max_rows: usize,
        flip_every: Option<u64>,
    ) -> anyhow::Result<HashPipeline> {
        let blocks = max_rows.div_ceil(BLOCK_ROWS as usize).max(1);
        let slots = u32::try_from(blocks.next_power_of_two()).context("too many blocks")?;
        let words = hash_module::emit(live, slots, flip_every)?;
        let id = self.pipeline_per_group(&words, GROUP_ROWS)?;
        Ok(HashPipeline { id, slots })
    }

    /// Runs rows `base .. base + rows` of `pipeline` (as [`Executor::run_generated`]; `base`
    /// a multiple of 4,096) and, in the same submission, `hash` over them; a block whose hash
    /// is not `expected[block]` (blocks counted from `base`) has its output rows copied back.
    pub fn run_generated_hashed(
        &mut self,
        pipeline: PipelineId,
        hash: HashPipeline,
        base: u64,
        rows: usize,
        stride: usize,
        expected: &[u64],
    ) -> anyhow::Result<HashedRun> {
        let block_rows = BLOCK_ROWS as usize;
        anyhow::ensure!(
            base % u64::from(BLOCK_ROWS) == 0,
            "first row {base} is not a multiple of {BLOCK_ROWS}"
        );
        let blocks = rows.div_ceil(block_rows);
        anyhow::ensure!(
            blocks <= hash.slots as usize,
            "{blocks} blocks, the hash pipeline has {} slots",
            hash.slots
        );
        let wave = self
            .pipelines
            .get(pipeline.0)
            .with_context(|| format!("unknown pipeline {pipeline:?}"))?
            .wave;
        let row_bytes = stride as u64 * 4;
        // Dispatches start on block boundaries, so a workgroup of the hash never straddles two.
        let by_groups = u64::from(self.max_groups) * u64::from(wave.min(GROUP_ROWS));
        let max_rows = (self.max_range / row_bytes)
            .min(MAX_BATCH_OUTPUT_BYTES / row_bytes)
            .min(by_groups);
        let max_rows = (max_rows / BLOCK_ROWS as u64).max(1) * BLOCK_ROWS as u64;
        let pending = plan_dispatches(&[(rows, wave)], self.max_groups, max_rows);
        let mut run = HashedRun {
            hashes: vec![0; blocks],
            differ: vec![false; blocks],
            outputs: Vec::new(),
            bytes_read: 0,
        };
        let slot_bytes = u64::from(hash.slots) * 8;
        let batches =
            super::dispatch::plan_batches(&pending, self.align, row_bytes, MAX_BATCH_OUTPUT_BYTES);
        for range in batches {
            let parts = &pending[range];
            let mut dispatches = self.layout_dispatches(parts, 0, row_bytes)?;
            self.ensure_buffers(slot_bytes, 0)?;
            dispatches.in_range = slot_bytes;
            let out_end = dispatches
                .list
                .iter()
                .map(|d| d.out_offset + dispatches.out_range)
                .max()
                .unwrap_or(0);
            dispatches.out_buffer = Some(self.ensure_local_output(out_end)?);
            let Some(slots) = &self.input else {
                bail!("internal: slot buffer missing");
            };
            // SAFETY: no GPU work is pending; the buffer holds `slot_bytes`.
            unsafe { std::ptr::write_bytes(slots.ptr, 0, slot_bytes as usize) };
            let n = dispatches.list.len();
            let list: Vec<_> = dispatches
                .list
                .iter()
                .chain(&dispatches.list)
                .copied()
                .collect();
            let mut pipes = vec![pipeline; n];
            pipes.resize(2 * n, hash.id);
            self.execute_staged(
                &list,
                &dispatches,
                &pipes,
                |d| {
                    let first = base + d.first_row as u64;
                    [d.rows as u32, first as u32, (first >> 32) as u32]
                },
                Some(n),
            )?;
            let Some(slots) = &self.input else {
                bail!("internal: slot buffer missing");
            };
            let mut again = vec![];
            for d in &dispatches.list {
                let first_block = d.first_row / block_rows;
                for b in first_block..(d.first_row + d.rows).div_ceil(block_rows) {
                    let global = base / u64::from(BLOCK_ROWS) + b as u64;
                    let s = (global & u64::from(hash.slots - 1)) as usize;
                    // SAFETY: the fence was waited for; `s < slots`, inside the slot buffer.
                    let (x, sum) = unsafe {
                        let p = slots.ptr as *const u32;
                        (p.add(2 * s).read(), p.add(2 * s + 1).read())
                    };
                    run.bytes_read += 8;
                    let h = u64::from(x) << 32 | u64::from(sum);
                    run.hashes[b] = h;
                    if expected.get(b) == Some(&h) {
                        continue;
                    }
                    run.differ[b] = true;
                    again.push(b);
                }
            }
            if !again.is_empty() && run.outputs.is_empty() {
                run.outputs = vec![0; rows * stride];
            }
            for b in again {
                let at = b * block_rows;
                let len = block_rows.min(rows - at);
                let rerun = self.run_generated(pipeline, base + at as u64, len, stride)?;
                run.outputs[at * stride..(at + len) * stride].copy_from_slice(&rerun);
                run.bytes_read += rerun.len() as u64 * 4;
            }
        }
        Ok(run)
    }
}
