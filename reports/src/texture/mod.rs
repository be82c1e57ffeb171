//! The texture-unit report (`rdnaprobe texture-report REFERENCE CANDIDATE`): two runs of one
//! image sweep, the reference on the software image path and the candidate with a driver's own
//! texture unit (`--images native`), joined and classified as `diff` does ([`crate::join`],
//! [`crate::diff::classify_into`]), and counted per image format, filter, addressing mode and
//! dimensionality.
//!
//! - Compared: the VGPRs the body's first MIMG instruction writes (VDATA and its DMASK's
//!   components), typed by what the instruction returns on the T#'s format (f32 for filtered
//!   and compare results, integers for UINT/SINT formats and raw forms); nothing else.
//! - Group: decoded from the wave's `s_in` ([`desc::GroupKey`]): the T# at SRSRC (FORMAT,
//!   TYPE), the S# at SSAMP (XY_MAG/MIN_FILTER, MIP_FILTER, CLAMP_X/Y, the border colour,
//!   FORCE_UNNORMALIZED) and DEPTH_COMPARE_FUNC for a `_c` form.
//! - Per group: rows, rows both ran, exact rows, row classes, the ULP histogram of the compared
//!   dwords, the largest ULP distance, and the non-`ok` statuses; then the worst rows overall.
//!
//! Streaming: memory follows the number of groups and waiting rows, not the file sizes.

pub mod desc;
mod render;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use rdnaprobe_dataset::{Status, WaveCol, WaveLayout};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::classify::Class;
use crate::diff::{classify_into, DwordDiff, Options, RowDiff};
use crate::dtype::DwordType;
use crate::error::{Error, Result};
use crate::input::{Input, Item, RowSource};
use crate::join::join;
use crate::uniform::WaveStarts;
pub use desc::{find_mimg, GroupKey, Mimg};
pub use render::markdown;

/// Settings of a texture report.
#[derive(Clone, Debug)]
pub struct TextureOptions {
    /// The bound of class `ulp<=k`.
    pub ulp_k: u64,
    /// Worst rows listed.
    pub limit: usize,
}

impl Default for TextureOptions {
    fn default() -> Self {
        TextureOptions {
            ulp_k: crate::diff::DEFAULT_ULP_K,
            limit: 20,
        }
    }
}

/// The ULP histogram's buckets of the compared dwords with a distance: 0, 1, 2-3, 4-15,
/// 16-255, 256-65535, >=65536; then those without one: both NaN with other bits
/// (`nan-payload`), a NaN against a number (`nan`), integer or untyped bits that differ
/// (`bits`).
pub const BUCKETS: [&str; 10] = [
    "0",
    "1",
    "2-3",
    "4-15",
    "16-255",
    "256-65535",
    ">=65536",
    "nan-payload",
    "nan",
    "bits",
];

/// Counts per [`BUCKETS`] entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Histogram(pub [u64; 10]);

impl Histogram {
    /// The bucket of one compared value.
    pub fn bucket(d: &DwordDiff) -> usize {
        match d.verdict.ulp {
            Some(0) => 0,
            Some(1) => 1,
            Some(2..=3) => 2,
            Some(4..=15) => 3,
            Some(16..=255) => 4,
            Some(256..=65535) => 5,
            Some(_) => 6,
            None if d.verdict.class == Class::NanPayload => 7,
            None if is_float(d.ty) => 8,
            None => 9,
        }
    }

    /// The count of bucket `name`.
    pub fn get(&self, name: &str) -> u64 {
        BUCKETS
            .iter()
            .position(|b| *b == name)
            .map_or(0, |i| self.0[i])
    }
}

fn is_float(ty: DwordType) -> bool {
    matches!(
        ty,
        DwordType::F32
            | DwordType::F16Lo
            | DwordType::F16Hi
            | DwordType::PackedF16
            | DwordType::F64Lo
    )
}

impl Serialize for Histogram {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(BUCKETS.len()))?;
        for (name, n) in BUCKETS.iter().zip(self.0) {
            m.serialize_entry(name, &n)?;
        }
        m.end()
    }
}

