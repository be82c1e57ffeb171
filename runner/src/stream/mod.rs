//! Streaming sweeps: exhaustive and very large input sets run in chunks through a candidate
//! backend, each chunk is compared on the fly against a reference backend (usually the CPU
//! model), and the run keeps only a digest of every result, the per-class histograms and the
//! first mismatching rows. Every row is addressable by (mode, row index) through the generator
//! ([`spec`]), so the manifest is enough to regenerate any row.
//!
//! Speed: one kernel per (body, mode, wave), lowered and compiled once; one dispatch per chunk
//! ([`gpu`]); the CPU model is the column-wise evaluator
//! ([`rdnaprobe_recompiler::batch`]) on every core (rayon), fused with the input generation,
//! the comparison and the block hashing so that each block of rows is touched once while it is
//! in cache. On a device the module computes its own inputs from the row index and stores only
//! the live output dwords ([`OutputLayout`]): a unary f32 sweep moves 4 bytes per row over the
//! bus, nothing the other way.
//!
//! Pipelining: a GPU candidate runs on its own thread with up to [`GPU_QUEUE`] chunks queued
//! ahead, so while the CPU checks chunk k the device already runs chunk k+1 and k+2 waits.
//!
//! Memory is bounded by the chunk size, not the sweep size: at most `GPU_QUEUE + 2` chunks of
//! device results are alive (4 B per live output dword and row, plus the executor's mapped
//! copy of one chunk), each rayon worker holds one block of inputs, candidate and reference
//! rows, and at most `max_mismatches` rows are kept. See [`memory_bound`].

pub mod digest;
pub mod gpu;
pub mod journal;
pub mod spec;
#[cfg(test)]
mod tests;

use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;
use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_recompiler::batch::BatchKernel;
use rdnaprobe_recompiler::interp;
use rdnaprobe_recompiler::ir::Kernel;
use rdnaprobe_recompiler::spirv::{InputSource, Interface};
use rdnaprobe_reports::classify::{classify_dword, classify_f64, Class, Verdict};
use rdnaprobe_reports::DwordType;

use crate::backend::Producer;
use digest::{block_digest, Combiner, DIGEST_ROWS};
use journal::ChunkRecord;
use spec::Inputs;

/// Chunks a GPU candidate may have queued behind the one it is running.
pub const GPU_QUEUE: usize = 2;

/// Who computes outputs in a streaming run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The column-wise CPU model on every core.
    Cpu,
    /// The per-row IR interpreter on every core (the slower reference implementation; kept for
    /// cross-checks and benchmarks).
    CpuInterp,
    /// The recompiled SPIR-V on a Vulkan device (`vulkan[:which]`).
    Vulkan(Option<String>),
}

impl Engine {
    /// Parses `cpu`, `cpu:interp`, `vulkan`, `vulkan:WHICH`.
    pub fn parse(s: &str) -> anyhow::Result<Engine> {
        Ok(match s.split_once(':') {
            None if s == "cpu" => Engine::Cpu,
            None if s == "vulkan" => Engine::Vulkan(None),
            Some(("cpu", "interp")) => Engine::CpuInterp,
            Some(("cpu", "batch")) => Engine::Cpu,
            Some(("vulkan", w)) => Engine::Vulkan(Some(w.to_string())),
            _ => anyhow::bail!(
                "streaming backend `{s}`: expected cpu, cpu:interp, vulkan or vulkan:WHICH"
            ),
        })
    }

    pub fn name(&self) -> String {
        match self {
            Engine::Cpu => "cpu".into(),
            Engine::CpuInterp => "cpu:interp".into(),
            Engine::Vulkan(None) => "vulkan".into(),
            Engine::Vulkan(Some(w)) => format!("vulkan:{w}"),
        }
    }

    fn cpu_producer(&self) -> Producer {
        Producer {
            backend: self.name(),
            device: format!("host CPU, {} threads", rayon::current_num_threads()),
            driver: format!(
                "rdnaprobe-recompiler {} ({})",
                env!("CARGO_PKG_VERSION"),
                if *self == Engine::CpuInterp {
                    "per-row interpreter"
                } else {
                    "batch evaluator"
                }
            ),
            gfx: None,
        }
    }
}

/// A streaming run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The body's instruction words.
    pub words: Vec<u32>,
    /// Readable text of the body (for the mismatch rows and the result types).
    pub instruction: String,
    pub inputs: Inputs,
    pub modes: Vec<FloatMode>,
    pub wave: Wave,
    pub gfx: Target,
    /// Rows per chunk, a positive multiple of [`DIGEST_ROWS`].
    pub chunk_rows: usize,
    /// Mismatching rows kept (the rest are only counted).
    pub max_mismatches: usize,
    /// The `k` of the `ulp<=k` class.
    pub ulp_k: u64,
}

