"""Shared pieces of the image fixture generators (scripts/image-fixtures.py and the sampler
fixtures): llvm-mc-19 encodings, exact float rounding, the image formats' conversions, the T#
and its linear layout (the gfx10 address library's), the wave rows and the dataset writer.
Nothing here is a hardware capture: the rules are those of docs/dataset-format.md (Images)."""
import hashlib, json, math, struct, subprocess, sys
from fractions import Fraction

V1 = ("instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,"
      + ",".join(f"in{i}" for i in range(6)) + "," + ",".join(f"out{i}" for i in range(16))
      + ",gfx,source,note")
WAVE = "wave_id,lane,exec_in,s_in,mem_in,mem_bytes,s_out,mem_out"
HAND = "hand-computed from the image rules of docs/dataset-format.md (Images)"
NOTES = "rdnaprobe datasets/notes/image_notes.csv: written from ../reference notes (see note)"
# the T# (in s[8:15], which the HIP wave kernel loads) is relocated first: s[8:9] += s[16:17] >> 8
PRE = "s_lshr_b64 s[40:41], s[16:17], 8; s_add_u32 s8, s8, s40; s_addc_u32 s9, s9, s41"


# The MIMG opcodes LLVM does not know, in the project's spelling: the LLVM instruction of the
# same operand layout that stands in for the encoding, and the opcode written over its own
# (word0 bits 24:18; all are below 0x80, so OPM, bit 0, stays 0). A gather stand-in takes one
# DMASK bit in LLVM: its DMASK (word0 bits 11:8) is written over too.
STAND_INS = {
    "image_load_by2": ("image_load", 0x42), "image_load_by4": ("image_load", 0x43),
    "image_load_mip_by2": ("image_load_mip", 0x4a), "image_load_mip_by4": ("image_load_mip", 0x4b),
    "image_load_pck2": ("image_load", 0x70), "image_load_pck4": ("image_load", 0x71),
    "image_load_mip_pck2": ("image_load_mip", 0x73), "image_load_mip_pck4": ("image_load_mip", 0x74),
    "image_gather4h_pck": ("image_gather4h", 0x62), "image_gather8h_pck": ("image_load", 0x63),
}


def encode(text):
    """The body's words, one llvm-mc-19 run per instruction."""
    words = []
    for inst in text.split("; "):
        mnemonic = inst.split(" ")[0]
        patch = STAND_INS.get(mnemonic)
        dmask = None
        if patch:
            inst = patch[0] + inst[len(mnemonic):]
            if patch[0] == "image_gather4h":
                dmask = int(inst.split("dmask:")[1].split(" ")[0], 16)
                inst = inst.replace(f"dmask:{dmask:#x}", "dmask:0x1")
        out = subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"],
                             input=inst, capture_output=True, text=True, check=True).stdout
        enc = out.split("encoding: [")[1].split("]")[0].split(",")
        b = [int(x, 16) for x in enc]
        ws = [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24 for i in range(0, len(b), 4)]
        if patch:
            ws[0] = ws[0] & ~(0x7f << 18) | patch[1] << 18
            if dmask is not None:
                ws[0] = ws[0] & ~0xf00 | dmask << 8
        words += ws
    return " ".join(f"0x{w:08x}" for w in words)


def dw(xs):
    return " ".join(f"0x{x:08x}" for x in xs)


# ---- numbers ----------------------------------------------------------------------------------

def round_frac(q, mbits, ebits):
    """The float (mbits fraction bits, ebits exponent bits) nearest to q, ties to even."""
    sign = 1 if q < 0 else 0
    q = abs(q)
    if q == 0:
        return sign << (mbits + ebits)
    bias = (1 << (ebits - 1)) - 1
    e = q.numerator.bit_length() - q.denominator.bit_length()
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    e = max(e, 1 - bias)
    scaled = q / Fraction(2) ** (e - mbits)
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m & 1):
        m += 1
    if m >= 1 << (mbits + 1):
        m >>= 1
        e += 1
    biased = e + bias if m >= 1 << mbits else 0
    return sign << (mbits + ebits) | biased << mbits | (m & ((1 << mbits) - 1))


f32 = lambda q: round_frac(Fraction(q), 23, 8)
f16 = lambda q: round_frac(Fraction(q), 10, 5)


def fval(bits):
    """The exact value of f32 bits (None for NaN, inf as float)."""
    e, m, s = bits >> 23 & 0xff, bits & 0x7fffff, -1 if bits >> 31 else 1
    if e == 0xff:
        return None if m else s * math.inf
    return s * (Fraction(m, 1 << 23) * Fraction(2) ** -126 if e == 0 else
                (1 + Fraction(m, 1 << 23)) * Fraction(2) ** (e - 127))


def sx(v, n):
    return v - (1 << n) if v >> (n - 1) & 1 else v


