//! Diff engine and conformance reports for rdnaprobe datasets.
//!
//! - [`diff`]: joins a candidate dataset (a replay output) to a reference dataset (hardware, or
//!   another backend) and classifies every output dword by its result type: exact, NaN payload,
//!   signed zero, denormal flush, ULP distance, wrong; plus the backend's own `unsupported` /
//!   `error` rows. Streaming plain Rust, no polars: it is in the small GPU-machine binary.
//! - [`subject`]: the instruction under test of a row, decoded from its body: the key of the
//!   known-discrepancy lookup, the report's groups and the export's partitions.
//! - [`known`]: the known-discrepancy data file that separates expected from unexpected rows.
//! - [`output`]: CSV, JSON Lines and table writers of diff results.
//! - `report` and `export` (feature `polars`): the conformance report (HTML, Markdown, CSV,
//!   JSON, SVG plots) aggregated with polars, and hive-partitioned Parquet export.
//! - [`store`]: the results store (runs of replay outputs, content-addressed, with manifests;
//!   per-row results as Parquet with feature `polars`); [`regress`]: fixed / regressed / changed
//!   rows between two runs; `publish` (feature `polars`): the static conformance site.
//! - [`texture`]: the texture-unit report, an image sweep's native texture-unit run against
//!   its software run, per image format, filter and addressing mode.

pub mod classify;
pub mod diff;
pub mod dtype;
pub mod error;
#[cfg(feature = "polars")]
pub mod export;
pub mod format;
pub mod input;
pub mod join;
pub mod known;
pub mod output;
pub mod pipeline;
#[cfg(feature = "polars")]
pub mod publish;
pub mod regress;
#[cfg(feature = "polars")]
pub mod report;
pub mod store;
pub mod subject;
pub mod texture;
pub mod uniform;

pub use classify::{Class, Verdict};
pub use diff::{diff_files, diff_inputs, Options, RowDiff, Summary};
pub use dtype::{output_types, DwordType};
pub use error::{Error, Result};
pub use input::{Input, Item, Key, Status, HARDWARE};
pub use known::Known;
