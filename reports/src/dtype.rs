//! The result type of each output dword, which decides how two values are compared.
//!
//! The instruction table of `rdnaprobe-isa` is the authority on result types:
//! [`rdnaprobe_isa::output_types`] decodes the body and follows the last writer of each of
//! v10..v25. Only when it learns nothing (a body it cannot decode, or a row without words such
//! as the interpolation rows) does the type come from the first mnemonic of the row's
//! `instruction` text, by the AMD naming convention: the first type suffix after the operation
//! names the destination type (`v_cvt_f32_f16` writes f32, `v_cvt_i32_f32` writes i32), `v_pk_*`
//! and `*_pk*_f16` write packed halves, `*hi_f16` the upper half. Dwords nobody is known to
//! write are `Unknown` and compared as bits, so no tolerance is ever granted on a guess.

/// How one output dword is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DwordType {
    /// An IEEE binary32 value.
    F32,
    /// binary16 in bits 15:0; bits 31:16 must be equal bit for bit (RDNA2 keeps the old upper
    /// half of the destination).
    F16Lo,
    /// binary16 in bits 31:16; bits 15:0 compared as bits.
    F16Hi,
    /// Two binary16 values, one per half.
    PackedF16,
    /// The low dword of a binary64 whose high dword is the next output.
    F64Lo,
    /// The high dword of a binary64 (compared together with the preceding `F64Lo`).
    F64Hi,
    /// Integer or raw bits: equal or wrong.
    Int,
    /// A lane mask (VCC, SGPR pair): equal or wrong.
    Mask,
    /// Not known: compared as bits.
    Unknown,
}

impl DwordType {
    /// Whether values of this type have a ULP distance at all.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            DwordType::F32
                | DwordType::F16Lo
                | DwordType::F16Hi
                | DwordType::PackedF16
                | DwordType::F64Lo
                | DwordType::F64Hi
        )
    }
}

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

/// The type of each of the sixteen output dwords of a row.
pub fn output_types(instruction: &str, body: &[u32]) -> [DwordType; 16] {
    if !body.is_empty() {
        let from_table = rdnaprobe_isa::output_types(body).map(from_isa);
        if from_table.iter().any(|t| *t != DwordType::Unknown) {
            return from_table;
        }
    }
    from_mnemonic(instruction)
}

/// The comparison type of an instruction-table dword type.
fn from_isa(t: rdnaprobe_isa::DwordType) -> DwordType {
    use rdnaprobe_isa::DwordType as T;
    match t {
        T::Unknown => DwordType::Unknown,
        T::F32 => DwordType::F32,
        T::F16Lo => DwordType::F16Lo,
        T::F16Hi => DwordType::F16Hi,
        T::PackedF16 => DwordType::PackedF16,
        T::F64Lo => DwordType::F64Lo,
        T::F64Hi => DwordType::F64Hi,
        // Integers of every width compare as bits, the kept upper half of a 16-bit one too.
        T::Int | T::Int16Lo | T::Int64Lo | T::Int64Hi => DwordType::Int,
        T::LaneMask => DwordType::Mask,
    }
}

/// The types the first mnemonic of the `instruction` text implies (see the module docs).
pub fn from_mnemonic(instruction: &str) -> [DwordType; 16] {
    let mut types = [DwordType::Unknown; 16];
    let mnemonic = first_mnemonic(instruction).to_ascii_lowercase();
    let Some(first) = destination_type(&mnemonic) else {
        return types;
    };
    match first {
        DwordType::F64Lo => {
            types[0] = DwordType::F64Lo;
            types[1] = DwordType::F64Hi;
        }
        other => types[0] = other,
    }
    types
}

