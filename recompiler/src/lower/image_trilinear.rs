//! Trilinear filtering (S# MIP_FILTER linear) and the blend of a sample's taps, under the wave
//! contract (rule: image-sample-trilinear). Nothing here is measured: no gfx103x row samples
//! with MIP_FILTER linear, so every step below is the model's documented choice, built on the
//! bilinear model of [`super::image_sample`] (8-bit weights, an exact f64 sum rounded once).
//!
//! - The LOD: `_l` the address dword's f32 LOD as it is (a NaN as 0). The derivative forms
//!   (no suffix, `_cl`, `_b`, `_d`, `_cd`, `_g16`) take the squared footprint `rho2` of the
//!   point-mipmapped rule ([`super::image_lod::footprint`]) and the LOD `0.5 * log2(rho2)` in
//!   1/256 steps, `L = floor(128 * log2(rho2))`, found without a logarithm: `128 e + r` for
//!   `rho2 = m * 2^e` (1 <= m < 2), `r` the count of the edges `2^(j/128)` (j in 1..128,
//!   the f64s of [`EXP2_128THS`] that the bias's level tests use) that `m` reaches. A zero or
//!   NaN footprint is LOD -infinity (level 0 after the clamp), an infinite one +infinity. `_b`
//!   adds the bias in the same 1/256 steps (`B = round_even(bias * 256)` clamped to +-4096),
//!   `_cl` takes the larger of the LOD `(L + B) / 256` and the clamp dword.
//! - The levels: the LOD clamped to `[0, min(MAX_LOD / 256, LAST_LEVEL - BASE_LEVEL)]`, then
//!   `l0 = floor(lod)`, the weight of the second level `wl = round_even(frac(lod) * 256)` (a
//!   weight of 256 is level `l0 + 1` at weight 0) and `l1 = min(l0 + 1, top)`, `top` the last
//!   level MAX_LOD reaches (`min(ceil(MAX_LOD / 256), LAST_LEVEL - BASE_LEVEL)`).
//! - The value: each level's taps (its bilinear footprint, or its one nearest texel under point
//!   filtering: "nearest texel, linear between levels"), level l0's weighted by `256 - wl` and
//!   level l1's by `wl` (so out of 2^24; a 3D image's 8 taps a level out of 2^32, rule
//!   image-sample-3d), blended as bilinear taps are ([`blend`]: exact products but a 3D
//!   image's, rounded to nearest even where a 32-bit weight meets a 24-bit significand, the
//!   sum in f64 in tap order, level l0's taps first, taps of weight 0 left out, rounded once
//!   to f32 after dividing by the total). With `wl = 0` the value is level l0's bilinear or
//!   point sample bit for bit (point sampling returns the texel's bits unchanged).
//! - `_c`: each level's taps are compared, then the 1.0/0.0 results filtered as above (0 on
//!   8-bit UNORM and sRGB, rule image-sample-compare). A gather never filters between levels:
//!   with MIP_FILTER linear it reads the one level MIP_FILTER point would (chosen).

use super::error::RuleResult;
use super::image::slots;
use super::image_axis::nan_as_zero_f64;
use super::image_desc::Tsharp;
use super::image_lod::{clamp_lod, lod_cap, lod_steps, Footprint};
use super::image_sample::{compare_taps, selected, Lod, SampleAt, Tap};
use super::regs::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntCmp, Ty};
use rdnaprobe_isa::Round;

/// The unclamped f64 LOD of a trilinear sample of the form `lod` (see the module docs):
/// `_l`'s dword, or the footprint's LOD in 1/256 steps (with `_b`'s bias, at least `_cl`'s
/// clamp dword `extra`).
/// rule: image-sample-trilinear
pub(super) fn trilinear_lod(
    l: &mut Lowerer,
    t: &Tsharp,
    lod: Lod,
    from: Footprint<'_>,
    extra: Option<Handle>,
    unnorm: bool,
) -> Handle {
    if lod == Lod::Explicit {
        let v = extra.expect("the _l dword");
        return nan_as_zero_f64(l, v);
    }
    let steps = lod_steps(l, t, from, unnorm);
    let v = l.b.cvt(Convert::S32ToF64, steps, Ty::F64);
    let k = l.b.cf64(1.0 / 256.0);
    let v = l.b.fb(FloatBin::Mul, v, k);
    match (lod, extra) {
        (Lod::Clamp, Some(c)) => {
            let c = nan_as_zero_f64(l, c);
            let over = l.b.fcmp(FloatCmp::OrdGt, c, v);
            l.b.sel(over, c, v)
        }
        _ => v,
    }
}

