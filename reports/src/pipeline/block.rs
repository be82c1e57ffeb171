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
            },
            file,
            rest,
        ))
    }
}

/// Occurrences of `byte`. Counted in byte-wide lanes, 32 bytes a step, emptied before they can
/// overflow: the compiler turns this into byte compares and subtractions on whole vectors
/// (a plain `filter().count()` widens every byte to 64 bits and runs several times slower).
pub(crate) fn count(bytes: &[u8], byte: u8) -> usize {
    const LANES: usize = 32;
    let mut total = 0usize;
    for part in bytes.chunks(255 * LANES) {
        let mut acc = [0u8; LANES];
        let mut steps = part.chunks_exact(LANES);
        for step in &mut steps {
            for (a, b) in acc.iter_mut().zip(step) {
                *a += u8::from(*b == byte);
            }
        }
        total += acc.iter().map(|&a| usize::from(a)).sum::<usize>();
        total += steps.remainder().iter().filter(|&&b| b == byte).count();
    }
    total
}

/// The bytes that end a bare field (`,` and the line end) or have no place in one (`"`).
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b',' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'"' as usize] = true;
    t
};

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
        Block {
            file,
            text: String::new(),
            words: Vec::new(),
            extra: Vec::new(),
            recs: Vec::new(),
            error: None,
        }
    }

    /// Parses `bytes` (whole records; the first starts on line `first_line` of the file).
    pub fn parse(file: Arc<FileInfo>, bytes: Vec<u8>, first_line: u64) -> Block {
        let mut block = Block::empty(file);
        let text = match String::from_utf8(bytes) {
            Ok(text) if !text.as_bytes().contains(&b'\r') => text,
            Ok(text) => return block.parse_slow(text.into_bytes(), first_line),
            Err(e) => return block.parse_slow(e.into_bytes(), first_line),
        };
        block.text = text;
        if block.parse_fast().is_none() {
            let bytes = std::mem::take(&mut block.text).into_bytes();
            block.words.clear();
            block.extra.clear();
            block.recs.clear();
            return block.parse_slow(bytes, first_line);
        }
        block
    }

    /// The fast reader; `None` where the block needs the full reader.
    fn parse_fast(&mut self) -> Option<()> {
        let len = self.text.len();
        // Rows are rarely shorter than 100 bytes: one allocation per block, not a doubling.
        self.recs.reserve(len / 100 + 1);
        self.extra
            .reserve((len / 100 + 1) * (self.file.width - V1_COLUMNS.len()));
        let mut fields: Vec<Span> = Vec::with_capacity(self.file.width);
        let mut pos = 0;
        while pos < len {
            fields.clear();
            loop {
                let bytes = self.text.as_bytes();
                let (span, next) = if bytes[pos] == b'"' {
                    self.quoted_field(pos)?
                } else {
                    let mut end = pos;
                    while end < len && !SPECIAL[usize::from(bytes[end])] {
                        end += 1;
                    }
                    if end < len && bytes[end] == b'"' {
                        return None;
                    }
                    (Span::new(pos, end), end)
                };
                fields.push(span);
                let bytes = self.text.as_bytes();
                if next >= len || bytes[next] == b'\n' {
                    pos = next + 1;
                    break;
                }
                // A comma: another field follows (an empty one at the line end).
                pos = next + 1;
                if pos >= len || bytes[pos] == b'\n' {
                    fields.push(Span::new(pos, pos));
                    pos += 1;
                    break;
                }
            }
            if fields.len() != self.file.width || (fields.len() == 1 && fields[0].len == 0) {
                return None;
            }
            let rec = self.record(&fields)?;
            self.recs.push(rec);
        }
        Some(())
    }

    /// A quoted field starting at `pos`: its content (unescaped into the text's tail when it
    /// holds `""`) and the position after the closing quote.
    fn quoted_field(&mut self, pos: usize) -> Option<(Span, usize)> {
        let bytes = self.text.as_bytes();
        let mut i = pos + 1;
        let mut escaped = false;
        loop {
            let q = i + memchr_quote(&bytes[i..])?;
            if bytes.get(q + 1) == Some(&b'"') {
                escaped = true;
                i = q + 2;
                continue;
            }
            match bytes.get(q + 1) {
                None | Some(b',') | Some(b'\n') => {}
                Some(_) => return None,
            }
            if !escaped {
                return Some((Span::new(pos + 1, q), q + 1));
            }
            let content = self.text[pos + 1..q].replace("\"\"", "\"");
            let start = self.text.len();
            self.text.push_str(&content);
            return Some((Span::new(start, self.text.len()), q + 1));
        }
    }

    /// The record of one line's fields; `None` for any cell the fast reader does not take.
    fn record(&mut self, f: &[Span]) -> Option<Rec> {
        let t = &self.text;
        let cell = |i: usize| &t[f[i].range()];
        let wave = match ascii_trim(cell(2)) {
            "" => None,
            "32" => Some(32),
            "64" => Some(64),
            _ => return None,
        };
        let words_start = self.words.len();
        let encoding = cell(1).trim();
        if encoding != "n/a" {
            if encoding.is_empty() {
                return None;
            }
            for w in encoding.split_whitespace() {
                self.words.push(hex(w)?);
            }
        }
        let mut mode = ModeCells::default();
        for (k, field) in ModeField::ALL.into_iter().enumerate() {
            // The common cells (empty, one digit) here; anything else as the dataset reads it.
            *mode.get_mut(field) = match cell(3 + k).as_bytes() {
                [] => None,
                [d @ b'0'..=b'9'] if d - b'0' <= field.max() => Some(d - b'0'),
                _ => field.parse_cell(cell(3 + k)).ok()?,
            };
        }
        let mut inputs = [0u32; 6];
        for (k, slot) in inputs.iter_mut().enumerate() {
            *slot = hex(ascii_trim(cell(10 + k)))?;
        }
        let mut outputs = [None; 16];
        for (k, slot) in outputs.iter_mut().enumerate() {
            let c = ascii_trim(cell(16 + k));
            if !c.is_empty() {
                *slot = Some(hex(c)?);
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
        Some(Rec {
            instruction: f[0],
            gfx: f[32],
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

/// `s` without ASCII whitespace around it. Where `str::trim` would remove more (other Unicode
/// white space), what is left is not a number the fast reader takes, and the block goes to
/// the full reader.
fn ascii_trim(s: &str) -> &str {
    s.trim_ascii()
}

fn memchr_quote(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'"')
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
pub(super) fn hex(cell: &str) -> Option<u32> {
    let b = cell.as_bytes();
    if b.len() < 3 || b[0] != b'0' || (b[1] != b'x' && b[1] != b'X') || b.len() > 10 {
        return None;
    }
    let mut v = 0u32;
    for &c in &b[2..] {
        let d = HEX_VALUE[usize::from(c)];
        if d > 15 {
            return None;
        }
        v = v << 4 | u32::from(d);
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_counts_every_occurrence() {
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 13) as u8).collect();
        for (len, byte) in [
            (0, 0u8),
            (31, 3),
            (32, 0),
            (8160, 5),
            (8161, 12),
            (100_000, 6),
        ] {
            let want = bytes[..len].iter().filter(|&&b| b == byte).count();
            assert_eq!(count(&bytes[..len], byte), want, "len {len} byte {byte}");
        }
        assert_eq!(count(&[b'\n'; 20_000], b'\n'), 20_000);
    }

    #[test]
    fn hex_accepts_what_the_dataset_reader_accepts() {
        for cell in [
            "0x0",
            "0X1f",
            "0xFFFFFFFF",
            "0x",
            "0x123456789",
            "1f",
            "0xg",
            "0x 1",
            " 0x1",
            "",
        ] {
            assert_eq!(
                hex(cell),
                rdnaprobe_dataset::parse_hex(cell).ok(),
                "cell {cell:?}"
            );
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
