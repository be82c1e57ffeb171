//! The wave contract's columns (docs/dataset-format.md, "Wave contract"): named extra columns
//! that turn a schema v1 dataset into a wave dataset. Rows that share a wave key (`wave_id`,
//! body words, mode cells, wave size, gfx) and follow each other in the file run as the lanes
//! of one wave; the wave's uniform cells (EXEC, SGPRs, LDS and memory contents, before and
//! after the body) sit on its first row and may be repeated, identically, on the others.
//!
//! [`WaveLayout`] finds the columns in a header, [`WaveLayout::parse`] reads one row's cells,
//! [`WaveChecker`] validates a stream of rows (the reader runs it, so every error names the
//! file, line and column), and [`group_waves`] cuts a validated batch of rows into waves.

use std::collections::HashSet;

use rdnaprobe_contract::{CONTRACT_SGPRS, SGPR_INPUTS};

use crate::row::{Row, V1_COLUMNS};

/// The wave columns, in the order the docs list them.
pub const WAVE_COLUMNS: [&str; 14] = [
    "wave_id",
    "lane",
    "exec_in",
    "s_in",
    "lds_in",
    "lds_bytes",
    "mem_in",
    "mem_bytes",
    "s_out",
    "exec_out",
    "vcc_out",
    "scc_out",
    "lds_out",
    "mem_out",
];

/// One of [`WAVE_COLUMNS`] (its position in that list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveCol {
    WaveId = 0,
    Lane,
    ExecIn,
    SIn,
    LdsIn,
    LdsBytes,
    MemIn,
    MemBytes,
    SOut,
    ExecOut,
    VccOut,
    SccOut,
    LdsOut,
    MemOut,
}

impl WaveCol {
    /// The wave-uniform input columns (the same on every lane row of a wave).
    pub const UNIFORM_IN: [WaveCol; 6] = [
        WaveCol::ExecIn,
        WaveCol::SIn,
        WaveCol::LdsIn,
        WaveCol::LdsBytes,
        WaveCol::MemIn,
        WaveCol::MemBytes,
    ];

    /// The wave-uniform output columns.
    pub const UNIFORM_OUT: [WaveCol; 6] = [
        WaveCol::SOut,
        WaveCol::ExecOut,
        WaveCol::VccOut,
        WaveCol::SccOut,
        WaveCol::LdsOut,
        WaveCol::MemOut,
    ];

    pub fn name(self) -> &'static str {
        WAVE_COLUMNS[self as usize]
    }
}

/// Largest LDS allocation of a wave, in bytes (RDNA2: 64 KiB per workgroup).
pub const MAX_LDS_BYTES: u32 = 65536;
/// Largest memory region of a wave, in bytes.
pub const MAX_MEM_BYTES: u32 = 1 << 20;
/// The LDS size an `lds_in` without `lds_bytes` is rounded up to a multiple of.
pub const LDS_GRANULE: u32 = 512;

/// A wave's state before the body, from its uniform input cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveInputs {
    /// EXEC before the body; `None` (an empty cell) is every lane of the wave.
    pub exec: Option<u64>,
    /// s0..s103 (missing dwords are 0; s16..s23, the contract's, are 0 here).
    pub sgprs: [u32; SGPR_INPUTS],
    /// The whole LDS allocation as dwords (`lds_in`, then zeros); empty = no LDS.
    pub lds: Vec<u32>,
    /// The whole memory region as dwords (`mem_in`, then zeros); empty = no region.
    pub mem: Vec<u32>,
}

impl Default for WaveInputs {
    fn default() -> WaveInputs {
        WaveInputs {
            exec: None,
            sgprs: [0; SGPR_INPUTS],
            lds: Vec::new(),
            mem: Vec::new(),
        }
    }
}

impl WaveInputs {
    /// EXEC before the body, resolved for a wave of `lanes` lanes.
    pub fn exec_mask(&self, lanes: u32) -> u64 {
        let all = if lanes >= 64 {
            u64::MAX
        } else {
            (1u64 << lanes) - 1
        };
        self.exec.map_or(all, |e| e & all)
    }
}

