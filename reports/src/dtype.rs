//! The result type of each output dword, which decides how two values are compared.
//!
//! The instruction table of `rdnaprobe-isa` is the one authority on result types:
//! [`rdnaprobe_isa::output_types`] decodes the body and follows the last writer of each of
//! v10..v25. Only when that learns nothing (a body it cannot decode, or a row without words
//! such as the interpolation rows) does the row's `instruction` text name the table row whose
//! result type applies ([`rdnaprobe_isa::result_types`]: out0, and out1 for a 64-bit result).
//! Dwords nobody is known to write are `Unknown` and compared as bits, so no tolerance is ever
//! granted on a guess.

pub use rdnaprobe_contract::DwordType;

/// The mnemonic of the first instruction of a row's `instruction` text (`v_add_f32 v10, v4, v5`
/// -> `v_add_f32`). Modifiers after the mnemonic (`_e64`, `_sdwa`, `_dpp`) are removed.
pub fn first_mnemonic(instruction: &str) -> &str {
    let word = instruction
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .find(|w| !w.is_empty())
        .unwrap_or("");
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp"] {
        if let Some(stem) = word.strip_suffix(suffix) {
            return stem;
        }
    }
    word
}

/// The table row that the first word of a row's `instruction` text names, if it names one.
pub fn named_instruction(instruction: &str) -> Option<&'static rdnaprobe_isa::OpInfo> {
    let mnemonic = first_mnemonic(instruction).to_ascii_lowercase();
    rdnaprobe_isa::table::lookup_name(&mnemonic)
        .first()
        .copied()
}

/// The type of each of the sixteen output dwords of a row.
pub fn output_types(instruction: &str, body: &[u32]) -> [DwordType; 16] {
    if !body.is_empty() {
        let from_body = rdnaprobe_isa::output_types(body);
        if from_body.iter().any(|t| *t != DwordType::Unknown) {
            return from_body;
        }
    }
    named_instruction(instruction)
        .map(rdnaprobe_isa::result_types)
        .unwrap_or([DwordType::Unknown; 16])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_decides_when_it_decodes() {
        // v_div_scale_f32 v10, s20, v4, v5, v6 ; v_cndmask_b32 v11, 0, 1, s20
        let body = [0xd56d_140a, 0x041a_0b04, 0xd501_000b, 0x0051_0280];
        let types = output_types("v_fma_f64 whatever the text says", &body);
        assert_eq!(types[0], DwordType::F32);
        assert_eq!(types[1], DwordType::Int);
        assert!(types[2..].iter().all(|t| *t == DwordType::Unknown));
    }

    #[test]
    fn rows_without_words_take_the_named_table_row() {
        let t = |s: &str| output_types(s, &[])[0];
        assert_eq!(t("v_add_f32 v10, v4, v5"), DwordType::F32);
        assert_eq!(t("v_cvt_f32_f16_e64 v10, v4"), DwordType::F32);
        assert_eq!(t("v_cvt_f16_f32 v10, v4"), DwordType::F16Lo);
        assert_eq!(t("v_cvt_i32_f32 v10, v4"), DwordType::Int);
        assert_eq!(t("v_pk_fma_f16 v10, v4, v5, v6"), DwordType::PackedF16);
        assert_eq!(t("v_cvt_pkrtz_f16_f32 v10, v4, v5"), DwordType::PackedF16);
        assert_eq!(t("v_fma_mixhi_f16 v10, v4, v5, v6"), DwordType::F16Hi);
        assert_eq!(t("v_fma_mixlo_f16 v10, v4, v5, v6"), DwordType::F16Lo);
        assert_eq!(t("v_cmp_eq_f32 vcc, v4, v5"), DwordType::LaneMask);
        assert_eq!(t("V_INTERP_P2_F16 (f16 result)"), DwordType::F16Lo);
        // The text's own suffix says f16; the table knows the P1 steps give f32.
        assert_eq!(t("v_interp_p1ll_f16 (f32 result)"), DwordType::F32);
        // Not a table mnemonic: nothing is known, the dwords compare as bits.
        assert_eq!(t("f32 division macro q=v4/v5"), DwordType::Unknown);
        assert_eq!(t(""), DwordType::Unknown);
    }

    #[test]
    fn f64_results_take_two_dwords_and_later_dwords_are_unknown() {
        let types = output_types("v_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]", &[]);
        assert_eq!(
            types[..3],
            [DwordType::F64Lo, DwordType::F64Hi, DwordType::Unknown]
        );
        let types = output_types(
            "v_div_scale_f32 v10, s20, v4, v5, v6 ; out1 = v_cndmask_b32",
            &[],
        );
        assert_eq!(types[0], DwordType::F32);
        assert!(types[1..].iter().all(|t| *t == DwordType::Unknown));
    }
}