/// The values a trilinear sample writes: levels `l0` and `l1` of the f64 LOD `lod` (unclamped;
/// a NaN as 0) between BASE_LEVEL and BASE_LEVEL + `top`, blended (see the module docs).
/// rule: image-sample-trilinear
pub(super) fn trilinear(
    l: &mut Lowerer,
    at: &SampleAt<'_>,
    t: &Tsharp,
    lod: Handle,
    top: u32,
) -> RuleResult<Vec<Handle>> {
    let s = at.s;
    let lod = clamp_lod(l, lod, lod_cap(s, t));
    let (l0, l1, w0, wl) = {
        let b = &mut l.b;
        let bits = b.bits_of_f64(lod);
        let fl = b.round_integral(Fmt::F64, FloatUn::Floor, bits);
        let fl = b.f64_of(fl);
        let l0 = b.cvt(Convert::F64ToU32, fl, Ty::U32);
        // the fraction and its 256ths are exact in f64
        let frac = b.fb(FloatBin::Sub, lod, fl);
        let k256 = b.cf64(256.0);
        let scaled = b.fb(FloatBin::Mul, frac, k256);
        let sb = b.bits_of_f64(scaled);
        let r = b.round_integral(Fmt::F64, FloatUn::RoundEven, sb);
        let r = b.f64_of(r);
        let wl = b.cvt(Convert::F64ToU32, r, Ty::U32);
        let full = b.eqc(wl, 256);
        let next = b.addc(l0, 1);
        let l0 = b.sel(full, next, l0);
        let zero = b.c32(0);
        let wl = b.sel(full, zero, wl);
        let last = b.icmpc(IntCmp::GeU, l0, u64::from(top));
        let next = b.addc(l0, 1);
        let topc = b.c32(top);
        let l1 = b.sel(last, topc, next);
        let c256 = b.c32(256);
        let w0 = b.sub(c256, wl);
        (l0, l1, w0, wl)
    };
    let f = t.format;
    let mut per_level: Vec<Vec<Tap>> = Vec::new();
    for k in 0..=top {
        let tk = Tsharp {
            base_level: t.base_level + k,
            ..t.clone()
        };
        let taps = at.taps(l, &tk)?;
        per_level.push(match at.reference {
            Some(r) => match compare_taps(l, &f, s, &taps, r) {
                Some(results) => results,
                // 8-bit UNORM and sRGB: 0 (rule image-sample-compare)
                None => return Ok(vec![l.b.c32(0)]),
            },
            None => taps,
        });
    }
    let pick = |l: &mut Lowerer, level: Handle| {
        let mut out = per_level[0].clone();
        for (k, taps) in per_level.iter().enumerate().skip(1) {
            let is = l.b.eqc(level, k as u64);
            for ((comps, w), (kc, kw)) in out.iter_mut().zip(taps) {
                for (c, &v) in comps.iter_mut().zip(kc) {
                    *c = l.b.sel(is, v, *c);
                }
                *w = l.b.sel(is, *kw, *w);
            }
        }
        out
    };
    let first = pick(l, l0);
    let second = pick(l, l1);
    let mut taps: Vec<Tap> = Vec::with_capacity(2 * first.len());
    for (level, scale) in [(&first, w0), (&second, wl)] {
        // exact: at most 2^24 * 256
        let scale = l.b.cvt(Convert::U32ToF64, scale, Ty::F64);
        for (comps, w) in level {
            let w = l.b.fb(FloatBin::Mul, *w, scale);
            taps.push((comps.clone(), w));
        }
    }
    let single = l.b.eqc(wl, 0);
    let comps: Vec<Handle> = (0..first[0].0.len())
        .map(|k| {
            let v = blend(l, &taps, k, 256.0 * at.total());
            if at.bilinear {
                v
            } else {
                // point filtering within a level: level l0's texel, bits unchanged
                l.b.sel(single, first[0].0[k], v)
            }
        })
        .collect();
    if at.reference.is_some() {
        return Ok(vec![comps[0]]);
    }
    slots(at.dmask)
        .map(|slot| selected(l, &f, t, slot, &comps))
        .collect()
}

/// Component `k` of the blend of `taps` whose weights (F64 integers) sum to `total` (65536
/// bilinear, 2^24 trilinear or a 3D image's bilinear, 2^32 a 3D image's trilinear; see the
/// module docs of [`super::image_sample`]).
/// rule: image-sample-weights
pub(super) fn blend(l: &mut Lowerer, taps: &[Tap], k: usize, total: f64) -> Handle {
    let b = &mut l.b;
    let mut acc = b.cf64(0.0);
    let mut first_nan = b.c32(0x7fc0_0000);
    let mut any_nan = b.cb(false);
    let zero = b.cf64(0.0);
    for (comps, w) in taps.iter().rev() {
        let c = comps[k];
        let used = b.fcmp(FloatCmp::OrdGt, *w, zero);
        let nan = b.is_nan(Fmt::F32, c);
        let nan = b.band(nan, used);
        let q = b.quiet(Fmt::F32, c);
        first_nan = b.sel(nan, q, first_nan);
        any_nan = b.bor(any_nan, nan);
    }
    for (comps, w) in taps {
        let c = comps[k];
        let used = b.fcmp(FloatCmp::OrdGt, *w, zero);
        let cf = b.f32_to_f64_exact(c);
        let p = b.fb(FloatBin::Mul, *w, cf);
        let p = b.sel(used, p, zero);
        acc = b.fb(FloatBin::Add, acc, p);
    }
    let scale = b.cf64(1.0 / total);
    let v = b.fb(FloatBin::Mul, acc, scale);
    let vb = b.bits_of_f64(v);
    let sum_nan = b.is_nan(Fmt::F64, vb);
    let zero = b.cf64(0.0);
    let finite_or_inf = b.sel(sum_nan, zero, v);
    let r = b.round_to(
        Fmt::F32,
        finite_or_inf,
        None,
        Round::NearestEven,
        false,
        Tiny::Result,
    );
    let dflt = b.c32(0x7fc0_0000);
    let r = b.sel(sum_nan, dflt, r);
    b.sel(any_nan, first_nan, r)
}
