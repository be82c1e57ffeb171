//! One block of a dataset file (whole records, about half a mebibyte) parsed into compact records
//! that point into the block's text: no allocation per row.
//!
//! The fast reader takes the plain CSV that rdnaprobe and most tools write (`\n` line ends,
//! fields either bare or fully quoted with `""` escapes, every cell valid). Anything else in a
//! block (a `\r`, a blank line, a stray quote, a bad cell, a wrong field count, invalid UTF-8)
//! sends the whole block through the dataset crate's own reader, which gives the rows or the
//! error exactly as the streaming diff would, with the file's own line numbers.

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rdnaprobe_dataset::{ModeCells, ModeField, Reader, Row, V1_COLUMNS};

use crate::error::{Error, Result};
use crate::input::Input;
use crate::uniform::{cells_valid, UniformColumns};

/// Where a file's rows come from and how its cells are read.
#[derive(Debug)]
pub(crate) struct FileInfo {
    pub path: PathBuf,
    pub label: String,
    /// Fields per record.
    pub width: usize,
    pub backend_column: Option<usize>,
    pub status_column: Option<usize>,
    pub default_backend: String,
    pub family: String,
    /// The header record's bytes, its line end included.
    pub header: Vec<u8>,
    /// Lines the header takes.
    pub header_lines: u64,
    /// Where the wave uniform output columns sit among the extra columns.
    pub uniform: Option<UniformColumns>,
    /// Buffers of the blocks already dropped, for the next ones.
    pub pool: Pool,
}

/// The text and record buffers of dropped blocks, reused by the blocks read after them: a
/// fresh half-mebibyte buffer per block was paid in page faults and page clearing.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    texts: std::sync::Mutex<Vec<Vec<u8>>>,
    recs: std::sync::Mutex<Vec<Vec<Rec>>>,
}

/// Buffers kept per kind: about the blocks in flight (read ahead, being parsed, in batches).
const POOLED: usize = 64;

impl Pool {
    /// An empty text buffer (a reused one when there is one).
    pub fn text(&self) -> Vec<u8> {
        self.texts
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            .unwrap_or_default()
    }

    fn recs(&self) -> Vec<Rec> {
        self.recs
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            .unwrap_or_default()
    }

    fn give<T>(pool: &std::sync::Mutex<Vec<Vec<T>>>, mut v: Vec<T>) {
        // Only the CSV reader's block-sized buffers (a Parquet row group's block can be far
        // larger, and its reader takes no text buffer from here).
        let bytes = v.capacity() * std::mem::size_of::<T>();
        if bytes == 0 || bytes > 4 * super::split::BLOCK_BYTES {
            return;
        }
        v.clear();
        if let Ok(mut p) = pool.lock() {
            if p.len() < POOLED {
                p.push(v);
            }
        }
    }
}

impl FileInfo {
    /// Opens `path` through [`Input::open`] (header checks, manifest, labels); the returned
    /// file is positioned at the first data byte.
    pub fn open(path: &Path) -> Result<(FileInfo, std::fs::File, Vec<u8>)> {
        let input = Input::open(path)?;
        let (backend_column, status_column) = input.status_columns();
        let mut file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        // The header ends at the first line end outside quotes.
        let mut head = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        let mut quoted = false;
        let end = 'found: loop {
            let start = head.len();
            let n = file.read(&mut buf).map_err(|e| Error::io(path, e))?;
            if n == 0 {
                break head.len();
            }
            head.extend_from_slice(&buf[..n]);
            for (i, b) in head[start..].iter().enumerate() {
                match b {
                    b'"' => quoted = !quoted,
                    b'\n' if !quoted => break 'found start + i + 1,
                    _ => {}
                }
            }
        };
        let rest = head.split_off(end);
        let header_lines = count(&head, b'\n') as u64;
        Ok((
            FileInfo {
                path: path.to_path_buf(),
                label: path.display().to_string(),
                width: V1_COLUMNS.len() + input.extra_columns().len(),
                backend_column,
                status_column,
                default_backend: input.default_backend().to_string(),
                family: input.family().to_string(),
                header: head,
                header_lines,
                uniform: input.uniform_columns(),
                pool: Pool::default(),
            },
            file,
            rest,
        ))
    }
}

pub(crate) use super::scan::count;
use super::scan::{split, Ends};

/// A byte range of a block's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    pub(super) fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            len: (end - start) as u32,
        }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// A row's `status` cell.
