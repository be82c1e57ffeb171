//! f16 instructions: scalar f16 arithmetic, unary and conversion ops, packed f16 (VOP3P) and
//! the mixed-precision v_fma_mix* forms.

use super::float::{arith, div_fixup, ldexp, minmax, Arith, Ctx};
use super::unary::Unary;
use super::Lowerer;
use crate::build::{Builder, Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntCmp, Ty};
use rdnaprobe_isa::Round;

impl Lowerer {
    /// The f16 rounding mode of ops whose directed rounding is only honoured with f16
    /// denormals kept (rule: f16-directed-rounding).
    fn round16_kept(&self) -> Round {
        if self.mode.denorm16 == 3 {
            self.mode.round16()
        } else {
            Round::NearestEven
        }
    }

    /// f16 result modifiers: FP16_OVFL, then clamp.
    fn f16_finish(&mut self, c: &Ctx, r: Handle, src_inf: Handle) -> Handle {
        let r = self.fp16_ovfl(r, src_inf);
        if c.mods.clamp {
            self.clamp(Fmt::F16, r)
        } else {
            r
        }
    }

    /// Packed source `i`, element `hi`: op_sel / op_sel_hi pick the half, neg_lo / neg_hi
    /// negate it.
    fn pk_src(&mut self, c: &Ctx, i: usize, hi: bool) -> Result<Handle, String> {
        let op = self.src_op(c, i)?;
        let v = self.read32(&op)?;
        let sel = if hi { c.mods.op_sel_hi } else { c.mods.op_sel };
        let v = if sel & (1 << i) != 0 {
            self.b.shrc(v, 16)
        } else {
            v
        };
        let v = self.b.andc(v, 0xffff);
        let neg = if hi { c.mods.neg_hi } else { c.mods.neg_lo };
        Ok(if neg & (1 << i) != 0 {
            self.b.xorc(v, 0x8000)
        } else {
            v
        })
    }

    /// A v_fma_mix* source as f32 bits: op_sel_hi[i] set reads an f16 (op_sel[i] picks the
    /// half), converted exactly; neg_lo is neg and neg_hi is abs.
    fn mix_src(&mut self, c: &Ctx, i: usize) -> Result<(Handle, bool), String> {
        let op = self.src_op(c, i)?;
        let v = self.read32(&op)?;
        let is16 = c.mods.op_sel_hi & (1 << i) != 0;
        let v = if is16 {
            let v = if c.mods.op_sel & (1 << i) != 0 {
                self.b.shrc(v, 16)
            } else {
                v
            };
            let v = self.b.andc(v, 0xffff);
            let fi = self.flush_in16();
            let v = self.b.flush_if(Fmt::F16, v, fi);
            self.b.f16_to_f32_bits(v)
        } else {
            v
        };
        let v = if c.mods.neg_hi & (1 << i) != 0 {
            self.b.abs_bits(Fmt::F32, v)
        } else {
            v
        };
        let v = if c.mods.neg_lo & (1 << i) != 0 {
            self.b.neg_bits(Fmt::F32, v)
        } else {
            v
        };
        Ok((v, is16))
    }
}

