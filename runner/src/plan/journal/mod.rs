//! Resume journals: how a run that is killed at any moment continues without losing or
//! repeating rows. Two shapes, one per kind of output:
//! - [`Snapshot`]: a CSV output written in chunks (`sweep`): the rows so far sit in
//!   `OUT.partial`, and a small JSON file, replaced atomically after every chunk, says how
//!   many rows and bytes of it are committed;
//! - [`Lines`]: a run that keeps only summaries (`exhaustive`): one JSON line per finished
//!   chunk after a header that names the run.
//!
//! Both refuse to resume a journal written by a different run (the key differs), and both
//! have test hooks that abort the process after a chunk or in the middle of writing one.

mod lines;
mod snapshot;

pub use lines::Lines;
pub use snapshot::{append, partial_path, Begin, Snapshot};

/// Test hooks read from the environment: abort after a chunk, or halfway through one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbortHooks {
    pub abort_after: Option<u64>,
    pub abort_mid: Option<u64>,
}

impl AbortHooks {
    /// The hooks named by the environment variables `after` and `mid` (unset: none).
    pub fn from_env(after: &str, mid: &str) -> AbortHooks {
        let hook = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
        AbortHooks {
            abort_after: hook(after),
            abort_mid: hook(mid),
        }
    }
}
