//! Dataset manifests: `NAME.manifest.json` beside `NAME.csv`, saying where the rows came from
//! (producer, sweep spec or generator, provenance), how many there are and the SHA-256 of the
//! CSV bytes, so a copied or edited dataset is detected by [`verify`].

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::DatasetError;
use crate::read::Reader;
use crate::write::AtomicFile;

/// The schema version of datasets this crate reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// Who computed the outputs of a dataset.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestProducer {
    /// Backend as spelled on the command line: `hip:gfx1036`, `vulkan:lavapipe`, `cpu`.
    pub backend: String,
    #[serde(default)]
    pub device: String,
    /// gfx target(s) of the device; several are comma separated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gfx: Option<String>,
    #[serde(default)]
    pub driver: String,
    #[serde(default)]
    pub runtime: String,
    /// Version of rdnaprobe that wrote the file (empty for imported tables).
    #[serde(default)]
    pub rdnaprobe_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_commit: Option<String>,
}

/// The manifest of one dataset file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// 1 for schema v1 CSV; 0 for a table in another format (see `format`).
    pub schema_version: u32,
    /// What the CSV is, in words (`rdnaprobe dataset schema v1`, or the other format).
    pub format: String,
    /// File name of the CSV this manifest describes.
    pub dataset: String,
    pub producer: ManifestProducer,
    /// How the rows were made, in words (sweep generators, import, replay of which inputs).
    pub generator: String,
    /// The sweep spec that made the rows, if any (as parsed, with its hash and seeds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<serde_json::Value>,
    /// Float-mode defaults used for empty mode cells, per field (replay).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub defaults: BTreeMap<String, serde_json::Value>,
    /// Number of data rows (lines after the header).
    pub rows: u64,
    /// Lower-case hex SHA-256 of the CSV bytes.
    pub sha256: String,
    /// When the CSV was written, RFC 3339 UTC.
    pub created: String,
    /// Free-form provenance: sources, claims, caveats.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub provenance: BTreeMap<String, serde_json::Value>,
}

impl Manifest {
    /// A schema v1 manifest for `csv_path` with `rows` rows and the given hash, created now.
    pub fn new_v1(csv_path: &Path, producer: ManifestProducer, rows: u64, sha256: String) -> Self {
        Manifest {
            schema_version: SCHEMA_VERSION,
            format: "rdnaprobe dataset schema v1 (docs/dataset-format.md)".into(),
            dataset: csv_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            producer,
            generator: String::new(),
            sweep: None,
            defaults: BTreeMap::new(),
            rows,
            sha256,
            created: rfc3339_utc(SystemTime::now()),
            provenance: BTreeMap::new(),
        }
    }

    /// Reads a manifest file.
    pub fn read(path: &Path) -> Result<Manifest, DatasetError> {
        let label = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| DatasetError::io(label.clone(), "read", e))?;
        serde_json::from_str(&text).map_err(|e| DatasetError::Manifest {
            file: label,
            reason: format!("line {} column {}: {e}", e.line(), e.column()),
        })
    }

    /// Writes the manifest atomically (pretty JSON, trailing newline).
    pub fn write(&self, path: &Path) -> Result<(), DatasetError> {
        let label = path.display().to_string();
        let mut text = serde_json::to_string_pretty(self).map_err(|e| DatasetError::Manifest {
            file: label.clone(),
            reason: e.to_string(),
        })?;
        text.push('\n');
        let mut f = AtomicFile::create(path)?;
        io::Write::write_all(&mut f, text.as_bytes())
            .map_err(|e| DatasetError::io(label, "write", e))?;
        f.commit()
    }
}

/// `NAME.csv` -> `NAME.manifest.json` (any other name gets `.manifest.json` appended).
pub fn manifest_path(csv_path: &Path) -> PathBuf {
    let name = csv_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".csv").unwrap_or(&name);
    csv_path.with_file_name(format!("{stem}.manifest.json"))
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    to_hex(&Sha256::digest(bytes))
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Lower-case hex SHA-256 of a file's bytes, streamed.
pub fn sha256_file(path: &Path) -> Result<String, DatasetError> {
    let label = path.display().to_string();
    let mut f = File::open(path).map_err(|e| DatasetError::io(label.clone(), "open", e))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f
            .read(&mut buf)
            .map_err(|e| DatasetError::io(label.clone(), "read", e))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(to_hex(&h.finalize()))
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub rows: u64,
    pub sha256: String,
}

/// Checks a dataset against its manifest: the SHA-256 and the row count must match, and a
/// schema v1 dataset must parse completely.
pub fn verify(csv_path: &Path) -> Result<Verified, DatasetError> {
    let mpath = manifest_path(csv_path);
    let manifest = Manifest::read(&mpath)?;
    let label = csv_path.display().to_string();
    let sha = sha256_file(csv_path)?;
    if sha != manifest.sha256 {
        return Err(DatasetError::Manifest {
            file: label,
            reason: format!(
                "SHA-256 is {sha}, {} says {}",
                mpath.display(),
                manifest.sha256
            ),
        });
    }
    let rows = if manifest.schema_version == SCHEMA_VERSION {
        let mut reader = Reader::open(csv_path)?;
        let mut n = 0u64;
        while reader.read_row()?.is_some() {
            n += 1;
        }
        n
    } else {
        // Another format: count the CSV records after the header.
        let mut r = csv::ReaderBuilder::new()
            .flexible(true)
            .from_path(csv_path)
            .map_err(|e| DatasetError::Manifest {
                file: label.clone(),
                reason: e.to_string(),
            })?;
        let mut n = 0u64;
        for rec in r.records() {
            rec.map_err(|e| DatasetError::Manifest {
                file: label.clone(),
                reason: e.to_string(),
            })?;
            n += 1;
        }
        n
    };
    if rows != manifest.rows {
        return Err(DatasetError::Manifest {
            file: label,
            reason: format!("{rows} rows, {} says {}", mpath.display(), manifest.rows),
        });
    }
    Ok(Verified { rows, sha256: sha })
}

/// Formats a time as RFC 3339 UTC with whole seconds: `2026-11-30T10:48:56Z`.
pub fn rfc3339_utc(t: SystemTime) -> String {
    let secs = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    };
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day), counting in 400-year
/// eras of 146,097 days whose years start on 1 March (so the leap day comes last).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The git commit rdnaprobe was built from: `RDNAPROBE_GIT_COMMIT` at build time if set,
/// else `git rev-parse HEAD` in the source checkout at run time; `None` without git.
pub fn git_commit() -> Option<String> {
    if let Some(c) = option_env!("RDNAPROBE_GIT_COMMIT") {
        if !c.is_empty() {
            return Some(c.to_string());
        }
    }
    let out = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rfc3339_known_instants() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400); // leap day 2000
        assert_eq!(rfc3339_utc(t), "2000-02-29T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_796_035_736);
        assert_eq!(rfc3339_utc(t), "2026-11-30T10:48:56Z");
    }

    #[test]
    fn manifest_path_replaces_csv_suffix() {
        assert_eq!(
            manifest_path(Path::new("d/f32.csv")),
            PathBuf::from("d/f32.manifest.json")
        );
        assert_eq!(
            manifest_path(Path::new("d/table")),
            PathBuf::from("d/table.manifest.json")
        );
    }

    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
