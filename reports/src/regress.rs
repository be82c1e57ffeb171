//! Regression diffing: two sets of outputs (two runs, two revisions, two drivers) are each
//! joined to the hardware reference and classified ([`crate::diff`]); then every row of NEW is
//! matched with the same experiment in OLD and its change is named:
//!
//! - `fixed`: NEW's class is milder than OLD's (the class order is [`Class`]'s severity);
//! - `regressed`: NEW's class is worse;
//! - `changed`: same class, but the compared output bits differ (changed-but-equal-class);
//! - `same`: same class and bits;
//! - `new` / `gone`: the experiment is in NEW only / in OLD only.
//!
//! Counts are grouped by instruction under test x mode. Plain Rust and streaming per side: the
//! memory held is one verdict per OLD row (class, ULP distance, a hash of the outputs).

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

use serde::Serialize;

use crate::classify::Class;
use crate::diff::{diff_inputs, Options, RowDiff};
use crate::error::{Error, Result};
use crate::format;
use crate::input::{Chain, Item, Key, RowSource};

/// How a row changed between OLD and NEW.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    Fixed,
    Regressed,
    Changed,
    Same,
    New,
    Gone,
}

impl Change {
    pub const ALL: [Change; 6] = [
        Change::Fixed,
        Change::Regressed,
        Change::Changed,
        Change::Same,
        Change::New,
        Change::Gone,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Change::Fixed => "fixed",
            Change::Regressed => "regressed",
            Change::Changed => "changed",
            Change::Same => "same",
            Change::New => "new",
            Change::Gone => "gone",
        }
    }
}

/// One side of a regress: files read as one stream, optionally only the rows of one backend.
#[derive(Clone, Debug)]
pub struct Side {
    pub label: String,
    pub files: Vec<PathBuf>,
    /// Keep only rows whose backend is this (two backends of one run).
    pub backend: Option<String>,
}

/// Counts of one instruction x mode group.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GroupCounts {
    pub instruction: String,
    pub mode: String,
    pub fixed: u64,
    pub regressed: u64,
    pub changed: u64,
    pub same: u64,
    pub new: u64,
    pub gone: u64,
}

impl GroupCounts {
    fn add(&mut self, c: Change) {
        *match c {
            Change::Fixed => &mut self.fixed,
            Change::Regressed => &mut self.regressed,
            Change::Changed => &mut self.changed,
            Change::Same => &mut self.same,
            Change::New => &mut self.new,
            Change::Gone => &mut self.gone,
        } += 1;
    }

    /// Whether anything but `same` happened in the group.
    pub fn moved(&self) -> bool {
        self.fixed + self.regressed + self.changed + self.new + self.gone > 0
    }
}

/// An example row of a change, with its one-line repro.
#[derive(Clone, Debug, Serialize)]
pub struct Example {
    pub change: Change,
    pub instruction: String,
    pub mode: String,
    pub old: String,
    pub new: String,
    /// A `rdnaprobe replay` command that runs the experiment on the new run's backend.
    pub repro: String,
}

/// The outcome of a regress.
#[derive(Clone, Debug, Serialize)]
pub struct Regress {
    pub old: String,
    pub new: String,
    pub old_backends: Vec<String>,
    pub new_backends: Vec<String>,
    pub totals: BTreeMap<&'static str, u64>,
    /// Groups where something moved, by instruction then mode.
    pub groups: Vec<GroupCounts>,
    /// Up to [`EXAMPLES`] rows: the most severe regressions, then the most severe fixes.
    pub examples: Vec<Example>,
    /// Rows of each side that found no hardware row (not compared).
    pub old_unreferenced: u64,
    pub new_unreferenced: u64,
}

impl Regress {
    pub fn regressed(&self) -> u64 {
        self.totals.get("regressed").copied().unwrap_or(0)
    }
}

/// How many example rows a regress keeps.
pub const EXAMPLES: usize = 10;

struct Verdict {
    class: Class,
    max_ulp: Option<u64>,
    outputs: u64,
    instruction: String,
    mode: String,
}

fn verdict(d: &RowDiff) -> Verdict {
    let mut h = DefaultHasher::new();
    for w in &d.dwords {
        w.index.hash(&mut h);
        if let Some((cell, dword)) = w.uniform {
            (cell as u8, dword).hash(&mut h);
        }
        w.candidate.hash(&mut h);
    }
    d.status_detail.hash(&mut h);
    Verdict {
        class: d.class,
        max_ulp: d.max_ulp,
        outputs: h.finish(),
        instruction: d.mnemonic().to_string(),
        mode: format::mode(&d.reference.row.mode, d.reference.row.wave),
    }
}

fn describe(v: &Verdict) -> String {
    match v.max_ulp {
        Some(u) if u > 0 => format!("{} ({u} ulp)", v.class),
        _ => v.class.to_string(),
    }
}

/// Rows of one backend only, and the backends seen.
struct Filter<S> {
    inner: S,
    backend: Option<String>,
    seen: Vec<String>,
}