/// The destination type named by a mnemonic, or `None` when the name does not say.
fn destination_type(mnemonic: &str) -> Option<DwordType> {
    let mut parts = mnemonic.split('_');
    match parts.next()? {
        "v" => {}
        // Scalar results are integers or masks; either way compared as bits.
        "s" => return Some(DwordType::Int),
        _ => return None,
    }
    let rest: Vec<&str> = parts.collect();
    if rest.first() == Some(&"cmp") || rest.first() == Some(&"cmpx") {
        return Some(DwordType::Mask);
    }
    let packed = rest.first() == Some(&"pk") || rest.iter().any(|p| p.starts_with("pk"));
    let high = rest.iter().any(|p| p.ends_with("hi") && *p != "hi");
    let ty = rest.iter().find_map(|p| type_token(p))?;
    Some(match ty {
        ('f', 16) if packed => DwordType::PackedF16,
        ('f', 16) if high => DwordType::F16Hi,
        ('f', 16) => DwordType::F16Lo,
        ('f', 32) => DwordType::F32,
        ('f', 64) => DwordType::F64Lo,
        _ => DwordType::Int,
    })
}

/// `f32` -> ('f', 32); `b32`, `u16`, `i64` likewise; anything else is not a type token.
fn type_token(part: &str) -> Option<(char, u32)> {
    let mut chars = part.chars();
    let kind = chars.next()?;
    if !matches!(kind, 'f' | 'i' | 'u' | 'b') {
        return None;
    }
    let bits: u32 = chars.as_str().parse().ok()?;
    matches!(bits, 8 | 16 | 32 | 64).then_some((kind, bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_decides_when_it_can_decode_the_body() {
        // v_div_scale_f32 v10, s20, v4, v5, v6 ; v_cndmask_b32 v11, 0, 1, s20
        let body = [0xd56d_140a, 0x041a_0b04, 0xd501_000b, 0x0051_0280];
        let types = output_types("whatever the text says_f64", &body);
        assert_eq!(types[0], DwordType::F32);
        assert_eq!(types[1], DwordType::Int);
        assert!(types[2..].iter().all(|t| *t == DwordType::Unknown));
        // No words: the mnemonic decides.
        assert_eq!(
            output_types("v_interp_p2_f16 v10", &[])[0],
            DwordType::F16Lo
        );
    }

    #[test]
    fn destination_is_the_first_type_suffix() {
        let t = |s: &str| from_mnemonic(s)[0];
        assert_eq!(t("v_add_f32 v10, v4, v5"), DwordType::F32);
        assert_eq!(t("v_cvt_f32_f16_e64 v10, v4"), DwordType::F32);
        assert_eq!(t("v_cvt_f16_f32 v10, v4"), DwordType::F16Lo);
        assert_eq!(t("v_cvt_i32_f32 v10, v4"), DwordType::Int);
        assert_eq!(t("v_pk_fma_f16 v10, v4, v5, v6"), DwordType::PackedF16);
        assert_eq!(t("v_cvt_pkrtz_f16_f32 v10, v4, v5"), DwordType::PackedF16);
        assert_eq!(t("v_fma_mixhi_f16 v10, v4, v5, v6"), DwordType::F16Hi);
        assert_eq!(t("v_fma_mixlo_f16 v10, v4, v5, v6"), DwordType::F16Lo);
        assert_eq!(t("v_cmp_eq_f32 vcc, v4, v5"), DwordType::Mask);
        assert_eq!(t("s_add_u32 s0, s1, s2"), DwordType::Int);
        assert_eq!(t("v_mov_b32 v10, v4"), DwordType::Int);
        assert_eq!(t("v_interp_p2_f16"), DwordType::F16Lo);
        assert_eq!(t(""), DwordType::Unknown);
        assert_eq!(t("v_nop"), DwordType::Unknown);
    }

    #[test]
    fn f64_results_take_two_dwords() {
        let types = from_mnemonic("v_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]");
        assert_eq!(types[0], DwordType::F64Lo);
        assert_eq!(types[1], DwordType::F64Hi);
        assert_eq!(types[2], DwordType::Unknown);
    }

    #[test]
    fn later_dwords_are_unknown() {
        let types = output_types(
            "v_div_scale_f32 v10, s20, v4, v5, v6 ; out1 = v_cndmask_b32",
            &[],
        );
        assert_eq!(types[0], DwordType::F32);
        assert!(types[1..].iter().all(|t| *t == DwordType::Unknown));
    }
}
