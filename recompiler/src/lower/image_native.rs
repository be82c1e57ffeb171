//! Native images ([`crate::native`], `--images native`): a body's samples, gathers and loads
//! lowered to the host's texture unit instead of the IR's own texel arithmetic.
//!
//! The T# and S# are known when lowering (as on the software path); they become a
//! [`NativeImage`]: the view's type, format and DST_SEL as a component mapping, the levels and
//! layers, where every texel row lies in the wave's region, and the sampler. The instruction
//! becomes [`Expr::Image`] expressions, one per result VGPR.
//!
//! Mapping (each mapping is the host API's nearest expression of the RDNA2 field, not a
//! measured equivalence: that is what the texture-unit report measures):
//! - image_sample(_c)(_lz|_l|none): `OpImageSample(Dref)ExplicitLod` with `Lod` 0, the
//!   address dword's LOD, or `Grad` from the quad's differences (lane 1 minus lane 0 for d/dx,
//!   lane 2 minus lane 0 for d/dy: the differences the software path's LOD uses), or for
//!   `_d`/`_cd` (and `_g16`) the address's derivatives as `Grad` (`_cd`: the quad's first
//!   lane's); a plain sample's `_b` bias scales the quad's gradients by `exp2(bias)` (GLSL's
//!   Exp2: the LOD of gradients times 2^b is the LOD plus b, so no implicit-LOD sample, which
//!   a compute shader lacks, is needed);
//!   image_gather4(_lz): `OpImageGather` of the DMASK's component; image_load(_mip):
//!   `OpImageFetch`, a texel out of range reading zero bits (then DST_SEL, as the software path)
//!   and never reaching the texture unit, whose answer out of range Vulkan leaves undefined;
//!   image_store: `OpImageWrite` of the data VGPRs (the software path's slots) to a storage
//!   image of BASE_LEVEL, the host converting them to the format, a lane out of range writing
//!   nothing; the runner copies the image back into the region's texel rows after the wave;
//! - filters point/bilinear -> NEAREST/LINEAR, MIP_FILTER none -> NEAREST with MIN_LOD =
//!   MAX_LOD = 0 (the view's base level), point -> NEAREST, linear -> LINEAR, the S#'s
//!   MIN_LOD, MAX_LOD (4.8) and LOD_BIAS (signed 6.8) as they are;
//! - CLAMP: wrap -> REPEAT, mirror -> MIRRORED_REPEAT, clamp to the last texel ->
//!   CLAMP_TO_EDGE, clamp to the border -> CLAMP_TO_BORDER with the border type's colour
//!   (transparent black, opaque black, opaque white; the INT colours for integer formats);
//! - DEPTH_COMPARE_FUNC never..always -> VkCompareOp NEVER..ALWAYS (the same order), on a
//!   16_UNORM or 32_FLOAT image made as D16_UNORM or D32_SFLOAT: Vulkan compares depth
//!   formats only;
//! - FORCE_UNNORMALIZED or the instruction's UNORM -> `unnormalizedCoordinates`;
//! - a cube T# sampled with DIM CUBE (`_lz`, `_l`, gather; rule image-sample-cube's (x, y,
//!   face) in [1, 2]): a cube view sampled by the direction through the face's point (Vulkan's
//!   cube sampling is seamless), or with DISABLE_CUBE_WRAP a 2D array view of the faces at
//!   `(x - 1, y - 1, face)`.
//!
//! Refused with the reason (`unsupported`): what the host API cannot express or this path does
//! not map: a cube's fetch, a cube array sampled across faces and a cube's LOD from
//! derivatives, a sample's `_o` forms (a gather's `_o` offsets are `OpImageGather`'s run-time
//! `Offset`: ImageGatherExtended), a bias or clamp on a gather or compare, a `_cl` clamp where the device lacks
//! shaderResourceMinLod (it becomes `MinLod`), a compare with derivatives, D16 and A16 loads,
//! D16 samples of integer formats, the mirror-once and half-border modes, the border colour
//! table, anisotropy, min/max reduction, TRUNC_COORD, a compare on a colour
//! format, gather on anything but a 2D image, the unnormalized coordinates Vulkan restricts
//! (one level, no array, CLAMP_TO_EDGE or CLAMP_TO_BORDER, LOD 0, no compare), and formats
//! without a Vulkan format of the same bits; for a store, A16/D16 data, a DST_SEL other than
//! X,Y,Z,W, a component without its data slot, and texels the body also reads or writes through
//! another native image (two host images would not see each other's texels). Everything else
//! MIMG (store_mip, atomics, queries, BY/PCK, gather4h) stays on the software path; it reads
//! and writes the region as the wave began, so a body mixing a native store with such an
//! access to the same texels sees the region, not the storage image.

