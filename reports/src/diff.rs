//! The diff engine: joins a candidate file to a reference file ([`crate::join`]), classifies
//! every compared output dword by its result type ([`crate::classify`]), takes a row's worst
//! dword as the row's class and looks the row up in the known discrepancies. Plain Rust and
//! streaming: it never holds more than the rows still waiting for a partner.

use std::path::Path;

use crate::classify::{classify_dword, classify_f64, Class, Verdict};
use crate::dtype::{output_types, DwordType};
use crate::error::{Error, Result};
use crate::input::{Input, Item, RowSource, Status};
use crate::join::{join, Leftover, Pair};
use crate::known::{Known, Subject};
use crate::uniform::{self, Cells, UniformCell, NO_CELLS};

/// Settings of a diff.
#[derive(Clone, Debug)]
pub struct Options {
    /// The bound of class `ulp<=k` (distances 2..=k). At least 1.
    pub ulp_k: u64,
    pub known: Known,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ulp_k: DEFAULT_ULP_K,
            known: Known::default(),
        }
    }
}

/// Default `k` of class `ulp<=k`.
pub const DEFAULT_ULP_K: u64 = 4;

/// One compared output value: a dword, or for an f64 the pair starting at `index` (then `ty`
/// is `F64Lo` and the values hold both dwords, high dword in bits 63:32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DwordDiff {
    /// Output number (0 for out0).
    pub index: u8,
    pub ty: DwordType,
    pub reference: u64,
    pub candidate: u64,
    pub verdict: Verdict,
    /// A wave's uniform output value instead of `outN` ([`crate::uniform`]): the cell and
    /// the dword in it (`index` is then 0).
    pub uniform: Option<(UniformCell, u32)>,
}

impl DwordDiff {
    /// Whether the values print as 16 hex digits (an f64, a wave's EXEC/VCC mask).
    pub fn is_wide(&self) -> bool {
        self.ty == DwordType::F64Lo || self.uniform.is_some_and(|(c, _)| c.is_mask())
    }
}

/// The outcome for one joined row.
#[derive(Clone, Debug)]
pub struct RowDiff {
    pub reference: Item,
    pub candidate_index: u64,
    /// The candidate's backend (`cpu`, `vulkan:lavapipe`, ...).
    pub backend: String,
    pub class: Class,
    /// Largest ULP distance over the compared float values (`None`: none has a distance).
    pub max_ulp: Option<u64>,
    /// The compared values, in output order.
    pub dwords: Vec<DwordDiff>,
    /// The reason of an `unsupported`/`error` status.
    pub status_detail: Option<String>,
    /// `(reason, evidence)` of the known discrepancy covering this row.
    pub known: Option<(String, String)>,
}

impl RowDiff {
    /// A difference that no known entry explains. `exact` and `no-outputs` rows never are.
    pub fn is_unexpected(&self) -> bool {
        !matches!(self.class, Class::Exact | Class::NoOutputs) && self.known.is_none()
    }

    /// The compared value that decided the row's class (the first of the worst).
    pub fn worst(&self) -> Option<&DwordDiff> {
        self.dwords.iter().find(|d| d.verdict.class == self.class)
    }

    /// The instruction under test of the row ([`crate::subject`]).
    pub fn mnemonic(&self) -> &str {
        &self.reference.under_test
    }
}

/// Counts over a whole diff.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub rows: u64,
    /// Rows per class, indexed by [`Class::code`].
    pub classes: [u64; 10],
    pub expected: u64,
    pub unexpected: u64,
    pub max_ulp: Option<u64>,
}

impl Summary {
    /// Adds the counts of another part of the same diff.
    pub fn merge(&mut self, other: &Summary) {
        self.rows += other.rows;
        for (a, b) in self.classes.iter_mut().zip(other.classes) {
            *a += b;
        }
        self.expected += other.expected;
        self.unexpected += other.unexpected;
        if let Some(u) = other.max_ulp {
            self.max_ulp = Some(self.max_ulp.map_or(u, |m| m.max(u)));
        }
    }

