//! The diff at speed: the same join and classification as [`crate::diff::diff_inputs`], with
//! the work spread over the cores.
//!
//! - Each side is read in blocks of whole records (~512 KiB, [`split`]); every block is parsed
//!   on the thread pool into compact records that point into its text ([`block`]). A Parquet
//!   file (magic bytes `PAR1`) is read row group by row group into the same records
//!   (`parquet`, feature `polars`).
//! - This thread pairs the records with the streaming join ([`crate::join`]) and resolves each
//!   reference row's instruction under test (cached per body, as [`crate::input::Input`] does),
//!   cutting the pairs into batches.
//! - Every batch is classified on the pool through [`crate::diff::classify_into`] with one
//!   reused [`RowDiff`] per batch (no allocation per row), and the caller's `per_row` folds each
//!   row into the batch's accumulator (CSV bytes, aggregates, ...). The accumulators come back to
//!   `on_batch` in row order.
//!
//! Rows, summaries and errors are those of the streaming diff: the same pairs in the same
//! order, an error after the rows that precede it. Memory is bounded by the blocks read ahead
//! and the batches in flight, whatever the file sizes.

mod block;
#[cfg(feature = "polars")]
mod parquet;
mod scan;
mod split;

use std::collections::HashMap;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use rdnaprobe_dataset::{Row, Status};

use crate::diff::{classify_cells_into, Options, RowDiff, Summary};
use crate::dtype::{output_types, DwordType};
use crate::error::{Error, Result};
use crate::input::{Item, Key};
use crate::join::{join_rows, Joinable, Leftover};
use crate::uniform::{WaveStarts, NO_CELLS};
use block::{Block, FileInfo, Rec, StatusCell};
use split::Msg;

/// A callback on every reference row read: its mode cells and wave.
pub type Seen<'a> = dyn FnMut(&rdnaprobe_dataset::ModeCells, Option<u32>) + Send + 'a;

/// The report's label of a Parquet input, whether it names its backend (a candidate), and
/// its manifest ([`parquet`]).
#[cfg(feature = "polars")]
pub(crate) fn parquet_label(
    path: &Path,
) -> Result<(String, bool, Option<rdnaprobe_dataset::Manifest>)> {
    parquet::label(path)
}

/// Pairs per batch.
const BATCH: usize = 8192;

/// Output buffers handed back by `on_batch` for the next batches' accumulators: a batch's CSV
/// is about 2 MiB, and a fresh buffer of that size per batch was paid in page faults and page
/// clearing (the allocator maps and unmaps it each time).
#[derive(Debug, Default)]
pub struct Buffers(std::sync::Mutex<Vec<Vec<u8>>>);

impl Buffers {
    /// An empty buffer of at least `capacity` bytes (a returned one when there is one).
    pub fn take(&self, capacity: usize) -> Vec<u8> {
        let mut buf = self
            .0
            .lock()
            .ok()
            .and_then(|mut b| b.pop())
            .unwrap_or_default();
        buf.reserve(capacity);
        buf
    }

    /// Keeps `buf` (emptied) for a later [`Buffers::take`]; at most a few are kept.
    pub fn give(&self, mut buf: Vec<u8>) {
        buf.clear();
        if let Ok(mut b) = self.0.lock() {
            if b.len() < 8 {
                b.push(buf);
            }
        }
    }
}

/// One row of a parsed block, with its row number and (reference side) instruction under test.
struct RecRef {
    block: Arc<Block>,
    rec: u32,
    /// The row starts a wave of a wave dataset (its uniform cells are compared).
    wave_first: bool,
    index: u64,
    under_test: Arc<str>,
}

impl RecRef {
    fn rec(&self) -> &Rec {
        &self.block.recs[self.rec as usize]
    }

    /// The row as an [`Item`] (allocates: used for the rows left over).
    fn item(&self) -> Item {
        let mut item = empty_item();
        fill_item(&mut item, self, true);
        item
    }
}

impl Joinable for RecRef {
    fn key(&self) -> Key {
        let rec = self.rec();
        Key {
            encoding: self.block.words(rec).to_vec(),
            wave: rec.wave,
            mode: rec.mode,
            inputs: rec.inputs,
        }
    }

    fn same_key(&self, other: &Self) -> bool {
        let (a, b) = (self.rec(), other.rec());
        a.inputs == b.inputs
            && a.mode == b.mode
            && a.wave == b.wave
            && self.block.words(a) == other.block.words(b)
    }

    fn index(&self) -> u64 {
        self.index
    }
}

