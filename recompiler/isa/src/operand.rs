//! The 9-bit source-operand code space of GFX10 (SOP/VOP/VOP3/VOP3P source fields) and the
//! 7/8-bit SGPR and VGPR destination fields: one decode/encode pair, and the register names
//! llvm-mc prints.

use crate::table::ValueType;

/// Register files an operand can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum RegKind {
    Vgpr,
    Sgpr,
    Ttmp,
    /// VCC: index 0 = vcc_lo, 1 = vcc_hi; count 2 = the pair.
    Vcc,
    /// EXEC: index 0 = exec_lo, 1 = exec_hi; count 2 = the pair.
    Exec,
    M0,
    Null,
}

/// A register operand: kind, first index within the file, width in dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Reg {
    pub kind: RegKind,
    pub index: u16,
    pub count: u8,
}

/// Special read-only sources of the 9-bit space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Special {
    SharedBase,
    SharedLimit,
    PrivateBase,
    PrivateLimit,
    PopsExitingWaveId,
    Vccz,
    Execz,
    Scc,
    LdsDirect,
}

/// A decoded operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Operand {
    Reg(Reg),
    /// Inline integer constant (codes 128..=208: 0..64, -1..-16).
    InlineInt(i8),
    /// Inline float constant (codes 240..=248) with its bits in the operand's type (16, 32 or
    /// 64 bits, zero-extended).
    InlineFloat {
        code: u16,
        bits: u64,
    },
    /// A literal dword following the instruction (code 255).
    Literal(u32),
    Special(Special),
    /// A code with no meaning in this slot (reserved codes, SDWA/DPP markers in a VOP3 field).
    Invalid(u16),
}

/// The scalar source and destination codes of the register file and its named registers
/// (RDNA2 ISA, SSRC/SDST fields): one place for the numbers the decoder, the encoder and the
/// lowering share.
pub mod code {
    /// s0..s105 are codes 0..106: this is the number of SGPRs.
    pub const SGPRS: u16 = 106;
    pub const VCC_LO: u16 = 106;
    pub const VCC_HI: u16 = 107;
    pub const TTMP0: u16 = 108;
    pub const M0: u16 = 124;
    /// The null destination (and `off` in an SADDR field).
    pub const NULL: u16 = 125;
    pub const EXEC_LO: u16 = 126;
    pub const EXEC_HI: u16 = 127;
    pub const SCC: u16 = 253;
    /// v0 as a 9-bit source.
    pub const VGPR0: u16 = 256;
}

pub const LITERAL: u16 = 255;
pub const SDWA: u16 = 249;
pub const DPP16: u16 = 250;
pub const DPP8: u16 = 233;
pub const DPP8_FI: u16 = 234;

/// Bits of inline float code `code` (240..=248) in a type of `bits` width.
pub fn inline_float_bits(code: u16, bits: u32) -> Option<u64> {
    let i = code.checked_sub(240)? as usize;
    const F16: [u64; 9] = [
        0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
    ];
    const F32: [u64; 9] = [
        0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000,
        0xc0800000, 0x3e22f983,
    ];
    const F64: [u64; 9] = [
        0x3fe0000000000000,
        0xbfe0000000000000,
        0x3ff0000000000000,
        0xbff0000000000000,
        0x4000000000000000,
        0xc000000000000000,
        0x4010000000000000,
        0xc010000000000000,
        0x3fc45f306dc9c882,
    ];
    let t = match bits {
        16 => &F16,
        64 => &F64,
        _ => &F32,
    };
    t.get(i).copied()
}