    pub fn add(&mut self, d: &RowDiff) {
        self.rows += 1;
        self.classes[d.class.code() as usize] += 1;
        if d.is_unexpected() {
            self.unexpected += 1;
        } else if d.class != Class::Exact && d.class != Class::NoOutputs {
            self.expected += 1;
        }
        if let Some(u) = d.max_ulp {
            self.max_ulp = Some(self.max_ulp.map_or(u, |m| m.max(u)));
        }
    }

    pub fn count(&self, class: Class) -> u64 {
        self.classes[class.code() as usize]
    }
}

/// Compares the outputs of a pair of rows (both statuses `ok`).
pub fn compare_outputs(
    instruction: &str,
    body: &[u32],
    reference: &[Option<u32>; 16],
    candidate: &[Option<u32>; 16],
    k: u64,
) -> Vec<DwordDiff> {
    let mut out = Vec::new();
    compare_outputs_into(
        &output_types(instruction, body),
        reference,
        candidate,
        k,
        &mut out,
    );
    out
}

/// [`compare_outputs`] with the dword types given, into a reused vector (cleared first).
pub fn compare_outputs_into(
    types: &[DwordType; 16],
    reference: &[Option<u32>; 16],
    candidate: &[Option<u32>; 16],
    k: u64,
    out: &mut Vec<DwordDiff>,
) {
    out.clear();
    let mut i = 0;
    while i < 16 {
        let ty = types[i];
        if ty == DwordType::F64Lo && i + 1 < 16 && types[i + 1] == DwordType::F64Hi {
            if let (Some(rl), Some(rh), Some(cl), Some(ch)) = (
                reference[i],
                reference[i + 1],
                candidate[i],
                candidate[i + 1],
            ) {
                out.push(DwordDiff {
                    index: i as u8,
                    ty,
                    reference: u64::from(rh) << 32 | u64::from(rl),
                    candidate: u64::from(ch) << 32 | u64::from(cl),
                    verdict: classify_f64((rl, rh), (cl, ch), k),
                    uniform: None,
                });
                i += 2;
                continue;
            }
        }
        if let (Some(r), Some(c)) = (reference[i], candidate[i]) {
            // Half of an f64 whose other half is missing on a side: compared as bits.
            let ty = match ty {
                DwordType::F64Lo | DwordType::F64Hi => DwordType::Unknown,
                other => other,
            };
            out.push(DwordDiff {
                index: i as u8,
                ty,
                reference: u64::from(r),
                candidate: u64::from(c),
                verdict: classify_dword(ty, r, c, k),
                uniform: None,
            });
        }
        i += 1;
    }
}

/// Classifies one joined pair.
pub fn diff_pair(pair: Pair, options: &Options) -> RowDiff {
    let Pair {
        reference,
        candidate,
    } = pair;
    let types = output_types(&reference.row.instruction, &reference.row.encoding);
    let mut d = RowDiff {
        candidate_index: candidate.index,
        backend: candidate.backend,
        reference,
        class: Class::Exact,
        max_ulp: None,
        dwords: Vec::new(),
        status_detail: None,
        known: None,
    };
    let extra = |i: usize| candidate.row.extra.get(i).map(String::as_str);
    let cells = candidate.uniform.map_or(NO_CELLS, |u| u.cells(extra));
    classify_cells_into(
        &mut d,
        &types,
        &candidate.status,
        &candidate.row.outputs,
        &cells,
        options,
    );
    d
}

