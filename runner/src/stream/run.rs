//! The chunk loop of a streaming run: chunks in order, on the CPU or pipelined through a GPU
//! worker, each checked, absorbed into the tally and handed to the journal; a resumed run
//! first absorbs the journal's chunks.

use std::time::Instant;

use anyhow::Context;
use rdnaprobe_recompiler::batch::BatchKernel;
use rdnaprobe_recompiler::spirv::{InputSource, Interface};
use rdnaprobe_reports::classify::Class;

use super::check::{lower_all, BlockResult, Checker, DeviceBlocks};
use super::digest::{Combiner, DIGEST_ROWS};
use super::journal::ChunkRecord;
use super::layout::OutputLayout;
use super::memory::rss_bytes;
use super::store::{stored_blocks, DigestStore, ModeDigests};
use super::{gpu, Engine, Mismatch, ModeStats, Outcome, Plan, Progress, Timings, GPU_QUEUE};

/// A chunk of rows within one mode.
struct ChunkSpec {
    mode: usize,
    first_row: u64,
    rows: usize,
}

fn chunk_list(plan: &Plan) -> Vec<ChunkSpec> {
    let per_mode = plan.inputs.rows();
    let mut v = Vec::new();
    for mode in 0..plan.modes.len() {
        let mut first = 0u64;
        while first < per_mode {
            let rows = (per_mode - first).min(plan.chunk_rows as u64) as usize;
            v.push(ChunkSpec {
                mode,
                first_row: first,
                rows,
            });
            first += rows as u64;
        }
    }
    v
}

/// What a run has found so far, chunk by chunk, in run order.
struct Tally<'a> {
    /// The reference digest store's blocks per mode (`--against-digests`), which the chunks
    /// recorded [`ChunkRecord::from_store`] stand for.
    against: Option<&'a [ModeDigests]>,
    combiner: Combiner,
    modes: Vec<ModeStats>,
    mismatches: Vec<Mismatch>,
    max_mismatches: usize,
    /// Block digests per mode, kept when they are to be saved.
    saved: Option<Vec<ModeDigests>>,
    /// Device block hashes per mode, kept with `saved` while every chunk has them.
    saved_dhash: Option<Vec<Vec<u64>>>,
    recomputed: u64,
}

impl Tally<'_> {
    /// Mismatching rows still to keep.
    fn room(&self) -> usize {
        self.max_mismatches.saturating_sub(self.mismatches.len())
    }

    /// Adds one finished chunk (run now, or read back from a journal).
    fn absorb(&mut self, r: &ChunkRecord) {
        let st = &mut self.modes[r.mode];
        st.rows += r.rows;
        for (a, b) in st.classes.iter_mut().zip(&r.classes) {
            *a += b;
        }
        if let Some(u) = r.max_ulp {
            st.max_ulp = Some(st.max_ulp.map_or(u, |m| m.max(u)));
        }
        if r.from_store {
            let stored =
                stored_run(self.against, r).expect("checked when the chunk was made or read back");
            self.combiner.push_run(stored);
            if let Some(saved) = &mut self.saved {
                saved[r.mode].extend_from_slice(stored);
            }
            self.saved_dhash = None;
        }
        for b in &r.blocks {
            self.combiner.push(b);
        }
        if let Some(saved) = &mut self.saved {
            for b in &r.blocks {
                saved[r.mode].extend_from_slice(b.as_bytes());
            }
        }
        if r.dhashes.len() != r.blocks.len() {
            self.saved_dhash = None;
        }
        if let Some(saved) = &mut self.saved_dhash {
            saved[r.mode].extend_from_slice(&r.dhashes);
        }
        self.recomputed += r.recomputed;
        let room = self.room();
        self.mismatches
            .extend(r.mismatches.iter().take(room).cloned());
    }
}

