//! Sampling a cube T# (DIM CUBE; rule image-sample-cube): the address's x and y are the face
//! coordinates as Mesa's and LLVM's AMDGPU compilers pass them (`sc / |ma| + 1.5`, with
//! v_cubema's twice-the-major-axis `ma`: the face spans [1, 2] on each axis, so the face's
//! normalized coordinate is `x - 1`), the third is the face, or with a cube array
//! `8 * cube + face` (the compilers' encoding).
//!
//! Measured (reference notes, gfx1035): a bilinear sample blends across faces unless the S#'s
//! DISABLE_CUBE_WRAP (word0 bit 28) is set, and with that bit each face is clamped on its own
//! (a 4 x 4 R32_FLOAT cube, 46 of 90 edge rows differ from a per-face clamp); two of those blends
//! are 154/256 and 102/256, the 8-bit weights of a fraction 0.4 as in 2D. The rest is the
//! model's choice, to be measured first:
//!
//! - the face's texel space is `f32(f32(x - 1) * size)`, then the 2D rules (the `_o` offset
//!   added, `- 0.5` for bilinear, floor, 8-bit weights);
//! - with DISABLE_CUBE_WRAP the face is a 2D image: the S#'s CLAMP_X/CLAMP_Y address it;
//! - without it the S#'s addressing modes are ignored (as in the graphics APIs' seamless
//!   cubes) and a tap off the face reads the texel the direction through the tap's centre hits
//!   (the ISA's v_cubeid major-axis order, z before y before x, on ties), an index first clamped
//!   to one texel past the face (`[-1, size]`). An edge tap reads the adjacent face's texel
//!   along the shared edge; a corner tap (off both axes) ties two axes, so its face is the
//!   first of them in that order and it reads that face's corner texel;
//! - the face coordinate is rounded to nearest even (a NaN reads as 0) and clamped to
//!   `[0, 8 * cubes - 1]`; its low three bits are the face (6 and 7 read face 5), the rest
//!   the cube.
//!
//! Refused with the reason: non-square faces, a view whose layers are not a multiple of 6,
//! unnormalized coordinates, and a LOD from derivatives when the sample may read more than
//! one level (the cube's derivative rules are not modelled).

use super::error::{RuleError, RuleResult};
use super::image::{texel, Coord};
use super::image_axis::{address_mode, nan_as_zero_f64, raw_taps, texel_components};
use super::image_desc::Tsharp;
use super::image_sample::{SampleAt, Tap};
use super::regs::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntBin, IntCmp, Ty};

/// DISABLE_CUBE_WRAP, S# word0 bit 28 (Mesa's sid.h).
pub(super) const DISABLE_CUBE_WRAP: u32 = 1 << 28;

/// Why a cube T# cannot be sampled by this module, if it cannot.
pub(super) fn check(t: &Tsharp, unnorm: bool) -> RuleResult {
    let l0 = t.levels[t.base_level as usize];
    if l0.width != l0.height {
        return Err(RuleError::not_modelled(format!(
            "image sample: a CUBE T# of {} x {} faces (not square)",
            l0.width, l0.height
        )));
    }
    if t.layers() % 6 != 0 {
        return Err(RuleError::not_modelled(format!(
            "image sample: a CUBE view of {} layers (not whole cubes of 6 faces)",
            t.layers()
        )));
    }
    if unnorm {
        return Err(RuleError::not_measured(
            "image sample: unnormalized coordinates on a CUBE T#",
        ));
    }
    Ok(())
}

