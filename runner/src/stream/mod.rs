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
//! the live output dwords ([`layout::OutputLayout`]): a unary f32 sweep moves 4 bytes per row
//! over the bus, nothing the other way.
//!
//! Pipelining: a GPU candidate runs on its own thread with up to [`GPU_QUEUE`] chunks queued
//! ahead, so while the CPU checks chunk k the device already runs chunk k+1 and k+2 waits.
//!
//! Memory is bounded by the chunk size, not the sweep size: at most `GPU_QUEUE + 2` chunks of
//! device results are alive (4 B per live output dword and row, plus the executor's mapped
//! copy of one chunk), each rayon worker holds one block of inputs, candidate and reference
//! rows, and at most `max_mismatches` rows are kept. See [`memory_bound`].
//!
//! Modules: `engine` (who computes: [`Engine`]), `outcome` (the [`Plan`] and the
//! [`Outcome`]), [`layout`] (which dwords are read back), `check` (one chunk: generate, run,
//! compare, hash), `run` (the chunk loop and resume), [`gpu`] (the device thread), [`journal`],
//! [`digest`], [`dhash`] (the device block hash), [`store`] (reference digests) and `memory` ([`memory_bound`]).

mod check;
pub mod dhash;
#[cfg(test)]
mod dhash_tests;
pub mod digest;
mod engine;
pub mod gpu;
pub mod journal;
pub mod layout;
mod memory;
mod outcome;
mod run;
pub mod spec;
pub mod store;
#[cfg(test)]
mod tests;

pub use engine::Engine;
pub use memory::{memory_bound, peak_rss_bytes, MEMORY_BOUND_TEXT};
pub use outcome::{Mismatch, ModeStats, Outcome, Plan, Timings};
#[cfg(test)]
pub use run::run;
pub use run::{run_with_digests, Digests};

/// Chunks a GPU candidate may have queued behind the one it is running.
pub const GPU_QUEUE: usize = 2;

/// Progress reports (called after every chunk with rows done so far).
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);
