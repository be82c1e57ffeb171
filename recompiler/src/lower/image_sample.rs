//! Sampling under the wave contract: image_sample and image_gather4 at LOD 0 (`_lz`), with an
//! explicit LOD (`_l`), the quad's derivatives (no suffix) and their clamp (`_cl`), with the
//! `_c` and `_o` forms; point and bilinear filtering, point and linear (trilinear) mipmapping,
//! every addressing mode but the half-border ones, through the S# (four SGPRs at SSAMP, known
//! when lowering as the T# is). IR integer and f64 operations only, so the CPU model and every
//! Vulkan driver give the same bits.
//!
//! What is measured and what is chosen (docs/dataset-format.md, Images): the notes measured
//! that unnormalized texel offsets are added to the f32 coordinate before the addressing mode
//! (gfx1035; rule: image-sample-unnorm-offset), that a 2D DIM through a 1D T# samples by the
//! first coordinate alone (gfx1036, point filtering with wrap, clamp and border; rule:
//! image-sample-dim), that a compute wave's plain sample takes its LOD from the quad's
//! derivatives, which through such a pair are the first coordinate's (gfx1036; rule:
//! image-sample-lod), that a compare on 8-bit UNORM and sRGB is 0 (gfx1035; rule:
//! image-sample-compare), and two cube compare values that are multiples of 1/256 (154/256 and
//! 102/256), which points to 8-bit sub-texel weights. The rest follows the public register
//! definitions and the graphics APIs' rules, and is the model's choice until a gfx103x GPU
//! measures it:
//!
//! - the texel-space coordinate is `f32(u * size)` (an unnormalized coordinate as it is),
//!   then `f32(x + offset)` with `_o`, then for bilinear `f32(x - 0.5)`; a NaN coordinate reads
//!   as 0 (as image_gather4h_pck's);
//! - point: texel `floor(x)`; bilinear: texels `i0 = floor(x)` and `i0 + 1` with weights
//!   `256 - w1` and `w1 = round_even((x - i0) * 256)`, and in 2D the products of the two axes'
//!   weights (out of 65536);
//! - a bilinear component is `f32(sum / 65536)` of the taps' `weight * value` in f64 (exact
//!   products; the sum in the order (i0, j0), (i1, j0), (i0, j1), (i1, j1), each addition
//!   rounded to nearest even), taps of weight 0 left out; a NaN among the taps gives the
//!   first one quieted, a NaN sum of infinities the default NaN; point sampling returns the
//!   texel's converted bits unchanged;
//! - addressing on the integer texel index `i` of a level `n` texels wide: WRAP `i mod n`,
//!   MIRROR the period `2n` folded, CLAMP_LAST_TEXEL `clamp(i, 0, n - 1)`,
//!   MIRROR_ONCE_LAST_TEXEL `clamp(i < 0 ? -1 - i : i, 0, n - 1)`, CLAMP_BORDER and
//!   MIRROR_ONCE_BORDER the border colour outside `[0, n)`; the border colour (types 0..2:
//!   transparent black, opaque black, opaque white) stands for the texel's converted
//!   components before DST_SEL;
//! - an array's layer is `round_even(layer)` clamped into the view's layers;
//! - the level: BASE_LEVEL at LOD 0 or with MIP_FILTER none; with MIP_FILTER point
//!   `ceil(lod + 0.5) - 1` past it, clamped to the view's levels and MAX_LOD, the implicit LOD
//!   log2 of the quad's larger derivative footprint ([`select_level`]);
//! - MIP_FILTER linear (trilinear; [`super::image_trilinear`], rule image-sample-trilinear,
//!   not measured): the LOD (`_l`'s dword, or the footprint's in 1/256 steps) clamped to
//!   `[0, min(MAX_LOD, levels)]`, levels `floor(lod)` and the next, the second weighted
//!   `wl = round_even(frac(lod) * 256)`; both levels' taps (bilinear, or the nearest texel
//!   with point filters) weighted `256 - wl` and `wl` blended as one bilinear blend out of
//!   2^24; `wl = 0` is the one level's sample bit for bit; a gather reads the level
//!   MIP_FILTER point reads.
//! - 3D images ([`super::image_axis`], rule image-sample-3d, not measured): DIM 3D on a 3D T#
//!   samples `(u, v, w)` over the level's width, height and depth `max(1, depth >> l)`, z
//!   addressed by CLAMP_Z (word0 8:6) as x and y are by CLAMP_X/Y (the border colour outside
//!   `[0, depth)` with the border modes), the `_o` dword's z offset in bits 21:16; point reads
//!   texel `(floor x, floor y, floor z)`, bilinear XY filtering is trilinear in space: 8 taps,
//!   x fastest, then y, then z, weighted `wx * wy * wz` (out of 2^24) and blended as the 2D
//!   taps are, divided by 2^24; with MIP_FILTER linear the two levels' 8-tap sets weighted
//!   `256 - wl` and `wl` (out of 2^32). The LOD's footprint sums the three axes' squared
//!   scaled differences (`u * W`, `v * H`, `w * D`) per direction. The products are exact in
//!   f64 wherever a tap weight has at most 29 significant bits: a 2D tap's (16), a 3D tap's
//!   (24) and a 2D trilinear one's (24) are; a 3D trilinear weight `wx * wy * wz * wl` (each
//!   factor 1..255, or 256, which adds no bit) has up to 32, so its product with a texel's
//!   24-bit significand (up to 56 bits, e.g. `255^4 * (1 + 2^-23)`) is rounded to nearest
//!   even in f64 before the sum: one rounding more there, the model's choice (the SPIR-V
//!   backend marks it NoContraction, so no driver fuses it into the sum). A gather of a 3D
//!   T# is refused (a gather's footprint is 2D, as in Vulkan).
//!
//! image_sample_c* compares: on an 8-bit UNORM or sRGB image it returns 0 whatever the
//! reference, texels and compare function (measured on gfx1035); on other formats each tap's
//! first component is compared with the reference (`reference OP texel`, the S#'s
//! DEPTH_COMPARE_FUNC; the reference clamped to [0, 1] for UNORM and [-1, 1] for SNORM, a
//! border tap comparing the border colour's) and the 0.0/1.0 results are filtered like texels
//! (compare, then filter: the notes' 154/256 and 102/256 are such blends), not measured
//! beyond that. image_gather4_c* returns the footprint's four compare results unfiltered, in
//! the gather's order; on 8-bit UNORM and sRGB all four are 0, sample_c's measured rule
//! carried over (the model's choice: no gather4_c row is measured).
//!
//! The user-derivative forms (`_d`, `_cd`, their `_g16` forms with f16 derivatives) take the
//! LOD from the derivatives in the address dwords (after the reference, before the
//! coordinates: per direction x then y, one per axis of the DIM) exactly as the plain sample
//! takes it from the quad's differences: the same squared footprint, the same comparisons.
//! `_d` gives each lane its own LOD; `_cd` ("coarse", one LOD per quad) the quad's first
//! lane's. Neither is measured: the LOD rule is the plain sample's (rule: image-sample-lod),
//! and which lane a coarse quad takes is the model's choice.
//!
//! The bias forms (`_b`, the bias dword after the offset) add the bias to the derivatives' LOD
//! in 1/256 steps, tested against the level edges without a logarithm
//! ([`super::image_lod`]); a
//! bias of a whole half level gives the plain sample's exact tests, the 1/256 steps are the
//! model's choice (not measured).
//!
//! Refused with the reason: MIP_FILTER 3 (reserved); a magnification and minification filter
//! that differ (which one a LOD takes is not measured), anisotropy, the min/max FILTER_MODE,
//! TRUNC_COORD, a nonzero LOD_BIAS or MIN_LOD, the half-border modes, the border colour table
//! (type 3), integer formats but with point filtering (and without border), D16 of an integer
//! format, a gather of a 3D image. Cube images are [`super::image_cube`]'s (rule
//! image-sample-cube). A16 and D16 are rule image-sample-a16-d16 (the
//! model's choice): f16 addresses widened exactly in LLVM's layout, f32 results rounded to f16.