def small_float(v, mbits, signed):
    """An e5 float with mbits fraction bits (signed: f16) as f32 bits, exactly."""
    sign = v >> (5 + mbits) & 1 if signed else 0
    e, m = v >> mbits & 0x1f, v & ((1 << mbits) - 1)
    if e == 0x1f:
        return sign << 31 | 0x7f800000 | m << (23 - mbits)
    q = (Fraction(m, 1 << mbits) * Fraction(2) ** -14 if e == 0 else
         (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - 15))
    return sign << 31 | f32(q)


def srgb_bf16(i):
    """The sRGB transfer function of i / 255, rounded to nearest even at bf16 precision."""
    c = i / 255
    v = c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    if v == 0:
        return 0
    b = struct.unpack("<Q", struct.pack("<d", v))[0]
    e, m = (b >> 52) - 1023, b & ((1 << 52) - 1)
    keep, rest, half = m >> 45, m & ((1 << 45) - 1), 1 << 44
    assert abs(rest - half) > 1 << 12, "too close to a bf16 midpoint to round from a double"
    if rest > half or (rest == half and keep & 1):
        keep += 1
    if keep == 128:
        keep, e = 0, e + 1
    return (e + 127) << 23 | keep << 16


# ---- formats: index -> (bytes, [(bit offset, width)], number format, sRGB) ---------------------

C8 = [(0, 8)]
C16 = [(0, 16)]
C8_8 = [(0, 8), (8, 8)]
C16_16 = [(0, 16), (16, 16)]
C8x4 = [(0, 8), (8, 8), (16, 8), (24, 8)]
C16x4 = [(0, 16), (16, 16), (32, 16), (48, 16)]
FORMATS = {
    1: (1, C8, "unorm", False), 2: (1, C8, "snorm", False), 5: (1, C8, "uint", False),
    6: (1, C8, "sint", False), 7: (2, C16, "unorm", False), 8: (2, C16, "snorm", False),
    9: (2, C16, "uscaled", False), 11: (2, C16, "uint", False), 12: (2, C16, "sint", False), 13: (2, C16, "float", False),
    14: (2, C8_8, "unorm", False), 18: (2, C8_8, "uint", False), 19: (2, C8_8, "sint", False),
    20: (4, [(0, 32)], "uint", False), 21: (4, [(0, 32)], "sint", False), 22: (4, [(0, 32)], "float", False),
    23: (4, C16_16, "unorm", False), 24: (4, C16_16, "snorm", False), 27: (4, C16_16, "uint", False),
    28: (4, C16_16, "sint", False), 29: (4, C16_16, "float", False),
    36: (4, [(0, 11), (11, 11), (22, 10)], "float", False),
    50: (4, [(0, 10), (10, 10), (20, 10), (30, 2)], "unorm", False),
    51: (4, [(0, 10), (10, 10), (20, 10), (30, 2)], "snorm", False),
    54: (4, [(0, 10), (10, 10), (20, 10), (30, 2)], "uint", False),
    56: (4, C8x4, "unorm", False), 57: (4, C8x4, "snorm", False), 60: (4, C8x4, "uint", False),
    61: (4, C8x4, "sint", False),
    62: (8, [(0, 32), (32, 32)], "uint", False), 63: (8, [(0, 32), (32, 32)], "sint", False), 64: (8, [(0, 32), (32, 32)], "float", False),
    65: (8, C16x4, "unorm", False), 70: (8, C16x4, "sint", False), 71: (8, C16x4, "float", False),
    77: (16, [(0, 32), (32, 32), (64, 32), (96, 32)], "float", False),
    128: (1, C8, "unorm", True), 129: (2, C8_8, "unorm", True), 130: (4, C8x4, "unorm", True),
    133: (2, [(0, 5), (5, 6), (11, 5)], "unorm", False),
    134: (2, [(0, 5), (5, 5), (10, 5), (15, 1)], "unorm", False),
}
D1, D2, D3, CUBE, D1A, D2A = 8, 9, 10, 11, 12, 13
ROWS = {D1: False, D1A: False}


def load_conv(fmt, k, raw, d16=False):
    """Component k of format fmt, its raw bits, as a load returns it."""
    _, comps, num, srgb = FORMATS[fmt]
    w = comps[k][1]
    if srgb and k < 3:
        return srgb_bf16(raw)
    out = f16 if d16 else f32
    if num == "unorm":
        return out(Fraction(raw, (1 << w) - 1))
    if num == "snorm":
        return out(max(Fraction(sx(raw, w), (1 << (w - 1)) - 1), Fraction(-1)))
    if num == "uscaled":
        return out(raw)
    if num == "uint":
        return raw
    if num == "sint":
        return sx(raw, w) & (0xffff if d16 else 0xffffffff)
    if w == 32:
        return raw
    if d16 and w == 16:
        return raw
    return small_float(raw, 10 if w == 16 else w - 5, w == 16)


