//! Dataset schema v1 (docs/dataset-format.md): one CSV row per lane with the body's words,
//! the float mode cells, six input dwords and sixteen output dwords, plus a JSON manifest;
//! and the replay output schema, which adds the `backend` and `status` columns.
//!
//! This crate owns reading (streaming, with file/line/column errors), writing (atomic: temp
//! file + fsync + rename), replay output and manifests, and the resolution of a row's
//! unstated cells ([`resolve_mode`]). The cell types (mode, wave, target, status) are the lane
//! contract's (`rdnaprobe-contract`). It knows nothing about GPUs or the recompiler.

pub mod error;
pub mod manifest;
pub mod read;
pub mod replay;
pub mod row;
pub mod wave;
pub mod write;

pub use error::DatasetError;
pub use manifest::{
    git_commit, manifest_path, rfc3339_utc, sha256_file, sha256_hex, verify, Manifest,
    ManifestProducer, Verified, SCHEMA_VERSION,
};
pub use rdnaprobe_contract::{FloatMode, ModeField, Status, Target, Wave, SGPR_INPUTS};
pub use read::{parse_dataset, parse_encoding, parse_hex, read_dataset, Dataset, Reader};
pub use replay::{clashing_column, replay_row, ReplayWriter, Tally, REPLAY_COLUMNS};
pub use row::{resolve_mode, ModeCells, Row, V1_COLUMNS};
pub use wave::{
    group_waves, WaveCells, WaveChecker, WaveCol, WaveInputs, WaveLayout, WaveOutputs, WaveRows,
    WAVE_COLUMNS,
};
pub use write::{
    dataset_to_bytes, encoding_cell, hex, sync_dir, v1_cells, write_dataset, AtomicFile, Writer,
};