/// A wave's uniform state after the body, as a backend computed it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaveOutputs {
    pub sgprs: [u32; 16],
    pub exec: u64,
    pub vcc: u64,
    pub scc: bool,
    pub lds: Vec<u32>,
    pub mem: Vec<u32>,
}

/// One row's wave cells, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaveCells {
    pub wave_id: String,
    /// `None` for an empty `lane` cell (the lane after the previous row's).
    pub lane: Option<u32>,
    pub inputs: WaveInputs,
}

/// Where the wave columns are among a dataset's extra columns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaveLayout {
    /// Per [`WAVE_COLUMNS`] entry, its index in [`Row::extra`].
    extra: [Option<usize>; 14],
}

/// A validation error: the column at fault and why.
pub type CellError = (WaveCol, String);

impl WaveLayout {
    /// The layout of a dataset with these extra columns; `None` for a lane-contract (v1)
    /// dataset, which has none of the wave columns.
    pub fn from_columns(extra_columns: &[String]) -> Option<WaveLayout> {
        let mut extra = [None; 14];
        for (i, name) in extra_columns.iter().enumerate() {
            if let Some(k) = WAVE_COLUMNS.iter().position(|c| c == name) {
                extra[k] = Some(i);
            }
        }
        extra
            .iter()
            .any(Option::is_some)
            .then_some(WaveLayout { extra })
    }

    /// The extra columns of a replay output of a wave dataset whose extra columns are
    /// `extra_columns`: those, then every uniform output column the input lacks, in
    /// [`WAVE_COLUMNS`] order: `s_out`, `exec_out`, `vcc_out` and `scc_out` always, `lds_out`
    /// when the dataset has `lds_in` or `lds_bytes`, `mem_out` when it has `mem_in` or
    /// `mem_bytes`. A lane-contract dataset's columns come back unchanged.
    pub fn output_columns(extra_columns: &[String]) -> Vec<String> {
        let mut cols = extra_columns.to_vec();
        let Some(layout) = WaveLayout::from_columns(extra_columns) else {
            return cols;
        };
        let lds = layout.has(WaveCol::LdsIn) || layout.has(WaveCol::LdsBytes);
        let mem = layout.has(WaveCol::MemIn) || layout.has(WaveCol::MemBytes);
        for (c, wanted) in [
            (WaveCol::SOut, true),
            (WaveCol::ExecOut, true),
            (WaveCol::VccOut, true),
            (WaveCol::SccOut, true),
            (WaveCol::LdsOut, lds),
            (WaveCol::MemOut, mem),
        ] {
            if wanted && !layout.has(c) {
                cols.push(c.name().to_string());
            }
        }
        cols
    }

    /// Whether the dataset has column `c`.
    pub fn has(&self, c: WaveCol) -> bool {
        self.extra[c as usize].is_some()
    }

    /// 1-based column of `c` in the file (0 when absent).
    pub fn file_column(&self, c: WaveCol) -> usize {
        self.extra[c as usize].map_or(0, |i| V1_COLUMNS.len() + i + 1)
    }

