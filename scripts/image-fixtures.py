#!/usr/bin/env python3
"""Writes the image waves of the wave contract (docs/dataset-format.md, "Images"):

- datasets/wave/images.csv: hand-computed waves for image_load(_mip), image_store(_mip), the
  raw _pck forms and image_get_resinfo over the dimensions, formats and fields the lowering
  models; the expected values are worked out here from the rules (the linear layout, the
  formats' conversions on exact fractions, DST_SEL, out of range, d16, a16, NSA);
- datasets/notes/image_notes.csv: waves for the reference notes' measured image statements
  (../reference/shader-technical-debt.md and the commit notes), with the gfx they name.

Neither is a hardware capture. Every body first adds the region's address (s[16:17]) to the
T#'s base, as a buffer V# takes the absolute address, so the rows hold for any region address.
Encodings come from llvm-mc-19 -mcpu=gfx1030 (the decoder's oracle).
Usage: scripts/image-fixtures.py datasets/wave/images.csv datasets/notes/image_notes.csv"""
import sys

from imagelib import *  # noqa: F401,F403 (the shared fixture helpers)

ALL = lambda w: (1 << w) - 1
hand, notes = [], []

# -- loads of each number format, 2D, every texel of the image a lane --------------------------
for fmt, name in [(56, "rgba8_unorm"), (57, "rgba8_snorm"), (60, "rgba8_uint"), (61, "rgba8_sint"),
                  (23, "rg16_unorm"), (24, "rg16_snorm"), (28, "rg16_sint"), (29, "rg16_float"),
                  (36, "r11g11b10_float"), (50, "a2bgr10_unorm"), (51, "a2bgr10_snorm"),
                  (54, "a2bgr10_uint"), (22, "r32_float"), (21, "r32_sint"), (9, "r16_uscaled"),
                  (13, "r16_float"), (133, "b5g6r5_unorm"), (134, "a1bgr5_unorm"), (2, "r8_snorm")]:
    n = len(FORMATS[fmt][1])
    sel = 0xfac if n == 4 else [0, 0x004, 0x02c, 0x1ac][n]  # missing components: 0 (X.., 1 for W)
    if n < 4:
        sel |= 1 << 9
    t = tsharp(fmt, D2, 8, 4, dst_sel=sel)
    img = image_of(t, 1024, lambda im: fill_pattern(im, fmt))
    region = (img.region.dwords(), None)
    coord = lambda l: [l % 8, l // 8]
    case(hand, f"load_{name}", "image_load v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D",
         32 if fmt != 56 else 64, t, region, coord,
         lambda l, img=img: load_value(img, img.at([("x", l % 8), ("y", l // 8)]), 0xf),
         f"image_load of format {fmt}: every texel of an 8 x 4 image (a wave64's lanes 32-63 past the height); "
         "DST_SEL 0 for the components the format lacks, 1 for W")

# d16 loads: 16-bit float halves pass, UNORM rounds to f16
for fmt, name in [(71, "rgba16_float"), (65, "rgba16_unorm"), (56, "rgba8_unorm")]:
    t = tsharp(fmt, D2, 4, 4)
    img = image_of(t, 2048, lambda im: fill_pattern(im, 7 + fmt))
    case(hand, f"load_d16_{name}", "image_load v[10:11], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D d16",
         32, t, (img.region.dwords(),), lambda l: [l % 4, l // 4],
         lambda l, img=img: load_value(img, img.at([("x", l % 4), ("y", l // 4)]), 0xf, True),
         f"image_load d16 of format {fmt}: two 16-bit halves to a VGPR")

# sRGB: each code of 8_8_8_8_SRGB's X, Y, Z through the transfer function, W linear
t = tsharp(130, D1, 64)
img = image_of(t, 256, lambda im: [im.region.put(4 * x, sum(((4 * x + j) & 0xff) << (8 * j) for j in range(4)), 4)
                                   for x in range(64)])
case(hand, "load_srgb_rgba8", "image_load v[10:13], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D", 64, t,
     (img.region.dwords(),), lambda l: [l], lambda l, img=img: load_value(img, img.at([("x", l)]), 0xf),
     "8_8_8_8_SRGB: X, Y, Z by the sRGB transfer function rounded to bf16, W as UNORM")

# DMASK and DST_SEL: slots packed, constants, a swizzle
t = tsharp(56, D2, 4, 2, dst_sel=6 | 4 << 3 | 1 << 6 | 0 << 9)  # Z, X, 1, 0
img = image_of(t, 512, lambda im: fill_pattern(im, 3))
case(hand, "load_dst_sel", "image_load v[10:12], v[4:5], s[8:15] dmask:0xd dim:SQ_RSRC_IMG_2D", 32, t,
     (img.region.dwords(),), lambda l: [l % 5, l // 5],
     lambda l, img=img: load_value(img, img.at([("x", l % 5), ("y", l // 5)]), 0xd),
     "DST_SEL Z,X,1,0 with DMASK 0xd (X, Z, W slots); x 4 and y >= 2 are out of range, DST_SEL 1 gives 1.0")

# every dimension: 1D, 1D array, 2D array, 3D, cube
t = tsharp(20, D1A, 8, depth=3, base_array=1)
img = image_of(t, 1024, lambda im: fill_pattern(im, 11, slices=4))
case(hand, "load_1d_array", "image_load v10, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D_ARRAY", 32, t,
     (img.region.dwords(),), lambda l: [l % 8, l // 8],
     lambda l, img=img: load_value(img, img.at([("x", l % 8), ("layer", l // 8)]), 1),
     "1D array: BASE_ARRAY 1, DEPTH 3 (the last layer): slices 0..2 are layers 1..3, slice 3 is out of range")
t = tsharp(62, D2A, 4, 2, depth=2)
img = image_of(t, 2048, lambda im: fill_pattern(im, 12, slices=3))
case(hand, "load_2d_array", "image_load v[10:11], v[4:6], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D_ARRAY", 32, t,
     (img.region.dwords(),), lambda l: [l % 4, l // 4 % 2, l // 8],
     lambda l, img=img: load_value(img, img.at([("x", l % 4), ("y", l // 4 % 2), ("layer", l // 8)]), 3),
     "2D array of 32_32_UINT: 8-byte texels, layers one slice apart; layer 3 is past DEPTH 2")
t = tsharp(60, D3, 4, 2, depth=3)
img = image_of(t, 2048, lambda im: fill_pattern(im, 13, slices=4))
case(hand, "load_3d", "image_load v[10:13], [v4, v5, v6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", 64, t,
     (img.region.dwords(),), lambda l: [l % 4, l // 4 % 2, l // 8],
     lambda l, img=img: load_value(img, img.at([("x", l % 4), ("y", l // 4 % 2), ("z", l // 8)]), 0xf),
     "3D 4 x 2 x 4 (NSA addresses): depth slices one slice apart; z 4..7 are out of range")
t = tsharp(20, CUBE, 2, 2, depth=5)
img = image_of(t, 4096, lambda im: fill_pattern(im, 14, slices=6))
case(hand, "load_cube", "image_load v10, v[4:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_CUBE", 32, t,
     (img.region.dwords(),), lambda l: [l % 2, l // 2 % 2, l // 4],
     lambda l, img=img: load_value(img, img.at([("x", l % 2), ("y", l // 2 % 2), ("layer", l // 4)]), 1),
     "cube: the face is a layer (DEPTH 5, six faces); faces 6 and 7 are out of range")

# mip levels: image_load_mip over a 3-level 2D image, BASE_LEVEL 1
t = tsharp(22, D2, 8, 8, max_mip=3, base_level=1, last_level=3)
img = image_of(t, 8192, lambda im: fill_pattern(im, 15))
mips = lambda l: [l % 4, l // 4 % 4, l // 16]
case(hand, "load_mip", "image_load_mip v10, v[4:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D", 64, t,
     (img.region.dwords(),), mips,
     lambda l, img=img: load_value(img, img.at([("x", mips(l)[0]), ("y", mips(l)[1])], mips(l)[2]), 1),
     "image_load_mip, BASE_LEVEL 1 of 4 levels: mip m reads level 1 + m; levels smallest first, 256-byte rows")
t = tsharp(56, D2, 5, 3, max_mip=2)
img = image_of(t, 4096, lambda im: fill_pattern(im, 16))
m5 = lambda l: [l % 5, l // 5 % 3, l // 15]
case(hand, "load_mip_odd", "image_load_mip v[10:13], v[4:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", 64, t,
     (img.region.dwords(),), m5,
     lambda l, img=img: load_value(img, img.at([("x", m5(l)[0]), ("y", m5(l)[1])], m5(l)[2]), 0xf),
     "a 5 x 3 image: levels laid out at ceil(size / 2^l), in range below floor(size / 2^l)")

# a16 coordinates and a custom pitch
t = tsharp(20, D2, 16, 4, pitch=128)
img = image_of(t, 2048, lambda im: fill_pattern(im, 17))
case(hand, "load_a16_pitch", "image_load v10, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D a16", 64, t,
     (img.region.dwords(),), lambda l: [(l % 16) | (l // 16) << 16],
     lambda l, img=img: load_value(img, img.at([("x", l % 16), ("y", l // 16)]), 1),
     "a16: x and y in one VGPR; a single-level 2D T# with PITCH 128 (its rows 512 bytes apart)")

# stores of each number format
STORE_VALS = [0x3f000000, 0x3f800000, 0xbf800000, 0x40000000, 0x3e4ccccd, 0x7fc00000, 0, 0x3b800000,
              0xbf000000, 0x3c000000, 0x3eaaaaab, 0xff800000, 0x7f800000, 0x80000000, 0x3f7fffff, 0xbe4ccccd]
INT_VALS = [0, 1, 127, 128, 255, 256, 0xffffffff, 0x80000000, 0x7fffffff, 300, 0xfffffed4, 0xffffff80,
            0xffffff7f, 65535, 65536, 0xffff8000]
for fmt, name, vals in [(56, "rgba8_unorm", STORE_VALS), (57, "rgba8_snorm", STORE_VALS),
                        (65, "rgba16_unorm", STORE_VALS), (60, "rgba8_uint", INT_VALS),
                        (70, "rgba16_sint", INT_VALS), (77, "rgba32_float", STORE_VALS),
                        (50, "a2bgr10_unorm", STORE_VALS), (133, "b5g6r5_unorm", STORE_VALS)]:
    t = tsharp(fmt, D2, 8, 4)
    img = image_of(t, 2048, lambda im: None)
    data = lambda l: [vals[(l + k) % 16] for k in range(4)]
    for l in range(32):
        store_texel(img, img.at([("x", l % 8), ("y", l // 8 % 4)]), 0xf, data(l))
    case(hand, f"store_{name}", "image_store v[6:9], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", 32, t,
         ([0] * 512,), lambda l: [l % 8, l // 8] + data(l), lambda l: [],
         f"image_store of format {fmt}: NaN, infinities, halves and out-of-range values converted",
         mem_out=img.region.dwords())

# a store to level 2 of a mipped 1D image, and a d16 store
t = tsharp(22, D1, 32, max_mip=3)
img = image_of(t, 1024, lambda im: None)
for l in range(32):
    a = img.at([("x", l % 8)], l // 8)
    if a is not None:
        img.region.put(a, 0x3f800000 + l, 4)
case(hand, "store_mip_1d", "image_store_mip v6, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D", 32, t,
     ([0] * 256,), lambda l: [l % 8, l // 8, 0x3f800000 + l], lambda l: [],
     "image_store_mip of a 32-wide 1D image with 4 levels: level m is 32 >> m wide",
     mem_out=img.region.dwords())
t = tsharp(71, D2, 4, 4)
img = image_of(t, 1024, lambda im: None)
h = lambda l: [0x3c00 + l, 0xbc00 - l, 0x7c00, 0x0001 + l]
for l in range(32):
    a = img.at([("x", l % 4), ("y", l // 4)])
    if a is not None:
        img.region.put(a, sum(v << (16 * k) for k, v in enumerate(h(l))), 8)
case(hand, "store_d16_rgba16_float", "image_store v[6:7], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D d16",
     32, t, ([0] * 256,), lambda l: [l % 4, l // 4, h(l)[0] | h(l)[1] << 16, h(l)[2] | h(l)[3] << 16],
     lambda l: [], "a d16 store of 16_16_16_16_FLOAT writes the halves as given",
     mem_out=img.region.dwords())

# the raw _pck forms
t = tsharp(7, D2, 8, 4)
img = image_of(t, 1024, lambda im: fill_pattern(im, 21))
def pck(l, img=img, sgn=False):
    a = img.at([("x", l % 8), ("y", l // 8)])
    raw = 0 if a is None else img.region.get(a, 2)
    return [sx(raw, 16) & 0xffffffff if sgn else raw, 0]
case(hand, "load_pck_r16", "image_load_pck v[10:11], v[4:5], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D", 32, t,
     (img.region.dwords(),), lambda l: [l % 8, l // 8], pck,
     "image_load_pck of 16_UNORM: the raw 16 bits zero-extended, dword 1 past the texel reads 0")
case(hand, "load_pck_sgn_r16", "image_load_pck_sgn v[10:11], v[4:5], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D", 32,
     t, (img.region.dwords(),), lambda l: [l % 8, l // 8], lambda l: pck(l, sgn=True),
     "image_load_pck_sgn of 16_UNORM: the raw 16 bits sign-extended")
t = tsharp(77, D2, 2, 2)
img = image_of(t, 2048, lambda im: fill_pattern(im, 22))
before = img.region.dwords()
for l in range(32):
    a = img.at([("x", l % 2), ("y", l // 2)])
    if a is not None:
        d = [0, 0x1000 + l, 0, 0x3000 + l]
        img.region.put(a, sum(v << (32 * k) for k, v in enumerate(d)), 16)
case(hand, "store_pck_rgba32", "image_store_pck v[6:7], v[4:5], s[8:15] dmask:0xa dim:SQ_RSRC_IMG_2D", 32, t,
     (before,), lambda l: [l % 2, l // 2, 0x1000 + l, 0x3000 + l], lambda l: [],
     "image_store_pck with DMASK 0xa: texel dwords 1 and 3 from the data VGPRs, 0 and 2 written as 0",
     mem_out=img.region.dwords())

# image_get_resinfo of every type
for ty, name, tt in [(D1, "1d", tsharp(22, D1, 40, max_mip=5)),
                     (D2, "2d", tsharp(22, D2, 40, 12, max_mip=5, base_level=1, last_level=4)),
                     (D3, "3d", tsharp(22, D3, 16, 8, depth=5, max_mip=3)),
                     (D1A, "1d_array", tsharp(22, D1A, 16, depth=6, base_array=2)),
                     (D2A, "2d_array", tsharp(22, D2A, 16, 4, depth=9, base_array=4, max_mip=2)),
                     (CUBE, "cube", tsharp(22, CUBE, 8, 8, depth=11, max_mip=3))]:
    img = Image(tt)
    def info(l, img=img, ty=ty):
        lv = min(img.base_level + l, 31)
        w, hh, d = max(img.w >> lv, 1), max(img.h >> lv, 1), max(img.d >> lv, 1)
        layers = img.depth_field - img.base_array + 1
        y = layers if ty == D1A else (1 if ty == D1 else hh)
        z = d if ty == D3 else (layers if ty in (D2A, CUBE) else 1)
        return [w, y, z, img.last_level - img.base_level + 1]
    dim = {D1: "1D", D2: "2D", D3: "3D", D1A: "1D_ARRAY", D2A: "2D_ARRAY", CUBE: "CUBE"}[ty]
    case(hand, f"resinfo_{name}", f"image_get_resinfo v[10:13], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_{dim}",
         32, tt, ([0] * 64,), lambda l: [l], info,
         f"image_get_resinfo of a {dim} T#: width, height, depth or layers at level BASE_LEVEL + mip, level count")

# ---- the reference notes' measured statements --------------------------------------------------

# [N-IMG-2D-ON-1D] a 2D store through a 1D T# writes texel x and ignores y (y 0..4 and
# 0xffffffff), single- and four-component formats, a 1x1 8_8_8_8_UNORM T# (gfx1035)
Y = [0, 1, 2, 3, 4, 0xffffffff]
for fmt, name, dmask, regs in [(56, "rgba8", 0xf, "v[6:9]"), (1, "r8", 0x1, "v6")]:
    t = tsharp(fmt, D1, 1)
    img = image_of(t, 256, lambda im: None)
    data = lambda l: [0x3f800000 if l == 5 else 0x3e800000, 0x3f000000, 0, 0x3f800000][: bin(dmask).count("1")]
    for l in range(6):
        store_texel(img, img.at([("x", 0)]), dmask, data(l))
    case(notes, f"store_2d_on_1d_{name}", f"image_store {regs}, v[4:5], s[8:15] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D",
         32, t, ([0] * 64,), lambda l: [0, Y[l]] + data(l) if l < 6 else [1, 0] + data(l), lambda l: [],
         "[N-IMG-2D-ON-1D] a 2D store through a 1x1 1D T# writes texel x whatever y is; x 1 is out of "
         "range; the highest lane writes last", gfx="gfx1035", source=NOTES, mem_out=img.region.dwords())
# [N-IMG-2D-ON-1D] mip-less image_load with DIM 2D through a 1D T# ignores y (gfx1036)
t = tsharp(20, D1, 16)
img = image_of(t, 256, lambda im: fill_pattern(im, 31))
ys = lambda l: [0, 1, 7, 0xffff, 0xffffffff, 0x80000000][l % 6]
case(notes, "load_2d_on_1d", "image_load v10, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D", 32, t,
     (img.region.dwords(),), lambda l: [l % 16, ys(l)],
     lambda l, img=img: load_value(img, img.at([("x", l % 16)]), 1),
     "[N-IMG-2D-ON-1D] a 2D image_load through a 1D T# reads the texel of x and ignores y", gfx="gfx1036",
     source=NOTES)
# [N-IMG-3D-ON-2D] image_load(_mip) with DIM 3D on a 2D T# reads (x, y) when z is 0 and zero
# otherwise; on a 2D-array T# z is the layer; image_get_resinfo gives (width, height, 1, levels)
# and on a 2D array the layer count third (gfx1036, gfx1035)
t = tsharp(56, D2, 4, 4, max_mip=1)
img = image_of(t, 2048, lambda im: fill_pattern(im, 32))
zs = lambda l: [0, 1, 2, 0xffffffff][l // 8]
case(notes, "load_3d_on_2d", "image_load_mip v[10:13], v[4:7], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", 32, t,
     (img.region.dwords(),), lambda l: [l % 4, l // 4 % 2, zs(l), l // 4 % 2],
     lambda l, img=img: load_value(img, img.at([("x", l % 4), ("y", l // 4 % 2), ("zero", zs(l))], l // 4 % 2), 0xf),
     "[N-IMG-3D-ON-2D] image_load_mip with DIM 3D through a 2D T#: the (x, y) texel of the mip when z is 0, "
     "zero otherwise", gfx="gfx1036", source=NOTES)
t = tsharp(20, D2A, 2, 2, depth=3)
img = image_of(t, 1024, lambda im: fill_pattern(im, 33, slices=4))
case(notes, "load_3d_on_2d_array", "image_load v10, v[4:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_3D", 32, t,
     (img.region.dwords(),), lambda l: [l % 2, l // 2 % 2, l // 4],
     lambda l, img=img: load_value(img, img.at([("x", l % 2), ("y", l // 2 % 2), ("layer", l // 4)]), 1),
     "[N-IMG-3D-ON-2D] image_load with DIM 3D through a 2D-array T#: z is the layer", gfx="gfx1035",
     source=NOTES)
for name, tt, third in [("resinfo_3d_on_2d", tsharp(22, D2, 12, 6, max_mip=2), lambda img: 1),
                        ("resinfo_3d_on_2d_array", tsharp(22, D2A, 12, 6, depth=4), lambda img: 5)]:
    img = Image(tt)
    case(notes, name, "image_get_resinfo v[10:13], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D", 32, tt,
         ([0] * 64,), lambda l: [l],
         lambda l, img=img, third=third: [max(12 >> min(l, 31), 1), max(6 >> min(l, 31), 1), third(img),
                                          img.last_level - img.base_level + 1],
         "[N-IMG-3D-ON-2D] image_get_resinfo with DIM 3D: (width, height, 1, levels) on a 2D T#, the layer "
         "count third on a 2D array", gfx="gfx1036", source=NOTES)
# [N-IMG-SINT] SINT stores of 8- and 16-bit components saturate the 32-bit value (gfx1035)
for fmt, name in [(61, "rgba8"), (70, "rgba16"), (19, "rg8"), (12, "r16")]:
    t = tsharp(fmt, D1, 32)
    img = image_of(t, 256, lambda im: None)
    n = len(FORMATS[fmt][1])
    dmask = {4: 0xf, 2: 0x9, 1: 0x1}[n]
    regs = {4: "v[6:9]", 2: "v[6:7]", 1: "v6"}[n]
    data = lambda l, n=n: [INT_VALS[(l + 3 * k) % 16] for k in range(n)]
    for l in range(32):
        store_texel(img, img.at([("x", l)]), dmask, data(l))
    case(notes, f"store_sint_{name}", f"image_store {regs}, v4, s[8:15] dmask:{dmask:#x} dim:SQ_RSRC_IMG_1D",
         32, t, ([0] * 64,), lambda l, data=data: [l, 0] + data(l), lambda l: [],
         "[N-IMG-SINT] SINT stores saturate each 32-bit value to the component's range", gfx="gfx1035",
         source=NOTES, mem_out=img.region.dwords())
# [N-IMG-W-SLOT] with DST_SEL X,Y,Z,W a two-channel store writes channel 1 from the W slot,
# SINT and UINT alike (gfx1035)
for fmt, name in [(18, "rg8_uint"), (28, "rg16_sint")]:
    t = tsharp(fmt, D1, 32)
    img = image_of(t, 256, lambda im: None)
    data = lambda l: [l, 0x100 + l, 0x200 + l, 0x12 + l]
    for l in range(32):
        store_texel(img, img.at([("x", l)]), 0xf, data(l))
    case(notes, f"store_w_slot_{name}", "image_store v[6:9], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D", 32, t,
         ([0] * 64,), lambda l: [l, 0] + data(l), lambda l: [],
         "[N-IMG-W-SLOT] a two-channel store with DST_SEL X,Y,Z,W takes channel 1 from the W slot",
         gfx="gfx1035", source=NOTES, mem_out=img.region.dwords())
# [N-IMG-SRGB] 8_SRGB and 8_8_SRGB loads give the sRGB transfer function rounded to nearest
# even at bf16 precision (gfx1035): every code
t = tsharp(128, D1, 256)
img = image_of(t, 256, lambda im: [im.region.put(x, x, 1) for x in range(256)])
case(notes, "load_srgb_r8", "image_load v10, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D", 64, t,
     (img.region.dwords(),), lambda l: [l],
     lambda l, img=img: load_value(img, img.at([("x", l)]), 1),
     "[N-IMG-SRGB] 8_SRGB codes 0..63: the sRGB transfer function rounded to bf16", gfx="gfx1035", source=NOTES)
t = tsharp(129, D1, 128)
img = image_of(t, 256, lambda im: [im.region.put(2 * x, (2 * x) | (2 * x + 1) << 8, 2) for x in range(128)])
case(notes, "load_srgb_rg8", "image_load v[10:11], v4, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_1D", 64, t,
     (img.region.dwords(),), lambda l: [64 + l],
     lambda l, img=img: load_value(img, img.at([("x", 64 + l)]), 3),
     "[N-IMG-SRGB] 8_8_SRGB codes 128..255 in both channels: the sRGB transfer function rounded to bf16",
     gfx="gfx1035", source=NOTES)
# [N-IMG-PCK] image_load_pck: DMASK bit i gives texel dword i, dwords past the texel read 0, _sgn
# sign-extends a texel narrower than 32 bits; image_store_pck: texel dword i from the next data
# VGPR where DMASK bit i is set, every other dword 0, the T#'s DST_SEL ignored (RDNA2)
t = tsharp(5, D1, 32, dst_sel=0x249)  # 8_UINT, DST_SEL 1,1,1,1: ignored by the raw forms
img = image_of(t, 256, lambda im: [im.region.put(x, 0x70 + 3 * x, 1) for x in range(32)])
for op, sgn in [("image_load_pck", False), ("image_load_pck_sgn", True)]:
    case(notes, f"{op[6:]}_r8", f"{op} v[10:12], v4, s[8:15] dmask:0xb dim:SQ_RSRC_IMG_1D", 32, t,
         (img.region.dwords(),), lambda l: [l],
         lambda l, sgn=sgn: [(sx(0x70 + 3 * l, 8) & 0xffffffff) if sgn else 0x70 + 3 * l, 0, 0],
         f"[N-IMG-PCK] {op} of 8_UINT with DMASK 0xb: dword 0 the texel ({'sign' if sgn else 'zero'}-extended), "
         "dwords 1 and 3 past it 0, DST_SEL ignored", source=NOTES)
t = tsharp(62, D1, 32, dst_sel=0x249)
img = image_of(t, 256, lambda im: fill_pattern(im, 41))
before = img.region.dwords()
for l in range(32):
    img.region.put(img.addr(l), 0x5000 + l, 8)
case(notes, "store_pck_rg32", "image_store_pck v6, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D", 32, t,
     (before,), lambda l: [l, 0, 0x5000 + l], lambda l: [],
     "[N-IMG-PCK] image_store_pck of 32_32_UINT with DMASK 0x1: dword 0 from the data VGPR, dword 1 written "
     "as 0, DST_SEL ignored", source=NOTES, mem_out=img.region.dwords())
# [N-IMG-TFE] TFE and LWE do not write the status VGPR after the data for resident texels
t = tsharp(20, D1, 32)
img = image_of(t, 256, lambda im: fill_pattern(im, 42))
for flag in ("tfe", "tfe lwe"):
    case(notes, f"load_{flag.replace(' ', '_')}", f"v_mov_b32 v11, 0x5a5a; image_load v[10:11], v4, s[8:15] dmask:0x1 "
         f"dim:SQ_RSRC_IMG_1D {flag}", 32, t, (img.region.dwords(),), lambda l: [l],
         lambda l, img=img: load_value(img, img.at([("x", l)]), 1) + [0x5a5a],
         f"[N-IMG-TFE] image_load with {flag}: the data as without it, the status VGPR after it unwritten",
         source=NOTES)


# ---- image atomics: the buffer atomics' operations on the texel's raw bits, lanes in order ----
A_DATA = [0, 1, 2, 7, 0xffffffff, 0x80000000, 0x7fffffff, 3, 0x12345678, 0xfffffffe, 5, 0x10, 100, 0xffff,
          0x8000, 9]
A_OLD = [5, 0, 0xffffffff, 0x80000000, 0x7fffffff, 1, 0x0f0f0f0f, 3]
INT_OPS = ["swap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec"]
GLC = lambda glc: " glc" if glc else ""
for i, op in enumerate(INT_OPS):
    for glc in (True, False):
        fmt = (20, 21, 22)[i % 3]
        t = tsharp(fmt, D1, 8)
        img = image_of(t, 256, lambda im: [im.region.put(4 * x, A_OLD[x], 4) for x in range(8)])
        before = img.region.dwords()
        xs = lambda l: l - 16 if 24 <= l < 30 else l % 8  # lanes 24..29: x 8..13, past the width
        data = lambda l, i=i: A_DATA[(7 * l + i) % 16]
        olds = atomic_wave(img, op, 32, [(img.at([("x", xs(l))]), data(l), None) for l in range(32)])
        case(hand, f"atomic_{op}{'_glc' if glc else ''}",
             f"v_mov_b32 v10, v5; image_atomic_{op} v10, v4, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm{GLC(glc)}",
             32, t, (before,), lambda l: [xs(l), data(l)],
             lambda l, olds=olds, glc=glc: [olds[l] if glc else data(l)],
             f"image_atomic_{op} on format {fmt} (32-bit, the raw dword): three or four lanes on each texel in "
             "ascending lane order, x 8..13 out of range (no write, 0 returned); "
             + ("GLC returns the old value" if glc else "without GLC the data VGPR keeps the data"),
             mem_out=img.region.dwords())
# cmpswap: DATA[0] written where the old value equals DATA[1]; a lane's compare sees the
# earlier lanes' swaps
def chain_cmp(l, first, per, wrong):
    k = l // per
    return first if k == 0 else wrong if k % 4 == 2 else 0x100 + l - (2 * per if k % 4 == 3 else per)
for glc in (True, False):
    t = tsharp(20, D1, 4)
    img = image_of(t, 256, lambda im: [im.region.put(4 * x, A_OLD[x], 4) for x in range(4)])
    before = img.region.dwords()
    xs = lambda l: 4 if l == 31 else l % 4
    cmp = lambda l: chain_cmp(l, A_OLD[l % 4], 4, 0xdead)
    olds = atomic_wave(img, "cmpswap", 32, [(img.at([("x", xs(l))]), 0x100 + l, cmp(l)) for l in range(32)])
    case(hand, f"atomic_cmpswap{'_glc' if glc else ''}",
         "v_mov_b32 v10, v5; v_mov_b32 v11, v6; "
         f"image_atomic_cmpswap v[10:11], v4, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_1D unorm{GLC(glc)}",
         32, t, (before,), lambda l: [xs(l), 0x100 + l, cmp(l)],
         lambda l, olds=olds, glc=glc: [olds[l] if glc else 0x100 + l, cmp(l)],
         "image_atomic_cmpswap (DMASK 0x3: data, compare value): eight lanes on each texel in lane order, each "
         "comparing with what the lanes before it left; x 4 is out of range; GLC returns the old value to "
         "VDATA[0], VDATA[1] keeps the compare value", mem_out=img.region.dwords())
# 64-bit atomics on 32_32 texels (DMASK 0x3, cmpswap 0xf)
D64 = [0, 1, 0xffffffff, 1 << 32, (1 << 64) - 1, 1 << 63, (1 << 63) - 1, 0x1ffffffff, 0x123456789abcdef0, 5,
       0xfffffffe00000000, 0x80000000]
lo, hi = (lambda v: v & 0xffffffff), (lambda v: v >> 32)
xy64 = lambda l: (l % 4, 2) if 24 <= l < 28 else (l % 4, l // 4 % 2)  # lanes 24..27: y 2, out of range
for i, op in enumerate(INT_OPS[:10] + ["cmpswap"]):
    for glc in (True, False):
        fmt = (62, 63, 64)[i % 3]
        t = tsharp(fmt, D2, 4, 2)
        img = image_of(t, 512, lambda im, i=i: fill_pattern(im, 50 + i))
        before = img.region.dwords()
        data = lambda l, i=i: D64[(5 * l + i) % 12]
        addr = lambda l, img=img: img.at([("x", xy64(l)[0]), ("y", xy64(l)[1])])
        if op == "cmpswap":
            firsts = {}
            for l in range(8):
                a = addr(l)
                firsts[l] = img.region.get(a, 8)
            cmp = lambda l, firsts=firsts: (firsts[l] if l < 8 else
                                            chain_cmp(l, 0, 8, 0xdead) - 0x100 + data(l - 8) - l + 8
                                            if (l // 8) % 4 != 2 else 0xdead)
            cmp = lambda l, firsts=firsts: firsts[l] if l < 8 else (0xdead if l // 8 == 2 else data(l - 8))
            olds = atomic_wave(img, op, 64, [(addr(l), data(l), cmp(l)) for l in range(32)])
            body = ("v_mov_b32 v10, v6; v_mov_b32 v11, v7; v_mov_b32 v12, v8; v_mov_b32 v13, v9; "
                    f"image_atomic_cmpswap v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm{GLC(glc)}")
            ins = lambda l, data=data, cmp=cmp: [*xy64(l), lo(data(l)), hi(data(l)), lo(cmp(l)), hi(cmp(l))]
            outs = lambda l, olds=olds, glc=glc, data=data, cmp=cmp: (
                [lo(olds[l]), hi(olds[l])] if glc else [lo(data(l)), hi(data(l))]) + [lo(cmp(l)), hi(cmp(l))]
            what = ("DMASK 0xf: data in VDATA[0:1], the compare value in VDATA[2:3]; a lane swaps where the "
                    "lane eight before it left its compare value")
        else:
            olds = atomic_wave(img, op, 64, [(addr(l), data(l), None) for l in range(32)])
            body = ("v_mov_b32 v10, v6; v_mov_b32 v11, v7; "
                    f"image_atomic_{op} v[10:11], v[4:5], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm{GLC(glc)}")
            ins = lambda l, data=data: [*xy64(l), lo(data(l)), hi(data(l))]
            outs = lambda l, olds=olds, glc=glc, data=data: (
                [lo(olds[l]), hi(olds[l])] if glc else [lo(data(l)), hi(data(l))])
            what = "DMASK 0x3: the 64-bit data in VDATA[0:1]"
        case(hand, f"atomic64_{op}{'_glc' if glc else ''}", body, 32, t, (before,), ins, outs,
             f"64-bit image_atomic_{op} on format {fmt} (32_32, the raw qword): {what}; four lanes on each texel "
             "in lane order, y 2 out of range; " + ("GLC returns the old value to VDATA[0:1]" if glc else
                                                   "without GLC the data VGPRs keep their values"),
             mem_out=img.region.dwords())
# float atomics by the float atomics rule (flush by denorm32 bit 0), each lane its own texel for
# lanes 0..15 and lanes 16..31 all on texel 16
FP_OLD = [0, 0x80000000, 0x3f800000, 0x7fc00000, 0x7f800001, 0x00000001, 0x80000001, 0xff800000, 0x7f800000,
          0x3f800000, 0xffc00123, 0x40000000, 0xbf800000, 0x00400000, 0x7fa00000, 0x12345678]
FP_DATA = [0x80000000, 0, 0x7fc00000, 0x3f800000, 0x3f800000, 0x80000000, 0x00000001, 0x7f800000, 0xff800001,
           0x7f800001, 0x40000000, 0xffc00000, 0x80400000, 0x00000002, 0x3f000000, 0x12345679]
FP_CONT = [0x40000000, 0x3f000000, 0xbf800000, 0x7fc00000, 0x00000003, 0x80000000, 0, 0xc0400000, 0x7f800001,
           0x3f800000, 0xff800000, 0x3e800000, 0x80000005, 0x7f800000, 0x41000000, 0x3f800000]
fx = lambda l: l if l < 16 else 16
fdata = lambda l: FP_DATA[l] if l < 16 else FP_CONT[l - 16]
FCAS_CMP = [0x80000000, 0x80000000, 0x3f800000, 0x7fc00000, 0x7f800001, 0, 0x80000000, 0xff800000, 0x7f800000,
            0x3f800001, 0xffc00123, 0x40000000, 0xbf800000, 0x00400000, 0x7fa00000, 0x12345678]
fcmp = lambda l: FCAS_CMP[l] if l < 16 else [0x3f800000, 0x40400000, 0x40400000][l % 3]
for op, denorm32, glc in [("fmin", 0, True), ("fmin", 3, True), ("fmax", 0, True), ("fmax", 3, True),
                          ("fmax", 3, False), ("fcmpswap", 0, True), ("fcmpswap", 3, True)]:
    t = tsharp(22, D1, 17)
    img = image_of(t, 256, lambda im: [im.region.put(4 * x, (FP_OLD + [0x3f800000])[x], 4) for x in range(17)])
    before = img.region.dwords()
    flush = denorm32 & 1 == 0
    cas = op == "fcmpswap"
    fd = (lambda l: 0x40400000 + (l << 4)) if cas else fdata
    olds = atomic_wave(img, op, 32, [(img.at([("x", fx(l))]), fd(l), fcmp(l) if cas else None) for l in range(32)],
                       flush)
    body = ("v_mov_b32 v10, v5; v_mov_b32 v11, v6; " if cas else "v_mov_b32 v10, v5; ") + \
        f"image_atomic_{op} {'v[10:11]' if cas else 'v10'}, v4, s[8:15] dmask:{'0x3' if cas else '0x1'} " \
        f"dim:SQ_RSRC_IMG_1D unorm{GLC(glc)}"
    case(hand, f"atomic_{op}_d{denorm32}{'_glc' if glc else ''}", body, 32, t, (before,),
         lambda l, fd=fd, cas=cas: [fx(l), fd(l)] + ([fcmp(l)] if cas else []),
         lambda l, olds=olds, glc=glc, fd=fd, cas=cas: [olds[l] if glc else fd(l)] + ([fcmp(l)] if cas else []),
         f"image_atomic_{op} on 32_FLOAT by the float atomics rule with denorm32 {denorm32} "
         f"({'denormals flushed' if flush else 'denormals kept'}): lanes 0..15 each on their own texel, "
         "16..31 on texel 16 in lane order", mem_out=img.region.dwords(), mode={"denorm32": denorm32})
# an atomic through a 2D array: the layer addresses as for loads
t = tsharp(20, D2A, 2, 2, depth=2, base_array=1)
img = image_of(t, 2048, lambda im: fill_pattern(im, 60, slices=3))
before = img.region.dwords()
co = lambda l: [l % 2, l // 2 % 2, l // 4 % 4]
olds = atomic_wave(img, "add", 32, [(img.at([("x", co(l)[0]), ("y", co(l)[1]), ("layer", co(l)[2])]), 1 + l, None)
                                    for l in range(32)])
case(hand, "atomic_add_2d_array", "v_mov_b32 v10, v7; image_atomic_add v10, v[4:6], s[8:15] dmask:0x1 "
     "dim:SQ_RSRC_IMG_2D_ARRAY unorm glc", 32, t, (before,), lambda l: co(l) + [1 + l],
     lambda l, olds=olds: [olds[l]],
     "image_atomic_add through a 2D-array T# (BASE_ARRAY 1, DEPTH 2): layers 0 and 1 are slices 1 and 2, "
     "layers 2 and 3 out of range; two lanes on each texel", mem_out=img.region.dwords())

# ---- BY and PCK2/PCK4 loads (measured forms: 2D, identity DST_SEL) ------------------------------
SENTINEL = "v_mov_b32 v10, 0x5a5a; v_mov_b32 v11, 0x5a5a; v_mov_b32 v12, 0x5a5a; v_mov_b32 v13, 0x5a5a; "
REGS = {1: "v10", 2: "v[10:11]", 3: "v[10:12]", 4: "v[10:13]"}
gx = lambda l: [0xfffffffe, 0xffffffff, 0x7fffffff, 0xfffffffd][l - 60] if l >= 60 else l % 12
gy = lambda l: 0 if l >= 60 else l // 12
def group_wave(rows, wid, op, fmt, n, dmask, note, converted, gfx="gfx1030", source=HAND, seed=70):
    t = tsharp(fmt, D2, 8, 4)
    img = image_of(t, 2048, lambda im: fill_pattern(im, seed + fmt))
    k = bin(dmask).count("1")
    case(rows, wid, SENTINEL + f"{op} {REGS[k]}, v[4:5], s[8:15] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D", 64, t,
         (img.region.dwords(),), lambda l: [gx(l), gy(l)],
         lambda l, img=img: (lambda r: r + [0x5a5a] * (4 - len(r)))(
             group_load(img, n, gx(l), gy(l), converted=converted, dmask=dmask)),
         note, gfx=gfx, source=source)
for name, fmt, n, dmask in [("by2_r8_unorm", 1, 2, 0x3), ("by2_r8_snorm", 2, 2, 0x3), ("by2_r16_unorm", 7, 2, 0x3),
                            ("by2_r16_float", 13, 2, 0x3), ("by2_rg8_unorm", 14, 2, 0xf),
                            ("by2_rg8_sint", 19, 2, 0xf), ("by2_r8_srgb", 128, 2, 0x3), ("by4_r8_uint", 5, 4, 0xf),
                            ("by4_r8_unorm", 1, 4, 0xf), ("by2_r32_uint", 20, 2, 0x3),
                            ("by2_rgba8_unorm", 56, 2, 0xf), ("by4_r16_unorm", 7, 4, 0xf),
                            ("by4_rg8_unorm", 14, 4, 0xf)]:
    fits = n * FORMATS[fmt][0] <= 4
    group_wave(hand, f"load_{name}", f"image_load_by{n}", fmt, n, dmask,
               f"image_load_by{n} of format {fmt}: " + (
                   f"{n} texels from x & ~{n - 1}, each converted as image_load converts it, zeros where x + {n - 1} "
                   "is past the width (x 7..11 and the unsigned x near 2^32) or y past the height"
                   if fits else f"{n} texels do not fit one dword: zeros") + "; VGPRs past DMASK keep 0x5a5a",
               True)
for name, fmt, n, dmask in [("pck2_r8_uint", 5, 2, 0x1), ("pck2_r8_sint", 6, 2, 0x1), ("pck2_r16_unorm", 7, 2, 0x1),
                            ("pck2_rg8_uint", 18, 2, 0x1), ("pck4_r8_unorm", 1, 4, 0x1),
                            ("pck2_rgba8_unorm", 56, 2, 0x1), ("pck2_r32_uint", 20, 2, 0x1),
                            ("pck4_r16_unorm", 7, 4, 0x1), ("pck2_r8_dmask3", 5, 2, 0x3),
                            ("pck4_r8_dmaskf", 1, 4, 0xf)]:
    group_wave(hand, f"load_{name}", f"image_load_pck{n}", fmt, n, dmask,
               f"image_load_pck{n} of format {fmt} with DMASK {dmask:#x}: the raw bits of {n} texels from "
               f"x & ~{n - 1} in one dword (texel k at bit k * texel bits) where they fit and DMASK is 0x1, zeros "
               "otherwise and out of range", False)
# the _mip forms: level BASE_LEVEL + mip, zeros past LAST_LEVEL
for op, fmt, n, dmask, conv in [("image_load_mip_by2", 1, 2, 0x3, True), ("image_load_mip_by4", 5, 4, 0xf, True),
                                ("image_load_mip_pck2", 7, 2, 0x1, False), ("image_load_mip_pck4", 5, 4, 0x1, False)]:
    t = tsharp(fmt, D2, 8, 8, max_mip=3, base_level=1, last_level=2)
    img = image_of(t, 8192, lambda im: fill_pattern(im, 80 + fmt))
    mx = lambda l: [l % 8, l // 8 % 2, l // 16]
    k = bin(dmask).count("1")
    case(hand, f"load_{op[6:]}", SENTINEL + f"{op} {REGS[k]}, v[4:6], s[8:15] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D",
         64, t, (img.region.dwords(),), mx,
         lambda l, img=img, n=n, conv=conv, dmask=dmask: (lambda r: r + [0x5a5a] * (4 - len(r)))(
             group_load(img, n, mx(l)[0], mx(l)[1], mx(l)[2], conv, dmask)),
         f"{op} of format {fmt}, BASE_LEVEL 1 and LAST_LEVEL 2 of 4 levels: mip m reads level 1 + m (4 x 4, "
         "then 2 x 2), mips 2 and 3 are past LAST_LEVEL: zeros")

# ---- image_gather4h_pck and image_gather8h_pck ---------------------------------------------------
GU = [f32(Fraction(k, 14)) for k in (0, 1, 2, 3, 6, 7, 8, 13, 14)] + [
    f32(Fraction(-1, 10)), f32(Fraction(3, 2)), 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x3effffff]
GV = [f32(Fraction(-1, 5)), f32(Fraction(1, 2)), f32(Fraction(5, 6)), 0x3f800000]
GV2 = [0, 0x80000000, f32(Fraction(1, 3)), 0x3f7fffff]
def gather_wave(rows, wid, fmt, dmask, note, vs=GV, w=7, h=3, gfx="gfx1030", source=HAND, seed=90,
                op="image_gather4h_pck", model=gather4h_pck):
    t = tsharp(fmt, D2, w, h)
    img = image_of(t, 4096, lambda im: fill_pattern(im, seed + fmt))
    case(rows, wid, SENTINEL + f"{op} v[10:13], v[4:5], s[8:15], s[0:3] dmask:{dmask:#x} "
         "dim:SQ_RSRC_IMG_2D", 64, t, (img.region.dwords(),), lambda l: [GU[l % 16], vs[l // 16]],
         lambda l, img=img: (lambda r: r + [0x5a5a] * (4 - len(r)))(model(img, GU[l % 16], vs[l // 16], dmask)),
         note, gfx=gfx, source=source)
for name, fmt, dmask, vs in [("r8_uint", 5, 0x1, GV), ("r8_uint_rows", 5, 0x1, GV2), ("r8_dmask3", 5, 0x3, GV),
                             ("rg8_uint", 18, 0x3, GV), ("r16_unorm", 7, 0x3, GV), ("rgba8_uint", 60, 0xf, GV),
                             ("rgba8_dmask5", 60, 0x5, GV), ("rgba8_dmaska", 60, 0xa, GV),
                             ("rg16_uint", 27, 0xf, GV), ("r32_float", 22, 0xf, GV2), ("rg32_uint", 62, 0xf, GV),
                             ("rgba16_float", 71, 0x3, GV)]:
    gather_wave(hand, f"gather4h_pck_{name}", fmt, dmask,
                f"image_gather4h_pck of format {fmt} with DMASK {dmask:#x} on a 7 x 3 image: columns "
                "floor(f32(f32(u * 7) - 0.5)) + (-1, 0, 1, 2) clamped, row floor(f32(v * 3)) (negative: 0, 3: "
                "zeros), the raw texels a little-endian stream, DMASK bit i giving stream word i to the next VGPR "
                "(0 past the stream); NaN coordinates read as 0; texels over 32 bits give zeros", vs)
# image_gather4h: not measured; the model's choice (rule image-gather-pck): the pck form's window,
# each texel's DMASK component converted as a load converts it
for name, fmt, dmask, vs in [("r8_unorm", 1, 0x1, GV), ("r8_unorm_rows", 1, 0x1, GV2),
                             ("rgba8_unorm_y", 56, 0x2, GV), ("rgba8_snorm_w", 57, 0x8, GV),
                             ("r32_float", 22, 0x1, GV2), ("rgba16_float_z", 71, 0x4, GV),
                             ("rg32_uint_y", 62, 0x2, GV)]:
    gather_wave(hand, f"gather4h_{name}", fmt, dmask,
                f"image_gather4h of format {fmt} with DMASK {dmask:#x} on a 7 x 3 image (not measured: the model's "
                "choice): image_gather4h_pck's window (columns floor(f32(f32(u * 7) - 0.5)) + (-1, 0, 1, 2) clamped, "
                "row floor(f32(v * 3)), negative: 0, 3: zeros), each texel's DMASK component converted as a load "
                "converts it, texel k in VGPR k", vs, op="image_gather4h", model=gather4h)
t = tsharp(56, D2, 4, 4)
case(hand, "gather8h_pck", SENTINEL + "image_gather8h_pck v[10:12], v[4:5], s[8:15] dmask:0x7 dim:SQ_RSRC_IMG_2D", 32,
     t, (image_of(t, 1024, lambda im: fill_pattern(im, 99)).region.dwords(),), lambda l: [l % 4, l // 4],
     lambda l: [0, 0, 0, 0x5a5a], "image_gather8h_pck with DMASK 0x7: zeros in three VGPRs, the fourth keeps 0x5a5a")

# ---- the reference notes' measured statements (atomics, group loads, packed gathers) -------------

# [N-IMG-BY] BY2/BY4 loads (gfx1035, 2D, identity swizzle): N texels from x & ~(N - 1) on row y,
# converted like image_load; zero past the last level, x + N - 1 past the width (unaligned x,
# unsigned) or y past the height; data only for R8 and R16 (DMASK 0x3) or RG8 (0xf) by 2 and
# R8 (0xf) by 4; 32-bit texels (R32, RG32, RG16, RGBA8) return zeros
for name, fmt, n, dmask in [("by2_r8", 1, 2, 0x3), ("by2_r16", 7, 2, 0x3), ("by2_rg8", 14, 2, 0xf),
                            ("by4_r8", 1, 4, 0xf), ("by2_r32", 20, 2, 0x3), ("by2_rg32", 62, 2, 0xf),
                            ("by2_rg16", 23, 2, 0xf), ("by2_rgba8", 56, 2, 0xf)]:
    group_wave(notes, f"load_{name}", f"image_load_by{n}", fmt, n, dmask,
               f"[N-IMG-BY] image_load_by{n} of format {fmt} (2D, identity DST_SEL): texels from the aligned x, "
               "zeros where x + N - 1 is past the width (unsigned) or y past the height, and for 32-bit texels",
               True, gfx="gfx1035", source=NOTES, seed=110)
t = tsharp(1, D2, 8, 8, max_mip=1)
img = image_of(t, 4096, lambda im: fill_pattern(im, 120))
mx = lambda l: [l % 8, l // 8 % 2, l // 16]
case(notes, "load_mip_by4_levels", SENTINEL + "image_load_mip_by4 v[10:13], v[4:6], s[8:15] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D", 64, t, (img.region.dwords(),), mx,
     lambda l: group_load(img, 4, *mx(l), converted=True, dmask=0xf),
     "[N-IMG-BY] image_load_mip_by4 of 8_UNORM with 2 levels: mips 2 and 3 are past the last level: zeros",
     gfx="gfx1035", source=NOTES)
# [N-IMG-PCK2] PCK2/PCK4 loads (gfx1035, 2D, identity swizzle): with DMASK 0x1 one dword, the raw
# bits of N texels from x & ~(N - 1) (texel k at bit k * texel bits), zero-extended; zero out of
# range as the BY loads; data only for R8, R16, RG8 (PCK2) and R8 (PCK4) in UNORM, UINT, SINT;
# wider texels (R32, RG16, RGBA8) and masks other than 0x1 (0x3, 0xf) write zeros
for name, fmt, n, dmask in [("pck2_r8_unorm", 1, 2, 0x1), ("pck2_r8_sint", 6, 2, 0x1), ("pck2_r16_uint", 11, 2, 0x1),
                            ("pck2_rg8_unorm", 14, 2, 0x1), ("pck4_r8_uint", 5, 4, 0x1),
                            ("pck2_r32", 20, 2, 0x1), ("pck2_rg16", 23, 2, 0x1), ("pck2_rgba8", 56, 2, 0x1),
                            ("pck2_r8_dmask3", 1, 2, 0x3), ("pck4_r8_dmaskf", 1, 4, 0xf)]:
    group_wave(notes, f"load_{name}", f"image_load_pck{n}", fmt, n, dmask,
               f"[N-IMG-PCK2] image_load_pck{n} of format {fmt} with DMASK {dmask:#x}: the N texels' raw bits in one "
               "dword where they fit in 32 bits and DMASK is 0x1, zeros otherwise and out of range", False,
               gfx="gfx1035", source=NOTES, seed=130)
t = tsharp(14, D2, 8, 8, max_mip=1)
img = image_of(t, 4096, lambda im: fill_pattern(im, 140))
case(notes, "load_mip_pck2_levels", SENTINEL + "image_load_mip_pck2 v10, v[4:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D",
     64, t, (img.region.dwords(),), mx,
     lambda l: group_load(img, 2, *mx(l), converted=False, dmask=1) + [0x5a5a] * 3,
     "[N-IMG-PCK2] image_load_mip_pck2 of 8_8_UNORM with 2 levels: mips 2 and 3 are past the last level: zeros",
     gfx="gfx1035", source=NOTES)
# [N-IMG-GATHER4H-PCK] image_gather4h_pck (gfx1031): the window floor(u * W - 0.5) + (-1, 0, +1,
# +2) clamped into the width, row floor(v * H), negative rows row 0, rows at or past the height
# zeros, the raw texels a little-endian bit stream, DMASK bit i stream word i to the next VGPR,
# texels over 32 bits zeros; measured for R8_UNORM, RG8_UNORM and RGBA8 (the masks from bit 0,
# where bit position and rank agree)
for name, fmt, dmask, vs in [("r8_unorm", 1, 0x1, GV), ("r8_unorm_rows", 1, 0x1, GV2), ("rg8_unorm", 14, 0x3, GV),
                             ("rgba8_unorm", 56, 0xf, GV), ("rgba8_unorm_rows", 56, 0xf, GV2),
                             ("rgba16_unorm", 65, 0xf, GV), ("rgba32_float", 77, 0xf, GV)]:
    gather_wave(notes, f"gather4h_pck_{name}", fmt, dmask,
                f"[N-IMG-GATHER4H-PCK] image_gather4h_pck of format {fmt} with DMASK {dmask:#x}: the clamped window "
                "of the row at every edge, the raw texels as a little-endian stream; texels over 32 bits write "
                "zeros", vs, w=6, h=4, gfx="gfx1031", source=NOTES, seed=150)
# [N-IMG-GATHER8H-PCK] image_gather8h_pck (gfx1031) zero-fills popcount(DMASK) VGPRs over
# sentinel-prefilled ones, for RGBA8, RGBA16 and RGBA32, 1D, 2D and 3D T#s
for name, fmt, ty, dim, regs, dmask in [("rgba8_2d", 56, D2, "2D", "v[10:13]", 0xf), ("rgba16_1d", 65, D1, "1D", "v10", 0x1),
                                         ("rgba32_3d", 77, D3, "3D", "v[10:11]", 0x5), ("rgba8_3d", 56, D3, "3D", "v[10:12]", 0xe)]:
    t = tsharp(fmt, ty, 4, 4 if ty != D1 else 1, depth=3 if ty == D3 else 0)
    addr = {"1D": "v4", "2D": "v[4:5]", "3D": "v[4:6]"}[dim]
    k = bin(dmask).count("1")
    case(notes, f"gather8h_pck_{name}", SENTINEL + f"image_gather8h_pck {regs}, {addr}, s[8:15] dmask:{dmask:#x} "
         f"dim:SQ_RSRC_IMG_{dim}", 32, t, (image_of(t, 4096, lambda im: fill_pattern(im, 160)).region.dwords(),),
         lambda l: [l % 4, l // 4 % 4, l // 16], lambda l, k=k: [0] * k + [0x5a5a] * (4 - k),
         f"[N-IMG-GATHER8H-PCK] image_gather8h_pck of format {fmt} on a {dim} T# with DMASK {dmask:#x}: zeros in "
         "popcount(DMASK) VGPRs, the others keep 0x5a5a", gfx="gfx1031", source=NOTES)
# [N-IMG-ATOMIC-RAW] image atomics on 32_SINT and 32_FLOAT act on the raw dword (as on 32_UINT):
# an integer add of float bits, a signed min of float bits, a swap of a NaN
for op, fmt in [("add", 22), ("smin", 22), ("umax", 21), ("swap", 22), ("xor", 21)]:
    t = tsharp(fmt, D1, 8)
    img = image_of(t, 256, lambda im: [im.region.put(4 * x, FP_OLD[x], 4) for x in range(8)])
    before = img.region.dwords()
    data = lambda l: FP_DATA[l % 16]
    olds = atomic_wave(img, op, 32, [(img.at([("x", l % 8)]), data(l), None) for l in range(32)])
    case(notes, f"atomic_raw_{op}_{fmt}", f"v_mov_b32 v10, v5; image_atomic_{op} v10, v4, s[8:15] dmask:0x1 "
         "dim:SQ_RSRC_IMG_1D unorm glc", 32, t, (before,), lambda l: [l % 8, data(l)],
         lambda l, olds=olds: [olds[l]],
         f"[N-IMG-ATOMIC-RAW] image_atomic_{op} on format {fmt}: the integer operation on the texel's raw dword, "
         "four lanes on each texel in lane order, GLC returns the old value", source=NOTES,
         mem_out=img.region.dwords())
# [N-IMG-ATOMIC64] 64-bit image atomics (a two-dword data mask) act on 32_32 UINT, SINT and FLOAT
# texels as raw qwords
for op, fmt in [("add", 62), ("smax", 63), ("umin", 64), ("cmpswap", 64)]:
    t = tsharp(fmt, D1, 8)
    img = image_of(t, 256, lambda im: fill_pattern(im, 170))
    before = img.region.dwords()
    data = lambda l: D64[l % 12]
    cmpv = lambda l, img=img: img.region.get(img.addr(l % 8), 8) if l < 8 else 0xdead
    if op == "cmpswap":
        cm = [cmpv(l) for l in range(8)] + [data(l - 8) if l < 16 else 0xdead for l in range(8, 32)]
        olds = atomic_wave(img, op, 64, [(img.at([("x", l % 8)]), data(l), cm[l]) for l in range(32)])
        body = ("v_mov_b32 v10, v6; v_mov_b32 v11, v7; v_mov_b32 v12, v8; v_mov_b32 v13, v9; "
                "image_atomic_cmpswap v[10:13], v4, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_1D unorm glc")
        ins = lambda l, cm=cm: [l % 8, 0, lo(data(l)), hi(data(l)), lo(cm[l]), hi(cm[l])]
        outs = lambda l, olds=olds, cm=cm: [lo(olds[l]), hi(olds[l]), lo(cm[l]), hi(cm[l])]
    else:
        olds = atomic_wave(img, op, 64, [(img.at([("x", l % 8)]), data(l), None) for l in range(32)])
        body = ("v_mov_b32 v10, v6; v_mov_b32 v11, v7; "
                f"image_atomic_{op} v[10:11], v4, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_1D unorm glc")
        ins = lambda l: [l % 8, 0, lo(data(l)), hi(data(l))]
        outs = lambda l, olds=olds: [lo(olds[l]), hi(olds[l])]
    case(notes, f"atomic64_{op}_{fmt}", body, 32, t, (before,), ins, outs,
         f"[N-IMG-ATOMIC64] 64-bit image_atomic_{op} on format {fmt} (32_32): the operation on the raw qword, "
         "four lanes on each texel in lane order, GLC returns the old qword", source=NOTES,
         mem_out=img.region.dwords())
# [N-IMG-FLOAT-ATOMIC] image_atomic_fmin/fmax/fcmpswap use the float atomics' bit rule (the LDS
# float atomics entry, measured on gfx1036 over 14 x 14 operands, IEEE 0 and 1, denormal field
# 0..3: flush by bit 0, sNaN data, sNaN old, qNaN old, qNaN data, then -0 below +0)
FSET = [0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x7fc00000,
        0xffc00001, 0x7f800001, 0xffa00005, 0x40490fdb, 0xc0000000]
PAIRS = [(o, d) for o in FSET for d in FSET]
for op, denorm32, ieee in [("fmin", 0, 0), ("fmin", 1, 1), ("fmin", 2, 0), ("fmin", 3, 1), ("fmax", 0, 1),
                           ("fmax", 3, 0), ("fcmpswap", 0, 0), ("fcmpswap", 3, 1)]:
    flush = denorm32 & 1 == 0
    cas = op == "fcmpswap"
    for part in range(4):
        lanes = PAIRS[64 * part:64 * part + 64]
        n = len(lanes)
        t = tsharp(22, D1, 64)
        img = image_of(t, 256, lambda im: [im.region.put(4 * x, lanes[x][0], 4) for x in range(n)])
        before = img.region.dwords()
        ld = (lambda l: 0x40400000 + l) if cas else (lambda l: lanes[l][1] if l < n else 0)
        lc = lambda l: lanes[l][1] if l < n else 0
        olds = atomic_wave(img, op, 32, [(img.at([("x", l)]), ld(l), lc(l) if cas else None) for l in range(n)],
                           flush)
        body = ("v_mov_b32 v10, v5; v_mov_b32 v11, v6; " if cas else "v_mov_b32 v10, v5; ") + \
            f"image_atomic_{op} {'v[10:11]' if cas else 'v10'}, v4, s[8:15] dmask:{'0x3' if cas else '0x1'} " \
            "dim:SQ_RSRC_IMG_1D unorm glc"
        case(notes, f"atomic_{op}_d{denorm32}_{part}", body, 64, t, (before,),
             lambda l, ld=ld, lc=lc, cas=cas: [l, ld(l)] + ([lc(l)] if cas else []),
             lambda l, olds=olds, n=n, ld=ld, lc=lc, cas=cas: ([olds[l]] + ([lc(l)] if cas else [])) if l < n else [],
             f"[N-IMG-FLOAT-ATOMIC] image_atomic_{op} on 32_FLOAT with denorm32 {denorm32}, IEEE {ieee}: the float "
             "atomics bit rule over the notes' operand kinds" + (" (the compare value in VDATA[1])" if cas else "")
             + f", part {part + 1} of 4 of the 14 x 14 pairs", source=NOTES, mem_out=img.region.dwords(),
             exec_in=(1 << n) - 1, mode={"ieee": ieee, "denorm32": denorm32})


write(sys.argv[1], hand,
      "scripts/image-fixtures.py: expected values worked out from the image rules; encodings from "
      "llvm-mc-19 -mcpu=gfx1030", {},
      "Not measured on hardware: the linear layout follows the gfx10 address library, the conversions "
      "the buffer formats' rules; each wave's note names what it shows.", "hand-computed")
write(sys.argv[2], notes,
      "scripts/image-fixtures.py: expected values worked out from the reference notes' image statements; "
      "encodings from llvm-mc-19 -mcpu=gfx1030",
      {"[N-IMG-2D-ON-1D]": "2D image_store and mip-less image_load through a 1D T# address texel x and ignore "
                           "y (notes, measured on gfx1035 and gfx1036)",
       "[N-IMG-3D-ON-2D]": "DIM 3D through a 2D T#: (x, y) when z is 0, zero otherwise; through a 2D-array "
                           "T# z is the layer; image_get_resinfo (w, h, 1, levels) and the layer count "
                           "(notes, measured on gfx1036 and gfx1035)",
       "[N-IMG-SINT]": "SINT image stores of 8- and 16-bit components saturate (notes, measured on gfx1035)",
       "[N-IMG-W-SLOT]": "a two-channel image store with DST_SEL X,Y,Z,W takes channel 1 from the W slot "
                         "(notes, measured on gfx1035)",
       "[N-IMG-SRGB]": "8_SRGB and 8_8_SRGB loads: the sRGB transfer function rounded to nearest even at "
                       "bf16 precision (notes, measured on gfx1035)",
       "[N-IMG-PCK]": "image_load_pck(_sgn) and image_store_pck move raw texel dwords by DMASK bit, 0 for "
                      "dwords past the texel or left out, sign-extension for _sgn, DST_SEL ignored (commit "
                      "notes, measured on RDNA2)",
       "[N-IMG-TFE]": "TFE and LWE write no status VGPR for a resident texel (notes)",
       "[N-IMG-BY]": "BY2/BY4 loads: N texels from the aligned x converted, the unaligned bounds check, data only "
                     "where N texels fit one dword (notes, measured on gfx1035)",
       "[N-IMG-PCK2]": "PCK2/PCK4 loads: the raw bits of N texels in one dword with DMASK 0x1, zeros for wider "
                       "texels and other masks (notes, measured on gfx1035)",
       "[N-IMG-GATHER4H-PCK]": "image_gather4h_pck: the clamped four-texel window of the row as a little-endian bit "
                               "stream, zeros past the height and for texels over 32 bits (notes, measured on "
                               "gfx1031)",
       "[N-IMG-GATHER8H-PCK]": "image_gather8h_pck zero-fills popcount(DMASK) VGPRs (notes, measured on gfx1031)",
       "[N-IMG-ATOMIC-RAW]": "image atomics on 32_SINT and 32_FLOAT act on the raw dword as on 32_UINT (notes)",
       "[N-IMG-ATOMIC64]": "64-bit image atomics act on 32_32 UINT, SINT and FLOAT texels as raw qwords (notes)",
       "[N-IMG-FLOAT-ATOMIC]": "image float atomics use the float atomics bit rule of the LDS float atomics "
                               "(notes and commit notes; the bit rule measured on gfx1036 for the LDS forms)"},
      "Not measured here: each wave's note names the statement it follows; the texel layout around it "
      "is the linear layout of docs/dataset-format.md. Rows of a gfx the notes name carry it, the "
      "others gfx1030.", "none: rows written from statements of the reference notes, not captured")
