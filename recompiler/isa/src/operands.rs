//! Structured operands and modifiers of a decoded instruction, read from its fields through the
//! row's operand specs.

use crate::decode::{Encoding, Instruction};
use crate::layout::Field;
use crate::operand::{self, Operand, Reg, RegKind};
use crate::table::{Family, Flags, OperandKind, OperandSpec, ValueType};
use crate::Wave;

/// SDWA fields (selects: 0..=3 BYTE_0..3, 4/5 WORD_0/1, 6 DWORD).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sdwa {
    pub dst_sel: u8,
    /// 0 UNUSED_PAD, 1 UNUSED_SEXT, 2 UNUSED_PRESERVE.
    pub dst_unused: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
    pub src0_sext: bool,
    pub src1_sext: bool,
}

/// DPP16 fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Dpp {
    pub dpp_ctrl: u16,
    pub row_mask: u8,
    pub bank_mask: u8,
    pub bound_ctrl: bool,
    pub fi: bool,
}

/// Source and output modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Modifiers {
    pub neg: [bool; 3],
    pub abs: [bool; 3],
    pub clamp: bool,
    /// 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
    /// VOP3: bits 0..2 sources, bit 3 destination. VOP3P: bits 0..2 sources.
    pub op_sel: u8,
    pub op_sel_hi: u8,
    pub neg_lo: u8,
    pub neg_hi: u8,
    pub sdwa: Option<Sdwa>,
    pub dpp: Option<Dpp>,
    /// DPP8 lane selects and the FI bit.
    pub dpp8: Option<([u8; 8], bool)>,
}

impl Instruction {
    /// Width of a lane mask on `wave`.
    fn mask_dwords(wave: Wave) -> u8 {
        if wave == Wave::W64 {
            2
        } else {
            1
        }
    }

    fn spec_src(&self, spec: &OperandSpec, code: u16, wave: Wave) -> Operand {
        let dw = if spec.kind == OperandKind::LaneMask {
            Self::mask_dwords(wave)
        } else {
            spec.dwords
        };
        operand::decode_src(code, spec.ty, dw, self.literal)
    }

    fn vcc(wave: Wave) -> Operand {
        Operand::Reg(Reg {
            kind: RegKind::Vcc,
            index: 0,
            count: Self::mask_dwords(wave),
        })
    }