    /// The trimmed text of cell `c` of `row` (empty when the column is absent).
    pub fn cell<'a>(&self, row: &'a Row, c: WaveCol) -> &'a str {
        self.extra[c as usize]
            .and_then(|i| row.extra.get(i))
            .map_or("", |s| s.trim())
    }

    /// Parses the wave cells of `row` (formats and ranges; the cross-row rules are
    /// [`WaveChecker`]'s).
    pub fn parse(&self, row: &Row) -> Result<WaveCells, CellError> {
        let cell = |c: WaveCol| self.cell(row, c);
        let err = |c: WaveCol, r: String| (c, r);
        let wave_id = cell(WaveCol::WaveId).to_string();
        if wave_id.is_empty() {
            return Err(err(
                WaveCol::WaveId,
                "a wave dataset needs a wave_id on every row".into(),
            ));
        }
        let lane = self.parse_lane(row)?;
        let exec = match cell(WaveCol::ExecIn) {
            "" => None,
            s => Some(parse_hex64(s).map_err(|r| err(WaveCol::ExecIn, r))?),
        };
        let mut sgprs = [0u32; SGPR_INPUTS];
        let s_in = parse_dwords(cell(WaveCol::SIn)).map_err(|r| err(WaveCol::SIn, r))?;
        if s_in.len() > SGPR_INPUTS {
            return Err(err(
                WaveCol::SIn,
                format!("at most {SGPR_INPUTS} dwords (s0..s{})", SGPR_INPUTS - 1),
            ));
        }
        if let Some(k) = CONTRACT_SGPRS
            .clone()
            .find(|&k| s_in.get(k).is_some_and(|&d| d != 0))
        {
            return Err(err(
                WaveCol::SIn,
                format!(
                    "dword {}: s{k} is set by the contract (s[16:17] the memory region's \
                     address, s[20:23] its V#): write 0x00000000 for s16..s23",
                    k + 1
                ),
            ));
        }
        sgprs[..s_in.len()].copy_from_slice(&s_in);
        // A region's two cells: `(in_cell, reason)` names the failing one.
        let region_of = |data: WaveCol, bytes: WaveCol, max: u32, granule: u32| {
            region(cell(data), cell(bytes), max, granule)
                .map_err(|(in_cell, r)| err(if in_cell { data } else { bytes }, r))
        };
        let lds = region_of(
            WaveCol::LdsIn,
            WaveCol::LdsBytes,
            MAX_LDS_BYTES,
            LDS_GRANULE,
        )?;
        let mem = region_of(WaveCol::MemIn, WaveCol::MemBytes, MAX_MEM_BYTES, 4)?;
        // Output cells: formats only.
        let s_out = parse_dwords(cell(WaveCol::SOut)).map_err(|r| err(WaveCol::SOut, r))?;
        if !(s_out.is_empty() || s_out.len() == 16) {
            return Err(err(
                WaveCol::SOut,
                "s_out holds s0..s15: 16 dwords, or empty".into(),
            ));
        }
        for c in [WaveCol::ExecOut, WaveCol::VccOut] {
            if !cell(c).is_empty() {
                parse_hex64(cell(c)).map_err(|r| err(c, r))?;
            }
        }
        if !matches!(cell(WaveCol::SccOut), "" | "0" | "1") {
            return Err(err(WaveCol::SccOut, "scc_out is 0, 1 or empty".into()));
        }
        for c in [WaveCol::LdsOut, WaveCol::MemOut] {
            parse_dwords(cell(c)).map_err(|r| err(c, r))?;
        }
        Ok(WaveCells {
            wave_id,
            lane,
            inputs: WaveInputs {
                exec,
                sgprs,
                lds,
                mem,
            },
        })
    }

    /// The `lane` cell of `row` (`None` when empty).
    fn parse_lane(&self, row: &Row) -> Result<Option<u32>, CellError> {
        let lanes = row.wave.unwrap_or(32);
        match self.cell(row, WaveCol::Lane) {
            "" => Ok(None),
            s => match s.parse::<u32>() {
                Ok(l) if l < lanes => Ok(Some(l)),
                _ => Err((
                    WaveCol::Lane,
                    format!("lane must be a decimal number in 0..{lanes}"),
                )),
            },
        }
    }

    /// Whether every uniform cell of `row` is empty or repeats `first`'s text. For a later row
    /// of the wave that `first` starts (and whose cells parsed), only the `lane` cell is then
    /// left to read: an empty or repeated cell parses as it did on `first`, and any mix of
    /// empty and repeated region cells is a valid region too (a size cell alone was checked
    /// on `first`; contents alone get the size that fitted `first`'s, or a smaller one).
    fn repeats_uniform_cells(&self, row: &Row, first: &Row) -> bool {
        WaveCol::UNIFORM_IN
            .into_iter()
            .chain(WaveCol::UNIFORM_OUT)
            .all(|c| {
                let here = self.cell(row, c);
                here.is_empty() || here == self.cell(first, c)
            })
    }

    /// Whether `a` and `b` belong to the same wave (equal wave key).
    pub fn same_wave(&self, a: &Row, b: &Row) -> bool {
        self.cell(a, WaveCol::WaveId) == self.cell(b, WaveCol::WaveId)
            && a.encoding == b.encoding
            && a.mode == b.mode
            && a.wave == b.wave
            && a.gfx == b.gfx
    }

    /// Writes the uniform output cells of `row` that the dataset has: `out`'s values on a
    /// wave's first row, empty cells (`None`) on the others.
    pub fn set_outputs(&self, row: &mut Row, out: Option<&WaveOutputs>) {
        let wave64 = row.wave == Some(64);
        let mut set = |c: WaveCol, text: String| {
            if let Some(i) = self.extra[c as usize] {
                if let Some(slot) = row.extra.get_mut(i) {
                    *slot = text;
                }
            }
        };
        let mask = |m: u64| {
            let m = if wave64 { m } else { m & 0xffff_ffff };
            format!("0x{m:016x}")
        };
        match out {
            Some(o) => {
                set(WaveCol::SOut, dwords_cell(&o.sgprs));
                set(WaveCol::ExecOut, mask(o.exec));
                set(WaveCol::VccOut, mask(o.vcc));
                set(WaveCol::SccOut, u8::from(o.scc).to_string());
                set(WaveCol::LdsOut, dwords_cell(&o.lds));
                set(WaveCol::MemOut, dwords_cell(&o.mem));
            }
            None => {
                for c in WaveCol::UNIFORM_OUT {
                    set(c, String::new());
                }
            }
        }
    }
}

