//! Dataset schema v1 (docs/dataset-format.md): one CSV row per lane with the body's words,
//! the float mode cells, six input dwords and sixteen output dwords, plus a JSON manifest.
//!
//! This crate owns reading (with line/column errors), writing (atomic: temp file + rename)
//! and manifests. It knows nothing about GPUs or the recompiler.

pub mod row;

pub use row::{ModeCells, Row, V1_COLUMNS};
