#!/usr/bin/env python3
"""Writes datasets/wave/image_samples.csv: hand-computed waves for image_sample_lz(_o) and
image_gather4_lz(_o) (docs/dataset-format.md, Images, "Sampling at LOD 0"): point and bilinear
filtering, every addressing mode the model takes, border colours, unnormalized coordinates
(the S#'s FORCE_UNNORMALIZED and the instruction's UNORM), texel offsets, 1D, 2D, arrays, a 2D
DIM through a 1D T#, DST_SEL, and the gather's footprint. The expected values are worked out
here from the rules in exact fractions (imagelib.sample_lz), not by the recompiler, and are not
a hardware capture: the weights, the blend's arithmetic and the addressing follow the rules
docs/semantics.md lists as chosen, not measured (image-sample-weights, image-sample-addressing).
The T# is in s[8:15] and the S# in s[0:3] (the registers the HIP wave kernel loads).
Usage: scripts/sample-fixtures.py datasets/wave/image_samples.csv"""
import struct
import sys

from imagelib import *  # noqa: F401,F403 (the shared fixture helpers)

rows = []


def fb(x):
    """f32 bits of a Python float."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


# coordinates that straddle texel centres and edges, fall outside [0, 1] on both sides, and
# hit the exact quarter and eighth points, one per lane
US = [0.0, 0.03125, 0.0625, 0.1, 0.125, 0.2, 0.25, 0.3, 0.33, 0.375, 0.4, 0.45, 0.5, 0.55, 0.6,
      0.6875, 0.7, 0.75, 0.8, 0.875, 0.9, 0.95, 0.99, 1.0, 1.05, 1.3, -0.05, -0.3, -1.1, 2.2, 1e-8, -0.6]
VS = [0.0, 0.5, 0.25, 0.9, 1.2, -0.2, 0.7, 0.33]


def coord_uv(l):
    return [fb(US[l]), fb(VS[l % 8])]


def hb(x):
    """f16 bits of a Python float (rounded to nearest even)."""
    return struct.unpack("<H", struct.pack("<e", x))[0]


def grad_dwords(g, g16):
    """The address dwords of per-axis (d/dx, d/dy) derivatives: f32 d/dx of each axis, then
    d/dy of each; with g16 one dword per direction, axis 0 in bits 15:0 and axis 1 in 31:16."""
    if g16:
        return [sum(hb(a[d]) << 16 * i for i, a in enumerate(g)) for d in (0, 1)]
    return [fb(a[d]) for d in (0, 1) for a in g]


def sample_wave(wid, text, t, s, fill, note, coords=coord_uv, off=None, unorm=False, dmask=0xf,
                gather=False, size=4096, ref=None, gfx="gfx1030", source=HAND, lod="zero", extra=None,
                grads=None, g16=False, coarse=False, bias=None):
    img = image_of(t, size, fill)
    pre = ([off] if off else []) + ([bias] if bias else []) + ([ref] if ref else [])
    gd = (lambda l: grad_dwords(grads(l), g16)) if grads else (lambda l: [])
    ins = lambda l: [p(l) for p in pre] + gd(l) + coords(l) + ([extra(l)] if extra else [])
    offs = (lambda l: (sx(off(l) & 63, 6), sx(off(l) >> 8 & 63, 6))) if off else (lambda l: (None, None))
    texels = unorm or bool(s[0] >> 15 & 1)
    level = lambda l: lod_level(img, s, lod, coords, l, extra(l) if extra else None, texels, grads, coarse,
                                bias(l) if bias else None)
    case(rows, wid, text, 32, t, (img.region.dwords(),), ins,
         lambda l: sample_lz(img, s, coords(l), offs(l), unorm, dmask, gather, ref(l) if ref else None,
                             level(l)),
         note, ssamp=s, gfx=gfx, source=source)


RGBA8 = 56
T2 = lambda fmt=RGBA8, w=8, h=4, **k: tsharp(fmt, D2, w, h, **k)
S2D = "image_sample_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D"

# -- point and bilinear, each addressing mode (X and Y alike; the borders' three colours) -------
for mode, name, border in [(0, "wrap", 0), (1, "mirror", 0), (2, "clamp", 0), (3, "mirror_once", 0),
                           (6, "border_black", 0), (6, "border_opaque", 1), (7, "mirror_once_border", 2)]:
    for bil in (False, True):
        f = "bilinear" if bil else "point"
        sample_wave(f"sample_lz_{f}_{name}", S2D, T2(), ssharp(mode, mode, bil, border=border),
                    lambda im: fill_pattern(im, 21), f"image_sample_lz {f}, CLAMP_X/Y {mode}, border type {border}: "
                    "RGBA8 UNORM 8 x 4, coordinates in and past [0, 1]")

# -- formats: float, snorm, 16-bit, packed, sRGB (bilinear, clamp) ------------------------------
for fmt, name in [(22, "r32_float"), (29, "rg16_float"), (57, "rgba8_snorm"), (23, "rg16_unorm"),
                  (133, "b5g6r5_unorm"), (130, "rgba8_srgb"), (65, "rgba16_unorm")]:
    n = len(FORMATS[fmt][1])
    sel = 0xfac if n == 4 else [0, 0x004, 0x02c, 0x1ac][n] | 1 << 9

    def fill(im, fmt=fmt):
        if fmt == 22:  # finite f32 texels of mixed sign and size
            vals = [1.5, -2.25, 1e-3, 300.0, -0.0, 7.0, 1e10, -1e-10]
            for y in range(4):
                for x in range(8):
                    im.region.put(im.addr(x, y), fb(vals[(3 * x + y) % 8] * (1 + x / 16)), 4)
        else:
            fill_pattern(im, 33 + fmt)
    sample_wave(f"sample_lz_bilinear_{name}", S2D.replace("dmask:0xf", f"dmask:0x{(1 << n) - 1:x}")
                .replace("v[10:13]", "v10" if n == 1 else f"v[10:{9 + n}]"),
                T2(fmt, dst_sel=sel), ssharp(2, 0, True), fill,
                f"image_sample_lz bilinear of format {fmt}: the converted texels blended with 8-bit weights, "
                "clamp in x, wrap in y", dmask=(1 << n) - 1)

# -- point sampling passes NaN, infinity and denormal texels unchanged -------------------------
specials = [0x7fc00001, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x3f800000, 0x80000000, 0x7f7fffff]
sample_wave("sample_lz_point_special_texels", S2D.replace("v[10:13]", "v10").replace("dmask:0xf", "dmask:0x1"),
            T2(22, dst_sel=0x4 | 1 << 9), ssharp(0, 0, False),
            lambda im: [im.region.put(im.addr(x, y), specials[(x + y) % 8], 4) for y in range(4) for x in range(8)],
            "image_sample_lz point of R32_FLOAT: a NaN (payload kept), infinities and denormals read back as stored",
            dmask=1)

# -- unnormalized coordinates: the S#'s FORCE_UNNORMALIZED and the instruction's UNORM bit ------
UX = [0.0, 0.5, 1.0, 1.25, 1.5, 2.75, 3.5, 7.5, 7.9, 8.0, 8.5, -0.5, -1.0, 3.999, 4.0, 6.2] * 2
unc = lambda l: [fb(UX[l]), fb([0.5, 1.5, 2.25, 3.9, -0.7, 4.5, 0.0, 1.0][l % 8])]
sample_wave("sample_lz_unnormalized_s", S2D, T2(), ssharp(2, 2, True, unnorm=True),
            lambda im: fill_pattern(im, 44), "FORCE_UNNORMALIZED: coordinates in texels, bilinear, clamp",
            coords=unc)
sample_wave("sample_lz_unnormalized_unorm_bit", S2D + " unorm", T2(), ssharp(0, 1, False),
            lambda im: fill_pattern(im, 45), "the UNORM bit: coordinates in texels, point, wrap x, mirror y",
            coords=unc, unorm=True)

# -- texel offsets (_o): added to the f32 coordinate before the addressing mode ---------------
OFFS = [0, 1, 2, 0x3f, 0x3e, 0x20, 0x1f, 0x100, 0x3f00, 0x0101, 0x3f3f, 0x0203]


def offset_of(l):
    return OFFS[l % len(OFFS)]


S2DO = "image_sample_lz_o v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D"
sample_wave("sample_lz_o_bilinear_clamp", S2DO, T2(), ssharp(2, 2, True), lambda im: fill_pattern(im, 51),
            "image_sample_lz_o: signed 6-bit texel offsets (x 5:0, y 13:8), bilinear, clamp", off=offset_of)
sample_wave("sample_lz_o_unnormalized_border", S2DO, T2(), ssharp(6, 6, True, unnorm=True, border=2),
            lambda im: fill_pattern(im, 52),
            "image_sample_lz_o on unnormalized coordinates: the offset before the border test [N-IMG-UNORM-OFFSET]",
            coords=unc, off=offset_of)

# -- 1D, 1D array, 2D array (layers by round to nearest even, clamped) -------------------------
sample_wave("sample_lz_1d_bilinear_wrap", "image_sample_lz v[10:13], v4, s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_1D",
            tsharp(RGBA8, D1, 16), ssharp(0, 0, True), lambda im: fill_pattern(im, 61),
            "1D, bilinear, wrap", coords=lambda l: [fb(US[l])])
LAYERS = [0.0, 0.5, 1.5, 2.5, 0.49, 1.51, -1.0, 7.0, 2.0, 1.0, 3.2, -0.5]
sample_wave("sample_lz_1d_array_point", "image_sample_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY",
            tsharp(RGBA8, D1A, 8, depth=3, base_array=1), ssharp(2, 2, False),
            lambda im: fill_pattern(im, 62, slices=4), "1D array, BASE_ARRAY 1: the layer rounded to nearest even, "
            "clamped into the view's 3 layers", coords=lambda l: [fb(US[l]), fb(LAYERS[l % 12])])
sample_wave("sample_lz_2d_array_bilinear", "image_sample_lz v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY",
            tsharp(RGBA8, D2A, 4, 4, depth=2), ssharp(1, 3, True), lambda im: fill_pattern(im, 63, slices=3),
            "2D array, bilinear, mirror x, mirror-once y", coords=lambda l: coord_uv(l) + [fb(LAYERS[l % 12])], size=8192)

# -- a 2D DIM through a 1D T#: the first coordinate alone [N-IMG-2D-ON-1D-SAMPLE] --------------
for mode in (0, 2, 6):
    sample_wave(f"sample_lz_2d_dim_on_1d_{mode}", S2D, tsharp(RGBA8, D1, 16), ssharp(mode, mode, False),
                lambda im: fill_pattern(im, 64), "image_sample_lz DIM 2D through a 1D T#: point, the y coordinate "
                f"ignored (measured on gfx1036 for wrap, clamp and border); CLAMP_X {mode}")

# -- DST_SEL on a bilinear result, and a partial DMASK -----------------------------------------
sample_wave("sample_lz_dst_sel", S2D.replace("v[10:13]", "v[10:12]").replace("dmask:0xf", "dmask:0xb"),
            T2(dst_sel=7 | 5 << 3 | 1 << 6 | 4 << 9), ssharp(2, 2, True), lambda im: fill_pattern(im, 71),
            "DST_SEL W,Y,1,X with DMASK 0xb: the blended components selected after filtering", dmask=0xb)

# -- special coordinates: NaN reads as 0, infinities clamp --------------------------------------
SPC = [0x7fc00000, 0x7f800000, 0xff800000, 0x80000000, 0x00000001, 0x3f7fffff, 0x3f800001, 0xbf800000]
sample_wave("sample_lz_special_coordinates", S2D, T2(), ssharp(6, 2, True, border=1), lambda im: fill_pattern(im, 72),
            "NaN coordinates read as 0; +-infinity, -0, a denormal and the neighbours of 1.0; border x, clamp y",
            coords=lambda l: [SPC[l % 8], SPC[l // 4 % 8]])

# -- gather4: the footprint (i0,j1), (i1,j1), (i1,j0), (i0,j0) of the component DMASK names -----
for dmask in (1, 2, 4, 8):
    sample_wave(f"gather4_lz_dmask{dmask}", f"image_gather4_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0x{dmask:x} dim:SQ_RSRC_IMG_2D",
                T2(), ssharp([0, 1, 2, 6][dmask.bit_length() - 1], 2, False, border=2), lambda im: fill_pattern(im, 81),
                f"image_gather4_lz DMASK {dmask:#x}: the bilinear footprint's component, whatever the S# filter",
                dmask=dmask, gather=True)
sample_wave("gather4_lz_o_2d_array", "image_gather4_lz_o v[10:13], v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY",
            tsharp(RGBA8, D2A, 4, 4, depth=2), ssharp(0, 0, True), lambda im: fill_pattern(im, 82, slices=3),
            "image_gather4_lz_o on a 2D array: offsets, wrap", coords=lambda l: coord_uv(l) + [fb(LAYERS[l % 12])],
            off=offset_of, dmask=1, gather=True, size=8192)

# -- image_sample_c_lz: 8-bit UNORM and sRGB compare to 0 (measured); other formats compare, then
# filter --------------------------------------------------------------------------------------
REFS = [-0.5, 0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 0.3, 0.9, -0.1, 0.6, 0.05, 0.45, 0.8, 0.2]
ref_of = lambda l: fb(REFS[l % 16])
SC = "image_sample_c_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D"
NOTES_SRC = "rdnaprobe datasets/wave/image_samples.csv: written from ../reference notes (see note)"
for fmt, name in [(130, "rgba8_srgb"), (128, "r8_srgb"), (129, "rg8_srgb"), (56, "rgba8_unorm"), (1, "r8_unorm")]:
    for func in (1, 3, 6, 7):
        sample_wave(f"sample_c_lz_{name}_func{func}", SC, T2(fmt), ssharp(2, 2, func % 2 == 1, compare=func),
                    lambda im, fmt=fmt: fill_pattern(im, 90 + fmt),
                    f"image_sample_c_lz on 8-bit {'sRGB' if fmt > 127 else 'UNORM'} format {fmt}, DEPTH_COMPARE_FUNC "
                    f"{func}: 0 for every reference and texel [N-IMG-COMPARE-8BIT]", ref=ref_of,
                    gfx="gfx1035", source=NOTES_SRC, dmask=1)
def depth_fill(fmt, seed):
    """Texels for a compare: finite f32 depths of both signs on 32_FLOAT, else the pattern."""
    def fill(im):
        if fmt == 22:
            vals = [0.0, 0.25, 0.5, 1.0, -0.5, 0.1, 0.75, 2.0]
            for y in range(4):
                for x in range(8):
                    im.region.put(im.addr(x, y), fb(vals[(x + 3 * y) % 8]), 4)
        else:
            fill_pattern(im, seed)
    return fill


for fmt, name, bil, func in [(22, "r32_float", False, 1), (22, "r32_float", True, 3), (13, "r16_float", True, 6),
                             (7, "r16_unorm", True, 1), (8, "r16_snorm", False, 4), (23, "rg16_unorm", True, 5)]:
    fill = depth_fill(fmt, 95 + fmt)
    sample_wave(f"sample_c_lz_{name}_{'bilinear' if bil else 'point'}_func{func}", SC, T2(fmt),
                ssharp(6, 2, bil, border=2, compare=func), fill,
                f"image_sample_c_lz on format {fmt}: reference OP first component, the reference clamped for "
                "UNORM/SNORM, the 0/1 results filtered; border x (opaque white), clamp y", ref=ref_of, dmask=1)

# -- image_gather4_c: the footprint's four compare results, unfiltered, in the gather's order;
# on 8-bit UNORM the measured sample_c rule (0) is carried over (the model's choice) ----------
GC = "image_gather4_c_lz v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D"
for fmt, name, func in [(22, "r32_float", 3), (7, "r16_unorm", 1), (8, "r16_snorm", 6), (1, "r8_unorm", 3)]:
    fill = depth_fill(fmt, 97 + fmt)
    sample_wave(f"gather4_c_lz_{name}_func{func}", GC, T2(fmt), ssharp(6, 0, False, border=1, compare=func), fill,
                f"image_gather4_c_lz on format {fmt}, DEPTH_COMPARE_FUNC {func}: reference OP first component for "
                "each footprint texel, unfiltered (8-bit UNORM: 0, as sample_c); border x (opaque black), wrap y",
                ref=ref_of, dmask=1, gather=True)
sample_wave("gather4_c_lz_o_r32_float", "image_gather4_c_lz_o v[10:13], v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            T2(22), ssharp(2, 2, True, compare=5), lambda im: fill_pattern(im, 140),
            "image_gather4_c_lz_o: offsets, reference != texel", ref=ref_of, off=offset_of, dmask=1, gather=True)

# -- the level: point mipmapping by the quad's derivatives (no suffix), an explicit LOD (_l), the
# derivatives clamped from below (_cl); a 16 x 16 RGBA8 image of 5 levels --------------------
MIPS = lambda fmt=RGBA8: tsharp(fmt, D2, 16, 16, max_mip=4)
STEPS = [0, 1, 1.5, 2, 2.9, 3, 4, 8]  # texels of level 0 per lane, one per quad
MIP_S = lambda bil=False, **k: ssharp(2, 2, bil, mip=1, max_lod=0xf00, **k)
mip_fill = lambda im: fill_pattern(im, 111)


def quad_steps(along_y):
    """Per lane (u, v) bits: quad q steps STEPS[q] texels of level 0 from lane to lane along x
    (or y) from a base that moves with q."""
    def c(l):
        q, i = l // 4, l % 4
        step = STEPS[q % 8] / 16
        bu, bv = (0.7 + 1.3 * q) / 16, (2.5 + 0.9 * q) / 16
        dx, dy = (i & 1), (i >> 1 & 1)
        if along_y:
            return [fb(bu + dy * step), fb(bv + dx * step)]
        return [fb(bu + dx * step), fb(bv + dy * step)]
    return c


S2DI = "image_sample v[10:13], v[4:5], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D"
for along_y in (False, True):
    for bil in (False, True):
        d = "y" if along_y else "x"
        f = "bilinear" if bil else "point"
        sample_wave(f"sample_implicit_{f}_steps_{d}", S2DI, MIPS(), MIP_S(bil), mip_fill,
                    f"image_sample (implicit LOD from the quad's derivatives) {f}, MIP_FILTER point: steps of "
                    f"0..8 texels per lane along {d}", coords=quad_steps(along_y), lod="implicit", size=16384)
LODS = [-1.0, 0.0, 0.25, 0.49, 0.5, 0.51, 0.75, 1.0, 1.49, 1.5, 1.51, 2.2, 2.5, 3.0, 3.6, 4.0, 4.6, 9.0,
        -0.6, 0.9, 1.2, 2.9, 3.4, 0.1, float("nan"), float("inf"), float("-inf"), 1.75, 2.75, 3.25, 0.6, 2.0]
sample_wave("sample_l_point", "image_sample_l v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
            MIPS(), MIP_S(), mip_fill, "image_sample_l, MIP_FILTER point: level ceil(lod + 0.5) - 1 clamped to the "
            "view's levels", lod="explicit", extra=lambda l: fb(LODS[l]), size=16384)
sample_wave("sample_l_bilinear_max_lod", "image_sample_l v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
            MIPS(), ssharp(0, 1, True, mip=1, max_lod=0x1c0), mip_fill,
            "image_sample_l bilinear, wrap x, mirror y, MAX_LOD 1.75: at most level 2", lod="explicit",
            extra=lambda l: fb(LODS[l]), size=16384)
sample_wave("sample_l_o_point", "image_sample_l_o v[10:13], v[4:7], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
            MIPS(), MIP_S(), mip_fill, "image_sample_l_o: offsets on the selected level",
            lod="explicit", extra=lambda l: fb(LODS[(l * 7) % 32]), off=offset_of, size=16384)
sample_wave("sample_cl_point", "image_sample_cl v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
            MIPS(), MIP_S(), mip_fill, "image_sample_cl: the derivatives' LOD, at least the clamp",
            coords=quad_steps(False), lod="clamp", extra=lambda l: fb(LODS[(l * 5) % 32]), size=16384)
sample_wave("sample_o_bilinear", "image_sample_o v[10:13], v[4:6], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
            MIPS(), MIP_S(True), mip_fill, "image_sample_o: implicit LOD, offsets",
            coords=quad_steps(True), lod="implicit", off=offset_of, size=16384)
sample_wave("sample_implicit_no_mip_filter", S2DI, MIPS(), ssharp(2, 2, True, max_lod=0xf00), mip_fill,
            "image_sample with MIP_FILTER none: BASE_LEVEL whatever the derivatives", coords=quad_steps(False),
            lod="implicit", size=16384)


def r32_mips(im):
    vals = [0.0, 0.25, 0.5, 1.0, -0.5, 0.1, 0.75, 2.0]
    for lvl in range(5):
        n = max(16 >> lvl, 1)
        for y in range(n):
            for x in range(n):
                im.region.put(im.addr(x, y, 0, lvl), fb(vals[(x + 3 * y + lvl) % 8]), 4)


sample_wave("sample_c_implicit_r32_float", "image_sample_c v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            MIPS(22), MIP_S(True, compare=3), r32_mips,
            "image_sample_c: implicit LOD, reference <= texel, filtered", coords=quad_steps(False), lod="implicit",
            ref=ref_of, dmask=1, size=16384)
sample_wave("gather4_l", "image_gather4_l v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D",
            MIPS(), MIP_S(), mip_fill, "image_gather4_l: the footprint on the selected level", lod="explicit",
            extra=lambda l: fb(LODS[(l * 3) % 32]), dmask=2, gather=True, size=16384)
sample_wave("gather4_c_l", "image_gather4_c_l v[10:13], v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            MIPS(22), MIP_S(compare=6), r32_mips, "image_gather4_c_l: the footprint's compare results on the "
            "selected level", lod="explicit", extra=lambda l: fb(LODS[(l * 5) % 32]), ref=ref_of, dmask=1,
            gather=True, size=16384)
sample_wave("gather4_c_implicit", "image_gather4_c v[10:13], v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            MIPS(22), MIP_S(compare=1), r32_mips, "image_gather4_c: implicit LOD", coords=quad_steps(False),
            lod="implicit", ref=ref_of, dmask=1, gather=True, size=16384)
sample_wave("gather4_implicit", "image_gather4 v[10:13], v[4:5], s[8:15], s[0:3] dmask:0x4 dim:SQ_RSRC_IMG_2D",
            MIPS(), MIP_S(), mip_fill, "image_gather4: implicit LOD", coords=quad_steps(True), lod="implicit",
            dmask=4, gather=True, size=16384)

# -- user derivatives (_d, _cd, _g16): the LOD of the derivatives in the address dwords, as the
# plain sample's from the quad's differences; _cd one LOD per quad (its first lane's) --------
# per lane, texels of level 0 along x and y for d/dx and d/dy (crossing each level's edge
# 2^(k - 0.5): 0.71, 1.41, 2.83, 5.66), a NaN and infinities among them
GRAD_T = [0.0, 0.5, 0.7, 0.75, 1.0, 1.4, 1.45, 2.0, 2.8, 2.9, 4.0, 5.6, 5.7, 8.0, 16.0, -3.0,
          -0.72, 0.25, 1.5, 3.5, 6.0, -1.2, float("nan"), float("inf"), 0.1, 2.5, -5.8, 12.0, 0.8, 3.0, 1.1, -7.0]


def grads_2d(rnd, transpose=False):
    """Per lane ((dsdx, dsdy), (dtdx, dtdy)) in normalized units of the 16-texel level 0,
    each rounded as its dwords carry it (`rnd`)."""
    def g(l):
        a, b = GRAD_T[l] / 16, GRAD_T[(l * 7 + 3) % 32] / 32
        c, d = GRAD_T[(l * 5 + 1) % 32] / 32, GRAD_T[(l * 3 + 2) % 32] / 16
        s_, t_ = ((rnd(a), rnd(c)), (rnd(b), rnd(d)))
        return [t_, s_] if transpose else [s_, t_]
    return g


f32r = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
f16r = lambda x: struct.unpack("<e", struct.pack("<e", x))[0]
SD = lambda op, vaddr: f"image_{op} v[10:13], v[4:{vaddr}], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D"
for bil in (False, True):
    f = "bilinear" if bil else "point"
    sample_wave(f"sample_d_{f}", SD("sample_d", 9), MIPS(), MIP_S(bil), mip_fill,
                f"image_sample_d {f}, MIP_FILTER point: each lane's LOD from its own derivatives",
                lod="implicit", grads=grads_2d(f32r), size=16384)
sample_wave("sample_cd_point", SD("sample_cd", 9), MIPS(), MIP_S(), mip_fill,
            "image_sample_cd: one LOD per quad, from its first lane's derivatives (the model's choice)",
            lod="implicit", grads=grads_2d(f32r), coarse=True, size=16384)
sample_wave("sample_d_cl_g16_point", SD("sample_d_cl_g16", 8), MIPS(), MIP_S(), mip_fill,
            "image_sample_d_cl_g16: the derivatives' LOD, at least the clamp", lod="clamp",
            grads=grads_2d(f16r, True), g16=True, extra=lambda l: fb(LODS[(l * 5) % 32]), size=16384)
sample_wave("sample_d_o_g16_bilinear", SD("sample_d_o_g16", 8), MIPS(), MIP_S(True), mip_fill,
            "image_sample_d_o_g16: offsets before the derivatives", lod="implicit", off=offset_of,
            grads=grads_2d(f16r), g16=True, size=16384)
sample_wave("sample_d_g16_point", SD("sample_d_g16", 7), MIPS(), MIP_S(), mip_fill,
            "image_sample_d_g16: f16 derivatives, a direction's two per dword", lod="implicit",
            grads=grads_2d(f16r), g16=True, size=16384)
sample_wave("sample_cd_cl_o_g16_bilinear", SD("sample_cd_cl_o_g16", 9), MIPS(), MIP_S(True), mip_fill,
            "image_sample_cd_cl_o_g16: offsets, f16 derivatives per quad, the clamp", lod="clamp",
            off=offset_of, grads=grads_2d(f16r, True), coarse=True, g16=True,
            extra=lambda l: fb(LODS[(l * 3) % 32]), size=16384)
sample_wave("sample_c_d_g16_r32_float",
            "image_sample_c_d_g16 v10, v[4:8], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            MIPS(22), MIP_S(True, compare=3), r32_mips,
            "image_sample_c_d_g16: the reference before the derivatives, reference <= texel, filtered",
            lod="implicit", ref=ref_of, grads=grads_2d(f16r), g16=True, dmask=1, size=16384)
G1 = lambda l: [(f32r(GRAD_T[l] / 16), f32r(GRAD_T[(l * 9 + 4) % 32] / 16))]
sample_wave("sample_d_cl_1d", "image_sample_d_cl v10, v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_1D",
            tsharp(20, D1, 16, max_mip=4), ssharp(0, 0, False, mip=1, max_lod=0xf00),
            lambda im: fill_pattern(im, 121), "image_sample_d_cl, 1D: one derivative per direction, the clamp",
            coords=lambda l: [fb(US[l])], lod="clamp", grads=G1, extra=lambda l: fb(LODS[(l * 7) % 32]),
            dmask=1, size=16384)
sample_wave("sample_d_1d", "image_sample_d v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_1D",
            tsharp(20, D1, 16, max_mip=4), ssharp(0, 0, False, mip=1, max_lod=0xf00),
            lambda im: fill_pattern(im, 120), "image_sample_d, 1D: one derivative per direction",
            coords=lambda l: [fb(US[l])], lod="implicit",
            grads=G1, dmask=1, size=16384)

# -- the bias forms (_b): the quad's derivatives' LOD plus the bias dword, in 1/256 steps; whole
# half levels, steps just past an edge, clamped, NaN and infinite biases -----------------------
BIASES = [0.0, -1.0, -0.5, 0.25, 0.5, 0.999, 1.0, 1.00390625, 2.5, -16.0, 20.0, float("nan"), float("inf"),
          float("-inf"), 0.13, -0.2, 1.5, 0.49, 0.51, -2.0, 3.0, 0.75, -0.75, 1.25, 0.001953125, -3.3, 4.0,
          0.3, 1.7, -0.01, 2.0, 0.6]
bias_of = lambda l: fb(BIASES[l])
SB = lambda op, vaddr, dm="0xf", v="v[10:13]": f"image_{op} {v}, v[4:{vaddr}], s[8:15], s[0:3] dmask:{dm} dim:SQ_RSRC_IMG_2D"
for along_y in (False, True):
    d = "y" if along_y else "x"
    sample_wave(f"sample_b_point_steps_{d}", SB("sample_b", 6), MIPS(), MIP_S(), mip_fill,
                f"image_sample_b: the quad's derivatives' LOD (steps along {d}) plus a bias in 1/256 steps",
                coords=quad_steps(along_y), lod="implicit", bias=bias_of, size=16384)
sample_wave("sample_b_cl_o_bilinear", SB("sample_b_cl_o", 8), MIPS(), MIP_S(True), mip_fill,
            "image_sample_b_cl_o: offsets, the biased LOD, at least the clamp", coords=quad_steps(False),
            lod="clamp", off=offset_of, bias=lambda l: fb(BIASES[(l * 5) % 32]),
            extra=lambda l: fb(LODS[(l * 3) % 32]), size=16384)
sample_wave("sample_c_b_r32_float", SB("sample_c_b", 7, "0x1", "v10"), MIPS(22), MIP_S(True, compare=3), r32_mips,
            "image_sample_c_b: the bias before the reference, reference <= texel, filtered",
            coords=quad_steps(True), lod="implicit", bias=lambda l: fb(BIASES[(l * 3) % 32]), ref=ref_of, dmask=1,
            size=16384)
sample_wave("gather4_b", SB("gather4_b", 6, "0x2"), MIPS(), MIP_S(), mip_fill,
            "image_gather4_b: the footprint on the biased LOD's level", coords=quad_steps(False), lod="implicit",
            bias=lambda l: fb(BIASES[(l * 7) % 32]), dmask=2, gather=True, size=16384)
sample_wave("gather4_c_b_cl_o", SB("gather4_c_b_cl_o", 9, "0x1"), MIPS(22), MIP_S(compare=6), r32_mips,
            "image_gather4_c_b_cl_o: offsets, bias, reference, clamp; the compare results unfiltered",
            coords=quad_steps(True), lod="clamp", off=offset_of, bias=lambda l: fb(BIASES[(l * 11) % 32]),
            ref=ref_of, extra=lambda l: fb(LODS[(l * 5) % 32]), dmask=1, gather=True, size=16384)

# -- the notes' implicit-LOD measurement: DIM 2D through a 1D T# of 16 texels and 5 levels,
# 32_UINT, point filters; steps of 0, 1, 2, 4 and 8 texels per lane along x or y pick the 1D
# level and texel, whatever the second coordinate [N-IMG-IMPLICIT-LOD] ------------------------
T1M = tsharp(20, D1, 16, max_mip=4)


def steps_1d(along_y, noise):
    def c(l):
        q, i = l // 4, l % 4
        step = [0, 1, 2, 4, 8, 1, 2, 4][q] / 16
        lane_step = (i >> 1 & 1) if along_y else (i & 1)
        u = (0.5 + 0.37 * q) / 16 + lane_step * step
        v = [0.1, 5.0, -3.0, 0.9][(i + q) % 4] * noise
        return [fb(u), fb(v)]
    return c


for along_y in (False, True):
    for noise in (0, 1):
        d = "y" if along_y else "x"
        sample_wave(f"sample_2d_dim_on_1d_implicit_{d}_{'v' if noise else 'flat'}",
                    "image_sample v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
                    T1M, ssharp(0, 0, False, mip=1, max_lod=0xf00), lambda im: fill_pattern(im, 120),
                    f"image_sample DIM 2D on a 1D T# (16 texels, 5 levels, 32_UINT), point: steps of 0..8 texels per "
                    f"lane along {d} pick the level of log2(step){', the second coordinate varying' if noise else ''} "
                    "[N-IMG-IMPLICIT-LOD]", coords=steps_1d(along_y, noise), lod="implicit", dmask=1,
                    gfx="gfx1036", source=NOTES_SRC)

write(sys.argv[1], rows,
      "scripts/sample-fixtures.py: hand-computed waves for image_sample_lz(_o) and image_gather4_lz(_o); "
      "encodings from llvm-mc-19 -mcpu=gfx1030",
      {"[N-IMG-IMPLICIT-LOD]": "a compute wave's plain image_sample takes its LOD from the quad's derivatives; "
                               "DIM 2D through a 1D T# uses the first coordinate's alone: steps of 0, 1, 2, 4 and 8 "
                               "texels per lane along x or y pick the level and texel DIM 1D picks (notes, measured "
                               "on gfx1036, 16 texels, 5 levels, 32_UINT, point filters)",
       "[N-IMG-COMPARE-8BIT]": "image_sample_c_lz on 8-bit sRGB (8, 8_8, 8_8_8_8) and 8-bit UNORM returns 0 for "
                               "every compare function, references -0.5..1.5 and texel codes 0..255 (notes, "
                               "measured on gfx1035)",
       "[N-IMG-UNORM-OFFSET]": "unnormalized texel offsets are added to the f32 coordinate before the "
                               "addressing mode (notes, measured on gfx1035)",
       "[N-IMG-2D-ON-1D-SAMPLE]": "image_sample_lz with DIM 2D through a 1D T# samples by the first coordinate "
                                  "(notes, measured on gfx1036, point with wrap, clamp and border)"},
      "Hand-computed from the model's sampling rules, most of them chosen, not measured (the 8-bit weights, "
      "the blend's f64 arithmetic, the layer rounding, the border colour before DST_SEL): see "
      "docs/semantics.md, image-sample-weights and image-sample-addressing.",
      "none: rows computed from the sampling rules, not captured")
