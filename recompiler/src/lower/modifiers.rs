//! Result modifiers and result writes: SDWA dst_sel/dst_unused, omod on f32, f16 and f64
//! results and clamp (rules: output-modifier, clamp), FP16_OVFL (rule: fp16-overflow), and
//! 16-bit results keeping the destination's upper half (rule: f16-keeps-high).

use super::operands::Ctx;
use super::Lowerer;
use crate::build::{Fmt, Tiny};
use crate::ir::{FloatBin, Handle, IntCmp};
use rdnaprobe_isa::table::flags;
use rdnaprobe_isa::{Encoding, Instruction, Operand, RegKind, Round};

impl Lowerer {
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

    /// Result modifiers of an f32 result: omod then clamp (rules: output-modifier, clamp).
    pub(super) fn f32_result(&mut self, c: &Ctx, r: Handle) -> Handle {
        let r = self.omod_small(c, Fmt::F32, r);
        if c.mods.clamp {
            self.clamp(Fmt::F32, r)
        } else {
            r
        }
    }

    /// Result modifiers of a scalar f16 result without FP16_OVFL: omod then clamp.
    pub(super) fn f16_result(&mut self, c: &Ctx, r: Handle) -> Handle {
        let r = self.omod_small(c, Fmt::F16, r);
        if c.mods.clamp {
            self.clamp(Fmt::F16, r)
        } else {
            r
        }
    }

    /// Result modifiers of an f64 result: omod then clamp.
    pub(super) fn f64_result(&mut self, c: &Ctx, r: Handle) -> Handle {
        let r = self.omod_f64(c, r);
        if c.mods.clamp {
            self.clamp(Fmt::F64, r)
        } else {
            r
        }
    }

    /// rule: output-modifier (docs/semantics.md): omod applies only with IEEE=0 and output
    /// denormals of the result's precision flushed (`denorm32` for f32, `denorm16` for f16 and
    /// f64), and is ignored otherwise.
    fn omod_applies(&self, c: &Ctx, fmt: Fmt) -> bool {
        let flush_out = if fmt == Fmt::F32 {
            self.flush_out32()
        } else {
            self.flush_out16()
        };
        c.mods.omod != 0 && !self.mode.ieee && flush_out
    }

    /// omod on an f32 or f16 result: the exact product with 2, 4 or 0.5 rounded once in the
    /// format's rounding mode, a denormal result flushed; NaNs unchanged.
    fn omod_small(&mut self, c: &Ctx, fmt: Fmt, r: Handle) -> Handle {
        if !self.omod_applies(c, fmt) {
            return r;
        }
        let k = match c.mods.omod {
            1 => 2.0,
            2 => 4.0,
            _ => 0.5,
        };
        let round = if fmt == Fmt::F32 {
            self.mode.round32()
        } else {
            self.mode.round16()
        };
        let b = &mut self.b;
        let nan = b.is_nan(fmt, r);
        let x = b.to_f64(fmt, r);
        let kk = b.cf64(k);
        let y = b.fb(FloatBin::Mul, x, kk);
        let y = b.round_to(fmt, y, None, round, true, Tiny::Result);
        b.sel(nan, r, y)
    }

    /// omod on an f64 result, on the bits: the exponent field moves by 1, 2 or -1 (a denormal
    /// is shifted, which is its exact product), an overflow gives infinity or the largest
    /// finite value as `round16` says, and a result below the smallest normal is flushed
    /// (tiny when rounded with the bounded exponent, as `Tiny::Result`). NaNs and infinities
    /// are unchanged.
    fn omod_f64(&mut self, c: &Ctx, r: Handle) -> Handle {
        if !self.omod_applies(c, Fmt::F64) {
            return r;
        }
        let f = Fmt::F64;
        let round = self.mode.round16();
        let omod = c.mods.omod;
        let b = &mut self.b;
        let sign = b.andc(r, f.sign_mask());
        let neg = b.nec(sign, 0);
        let a = b.andc(r, !f.sign_mask());
        let special = b.icmpc(IntCmp::GeU, a, f.exp_mask());
        let normal_min = 1u64 << 52;
        // whether rounding moves this sign's magnitude up (nearest even: the tie goes up here)
        let up = match round {
            Round::NearestEven => b.cb(true),
            Round::Zero => b.cb(false),
            Round::PlusInf => b.bnot(neg),
            Round::MinusInf => neg,
        };
        let v = if omod == 3 {
            // div:2: exponent - 1; from the lowest binade the result is below the smallest
            // normal, except the all-ones significand, whose half is a tie or the last step
            // below 2^-1022 and rounds up to it when the mode rounds this sign up
            let normal = b.icmpc(IntCmp::GeU, a, 2 << 52);
            let halved = b.addc(a, (1u64 << 52).wrapping_neg());
            let top = b.eqc(a, (2 << 52) - 1);
            let to_min = b.band(top, up);
            let min = b.c64(normal_min);
            let zero = b.c64(0);
            let low = b.sel(to_min, min, zero);
            b.sel(normal, halved, low)
        } else {
            let k = u32::from(omod);
            let den = b.icmpc(IntCmp::LtU, a, normal_min);
            let shifted = b.shlc(a, k);
            let still_den = b.icmpc(IntCmp::LtU, shifted, normal_min);
            let zero = b.c64(0);
            let shifted = b.sel(still_den, zero, shifted);
            let raised = b.addc(a, u64::from(k) << 52);
            let over = b.icmpc(IntCmp::GeU, raised, f.exp_mask());
            let inf = b.c64(f.exp_mask());
            let max = b.c64(f.exp_mask() - 1);
            let big = b.sel(up, inf, max);
            let raised = b.sel(over, big, raised);
            b.sel(den, shifted, raised)
        };
        let v = b.or(v, sign);
        b.sel(special, r, v)
    }