use super::error::{RuleError, RuleResult};
use super::image::{slots, Mimg, DIMS};
use super::image_desc::{ImgType, Tsharp};
use super::image_format::{one, ImgFormat};
use super::image_sample::{Lod, Sample};
use super::mem_format::{self, D16Form, Num};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, ImageAccess, ImageOp};
use crate::native::{NativeDim, NativeImage, NativeSampler, SampledType, TexelCopy};

fn refuse<T>(what: impl std::fmt::Display) -> RuleResult<T> {
    Err(RuleError::not_modelled(format!("native image: {what}")))
}

/// What a native lowering does with `c`: `None` for an instruction that stays on the
/// software path (store_mip, atomics, queries, the BY/PCK forms, gather4h).
pub(super) fn lower(l: &mut Lowerer, c: &Ctx) -> Option<RuleResult> {
    let name = c.inst.info().mnemonic;
    if let Some(form) = Sample::of_mnemonic(name) {
        return Some(sample(l, c, form));
    }
    match name {
        "image_load" => Some(load(l, c, false)),
        "image_load_mip" => Some(load(l, c, true)),
        "image_store" => Some(store(l, c)),
        _ => None,
    }
}

/// The view's dimensionality and coordinates for the DIM on the T#'s type: the type's own
/// DIM, or the measured 2D DIM through a 1D T# (the second coordinate ignored). A cube T#
/// (`cube`: a sample's, `Some(DISABLE_CUBE_WRAP)`) is a cube view sampled by direction, or
/// with DISABLE_CUBE_WRAP a 2D array of its faces.
fn view(t: &Tsharp, m: &Mimg, cube: Option<bool>) -> RuleResult<(NativeDim, bool, usize)> {
    let name = DIMS[m.dim].0;
    Ok(match (t.ty, name) {
        (ImgType::Cube, "CUBE") if cube == Some(true) => (NativeDim::D2, true, 3),
        (ImgType::Cube, "CUBE") if cube == Some(false) => {
            if t.layers() != 6 {
                return refuse(format!(
                    "a cube array ({} layers: a cube-array view is not made)",
                    t.layers()
                ));
            }
            (NativeDim::Cube, false, 3)
        }
        (ImgType::D1, "1D" | "2D") => (NativeDim::D1, false, 1),
        (ImgType::D2, "2D") => (NativeDim::D2, false, 2),
        (ImgType::D3, "3D") => (NativeDim::D3, false, 3),
        (ImgType::D1Array, "1D_ARRAY") => (NativeDim::D1, true, 2),
        (ImgType::D2Array, "2D_ARRAY") => (NativeDim::D2, true, 3),
        (ImgType::Cube, _) => {
            return refuse(
                "a cube T# but through a sample's DIM CUBE (a fetch of a cube view is not \
                 mapped)",
            )
        }
        (ty, _) => return refuse(format!("DIM {name} through a {} T#", ty.name())),
    })
}