impl<S: RowSource> RowSource for Filter<S> {
    fn next_item(&mut self) -> Result<Option<Item>> {
        while let Some(item) = self.inner.next_item()? {
            if !self.seen.contains(&item.backend) {
                self.seen.push(item.backend.clone());
            }
            if self.backend.as_ref().is_none_or(|b| *b == item.backend) {
                return Ok(Some(item));
            }
        }
        Ok(None)
    }
}

/// Classifies `side` against `reference`, calling `sink` per joined row; returns the backends
/// seen and the rows without a hardware row.
fn classify_side(
    reference: &[PathBuf],
    side: &Side,
    options: &Options,
    sink: impl FnMut(&RowDiff) -> Result<()>,
) -> Result<(Vec<String>, u64)> {
    let mut r = Chain::new(reference.to_vec());
    let mut c = Filter {
        inner: Chain::new(side.files.clone()),
        backend: side.backend.clone(),
        seen: Vec::new(),
    };
    let (_, leftover) = diff_inputs(&mut r, &mut c, options, sink)?;
    if let Some(b) = &side.backend {
        if !c.seen.contains(b) {
            return Err(Error::Usage(format!(
                "regress: {}: no row of backend {b:?} (backends: {})",
                side.label,
                c.seen.join(", ")
            )));
        }
    }
    Ok((c.seen, leftover.candidate_only))
}

/// Regress of `new` against `old`, both judged against the hardware rows of `reference`.
pub fn regress(
    reference: &[PathBuf],
    old: &Side,
    new: &Side,
    options: &Options,
) -> Result<Regress> {
    if reference.is_empty() {
        return Err(Error::Usage(
            "regress: no hardware reference dataset".into(),
        ));
    }
    let mut olds: HashMap<Key, VecDeque<Verdict>> = HashMap::new();
    let (old_backends, old_unref) = classify_side(reference, old, options, |d| {
        olds.entry(Key::of(&d.reference.row))
            .or_default()
            .push_back(verdict(d));
        Ok(())
    })?;
    let mut groups: BTreeMap<(String, String), GroupCounts> = BTreeMap::new();
    let mut regressed_ex = Vec::new();
    let mut fixed_ex = Vec::new();
    let mut record =
        |change: Change, nv: &Verdict, old: Option<&Verdict>, repro: Option<String>| {
            groups
                .entry((nv.instruction.clone(), nv.mode.clone()))
                .or_insert_with(|| GroupCounts {
                    instruction: nv.instruction.clone(),
                    mode: nv.mode.clone(),
                    ..GroupCounts::default()
                })
                .add(change);
            let list = match change {
                Change::Regressed => &mut regressed_ex,
                Change::Fixed => &mut fixed_ex,
                _ => return,
            };
            // Keep the most severe: a regression by the class it fell to, a fix by the class
            // it came from; then by ULP distance.
            let decisive = if change == Change::Regressed {
                nv
            } else {
                old.unwrap_or(nv)
            };
            let rank = (decisive.class, decisive.max_ulp.unwrap_or(u64::MAX));
            if list.len() == EXAMPLES && list.last().is_some_and(|(r, _)| *r >= rank) {
                return;
            }
            list.push((
                rank,
                Example {
                    change,
                    instruction: nv.instruction.clone(),
                    mode: nv.mode.clone(),
                    old: old.map(describe).unwrap_or_default(),
                    new: describe(nv),
                    repro: repro.unwrap_or_default(),
                },
            ));
            list.sort_by_key(|(r, _)| std::cmp::Reverse(*r));
            list.truncate(EXAMPLES);
        };
    let (new_backends, new_unref) = classify_side(reference, new, options, |d| {
        let nv = verdict(d);
        let key = Key::of(&d.reference.row);
        let ov = olds.get_mut(&key).and_then(|q| q.pop_front());
        let change = match &ov {
            None => Change::New,
            Some(o) if nv.class < o.class => Change::Fixed,
            Some(o) if nv.class > o.class => Change::Regressed,
            Some(o) if nv.outputs != o.outputs => Change::Changed,
            Some(_) => Change::Same,
        };
        let repro = matches!(change, Change::Fixed | Change::Regressed)
            .then(|| format::repro_command(&d.reference.row, &d.backend));
        record(change, &nv, ov.as_ref(), repro);
        Ok(())
    })?;
    for gone in olds.into_values().flatten() {
        record(Change::Gone, &gone, None, None);
    }
    let mut totals: BTreeMap<&'static str, u64> =
        Change::ALL.iter().map(|c| (c.name(), 0)).collect();
    for g in groups.values() {
        for (c, n) in [
            (Change::Fixed, g.fixed),
            (Change::Regressed, g.regressed),
            (Change::Changed, g.changed),
            (Change::Same, g.same),
            (Change::New, g.new),
            (Change::Gone, g.gone),
        ] {
            *totals.get_mut(c.name()).unwrap() += n;
        }
    }
    let mut examples: Vec<Example> = regressed_ex.into_iter().map(|(_, e)| e).collect();
    examples.extend(fixed_ex.into_iter().map(|(_, e)| e));
    examples.truncate(EXAMPLES);
    Ok(Regress {
        old: old.label.clone(),
        new: new.label.clone(),
        old_backends,
        new_backends,
        totals,
        groups: groups.into_values().filter(|g| g.moved()).collect(),
        examples,
        old_unreferenced: old_unref,
        new_unreferenced: new_unref,
    })
}

