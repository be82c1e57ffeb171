//! Known differences: the one data format for every difference the project understands and
//! accepts, each with its reason and its evidence, so that code never holds `if` chains of
//! exceptions. Three kinds of comparison read it, each from its own file:
//!
//! | scope | compares | file |
//! |---|---|---|
//! | `printer` | this crate's decoder/printer vs `llvm-mc-19` | scripts/isa/known-differences.toml |
//! | `hardware` | the CPU model vs the hardware rows | recompiler/tests/expected-mismatches.toml |
//! | `driver` | a backend's output vs the reference in `diff`/`report` | datasets/known-discrepancies.toml |
//!
//! ```toml
//! [[known]]
//! id = "transcendental-approximation"  # required, unique in the file
//! scope = "hardware"                   # required: printer | hardware | driver
//! rule = "transcendental-approximation" # optional: the rule (recompiler/rules.toml) it concerns
//! reason = "..."                       # required: why the difference is expected
//! evidence = "..."                     # required: where it is shown
//! # Matchers: an entry covers a difference when every matcher it states matches.
//! rows = ["log:21", "log:23"]          # FILE:ROW_ID of a dataset row (hardware, driver)
//! instruction = ["v_exp_*", "v_log_*"] # globs on the instruction under test (hardware, driver)
//! backend = "vulkan:*"                 # globs on the candidate's backend (driver)
//! class = ["ulp<=1", "ulp<=k"]         # diff classes; absent: any non-exact class (driver)
//! encoding = "0x7e144f04"              # exact body words (driver)
//! mode = { ieee = 0, denorm32 = 3 }    # stated mode cells that must be equal (driver)
//! wave = 32                            # (driver)
//! families = ["MUBUF"]                 # the family this crate decoded (printer)
//! outcome = "text"                     # text | length | ours-unsupported (printer)
//! mnemonics = ["image_atomic_swap"]    # llvm-mc's mnemonic (printer)
//! llvm_contains = ["/*Invalid"]        # substrings of llvm-mc's text (printer)
//! ours_contains = ["invalid_operand"]  # substrings of this crate's text (printer)
//! ```
//! A string matcher may be one string or a list. Each reader checks that the entries of its file
//! have its scope and use only the matchers it understands.

use rdnaprobe_contract::ModeCells;
use serde::Deserialize;

/// Which comparison an entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Decoder/printer vs llvm-mc.
    Printer,
    /// CPU model vs the hardware rows.
    Hardware,
    /// A backend vs the reference, in `diff` and `report`.
    Driver,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Printer => "printer",
            Scope::Hardware => "hardware",
            Scope::Driver => "driver",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(s)) => vec![s],
        Some(OneOrMany::Many(v)) => v,
    })
}

/// One understood difference.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct KnownEntry {
    pub id: String,
    pub scope: Scope,
    #[serde(default)]
    pub rule: Option<String>,
    pub reason: String,
    pub evidence: String,
    #[serde(default, deserialize_with = "one_or_many")]
    pub rows: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub instruction: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub backend: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub class: Vec<String>,
    #[serde(default)]
    pub encoding: Option<String>,
    #[serde(default)]
    pub mode: Option<ModeCells>,
    #[serde(default)]
    pub wave: Option<u32>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub families: Vec<String>,
    #[serde(default)]
    pub outcome: Option<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub mnemonics: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub llvm_contains: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub ours_contains: Vec<String>,
}

impl KnownEntry {
    /// The matchers this entry states, by field name.
    pub fn matchers(&self) -> Vec<&'static str> {
        let mut m = Vec::new();
        let mut add = |name, present: bool| {
            if present {
                m.push(name);
            }
        };
        add("rows", !self.rows.is_empty());
        add("instruction", !self.instruction.is_empty());
        add("backend", !self.backend.is_empty());
        add("class", !self.class.is_empty());
        add("encoding", self.encoding.is_some());
        add("mode", self.mode.is_some());
        add("wave", self.wave.is_some());
        add("families", !self.families.is_empty());
        add("outcome", self.outcome.is_some());
        add("mnemonics", !self.mnemonics.is_empty());
        add("llvm_contains", !self.llvm_contains.is_empty());
        add("ours_contains", !self.ours_contains.is_empty());
        m
    }

    /// Whether `text` matches one of the instruction globs (or none is stated).
    pub fn instruction_matches(&self, mnemonic: &str) -> bool {
        self.instruction.is_empty() || self.instruction.iter().any(|g| glob(g, mnemonic))
    }

    /// Whether `backend` matches one of the backend globs (or none is stated).
    pub fn backend_matches(&self, backend: &str) -> bool {
        self.backend.is_empty() || self.backend.iter().any(|g| glob(g, backend))
    }
}

