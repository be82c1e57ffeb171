//! Errors of the diff engine, the report and the export. Every error that comes from a file
//! names the file and, where it has one, the line (1-based, the header is line 1) and the
//! column (1-based field number) with the column's name.

use std::path::PathBuf;

/// Everything that can go wrong reading, joining or writing rdnaprobe data.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Dataset(#[from] rdnaprobe_dataset::DatasetError),
    #[error("{path}: data row {row}: column `status`: {cell:?} is not `ok`, `unsupported: <reason>` or `error: <message>`")]
    Status {
        path: PathBuf,
        row: u64,
        cell: String,
    },
    #[error(
        "row sets differ: {reference_only} row(s) only in the reference {reference}, \
         {candidate_only} only in the candidate {candidate}; first unmatched: {first}"
    )]
    Unmatched {
        reference: PathBuf,
        candidate: PathBuf,
        reference_only: u64,
        candidate_only: u64,
        /// The unmatched row that comes first in its file, with its side and line.
        first: String,
    },
    #[error("{path}: {message}")]
    Known { path: PathBuf, message: String },
    /// A Parquet input that cannot be read (no Parquet support in this build, a corrupt or
    /// truncated file, a missing column, a bad value): the message names the row group, row
    /// and column where it has them.
    #[error("{path}: {message}")]
    Parquet { path: PathBuf, message: String },
    #[error("{0}")]
    Usage(String),
    #[cfg(feature = "polars")]
    #[error("{context}: {source}")]
    Polars {
        context: String,
        #[source]
        source: polars::error::PolarsError,
    },
    #[cfg(feature = "polars")]
    #[error("plot {path}: {message}")]
    Plot { path: PathBuf, message: String },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}
