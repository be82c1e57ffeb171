//! Writers for diff results: CSV (one line per joined row), JSON Lines (one object per joined
//! row, then one summary object) and an aligned table for people.
//!
//! CSV columns: the row's experiment (`instruction, encoding, wave`, the seven mode cells,
//! `in0..in5`), then `backend, class, max_ulp, worst_out, worst_type, reference, candidate,
//! dword_classes, expected, reason`. `max_ulp` is empty when no compared value has a
//! distance; `reference`/`candidate` are the worst value's bits (16 hex digits for an f64);
//! `dword_classes` lists every compared value as `outN:class` (then a wave's differing uniform
//! values, [`crate::uniform`]: `s_out[3]:wrong`); `expected` is `yes` for a
//! difference a known entry explains, `no` for an unexpected one, empty for `exact` and
//! `no-outputs`; `reason` is the known entry's reason or the backend's status message.

use std::io::Write;

use serde_json::json;

use crate::classify::Class;
use crate::diff::{DwordDiff, RowDiff, Summary};
use crate::dtype::DwordType;
use crate::format;

/// Key columns of a diff row: schema v1's instruction, encoding, mode and input columns.
const KEY_COLUMNS: usize = 16;

/// What a diff row adds after its key columns.
const DIFF_COLUMNS: [&str; 11] = [
    "backend",
    "class",
    "max_ulp",
    "worst_out",
    "worst_type",
    "reference",
    "candidate",
    "dword_classes",
    "expected",
    "reason",
    "reference_row",
];

/// The header of diff CSV files: the dataset's key columns, then [`DIFF_COLUMNS`].
pub const CSV_COLUMNS: [&str; KEY_COLUMNS + DIFF_COLUMNS.len()] = {
    let mut out = [""; KEY_COLUMNS + DIFF_COLUMNS.len()];
    let mut i = 0;
    while i < KEY_COLUMNS {
        out[i] = rdnaprobe_dataset::V1_COLUMNS[i];
        i += 1;
    }
    while i < out.len() {
        out[i] = DIFF_COLUMNS[i - KEY_COLUMNS];
        i += 1;
    }
    out
};

/// The spelling of a dword type in outputs.
pub fn type_name(ty: DwordType) -> &'static str {
    match ty {
        DwordType::F32 => "f32",
        DwordType::F16Lo => "f16lo",
        DwordType::F16Hi => "f16hi",
        DwordType::PackedF16 => "pk_f16",
        DwordType::F64Lo | DwordType::F64Hi => "f64",
        DwordType::Int | DwordType::Int16Lo | DwordType::Int64Lo | DwordType::Int64Hi => "int",
        DwordType::LaneMask => "mask",
        DwordType::Unknown => "bits",
    }
}

fn value_hex(d: &DwordDiff, v: u64) -> String {
    if d.is_wide() {
        format!("0x{v:016x}")
    } else {
        format!("0x{v:08x}")
    }
}

fn expected_cell(d: &RowDiff) -> &'static str {
    if d.is_unexpected() {
        "no"
    } else if d.known.is_some() {
        "yes"
    } else {
        ""
    }
}

/// Streams diff rows as CSV.
pub struct CsvSink<W: Write> {
    out: W,
    line: Vec<u8>,
}

impl<W: Write> CsvSink<W> {
    pub fn new(mut out: W) -> std::io::Result<Self> {
        out.write_all(&csv_header())?;
        Ok(CsvSink {
            out,
            line: Vec::with_capacity(256),
        })
    }

    pub fn write(&mut self, d: &RowDiff) -> std::io::Result<()> {
        self.line.clear();
        write_csv_line(&mut self.line, d);
        self.out.write_all(&self.line)
    }

    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The header line of diff CSV files.
pub fn csv_header() -> Vec<u8> {
    let mut out = CSV_COLUMNS.join(",").into_bytes();
    out.push(b'\n');
    out
}

/// Appends `cell` as a CSV field: quoted (quotes doubled) when it holds a comma, a quote or a
/// line end, as the csv crate's writer does.
fn csv_cell(out: &mut Vec<u8>, cell: &str) {
    let bytes = cell.as_bytes();
    if !bytes
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(bytes);
        return;
    }
    out.push(b'"');
    // Runs between quotes are copied whole; each quote is written twice.
    let mut parts = bytes.split(|&b| b == b'"');
    if let Some(first) = parts.next() {
        out.extend_from_slice(first);
    }
    for part in parts {
        out.extend_from_slice(b"\"\"");
        out.extend_from_slice(part);
    }
    out.push(b'"');
}

