//! The MIMG rows of gfx10.3 that llvm-mc-19 does not know: the BY2/BY4 and PCK2/PCK4 loads and
//! stores (opcodes from ../shared/reference/shader-technical-debt.md). Each decodes to its
//! spelling with the operand shape of its llvm-known sibling (data width from dmask and d16,
//! address count from dim), the spelling assembles back to the words, and the comparisons with
//! llvm-mc leave the rows out with their evidence.
#![allow(clippy::print_stdout)]

use rdnaprobe_isa::difftest::{
    compare, disassemble_split, llvm_mc_or_skip, normalize, Outcome, Rng,
};
use rdnaprobe_isa::table::{lookup, lookup_name};
use rdnaprobe_isa::{assemble, decode_one, encode, Decoded, Family, Source, Wave};

/// (opcode, spelling, the llvm row of the same shape, reads a mip level, takes no d16).
const ROWS: [(u16, &str, &str, bool, bool); 16] = [
    (0x42, "image_load_by2", "image_load", false, false),
    (0x43, "image_load_by4", "image_load", false, false),
    (0x4a, "image_load_mip_by2", "image_load_mip", true, false),
    (0x4b, "image_load_mip_by4", "image_load_mip", true, false),
    (0x52, "image_store_by2", "image_store", false, false),
    (0x53, "image_store_by4", "image_store", false, false),
    (0x5a, "image_store_mip_by2", "image_store_mip", true, false),
    (0x5b, "image_store_mip_by4", "image_store_mip", true, false),
    (0x70, "image_load_pck2", "image_load_pck", false, true),
    (0x71, "image_load_pck4", "image_load_pck", false, true),
    (
        0x73,
        "image_load_mip_pck2",
        "image_load_mip_pck",
        true,
        true,
    ),
    (
        0x74,
        "image_load_mip_pck4",
        "image_load_mip_pck",
        true,
        true,
    ),
    (0x76, "image_store_pck2", "image_store_pck", false, true),
    (0x77, "image_store_pck4", "image_store_pck", false, true),
    (
        0x79,
        "image_store_mip_pck2",
        "image_store_mip_pck",
        true,
        true,
    ),
    (
        0x7a,
        "image_store_mip_pck4",
        "image_store_mip_pck",
        true,
        true,
    ),
];

/// MIMG words (ISA 12.x MIMG layout): opcode, dmask, dim, d16, vaddr v4, vdata v8, srsrc s[16:23].
fn words(opcode: u16, dmask: u32, dim: u32, d16: bool) -> Vec<u32> {
    let op = u32::from(opcode);
    vec![
        0xf000_0000 | (op & 0x7f) << 18 | op >> 7 | dmask << 8 | dim << 3,
        4 | 8 << 8 | 4 << 16 | u32::from(d16) << 31,
    ]
}

/// The text of `words(opcode, dmask, dim, d16)` by the MIMG operand rules: one data dword per
/// dmask bit (halved, rounded up, with d16), one address per coordinate of the dim plus the
/// mip level where the opcode reads one.
fn expected(m: &str, mip: bool, dmask: u32, dim: u32, d16: bool) -> String {
    let mut data = dmask.count_ones();
    if d16 {
        data = data.div_ceil(2);
    }
    let coords = [1, 2, 3][dim as usize];
    let addr = coords + u32::from(mip);
    let reg = |first: u32, n: u32| {
        if n == 1 {
            format!("v{first}")
        } else {
            format!("v[{first}:{}]", first + n - 1)
        }
    };
    let dims = ["1D", "2D", "3D"];
    format!(
        "{m} {}, {}, s[16:23] dmask:0x{dmask:x} dim:SQ_RSRC_IMG_{}{}",
        reg(8, data),
        reg(4, addr),
        dims[dim as usize],
        if d16 { " d16" } else { "" }
    )
}

/// The cases of the hand-written expectations: (dmask, dim, d16); d16 where the row takes it.
fn cases(no_d16: bool) -> Vec<(u32, u32, bool)> {
    let mut v = vec![
        (0xf, 1, false),
        (0x1, 1, false),
        (0x3, 0, false),
        (0x7, 2, false),
    ];
    if !no_d16 {
        v.push((0xf, 1, true));
        v.push((0x1, 0, true));
    }
    v
}

#[test]
fn each_row_is_in_the_table_as_hardware_only() {
    for (op, m, like, _, _) in ROWS {
        let row = lookup(Family::MIMG, op).unwrap_or_else(|| panic!("MIMG 0x{op:x} is no row"));
        assert_eq!(row.mnemonic, m, "MIMG 0x{op:x}");
        assert_eq!(row.source, Source::HardwareOnly, "{m}");
        assert!(!row.evidence.is_empty(), "{m} has no evidence");
        assert!(
            row.probe_words.is_empty() && row.probe_text.is_empty(),
            "{m}"
        );
        assert_eq!(lookup_name(m), [row], "{m}");
        // The operand columns are the sibling's.
        let sib = lookup_name(like)[0];
        assert_eq!(
            (&row.dsts, &row.srcs),
            (&sib.dsts, &sib.srcs),
            "{m} vs {like}"
        );
    }
}

#[test]
fn decode_prints_the_spelling_and_the_spelling_assembles_to_the_words() {
    let mut n = 0;
    for (op, m, _, mip, no_d16) in ROWS {
        for (dmask, dim, d16) in cases(no_d16) {
            let w = words(op, dmask, dim, d16);
            let want = expected(m, mip, dmask, dim, d16);
            let Ok(Decoded::Inst(i)) = decode_one(&w, 0) else {
                panic!("{m}: {w:08x?} does not decode");
            };
            assert_eq!(i.to_llvm_text(Wave::W32), want, "{w:08x?}");
            assert_eq!(encode(&i), w, "{want}");
            let back = assemble(&want).unwrap_or_else(|e| panic!("`{want}`: {}", e.message));
            assert_eq!(back, w, "`{want}`");
            n += 1;
        }
    }
    println!("{n} words decoded, printed and assembled back");
}

