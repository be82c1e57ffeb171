//! Errors of dataset reading and writing. Every variant names the file; cell errors also name
//! the line (1-based, as an editor counts), the column (1-based) with its header name, and the
//! cell's text, so a user can jump straight to the bad spot.

use std::io;

/// Where an error happened: a file path, or a label such as `<stdin>` for streams.
pub type Source = String;

#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("{file}: {op}: {source}")]
    Io {
        file: Source,
        op: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("{file}: empty file: a schema v1 dataset starts with a header line")]
    Empty { file: Source },
    #[error(
        "{file}:{line}:{column}: header column is `{found}`, expected `{expected}` \
         (schema v1 needs its 35 columns first, in order)"
    )]
    Header {
        file: Source,
        line: u64,
        column: usize,
        expected: &'static str,
        found: String,
    },
    #[error("{file}:{line}: header has {found} columns, schema v1 needs at least 35")]
    ShortHeader {
        file: Source,
        line: u64,
        found: usize,
    },
    #[error("{file}:{line}: duplicate column `{name}` at column {column}")]
    DuplicateColumn {
        file: Source,
        line: u64,
        column: usize,
        name: String,
    },
    #[error("{file}:{line}: row has {found} fields, the header has {expected}")]
    FieldCount {
        file: Source,
        line: u64,
        expected: usize,
        found: usize,
    },
    #[error("{file}:{line}:{column} ({name}): `{cell}`: {reason}")]
    Cell {
        file: Source,
        line: u64,
        column: usize,
        name: String,
        cell: String,
        reason: String,
    },
    #[error("{file}:{line}: malformed CSV: {message}")]
    Csv {
        file: Source,
        line: u64,
        message: String,
    },
    #[error("{file}: row {index}: {reason}")]
    InvalidRow {
        file: Source,
        index: u64,
        reason: String,
    },
    #[error("{file}: manifest: {reason}")]
    Manifest { file: Source, reason: String },
}

impl DatasetError {
    pub(crate) fn io(file: impl Into<Source>, op: &'static str, source: io::Error) -> Self {
        DatasetError::Io {
            file: file.into(),
            op,
            source,
        }
    }
}
