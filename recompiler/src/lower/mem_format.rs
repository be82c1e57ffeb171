//! Typed (format) buffer accesses under the wave contract (and the component conversions
//! image accesses share, `super::image_format`): `buffer_load/store_format_*` and
//! their `_d16_hi_x` forms take the format from the V#'s word3 (FORMAT, bits 18:12, gfx10's
//! unified numbering), which must be known when lowering, with DST_SEL (bits 11:0) XYZW;
//! `tbuffer_*_format_*` take it from the instruction (word0 bits 25:19) and, like the
//! other MTBUF forms, leave DST_SEL aside (computed as XYZW). Addressing and
//! the range check are MUBUF's ([`super::mem`]); the element's bytes are read or written as
//! one access of 1, 2 or 4 bytes, or dword by dword.
//!
//! Conversions (rule: buffer-format-conversion), all exact integer sequences:
//! - loads: UNORM `i / (2^n - 1)` and SNORM `max(i / (2^(n-1) - 1), -1)` rounded to nearest
//!   even from the exact quotient (its binary expansion is the n-bit pattern of `i`
//!   repeated, so 52 bits of it and the sign of the rest round exactly); USCALED/SSCALED the
//!   integer's value; UINT/SINT zero/sign extended; FLOAT 16 (and the unsigned 11- and
//!   10-bit floats of 10_11_11) widened exactly. d16 forms give each component as f16 (the
//!   same rounding) or as a 16-bit integer, two to a VGPR, the high half of a last odd one
//!   kept (the rule of the other d16 loads);
//! - stores: UNORM `floor(clamp(x, 0, 1) * (2^n - 1) + 1/2)`, SNORM the magnitude the same way
//!   with `2^(n-1) - 1` and the sign back (NaN gives 0 in both; D3D11's rule, computed on the
//!   exact product); UINT/SINT saturate to the component's range; 32-bit components are
//!   stored as given. d16 stores widen f16 data exactly (integers by zero/sign extension).
//!
//! Not modelled (refused with the reason): the 11_11_10 and 10_10_10_2 layouts, stores to
//! 16-bit or packed float and to scaled components (their rounding is not documented), d16
//! with 32-bit components, a DST_SEL other than XYZW, loads of more components than the
//! format has, and stores of a different number.

use super::error::{RuleError, RuleResult};
use super::mem::{BufferAddr, NEEDS_WAVE};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, Handle, IntBin, IntCmp, LdsOp, Ty};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::Round;

/// A buffer format's number format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

/// A buffer format: the element's size, its components (bit offset in the element, width)
/// and number format.
#[derive(Clone, Copy, Debug)]
pub(super) struct Format {
    pub(super) bytes: u8,
    pub(super) comps: &'static [(u8, u8)],
    pub(super) num: Num,
}

/// The gfx10 unified buffer format `index` (LLVM's `BUF_FMT_*` numbering).
pub(super) fn format(index: u32) -> RuleResult<Format> {
    use Num::*;
    const ALL: [Num; 7] = [Unorm, Snorm, Uscaled, Sscaled, Uint, Sint, Float];
    const WIDE: [Num; 3] = [Uint, Sint, Float];
    let (first, bytes, comps, nums): (u32, u8, &'static [(u8, u8)], &[Num]) = match index {
        1..=6 => (1, 1, &[(0, 8)], &ALL),
        7..=13 => (7, 2, &[(0, 16)], &ALL),
        14..=19 => (14, 2, &[(0, 8), (8, 8)], &ALL),
        20..=22 => (20, 4, &[(0, 32)], &WIDE),
        23..=29 => (23, 4, &[(0, 16), (16, 16)], &ALL),
        30..=36 => (30, 4, &[(0, 11), (11, 11), (22, 10)], &ALL),
        50..=55 => (50, 4, &[(0, 10), (10, 10), (20, 10), (30, 2)], &ALL),
        56..=61 => (56, 4, &[(0, 8), (8, 8), (16, 8), (24, 8)], &ALL),
        62..=64 => (62, 8, &[(0, 32), (32, 32)], &WIDE),
        65..=71 => (65, 8, &[(0, 16), (16, 16), (32, 16), (48, 16)], &ALL),
        72..=74 => (72, 12, &[(0, 32), (32, 32), (64, 32)], &WIDE),
        75..=77 => (75, 16, &[(0, 32), (32, 32), (64, 32), (96, 32)], &WIDE),
        37..=49 => {
            return Err(RuleError::not_measured(format!(
                "memory: buffer format {index} (11_11_10 or 10_10_10_2): the component layout \
                 is not documented for gfx10"
            )))
        }
        _ => {
            return Err(RuleError::operand(format!(
                "memory: buffer format {index} is not a valid format"
            )))
        }
    };
    Ok(Format {
        bytes,
        comps,
        num: nums[(index - first) as usize],
    })
}

