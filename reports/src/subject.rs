//! The instruction under test of a row: what the diff's known-discrepancy lookup, the report's
//! groups and the Parquet export's partitions are keyed by.
//!
//! It is decoded from the `encoding` cell through the instruction table, never read from the
//! free-text `instruction` cell. Each output register (v10..v25) the body writes is traced back
//! to the instruction that produced its value: `s_nop` is skipped, and a move passes on the
//! producer of what it copies (`v_mov_b32 v10, v37` after `v_sin_f32 v37, v4`; a
//! `v_cndmask_b32` between two constants passes on the producer of its selector, the VCC or SGPR
//! a compare wrote). A move of a constant or of an input register produces its value itself, so
//! a preset (`v_mov_b32 v10, 0xabcdabcd`) that the op under test then overwrites does not count.
//! The body is keyed by the one operation that produced its outputs. When the outputs come from
//! moves only, it is keyed by the last of them (a plain `v_mov_b32` body is `v_mov_b32`). When
//! they come from more than one operation (a macro such as the f32 division sequence), or the
//! body does not decode, it has no single op under test and gets its dataset's family name: the
//! dataset file's stem (`division_f32`). A row without words (`n/a`) is keyed by the table
//! mnemonic its text starts with, when it names one, and by the family name otherwise.

use std::collections::HashMap;

use rdnaprobe_isa::{decode_stream, Decoded, Instruction, Operand, RegKind, Target, Wave};

/// Output registers of the lane contract: v10..v25.
const OUTPUTS: std::ops::Range<u16> = 10..26;

/// The instruction under test of a row with body `words` and `instruction` text, measured on
/// `target`, from the dataset named `family`.
pub fn instruction_under_test(
    words: &[u32],
    instruction: &str,
    target: Target,
    family: &str,
) -> String {
    if words.is_empty() {
        return match crate::dtype::named_instruction(instruction) {
            Some(info) => info.mnemonic_for(target).to_string(),
            None => family.to_string(),
        };
    }
    let Ok(items) = decode_stream(words) else {
        return family.to_string();
    };
    let mut insts = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Decoded::Inst(i) if i.info().mnemonic == "s_nop" => {}
            Decoded::Inst(i) => insts.push(i),
            Decoded::Unsupported(_) => return family.to_string(),
        }
    }
    let name = |i: &Instruction| i.info().mnemonic_for(target).to_string();
    let producers = output_producers(&insts);
    let ops: Vec<usize> = producers
        .iter()
        .copied()
        .filter(|&p| !is_move(&insts[p]))
        .collect();
    match (ops.first(), producers.iter().max()) {
        (Some(&op), _) if ops.iter().all(|&o| insts[o].info() == insts[op].info()) => {
            name(&insts[op])
        }
        (Some(_), _) => family.to_string(),
        (None, Some(&last_move)) => name(&insts[last_move]),
        (None, None) if insts.len() == 1 => name(&insts[0]),
        (None, None) => family.to_string(),
    }
}

/// One dword of a register file.
type Slot = (RegKind, u16);

fn slots(op: &Operand) -> Vec<Slot> {
    match op {
        Operand::Reg(r) => (0..u16::from(r.count.max(1)))
            .map(|k| (r.kind, r.index + k))
            .collect(),
        _ => Vec::new(),
    }
}

/// For each output register the body writes, the index (into `insts`) of the instruction that
/// produced its final value, moves looked through.
fn output_producers(insts: &[Instruction]) -> Vec<usize> {
    let mut producer: HashMap<Slot, usize> = HashMap::new();
    for (n, i) in insts.iter().enumerate() {
        let srcs = i.srcs(Wave::W32);
        // A move passes on its source's producer; the selector for a flag copy.
        let passed = match (i.info().mnemonic, is_move(i)) {
            ("v_mov_b32", _) => srcs.first(),
            ("v_cndmask_b32", true) => srcs.get(2),
            _ => None,
        }
        .and_then(|s| slots(s).first().and_then(|slot| producer.get(slot)))
        .copied();
        let from = passed.unwrap_or(n);
        for d in i.dsts(Wave::W32).iter().chain(&image_result(i)) {
            for slot in slots(d) {
                producer.insert(slot, from);
            }
        }
    }
    OUTPUTS
        .filter_map(|v| producer.get(&(RegKind::Vgpr, v)).copied())
        .collect()
}

/// The VGPRs a MIMG instruction writes (the table's destinations cover the ALU encodings
/// only): VDATA, one per DMASK bit (a gather four), two 16-bit slots a VGPR with D16, one more
/// with TFE or LWE; none for a store, or an atomic without GLC.
fn image_result(i: &Instruction) -> Option<Operand> {
    use rdnaprobe_isa::layout::Field;
    let info = i.info();
    let name = info.mnemonic;
    if info.family != rdnaprobe_isa::Family::MIMG
        || name.contains("store")
        || (name.contains("atomic") && i.field(Field::Glc) == 0)
    {
        return None;
    }
    let dmask = i.field(Field::Dmask);
    let slots = if name.starts_with("image_gather4") {
        4
    } else {
        dmask.count_ones().max(1)
    };
    let mut n = if i.field(Field::D16) != 0 {
        slots.div_ceil(2)
    } else {
        slots
    };
    n += u32::from(i.field(Field::Tfe) != 0 || i.field(Field::Lwe) != 0);
    Some(Operand::Reg(rdnaprobe_isa::Reg {
        kind: RegKind::Vgpr,
        index: i.field(Field::Vdata) as u16,
        count: n as u8,
    }))
}

