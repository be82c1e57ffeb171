//! llvm-mc-19 as the reference assembler: one process for a batch of lines, one result per line.

// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

pub use rdnaprobe_isa::difftest::LLVM_MC;

pub use rdnaprobe_isa::difftest::llvm_mc_or_skip as or_skip;

/// Words of every line llvm-mc accepts, or its first error message.
pub type Outcome = Result<Vec<u32>, String>;

/// Assemble `lines` (one instruction each, no `;`) with llvm-mc-19 for gfx1030 in one process.
pub fn assemble(lines: &[String], wave64: bool) -> Vec<Outcome> {
    let mut child = Command::new(LLVM_MC)
        .args([
            "-arch=amdgcn",
            "-mcpu=gfx1030",
            if wave64 {
                "-mattr=+wavefrontsize64"
            } else {
                "-mattr=+wavefrontsize32"
            },
            "-show-encoding",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc-19 starts");
    let mut input = String::new();
    for l in lines {
        assert!(!l.contains(';') && !l.contains('\n'), "{l}");
        input.push_str(l);
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc-19 runs");
    writer.join().expect("writer").expect("write to llvm-mc-19");
    let mut errors: Vec<Option<String>> = vec![None; lines.len()];
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        let Some(rest) = l.strip_prefix("<stdin>:") else {
            continue;
        };
        let mut p = rest.splitn(3, ':');
        let (Some(ln), Some(_col), Some(msg)) = (p.next(), p.next(), p.next()) else {
            continue;
        };
        let Some(msg) = msg.trim().strip_prefix("error:") else {
            continue;
        };
        if let Ok(n) = ln.parse::<usize>() {
            if (1..=lines.len()).contains(&n) && errors[n - 1].is_none() {
                errors[n - 1] = Some(msg.trim().to_string());
            }
        }
    }
    let mut encodings = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once("; encoding: [").map(|(_, e)| e.to_string()))
        .collect::<Vec<_>>()
        .into_iter();
    errors
        .into_iter()
        .map(|e| match e {
            Some(m) => Err(m),
            None => {
                let e = encodings.next().expect("one encoding per accepted line");
                let bytes: Vec<u8> = e
                    .trim_end_matches(']')
                    .split(',')
                    .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
                    .collect();
                Ok(bytes
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect())
            }
        })
        .collect()
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