/// What a typed access does: `n` components, a store or a load, and its d16 form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Typed {
    pub(super) n: u16,
    pub(super) store: bool,
    pub(super) d16: D16Form,
}

/// The data layout in VGPRs of a typed access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum D16Form {
    /// One component per VGPR.
    No,
    /// Two 16-bit components per VGPR.
    Packed,
    /// One 16-bit component in bits 31:16 (`_d16_hi_x`).
    Hi,
}

/// `buffer_load/store_format_*`: the format and DST_SEL of the V#'s word3.
pub(super) fn mubuf_format(l: &mut Lowerer, c: &Ctx, t: Typed) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    if !t.store && c.inst.field(Field::Lds) != 0 {
        return Err(RuleError::not_modelled(
            "memory: the LDS (lds) form of a buffer load is not modelled",
        ));
    }
    let a = BufferAddr::new(l, c)?;
    let Some(w3) = l.b.known(a.word3) else {
        return Err(RuleError::not_modelled(
            "memory: a typed buffer access needs the V#'s word3 (its FORMAT) known \
                    when lowering (set it with s_mov_b32)",
        ));
    };
    let w3 = w3 as u32;
    // DST_SEL swizzles what a load returns; a store writes the components in order.
    if !t.store && w3 & 0xfff != 0xfac {
        return Err(RuleError::not_modelled(format!(
            "memory: V# DST_SEL 0x{:03x} (only XYZW, 0xfac, is modelled)",
            w3 & 0xfff
        )));
    }
    typed(l, &a, format((w3 >> 12) & 0x7f)?, t)
}

/// `tbuffer_*_format_*` (`d16`: the `_d16_` forms) with the format of the instruction.
pub(super) fn mtbuf_typed(l: &mut Lowerer, c: &Ctx, n: u16, store: bool, d16: bool) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let f = format(c.inst.field(Field::Format))?;
    let a = BufferAddr::new(l, c)?;
    let d16 = if d16 { D16Form::Packed } else { D16Form::No };
    typed(l, &a, f, Typed { n, store, d16 })
}

pub(super) fn mask(w: u8) -> u64 {
    if w >= 32 {
        0xffff_ffff
    } else {
        (1 << w) - 1
    }
}

