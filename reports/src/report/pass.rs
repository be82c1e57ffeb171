//! The report's pass over one candidate backend, on the parallel diff
//! ([`crate::pipeline`]): the workers reduce each batch to runs of rows of one group (the
//! classes and ULP of every row, and the run's worst rows), this thread interns the groups and
//! feeds the aggregator and the worst-row lists in row order.

use std::collections::HashMap;
use std::sync::Arc;

use rdnaprobe_dataset::ModeCells;

use super::aggregate::Aggregator;
use super::{worst_row, WorstRow, WORST_PER_GROUP};
use crate::classify::Class;
use crate::diff::RowDiff;
use crate::error::Result;

/// Consecutive rows of one instruction x mode x wave x backend.
struct Run {
    mnemonic: Arc<str>,
    mode: ModeCells,
    wave: Option<u32>,
    backend: String,
    end: usize,
    /// The run's best candidates for the group's worst rows, ranked as the group's list is.
    worst: Vec<RowDiff>,
}

/// One batch of rows, reduced.
#[derive(Default)]
pub(crate) struct Batch {
    runs: Vec<Run>,
    rows: Vec<(Class, Option<u64>, bool)>,
}

impl Batch {
    /// Rows in the batch.
    pub(crate) fn rows(&self) -> u64 {
        self.rows.len() as u64
    }
}

fn rank(d: &RowDiff) -> (Class, u64) {
    (d.class, d.max_ulp.unwrap_or(u64::MAX))
}

/// Adds `d` to `list` if it ranks among the first [`WORST_PER_GROUP`] (earlier rows win ties).
fn keep_worst<T>(list: &mut Vec<T>, item: T, rank_of: impl Fn(&T) -> (Class, u64)) {
    let r = rank_of(&item);
    if list.len() < WORST_PER_GROUP || list.iter().any(|w| rank_of(w) < r) {
        list.push(item);
        list.sort_by_key(|w| std::cmp::Reverse(rank_of(w)));
        list.truncate(WORST_PER_GROUP);
    }
}

/// In a worker: one row into its batch.
pub(crate) fn fold(d: &RowDiff, b: &mut Batch) {
    let row = &d.reference.row;
    let same = b.runs.last().is_some_and(|r| {
        *r.mnemonic == *d.mnemonic()
            && r.mode == row.mode
            && r.wave == row.wave
            && r.backend == d.backend
    });
    if !same {
        b.runs.push(Run {
            mnemonic: d.reference.under_test.clone(),
            mode: row.mode,
            wave: row.wave,
            backend: d.backend.clone(),
            end: 0,
            worst: Vec::new(),
        });
    }
    b.rows.push((d.class, d.max_ulp, d.is_unexpected()));
    let run = b.runs.last_mut().expect("a run");
    run.end = b.rows.len();
    if d.class != Class::Exact && d.class != Class::NoOutputs {
        let r = rank(d);
        if run.worst.len() < WORST_PER_GROUP || run.worst.iter().any(|w| rank(w) < r) {
            keep_worst(&mut run.worst, d.clone(), rank);
        }
    }
}

/// On the report's thread: a batch into the aggregator and the worst-row lists, in row order.
pub(crate) fn absorb(
    b: Batch,
    agg: &mut Aggregator,
    worst: &mut HashMap<u32, Vec<WorstRow>>,
) -> Result<()> {
    let mut start = 0;
    for run in b.runs {
        let group = agg.group_of_parts(&run.mnemonic, &run.mode, run.wave, &run.backend);
        for &(class, ulp, unexpected) in &b.rows[start..run.end] {
            agg.add_to(group, class, ulp, unexpected)?;
        }
        start = run.end;
        for d in &run.worst {
            let list = worst.entry(group).or_default();
            let r = rank(d);
            if list.len() < WORST_PER_GROUP || list.iter().any(|w| w.rank < r) {
                keep_worst(list, worst_row(group, d), |w| w.rank);
            }
        }
    }
    Ok(())
}
