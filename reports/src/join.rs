//! Streaming join of a reference file and a candidate file on (encoding, mode cells, wave,
//! inputs). A key may occur several times; the k-th occurrence on one side pairs with the
//! k-th on the other. Rows wait in a per-key FIFO only until their partner arrives, so two
//! files in the same order (a replay keeps its input's order) join in constant memory, and
//! files in different orders still join correctly, holding only the rows not yet paired.

use std::collections::hash_map::Entry as MapEntry;
use std::collections::{HashMap, VecDeque};

use crate::error::Result;
use crate::input::{Item, Key, RowSource};

/// A reference row and the candidate row it pairs with.
#[derive(Debug)]
pub struct Pair {
    pub reference: Item,
    pub candidate: Item,
}

/// Rows left without a partner at the end of a join.
#[derive(Debug, Default)]
pub struct Leftover {
    pub reference_only: u64,
    pub candidate_only: u64,
    /// The unmatched row that comes first in its file: (is it a reference row, the row).
    pub first: Option<(bool, Item)>,
}

impl Leftover {
    pub fn is_empty(&self) -> bool {
        self.reference_only == 0 && self.candidate_only == 0
    }

    /// `reference row 12: v_add_f32 v10, v4, v5 (encoding=... inputs=...)`.
    pub fn describe_first(&self) -> String {
        match &self.first {
            None => String::new(),
            Some((is_ref, item)) => format!(
                "{} row {}: {} ({})",
                if *is_ref { "reference" } else { "candidate" },
                item.index,
                item.row.instruction,
                Key::of(&item.row)
            ),
        }
    }
}

/// A row the join can pair: its key, and a cheap test of key equality for rows in step.
pub(crate) trait Joinable {
    fn key(&self) -> Key;
    fn same_key(&self, other: &Self) -> bool;
    /// 1-based data row number in its file.
    fn index(&self) -> u64;
}

impl Joinable for Item {
    fn key(&self) -> Key {
        Key::of(&self.row)
    }

    fn same_key(&self, other: &Self) -> bool {
        same_key(self, other)
    }

    fn index(&self) -> u64 {
        self.index
    }
}

/// Rows left without a partner by [`join_rows`]: counts and the first in file order.
pub(crate) struct Unpaired<T> {
    pub reference_only: u64,
    pub candidate_only: u64,
    pub first: Option<(bool, T)>,
}

/// Pairs the rows of `reference` and `candidate`, calling `emit` for each pair (roughly in
/// reference order), and returns the rows that found no partner.
pub fn join(
    reference: &mut impl RowSource,
    candidate: &mut impl RowSource,
    mut emit: impl FnMut(Pair) -> Result<()>,
) -> Result<Leftover> {
    let left = join_rows(
        || reference.next_item(),
        || candidate.next_item(),
        |reference, candidate| {
            emit(Pair {
                reference,
                candidate,
            })
        },
    )?;
    Ok(Leftover {
        reference_only: left.reference_only,
        candidate_only: left.candidate_only,
        first: left.first,
    })
}

/// The join itself, over any kind of row: reads one reference row and one candidate row per
/// step, pairs rows in step directly and the others through per-key FIFOs.
pub(crate) fn join_rows<T: Joinable>(
    mut next_reference: impl FnMut() -> Result<Option<T>>,
    mut next_candidate: impl FnMut() -> Result<Option<T>>,
    mut emit: impl FnMut(T, T) -> Result<()>,
) -> Result<Unpaired<T>> {
    let mut pending_ref: HashMap<Key, VecDeque<T>> = HashMap::new();
    let mut pending_cand: HashMap<Key, VecDeque<T>> = HashMap::new();
    loop {
        let r = next_reference()?;
        let c = next_candidate()?;
        if r.is_none() && c.is_none() {
            break;
        }
        // Fast path: both files in step, nothing waiting.
        let (r, c) = match (r, c) {
            (Some(r), Some(c))
                if pending_ref.is_empty() && pending_cand.is_empty() && r.same_key(&c) =>
            {
                emit(r, c)?;
                continue;
            }
            other => other,
        };
        if let Some(r) = r {
            if let Some(c) = take(&mut pending_cand, &r) {
                emit(r, c)?;
            } else {
                put(&mut pending_ref, r);
            }
        }
        if let Some(c) = c {
            if let Some(r) = take(&mut pending_ref, &c) {
                emit(r, c)?;
            } else {
                put(&mut pending_cand, c);
            }
        }
    }
    let mut left: Unpaired<T> = Unpaired {
        reference_only: 0,
        candidate_only: 0,
        first: None,
    };
    for (is_ref, pending) in [(true, pending_ref), (false, pending_cand)] {
        for item in pending.into_values().flatten() {
            if is_ref {
                left.reference_only += 1;
            } else {
                left.candidate_only += 1;
            }
            let earlier = match &left.first {
                None => true,
                Some((first_is_ref, first)) => {
                    (item.index(), !is_ref) < (first.index(), !*first_is_ref)
                }
            };
            if earlier {
                left.first = Some((is_ref, item));
            }
        }
    }
    Ok(left)
}

fn same_key(a: &Item, b: &Item) -> bool {
    a.row.encoding == b.row.encoding
        && a.row.inputs == b.row.inputs
        && a.row.mode == b.row.mode
        && a.row.wave == b.row.wave
}

fn take<T: Joinable>(pending: &mut HashMap<Key, VecDeque<T>>, item: &T) -> Option<T> {
    match pending.entry(item.key()) {
        MapEntry::Occupied(mut e) => {
            let found = e.get_mut().pop_front();
            if e.get().is_empty() {
                e.remove();
            }
            found
        }
        MapEntry::Vacant(_) => None,
    }
}

fn put<T: Joinable>(pending: &mut HashMap<Key, VecDeque<T>>, item: T) {
    pending.entry(item.key()).or_default().push_back(item);
}
