//! How much memory a streaming run holds, and what the process really used.

use super::digest::DIGEST_ROWS;
use super::{Outcome, Plan, GPU_QUEUE};

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
