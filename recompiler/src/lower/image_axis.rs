//! A sample's taps along one axis, under the wave contract (see [`super::image_sample`]'s
//! module docs for what is measured and what is the model's choice): the texel-space
//! coordinate, its floor and 8-bit sub-texel weight, the S#'s addressing mode on the integer
//! texel index (rule: image-sample-addressing), an array's layer, and a tap's converted
//! components or the border colour. The same axis serves x, y and a 3D image's z (rule:
//! image-sample-3d).

use super::error::RuleResult;
use super::image::read_texel;
use super::image_desc::Tsharp;
use super::image_format::{self, ImgFormat};
use super::image_sample::Ssharp;
use super::mem_format;
use super::regs::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatUn, Handle, IntBin, IntCmp, Ty};
use rdnaprobe_isa::Round;

/// One axis's taps: texel indices (in range for the address), whether each reads the texel
/// (false: the border colour) and their weights out of 256.
pub(super) struct Axis {
    pub(super) taps: Vec<(Handle, Handle, Handle)>,
}

/// The f32 bits `v`, a NaN read as 0 (how a sample takes a coordinate, LOD or layer).
pub(super) fn nan_as_zero(l: &mut Lowerer, v: Handle) -> Handle {
    let nan = l.b.is_nan(Fmt::F32, v);
    let zero = l.b.c32(0);
    l.b.sel(nan, zero, v)
}

/// [`nan_as_zero`] widened to f64 (exactly).
pub(super) fn nan_as_zero_f64(l: &mut Lowerer, v: Handle) -> Handle {
    let v = nan_as_zero(l, v);
    l.b.f32_to_f64_exact(v)
}

/// `f32(a op b)` of f32 bits `a` and an f64 `b`: exact in f64, rounded to nearest even.
/// A NaN result (infinities of opposite signs) is the default NaN.
pub(super) fn f32_op(l: &mut Lowerer, op: FloatBin, a: Handle, b: Handle) -> Handle {
    let af = l.b.f32_to_f64_exact(a);
    let r = l.b.fb(op, af, b);
    let rb = l.b.bits_of_f64(r);
    let nan = l.b.is_nan(Fmt::F64, rb);
    let zero = l.b.cf64(0.0);
    let r = l.b.sel(nan, zero, r);
    let v =
        l.b.round_to(Fmt::F32, r, None, Round::NearestEven, false, Tiny::Result);
    let dflt = l.b.c32(0x7fc0_0000);
    l.b.sel(nan, dflt, v)
}

/// The axis of coordinate `u` (f32 bits) over `size` texels, addressed by the S# mode `mode`.
#[allow(clippy::too_many_arguments)]
pub(super) fn axis(
    l: &mut Lowerer,
    mode: u32,
    u: Handle,
    size: u32,
    unnorm: bool,
    offset: Option<Handle>,
    bilinear: bool,
) -> Axis {
    let taps = raw_taps(l, u, size, unnorm, offset, bilinear)
        .into_iter()
        .map(|(i, w)| {
            let (i, inside) = address_mode(l, mode, i, size);
            (i, inside, w)
        })
        .collect();
    Axis { taps }
}

/// The taps of coordinate `u` (f32 bits) over `size` texels before any addressing mode: the
/// signed texel index (within +-2^24 + 1, as a U32) and its weight out of 256; one tap for
/// point sampling, two for bilinear.
pub(super) fn raw_taps(
    l: &mut Lowerer,
    u: Handle,
    size: u32,
    unnorm: bool,
    offset: Option<Handle>,
    bilinear: bool,
) -> Vec<(Handle, Handle)> {
    let nan = l.b.is_nan(Fmt::F32, u);
    let zero = l.b.c32(0);
    let mut x = l.b.sel(nan, zero, u);
    if !unnorm {
        let n = l.b.cf64(f64::from(size));
        // exact in f64: 24 by 15 significant bits
        x = f32_op(l, FloatBin::Mul, x, n);
    }
    if let Some(off) = offset {
        // rule: image-sample-unnorm-offset
        let o = l.b.cvt(Convert::S32ToF64, off, Ty::F64);
        x = f32_op(l, FloatBin::Add, x, o);
    }
    if bilinear {
        let h = l.b.cf64(0.5);
        x = f32_op(l, FloatBin::Sub, x, h);
    }
    // floor, clamped to +-2^24 (beyond that an f32 is an integer and no mode tells them apart
    // from the clamp), as a signed U32
    let xf = l.b.f32_to_f64_exact(x);
    let bits = l.b.bits_of_f64(xf);
    let fl = l.b.round_integral(Fmt::F64, FloatUn::Floor, bits);
    let fl = l.b.f64_of(fl);
    let (lo, hi) = (l.b.cf64(-16_777_216.0), l.b.cf64(16_777_216.0));
    let below = l.b.fcmp(crate::ir::FloatCmp::OrdLt, fl, lo);
    let fl_c = l.b.sel(below, lo, fl);
    let above = l.b.fcmp(crate::ir::FloatCmp::OrdGt, fl_c, hi);
    let fl_c = l.b.sel(above, hi, fl_c);
    let i0 = l.b.cvt(Convert::F64ToS32, fl_c, Ty::U32);
    if !bilinear {
        let w = l.b.c32(256);
        return vec![(i0, w)];
    }
    // w1 = round_even((x - floor(x)) * 256): the fraction is exact in f64
    let frac = l.b.fb(FloatBin::Sub, xf, fl);
    let c256 = l.b.cf64(256.0);
    let scaled = l.b.fb(FloatBin::Mul, frac, c256);
    let sb = l.b.bits_of_f64(scaled);
    let r = l.b.round_integral(Fmt::F64, FloatUn::RoundEven, sb);
    let r = l.b.f64_of(r);
    let w1 = l.b.cvt(Convert::F64ToU32, r, Ty::U32);
    let c256 = l.b.c32(256);
    let w0 = l.b.sub(c256, w1);
    let i1 = l.b.addc(i0, 1);
    vec![(i0, w0), (i1, w1)]
}

