//! The uniform outputs of wave datasets (docs/dataset-format.md, "Wave contract"): `s_out`,
//! `exec_out`, `vcc_out`, `scc_out`, `lds_out` and `mem_out`. They belong to a wave's first row
//! (a later row may repeat them), so the diff compares them on the first row of each of the
//! reference's waves ([`WaveStarts`]), where both sides carry the cell: the wave's other lanes
//! are never blamed for them.
//!
//! Each cell compares as integers, dword by dword (`s_out[3]`, `lds_out[17]`), the EXEC and
//! VCC masks as 64-bit lane masks (type `mask`) and SCC as one integer. Only the values that
//! differ are kept beside the row's `outN` values; an exact uniform cell still makes a row
//! without `outN` values `exact` rather than `no-outputs`.

use crate::classify::{classify_dword, Class, Verdict};
use crate::diff::DwordDiff;
use crate::dtype::DwordType;
use rdnaprobe_dataset::ModeCells;

/// The uniform output columns, in [`UniformCell`] order.
pub const COLUMNS: [&str; 6] = [
    "s_out", "exec_out", "vcc_out", "scc_out", "lds_out", "mem_out",
];

/// One uniform output column of a wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UniformCell {
    SOut = 0,
    ExecOut,
    VccOut,
    SccOut,
    LdsOut,
    MemOut,
}

impl UniformCell {
    pub const ALL: [UniformCell; 6] = [
        UniformCell::SOut,
        UniformCell::ExecOut,
        UniformCell::VccOut,
        UniformCell::SccOut,
        UniformCell::LdsOut,
        UniformCell::MemOut,
    ];

    pub fn name(self) -> &'static str {
        COLUMNS[self as usize]
    }

    /// Whether the cell is a list of dwords (named with an index, `s_out[3]`).
    pub fn is_list(self) -> bool {
        matches!(
            self,
            UniformCell::SOut | UniformCell::LdsOut | UniformCell::MemOut
        )
    }

    /// Whether the cell is a 64-bit lane mask (written with 16 hex digits).
    pub fn is_mask(self) -> bool {
        matches!(self, UniformCell::ExecOut | UniformCell::VccOut)
    }
}

/// Where a file's uniform output columns (and `wave_id`) sit among its extra columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformColumns {
    at: [Option<usize>; 6],
    wave_id: Option<usize>,
}

impl UniformColumns {
    /// The positions for a file with these extra columns; `None` when it has none of them
    /// (every lane-contract dataset).
    pub fn from_columns(extra_columns: &[String]) -> Option<UniformColumns> {
        let mut at = [None; 6];
        for (i, name) in extra_columns.iter().enumerate() {
            if let Some(k) = COLUMNS.iter().position(|c| c == name) {
                at[k] = Some(i);
            }
        }
        let wave_id = extra_columns.iter().position(|c| c == "wave_id");
        at.iter()
            .any(Option::is_some)
            .then_some(UniformColumns { at, wave_id })
    }

    /// The trimmed `wave_id` cell of a row whose extra cells `extra` gives.
    pub fn wave_id<'a>(&self, extra: impl Fn(usize) -> Option<&'a str>) -> &'a str {
        self.wave_id.and_then(extra).map_or("", str::trim)
    }

    /// The trimmed uniform cells of a row whose extra cells `extra` gives ("" where absent).
    pub fn cells<'a>(&self, extra: impl Fn(usize) -> Option<&'a str>) -> Cells<'a> {
        let mut out = [""; 6];
        for (slot, at) in out.iter_mut().zip(self.at) {
            if let Some(s) = at.and_then(&extra) {
                *slot = s.trim();
            }
        }
        out
    }
}

/// Finds the first row of each wave in a stream of rows of one file: a row whose wave key
/// (`wave_id`, body words, mode cells, wave size, `gfx`) differs from the previous row's. The
/// rows of a wave are consecutive (the dataset reader checks it).
#[derive(Debug, Default)]
pub struct WaveStarts {
    last: Option<WaveKey>,
}

/// `wave_id`, body words, mode cells, wave size and `gfx` of a row.
type WaveKey = (String, Vec<u32>, ModeCells, Option<u32>, String);