use super::error::{RuleError, RuleResult};
use super::image::{dmask_needed, slots, texel, Coord, Mimg, DIMS};
use super::image_axis::{array_layer, axis, texel_components, Axis};
use super::image_desc::{ImgType, Tsharp};
use super::image_format::{one, ImgFormat};
use super::image_lod::{derivatives, select_level, Footprint};
use super::image_trilinear::{blend, trilinear, trilinear_lod};
use super::mem_format::{self, D16Form};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, Handle, IntBin, Ty};
use rdnaprobe_isa::Round;

/// How a sample finds its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lod {
    /// `_lz`: LOD 0, the T#'s BASE_LEVEL.
    Zero,
    /// No suffix: the LOD of the quad's derivatives.
    Implicit,
    /// `_l`: the LOD in the address dword after the coordinates.
    Explicit,
    /// `_cl`: the derivatives' LOD, at least the clamp in the dword after the coordinates.
    Clamp,
}

/// Which sampling instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sample {
    /// image_gather4_lz: the four texels of the bilinear footprint, one component each.
    pub(super) gather: bool,
    /// The `_o` forms: a packed texel offset before the coordinates.
    pub(super) offset: bool,
    /// The `_c` forms: a reference value (after the offset) compared with each tap.
    pub(super) compare: bool,
    pub(super) lod: Lod,
    /// The `_d` and `_cd` forms: the derivatives in the address dwords stand for the quad's.
    pub(super) grad: Option<Grad>,
    /// The `_b` forms: an f32 LOD bias (after the offset) added to the derivatives' LOD.
    pub(super) bias: bool,
}