/// The typed access `t` of format `f` at `a`.
fn typed(l: &mut Lowerer, a: &BufferAddr, f: Format, t: Typed) -> RuleResult {
    let comps = f.comps.len() as u16;
    if t.n > comps {
        return Err(RuleError::not_modelled(format!(
            "memory: {} components of a {comps}-component format (the fill of the missing ones \
             is not modelled)",
            t.n
        )));
    }
    if t.store && t.n != comps {
        return Err(RuleError::not_measured(format!(
            "memory: a store of {} components to a {comps}-component format (whether the others \
             are written is not documented)",
            t.n
        )));
    }
    let used = &f.comps[..usize::from(t.n)];
    // The element's words that hold the used components, accessed as 1, 2 or 4 bytes.
    let words = used
        .iter()
        .map(|&(o, w)| (o + w).div_ceil(32))
        .max()
        .unwrap_or(1);
    let width = f.bytes.min(4);
    let zero = l.b.c32(0);
    if t.store {
        let mut packed = vec![zero; usize::from(words)];
        for (k, &(o, w)) in used.iter().enumerate() {
            let x = store_value(l, a.vdata, k as u16, t.d16, f.num, w)?;
            let raw = store_conv(l, x, w, f.num)?;
            let raw = l.b.andc(raw, mask(w));
            let raw = l.b.shlc(raw, u32::from(o % 32));
            let slot = &mut packed[usize::from(o / 32)];
            *slot = l.b.or(*slot, raw);
        }
        for (i, d) in packed.into_iter().enumerate() {
            let (addr, ok) = a.at(l, 4 * i as u32);
            l.mem(LdsOp::Write, width, addr, d, ok, None);
        }
        return Ok(());
    }
    let elem: Vec<Handle> = (0..u32::from(words))
        .map(|i| {
            let (addr, ok) = a.at(l, 4 * i);
            l.mem(LdsOp::Read, width, addr, zero, ok, None)
        })
        .collect();
    let mut vals = Vec::new();
    for &(o, w) in used {
        let raw = l.b.shrc(elem[usize::from(o / 32)], u32::from(o % 32));
        let raw = l.b.andc(raw, mask(w));
        vals.push(load_conv(l, raw, w, f.num, t.d16 != D16Form::No)?);
    }
    write_loaded(l, a.vdata, &vals, t.d16);
    Ok(())
}

/// Puts the loaded components in VGPRs from `vdst` as `d16` lays them out.
pub(super) fn write_loaded(l: &mut Lowerer, vdst: u16, vals: &[Handle], d16: D16Form) {
    match d16 {
        D16Form::No => {
            for (i, &v) in vals.iter().enumerate() {
                l.vgpr_set(vdst + i as u16, v);
            }
        }
        D16Form::Packed => {
            for (i, pair) in vals.chunks(2).enumerate() {
                let r = vdst + i as u16;
                let hi = match pair.get(1) {
                    Some(&h) => l.b.shlc(h, 16),
                    None => {
                        let old = l.vgpr_get(r);
                        l.b.andc(old, 0xffff_0000)
                    }
                };
                let v = l.b.or(pair[0], hi);
                l.vgpr_set(r, v);
            }
        }
        D16Form::Hi => {
            let old = l.vgpr_get(vdst);
            let keep = l.b.andc(old, 0xffff);
            let up = l.b.shlc(vals[0], 16);
            let v = l.b.or(keep, up);
            l.vgpr_set(vdst, v);
        }
    }
}

/// Component `k` of a store's data as 32 bits: the VGPR, or a d16 half widened (f16 to f32
/// exactly for the float-valued formats, integers zero- or sign-extended; a 16-bit FLOAT
/// component keeps its bits).
pub(super) fn store_value(
    l: &mut Lowerer,
    vdata: u16,
    k: u16,
    d16: D16Form,
    num: Num,
    w: u8,
) -> RuleResult<Handle> {
    let (r, hi) = match d16 {
        D16Form::No => return Ok(l.vgpr_get(vdata + k)),
        D16Form::Packed => (vdata + k / 2, k % 2 == 1),
        D16Form::Hi => (vdata, true),
    };
    let v = l.vgpr_get(r);
    let h = if hi { l.b.shrc(v, 16) } else { v };
    let h = l.b.andc(h, 0xffff);
    Ok(match num {
        Num::Float if w == 16 => h,
        Num::Float | Num::Unorm | Num::Snorm => l.b.f16_to_f32_bits(h),
        Num::Uint => h,
        Num::Sint => {
            let up = l.b.shlc(h, 16);
            l.b.sarc(up, 16)
        }
        Num::Uscaled | Num::Sscaled => {
            return Err(RuleError::not_measured(
                "memory: a store to a scaled format: the float-to-integer rounding is \
                        not documented",
            ))
        }
    })
}

