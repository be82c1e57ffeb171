//! The results store: a directory of runs, content-addressed, queried with no server.
//!
//! Layout under the store directory:
//! - `objects/<sha256>/<name>.csv` (and `<name>.manifest.json`): every stored file once, named
//!   by the SHA-256 of its bytes; the original name is kept because a file's stem is its
//!   family ([`crate::input::family_of`]). Replay outputs and the hardware datasets they were
//!   replayed from live here, shared by every run that uses them.
//! - `runs/<id>/run.json`: a run's manifest ([`RunManifest`]): backend, device, driver name
//!   and version, recompiler version and commit, time, host, its outputs and their references.
//!   The id is the first 16 hex digits of the SHA-256 over the outputs' sorted hashes, so
//!   adding the same outputs again finds the run that is already there.
//! - `runs/<id>/results.parquet` (feature `polars`, [`results`]): one row per output row,
//!   classified against the hardware reference; the table that queries and `publish` scan.
//!
//! This module is plain Rust (manifests, objects, listing, resolving a run to its files), so
//! the small binary's `regress` can read runs; writing the results needs polars.

#[cfg(feature = "polars")]
pub mod exhaustive;
#[cfg(feature = "polars")]
pub mod results;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use rdnaprobe_dataset::{manifest_path, sha256_file, sha256_hex, Manifest};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::input::Input;

/// One stored file of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredFile {
    /// File name as given (`log.csv`).
    pub name: String,
    pub sha256: String,
    /// Path relative to the store directory (`objects/<sha256>/<name>`).
    pub path: String,
    pub rows: u64,
}

/// A replay output of the run and the hardware dataset it is compared with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOutput {
    pub output: StoredFile,
    /// The hardware dataset the output was replayed from (`None`: none was found).
    pub reference: Option<StoredFile>,
}

/// A run's manifest (`runs/<id>/run.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunManifest {
    pub id: String,
    /// `replay`, `sweep` (outputs of `rdnaprobe sweep`, against the hardware dataset of the
    /// same name) or `exhaustive` ([`exhaustive`]).
    pub kind: String,
    pub backend: String,
    pub device: String,
    /// Driver name (`producer.driver` of the outputs' manifests).
    pub driver: String,
    /// Driver or runtime version (`producer.runtime`), empty when not recorded.
    pub driver_version: String,
    pub recompiler_version: String,
    pub git_commit: String,
    /// When the outputs were made (their manifests' `created`, the earliest), RFC 3339 UTC.
    pub time: String,
    /// When the run was added to the store.
    pub added: String,
    pub host: String,
    pub outputs: Vec<RunOutput>,
    pub rows: u64,
    /// Rows joined to a hardware row and classified (the rows of `results.parquet`).
    pub compared: u64,
    pub exact: u64,
    pub unexpected: u64,
    /// Per class name, rows.
    pub classes: BTreeMap<String, u64>,
    /// Rows of `results.parquet` when they are not `compared`: an exhaustive run keeps only
    /// the mismatching rows it wrote, its other rows are counted in `modes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_rows: Option<u64>,
    /// Counts per instruction x mode of an exhaustive run (empty for a replay run, whose
    /// counts come from `results.parquet`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<ModeCounts>,
}

/// Counts of one mode of an exhaustive run (its `manifest.json`'s `modes_detail`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModeCounts {
    pub instruction: String,
    /// Mode label, as the results' `mode` column writes it.
    pub mode: String,
    pub rows: u64,
    /// Per class name, rows.
    pub classes: BTreeMap<String, u64>,
    pub max_ulp: Option<u64>,
}

impl RunManifest {
    /// Rows of the run's `results.parquet`.
    pub fn results_rows(&self) -> u64 {
        self.result_rows.unwrap_or(self.compared)
    }

    /// Exact share of the compared rows (0 when none was compared).
    pub fn exact_share(&self) -> f64 {
        if self.compared == 0 {
            0.0
        } else {
            self.exact as f64 / self.compared as f64
        }
    }
}

/// A store directory.
#[derive(Clone, Debug)]
pub struct Store {
    pub dir: PathBuf,
}

/// What [`Store::put`] did with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Put {
    Stored,
    AlreadyStored,
}