pub(super) fn lower16(l: &mut Lowerer, c: &Ctx, m: &str) -> Result<(), String> {
    let ieee = l.mode.ieee;
    let round = l.mode.round16();
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    match m {
        "v_add_f16" | "v_sub_f16" | "v_subrev_f16" | "v_mul_f16" | "v_fma_f16" | "v_fmac_f16" => {
            let mut a = l.f16_src(c, 0)?;
            let mut bb = l.f16_src(c, 1)?;
            let mut srcs = vec![];
            let kind = match m {
                "v_mul_f16" => Arith::Mul,
                "v_fma_f16" | "v_fmac_f16" => Arith::Fma,
                _ => Arith::Add,
            };
            if m == "v_subrev_f16" {
                std::mem::swap(&mut a, &mut bb);
            }
            if m == "v_sub_f16" || m == "v_subrev_f16" {
                bb = l.b.neg_bits(Fmt::F16, bb);
            }
            srcs.push(a);
            srcs.push(bb);
            if m == "v_fma_f16" {
                srcs.push(l.f16_src(c, 2)?);
            } else if m == "v_fmac_f16" {
                let dsts = c.inst.dsts(l.wave);
                let d = *dsts.first().ok_or("no destination")?;
                let acc = l.read32(&d)?;
                srcs.push(l.b.andc(acc, 0xffff));
            }
            // rule: scalar-f16-denormals: flushing follows denorm16 at every rounding mode
            let r = arith(&mut l.b, Fmt::F16, kind, &srcs, round, fi, fo, ieee);
            let si = l.any_inf(Fmt::F16, &srcs);
            let r = l.f16_finish(c, r, si);
            l.write16(c, r)
        }
        "v_max_f16" | "v_min_f16" => {
            let a = l.f16_src(c, 0)?;
            let bb = l.f16_src(c, 1)?;
            let a = l.b.flush_if(Fmt::F16, a, fi);
            let bb = l.b.flush_if(Fmt::F16, bb, fi);
            let r = minmax(&mut l.b, Fmt::F16, a, bb, m == "v_max_f16", ieee);
            let r = l.b.flush_if(Fmt::F16, r, fo);
            let r = if c.mods.clamp {
                l.clamp(Fmt::F16, r)
            } else {
                r
            };
            l.write16(c, r)
        }
        "v_ldexp_f16" => {
            let a = l.f16_src(c, 0)?;
            let op1 = l.src_op(c, 1)?;
            let n = l.read32(&op1)?;
            // the exponent operand is a signed 16-bit integer
            let n = l.b.shlc(n, 16);
            let n = l.b.sarc(n, 16);
            let r16 = l.round16_kept();
            // rule: ldexp-f16: a flushed result is tiny on its exact value
            let r = ldexp(l, Fmt::F16, a, n, fi, fo, r16, Tiny::BeforeRounding);
            let ai = l.b.is_inf(Fmt::F16, a);
            let r = l.f16_finish(c, r, ai);
            l.write16(c, r)
        }
        "v_div_fixup_f16" => {
            let a = l.f16_src(c, 0)?;
            let bb = l.f16_src(c, 1)?;
            let cc = l.f16_src(c, 2)?;
            let r = div_fixup(l, Fmt::F16, a, bb, cc);
            // FP16_OVFL keeps the infinity written for a zero denominator or an infinite
            // numerator and clamps any other infinite quotient
            let b = &mut l.b;
            let z1 = b.is_zero(Fmt::F16, bb);
            let i2 = b.is_inf(Fmt::F16, cc);
            let keep = b.bor(z1, i2);
            let r = l.f16_finish(c, r, keep);
            l.write16(c, r)
        }
        "v_fma_mix_f32" | "v_fma_mixlo_f16" | "v_fma_mixhi_f16" => mix(l, c, m),
        "v_pk_add_f16" | "v_pk_mul_f16" | "v_pk_fma_f16" | "v_pk_max_f16" | "v_pk_min_f16" => {
            let mut halves = [l.b.c32(0); 2];
            for (h, hv) in halves.iter_mut().enumerate() {
                let hi = h == 1;
                let n = if m == "v_pk_fma_f16" { 3 } else { 2 };
                let mut s = Vec::new();
                for i in 0..n {
                    s.push(l.pk_src(c, i, hi)?);
                }
                // rule: packed-f16-nan
                let r = match m {
                    "v_pk_max_f16" | "v_pk_min_f16" => {
                        let a = l.b.flush_if(Fmt::F16, s[0], fi);
                        let bb = l.b.flush_if(Fmt::F16, s[1], fi);
                        let r = minmax(&mut l.b, Fmt::F16, a, bb, m == "v_pk_max_f16", ieee);
                        l.b.flush_if(Fmt::F16, r, fo)
                    }
                    _ => {
                        let kind = match m {
                            "v_pk_add_f16" => Arith::Add,
                            "v_pk_mul_f16" => Arith::Mul,
                            _ => Arith::Fma,
                        };
                        let r = arith(&mut l.b, Fmt::F16, kind, &s, round, fi, fo, ieee);
                        let si = l.any_inf(Fmt::F16, &s);
                        l.fp16_ovfl(r, si)
                    }
                };
                let r = if c.mods.clamp {
                    l.clamp(Fmt::F16, r)
                } else {
                    r
                };
                *hv = l.b.andc(r, 0xffff);
            }
            let hi = l.b.shlc(halves[1], 16);
            let v = l.b.or(halves[0], hi);
            l.write_result(c.inst, v)
        }
        "v_cvt_f16_u16" | "v_cvt_f16_i16" => {
            let op = l.src_op(c, 0)?;
            let x = l.read32(&op)?;
            let b = &mut l.b;
            let x = if m == "v_cvt_f16_i16" {
                let s = b.shlc(x, 16);
                b.sarc(s, 16)
            } else {
                b.andc(x, 0xffff)
            };
            let cv = if m == "v_cvt_f16_i16" {
                Convert::S32ToF64
            } else {
                Convert::U32ToF64
            };
            let w = b.cvt(cv, x, Ty::F64);
            let r16 = l.round16_kept();
            let r = l.b.round_to(Fmt::F16, w, None, r16, fo, Tiny::Result);
            let f = l.b.cb(false);
            let r = l.f16_finish(c, r, f);
            l.write16(c, r)
        }
        "v_cvt_u16_f16" | "v_cvt_i16_f16" => {
            let x = l.f16_src(c, 0)?;
            let b = &mut l.b;
            let x = b.flush_if(Fmt::F16, x, fi);
            let w = b.f16_to_f64_exact(x);
            let t = b.fu(FloatUn::Trunc, w);
            let (lo, hi) = if m == "v_cvt_u16_f16" {
                (0.0, 65535.0)
            } else {
                (-32768.0, 32767.0)
            };
            let r = clamp_to_int(b, t, lo, hi);
            let nan = b.is_nan(Fmt::F16, x);
            let z = b.c32(0);
            let r = b.sel(nan, z, r);
            l.write16(c, r)
        }
        "v_cvt_norm_i16_f16" | "v_cvt_norm_u16_f16" => {
            let x = l.f16_src(c, 0)?;
            let r = norm16(l, x, m == "v_cvt_norm_i16_f16");
            l.write16(c, r)
        }
        "v_cvt_pknorm_i16_f16" | "v_cvt_pknorm_u16_f16" => {
            let x = l.f16_src(c, 0)?;
            let y = l.f16_src(c, 1)?;
            let s = m == "v_cvt_pknorm_i16_f16";
            let a = norm16(l, x, s);
            let bb = norm16(l, y, s);
            let a = l.b.andc(a, 0xffff);
            let bb = l.b.shlc(bb, 16);
            let v = l.b.or(a, bb);
            l.write_result(c.inst, v)
        }
        "v_sat_pk_u8_i16" => {
            let op = l.src_op(c, 0)?;
            let x = l.read32(&op)?;
            let b = &mut l.b;
            let mut out = b.c32(0);
            for h in 0..2 {
                let v = b.shlc(x, 16 - 16 * h);
                let v = b.sarc(v, 16);
                let z = b.c32(0);
                let ff = b.c32(255);
                let neg = b.icmpc(IntCmp::LtS, v, 0);
                let big = b.icmpc(IntCmp::GtS, v, 255);
                let v = b.sel(neg, z, v);
                let v = b.sel(big, ff, v);
                let v = b.shlc(v, 8 * h);
                out = b.or(out, v);
            }
            l.write_result(c.inst, out)
        }
        _ => unary16(l, c, m),
    }
}

