//! The journal of a streaming run: one JSON line per finished chunk (its block digests, class
//! counts, largest ULP and kept mismatching rows), so that a run killed at any moment, even in
//! the middle of writing a line, continues where it stopped (`rdnaprobe exhaustive --resume`)
//! and ends with the digest, counts and rows an uninterrupted run gives.
//!
//! Layout of `RESULT_DIR/journal.jsonl`: a header line `{"format": FORMAT, "run": KEY}`, where
//! KEY names everything that decides the results (generator, modes, wave, target, chunk size,
//! backends, mismatch cap, k), then one [`ChunkRecord`] per line in chunk order. Lines are
//! appended and flushed after every chunk and synced to disk at most once a second; a torn last
//! line is dropped on resume.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::Mismatch;

/// First line's `format`.
pub const FORMAT: &str = "rdnaprobe exhaustive journal v1";

/// How often appended lines are synced to disk.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// What one finished chunk contributed to a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// Index in the run's chunk list.
    pub chunk: u64,
    pub mode: usize,
    pub first_row: u64,
    pub rows: u64,
    /// Rows per class, indexed by [`Class::code`].
    pub classes: Vec<u64>,
    pub max_ulp: Option<u64>,
    /// Hex block digests, in row order.
    pub blocks: Vec<String>,
    /// The chunk's kept mismatching rows, in row order.
    pub mismatches: Vec<Mismatch>,
}

/// A [`Class`] in the journal: its [`Class::code`].
pub(super) mod class_code {
    use rdnaprobe_reports::classify::Class;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Class, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(c.code())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Class, D::Error> {
        let code = u32::deserialize(d)?;
        Class::from_code(code).ok_or_else(|| D::Error::custom(format!("unknown class code {code}")))
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    run: serde_json::Value,
}

/// An open journal, appending.
pub struct Journal {
    path: PathBuf,
    file: File,
    last_sync: Instant,
    /// Test hook: abort the process after this many chunk lines in this process.
    abort_after: Option<u64>,
    /// Test hook: abort the process halfway through writing this chunk's line.
    abort_mid: Option<u64>,
}

impl Journal {
    /// The journal file of result directory `dir`.
    pub fn path_in(dir: &Path) -> PathBuf {
        dir.join("journal.jsonl")
    }

    /// Starts a journal for run `key`; an existing journal is an error (it belongs to an
    /// interrupted run: resume it or remove it).
    pub fn create(path: &Path, key: &serde_json::Value) -> anyhow::Result<Journal> {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    anyhow::anyhow!(
                        "{} exists: an interrupted run is there; continue it with --resume or \
                         remove the file",
                        path.display()
                    )
                } else {
                    anyhow::Error::new(e).context(format!("creating {}", path.display()))
                }
            })?;
        let header = Header {
            format: FORMAT.into(),
            run: key.clone(),
        };
        serde_json::to_writer(&mut file, &header)?;
        file.write_all(b"\n")?;
        file.sync_data()
            .with_context(|| format!("syncing {}", path.display()))?;
        Ok(Journal::open(path.to_path_buf(), file))
    }

    /// Reopens the journal at `path` for run `key`: returns the chunks it holds (a torn last
    /// line is cut off) and the journal, ready to append. A journal of another run is refused.
    pub fn resume(
        path: &Path,
        key: &serde_json::Value,
    ) -> anyhow::Result<(Journal, Vec<ChunkRecord>)> {
        let file = File::open(path).with_context(|| {
            format!(
                "--resume: opening {} (no interrupted run there?)",
                path.display()
            )
        })?;
        let mut reader = BufReader::new(file);
        let mut line = String::new();
        let mut good_len = 0u64;
        let mut lineno = 0u64;
        let mut records = Vec::new();
        loop {
            line.clear();
            let n = reader
                .read_line(&mut line)
                .with_context(|| format!("reading {}", path.display()))?;
            if n == 0 || !line.ends_with('\n') {
                break; // end of file, or a line the interrupted run did not finish
            }
            lineno += 1;
            if lineno == 1 {
                let header: Header = serde_json::from_str(&line)
                    .with_context(|| format!("{}:1: not a journal header", path.display()))?;
                if header.format != FORMAT {
                    bail!(
                        "{}:1: journal format `{}`, expected `{FORMAT}`",
                        path.display(),
                        header.format
                    );
                }
                if &header.run != key {
                    bail!(
                        "{}: the journal is from a different run:\n  journal: {}\n  this run: {}",
                        path.display(),
                        header.run,
                        key
                    );
                }
            } else {
                match serde_json::from_str::<ChunkRecord>(&line) {
                    Ok(r) => records.push(r),
                    // A complete line that does not parse can only be the interrupted write.
                    Err(_) if reader.fill_buf().is_ok_and(|b| b.is_empty()) => break,
                    Err(e) => bail!("{}:{lineno}: {e}", path.display()),
                }
            }
            good_len += n as u64;
        }
        if lineno == 0 {
            bail!(
                "{}: empty journal (the run stopped before it began)",
                path.display()
            );
        }
        let mut file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("opening {} to append", path.display()))?;
        file.set_len(good_len)
            .and_then(|()| file.seek(SeekFrom::End(0)).map(drop))
            .and_then(|()| file.sync_data())
            .with_context(|| format!("cutting {} to its last whole line", path.display()))?;
        Ok((Journal::open(path.to_path_buf(), file), records))
    }

    fn open(path: PathBuf, file: File) -> Journal {
        let hook = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
        Journal {
            path,
            file,
            last_sync: Instant::now(),
            abort_after: hook("RDNAPROBE_EXHAUSTIVE_ABORT_AFTER_CHUNKS"),
            abort_mid: hook("RDNAPROBE_EXHAUSTIVE_ABORT_MID_CHUNK"),
        }
    }

    /// Appends one chunk's line.
    pub fn append(&mut self, r: &ChunkRecord) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(r)?;
        line.push(b'\n');
        if self.abort_mid == Some(r.chunk) {
            let _ = self.file.write_all(&line[..line.len() / 2]);
            let _ = self.file.sync_data();
            std::process::abort();
        }
        self.file
            .write_all(&line)
            .with_context(|| format!("appending to {}", self.path.display()))?;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.file
                .sync_data()
                .with_context(|| format!("syncing {}", self.path.display()))?;
            self.last_sync = Instant::now();
        }
        if self.abort_after == Some(r.chunk + 1) {
            let _ = self.file.sync_data();
            std::process::abort();
        }
        Ok(())
    }

    /// Removes the journal once the run's results are written.
    pub fn finish(self) -> anyhow::Result<()> {
        drop(self.file);
        std::fs::remove_file(&self.path)
            .with_context(|| format!("removing {}", self.path.display()))
    }
}