impl Store {
    /// The store at `dir` (created when missing).
    pub fn create(dir: &Path) -> Result<Store> {
        for sub in ["objects", "runs"] {
            fs::create_dir_all(dir.join(sub)).map_err(|e| Error::io(dir.join(sub), e))?;
        }
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    /// The store at `dir`, whether or not it exists yet (nothing is created).
    pub fn at(dir: &Path) -> Store {
        Store {
            dir: dir.to_path_buf(),
        }
    }

    /// The existing store at `dir`.
    pub fn open(dir: &Path) -> Result<Store> {
        if !dir.join("runs").is_dir() {
            return Err(Error::Usage(format!(
                "{}: not a results store (no runs/ directory; `rdnaprobe store add` makes one)",
                dir.display()
            )));
        }
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    pub fn run_dir(&self, id: &str) -> PathBuf {
        self.dir.join("runs").join(id)
    }

    /// Copies `path` (and its manifest, when it has one) into `objects/`, unless a file with
    /// the same bytes is there already. `rows`: its data rows, when the caller counted them
    /// (else they are counted here).
    pub fn put(&self, path: &Path, rows: Option<u64>) -> Result<(StoredFile, Put)> {
        let sha = sha256_file(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "data.csv".into());
        let dir = self.dir.join("objects").join(&sha);
        let rows = match rows {
            Some(n) => n,
            None => count_rows(path)?,
        };
        if let Some(existing) = self.object(&sha)? {
            return Ok((
                StoredFile {
                    name: existing.file_name().unwrap().to_string_lossy().into_owned(),
                    sha256: sha.clone(),
                    path: relative(&self.dir, &existing),
                    rows,
                },
                Put::AlreadyStored,
            ));
        }
        let tmp = self.dir.join("objects").join(format!(".tmp-{sha}"));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
        fs::copy(path, tmp.join(&name)).map_err(|e| Error::io(path, e))?;
        let manifest = manifest_path(path);
        if manifest.is_file() {
            let target = manifest_path(&tmp.join(&name));
            fs::copy(&manifest, target).map_err(|e| Error::io(&manifest, e))?;
        }
        fs::rename(&tmp, &dir).map_err(|e| Error::io(&dir, e))?;
        Ok((
            StoredFile {
                name: name.clone(),
                sha256: sha,
                path: relative(&self.dir, &dir.join(&name)),
                rows,
            },
            Put::Stored,
        ))
    }

    /// The stored file with this hash, if any.
    pub fn object(&self, sha: &str) -> Result<Option<PathBuf>> {
        let dir = self.dir.join("objects").join(sha);
        if !dir.is_dir() {
            return Ok(None);
        }
        for entry in fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let p = entry.map_err(|e| Error::io(&dir, e))?.path();
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            if !name.ends_with(".manifest.json") {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// Every run, oldest first (by `time`, then id). Hidden directories (`.tmp-<id>`, a run
    /// an interrupted add was writing) are not runs.
    pub fn runs(&self) -> Result<Vec<RunManifest>> {
        let dir = self.dir.join("runs");
        let mut runs = Vec::new();
        for entry in fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))? {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let p = entry.path().join("run.json");
            if p.is_file() {
                runs.push(read_run(&p)?);
            }
        }
        runs.sort_by(|a, b| (&a.time, &a.id).cmp(&(&b.time, &b.id)));
        Ok(runs)
    }

    /// The run whose id starts with `prefix` (exactly one must).
    pub fn find(&self, prefix: &str) -> Result<RunManifest> {
        let runs = self.runs()?;
        let hits: Vec<&RunManifest> = runs.iter().filter(|r| r.id.starts_with(prefix)).collect();
        match hits.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(Error::Usage(format!(
                "{}: no run id starts with {prefix:?} (`rdnaprobe store ls` lists them)",
                self.dir.display()
            ))),
            many => Err(Error::Usage(format!(
                "{}: {prefix:?} names {} runs ({}); give more digits",
                self.dir.display(),
                many.len(),
                many.iter()
                    .map(|r| r.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// Absolute paths of a stored file.
    pub fn path_of(&self, f: &StoredFile) -> PathBuf {
        self.dir.join(&f.path)
    }
}

/// Reads a `run.json`.
pub fn read_run(path: &Path) -> Result<RunManifest> {
    let text = fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}:{}: run manifest: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })
}

/// Writes a `run.json` (pretty, with a final newline).
pub fn write_run(path: &Path, run: &RunManifest) -> Result<()> {
    let mut text = serde_json::to_string_pretty(run).map_err(|e| Error::Usage(e.to_string()))?;
    text.push('\n');
    fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// The id of a run holding outputs with these hashes (order does not matter).
pub fn run_id(output_hashes: &[String]) -> String {
    let mut sorted = output_hashes.to_vec();
    sorted.sort();
    sorted.dedup();
    sha256_hex(sorted.join("\n").as_bytes())[..16].to_string()
}

/// Data rows of a CSV file, streamed.
fn count_rows(path: &Path) -> Result<u64> {
    let mut input = Input::open(path)?;
    let mut n = 0;
    while input.next_item()?.is_some() {
        n += 1;
    }
    Ok(n)
}

fn relative(base: &Path, p: &Path) -> String {
    p.strip_prefix(base)
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

/// The hardware dataset a replay output was made from: the manifest's
/// `provenance.inputs[0]`, found at its recorded path when the bytes still match, or else
/// among `candidates` by hash. `Ok(None)`: the output names no input.
pub fn reference_of(
    output: &Path,
    manifest: Option<&Manifest>,
    candidates: &[(PathBuf, String)],
) -> Result<Option<PathBuf>> {
    let Some(m) = manifest else {
        return Ok(None);
    };
    let Some(first) = m
        .provenance
        .get("inputs")
        .and_then(|v| v.as_array())
        .and_then(|a| a.first())
    else {
        return Ok(None);
    };
    let sha = first.get("sha256").and_then(|v| v.as_str()).unwrap_or("");
    if let Some((p, _)) = candidates.iter().find(|(_, s)| s == sha) {
        return Ok(Some(p.clone()));
    }
    if let Some(recorded) = first.get("path").and_then(|v| v.as_str()) {
        let p = PathBuf::from(recorded);
        let p = if p.is_relative() && !p.is_file() {
            output.parent().map(|d| d.join(&p)).unwrap_or(p)
        } else {
            p
        };
        if p.is_file() && sha256_file(&p)? == sha {
            return Ok(Some(p));
        }
    }
    Err(Error::Usage(format!(
        "{}: its manifest names the hardware dataset {} (sha256 {sha}), which is neither there \
         nor among --reference; pass the dataset with --reference",
        output.display(),
        first.get("path").and_then(|v| v.as_str()).unwrap_or("?")
    )))
}

/// This machine's host name (`/proc/sys/kernel/hostname`, `$HOSTNAME`, else `unknown`).
pub fn host_name() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}