/// A move: `v_mov_b32`, or `v_cndmask_b32` selecting between two constants (a flag copy).
fn is_move(i: &Instruction) -> bool {
    match i.info().mnemonic {
        "v_mov_b32" => true,
        "v_cndmask_b32" => i
            .srcs(Wave::W32)
            .iter()
            .take(2)
            .all(|s| !matches!(s, Operand::Reg(_))),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(words: &[u32]) -> String {
        instruction_under_test(words, "free text", Target::Gfx1030, "family")
    }

    #[test]
    fn the_division_macro_gets_its_family_name() {
        // v_div_scale_f32 v8 / v9, v_rcp_f32 v10, s_nop, v_fma_f32 v11, v_fmac_f32 v10,
        // v_mul_f32 v11, v_fma_f32 v12, v_fmac_f32 v11, v_fma_f32 v8, s_nop, v_div_fmas_f32 v8,
        // v_div_fixup_f32 v10 (datasets/rdna2/division_f32.csv)
        let words = [
            0xd56d1408, 0x04120b05, 0xd56d6a09, 0x04120b04, 0x7e145508, 0xbf800000, 0xd54b000b,
            0x23ca1508, 0x5614150b, 0x10161509, 0xd54b000c, 0x24261708, 0x5616150c, 0xd54b0008,
            0x24261708, 0xbf800000, 0xd56f0008, 0x042e1508, 0xd55f000a, 0x04120b08,
        ];
        assert_eq!(
            instruction_under_test(
                &words,
                "f32 division macro",
                Target::Gfx1036,
                "division_f32"
            ),
            "division_f32"
        );
    }

    #[test]
    fn a_preset_move_before_the_op_is_skipped() {
        // v_mov_b32 v10, 0xabcdabcd ; v_fma_f32 v10, v4, v5, v6
        assert_eq!(
            key(&[0x7e1402ff, 0xabcdabcd, 0xd54b000a, 0x041a0b04]),
            "v_fma_f32"
        );
        // v_mov_b32 v10, 0xabcdabcd ; v_cvt_f16_f32 v10, v4
        assert_eq!(key(&[0x7e1402ff, 0xabcdabcd, 0x7e141504]), "v_cvt_f16_f32");
    }

    #[test]
    fn an_image_body_is_keyed_by_its_image_instruction() {
        // s_lshr_b64 s[40:41], s[16:17], 8; s_add_u32 s8, s8, s40; s_addc_u32 s9, s9, s41;
        // image_sample_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D
        let sample = [0x90a88810, 0x80082808, 0x82092909, 0xf09c0f08, 0x00020a04];
        assert_eq!(key(&sample), "image_sample_lz");
        // a preset of the TFE status VGPR, then a load writing v10 and the status v11
        let load = rdnaprobe_isa::assemble(
            "v_mov_b32 v11, 0x5a5a\nimage_load v[10:11], v4, s[24:31] dmask:0x1 \
             dim:SQ_RSRC_IMG_1D tfe",
        )
        .unwrap();
        assert_eq!(key(&load), "image_load");
        // a store writes no VGPR: the body is keyed by the moves that fill the outputs
        let store = rdnaprobe_isa::assemble(
            "image_store v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm\n\
             v_mov_b32 v10, v4",
        )
        .unwrap();
        assert_eq!(key(&store), "v_mov_b32");
    }

    #[test]
    fn a_plain_move_body_is_a_move() {
        // v_mov_b32 v10, v4
        assert_eq!(key(&[0x7e140304]), "v_mov_b32");
    }

    #[test]
    fn copies_of_the_result_into_outputs_are_skipped() {
        // v_fma_f64 v[12:13], v[4:5], v[6:7], v[8:9] ; v_mov_b32 v10, v12 ; v_mov_b32 v11, v13
        assert_eq!(
            key(&[0xd54c000c, 0x04220d04, 0x7e14030c, 0x7e16030d]),
            "v_fma_f64"
        );
        // v_div_scale_f32 v10, s20, v4, v5, v6 ; v_cndmask_b32 v11, 0, 1, s20
        assert_eq!(
            key(&[0xd56d140a, 0x041a0b04, 0xd501000b, 0x00510280]),
            "v_div_scale_f32"
        );
        // v_lshrrev_b32 v30, 16, v7 ; v_rndne_f16 v25, v30 ; v_mov_b32 v10, v25: the setup
        // writes no output register.
        assert_eq!(key(&[0x2c3c0e90, 0x7e32bd1e, 0x7e140319]), "v_rndne_f16");
        // v_cos_f32 v38, v4 ; v_mov_b32 v10, v38: the result is computed outside v10..v25.
        assert_eq!(key(&[0x7e4c6d04, 0x7e140326]), "v_cos_f32");
        // v_cmp_lt_f32 vcc, v4, v5 ; v_cndmask_b32 v22, 0, 1, vcc ; v_mov_b32 v10, v22: the
        // flag copy passes on the compare.
        assert_eq!(
            key(&[0x7c020b04, 0xd5010016, 0x01a90280, 0x7e140316]),
            "v_cmp_lt_f32"
        );
    }

    #[test]
    fn rows_without_a_decodable_body() {
        // A truncated VOP3 word does not decode.
        assert_eq!(key(&[0xd503800a]), "family");
        assert_eq!(
            instruction_under_test(&[], "v_interp_p2_f16 (f16 result)", Target::Gfx1030, "f"),
            "v_interp_p2_f16"
        );
        assert_eq!(
            instruction_under_test(&[], "a measured macro", Target::Gfx1030, "interp"),
            "interp"
        );
    }
}