/// A component's raw `w` bits (low bits of a U32) as a VGPR gets it (`d16`: 16 bits).
pub(super) fn load_conv(
    l: &mut Lowerer,
    raw: Handle,
    w: u8,
    num: Num,
    d16: bool,
) -> RuleResult<Handle> {
    let fmt = if d16 { Fmt::F16 } else { Fmt::F32 };
    let wide_d16 = || {
        Err(RuleError::not_measured(format!(
            "memory: a d16 load of a 32-bit {num:?} component (its narrowing is not documented)"
        )))
    };
    let b = &mut l.b;
    Ok(match num {
        Num::Uint if w == 32 && d16 => return wide_d16(),
        Num::Uint => raw,
        Num::Sint if w == 32 && d16 => return wide_d16(),
        Num::Sint => {
            let up = b.shlc(raw, 32 - u32::from(w));
            let s = b.sarc(up, 32 - u32::from(w));
            if d16 {
                b.andc(s, 0xffff)
            } else {
                s
            }
        }
        Num::Float => match w {
            32 if d16 => return wide_d16(),
            32 => raw,
            _ => {
                // f16, and the unsigned 11-bit (e5 m6) and 10-bit (e5 m5) floats as f16 bits
                let h = b.shlc(raw, if w == 16 { 0 } else { 15 - u32::from(w) });
                if d16 {
                    h
                } else {
                    b.f16_to_f32_bits(h)
                }
            }
        },
        Num::Uscaled | Num::Sscaled => {
            let v = if num == Num::Sscaled {
                let up = b.shlc(raw, 32 - u32::from(w));
                let s = b.sarc(up, 32 - u32::from(w));
                b.cvt(Convert::S32ToF64, s, Ty::F64)
            } else {
                b.cvt(Convert::U32ToF64, raw, Ty::F64)
            };
            b.round_to(fmt, v, None, Round::NearestEven, false, Tiny::Result)
        }
        Num::Unorm => {
            let (v, resid) = ratio(l, raw, w);
            l.b.round_to(fmt, v, Some(resid), Round::NearestEven, false, Tiny::Result)
        }
        Num::Snorm => {
            let b = &mut l.b;
            let up = b.shlc(raw, 32 - u32::from(w));
            let i = b.sarc(up, 32 - u32::from(w));
            let neg = b.icmpc(IntCmp::LtS, i, 0);
            let zero = b.c32(0);
            let minus = b.sub(zero, i);
            let mag = b.sel(neg, minus, i);
            let m = b.c32((1 << (w - 1)) - 1);
            let big = b.icmp(IntCmp::GtU, mag, m);
            let mag = b.sel(big, m, mag);
            let (v, resid) = ratio(l, mag, w - 1);
            let b = &mut l.b;
            let (vb, rb) = (b.bits_of_f64(v), b.bits_of_f64(resid));
            let (nvb, nrb) = (b.xorc(vb, 1 << 63), b.xorc(rb, 1 << 63));
            let (vb, rb) = (b.sel(neg, nvb, vb), b.sel(neg, nrb, rb));
            let (v, resid) = (b.f64_of(vb), b.f64_of(rb));
            b.round_to(fmt, v, Some(resid), Round::NearestEven, false, Tiny::Result)
        }
    })
}

/// `a / (2^g - 1)` for `0 <= a <= 2^g - 1` (a U32): the f64 of its first 52 fraction bits
/// (the g-bit pattern of `a` repeated) and a residual whose sign is that of the rest (+1 when
/// `a` is not 0: the pattern never ends; 0 otherwise).
fn ratio(l: &mut Lowerer, a: Handle, g: u8) -> (Handle, Handle) {
    let g = u32::from(g);
    let b = &mut l.b;
    let a64 = b.zext(a);
    let mut t = b.c64(0);
    let mut k = 1;
    while g * k <= 52 {
        let part = b.shlc(a64, 52 - g * k);
        t = b.or(t, part);
        k += 1;
    }
    if g * k > 52 && g * (k - 1) < 52 {
        let part = b.shrc(a64, g * k - 52);
        t = b.or(t, part);
    }
    let lo = b.trunc64(t);
    let hi = b.hi32(t);
    let (lo, hi) = (
        b.cvt(Convert::U32ToF64, lo, Ty::F64),
        b.cvt(Convert::U32ToF64, hi, Ty::F64),
    );
    let two32 = b.cf64(4_294_967_296.0);
    let hi = b.fb(FloatBin::Mul, hi, two32);
    let v = b.fb(FloatBin::Add, hi, lo);
    let scale = b.cf64(f64::powi(2.0, -52));
    let v = b.fb(FloatBin::Mul, v, scale);
    let nz = b.nec(a, 0);
    let (one, zero) = (b.cf64(1.0), b.cf64(0.0));
    let resid = b.sel(nz, one, zero);
    (v, resid)
}

