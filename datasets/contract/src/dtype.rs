//! What one output dword holds after a body runs, which decides how a diff compares it.

/// The value type of one of the sixteen output dwords (v10..v25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum DwordType {
    /// Not written by the body, or written by an instruction without a known result type:
    /// compared as bits.
    Unknown,
    /// An IEEE binary32 value.
    F32,
    /// binary16 in bits 15:0; bits 31:16 keep what the register held before (compared bit for
    /// bit).
    F16Lo,
    /// binary16 in bits 31:16 (op_sel destination, SDWA WORD_1, v_fma_mixhi_f16); bits 15:0
    /// compared as bits.
    F16Hi,
    /// Two binary16 values (bits 15:0 and 31:16).
    PackedF16,
    /// The low dword of a binary64 whose high dword is the next output.
    F64Lo,
    /// The high dword of a binary64 (sign, exponent, top of the mantissa).
    F64Hi,
    /// A 32-bit integer or bit pattern (also packed 16-bit integers and 0/1 flags).
    Int,
    /// A 16-bit integer in bits 15:0; bits 31:16 keep what the register held before.
    Int16Lo,
    /// The low dword of a 64-bit integer.
    Int64Lo,
    /// The high dword of a 64-bit integer.
    Int64Hi,
    /// A lane mask (one bit per lane: VCC, an SGPR pair) copied into a VGPR.
    LaneMask,
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
