//! Golden decode files in LLVM's MC disassembler test format, one per family under
//! tests/golden/: each case is a check line `# GFX1030: <text> ; encoding: [<bytes>]` followed
//! by its input bytes. The cases are every table row's own words and, per row, a few seeded
//! random variants of its fields. The test decodes each case, prints and re-encodes it, and
//! compares; `BLESS=1 cargo test -p rdnaprobe-isa --test golden` rewrites the files from the
//! printer. A coverage test lists every table row without a golden case, and a cross-check
//! compares the golden texts with llvm-mc-19 where it decodes them.
#![allow(clippy::print_stdout)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use rdnaprobe_isa::difftest::{
    compare, llvm_mc_or_skip, random_instruction_for, row_words, KnownDifferences, Outcome, Rng,
};
use rdnaprobe_isa::{decode_one, encode, table, Decoded, Family, Wave};

/// The committed known-differences file of the printer (scripts/isa/known-differences.toml).
fn known_differences_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts/isa/known-differences.toml")
}

/// Seeded random variants per row, in addition to the row's own words.
const VARIANTS: usize = 3;
const SEED: u64 = 0x901d;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn path_of(family: Family) -> PathBuf {
    golden_dir().join(format!("{}.txt", family.name().to_lowercase()))
}

fn bytes_text(words: &[u32]) -> String {
    let b: Vec<String> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("0x{b:02x}"))
        .collect();
    b.join(",")
}

fn parse_bytes(s: &str) -> Option<Vec<u32>> {
    let bytes: Option<Vec<u8>> = s
        .split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
        .collect();
    let bytes = bytes?;
    if bytes.is_empty() || bytes.len() % 4 != 0 {
        return None;
    }
    Some(
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// One golden case: (line number, expected text, words).
type Case = (usize, String, Vec<u32>);

fn read_cases(family: Family) -> Vec<Case> {
    let text = std::fs::read_to_string(path_of(family)).unwrap_or_default();
    let mut out = Vec::new();
    let mut expect: Option<String> = None;
    for (n, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("# GFX1030: ") {
            let t = rest.split(" ; encoding:").next().unwrap_or(rest);
            expect = Some(t.to_string());
        } else if line.starts_with('#') || line.trim().is_empty() {
            continue;
        } else {
            let words = parse_bytes(line)
                .unwrap_or_else(|| panic!("{}:{}: bad bytes", path_of(family).display(), n + 1));
            let t = expect.take().unwrap_or_else(|| {
                panic!("{}:{}: no check line", path_of(family).display(), n + 1)
            });
            out.push((n + 1, t, words));
        }
    }
    out
}

/// The cases the printer generates for a family (its rows' words plus seeded variants).
fn generate(family: Family) -> String {
    let mut rng = Rng(SEED ^ family as u64);
    let mut out = format!(
        "# Golden decode cases for {}: rdnaprobe-isa's text for each word sequence, in the\n\
         # format of LLVM's MC disassembler tests. Regenerate with\n\
         # BLESS=1 cargo test -p rdnaprobe-isa --test golden\n",
        family.name()
    );
    let mut seen = BTreeSet::new();
    for row in table().rows.iter().filter(|r| r.family == family) {
        let mut streams = vec![row_words(row)];
        for _ in 0..VARIANTS {
            streams.push(random_instruction_for(row, &mut rng));
        }
        for words in streams {
            let Ok(Decoded::Inst(i)) = decode_one(&words, 0) else {
                continue;
            };
            let words = i.words().to_vec();
            if !seen.insert(words.clone()) {
                continue;
            }
            let b = bytes_text(&words);
            out.push_str(&format!(
                "\n# GFX1030: {} ; encoding: [{b}]\n{b}\n",
                i.to_llvm_text(Wave::W32)
            ));
        }
    }
    out
}

/// With `BLESS=1`, rewrite the golden files once, before any test of this file reads them.
fn bless_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::env::var("BLESS").is_ok_and(|v| v == "1") {
            std::fs::create_dir_all(golden_dir()).expect("golden dir");
            for family in Family::ALL {
                std::fs::write(path_of(family), generate(family)).expect("write golden");
            }
        }
    });
}

#[test]
fn golden_files_decode_print_and_encode() {
    bless_once();
    let mut total = 0;
    let mut failures = Vec::new();
    for family in Family::ALL {
        let cases = read_cases(family);
        assert!(
            !cases.is_empty(),
            "{}: no golden cases",
            path_of(family).display()
        );
        for (line, expect, words) in cases {
            total += 1;
            match decode_one(&words, 0) {
                Ok(Decoded::Inst(i)) if i.len() == words.len() => {
                    let got = i.to_llvm_text(Wave::W32);
                    if got != expect {
                        failures.push(format!("{}:{line}: `{got}` != `{expect}`", family));
                    }
                    if encode(&i) != words {
                        failures.push(format!("{}:{line}: re-encoding differs", family));
                    }
                }
                other => failures.push(format!("{}:{line}: decoded to {other:?}", family)),
            }
        }
    }
    println!("golden cases: {total}, failures: {}", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total > 2 * table().rows.len());
}

/// Every table row must have a golden case; the rows without one are listed.
#[test]
fn every_table_row_has_a_golden_case() {
    bless_once();
    let mut covered = BTreeSet::new();
    for family in Family::ALL {
        for (_, _, words) in read_cases(family) {
            if let Ok(Decoded::Inst(i)) = decode_one(&words, 0) {
                covered.insert((i.info().family, i.info().opcode));
            }
        }
    }
    let missing: Vec<String> = table()
        .rows
        .iter()
        .filter(|r| !covered.contains(&(r.family, r.opcode)))
        .map(|r| format!("{} {} {}", r.family, r.opcode, r.mnemonic))
        .collect();
    println!(
        "table rows: {}, with a golden case: {}, without: {}",
        table().rows.len(),
        table().rows.len() - missing.len(),
        missing.len()
    );
    assert!(
        missing.is_empty(),
        "rows without a golden case:\n{}",
        missing.join("\n")
    );
}

/// The golden texts agree with llvm-mc-19 wherever it decodes the words, apart from the known
/// classes of scripts/isa/known-differences.toml.
#[test]
fn golden_texts_agree_with_llvm_mc() {
    bless_once();
    if !llvm_mc_or_skip() {
        return;
    }
    let known = KnownDifferences::load(&known_differences_path()).expect("known differences");
    let mut streams = Vec::new();
    let mut fams = Vec::new();
    for family in Family::ALL {
        for (_, _, words) in read_cases(family) {
            streams.push(words);
            fams.push(family);
        }
    }
    let (mut decoded, mut agree, mut known_n, mut hardware) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    for (chunk, fchunk) in streams.chunks(4000).zip(fams.chunks(4000)) {
        for ((w, f), o) in chunk
            .iter()
            .zip(fchunk)
            .zip(compare(chunk, Wave::W32).expect("llvm-mc"))
        {
            match &o {
                Outcome::LlvmRejects => {}
                // Rows llvm-mc-19 does not know have no reference text.
                Outcome::HardwareOnly { .. } => hardware += 1,
                Outcome::Agree => {
                    decoded += 1;
                    agree += 1;
                }
                _ if known.classify(f.name(), &o).is_some() => {
                    decoded += 1;
                    known_n += 1;
                }
                _ => {
                    decoded += 1;
                    bad.push(format!("{f} {w:08x?} {o:?}"));
                }
            }
        }
    }
    println!(
        "golden cases vs llvm-mc: {} cases, hardware-only (not compared) {hardware}, llvm-mc \
         decodes {decoded}, agree {agree}, known-class {known_n}",
        streams.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