/// Decode a 9-bit source code. `ty` gives the width of inline float bits; `dwords` the register
/// width; `literal` the instruction's literal dword if it has one.
pub fn decode_src(code: u16, ty: ValueType, dwords: u8, literal: Option<u32>) -> Operand {
    let code = code & 0x1ff;
    let count = dwords.max(1);
    match code {
        // Multi-dword SGPR/TTMP operands are aligned: the hardware ignores the low index bits
        // (two for a pair, four for wider tuples), and llvm-mc prints the aligned register.
        0..code::SGPRS => Operand::Reg(Reg {
            kind: RegKind::Sgpr,
            index: align(code, count),
            count,
        }),
        // VCC and EXEC pairs are aligned like SGPR pairs: vcc_hi in a 64-bit slot reads vcc.
        code::VCC_LO | code::VCC_HI => Operand::Reg(Reg {
            kind: RegKind::Vcc,
            index: align(code - code::VCC_LO, count),
            count,
        }),
        code::TTMP0..code::M0 => Operand::Reg(Reg {
            kind: RegKind::Ttmp,
            index: align(code - code::TTMP0, count),
            count,
        }),
        code::M0 => Operand::Reg(Reg {
            kind: RegKind::M0,
            index: 0,
            count: 1,
        }),
        code::NULL => Operand::Reg(Reg {
            kind: RegKind::Null,
            index: 0,
            count: 1,
        }),
        code::EXEC_LO | code::EXEC_HI => Operand::Reg(Reg {
            kind: RegKind::Exec,
            index: align(code - code::EXEC_LO, count),
            count,
        }),
        128..=192 => Operand::InlineInt((code - 128) as i8),
        193..=208 => Operand::InlineInt(-((code - 192) as i8)),
        235 => Operand::Special(Special::SharedBase),
        236 => Operand::Special(Special::SharedLimit),
        237 => Operand::Special(Special::PrivateBase),
        238 => Operand::Special(Special::PrivateLimit),
        239 => Operand::Special(Special::PopsExitingWaveId),
        240..=248 => Operand::InlineFloat {
            code,
            bits: inline_float_bits(code, ty.bits()).unwrap_or(0),
        },
        251 => Operand::Special(Special::Vccz),
        252 => Operand::Special(Special::Execz),
        code::SCC => Operand::Special(Special::Scc),
        254 => Operand::Special(Special::LdsDirect),
        255 => match literal {
            Some(v) => Operand::Literal(v),
            None => Operand::Invalid(code),
        },
        code::VGPR0..=511 => Operand::Reg(Reg {
            kind: RegKind::Vgpr,
            index: code - code::VGPR0,
            count,
        }),
        _ => Operand::Invalid(code),
    }
}

fn align(index: u16, count: u8) -> u16 {
    match count {
        0 | 1 => index,
        2 => index & !1,
        _ => index & !3,
    }
}

/// Encode an operand back into its 9-bit source code (the literal travels separately).
pub fn encode_src(op: &Operand) -> u16 {
    match *op {
        Operand::Reg(r) => match r.kind {
            RegKind::Sgpr => r.index,
            RegKind::Vcc => code::VCC_LO + r.index,
            RegKind::Ttmp => code::TTMP0 + r.index,
            RegKind::M0 => code::M0,
            RegKind::Null => code::NULL,
            RegKind::Exec => code::EXEC_LO + r.index,
            RegKind::Vgpr => code::VGPR0 + r.index,
        },
        Operand::InlineInt(v) if v >= 0 => 128 + v as u16,
        Operand::InlineInt(v) => 192 + (-(v as i16)) as u16,
        Operand::InlineFloat { code, .. } => code,
        Operand::Literal(_) => LITERAL,
        Operand::Special(s) => match s {
            Special::SharedBase => 235,
            Special::SharedLimit => 236,
            Special::PrivateBase => 237,
            Special::PrivateLimit => 238,
            Special::PopsExitingWaveId => 239,
            Special::Vccz => 251,
            Special::Execz => 252,
            Special::Scc => code::SCC,
            Special::LdsDirect => 254,
        },
        Operand::Invalid(c) => c,
    }
}

/// Decode a 7-bit scalar destination field (SGPRs, VCC, TTMP, M0, NULL, EXEC).
pub fn decode_sdst(code: u16, dwords: u8) -> Operand {
    decode_src(code & 0x7f, ValueType::B32, dwords, None)
}