    /// Destination operands in printed order (implicit VCC of the 32-bit forms included).
    pub fn dsts(&self, wave: Wave) -> Vec<Operand> {
        let info = self.info;
        let f = |x| self.fields.get(x);
        let spec0 = info.dsts.first();
        match self.encoding {
            Encoding::VOP3 | Encoding::VOP3P => {
                let mut v = Vec::new();
                if let Some(s) = spec0 {
                    v.push(match s.kind {
                        OperandKind::Vgpr => operand::vgpr(f(Field::Vdst) as u16, s.dwords),
                        OperandKind::LaneMask => {
                            operand::decode_sdst(f(Field::Vdst) as u16, Self::mask_dwords(wave))
                        }
                        // A scalar destination in the 8-bit vdst field reads the low 256 codes
                        // of the source space.
                        _ => operand::decode_src(
                            (f(Field::Vdst) & 0xff) as u16,
                            s.ty,
                            s.dwords,
                            None,
                        ),
                    });
                }
                if info.dsts.len() > 1 {
                    v.push(operand::decode_sdst(
                        f(Field::Sdst) as u16,
                        Self::mask_dwords(wave),
                    ));
                }
                v
            }
            Encoding::VOP1 | Encoding::VOP2 | Encoding::SDWA | Encoding::DPP16 | Encoding::DPP8 => {
                let mut v = Vec::new();
                if info.family == Family::VOPC {
                    if info.has(Flags::CMPX) {
                        return v;
                    }
                    if self.encoding == Encoding::SDWA && f(Field::Sd) == 1 {
                        v.push(operand::decode_sdst(
                            f(Field::SdwaSdst) as u16,
                            Self::mask_dwords(wave),
                        ));
                    } else {
                        v.push(Self::vcc(wave));
                    }
                    return v;
                }
                if let Some(s) = spec0 {
                    v.push(match s.kind {
                        OperandKind::Vgpr => operand::vgpr(f(Field::Vdst) as u16, s.dwords),
                        // A scalar destination in the 8-bit vdst field reads the low 256 codes
                        // of the source space.
                        _ => operand::decode_src(
                            (f(Field::Vdst) & 0xff) as u16,
                            s.ty,
                            s.dwords,
                            None,
                        ),
                    });
                }
                if info.dsts.len() > 1 {
                    v.push(Self::vcc(wave));
                }
                v
            }
            Encoding::VOPC => {
                if info.has(Flags::CMPX) {
                    Vec::new()
                } else {
                    vec![Self::vcc(wave)]
                }
            }
            Encoding::SOP1 | Encoding::SOP2 | Encoding::SOPK => info
                .dsts
                .iter()
                .map(|s| operand::decode_sdst(f(Field::Sdst) as u16, s.dwords))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Source operands in printed order (for VALU and SALU encodings; memory families: empty).
    pub fn srcs(&self, wave: Wave) -> Vec<Operand> {
        let info = self.info;
        let f = |x| self.fields.get(x);
        let specs = &info.srcs;
        let get = |i: usize| {
            specs.get(i).copied().unwrap_or(OperandSpec {
                kind: OperandKind::Src,
                ty: ValueType::B32,
                dwords: 1,
            })
        };
        match self.encoding {
            Encoding::VOP3 | Encoding::VOP3P => [Field::Src0, Field::Src1, Field::Src2]
                .iter()
                .zip(specs.iter())
                .map(|(fl, s)| self.spec_src(s, f(*fl) as u16, wave))
                .collect(),
            Encoding::SOP2 | Encoding::SOPC | Encoding::SOP1 => [Field::Src0, Field::Src1]
                .iter()
                .zip(specs.iter())
                .map(|(fl, s)| self.spec_src(s, f(*fl) as u16, wave))
                .collect(),
            Encoding::VOP1
            | Encoding::VOP2
            | Encoding::VOPC
            | Encoding::SDWA
            | Encoding::DPP16
            | Encoding::DPP8 => {
                let s0 = get(0);
                let src0 = match self.encoding {
                    Encoding::SDWA => {
                        let code = f(Field::SdwaSrc0) as u16;
                        if f(Field::S0) == 1 {
                            operand::decode_src(code, s0.ty, s0.dwords, None)
                        } else {
                            operand::vgpr(code, s0.dwords)
                        }
                    }
                    Encoding::DPP16 | Encoding::DPP8 => {
                        operand::vgpr(f(Field::DppSrc0) as u16, s0.dwords)
                    }
                    _ => self.spec_src(&s0, f(Field::Src0) as u16, wave),
                };
                let mut v = vec![src0];
                if info.family == Family::VOP1 {
                    v.truncate(specs.len().min(1));
                    return v;
                }
                let s1 = get(1);
                let vsrc1 = if self.encoding == Encoding::SDWA && f(Field::S1) == 1 {
                    operand::decode_src(f(Field::Vsrc1) as u16, s1.ty, s1.dwords, None)
                } else {
                    operand::vgpr(f(Field::Vsrc1) as u16, s1.dwords)
                };
                if info.has(Flags::LITERAL_OPERAND) {
                    let k = Operand::Literal(self.literal.unwrap_or(0));
                    // fmamk: the literal is the second source; fmaak: the third.
                    if specs.get(1).is_some_and(|s| s.kind == OperandKind::Imm) {
                        v.push(k);
                        v.push(vsrc1);
                    } else {
                        v.push(vsrc1);
                        v.push(k);
                    }
                    return v;
                }
                v.push(vsrc1);
                if info.has(Flags::READS_VCC) {
                    v.push(Self::vcc(wave));
                }
                v
            }
            _ => Vec::new(),
        }
    }

    /// Modifiers of the VALU encodings (all zero for the others).
    pub fn modifiers(&self) -> Modifiers {
        let f = |x| self.fields.get(x);
        let bits3 = |v: u32| [v & 1 != 0, v & 2 != 0, v & 4 != 0];
        let mut m = Modifiers::default();
        match self.encoding {
            Encoding::VOP3 => {
                m.neg = bits3(f(Field::Neg));
                if !self.info.has(Flags::VOP3B) {
                    m.abs = bits3(f(Field::Abs));
                    m.op_sel = f(Field::OpSel) as u8;
                }
                m.clamp = f(Field::Clamp) != 0;
                m.omod = f(Field::Omod) as u8;
            }
            Encoding::VOP3P => {
                m.neg_lo = f(Field::NegLo) as u8;
                m.neg_hi = f(Field::NegHi) as u8;
                m.op_sel = f(Field::OpSel) as u8;
                m.op_sel_hi = (f(Field::OpSelHi) | (f(Field::OpSelHi2) << 2)) as u8;
                m.clamp = f(Field::Clamp) != 0;
            }
            Encoding::SDWA => {
                m.neg = [f(Field::Src0Neg) != 0, f(Field::Src1Neg) != 0, false];
                m.abs = [f(Field::Src0Abs) != 0, f(Field::Src1Abs) != 0, false];
                if self.info.family != Family::VOPC {
                    m.clamp = f(Field::SdwaClamp) != 0;
                    m.omod = f(Field::SdwaOmod) as u8;
                }
                m.sdwa = Some(Sdwa {
                    dst_sel: f(Field::DstSel) as u8,
                    dst_unused: f(Field::DstUnused) as u8,
                    src0_sel: f(Field::Src0Sel) as u8,
                    src1_sel: f(Field::Src1Sel) as u8,
                    src0_sext: f(Field::Src0Sext) != 0,
                    src1_sext: f(Field::Src1Sext) != 0,
                });
            }
            Encoding::DPP16 => {
                m.neg = [f(Field::Src0Neg) != 0, f(Field::Src1Neg) != 0, false];
                m.abs = [f(Field::Src0Abs) != 0, f(Field::Src1Abs) != 0, false];
                m.dpp = Some(Dpp {
                    dpp_ctrl: f(Field::DppCtrl) as u16,
                    row_mask: f(Field::RowMask) as u8,
                    bank_mask: f(Field::BankMask) as u8,
                    bound_ctrl: f(Field::BoundCtrl) != 0,
                    fi: f(Field::Fi) != 0,
                });
            }
            Encoding::DPP8 => {
                let sel = f(Field::Dpp8Sel);
                let mut lanes = [0u8; 8];
                for (i, l) in lanes.iter_mut().enumerate() {
                    *l = ((sel >> (3 * i)) & 7) as u8;
                }
                m.dpp8 = Some((
                    lanes,
                    operand::encode_src(&Operand::Invalid(self.fields.get(Field::Src0) as u16))
                        == operand::DPP8_FI,
                ));
            }
            _ => {}
        }
        m
    }
}