/// Rows per [`Class`] (of the rows both sides ran).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classes(pub [u64; 10]);

impl Classes {
    pub fn get(&self, c: Class) -> u64 {
        self.0[c.code() as usize]
    }
}

impl Serialize for Classes {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let shown = || {
            Class::ALL
                .into_iter()
                .filter(|c| !matches!(c, Class::Unsupported | Class::Error))
        };
        let mut m = s.serialize_map(Some(shown().count()))?;
        for c in shown() {
            m.serialize_entry(c.name(), &self.get(c))?;
        }
        m.end()
    }
}

/// The numbers of one group (or of all rows: the total).
#[derive(Clone, Debug, Default, Serialize)]
pub struct GroupStats {
    pub instruction: String,
    pub dim: String,
    pub format: String,
    pub filter: String,
    pub addressing: String,
    pub compare: String,
    /// Joined rows.
    pub rows: u64,
    /// Rows `ok` on both sides.
    pub both_ok: u64,
    /// Rows both ran whose compared dwords are all the same bits.
    pub exact: u64,
    /// Compared dwords (of the rows both ran).
    pub dwords: u64,
    pub classes: Classes,
    pub ulp_histogram: Histogram,
    /// Largest ULP distance of a compared dword (`None`: none has one).
    pub max_ulp: Option<u64>,
    /// The candidate's statuses other than `ok`, with their rows.
    pub candidate_not_ok: BTreeMap<String, u64>,
    /// The reference's statuses other than `ok`, with their rows.
    pub reference_not_ok: BTreeMap<String, u64>,
}

impl GroupStats {
    fn named(key: &GroupKey) -> GroupStats {
        GroupStats {
            instruction: key.op.to_string(),
            dim: key.dim_name(),
            format: key.format_name(),
            filter: key.filter_name(),
            addressing: key.addressing_name(),
            compare: key.compare_name(),
            ..GroupStats::default()
        }
    }

    fn merge(&mut self, o: &GroupStats) {
        self.rows += o.rows;
        self.both_ok += o.both_ok;
        self.exact += o.exact;
        self.dwords += o.dwords;
        for i in 0..10 {
            self.classes.0[i] += o.classes.0[i];
            self.ulp_histogram.0[i] += o.ulp_histogram.0[i];
        }
        self.max_ulp = self.max_ulp.max(o.max_ulp);
        for (into, from) in [
            (&mut self.candidate_not_ok, &o.candidate_not_ok),
            (&mut self.reference_not_ok, &o.reference_not_ok),
        ] {
            for (k, n) in from {
                *into.entry(k.clone()).or_default() += n;
            }
        }
    }

    /// The group's columns in one line (`image_sample_l 2D 8_UNORM point wrap`).
    pub fn label(&self) -> String {
        let mut s = format!(
            "{} {} {} {} {}",
            self.instruction, self.dim, self.format, self.filter, self.addressing
        );
        if self.compare != "-" {
            s.push_str(&format!(" compare {}", self.compare));
        }
        s
    }
}

/// One of the worst rows.
#[derive(Clone, Debug, Serialize)]
pub struct WorstRow {
    /// 1-based data row of the reference.
    pub reference_row: u64,
    pub wave_id: String,
    pub lane: u32,
    /// The group's label ([`GroupStats::label`]).
    pub group: String,
    /// in0..in2 (JSON: `0x%08x`).
    #[serde(serialize_with = "hex_list")]
    pub inputs: [u32; 3],
    /// The worst compared dword: `out0`...
    pub out: String,
    /// Its type (`f32`, `int`, ...).
    #[serde(rename = "type")]
    pub ty: String,
    /// The worst dword's values (JSON: `0x%08x`).
    #[serde(serialize_with = "hex")]
    pub reference: u32,
    #[serde(serialize_with = "hex")]
    pub candidate: u32,
    pub class: String,
    pub ulp: Option<u64>,
    #[serde(skip)]
    rank: (Class, u64),
}