/// The user derivatives of image_sample_d / _cd (and their `_g16` forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Grad {
    /// `_cd`: one LOD per quad, from the quad's first lane's derivatives (the model's choice).
    pub(super) coarse: bool,
    /// `_g16`: f16 derivatives, a direction's two per dword (x in bits 15:0, y in 31:16).
    pub(super) g16: bool,
}

impl Sample {
    /// The form a sampling mnemonic names: `image_sample` or `image_gather4`, then in this
    /// order `_c`, one LOD suffix (`_lz`, `_l`, `_b`, `_d`, `_cd`, or none: the quad's
    /// derivatives), `_cl`, `_o`, `_g16` (with `_d`/`_cd` only); `None` for any other name
    /// (image_gather4h, image_gather4h_pck, image_get_lod).
    pub(super) fn of_mnemonic(name: &str) -> Option<Sample> {
        let (gather, rest) = match name.strip_prefix("image_gather4") {
            Some(rest) => (true, rest),
            None => (false, name.strip_prefix("image_sample")?),
        };
        let mut parts = rest.split('_').filter(|p| !p.is_empty()).peekable();
        let mut take = |word: &str| parts.next_if(|p| *p == word).is_some();
        let compare = take("c");
        let lod_word = ["lz", "l", "b", "d", "cd"].into_iter().find(|&w| take(w));
        let clamp = take("cl");
        let offset = take("o");
        let g16 = take("g16");
        if parts.next().is_some() || (g16 && !matches!(lod_word, Some("d" | "cd"))) {
            return None;
        }
        Some(Sample {
            gather,
            offset,
            compare,
            lod: match lod_word {
                Some("lz") => Lod::Zero,
                Some("l") => Lod::Explicit,
                _ if clamp => Lod::Clamp,
                _ => Lod::Implicit,
            },
            grad: matches!(lod_word, Some("d" | "cd")).then_some(Grad {
                coarse: lod_word == Some("cd"),
                g16,
            }),
            bias: lod_word == Some("b"),
        })
    }
}

/// The S# fields sampling reads (word0..3, after the public register definitions of Mesa's
/// `sid.h` and ROCm's `resource_nv.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ssharp {
    /// CLAMP_X, CLAMP_Y, CLAMP_Z (word0 2:0, 5:3, 8:6).
    pub(super) clamp: [u32; 3],
    pub(super) max_aniso: u32,
    pub(super) force_unnormalized: bool,
    pub(super) trunc_coord: bool,
    /// DISABLE_CUBE_WRAP (word0 bit 28): a cube's faces addressed one by one.
    pub(super) disable_cube_wrap: bool,
    pub(super) filter_mode: u32,
    pub(super) min_lod: u32,
    pub(super) lod_bias: u32,
    pub(super) mag_filter: u32,
    pub(super) min_filter: u32,
    pub(super) border_type: u32,
    /// DEPTH_COMPARE_FUNC (word0 14:12): never, <, ==, <=, >, !=, >=, always.
    pub(super) compare_func: u32,
    /// MAX_LOD (word1 23:12, unsigned 4.8 fixed point).
    pub(super) max_lod: u32,
    /// MIP_FILTER (word2 27:26): none, point, linear.
    pub(super) mip_filter: u32,
}

