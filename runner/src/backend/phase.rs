//! Where a replay spends its time, for `RDNAPROBE_REPLAY_TIMINGS=1` (docs/performance.md,
//! "Wave replay"): wall time per phase, summed over the whole command and printed by `replay`
//! as one `timings:` line on stderr. Without the variable a span costs one relaxed load.
//!
//! Spans do not nest within one phase; phases of the backend (`prepare`, `lower`, `run`,
//! `store`) lie inside `backend`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// A measured phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading rows: CSV, cell parsing, the wave rules.
    Read = 0,
    /// The backend call, all of it.
    Backend,
    /// Cutting rows into waves and building each wave's state before the body.
    Prepare,
    /// Lowering kernels (and, on Vulkan, SPIR-V emission and pipelines).
    Lower,
    /// The CPU model or the device (uploads and read-backs included).
    Run,
    /// Turning the results into per-row outputs.
    Store,
    /// Writing output rows (uniform output cells included) and counting outcomes.
    Write,
    /// Flushing the output and writing its manifest.
    Finish,
}

const NAMES: [&str; 8] = [
    "read", "backend", "prepare", "lower", "run", "store", "write", "finish",
];

static NANOS: [AtomicU64; 8] = [const { AtomicU64::new(0) }; 8];

/// Whether `RDNAPROBE_REPLAY_TIMINGS=1`.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("RDNAPROBE_REPLAY_TIMINGS").is_ok_and(|v| v == "1"))
}

/// Adds the time until the guard drops to `phase`.
pub struct Span(Option<(Phase, Instant)>);

/// Starts a span of `phase` (nothing when timings are off).
pub fn span(phase: Phase) -> Span {
    Span(enabled().then(|| (phase, Instant::now())))
}

impl Drop for Span {
    fn drop(&mut self) {
        if let Some((phase, start)) = self.0 {
            let ns = start.elapsed().as_nanos() as u64;
            NANOS[phase as usize].fetch_add(ns, Ordering::Relaxed);
        }
    }
}

/// The `timings:` line (phases that took any time), or `None` when timings are off.
pub fn summary() -> Option<String> {
    if !enabled() {
        return None;
    }
    let parts: Vec<String> = NAMES
        .iter()
        .zip(&NANOS)
        .filter_map(|(name, n)| {
            let ns = n.load(Ordering::Relaxed);
            (ns > 0).then(|| format!("{name} {:.3} s", ns as f64 * 1e-9))
        })
        .collect();
    Some(format!("timings: {}", parts.join(", ")))
}