fn hex<S: Serializer>(v: &u32, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&crate::format::hex(*v))
}

fn hex_list<S: Serializer>(v: &[u32; 3], s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|w| crate::format::hex(*w)))
}

/// The two inputs of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    pub path: String,
    /// The backend of the file's first row.
    pub backend: String,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct TextureReport {
    pub reference: Side,
    pub candidate: Side,
    pub ulp_k: u64,
    /// The compared outputs per image instruction: `image_sample_l: out0 (f32)`.
    pub compared: Vec<String>,
    pub groups: Vec<GroupStats>,
    pub total: GroupStats,
    pub worst: Vec<WorstRow>,
}

/// What a wave's rows share: its group, and which outputs are compared and how.
struct WaveInfo {
    group: usize,
    wave_id: Arc<str>,
    types: [DwordType; 16],
    compared: [bool; 16],
}

/// The per-row facts the join's pairs need, keyed by the reference row number (removed when
/// the row pairs, so only rows waiting for a partner are held).
#[derive(Default)]
struct Annotations {
    rows: HashMap<u64, (Arc<WaveInfo>, u32)>,
    groups: Vec<GroupKey>,
    group_index: HashMap<GroupKey, usize>,
    /// Per body: its image instruction.
    bodies: HashMap<Vec<u32>, Mimg>,
    /// Per (instruction, compared outputs), for the report's header.
    compared: BTreeSet<String>,
}

/// The reference side: a dataset read row by row, each row annotated with its wave's group.
struct Reference<'a> {
    input: Input,
    layout: WaveLayout,
    starts: WaveStarts,
    wave: Option<Arc<WaveInfo>>,
    lane: u32,
    notes: &'a RefCell<Annotations>,
}

impl Reference<'_> {
    fn annotate(&mut self, item: &Item) -> Result<()> {
        let row = &item.row;
        let wave_id = self.layout.cell(row, WaveCol::WaveId);
        let first =
            self.starts
                .is_first(wave_id, &row.encoding, &row.mode, row.wave, row.gfx.trim());
        let lane_cell = self.layout.cell(row, WaveCol::Lane);
        let where_ = || format!("{}: data row {}", self.input.path.display(), item.index);
        if first || self.wave.is_none() {
            let mut notes = self.notes.borrow_mut();
            let mimg = match notes.bodies.get(&row.encoding) {
                Some(m) => *m,
                None => {
                    let m = find_mimg(&row.encoding).ok_or_else(|| {
                        Error::Usage(format!(
                            "{}: the body ({}) has no MIMG instruction: texture-report needs \
                             an image sample, gather or load",
                            where_(),
                            row.instruction.trim()
                        ))
                    })?;
                    notes.bodies.insert(row.encoding.clone(), m);
                    m
                }
            };
            let sgprs = parse_sgprs(self.layout.cell(row, WaveCol::SIn))
                .map_err(|e| Error::Usage(format!("{}: column `s_in`: {e}", where_())))?;
            let key = GroupKey::of(&mimg, &sgprs);
            let next = notes.groups.len();
            let group = *notes.group_index.entry(key).or_insert(next);
            if group == next {
                notes.groups.push(key);
            }
            let written = mimg.output_types(key.format);
            let types = written.map(|t| t.unwrap_or(DwordType::Unknown));
            let compared = written.map(|t| t.is_some());
            let outs: Vec<String> = (0..16)
                .filter_map(|i| {
                    written[i].map(|t| format!("out{i} ({})", crate::output::type_name(t)))
                })
                .collect();
            let outs = if outs.is_empty() {
                "nothing (no output VGPR)".to_string()
            } else {
                outs.join(", ")
            };
            notes.compared.insert(format!("{}: {outs}", mimg.mnemonic));
            self.wave = Some(Arc::new(WaveInfo {
                group,
                wave_id: Arc::from(wave_id),
                types,
                compared,
            }));
            self.lane = 0;
        } else {
            self.lane += 1;
        }
        if !lane_cell.is_empty() {
            self.lane = lane_cell.parse().unwrap_or(self.lane);
        }
        let wave = self.wave.clone().expect("a wave");
        self.notes
            .borrow_mut()
            .rows
            .insert(item.index, (wave, self.lane));
        Ok(())
    }
}