/// The table `rdnaprobe regress` prints.
pub fn write_table(out: &mut impl std::io::Write, r: &Regress) -> std::io::Result<()> {
    writeln!(
        out,
        "regress: OLD {} [{}] -> NEW {} [{}], against the hardware reference",
        r.old,
        r.old_backends.join(", "),
        r.new,
        r.new_backends.join(", ")
    )?;
    let w = r
        .groups
        .iter()
        .map(|g| g.instruction.len())
        .max()
        .unwrap_or(0)
        .max("instruction".len());
    let m = r
        .groups
        .iter()
        .map(|g| g.mode.len())
        .max()
        .unwrap_or(0)
        .max(24);
    writeln!(
        out,
        "{:<w$}  {:<m$}  {:>7} {:>9} {:>7} {:>6} {:>6} {:>6}",
        "instruction", "mode", "fixed", "regressed", "changed", "same", "new", "gone"
    )?;
    for g in &r.groups {
        writeln!(
            out,
            "{:<w$}  {:<m$}  {:>7} {:>9} {:>7} {:>6} {:>6} {:>6}{}",
            g.instruction,
            g.mode,
            g.fixed,
            g.regressed,
            g.changed,
            g.same,
            g.new,
            g.gone,
            if g.regressed > 0 { "  REGRESSED" } else { "" }
        )?;
    }
    let t = |k: &str| r.totals.get(k).copied().unwrap_or(0);
    writeln!(
        out,
        "{:<w$}  {:<m$}  {:>7} {:>9} {:>7} {:>6} {:>6} {:>6}",
        "total",
        format!("{} groups moved", r.groups.len()),
        t("fixed"),
        t("regressed"),
        t("changed"),
        t("same"),
        t("new"),
        t("gone")
    )?;
    if r.old_unreferenced + r.new_unreferenced > 0 {
        writeln!(
            out,
            "rows without a hardware row (not compared): OLD {}, NEW {}",
            r.old_unreferenced, r.new_unreferenced
        )?;
    }
    for e in &r.examples {
        writeln!(
            out,
            "{} {} [{}]: {} -> {}\n  repro: {}",
            e.change.name(),
            e.instruction,
            e.mode,
            e.old,
            e.new,
            e.repro
        )?;
    }
    Ok(())
}

/// The regress as a Markdown table (GitHub flavour), for a pull request: one line per
/// instruction x mode that moved, regressions in bold, then the totals and the examples.
pub fn write_markdown(out: &mut impl std::io::Write, r: &Regress) -> std::io::Result<()> {
    let t = |k: &str| r.totals.get(k).copied().unwrap_or(0);
    let cell = |s: &str| s.replace('|', "\\|");
    writeln!(
        out,
        "**regress** `{}` [{}] → `{}` [{}], against the hardware reference: {} regressed, {} \
         fixed, {} changed, {} new, {} gone\n",
        cell(&r.old),
        cell(&r.old_backends.join(", ")),
        cell(&r.new),
        cell(&r.new_backends.join(", ")),
        t("regressed"),
        t("fixed"),
        t("changed"),
        t("new"),
        t("gone")
    )?;
    writeln!(
        out,
        "| instruction | mode | fixed | regressed | changed | same | new | gone |\n\
         |---|---|--:|--:|--:|--:|--:|--:|"
    )?;
    for g in &r.groups {
        let regressed = if g.regressed > 0 {
            format!("**{}**", g.regressed)
        } else {
            "0".into()
        };
        writeln!(
            out,
            "| `{}` | `{}` | {} | {} | {} | {} | {} | {} |",
            cell(&g.instruction),
            cell(&g.mode),
            g.fixed,
            regressed,
            g.changed,
            g.same,
            g.new,
            g.gone
        )?;
    }
    writeln!(
        out,
        "| **total** | {} groups moved | {} | {} | {} | {} | {} | {} |",
        r.groups.len(),
        t("fixed"),
        t("regressed"),
        t("changed"),
        t("same"),
        t("new"),
        t("gone")
    )?;
    if r.old_unreferenced + r.new_unreferenced > 0 {
        writeln!(
            out,
            "\nRows without a hardware row (not compared): OLD {}, NEW {}.",
            r.old_unreferenced, r.new_unreferenced
        )?;
    }
    if !r.examples.is_empty() {
        writeln!(out, "\n<details><summary>example rows</summary>\n")?;
        for e in &r.examples {
            writeln!(
                out,
                "- {} `{}` [`{}`]: {} → {}\n  ```\n  {}\n  ```",
                e.change.name(),
                e.instruction,
                e.mode,
                e.old,
                e.new,
                e.repro
            )?;
        }
        writeln!(out, "\n</details>")?;
    }
    Ok(())
}