/// A store's 32-bit component value `x` as the raw bits of a `w`-bit component.
pub(super) fn store_conv(l: &mut Lowerer, x: Handle, w: u8, num: Num) -> RuleResult<Handle> {
    let b = &mut l.b;
    Ok(match num {
        _ if w == 32 => x,
        Num::Uint => {
            let max = b.c32(mask(w) as u32);
            let big = b.icmp(IntCmp::GtU, x, max);
            b.sel(big, max, x)
        }
        Num::Sint => {
            let (lo, hi) = (
                b.c32((-(1i64 << (w - 1))) as u32),
                b.c32((1 << (w - 1)) - 1),
            );
            let below = b.icmp(IntCmp::LtS, x, lo);
            let x = b.sel(below, lo, x);
            let above = b.icmp(IntCmp::GtS, x, hi);
            b.sel(above, hi, x)
        }
        Num::Unorm => {
            let max = mask(w) as u32;
            let r = scale_half_up(l, x, max);
            let b = &mut l.b;
            let neg = b.bit(x, 1 << 31);
            let zero = b.c32(0);
            b.sel(neg, zero, r)
        }
        Num::Snorm => {
            let max = (1u32 << (w - 1)) - 1;
            let r = scale_half_up(l, x, max);
            let b = &mut l.b;
            let neg = b.bit(x, 1 << 31);
            let zero = b.c32(0);
            let minus = b.sub(zero, r);
            b.sel(neg, minus, r)
        }
        Num::Float => {
            return Err(RuleError::not_measured(format!(
                "memory: a store to a {w}-bit float component: the rounding of the conversion is \
                 not documented"
            )))
        }
        Num::Uscaled | Num::Sscaled => {
            return Err(RuleError::not_measured(
                "memory: a store to a scaled format: the float-to-integer rounding is \
                        not documented",
            ))
        }
    })
}

/// `floor(min(|x|, 1) * max + 1/2)` for the f32 bits `x`, exactly; NaN gives 0.
fn scale_half_up(l: &mut Lowerer, x: Handle, max: u32) -> Handle {
    let b = &mut l.b;
    let a = b.andc(x, 0x7fff_ffff);
    let nan = b.icmpc(IntCmp::GtU, a, 0x7f80_0000);
    let ge1 = b.icmpc(IntCmp::GeU, a, 0x3f80_0000);
    let e = b.shrc(a, 23);
    let man = b.andc(a, 0x7f_ffff);
    let denorm = b.eqc(e, 0);
    let full = b.orc(man, 0x80_0000);
    let m = b.sel(denorm, man, full);
    // |x| = m * 2^-s with s = 150 - e (149 for a denormal); s >= 24 below 1
    let c150 = b.c32(150);
    let s = b.sub(c150, e);
    let c149 = b.c32(149);
    let s = b.sel(denorm, c149, s);
    let c63 = b.c32(63);
    let big = b.icmp(IntCmp::GtU, s, c63);
    let s = b.sel(big, c63, s);
    let m64 = b.zext(m);
    let cm = b.c64(u64::from(max));
    let p = b.ib(IntBin::Mul, m64, cm);
    let s64 = b.zext(s);
    let s1 = b.addc(s64, u64::MAX); // s - 1
    let one = b.c64(1);
    let half = b.ib(IntBin::Shl, one, s1);
    let p = b.add(p, half);
    let r = b.ib(IntBin::ShrU, p, s64);
    let r = b.trunc64(r);
    let cmax = b.c32(max);
    let r = b.sel(ge1, cmax, r);
    let zero = b.c32(0);
    b.sel(nan, zero, r)
}