/// The Vulkan format of the same bits as `f` (`depth`: the depth format, for a compare).
fn vk_format(f: &ImgFormat, depth: bool) -> RuleResult<i32> {
    let widths: Vec<u8> = f.fmt.comps.iter().map(|&(_, w)| w).collect();
    let shifts_in_order = f.fmt.comps.windows(2).all(|p| p[0].0 + p[0].1 == p[1].0);
    if depth {
        return match (widths.as_slice(), f.fmt.num) {
            ([16], Num::Unorm) => Ok(124), // D16_UNORM
            ([32], Num::Float) => Ok(126), // D32_SFLOAT
            _ => refuse(
                "a compare on a colour format (Vulkan compares depth formats only: 16_UNORM and \
                 32_FLOAT map to D16_UNORM and D32_SFLOAT)",
            ),
        };
    }
    // per component layout: [UNORM, SNORM, USCALED, SSCALED, UINT, SINT, SRGB, SFLOAT]
    let row: [i32; 8] = match widths.as_slice() {
        [8] => [9, 10, 11, 12, 13, 14, 15, 0],
        [8, 8] => [16, 17, 18, 19, 20, 21, 22, 0],
        [8, 8, 8, 8] => [37, 38, 39, 40, 41, 42, 43, 0],
        [16] => [70, 71, 72, 73, 74, 75, 0, 76],
        [16, 16] => [77, 78, 79, 80, 81, 82, 0, 83],
        [16, 16, 16, 16] => [91, 92, 93, 94, 95, 96, 0, 97],
        [32] => [0, 0, 0, 0, 98, 99, 0, 100],
        [32, 32] => [0, 0, 0, 0, 101, 102, 0, 103],
        [32, 32, 32, 32] => [0, 0, 0, 0, 107, 108, 0, 109],
        // A2B10G10R10: R (X) in the low bits
        [10, 10, 10, 2] => [64, 65, 66, 67, 68, 69, 0, 0],
        // B5G6R5: R (X) in the low bits
        [5, 6, 5] => [5, 0, 0, 0, 0, 0, 0, 0],
        _ => [0; 8],
    };
    let col = match (f.fmt.num, f.srgb) {
        (_, true) => 6,
        (Num::Unorm, _) => 0,
        (Num::Snorm, _) => 1,
        (Num::Uscaled, _) => 2,
        (Num::Sscaled, _) => 3,
        (Num::Uint, _) => 4,
        (Num::Sint, _) => 5,
        (Num::Float, _) => 7,
    };
    match row[col] {
        0 => refuse(format!(
            "no Vulkan format has the bits of a {widths:?} {:?}{} texel",
            f.fmt.num,
            if f.srgb { " sRGB" } else { "" }
        )),
        v if shifts_in_order => Ok(v),
        _ => refuse("a format whose components are not in bit order"),
    }
}

/// VkComponentSwizzle of each DST_SEL. A DST_SEL naming a component the format lacks is
/// refused where the instruction reads that slot (`read`: a bit per slot X..W), as on the
/// software path, and is ZERO where nothing reads it.
fn swizzle(t: &Tsharp, read: u32) -> RuleResult<[i32; 4]> {
    let mut s = [0; 4];
    let comps = t.format.fmt.comps.len() as u32;
    for (k, &d) in t.dst_sel.iter().enumerate() {
        s[k] = match d {
            0 => 1,
            1 => 2,
            4..=7 if d - 4 < comps => 3 + d as i32 - 4,
            _ if read >> k & 1 == 0 => 1,
            _ => {
                return refuse(format!(
                    "DST_SEL_{} {d} names a component the format lacks",
                    ["X", "Y", "Z", "W"][k]
                ))
            }
        };
    }
    Ok(s)
}

/// Every texel row of the resource in the region (see [`Tsharp`]'s layout).
fn copies(t: &Tsharp) -> Vec<TexelCopy> {
    let start = t.base - rdnaprobe_contract::MEM_BASE;
    let mut v = vec![];
    for (level, lv) in t.levels.iter().enumerate() {
        let (slices, is_layer) = match t.ty {
            ImgType::D3 => (lv.depth, false),
            ty if ty.layered() => (t.last_array + 1, true),
            _ => (1, true),
        };
        for s in 0..slices {
            v.push(TexelCopy {
                src: start + lv.offset + u64::from(s) * t.slice_bytes,
                row_pitch: lv.pitch,
                width: lv.width,
                rows: lv.height,
                level: level as u32,
                layer: if is_layer { s } else { 0 },
                z: if is_layer { 0 } else { s },
            });
        }
    }
    v
}

