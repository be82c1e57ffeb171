//! Round trip through the printer and the assembler: random words of every family that
//! llvm-mc-19 --disassemble accepts (with the length this crate decodes) are decoded, printed and
//! assembled again. The words must come back, or, where the random word has bits the instruction
//! does not use, the words llvm-mc-19 itself encodes for it (its `; encoding:` bytes, unused bits
//! zero). Differences with a reason are listed in tests/known-asm-differences.toml (class
//! `round-trip`).
//!
//! The test draws `ROUNDTRIP_WORDS` words (default 20,000, spread over the families); the full
//! run of 100,000 is `ROUNDTRIP_WORDS=100000 cargo test -p rdnaprobe-isa --test asm_roundtrip
//! -- --nocapture`.

#![allow(clippy::print_stdout)]

mod asm_llvm;

use std::collections::BTreeMap;

use rdnaprobe_isa::difftest::{disassemble_split, normalize, random_instruction_for, Rng};
use rdnaprobe_isa::{assemble_for, decode_one, table, Decoded, Family, Wave};

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
    println!("seed {seed}, {total} words");
    let families: Vec<Family> = {
        let mut f: Vec<Family> = table().rows.iter().map(|r| r.family).collect();
        f.sort_by_key(|f| f.name());
        f.dedup();
        f
    };
    let mut rng = Rng(seed);
    let mut streams: Vec<(Family, Vec<u32>)> = Vec::new();
    for fam in &families {
        let rows: Vec<_> = table()
            .rows
            .iter()
            .copied()
            .filter(|r| r.family == *fam)
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
        llvm.extend(disassemble_split(chunk, false).expect("llvm-mc-19 runs"));
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
        cases.push((
            *fam,
            w,
            inst.to_llvm_text(Wave::W32),
            normalize(&first.text),
        ));
    }
    // The same texts assembled by llvm-mc-19: the words it writes where a random word has bits
    // the instruction does not use.
    let texts: Vec<String> = cases.iter().map(|c| c.2.clone()).collect();
    let mut reference = Vec::new();
    for chunk in texts.chunks(4000) {
        reference.extend(asm_llvm::assemble(chunk, false));
    }
    let mut unexplained = Vec::new();
    for ((fam, w, text, llvm_text), llvm) in cases.iter().zip(&reference) {
        let t = tally.entry(fam.name()).or_default();
        let back = assemble_for(text, Wave::W32);
        let printed_back = back.as_ref().ok().and_then(|b| match decode_one(b, 0) {
            Ok(Decoded::Inst(i)) => Some(i.to_llvm_text(Wave::W32)),
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
            (Ok(b), _) if printed_back.as_ref() == Some(text) => {
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