impl Plan {
    /// `rows` rounded up to whole digest blocks (at least one).
    pub fn round_chunk(rows: usize) -> usize {
        rows.max(1).div_ceil(DIGEST_ROWS) * DIGEST_ROWS
    }

    pub fn total_rows(&self) -> u64 {
        self.inputs.rows() * self.modes.len() as u64
    }
}

/// One mismatching row.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mismatch {
    pub mode: usize,
    /// Row index within the mode.
    pub row: u64,
    pub inputs: [u32; 6],
    pub candidate: [u32; 16],
    pub reference: [u32; 16],
    #[serde(with = "journal::class_code")]
    pub class: Class,
    pub ulp: Option<u64>,
}

/// Per-mode results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModeStats {
    pub rows: u64,
    /// Rows per class, indexed by [`Class::code`].
    pub classes: [u64; Class::ALL.len()],
    /// Largest ULP distance among the mismatching rows that have one.
    pub max_ulp: Option<u64>,
}

impl ModeStats {
    pub fn mismatches(&self) -> u64 {
        self.rows - self.classes[Class::Exact.code() as usize]
    }
}

/// Where the time went, in seconds. `candidate` is the candidate's busy time (the GPU thread's
/// time inside the executor for a Vulkan candidate, including copies to and from the mapped
/// buffers); `check` is the fused input generation + reference + compare + hash time on the
/// CPU side (for a CPU candidate it includes the candidate too).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Timings {
    pub wall_s: f64,
    /// Decoding and lowering the body, all modes.
    pub lower_s: f64,
    /// Everything before the first chunk: lowering, batch preparation, device open and
    /// pipeline creation.
    pub prepare_s: f64,
    pub candidate_s: f64,
    pub check_s: f64,
    /// Time the CPU side spent waiting for the candidate's results.
    pub wait_s: f64,
}

/// The result of a streaming run.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub rows: u64,
    pub digest: String,
    pub digest_blocks: u64,
    pub modes: Vec<ModeStats>,
    /// The first `max_mismatches` mismatching rows, in run order.
    pub mismatches: Vec<Mismatch>,
    pub candidate: Producer,
    pub reference: Option<Producer>,
    pub timings: Timings,
    pub chunks: u64,
    /// Device open, SPIR-V emission and pipeline creation times of a Vulkan candidate.
    pub gpu_prepare: Option<gpu::PrepareTimes>,
    /// The live output dwords (read back, hashed) and the constants of the others.
    pub layout: OutputLayout,
    /// Resident set once everything before the first chunk is done (the binary, the device
    /// driver, the pipelines): what [`memory_bound`] comes on top of.
    pub baseline_rss: Option<u64>,
    /// Expressions of the largest kernel (the CPU model's columns per thread).
    pub kernel_exprs: usize,
    /// Chunks and rows taken from the journal of an interrupted run (0 for a fresh run).
    pub resumed_chunks: u64,
    pub resumed_rows: u64,
}

impl Outcome {
    pub fn total_mismatches(&self) -> u64 {
        self.modes.iter().map(ModeStats::mismatches).sum()
    }
}

/// Progress reports (called after every chunk with rows done so far).
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// Bytes a run holds at most, whatever the number of rows (see the module docs): chunks in
/// flight, the executor's staging, per-thread blocks and the kept mismatches.
pub fn memory_bound(plan: &Plan, o: &Outcome, threads: usize) -> u64 {
    let chunk = plan.chunk_rows as u64;
    let device_row = 4 * o.layout.live.len() as u64;
    let in_flight = (GPU_QUEUE as u64 + 2) * chunk * device_row;
    let executor = chunk * device_row;
    let scratch = (o.kernel_exprs * rdnaprobe_recompiler::batch::BLOCK * 8) as u64;
    let per_thread = threads as u64 * (DIGEST_ROWS as u64 * (24 + 64 + 64) + scratch);
    let mismatches = plan.max_mismatches as u64 * 200;
    in_flight + executor + per_thread + mismatches
}

/// What [`memory_bound`] counts, for the manifest.
pub const MEMORY_BOUND_TEXT: &str = "on top of baseline_rss_bytes (binary, driver, pipelines) and \
                                     independent of the number of rows: (gpu_queue + 3) chunks of \
                                     4 B per live output dword and row (device results in flight \
                                     and the executor's mapped buffer), 4096 x (24 + 64 + 64) B \
                                     plus the CPU model's value columns (expressions x 512 x 8 B) \
                                     per thread, ~200 B per kept mismatch";