fn clamp_to_int(b: &mut Builder, t: Handle, lo: f64, hi: f64) -> Handle {
    let lo_c = b.cf64(lo);
    let hi_c = b.cf64(hi);
    let below = b.fcmp(FloatCmp::OrdLt, t, lo_c);
    let t = b.sel(below, lo_c, t);
    let above = b.fcmp(FloatCmp::OrdGt, t, hi_c);
    let t = b.sel(above, hi_c, t);
    b.cvt(Convert::F64ToS32, t, Ty::U32)
}

/// rule: cvt-norm: f16 to a normalised 16-bit integer: clamp to [-1, 1] ([0, 1]), scale by
/// 32767 (65535), round to nearest even; NaN gives 0.
fn norm16(l: &mut Lowerer, x: Handle, signed: bool) -> Handle {
    let fi = l.flush_in16();
    let b = &mut l.b;
    let x = b.flush_if(Fmt::F16, x, fi);
    let w = b.f16_to_f64_exact(x);
    let (lo, k) = if signed {
        (-1.0, 32767.0)
    } else {
        (0.0, 65535.0)
    };
    let lo_c = b.cf64(lo);
    let one = b.cf64(1.0);
    let below = b.fcmp(FloatCmp::OrdLt, w, lo_c);
    let w = b.sel(below, lo_c, w);
    let above = b.fcmp(FloatCmp::OrdGt, w, one);
    let w = b.sel(above, one, w);
    let kc = b.cf64(k);
    let s = b.fb(FloatBin::Mul, w, kc);
    let r = b.fu(FloatUn::RoundEven, s);
    let r = b.cvt(Convert::F64ToS32, r, Ty::U32);
    let nan = b.is_nan(Fmt::F16, x);
    let z = b.c32(0);
    b.sel(nan, z, r)
}

