//! Lowering: decoded RDNA2 instructions -> one per-lane [`Kernel`] under the lane contract.
//!
//! Before the body v4..v9 are `Input(0..5)`, v10..v25 and every other register read before it
//! is written are 0, EXEC has every lane and VCC is 0. After the body v10..v25 are the outputs.
//! Lane masks (VCC, SGPR masks) are tracked per lane: a VOPC or `v_div_scale_*` sets this lane's
//! bit ([`Expr::LaneId`]) and a reader (`v_cndmask_b32`, `v_div_fmas_*`, carries) reads this
//! lane's bit, so the other lanes' bits of a mask written by a VALU op read as 0 here.
//!
//! The float mode is constant at lowering time: the rules specialise on it, one kernel per
//! (body, mode, wave, target). Every semantic rule lives in `build` (format-independent
//! primitives) or `float` (the instruction families) and is named in docs/semantics.md.

mod float;
mod float16;
mod float64;
pub mod interp16;
mod unary;

use crate::build::Builder;
use crate::ir::{Expr, Handle, IntBin, IntCmp, IntUn, Kernel};
use rdnaprobe_isa::{
    decode_stream, Decoded, Encoding, FloatMode, Instruction, Operand, RegKind, Special, Target,
    Wave,
};
use std::collections::HashMap;

/// Why a body could not be lowered. Every variant names the instruction's word offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// The instruction (or one of its operands/modifiers) has no lowering.
    #[error("word {offset}: {mnemonic}: {reason}")]
    Unsupported {
        offset: usize,
        mnemonic: String,
        reason: String,
    },
    /// The decoder did not recognise the instruction.
    #[error("word {offset}: {reason}")]
    Undecoded { offset: usize, reason: String },
    /// The words could not be decoded at all (truncated stream).
    #[error("decode: {0}")]
    Decode(String),
}

/// Decodes `words` and lowers them ([`lower`]).
pub fn lower_words(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
) -> Result<Kernel, LowerError> {
    let body = decode_stream(words).map_err(|e| LowerError::Decode(e.to_string()))?;
    lower(&body, mode, wave, gfx)
}

/// Lowers a decoded body for one float mode, wave size and target.
pub fn lower(
    body: &[Decoded],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
) -> Result<Kernel, LowerError> {
    let mut l = Lowerer::new(mode, wave, gfx);
    let mut offset = 0usize;
    for d in body {
        match d {
            Decoded::Inst(inst) => l.inst(inst, offset)?,
            Decoded::Unsupported(u) => {
                return Err(LowerError::Undecoded {
                    offset,
                    reason: u.to_string(),
                });
            }
        }
        offset += d.len();
    }
    Ok(l.finish())
}

/// Whether the lowering has a rule for `mnemonic` (the table's spelling, e.g. `v_add_f32`)
/// on `gfx`. Used by the coverage test.
pub fn is_lowered(mnemonic: &str, gfx: Target) -> bool {
    let base = cmpx_base(mnemonic);
    let m = base.as_deref().unwrap_or(mnemonic);
    float::lowered(m, gfx) || int_lowered(m)
}

fn int_lowered(m: &str) -> bool {
    INT_OPS.contains(&m) || m.starts_with("v_cmp_") && cmp_kind(m).is_some()
}

/// The v_cmp_* mnemonic of a v_cmpx_* one (same compare, EXEC as the destination).
pub(crate) fn cmpx_base(m: &str) -> Option<String> {
    m.strip_prefix("v_cmpx_")
        .map(|rest| format!("v_cmp_{rest}"))
}

const INT_OPS: &[&str] = &[
    "s_nop",
    "s_mov_b32",
    "s_mov_b64",
    "v_nop",
    "v_mov_b32",
    "v_cndmask_b32",
    "v_lshrrev_b32",
    "v_lshlrev_b32",
    "v_ashrrev_i32",
    "v_and_b32",
    "v_or_b32",
    "v_xor_b32",
    "v_xnor_b32",
    "v_not_b32",
    "v_bfrev_b32",
    "v_add_nc_u32",
    "v_sub_nc_u32",
    "v_subrev_nc_u32",
    "v_min_i32",
    "v_max_i32",
    "v_min_u32",
    "v_max_u32",
    "v_mul_lo_u32",
    "v_mul_hi_u32",
    "v_mul_hi_i32",
    "v_mul_u32_u24",
    "v_mul_i32_i24",
    "v_bfe_u32",
    "v_bfe_i32",
    "v_bfi_b32",
    "v_bcnt_u32_b32",
    "v_ffbh_u32",
    "v_ffbl_b32",
    "v_add_co_u32",
    "v_sub_co_u32",
    "v_subrev_co_u32",
    "v_add_co_ci_u32",
    "v_sub_co_ci_u32",
    "v_subrev_co_ci_u32",
    "v_lshl_add_u32",
    "v_add_lshl_u32",
    "v_lshl_or_b32",
    "v_and_or_b32",
    "v_or3_b32",
    "v_xor3_b32",
    "v_add3_u32",
    "v_min3_i32",
    "v_max3_i32",
    "v_min3_u32",
    "v_max3_u32",
    "v_med3_i32",
    "v_med3_u32",
    "v_add_nc_i32",
    "v_sub_nc_i32",
    "v_alignbit_b32",
    "v_alignbyte_b32",
    "v_bfm_b32",
    "v_mul_hi_u32_u24",
    "v_mul_hi_i32_i24",
    "v_mad_u32_u24",
    "v_mad_i32_i24",
    "v_xad_u32",
    "v_ffbh_i32",
    "v_lshlrev_b64",
    "v_lshrrev_b64",
    "v_ashrrev_i64",
    "v_cvt_f32_ubyte0",
    "v_cvt_f32_ubyte1",
    "v_cvt_f32_ubyte2",
    "v_cvt_f32_ubyte3",
    "v_mbcnt_lo_u32_b32",
    "v_mbcnt_hi_u32_b32",
];

