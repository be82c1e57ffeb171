//! The level a sample reads (rule: image-sample-lod): the LOD of the quad's differences or of
//! the user derivatives (`_d`, `_cd`, `_g16`), its bias in 1/256 steps (`_b`), clamp (`_cl`)
//! and the S#'s MAX_LOD, tested against the level edges without a logarithm. The footprint
//! ([`footprint`]) and the bias's steps ([`bias_steps`]) also give the fractional LOD of
//! trilinear filtering (`super::image_trilinear`). See `super::image_sample`'s module docs for
//! what is measured and what is the model's choice.

use super::error::RuleResult;
use super::image::{Coord, Mimg};
use super::image_axis::{f32_op, nan_as_zero, nan_as_zero_f64};
use super::image_desc::Tsharp;
use super::image_sample::{Grad, Lod, Ssharp};
use super::regs::Lowerer;
use crate::builder::Fmt;
use crate::ir::{Convert, FloatBin, FloatCmp, Handle, Ty};

/// The derivatives of a `_d`/`_cd` sample (f32 bits, `[axis][direction]`, an axis per X, Y or
/// (3D) Z coordinate of the DIM) from the address dwords at `first`, and how many dwords they
/// take: f32 `dsdx, [dtdx, [drdx,]] dsdy, [dtdy, [drdy]]`, or with `_g16` per direction the
/// axes' f16 values two to a dword (x in bits 15:0, y in 31:16, a 3D image's z in the next
/// dword's 15:0), widened exactly. A16 leaves them 32-bit (rule: image-sample-a16-d16).
pub(super) fn derivatives(
    l: &mut Lowerer,
    m: &Mimg,
    g: Grad,
    uses: &[Coord],
    first: usize,
) -> RuleResult<(Vec<[Handle; 2]>, usize)> {
    let axes = uses
        .iter()
        .filter(|u| matches!(u, Coord::X | Coord::Y | Coord::Z | Coord::Ignored))
        .count();
    // `_g16`: the dwords of one direction
    let per_dir = axes.div_ceil(2);
    let mut grads = vec![[l.b.c32(0); 2]; axes];
    for dir in 0..2 {
        for (axis, g_axis) in grads.iter_mut().enumerate() {
            g_axis[dir] = if g.g16 {
                let v = m.dword(l, first + dir * per_dir + axis / 2)?;
                let h = l.b.shrc(v, 16 * (axis % 2) as u32);
                let h = l.b.andc(h, 0xffff);
                l.b.f16_to_f32_bits(h)
            } else {
                m.dword(l, first + dir * axes + axis)?
            };
        }
    }
    let dwords = if g.g16 { 2 * per_dir } else { 2 * axes };
    Ok((grads, dwords))
}

/// Where a sample's LOD comes from: its coordinates (the quad's differences), or the user
/// derivatives (`[axis][direction]` f32 bits; `true`: coarse, the quad's first lane's).
#[derive(Clone, Copy)]
pub(super) struct Footprint<'a> {
    pub(super) coords: &'a [(Coord, Handle)],
    pub(super) grads: Option<(&'a [[Handle; 2]], bool)>,
    /// The `_b` bias (f32 bits).
    pub(super) bias: Option<Handle>,
}

/// The lane index of the first lane of the lane's quad (a U32): what the quad's differences
/// and `_cd`'s coarse derivatives are read from.
pub(super) fn quad_first_lane(l: &mut Lowerer) -> Handle {
    l.b.andc(l.lane, !3u64 & 0xffff_ffff)
}