impl WaveStarts {
    /// Whether this row starts a wave (and remembers it as the previous row).
    pub fn is_first(
        &mut self,
        wave_id: &str,
        words: &[u32],
        mode: &ModeCells,
        wave: Option<u32>,
        gfx: &str,
    ) -> bool {
        if let Some((i, w, m, s, g)) = &self.last {
            if i == wave_id && w == words && m == mode && *s == wave && g == gfx.trim() {
                return false;
            }
        }
        let k = self.last.get_or_insert_with(Default::default);
        k.0.clear();
        k.0.push_str(wave_id);
        k.1.clear();
        k.1.extend_from_slice(words);
        k.2 = *mode;
        k.3 = wave;
        k.4.clear();
        k.4.push_str(gfx.trim());
        true
    }
}

/// A row's six uniform output cells, trimmed, in [`UniformCell`] order ("" = not captured).
pub type Cells<'a> = [&'a str; 6];

/// The cells of a lane-contract row.
pub const NO_CELLS: Cells<'static> = [""; 6];

/// Whether every non-empty cell has the format the wave contract gives it.
pub fn cells_valid(cells: &Cells<'_>) -> bool {
    UniformCell::ALL.iter().all(|&c| {
        let s = cells[c as usize];
        s.is_empty() || parse(c, s, &mut Vec::new()).is_some()
    })
}

/// Parses a cell: its dwords into `out` (a mask as low, high dword). `None` when malformed.
fn parse(cell: UniformCell, s: &str, out: &mut Vec<u32>) -> Option<()> {
    out.clear();
    match cell {
        UniformCell::ExecOut | UniformCell::VccOut => {
            let v = rdnaprobe_dataset::wave::parse_hex64(s).ok()?;
            out.extend([v as u32, (v >> 32) as u32]);
        }
        UniformCell::SccOut => out.push(match s {
            "0" => 0,
            "1" => 1,
            _ => return None,
        }),
        UniformCell::SOut | UniformCell::LdsOut | UniformCell::MemOut => {
            for w in s.split_ascii_whitespace() {
                out.push(rdnaprobe_dataset::parse_hex(w).ok()?);
            }
            // s_out holds s0..s15 (the dataset reader's rule).
            if cell == UniformCell::SOut && out.len() != 16 {
                return None;
            }
        }
    }
    Some(())
}

/// Compares the uniform cells that both rows carry, appending the values that differ to `out`.
/// Returns whether any cell was compared. A malformed cell (which the readers reject before
/// this is reached) compares as its raw text: equal or `wrong`.
pub fn compare_into(
    reference: &Cells<'_>,
    candidate: &Cells<'_>,
    out: &mut Vec<DwordDiff>,
) -> bool {
    let mut compared = false;
    let (mut r, mut c) = (Vec::new(), Vec::new());
    for cell in UniformCell::ALL {
        let (rs, cs) = (reference[cell as usize], candidate[cell as usize]);
        if rs.is_empty() || cs.is_empty() {
            continue;
        }
        compared = true;
        if rs == cs {
            continue;
        }
        if parse(cell, rs, &mut r).is_none() || parse(cell, cs, &mut c).is_none() {
            out.push(diff(cell, 0, DwordType::Unknown, 0, 0, WRONG));
            continue;
        }
        if cell.is_mask() {
            let (rv, cv) = (mask(&r), mask(&c));
            let v = classify_dword(DwordType::LaneMask, r[0], c[0], 0).worst(classify_dword(
                DwordType::LaneMask,
                r[1],
                c[1],
                0,
            ));
            if v.class != Class::Exact {
                out.push(diff(cell, 0, DwordType::LaneMask, rv, cv, v));
            }
            continue;
        }
        for i in 0..r.len().max(c.len()) {
            let v = match (r.get(i), c.get(i)) {
                (Some(&a), Some(&b)) => classify_dword(DwordType::Int, a, b, 0),
                _ => WRONG,
            };
            if v.class != Class::Exact {
                let (a, b) = (r.get(i).copied(), c.get(i).copied());
                let ty = DwordType::Int;
                out.push(diff(
                    cell,
                    i as u32,
                    ty,
                    u64::from(a.unwrap_or(0)),
                    u64::from(b.unwrap_or(0)),
                    v,
                ));
            }
        }
    }
    compared
}

const WRONG: Verdict = Verdict {
    class: Class::Wrong,
    ulp: None,
};

fn mask(d: &[u32]) -> u64 {
    u64::from(d[1]) << 32 | u64::from(d[0])
}

fn diff(cell: UniformCell, dword: u32, ty: DwordType, r: u64, c: u64, v: Verdict) -> DwordDiff {
    DwordDiff {
        index: 0,
        ty,
        reference: r,
        candidate: c,
        verdict: v,
        uniform: Some((cell, dword)),
    }
}

