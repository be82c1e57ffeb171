//! Packed f16 (VOP3P v_pk_*_f16: each half through the scalar f16 rules, rule:
//! packed-f16-nan) and the mixed-precision v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16.

use super::arithmetic::{arith, Arith};
use super::error::{RuleError, RuleResult};
use super::minmax::minmax;
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{FloatBin, Handle};
use rdnaprobe_isa::Round;

/// The packed f16 operation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Pk {
    Add,
    Mul,
    Fma,
    Min,
    Max,
}

/// Which v_fma_mix form: the f32 result, or the f16 result in the low or high half.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Mix {
    F32,
    Lo,
    Hi,
}

impl Lowerer {
    /// Packed source `i`, element `hi`: op_sel / op_sel_hi pick the half, neg_lo / neg_hi
    /// negate it.
    pub(super) fn pk_src(&mut self, c: &Ctx, i: usize, hi: bool) -> RuleResult<Handle> {
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
    fn mix_src(&mut self, c: &Ctx, i: usize) -> RuleResult<(Handle, bool)> {
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

/// v_pk_add_f16, v_pk_mul_f16, v_pk_fma_f16, v_pk_min_f16, v_pk_max_f16.
pub(super) fn pk_f16(l: &mut Lowerer, c: &Ctx, op: Pk) -> RuleResult {
    let ieee = l.mode.ieee;
    let round = l.mode.round16();
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let mut halves = [l.b.c32(0); 2];
    for (h, hv) in halves.iter_mut().enumerate() {
        let hi = h == 1;
        let n = if op == Pk::Fma { 3 } else { 2 };
        let mut s = Vec::new();
        for i in 0..n {
            s.push(l.pk_src(c, i, hi)?);
        }
        // rule: packed-f16-nan
        let r = match op {
            Pk::Max | Pk::Min => {
                let a = l.b.flush_if(Fmt::F16, s[0], fi);
                let bb = l.b.flush_if(Fmt::F16, s[1], fi);
                let r = minmax(&mut l.b, Fmt::F16, a, bb, op == Pk::Max, ieee);
                l.b.flush_if(Fmt::F16, r, fo)
            }
            Pk::Add | Pk::Mul | Pk::Fma => {
                let kind = match op {
                    Pk::Add => Arith::Add,
                    Pk::Mul => Arith::Mul,
                    Pk::Fma | Pk::Min | Pk::Max => Arith::Fma,
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

/// v_fma_mix_f32 (f32 result, the f32 fma rules) and v_fma_mixlo/hi_f16 (the exact
/// product-sum rounded once to f16 in the f16 mode).
// rule: fma-mix
pub(super) fn mix(l: &mut Lowerer, c: &Ctx, which: Mix) -> RuleResult {
    let ieee = l.mode.ieee;
    let mut s = Vec::new();
    for i in 0..3 {
        s.push(l.mix_src(c, i)?.0);
    }
    if which == Mix::F32 {
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
    let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
    let old = l.read32(&d)?;
    let b = &mut l.b;
    let r = b.andc(r, 0xffff);
    let v = if which == Mix::Hi {
        let lo = b.andc(old, 0xffff);
        let h = b.shlc(r, 16);
        b.or(lo, h)
    } else {
        let h = b.andc(old, 0xffff_0000);
        b.or(h, r)
    };
    l.write_vdst(&d, &[v])
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run;

    #[test]
    fn packed_halves_are_computed_apart() {
        // low halves 2.0 + 1.0, high halves 1.0 + 1.0
        let o = run(
            "v_pk_add_f16 v10, v4, v5",
            [0x3c00_4000, 0x3c00_3c00, 0, 0, 0, 0],
            0,
        );
        assert_eq!(o[0], 0x4000_4200);
        let o = run(
            "v_pk_max_f16 v10, v4, v5",
            [0x3c00_4000, 0x4000_3c00, 0, 0, 0, 0],
            0,
        );
        assert_eq!(o[0], 0x4000_4000);
    }

    #[test]
    fn mixhi_writes_the_high_half_and_keeps_the_low() {
        // f32 sources: 1.0 * 2.0 + 0.5 = 2.5 (f16 0x4100)
        let t = "v_mov_b32 v10, 0x1234\nv_fma_mixhi_f16 v10, v4, v5, v6";
        let o = run(t, [0x3f80_0000, 0x4000_0000, 0x3f00_0000, 0, 0, 0], 0);
        assert_eq!(o[0], 0x4100_1234);
    }
}