impl Ssharp {
    pub(super) fn decode(w: &[u32; 4]) -> Ssharp {
        Ssharp {
            clamp: [w[0] & 7, w[0] >> 3 & 7, w[0] >> 6 & 7],
            max_aniso: w[0] >> 9 & 7,
            force_unnormalized: w[0] >> 15 & 1 != 0,
            trunc_coord: w[0] >> 27 & 1 != 0,
            disable_cube_wrap: w[0] & super::image_cube::DISABLE_CUBE_WRAP != 0,
            filter_mode: w[0] >> 29 & 3,
            min_lod: w[1] & 0xfff,
            lod_bias: w[2] & 0x3fff,
            mag_filter: w[2] >> 20 & 3,
            min_filter: w[2] >> 22 & 3,
            border_type: w[3] >> 30,
            compare_func: w[0] >> 12 & 7,
            max_lod: w[1] >> 12 & 0xfff,
            mip_filter: w[2] >> 26 & 3,
        }
    }

    /// The addressing modes a sample uses: CLAMP_X and CLAMP_Y, and CLAMP_Z on a 3D image
    /// (`d3`).
    pub(super) fn modes(&self, d3: bool) -> &[u32] {
        &self.clamp[..if d3 { 3 } else { 2 }]
    }

    /// Whether the S# asks only for what this module models (CLAMP_Z too on a 3D image,
    /// `d3`); the filter is bilinear when true.
    fn bilinear(&self, d3: bool) -> RuleResult<bool> {
        let refuse = |what: &str| Err(RuleError::not_measured(format!("image sample: {what}")));
        if self.mag_filter != self.min_filter {
            return refuse(
                "XY_MAG_FILTER and XY_MIN_FILTER differ (which one LOD 0 takes is not measured)",
            );
        }
        if self.mag_filter > 1 || self.max_aniso != 0 {
            return refuse("anisotropic filtering is not modelled");
        }
        if self.filter_mode != 0 {
            return refuse("FILTER_MODE min/max (a reduction filter) is not modelled");
        }
        if self.trunc_coord {
            return refuse("TRUNC_COORD is not measured");
        }
        if self.lod_bias != 0 || self.min_lod != 0 {
            return refuse("an S# LOD_BIAS or MIN_LOD at LOD 0 is not measured");
        }
        if let Some(&m) = self.modes(d3).iter().find(|&&m| m == 4 || m == 5) {
            return refuse(&format!(
                "the half-border addressing mode {m} is not modelled"
            ));
        }
        if self.border_type == 3 && self.modes(d3).iter().any(|&m| m >= 6) {
            return refuse("the border colour table (BORDER_COLOR_TYPE 3) is not modelled");
        }
        Ok(self.mag_filter == 1)
    }

    /// The border colour's component `k` (X..W) as f32 bits.
    pub(super) fn border(&self, k: usize) -> u32 {
        match (self.border_type, k) {
            (2, _) | (1, 3) => 0x3f80_0000,
            _ => 0,
        }
    }
}

/// What the DIM's coordinates address on a T# of type `ty` for a sample (or image_get_lod):
/// the type's own coordinates, or a 2D DIM through a 1D T# (the second coordinate ignored,
/// measured); DIM 3D on a 3D T# samples (u, v, w) (rule: image-sample-3d), a gather only 2D.
/// A plain image_sample_lz (`plain_lz`: no offset, comparison or gather) with DIM 3D through a
/// 2D T# ignores r, and through a 2D-array T# takes r as the layer (measured, gfx1036 and
/// gfx1035); other forms of that pair are not measured.
/// rule: image-sample-dim
pub(super) fn plan(
    ty: ImgType,
    dim: usize,
    gather: bool,
    plain_lz: bool,
) -> RuleResult<Vec<Coord>> {
    use Coord::*;
    let name = DIMS[dim].0;
    Ok(match (ty, name) {
        (ImgType::D2, "3D") if plain_lz => vec![X, Y, Ignored],
        (ImgType::D2Array, "3D") if plain_lz => vec![X, Y, Layer],
        (ImgType::D2, "2D") => vec![X, Y],
        (ImgType::D2Array, "2D_ARRAY") => vec![X, Y, Layer],
        (ImgType::D1, "1D") if !gather => vec![X],
        (ImgType::D1Array, "1D_ARRAY") if !gather => vec![X, Layer],
        (ImgType::D1, "2D") if !gather => vec![X, Ignored],
        (ImgType::D3, "3D") if !gather => vec![X, Y, Z],
        (ImgType::D3, "3D") => {
            return Err(RuleError::not_modelled(
                "image gather4: a 3D T# (a gather's footprint is 2D, as in Vulkan) is not \
                 modelled",
            ))
        }
        // rule: image-sample-cube
        (ImgType::Cube, "CUBE") => vec![X, Y, Layer],
        _ => {
            return Err(RuleError::not_measured(format!(
                "image sample: DIM {name} through a {} T#{}",
                ty.name(),
                if gather { " (gather4)" } else { "" }
            )))
        }
    })
}