    /// rule: clamp (docs/semantics.md). Clamps to [0, 1]; a NaN gives +0 with DX10_CLAMP=1 and
    /// stays as it is with DX10_CLAMP=0.
    pub(super) fn clamp(&mut self, fmt: Fmt, r: Handle) -> Handle {
        let dx10 = self.mode.dx10_clamp;
        let b = &mut self.b;
        let nan = b.is_nan(fmt, r);
        let neg = b.sign_of(fmt, r);
        let one = b.cf(fmt, fmt.one());
        let above = b.icmp(IntCmp::GtU, r, one);
        let zero = b.cf(fmt, 0);
        let v = b.sel(above, one, r);
        let v = b.sel(neg, zero, v);
        if dx10 {
            b.sel(nan, zero, v)
        } else {
            b.sel(nan, r, v)
        }
    }

    /// Writes a 16-bit result: VOP3 op_sel[3] writes the high half; SDWA uses dst_sel;
    /// otherwise the low half, keeping bits 31:16 (rule: f16-keeps-high).
    pub(super) fn write16(&mut self, c: &Ctx, r: Handle) -> Result<(), String> {
        let r = self.b.andc(r, 0xffff);
        if c.mods.sdwa.is_some() {
            return self.write_result(c.inst, r);
        }
        let dsts = c.inst.dsts(self.wave);
        let d = *dsts.first().ok_or("no destination")?;
        let old = match d {
            Operand::Reg(reg) if reg.kind == rdnaprobe_isa::RegKind::Vgpr => {
                self.vgpr_get(reg.index)
            }
            _ => self.b.c32(0),
        };
        let hi = c.enc == Encoding::VOP3 && c.mods.op_sel & 8 != 0;
        let keep = c.inst.info().has(flags::KEEPS_HIGH) || c.enc == Encoding::VOP3;
        let v = if hi {
            let lo = self.b.andc(old, 0xffff);
            let s = self.b.shlc(r, 16);
            self.b.or(lo, s)
        } else if keep {
            let h = self.b.andc(old, 0xffff_0000);
            self.b.or(h, r)
        } else {
            r
        };
        self.write_vdst(&d, &[v])
    }

    pub(super) fn write64(&mut self, c: &Ctx, r: Handle) -> Result<(), String> {
        let lo = self.b.trunc64(r);
        let hi = self.b.hi32(r);
        let dsts = c.inst.dsts(self.wave);
        let d = *dsts.first().ok_or("no destination")?;
        self.write_vdst(&d, &[lo, hi])
    }

    /// rule: fp16-overflow (docs/semantics.md): with FP16_OVFL=1 an infinite f16 result from
    /// finite sources becomes ±65504.
    pub(super) fn fp16_ovfl(&mut self, r: Handle, src_inf: Handle) -> Handle {
        if !self.mode.fp16_overflow {
            return r;
        }
        let b = &mut self.b;
        let inf = b.is_inf(Fmt::F16, r);
        let nsi = b.bnot(src_inf);
        let clampit = b.band(inf, nsi);
        let s = b.andc(r, 0x8000);
        let mx = b.orc(s, 0x7bff);
        b.sel(clampit, mx, r)
    }

    pub(super) fn any_inf(&mut self, fmt: Fmt, xs: &[Handle]) -> Handle {
        let mut any = self.b.cb(false);
        for &x in xs {
            let i = self.b.is_inf(fmt, x);
            any = self.b.bor(any, i);
        }
        any
    }

    /// The f16 rounding mode of ops whose directed rounding is only honoured with f16
    /// denormals kept (rule: f16-directed-rounding).
    pub(super) fn round16_kept(&self) -> Round {
        if self.mode.denorm16 == 3 {
            self.mode.round16()
        } else {
            Round::NearestEven
        }
    }

    /// f16 result modifiers: omod, FP16_OVFL, then clamp.
    pub(super) fn f16_finish(&mut self, c: &Ctx, r: Handle, src_inf: Handle) -> Handle {
        let r = self.omod_small(c, Fmt::F16, r);
        let r = self.fp16_ovfl(r, src_inf);
        if c.mods.clamp {
            self.clamp(Fmt::F16, r)
        } else {
            r
        }
    }
}
