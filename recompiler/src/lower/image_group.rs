//! The MIMG opcodes LLVM does not know that read a group of texels of one row of a 2D image,
//! as the reference notes measured them on RDNA2: the BY loads (image_load[_mip]_by2/by4,
//! each texel converted), the PCK2/PCK4 loads (image_load[_mip]_pck2/pck4, the texels' raw
//! bits in one dword), the packed horizontal gather image_gather4h_pck (a four-texel window
//! at a normalized coordinate, raw bits as a bit stream) and image_gather8h_pck (zeros); and
//! image_gather4h, the same window's texels converted, which is not measured.
//!
//! The groups of N texels (BY2/PCK2: 2, BY4/PCK4: 4) start at the aligned `x & ~(N - 1)` of
//! row y and are in range when the level is at most LAST_LEVEL, y is below the level's
//! height and the unaligned x + N - 1 is below its width (unsigned, without wrapping past
//! 2^32); out of range every register is 0 (rule: image-by; rule: image-pck2-pck4). Data comes
//! back only when the N texels fit one dword; wider groups write zeros. All of them are
//! measured on 2D T#s through DIM 2D with the identity DST_SEL (X, Y, .. for the format's
//! components), without D16 or A16: everything else is refused as not measured. The
//! gather's S# is not read: the notes measured that the sampler's state does not change
//! the window (rule: image-gather-pck).

use super::error::{RuleError, RuleResult};
use super::image::{dmask_needed, read_texel, slots, texel, Coord, Mimg, Texel, DIMS};
use super::image_desc::{ImgType, Tsharp};
use super::image_format;
use super::mem_format;
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntCmp, LdsOp, Ty};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::Round;

/// Which group load: converted texels (`converted`: the BY loads) or their raw bits (PCK2 and
/// PCK4), of `n` texels, with or without the mip VGPR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Group {
    pub(super) n: u32,
    pub(super) converted: bool,
    pub(super) mip: bool,
}

impl Group {
    pub(super) const fn by(n: u32, mip: bool) -> Group {
        Group {
            n,
            converted: true,
            mip,
        }
    }
    pub(super) const fn pck(n: u32, mip: bool) -> Group {
        Group {
            n,
            converted: false,
            mip,
        }
    }
}

/// The checks every opcode of this module shares: the wave contract, a 2D T# through DIM 2D,
/// no D16, A16, TFE or LWE, the identity DST_SEL for the format's components, a DMASK.
fn measured_form(l: &mut Lowerer, c: &Ctx, what: &str) -> RuleResult<(Mimg, Tsharp)> {
    let m = Mimg::new(l, c)?;
    let t = m.tsharp(l)?;
    if t.ty != ImgType::D2 || DIMS[m.dim].0 != "2D" {
        return Err(RuleError::not_measured(format!(
            "image: {what} through DIM {} on a {} T#: measured for 2D images through DIM 2D only",
            DIMS[m.dim].0,
            t.ty.name()
        )));
    }
    if m.d16 || m.a16 {
        return Err(RuleError::not_measured(format!(
            "image: {what} with D16 or A16 is not measured"
        )));
    }
    if c.inst.field(Field::Tfe) != 0 || c.inst.field(Field::Lwe) != 0 {
        return Err(RuleError::not_measured(format!(
            "image: {what} with TFE or LWE is not measured"
        )));
    }
    for k in 0..t.format.fmt.comps.len() {
        if t.dst_sel[k] != 4 + k as u32 {
            return Err(RuleError::not_measured(format!(
                "image: {what} through a DST_SEL that is not the identity (component {k} from \
                 DST_SEL {}): measured with the identity swizzle only",
                t.dst_sel[k]
            )));
        }
    }
    dmask_needed(&m)?;
    Ok((m, t))
}

/// Writes 0 to the `n` VGPRs from VDATA.
fn zeros(l: &mut Lowerer, m: &Mimg, n: u32) {
    let zero = l.b.c32(0);
    for r in 0..n as u16 {
        l.vgpr_set(m.vdata + r, zero);
    }
}

