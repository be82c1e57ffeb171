//! The journal of a streaming run (a [`Lines`] journal): one JSON line per finished chunk (its
//! block digests, class counts, largest ULP and kept mismatching rows), so that a killed run
//! continues where it stopped (`rdnaprobe exhaustive --resume`) and ends with the digest,
//! counts and rows an uninterrupted run gives.
//!
//! Layout of `RESULT_DIR/journal.jsonl`: a header line `{"format": FORMAT, "run": KEY}`, where
//! KEY names everything that decides the results (generator, modes, wave, target, chunk size,
//! backends, mismatch cap, k), then one [`ChunkRecord`] per line in chunk order.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Mismatch;
use crate::plan::journal::{AbortHooks, Lines};

/// First line's `format`.
pub const FORMAT: &str = "rdnaprobe exhaustive journal v1";

/// Test hook: abort the process after the line of this many chunks (counted over the run).
pub const ABORT_AFTER_ENV: &str = "RDNAPROBE_EXHAUSTIVE_ABORT_AFTER_CHUNKS";
/// Test hook: abort the process halfway through writing the line of this chunk (0-based).
pub const ABORT_MID_ENV: &str = "RDNAPROBE_EXHAUSTIVE_ABORT_MID_CHUNK";

/// What one finished chunk contributed to a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// Index in the run's chunk list.
    pub chunk: u64,
    pub mode: usize,
    pub first_row: u64,
    pub rows: u64,
    /// Rows per class, indexed by [`Class::code`](rdnaprobe_reports::classify::Class::code).
    pub classes: Vec<u64>,
    pub max_ulp: Option<u64>,
    /// Hex block digests, in row order.
    pub blocks: Vec<String>,
    /// The chunk's kept mismatching rows, in row order.
    pub mismatches: Vec<Mismatch>,
    /// Blocks whose digest differed from the stored reference digests (`--against-digests`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recomputed: u64,
    /// Device block hashes ([`super::dhash`]), in row order, when the run takes them (to save
    /// them); absent in journals of runs that do not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dhashes: Vec<u64>,
    /// Every block's device hash matched the reference digest store's (`--against-digests`):
    /// the blocks are the store's, `blocks` and `dhashes` are empty (the store holds them, 64
    /// hex digits a block that a 2^32-row mode would otherwise copy into its journal), and a
    /// resumed run takes them from the store.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_store: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A [`Class`](rdnaprobe_reports::classify::Class) in the journal: its code.
pub(super) mod class_code {
    use rdnaprobe_reports::classify::Class;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Class, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(c.code())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Class, D::Error> {
        let code = u32::deserialize(d)?;
        Class::from_code(code).ok_or_else(|| D::Error::custom(format!("unknown class code {code}")))
    }
}

/// An open journal of a streaming run, appending.
pub struct Journal(Lines<ChunkRecord>);

impl Journal {
    /// The journal file of result directory `dir`.
    pub fn path_in(dir: &Path) -> PathBuf {
        dir.join("journal.jsonl")
    }

    /// Starts the journal of run `key` (an existing journal is an error).
    pub fn create(path: &Path, key: &serde_json::Value) -> anyhow::Result<Journal> {
        Lines::create(path, FORMAT, key, hooks()).map(Journal)
    }

    /// Reopens the journal of run `key`: the chunks it holds and the journal.
    pub fn resume(
        path: &Path,
        key: &serde_json::Value,
    ) -> anyhow::Result<(Journal, Vec<ChunkRecord>)> {
        Lines::resume(path, FORMAT, key, hooks()).map(|(j, r)| (Journal(j), r))
    }

    /// Appends one chunk's line.
    pub fn append(&mut self, r: &ChunkRecord) -> anyhow::Result<()> {
        self.0.append(r.chunk, r)
    }

    /// Removes the journal once the run's results are written.
    pub fn finish(self) -> anyhow::Result<()> {
        self.0.finish()
    }
}

fn hooks() -> AbortHooks {
    AbortHooks::from_env(ABORT_AFTER_ENV, ABORT_MID_ENV)
}
