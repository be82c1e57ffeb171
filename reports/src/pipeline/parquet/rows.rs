//! One row group of a Parquet input as blocks: its columns, each in one chunk, turned row by
//! row into the compact records of a CSV block ([`super::super::block`]). Numbers go straight
//! from the column into the record; strings are copied into the block's text once per run of
//! equal cells; a bad cell ends the block with an error naming the row group, row and column,
//! after the rows before it.

use std::sync::Arc;

use polars::prelude::*;
use rdnaprobe_dataset::{ModeCells, ModeField, V1_COLUMNS};

use super::super::block::{hex, status_cell, trim_span, Block, FileInfo, Rec, Span, StatusCell};
use super::fail;
use crate::uniform::cells_valid;

/// A number column: integers, or text cells read as the CSV reads them.
enum Num {
    Int(UInt32Chunked),
    Text(StringChunked),
}

/// The columns of one row group, each in one chunk.
pub(super) struct Columns {
    instruction: StringChunked,
    encoding: StringChunked,
    wave: Num,
    modes: Vec<Num>,
    inputs: Vec<Num>,
    outputs: Vec<Num>,
    gfx: Option<StringChunked>,
    source: Option<StringChunked>,
    note: Option<StringChunked>,
    status: Option<StringChunked>,
    backend: Option<StringChunked>,
    extra: Option<StringChunked>,
    extra_names: Vec<String>,
}

fn text(df: &DataFrame, name: &str) -> std::result::Result<StringChunked, String> {
    let col = df.column(name).map_err(|e| e.to_string())?;
    match col.dtype() {
        DataType::String => Ok(col.rechunk().str().map_err(|e| e.to_string())?.clone()),
        other => Err(format!("column `{name}` has type {other}, not String")),
    }
}

fn num(df: &DataFrame, name: &str) -> std::result::Result<Num, String> {
    let col = df.column(name).map_err(|e| e.to_string())?;
    match col.dtype() {
        DataType::String => Ok(Num::Text(
            col.rechunk().str().map_err(|e| e.to_string())?.clone(),
        )),
        DataType::UInt32 => Ok(Num::Int(
            col.rechunk().u32().map_err(|e| e.to_string())?.clone(),
        )),
        t if t.is_integer() => {
            let cast = col.strict_cast(&DataType::UInt32).map_err(|_| {
                format!("column `{name}`: a value out of the range of a dword (0..=0xffffffff)")
            })?;
            Ok(Num::Int(
                cast.rechunk().u32().map_err(|e| e.to_string())?.clone(),
            ))
        }
        other => Err(format!(
            "column `{name}` has type {other}, not an integer type or String"
        )),
    }
}

impl Columns {
    pub(super) fn of(
        df: &DataFrame,
        has: super::Has,
        extra_names: &[String],
    ) -> std::result::Result<Self, String> {
        let opt = |on: bool, name: &str| on.then(|| text(df, name)).transpose();
        let instruction = if df.column("instruction_text").is_ok() {
            "instruction_text"
        } else {
            "instruction"
        };
        Ok(Columns {
            instruction: text(df, instruction)?,
            encoding: text(df, "encoding")?,
            wave: num(df, "wave")?,
            modes: ModeField::ALL
                .iter()
                .map(|f| num(df, f.name()))
                .collect::<std::result::Result<_, _>>()?,
            inputs: V1_COLUMNS[IN0..OUT0]
                .iter()
                .map(|c| num(df, c))
                .collect::<std::result::Result<_, _>>()?,
            outputs: V1_COLUMNS[OUT0..OUT0 + 16]
                .iter()
                .map(|c| num(df, c))
                .collect::<std::result::Result<_, _>>()?,
            gfx: opt(has.gfx, "gfx")?,
            source: opt(has.source, "source")?,
            note: opt(has.note, "note")?,
            status: opt(has.status, "status")?,
            backend: opt(has.backend, "backend")?,
            extra: opt(has.extra, "extra")?,
            extra_names: extra_names.to_vec(),
        })
    }
}

