//! Round trip through the printer and the assembler: random words of every family that
//! llvm-mc-19 --disassemble accepts (with the length this crate decodes) are decoded, printed and
//! assembled again. The words must come back, or, where the random word has bits the instruction
//! does not use, the words llvm-mc-19 itself encodes for it (its `; encoding:` bytes, unused bits
//! zero). Differences with a reason are listed in tests/known-asm-differences.toml (class
//! `round-trip`).
//!
//! The test draws `ROUNDTRIP_WORDS` words (default 20,000, spread over the families); the full
//! run of 100,000 is `ROUNDTRIP_WORDS=100000 cargo test -p rdnaprobe-isa --test asm_roundtrip
//! -- --nocapture` (`ROUNDTRIP_WAVE=64` for wave64 text, `ROUNDTRIP_SEED` another draw).

#![allow(clippy::print_stdout)]

mod asm_llvm;

use std::collections::BTreeMap;

use rdnaprobe_isa::difftest::{disassemble_split, normalize, random_instruction_for, Rng};
use rdnaprobe_isa::{assemble_for, decode_one, table, Decoded, Family, Source, Wave};

#[derive(Default)]
struct Tally {
    drawn: usize,
    accepted: usize,
    exact: usize,
    canonical: usize,
    same_text: usize,
    llvm_cannot: usize,
    known: usize,
}

