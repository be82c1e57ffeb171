//! The snapshot journal of a CSV output written in chunks.
//!
//! Files beside the output `OUT.csv`: `OUT.csv.partial` (the header and every finished chunk,
//! fsynced after each chunk) and `OUT.csv.journal` (JSON: the run's key, rows done and the
//! byte length of the partial file at that point, replaced atomically after each chunk). A
//! process killed at any moment leaves a journal that points at the end of the last complete
//! chunk; resuming truncates the partial file to that length (dropping a chunk that was half
//! written) and carries on. `OUT.csv` appears by rename only when every row is in.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use rdnaprobe_dataset::{sync_dir, AtomicFile};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

fn side_path(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    out.with_file_name(name)
}

/// `OUT.partial`: the output while it is being written.
pub fn partial_path(out: &Path) -> PathBuf {
    side_path(out, ".partial")
}

/// `OUT.journal`: the snapshot.
pub fn journal_path(out: &Path) -> PathBuf {
    side_path(out, ".journal")
}

/// The journal file: the run's key (flattened), rows done and committed bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot<K> {
    #[serde(flatten)]
    pub key: K,
    pub rows_done: u64,
    pub bytes: u64,
}

/// How [`Snapshot::begin`] found the output.
pub enum Begin<K> {
    /// A run to do (fresh, or resumed after `rows_done` rows).
    Run(Snapshot<K>),
    /// `--resume` of an output that is already complete.
    Complete,
}

impl<K: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Clone> Snapshot<K> {
    /// Starts or resumes the output `out` of run `key` (`rows` rows in all). A fresh run
    /// writes `header` into the partial file. An existing journal needs `resume` and the same
    /// key; `what` names the kind of run in messages (`sweep`).
    pub fn begin(
        out: &Path,
        key: K,
        rows: u64,
        header: &[u8],
        resume: bool,
        what: &str,
    ) -> anyhow::Result<Begin<K>> {
        let label = out.display();
        let partial = partial_path(out);
        let journal_file = journal_path(out);
        if journal_file.exists() {
            if !resume {
                bail!(
                    "an unfinished {what} into {label} exists ({}): pass --resume to continue it, or delete {} and {}",
                    journal_file.display(),
                    journal_file.display(),
                    partial.display()
                );
            }
            let j: Snapshot<K> = read(&journal_file, what)?;
            if j.key != key {
                bail!(
                    "{} was written by a different {what} (spec hash, backend or shard differ): \
                     journal {:?}, now {:?}",
                    journal_file.display(),
                    j.key,
                    key
                );
            }
            if partial.exists() {
                let f = OpenOptions::new()
                    .write(true)
                    .open(&partial)
                    .with_context(|| format!("opening {}", partial.display()))?;
                let len = f.metadata()?.len();
                if len < j.bytes {
                    bail!(
                        "{} has {len} bytes, its journal says {} were committed: the file was damaged",
                        partial.display(),
                        j.bytes
                    );
                }
                // Drop whatever a killed chunk left after the last commit.
                f.set_len(j.bytes)?;
                f.sync_all()?;
            } else if !(out.exists() && j.rows_done == rows) {
                bail!(
                    "{} is missing; delete {} and start again",
                    partial.display(),
                    journal_file.display()
                );
            }
            return Ok(Begin::Run(j));
        }
        if resume && out.exists() {
            return Ok(Begin::Complete);
        }
        let mut f = fs::File::create(&partial)
            .with_context(|| format!("creating {}", partial.display()))?;
        f.write_all(header)?;
        f.sync_all()?;
        sync_dir(&partial);
        let j = Snapshot {
            key,
            rows_done: 0,
            bytes: header.len() as u64,
        };
        j.write(&journal_file)?;
        Ok(Begin::Run(j))
    }

    /// Appends `bytes` (the rows `rows`) to the partial file of `out` and syncs it; the
    /// journal then says they are committed.
    pub fn commit(&mut self, out: &Path, rows: u64, bytes: &[u8]) -> anyhow::Result<()> {
        let partial = partial_path(out);
        let mut f = append(&partial)?;
        f.write_all(bytes)
            .with_context(|| format!("appending to {}", partial.display()))?;
        f.sync_all()?;
        self.rows_done += rows;
        self.bytes += bytes.len() as u64;
        self.write(&journal_path(out))
    }

    /// Renames the partial file to `out` (if it is still there) and removes the journal.
    pub fn finish(out: &Path) -> anyhow::Result<()> {
        let partial = partial_path(out);
        if partial.exists() {
            fs::rename(&partial, out)
                .with_context(|| format!("renaming {} to {}", partial.display(), out.display()))?;
            sync_dir(out);
        }
        Ok(())
    }

    /// Removes the journal once the output and its manifest are written.
    pub fn remove(out: &Path) -> anyhow::Result<()> {
        let j = journal_path(out);
        fs::remove_file(&j).with_context(|| format!("removing {}", j.display()))
    }

    fn write(&self, path: &Path) -> anyhow::Result<()> {
        let mut f = AtomicFile::create(path)?;
        f.write_all(&serde_json::to_vec_pretty(self)?)
            .with_context(|| format!("writing {}", path.display()))?;
        f.commit()?;
        Ok(())
    }
}

/// Opens the partial file of a run to append to it.
pub fn append(partial: &Path) -> anyhow::Result<fs::File> {
    OpenOptions::new()
        .append(true)
        .open(partial)
        .with_context(|| format!("opening {}", partial.display()))
}

fn read<K: DeserializeOwned>(path: &Path, what: &str) -> anyhow::Result<Snapshot<K>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not a {what} journal", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    struct Key {
        spec_hash: String,
    }

    fn key(h: &str) -> Key {
        Key {
            spec_hash: h.into(),
        }
    }

    #[test]
    fn a_torn_chunk_is_cut_and_the_run_resumes_after_the_last_commit() {
        let dir = std::env::temp_dir().join(format!("rdnaprobe-snapshot-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let out = dir.join("out.csv");
        let Begin::Run(mut j) = Snapshot::begin(&out, key("a"), 3, b"h\n", false, "sweep").unwrap()
        else {
            panic!("a fresh run")
        };
        j.commit(&out, 2, b"r0\nr1\n").unwrap();
        // A killed chunk left half a row behind the commit.
        append(&partial_path(&out))
            .unwrap()
            .write_all(b"r2-to")
            .unwrap();
        let err = Snapshot::begin(&out, key("a"), 3, b"h\n", false, "sweep");
        assert!(format!("{:#}", err.err().unwrap()).contains("--resume"));
        let err = Snapshot::begin(&out, key("b"), 3, b"h\n", true, "sweep");
        assert!(format!("{:#}", err.err().unwrap()).contains("different sweep"));
        let Begin::Run(mut j) = Snapshot::begin(&out, key("a"), 3, b"h\n", true, "sweep").unwrap()
        else {
            panic!("a resumed run")
        };
        assert_eq!((j.rows_done, j.bytes), (2, 8));
        j.commit(&out, 1, b"r2\n").unwrap();
        Snapshot::<Key>::finish(&out).unwrap();
        Snapshot::<Key>::remove(&out).unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"h\nr0\nr1\nr2\n");
        assert!(!journal_path(&out).exists() && !partial_path(&out).exists());
        assert!(matches!(
            Snapshot::begin(&out, key("a"), 3, b"h\n", true, "sweep").unwrap(),
            Begin::Complete
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
}