/// The VkSampler of S# words `w` for a sample of `t` (`compare`: a `_c` form; `unnorm`:
/// unnormalized coordinates).
fn sampler(w: &[u32; 4], t: &Tsharp, compare: bool, unnorm: bool) -> RuleResult<NativeSampler> {
    let s = super::image_sample::Ssharp::decode(w);
    let filter = |f: u32, what: &str| match f {
        0 => Ok(0),
        1 => Ok(1),
        _ => refuse(format!("{what} {f} (anisotropic)")),
    };
    if s.max_aniso != 0 {
        return refuse("anisotropic filtering");
    }
    if s.filter_mode != 0 {
        return refuse("FILTER_MODE min/max (a reduction filter)");
    }
    if s.trunc_coord {
        return refuse("TRUNC_COORD");
    }
    let integer = !t.format.float_valued();
    let modes = [w[0] & 7, w[0] >> 3 & 7, w[0] >> 6 & 7];
    let mut address = [0; 3];
    let mut border = false;
    for (a, &m) in address.iter_mut().zip(&modes) {
        *a = match m {
            0 => 0,
            1 => 1,
            2 => 2,
            6 => {
                border = true;
                3
            }
            3 | 7 => return refuse(format!("the mirror-once addressing mode {m}")),
            _ => return refuse(format!("the half-border addressing mode {m}")),
        };
    }
    if border && s.border_type == 3 {
        return refuse("the border colour table (BORDER_COLOR_TYPE 3)");
    }
    let border_color = 2 * s.border_type as i32 + i32::from(integer);
    let (mipmap_mode, min_lod, max_lod) = match s.mip_filter {
        0 => (0, 0.0, 0.0),
        m @ (1 | 2) => (
            m as i32 - 1,
            s.min_lod as f32 / 256.0,
            s.max_lod as f32 / 256.0,
        ),
        m => return refuse(format!("MIP_FILTER {m}")),
    };
    // LOD_BIAS: signed 6.8 fixed point in 14 bits
    let lod_bias = ((s.lod_bias << 18) as i32 >> 18) as f32 / 256.0;
    let out = NativeSampler {
        mag_filter: filter(s.mag_filter, "XY_MAG_FILTER")?,
        min_filter: filter(s.min_filter, "XY_MIN_FILTER")?,
        mipmap_mode,
        address,
        border_color,
        compare_op: compare.then_some(s.compare_func as i32),
        unnormalized: unnorm,
        min_lod,
        max_lod,
        lod_bias,
    };
    if unnorm {
        let why = if out.mag_filter != out.min_filter {
            Some("different magnification and minification filters")
        } else if max_lod != 0.0 || min_lod != 0.0 || t.last_level != t.base_level {
            Some("more than one level")
        } else if t.ty.layered() || t.ty == ImgType::D3 {
            Some("an array or 3D image")
        } else if modes.iter().any(|&m| m != 2 && m != 6) {
            Some("an addressing mode other than clamp (to the last texel or the border)")
        } else if compare {
            Some("a compare")
        } else if lod_bias != 0.0 {
            Some("a LOD bias")
        } else {
            None
        };
        if let Some(why) = why {
            return refuse(format!(
                "unnormalized coordinates with {why} (Vulkan forbids it)"
            ));
        }
    }
    Ok(out)
}

/// The kernel's image for `t` and its sampler: an index into [`crate::ir::Kernel::images`]
/// (an equal image is shared).
/// How an instruction uses its image: through a sampler (`sampler`, a `_c` form's `depth`, the
/// DMASK slots it `read`s, a cube sample's `Some(DISABLE_CUBE_WRAP)`), or as a storage image
/// (`storage`: a store).
struct Use {
    sampler: NativeSampler,
    depth: bool,
    read: u32,
    cube: Option<bool>,
    storage: bool,
}

impl Use {
    fn sampled(sampler: NativeSampler, depth: bool, read: u32, cube: Option<bool>) -> Use {
        Use {
            sampler,
            depth,
            read,
            cube,
            storage: false,
        }
    }
}