/// Where a block's rows sit in its file, for error messages.
#[derive(Clone, Copy)]
pub(super) struct Place {
    /// 1-based row group number.
    pub group: usize,
    /// Data rows before the row group.
    pub first_row: u64,
}

/// The last string copied into the block per string column, and the last encoding's words: a
/// run of equal cells (sweeps write runs of one body and mode) is copied once.
#[derive(Default)]
struct Memo<'a> {
    strings: [Option<(&'a str, Span)>; 6],
    encoding: Option<(&'a str, Span)>,
}

/// Positions of `in0` and `out0` in the schema v1 columns.
pub(super) const IN0: usize = 10;
pub(super) const OUT0: usize = 16;

const INSTRUCTION: usize = 0;
const GFX: usize = 1;
const SOURCE: usize = 2;
const NOTE: usize = 3;
const BACKEND: usize = 4;
const STATUS: usize = 5;

fn intern<'a>(block: &mut Block, memo: &mut Memo<'a>, slot: usize, s: &'a str) -> Span {
    if let Some((last, span)) = memo.strings[slot] {
        if last == s {
            return span;
        }
    }
    let span = block.push_str(s);
    memo.strings[slot] = Some((s, span));
    span
}

/// Rows `start..start + len` of the row group as a block; a bad cell ends the block with an
/// error after the rows before it.
pub(super) fn build(
    info: Arc<FileInfo>,
    cols: &Columns,
    start: usize,
    len: usize,
    place: Place,
) -> Block {
    let mut block = Block::empty(info);
    block.recs.reserve(len);
    let mut memo = Memo::default();
    let mut json = String::new();
    for i in start..start + len {
        match record(&mut block, cols, i, &mut memo, &mut json) {
            Ok(rec) => block.recs.push(rec),
            Err((column, message)) => {
                let path = block.file.path.clone();
                block.error = Some(fail(
                    &path,
                    format!(
                        "row group {}, data row {}, column `{column}`: {message}",
                        place.group,
                        place.first_row + i as u64 + 1
                    ),
                ));
                break;
            }
        }
    }
    block
}

type CellResult<T> = std::result::Result<T, (String, String)>;

fn bad(column: &str, message: impl Into<String>) -> (String, String) {
    (column.to_string(), message.into())
}

/// A hex dword cell (`None`: null or empty).
fn hex_cell(n: &Num, i: usize, column: &str) -> CellResult<Option<u32>> {
    match n {
        Num::Int(c) => Ok(c.get(i)),
        Num::Text(c) => match c.get(i).map(str::trim_ascii) {
            None | Some("") => Ok(None),
            Some(s) => hex(s.as_bytes())
                .map(Some)
                .ok_or_else(|| bad(column, format!("{s:?} is not a 0x hex dword"))),
        },
    }
}

/// A small decimal cell (`wave`, the mode cells; `None`: null or empty).
fn small_cell(n: &Num, i: usize, column: &str) -> CellResult<Option<u32>> {
    match n {
        Num::Int(c) => Ok(c.get(i)),
        Num::Text(c) => match c.get(i).map(str::trim) {
            None | Some("") => Ok(None),
            Some(s) => s
                .parse()
                .map(Some)
                .map_err(|_| bad(column, format!("{s:?} is not a number"))),
        },
    }
}

fn record<'a>(
    block: &mut Block,
    cols: &'a Columns,
    i: usize,
    memo: &mut Memo<'a>,
    json: &mut String,
) -> CellResult<Rec> {
    let instruction = intern(
        block,
        memo,
        INSTRUCTION,
        cols.instruction.get(i).unwrap_or(""),
    );
    let encoding = cols.encoding.get(i).unwrap_or("");
    let words = match memo.encoding {
        Some((last, span)) if last == encoding => span,
        _ => {
            let start = block.words.len();
            let cell = encoding.trim();
            if cell.is_empty() {
                return Err(bad(
                    "encoding",
                    "encoding is empty: give the body's words (0x... 0x...) or n/a",
                ));
            }
            if cell != "n/a" {
                for (n, w) in cell.split_whitespace().enumerate() {
                    let word = hex(w.as_bytes()).ok_or_else(|| {
                        bad(
                            "encoding",
                            format!("word {}: `{w}` is not a 0x hex dword", n + 1),
                        )
                    })?;
                    block.words.push(word);
                }
            }
            let span = Span::new(start, block.words.len());
            memo.encoding = Some((encoding, span));
            span
        }
    };
    let wave = match small_cell(&cols.wave, i, "wave")? {
        None => None,
        Some(w @ (32 | 64)) => Some(w),
        Some(w) => return Err(bad("wave", format!("{w}: wave must be 32, 64 or empty"))),
    };
    let mut mode = ModeCells::default();
    for (field, col) in ModeField::ALL.into_iter().zip(&cols.modes) {
        *mode.get_mut(field) = match small_cell(col, i, field.name())? {
            None => None,
            Some(v) => Some(field.check(v).map_err(|_| {
                bad(
                    field.name(),
                    format!("{v}: expected 0..={} or null (not stated)", field.max()),
                )
            })?),
        };
    }
    let mut inputs = [0u32; 6];
    for (k, (slot, col)) in inputs.iter_mut().zip(&cols.inputs).enumerate() {
        let name = V1_COLUMNS[IN0 + k];
        *slot = hex_cell(col, i, name)?.ok_or_else(|| {
            bad(
                name,
                "input cells must be filled (`0x00000000` for an unused input)",
            )
        })?;
    }
    let mut outputs = [None; 16];
    for (k, (slot, col)) in outputs.iter_mut().zip(&cols.outputs).enumerate() {
        *slot = hex_cell(col, i, V1_COLUMNS[OUT0 + k])?;
    }
    let string = |c: &'a Option<StringChunked>| c.as_ref().and_then(|c| c.get(i)).unwrap_or("");
    let gfx = intern(block, memo, GFX, string(&cols.gfx));
    let source = intern(block, memo, SOURCE, string(&cols.source));
    let note = intern(block, memo, NOTE, string(&cols.note));
    let backend = cols.backend.as_ref().map(|c| {
        let span = intern(block, memo, BACKEND, c.get(i).unwrap_or(""));
        trim_span(&block.text, span)
    });
    let backend = backend.filter(|s| !block.str(*s).is_empty());
    let status = match &cols.status {
        None => StatusCell::Ok,
        Some(c) => {
            let span = intern(block, memo, STATUS, c.get(i).unwrap_or(""));
            status_cell(&block.text, trim_span(&block.text, span))
        }
    };
    let extra_start = block.extra.len();
    if let (Some(c), Some(u)) = (&cols.extra, block.file.uniform) {
        json.clear();
        json.push_str(c.get(i).unwrap_or("{}"));
        let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json)
            .map_err(|e| bad("extra", format!("not a JSON object of extra cells: {e}")))?;
        for name in &cols.extra_names {
            let span = match map.get(name) {
                Some(serde_json::Value::String(s)) => block.push_str(s),
                Some(serde_json::Value::Null) | None => block.push_str(""),
                Some(v) => block.push_str(&v.to_string()),
            };
            block.extra.push(span);
        }
        let extra = &block.extra[extra_start..];
        if !cells_valid(&u.cells(|k| extra.get(k).map(|s| block.str(*s)))) {
            return Err(bad(
                "extra",
                "a wave uniform cell (s_out, vcc_out, exec_out, ...) is malformed",
            ));
        }
    }
    Ok(Rec {
        instruction,
        gfx,
        source,
        note,
        words,
        extra: Span::new(extra_start, block.extra.len()),
        wave,
        mode,
        inputs,
        outputs,
        backend,
        status,
    })
}