/// The per-body lowering state: the register files as IR values.
pub(crate) struct Lowerer {
    pub(crate) b: Builder,
    pub(crate) mode: FloatMode,
    pub(crate) wave: Wave,
    pub(crate) gfx: Target,
    vgpr: HashMap<u16, Handle>,
    /// Scalar registers by source code (SGPRs, VCC 106/107, TTMP, M0 124, EXEC 126/127).
    sgpr: HashMap<u16, Handle>,
    lane: Handle,
    /// EXEC is known to hold every lane (no body instruction wrote it).
    exec_all: bool,
}

/// Where an operand's value lives, for writes.
fn sreg_code(kind: RegKind, index: u16) -> Option<u16> {
    match kind {
        RegKind::Sgpr => Some(index),
        RegKind::Vcc => Some(106 + index),
        RegKind::Ttmp => Some(108 + index),
        RegKind::M0 => Some(124),
        RegKind::Exec => Some(126 + index),
        RegKind::Null | RegKind::Vgpr => None,
    }
}

impl Lowerer {
    fn new(mode: FloatMode, wave: Wave, gfx: Target) -> Lowerer {
        let mut b = Builder::new();
        let mut vgpr = HashMap::new();
        for i in 0..6u8 {
            let h = b.push(Expr::Input(i));
            vgpr.insert(4 + u16::from(i), h);
        }
        let lane = b.push(Expr::LaneId);
        let mut sgpr = HashMap::new();
        let all = b.c32(u32::MAX);
        sgpr.insert(126, all);
        if wave == Wave::W64 {
            sgpr.insert(127, all);
        }
        Lowerer {
            b,
            mode,
            wave,
            gfx,
            vgpr,
            sgpr,
            lane,
            exec_all: true,
        }
    }

    fn finish(mut self) -> Kernel {
        let outs: Vec<Handle> = (10..26u16).map(|r| self.vgpr_get(r)).collect();
        self.b.k.outputs = outs;
        debug_assert_eq!(self.b.k.validate(), Ok(()));
        self.b.k
    }

    pub(crate) fn vgpr_get(&mut self, r: u16) -> Handle {
        match self.vgpr.get(&r) {
            Some(&h) => h,
            None => self.b.c32(0),
        }
    }
    fn sgpr_get(&mut self, code: u16) -> Handle {
        match self.sgpr.get(&code) {
            Some(&h) => h,
            None => self.b.c32(0),
        }
    }

    /// This lane's EXEC bit, or `None` when EXEC is known to be all ones.
    fn exec_bit(&mut self) -> Option<Handle> {
        if self.exec_all {
            return None;
        }
        let lo = self.sgpr_get(126);
        let hi = self.sgpr_get(127);
        Some(self.lane_bit(lo, hi))
    }

    /// Bit `lane` of the mask held in (lo, hi).
    fn lane_bit(&mut self, lo: Handle, hi: Handle) -> Handle {
        let b = &mut self.b;
        let l31 = b.andc(self.lane, 31);
        let word = if self.wave == Wave::W64 {
            let upper = b.icmpc(IntCmp::GeU, self.lane, 32);
            b.sel(upper, hi, lo)
        } else {
            lo
        };
        let s = b.ib(IntBin::ShrU, word, l31);
        b.bit(s, 1)
    }

    /// Writes VGPR `r` under EXEC.
    pub(crate) fn vgpr_set(&mut self, r: u16, v: Handle) {
        let v = match self.exec_bit() {
            Some(e) => {
                let old = self.vgpr_get(r);
                self.b.sel(e, v, old)
            }
            None => v,
        };
        self.vgpr.insert(r, v);
    }

    fn unsupported(inst: &Instruction, offset: usize, reason: impl Into<String>) -> LowerError {
        LowerError::Unsupported {
            offset,
            mnemonic: inst.info().mnemonic.to_string(),
            reason: reason.into(),
        }
    }