/// The taps of level BASE_LEVEL of the cube `t` (x fastest, then y; see the module docs).
/// rule: image-sample-cube
pub(super) fn taps(
    l: &mut Lowerer,
    at: &SampleAt,
    t: &Tsharp,
    wrap_off: bool,
) -> RuleResult<Vec<Tap>> {
    let n = t.levels[t.base_level as usize].width;
    let mut xy = Vec::new();
    let mut face_coord = None;
    for &(u, v) in at.coords {
        match u {
            Coord::X | Coord::Y => {
                // the face spans [1, 2]
                let one = l.b.cf64(1.0);
                let v = super::image_axis::f32_op(l, FloatBin::Sub, v, one);
                let k = usize::from(u == Coord::Y);
                xy.push(raw_taps(l, v, n, false, at.offsets[k], at.bilinear));
            }
            Coord::Layer => face_coord = Some(v),
            _ => {}
        }
    }
    let [xs, ys]: [Vec<(Handle, Handle)>; 2] = xy
        .try_into()
        .map_err(|_| RuleError::operand("image sample: a CUBE address without x and y"))?;
    let face_coord = face_coord
        .ok_or_else(|| RuleError::operand("image sample: a CUBE address without a face"))?;
    let (face, cube) = face_and_cube(l, face_coord, t.layers() / 6);
    // the cube's first layer: a tap's layer is it plus the face the tap reads
    let six = l.b.c32(6);
    let first = l.b.ib(IntBin::Mul, cube, six);
    let f = t.format;
    let mut taps = Vec::with_capacity(xs.len() * ys.len());
    for &(j, wy) in &ys {
        for &(i, wx) in &xs {
            let (fc, ic, jc, inside) = if wrap_off {
                let (ic, i_in) = address_mode(l, at.s.clamp[0], i, n);
                let (jc, j_in) = address_mode(l, at.s.clamp[1], j, n);
                let inside = l.b.band(i_in, j_in);
                (face, ic, jc, inside)
            } else {
                let (fc, ic, jc) = reproject(&mut l.b, face, i, j, n);
                (fc, ic, jc, l.b.cb(true))
            };
            let layer = l.b.add(first, fc);
            let tx = texel(
                l,
                t,
                &[(Coord::X, ic), (Coord::Y, jc), (Coord::Layer, layer)],
                None,
            );
            let comps = texel_components(l, &f, at.s, &tx, inside)?;
            // 2D weights: at most 65536, exact in f64
            let w = l.b.ib(IntBin::Mul, wx, wy);
            let w = l.b.cvt(Convert::U32ToF64, w, Ty::F64);
            taps.push((comps, w));
        }
    }
    Ok(taps)
}

/// The face (0..5) and cube of the f32 face coordinate `v` (see the module docs).
pub(super) fn face_and_cube(l: &mut Lowerer, v: Handle, cubes: u32) -> (Handle, Handle) {
    let vf = nan_as_zero_f64(l, v);
    let b = &mut l.b;
    let bits = b.bits_of_f64(vf);
    let r = b.round_integral(Fmt::F64, FloatUn::RoundEven, bits);
    let r = b.f64_of(r);
    let (lo, hi) = (b.cf64(0.0), b.cf64(f64::from(8 * cubes - 1)));
    let below = b.fcmp(FloatCmp::OrdLt, r, lo);
    let r = b.sel(below, lo, r);
    let above = b.fcmp(FloatCmp::OrdGt, r, hi);
    let r = b.sel(above, hi, r);
    let r = b.cvt(Convert::F64ToU32, r, Ty::U32);
    let face = b.andc(r, 7);
    let past = b.icmpc(IntCmp::GtU, face, 5);
    let five = b.c32(5);
    let face = b.sel(past, five, face);
    let cube = b.shrc(r, 3);
    (face, cube)
}

/// The direction (x, y, z) through the point `(s, t)` of `face` (0..5: +X, -X, +Y, -Y, +Z,
/// -Z) at distance `one` from the centre: the inverse of v_cubesc/v_cubetc's face table (the
/// cube map layout Vulkan shares). Each value comes with its negation (`[v, -v]`), in any
/// type the selects carry.
pub(super) fn direction(
    b: &mut Builder,
    face: Handle,
    [s, sn]: [Handle; 2],
    [t, tn]: [Handle; 2],
    [one, none]: [Handle; 2],
) -> [Handle; 3] {
    let table = [
        [one, tn, sn],
        [none, tn, s],
        [s, one, t],
        [s, none, tn],
        [s, tn, one],
        [sn, tn, none],
    ];
    let mut dir = table[0];
    for (k, row) in table.iter().enumerate().skip(1) {
        let is = b.eqc(face, k as u64);
        for (d, &v) in dir.iter_mut().zip(row) {
            *d = b.sel(is, v, *d);
        }
    }
    dir
}

