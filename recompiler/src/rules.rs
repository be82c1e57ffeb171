//! The registry of RDNA2 semantic rules: every place where the hardware differs from IEEE 754 or
//! from the ISA manual's short description, as the lowering implements it.
//!
//! The registry is data (`recompiler/rules.toml`, compiled in): an id, a one-line summary, the
//! float-mode fields the rule reads, the instructions it governs, its statement and the dataset
//! rows that show it. Code that implements a rule cites it in one line (`// rule: ID`), and the
//! rules test ties the three together: every cited id has an entry, every entry is cited, every
//! evidence row replays bit for bit on the CPU model, and docs/semantics.md is [`render_markdown`]
//! of the registry.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One semantic rule.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// Stable name, cited in code as `rule: ID` (lowercase words joined by `-`).
    pub id: String,
    /// One line: what the rule says.
    pub summary: String,
    /// The float-mode fields (dataset column names: `ieee`, `denorm32`, ...) the rule reads.
    pub modes: Vec<String>,
    /// Mnemonics the rule governs; `*` matches any run of characters (`v_cmp_*_f32`), `?` one.
    pub instructions: Vec<String>,
    /// The rule in full (Markdown).
    pub statement: String,
    /// Rows (`FILE:ROW_ID` of datasets/rdna2 or datasets/notes) or waves (`FILE:WAVE_ID` of
    /// the wave CSVs in datasets/notes and datasets/wave) that show the rule and replay bit for
    /// bit.
    pub evidence: Vec<String>,
    /// Rows that show the rule where the CPU model still differs from the hardware.
    #[serde(default)]
    pub gaps: Vec<String>,
    /// Why no shipped row shows the rule (required when `evidence` is empty).
    #[serde(default)]
    pub no_evidence: Option<String>,
}

impl Rule {
    /// Whether the rule governs `mnemonic` (one of its `instructions` patterns matches).
    pub fn governs(&self, mnemonic: &str) -> bool {
        self.instructions
            .iter()
            .any(|p| rdnaprobe_isa::known::glob(p, mnemonic))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    rule: Vec<Rule>,
}

/// The registry's source text (recompiler/rules.toml).
pub const SOURCE: &str = include_str!("../rules.toml");

/// A malformed registry: the file is compiled in, so this is a defect the rules test reports.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("recompiler/rules.toml: {0}")]
    Parse(String),
    #[error("recompiler/rules.toml: rule `{0}` is defined twice")]
    Duplicate(String),
}

/// Parses a registry text ([`SOURCE`] or another file in the same format).
pub fn parse(text: &str) -> Result<Vec<Rule>, RegistryError> {
    let file: File = toml::from_str(text).map_err(|e| RegistryError::Parse(e.to_string()))?;
    let mut seen = std::collections::HashSet::new();
    for r in &file.rule {
        if !seen.insert(r.id.as_str()) {
            return Err(RegistryError::Duplicate(r.id.clone()));
        }
    }
    Ok(file.rule)
}

/// The compiled-in registry, in file order. Empty if the file does not parse (the rules test
/// fails on that first).
pub fn registry() -> &'static [Rule] {
    static R: OnceLock<Vec<Rule>> = OnceLock::new();
    R.get_or_init(|| parse(SOURCE).unwrap_or_default())
}

/// The rule with this id.
pub fn get(id: &str) -> Option<&'static Rule> {
    registry().iter().find(|r| r.id == id)
}

/// The rules that govern `mnemonic`.
pub fn governing(mnemonic: &str) -> impl Iterator<Item = &'static Rule> + '_ {
    registry().iter().filter(move |r| r.governs(mnemonic))
}

/// Where the code cites each rule: rule id -> the citing files (relative paths) and their
/// line numbers. Built by the rules test from the source tree.
pub type Citations = BTreeMap<String, Vec<(String, usize)>>;

/// The ids cited in one source text, with their 1-based line numbers. A citation is `rule: ID`
/// at the start of a comment (`// rule: ID`, `/// rule: ID: ...`) or in parentheses
/// (`(rule: ID)`); prose such as "a shared rule: computed ..." is not one.
pub fn cited_ids(text: &str) -> Vec<(String, usize)> {
    const MARK: &str = "rule: ";
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find(MARK).map(|i| from + i) {
            from = at + MARK.len();
            let before = line[..at].trim_end();
            let cites = before.ends_with("//")
                || before.ends_with("///")
                || before.ends_with("//!")
                || before.ends_with('(');
            if !cites {
                continue;
            }
            let id: String = line[from..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect();
            let id = id.trim_end_matches('-');
            if !id.is_empty() {
                out.push((id.to_string(), n + 1));
            }
        }
    }
    out
}

