//! image_get_lod under the wave contract (rule: image-get-lod). Nothing here is measured: no
//! gfx103x row runs image_get_lod, so what it returns is the model's choice, built on the
//! fractional LOD of trilinear filtering ([`super::image_lod::lod_steps`]) so that it reports
//! the LOD the model's own samples use.
//!
//! - Operands: the coordinates of the DIM as image_sample's (no offset, bias or LOD dwords),
//!   f32, normalized or (FORCE_UNNORMALIZED, the instruction's UNORM) in texels; the DIMs and
//!   T# types image_sample takes ([`super::image_sample::plan`]: 1D, 1D array, 2D, 2D through
//!   a 1D T#, 2D array, 3D); the S# and T# as for a sample.
//! - The LOD: the quad's derivatives' squared footprint `rho2` (rule image-sample-lod, scaled
//!   by BASE_LEVEL's size, so relative to BASE_LEVEL) in 1/256 steps of a level,
//!   `L = floor(128 * log2(rho2))`, found without a logarithm as the trilinear path finds it.
//! - The result, per DMASK slot (packed from VDATA, no DST_SEL): X the clamped LOD, Y the
//!   unclamped one, Z and W 0 (the slot order follows AMD's description of image_get_lod,
//!   the computed LOD in X and the unclamped LOD in Y; the values are not measured). Y is
//!   `L / 256` exactly as an f32; a zero (or subnormal) or NaN footprint gives -infinity, an
//!   infinite one +infinity. X is Y clamped as a MIP_FILTER linear sample clamps its LOD, to
//!   `[0, min(MAX_LOD / 256, LAST_LEVEL - BASE_LEVEL)]` (so -infinity gives 0, +infinity the
//!   cap), with MIP_FILTER point too (not rounded to the level it reads); with MIP_FILTER
//!   none X is 0, the level such a sample reads (as the graphics APIs' textureQueryLod gives
//!   for a filter without mipmaps).
//!
//! Refused with the reason: what would change the LOD and the sample path does not model
//! either: anisotropy, a nonzero S# LOD_BIAS or MIN_LOD or T# MIN_LOD, MIP_FILTER 3, A16 and
//! D16, cube images, DIMs that differ from the T# where not measured. The XY filters and the
//! addressing modes do not enter the LOD and are not checked.

use super::error::{RuleError, RuleResult};
use super::image::{dmask_needed, slots, Mimg};
use super::image_lod::{clamp_lod, lod_cap, lod_steps, Footprint};
use super::image_sample::{plan, Ssharp};
use super::mem_format::{self, D16Form};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, Handle, Ty};
use rdnaprobe_isa::Round;

/// The model's image_get_lod (see the module docs).
/// rule: image-get-lod
pub(super) fn get_lod(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let m = Mimg::new(l, c)?;
    let t = m.tsharp(l)?;
    let s = Ssharp::decode(&m.ssharp(l)?);
    dmask_needed(&m)?;
    let refuse = |what: &str| Err(RuleError::not_measured(format!("image_get_lod: {what}")));
    if m.a16 || m.d16 {
        return refuse("A16 and D16 (the f16 coordinates' and results' rounding) are not measured");
    }
    if s.max_aniso != 0 || s.mag_filter > 1 || s.min_filter > 1 {
        return refuse("anisotropic filtering (its LOD) is not modelled");
    }
    if s.lod_bias != 0 || s.min_lod != 0 || t.min_lod != 0 {
        return refuse("an S# LOD_BIAS or MIN_LOD, or a T# MIN_LOD, is not measured");
    }
    if s.mip_filter == 3 {
        return refuse("MIP_FILTER 3 (reserved) is not measured");
    }
    if t.ty == super::image_desc::ImgType::Cube {
        return Err(RuleError::not_modelled(
            "image_get_lod: a CUBE T# (the LOD of a cube's derivatives is not modelled)",
        ));
    }
    let uses = plan(t.ty, m.dim, false, false)
        .map_err(|e| e.retitled("image sample:", "image_get_lod:"))?;
    let mut coords = Vec::with_capacity(uses.len());
    for (i, &u) in uses.iter().enumerate() {
        coords.push((u, m.coord(l, i)?));
    }
    let unnorm = s.force_unnormalized || c.inst.field(rdnaprobe_isa::layout::Field::Unorm) != 0;
    let from = Footprint {
        coords: &coords,
        grads: None,
        bias: None,
    };
    let steps = lod_steps(l, &t, from, unnorm);
    let lod = l.b.cvt(Convert::S32ToF64, steps, Ty::F64);
    let k = l.b.cf64(1.0 / 256.0);
    let lod = l.b.fb(FloatBin::Mul, lod, k);
    // Y: L / 256 (exact in f32: |L| < 2^18), the sentinels +-2^24 as infinities
    let y = f32_bits(l, lod);
    let neg = l.b.eqc(steps, u64::from((-(1i32 << 24)) as u32));
    let pos = l.b.eqc(steps, 1 << 24);
    let (ninf, pinf) = (l.b.c32(0xff80_0000), l.b.c32(0x7f80_0000));
    let y = l.b.sel(pos, pinf, y);
    let y = l.b.sel(neg, ninf, y);
    let x = if s.mip_filter == 0 {
        l.b.c32(0)
    } else {
        let clamped = clamp_lod(l, lod, lod_cap(&s, &t));
        f32_bits(l, clamped)
    };
    let zero = l.b.c32(0);
    let all = [x, y, zero, zero];
    let vals: Vec<Handle> = slots(m.dmask).map(|slot| all[slot]).collect();
    mem_format::write_loaded(l, m.vdata, &vals, D16Form::No);
    Ok(())
}

/// The f64 `v` (a multiple of 1/256 within +-2^16: exact) as f32 bits.
fn f32_bits(l: &mut Lowerer, v: Handle) -> Handle {
    l.b.round_to(Fmt::F32, v, None, Round::NearestEven, false, Tiny::Result)
}