/// The output dwords a run reads back, hashes and compares as values, and the constants the
/// others are. An output the kernel computes as a constant (every register the body does not
/// write keeps the lane contract's zero) is the same on every row and every backend of the
/// recompiler, so a device need not store it: the host fills it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLayout {
    /// Output dwords that some mode's kernel computes, in increasing order (out0 at least).
    pub live: Vec<usize>,
    /// Per mode, the sixteen outputs with every constant one filled in (live ones are 0).
    pub constants: Vec<[u32; 16]>,
}

impl OutputLayout {
    pub fn of(kernels: &[Kernel]) -> OutputLayout {
        let constant = |k: &Kernel, o: usize| match *k.expr(k.outputs[o]) {
            rdnaprobe_recompiler::ir::Expr::Const { bits, .. } => Some(bits as u32),
            _ => None,
        };
        let mut live: Vec<usize> = (0..16)
            .filter(|&o| kernels.iter().any(|k| constant(k, o).is_none()))
            .collect();
        if live.is_empty() {
            live.push(0);
        }
        let constants = kernels
            .iter()
            .map(|k| {
                std::array::from_fn(|o| {
                    if live.contains(&o) {
                        0
                    } else {
                        constant(k, o).unwrap_or(0)
                    }
                })
            })
            .collect();
        OutputLayout { live, constants }
    }

    /// The live dwords as a bit mask (bit k: out k).
    pub fn mask(&self) -> u16 {
        self.live.iter().fold(0, |m, &k| m | 1 << k)
    }

    /// Expands packed device rows (the live dwords of each row) into full rows of `mode`.
    fn unpack(&self, mode: usize, packed: &[u32], out: &mut Vec<[u32; 16]>) {
        let stride = self.live.len();
        out.clear();
        out.extend(packed.chunks_exact(stride).map(|p| {
            let mut row = self.constants[mode];
            for (&k, &v) in self.live.iter().zip(p) {
                row[k] = v;
            }
            row
        }));
    }
}

/// The kernels of a plan, one per mode.
fn lower_all(plan: &Plan) -> anyhow::Result<Vec<Kernel>> {
    plan.modes
        .iter()
        .map(|m| {
            rdnaprobe_recompiler::lower_words(&plan.words, *m, plan.wave, plan.gfx)
                .with_context(|| format!("lowering the body for mode {}", spec::mode_text(m)))
        })
        .collect()
}

/// How one chunk's rows are compared.
struct Checker<'a> {
    plan: &'a Plan,
    layout: &'a OutputLayout,
    types: [DwordType; 16],
    /// Per mode: the CPU kernels of the candidate and the reference, as they need them.
    kernels: &'a [Kernel],
    batch: &'a [BatchKernel],
    candidate: &'a Engine,
    reference: Option<&'a Engine>,
}

/// One thread's working rows for a block: inputs, candidate and reference outputs.
struct BlockBuffers {
    scratch: rdnaprobe_recompiler::batch::Scratch,
    inputs: Vec<[u32; 6]>,
    candidate: Vec<[u32; 16]>,
    reference: Vec<[u32; 16]>,
}

impl BlockBuffers {
    fn new(batch: &BatchKernel) -> BlockBuffers {
        BlockBuffers {
            scratch: batch.scratch(),
            inputs: vec![[0; 6]; DIGEST_ROWS],
            candidate: Vec::with_capacity(DIGEST_ROWS),
            reference: Vec::with_capacity(DIGEST_ROWS),
        }
    }
}

/// One block's findings.
#[derive(Default)]
struct BlockResult {
    digest: String,
    classes: [u64; Class::ALL.len()],
    max_ulp: Option<u64>,
    mismatches: Vec<Mismatch>,
}

