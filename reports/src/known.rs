//! Known discrepancies: a TOML data file listing differences that are understood, each with
//! a reason and the evidence for it, so that a diff separates expected from unexpected rows
//! without `if` chains in code.
//!
//! ```toml
//! [[discrepancy]]
//! instruction = "v_log_f32"          # glob(s) on the instruction under test (`*` any run, `?` one char)
//! backend = "vulkan:*"               # glob(s) on the candidate's backend
//! class = ["ulp<=1", "ulp<=k"]      # one class or a list; absent: any non-exact class
//! encoding = "0x7e144f04"            # exact body words; absent: any
//! mode = { ieee = 0, denorm32 = 3 }  # stated cells that must be equal; absent: any
//! wave = 32
//! reason = "..."                     # required: why the difference is expected
//! evidence = "..."                   # required: where it is shown (dataset rows, docs)
//! ```
//!
//! An entry matches a row when every field it states matches; the first matching entry wins.
//! A mode cell the row leaves empty never matches a stated value.

use std::path::{Path, PathBuf};

use rdnaprobe_dataset::{parse_encoding, ModeField};
use serde::Deserialize;

use crate::classify::Class;
use crate::error::{Error, Result};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    discrepancy: Vec<RawEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    instruction: Option<OneOrMany>,
    backend: Option<OneOrMany>,
    class: Option<OneOrMany>,
    encoding: Option<String>,
    mode: Option<rdnaprobe_dataset::ModeCells>,
    wave: Option<u32>,
    reason: String,
    evidence: String,
}

/// One understood difference.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Globs on the instruction under test ([`crate::subject`]); empty: any.
    pub instruction: Vec<String>,
    /// Globs on the candidate's backend; empty: any.
    pub backend: Vec<String>,
    /// Empty: every class except `exact`.
    pub classes: Vec<Class>,
    pub encoding: Option<Vec<u32>>,
    pub mode: rdnaprobe_dataset::ModeCells,
    pub wave: Option<u32>,
    pub reason: String,
    pub evidence: String,
}

/// What a known entry is compared against.
#[derive(Clone, Copy, Debug)]
pub struct Subject<'a> {
    pub mnemonic: &'a str,
    pub backend: &'a str,
    pub class: Class,
    pub encoding: &'a [u32],
    pub mode: &'a rdnaprobe_dataset::ModeCells,
    pub wave: Option<u32>,
}

/// The entries of a known-discrepancy file, in file order.
#[derive(Clone, Debug, Default)]
pub struct Known {
    pub path: Option<PathBuf>,
    pub entries: Vec<Entry>,
}

impl Known {
    /// Reads and checks a known-discrepancy file.
    pub fn load(path: &Path) -> Result<Known> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Known::parse(&text, path)
    }

    /// Parses known-discrepancy TOML; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Known> {
        let bad = |message: String| Error::Known {
            path: path.to_path_buf(),
            message,
        };
        let file: File = toml::from_str(text).map_err(|e| bad(e.to_string().trim().to_string()))?;
        let mut entries = Vec::with_capacity(file.discrepancy.len());
        for (n, raw) in file.discrepancy.into_iter().enumerate() {
            let at = |what: String| bad(format!("[[discrepancy]] #{}: {what}", n + 1));
            if raw.reason.trim().is_empty() || raw.evidence.trim().is_empty() {
                return Err(at("`reason` and `evidence` must not be empty".into()));
            }
            let classes = match raw.class {
                None => Vec::new(),
                Some(OneOrMany::One(c)) => vec![c.parse().map_err(at)?],
                Some(OneOrMany::Many(cs)) => cs
                    .iter()
                    .map(|c| c.parse::<Class>())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(at)?,
            };
            let encoding = raw
                .encoding
                .map(|e| parse_encoding(&e))
                .transpose()
                .map_err(|r| at(format!("encoding: {r}")))?;
            let mode = raw.mode.unwrap_or_default();
            if let Some((field, v)) = mode.out_of_range() {
                return Err(at(format!(
                    "mode.{} = {v}: expected 0..={}",
                    field.name(),
                    field.max()
                )));
            }
            if let Some(w) = raw.wave.filter(|w| *w != 32 && *w != 64) {
                return Err(at(format!("wave = {w}: expected 32 or 64")));
            }
            entries.push(Entry {
                instruction: raw.instruction.map(OneOrMany::into_vec).unwrap_or_default(),
                backend: raw.backend.map(OneOrMany::into_vec).unwrap_or_default(),
                classes,
                encoding,
                mode,
                wave: raw.wave,
                reason: raw.reason,
                evidence: raw.evidence,
            });
        }
        Ok(Known {
            path: Some(path.to_path_buf()),
            entries,
        })
    }

    /// The first entry that covers `subject`, if any. `exact` rows are never looked up.
    pub fn lookup(&self, subject: &Subject<'_>) -> Option<&Entry> {
        if subject.class == Class::Exact {
            return None;
        }
        self.entries.iter().find(|e| e.matches(subject))
    }
}

