//! Result modifiers and result writes: SDWA dst_sel/dst_unused, omod on f32, f16 and f64
//! results and clamp (rules: output-modifier, clamp), FP16_OVFL (rule: fp16-overflow), and
//! 16-bit results keeping the destination's upper half (rule: f16-keeps-high).

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{FloatBin, Handle, IntCmp};
use rdnaprobe_isa::table::Flags;
use rdnaprobe_isa::{Encoding, Instruction, Operand, RegKind, Round};

impl Lowerer {
    /// Writes a 32-bit VALU result to the first destination, with SDWA dst_sel/dst_unused.
    pub(crate) fn write_result(&mut self, inst: &Instruction, v: Handle) -> RuleResult {
        let dsts = inst.dsts(self.wave);
        let d = dsts.first().ok_or(RuleError::operand("no destination"))?;
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
    pub(super) fn write16(&mut self, c: &Ctx, r: Handle) -> RuleResult {
        let r = self.b.andc(r, 0xffff);
        if c.mods.sdwa.is_some() {
            return self.write_result(c.inst, r);
        }
        let dsts = c.inst.dsts(self.wave);
        let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
        let old = match d {
            Operand::Reg(reg) if reg.kind == rdnaprobe_isa::RegKind::Vgpr => {
                self.vgpr_get(reg.index)
            }
            _ => self.b.c32(0),
        };
        let hi = c.enc == Encoding::VOP3 && c.mods.op_sel & 8 != 0;
        let keep = c.inst.info().has(Flags::KEEPS_HIGH) || c.enc == Encoding::VOP3;
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

    pub(super) fn write64(&mut self, c: &Ctx, r: Handle) -> RuleResult {
        let lo = self.b.trunc64(r);
        let hi = self.b.hi32(r);
        let dsts = c.inst.dsts(self.wave);
        let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
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

#[cfg(test)]
mod tests {
    use crate::lower::tests::run_in;
    use rdnaprobe_isa::{FloatMode, Target};

    /// IEEE=0, f32 and f16/f64 denormals flushed (the mode where omod applies) with `round16`.
    fn titles(round16: u8) -> FloatMode {
        FloatMode {
            ieee: false,
            denorm32: 0,
            denorm16: 0,
            round16,
            ..FloatMode::DEFAULT
        }
    }

    fn lo(text: &str, mode: FloatMode, i: [u32; 6]) -> u32 {
        run_in(text, mode, Target::Gfx1030, i, 0)[0]
    }

    fn f64_out(text: &str, mode: FloatMode, x: u64, y: u64) -> u64 {
        let i = [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32, 0, 0];
        let o = run_in(text, mode, Target::Gfx1030, i, 0);
        u64::from(o[0]) | (u64::from(o[1]) << 32)
    }

    #[test]
    fn f16_omod_follows_ieee_and_the_f16_output_field() {
        let t = "v_add_f16_e64 v10, v4, v5 mul:2";
        let i = [0x3c00, 0x3800, 0, 0, 0, 0]; // 1.0 + 0.5
        assert_eq!(lo(t, titles(0), i) & 0xffff, 0x4200);
        // denorm16 = 1 keeps inputs and still flushes outputs: applied
        let m = FloatMode {
            denorm16: 1,
            ..titles(0)
        };
        assert_eq!(lo(t, m, i) & 0xffff, 0x4200);
        // outputs kept or IEEE=1: ignored
        let m = FloatMode {
            denorm16: 3,
            ..titles(0)
        };
        assert_eq!(lo(t, m, i) & 0xffff, 0x3e00);
        let m = FloatMode {
            ieee: true,
            ..titles(0)
        };
        assert_eq!(lo(t, m, i) & 0xffff, 0x3e00);
        // the f32 field does not govern an f16 result
        let m = FloatMode {
            denorm32: 3,
            ..titles(0)
        };
        assert_eq!(lo(t, m, i) & 0xffff, 0x4200);
    }

    #[test]
    fn f16_omod_rounds_flushes_and_overflows_by_the_mode() {
        // the smallest normal halved is a flushed denormal
        let t = "v_add_f16_e64 v10, v4, v5 div:2";
        assert_eq!(lo(t, titles(0), [0x0400, 0, 0, 0, 0, 0]) & 0xffff, 0);
        assert_eq!(lo(t, titles(0), [0x3c00, 0, 0, 0, 0, 0]) & 0xffff, 0x3800);
        // 32768 * 4 overflows: infinity to nearest, the largest finite value toward zero
        let t = "v_add_f16_e64 v10, v4, v5 mul:4";
        assert_eq!(lo(t, titles(0), [0x7800, 0, 0, 0, 0, 0]) & 0xffff, 0x7c00);
        assert_eq!(lo(t, titles(3), [0x7800, 0, 0, 0, 0, 0]) & 0xffff, 0x7bff);
        // a NaN result is unchanged
        let t = "v_max_f16_e64 v10, v4, v5 mul:2";
        assert_eq!(
            lo(t, titles(0), [0x7e01, 0x7e01, 0, 0, 0, 0]) & 0xffff,
            0x7e01
        );
    }

    #[test]
    fn f64_omod_scales_the_exponent() {
        let (one, half) = (0x3ff0_0000_0000_0000, 0x3fe0_0000_0000_0000);
        let t = "v_add_f64 v[10:11], v[4:5], v[6:7] mul:2";
        assert_eq!(f64_out(t, titles(0), one, half), 0x4008_0000_0000_0000);
        let kept = FloatMode {
            denorm16: 3,
            ..titles(0)
        };
        assert_eq!(f64_out(t, kept, one, half), 0x3ff8_0000_0000_0000);
        let t = "v_add_f64 v[10:11], v[4:5], v[6:7] mul:4";
        assert_eq!(f64_out(t, titles(0), one, half), 0x4018_0000_0000_0000);
        let t = "v_add_f64 v[10:11], v[4:5], v[6:7] div:2";
        assert_eq!(f64_out(t, titles(0), one, half), 0x3fe8_0000_0000_0000);
        // v_cvt_f64_f32 takes omod too
        let i = [0x3f80_0000, 0, 0, 0, 0, 0];
        let o = run_in(
            "v_cvt_f64_f32_e64 v[10:11], v4 mul:2",
            titles(0),
            Target::Gfx1030,
            i,
            0,
        );
        assert_eq!((o[0], o[1]), (0, 0x4000_0000));
    }

    #[test]
    fn f64_omod_overflow_and_underflow_follow_round16() {
        let t = "v_add_f64 v[10:11], v[4:5], v[6:7] mul:4";
        let (big, nbig) = (0x7fe0_0000_0000_0000u64, 0xffe0_0000_0000_0000u64);
        assert_eq!(f64_out(t, titles(0), big, 0), 0x7ff0_0000_0000_0000);
        assert_eq!(f64_out(t, titles(3), big, 0), 0x7fef_ffff_ffff_ffff);
        // toward +inf: a negative overflow stops at -max
        assert_eq!(f64_out(t, titles(1), nbig, 0), 0xffef_ffff_ffff_ffff);
        assert_eq!(f64_out(t, titles(2), nbig, 0), 0xfff0_0000_0000_0000);
        // omod applies only with f64 output flushing, and the add flushes its denormal sum
        // first (rule: f64-denormals), as the f32 forms do: times 4 or 2, it stays 0
        let d = 0x0004_0000_0000_0000;
        assert_eq!(f64_out(t, titles(0), d, 0), 0);
        let t2 = "v_add_f64 v[10:11], v[4:5], v[6:7] mul:2";
        assert_eq!(f64_out(t2, titles(0), d, 0), 0);
        // a normal sum whose product is a denormal is flushed after the omod
        let n = 0x0010_0000_0000_0000;
        let t3 = "v_add_f64 v[10:11], v[4:5], v[6:7] div:2";
        assert_eq!(f64_out(t3, titles(0), n, 0), 0);
        assert_eq!(f64_out(t, titles(0), n, 0), 0x0030_0000_0000_0000);
        // halving the largest value of the lowest binade is a tie that rounds up to the
        // smallest normal to nearest, and is flushed toward zero; its neighbour is flushed
        let t = "v_add_f64 v[10:11], v[4:5], v[6:7] div:2";
        let top = 0x001f_ffff_ffff_ffff;
        assert_eq!(f64_out(t, titles(0), top, 0), 0x0010_0000_0000_0000);
        assert_eq!(f64_out(t, titles(3), top, 0), 0);
        assert_eq!(f64_out(t, titles(0), top - 1, 0), 0);
        assert_eq!(
            f64_out(t, titles(2), top | (1 << 63), 0),
            0x8010_0000_0000_0000
        );
        // infinities and NaNs are unchanged
        let inf = 0x7ff0_0000_0000_0000;
        assert_eq!(f64_out(t, titles(0), inf, 0), inf);
    }
}
