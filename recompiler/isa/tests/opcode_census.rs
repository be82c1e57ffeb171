//! The opcode census: every value of every encoding's opcode field, MSBs included, decoded by
//! this crate and by llvm-mc-19. Where llvm-mc knows the value, the decoder must name the same
//! instruction; where it knows none, the decoder must refuse the words, except for the table's
//! hardware rows (each carries its evidence). A second sweep sets each bit the layouts call
//! reserved, one at a time, over every opcode value: an opcode bit the layouts dropped (the MUBUF
//! opcode's bit 7 in word0 bit 25 was one) decodes in llvm-mc as another instruction.
//!
//! The opcode fields below are the encodings' own definitions (the RDNA2 ISA's microcode
//! formats, and LLVM's `*_Real_gfx10` encodings for the split fields), not this crate's layouts,
//! so the census does not inherit their mistakes. The operand bits come from the table's probe
//! words of the family (several shapes each), so every value is tried with operands llvm-mc
//! accepts for some row of the family.

use std::collections::{BTreeMap, BTreeSet};

use rdnaprobe_isa::decode::{decode_one, Decoded};
use rdnaprobe_isa::difftest::{disassemble_split, llvm_mc_or_skip};
use rdnaprobe_isa::layout::{self, Field, Slot};
use rdnaprobe_isa::table::{self, Family, Source};
use rdnaprobe_isa::Opcode;

/// One opcode bit range: (word, low bit, width), listed from the opcode's bit 0 up.
type Part = (usize, u32, u32);

/// A family's opcode field and how many of its values are that family's (the rest of a short
/// field's range are other encodings' prefixes: SOP2 0x60.. is SOPK/SOP1/SOPC/SOPP, ...).
struct Census {
    family: Family,
    parts: &'static [Part],
    values: u32,
    layout: &'static [Slot],
}

const CENSUS: &[Census] = &[
    c(Family::SOP2, &[(0, 23, 7)], 0x60, layout::SOP2),
    c(Family::SOPK, &[(0, 23, 5)], 0x1d, layout::SOPK),
    c(Family::SOP1, &[(0, 8, 8)], 0x100, layout::SOP1),
    c(Family::SOPC, &[(0, 16, 7)], 0x80, layout::SOPC),
    c(Family::SOPP, &[(0, 16, 7)], 0x80, layout::SOPP),
    c(Family::SMEM, &[(0, 18, 8)], 0x100, layout::SMEM),
    c(Family::VOP1, &[(0, 9, 8)], 0x100, layout::VOP1),
    c(Family::VOP2, &[(0, 25, 6)], 0x3e, layout::VOP2),
    c(Family::VOPC, &[(0, 17, 8)], 0x100, layout::VOPC),
    c(Family::VOP3, &[(0, 16, 10)], 0x400, layout::VOP3),
    c(Family::VOP3P, &[(0, 16, 7)], 0x80, layout::VOP3P),
    c(Family::VINTRP, &[(0, 16, 2)], 0x4, layout::VINTRP),
    c(Family::DS, &[(0, 18, 8)], 0x100, layout::DS),
    // MUBUF: OP[6:0] in word0 24:18, OP[7] in word0 25.
    c(
        Family::MUBUF,
        &[(0, 18, 7), (0, 25, 1)],
        0x100,
        layout::MUBUF,
    ),
    // MTBUF: OP[2:0] in word0 18:16, OP[3] in word1 21.
    c(
        Family::MTBUF,
        &[(0, 16, 3), (1, 21, 1)],
        0x10,
        layout::MTBUF,
    ),
    c(Family::FLAT, &[(0, 18, 7)], 0x80, layout::FLAT),
    c(Family::GLOBAL, &[(0, 18, 7)], 0x80, layout::FLAT),
    c(Family::SCRATCH, &[(0, 18, 7)], 0x80, layout::FLAT),
    // MIMG: OP[6:0] in word0 24:18, OP[7] in word0 0.
    c(Family::MIMG, &[(0, 18, 7), (0, 0, 1)], 0x100, layout::MIMG),
];

