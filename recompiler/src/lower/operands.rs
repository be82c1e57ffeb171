//! Source operands of one instruction: the per-instruction context ([`Ctx`]), the float
//! sources with their input modifiers (abs/neg, VOP3 op_sel, SDWA select), the integer
//! sources with SDWA select, and the mode's denormal-flush switches.

use super::error::{RuleError, RuleResult};
use super::Lowerer;
use crate::builder::Fmt;
use crate::ir::Handle;
use rdnaprobe_isa::table::Flags;
use rdnaprobe_isa::{Encoding, Instruction, Opcode, Operand, RegKind, Wave};

/// Per-instruction context: the instruction, its opcode, operands and modifiers.
pub(super) struct Ctx<'a> {
    pub(super) inst: &'a Instruction,
    pub(super) op: Opcode,
    pub(super) srcs: Vec<Operand>,
    pub(super) mods: rdnaprobe_isa::Modifiers,
    pub(super) enc: Encoding,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(inst: &'a Instruction, wave: Wave) -> Ctx<'a> {
        Ctx {
            inst,
            op: inst.info().op(),
            srcs: inst.srcs(wave),
            mods: inst.modifiers(),
            enc: inst.encoding(),
        }
    }
}

impl Lowerer {
    pub(super) fn flush_in32(&self) -> bool {
        !self.mode.keep_in32()
    }
    pub(super) fn flush_out32(&self) -> bool {
        !self.mode.keep_out32()
    }
    pub(super) fn flush_in16(&self) -> bool {
        !self.mode.keep_in16()
    }
    pub(super) fn flush_out16(&self) -> bool {
        !self.mode.keep_out16()
    }

    pub(super) fn src_op(&self, c: &Ctx, i: usize) -> RuleResult<Operand> {
        c.srcs
            .get(i)
            .copied()
            .ok_or_else(|| RuleError::operand(format!("missing source {i}")))
    }

    /// f32 source `i` as bits, with SDWA select and abs/neg applied (rule: source-modifiers).
    pub(super) fn f32_src(&mut self, c: &Ctx, i: usize) -> RuleResult<Handle> {
        let op = self.src_op(c, i)?;
        let mut v = self.read32(&op)?;
        if let Some(sd) = c.mods.sdwa {
            if i < 2 {
                let sel = if i == 0 { sd.src0_sel } else { sd.src1_sel };
                v = self.sdwa_sel(v, sel, false);
            }
        }
        Ok(self.apply_absneg(Fmt::F32, v, c, i))
    }

    pub(super) fn apply_absneg(&mut self, fmt: Fmt, v: Handle, c: &Ctx, i: usize) -> Handle {
        let mut v = v;
        if i < 3 && c.mods.abs[i] {
            v = self.b.abs_bits(fmt, v);
        }
        if i < 3 && c.mods.neg[i] {
            v = self.b.neg_bits(fmt, v);
        }
        v
    }

    /// f16 source `i` in the low 16 bits (VOP3 op_sel picks the high half; SDWA selects;
    /// abs/neg on bit 15).
    pub(super) fn f16_src(&mut self, c: &Ctx, i: usize) -> RuleResult<Handle> {
        let op = self.src_op(c, i)?;
        let mut v = self.read32(&op)?;
        if c.enc == Encoding::VOP3 && c.mods.op_sel & (1 << i) != 0 {
            v = self.b.shrc(v, 16);
        }
        if let Some(sd) = c.mods.sdwa {
            if i < 2 {
                let sel = if i == 0 { sd.src0_sel } else { sd.src1_sel };
                v = self.sdwa_sel(v, sel, false);
            }
        }
        let v = self.b.andc(v, 0xffff);
        Ok(self.apply_absneg(Fmt::F16, v, c, i))
    }

    pub(super) fn f64_src(&mut self, c: &Ctx, i: usize) -> RuleResult<Handle> {
        let op = self.src_op(c, i)?;
        let v = self.read64(&op, true)?;
        Ok(self.apply_absneg(Fmt::F64, v, c, i))
    }

    /// Source operands after SDWA selection (integers: no modifiers).
    pub(super) fn int_srcs(&mut self, c: &Ctx) -> RuleResult<Vec<Handle>> {
        let mut out = Vec::with_capacity(c.srcs.len());
        for (i, s) in c.srcs.iter().enumerate() {
            let v = self.read32(s)?;
            let v = match (&c.mods.sdwa, i) {
                (Some(sd), 0) => self.sdwa_sel(v, sd.src0_sel, sd.src0_sext),
                (Some(sd), 1) => self.sdwa_sel(v, sd.src1_sel, sd.src1_sext),
                _ => v,
            };
            out.push(v);
        }
        Ok(out)
    }

    /// SDWA source select: BYTE_0..3 (0..3), WORD_0/1 (4, 5), DWORD (6).
    pub(crate) fn sdwa_sel(&mut self, v: Handle, sel: u8, sext: bool) -> Handle {
        let b = &mut self.b;
        let (shift, width) = match sel {
            0..=3 => (u32::from(sel) * 8, 8),
            4 | 5 => (u32::from(sel - 4) * 16, 16),
            _ => return v,
        };
        let s = b.shlc(v, 32 - shift - width);
        if sext {
            b.sarc(s, 32 - width)
        } else {
            b.shrc(s, 32 - width)
        }
    }

    /// Destination of a compare's lane mask: EXEC for v_cmpx_*, else the first destination.
    pub(crate) fn cmp_dst(&self, inst: &Instruction) -> RuleResult<Operand> {
        if inst.info().has(Flags::CMPX) {
            let count = if self.wave == Wave::W64 { 2 } else { 1 };
            return Ok(Operand::Reg(rdnaprobe_isa::Reg {
                kind: RegKind::Exec,
                index: 0,
                count,
            }));
        }
        inst.dsts(self.wave)
            .first()
            .copied()
            .ok_or_else(|| RuleError::operand("no destination"))
    }
}