fn register(l: &mut Lowerer, t: &Tsharp, m: &Mimg, u: Use) -> RuleResult<(u8, usize, bool)> {
    let Use {
        sampler,
        depth,
        read,
        cube,
        storage,
    } = u;
    let (dim, arrayed, coords) = view(t, m, cube)?;
    let format = vk_format(&t.format, depth)?;
    let sampled = match t.format.fmt.num {
        Num::Uint => SampledType::Uint,
        Num::Sint => SampledType::Sint,
        _ => SampledType::Float,
    };
    let layers = if t.ty.layered() { t.last_array + 1 } else { 1 };
    let img = NativeImage {
        dim,
        arrayed,
        depth,
        sampled,
        format,
        // a storage view maps components as they are (IDENTITY: Vulkan's rule for storage)
        swizzle: if depth || storage {
            [0; 4]
        } else {
            swizzle(t, read)?
        },
        texel_bytes: u32::from(t.format.fmt.bytes),
        extent: [
            t.levels[0].width,
            t.levels[0].height,
            if t.ty == ImgType::D3 {
                t.levels[0].depth
            } else {
                1
            },
        ],
        layers,
        levels: t.levels.len() as u32,
        base_level: t.base_level,
        // a storage view has one level (Vulkan's rule): a store writes BASE_LEVEL
        level_count: if storage {
            1
        } else {
            t.last_level - t.base_level + 1
        },
        base_layer: if t.ty.layered() { t.base_array } else { 0 },
        layer_count: if t.ty.layered() { t.layers() } else { 1 },
        copies: copies(t),
        sampler,
        storage,
    };
    let images = &mut l.b.k.images;
    // a storage image and another image of the same texels would not see each other's texels
    let shares = |a: &NativeImage| {
        a.copies.iter().any(|x| {
            img.copies.iter().any(|y| {
                let end = |c: &TexelCopy, t: u32| {
                    c.src
                        + (u64::from(c.rows.saturating_sub(1)) * u64::from(c.row_pitch)
                            + u64::from(c.width))
                            * u64::from(t)
                };
                x.src < end(y, img.texel_bytes) && y.src < end(x, a.texel_bytes)
            })
        })
    };
    if images
        .iter()
        .any(|a| *a != img && (a.storage || img.storage) && shares(a))
    {
        return refuse(
            "a store to texels the body also reads or writes through another native image \
             (separate host images would not see each other's texels)",
        );
    }
    let at = match images.iter().position(|i| *i == img) {
        Some(i) => i,
        None => {
            if images.len() >= 32 {
                return refuse("more than 32 images in one body");
            }
            images.push(img);
            images.len() - 1
        }
    };
    Ok((at as u8, coords, arrayed))
}

/// One [`Expr::Image`] per component in `comps`.
fn access(l: &mut Lowerer, image: u8, op: ImageOp, coords: &[Handle], comps: &[u8]) -> Vec<Handle> {
    comps
        .iter()
        .map(|&component| {
            l.b.push(Expr::Image(Box::new(ImageAccess {
                image,
                op: op.clone(),
                coords: coords.to_vec(),
                component,
            })))
        })
        .collect()
}