const fn c(family: Family, parts: &'static [Part], values: u32, layout: &'static [Slot]) -> Census {
    Census {
        family,
        parts,
        values,
        layout,
    }
}

fn with_opcode(words: &[u32], parts: &[Part], op: u32) -> Vec<u32> {
    let mut w = words.to_vec();
    let mut shift = 0;
    for &(i, lo, width) in parts {
        let m = ((1u32 << width) - 1) << lo;
        w[i] = (w[i] & !m) | (((op >> shift) << lo) & m);
        shift += width;
    }
    w
}

/// Up to `n` operand shapes of a family: its rows' probe words with the opcode cleared, distinct,
/// spread over the table.
fn templates(cen: &Census, n: usize) -> Vec<Vec<u32>> {
    let mut seen = BTreeSet::new();
    let rows: Vec<_> = table::table()
        .rows
        .iter()
        .filter(|r| r.family == cen.family && r.source == Source::Llvm && !r.probe_words.is_empty())
        .collect();
    for r in &rows {
        seen.insert(with_opcode(&r.probe_words, cen.parts, 0));
    }
    let all: Vec<Vec<u32>> = seen.into_iter().collect();
    let step = all.len().div_ceil(n).max(1);
    let mut out: Vec<Vec<u32>> = all.into_iter().step_by(step).collect();
    if cen.family == Family::VOP3 {
        // The promoted VOP1/VOP2/VOPC forms (their rows' probe words are the short encodings):
        // vdst v10 or sdst vcc_lo, sources v0, v1, v2 or fewer (unused fields zero).
        let (v0, v1, v2) = (0x100, 0x101 << 9, 0x102 << 18);
        for w0 in [0xd400_000a, 0xd400_6a00] {
            for w1 in [v0, v0 | v1, v0 | v1 | v2] {
                out.push(vec![w0, w1]);
            }
        }
    }
    out
}

/// The mnemonic llvm-mc or the table gives, without the encoding suffix llvm-mc appends.
fn base(m: &str) -> &str {
    let m = m.split_whitespace().next().unwrap_or("");
    for s in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(b) = m.strip_suffix(s) {
            return b;
        }
    }
    m
}

/// The dword after each case: no inline constant, no valid first word of an instruction llvm-mc
/// would take for part of the case.
const LITERAL: u32 = 0x4234_5678;

