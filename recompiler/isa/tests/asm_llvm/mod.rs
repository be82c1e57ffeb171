//! llvm-mc-19 as the reference assembler: one process for a batch of lines, one result per line.

// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

pub use rdnaprobe_isa::difftest::llvm_mc_or_skip as or_skip;

/// Words of every line llvm-mc accepts, or its first error message.
pub type Outcome = Result<Vec<u32>, String>;

/// Assemble `lines` (one instruction each, no `;`) with llvm-mc-19 for gfx1030 in one process.
pub fn assemble(lines: &[String], wave64: bool) -> Vec<Outcome> {
    rdnaprobe_isa::difftest::llvm_assemble(lines, wave64).expect("llvm-mc-19 runs")
}

/// The reasoned differences of tests/known-asm-differences.toml.
#[derive(serde::Deserialize)]
pub struct Known {
    #[serde(default)]
    pub known: Vec<KnownClass>,
}

/// A reasoned difference: lines of `class` (ours-rejects, ours-accepts, encoding, round-trip)
/// whose text contains every `line_contains` substring and whose mnemonic is one of `mnemonic`
/// or starts with one of `mnemonic_prefix`.
#[derive(serde::Deserialize)]
pub struct KnownClass {
    pub id: String,
    pub class: String,
    #[serde(default)]
    pub mnemonic: Vec<String>,
    #[serde(default)]
    pub mnemonic_prefix: Vec<String>,
    #[serde(default)]
    pub line_contains: Vec<String>,
    pub reason: String,
}

pub const CLASSES: [&str; 4] = ["ours-rejects", "ours-accepts", "encoding", "round-trip"];

impl KnownClass {
    pub fn covers(&self, class: &str, line: &str) -> bool {
        let mn = line.split_whitespace().next().unwrap_or("");
        self.class == class
            && ((self.mnemonic.is_empty() && self.mnemonic_prefix.is_empty())
                || self.mnemonic.iter().any(|m| m == mn)
                || self
                    .mnemonic_prefix
                    .iter()
                    .any(|p| mn.starts_with(p.as_str())))
            && self.line_contains.iter().all(|s| line.contains(s.as_str()))
    }
}

impl Known {
    /// Read and check the file: every class is one of [`CLASSES`] and has a reason.
    pub fn load() -> Known {
        let k: Known = toml::from_str(
            &std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/known-asm-differences.toml"),
            )
            .expect("known-asm-differences.toml"),
        )
        .expect("known differences parse");
        for c in &k.known {
            assert!(
                CLASSES.contains(&c.class.as_str()) && !c.reason.trim().is_empty(),
                "{}: class must be one of {CLASSES:?}, with a reason",
                c.id
            );
        }
        k
    }

    /// The first class covering a difference of `class` on `line`.
    pub fn find(&self, class: &str, line: &str) -> Option<usize> {
        self.known.iter().position(|k| k.covers(class, line))
    }

    pub fn covers(&self, class: &str, line: &str) -> bool {
        self.find(class, line).is_some()
    }
}