/// Dwords as a cell: `0x%08x` separated by one space.
pub fn dwords_cell(d: &[u32]) -> String {
    let mut s = String::with_capacity(11 * d.len());
    for (i, w) in d.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        crate::write::push_hex(&mut s, *w);
    }
    s
}

/// Parses a `0x`-prefixed hex value of 1 to 16 digits (a 64-bit mask).
pub fn parse_hex64(cell: &str) -> Result<u64, String> {
    let digits = cell
        .strip_prefix("0x")
        .or_else(|| cell.strip_prefix("0X"))
        .ok_or_else(|| "expected 0x-prefixed hex such as 0x00000000ffffffff".to_string())?;
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("expected 1 to 16 hex digits after 0x (a 64-bit mask)".into());
    }
    u64::from_str_radix(digits, 16).map_err(|e| e.to_string())
}

/// Parses dwords separated by whitespace (empty = none).
pub fn parse_dwords(cell: &str) -> Result<Vec<u32>, String> {
    cell.split_whitespace()
        .enumerate()
        .map(|(n, w)| crate::read::parse_hex(w).map_err(|r| format!("dword {}: `{w}`: {r}", n + 1)))
        .collect()
}

/// A region's dwords from its contents and size cells; the error says whether the contents
/// cell (`true`) or the size cell is at fault.
fn region(contents: &str, bytes: &str, max: u32, granule: u32) -> Result<Vec<u32>, (bool, String)> {
    let mut d = parse_dwords(contents).map_err(|r| (true, r))?;
    let given = 4 * d.len() as u64;
    let size = match bytes {
        "" => given.div_ceil(u64::from(granule)) * u64::from(granule),
        s => {
            let n: u32 = s
                .parse()
                .ok()
                .filter(|n| *n <= max && n % 4 == 0)
                .ok_or_else(|| {
                    (
                        false,
                        format!("size must be a multiple of 4 in 0..={max} bytes"),
                    )
                })?;
            if u64::from(n) < given {
                return Err((
                    true,
                    format!("{} dwords do not fit in the {n} bytes given", d.len()),
                ));
            }
            u64::from(n)
        }
    };
    if size > u64::from(max) {
        return Err((true, format!("more than {max} bytes")));
    }
    d.resize((size / 4) as usize, 0);
    Ok(d)
}

/// The rows of one wave: `rows[start..end]` of a batch, their lanes and the wave's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveRows {
    pub start: usize,
    pub end: usize,
    /// The lane of each row, in row order (strictly ascending).
    pub lanes: Vec<u32>,
    pub inputs: WaveInputs,
}