#[test]
fn printed_words_assemble_back() {
    if !asm_llvm::or_skip() {
        return;
    }
    let known = asm_llvm::Known::load();
    let total: usize = std::env::var("ROUNDTRIP_WORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seed = std::env::var("ROUNDTRIP_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x0019_a5e7);
    // ROUNDTRIP_WAVE=64 prints, assembles and compares lane masks for wave64.
    let wave64 = std::env::var("ROUNDTRIP_WAVE").is_ok_and(|v| v == "64");
    let wave = if wave64 { Wave::W64 } else { Wave::W32 };
    println!(
        "seed {seed}, {total} words, wave{}",
        if wave64 { 64 } else { 32 }
    );
    let families: Vec<Family> = {
        let mut f: Vec<Family> = table().rows.iter().map(|r| r.family).collect();
        f.sort_by_key(|f| f.name());
        f.dedup();
        f
    };
    let mut rng = Rng(seed);
    let mut streams: Vec<(Family, Vec<u32>)> = Vec::new();
    for fam in &families {
        // Rows llvm-mc-19 does not know have no reference (`hardware_rows_assemble_back`).
        let rows: Vec<_> = table()
            .rows
            .iter()
            .copied()
            .filter(|r| r.family == *fam && r.source == Source::Llvm)
            .collect();
        for _ in 0..total / families.len() {
            let row = rows[rng.below(rows.len())];
            let mut w = random_instruction_for(row, &mut rng);
            // llvm-mc-19 rejects memory words whose unused register fields are not zero, so
            // half of the draws clear each byte (one register field) of the second word with
            // even odds.
            let memory = matches!(
                fam,
                Family::DS | Family::FLAT | Family::GLOBAL | Family::SCRATCH | Family::MUBUF
            );
            if memory && w.len() > 1 && rng.below(2) == 0 {
                for b in 0..4 {
                    if rng.below(2) == 0 {
                        w[1] &= !(0xff << (8 * b));
                    }
                }
            }
            streams.push((*fam, w));
        }
    }
    let words: Vec<Vec<u32>> = streams.iter().map(|s| s.1.clone()).collect();
    let mut llvm = Vec::new();
    for chunk in words.chunks(4000) {
        llvm.extend(disassemble_split(chunk, wave64).expect("llvm-mc-19 runs"));
    }
    // The accepted words and the text this crate prints for each.
    let mut cases: Vec<(Family, &Vec<u32>, String, String)> = Vec::new();
    let mut tally: BTreeMap<&'static str, Tally> = BTreeMap::new();
    for ((fam, w), first) in streams.iter().zip(&llvm) {
        let t = tally.entry(fam.name()).or_default();
        t.drawn += 1;
        let Some(first) = first.as_ref().filter(|f| f.length_differs.is_none()) else {
            continue;
        };
        let Ok(Decoded::Inst(inst)) = decode_one(w, 0) else {
            continue;
        };
        t.accepted += 1;
        cases.push((*fam, w, inst.to_llvm_text(wave), normalize(&first.text)));
    }
    // The same texts assembled by llvm-mc-19: the words it writes where a random word has bits
    // the instruction does not use.
    let texts: Vec<String> = cases.iter().map(|c| c.2.clone()).collect();
    let mut reference = Vec::new();
    for chunk in texts.chunks(4000) {
        reference.extend(asm_llvm::assemble(chunk, wave64));
    }
    let mut unexplained = Vec::new();
    for ((fam, w, text, llvm_text), llvm) in cases.iter().zip(&reference) {
        let t = tally.entry(fam.name()).or_default();
        let back = assemble_for(text, wave);
        let printed_back = back.as_ref().ok().and_then(|b| match decode_one(b, 0) {
            Ok(Decoded::Inst(i)) => Some(i.to_llvm_text(wave)),
            _ => None,
        });
        match (&back, llvm) {
            (Ok(b), _) if b == *w => {
                t.exact += 1;
                continue;
            }
            (Ok(b), Ok(l)) if b == l => {
                t.canonical += 1;
                continue;
            }
            // The word had bits the instruction does not use, and llvm-mc-19 writes them
            // differently (EXP enable bits with compr, see known-asm-differences.toml).
            (Ok(b), Ok(_)) if printed_back.as_ref() == Some(text) => {
                t.same_text += 1;
                if std::env::var("SHOW_SAME_TEXT").is_ok() {
                    println!("  same text {fam}: {w:08x?} `{text}` -> {b:08x?}, llvm {llvm:08x?}");
                }
                continue;
            }
            // llvm-mc-19 prints this text for the word but does not assemble it either (an
            // operand it marks invalid, an offset or attribute out of its range).
            (Err(_), Err(_)) if normalize(text) == *llvm_text => {
                t.llvm_cannot += 1;
                continue;
            }
            _ => {}
        }
        if known.covers("round-trip", text) {
            t.known += 1;
            continue;
        }
        unexplained.push((
            *fam,
            format!(
                "{fam}: {w:08x?} `{text}` -> {:08x?} (llvm-mc-19 assembles it to {:08x?})",
                back.as_ref().map_err(|e| e.message.clone()),
                llvm
            ),
        ));
    }
    println!(
        "family   drawn  llvm-accepts  llvm-cannot  same-words  llvm-words  same-text  known  round-trip"
    );
    let mut failing = Vec::new();
    let (mut acc, mut ok) = (0, 0);
    for (fam, t) in &tally {
        let back = t.exact + t.canonical + t.same_text;
        let denom = t.accepted - t.llvm_cannot;
        let pct = if denom == 0 {
            100.0
        } else {
            100.0 * back as f64 / denom as f64
        };
        println!(
            "{fam:7} {:6} {:13} {:12} {:11} {:11} {:10} {:6} {:10.2}%",
            t.drawn, t.accepted, t.llvm_cannot, t.exact, t.canonical, t.same_text, t.known, pct
        );
        acc += denom;
        ok += back;
        if back + t.known < denom {
            failing.push(*fam);
        }
    }
    println!(
        "all     {:6} {acc:13} assemblable, {:.3}% back (same words, llvm-mc's words or same text)",
        streams.len(),
        100.0 * ok as f64 / acc.max(1) as f64
    );
    let show: usize = std::env::var("SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    // At most SHOW per family.
    let mut shown: BTreeMap<&str, usize> = BTreeMap::new();
    for (fam, u) in &unexplained {
        let n = shown.entry(fam.name()).or_default();
        *n += 1;
        if *n <= show {
            println!("  {u}");
        }
    }
    println!("{} unexplained difference(s)", unexplained.len());
    assert!(
        failing.is_empty(),
        "families whose words do not all assemble back: {failing:?}"
    );
}

/// The rows llvm-mc-19 does not know (the hardware-only MIMG rows) have no reference:
/// their printed words must assemble back to the same words or to words printed the same.
#[test]
fn hardware_rows_assemble_back() {
    let mut rng = Rng(0x0019_0bad);
    let rows: Vec<_> = table()
        .rows
        .iter()
        .copied()
        .filter(|r| r.source != rdnaprobe_isa::Source::Llvm)
        .collect();
    let (mut decoded, mut drawn, mut back) = (0, 0, 0);
    let mut bad = Vec::new();
    for row in &rows {
        for _ in 0..200 {
            let w = random_instruction_for(row, &mut rng);
            let Ok(Decoded::Inst(inst)) = decode_one(&w, 0) else {
                continue;
            };
            decoded += 1;
            let text = inst.to_llvm_text(Wave::W32);
            // Sizes the fields cannot give (the printer's default variant) are not assemblable.
            let b = match assemble_for(&text, Wave::W32) {
                Ok(b) => b,
                Err(e) => {
                    if std::env::var("SHOW_HARDWARE").is_ok() {
                        println!("  rejected `{text}`: {}", e.message);
                    }
                    continue;
                }
            };
            drawn += 1;
            let printed = match decode_one(&b, 0) {
                Ok(Decoded::Inst(i)) => i.to_llvm_text(Wave::W32),
                _ => String::new(),
            };
            if b == w || printed == text {
                back += 1;
            } else {
                bad.push(format!("{w:08x?} `{text}` -> {b:08x?} `{printed}`"));
            }
        }
    }
    println!("hardware-only rows: {decoded} decoded, {drawn} assembled, {back} back");
    assert!(bad.is_empty(), "{bad:#?}");
}