/// The f64 nearest `2^(r / 128)` for r in 0..128: the edges of a biased LOD's 1/256 steps
/// (see [`biased_passes`]); tabulated from 60-digit decimal powers.
pub(super) const EXP2_128THS: [u64; 128] = [
    0x3ff0000000000000,
    0x3ff0163da9fb3335,
    0x3ff02c9a3e778061,
    0x3ff04315e86e7f85,
    0x3ff059b0d3158574,
    0x3ff0706b29ddf6de,
    0x3ff0874518759bc8,
    0x3ff09e3ecac6f383,
    0x3ff0b5586cf9890f,
    0x3ff0cc922b7247f7,
    0x3ff0e3ec32d3d1a2,
    0x3ff0fb66affed31b,
    0x3ff11301d0125b51,
    0x3ff12abdc06c31cc,
    0x3ff1429aaea92de0,
    0x3ff15a98c8a58e51,
    0x3ff172b83c7d517b,
    0x3ff18af9388c8dea,
    0x3ff1a35beb6fcb75,
    0x3ff1bbe084045cd4,
    0x3ff1d4873168b9aa,
    0x3ff1ed5022fcd91d,
    0x3ff2063b88628cd6,
    0x3ff21f49917ddc96,
    0x3ff2387a6e756238,
    0x3ff251ce4fb2a63f,
    0x3ff26b4565e27cdd,
    0x3ff284dfe1f56381,
    0x3ff29e9df51fdee1,
    0x3ff2b87fd0dad990,
    0x3ff2d285a6e4030b,
    0x3ff2ecafa93e2f56,
    0x3ff306fe0a31b715,
    0x3ff32170fc4cd831,
    0x3ff33c08b26416ff,
    0x3ff356c55f929ff1,
    0x3ff371a7373aa9cb,
    0x3ff38cae6d05d866,
    0x3ff3a7db34e59ff7,
    0x3ff3c32dc313a8e5,
    0x3ff3dea64c123422,
    0x3ff3fa4504ac801c,
    0x3ff4160a21f72e2a,
    0x3ff431f5d950a897,
    0x3ff44e086061892d,
    0x3ff46a41ed1d0057,
    0x3ff486a2b5c13cd0,
    0x3ff4a32af0d7d3de,
    0x3ff4bfdad5362a27,
    0x3ff4dcb299fddd0d,
    0x3ff4f9b2769d2ca7,
    0x3ff516daa2cf6642,
    0x3ff5342b569d4f82,
    0x3ff551a4ca5d920f,
    0x3ff56f4736b527da,
    0x3ff58d12d497c7fd,
    0x3ff5ab07dd485429,
    0x3ff5c9268a5946b7,
    0x3ff5e76f15ad2148,
    0x3ff605e1b976dc09,
    0x3ff6247eb03a5585,
    0x3ff6434634ccc320,
    0x3ff6623882552225,
    0x3ff68155d44ca973,
    0x3ff6a09e667f3bcd,
    0x3ff6c012750bdabf,
    0x3ff6dfb23c651a2f,
    0x3ff6ff7df9519484,
    0x3ff71f75e8ec5f74,
    0x3ff73f9a48a58174,
    0x3ff75feb564267c9,
    0x3ff780694fde5d3f,
    0x3ff7a11473eb0187,
    0x3ff7c1ed0130c132,
    0x3ff7e2f336cf4e62,
    0x3ff80427543e1a12,
    0x3ff82589994cce13,
    0x3ff8471a4623c7ad,
    0x3ff868d99b4492ed,
    0x3ff88ac7d98a6699,
    0x3ff8ace5422aa0db,
    0x3ff8cf3216b5448c,
    0x3ff8f1ae99157736,
    0x3ff9145b0b91ffc6,
    0x3ff93737b0cdc5e5,
    0x3ff95a44cbc8520f,
    0x3ff97d829fde4e50,
    0x3ff9a0f170ca07ba,
    0x3ff9c49182a3f090,
    0x3ff9e86319e32323,
    0x3ffa0c667b5de565,
    0x3ffa309bec4a2d33,
    0x3ffa5503b23e255d,
    0x3ffa799e1330b358,
    0x3ffa9e6b5579fdbf,
    0x3ffac36bbfd3f37a,
    0x3ffae89f995ad3ad,
    0x3ffb0e07298db666,
    0x3ffb33a2b84f15fb,
    0x3ffb59728de5593a,
    0x3ffb7f76f2fb5e47,
    0x3ffba5b030a1064a,
    0x3ffbcc1e904bc1d2,
    0x3ffbf2c25bd71e09,
    0x3ffc199bdd85529c,
    0x3ffc40ab5fffd07a,
    0x3ffc67f12e57d14b,
    0x3ffc8f6d9406e7b5,
    0x3ffcb720dcef9069,
    0x3ffcdf0b555dc3fa,
    0x3ffd072d4a07897c,
    0x3ffd2f87080d89f2,
    0x3ffd5818dcfba487,
    0x3ffd80e316c98398,
    0x3ffda9e603db3285,
    0x3ffdd321f301b460,
    0x3ffdfc97337b9b5f,
    0x3ffe264614f5a129,
    0x3ffe502ee78b3ff6,
    0x3ffe7a51fbc74c83,
    0x3ffea4afa2a490da,
    0x3ffecf482d8e67f1,
    0x3ffefa1bee615a27,
    0x3fff252b376bba97,
    0x3fff50765b6e4540,
    0x3fff7bfdad9cbe14,
    0x3fffa7c1819e90d8,
    0x3fffd3c22b8f71f1,
];