/// Appends the name of a compared value: `out3`, `s_out[3]`, `vcc_out`, `lds_out[17]`.
pub fn push_name(out: &mut Vec<u8>, d: &DwordDiff) {
    match d.uniform {
        None => {
            out.extend_from_slice(b"out");
            out.extend_from_slice(d.index.to_string().as_bytes());
        }
        Some((cell, i)) => {
            out.extend_from_slice(cell.name().as_bytes());
            if cell.is_list() {
                out.push(b'[');
                out.extend_from_slice(i.to_string().as_bytes());
                out.push(b']');
            }
        }
    }
}

/// [`push_name`] as a string.
pub fn name(d: &DwordDiff) -> String {
    let mut out = Vec::new();
    push_name(&mut out, d);
    String::from_utf8(out).expect("ascii")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sixteen `s_out` dwords from the first few given.
    fn sgprs(first: &[u32]) -> String {
        (0..16)
            .map(|i| format!("0x{:08x}", first.get(i).copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn cells<'a>(s_out: &'a str, vcc: &'a str, lds: &'a str) -> Cells<'a> {
        [s_out, "", vcc, "", lds, ""]
    }

    #[test]
    fn only_the_cells_that_differ_are_kept_and_named() {
        let (rs, cs) = (sgprs(&[1, 2, 3]), sgprs(&[1, 2, 4]));
        let r = cells(&rs, "0x00000000ffffffff", "0x5 0x6");
        let c = cells(&cs, "0x00000000fffffffe", "0x5 0x6");
        let mut out = Vec::new();
        assert!(compare_into(&r, &c, &mut out));
        let names: Vec<String> = out.iter().map(name).collect();
        assert_eq!(names, ["s_out[2]", "vcc_out"]);
        assert_eq!(out[1].ty, DwordType::LaneMask);
        assert_eq!(
            (out[1].reference, out[1].candidate),
            (0xffff_ffff, 0xffff_fffe)
        );
        assert!(out.iter().all(|d| d.verdict.class == Class::Wrong));
    }

    #[test]
    fn a_cell_missing_on_one_side_is_not_compared() {
        let mut out = Vec::new();
        let s = sgprs(&[1]);
        assert!(!compare_into(
            &cells(&s, "", ""),
            &cells("", "0x1", "0x2"),
            &mut out
        ));
        assert!(out.is_empty());
        // A shorter list: the dwords it lacks are wrong.
        assert!(compare_into(
            &cells("", "", "0x1 0x2"),
            &cells("", "", "0x1"),
            &mut out
        ));
        assert_eq!(out.iter().map(name).collect::<Vec<_>>(), ["lds_out[1]"]);
    }

    #[test]
    fn validation_follows_the_contract() {
        assert!(cells_valid(&cells(
            &sgprs(&[1, 2]),
            "0x3",
            "0x1 0x00000002"
        )));
        assert!(
            !cells_valid(&cells("0x1 0x2", "", "")),
            "s_out takes 16 dwords"
        );
        assert!(!cells_valid(&cells("", "", "0x1 zz")));
        assert!(!cells_valid(&cells("", "0x12345678123456789", "")));
        assert!(!cells_valid(&["", "", "", "2", "", ""]));
    }

    #[test]
    fn columns_are_found_by_name() {
        let cols: Vec<String> = ["note2", "vcc_out", "wave_id", "s_out"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let u = UniformColumns::from_columns(&cols).expect("wave columns");
        let extra = |i: usize| cols.get(i).map(String::as_str);
        assert_eq!(u.cells(extra), ["s_out", "", "vcc_out", "", "", ""]);
        assert_eq!(u.wave_id(extra), "wave_id");
        assert!(UniformColumns::from_columns(&["backend".to_string()]).is_none());
    }

    #[test]
    fn a_wave_starts_where_its_key_changes() {
        let mut s = WaveStarts::default();
        let m = ModeCells::default();
        let m1 = ModeCells { ieee: Some(1), ..m };
        let firsts: Vec<bool> = [
            ("a", 1u32, m, "gfx1030"),
            ("a", 1, m, "gfx1030 "),
            ("b", 1, m, "gfx1030"),
            ("b", 2, m, "gfx1030"),
            ("b", 2, m1, "gfx1030"),
            ("b", 2, m1, "gfx1031"),
            ("b", 2, m1, "gfx1031"),
        ]
        .iter()
        .map(|(id, w, m, g)| s.is_first(id, &[*w], m, Some(32), g))
        .collect();
        assert_eq!(firsts, [true, false, true, true, true, true, false]);
        assert!(s.is_first("b", &[2], &m1, Some(64), "gfx1031"));
    }
}