/// docs/semantics.md: the registry as a document, one heading per rule, with the files that
/// cite it.
pub fn render_markdown(rules: &[Rule], citations: &Citations) -> String {
    let mut s = String::from(
        "# RDNA2 semantic rules (errata)\n\n\
         <!-- Generated from recompiler/rules.toml by `BLESS=1 cargo test -p rdnaprobe-recompiler \
         --test rules`; edit the registry, not this file. -->\n\n\
         Each heading is one rule the lowering implements where RDNA2 differs from IEEE 754 or from \
         the ISA manual's short description. Code cites a rule in one line (`// rule: ID`). Rows \
         are `FILE:ROW_ID` of `datasets/rdna2/*.csv` (the same rows as the shared `hwdata/lane`) \
         or of the rows written from the reference notes (`datasets/notes`), and whole waves are \
         `FILE:WAVE_ID` of the wave CSVs in `datasets/notes` and `datasets/wave`; every evidence \
         row and wave replays bit for bit on the CPU model (`cargo test -p \
         rdnaprobe-recompiler --test rules`). Mode fields use the kernel-descriptor convention \
         (`ieee`, `dx10_clamp`, `denorm32`, `denorm16`, `round32`, `round16`, `fp16_overflow`). \
         Rows the CPU model does not reproduce are listed with their class in \
         `recompiler/tests/expected-mismatches.toml`.\n\n",
    );
    s.push_str("| rule | summary |\n|---|---|\n");
    for r in rules {
        s.push_str(&format!("| [{0}](#{0}) | {1} |\n", r.id, r.summary));
    }
    let code = |v: &[String]| {
        v.iter()
            .map(|x| format!("`{x}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for r in rules {
        s.push_str(&format!("\n## {}\n{}\n\n", r.id, r.statement.trim()));
        if !r.modes.is_empty() {
            s.push_str(&format!("- Mode fields: {}.\n", code(&r.modes)));
        }
        if !r.instructions.is_empty() {
            s.push_str(&format!("- Instructions: {}.\n", code(&r.instructions)));
        }
        if !r.evidence.is_empty() {
            s.push_str(&format!("- Evidence: {}.\n", r.evidence.join(", ")));
        }
        if let Some(why) = &r.no_evidence {
            let why = why.split_whitespace().collect::<Vec<_>>().join(" ");
            s.push_str(&format!("- No shipped evidence: {why}\n"));
        }
        if !r.gaps.is_empty() {
            s.push_str(&format!(
                "- Known gaps (the CPU model differs): {}.\n",
                r.gaps.join(", ")
            ));
        }
        if let Some(places) = citations.get(&r.id) {
            let mut files: Vec<&str> = places.iter().map(|(f, _)| f.as_str()).collect();
            files.dedup();
            s.push_str(&format!(
                "- Code: {}.\n",
                code(&files.iter().map(|f| f.to_string()).collect::<Vec<_>>())
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn governs_by_glob() {
        let rule = Rule {
            id: "x".into(),
            summary: String::new(),
            modes: vec![],
            instructions: vec!["v_cmp_*_f32".into(), "v_add_f32".into()],
            statement: String::new(),
            evidence: vec![],
            gaps: vec![],
            no_evidence: None,
        };
        assert!(rule.governs("v_cmp_lt_f32") && rule.governs("v_add_f32"));
        assert!(!rule.governs("v_cmp_lt_f16") && !rule.governs("v_add_f32_e64"));
    }

    #[test]
    fn citations_are_found_in_each_spelling() {
        let text = "// rule: div-fmas (docs/semantics.md)\n/// bits (rule: source-modifiers).\n\
                    // rule: ldexp-f16: a flushed result\nno rule here\n\
                    /// the unary ops with a shared rule: computed exactly\n";
        let ids: Vec<_> = cited_ids(text)
            .into_iter()
            .map(|(i, n)| format!("{i}@{n}"))
            .collect();
        assert_eq!(ids, ["div-fmas@1", "source-modifiers@2", "ldexp-f16@3"]);
    }

    #[test]
    fn duplicates_are_refused() {
        let one = "[[rule]]\nid = \"a\"\nsummary = \"\"\nmodes = []\ninstructions = []\n\
                   statement = \"\"\nevidence = []\n";
        assert!(parse(one).is_ok());
        assert!(matches!(
            parse(&format!("{one}{one}")),
            Err(RegistryError::Duplicate(id)) if id == "a"
        ));
        assert!(matches!(
            parse("[[rule]]\nid = 3\n"),
            Err(RegistryError::Parse(_))
        ));
    }
}