/// The BY loads (rule: image-by) and the PCK2/PCK4 loads (rule: image-pck2-pck4).
pub(super) fn group(l: &mut Lowerer, c: &Ctx, g: Group) -> RuleResult {
    let what = if g.converted {
        "a BY load"
    } else {
        "a PCK2/PCK4 load"
    };
    let (m, t) = measured_form(l, c, what)?;
    let f = t.format;
    let n = g.n;
    let bytes = n * u32::from(f.fmt.bytes);
    let comps = f.fmt.comps.len() as u32;
    let count = m.dmask.count_ones();
    if bytes > 4 {
        // the N texels do not fit one dword: zeros (measured for 32- and 64-bit texels)
        zeros(l, &m, count);
        return Ok(());
    }
    if g.converted {
        let full = (1 << (n * comps)) - 1;
        if n * comps > 4 || m.dmask != full {
            return Err(RuleError::not_measured(format!(
                "image: a BY{n} load of a {comps}-component format with DMASK 0x{:x}: data is \
                 measured with one DMASK bit per component of the N texels (0x{full:x})",
                m.dmask
            )));
        }
    } else if m.dmask != 1 {
        // every mask but 0x1 writes zeros (measured for 0x3 and 0xf)
        zeros(l, &m, count);
        return Ok(());
    }
    let x = m.coord(l, 0)?;
    let y = m.coord(l, 1)?;
    let mip = if g.mip { Some(m.coord(l, 2)?) } else { None };
    let x0 = l.b.andc(x, u64::from(!(n - 1)));
    let first = texel(l, &t, &[(Coord::X, x0), (Coord::Y, y)], mip);
    // in range: the unaligned x + N - 1, unsigned and without wrapping
    let last_x = l.b.addc(x, u64::from(n - 1));
    let last = texel(l, &t, &[(Coord::X, last_x), (Coord::Y, y)], mip);
    let no_wrap = l.b.icmpc(IntCmp::LeU, x, u64::from(u32::MAX - (n - 1)));
    let ok = l.b.band(last.ok, no_wrap);
    let zero = l.b.c32(0);
    let v = l.mem(LdsOp::Read, bytes as u8, first.addr, zero, Some(ok), None);
    if !g.converted {
        l.vgpr_set(m.vdata, v);
        return Ok(());
    }
    let bits = 8 * u32::from(f.fmt.bytes);
    for j in 0..n * comps {
        let (k, i) = (j / comps, (j % comps) as usize);
        let (o, w) = f.fmt.comps[i];
        let raw = l.b.shrc(v, k * bits + u32::from(o));
        let raw = l.b.andc(raw, mem_format::mask(w));
        let val = image_format::load_component(l, &f, i, raw, false)?;
        let val = l.b.sel(ok, val, zero);
        l.vgpr_set(m.vdata + j as u16, val);
    }
    Ok(())
}

/// `floor(x * size)` (`half`: `floor(x * size - 0.5)`) of the f32 bits `x`, each operation
/// rounded to f32 (nearest even, no contraction), as a signed U32 clamped to
/// [-8, size + 8]; a NaN reads as 0 (not measured).
fn scaled_floor(l: &mut Lowerer, x: Handle, size: u32, half: bool) -> Handle {
    let b = &mut l.b;
    let nan = b.is_nan(Fmt::F32, x);
    let zero = b.c32(0);
    let x = b.sel(nan, zero, x);
    let xf = b.f32_to_f64_exact(x);
    let n = b.cf64(f64::from(size));
    // exact in f64: 24 by 15 significant bits
    let p = b.fb(FloatBin::Mul, xf, n);
    let mut r = b.round_to(Fmt::F32, p, None, Round::NearestEven, false, Tiny::Result);
    if half {
        let rf = b.f32_to_f64_exact(r);
        let h = b.cf64(0.5);
        let d = b.fb(FloatBin::Sub, rf, h);
        r = b.round_to(Fmt::F32, d, None, Round::NearestEven, false, Tiny::Result);
    }
    let rf = b.f32_to_f64_exact(r);
    let bits = b.bits_of_f64(rf);
    let fl = b.round_integral(Fmt::F64, FloatUn::Floor, bits);
    let fl = b.f64_of(fl);
    let lo = b.cf64(-8.0);
    let hi = b.cf64(f64::from(size) + 8.0);
    let below = b.fcmp(FloatCmp::OrdLt, fl, lo);
    let fl = b.sel(below, lo, fl);
    let above = b.fcmp(FloatCmp::OrdGt, fl, hi);
    let fl = b.sel(above, hi, fl);
    b.cvt(Convert::F64ToS32, fl, Ty::U32)
}