fn sample(l: &mut Lowerer, c: &Ctx, form: Sample) -> RuleResult {
    let m = Mimg::new(l, c)?;
    let t = m.tsharp(l)?;
    let w = m.ssharp(l)?;
    super::image::dmask_needed(&m)?;
    let what = if form.gather { "gather4" } else { "sample" };
    if m.d16 && !t.format.float_valued() {
        return refuse(format!("{what} with D16 of an integer format"));
    }
    if form.offset && !form.gather {
        return refuse(format!(
            "{} (a sample's _o offset is not mapped: Vulkan takes a run-time Offset for a \
             gather only)",
            c.inst.info().mnemonic
        ));
    }
    if (form.bias || form.lod == Lod::Clamp) && (form.gather || form.compare) {
        return refuse(format!(
            "{} (a bias or clamp is mapped for a plain sample only)",
            c.inst.info().mnemonic
        ));
    }
    if form.grad.is_some() && form.compare {
        return refuse("a compare with user derivatives (_c_d, _c_cd) is not mapped");
    }
    if form.gather && (form.compare || !matches!(t.ty, ImgType::D2 | ImgType::Cube)) {
        return refuse("gather4 other than a plain gather of a 2D or cube image");
    }
    let cube = (t.ty == ImgType::Cube).then(|| w[0] & super::image_cube::DISABLE_CUBE_WRAP != 0);
    if cube.is_some() && !matches!(form.lod, Lod::Zero | Lod::Explicit) {
        return refuse("a cube sample's LOD from derivatives (the model's is not modelled)");
    }
    if t.min_lod != 0 {
        return refuse("a T# MIN_LOD");
    }
    let unnorm = c.inst.field(rdnaprobe_isa::layout::Field::Unorm) != 0;
    let s = sampler(&w, &t, form.compare, unnorm || w[0] >> 15 & 1 != 0)?;
    // a gather reads the DMASK's component from every texel, a sample the DMASK's slots
    let (image, n, arrayed) = register(l, &t, &m, Use::sampled(s, form.compare, m.dmask, cube))?;
    let mut first = 0;
    // `_o` (a gather's): the offset dword first, x in bits 5:0 and y in 13:8, signed
    let offset = if form.offset {
        first = 1;
        let o = m.dword(l, 0)?;
        let field = |l: &mut Lowerer, at: u32| {
            let v = l.b.shlc(o, 26 - at);
            l.b.sarc(v, 26)
        };
        Some([field(l, 0), field(l, 8)])
    } else {
        None
    };
    // `_b`: the bias dword (A16: the f16 in bits 15:0), applied as a scale of the gradients
    let bias = if form.bias {
        first = 1;
        let b = super::image_sample::bias_bits(l, &m, 0)?;
        Some(l.b.f32_of(b))
    } else {
        None
    };
    let reference = if form.compare {
        first = 1;
        let r = m.dword(l, 0)?;
        Some(l.b.f32_of(r))
    } else {
        None
    };
    let dim_coords = DIMS[m.dim].1;
    // `_d`, `_cd` (and `_g16`): the address's derivatives as Grad, one per spatial axis of
    // the view; `_cd` takes the quad's first lane's, as the software path's LOD does
    let user_grads = match form.grad {
        Some(g) => {
            let axes = dim_coords - usize::from(DIMS[m.dim].0.ends_with("_ARRAY"));
            let uses = vec![super::image::Coord::X; axes];
            let (grads, dwords) = super::image_lod::derivatives(l, &m, g, &uses, first)?;
            first += dwords;
            let quad = super::image_lod::quad_first_lane(l);
            let mut d = [vec![], vec![]];
            for axis in grads.iter().take(n - usize::from(arrayed)) {
                for (dir, out) in d.iter_mut().enumerate() {
                    let v = if g.coarse {
                        l.wave_read(axis[dir], quad)
                    } else {
                        axis[dir]
                    };
                    out.push(l.b.f32_of(v));
                }
            }
            let [dx, dy] = d;
            Some((dx, dy))
        }
        None => None,
    };
    // A16: the f16 coordinates (and LOD) widened exactly, as on the software path
    let f32_at = |l: &mut Lowerer, i: usize| -> RuleResult<Handle> {
        let v = m.float_coord(l, first, i)?;
        Ok(l.b.f32_of(v))
    };
    let mut coords = (0..n)
        .map(|i| f32_at(l, i))
        .collect::<RuleResult<Vec<_>>>()?;
    if let Some(disable_wrap) = cube {
        coords = cube_coords(l, &coords, t.layers() / 6, disable_wrap);
    }
    let lod = match form.lod {
        Lod::Zero => Some(l.b.cf32(0.0)),
        Lod::Explicit => Some(f32_at(l, dim_coords)?),
        Lod::Implicit | Lod::Clamp => None,
    };
    // `_cl`: the clamp, a minimum LOD (MinLod), after the coordinates
    let min_lod = match form.lod {
        Lod::Clamp => Some(f32_at(l, dim_coords)?),
        _ => None,
    };
    let vals = if form.gather {
        let comp = m.dmask.trailing_zeros() as u8;
        if m.dmask.count_ones() != 1 {
            return refuse("gather4 with a DMASK of other than one component");
        }
        // the model's gather reads the level its LOD selects; Vulkan's, the base level
        if form.lod != Lod::Zero && s.max_lod != 0.0 {
            return refuse(
                "gather4 with a LOD and levels past the base (Vulkan gathers from the base \
                 level)",
            );
        }
        let op = match offset {
            Some(o) => ImageOp::GatherOffset(comp, o),
            None => ImageOp::Gather(comp),
        };
        access(l, image, op, &coords, &[0, 1, 2, 3])
    } else {
        let op = match (lod, reference) {
            (Some(lod), Some(reference)) => ImageOp::SampleDref { reference, lod },
            (Some(lod), None) => ImageOp::SampleLod(lod),
            (None, Some(_)) => {
                return refuse(
                    "an implicit-LOD compare (no Vulkan compare sample of a compute shader \
                     takes the quad's gradients without an extension)",
                )
            }
            (None, None) => {
                let (mut dx, mut dy) = match user_grads {
                    Some(g) => g,
                    None => quad_grads(l, &coords[..n - usize::from(arrayed)]),
                };
                if let Some(bias) = bias {
                    // log2 of gradients scaled by 2^bias is the LOD plus the bias
                    let scale = l.b.fu(crate::ir::FloatUn::Exp2, bias);
                    for g in dx.iter_mut().chain(dy.iter_mut()) {
                        *g = l.b.fb(crate::ir::FloatBin::Mul, *g, scale);
                    }
                }
                ImageOp::SampleGrad { dx, dy, min_lod }
            }
        };
        if reference.is_some() {
            if m.dmask != 1 {
                return refuse("a compare with a DMASK other than 0x1");
            }
            access(l, image, op, &coords, &[0])
        } else {
            let comps: Vec<u8> = slots(m.dmask).map(|k| k as u8).collect();
            access(l, image, op, &coords, &comps)
        }
    };
    // D16: the driver's f32 answer rounded to f16 by the IR, as on the software path
    super::image_sample::write_results(l, &m, &vals);
    Ok(())
}