/// One side of the diff: its blocks in order, the current one and the row numbering.
struct Side<'a, 'b> {
    /// Sees every row read (reference side): the report's row and unstated-cell counts.
    seen: Option<&'a mut Seen<'b>>,
    blocks: Receiver<Msg>,
    current: Option<Arc<Block>>,
    next: usize,
    index: u64,
    /// Instructions under test of the current file, per (body, gfx cell); `None` on the
    /// candidate side, which never shows them.
    under_test: Option<UnderTest>,
    none: Arc<str>,
    /// The file of the current block (row numbers restart at 1 per file).
    file: Option<Arc<FileInfo>>,
    /// The error that ends the current block, returned after its rows.
    error: Option<Error>,
    /// A message taken by [`Side::open`].
    peeked: Option<Msg>,
    starts: WaveStarts,
}

#[derive(Default)]
struct UnderTest {
    file: Option<Arc<FileInfo>>,
    map: HashMap<(Vec<u32>, String), Arc<str>>,
    last: Option<(Vec<u32>, String, Arc<str>)>,
}

impl UnderTest {
    fn of(&mut self, block: &Block, rec: &Rec) -> Arc<str> {
        if !self
            .file
            .as_ref()
            .is_some_and(|f| Arc::ptr_eq(f, &block.file))
        {
            *self = UnderTest {
                file: Some(block.file.clone()),
                ..UnderTest::default()
            };
        }
        let words = block.words(rec);
        let gfx = block.str(rec.gfx);
        let instruction = block.str(rec.instruction);
        let compute = || {
            let target = rdnaprobe_dataset::Target::from_cell(gfx)
                .unwrap_or(rdnaprobe_dataset::Target::DEFAULT);
            Arc::<str>::from(crate::subject::instruction_under_test(
                words,
                instruction,
                target,
                &block.file.family,
            ))
        };
        if words.is_empty() {
            return compute();
        }
        if let Some((w, g, k)) = &self.last {
            if w == words && g == gfx {
                return k.clone();
            }
        }
        let key = (words.to_vec(), gfx.to_string());
        let k = self.map.entry(key.clone()).or_insert_with(compute).clone();
        self.last = Some((key.0, key.1, k.clone()));
        k
    }
}

impl Side<'_, '_> {
    /// Waits for the side's first message: an error opening its first file, or its first block.
    fn open(&mut self) -> Result<()> {
        if self.peeked.is_none() {
            match self.blocks.recv() {
                Ok(Msg::Failed(e)) => return Err(e),
                Ok(msg) => self.peeked = Some(msg),
                Err(_) => {}
            }
        }
        Ok(())
    }

    fn next(&mut self) -> Result<Option<RecRef>> {
        loop {
            if let Some(block) = &self.current {
                if let Some(rec) = block.recs.get(self.next) {
                    let rec_no = self.next;
                    self.next += 1;
                    self.index += 1;
                    if let StatusCell::Invalid(cell) = rec.status {
                        return Err(Error::Status {
                            path: block.file.path.clone(),
                            row: self.index,
                            cell: block.str(cell).to_string(),
                        });
                    }
                    if let Some(seen) = &mut self.seen {
                        seen(&rec.mode, rec.wave);
                    }
                    let under_test = match &mut self.under_test {
                        Some(cache) => cache.of(block, rec),
                        None => self.none.clone(),
                    };
                    let wave_first = block.file.uniform.is_some_and(|u| {
                        let id = u.wave_id(|i| block.extra_cell(rec, i));
                        let gfx = block.str(rec.gfx);
                        self.starts
                            .is_first(id, block.words(rec), &rec.mode, rec.wave, gfx)
                    });
                    return Ok(Some(RecRef {
                        block: block.clone(),
                        rec: rec_no as u32,
                        wave_first,
                        index: self.index,
                        under_test,
                    }));
                }
                self.current = None;
                if let Some(e) = self.error.take() {
                    return Err(e);
                }
            }
            let msg = match self.peeked.take() {
                Some(msg) => Ok(msg),
                None => self.blocks.recv(),
            };
            match msg {
                Err(_) => return Ok(None),
                Ok(Msg::Failed(e)) => return Err(e),
                Ok(Msg::Block(parsed)) => {
                    let mut block = parsed
                        .recv()
                        .map_err(|_| Error::Usage("a block parser stopped".into()))?;
                    if !self
                        .file
                        .as_ref()
                        .is_some_and(|f| Arc::ptr_eq(f, &block.file))
                    {
                        self.file = Some(block.file.clone());
                        self.index = 0;
                        self.starts = WaveStarts::default();
                    }
                    self.error = block.error.take();
                    self.current = Some(Arc::new(block));
                    self.next = 0;
                }
            }
        }
    }
}

fn empty_item() -> Item {
    Item {
        row: Row::default(),
        index: 0,
        backend: String::new(),
        status: Status::Ok,
        under_test: Arc::from(""),
        uniform: None,
    }
}