/// The four texels of the horizontal gathers' window: columns `floor(u * W - 0.5) + {-1, 0,
/// +1, +2}` clamped into the width, of row `floor(v * H)` (a negative row reads row 0, a row
/// at or past the height is out of range), at level BASE_LEVEL (rule: image-gather-pck).
fn strip(l: &mut Lowerer, m: &Mimg, t: &Tsharp) -> RuleResult<Vec<Texel>> {
    let level = t.levels[t.base_level as usize];
    let u = m.coord(l, 0)?;
    let v = m.coord(l, 1)?;
    let anchor = scaled_floor(l, u, level.width, true);
    let row = scaled_floor(l, v, level.height, false);
    let b = &mut l.b;
    let neg = b.icmpc(IntCmp::LtS, row, 0);
    let zero = b.c32(0);
    let row = b.sel(neg, zero, row);
    let last = b.c32(level.width - 1);
    let mut texels = Vec::with_capacity(4);
    for k in 0..4u64 {
        let col = l.b.addc(anchor, k.wrapping_sub(1) & 0xffff_ffff);
        let neg = l.b.icmpc(IntCmp::LtS, col, 0);
        let col = l.b.sel(neg, zero, col);
        let past = l.b.icmp(IntCmp::GtS, col, last);
        let col = l.b.sel(past, last, col);
        texels.push(texel(l, t, &[(Coord::X, col), (Coord::Y, row)], None));
    }
    Ok(texels)
}

/// image_gather4h_pck: the texels of [`strip`]'s window, their raw bits a little-endian bit
/// stream (texel k at bit k * texel bits; a row past the height reads zeros); DMASK bit i
/// writes stream word i (0 past the stream) to the next VGPR; texels wider than 32 bits
/// write zeros (rule: image-gather-pck).
pub(super) fn gather4h_pck(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let (m, t) = measured_form(l, c, "image_gather4h_pck")?;
    let bytes = u32::from(t.format.fmt.bytes);
    if bytes > 4 {
        zeros(l, &m, m.dmask.count_ones());
        return Ok(());
    }
    let zero = l.b.c32(0);
    let texels: Vec<Handle> = strip(l, &m, &t)?
        .iter()
        .map(|tx| l.mem(LdsOp::Read, bytes as u8, tx.addr, zero, Some(tx.ok), None))
        .collect();
    let bits = 8 * bytes;
    let mut words = vec![zero; bytes as usize];
    for (k, &tv) in texels.iter().enumerate() {
        let at = k as u32 * bits;
        let w = &mut words[(at / 32) as usize];
        let s = l.b.shlc(tv, at % 32);
        *w = l.b.or(*w, s);
    }
    for (r, i) in slots(m.dmask).enumerate() {
        let val = words.get(i).copied().unwrap_or(zero);
        l.vgpr_set(m.vdata + r as u16, val);
    }
    Ok(())
}

/// image_gather4h: the component DMASK names (one bit) of each texel of [`strip`]'s window,
/// converted as image_gather4 converts it (f32 bits, 0 for a row past the height), texel k in
/// VGPR k. Not measured: the window is image_gather4h_pck's (measured) and the conversion
/// image_gather4's, the model's choice until a gfx103x GPU measures it (rule:
/// image-gather-pck).
pub(super) fn gather4h(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let (m, t) = measured_form(l, c, "image_gather4h")?;
    if m.dmask.count_ones() != 1 {
        return Err(RuleError::not_modelled(
            "image_gather4h: a DMASK of other than one component",
        ));
    }
    let k = m.dmask.trailing_zeros() as usize;
    let f = t.format;
    let Some(&(o, w)) = f.fmt.comps.get(k) else {
        return Err(RuleError::not_measured(format!(
            "image_gather4h: DMASK component {k} of a {}-component format",
            f.fmt.comps.len()
        )));
    };
    let zero = l.b.c32(0);
    for (i, tx) in strip(l, &m, &t)?.iter().enumerate() {
        let elem = read_texel(l, &f, tx);
        let raw = l.b.shrc(elem[usize::from(o / 32)], u32::from(o % 32));
        let raw = l.b.andc(raw, mem_format::mask(w));
        let v = image_format::load_component(l, &f, k, raw, false)?;
        let v = l.b.sel(tx.ok, v, zero);
        l.vgpr_set(m.vdata + i as u16, v);
    }
    Ok(())
}

/// image_gather8h_pck: zeros in popcount(DMASK) VGPRs, whatever the T# and the coordinates
/// (measured; rule: image-gather-pck).
pub(super) fn gather8h_pck(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let m = Mimg::new(l, c)?;
    if m.d16 {
        return Err(RuleError::not_measured(
            "image: a d16 image_gather8h_pck is not measured",
        ));
    }
    if c.inst.field(Field::Tfe) != 0 || c.inst.field(Field::Lwe) != 0 {
        return Err(RuleError::not_measured(
            "image: image_gather8h_pck with TFE or LWE is not measured",
        ));
    }
    dmask_needed(&m)?;
    zeros(l, &m, m.dmask.count_ones());
    Ok(())
}