/// The face and texel a tap `(i, j)` of `face` reads on a cube of `n` x `n` faces without
/// DISABLE_CUBE_WRAP: the indices clamped to `[-1, n]`, the tap's centre as a direction in
/// half-texel units (the face's plane at distance `n`), and the face and texel v_cubeid,
/// v_cubesc and v_cubetc would give it (see the module docs).
pub(super) fn reproject(
    b: &mut Builder,
    face: Handle,
    i: Handle,
    j: Handle,
    n: u32,
) -> (Handle, Handle, Handle) {
    let clamp = |b: &mut Builder, v: Handle, lo: i64, hi: i64| {
        let lo_c = b.c32(lo as u32);
        let below = b.icmp(IntCmp::LtS, v, lo_c);
        let v = b.sel(below, lo_c, v);
        let hi_c = b.c32(hi as u32);
        let above = b.icmp(IntCmp::GtS, v, hi_c);
        b.sel(above, hi_c, v)
    };
    let neg = |b: &mut Builder, v: Handle| {
        let z = b.c32(0);
        b.sub(z, v)
    };
    // s2 = 2i + 1 - n, t2 = 2j + 1 - n: the centre in half texels from the face's centre
    let half = |b: &mut Builder, v: Handle| {
        let v = clamp(b, v, -1, i64::from(n));
        let d = b.shlc(v, 1);
        b.addc(d, u64::from(1u32.wrapping_sub(n)))
    };
    let s2 = half(b, i);
    let t2 = half(b, j);
    let (ns2, nt2) = (neg(b, s2), neg(b, t2));
    let big = b.c32(n);
    let nbig = b.c32(n.wrapping_neg());
    let [x, y, z] = direction(b, face, [s2, ns2], [t2, nt2], [big, nbig]);
    let abs = |b: &mut Builder, v: Handle| {
        let is_neg = b.icmpc(IntCmp::LtS, v, 0);
        let m = neg(b, v);
        (b.sel(is_neg, m, v), is_neg)
    };
    let (ax, xneg) = abs(b, x);
    let (ay, yneg) = abs(b, y);
    let (az, zneg) = abs(b, z);
    let zx = b.icmp(IntCmp::GeS, az, ax);
    let zy = b.icmp(IntCmp::GeS, az, ay);
    let zmaj = b.band(zx, zy);
    let ymaj = b.icmp(IntCmp::GeS, ay, ax);
    let pick = |b: &mut Builder, vz: Handle, vy: Handle, vx: Handle| {
        let v = b.sel(ymaj, vy, vx);
        b.sel(zmaj, vz, v)
    };
    let face_of = |b: &mut Builder, is_neg: Handle, base: u32| {
        let one = b.b2u(is_neg);
        b.addc(one, u64::from(base))
    };
    let fz = face_of(b, zneg, 4);
    let fy = face_of(b, yneg, 2);
    let fx = face_of(b, xneg, 0);
    let out_face = pick(b, fz, fy, fx);
    let (nx, ny, nz) = (neg(b, x), neg(b, y), neg(b, z));
    // sc: z major: -x when z < 0 else x; y: x; x: z when x < 0 else -z
    let scz = b.sel(zneg, nx, x);
    let scx = b.sel(xneg, z, nz);
    let sc = pick(b, scz, x, scx);
    // tc: z and x major: -y; y: -z when y < 0 else z
    let tcy = b.sel(yneg, nz, z);
    let tc = pick(b, ny, tcy, ny);
    // the major magnitude is n or n + 1, so the texel is floor((c + n - 1) / 2) clamped
    let index = |b: &mut Builder, c: Handle| {
        let v = b.addc(c, u64::from(n - 1));
        let v = b.sarc(v, 1);
        clamp(b, v, 0, i64::from(n - 1))
    };
    let oi = index(b, sc);
    let oj = index(b, tc);
    (out_face, oi, oj)
}