/// The addressing mode `mode` (S# CLAMP_*) on the signed texel index `i` of a level `n`
/// wide: the index to read (in `[0, n)`) and whether the texel is read (false: the border;
/// rule: image-sample-addressing).
pub(super) fn address_mode(l: &mut Lowerer, mode: u32, i: Handle, n: u32) -> (Handle, Handle) {
    let b = &mut l.b;
    let yes = b.cb(true);
    // i is within +-2^24 + 1: a bias of whole periods above 2^25 makes it non-negative
    let wrap = |b: &mut crate::builder::Builder, period: u32| {
        let bias = u64::from(period) * (u64::from(1u32 << 25).div_ceil(u64::from(period)));
        let shifted = b.addc(i, bias);
        let p = b.c32(period);
        b.ib(IntBin::RemU, shifted, p)
    };
    let clamp = |b: &mut crate::builder::Builder, v: Handle| {
        let neg = b.icmpc(IntCmp::LtS, v, 0);
        let zero = b.c32(0);
        let v = b.sel(neg, zero, v);
        let last = b.c32(n - 1);
        let past = b.icmp(IntCmp::GtS, v, last);
        b.sel(past, last, v)
    };
    let mirror_once = |b: &mut crate::builder::Builder| {
        let neg = b.icmpc(IntCmp::LtS, i, 0);
        let all = b.c32(u32::MAX);
        let m = b.sub(all, i);
        b.sel(neg, m, i)
    };
    match mode {
        0 => (wrap(b, n), yes),
        1 => {
            let m = wrap(b, 2 * n);
            let back = b.c32(2 * n - 1);
            let folded = b.sub(back, m);
            let upper = b.icmpc(IntCmp::GeU, m, u64::from(n));
            (b.sel(upper, folded, m), yes)
        }
        2 => (clamp(b, i), yes),
        3 => {
            let m = mirror_once(b);
            (clamp(b, m), yes)
        }
        6 | 7 => {
            let v = if mode == 7 { mirror_once(b) } else { i };
            let nonneg = b.icmpc(IntCmp::GeS, v, 0);
            let below = b.icmpc(IntCmp::LtS, v, u64::from(n));
            let inside = b.band(nonneg, below);
            (clamp(b, v), inside)
        }
        _ => unreachable!("half-border modes are refused by Ssharp::bilinear"),
    }
}
/// The view's layer of the f32 layer coordinate `v`: round to nearest even, clamped into
/// `[0, layers - 1]` (a NaN reads as 0).
pub(super) fn array_layer(l: &mut Lowerer, t: &Tsharp, v: Handle) -> Handle {
    let vf = nan_as_zero_f64(l, v);
    let bits = l.b.bits_of_f64(vf);
    let r = l.b.round_integral(Fmt::F64, FloatUn::RoundEven, bits);
    let r = l.b.f64_of(r);
    let lo = l.b.cf64(0.0);
    let hi = l.b.cf64(f64::from(t.layers() - 1));
    let below = l.b.fcmp(crate::ir::FloatCmp::OrdLt, r, lo);
    let r = l.b.sel(below, lo, r);
    let above = l.b.fcmp(crate::ir::FloatCmp::OrdGt, r, hi);
    let r = l.b.sel(above, hi, r);
    l.b.cvt(Convert::F64ToU32, r, Ty::U32)
}

/// The texel's components converted as a load converts them (f32 bits), or the border
/// colour's where `inside` is false.
pub(super) fn texel_components(
    l: &mut Lowerer,
    f: &ImgFormat,
    s: &Ssharp,
    tx: &super::image::Texel,
    inside: Handle,
) -> RuleResult<Vec<Handle>> {
    let elem = read_texel(l, f, tx);
    let mut out = Vec::with_capacity(f.fmt.comps.len());
    for (k, &(o, w)) in f.fmt.comps.iter().enumerate() {
        let raw = l.b.shrc(elem[usize::from(o / 32)], u32::from(o % 32));
        let raw = l.b.andc(raw, mem_format::mask(w));
        let v = image_format::load_component(l, f, k, raw, false)?;
        let border = l.b.c32(s.border(k));
        out.push(l.b.sel(inside, v, border));
    }
    Ok(out)
}
