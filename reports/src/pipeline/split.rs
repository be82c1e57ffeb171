//! Reading one side of a diff (one file, or several in order) as blocks of whole records, each
//! parsed on the thread pool while the next is read. A bounded queue keeps the blocks read
//! ahead, and so the memory, independent of the file size.

use std::io::Read;
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::pipeline::block::{count, Block, FileInfo};
use crate::pipeline::scan::count_lines_and_quotes;

/// Bytes read per block before it is cut at a record end.
pub(crate) const BLOCK_BYTES: usize = 1 << 19;

/// Blocks read ahead per side.
const AHEAD: usize = 3;

/// What a side's reader hands on, in file order.
pub(crate) enum Msg {
    /// A block being parsed.
    Block(Receiver<Block>),
    /// A file could not be opened or read; nothing follows.
    Failed(Error),
}

/// Starts reading `paths` on a thread of `scope`; the receiver yields the blocks in order and
/// closes at the end.
pub(crate) fn spawn<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    paths: Vec<PathBuf>,
) -> Receiver<Msg> {
    let (tx, rx) = sync_channel(AHEAD);
    scope.spawn(move || {
        for path in paths {
            let read = if crate::input::is_parquet(&path) {
                read_parquet(&path, &tx)
            } else {
                read_file(&path, &tx)
            };
            if let Err(e) = read {
                let _ = tx.send(Msg::Failed(e));
                return;
            }
        }
    });
    rx
}

#[cfg(feature = "polars")]
fn read_parquet(path: &std::path::Path, tx: &SyncSender<Msg>) -> Result<()> {
    super::parquet::read_file(path, tx)
}

#[cfg(not(feature = "polars"))]
fn read_parquet(path: &std::path::Path, _tx: &SyncSender<Msg>) -> Result<()> {
    Err(Error::Parquet {
        path: path.to_path_buf(),
        message: "a Parquet file, and this rdnaprobe was built without Parquet support (the \
                  `polars` feature): rebuild it with default features, or give the dataset as CSV"
            .into(),
    })
}

/// Sends the blocks of one CSV file; `Ok` also when the receiver has gone (the diff stopped).
fn read_file(path: &std::path::Path, tx: &SyncSender<Msg>) -> Result<()> {
    let (info, mut file, mut buf) = FileInfo::open(path)?;
    let info = Arc::new(info);
    let mut line = info.header_lines + 1;
    let mut eof = false;
    while !eof || !buf.is_empty() {
        while !eof && buf.len() < BLOCK_BYTES {
            eof = read_more(&mut file, &mut buf).map_err(|e| Error::io(path, e))?;
        }
        let (lines, quotes) = count_lines_and_quotes(&buf);
        let cut = if eof {
            buf.len()
        } else {
            record_end(&buf, quotes)
        };
        if cut == 0 {
            // No record ends in the buffer yet (a very long quoted field): read on.
            eof = read_more(&mut file, &mut buf).map_err(|e| Error::io(path, e))?;
            continue;
        }
        // The next buffer starts with what follows the cut (a reused buffer when there is one).
        let mut rest = info.pool.text();
        // Room for the blocks' largest fill (under BLOCK_BYTES, then one more read), so that
        // reading never moves it.
        rest.reserve(2 * BLOCK_BYTES);
        rest.extend_from_slice(&buf[cut..]);
        buf.truncate(cut);
        let bytes = std::mem::replace(&mut buf, rest);
        let first = line;
        line += (lines - count(&buf, b'\n')) as u64;
        let (done_tx, done_rx) = sync_channel(1);
        let file_info = info.clone();
        rayon::spawn(move || {
            let _ = done_tx.send(Block::parse(file_info, bytes, first));
        });
        if tx.send(Msg::Block(done_rx)).is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// Appends up to [`BLOCK_BYTES`] bytes of `file` to `buf` (into its spare capacity, without
/// zeroing it first); true at the end of the file.
fn read_more(file: &mut std::fs::File, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.reserve(BLOCK_BYTES);
    let n = file.take(BLOCK_BYTES as u64).read_to_end(buf)?;
    Ok(n == 0)
}

/// One past the last line end of `buf` that lies outside quotes (0: none). `buf` starts at a
/// record start, so a line end with an even number of quotes before it ends a record.
/// `quotes`: the quotes in `buf`.
fn record_end(buf: &[u8], mut quotes: usize) -> usize {
    let mut end = buf.len();
    while let Some(nl) = buf[..end].iter().rposition(|&b| b == b'\n') {
        quotes -= count(&buf[nl..end], b'"');
        if quotes % 2 == 0 {
            return nl + 1;
        }
        end = nl;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_end_at_record_ends_outside_quotes() {
        let end = |b: &[u8]| record_end(b, count(b, b'"'));
        assert_eq!(end(b"a,b\nc,d\ne"), 8);
        assert_eq!(end(b"a,\"x\ny\"\nc"), 8);
        assert_eq!(end(b"a,\"x\ny"), 0);
        assert_eq!(end(b"abc"), 0);
    }
}