#[derive(Clone, Copy, Debug)]
pub(crate) enum StatusCell {
    Ok,
    Unsupported(Span),
    Error(Span),
    /// Not a status: the row is an error once it is read (it needs the row number).
    Invalid(Span),
}

/// One data row of a block.
#[derive(Clone, Debug)]
pub(crate) struct Rec {
    pub instruction: Span,
    pub gfx: Span,
    pub source: Span,
    pub note: Span,
    /// Into [`Block::words`].
    pub words: Span,
    /// Into [`Block::extra`].
    pub extra: Span,
    pub wave: Option<u32>,
    pub mode: ModeCells,
    pub inputs: [u32; 6],
    pub outputs: [Option<u32>; 16],
    /// The trimmed `backend` cell when it is not empty.
    pub backend: Option<Span>,
    pub status: StatusCell,
}

/// A parsed block: records, then (where reading stopped early) the error.
#[derive(Debug)]
pub(crate) struct Block {
    pub file: Arc<FileInfo>,
    pub(super) text: String,
    pub(super) words: Vec<u32>,
    pub(super) extra: Vec<Span>,
    pub recs: Vec<Rec>,
    pub error: Option<Error>,
}

impl Block {
    pub fn str(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    pub fn words(&self, rec: &Rec) -> &[u32] {
        &self.words[rec.words.range()]
    }

    pub fn extra(&self, rec: &Rec) -> impl Iterator<Item = &str> {
        self.extra[rec.extra.range()].iter().map(|s| self.str(*s))
    }

    /// Extra cell `i` of the row.
    pub fn extra_cell(&self, rec: &Rec, i: usize) -> Option<&str> {
        self.extra[rec.extra.range()].get(i).map(|s| self.str(*s))
    }

    /// The row's backend: its cell, or the file's default.
    pub fn backend<'a>(&'a self, rec: &Rec) -> &'a str {
        match rec.backend {
            Some(s) => self.str(s),
            None => &self.file.default_backend,
        }
    }

    /// A block without rows.
    pub(super) fn empty(file: Arc<FileInfo>) -> Block {
        let recs = file.pool.recs();
        Block {
            file,
            text: String::new(),
            words: Vec::new(),
            extra: Vec::new(),
            recs,
            error: None,
        }
    }

    /// Parses `bytes` (whole records; the first starts on line `first_line` of the file).
    pub fn parse(file: Arc<FileInfo>, bytes: Vec<u8>, first_line: u64) -> Block {
        thread_local! {
            // The field ends of the last block this thread parsed: their buffers, reused.
            static ENDS: std::cell::RefCell<Ends> = std::cell::RefCell::default();
        }
        ENDS.with(|ends| {
            let mut ends = ends.borrow_mut();
            ends.seps.clear();
            ends.lines.clear();
            ends.escapes.clear();
            Block::parse_with(file, bytes, first_line, &mut ends)
        })
    }

    fn parse_with(file: Arc<FileInfo>, bytes: Vec<u8>, first_line: u64, ends: &mut Ends) -> Block {
        let mut block = Block::empty(file);
        // Where the fields end, and whether the block is plain CSV at all (a `\r` or a stray
        // quote anywhere sends it to the full reader).
        let Some(ascii) = split(&bytes, ends) else {
            return block.parse_slow(bytes, first_line);
        };
        let text = if ascii.0 {
            // SAFETY: every byte is ASCII (`split` looked at each), so the bytes are UTF-8.
            unsafe { String::from_utf8_unchecked(bytes) }
        } else {
            match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => return block.parse_slow(e.into_bytes(), first_line),
            }
        };
        block.text = text;
        if block.parse_fast(ends).is_none() {
            let bytes = std::mem::take(&mut block.text).into_bytes();
            block.words.clear();
            block.extra.clear();
            block.recs.clear();
            return block.parse_slow(bytes, first_line);
        }
        block
    }

    /// The fast reader over the field ends [`split`] found; `None` where the block needs the
    /// full reader.
    fn parse_fast(&mut self, ends: &mut Ends) -> Option<()> {
        let len = self.text.len();
        let width = self.file.width;
        let Ends {
            seps,
            lines,
            escapes,
        } = ends;
        // A record per line end (and one more at the end of the file): one allocation each.
        let records = lines.len() + 1;
        self.recs.reserve(records);
        self.extra.reserve(records * (width - V1_COLUMNS.len()));
        self.words.reserve(records * 2);
        // The last record may lack its line end (the end of the file).
        if len > 0 && self.text.as_bytes()[len - 1] != b'\n' {
            seps.push(len as u32);
            lines.push(len as u32);
        }
        let mut fields: Vec<Span> = vec![Span::default(); width];
        let mut escapes = escapes.iter().copied().peekable();
        let mut first = 0usize;
        for &line in lines.iter() {
            // The record's fields end at `seps[first..first + width]`, the last at its line end;
            // a record of another width (or a blank line) goes to the full reader.
            let f = seps.get(first..first + width)?;
            if f[width - 1] != line {
                return None;
            }
            let mut start = seps
                .get(first.wrapping_sub(1))
                .map_or(0, |&p| p as usize + 1);
            first += width;
            for (slot, &end) in fields.iter_mut().zip(f) {
                let end = end as usize;
                *slot = if self.text.as_bytes().get(start) == Some(&b'"') {
                    // A quoted cell (`split` checked its quotes): its content, unescaped into
                    // the text's tail when it holds `""`.
                    let mut escaped = false;
                    while escapes.next_if(|&e| (e as usize) < end).is_some() {
                        escaped = true;
                    }
                    if escaped {
                        let content = self.text[start + 1..end - 1].replace("\"\"", "\"");
                        self.push_str(&content)
                    } else {
                        Span::new(start + 1, end - 1)
                    }
                } else {
                    Span::new(start, end)
                };
                start = end + 1;
            }
            let rec = self.record(&fields)?;
            self.recs.push(rec);
        }
        // Every separator belongs to a record.
        (first == seps.len()).then_some(())
    }

    /// The record of one line's fields; `None` for any cell the fast reader does not take.
    fn record(&mut self, f: &[Span]) -> Option<Rec> {
        let t = &self.text;
        // The number cells as bytes (a field ends at an ASCII separator, so these are the
        // cell's bytes; a non-ASCII byte in a number cell fails its parse).
        let cell = |i: usize| &t.as_bytes()[f[i].range()];
        let wave = match cell(2).trim_ascii() {
            b"" => None,
            b"32" => Some(32),
            b"64" => Some(64),
            _ => return None,
        };
        let words_start = self.words.len();
        let encoding = cell(1).trim_ascii();
        if encoding != b"n/a" {
            if encoding.is_empty() {
                return None;
            }
            for w in encoding.split(u8::is_ascii_whitespace) {
                if !w.is_empty() {
                    self.words.push(hex(w)?);
                }
            }
        }
        let mut mode = ModeCells::default();
        for (k, field) in ModeField::ALL.into_iter().enumerate() {
            // The common cells (empty, one digit) here; anything else as the dataset reads it.
            *mode.get_mut(field) = match cell(3 + k) {
                [] => None,
                [d @ b'0'..=b'9'] if d - b'0' <= field.max() => Some(d - b'0'),
                _ => field.parse_cell(&t[f[3 + k].range()]).ok()?,
            };
        }
        let mut inputs = [0u32; 6];
        for (k, slot) in inputs.iter_mut().enumerate() {
            *slot = hex(cell(10 + k).trim_ascii())?;
        }
        let mut outputs = [None; 16];
        for (k, slot) in outputs.iter_mut().enumerate() {
            let c = cell(16 + k);
            if !c.is_empty() {
                let c = c.trim_ascii();
                if !c.is_empty() {
                    *slot = Some(hex(c)?);
                }
            }
        }
        let extra_start = self.extra.len();
        self.extra.extend_from_slice(&f[V1_COLUMNS.len()..]);
        if let Some(u) = self.file.uniform {
            // Malformed wave cells: the full reader names them.
            let extra = &f[V1_COLUMNS.len()..];
            if !cells_valid(&u.cells(|i| extra.get(i).map(|s| &t[s.range()]))) {
                return None;
            }
        }
        let trimmed = |col: Option<usize>| col.map(|c| trim_span(t, f[V1_COLUMNS.len() + c]));
        let backend = trimmed(self.file.backend_column).filter(|s| s.len > 0);
        let status = match trimmed(self.file.status_column) {
            None => StatusCell::Ok,
            Some(s) => status_cell(t, s),
        };
        // Cells that repeat from row to row point at their first copy in the block, so that
        // the workers that read them later find those bytes in cache.
        let last = self.recs.last();
        let same = |span: Span, was: Option<Span>| match was {
            Some(w) if t.as_bytes()[w.range()] == t.as_bytes()[span.range()] => w,
            _ => span,
        };
        let instruction = same(f[0], last.map(|r| r.instruction));
        let gfx = same(f[32], last.map(|r| r.gfx));
        let backend = match (backend, last.and_then(|r| r.backend)) {
            (Some(b), was) => Some(same(b, was)),
            (None, _) => None,
        };
        Some(Rec {
            instruction,
            gfx,
            source: f[33],
            note: f[34],
            words: Span::new(words_start, self.words.len()),
            extra: Span::new(extra_start, self.extra.len()),
            wave,
            mode,
            inputs,
            outputs,
            backend,
            status,
        })
    }

    /// The full reader over the header and this block, line numbers those of the file.
    fn parse_slow(mut self, bytes: Vec<u8>, first_line: u64) -> Block {
        let header = self.file.header.clone();
        let stream = io::Cursor::new(header).chain(io::Cursor::new(bytes));
        let mut reader = match Reader::new(stream, self.file.label.clone()) {
            Ok(r) => r,
            Err(e) => {
                self.error = Some(e.into());
                return self;
            }
        };
        reader.offset_lines(first_line.saturating_sub(self.file.header_lines + 1));
        loop {
            match reader.read_row() {
                Ok(Some(row)) => self.push_row(&row),
                Ok(None) => return self,
                Err(e) => {
                    self.error = Some(e.into());
                    return self;
                }
            }
        }
    }

    pub(super) fn push_str(&mut self, s: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(s);
        Span::new(start, self.text.len())
    }

    /// A row of the full reader, copied into the block.
    fn push_row(&mut self, row: &Row) {
        let instruction = self.push_str(&row.instruction);
        let gfx = self.push_str(&row.gfx);
        let source = self.push_str(&row.source);
        let note = self.push_str(&row.note);
        let words_start = self.words.len();
        self.words.extend_from_slice(&row.encoding);
        let extra_start = self.extra.len();
        for e in &row.extra {
            let s = self.push_str(e);
            self.extra.push(s);
        }
        let t = &self.text;
        let col = |c: Option<usize>| c.map(|c| trim_span(t, self.extra[extra_start + c]));
        let backend = col(self.file.backend_column).filter(|s| s.len > 0);
        let status = match col(self.file.status_column) {
            None => StatusCell::Ok,
            Some(s) => status_cell(t, s),
        };
        self.recs.push(Rec {
            instruction,
            gfx,
            source,
            note,
            words: Span::new(words_start, self.words.len()),
            extra: Span::new(extra_start, self.extra.len()),
            wave: row.wave,
            mode: row.mode,
            inputs: row.inputs,
            outputs: row.outputs,
            backend,
            status,
        });
    }
}