impl Checker<'_> {
    fn cpu_run(
        &self,
        engine: &Engine,
        mode: usize,
        inputs: &[[u32; 6]],
        first_row: u64,
        scratch: &mut rdnaprobe_recompiler::batch::Scratch,
        out: &mut Vec<[u32; 16]>,
    ) {
        out.clear();
        out.resize(inputs.len(), [0; 16]);
        let wave = self.plan.wave.lanes();
        match engine {
            Engine::CpuInterp => {
                for (i, (inp, o)) in inputs.iter().zip(out.iter_mut()).enumerate() {
                    let lane = ((first_row + i as u64) % u64::from(wave)) as u32;
                    *o = interp::run(&self.kernels[mode], *inp, lane);
                }
            }
            _ => self.batch[mode].run(scratch, inputs, first_row, wave, out),
        }
    }

    /// Checks the `rows` rows of `mode` from `first_row`; `candidate` holds their packed live
    /// output dwords ([`OutputLayout`]) when a device computed them. Every block is counted,
    /// classified and hashed in parallel; mismatching rows are kept only up to `room`, and
    /// only in run order: the blocks that have mismatches are checked again one after the
    /// other until `room` rows are found, so memory never holds more than `room` rows (and a
    /// run that has its `max_mismatches` rows does no second pass at all).
    fn chunk(
        &self,
        mode: usize,
        first_row: u64,
        rows: usize,
        candidate: Option<&[u32]>,
        room: usize,
    ) -> Vec<BlockResult> {
        let blocks = rows.div_ceil(DIGEST_ROWS);
        let mut results: Vec<BlockResult> = (0..blocks)
            .into_par_iter()
            .map_init(
                || BlockBuffers::new(&self.batch[mode]),
                |bufs, b| self.block(mode, first_row, rows, b, candidate, bufs, 0),
            )
            .collect();
        let mut left = room;
        let mut bufs = BlockBuffers::new(&self.batch[mode]);
        for (b, r) in results.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            let mismatching =
                r.classes.iter().sum::<u64>() - r.classes[Class::Exact.code() as usize];
            if mismatching > 0 {
                let again = self.block(mode, first_row, rows, b, candidate, &mut bufs, left);
                left -= again.mismatches.len();
                r.mismatches = again.mismatches;
            }
        }
        results
    }

    /// Checks block `b` of a chunk, keeping up to `keep` mismatching rows.
    #[allow(clippy::too_many_arguments)]
    fn block(
        &self,
        mode: usize,
        first_row: u64,
        rows: usize,
        b: usize,
        candidate: Option<&[u32]>,
        bufs: &mut BlockBuffers,
        keep: usize,
    ) -> BlockResult {
        let stride = self.layout.live.len();
        let base = first_row + (b * DIGEST_ROWS) as u64;
        let len = DIGEST_ROWS.min(rows - b * DIGEST_ROWS);
        let block = &mut bufs.inputs[..len];
        self.plan.inputs.fill(base, block);
        let block = &*block;
        match candidate {
            Some(c) => {
                let at = b * DIGEST_ROWS * stride;
                self.layout
                    .unpack(mode, &c[at..at + len * stride], &mut bufs.candidate);
            }
            None => self.cpu_run(
                self.candidate,
                mode,
                block,
                base,
                &mut bufs.scratch,
                &mut bufs.candidate,
            ),
        }
        let cand: &[[u32; 16]] = &bufs.candidate;
        let mut r = BlockResult {
            digest: block_digest(cand, &self.layout.live),
            ..Default::default()
        };
        let Some(reference) = self.reference else {
            r.classes[Class::Exact.code() as usize] = block.len() as u64;
            return r;
        };
        self.cpu_run(
            reference,
            mode,
            block,
            base,
            &mut bufs.scratch,
            &mut bufs.reference,
        );
        for (i, (c, want)) in cand.iter().zip(bufs.reference.iter()).enumerate() {
            if c == want {
                r.classes[Class::Exact.code() as usize] += 1;
                continue;
            }
            let v = self.classify(want, c);
            r.classes[v.class.code() as usize] += 1;
            if let Some(u) = v.ulp {
                r.max_ulp = Some(r.max_ulp.map_or(u, |m| m.max(u)));
            }
            if r.mismatches.len() < keep {
                r.mismatches.push(Mismatch {
                    mode,
                    row: base + i as u64,
                    inputs: block[i],
                    candidate: *c,
                    reference: *want,
                    class: v.class,
                    ulp: v.ulp,
                });
            }
        }
        r
    }

    /// The worst verdict over the sixteen dwords (the diff engine's classification).
    fn classify(&self, reference: &[u32; 16], candidate: &[u32; 16]) -> Verdict {
        let mut worst = Verdict {
            class: Class::Exact,
            ulp: Some(0),
        };
        let mut i = 0;
        while i < 16 {
            let ty = self.types[i];
            let pair =
                ty == DwordType::F64Lo && i + 1 < 16 && self.types[i + 1] == DwordType::F64Hi;
            let width = if pair { 2 } else { 1 };
            // Equal dwords are exact whatever their type: only the differing ones need the
            // classifier (most rows differ in one dword).
            if reference[i..i + width] == candidate[i..i + width] {
                i += width;
                continue;
            }
            let v = if pair {
                let v = classify_f64(
                    (reference[i], reference[i + 1]),
                    (candidate[i], candidate[i + 1]),
                    self.plan.ulp_k,
                );
                i += 1;
                v
            } else {
                classify_dword(ty, reference[i], candidate[i], self.plan.ulp_k)
            };
            worst = worst.worst(v);
            i += 1;
        }
        worst
    }
}

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
struct Tally {
    combiner: Combiner,
    modes: Vec<ModeStats>,
    mismatches: Vec<Mismatch>,
    max_mismatches: usize,
}