/// image_store: `OpImageWrite` of the data VGPRs to a storage image of the T#'s level
/// BASE_LEVEL, the host converting them to the format. Which data slot feeds which component
/// is the software path's (rule image-store-slots: component k from slot k, a two-component
/// format's second from W, DST_SEL X,Y,Z,W only); a lane whose texel is out of range writes
/// nothing (rule image-out-of-range), as there. A store of D16 or A16 data is refused.
fn store(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let (m, t, tx) = super::image::locate(l, c, false, false, false)?;
    super::image::dmask_needed(&m)?;
    if m.a16 || m.d16 {
        return refuse("a store with A16 or D16");
    }
    if t.dst_sel != [4, 5, 6, 7] {
        return refuse(
            "a store through a DST_SEL other than X,Y,Z,W (a storage view maps components as \
             they are)",
        );
    }
    let comps = t.format.fmt.comps.len();
    let zero = l.b.c32(0);
    let mut data = vec![zero; 4];
    for (k, d) in data.iter_mut().enumerate().take(comps) {
        let slot = if comps == 2 && k == 1 { 3 } else { k };
        if m.dmask >> slot & 1 == 0 {
            return refuse(format!(
                "a store of a {comps}-component format without data slot {slot} in DMASK"
            ));
        }
        let rank = (m.dmask & ((1 << slot) - 1)).count_ones() as u16;
        *d = l.vgpr_get(m.vdata + rank);
    }
    let s = NativeSampler::POINT_CLAMP;
    let (image, n, _) = register(
        l,
        &t,
        &m,
        Use {
            storage: true,
            ..Use::sampled(s, false, 0, None)
        },
    )?;
    let coords = (0..n)
        .map(|i| {
            let v = m.coord(l, i)?;
            Ok(l.b.sel(tx.ok, v, zero))
        })
        .collect::<RuleResult<Vec<_>>>()?;
    let active = match l.exec_bit() {
        Some(e) => l.b.band(e, tx.ok),
        None => tx.ok,
    };
    access(l, image, ImageOp::Write { data, active }, &coords, &[0]);
    Ok(())
}