impl Drop for Block {
    /// Hands the text and record buffers back to the file's pool.
    fn drop(&mut self) {
        let pool = &self.file.pool;
        Pool::give(&pool.texts, std::mem::take(&mut self.text).into_bytes());
        Pool::give(&pool.recs, std::mem::take(&mut self.recs));
    }
}

/// The span of `span`'s text with surrounding whitespace removed (as `str::trim`).
pub(super) fn trim_span(text: &str, span: Span) -> Span {
    let s = &text[span.range()];
    let start = span.start as usize + (s.len() - s.trim_start().len());
    Span::new(start, start + s.trim().len())
}

/// A trimmed `status` cell read as [`rdnaprobe_dataset::Status::parse`] reads it.
pub(super) fn status_cell(text: &str, cell: Span) -> StatusCell {
    let s = &text[cell.range()];
    if s.is_empty() || s == "ok" {
        return StatusCell::Ok;
    }
    let rest = |prefix: &str| {
        s.strip_prefix(prefix).map(|r| {
            let r = r.trim_start_matches(':');
            let lead = r.len() - r.trim_start().len();
            let start = cell.start as usize + s.len() - r.len() + lead;
            Span::new(start, start + r.trim().len())
        })
    };
    if let Some(r) = rest("unsupported") {
        StatusCell::Unsupported(r)
    } else if let Some(r) = rest("error") {
        StatusCell::Error(r)
    } else {
        StatusCell::Invalid(cell)
    }
}

