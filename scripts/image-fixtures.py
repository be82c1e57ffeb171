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
       "[N-IMG-TFE]": "TFE and LWE write no status VGPR for a resident texel (notes)"},
      "Not measured here: each wave's note names the statement it follows; the texel layout around it "
      "is the linear layout of docs/dataset-format.md. Rows of a gfx the notes name carry it, the "
      "others gfx1030.", "none: rows written from statements of the reference notes, not captured")