/// The `_b` bias (f32 bits) in 1/256 steps of a level: `B = round_even(bias * 256)` clamped
/// to +-4096, a NaN as 0 (a signed U32).
/// rule: image-sample-lod
pub(super) fn bias_steps(l: &mut Lowerer, bias: Handle) -> Handle {
    use crate::ir::FloatCmp;
    let b = &mut l.b;
    let nan = b.is_nan(Fmt::F32, bias);
    let zero = b.c32(0);
    let v = b.sel(nan, zero, bias);
    let v = b.f32_to_f64_exact(v);
    let k256 = b.cf64(256.0);
    let v = b.fb(FloatBin::Mul, v, k256);
    let (lo, hi) = (b.cf64(-4096.0), b.cf64(4096.0));
    let below = b.fcmp(FloatCmp::OrdLt, v, lo);
    let v = b.sel(below, lo, v);
    let above = b.fcmp(FloatCmp::OrdGt, v, hi);
    let v = b.sel(above, hi, v);
    // round to nearest even: exact below 2^51
    let magic = b.cf64(1.5 * 2f64.powi(52));
    let v = b.fb(FloatBin::Add, v, magic);
    let v = b.fb(FloatBin::Sub, v, magic);
    b.cvt(Convert::F64ToS32, v, Ty::U32)
}

/// A `_b` sample's level tests: whether `lod + bias` passes `k - 0.5` for k in 1..=`top`,
/// where `lod` is half the log2 of the squared footprint `rho2` (f64). The bias is taken in
/// 1/256 steps (`B = round_even(bias * 256)`, clamped to +-4096, a NaN as 0) and the test is
/// the plain sample's without a logarithm: `rho2 > 2^((256k - 128 - B) / 128)`, the power
/// split into `2^q` (exact, applied to `rho2`) and `2^(r/128)` ([`EXP2_128THS`]). With B a
/// multiple of 128 (a bias of a whole half level, 0 included) these are exactly the plain
/// sample's tests; the 1/256 steps and the table's rounding are the model's choice.
/// rule: image-sample-lod
pub(super) fn biased_passes(l: &mut Lowerer, rho2: Handle, bias: Handle, top: u32) -> Vec<Handle> {
    use crate::ir::FloatCmp;
    let bias256 = bias_steps(l, bias);
    let b = &mut l.b;
    // t = 128 - B for k = 1 (256k - 128 - B), then r = t mod 128 and q = t >> 7 (arithmetic)
    let c128 = b.c32(128);
    let t = b.sub(c128, bias256);
    let r = b.andc(t, 127);
    let q = b.sarc(t, 7);
    // 2^(r/128) by a tree of selects on r's bits
    let mut level: Vec<Handle> = EXP2_128THS
        .iter()
        .map(|&v| b.cf64(f64::from_bits(v)))
        .collect();
    for bit in 0..7 {
        let on = b.shrc(r, bit);
        let on = b.andc(on, 1);
        let on = b.nec(on, 0);
        level = level.chunks(2).map(|p| b.sel(on, p[1], p[0])).collect();
    }
    let edge = level[0];
    (1..=top)
        .map(|k| {
            // rho2 * 2^-(q + 2(k - 1)): the f64 whose exponent field is 1023 - that power
            let shift = b.addc(q, 2 * (u64::from(k) - 1));
            let c1023 = b.c32(1023);
            let e = b.sub(c1023, shift);
            let e = b.zext(e);
            let e = b.shlc(e, 52);
            let scale = b.f64_of(e);
            let y = b.fb(FloatBin::Mul, rho2, scale);
            b.fcmp(FloatCmp::OrdGt, y, edge)
        })
        .collect()
}