    /// Reads `dwords` dwords of a source operand. `float64` says how a literal widens to 64
    /// bits (an f64 literal is the high dword).
    pub(crate) fn read(
        &mut self,
        op: &Operand,
        dwords: u8,
        float64: bool,
    ) -> Result<Vec<Handle>, String> {
        let n = usize::from(dwords.max(1));
        let mut out = Vec::with_capacity(n);
        match *op {
            Operand::Reg(r) => {
                for i in 0..n as u16 {
                    let h = match r.kind {
                        RegKind::Vgpr => self.vgpr_get(r.index + i),
                        RegKind::Null => self.b.c32(0),
                        k => {
                            let code = sreg_code(k, r.index + i).unwrap_or(125);
                            self.sgpr_get(code)
                        }
                    };
                    out.push(h);
                }
            }
            Operand::InlineInt(v) => {
                out.push(self.b.c32(v as i32 as u32));
                if n == 2 {
                    out.push(self.b.c32(if v < 0 { u32::MAX } else { 0 }));
                }
            }
            Operand::InlineFloat { bits, .. } => {
                out.push(self.b.c32(bits as u32));
                if n == 2 {
                    out.push(self.b.c32((bits >> 32) as u32));
                }
            }
            Operand::Literal(v) => {
                if n == 2 && float64 {
                    out.push(self.b.c32(0));
                    out.push(self.b.c32(v));
                } else {
                    out.push(self.b.c32(v));
                    if n == 2 {
                        out.push(self.b.c32(0));
                    }
                }
            }
            Operand::Special(Special::Execz) | Operand::Special(Special::Vccz) => {
                let code = if matches!(op, Operand::Special(Special::Execz)) {
                    126
                } else {
                    106
                };
                let lo = self.sgpr_get(code);
                let hi = self.sgpr_get(code + 1);
                let z = if self.wave == Wave::W64 {
                    let o = self.b.or(lo, hi);
                    self.b.eqc(o, 0)
                } else {
                    self.b.eqc(lo, 0)
                };
                out.push(self.b.b2u(z));
            }
            Operand::Special(s) => return Err(format!("source {} is not modelled", s.name())),
            Operand::Invalid(c) => return Err(format!("invalid source code {c}")),
        }
        out.truncate(n);
        while out.len() < n {
            let z = self.b.c32(0);
            out.push(z);
        }
        Ok(out)
    }

    pub(crate) fn read32(&mut self, op: &Operand) -> Result<Handle, String> {
        Ok(self.read(op, 1, false)?[0])
    }

    /// Reads a 64-bit source as `U64`.
    pub(crate) fn read64(&mut self, op: &Operand, float: bool) -> Result<Handle, String> {
        let v = self.read(op, 2, float)?;
        Ok(self.b.pack64(v[0], v[1]))
    }

    /// This lane's bit of a lane-mask source.
    pub(crate) fn read_mask(&mut self, op: &Operand) -> Result<Handle, String> {
        let n = if self.wave == Wave::W64 { 2 } else { 1 };
        let v = self.read(op, n, false)?;
        let hi = if n == 2 { v[1] } else { v[0] };
        Ok(self.lane_bit(v[0], hi))
    }

    /// Writes a 32-bit scalar destination (whole register).
    fn write_sreg(&mut self, op: &Operand, vals: &[Handle]) -> Result<(), String> {
        match *op {
            Operand::Reg(r) => {
                if r.kind == RegKind::Null {
                    return Ok(());
                }
                for (i, &v) in vals.iter().enumerate() {
                    let code = sreg_code(r.kind, r.index + i as u16)
                        .ok_or_else(|| "destination is not a scalar register".to_string())?;
                    if code == 126 || code == 127 {
                        self.exec_all = false;
                    }
                    self.sgpr.insert(code, v);
                }
                Ok(())
            }
            _ => Err("destination is not a register".into()),
        }
    }

    /// Writes this lane's bit `bit` (Bool) of a lane-mask destination; the other lanes' bits
    /// are 0 in this lane's view.
    pub(crate) fn write_mask(&mut self, op: &Operand, bit: Handle) -> Result<(), String> {
        let bit = match self.exec_bit() {
            Some(e) => self.b.band(e, bit),
            None => bit,
        };
        let b = &mut self.b;
        let u = b.b2u(bit);
        let l31 = b.andc(self.lane, 31);
        let sh = b.ib(IntBin::Shl, u, l31);
        let vals = if self.wave == Wave::W64 {
            let upper = b.icmpc(IntCmp::GeU, self.lane, 32);
            let z = b.c32(0);
            let lo = b.sel(upper, z, sh);
            let hi = b.sel(upper, sh, z);
            vec![lo, hi]
        } else {
            vec![sh]
        };
        self.write_sreg(op, &vals)
    }