/// `0x` and the low `digits` hex digits of `v` (at most 16), written at once.
fn push_hex(out: &mut Vec<u8>, v: u64, digits: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 18];
    buf[0] = b'0';
    buf[1] = b'x';
    for (k, slot) in buf[2..2 + digits].iter_mut().enumerate() {
        *slot = HEX[(v >> (4 * (digits - 1 - k)) & 0xf) as usize];
    }
    out.extend_from_slice(&buf[..2 + digits]);
}

fn push_dec(out: &mut Vec<u8>, v: u64) {
    if v < 10 {
        out.push(b'0' + v as u8);
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = v;
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

fn push_value(out: &mut Vec<u8>, d: &DwordDiff, v: u64) {
    push_hex(out, v, if d.is_wide() { 16 } else { 8 });
}

/// Appends the CSV line of one diff row (see the module docs for the columns), without
/// allocating: the one writer of diff CSV rows.
pub fn write_csv_line(out: &mut Vec<u8>, d: &RowDiff) {
    let row = &d.reference.row;
    // Room for a typical line at once, not a check that grows the buffer per cell.
    out.reserve(512);
    csv_cell(out, &row.instruction);
    out.push(b',');
    if row.encoding.is_empty() {
        out.extend_from_slice(b"n/a");
    }
    for (k, w) in row.encoding.iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        push_hex(out, u64::from(*w), 8);
    }
    out.push(b',');
    if let Some(w) = row.wave {
        push_dec(out, u64::from(w));
    }
    for field in rdnaprobe_dataset::ModeField::ALL {
        out.push(b',');
        if let Some(v) = row.mode.get(field) {
            push_dec(out, u64::from(v));
        }
    }
    for w in row.inputs {
        out.push(b',');
        push_hex(out, u64::from(w), 8);
    }
    out.push(b',');
    csv_cell(out, &d.backend);
    out.push(b',');
    out.extend_from_slice(d.class.name().as_bytes());
    out.push(b',');
    if let Some(u) = d.max_ulp {
        push_dec(out, u);
    }
    out.push(b',');
    let worst = d.worst();
    if let Some(w) = worst {
        crate::uniform::push_name(out, w);
        out.push(b',');
        out.extend_from_slice(type_name(w.ty).as_bytes());
        out.push(b',');
        push_value(out, w, w.reference);
        out.push(b',');
        push_value(out, w, w.candidate);
    } else {
        out.extend_from_slice(b",,,");
    }
    out.push(b',');
    for (k, w) in d.dwords.iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        crate::uniform::push_name(out, w);
        out.push(b':');
        out.extend_from_slice(w.verdict.class.name().as_bytes());
    }
    out.push(b',');
    out.extend_from_slice(expected_cell(d).as_bytes());
    out.push(b',');
    match (&d.known, &d.status_detail) {
        (Some((reason, _)), _) => csv_cell(out, reason),
        (None, Some(detail)) => csv_cell(out, detail),
        (None, None) => {}
    }
    out.push(b',');
    push_dec(out, d.reference.index);
    out.push(b'\n');
}

/// The JSON object of one diff row (`"record": "row"`).
pub fn row_json(d: &RowDiff) -> serde_json::Value {
    let row = &d.reference.row;
    let mode = |v: Option<u8>| v.map_or(serde_json::Value::Null, |v| json!(v));
    json!({
        "record": "row",
        "instruction": row.instruction,
        "mnemonic": d.mnemonic(),
        "encoding": format::encoding(&row.encoding),
        "wave": row.wave,
        "mode": {
            "ieee": mode(row.mode.ieee),
            "dx10_clamp": mode(row.mode.dx10_clamp),
            "denorm32": mode(row.mode.denorm32),
            "denorm16": mode(row.mode.denorm16),
            "round32": mode(row.mode.round32),
            "round16": mode(row.mode.round16),
            "fp16_overflow": mode(row.mode.fp16_overflow),
        },
        "inputs": row.inputs.iter().map(|w| format::hex(*w)).collect::<Vec<_>>(),
        "backend": d.backend,
        "class": d.class.name(),
        "max_ulp": d.max_ulp,
        "expected": d.known.is_some(),
        "unexpected": d.is_unexpected(),
        "reason": d.known.as_ref().map(|k| k.0.clone()).or_else(|| d.status_detail.clone()),
        "evidence": d.known.as_ref().map(|k| k.1.clone()),
        "reference_row": d.reference.index,
        "candidate_row": d.candidate_index,
        "dwords": d.dwords.iter().map(|w| json!({
            "out": match w.uniform {
                None => json!(w.index),
                Some(_) => json!(crate::uniform::name(w)),
            },
            "type": type_name(w.ty),
            "reference": value_hex(w, w.reference),
            "candidate": value_hex(w, w.candidate),
            "class": w.verdict.class.name(),
            "ulp": w.verdict.ulp,
        })).collect::<Vec<_>>(),
    })
}