/// The level (0..=`top`, from BASE_LEVEL) a point-mipmapped sample reads: `ceil(lod + 0.5) - 1`
/// clamped, without a logarithm: the LOD passes `k - 0.5` when the squared footprint passes
/// `2^(2k - 1)` (see the module docs).
/// rule: image-sample-lod
pub(super) fn select_level(
    l: &mut Lowerer,
    t: &Tsharp,
    lod: Lod,
    from: Footprint<'_>,
    extra: Option<Handle>,
    unnorm: bool,
    top: u32,
) -> Handle {
    use crate::ir::FloatCmp;
    let extra = extra.map(|v| nan_as_zero_f64(l, v));
    let rho2 = (lod != Lod::Explicit).then(|| footprint(l, t, from, unnorm));
    let biased = match (from.bias, rho2) {
        (Some(bias), Some(r)) => Some(biased_passes(l, r, bias, top)),
        _ => None,
    };
    let mut level = l.b.c32(0);
    for k in 1..=top {
        let half = f64::from(k) - 0.5;
        let mut pass = l.b.cb(false);
        if let Some(passes) = &biased {
            pass = passes[k as usize - 1];
        } else if let Some(r) = rho2 {
            let edge = l.b.cf64(2f64.powi(2 * k as i32 - 1));
            pass = l.b.fcmp(FloatCmp::OrdGt, r, edge);
        }
        if let Some(e) = extra {
            let h = l.b.cf64(half);
            let over = l.b.fcmp(FloatCmp::OrdGt, e, h);
            pass = l.b.bor(pass, over);
        }
        let one = l.b.b2u(pass);
        level = l.b.add(level, one);
    }
    level
}

/// `floor(128 * log2(rho2))` of the f64 squared footprint `rho2` as a signed U32: `128 e + r`
/// for `rho2 = m * 2^e`, `r` the number of edges `2^(j/128)` (j in 1..128) at most `m`; -2^24
/// for a zero (or subnormal) or NaN footprint, 2^24 for an infinite one.
pub(super) fn log2_steps(l: &mut Lowerer, rho2: Handle) -> Handle {
    let b = &mut l.b;
    let bits = b.bits_of_f64(rho2);
    let hi = b.hi32(bits);
    let e = b.shrc(hi, 20);
    let e = b.andc(e, 0x7ff);
    let man = b.andc(bits, Fmt::F64.man_mask());
    let man = b.orc(man, 1023 << 52);
    let m = b.f64_of(man);
    let mut r = b.c32(0);
    for &edge in &EXP2_128THS[1..] {
        let edge = b.cf64(f64::from_bits(edge));
        let reached = b.fcmp(FloatCmp::OrdGe, m, edge);
        let one = b.b2u(reached);
        r = b.add(r, one);
    }
    let c1023 = b.c32(1023);
    let unbiased = b.sub(e, c1023);
    let e128 = b.shlc(unbiased, 7);
    let steps = b.add(e128, r);
    let low = b.eqc(e, 0);
    let nan = b.is_nan(Fmt::F64, bits);
    let low = b.bor(low, nan);
    let inf = b.is_inf(Fmt::F64, bits);
    let (lo, hi) = (b.c32((-(1i32 << 24)) as u32), b.c32(1 << 24));
    let steps = b.sel(inf, hi, steps);
    b.sel(low, lo, steps)
}