/// Every image_sample and image_gather4 form, by its mnemonic ([`Sample::of_mnemonic`]).
pub(super) fn sample_named(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let name = c.inst.info().mnemonic;
    let form = Sample::of_mnemonic(name).ok_or_else(|| {
        RuleError::operand(format!("image: {name} is not a sampling instruction"))
    })?;
    sample(l, c, form)
}

/// The sample or gather `form` (see the module docs).
fn sample(l: &mut Lowerer, c: &Ctx, form: Sample) -> RuleResult {
    let m = Mimg::new(l, c)?;
    let t = m.tsharp(l)?;
    let s = Ssharp::decode(&m.ssharp(l)?);
    dmask_needed(&m)?;
    let what = if form.gather { "gather4" } else { "sample" };
    if m.d16 && !t.format.float_valued() {
        return Err(RuleError::not_measured(format!(
            "image {what}: D16 of an integer format (UINT/SINT: the narrowing) is not measured"
        )));
    }
    if !t.format.float_valued() && (s.mag_filter != 0 || form.compare || form.gather) {
        return Err(RuleError::not_measured(format!(
            "image {what}: an integer format (UINT/SINT) is sampled only with point filtering"
        )));
    }
    let d3 = t.ty == ImgType::D3;
    if !t.format.float_valued() && s.modes(d3).iter().any(|&c| c >= 6) {
        return Err(RuleError::not_measured(format!(
            "image {what}: the border colour of an integer format is not measured"
        )));
    }
    if t.min_lod != 0 {
        return Err(RuleError::not_measured(format!(
            "image {what}: a T# MIN_LOD at LOD 0 is not measured"
        )));
    }
    if form.gather && m.dmask.count_ones() != 1 {
        return Err(RuleError::not_measured(
            "image gather4: a DMASK of other than one component",
        ));
    }
    let bilinear = s.bilinear(d3)? || form.gather;
    let plain_lz = form
        == Sample {
            gather: false,
            offset: false,
            compare: false,
            lod: Lod::Zero,
            grad: None,
            bias: false,
        };
    let uses = plan(t.ty, m.dim, form.gather, plain_lz)?;
    let unnorm = s.force_unnormalized || c.inst.field(rdnaprobe_isa::layout::Field::Unorm) != 0;
    if t.ty == ImgType::Cube {
        super::image_cube::check(&t, unnorm)?;
    }
    let mut first = usize::from(form.offset);
    // the offset, bias and reference take a dword each, A16 or not (an A16 bias: the f16 in
    // bits 15:0)
    let bias = if form.bias {
        first += 1;
        Some(bias_bits(l, &m, first - 1)?)
    } else {
        None
    };
    let reference = if form.compare {
        if m.dmask != 1 {
            return Err(RuleError::not_measured(
                "image sample_c: a DMASK other than 0x1 (what the other slots return is not \
                 measured)",
            ));
        }
        first += 1;
        Some(m.dword(l, first - 1)?)
    } else {
        None
    };
    // the offset dword: x in bits 5:0, y in 13:8, a 3D image's z in 21:16 (signed)
    let offsets = if form.offset {
        let o = m.dword(l, 0)?;
        let field = |l: &mut Lowerer, at: u32| {
            let v = l.b.shlc(o, 26 - at);
            l.b.sarc(v, 26)
        };
        [
            Some(field(l, 0)),
            Some(field(l, 8)),
            d3.then(|| field(l, 16)),
        ]
    } else {
        [None; 3]
    };
    // the derivatives follow the reference: per direction (x, then y) one per axis of the DIM
    let grads = match form.grad {
        Some(g) => {
            let (grads, dwords) = derivatives(l, &m, g, &uses, first)?;
            first += dwords;
            Some((grads, g.coarse))
        }
        None => None,
    };
    let mut coords = Vec::with_capacity(uses.len());
    for (i, &u) in uses.iter().enumerate() {
        coords.push((u, m.float_coord(l, first, i)?));
    }
    let extra = match form.lod {
        Lod::Explicit | Lod::Clamp => Some(m.float_coord(l, first, uses.len())?),
        Lod::Zero | Lod::Implicit => None,
    };
    // the levels the sample may read: BASE_LEVEL + 0..=top (rule: image-sample-lod); a
    // gather reads one level, with MIP_FILTER linear the one MIP_FILTER point reads
    let levels = t.last_level - t.base_level;
    let nearest = ((f64::from(s.max_lod) / 256.0 + 0.5).ceil() as u32 - 1).min(levels);
    let top = match (form.lod, s.mip_filter) {
        (Lod::Zero, _) | (_, 0) => 0,
        (_, 1) => nearest,
        (_, 2) if form.gather => nearest,
        // rule: image-sample-trilinear
        (_, 2) => s.max_lod.div_ceil(256).min(levels),
        _ => {
            return Err(RuleError::not_measured(format!(
                "image {what}: MIP_FILTER 3 (reserved) is not measured"
            )))
        }
    };
    let derived =
        form.grad.is_some() || form.bias || matches!(form.lod, Lod::Implicit | Lod::Clamp);
    if t.ty == ImgType::Cube && top > 0 && derived {
        return Err(RuleError::not_modelled(format!(
            "image {what}: a CUBE T#'s LOD from derivatives (more than one level to choose from) \
             is not modelled"
        )));
    }
    let from = Footprint {
        coords: &coords,
        grads: grads.as_ref().map(|(g, coarse)| (g.as_slice(), *coarse)),
        bias,
    };
    let at = SampleAt {
        s: &s,
        form,
        coords: &coords,
        offsets,
        unnorm,
        bilinear,
        reference,
        dmask: m.dmask,
    };
    let vals = if s.mip_filter == 2 && !form.gather && top > 0 {
        let lod = trilinear_lod(l, &t, form.lod, from, extra, unnorm);
        trilinear(l, &at, &t, lod, top)?
    } else {
        let level = (top > 0).then(|| select_level(l, &t, form.lod, from, extra, unnorm, top));
        let mut vals = at.level(l, &t)?;
        for k in 1..=top {
            let tk = Tsharp {
                base_level: t.base_level + k,
                ..t.clone()
            };
            let vk = at.level(l, &tk)?;
            let is = l.b.eqc(level.expect("several levels"), u64::from(k));
            for (v, &w) in vals.iter_mut().zip(&vk) {
                *v = l.b.sel(is, w, *v);
            }
        }
        vals
    };
    write_results(l, &m, &vals);
    Ok(())
}