/// The JSON object of a diff's summary (`"record": "summary"`).
pub fn summary_json(s: &Summary) -> serde_json::Value {
    let classes: serde_json::Map<String, serde_json::Value> = Class::ALL
        .iter()
        .map(|c| (c.name().to_string(), json!(s.count(*c))))
        .collect();
    json!({
        "record": "summary",
        "rows": s.rows,
        "classes": classes,
        "expected": s.expected,
        "unexpected": s.unexpected,
        "max_ulp": s.max_ulp,
    })
}

/// Streams diff rows as JSON Lines.
pub struct JsonSink<W: Write> {
    out: W,
}

impl<W: Write> JsonSink<W> {
    pub fn new(out: W) -> Self {
        JsonSink { out }
    }

    pub fn write(&mut self, d: &RowDiff) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, &row_json(d))?;
        self.out.write_all(b"\n")
    }

    /// Writes the closing summary line and returns the writer.
    pub fn finish(mut self, summary: &Summary) -> std::io::Result<W> {
        serde_json::to_writer(&mut self.out, &summary_json(summary))?;
        self.out.write_all(b"\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Collects what the human table shows: the class counts and the first `limit` unexpected
/// rows (the rest are counted).
pub struct Table {
    limit: usize,
    rows: Vec<[String; 8]>,
}

impl Table {
    pub fn new(limit: usize) -> Self {
        Table {
            limit,
            rows: Vec::new(),
        }
    }

    pub fn add(&mut self, d: &RowDiff) {
        if !d.is_unexpected() || self.rows.len() >= self.limit {
            return;
        }
        let row = &d.reference.row;
        let worst = d.worst();
        self.rows.push([
            d.reference.index.to_string(),
            d.class.name().to_string(),
            d.max_ulp.map_or_else(|| "-".into(), |u| u.to_string()),
            d.backend.clone(),
            row.instruction.clone(),
            format::mode(&row.mode, row.wave),
            worst.map_or_else(
                || d.status_detail.clone().unwrap_or_default(),
                |w| {
                    format!(
                        "{} {} ref {} got {}",
                        crate::uniform::name(w),
                        type_name(w.ty),
                        value_hex(w, w.reference),
                        value_hex(w, w.candidate)
                    )
                },
            ),
            format::inputs(&row.inputs),
        ]);
    }

    /// Renders the table: class counts, then the unexpected rows with aligned columns.
    pub fn render(&self, summary: &Summary) -> String {
        let mut out = String::new();
        let width = Class::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
        out.push_str(&format!(
            "{:<width$}  {:>10}  {:>7}\n",
            "class", "rows", "share"
        ));
        for c in Class::ALL {
            let n = summary.count(c);
            if n == 0 {
                continue;
            }
            let share = 100.0 * n as f64 / summary.rows.max(1) as f64;
            out.push_str(&format!("{:<width$}  {n:>10}  {share:>6.2}%\n", c.name()));
        }
        out.push_str(&format!(
            "{} rows: {} exact, {} expected, {} unexpected; max ulp {}\n",
            summary.rows,
            summary.count(Class::Exact),
            summary.expected,
            summary.unexpected,
            summary
                .max_ulp
                .map_or_else(|| "-".into(), |u| u.to_string())
        ));
        if self.rows.is_empty() {
            return out;
        }
        let header = [
            "row",
            "class",
            "ulp",
            "backend",
            "instruction",
            "mode",
            "worst",
            "inputs",
        ];
        let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
        for r in &self.rows {
            for (w, cell) in widths.iter_mut().zip(r.iter()) {
                *w = (*w).max(cell.chars().count());
            }
        }
        out.push('\n');
        let line = |cells: &[&str]| {
            let mut s = String::new();
            for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
                if i + 1 == cells.len() {
                    s.push_str(cell);
                } else {
                    s.push_str(&format!("{cell:<w$}  "));
                }
            }
            s.push('\n');
            s
        };
        out.push_str(&line(&header));
        for r in &self.rows {
            let cells: Vec<&str> = r.iter().map(String::as_str).collect();
            out.push_str(&line(&cells));
        }
        if summary.unexpected as usize > self.rows.len() {
            out.push_str(&format!(
                "... {} more unexpected rows (use --format csv or -o for all)\n",
                summary.unexpected as usize - self.rows.len()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row as the csv crate writes its cells (the format before the byte writer).
    fn csv_crate_line(d: &RowDiff) -> Vec<u8> {
        let row = &d.reference.row;
        let worst = d.worst();
        let mut cells: Vec<String> = vec![row.instruction.clone(), format::encoding(&row.encoding)];
        cells.extend(format::mode_cells(&row.mode, row.wave));
        cells.extend(row.inputs.iter().map(|w| format::hex(*w)));
        cells.push(d.backend.clone());
        cells.push(d.class.name().to_string());
        cells.push(d.max_ulp.map_or_else(String::new, |u| u.to_string()));
        cells.push(worst.map_or_else(String::new, crate::uniform::name));
        cells.push(worst.map_or_else(String::new, |w| type_name(w.ty).to_string()));
        cells.push(worst.map_or_else(String::new, |w| value_hex(w, w.reference)));
        cells.push(worst.map_or_else(String::new, |w| value_hex(w, w.candidate)));
        cells.push(
            d.dwords
                .iter()
                .map(|w| format!("{}:{}", crate::uniform::name(w), w.verdict.class))
                .collect::<Vec<_>>()
                .join(" "),
        );
        cells.push(expected_cell(d).to_string());
        cells.push(match (&d.known, &d.status_detail) {
            (Some((reason, _)), _) => reason.clone(),
            (None, Some(detail)) => detail.clone(),
            (None, None) => String::new(),
        });
        cells.push(d.reference.index.to_string());
        let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
        w.write_record(&cells).expect("write");
        w.into_inner().expect("flush")
    }

    #[test]
    fn the_byte_writer_writes_what_the_csv_crate_writes() {
        use crate::classify::Verdict;
        use crate::input::Item;
        let verdict = |class, ulp| Verdict { class, ulp };
        let mut d = RowDiff {
            reference: Item {
                row: rdnaprobe_dataset::Row {
                    instruction: "v_add_f32 v10, v4, \"v5\"\r\nnext".into(),
                    encoding: vec![0x0614_0904, 0xdead_beef],
                    wave: Some(64),
                    mode: rdnaprobe_dataset::ModeCells {
                        ieee: Some(1),
                        round16: Some(3),
                        ..Default::default()
                    },
                    inputs: [0x3f80_0000, 1, 2, 3, 4, 0xffff_ffff],
                    ..Default::default()
                },
                index: 1234567,
                backend: "vulkan:lava,pipe".into(),
                status: rdnaprobe_dataset::Status::Ok,
                under_test: std::sync::Arc::from("v_add_f32"),
                uniform: None,
            },
            candidate_index: 7,
            backend: "vulkan:\"x\"".into(),
            class: Class::UlpK,
            max_ulp: Some(18_446_744_073_709_551_615),
            dwords: vec![
                DwordDiff {
                    index: 0,
                    ty: DwordType::F64Lo,
                    reference: 0x3ff0_0000_0000_0000,
                    candidate: 0x3fef_ffff_ffff_ffff,
                    verdict: verdict(Class::Ulp1, Some(1)),
                    uniform: None,
                },
                DwordDiff {
                    index: 13,
                    ty: DwordType::F32,
                    reference: 0,
                    candidate: 9,
                    verdict: verdict(Class::UlpK, Some(9)),
                    uniform: None,
                },
            ],
            status_detail: None,
            known: Some(("a, \"reason\"".into(), "e".into())),
        };
        let check = |d: &RowDiff| {
            let mut got = Vec::new();
            write_csv_line(&mut got, d);
            assert_eq!(
                String::from_utf8(got).expect("utf8"),
                String::from_utf8(csv_crate_line(d)).expect("utf8")
            );
        };
        check(&d);
        d.known = None;
        d.status_detail = Some("error: lost\ndevice".into());
        d.dwords.clear();
        d.max_ulp = None;
        d.class = Class::Error;
        d.reference.row.encoding.clear();
        d.reference.row.wave = None;
        d.reference.row.instruction = "plain".into();
        check(&d);
        let mut header = csv::WriterBuilder::new().from_writer(Vec::new());
        header.write_record(CSV_COLUMNS).expect("header");
        assert_eq!(csv_header(), header.into_inner().expect("flush"));
    }

    #[test]
    fn diff_header_is_the_key_columns_then_the_findings() {
        assert_eq!(CSV_COLUMNS[0], "instruction");
        assert_eq!(
            &CSV_COLUMNS[10..16],
            ["in0", "in1", "in2", "in3", "in4", "in5"]
        );
        assert_eq!(CSV_COLUMNS[16], "backend");
        assert_eq!(CSV_COLUMNS[26], "reference_row");
        assert!(CSV_COLUMNS.iter().all(|c| !c.is_empty()));
    }
}