fn set(s: &mut String, v: &str) {
    s.clear();
    s.push_str(v);
}

/// Overwrites `item` with the row `r` (reusing its strings and vectors). Without `text` the
/// `source` and `note` cells are left empty: no consumer of a [`RowDiff`] reads them, and on
/// realistic rows (long provenance notes) their copy was a large part of a row's cost.
fn fill_item(item: &mut Item, r: &RecRef, text: bool) {
    let (b, rec) = (&*r.block, r.rec());
    let row = &mut item.row;
    set(&mut row.instruction, b.str(rec.instruction));
    row.encoding.clear();
    row.encoding.extend_from_slice(b.words(rec));
    row.wave = rec.wave;
    row.mode = rec.mode;
    row.inputs = rec.inputs;
    row.outputs = rec.outputs;
    set(&mut row.gfx, b.str(rec.gfx));
    if text {
        set(&mut row.source, b.str(rec.source));
        set(&mut row.note, b.str(rec.note));
    }
    let mut n = 0;
    for (k, e) in b.extra(rec).enumerate() {
        if k < row.extra.len() {
            set(&mut row.extra[k], e);
        } else {
            row.extra.push(e.to_string());
        }
        n += 1;
    }
    row.extra.truncate(n);
    item.index = r.index;
    set(&mut item.backend, b.backend(rec));
    item.status = status_of(b, rec.status);
    if !Arc::ptr_eq(&item.under_test, &r.under_test) {
        item.under_test = r.under_test.clone();
    }
    item.uniform = b.file.uniform.filter(|_| r.wave_first);
}

fn status_of(b: &Block, cell: StatusCell) -> Status {
    match cell {
        StatusCell::Ok | StatusCell::Invalid(_) => Status::Ok,
        StatusCell::Unsupported(s) => Status::Unsupported(b.str(s).to_string()),
        StatusCell::Error(s) => Status::Error(b.str(s).to_string()),
    }
}

/// Classifies one batch of pairs.
fn run_batch<A>(
    pairs: Vec<(RecRef, RecRef)>,
    options: &Options,
    make: &(dyn Fn() -> A + Sync),
    per_row: &(dyn Fn(&RowDiff, &mut A) + Sync),
) -> (A, Summary) {
    let mut acc = make();
    let mut summary = Summary::default();
    let mut d = RowDiff {
        reference: empty_item(),
        candidate_index: 0,
        backend: String::new(),
        class: crate::Class::Exact,
        max_ulp: None,
        dwords: Vec::new(),
        status_detail: None,
        known: None,
    };
    let mut types: Option<(String, Vec<u32>, [DwordType; 16])> = None;
    for (r, c) in &pairs {
        fill_item(&mut d.reference, r, false);
        let (cb, crec) = (&*c.block, c.rec());
        d.candidate_index = c.index;
        set(&mut d.backend, cb.backend(crec));
        let cand_status = status_of(cb, crec.status);
        let row = &d.reference.row;
        let fresh = !types
            .as_ref()
            .is_some_and(|(i, e, _)| *i == row.instruction && *e == row.encoding);
        if fresh {
            types = Some((
                row.instruction.clone(),
                row.encoding.clone(),
                output_types(&row.instruction, &row.encoding),
            ));
        }
        let t = types.as_ref().map(|t| t.2).expect("types");
        let cells = cb
            .file
            .uniform
            .map_or(NO_CELLS, |u| u.cells(|i| cb.extra_cell(crec, i)));
        classify_cells_into(&mut d, &t, &cand_status, &crec.outputs, &cells, options);
        summary.add(&d);
        per_row(&d, &mut acc);
    }
    (acc, summary)
}

/// Diffs the rows of `reference` (files read in order as one stream) against those of
/// `candidate` on every core. `per_row` sees every joined row, in a worker, and folds it into
/// its batch's accumulator (made by `make`); `on_batch` gets the accumulators in row order.
/// Returns the summary and the rows that found no partner.
pub fn diff_parallel<A: Send>(
    reference: &[PathBuf],
    candidate: &[PathBuf],
    options: &Options,
    make: &(dyn Fn() -> A + Sync),
    per_row: &(dyn Fn(&RowDiff, &mut A) + Sync),
    on_batch: &mut dyn FnMut(A) -> Result<()>,
) -> Result<(Summary, Leftover)> {
    run(
        reference, candidate, false, options, make, per_row, on_batch, None,
    )
}

