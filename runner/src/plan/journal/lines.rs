//! The append journal of a streaming run: a header line `{"format": FORMAT, "run": KEY}`,
//! where KEY names everything that decides the results, then one JSON record per line in
//! order. Lines are appended and flushed after every record and synced to disk at most once a
//! second; a torn last line is dropped on resume, so a run killed at any moment, even in the
//! middle of writing a line, continues where it stopped.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::AbortHooks;

/// How often appended lines are synced to disk.
const SYNC_EVERY: Duration = Duration::from_secs(1);

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    run: serde_json::Value,
}

/// An open journal of records `R`, appending.
pub struct Lines<R> {
    path: PathBuf,
    file: File,
    last_sync: Instant,
    hooks: AbortHooks,
    _records: PhantomData<fn(R)>,
}

impl<R: Serialize + DeserializeOwned> Lines<R> {
    /// Starts a journal for run `key`; an existing journal is an error (it belongs to an
    /// interrupted run: resume it or remove it).
    pub fn create(
        path: &Path,
        format: &str,
        key: &serde_json::Value,
        hooks: AbortHooks,
    ) -> anyhow::Result<Lines<R>> {
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
            format: format.into(),
            run: key.clone(),
        };
        serde_json::to_writer(&mut file, &header)?;
        file.write_all(b"\n")?;
        file.sync_data()
            .with_context(|| format!("syncing {}", path.display()))?;
        Ok(Lines::open(path.to_path_buf(), file, hooks))
    }

    /// Reopens the journal at `path` for run `key`: returns the records it holds (a torn last
    /// line is cut off) and the journal, ready to append. A journal of another run is refused.
    pub fn resume(
        path: &Path,
        format: &str,
        key: &serde_json::Value,
        hooks: AbortHooks,
    ) -> anyhow::Result<(Lines<R>, Vec<R>)> {
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
                if header.format != format {
                    bail!(
                        "{}:1: journal format `{}`, expected `{format}`",
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
                match serde_json::from_str::<R>(&line) {
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
        Ok((Lines::open(path.to_path_buf(), file, hooks), records))
    }

    fn open(path: PathBuf, file: File, hooks: AbortHooks) -> Lines<R> {
        Lines {
            path,
            file,
            last_sync: Instant::now(),
            hooks,
            _records: PhantomData,
        }
    }

    /// Appends record number `index` (0-based, counted over the whole run).
    pub fn append(&mut self, index: u64, r: &R) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(r)?;
        line.push(b'\n');
        if self.hooks.abort_mid == Some(index) {
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
        if self.hooks.abort_after == Some(index + 1) {
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