/// A known-differences file that does not parse or breaks a rule of the format. `entry` is the
/// 1-based position of the offending `[[known]]` table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KnownError {
    #[error("{0}")]
    Toml(String),
    #[error("[[known]] #{entry} ({id}): {message}")]
    Entry {
        entry: usize,
        id: String,
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    known: Vec<KnownEntry>,
}

/// Parses a known-differences file whose entries must all have `scope` and state only the
/// matchers in `allowed`.
pub fn parse(text: &str, scope: Scope, allowed: &[&str]) -> Result<Vec<KnownEntry>, KnownError> {
    let file: File =
        toml::from_str(text).map_err(|e| KnownError::Toml(e.to_string().trim().into()))?;
    let mut seen = std::collections::HashSet::new();
    for (i, e) in file.known.iter().enumerate() {
        let bad = |message: String| KnownError::Entry {
            entry: i + 1,
            id: e.id.clone(),
            message,
        };
        if e.id.trim().is_empty() {
            return Err(bad("`id` must not be empty".into()));
        }
        if !seen.insert(e.id.as_str()) {
            return Err(bad("`id` is used by an earlier entry".into()));
        }
        if e.scope != scope {
            return Err(bad(format!(
                "scope `{}` in a file of `{}` entries",
                e.scope.name(),
                scope.name()
            )));
        }
        if e.reason.trim().is_empty() || e.evidence.trim().is_empty() {
            return Err(bad("`reason` and `evidence` must not be empty".into()));
        }
        if let Some(m) = e.matchers().into_iter().find(|m| !allowed.contains(m)) {
            return Err(bad(format!(
                "`{m}` is not a matcher of {} entries (they take: {})",
                scope.name(),
                allowed.join(", ")
            )));
        }
        if let Some((field, v)) = e.mode.and_then(|m| m.out_of_range()) {
            return Err(bad(format!(
                "mode.{} = {v}: expected 0..={}",
                field.name(),
                field.max()
            )));
        }
        if let Some(w) = e.wave.filter(|w| *w != 32 && *w != 64) {
            return Err(bad(format!("wave = {w}: expected 32 or 64")));
        }
    }
    Ok(file.known)
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

    const DRIVER: &[&str] = &["instruction", "backend", "class", "mode"];

    #[test]
    fn parses_and_checks_each_entry() {
        let ok = "[[known]]\nid = \"a\"\nscope = \"driver\"\nreason = \"r\"\nevidence = \"e\"\n\
                  instruction = \"v_log_*\"\nclass = [\"ulp<=1\", \"ulp<=k\"]\nmode = { ieee = 1 }\n";
        let e = parse(ok, Scope::Driver, DRIVER).expect("parses");
        assert_eq!(e[0].instruction, ["v_log_*"]);
        assert_eq!(e[0].class.len(), 2);
        assert!(e[0].instruction_matches("v_log_f32") && !e[0].instruction_matches("v_exp_f32"));
        let err = |t: &str| parse(t, Scope::Driver, DRIVER).unwrap_err().to_string();
        assert!(err(&ok.replace("driver", "hardware")).contains("#1 (a): scope `hardware`"));
        assert!(err(&format!("{ok}{ok}")).contains("#2 (a): `id` is used"));
        assert!(err(&ok.replace("ieee = 1", "ieee = 2")).contains("mode.ieee = 2"));
        assert!(err(&format!("{ok}rows = [\"log:1\"]\n")).contains("`rows` is not a matcher"));
        assert!(
            err(&ok.replace("evidence = \"e\"", "evidence = \" \"")).contains("must not be empty")
        );
        assert!(err(&format!("{ok}colour = 1\n")).contains("unknown field"));
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