/// v_fma_mix_f32 (f32 result, the f32 fma rules) and v_fma_mixlo/hi_f16 (the exact
/// product-sum rounded once to f16 in the f16 mode: rule: fma-mix).
fn mix(l: &mut Lowerer, c: &Ctx, m: &str) -> Result<(), String> {
    let ieee = l.mode.ieee;
    let mut s = Vec::new();
    for i in 0..3 {
        s.push(l.mix_src(c, i)?.0);
    }
    if m == "v_fma_mix_f32" {
        let (fi, fo) = (l.flush_in32(), l.flush_out32());
        let round = l.mode.round32();
        let r = arith(&mut l.b, Fmt::F32, Arith::Fma, &s, round, fi, fo, ieee);
        let r = l.f32_result(c, r);
        return l.write_result(c.inst, r);
    }
    // f16 result: f32 sources flushed by denorm32, exact sum rounded once to f16
    let fi = l.flush_in32();
    let fo = l.flush_out16();
    let round = l.mode.round16();
    let b = &mut l.b;
    let s: Vec<Handle> = s.iter().map(|&x| b.flush_if(Fmt::F32, x, fi)).collect();
    let w: Vec<Handle> = s.iter().map(|&x| b.f32_to_f64_exact(x)).collect();
    let p = b.fb(FloatBin::Mul, w[0], w[1]);
    let r = b.round_sum(Fmt::F16, p, w[2], round, fo, Tiny::Result);
    // NaN and invalid cases: the f32 rules, then converted (always quiet)
    let r32 = arith(
        b,
        Fmt::F32,
        Arith::Fma,
        &s,
        Round::NearestEven,
        false,
        false,
        true,
    );
    let n32 = b.is_nan(Fmt::F32, r32);
    let q = b.nan32_to_16(r32);
    let r = b.sel(n32, q, r);
    let si = l.any_inf(Fmt::F32, &s);
    let r = l.f16_finish(c, r, si);
    // mixlo writes the low half and mixhi the high half; the other half is kept
    let dsts = c.inst.dsts(l.wave);
    let d = *dsts.first().ok_or("no destination")?;
    let old = l.read32(&d)?;
    let b = &mut l.b;
    let r = b.andc(r, 0xffff);
    let v = if m == "v_fma_mixhi_f16" {
        let lo = b.andc(old, 0xffff);
        let h = b.shlc(r, 16);
        b.or(lo, h)
    } else {
        let h = b.andc(old, 0xffff_0000);
        b.or(h, r)
    };
    l.write_vdst(&d, &[v])
}

/// f16 unary ops: computed exactly (or as closely as f64 allows) and rounded once to f16.
fn unary16(l: &mut Lowerer, c: &Ctx, m: &str) -> Result<(), String> {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let round = l.mode.round16();
    let x0 = l.f16_src(c, 0)?;
    let b = &mut l.b;
    // rule: f16-unary-denormals: a denormal input is flushed with denorm16 bit 0 clear
    let x = b.flush_if(Fmt::F16, x0, fi);
    let u = Unary::new(b, Fmt::F16, x, ieee, round, fo);
    if m == "v_frexp_exp_i16_f16" {
        let r = u.frexp_exp(b);
        return l.write16(c, r);
    }
    let r = m
        .strip_suffix("_f16")
        .and_then(|op| u.rule(b, op))
        .ok_or_else(|| format!("{m} has no lowering"))?;
    let si = l.b.is_inf(Fmt::F16, x0);
    let r = l.f16_finish(c, r, si);
    l.write16(c, r)
}