/// The `_b` bias at address dword `k` as f32 bits: the dword, or with A16 the f16 in its
/// bits 15:0 widened exactly (rule: image-sample-a16-d16).
pub(super) fn bias_bits(l: &mut Lowerer, m: &Mimg, k: usize) -> RuleResult<Handle> {
    let v = m.dword(l, k)?;
    if !m.a16 {
        return Ok(v);
    }
    let h = l.b.andc(v, 0xffff);
    Ok(l.b.f16_to_f32_bits(h))
}

/// Writes a sample's or gather's f32 results to VDATA: one per VGPR, or with D16 each
/// rounded to f16 (to nearest even, a NaN keeping its payload's top bits, quieted) two to a
/// VGPR (rule: image-sample-a16-d16).
pub(super) fn write_results(l: &mut Lowerer, m: &Mimg, vals: &[Handle]) {
    if !m.d16 {
        return mem_format::write_loaded(l, m.vdata, vals, D16Form::No);
    }
    let halves: Vec<Handle> = vals
        .iter()
        .map(|&v| {
            let b = &mut l.b;
            let nan = b.is_nan(Fmt::F32, v);
            let w = b.f32_to_f64_exact(v);
            let r = b.round_to(Fmt::F16, w, None, Round::NearestEven, false, Tiny::Result);
            let q = b.nan32_to_16(v);
            b.sel(nan, q, r)
        })
        .collect();
    mem_format::write_loaded(l, m.vdata, &halves, D16Form::Packed);
}