/// The derivatives' LOD in 1/256 steps of a level (a signed U32, `L + B`): `L =
/// floor(128 * log2(rho2))` of the squared footprint ([`footprint`], [`log2_steps`]; -2^24
/// for a zero or NaN footprint, 2^24 for an infinite one) plus `_b`'s bias in the same steps
/// ([`bias_steps`]). The fractional LOD of trilinear filtering and of image_get_lod.
/// rule: image-sample-trilinear
pub(super) fn lod_steps(l: &mut Lowerer, t: &Tsharp, from: Footprint<'_>, unnorm: bool) -> Handle {
    let rho2 = footprint(l, t, from, unnorm);
    let steps = log2_steps(l, rho2);
    match from.bias {
        Some(bias) => {
            let b = bias_steps(l, bias);
            l.b.add(steps, b)
        }
        None => steps,
    }
}

/// The largest LOD a sample uses: `min(MAX_LOD / 256, LAST_LEVEL - BASE_LEVEL)`.
pub(super) fn lod_cap(s: &Ssharp, t: &Tsharp) -> f64 {
    (f64::from(s.max_lod) / 256.0).min(f64::from(t.last_level - t.base_level))
}

/// The f64 LOD `lod` clamped to `[0, cap]`, a NaN as 0.
pub(super) fn clamp_lod(l: &mut Lowerer, lod: Handle, cap: f64) -> Handle {
    let b = &mut l.b;
    let bits = b.bits_of_f64(lod);
    let nan = b.is_nan(Fmt::F64, bits);
    let zero = b.cf64(0.0);
    let lod = b.sel(nan, zero, lod);
    let below = b.fcmp(FloatCmp::OrdLt, lod, zero);
    let lod = b.sel(below, zero, lod);
    let hi = b.cf64(cap);
    let above = b.fcmp(FloatCmp::OrdGt, lod, hi);
    b.sel(above, hi, lod)
}

/// The squared footprint `rho2` (f64) of a sample's LOD: per direction (x, y) the sum over the
/// X, Y and (3D) Z coordinates of the squared differences to the quad's top left lane (or of
/// the user derivatives), scaled by BASE_LEVEL's width, height and depth (unnormalized
/// coordinates as they are); the larger of the two. The LOD is `0.5 * log2(rho2)`. A NaN
/// difference makes it NaN.
/// rule: image-sample-lod
pub(super) fn footprint(l: &mut Lowerer, t: &Tsharp, from: Footprint<'_>, unnorm: bool) -> Handle {
    use crate::ir::FloatCmp;
    // the quad's lanes: 0 top left, 1 top right, 2 bottom left
    let quad = quad_first_lane(l);
    let base = t.levels[t.base_level as usize];
    let mut sums = [l.b.cf64(0.0), l.b.cf64(0.0)];
    for (axis, &(u, v)) in from.coords.iter().enumerate() {
        let size = match u {
            Coord::X => base.width,
            Coord::Y => base.height,
            // rule: image-sample-3d
            Coord::Z => base.depth,
            _ => continue,
        };
        let v = nan_as_zero(l, v);
        let tl = match from.grads {
            None => {
                let tl = l.wave_read(v, quad);
                Some(l.b.f32_to_f64_exact(tl))
            }
            Some(_) => None,
        };
        for (dir, sum) in sums.iter_mut().enumerate() {
            let d = match (from.grads, tl) {
                (Some((grads, coarse)), _) => {
                    let g = nan_as_zero(l, grads[axis][dir]);
                    if coarse {
                        l.wave_read(g, quad)
                    } else {
                        g
                    }
                }
                (None, Some(tl)) => {
                    let other = l.b.addc(quad, 1 + dir as u64);
                    let o = l.wave_read(v, other);
                    f32_op(l, FloatBin::Sub, o, tl)
                }
                (None, None) => {
                    unreachable!("the top-left coordinate is read without derivatives")
                }
            };
            let mut d = l.b.f32_to_f64_exact(d);
            if !unnorm {
                let n = l.b.cf64(f64::from(size));
                d = l.b.fb(FloatBin::Mul, d, n);
            }
            let sq = l.b.fb(FloatBin::Mul, d, d);
            *sum = l.b.fb(FloatBin::Add, *sum, sq);
        }
    }
    let [x, y] = sums;
    let bigger = l.b.fcmp(FloatCmp::OrdGt, y, x);
    l.b.sel(bigger, y, x)
}