impl Tally {
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
        for b in &r.blocks {
            self.combiner.push(b);
        }
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
    };
    for b in results {
        for (a, n) in r.classes.iter_mut().zip(b.classes) {
            *a += n;
        }
        if let Some(u) = b.max_ulp {
            r.max_ulp = Some(r.max_ulp.map_or(u, |m| m.max(u)));
        }
        r.blocks.push(b.digest);
        r.mismatches.extend(b.mismatches);
    }
    r
}

/// Runs `plan` with `candidate` against `reference` (or none: digest only).
#[cfg(test)]
pub fn run(
    plan: &Plan,
    candidate: &Engine,
    reference: Option<&Engine>,
    progress: Progress<'_>,
) -> anyhow::Result<Outcome> {
    run_resumable(
        plan,
        candidate,
        reference,
        Vec::new(),
        &mut |_| Ok(()),
        progress,
    )
}

/// Called with every chunk the run finishes, in order (to journal it).
pub type OnChunk<'a> = &'a mut dyn FnMut(&ChunkRecord) -> anyhow::Result<()>;

/// [`run`], continuing after the chunks `done` (read back from a [`journal::Journal`]) and
/// handing every chunk it finishes to `on_chunk`. The outcome is the one an uninterrupted run
/// gives (timings cover this process only).
pub fn run_resumable(
    plan: &Plan,
    candidate: &Engine,
    reference: Option<&Engine>,
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
    let checker = Checker {
        plan,
        layout: &layout,
        types: rdnaprobe_reports::output_types(&plan.instruction, &plan.words),
        kernels: &kernels,
        batch: &batch,
        candidate,
        reference,
    };
    let mut gpu = match candidate {
        Engine::Vulkan(which) => Some(gpu::GpuWorker::spawn(
            which.clone(),
            &kernels,
            plan.wave,
            &Interface {
                inputs: InputSource::Generated(plan.inputs.ranges()),
                outputs: layout.mask(),
            },
        )?),
        _ => None,
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
        combiner: Combiner::default(),
        modes: vec![ModeStats::default(); plan.modes.len()],
        mismatches: Vec::new(),
        max_mismatches: plan.max_mismatches,
    };
    let mut done = 0u64;
    anyhow::ensure!(
        done_chunks.len() <= chunks.len(),
        "the journal has {} chunks, the run only {}",
        done_chunks.len(),
        chunks.len()
    );
    for (i, (r, c)) in done_chunks.iter().zip(&chunks).enumerate() {
        anyhow::ensure!(
            r.chunk == i as u64
                && r.mode == c.mode
                && r.first_row == c.first_row
                && r.rows == c.rows as u64
                && r.classes.len() == Class::ALL.len()
                && r.blocks.len() == c.rows.div_ceil(DIGEST_ROWS),
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
    let mut finish_chunk = |i: usize,
                            c: &ChunkSpec,
                            results: Vec<BlockResult>,
                            tally: &mut Tally,
                            done: &mut u64|
     -> anyhow::Result<()> {
        let record = chunk_record(i, c, results);
        tally.absorb(&record);
        on_chunk(&record)?;
        *done += c.rows as u64;
        progress(*done, total);
        Ok(())
    };

    match gpu.as_mut() {
        None => {
            for (i, c) in chunks.iter().enumerate().skip(start) {
                let t1 = Instant::now();
                let results = checker.chunk(c.mode, c.first_row, c.rows, None, tally.room());
                t.check_s += t1.elapsed().as_secs_f64();
                finish_chunk(i, c, results, &mut tally, &mut done)?;
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
                submit(worker)?;
                let t1 = Instant::now();
                let results =
                    checker.chunk(c.mode, c.first_row, c.rows, Some(&d.outputs), tally.room());
                t.check_s += t1.elapsed().as_secs_f64();
                finish_chunk(i, c, results, &mut tally, &mut done)?;
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
        ..
    } = tally;
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
    })
}

/// Peak resident set of this process in bytes (Linux `VmHWM`), if known.
pub fn peak_rss_bytes() -> Option<u64> {
    proc_status_bytes("VmHWM:")
}

/// Current resident set of this process in bytes (Linux `VmRSS`), if known.
pub fn rss_bytes() -> Option<u64> {
    proc_status_bytes("VmRSS:")
}

fn proc_status_bytes(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
