//! Opening one input of a diff or report: a schema v1 dataset or a replay output, streamed
//! row by row through `rdnaprobe-dataset`'s reader, with the row's backend and status.
//!
//! Replay outputs carry `backend` and `status` as extra columns. A file without a `backend`
//! column takes its backend from its manifest (`producer.backend`), and failing that is
//! labelled [`HARDWARE`] when it has no `status` column (a measured dataset) or by its file
//! stem otherwise.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rdnaprobe_dataset::{manifest_path, Manifest, ModeCells, Reader, Row};

use crate::error::{Error, Result};
use crate::uniform::{UniformColumns, WaveStarts};

/// The label of a dataset that names no backend: hardware measurements.
pub const HARDWARE: &str = "hardware";

/// Whether a backend could run a row (`status` column of replay outputs): the lane contract's
/// status.
pub use rdnaprobe_dataset::Status;

/// One row with where it came from.
#[derive(Clone, Debug)]
pub struct Item {
    pub row: Row,
    /// 1-based data row number in its file (the header is not counted).
    pub index: u64,
    pub backend: String,
    pub status: Status,
    /// The instruction under test ([`crate::subject`]), with this file's stem as the family.
    pub under_test: Arc<str>,
    /// Where its file's wave uniform output columns sit in `row.extra` (`None`: a
    /// lane-contract file, or a row that does not start its wave).
    pub uniform: Option<UniformColumns>,
}

/// The join key: rows of two files describe the same experiment when these agree.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub encoding: Vec<u32>,
    pub wave: Option<u32>,
    pub mode: ModeCells,
    pub inputs: [u32; 6],
}

impl Key {
    pub fn of(row: &Row) -> Key {
        Key {
            encoding: row.encoding.clone(),
            wave: row.wave,
            mode: row.mode,
            inputs: row.inputs,
        }
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "encoding={} {} inputs={}",
            crate::format::encoding(&self.encoding),
            crate::format::mode(&self.mode, self.wave),
            crate::format::inputs(&self.inputs)
        )
    }
}

/// A stream of rows: one file, or several read one after the other.
pub trait RowSource {
    /// The next row, or `None` at the end.
    fn next_item(&mut self) -> Result<Option<Item>>;
}

impl RowSource for Input {
    fn next_item(&mut self) -> Result<Option<Item>> {
        Input::next_item(self)
    }
}

/// Several files read in order as one stream (opened one at a time).
pub struct Chain {
    paths: Vec<PathBuf>,
    next: usize,
    current: Option<Input>,
}

impl Chain {
    pub fn new(paths: Vec<PathBuf>) -> Chain {
        Chain {
            paths,
            next: 0,
            current: None,
        }
    }
}

impl RowSource for Chain {
    fn next_item(&mut self) -> Result<Option<Item>> {
        loop {
            if let Some(input) = &mut self.current {
                if let Some(item) = input.next_item()? {
                    return Ok(Some(item));
                }
                self.current = None;
            }
            let Some(path) = self.paths.get(self.next) else {
                return Ok(None);
            };
            self.next += 1;
            self.current = Some(Input::open(path)?);
        }
    }
}

/// A streaming input file.
pub struct Input {
    pub path: PathBuf,
    reader: Reader<std::fs::File>,
    backend_column: Option<usize>,
    status_column: Option<usize>,
    default_backend: String,
    /// The manifest beside the file, when there is one and it parses.
    pub manifest: Option<Manifest>,
    next_index: u64,
    /// The file's stem: the family name of bodies without one op under test.
    family: String,
    /// Instruction under test per (body, gfx cell), for rows with words.
    under_test: HashMap<(Vec<u32>, String), Arc<str>>,
    uniform: Option<UniformColumns>,
    starts: WaveStarts,
}