impl RowSource for Reference<'_> {
    fn next_item(&mut self) -> Result<Option<Item>> {
        let Some(item) = self.input.next_item()? else {
            return Ok(None);
        };
        self.annotate(&item)?;
        Ok(Some(item))
    }
}

/// A `s_in` cell's dwords.
fn parse_sgprs(cell: &str) -> std::result::Result<Vec<u32>, String> {
    cell.split_ascii_whitespace()
        .map(rdnaprobe_dataset::parse_hex)
        .collect()
}

/// The backend of a file's rows: its default (manifest, stem), or the first row's cell.
fn backend_of(first: Option<&str>, input: &Input) -> String {
    first.map_or_else(|| input.default_backend().to_string(), str::to_string)
}

/// Builds the report of `candidate` (the native texture unit's run) against `reference` (the
/// software model's run of the same sweep). Errors: an unreadable file, a dataset that is not
/// a wave dataset with `s_in`, a body without a MIMG instruction, row sets that do not join.
pub fn texture_report(
    reference: &Path,
    candidate: &Path,
    options: &TextureOptions,
) -> Result<TextureReport> {
    let input = Input::open(reference)?;
    let mut cand = Input::open(candidate)?;
    let layout = WaveLayout::from_columns(input.extra_columns())
        .filter(|l| l.has(WaveCol::SIn) && l.has(WaveCol::WaveId))
        .ok_or_else(|| {
            Error::Usage(format!(
                "{}: not a wave dataset with an `s_in` column: texture-report reads image \
                 sweeps (docs/sweeps.md, \"Image sweeps\")",
                reference.display()
            ))
        })?;
    let notes = RefCell::new(Annotations::default());
    let mut refs = Reference {
        input,
        layout,
        starts: WaveStarts::default(),
        wave: None,
        lane: 0,
        notes: &notes,
    };
    let diff_options = Options {
        ulp_k: options.ulp_k,
        ..Options::default()
    };
    let mut stats: Vec<GroupStats> = Vec::new();
    let mut worst: Vec<WorstRow> = Vec::new();
    let mut backends: (Option<String>, Option<String>) = (None, None);
    let keep = options.limit;
    let leftover = join(&mut refs, &mut cand, |pair| {
        let (wave, lane) = notes
            .borrow_mut()
            .rows
            .remove(&pair.reference.index)
            .ok_or_else(|| Error::Usage("a joined reference row was not annotated".into()))?;
        while stats.len() <= wave.group {
            let key = notes.borrow().groups[stats.len()];
            stats.push(GroupStats::named(&key));
        }
        backends
            .0
            .get_or_insert_with(|| pair.reference.backend.clone());
        backends
            .1
            .get_or_insert_with(|| pair.candidate.backend.clone());
        let g = &mut stats[wave.group];
        g.rows += 1;
        let (ref_ok, cand_ok) = (pair.reference.status.is_ok(), pair.candidate.status.is_ok());
        if !ref_ok {
            *g.reference_not_ok
                .entry(pair.reference.status.to_string())
                .or_default() += 1;
        }
        if !cand_ok {
            *g.candidate_not_ok
                .entry(pair.candidate.status.to_string())
                .or_default() += 1;
        }
        if !(ref_ok && cand_ok) {
            return Ok(());
        }
        g.both_ok += 1;
        let d = classify(pair, &wave, &diff_options);
        g.classes.0[d.class.code() as usize] += 1;
        if d.class == Class::Exact {
            g.exact += 1;
        }
        for dw in &d.dwords {
            g.dwords += 1;
            g.ulp_histogram.0[Histogram::bucket(dw)] += 1;
            if let Some(u) = dw.verdict.ulp {
                g.max_ulp = g.max_ulp.max(Some(u));
            }
        }
        if !matches!(d.class, Class::Exact | Class::NoOutputs) {
            worst.push(worst_row(&d, &wave, lane, g.label()));
            if worst.len() >= 4 * keep + 256 {
                rank(&mut worst, keep);
            }
        }
        Ok(())
    })?;
    if !leftover.is_empty() {
        return Err(Error::Unmatched {
            reference: reference.to_path_buf(),
            candidate: candidate.to_path_buf(),
            reference_only: leftover.reference_only,
            candidate_only: leftover.candidate_only,
            first: leftover.describe_first(),
        });
    }
    rank(&mut worst, keep);
    let reference_backend = backend_of(backends.0.as_deref(), &refs.input);
    drop(refs);
    let notes = notes.into_inner();
    // Groups in key order (instruction, TYPE, FORMAT code, S# fields), not order of appearance.
    let mut order: Vec<usize> = (0..stats.len()).collect();
    order.sort_by_key(|&i| notes.groups[i]);
    let groups: Vec<GroupStats> = order.into_iter().map(|i| stats[i].clone()).collect();
    let mut total = GroupStats {
        instruction: "total".into(),
        ..GroupStats::default()
    };
    for g in &groups {
        total.merge(g);
    }
    Ok(TextureReport {
        reference: Side {
            path: reference.display().to_string(),
            backend: reference_backend,
        },
        candidate: Side {
            path: candidate.display().to_string(),
            backend: backend_of(backends.1.as_deref(), &cand),
        },
        ulp_k: options.ulp_k,
        compared: notes.compared.into_iter().collect(),
        groups,
        total,
        worst,
    })
}