#[test]
fn the_pck_rows_take_no_d16_as_their_siblings() {
    for (_, m, like, mip, no_d16) in ROWS {
        let addr = if mip { "v[4:6]" } else { "v[4:5]" };
        let text = format!("{m} v[8:9], {addr}, s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D d16");
        let sibling = text.replacen(m, like, 1);
        assert_eq!(
            assemble(&text).is_ok(),
            assemble(&sibling).is_ok(),
            "`{text}` against `{sibling}`"
        );
        assert_eq!(assemble(&text).is_err(), no_d16, "`{text}`");
    }
}

/// Random MIMG words (every field but the reserved bits random: dmask, dim, d16, a16, tfe,
/// lwe, the cache bits, registers, NSA address words).
fn random_words(rng: &mut Rng, opcode: u16) -> Vec<u32> {
    let op = u32::from(opcode);
    // A set bit one time in `n`.
    let mut bit = |n: usize| u32::from(rng.below(n) == 0);
    let (tfe, lwe, glc, slc, dlc, unorm, r128) =
        (bit(4), bit(8), bit(4), bit(4), bit(4), bit(4), bit(8));
    let (a16, d16) = (bit(4), bit(3));
    let nsa = [0, 0, 1, 2][rng.below(4)];
    let w0 = 0xf000_0000
        | (op & 0x7f) << 18
        | op >> 7
        | nsa << 1
        | (rng.below(8) as u32) << 3
        | dlc << 7
        | (rng.below(16) as u32) << 8
        | unorm << 12
        | glc << 13
        | r128 << 15
        | tfe << 16
        | lwe << 17
        | slc << 25;
    let w1 = rng.below(240) as u32
        | (rng.below(240) as u32) << 8
        | (rng.below(24) as u32) << 16
        | a16 << 30
        | d16 << 31;
    let mut w = vec![w0, w1];
    for _ in 0..nsa {
        w.push(rng.next_u32());
    }
    w
}

/// Random words of each row print as llvm-mc-19 prints the sibling's opcode with the same
/// fields, with the row's spelling.
#[test]
fn random_words_print_as_llvm_mc_prints_the_sibling() {
    if !llvm_mc_or_skip() {
        return;
    }
    let mut rng = Rng(0x0021_0001);
    let mut ours = Vec::new();
    let mut siblings = Vec::new();
    for (op, m, like, _, _) in ROWS {
        let sib = lookup_name(like)[0];
        for _ in 0..60 {
            let w = random_words(&mut rng, op);
            let mut s = w.clone();
            let sop = u32::from(sib.opcode);
            s[0] = (s[0] & !(0x7f << 18 | 1)) | (sop & 0x7f) << 18 | sop >> 7;
            ours.push((m, like, w));
            siblings.push(s);
        }
    }
    let llvm = disassemble_split(&siblings, false).expect("llvm-mc-19 runs");
    let (mut checked, mut bad) = (0, Vec::new());
    for ((m, like, w), first) in ours.iter().zip(&llvm) {
        let Some(first) = first.as_ref().filter(|f| f.length_differs.is_none()) else {
            continue;
        };
        let Ok(Decoded::Inst(i)) = decode_one(w, 0) else {
            panic!("{m}: {w:08x?} does not decode");
        };
        checked += 1;
        let want = normalize(&first.text).replacen(like, m, 1);
        let got = normalize(&i.to_llvm_text(Wave::W32));
        if got != want {
            bad.push(format!("{w:08x?}: `{got}`, llvm-mc's sibling: `{want}`"));
        }
    }
    println!(
        "{} random words, {checked} that llvm-mc-19 decodes as the sibling compared",
        ours.len()
    );
    assert!(checked >= ours.len() / 2, "only {checked} words compared");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// llvm-mc-19 rejects these words (so the rows are hardware-only), and the comparison leaves
/// them out with the row's evidence instead of counting a disagreement.
#[test]
fn the_llvm_comparison_leaves_them_out_with_the_evidence() {
    if !llvm_mc_or_skip() {
        return;
    }
    let streams: Vec<Vec<u32>> = ROWS
        .iter()
        .flat_map(|(op, _, _, _, no_d16)| {
            cases(*no_d16)
                .into_iter()
                .map(|(d, dim, h)| words(*op, d, dim, h))
        })
        .collect();
    let llvm = disassemble_split(&streams, false).expect("llvm-mc-19 runs");
    for (w, first) in streams.iter().zip(&llvm) {
        assert!(first.is_none(), "llvm-mc-19 decodes {w:08x?}: {first:?}");
    }
    for (w, o) in streams
        .iter()
        .zip(compare(&streams, Wave::W32).expect("llvm-mc-19 runs"))
    {
        let Ok(Decoded::Inst(i)) = decode_one(w, 0) else {
            panic!("{w:08x?} does not decode");
        };
        match o {
            Outcome::HardwareOnly { mnemonic, evidence } => {
                assert_eq!(mnemonic, i.info().mnemonic);
                assert_eq!(evidence, i.info().evidence);
                assert!(evidence.contains("shader-technical-debt.md"), "{mnemonic}");
            }
            other => panic!("{w:08x?}: {other:?}"),
        }
    }
}