/// What a sample computes at one level (see [`sample`]).
pub(super) struct SampleAt<'a> {
    pub(super) s: &'a Ssharp,
    form: Sample,
    pub(super) coords: &'a [(Coord, Handle)],
    pub(super) offsets: [Option<Handle>; 3],
    unnorm: bool,
    pub(super) bilinear: bool,
    pub(super) reference: Option<Handle>,
    pub(super) dmask: u32,
}

/// A tap of a sample: the texel's converted components (or a compare's one result) and its
/// weight (an F64 holding an integer: out of [`SampleAt::total`] at one level, times the
/// level's weight out of 256 between two).
pub(super) type Tap = (Vec<Handle>, Handle);

impl SampleAt<'_> {
    /// What the taps' weights at one level sum to: 65536 in 1D and 2D (a 1D tap weighted as a
    /// row of a 2D footprint), 2^24 on a 3D image.
    pub(super) fn total(&self) -> f64 {
        if self.coords.iter().any(|&(u, _)| u == Coord::Z) {
            16_777_216.0
        } else {
            65536.0
        }
    }

    /// The taps of level BASE_LEVEL of `t`, x fastest, then y, then z ((i0, j0), (i1, j0),
    /// (i0, j1), (i1, j1) in 2D; the same four at k0, then at k1 in 3D): each its converted
    /// components and its weight, the product of the axes' 8-bit weights ([`Self::total`];
    /// one tap of the whole weight for point sampling).
    pub(super) fn taps(&self, l: &mut Lowerer, t: &Tsharp) -> RuleResult<Vec<Tap>> {
        let s = self.s;
        if t.ty == ImgType::Cube {
            return super::image_cube::taps(l, self, t, s.disable_cube_wrap);
        }
        let level = t.levels[t.base_level as usize];
        let mut axes: Vec<(Coord, Axis)> = Vec::new();
        let mut layer = None;
        for &(u, v) in self.coords {
            let k = match u {
                Coord::X => 0,
                Coord::Y => 1,
                // rule: image-sample-3d
                Coord::Z => 2,
                Coord::Layer => {
                    layer = Some(array_layer(l, t, v));
                    continue;
                }
                Coord::Zero | Coord::Ignored => continue,
            };
            let size = [level.width, level.height, level.depth][k];
            let (off, bil) = (self.offsets[k], self.bilinear);
            axes.push((u, axis(l, s.clamp[k], v, size, self.unnorm, off, bil)));
        }
        // the footprint's taps, x fastest: (address, inside, weight)
        type Combo = (Vec<(Coord, Handle)>, Option<(Handle, Handle)>);
        let mut combos: Vec<Combo> = vec![(Vec::new(), None)];
        for (u, a) in &axes {
            let mut next = Vec::with_capacity(combos.len() * a.taps.len());
            for &(i, i_in, w) in &a.taps {
                for (at, acc) in &combos {
                    let mut at = at.clone();
                    at.push((*u, i));
                    let acc = match *acc {
                        None => (i_in, w),
                        Some((inside, weight)) => {
                            (l.b.band(inside, i_in), l.b.ib(IntBin::Mul, weight, w))
                        }
                    };
                    next.push((at, Some(acc)));
                }
            }
            combos = next;
        }
        let f = t.format;
        let mut taps: Vec<Tap> = Vec::with_capacity(combos.len());
        for (mut at, acc) in combos {
            let (inside, mut w) = acc.expect("an x axis");
            if axes.len() == 1 {
                // a 1D tap weighs as a row of a 2D footprint
                w = l.b.shlc(w, 8);
            }
            if let Some(layer) = layer {
                at.push((Coord::Layer, layer));
            }
            let tx = texel(l, t, &at, None);
            let comps = texel_components(l, &f, s, &tx, inside)?;
            // at most 2^24: exact in f64
            let w = l.b.cvt(Convert::U32ToF64, w, Ty::F64);
            taps.push((comps, w));
        }
        Ok(taps)
    }

    /// The values the sample writes when it reads level BASE_LEVEL of `t`.
    fn level(&self, l: &mut Lowerer, t: &Tsharp) -> RuleResult<Vec<Handle>> {
        let f = t.format;
        let taps = self.taps(l, t)?;
        // a gather's footprint in the graphics APIs' order: (i0, j1), (i1, j1), (i1, j0), (i0, j0)
        const FOOTPRINT: [usize; 4] = [2, 3, 1, 0];
        let mut vals = Vec::new();
        if let Some(r) = self.reference {
            let results = compare_taps(l, &f, self.s, &taps, r);
            if self.form.gather {
                // image_gather4_c: the four results unfiltered
                for tap in FOOTPRINT {
                    vals.push(match &results {
                        Some(res) => res[tap].0[0],
                        None => l.b.c32(0),
                    });
                }
            } else {
                vals.push(match results {
                    Some(res) if self.bilinear => blend(l, &res, 0, self.total()),
                    Some(res) => res[0].0[0],
                    None => l.b.c32(0),
                });
            }
        } else if self.form.gather {
            let slot = slots(self.dmask).next().expect("one DMASK bit");
            for tap in FOOTPRINT {
                vals.push(selected(l, &f, t, slot, &taps[tap].0)?);
            }
        } else {
            let blended: Vec<Handle> = (0..f.fmt.comps.len())
                .map(|k| {
                    if self.bilinear {
                        blend(l, &taps, k, self.total())
                    } else {
                        taps[0].0[k]
                    }
                })
                .collect();
            for slot in slots(self.dmask) {
                vals.push(selected(l, &f, t, slot, &blended)?);
            }
        }
        Ok(vals)
    }
}