def store_conv(fmt, k, x):
    """The raw bits component k of format fmt gets from the 32-bit store value x."""
    _, comps, num, _ = FORMATS[fmt]
    w = comps[k][1]
    if w == 32:
        return x
    if num == "uint":
        return min(x, (1 << w) - 1)
    if num == "sint":
        v = min(max(sx(x, 32), -(1 << (w - 1))), (1 << (w - 1)) - 1)
        return v & ((1 << w) - 1)
    v = fval(x)
    mx = (1 << w) - 1 if num == "unorm" else (1 << (w - 1)) - 1
    if v is None:
        return 0
    mag = min(abs(v), 1)
    r = math.floor(mag * mx + Fraction(1, 2))
    if num == "unorm":
        return 0 if v < 0 else r
    return (-r if v < 0 else r) & ((1 << w) - 1)


# ---- T# and linear layout --------------------------------------------------------------------

def tsharp(fmt, ty, w, h=1, depth=0, base_array=0, max_mip=0, base_level=0, last_level=None,
           dst_sel=0xfac, off=0, pitch=None):
    """A linear T# (words 0..7) whose base is byte `off` of the region (before relocation)."""
    last = max_mip if last_level is None else last_level
    w4 = (pitch - 1) if pitch else depth | base_array << 16
    return [off >> 8, fmt << 20 | ((w - 1) & 3) << 30, (w - 1) >> 2 | (h - 1) << 14,
            dst_sel | base_level << 12 | last << 16 | ty << 28, w4, max_mip << 4, 0, 0]