    /// Writes the first destination (a VGPR, `dwords` wide).
    pub(crate) fn write_vdst(&mut self, op: &Operand, vals: &[Handle]) -> Result<(), String> {
        match *op {
            Operand::Reg(r) if r.kind == RegKind::Vgpr => {
                for (i, &v) in vals.iter().enumerate() {
                    self.vgpr_set(r.index + i as u16, v);
                }
                Ok(())
            }
            Operand::Reg(_) => self.write_sreg(op, vals),
            _ => Err("destination is not a register".into()),
        }
    }

    fn inst(&mut self, inst: &Instruction, offset: usize) -> Result<(), LowerError> {
        let info = inst.info();
        let m = info.mnemonic_for(self.gfx);
        let enc = inst.encoding();
        if matches!(enc, Encoding::DPP16 | Encoding::DPP8) {
            return Err(Self::unsupported(inst, offset, "DPP reads other lanes"));
        }
        let r = match enc {
            Encoding::SOPP => {
                if m == "s_nop" || m == "s_endpgm" {
                    Ok(())
                } else {
                    Err(format!("{m} is not modelled (scalar control flow)"))
                }
            }
            Encoding::SOP1 if m == "s_mov_b32" || m == "s_mov_b64" => {
                let dw = if m == "s_mov_b64" { 2 } else { 1 };
                let srcs = inst.srcs(self.wave);
                let dsts = inst.dsts(self.wave);
                match (srcs.first(), dsts.first()) {
                    (Some(s), Some(d)) => {
                        self.read(s, dw, false).and_then(|v| self.write_sreg(d, &v))
                    }
                    _ => Err("missing operand".into()),
                }
            }
            Encoding::VOP1
            | Encoding::VOP2
            | Encoding::VOPC
            | Encoding::VOP3
            | Encoding::VOP3P
            | Encoding::SDWA => self.valu(inst, m),
            _ => Err(format!(
                "{} instructions are not modelled",
                info.family.name()
            )),
        };
        r.map_err(|reason| Self::unsupported(inst, offset, reason))
    }

