//! Helpers shared by the reports crate's integration tests.

use std::path::Path;

/// Writes `header` and `rows` as a CSV file at `path`, with CRLF line ends when `crlf`.
pub fn write_csv<R, T>(
    path: &Path,
    header: &csv::StringRecord,
    rows: impl IntoIterator<Item = R>,
    crlf: bool,
) where
    R: IntoIterator<Item = T>,
    T: AsRef<[u8]>,
{
    let mut w = csv::WriterBuilder::new()
        .terminator(if crlf {
            csv::Terminator::CRLF
        } else {
            csv::Terminator::Any(b'\n')
        })
        .from_path(path)
        .expect("create");
    w.write_record(header).expect("header");
    for r in rows {
        w.write_record(r).expect("row");
    }
    w.flush().expect("flush");
}