class Image:
    """The texel layout a T# gives (the gfx10 address library's linear layout)."""

    def __init__(self, t):
        self.t = t
        self.fmt = t[1] >> 20 & 0x1ff
        self.ty = t[3] >> 28
        self.bpe = FORMATS[self.fmt][0]
        self.base = t[0] << 8
        self.w = ((t[1] >> 30) | (t[2] & 0xfff) << 2) + 1
        self.h = ((t[2] >> 14) & 0x3fff) + 1 if ROWS.get(self.ty, True) else 1
        self.base_level, self.last_level = t[3] >> 12 & 15, t[3] >> 16 & 15
        self.max_mip = t[5] >> 4 & 15
        self.depth_field, self.base_array = t[4] & 0x1fff, t[4] >> 16 & 0x1fff
        self.d = self.depth_field + 1 if self.ty == D3 else 1
        align = 256 // self.bpe
        self.levels, off = {}, 0
        for l in reversed(range(self.max_mip + 1)):
            lw, lh = -(-self.w // 2 ** l), -(-self.h // 2 ** l)
            pitch = -(-max(lw, 1) // align) * align
            if self.max_mip == 0 and self.ty in (D1, D2):
                pitch = max(pitch, (t[4] & 0x3fff) + 1)
            self.levels[l] = (pitch, off)
            off += pitch * max(lh, 1) * self.bpe
        self.slice_bytes = off

    def size(self, l):
        return max(self.w >> l, 1), max(self.h >> l, 1), max(self.d >> l, 1)

    def addr(self, x, y=0, slice_=0, level=0):
        pitch, off = self.levels[level]
        return self.base + slice_ * self.slice_bytes + off + (y * pitch + x) * self.bpe

    def at(self, coords, mip=0):
        """The byte address of the texel (kind, value) coordinates name, or None out of range."""
        level = self.base_level + mip
        if level > self.last_level:
            return None
        w, h, d = self.size(level)
        x = y = s = 0
        for kind, v in coords:
            if kind == "x":
                if v >= w:
                    return None
                x = v
            elif kind == "y":
                if v >= h:
                    return None
                y = v
            elif kind == "z":
                if v >= d:
                    return None
                s = v
            elif kind == "layer":
                if v > self.depth_field - self.base_array:
                    return None
                s = self.base_array + v
            elif kind == "zero":
                if v != 0:
                    return None
        return self.addr(x, y, s, level)


class Region:
    def __init__(self, size):
        self.b = bytearray(size)

    def put(self, a, value, n):
        self.b[a:a + n] = value.to_bytes(n, "little")

    def get(self, a, n):
        return int.from_bytes(self.b[a:a + n], "little")

    def dwords(self):
        return [int.from_bytes(self.b[i:i + 4], "little") for i in range(0, len(self.b), 4)]


def texel_comps(img, raw):
    return [raw >> o & ((1 << w) - 1) for o, w in FORMATS[img.fmt][1]]


def load_value(img, addr, dmask, d16=False):
    """What a load writes to its VGPRs for the texel at addr (None: out of range)."""
    raw = 0 if addr is None else img.region.get(addr, img.bpe)
    comps = texel_comps(img, raw)
    vals = []
    for s in range(4):
        if not dmask >> s & 1:
            continue
        sel = img.t[3] >> (3 * s) & 7
        if sel == 0:
            vals.append(0)
        elif sel == 1:
            num = FORMATS[img.fmt][2]
            vals.append(1 if num in ("uint", "sint") else (0x3c00 if d16 else 0x3f800000))
        else:
            vals.append(load_conv(img.fmt, sel - 4, comps[sel - 4], d16))
    if d16:
        vals = [vals[i] | (vals[i + 1] << 16 if i + 1 < len(vals) else 0) for i in range(0, len(vals), 2)]
    return vals


def store_texel(img, addr, dmask, data):
    """Stores the data VGPRs (DMASK-packed) at addr (X,Y,Z,W DST_SEL; a two-component format's
    second component from W)."""
    if addr is None:
        return
    comps = FORMATS[img.fmt][1]
    slot_data = {}
    it = iter(data)
    for s in range(4):
        if dmask >> s & 1:
            slot_data[s] = next(it)
    raw = 0
    for k, (o, w) in enumerate(comps):
        slot = 3 if len(comps) == 2 and k == 1 else k
        raw |= store_conv(img.fmt, k, slot_data[slot]) << o
    img.region.put(addr, raw, img.bpe)


# ---- atomics, group loads and the packed gather (docs/dataset-format.md, Images) ---------------

def float_rule(bits):
    """The float atomics rule of the reference notes' "LDS float atomics" entry on f32 or f64
    bits: (minmax, equal). minmax flushes both operands to the zero of their sign with
    `flush`, then a signalling-NaN data is stored quieted, else a signalling-NaN old value,
    else a quiet-NaN old value gives the data, else a quiet-NaN data gives the old value, else
    the ordered compare with -0 below +0 decides; the flushed value is what is written. equal
    compares the flushed old and compare values as floats (zeros equal, NaN equal to nothing)."""
    sign = 1 << (bits - 1)
    exp = (1 << (8 if bits == 32 else 11)) - 1 << (23 if bits == 32 else 52)
    quiet = 1 << (22 if bits == 32 else 51)
    flushed = lambda x, flush: x & sign if flush and x & exp == 0 else x
    nan = lambda x: x & (sign - 1) > exp
    value = lambda x: -(x & (sign - 1)) - (1 if x & sign else 0) if x & sign else x  # order key

    def minmax(old, data, flush, mx):
        o, d = flushed(old, flush), flushed(data, flush)
        if nan(d) and not d & quiet:
            return d | quiet
        if nan(o) and not o & quiet:
            return o | quiet
        if nan(o):
            return d
        if nan(d):
            return o
        return d if (value(d) > value(o) if mx else value(d) < value(o)) else o

    def equal(old, cmp, flush):
        o, c = flushed(old, flush), flushed(cmp, flush)
        return not nan(o) and not nan(c) and (o == c or (o | c) & (sign - 1) == 0)
    return minmax, equal


def atomic_new(op, bits, old, data, cmp=None, flush=False):
    """The value an image atomic of `bits` (32 or 64) leaves in the texel (RDNA2 ISA guide,
    the buffer atomics' operations): swap, cmpswap, add, sub, smin, umin, smax, umax, and,
    or, xor, inc, dec, fcmpswap, fmin, fmax."""
    m = (1 << bits) - 1
    sv = lambda x: x - (1 << bits) if x >> (bits - 1) else x
    minmax, equal = float_rule(bits)
    return {
        "swap": lambda: data, "add": lambda: (old + data) & m, "sub": lambda: (old - data) & m,
        "smin": lambda: old if sv(old) <= sv(data) else data,
        "smax": lambda: old if sv(old) >= sv(data) else data,
        "umin": lambda: min(old, data), "umax": lambda: max(old, data),
        "and": lambda: old & data, "or": lambda: old | data, "xor": lambda: old ^ data,
        "inc": lambda: 0 if old >= data else old + 1,
        "dec": lambda: data if old == 0 or old > data else old - 1,
        "cmpswap": lambda: data if old == cmp else old,
        "fcmpswap": lambda: data if equal(old, cmp, flush) else old,
        "fmin": lambda: minmax(old, data, flush, False),
        "fmax": lambda: minmax(old, data, flush, True),
    }[op]()


def atomic_wave(img, op, bits, lanes, flush=False):
    """Runs an image atomic over the active lanes in ascending order: `lanes` lists per lane
    (address or None, data, compare value); returns the old values (0 out of range)."""
    olds = []
    n = bits // 8
    for addr, data, cmp in lanes:
        if addr is None:
            olds.append(0)
            continue
        old = img.region.get(addr, n)
        img.region.put(addr, atomic_new(op, bits, old, data, cmp, flush), n)
        olds.append(old)
    return olds


def group_load(img, n, x, y, mip=0, converted=True, dmask=None):
    """The VGPRs of a BY (converted) or PCK2/PCK4 load of n texels at (x, y): the n texels
    from x & ~(n - 1) when the level is in the view, y is below the level's height and the
    unaligned x + n - 1 below its width; zeros otherwise, and zeros when the n texels are
    wider than a dword or (PCK) DMASK is not 0x1."""
    bpe, comps, _, _ = FORMATS[img.fmt]
    count = bin(dmask).count("1") if dmask else n * len(comps) if converted else 1
    level = img.base_level + mip
    if n * bpe > 4 or (not converted and dmask not in (None, 1)):
        return [0] * count
    w, h, _ = img.size(level) if level <= img.last_level else (0, 0, 0)
    if level > img.last_level or y >= h or x + n - 1 >= w:
        return [0] * count
    x0 = x & ~(n - 1)
    raw = img.region.get(img.addr(x0, y, 0, level), n * bpe)
    if not converted:
        return [raw]
    out = []
    for k in range(n):
        t = raw >> (8 * bpe * k) & ((1 << (8 * bpe)) - 1)
        out += [load_conv(img.fmt, i, c) for i, c in enumerate(texel_comps(img, t))]
    return out


def f32_value(bits):
    """The exact value of f32 bits for the gather's coordinates: NaN reads as 0."""
    v = fval(bits)
    return Fraction(0) if v is None else v


def floor_f32(q):
    """floor of q rounded to f32 (nearest even), clamped to +-2^30 (infinities too)."""
    if q in (math.inf, -math.inf):
        return (1 << 30) if q > 0 else -(1 << 30)
    r = fval(f32(q))
    if r in (math.inf, -math.inf):
        return (1 << 30) if r > 0 else -(1 << 30)
    return math.floor(r)


def gather_window(img, u, v):
    """The addresses of the horizontal gathers' four texels at the f32 coordinates (u, v):
    columns floor(f32(f32(u * W) - 0.5)) + {-1, 0, 1, 2} clamped into the width, row
    floor(f32(v * H)) (negative: row 0), level BASE_LEVEL; None for a row at or past the
    height."""
    w, h, _ = img.size(img.base_level)
    fu, fv = fval(u), fval(v)
    pu = 0 if fu is None else (fu * w if fu not in (math.inf, -math.inf) else fu)
    pu = pu if pu in (math.inf, -math.inf) else fval(f32(pu))
    anchor = floor_f32(pu - Fraction(1, 2)) if pu not in (math.inf, -math.inf) else floor_f32(pu)
    pv = 0 if fv is None else (fv * h if fv not in (math.inf, -math.inf) else fv)
    row = max(floor_f32(pv), 0)
    return [None if row >= h else img.addr(min(max(anchor + k - 1, 0), w - 1), row, 0, img.base_level)
            for k in range(4)]


def gather4h_pck(img, u, v, dmask):
    """image_gather4h_pck at the f32 coordinates (u, v): columns floor(f32(f32(u * W) - 0.5))
    + {-1, 0, 1, 2} clamped into the width, row floor(f32(v * H)) (negative: row 0; at or past
    the height: zeros), level BASE_LEVEL; the raw texels a little-endian stream (texel k at
    bit k * texel bits); DMASK bit i gives stream word i (0 past it) to the next VGPR; texels
    wider than 32 bits give zeros."""
    bpe = FORMATS[img.fmt][0]
    bits = [i for i in range(4) if dmask >> i & 1]
    if bpe > 4:
        return [0] * len(bits)
    stream = 0
    for k, at in enumerate(gather_window(img, u, v)):
        t = 0 if at is None else img.region.get(at, bpe)
        stream |= t << (8 * bpe * k)
    words = [stream >> (32 * i) & 0xffffffff for i in range(bpe)]
    return [words[i] if i < len(words) else 0 for i in bits]


def gather4h(img, u, v, dmask):
    """image_gather4h (not measured; the model's choice): the window of gather4h_pck, each
    texel's component of the one DMASK bit as a load converts it (0 for a row at or past the
    height), texel k in VGPR k."""
    bpe = FORMATS[img.fmt][0]
    k = dmask.bit_length() - 1
    return [0 if at is None else load_conv(img.fmt, k, texel_comps(img, img.region.get(at, bpe))[k])
            for at in gather_window(img, u, v)]


# ---- sampling at LOD 0 (image_sample_lz, image_gather4_lz; docs/dataset-format.md, Images) ----

def ssharp(clamp_x=2, clamp_y=2, bilinear=False, unnorm=False, border=0, compare=0, mip=0, max_lod=0):
    """An S#: the addressing modes, point or bilinear (magnification and minification alike),
    FORCE_UNNORMALIZED, DEPTH_COMPARE_FUNC, BORDER_COLOR_TYPE, MIP_FILTER and MAX_LOD (u4.8);
    everything else 0."""
    f = int(bilinear)
    return [clamp_x | clamp_y << 3 | compare << 12 | int(unnorm) << 15, max_lod << 12,
            f << 20 | f << 22 | mip << 26, border << 30]


def _rnd32(q):
    """q rounded to f32 (nearest even) as an exact value; infinities stay."""
    if q in (math.inf, -math.inf):
        return q
    r = fval(f32(q))
    return r


def _floor24(x):
    if x in (math.inf, -math.inf):
        return (1 << 24) if x > 0 else -(1 << 24)
    return min(max(math.floor(x), -(1 << 24)), 1 << 24)


def address_mode(mode, i, n):
    """(index read, texel read or border) of the signed texel index i on a level n wide."""
    if mode == 0:
        return i % n, True
    if mode == 1:
        m = i % (2 * n)
        return (2 * n - 1 - m if m >= n else m), True
    j = (-1 - i if i < 0 else i) if mode in (3, 7) else i
    return min(max(j, 0), n - 1), (mode in (2, 3) or 0 <= j < n)


def sample_axis(u_bits, size, unnorm, off, bilinear, mode):
    """[(index, read, weight of 256)] of one axis: x = f32(u * size) (unnormalized: u), then
    f32(x + off), then for bilinear f32(x - 0.5); floor, and the 8-bit weight round_even of the
    fraction times 256; a NaN coordinate reads as 0."""
    v = fval(u_bits)
    x = Fraction(0) if v is None else v
    if not unnorm:
        x = _rnd32(x * size) if x not in (math.inf, -math.inf) else x
    if off is not None:
        x = _rnd32(x + off) if x not in (math.inf, -math.inf) else x
    if bilinear:
        x = _rnd32(x - Fraction(1, 2)) if x not in (math.inf, -math.inf) else x
    i0 = _floor24(x)
    if not bilinear:
        return [address_mode(mode, i0, size) + (256,)]
    # an infinite coordinate: the fraction is NaN, which converts to weight 0
    w1 = 0 if x in (math.inf, -math.inf) else round((x - math.floor(x)) * 256)
    return [address_mode(mode, i0, size) + (256 - w1,), address_mode(mode, i0 + 1, size) + (w1,)]


def _border(btype, k):
    return 0x3f800000 if btype == 2 or (btype == 1 and k == 3) else 0


def _f32_bits_of_float(v):
    if math.isnan(v):
        return 0x7fc00000
    if v in (math.inf, -math.inf):
        return 0x7f800000 if v > 0 else 0xff800000
    if v == 0:
        return 0x80000000 if math.copysign(1, v) < 0 else 0
    return f32(Fraction(v))


def blend(taps, k):
    """Component k of the bilinear blend: f32(sum / 65536) of weight * value in f64, the taps
    in order, weight-0 taps adding +0.0; the first NaN among the used taps quieted, a NaN sum
    the default NaN."""
    for comps, w in taps:
        c = comps[k]
        if w and (c >> 23 & 0xff) == 0xff and c & 0x7fffff:
            return c | 0x400000
    acc = 0.0
    for comps, w in taps:
        c = fval(comps[k])
        acc += float(w) * float(c) if w else 0.0
    return _f32_bits_of_float(acc / 65536)


def compare_taps(img, s, taps, ref_bits):
    """image_sample_c_lz's taps: 8-bit UNORM and sRGB compare to 0 (measured); otherwise
    1.0 or 0.0 by `reference OP texel` on the first component (the S#'s DEPTH_COMPARE_FUNC), the
    reference clamped to [0, 1] (UNORM) or [-1, 1] (SNORM), a NaN reference reading as 0."""
    _, comps, num, srgb = FORMATS[img.fmt]
    if num == "unorm" and all(w == 8 for _, w in comps):
        return None
    r = fval(ref_bits)
    r = Fraction(0) if r is None else r
    if num == "unorm":
        r = min(max(r, 0), 1)
    elif num == "snorm":
        r = min(max(r, -1), 1)
    fn = s[0] >> 12 & 7
    out = []
    for vals, w in taps:
        t = fval(vals[0])
        if t is None:
            ok = fn in (5, 7)
        else:
            ok = [False, r < t, r == t, r <= t, r > t, r != t, r >= t, True][fn]
        out.append(([0x3f800000 if ok else 0], w))
    return out


def _coord0(bits):
    v = fval(bits)
    return Fraction(0) if v is None else v


def _exp2_128ths():
    """The f64 nearest 2^(r/128), r in 0..128, from 60-digit decimal powers."""
    import decimal
    ctx = decimal.Context(prec=60)
    return [float(ctx.power(decimal.Decimal(2), decimal.Decimal(r) / 128)) for r in range(128)]


EXP2_128THS = _exp2_128ths()


def lod_level(img, s, lod, coords_of, lane, extra_bits, unnorm, grads_of=None, coarse=False, bias_bits=None):
    """The level past BASE_LEVEL a point-mipmapped sample reads (`lod`: 'zero', 'implicit',
    'explicit', 'clamp'): ceil(lod + 0.5) - 1 clamped to the view's levels and to the S#'s
    MAX_LOD; the implicit LOD is log2 of the larger of the quad's two footprints (lane & ~3
    top left, + 1 top right, + 2 bottom left; f32 differences, scaled by BASE_LEVEL's size,
    squared and summed in f64), compared without a logarithm: it passes k - 0.5 when the
    squared footprint passes 2^(2k - 1). With `grads_of` (image_sample_d/_cd: lane -> per axis
    (d/dx, d/dy) as Python floats, NaN read as 0) the derivatives stand for the differences;
    `coarse` (_cd) takes the quad's first lane's. With `bias_bits` (the _b forms) the bias
    joins in 1/256 steps, B = round_even(bias * 256) clamped to +-4096 (NaN: 0), and level k is
    passed when rho2 > 2^((256k - 128 - B) / 128), computed as rho2 * 2^-q > 2^(r/128) with
    q = t >> 7, r = t & 127 and 2^(r/128) the nearest f64."""
    mip_filter = s[2] >> 26 & 3
    if lod == "zero" or mip_filter == 0:
        return 0
    cap = math.ceil((s[1] >> 12 & 0xfff) / 256 + 0.5) - 1
    top = min(cap, img.last_level - img.base_level)
    extra = None if extra_bits is None else float(_coord0(extra_bits))
    rho2 = None
    if lod != "explicit":
        quad = lane & ~3
        w, h, _ = img.size(img.base_level)
        rows = img.ty in (D2, D2A)
        sums = [0.0, 0.0]
        for ci, size in [(0, w)] + ([(1, h)] if rows else []):
            if grads_of is not None:
                g = grads_of(quad if coarse else lane)[ci]
                for d in (0, 1):
                    v = 0.0 if math.isnan(g[d]) else g[d]
                    dd = v * (1 if unnorm else size)
                    sums[d] += dd * dd
                continue
            tl = _coord0(coords_of(quad)[ci])
            for d in (0, 1):
                o = _coord0(coords_of(quad + 1 + d)[ci])
                diff = o - tl
                if isinstance(diff, float) and math.isnan(diff):
                    dd = math.nan
                else:
                    dd = float(_rnd32(diff)) * (1 if unnorm else size)
                sums[d] += dd * dd
        rho2 = sums[1] if sums[1] > sums[0] else sums[0]
    b256 = None
    if bias_bits is not None:
        v = _coord0(bias_bits) * 256
        v = -4096 if v < -4096 else 4096 if v > 4096 else v
        b256 = round(v)
    k = 0
    for j in range(1, top + 1):
        if b256 is not None and rho2 is not None:
            t = 256 * j - 128 - b256
            ok = rho2 * 2.0 ** -(t >> 7) > EXP2_128THS[t & 127]
        else:
            ok = rho2 is not None and rho2 > 2.0 ** (2 * j - 1)
        ok = ok or (extra is not None and extra > j - 0.5)
        k += int(ok)
    return k


def sample_lz(img, s, coords, off=(None, None), unorm=False, dmask=0xf, gather=False, ref=None, level=0):
    """What image_sample_lz (gather: image_gather4_lz; ref: image_sample_c_lz with the
    reference's f32 bits) writes for the f32 coordinate bits `coords` (x[, y][, layer])
    through the T# of img and the S# s, reading level BASE_LEVEL + `level`."""
    unnorm = unorm or bool(s[0] >> 15 & 1)
    bilinear = gather or bool(s[2] >> 20 & 3)
    modes = [s[0] & 7, s[0] >> 3 & 7]
    btype = s[3] >> 30
    lvl = img.base_level + level
    w, h, _ = img.size(lvl)
    arrays = img.ty in (D1A, D2A)
    rows = img.ty in (D2, D2A)
    xs = sample_axis(coords[0], w, unnorm, off[0], bilinear, modes[0])
    ys = sample_axis(coords[1], h, unnorm, off[1], bilinear, modes[1]) if rows else [(0, True, 256)]
    layer = 0
    if arrays:
        lv = fval(coords[2 if rows else 1])
        lv = Fraction(0) if lv is None else lv
        layers = img.depth_field - img.base_array + 1
        layer = 0 if lv == -math.inf else layers - 1 if lv == math.inf else min(max(round(lv), 0), layers - 1)
    n = len(FORMATS[img.fmt][1])
    taps = []
    for y, y_in, wy in ys:
        for x, x_in, wx in xs:
            raw = img.region.get(img.addr(x, y, img.base_array + layer if arrays else 0, lvl), img.bpe)
            comps = texel_comps(img, raw)
            vals = [load_conv(img.fmt, k, comps[k]) if (x_in and y_in) else _border(btype, k) for k in range(n)]
            taps.append((vals, wx * wy))

    def sel(slot, comps):
        d = img.t[3] >> (3 * slot) & 7
        one = 1 if FORMATS[img.fmt][2] in ("uint", "sint") else 0x3f800000
        return 0 if d == 0 else one if d == 1 else comps[d - 4]
    if ref is not None:
        cmp = compare_taps(img, s, taps, ref)
        if gather:
            # image_gather4_c: the footprint's compare results, unfiltered (8-bit UNORM and
            # sRGB: 0 each, sample_c's measured rule carried over)
            return [0 if cmp is None else cmp[t][0][0] for t in (2, 3, 1, 0)]
        if cmp is None:
            return [0]
        return [blend(cmp, 0) if bilinear else cmp[0][0][0]]
    if gather:
        slot = [i for i in range(4) if dmask >> i & 1][0]
        return [sel(slot, taps[t][0]) for t in (2, 3, 1, 0)]
    comps = [blend(taps, k) if bilinear else taps[0][0][k] for k in range(n)]
    return [sel(slot, comps) for slot in range(4) if dmask >> slot & 1]


# ---- rows ------------------------------------------------------------------------------------

MODE_CELLS = ["ieee", "dx10_clamp", "denorm32", "denorm16", "round32", "round16", "fp16_overflow"]


def case(rows, wid, text, w, t, region, ins, outs, note, gfx="gfx1030", source=HAND, mem_out=None,
         exec_in=None, pre=True, mode=None, ssamp=None):
    """One wave: a row per lane; `ins(l)` its in0.., `outs(l)` its out0.. (unlisted dwords 0);
    `mode` the float-mode cells it states (the others empty); `ssamp` an S# for s[0:3]. s_out
    is left empty (not captured): the relocated T# words hold the region's address."""
    body = PRE + "; " + text if pre else text
    enc = encode(body)
    s_in = (ssamp or [0] * 4) + [0] * 4 + t
    exec_in = (1 << w) - 1 if exec_in is None else exec_in
    modes = [str((mode or {}).get(k, "")) for k in MODE_CELLS]
    for l in range(w):
        i = ins(l) + [0] * (6 - len(ins(l)))
        o = outs(l) + [0] * (16 - len(outs(l)))
        cells = [f'"{body}"', enc, str(w)] + modes + [f"0x{x:08x}" for x in i + o]
        cells += [gfx, source, f'"{note}"', wid, str(l)]
        first = l == 0
        cells += [f"0x{exec_in:016x}" if first else "", dw(s_in) if first else "",
                  dw(region[0]) if first else "", str(4 * len(region[0])) if first else "",
                  "", dw(mem_out if mem_out is not None else region[0]) if first else ""]
        rows.append(",".join(cells))


def image_of(t, size, fill):
    img = Image(t)
    img.region = Region(size)
    fill(img)
    return img


def fill_pattern(img, seed, levels=None, slices=1):
    """Every texel of every level and slice gets bytes from a simple generator."""
    v = seed
    for s in range(slices):
        for l in (levels if levels is not None else range(img.max_mip + 1)):
            pitch, _ = img.levels[l]
            rows = -(-img.h // 2 ** l) if ROWS.get(img.ty, True) else 1
            for y in range(max(rows, 1)):
                for x in range(max(-(-img.w // 2 ** l), 1)):
                    raw = 0
                    for b in range(img.bpe):
                        v = (v * 1103515245 + 12345) & 0xffffffff
                        raw |= (v >> 16 & 0xff) << (8 * b)
                    img.region.put(img.addr(x, y, s, l), raw, img.bpe)


def write(out, rows, generator, claims, caveat, producer_device):
    text = V1 + "," + WAVE + "\n" + "".join(r + "\n" for r in rows)
    open(out, "w").write(text)
    manifest = {
        "schema_version": 1,
        "format": "rdnaprobe dataset schema v1 with the wave contract's columns (docs/dataset-format.md)",
        "dataset": out.rsplit("/", 1)[-1],
        "producer": {"backend": "none", "device": producer_device, "gfx": "gfx1030",
                     "driver": "not applicable", "runtime": "not applicable", "rdnaprobe_version": ""},
        "generator": generator,
        "rows": len(rows),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "created": "2026-12-03T12:00:00Z",
        "provenance": {"claims": claims, "caveats": [caveat]},
    }
    open(out.rsplit(".", 1)[0] + ".manifest.json", "w").write(json.dumps(manifest, indent=2) + "\n")
