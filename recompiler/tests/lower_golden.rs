//! Golden lowering per rule: for every rule of the registry (`recompiler/rules.toml`), the IR
//! (`ir::text`) the recompiler makes of the first table row the rule governs, lowered under the
//! lane contract (or the wave contract, for rows only it takes) in the default float mode, is
//! the committed `tests/golden/lower/<rule id>.txt`. A change in what a rule produces shows in
//! review as a change of that file; `BLESS=1 cargo test -p rdnaprobe-recompiler --test
//! lower_golden` rewrites the files. A kernel of more than `FULL_LINES` lines is pinned by its
//! first `FULL_LINES` lines and the SHA-256 of the whole text.

use std::path::{Path, PathBuf};

use rdnaprobe_isa::{table, FloatMode, Target, Wave};
use rdnaprobe_recompiler::{lower_wave_words, lower_words, rules};
use sha2::{Digest, Sha256};

const FULL_LINES: usize = 400;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/lower")
}

/// The golden text of `rule`: which row, which contract, and the kernel or why none.
fn golden(rule: &rules::Rule) -> String {
    let Some(row) = table().rows.iter().find(|r| {
        r.source == rdnaprobe_isa::Source::Llvm
            && !r.probe_words.is_empty()
            && rule.governs(r.mnemonic)
    }) else {
        return format!("rule {}: no table row with probe words\n", rule.id);
    };
    let words = &row.probe_words;
    let (mode, wave, gfx) = (FloatMode::DEFAULT, Wave::W32, Target::Gfx1030);
    let mut head = format!(
        "rule {}: {} {} ({}), {words:08x?}\n",
        rule.id, row.family, row.mnemonic, row.probe_text
    );
    let kernel = match lower_words(words, mode, wave, gfx) {
        Ok(k) => {
            head.push_str("lane contract, default mode, wave32\n");
            k
        }
        Err(lane) => match lower_wave_words(words, mode, wave, gfx) {
            Ok(k) => {
                head.push_str("wave contract, default mode, wave32\n");
                k
            }
            Err(e) => {
                return format!("{head}not lowered: lane contract: {lane}; wave contract: {e}\n")
            }
        },
    };
    let text = kernel.to_string();
    let n = text.lines().count();
    if n <= FULL_LINES {
        return format!("{head}{text}");
    }
    let first: Vec<&str> = text.lines().take(FULL_LINES).collect();
    let sha: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!(
        "{head}{}\n... {} more lines; the whole text's SHA-256: {sha}\n",
        first.join("\n"),
        n - FULL_LINES
    )
}

#[test]
fn every_rule_lowers_as_its_golden_file_says() {
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let dir = golden_dir();
    let mut stale = Vec::new();
    let registry = rules::registry();
    assert!(registry.len() > 90, "{} rules", registry.len());
    for rule in registry {
        let path = dir.join(format!("{}.txt", rule.id));
        let want = golden(rule);
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &want).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(have) if have == want => {}
            Ok(have) => {
                let line = have
                    .lines()
                    .zip(want.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(have.lines().count().min(want.lines().count()));
                stale.push(format!(
                    "{} (first difference at line {})",
                    rule.id,
                    line + 1
                ));
            }
            Err(_) => stale.push(format!("{} (no golden file)", rule.id)),
        }
    }
    // No golden file for a rule that no longer exists.
    if !bless {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let id = name.trim_end_matches(".txt");
            if rules::get(id).is_none() {
                stale.push(format!("{name}: no such rule"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{} rule(s) lower differently from tests/golden/lower (BLESS=1 rewrites them after \
         review):\n{}",
        stale.len(),
        stale.join("\n")
    );
}