/// Fills in the findings of `d` (class, ULP, compared values, status detail, known entry) from
/// its reference row and the candidate's status and outputs; `types` are the reference row's
/// [`output_types`]. Every diff, streaming or parallel, classifies through here. The vectors and
/// strings of `d` are reused.
pub fn classify_into(
    d: &mut RowDiff,
    types: &[DwordType; 16],
    candidate_status: &Status,
    candidate_outputs: &[Option<u32>; 16],
    options: &Options,
) {
    classify_cells_into(
        d,
        types,
        candidate_status,
        candidate_outputs,
        &NO_CELLS,
        options,
    );
}

/// [`classify_into`] with the candidate's uniform output cells (a wave dataset's; the
/// reference's come from its [`Item`]), compared as [`crate::uniform`] says.
pub fn classify_cells_into(
    d: &mut RowDiff,
    types: &[DwordType; 16],
    candidate_status: &Status,
    candidate_outputs: &[Option<u32>; 16],
    candidate_cells: &Cells<'_>,
    options: &Options,
) {
    let status = match (&d.reference.status, candidate_status) {
        (Status::Error(m), _) | (_, Status::Error(m)) => Some((Class::Error, m)),
        (Status::Unsupported(m), _) | (_, Status::Unsupported(m)) => Some((Class::Unsupported, m)),
        _ => None,
    };
    match status {
        Some((class, detail)) => {
            d.class = class;
            d.max_ulp = None;
            d.dwords.clear();
            d.status_detail = Some(detail.clone());
        }
        None => {
            d.status_detail = None;
            compare_outputs_into(
                types,
                &d.reference.row.outputs,
                candidate_outputs,
                options.ulp_k,
                &mut d.dwords,
            );
            let reference = &d.reference;
            let extra = |i: usize| reference.row.extra.get(i).map(String::as_str);
            let compared = match reference.uniform {
                Some(u) => uniform::compare_into(&u.cells(extra), candidate_cells, &mut d.dwords),
                None => false,
            };
            let worst = d.dwords.iter().fold(None::<Verdict>, |acc, w| {
                Some(acc.map_or(w.verdict, |a| a.worst(w.verdict)))
            });
            (d.class, d.max_ulp) = match worst {
                None if compared => (Class::Exact, Some(0)),
                None => (Class::NoOutputs, None),
                Some(v) => (v.class, v.ulp),
            };
        }
    }
    let reference = &d.reference;
    d.known = options
        .known
        .lookup(&Subject {
            mnemonic: &reference.under_test,
            backend: &d.backend,
            class: d.class,
            encoding: &reference.row.encoding,
            mode: &reference.row.mode,
            wave: reference.row.wave,
        })
        .map(|e| (e.reason.clone(), e.evidence.clone()));
}

/// Diffs two open inputs, streaming each row's outcome to `sink`; returns the summary and the
/// rows that found no partner (the caller decides whether that is an error).
pub fn diff_inputs(
    reference: &mut impl RowSource,
    candidate: &mut impl RowSource,
    options: &Options,
    mut sink: impl FnMut(&RowDiff) -> Result<()>,
) -> Result<(Summary, Leftover)> {
    let mut summary = Summary::default();
    let leftover = join(reference, candidate, |pair| {
        let d = diff_pair(pair, options);
        summary.add(&d);
        sink(&d)
    })?;
    Ok((summary, leftover))
}

/// Diffs `candidate` against `reference`; rows present on one side only are an error naming
/// the first such row and the counts.
pub fn diff_files(
    reference: &Path,
    candidate: &Path,
    options: &Options,
    sink: impl FnMut(&RowDiff) -> Result<()>,
) -> Result<Summary> {
    let mut r = Input::open(reference)?;
    let mut c = Input::open(candidate)?;
    let (summary, leftover) = diff_inputs(&mut r, &mut c, options, sink)?;
    if !leftover.is_empty() {
        return Err(Error::Unmatched {
            reference: reference.to_path_buf(),
            candidate: candidate.to_path_buf(),
            reference_only: leftover.reference_only,
            candidate_only: leftover.candidate_only,
            first: leftover.describe_first(),
        });
    }
    Ok(summary)
}