/// (family, opcode value, reserved bit or none, words)
type Case = (Family, u32, Option<(usize, u32)>, Vec<u32>);

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for cen in CENSUS {
        let reserved: Vec<(usize, u32)> = cen
            .layout
            .iter()
            .filter(|s| matches!(s.0, Field::Rsv0 | Field::Rsv1 | Field::Rsv2 | Field::Rsv3))
            .flat_map(|&(_, w, lo, width)| {
                (0..u32::from(width)).map(move |b| (usize::from(w), u32::from(lo) + b))
            })
            .collect();
        for t in templates(cen, 12) {
            for op in 0..cen.values {
                let w = with_opcode(&t, cen.parts, op);
                out.push((cen.family, op, None, w.clone()));
                for &(i, bit) in &reserved {
                    let mut r = w.clone();
                    if i < r.len() {
                        r[i] |= 1 << bit;
                        out.push((cen.family, op, Some((i, bit)), r));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_opcode_value_decodes_as_llvm_mc_19_or_is_refused() {
    if !llvm_mc_or_skip() {
        return;
    }
    let cases = cases();
    // A literal dword follows every case, for the forms that read one (fmamk, s_setreg_imm32).
    let streams: Vec<Vec<u32>> = cases
        .iter()
        .map(|c| c.3.iter().copied().chain([LITERAL]).collect())
        .collect();
    let llvm = disassemble_split(&streams, false).expect("llvm-mc-19 runs");
    // Per (family, value): what llvm-mc named it in any shape, and what the decoder did.
    let mut llvm_names: BTreeMap<(Family, u32), BTreeSet<String>> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut accepted_unknown: BTreeMap<(Family, u32), Vec<u32>> = BTreeMap::new();
    let (mut compared, mut agreed) = (0usize, 0usize);
    for ((family, op, rsv, words), first) in cases.iter().zip(&llvm) {
        let stream: Vec<u32> = words.iter().copied().chain([LITERAL]).collect();
        let ours = match decode_one(&stream, 0) {
            Ok(Decoded::Inst(i)) => Some(i.info()),
            _ => None,
        };
        if let Some(f) = first {
            let name = base(&f.text).to_string();
            if rsv.is_none() {
                llvm_names
                    .entry((*family, *op))
                    .or_default()
                    .insert(name.clone());
            }
            compared += 1;
            match ours {
                Some(info) if base(info.mnemonic) == name => agreed += 1,
                // A reserved bit llvm-mc reads as an operand field may change its text, not
                // the instruction: only a different instruction counts.
                other => wrong.push(format!(
                    "{family} opcode {op} {}: words {:08x?}: llvm-mc-19 `{}`, decoder {}",
                    rsv.map(|(w, b)| format!("(reserved bit {b} of word {w} set)"))
                        .unwrap_or_default(),
                    words,
                    f.text,
                    other.map_or("refuses".to_string(), |i| format!("`{}`", i.mnemonic)),
                )),
            }
        } else if rsv.is_none() {
            if let Some(info) = ours {
                accepted_unknown
                    .entry((*family, *op))
                    .or_default()
                    .push(u32::from(info.opcode));
            }
        }
    }
    // Values llvm-mc knows in no shape must be refused, except the table's hardware rows.
    let mut unknown_accepted = Vec::new();
    for ((family, op), _) in accepted_unknown {
        // SOPP 31 is s_code_end, the marker that closes each stream of the llvm-mc runs; the
        // census cannot ask about it (the golden files do).
        if llvm_names.contains_key(&(family, op)) || (family, op) == (Family::SOPP, 31) {
            continue;
        }
        let row = match family {
            Family::VOP3 => table::lookup_vop3(op as u16),
            _ => table::lookup(family, op as u16),
        };
        match row {
            Some(r) if r.source == Source::HardwareOnly => {
                assert!(
                    !r.evidence.trim().is_empty(),
                    "{} has no evidence",
                    r.mnemonic
                );
            }
            Some(r) => unknown_accepted.push(format!(
                "{family} opcode {op}: llvm-mc-19 knows no such instruction, the decoder runs `{}`",
                r.mnemonic
            )),
            None => unknown_accepted.push(format!(
                "{family} opcode {op}: decoded but not in the table"
            )),
        }
    }
    eprintln!(
        "opcode census: {} words, llvm-mc-19 decodes {compared}, same instruction {agreed}; {} (family, value) pairs known to llvm-mc",
        cases.len(),
        llvm_names.len()
    );
    assert!(compared > 4_000, "too few words compared: {compared}");
    assert!(
        wrong.is_empty(),
        "{} word(s) decode as another instruction than llvm-mc-19's, first:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        unknown_accepted.is_empty(),
        "opcode values llvm-mc-19 does not know are accepted:\n{}",
        unknown_accepted.join("\n")
    );
    // Every table row llvm-mc knows was found by the census under its own value.
    for r in &table::table().rows {
        if r.source != Source::Llvm || r.vop3_opcode.is_some() && r.family != Family::VOP3 {
            continue;
        }
        if !CENSUS.iter().any(|c| c.family == r.family) || r.op() == Opcode::s_code_end {
            continue;
        }
        let names = llvm_names.get(&(r.family, u32::from(r.opcode)));
        assert!(
            names.is_some_and(|n| n.contains(base(r.mnemonic))),
            "{} {} {}: llvm-mc-19 named that value {names:?}",
            r.family,
            r.opcode,
            r.mnemonic
        );
    }
}