/// An 8-bit VGPR field.
pub fn vgpr(index: u16, dwords: u8) -> Operand {
    Operand::Reg(Reg {
        kind: RegKind::Vgpr,
        index: index & 0xff,
        count: dwords.max(1),
    })
}

/// llvm-mc's name of a register operand.
pub fn reg_name(r: &Reg) -> String {
    let range = |p: &str, i: u16, n: u8| {
        if n <= 1 {
            format!("{p}{i}")
        } else {
            format!("{p}[{}:{}]", i, i as u32 + n as u32 - 1)
        }
    };
    match r.kind {
        RegKind::Vgpr => range("v", r.index, r.count),
        RegKind::Sgpr => range("s", r.index, r.count),
        RegKind::Ttmp => range("ttmp", r.index, r.count),
        RegKind::Vcc => pair_name("vcc", r),
        RegKind::Exec => pair_name("exec", r),
        RegKind::M0 => "m0".into(),
        RegKind::Null => "null".into(),
    }
}

fn pair_name(base: &str, r: &Reg) -> String {
    match (r.index, r.count) {
        // A wider list starting at VCC/EXEC is not a register llvm-mc knows; it names the pair.
        (0, 2..) => base.to_string(),
        (0, 1) => format!("{base}_lo"),
        (1, 1) => format!("{base}_hi"),
        _ => format!(
            "{base}[{}:{}]",
            r.index,
            r.index as u32 + r.count as u32 - 1
        ),
    }
}

impl Special {
    pub fn name(self) -> &'static str {
        match self {
            Special::SharedBase => "src_shared_base",
            Special::SharedLimit => "src_shared_limit",
            Special::PrivateBase => "src_private_base",
            Special::PrivateLimit => "src_private_limit",
            Special::PopsExitingWaveId => "src_pops_exiting_wave_id",
            Special::Vccz => "src_vccz",
            Special::Execz => "src_execz",
            Special::Scc => "src_scc",
            Special::LdsDirect => "src_lds_direct",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_512_source_codes_round_trip() {
        let mut literal_codes = 0;
        let mut invalid = 0;
        for code in 0u16..512 {
            for (ty, dw) in [
                (ValueType::F32, 1),
                (ValueType::F16, 1),
                (ValueType::F64, 1),
            ] {
                let op = decode_src(code, ty, dw, Some(0x1234_5678));
                assert_eq!(encode_src(&op), code, "code {code} decoded to {op:?}");
                if let Operand::Literal(v) = op {
                    assert_eq!(v, 0x1234_5678);
                    literal_codes += 1;
                }
                if let Operand::Invalid(_) = op {
                    invalid += 1;
                }
            }
        }
        assert_eq!(literal_codes, 3);
        // 209..=232 reserved, 233/234 DPP8, 249 SDWA, 250 DPP16: 28 codes, three types each.
        assert_eq!(invalid, 28 * 3);
    }

    #[test]
    fn wide_sgpr_operands_are_aligned() {
        let r = |code, dw| match decode_src(code, ValueType::B64, dw, None) {
            Operand::Reg(r) => reg_name(&r),
            other => format!("{other:?}"),
        };
        assert_eq!(r(77, 2), "s[76:77]");
        assert_eq!(r(106, 2), "vcc");
        assert_eq!(r(107, 2), "vcc");
        assert_eq!(r(127, 2), "exec");
        assert_eq!(r(115, 4), "ttmp[4:7]");
        assert_eq!(r(300, 2), "v[44:45]");
    }

    #[test]
    fn inline_floats_have_their_type_bits() {
        assert_eq!(inline_float_bits(242, 16), Some(0x3c00));
        assert_eq!(inline_float_bits(242, 32), Some(0x3f80_0000));
        assert_eq!(inline_float_bits(247, 64), Some(0xc010_0000_0000_0000));
        assert_eq!(inline_float_bits(249, 32), None);
    }
}