impl Entry {
    fn matches(&self, s: &Subject<'_>) -> bool {
        let cell = |want: Option<u8>, have: Option<u8>| want.is_none() || want == have;
        let any =
            |globs: &[String], text: &str| globs.is_empty() || globs.iter().any(|g| glob(g, text));
        any(&self.instruction, s.mnemonic)
            && any(&self.backend, s.backend)
            && (self.classes.is_empty() || self.classes.contains(&s.class))
            && self.encoding.as_deref().is_none_or(|e| e == s.encoding)
            && self.wave.is_none_or(|w| Some(w) == s.wave)
            && ModeField::ALL
                .into_iter()
                .all(|f| cell(self.mode.get(f), s.mode.get(f)))
    }
}

/// Shell-style glob with `*` (any run, also empty) and `?` (one character).
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdnaprobe_dataset::ModeCells;

    const FILE: &str = r#"
[[discrepancy]]
instruction = ["v_exp_*", "v_log_*"]
backend = "vulkan:*"
class = ["ulp<=1", "ulp<=k"]
mode = { ieee = 1 }
reason = "driver log2 is not correctly rounded"
evidence = "datasets/rdna2/log.csv rows 3-9"

[[discrepancy]]
class = "nan-payload"
reason = "NaN payloads are not preserved by SPIR-V"
evidence = "SPIR-V spec: NaN bits are not preserved"
"#;

    fn subject<'a>(
        mnemonic: &'a str,
        backend: &'a str,
        class: Class,
        mode: &'a ModeCells,
    ) -> Subject<'a> {
        Subject {
            mnemonic,
            backend,
            class,
            encoding: &[],
            mode,
            wave: Some(32),
        }
    }

    #[test]
    fn entries_match_on_every_stated_field() {
        let known = Known::parse(FILE, Path::new("k.toml")).expect("parses");
        let ieee1 = ModeCells {
            ieee: Some(1),
            ..ModeCells::default()
        };
        let unstated = ModeCells::default();
        let hit = known.lookup(&subject(
            "v_log_f32",
            "vulkan:lavapipe",
            Class::Ulp1,
            &ieee1,
        ));
        assert_eq!(
            hit.map(|e| e.reason.as_str()),
            Some("driver log2 is not correctly rounded")
        );
        assert!(known
            .lookup(&subject("v_log_f32", "cpu", Class::Ulp1, &ieee1))
            .is_none());
        assert!(known
            .lookup(&subject("v_log_f32", "vulkan:x", Class::Wrong, &ieee1))
            .is_none());
        assert!(known
            .lookup(&subject("v_log_f32", "vulkan:x", Class::Ulp1, &unstated))
            .is_none());
        let nan = known.lookup(&subject("v_add_f32", "cpu", Class::NanPayload, &unstated));
        assert!(nan.is_some_and(|e| e.evidence.starts_with("SPIR-V")));
        assert!(known
            .lookup(&subject("v_add_f32", "cpu", Class::Exact, &unstated))
            .is_none());
    }

    #[test]
    fn bad_files_name_the_entry() {
        let err = |text: &str| {
            Known::parse(text, Path::new("k.toml"))
                .unwrap_err()
                .to_string()
        };
        assert!(
            err("[[discrepancy]]\nclass = \"close\"\nreason = \"r\"\nevidence = \"e\"\n")
                .contains("#1: unknown class \"close\"")
        );
        assert!(err("[[discrepancy]]\nreason = \"r\"\n").contains("evidence"));
        assert!(
            err("[[discrepancy]]\nreason = \"r\"\nevidence = \"e\"\nmnemonic = \"x\"\n")
                .contains("unknown field")
        );
        assert!(
            err("[[discrepancy]]\nreason = \"r\"\nevidence = \"e\"\nmode = { ieee = 2 }\n")
                .contains("mode.ieee = 2")
        );
    }

    #[test]
    fn globs() {
        assert!(glob("v_*_f32", "v_add_f32"));
        assert!(glob("*", ""));
        assert!(glob("vulkan:?vidia", "vulkan:nvidia"));
        assert!(!glob("v_*_f16", "v_add_f32"));
        assert!(glob("a*b*c", "axxbyyc"));
        assert!(!glob("a*b*c", "axxbyy"));
    }
}
