//! Known discrepancies of a backend: the `driver` entries of a known-differences file
//! (datasets/known-discrepancies.toml), in the project's one known-differences format
//! ([`rdnaprobe_isa::known`]), so that a diff separates expected from unexpected rows without
//! `if` chains in code.
//!
//! ```toml
//! [[known]]
//! id = "log-driver-approximation"    # required, unique
//! scope = "driver"                   # required
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
pub use rdnaprobe_isa::known::glob;
use rdnaprobe_isa::known::{self as format, Scope};

use crate::classify::Class;
use crate::error::{Error, Result};

/// The matchers a driver entry may state.
const DRIVER_MATCHERS: &[&str] = &[
    "instruction",
    "backend",
    "class",
    "encoding",
    "mode",
    "wave",
];

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
        let raw =
            format::parse(text, Scope::Driver, DRIVER_MATCHERS).map_err(|e| bad(e.to_string()))?;
        let mut entries = Vec::with_capacity(raw.len());
        for (n, raw) in raw.into_iter().enumerate() {
            let at = |what: String| bad(format!("[[known]] #{} ({}): {what}", n + 1, raw.id));
            let classes = raw
                .class
                .iter()
                .map(|c| c.parse::<Class>())
                .collect::<std::result::Result<_, _>>()
                .map_err(at)?;
            let encoding = raw
                .encoding
                .as_deref()
                .map(parse_encoding)
                .transpose()
                .map_err(|r| at(format!("encoding: {r}")))?;
            let mode = raw.mode.unwrap_or_default();
            entries.push(Entry {
                instruction: raw.instruction,
                backend: raw.backend,
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

#[cfg(test)]
mod tests {
    use super::*;
    use rdnaprobe_dataset::ModeCells;

    const FILE: &str = r#"
[[known]]
id = "driver-log"
scope = "driver"
instruction = ["v_exp_*", "v_log_*"]
backend = "vulkan:*"
class = ["ulp<=1", "ulp<=k"]
mode = { ieee = 1 }
reason = "driver log2 is not correctly rounded"
evidence = "datasets/rdna2/log.csv rows 3-9"

[[known]]
id = "nan-payload"
scope = "driver"
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
            err("[[known]]\nid = \"x\"\nscope = \"driver\"\nclass = \"close\"\nreason = \"r\"\nevidence = \"e\"\n")
                .contains("#1 (x): unknown class \"close\"")
        );
        assert!(
            err("[[known]]\nid = \"x\"\nscope = \"driver\"\nreason = \"r\"\n").contains("evidence")
        );
        assert!(
            err("[[known]]\nid = \"x\"\nscope = \"driver\"\nreason = \"r\"\nevidence = \"e\"\nmnemonic = \"x\"\n")
                .contains("unknown field")
        );
        assert!(
            err("[[known]]\nid = \"x\"\nscope = \"driver\"\nreason = \"r\"\nevidence = \"e\"\nmode = { ieee = 2 }\n")
                .contains("mode.ieee = 2")
        );
    }
}