/// Cuts `rows` (validated by [`WaveChecker`], so a wave's rows are consecutive) into waves.
/// A row whose cells do not parse is an error naming the row (0-based) and the column.
pub fn group_waves(rows: &[Row], layout: &WaveLayout) -> Result<Vec<WaveRows>, String> {
    let mut waves: Vec<WaveRows> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let error = |(c, r): CellError| format!("row {i}: {}: {r}", c.name());
        let same = i > 0 && layout.same_wave(&rows[i - 1], row);
        match waves.last_mut() {
            Some(w) if same => {
                // A later row: its uniform cells matter only for their errors.
                let lane = if layout.repeats_uniform_cells(row, &rows[w.start]) {
                    layout.parse_lane(row).map_err(error)?
                } else {
                    layout.parse(row).map_err(error)?.lane
                };
                let lane = lane.unwrap_or(w.lanes[w.lanes.len() - 1] + 1);
                w.lanes.push(lane);
                w.end = i + 1;
            }
            _ => {
                let cells = layout.parse(row).map_err(error)?;
                waves.push(WaveRows {
                    start: i,
                    end: i + 1,
                    lanes: vec![cells.lane.unwrap_or(0)],
                    inputs: cells.inputs,
                })
            }
        }
    }
    Ok(waves)
}

/// Validates the wave rules that span rows, one row at a time in file order: lanes strictly
/// ascending inside a wave and below the wave size, a wave's rows consecutive, and uniform
/// cells repeated on a later row identical to the wave's first row.
#[derive(Clone, Debug, Default)]
pub struct WaveChecker {
    layout: WaveLayout,
    first: Option<(Row, u64)>,
    last_lane: u32,
    seen: HashSet<WaveKey>,
}

impl WaveChecker {
    /// Checks the lane of a later row of the current wave (`None`: the previous lane + 1).
    fn next_lane(&mut self, row: &Row, lane: Option<u32>) -> Result<(), CellError> {
        let lanes = row.wave.unwrap_or(32);
        let lane = lane.unwrap_or(self.last_lane + 1);
        if lane <= self.last_lane || lane >= lanes {
            return Err((
                WaveCol::Lane,
                format!(
                    "lane {lane} after lane {}: a wave's lanes ascend strictly and stay below {lanes}",
                    self.last_lane
                ),
            ));
        }
        self.last_lane = lane;
        Ok(())
    }
}

/// A wave's key as written: `wave_id`, words, mode cells, wave and gfx cells.
type WaveKey = (String, Vec<u32>, String, Option<u32>, String);

impl WaveChecker {
    pub fn new(layout: WaveLayout) -> WaveChecker {
        WaveChecker {
            layout,
            ..WaveChecker::default()
        }
    }

    pub fn layout(&self) -> &WaveLayout {
        &self.layout
    }

    /// Checks `row`, read at `line`.
    pub fn check(&mut self, row: &Row, line: u64) -> Result<(), CellError> {
        let same = self
            .first
            .as_ref()
            .is_some_and(|(f, _)| self.layout.same_wave(f, row));
        if let Some((first, _)) = self.first.as_ref().filter(|_| same) {
            if self.layout.repeats_uniform_cells(row, first) {
                // Only the lane is new: the first row's parse covers the rest.
                let lane = self.layout.parse_lane(row)?;
                return self.next_lane(row, lane);
            }
        }
        let cells = self.layout.parse(row)?;
        if !same {
            let key = (
                cells.wave_id.clone(),
                row.encoding.clone(),
                format!("{:?}", row.mode),
                row.wave,
                row.gfx.clone(),
            );
            if !self.seen.insert(key) {
                return Err((
                    WaveCol::WaveId,
                    format!(
                        "wave `{}` continues after other rows: a wave's rows must be consecutive",
                        cells.wave_id
                    ),
                ));
            }
            self.last_lane = cells.lane.unwrap_or(0);
            self.first = Some((row.clone(), line));
            return Ok(());
        }
        self.next_lane(row, cells.lane)?;
        if let Some((first, first_line)) = &self.first {
            for c in WaveCol::UNIFORM_IN.into_iter().chain(WaveCol::UNIFORM_OUT) {
                let here = self.layout.cell(row, c);
                let there = self.layout.cell(first, c);
                if !here.is_empty() && here != there {
                    return Err((
                        c,
                        format!(
                            "a uniform cell repeated on a later row of wave `{}` must equal the \
                             wave's first row (line {first_line}): `{there}`",
                            cells.wave_id
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