impl Input {
    /// Opens `path` (and its manifest, if present) and checks the header.
    pub fn open(path: &Path) -> Result<Input> {
        if is_parquet(path) {
            return Err(Error::Parquet {
                path: path.to_path_buf(),
                message: "a Parquet file: this command reads CSV datasets only (`diff` and \
                          `report` read Parquet)"
                    .into(),
            });
        }
        let reader = Reader::open(path)?;
        let find = |name: &str| reader.extra_columns().iter().position(|c| c == name);
        let backend_column = find("backend");
        let status_column = find("status");
        let uniform = UniformColumns::from_columns(reader.extra_columns());
        let manifest_file = manifest_path(path);
        let manifest = if manifest_file.exists() {
            Some(Manifest::read(&manifest_file)?)
        } else {
            None
        };
        // A dataset without a `status` column is a measurement (whatever GPU its manifest
        // names): it is the hardware reference. Replay outputs are labelled by their producer.
        let default_backend = if status_column.is_none() {
            HARDWARE.to_string()
        } else {
            manifest
                .as_ref()
                .map(|m| m.producer.backend.trim().to_string())
                .filter(|b| !b.is_empty())
                .unwrap_or_else(|| {
                    path.file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| "candidate".into())
                })
        };
        Ok(Input {
            path: path.to_path_buf(),
            reader,
            backend_column,
            status_column,
            default_backend,
            manifest,
            next_index: 1,
            family: family_of(path),
            under_test: HashMap::new(),
            uniform,
            starts: WaveStarts::default(),
        })
    }

    /// The backend of rows whose `backend` cell is absent or empty.
    pub fn default_backend(&self) -> &str {
        &self.default_backend
    }

    /// Positions of the `backend` and `status` columns among the extra columns.
    pub(crate) fn status_columns(&self) -> (Option<usize>, Option<usize>) {
        (self.backend_column, self.status_column)
    }

    /// The file's stem: the family of bodies without one op under test.
    /// Where the file's wave uniform output columns sit among its extra columns.
    pub(crate) fn uniform_columns(&self) -> Option<UniformColumns> {
        self.uniform
    }

    pub(crate) fn family(&self) -> &str {
        &self.family
    }

    /// Whether the file carries a `backend` column (a replay output).
    pub fn has_backend_column(&self) -> bool {
        self.backend_column.is_some()
    }

    /// Names of the extra columns, in file order.
    pub fn extra_columns(&self) -> &[String] {
        self.reader.extra_columns()
    }

    /// The next row, or `None` at the end.
    pub fn next_item(&mut self) -> Result<Option<Item>> {
        let Some(row) = self.reader.read_row()? else {
            return Ok(None);
        };
        let index = self.next_index;
        self.next_index += 1;
        let cell = |col: Option<usize>| col.and_then(|c| row.extra.get(c)).map(|s| s.trim());
        let backend = match cell(self.backend_column) {
            Some(b) if !b.is_empty() => b.to_string(),
            _ => self.default_backend.clone(),
        };
        let status = match cell(self.status_column) {
            None => Status::Ok,
            Some(text) => Status::parse(text).ok_or_else(|| Error::Status {
                path: self.path.clone(),
                row: index,
                cell: text.to_string(),
            })?,
        };
        let under_test = self.under_test_of(&row);
        // The uniform cells count on the first row of each wave only.
        let uniform = self.uniform.filter(|u| {
            let id = u.wave_id(|i| row.extra.get(i).map(String::as_str));
            self.starts
                .is_first(id, &row.encoding, &row.mode, row.wave, &row.gfx)
        });
        Ok(Some(Item {
            row,
            index,
            backend,
            status,
            under_test,
            uniform,
        }))
    }

    /// The instruction under test of `row` (cached per body and gfx cell).
    fn under_test_of(&mut self, row: &Row) -> Arc<str> {
        let target = row.target().unwrap_or(rdnaprobe_dataset::Target::DEFAULT);
        let compute = || {
            Arc::from(crate::subject::instruction_under_test(
                &row.encoding,
                &row.instruction,
                target,
                &self.family,
            ))
        };
        if row.encoding.is_empty() {
            return compute();
        }
        if let Some(k) = self
            .under_test
            .get(&(row.encoding.clone(), row.gfx.clone()))
        {
            return k.clone();
        }
        let k: Arc<str> = compute();
        self.under_test
            .insert((row.encoding.clone(), row.gfx.clone()), k.clone());
        k
    }
}

/// Whether `path` is a Parquet file: it starts with the magic bytes `PAR1` (whatever its
/// name). `false` when it cannot be read (opening it reports why).
pub fn is_parquet(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == b"PAR1"
}

/// The family name of a dataset file: its stem (`datasets/rdna2/division_f32.csv` ->
/// `division_f32`).
pub fn family_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