/// The record of chunk `index` from its blocks' findings.
fn chunk_record(index: usize, c: &ChunkSpec, results: Vec<BlockResult>) -> ChunkRecord {
    let mut r = ChunkRecord {
        chunk: index as u64,
        mode: c.mode,
        first_row: c.first_row,
        rows: c.rows as u64,
        classes: vec![0; Class::ALL.len()],
        max_ulp: None,
        blocks: Vec::with_capacity(results.len()),
        mismatches: Vec::new(),
        recomputed: 0,
        dhashes: Vec::with_capacity(results.len()),
        from_store: false,
    };
    let all_hashed = results.iter().all(|b| b.dhash.is_some());
    for b in results {
        if let (true, Some(h)) = (all_hashed, b.dhash) {
            r.dhashes.push(h);
        }
        for (a, n) in r.classes.iter_mut().zip(b.classes) {
            *a += n;
        }
        if let Some(u) = b.max_ulp {
            r.max_ulp = Some(r.max_ulp.map_or(u, |m| m.max(u)));
        }
        r.blocks.push(b.digest);
        r.mismatches.extend(b.mismatches);
        r.recomputed += u64::from(b.recomputed);
    }
    r
}

/// The stored hex digests of a [`ChunkRecord::from_store`] chunk's blocks, if the store has
/// them all.
fn stored_run<'a>(against: Option<&'a [ModeDigests]>, r: &ChunkRecord) -> Option<&'a [u8]> {
    let first = r.first_row as usize / DIGEST_ROWS;
    let blocks = (r.rows as usize).div_ceil(DIGEST_ROWS);
    stored_blocks(against?.get(r.mode)?, first, blocks)
}

/// The record of chunk `index` whose every block the device found equal to the store.
fn stored_record(index: usize, c: &ChunkSpec) -> ChunkRecord {
    let mut classes = vec![0; Class::ALL.len()];
    classes[Class::Exact.code() as usize] = c.rows as u64;
    ChunkRecord {
        chunk: index as u64,
        mode: c.mode,
        first_row: c.first_row,
        rows: c.rows as u64,
        classes,
        max_ulp: None,
        blocks: Vec::new(),
        mismatches: Vec::new(),
        recomputed: 0,
        dhashes: Vec::new(),
        from_store: true,
    }
}

/// Runs `plan` with `candidate` against `reference` (or none: digest only).
#[cfg(test)]
pub fn run(
    plan: &Plan,
    candidate: &Engine,
    reference: Option<&Engine>,
    progress: Progress<'_>,
) -> anyhow::Result<Outcome> {
    run_with_digests(
        plan,
        candidate,
        reference,
        Digests::default(),
        Vec::new(),
        &mut |_| Ok(()),
        progress,
    )
}

/// Reference digests of a run: a store to check against instead of computing the reference
/// (blocks that differ are still computed by it and diffed), and a store to save the run's
/// block digests into.
#[derive(Clone, Copy, Debug, Default)]
pub struct Digests<'a> {
    pub against: Option<&'a DigestStore>,
    pub save: Option<&'a DigestStore>,
}

/// Called with every chunk the run finishes, in order (to journal it).
pub type OnChunk<'a> = &'a mut dyn FnMut(&ChunkRecord) -> anyhow::Result<()>;