/// DST_SEL of slot `slot` over the components `comps`.
pub(super) fn selected(
    l: &mut Lowerer,
    f: &ImgFormat,
    t: &Tsharp,
    slot: usize,
    comps: &[Handle],
) -> RuleResult<Handle> {
    Ok(match t.dst_sel[slot] {
        0 => l.b.c32(0),
        1 => one(l, f, false),
        sel => *comps.get((sel - 4) as usize).ok_or_else(|| {
            RuleError::not_measured(format!(
                "image sample: DST_SEL {sel} selects a component the {}-component format lacks",
                comps.len()
            ))
        })?,
    })
}

/// The compare results of a sample_c or gather4_c: per tap 1.0 or 0.0 (f32 bits) with the
/// tap's weight, or `None` on an 8-bit UNORM or sRGB image, whose results are all 0 (see the
/// module docs).
/// rule: image-sample-compare
pub(super) fn compare_taps(
    l: &mut Lowerer,
    f: &ImgFormat,
    s: &Ssharp,
    taps: &[Tap],
    reference: Handle,
) -> Option<Vec<Tap>> {
    use crate::ir::FloatCmp;
    use mem_format::Num;
    let eight_bit_unorm = f.fmt.num == Num::Unorm && f.fmt.comps.iter().all(|&(_, w)| w == 8);
    if eight_bit_unorm {
        // measured: 0 for every compare function, reference and texel (8-bit UNORM and sRGB)
        return None;
    }
    let b = &mut l.b;
    let nan = b.is_nan(Fmt::F32, reference);
    let zero = b.c32(0);
    let r = b.sel(nan, zero, reference);
    let mut r = b.f32_to_f64_exact(r);
    let bounds = match f.fmt.num {
        Num::Unorm => Some((0.0, 1.0)),
        Num::Snorm => Some((-1.0, 1.0)),
        _ => None,
    };
    if let Some((lo, hi)) = bounds {
        let (lo, hi) = (b.cf64(lo), b.cf64(hi));
        let below = b.fcmp(FloatCmp::OrdLt, r, lo);
        r = b.sel(below, lo, r);
        let above = b.fcmp(FloatCmp::OrdGt, r, hi);
        r = b.sel(above, hi, r);
    }
    let one = b.c32(0x3f80_0000);
    let results: Vec<Tap> = taps
        .iter()
        .map(|(comps, w)| {
            let t = b.f32_to_f64_exact(comps[0]);
            let pass = match s.compare_func {
                0 => b.cb(false),
                1 => b.fcmp(FloatCmp::OrdLt, r, t),
                2 => b.fcmp(FloatCmp::OrdEq, r, t),
                3 => b.fcmp(FloatCmp::OrdLe, r, t),
                4 => b.fcmp(FloatCmp::OrdGt, r, t),
                5 => b.fcmp(FloatCmp::UnordNe, r, t),
                6 => b.fcmp(FloatCmp::OrdGe, r, t),
                _ => b.cb(true),
            };
            (vec![b.sel(pass, one, zero)], *w)
        })
        .collect();
    Some(results)
}