/// [`diff_parallel`], calling `seen` with the mode cells and wave of every reference row read
/// (paired or not).
#[allow(clippy::too_many_arguments)]
pub fn diff_parallel_seen<A: Send>(
    reference: &[PathBuf],
    candidate: &[PathBuf],
    options: &Options,
    make: &(dyn Fn() -> A + Sync),
    per_row: &(dyn Fn(&RowDiff, &mut A) + Sync),
    on_batch: &mut dyn FnMut(A) -> Result<()>,
    seen: &mut Seen<'_>,
) -> Result<(Summary, Leftover)> {
    run(
        reference,
        candidate,
        false,
        options,
        make,
        per_row,
        on_batch,
        Some(seen),
    )
}

/// `open_first`: wait until both first files are open (their header errors come before any
/// row's), as [`crate::diff::diff_files`]; otherwise files open as rows are wanted, as
/// [`crate::input::Chain`] does.
#[allow(clippy::too_many_arguments)]
fn run<A: Send>(
    reference: &[PathBuf],
    candidate: &[PathBuf],
    open_first: bool,
    options: &Options,
    make: &(dyn Fn() -> A + Sync),
    per_row: &(dyn Fn(&RowDiff, &mut A) + Sync),
    on_batch: &mut dyn FnMut(A) -> Result<()>,
    seen: Option<&mut Seen<'_>>,
) -> Result<(Summary, Leftover)> {
    let in_flight_max = rayon::current_num_threads() + 2;
    std::thread::scope(|threads| {
        let mut refs = Side {
            seen,
            blocks: split::spawn(threads, reference.to_vec()),
            current: None,
            next: 0,
            index: 0,
            under_test: Some(UnderTest::default()),
            none: Arc::from(""),
            file: None,
            error: None,
            peeked: None,
            starts: WaveStarts::default(),
        };
        let mut cands = Side {
            seen: None,
            blocks: split::spawn(threads, candidate.to_vec()),
            current: None,
            next: 0,
            index: 0,
            under_test: None,
            none: Arc::from(""),
            file: None,
            error: None,
            peeked: None,
            starts: WaveStarts::default(),
        };
        if open_first {
            refs.open()?;
            cands.open()?;
        }
        rayon::in_place_scope(|pool| {
            let mut summary = Summary::default();
            let mut in_flight: VecDeque<Receiver<(A, Summary)>> = VecDeque::new();
            let mut batch: Vec<(RecRef, RecRef)> = Vec::with_capacity(BATCH);
            let mut sink_error: Option<Error> = None;
            let submit =
                |batch: Vec<(RecRef, RecRef)>, in_flight: &mut VecDeque<Receiver<(A, Summary)>>| {
                    let (tx, rx) = sync_channel(1);
                    pool.spawn(move |_| {
                        let _ = tx.send(run_batch(batch, options, make, per_row));
                    });
                    in_flight.push_back(rx);
                };
            let mut receive = |rx: Receiver<(A, Summary)>, summary: &mut Summary| -> Result<()> {
                let (acc, part) = rx
                    .recv()
                    .map_err(|_| Error::Usage("a diff worker stopped".into()))?;
                summary.merge(&part);
                on_batch(acc)
            };
            let joined = join_rows(
                || refs.next(),
                || cands.next(),
                |r, c| {
                    batch.push((r, c));
                    if batch.len() >= BATCH {
                        submit(std::mem::take(&mut batch), &mut in_flight);
                        batch.reserve(BATCH);
                        while in_flight.len() > in_flight_max {
                            let rx = in_flight.pop_front().expect("in flight");
                            if let Err(e) = receive(rx, &mut summary) {
                                sink_error = Some(e);
                                return Err(Error::Usage(String::new()));
                            }
                        }
                    }
                    Ok(())
                },
            );
            if let Some(e) = sink_error {
                return Err(e);
            }
            if !batch.is_empty() {
                submit(batch, &mut in_flight);
            }
            // Rows before an error are delivered before it, as the streaming diff does.
            for rx in in_flight {
                receive(rx, &mut summary)?;
            }
            let left = joined?;
            Ok((
                summary,
                Leftover {
                    reference_only: left.reference_only,
                    candidate_only: left.candidate_only,
                    first: left.first.map(|(is_ref, r)| (is_ref, r.item())),
                },
            ))
        })
    })
}

/// [`diff_parallel`] over two files, as [`crate::diff::diff_files`]: both files are opened
/// (headers checked) before any row is read, and rows on one side only are an error naming the
/// first such row and the counts.
pub fn diff_paths<A: Send>(
    reference: &Path,
    candidate: &Path,
    options: &Options,
    make: &(dyn Fn() -> A + Sync),
    per_row: &(dyn Fn(&RowDiff, &mut A) + Sync),
    on_batch: &mut dyn FnMut(A) -> Result<()>,
) -> Result<Summary> {
    let (summary, leftover) = run(
        &[reference.to_path_buf()],
        &[candidate.to_path_buf()],
        true,
        options,
        make,
        per_row,
        on_batch,
        None,
    )?;
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
