//! The instruction under test of a row: what the diff's known-discrepancy lookup, the report's
//! groups and the Parquet export's partitions are keyed by.
//!
//! It is decoded from the `encoding` cell through the instruction table, never read from the
//! free-text `instruction` cell. A body is keyed by its last instruction that writes an output
//! register (v10..v25), skipping `s_nop` and moves: `v_mov_b32` (a preset such as
//! `v_mov_b32 v10, 0xabcdabcd`, or a copy of a result into v10..) and a `v_cndmask_b32` between
//! two constants (a flag copied out of VCC or an SGPR). A body of moves only is keyed by its last
//! move. A multi-instruction body whose output registers are written by more than one operation
//! (a macro such as the f32 division sequence) has no single op under test and gets its
//! dataset's family name: the dataset file's stem (`division_f32`). So does a body that does not
//! decode. A row without words (`n/a`) is keyed by the table mnemonic its text starts with, when
//! it names one, and by the family name otherwise.

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
    let writers: Vec<&Instruction> = insts.iter().filter(|i| writes_output(i)).collect();
    let ops: Vec<&Instruction> = writers.iter().copied().filter(|i| !is_move(i)).collect();
    match (ops.last(), writers.last()) {
        (Some(op), _) if ops.iter().all(|o| o.info() == op.info()) => name(op),
        (Some(_), _) => family.to_string(),
        (None, Some(last_move)) => name(last_move),
        (None, None) if insts.len() == 1 => name(&insts[0]),
        (None, None) => family.to_string(),
    }
}

/// Whether `i` writes one of v10..v25.
fn writes_output(i: &Instruction) -> bool {
    i.dsts(Wave::W32).iter().any(|d| match d {
        Operand::Reg(r) if r.kind == RegKind::Vgpr => {
            let (first, last) = (r.index, r.index + u16::from(r.count.max(1)) - 1);
            first < OUTPUTS.end && last >= OUTPUTS.start
        }
        _ => false,
    })
}

/// A move: `v_mov_b32`, or `v_cndmask_b32` selecting between two constants.
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
            instruction_under_test(&words, "f32 division macro", Target::Gfx1036, "division_f32"),
            "division_f32"
        );
    }

    #[test]
    fn a_preset_move_before_the_op_is_skipped() {
        // v_mov_b32 v10, 0xabcdabcd ; v_fma_f32 v10, v4, v5, v6
        assert_eq!(key(&[0x7e1402ff, 0xabcdabcd, 0xd54b000a, 0x041a0b04]), "v_fma_f32");
        // v_mov_b32 v10, 0xabcdabcd ; v_cvt_f16_f32 v10, v4
        assert_eq!(key(&[0x7e1402ff, 0xabcdabcd, 0x7e141504]), "v_cvt_f16_f32");
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
