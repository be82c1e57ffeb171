//! The arithmetic of v_interp_p1ll_f16, v_interp_p1lv_f16 and v_interp_p2_f16 (rule:
//! interp-f16, docs/semantics.md): P10 * I + P0 rounded once to f32 (p1) and P20 * J + S2
//! rounded once to f16 (p2), in the shader's float mode. The pixel-stage operand plumbing
//! (attribute halves, barycentrics) is not part of a compute lane, so only the arithmetic is
//! exposed, with the operands given as f32 bits.

use crate::builder::{Builder, Fmt, Tiny};
use crate::ir::{FloatBin, Handle, IntCmp};
use rdnaprobe_isa::{FloatMode, Round};

/// Which interpolation step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpStep {
    /// v_interp_p1ll_f16 / v_interp_p1lv_f16: f32 result.
    P1,
    /// v_interp_p2_f16: f16 result (low 16 bits).
    P2,
}

/// Flushes an f32 value in the f16 denormal range (0 < |x| < 2^-14) to its signed zero.
fn flush_f16_range(b: &mut Builder, x: Handle) -> Handle {
    let a = b.abs_bits(Fmt::F32, x);
    let small = b.icmpc(IntCmp::LtU, a, 0x3880_0000);
    let nz = b.nec(a, 0);
    let d = b.band(small, nz);
    let z = b.andc(x, 0x8000_0000);
    b.sel(d, z, x)
}

/// Builds `delta * coord + base` for `step` under `mode`; operands and the result are bits
/// (f32 operands; an f32 result for P1, an f16 result in the low bits for P2).
pub fn interp_f16(
    b: &mut Builder,
    step: InterpStep,
    mode: FloatMode,
    delta: Handle,
    coord: Handle,
    base: Handle,
) -> Handle {
    let f32_in = !mode.keep_in32();
    let f16_in = !mode.keep_in16();
    // the coordinate is f32; the delta is an f16 parameter difference; the base is f16 for
    // p1 (P0) and f32 for p2 (S2)
    let coord = b.flush_if(Fmt::F32, coord, f32_in);
    let delta = if f16_in {
        flush_f16_range(b, delta)
    } else {
        delta
    };
    let base = match step {
        InterpStep::P1 if f16_in => flush_f16_range(b, base),
        InterpStep::P2 => b.flush_if(Fmt::F32, base, f32_in),
        InterpStep::P1 => base,
    };
    let srcs = [delta, coord, base];
    let (any_nan, pick) = b.first_nan(Fmt::F32, &srcs, mode.ieee);
    let w: Vec<Handle> = srcs.iter().map(|&x| b.f32_to_f64_exact(x)).collect();
    let p = b.fb(FloatBin::Mul, w[0], w[1]);
    // invalid: 0 * inf, or an infinite product against the opposite infinity
    let za = b.is_zero(Fmt::F32, delta);
    let zb = b.is_zero(Fmt::F32, coord);
    let ia = b.is_inf(Fmt::F32, delta);
    let ib = b.is_inf(Fmt::F32, coord);
    let ic = b.is_inf(Fmt::F32, base);
    let i1 = b.band(za, ib);
    let i2 = b.band(ia, zb);
    let inv_p = b.bor(i1, i2);
    let pinf = b.bor(ia, ib);
    let x = b.xor(delta, coord);
    let x = b.xor(x, base);
    let opp = b.bit(x, 0x8000_0000);
    let t = b.band(pinf, ic);
    let inv_s = b.band(t, opp);
    let invalid = b.bor(inv_p, inv_s);
    let dn32 = b.c32(0xffc0_0000);
    match step {
        InterpStep::P1 => {
            let fo = !mode.keep_out32();
            let r = b.round_sum(Fmt::F32, p, w[2], Round::NearestEven, fo, Tiny::Result);
            let r = b.sel(invalid, dn32, r);
            let r = b.sel(any_nan, pick, r);
            // an invalid product gives the default NaN even against a NaN base
            b.sel(inv_p, dn32, r)
        }
        InterpStep::P2 => {
            let fo = !mode.keep_out16();
            let r = b.round_sum(Fmt::F16, p, w[2], Round::NearestEven, fo, Tiny::Result);
            let r = b.sel(invalid, dn32, r);
            // NaN: always quiet in the f16 result (sign, payload bits 22:13)
            let nanv = b.sel(any_nan, pick, dn32);
            let nanv = b.sel(inv_p, dn32, nanv);
            let is_n = b.bor(any_nan, invalid);
            let q = b.nan32_to_16(nanv);
            b.sel(is_n, q, r)
        }
    }
}
