//! A streaming run's plan and what it finds: per-mode class counts, the kept mismatching
//! rows, the digest and where the time went.

use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_reports::classify::Class;

use super::digest::DIGEST_ROWS;
use super::gpu;
use super::journal;
use super::layout::OutputLayout;
use super::spec::Inputs;
use crate::backend::Producer;

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
    /// With stored reference digests: the blocks whose digest differed (computed by the
    /// reference and diffed row by row).
    pub blocks_recomputed: Option<u64>,
    /// Bytes a device candidate's results took back from device-written memory: every output
    /// dword, or with device hashing only the block hashes and the differing blocks.
    pub bytes_read_back: u64,
    /// Whether the candidate's blocks were hashed on the device (`--against-digests`).
    pub device_hash: bool,
}

impl Outcome {
    pub fn total_mismatches(&self) -> u64 {
        self.modes.iter().map(ModeStats::mismatches).sum()
    }
}