/// Classifies the compared outputs of a pair both sides ran.
fn classify(pair: crate::join::Pair, wave: &WaveInfo, options: &Options) -> RowDiff {
    let crate::join::Pair {
        mut reference,
        candidate,
    } = pair;
    let keep = |outs: &mut [Option<u32>; 16]| {
        for (o, c) in outs.iter_mut().zip(wave.compared) {
            if !c {
                *o = None;
            }
        }
    };
    keep(&mut reference.row.outputs);
    // The wave's uniform outputs (s_out, mem_out, ...) are not the texture unit's.
    reference.uniform = None;
    let mut cand_outputs = candidate.row.outputs;
    keep(&mut cand_outputs);
    let mut d = RowDiff {
        reference,
        candidate_index: candidate.index,
        backend: candidate.backend,
        class: Class::Exact,
        max_ulp: None,
        dwords: Vec::new(),
        status_detail: None,
        known: None,
    };
    classify_into(&mut d, &wave.types, &Status::Ok, &cand_outputs, options);
    d
}

/// A worst-row entry for a row that differs: its worst dword (worst class, then the largest
/// distance, a NaN against a number counting as the largest).
fn worst_row(d: &RowDiff, wave: &WaveInfo, lane: u32, group: String) -> WorstRow {
    let rank_of = |w: &DwordDiff| (w.verdict.class, w.verdict.ulp.unwrap_or(u64::MAX));
    let w = d
        .dwords
        .iter()
        .max_by(|a, b| rank_of(a).cmp(&rank_of(b)).then(b.index.cmp(&a.index)))
        .copied()
        .expect("a row that differs has a compared dword");
    let inputs = &d.reference.row.inputs;
    WorstRow {
        reference_row: d.reference.index,
        wave_id: wave.wave_id.to_string(),
        lane,
        group,
        inputs: [inputs[0], inputs[1], inputs[2]],
        out: format!("out{}", w.index),
        ty: crate::output::type_name(w.ty).to_string(),
        reference: w.reference as u32,
        candidate: w.candidate as u32,
        class: w.verdict.class.name().to_string(),
        ulp: w.verdict.ulp,
        rank: rank_of(&w),
    }
}

/// Sorts the worst rows (worst class, largest distance, then file order) and keeps `keep`.
fn rank(rows: &mut Vec<WorstRow>, keep: usize) {
    rows.sort_by(|a, b| {
        b.rank
            .cmp(&a.rank)
            .then(a.reference_row.cmp(&b.reference_row))
    });
    rows.truncate(keep);
}