    /// Destination of a compare's lane mask: EXEC for v_cmpx_*, else the first destination.
    pub(crate) fn cmp_dst(&self, inst: &Instruction) -> Result<Operand, String> {
        if inst.info().mnemonic.starts_with("v_cmpx_") {
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
            .ok_or_else(|| "no destination".to_string())
    }

    fn valu(&mut self, inst: &Instruction, m: &str) -> Result<(), String> {
        let base = cmpx_base(m);
        let m = base.as_deref().unwrap_or(m);
        if float::lowered(m, self.gfx) {
            return float::lower(self, inst, m);
        }
        if m.starts_with("v_cmp_") {
            if let Some(k) = cmp_kind(m) {
                return self.int_cmp(inst, k);
            }
        }
        self.int_op(inst, m)
    }

    /// Source operands after SDWA selection (integers: no modifiers).
    fn int_srcs(&mut self, inst: &Instruction) -> Result<Vec<Handle>, String> {
        let srcs = inst.srcs(self.wave);
        let mods = inst.modifiers();
        let mut out = Vec::new();
        for (i, s) in srcs.iter().enumerate() {
            let v = self.read32(s)?;
            let v = match (&mods.sdwa, i) {
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

    /// Writes a 32-bit VALU result to the first destination, with SDWA dst_sel/dst_unused.
    pub(crate) fn write_result(&mut self, inst: &Instruction, v: Handle) -> Result<(), String> {
        let dsts = inst.dsts(self.wave);
        let d = dsts.first().ok_or("no destination")?;
        let v = match inst.modifiers().sdwa {
            Some(sd) if sd.dst_sel < 6 => {
                let (shift, width) = match sd.dst_sel {
                    0..=3 => (u32::from(sd.dst_sel) * 8, 8u32),
                    _ => (u32::from(sd.dst_sel - 4) * 16, 16u32),
                };
                let fieldmask = (((1u64 << width) - 1) << shift) as u32;
                let b = &mut self.b;
                let placed = b.shlc(v, shift);
                let placed = b.andc(placed, u64::from(fieldmask));
                match sd.dst_unused {
                    // UNUSED_PRESERVE keeps the other bits of the destination
                    2 => {
                        let old = match *d {
                            Operand::Reg(r) if r.kind == RegKind::Vgpr => self.vgpr_get(r.index),
                            _ => self.b.c32(0),
                        };
                        let keep = self.b.andc(old, u64::from(!fieldmask));
                        self.b.or(keep, placed)
                    }
                    // UNUSED_SEXT sign-extends the field to the upper bits
                    1 => {
                        // bits below the field stay zero
                        let up = self.b.shlc(v, 32 - width);
                        let up = self.b.sarc(up, 32 - width - shift);
                        let low = self.b.c32(!((1u32 << shift).wrapping_sub(1)));
                        self.b.and(up, low)
                    }
                    _ => placed,
                }
            }
            _ => v,
        };
        self.write_vdst(d, &[v])
    }

    fn int_cmp(&mut self, inst: &Instruction, k: (IntCmp, bool, u8)) -> Result<(), String> {
        let (op, wide, _) = k;
        let srcs = inst.srcs(self.wave);
        if srcs.len() < 2 {
            return Err("compare needs two sources".into());
        }
        let (a, b) = if wide {
            (self.read64(&srcs[0], false)?, self.read64(&srcs[1], false)?)
        } else {
            let v = self.int_srcs(inst)?;
            (v[0], v[1])
        };
        let r = match k.2 {
            1 => self.b.cb(false),
            2 => self.b.cb(true),
            _ => self.b.icmp(op, a, b),
        };
        let d = self.cmp_dst(inst)?;
        self.write_mask(&d, r)
    }

    fn int_op(&mut self, inst: &Instruction, m: &str) -> Result<(), String> {
        let wave = self.wave;
        let s = self.int_srcs(inst)?;
        let arg = |i: usize| -> Result<Handle, String> {
            s.get(i)
                .copied()
                .ok_or_else(|| format!("{m}: missing source {i}"))
        };
        let b = &mut self.b;
        let v = match m {
            "v_nop" => return Ok(()),
            "v_mov_b32" => arg(0)?,
            "v_not_b32" => b.iu(IntUn::Not, arg(0)?),
            "v_bfrev_b32" => b.iu(IntUn::BitReverse, arg(0)?),
            "v_ffbl_b32" => b.iu(IntUn::FindLsb, arg(0)?),
            "v_ffbh_u32" => {
                // count of leading zeros, all ones for 0
                let x = arg(0)?;
                let msb = b.iu(IntUn::FindMsbU, x);
                let c31 = b.c32(31);
                let r = b.sub(c31, msb);
                let z = b.eqc(x, 0);
                let ones = b.c32(u32::MAX);
                b.sel(z, ones, r)
            }
            "v_bcnt_u32_b32" => {
                let p = b.iu(IntUn::Popcount, arg(0)?);
                b.add(p, arg(1)?)
            }
            "v_cndmask_b32" => {
                let srcs = inst.srcs(wave);
                let mask = srcs.get(2).ok_or("v_cndmask_b32 without a mask")?;
                let bit = self.read_mask(mask)?;
                let r = self.b.sel(bit, arg(1)?, arg(0)?);
                return self.write_result(inst, r);
            }
            "v_lshrrev_b32" => {
                let sh = b.andc(arg(0)?, 31);
                b.ib(IntBin::ShrU, arg(1)?, sh)
            }
            "v_lshlrev_b32" => {
                let sh = b.andc(arg(0)?, 31);
                b.ib(IntBin::Shl, arg(1)?, sh)
            }
            "v_ashrrev_i32" => {
                let sh = b.andc(arg(0)?, 31);
                b.ib(IntBin::ShrS, arg(1)?, sh)
            }
            "v_and_b32" => b.and(arg(0)?, arg(1)?),
            "v_or_b32" => b.or(arg(0)?, arg(1)?),
            "v_xor_b32" => b.xor(arg(0)?, arg(1)?),
            "v_xnor_b32" => {
                let x = b.xor(arg(0)?, arg(1)?);
                b.iu(IntUn::Not, x)
            }
            "v_add_nc_u32" | "v_add_nc_i32" => b.add(arg(0)?, arg(1)?),
            "v_sub_nc_i32" => b.sub(arg(0)?, arg(1)?),
            "v_alignbit_b32" | "v_alignbyte_b32" => {
                // ({src0, src1} >> shift)[31:0]
                let hi = b.zext(arg(0)?);
                let hi = b.shlc(hi, 32);
                let lo = b.zext(arg(1)?);
                let v = b.or(hi, lo);
                let sh = if m == "v_alignbit_b32" {
                    b.andc(arg(2)?, 31)
                } else {
                    let s = b.andc(arg(2)?, 3);
                    b.shlc(s, 3)
                };
                let sh = b.zext(sh);
                let r = b.ib(IntBin::ShrU, v, sh);
                b.trunc64(r)
            }
            "v_bfm_b32" => {
                // ((1 << width) - 1) << offset, 5-bit fields, truncating 32-bit shifts
                let w = b.andc(arg(0)?, 31);
                let o = b.andc(arg(1)?, 31);
                let one = b.c32(1);
                let m1 = b.ib(IntBin::Shl, one, w);
                let m1 = b.sub(m1, one);
                b.ib(IntBin::Shl, m1, o)
            }
            "v_mul_hi_u32_u24" => {
                let x = b.andc(arg(0)?, 0xff_ffff);
                let y = b.andc(arg(1)?, 0xff_ffff);
                b.ib(IntBin::MulHiU, x, y)
            }
            "v_mul_hi_i32_i24" => {
                let x = b.shlc(arg(0)?, 8);
                let x = b.sarc(x, 8);
                let y = b.shlc(arg(1)?, 8);
                let y = b.sarc(y, 8);
                b.ib(IntBin::MulHiS, x, y)
            }
            "v_mad_u32_u24" => {
                let x = b.andc(arg(0)?, 0xff_ffff);
                let y = b.andc(arg(1)?, 0xff_ffff);
                let p = b.ib(IntBin::Mul, x, y);
                b.add(p, arg(2)?)
            }
            "v_mad_i32_i24" => {
                let x = b.shlc(arg(0)?, 8);
                let x = b.sarc(x, 8);
                let y = b.shlc(arg(1)?, 8);
                let y = b.sarc(y, 8);
                let p = b.ib(IntBin::Mul, x, y);
                b.add(p, arg(2)?)
            }
            "v_xad_u32" => {
                let x = b.xor(arg(0)?, arg(1)?);
                b.add(x, arg(2)?)
            }
            "v_ffbh_i32" => {
                // index from the top of the first bit that differs from the sign bit
                let x = arg(0)?;
                let s = b.sarc(x, 31);
                let y = b.xor(x, s);
                let msb = b.iu(IntUn::FindMsbU, y);
                let c31 = b.c32(31);
                let r = b.sub(c31, msb);
                let z = b.eqc(y, 0);
                let ones = b.c32(u32::MAX);
                b.sel(z, ones, r)
            }
            "v_cvt_f32_ubyte0" | "v_cvt_f32_ubyte1" | "v_cvt_f32_ubyte2" | "v_cvt_f32_ubyte3" => {
                // a byte is exactly representable: build the f32 bits from the f64 value
                let k = u32::from(m.as_bytes()[m.len() - 1] - b'0');
                let v = b.shrc(arg(0)?, 8 * k);
                let v = b.andc(v, 0xff);
                let w = b.cvt(crate::ir::Convert::U32ToF64, v, crate::ir::Ty::F64);
                b.round_to(
                    crate::build::Fmt::F32,
                    w,
                    None,
                    rdnaprobe_isa::Round::NearestEven,
                    false,
                    crate::build::Tiny::Result,
                )
            }
            "v_mbcnt_lo_u32_b32" | "v_mbcnt_hi_u32_b32" => {
                // popcount of the mask bits of the lanes below this one (in this half)
                let lane = self.lane;
                let l = if m == "v_mbcnt_lo_u32_b32" {
                    lane
                } else {
                    let c32 = b.c32(32);
                    let ge = b.icmpc(IntCmp::GeU, lane, 32);
                    let d = b.sub(lane, c32);
                    let z = b.c32(0);
                    b.sel(ge, d, z)
                };
                let l = if m == "v_mbcnt_lo_u32_b32" {
                    let big = b.icmpc(IntCmp::GeU, lane, 32);
                    let c32 = b.c32(32);
                    b.sel(big, c32, l)
                } else {
                    l
                };
                let l64 = b.zext(l);
                let one = b.c64(1);
                let mk = b.ib(IntBin::Shl, one, l64);
                let mk = b.sub(mk, one);
                let mk = b.trunc64(mk);
                let bits = b.and(arg(0)?, mk);
                let p = b.iu(IntUn::Popcount, bits);
                b.add(p, arg(1)?)
            }
            "v_sub_nc_u32" => b.sub(arg(0)?, arg(1)?),
            "v_subrev_nc_u32" => b.sub(arg(1)?, arg(0)?),
            "v_min_i32" | "v_max_i32" | "v_min_u32" | "v_max_u32" => {
                let op = match m {
                    "v_min_i32" => IntCmp::LtS,
                    "v_max_i32" => IntCmp::GtS,
                    "v_min_u32" => IntCmp::LtU,
                    _ => IntCmp::GtU,
                };
                let (x, y) = (arg(0)?, arg(1)?);
                let c = b.icmp(op, x, y);
                b.sel(c, x, y)
            }
            "v_min3_i32" | "v_max3_i32" | "v_min3_u32" | "v_max3_u32" => {
                let op = match m {
                    "v_min3_i32" => IntCmp::LtS,
                    "v_max3_i32" => IntCmp::GtS,
                    "v_min3_u32" => IntCmp::LtU,
                    _ => IntCmp::GtU,
                };
                let (x, y, z) = (arg(0)?, arg(1)?, arg(2)?);
                let c = b.icmp(op, x, y);
                let t = b.sel(c, x, y);
                let c2 = b.icmp(op, t, z);
                b.sel(c2, t, z)
            }
            "v_med3_i32" | "v_med3_u32" => {
                let lt = if m == "v_med3_i32" {
                    IntCmp::LtS
                } else {
                    IntCmp::LtU
                };
                let (x, y, z) = (arg(0)?, arg(1)?, arg(2)?);
                let c = b.icmp(lt, x, y);
                let lo = b.sel(c, x, y);
                let hi = b.sel(c, y, x);
                let c2 = b.icmp(lt, hi, z);
                let m2 = b.sel(c2, hi, z);
                let c3 = b.icmp(lt, lo, m2);
                b.sel(c3, m2, lo)
            }
            "v_mul_lo_u32" => b.ib(IntBin::Mul, arg(0)?, arg(1)?),
            "v_mul_hi_u32" => b.ib(IntBin::MulHiU, arg(0)?, arg(1)?),
            "v_mul_hi_i32" => b.ib(IntBin::MulHiS, arg(0)?, arg(1)?),
            "v_mul_u32_u24" => {
                let x = b.andc(arg(0)?, 0xff_ffff);
                let y = b.andc(arg(1)?, 0xff_ffff);
                b.ib(IntBin::Mul, x, y)
            }
            "v_mul_i32_i24" => {
                let x = b.shlc(arg(0)?, 8);
                let x = b.sarc(x, 8);
                let y = b.shlc(arg(1)?, 8);
                let y = b.sarc(y, 8);
                b.ib(IntBin::Mul, x, y)
            }
            "v_bfe_u32" | "v_bfe_i32" => {
                // offset = src1[4:0], width = src2[4:0]; width 0 gives 0
                let off = b.andc(arg(1)?, 31);
                let w = b.andc(arg(2)?, 31);
                let c32 = b.c32(32);
                let up = b.sub(c32, w);
                let up = b.sub(up, off);
                let sh = b.ib(IntBin::Shl, arg(0)?, up);
                let sh = b.andc(sh, u64::from(u32::MAX));
                let tw = b.sub(c32, w);
                let r = if m == "v_bfe_i32" {
                    b.ib(IntBin::ShrS, sh, tw)
                } else {
                    b.ib(IntBin::ShrU, sh, tw)
                };
                // up may be negative (off + w > 32): then the field runs past bit 31
                let ow = b.add(off, w);
                let past = b.icmpc(IntCmp::GtU, ow, 32);
                let plain = b.ib(IntBin::ShrU, arg(0)?, off);
                let plain = if m == "v_bfe_i32" {
                    b.ib(IntBin::ShrS, arg(0)?, off)
                } else {
                    plain
                };
                let r = b.sel(past, plain, r);
                let z = b.eqc(w, 0);
                let zero = b.c32(0);
                b.sel(z, zero, r)
            }
            "v_bfi_b32" => {
                let (mk, x, y) = (arg(0)?, arg(1)?, arg(2)?);
                let a = b.and(mk, x);
                let nm = b.iu(IntUn::Not, mk);
                let c = b.and(nm, y);
                b.or(a, c)
            }
            "v_lshl_add_u32" => {
                let sh = b.andc(arg(1)?, 31);
                let s = b.ib(IntBin::Shl, arg(0)?, sh);
                b.add(s, arg(2)?)
            }
            "v_add_lshl_u32" => {
                let a = b.add(arg(0)?, arg(1)?);
                let sh = b.andc(arg(2)?, 31);
                b.ib(IntBin::Shl, a, sh)
            }
            "v_lshl_or_b32" => {
                let sh = b.andc(arg(1)?, 31);
                let s = b.ib(IntBin::Shl, arg(0)?, sh);
                b.or(s, arg(2)?)
            }
            "v_and_or_b32" => {
                let a = b.and(arg(0)?, arg(1)?);
                b.or(a, arg(2)?)
            }
            "v_or3_b32" => {
                let a = b.or(arg(0)?, arg(1)?);
                b.or(a, arg(2)?)
            }
            "v_xor3_b32" => {
                let a = b.xor(arg(0)?, arg(1)?);
                b.xor(a, arg(2)?)
            }
            "v_add3_u32" => {
                let a = b.add(arg(0)?, arg(1)?);
                b.add(a, arg(2)?)
            }
            "v_add_co_u32" | "v_sub_co_u32" | "v_subrev_co_u32" | "v_add_co_ci_u32"
            | "v_sub_co_ci_u32" | "v_subrev_co_ci_u32" => {
                let srcs = inst.srcs(wave);
                let (x, y) = if m.starts_with("v_subrev") {
                    (arg(1)?, arg(0)?)
                } else {
                    (arg(0)?, arg(1)?)
                };
                let cin = if m.ends_with("_ci_u32") {
                    let mk = srcs.get(2).ok_or("carry-in mask missing")?;
                    let bit = self.read_mask(mk)?;
                    self.b.b2u(bit)
                } else {
                    self.b.c32(0)
                };
                let b = &mut self.b;
                let x64 = b.zext(x);
                let y64 = b.zext(y);
                let c64 = b.zext(cin);
                let r = if m.starts_with("v_add") {
                    let s = b.add(x64, y64);
                    b.add(s, c64)
                } else {
                    let s = b.sub(x64, y64);
                    b.sub(s, c64)
                };
                let carry = b.shrc(r, 32);
                let carry = b.nec(carry, 0);
                let lo = b.trunc64(r);
                let dsts = inst.dsts(wave);
                let cd = dsts.get(1).ok_or("carry destination missing")?;
                self.write_result(inst, lo)?;
                return self.write_mask(cd, carry);
            }
            "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64" => {
                let srcs = inst.srcs(wave);
                let sh = self.read32(srcs.first().ok_or("missing shift")?)?;
                let x = self.read64(srcs.get(1).ok_or("missing source")?, false)?;
                let b = &mut self.b;
                let sh = b.andc(sh, 63);
                let sh = b.zext(sh);
                let op = match m {
                    "v_lshlrev_b64" => IntBin::Shl,
                    "v_lshrrev_b64" => IntBin::ShrU,
                    _ => IntBin::ShrS,
                };
                let r = b.ib(op, x, sh);
                let lo = b.trunc64(r);
                let hi = b.hi32(r);
                let dsts = inst.dsts(wave);
                let d = *dsts.first().ok_or("no destination")?;
                return self.write_vdst(&d, &[lo, hi]);
            }
            _ => return Err(format!("{m} has no lowering")),
        };
        self.write_result(inst, v)
    }
}

/// Integer compare mnemonics: (operation, 64-bit, 1 = always false / 2 = always true).
fn cmp_kind(m: &str) -> Option<(IntCmp, bool, u8)> {
    let rest = m.strip_prefix("v_cmp_")?;
    let (cond, ty) = rest.split_once('_')?;
    let (signed, wide) = match ty {
        "i32" => (true, false),
        "u32" => (false, false),
        "i64" => (true, true),
        "u64" => (false, true),
        _ => return None,
    };
    let op = match (cond, signed) {
        ("f", _) => return Some((IntCmp::Eq, wide, 1)),
        ("t", _) => return Some((IntCmp::Eq, wide, 2)),
        ("eq", _) => IntCmp::Eq,
        ("ne", _) => IntCmp::Ne,
        ("lt", true) => IntCmp::LtS,
        ("le", true) => IntCmp::LeS,
        ("gt", true) => IntCmp::GtS,
        ("ge", true) => IntCmp::GeS,
        ("lt", false) => IntCmp::LtU,
        ("le", false) => IntCmp::LeU,
        ("gt", false) => IntCmp::GtU,
        ("ge", false) => IntCmp::GeU,
        _ => return None,
    };
    Some((op, wide, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp;
    use rdnaprobe_isa::assemble;

    /// Assembles `text`, lowers it in the default mode on gfx1036 wave32 and runs lane `lane`.
    fn run(text: &str, inputs: [u32; 6], lane: u32) -> [u32; 16] {
        let words = assemble(text).expect("assembles");
        let k =
            lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036).expect("lowers");
        k.validate().expect("valid kernel");
        interp::run(&k, inputs, lane)
    }

    #[test]
    fn integer_helpers() {
        let i = [0x1234_5678, 0x9abc_def0, 8, 0, 0, 0];
        assert_eq!(run("v_alignbit_b32 v10, v4, v5, v6", i, 0)[0], 0x789a_bcde);
        assert_eq!(run("v_bfm_b32 v10, 4, 8", i, 0)[0], 0xf00);
        assert_eq!(run("v_bfe_u32 v10, v4, 8, 8", i, 0)[0], 0x56);
        assert_eq!(run("v_bfe_i32 v10, v5, 4, 8", i, 0)[0], 0xffff_ffef);
        assert_eq!(run("v_mul_hi_u32 v10, v4, v5", i, 0)[0], 0x0b00_ea4e);
        assert_eq!(run("v_ffbh_u32 v10, v4", i, 0)[0], 3);
    }

    #[test]
    fn lane_masks_are_per_lane() {
        // mbcnt counts the mask bits of the lanes below this one
        assert_eq!(run("v_mbcnt_lo_u32_b32 v10, -1, 0", [0; 6], 5)[0], 5);
        // a compare sets this lane's VCC bit; v_cndmask reads it back
        let t = "v_cmp_lt_u32 vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(run(t, [1, 2, 0, 0, 0, 0], 7)[0], 1);
        assert_eq!(run(t, [3, 2, 0, 0, 0, 0], 7)[0], 0);
        // v_cmpx turns this lane off: the later write does not happen
        let x = "v_cmpx_eq_u32 v4, v5\nv_mov_b32 v10, 9";
        assert_eq!(run(x, [1, 2, 0, 0, 0, 0], 3)[0], 0);
        assert_eq!(run(x, [2, 2, 0, 0, 0, 0], 3)[0], 9);
    }

    #[test]
    fn carry_chain() {
        let t = "v_add_co_u32 v10, vcc_lo, v4, v5\nv_add_co_ci_u32 v11, vcc_lo, v6, v7, vcc_lo";
        let o = run(t, [0xffff_ffff, 2, 5, 6, 0, 0], 0);
        assert_eq!((o[0], o[1]), (1, 12));
    }

    #[test]
    fn unsupported_instruction_names_itself() {
        let words = assemble("v_readlane_b32 s0, v4, 1").expect("assembles");
        let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036).unwrap_err();
        assert!(e.to_string().contains("v_readlane_b32"), "{e}");
    }
}