/// The host's coordinates of a cube sample's (x, y, face) (F32; rule image-sample-cube's
/// encoding: x and y in [1, 2] on the face, the face `8 * cube + face`): with
/// DISABLE_CUBE_WRAP the 2D array view's `(x - 1, y - 1, 6 * cube + face)`, else the
/// direction through the face's point (`s = 2x - 3`, `t = 2y - 3`, the inverse of the cube
/// map face table RDNA2's v_cubesc/v_cubetc and Vulkan share), which a Vulkan cube view
/// samples seamlessly.
fn cube_coords(l: &mut Lowerer, c: &[Handle], cubes: u32, disable_wrap: bool) -> Vec<Handle> {
    use crate::builder::Fmt;
    use crate::ir::{Convert, FloatBin, Ty};
    let face_coord = l.b.bits_of_f32(c[2]);
    let (face, cube) = super::image_cube::face_and_cube(l, face_coord, cubes);
    let b = &mut l.b;
    if disable_wrap {
        let one = b.cf32(1.0);
        let x = b.fb(FloatBin::Sub, c[0], one);
        let y = b.fb(FloatBin::Sub, c[1], one);
        let six = b.c32(6);
        let first = b.ib(crate::ir::IntBin::Mul, cube, six);
        let layer = b.add(first, face);
        let layer = b.cvt(Convert::U32ToF64, layer, Ty::F64);
        let layer = b.cvt(Convert::F64ToF32, layer, Ty::F32);
        return vec![x, y, layer];
    }
    let (two, three) = (b.cf32(2.0), b.cf32(3.0));
    let [s, t] = [c[0], c[1]].map(|v| {
        let d = b.fb(FloatBin::Mul, v, two);
        let d = b.fb(FloatBin::Sub, d, three);
        b.bits_of_f32(d)
    });
    let (sn, tn) = (b.neg_bits(Fmt::F32, s), b.neg_bits(Fmt::F32, t));
    let (one, none) = (b.c32(1f32.to_bits()), b.c32((-1f32).to_bits()));
    let dir = super::image_cube::direction(b, face, [s, sn], [t, tn], [one, none]);
    dir.iter().map(|&v| b.f32_of(v)).collect()
}

/// d/dx and d/dy of each coordinate over the lane's quad: lane 1 minus lane 0 and lane 2
/// minus lane 0 (f32 subtractions, as the quad's derivative unit takes them).
fn quad_grads(l: &mut Lowerer, coords: &[Handle]) -> (Vec<Handle>, Vec<Handle>) {
    let quad = super::image_lod::quad_first_lane(l);
    let mut d = [vec![], vec![]];
    for &v in coords {
        let bits = l.b.bits_of_f32(v);
        let tl = l.wave_read(bits, quad);
        let tl = l.b.f32_of(tl);
        for (dir, out) in d.iter_mut().enumerate() {
            let other = l.b.addc(quad, 1 + dir as u64);
            let o = l.wave_read(bits, other);
            let o = l.b.f32_of(o);
            out.push(l.b.fb(crate::ir::FloatBin::Sub, o, tl));
        }
    }
    let [dx, dy] = d;
    (dx, dy)
}

fn load(l: &mut Lowerer, c: &Ctx, mip: bool) -> RuleResult {
    // the software path's addressing decides which lanes are in range (rule:
    // image-out-of-range); the others fetch texel 0 of the base level, which every view has,
    // and take the zero texel
    let (m, t, tx) = super::image::locate(l, c, true, false, mip)?;
    super::image::dmask_needed(&m)?;
    if m.a16 || m.d16 {
        return refuse("a load with A16 or D16");
    }
    let s = NativeSampler::POINT_CLAMP;
    let (image, n, _) = register(l, &t, &m, Use::sampled(s, false, m.dmask, None))?;
    let zero = l.b.c32(0);
    let in_range = |l: &mut Lowerer, i: usize| -> RuleResult<Handle> {
        let v = m.coord(l, i)?;
        Ok(l.b.sel(tx.ok, v, zero))
    };
    let level = if mip {
        in_range(l, DIMS[m.dim].1)?
    } else {
        zero
    };
    let coords = (0..n)
        .map(|i| in_range(l, i))
        .collect::<RuleResult<Vec<_>>>()?;
    let comps: Vec<u8> = slots(m.dmask).map(|k| k as u8).collect();
    let got = access(l, image, ImageOp::Fetch(level), &coords, &comps);
    // out of range: a texel of zero bits converted (0 in every format), then DST_SEL
    let vals: Vec<Handle> = comps
        .iter()
        .zip(got)
        .map(|(&k, v)| {
            let zero = if t.dst_sel[usize::from(k)] == 1 {
                one(l, &t.format, false)
            } else {
                l.b.c32(0)
            };
            l.b.sel(tx.ok, v, zero)
        })
        .collect();
    mem_format::write_loaded(l, m.vdata, &vals, D16Form::No);
    Ok(())
}
