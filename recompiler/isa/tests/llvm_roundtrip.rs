//! The round trip through LLVM: the text this crate prints for words llvm-mc-19 decodes is
//! assembled by llvm-mc-19, and must give back the words, or exactly the words llvm-mc-19 itself
//! writes for them (its `; encoding:` of the instruction it read: where no text of its syntax can
//! spell the words, such as a literal an inline constant holds, or bits the instruction does not
//! use). Nothing is judged by this crate's own assembler or by texts that print the same, so a
//! printed literal that reads back as another value fails here.
//!
//! Two draws: random words of every family (`difftest::random_instruction_for`), and every
//! SALU and VALU row with src0 a literal of boundary values (inline integers and floats of each
//! width, one past them, their negations, halves and high dwords), where a printer that reads a
//! literal at the wrong width prints an inline constant of another value. `LLVM_RT_WORDS`
//! (default 12,000) and `LLVM_RT_SEED` set the random draw.

#![allow(clippy::print_stdout)]

mod asm_llvm;

use std::collections::BTreeMap;

use rdnaprobe_isa::difftest::{llvm_round_trip, random_instruction_for, Rng, RoundTrip};
use rdnaprobe_isa::{table, Family, Source, Wave};

/// Literal values where an inline constant of some width and a literal can print alike.
const BOUNDARY: &[u32] = &[
    0,
    1,
    16,
    64,
    65,
    0xffff_ffff,
    0xffff_fff0,
    0xffff_ffef,
    0x3f00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc080_0000,
    0x3e22_f983,
    0x3c00,
    0xbc00,
    0x3118,
    0x3800,
    0xffff,
    0xfff0,
    0x1_0005,
    0x3ff0_0000,
    0xbff0_0000,
    0x3fe0_0000,
    0x3fc4_5f30,
    0x1234_3c00,
    0x3c00_3c00,
    0x8000_0000,
    0x7fc0_0000,
];

/// src0 as a literal: (word, low bit, width) of the src0 field and the words before a literal.
fn src0_field(family: Family) -> Option<(usize, u32, u32, usize)> {
    match family {
        Family::SOP2 | Family::SOP1 | Family::SOPC => Some((0, 0, 8, 1)),
        Family::VOP1 | Family::VOP2 | Family::VOPC => Some((0, 0, 9, 1)),
        Family::VOP3 | Family::VOP3P => Some((1, 0, 9, 2)),
        _ => None,
    }
}

fn literal_draws() -> Vec<(Family, Vec<u32>)> {
    let mut out = Vec::new();
    for row in &table().rows {
        if row.source != Source::Llvm || row.probe_words.is_empty() {
            continue;
        }
        // A promoted VOP1/VOP2/VOPC row's probe words are its short form.
        let Some((w, lo, width, len)) = src0_field(row.family) else {
            continue;
        };
        if row.probe_words.len() < len {
            continue;
        }
        for &lit in BOUNDARY {
            let mut words = row.probe_words[..len].to_vec();
            let m = ((1u32 << width) - 1) << lo;
            words[w] = (words[w] & !m) | (255 << lo);
            words.push(lit);
            out.push((row.family, words));
        }
    }
    out
}

fn random_draws(total: usize, seed: u64) -> Vec<(Family, Vec<u32>)> {
    let rows: Vec<_> = table()
        .rows
        .iter()
        .copied()
        .filter(|r| r.source == Source::Llvm)
        .collect();
    let mut rng = Rng(seed);
    (0..total)
        .map(|_| {
            let row = rows[rng.below(rows.len())];
            (row.family, random_instruction_for(row, &mut rng))
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    decoded: usize,
    same_words: usize,
    llvm_words: usize,
    as_llvm: usize,
    wrong: usize,
}

fn run(name: &str, draws: &[(Family, Vec<u32>)]) -> (BTreeMap<&'static str, Tally>, Vec<String>) {
    let words: Vec<Vec<u32>> = draws.iter().map(|d| d.1.clone()).collect();
    let trips = llvm_round_trip(&words, Wave::W32).expect("llvm-mc-19 runs");
    let mut tally: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut wrong = Vec::new();
    for ((fam, w), trip) in draws.iter().zip(trips) {
        let t = tally.entry(fam.name()).or_default();
        match trip {
            RoundTrip::NotCompared => continue,
            RoundTrip::SameWords => t.same_words += 1,
            RoundTrip::LlvmWords => t.llvm_words += 1,
            RoundTrip::LlvmText => t.as_llvm += 1,
            RoundTrip::Wrong {
                text,
                back,
                llvm_text,
                llvm_words,
            } => {
                t.wrong += 1;
                wrong.push(format!(
                    "{name} {fam}: {w:08x?} prints `{text}`; llvm-mc-19 assembles that to \
                     {back:08x?}, and writes {llvm_words:08x?} for the words (its text \
                     `{llvm_text}`)"
                ));
            }
        }
        t.decoded += 1;
    }
    (tally, wrong)
}

fn report(name: &str, tally: &BTreeMap<&'static str, Tally>) -> usize {
    println!("{name}: family  decoded  same-words  llvm's-words  llvm's-text  wrong");
    let mut n = 0;
    for (fam, t) in tally {
        println!(
            "{name}: {fam:7} {:8} {:11} {:13} {:12} {:6}",
            t.decoded, t.same_words, t.llvm_words, t.as_llvm, t.wrong
        );
        n += t.decoded;
    }
    n
}

#[test]
fn printed_text_assembles_in_llvm_mc_19_to_the_same_words() {
    if !asm_llvm::or_skip() {
        return;
    }
    let total = std::env::var("LLVM_RT_WORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12_000);
    let seed = std::env::var("LLVM_RT_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_0036);
    let mut wrong = Vec::new();
    let (lit, w) = run("literals", &literal_draws());
    wrong.extend(w);
    let n_lit = report("literals", &lit);
    let (rnd, w) = run("random", &random_draws(total, seed));
    wrong.extend(w);
    let n_rnd = report("random", &rnd);
    assert!(n_lit > 10_000, "too few literal cases decoded: {n_lit}");
    assert!(n_rnd > total / 3, "too few random words decoded: {n_rnd}");
    // Literal draws LLVM cannot spell either are few: most literals print as themselves.
    let same: usize = lit.values().map(|t| t.same_words).sum();
    assert!(
        same * 2 > n_lit,
        "only {same} of {n_lit} literal cases give back their words"
    );
    assert!(
        wrong.is_empty(),
        "{} printed text(s) llvm-mc-19 assembles to other words, first:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
