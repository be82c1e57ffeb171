//! Result modifiers and result writes: SDWA dst_sel/dst_unused, omod and clamp (rules:
//! output-modifier, clamp), FP16_OVFL (rule: fp16-overflow), and 16-bit results keeping the
//! destination's upper half (rule: f16-keeps-high).

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
        let mut r = r;
        // rule: output-modifier (docs/semantics.md): applied only with IEEE=0 and f32 output
        // denormals flushed, ignored otherwise.
        if c.mods.omod != 0 && !self.mode.ieee && self.flush_out32() {
            let k = match c.mods.omod {
                1 => 2.0,
                2 => 4.0,
                _ => 0.5,
            };
            let b = &mut self.b;
            let nan = b.is_nan(Fmt::F32, r);
            let x = b.f32_to_f64_exact(r);
            let kk = b.cf64(k);
            let y = b.fb(FloatBin::Mul, x, kk);
            let y = b.round_to(Fmt::F32, y, None, self.mode.round32(), true, Tiny::Result);
            r = b.sel(nan, r, y);
        }
        if c.mods.clamp {
            r = self.clamp(Fmt::F32, r);
        }
        r
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

    /// f16 result modifiers: FP16_OVFL, then clamp.
    pub(super) fn f16_finish(&mut self, c: &Ctx, r: Handle, src_inf: Handle) -> Handle {
        let r = self.fp16_ovfl(r, src_inf);
        if c.mods.clamp {
            self.clamp(Fmt::F16, r)
        } else {
            r
        }
    }
}