/// [`run`] with reference digests ([`Digests`]), continuing after the chunks `done` (read back from a [`journal::Journal`]) and
/// handing every chunk it finishes to `on_chunk`. The outcome is the one an uninterrupted run
/// gives (timings cover this process only).
pub fn run_with_digests(
    plan: &Plan,
    candidate: &Engine,
    reference: Option<&Engine>,
    digests: Digests<'_>,
    done_chunks: Vec<ChunkRecord>,
    on_chunk: OnChunk<'_>,
    progress: Progress<'_>,
) -> anyhow::Result<Outcome> {
    anyhow::ensure!(
        plan.chunk_rows > 0 && plan.chunk_rows % DIGEST_ROWS == 0,
        "chunk size {} is not a positive multiple of {DIGEST_ROWS}",
        plan.chunk_rows
    );
    if let Some(Engine::Vulkan(_)) = reference {
        anyhow::bail!("the reference of a streaming run must be cpu or cpu:interp");
    }
    let wall = Instant::now();
    let mut t = Timings::default();
    let kernels = lower_all(plan)?;
    t.lower_s = wall.elapsed().as_secs_f64();
    let batch = kernels
        .iter()
        .map(BatchKernel::new)
        .collect::<Result<Vec<_>, _>>()
        .context("the lowering produced an invalid kernel")?;
    let layout = OutputLayout::of(&kernels);
    if digests.against.is_some() {
        anyhow::ensure!(
            reference.is_some(),
            "--against-digests needs a reference to diff the blocks that differ (--reference cpu)"
        );
    }
    // Device hashing: a Vulkan candidate against a store that has device hashes.
    let device_expected = match (digests.against, candidate) {
        (Some(store), Engine::Vulkan(_)) => store.load_dhash(plan, &layout.live)?,
        _ => None,
    };
    // The stored block digests (64 hex digits a block: 64 MiB for 2^32 rows) load on another
    // thread while the device opens and compiles.
    let (against, mut gpu) = std::thread::scope(|s| -> anyhow::Result<_> {
        let loading = digests
            .against
            .map(|store| s.spawn(|| store.load(plan, &layout.live)));
        let gpu = match candidate {
            Engine::Vulkan(which) => Some(gpu::GpuWorker::spawn(
                which.clone(),
                &kernels,
                plan.wave,
                &Interface {
                    inputs: InputSource::Generated(plan.inputs.ranges()),
                    outputs: layout.mask(),
                },
                device_expected.clone().map(|expected| gpu::Hashing {
                    live: layout.live.clone(),
                    expected,
                    chunk_rows: plan.chunk_rows,
                }),
            )?),
            _ => None,
        };
        let against = match loading {
            Some(h) => Some(
                h.join()
                    .map_err(|_| anyhow::anyhow!("loading the stored digests panicked"))??,
            ),
            None => None,
        };
        Ok((against, gpu))
    })?;
    let checker = Checker {
        plan,
        layout: &layout,
        types: rdnaprobe_reports::output_types(&plan.instruction, &plan.words),
        kernels: &kernels,
        batch: &batch,
        candidate,
        reference,
        against: against.as_deref(),
        dhash: digests.save.is_some(),
    };
    let candidate_producer = match &gpu {
        Some(g) => g.producer.clone(),
        None => candidate.cpu_producer(),
    };
    t.prepare_s = wall.elapsed().as_secs_f64();
    let baseline_rss = rss_bytes();

    let chunks = chunk_list(plan);
    let total = plan.total_rows();
    let mut tally = Tally {
        against: against.as_deref(),
        combiner: Combiner::default(),
        modes: vec![ModeStats::default(); plan.modes.len()],
        mismatches: Vec::new(),
        max_mismatches: plan.max_mismatches,
        saved: digests.save.map(|_| vec![Vec::new(); plan.modes.len()]),
        saved_dhash: digests.save.map(|_| vec![Vec::new(); plan.modes.len()]),
        recomputed: 0,
    };
    let mut bytes_read_back = 0u64;
    let mut done = 0u64;
    anyhow::ensure!(
        done_chunks.len() <= chunks.len(),
        "the journal has {} chunks, the run only {}",
        done_chunks.len(),
        chunks.len()
    );
    for (i, (r, c)) in done_chunks.iter().zip(&chunks).enumerate() {
        let blocks_ok = if r.from_store {
            r.blocks.is_empty() && stored_run(tally.against, r).is_some()
        } else {
            r.blocks.len() == c.rows.div_ceil(DIGEST_ROWS)
        };
        anyhow::ensure!(
            r.chunk == i as u64
                && r.mode == c.mode
                && r.first_row == c.first_row
                && r.rows == c.rows as u64
                && r.classes.len() == Class::ALL.len()
                && blocks_ok,
            "journal chunk {i} does not match the run's chunk {i} (mode {}, rows {}..+{})",
            c.mode,
            c.first_row,
            c.rows
        );
        tally.absorb(r);
        done += r.rows;
    }
    let start = done_chunks.len();
    let resumed = (start as u64, done);
    progress(done, total);
    let mut finish_record =
        |record: ChunkRecord, c: &ChunkSpec, tally: &mut Tally, done: &mut u64| {
            tally.absorb(&record);
            on_chunk(&record)?;
            *done += c.rows as u64;
            progress(*done, total);
            anyhow::Ok(())
        };

    match gpu.as_mut() {
        None => {
            for (i, c) in chunks.iter().enumerate().skip(start) {
                let t1 = Instant::now();
                let results = checker.chunk(c.mode, c.first_row, c.rows, None, tally.room());
                t.check_s += t1.elapsed().as_secs_f64();
                finish_record(chunk_record(i, c, results), c, &mut tally, &mut done)?;
            }
        }
        Some(worker) => {
            let mut next = start;
            let mut submit = |worker: &mut gpu::GpuWorker| -> anyhow::Result<()> {
                if let Some(c) = chunks.get(next) {
                    worker.submit(gpu::Work {
                        mode: c.mode,
                        first_row: c.first_row,
                        rows: c.rows,
                    })?;
                    next += 1;
                }
                Ok(())
            };
            for _ in 0..=GPU_QUEUE {
                submit(worker)?;
            }
            for (i, c) in chunks.iter().enumerate().skip(start) {
                let t0 = Instant::now();
                let d = worker.receive()?;
                t.wait_s += t0.elapsed().as_secs_f64();
                anyhow::ensure!(
                    d.mode == c.mode && d.first_row == c.first_row,
                    "the GPU worker returned chunk ({}, {}) out of order",
                    d.mode,
                    d.first_row
                );
                t.candidate_s += d.busy.as_secs_f64();
                bytes_read_back += d.bytes_read;
                submit(worker)?;
                let t1 = Instant::now();
                let device = d
                    .hashed
                    .as_ref()
                    .map(|(hashes, differ)| DeviceBlocks { hashes, differ });
                // Every block's device hash matched the store: the chunk is the store's,
                // recorded without a digest per block (unless the run saves digests too).
                let all_stored = digests.save.is_none()
                    && against.is_some()
                    && device.is_some_and(|d| !d.differ.contains(&true));
                if all_stored {
                    let record = stored_record(i, c);
                    t.check_s += t1.elapsed().as_secs_f64();
                    finish_record(record, c, &mut tally, &mut done)?;
                    continue;
                }
                let results = checker.chunk_hashed(
                    c.mode,
                    c.first_row,
                    c.rows,
                    Some(&d.outputs),
                    device,
                    tally.room(),
                );
                t.check_s += t1.elapsed().as_secs_f64();
                finish_record(chunk_record(i, c, results), c, &mut tally, &mut done)?;
            }
        }
    }
    let gpu_prepare = gpu.as_ref().map(|g| g.prepare.clone());
    if let Some(g) = gpu.take() {
        g.finish()?;
    }
    t.wall_s = wall.elapsed().as_secs_f64();
    if !matches!(candidate, Engine::Vulkan(_)) {
        t.candidate_s = t.check_s;
    }
    let Tally {
        combiner,
        modes,
        mismatches,
        saved,
        saved_dhash,
        recomputed,
        ..
    } = tally;
    if let (Some(store), Some(saved)) = (digests.save, &saved) {
        store.save(plan, &layout.live, saved, saved_dhash.as_deref())?;
    }
    let digest_blocks = combiner.blocks();
    Ok(Outcome {
        rows: done,
        digest: combiner.finish(),
        digest_blocks,
        modes,
        mismatches,
        candidate: candidate_producer,
        reference: reference.map(Engine::cpu_producer),
        timings: t,
        chunks: chunks.len() as u64,
        gpu_prepare,
        layout,
        baseline_rss,
        kernel_exprs: batch.iter().map(BatchKernel::len).max().unwrap_or(0),
        resumed_chunks: resumed.0,
        resumed_rows: resumed.1,
        blocks_recomputed: against.as_ref().map(|_| recomputed),
        bytes_read_back,
        device_hash: device_expected.is_some(),
    })
}