/// Eight hex digits, the first in the top byte of `x`, all at once: `None` unless every byte
/// is `0-9`, `a-f` or `A-F`.
fn hex8(x: u64) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if x & HIGH != 0 {
        return None;
    }
    // Letters in lower case (only `A-F` and `a-f` become `a-f`; digits are tested on `x`,
    // since the fold also turns 0x10-0x19 into digits).
    let l = x | 0x2020_2020_2020_2020;
    // High bit of each byte set where the byte of `v` is >= c (every byte is below 0x80, so
    // no carry crosses into the next byte).
    let ge = |v: u64, c: u8| v + ONES * u64::from(0x80 - c);
    let digit = ge(x, b'0') & !ge(x, b'9' + 1);
    let letter = ge(l, b'a') & !ge(l, b'f' + 1);
    if (digit | letter) & HIGH != HIGH {
        return None;
    }
    // Nibble values, one per byte, then packed: 8 bytes of 4 bits into 32 bits.
    let mut n = (l & (ONES * 0x0f)) + ((letter & HIGH) >> 7) * 9;
    n = (n | n >> 4) & 0x00ff_00ff_00ff_00ff;
    n = (n | n >> 8) & 0x0000_ffff_0000_ffff;
    n = (n | n >> 16) & 0xffff_ffff;
    Some(n as u32)
}

/// The value of a hex digit; 255 for any other byte.
static HEX_VALUE: [u8; 256] = {
    let mut t = [255u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// A `0x` hex dword as [`rdnaprobe_dataset::parse_hex`] accepts it.
pub(super) fn hex(b: &[u8]) -> Option<u32> {
    if let Ok(&[b'0', b'x', ref digits @ ..]) = <&[u8; 10]>::try_from(b) {
        return hex8(u64::from_be_bytes(*digits));
    }
    if b.len() < 3 || b[0] != b'0' || (b[1] != b'x' && b[1] != b'X') || b.len() > 10 {
        return None;
    }
    // Every digit looked up, one test at the end (no branch per digit).
    let (mut v, mut bad) = (0u32, 0u8);
    for &c in &b[2..] {
        let d = HEX_VALUE[usize::from(c)];
        bad |= d;
        v = v << 4 | u32::from(d & 15);
    }
    (bad <= 15).then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_accepts_what_the_dataset_reader_accepts() {
        for cell in [
            "0x0",
            "0X1f",
            "0xFFFFFFFF",
            "0x0123abcd",
            "0x89ABCDEF",
            "0x3f800000",
            "0xdeadbeeg",
            "0x/0123456",
            "0x:0123456",
            "0x@ABCDEFG",
            "0x`abcdef0",
            "0x0123456\u{7f}",
            "0x01234é5",
            "0X00000001",
            "1x00000001",
            "0x",
            "0x123456789",
            "1f",
            "0xg",
            "0x 1",
            " 0x1",
            "",
        ] {
            assert_eq!(
                hex(cell.as_bytes()),
                rdnaprobe_dataset::parse_hex(cell).ok(),
                "cell {cell:?}"
            );
        }
    }

    /// The rows of `text` (a header and records) as the fast reader and as the full reader
    /// read them, each row as its cells in text form; the fast reader must take the block.
    fn both_readers(text: &str) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("t.csv");
        std::fs::write(&path, text).expect("write");
        let (info, _, body) = FileInfo::open(&path).expect("header");
        let info = Arc::new(info);
        let rows = |b: &Block| -> Vec<Vec<String>> {
            assert!(b.error.is_none(), "{:?}", b.error);
            b.recs
                .iter()
                .map(|r| {
                    let mut cells = vec![
                        b.str(r.instruction).to_string(),
                        format!("{:?}", b.words(r)),
                        format!("{:?} {:?}", r.wave, r.mode),
                        format!("{:?} {:?}", r.inputs, r.outputs),
                        b.str(r.gfx).to_string(),
                        b.str(r.source).to_string(),
                        b.str(r.note).to_string(),
                        b.backend(r).to_string(),
                        format!("{:?}", status_of_cell(b, r.status)),
                    ];
                    cells.extend(b.extra(r).map(str::to_string));
                    cells
                })
                .collect()
        };
        let mut ends = Ends::default();
        let mut fast = Block::empty(info.clone());
        assert!(split(&body, &mut ends).is_some(), "split refused {text:?}");
        fast.text = String::from_utf8(body.clone()).expect("utf8");
        assert!(
            fast.parse_fast(&mut ends).is_some(),
            "fast reader refused {text:?}"
        );
        let slow = Block::empty(info).parse_slow(body, 2);
        (rows(&fast), rows(&slow))
    }

    fn status_of_cell(b: &Block, s: StatusCell) -> Option<String> {
        match s {
            StatusCell::Ok => None,
            StatusCell::Unsupported(x) | StatusCell::Error(x) | StatusCell::Invalid(x) => {
                Some(b.str(x).to_string())
            }
        }
    }

    #[test]
    fn the_fast_reader_reads_what_the_full_reader_reads() {
        let header = format!("{},backend,status,row_id\n", V1_COLUMNS.join(","));
        let row = |instruction: &str, out0: &str, note: &str, tail: &str| {
            format!(
                "{instruction},0x7e1402ff 0xabcdabcd 0x7e141504,32,1,1,0,3,0,0,0,0x02f6f33d,\
                 0x8c0721da,0x402dea00,0x00000000,0x00000000,0x00000000,{out0},,,,,,,,,,,,,,,,\
                 gfx1036,src,{note},{tail}"
            )
        };
        for body in [
            // Plain; quoted text with commas and escaped quotes; a line end inside quotes.
            row("v_a", "0xabcd0000", "n", "cpu,ok,f:0\n"),
            row(
                "\"v_cvt v10, v4 (\"\"x\"\")\"",
                "0xABCDEF01",
                "\"a, b\"",
                "cpu,ok,f:1\n",
            ),
            row(
                "\"v_b\"",
                "0x0",
                "\"two\nlines, \"\"q\"\"\"",
                "cpu,ok,f:2\n",
            ),
            // Empty cells at the line end, a status with a message, padded hex.
            row("v_c", " 0x1 ", "", "cpu,unsupported: no f64,\n"),
            row("\"\"", "", "\"\"", ",error:timeout,f:4\n"),
            // The last record without its line end.
            row("v_d", "0x00000002", "n", "vulkan:lavapipe,ok,f:5"),
        ] {
            let text = format!("{header}{body}");
            let (fast, slow) = both_readers(&text);
            assert_eq!(fast.len(), 1, "{text:?}");
            assert_eq!(fast, slow, "{text:?}");
        }
        // Several records in one block.
        let text = format!(
            "{header}{}{}{}",
            row("v_a", "0x1", "n", "cpu,ok,a\n"),
            row("\"v, b\"", "0x2", "\"x\"\"\"", "cpu,ok,b\n"),
            row("v_c", "", "n", "cpu,ok,c\n")
        );
        let (fast, slow) = both_readers(&text);
        assert_eq!((fast.len(), &fast), (3, &slow));
    }

    #[test]
    fn eight_digits_at_once_match_a_digit_at_a_time() {
        let slow = |b: &[u8]| {
            b[2..].iter().try_fold(0u32, |v, &c| {
                let d = (c as char).to_digit(16)?;
                Some(v << 4 | d)
            })
        };
        // Every byte value at every digit position, among digits of both cases.
        for base in [*b"0x0123abcd", *b"0x89ABCDEF", *b"0xfFfFfFfF"] {
            for pos in 2..10 {
                for byte in 0..=255u8 {
                    let mut cell = base;
                    cell[pos] = byte;
                    assert_eq!(hex(&cell), slow(&cell), "{cell:?}");
                }
            }
        }
    }

    #[test]
    fn status_cells_read_as_the_status_parser() {
        for cell in [
            "ok",
            "",
            "unsupported: no f64",
            "unsupported:  x ",
            "error:timeout",
            "error",
            "fine",
        ] {
            let text = format!("[{cell}]");
            let span = trim_span(&text, Span::new(1, 1 + cell.len()));
            let got = match status_cell(&text, span) {
                StatusCell::Ok => Some(rdnaprobe_dataset::Status::Ok),
                StatusCell::Unsupported(s) => Some(rdnaprobe_dataset::Status::Unsupported(
                    text[s.range()].to_string(),
                )),
                StatusCell::Error(s) => Some(rdnaprobe_dataset::Status::Error(
                    text[s.range()].to_string(),
                )),
                StatusCell::Invalid(_) => None,
            };
            assert_eq!(got, rdnaprobe_dataset::Status::parse(cell), "cell {cell:?}");
        }
    }
}
