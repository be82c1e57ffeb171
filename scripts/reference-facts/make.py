#!/usr/bin/env python3
"""Writes datasets/reference-facts.csv and its manifest: the concrete VALU results that the
reference notes (../shared/reference) state, one row each, in the lane contract's schema v1.

Each fact names the note file and entry it comes from (`source`) and says in its own words
what it shows (`note`). The extra column `replay` is `exact` (the CPU model must give these
bits) or `pending: REASON` (a known gap; the replay test reports it without failing).
Encodings come from `rdnaprobe encode` (RDNAPROBE_BIN, default target/debug/rdnaprobe).

Usage: scripts/reference-facts/make.py
"""
import csv, hashlib, io, json, os, subprocess, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("RDNAPROBE_BIN", os.path.join(ROOT, "target/debug/rdnaprobe"))
TD = "shared/reference/shader-technical-debt.md"
SO = "shared/reference/commit-notes-shader-ops.txt"

# mode: ieee, dx10_clamp, denorm32, denorm16, round32, round16, fp16_overflow
BASE = dict(ieee=0, dx10_clamp=1, denorm32=0, denorm16=3, round32=0, round16=0, fp16_overflow=0)
FACTS = []


def fact(body, inputs, outs, source, note, replay="exact", gfx="gfx1030", **mode):
    m = dict(BASE)
    m.update(mode)
    FACTS.append((body, list(inputs) + [0] * (6 - len(inputs)), outs, m, gfx, source, note, replay))


# -- v_ldexp_f16 and the f16 denormal field
E = TD + " (entry: v_ldexp_f16 follows the FLOAT_MODE f16 denormal field)"
for d16, r in [(0, 0x0000), (1, 0x0000), (2, 0x0400), (3, 0x0400)]:
    fact("v_ldexp_f16 v10, v4, v5", [0x07ff, 0xffffffff], [r], E,
         "0x07ff scaled by 2^-1: a result below 2^-14 is flushed before rounding unless denorm16 bit 1 keeps results, else it rounds to 0x0400", denorm16=d16)

# -- v_fma_mixlo/hi_f16 rounding in the f16 fields
E = TD + " (entry: v_fma_mixlo_f16 and v_fma_mixhi_f16 round the exact product-sum once)"
for name, shift in [("v_fma_mixlo_f16", 0), ("v_fma_mixhi_f16", 16)]:
    for d16, r16, r in [(3, 0, 0x8001), (0, 0, 0x8000), (3, 2, 0x8002)]:
        fact(f"{name} v10, v4, v5, v6", [0xbfc00000, 0x33800000, 0x00800000], [r << shift], E,
             "-1.5 * 2^-24 + 2^-126 from f32 sources, rounded once by the f16 round and denormal fields", denorm16=d16, round16=r16)

# -- NaN quieting
E = TD + " (entry: signaling NaN inputs ... always quiet ... v_fma_mix_f32)"
SNAN = 0x7f812345
for ieee in (0, 1):
    for name, shift in [("v_fma_mixlo_f16", 0), ("v_fma_mixhi_f16", 16)]:
        fact(f"{name} v10, v4, v5, v6", [SNAN, 0x3f800000, 0], [0x7e09 << shift], E,
             "a signaling f32 NaN in src0 becomes the quiet half 0x7e09 in both IEEE modes", ieee=ieee)
        fact(f"{name} v10, v4, v5, v6", [0x3f800000, 0x3f800000, SNAN], [0x7e09 << shift], E,
             "a signaling f32 NaN in src2 becomes the quiet half 0x7e09 in both IEEE modes", ieee=ieee)
    q = SNAN if ieee == 0 else 0x7fc12345
    fact("v_fma_mix_f32 v10, v4, v5, v6", [SNAN, 0x3f800000, 0], [q], E,
         "the f32 form returns the src0 signaling NaN, quieted only with IEEE=1", ieee=ieee)
    fact("v_fma_mix_f32 v10, v4, v5, v6", [0x3f800000, 0x3f800000, SNAN], [q], E,
         "the f32 form returns the src2 signaling NaN, quieted only with IEEE=1", ieee=ieee)

# -- scalar f16 multiply tininess
E = TD + " (entry: scalar f16 add, sub, subrev and mul denormals)"
fact("v_mul_f16 v10, v4, v5", [0x3bff, 0x0400], [0], E, "the product rounded to 11 bits with an unbounded exponent is below 2^-14: flushed", denorm16=1)
fact("v_mul_f16 v10, v4, v5", [0x3bff, 0x0400], [0], E, "the same product with f16 inputs and results flushed", denorm16=0)
fact("v_mul_f16 v10, v4, v5", [0x3c01, 0x03ff], [0x0400], E, "a denormal factor kept; the product rounds to the smallest normal and is kept", denorm16=1)

# -- f32 tininess after rounding
E = TD + " (entry: f32 denormals follow the FLOAT_MODE f32 denormal field)"
for ieee in (0, 1):
    fact("v_mul_f32 v10, v4, v5", [0x3f7ffffe, 0x00800001], [0x00800000], E, "2^-126 * (1 - 2^-46) rounds to the smallest normal: kept", ieee=ieee)
    fact("v_mul_f32 v10, v4, v5", [0x3f7fffff, 0x00800000], [0], E, "2^-126 * (1 - 2^-24) stays below 2^-126 at 24 bits: flushed", ieee=ieee)
    fact("v_mullit_f32 v10, v4, v5, v6", [0x3f7ffffe, 0x00800001, 0x3f800000], [0x00800000], E, "v_mullit_f32 shares the multiply's tininess rule", ieee=ieee)
    fact("v_mullit_f32 v10, v4, v5, v6", [0x3f7fffff, 0x00800000, 0x3f800000], [0], E, "v_mullit_f32 flushes the tiny product", ieee=ieee)
    for a, r in [(0x00801002, 0x00800000), (0x00801001, 0), (0x00801003, 0x00800001)]:
        fact("v_fma_mix_f32 v10, v4, v5, v6 op_sel_hi:[0,1,0]", [a, 0x3bff, 0], [r], E,
             "f32 times f16 0x3bff with a zero addend: tininess after rounding, as the multiply", ieee=ieee)
fact("v_mullit_f32 v10, v4, v5, v6", [0x40000000, 0x40400000, 0x00000001], [0xff7fffff], E, "with f32 denormals flushed a positive denormal src2 counts as zero: the unlit value", ieee=1)
fact("v_mullit_f32 v10, v4, v5, v6", [0x40000000, 0x40400000, 0x00000001], [0x40c00000], TD + " (entry: v_mullit_f32 follows the hardware measured with the MODE register)", "with f32 denormals kept a positive denormal src2 counts as positive", ieee=1, denorm32=3)
fact("v_div_fixup_f32 v10, v4, v5, v6", [0x00000001, 0x3f800000, 0x3f800000], [0x00000001], E, "a denormal src0 and result are kept with f32 denormals flushed")
fact("v_cmp_lt_f32_e64 s10, v4, v5\nv_cndmask_b32_e64 v10, 0, 1, s10", [0x00000001, 0x00000002], [1], E, "with f32 denormals kept a compare reads denormals as values", denorm32=3)
fact("v_cmp_eq_f32_e64 s10, v4, v5\nv_cndmask_b32_e64 v10, 0, 1, s10", [0x00000001, 0x00000000], [0], E, "with f32 denormals kept a denormal is not equal to zero", denorm32=3)
fact("v_cmp_lt_f32_e64 s10, v4, v5\nv_cndmask_b32_e64 v10, 0, 1, s10", [0x00000001, 0x00000002], [0], E, "with f32 denormals flushed the compares flush their inputs: both are zero", denorm32=0)
for r32, r in [(0, 0x00000002), (3, 0x00000001), (1, 0x00000002), (2, 0x00000001)]:
    fact("v_ldexp_f32 v10, v4, v5", [0x00000003, 0xffffffff], [r], E, "a subnormal result of ldexp is rounded in the f32 round mode", denorm32=3, round32=r32)
for r32, r in [(0, 0x7f800000), (3, 0x7f7fffff)]:
    fact("v_ldexp_f32 v10, v4, v5", [0x3f800000, 200], [r], E, "an ldexp overflow rounds like any result: infinity, or the largest finite value toward zero", denorm32=3, round32=r32)

# -- FP16_OVFL
E = TD + " (entry: FP16_OVFL follows the shader's float mode)"
for ieee in (0, 1):
    for body, x, r in [("v_rcp_f16 v10, v4", 0x0000, 0x7bff), ("v_rcp_f16 v10, v4", 0x8000, 0xfbff),
                       ("v_rsq_f16 v10, v4", 0x0000, 0x7bff), ("v_log_f16 v10, v4", 0x0000, 0xfbff),
                       ("v_exp_f16 v10, v4", 0x4c00, 0x7bff), ("v_exp_f16 v10, v4", 0x7c00, 0x7c00)]:
        fact(body, [x], [r], E, "with FP16_OVFL=1 an infinite f16 result of finite sources becomes +-65504; an infinite source passes", ieee=ieee, fp16_overflow=1)
fact("v_div_fixup_f16 v10, v4, v5, v6", [0x3c00, 0x0000, 0x3c00], [0x7c00], E, "div_fixup keeps the infinity of a zero denominator under FP16_OVFL", fp16_overflow=1)
fact("v_div_fixup_f16 v10, v4, v5, v6", [0x7c00, 0x3c00, 0x3c00], [0x7bff], E, "div_fixup clamps any other infinite quotient under FP16_OVFL", fp16_overflow=1)
fact("v_cvt_pkrtz_f16_f32 v10, v4, v5", [0x49742400, 0xc9742400], [0xfbff7bff], E, "pkrtz rounds toward zero and never overflows")

# -- clamp and DX10_CLAMP
E = TD + " (entry: the clamp modifier follows DX10_CLAMP)"
fact("v_add_f32_e64 v10, v4, v5 clamp", [0x7fc00000, 0x3f800000], [0], E, "a NaN result clamps to +0 with DX10_CLAMP=1", dx10_clamp=1)
fact("v_add_f32_e64 v10, v4, v5 clamp", [0x7fc00000, 0x3f800000], [0x7fc00000], E, "a NaN result is kept with DX10_CLAMP=0", dx10_clamp=0)
fact("v_add_f32_e64 v10, v4, v5 clamp", [0x40000000, 0x3f800000], [0x3f800000], E, "other values clamp to [0, 1]", dx10_clamp=0)
fact("v_pk_max_f16 v10, v4, v5 clamp", [0x7d017d01, 0x3c003c00], [0x00000000], E, "the quieted NaN that pk_max returns for a signaling operand with IEEE=1 clamps to +0", ieee=1, dx10_clamp=1)
fact("v_pk_max_f16 v10, v4, v5 clamp", [0x7d017d01, 0x3c003c00], [0x7f017f01], E, "with DX10_CLAMP=0 that quieted NaN is kept", ieee=1, dx10_clamp=0)

# -- output modifier
E = TD + " (entry: the output modifier follows the shader's float mode)"
fact("v_add_f32_e64 v10, v4, v5 mul:2", [0x3f800000, 0x3f000000], [0x40400000], E, "omod applies with IEEE=0 and f32 output denormals flushed", ieee=0, denorm32=0)
fact("v_add_f32_e64 v10, v4, v5 mul:2", [0x3f800000, 0x3f000000], [0x3fc00000], E, "omod is ignored with IEEE=1", ieee=1, denorm32=0)
fact("v_add_f32_e64 v10, v4, v5 mul:2", [0x3f800000, 0x3f000000], [0x3fc00000], E, "omod is ignored with f32 output denormals kept", ieee=0, denorm32=3)

# -- NaN choice on the bits
E = TD + " (entry: signaling NaN inputs; the NaN result of the f32 arithmetic)"
for ieee in (0, 1):
    fact("v_add_f32 v10, v4, v5", [0x7f800001, 0x7fc00002], [0x7f800001 | (0x400000 if ieee else 0)], E, "the first NaN source wins, quieted only with IEEE=1", ieee=ieee)
    fact("v_sub_f32 v10, v4, v5", [0x3f800000, 0x7f812345], [0xff812345 | (0x400000 if ieee else 0)], E, "the subtrahend is negated before it is chosen", ieee=ieee)
    fact("v_floor_f32 v10, v4", [0x7f800001], [0x7f800001 | (0x400000 if ieee else 0)], E, "a unary op returns a signaling NaN quieted only with IEEE=1", ieee=ieee)
    fact("v_trunc_f64 v[10:11], v[4:5]", [0x00000001, 0x7ff00000], [0x00000001, 0x7ff00000 | (0x80000 if ieee else 0)], E, "the f64 unary forms follow the same IEEE rule", ieee=ieee)
    fact("v_cvt_f64_f32 v[10:11], v4", [0x7f800001], [0x20000000, 0x7ff00000 | (0x80000 if ieee else 0)], E, "v_cvt_f64_f32 keeps a signaling NaN with IEEE=0", ieee=ieee)
    fact("v_cvt_f16_f32 v10, v4", [SNAN], [0x7e09], E, "v_cvt_f16_f32 always quiets", ieee=ieee)
    fact("v_pack_b32_f16 v10, v4, v5", [0x7d01, 0x3c00], [0x3c007d01 | (0x200 if ieee else 0)], E, "pack_b32_f16 quiets a signaling half only with IEEE=1", ieee=ieee)
fact("v_add_f32 v10, v4, v5", [0x7f800000, 0xff800000], [0xffc00000], E, "inf - inf gives the default NaN")
fact("v_fma_f32 v10, v4, v5, v6", [0x7f800000, 0x00000000, 0x7fc00005], [0xffc00000], E, "an invalid product gives the default NaN even when src2 is a NaN", ieee=1)
fact("v_mul_legacy_f32 v10, v4, v5", [0x00000000, 0x7fc00001], [0x00000000], E, "the legacy multiply gives 0 for a zero factor even against a NaN")
fact("v_fma_legacy_f32 v10, v4, v5, v6", [0x00000000, 0x7fc00001, 0x3f800000], [0x3f800000], E, "the legacy fma's zero factor hides a NaN factor")
fact("v_fma_legacy_f32 v10, v4, v5, v6", [0x00000000, 0x7fc00001, 0x7f800003], [0x7fc00003], E, "a NaN src2 still wins in the legacy fma", ieee=1)
fact("v_pk_fma_f16 v10, v4, v5, v6", [0x7c007c00, 0x00000000, 0x7e017e01], [0xfe00fe00], TD + " (entry: packed f16 NaN results)", "an invalid product gives the default NaN even when src2 is a NaN", ieee=1)
fact("v_pk_max_f16 v10, v4, v5", [0x7d017d01, 0x3c003c00], [0x7f017f01], TD + " (entry: packed f16 NaN results)", "with IEEE=1 a signaling NaN is quieted and returned", ieee=1)
fact("v_pk_max_f16 v10, v4, v5", [0x7f017f01, 0x3c003c00], [0x3c003c00], TD + " (entry: packed f16 NaN results)", "with IEEE=1 a quiet NaN gives the other operand", ieee=1)
fact("v_pk_max_f16 v10, v4, v5", [0x7d017d01, 0x3c003c00], [0x3c003c00], TD + " (entry: packed f16 NaN results)", "with IEEE=0 min/max ignore signaling and give the other operand", ieee=0)

# -- directed f16 rounding
E = TD + " (entry: directed f16 rounding for v_cvt_f16_f32 ...)"
fact("v_cvt_f16_f32 v10, v4", [0x3f800001], [0x3c01], E, "round16 toward +inf applies with f16 denormals kept", round16=1, denorm16=3)
fact("v_cvt_f16_f32 v10, v4", [0x3f800001], [0x3c00], E, "with f16 denormals flushed the conversion rounds to nearest even", round16=1, denorm16=0)

# -- division helpers (f32 and f64)
E = SO + " (the f32 division macro: div_scale, div_fmas, div_fixup)"
fact("v_div_scale_f32 v10, vcc_lo, v4, v5, v4", [0x00000000, 0x3f800000], [0xffc00000], E, "a zero input gives the default NaN")
fact("v_div_fixup_f32 v10, v4, v5, v6", [0x7fc00000, 0x3f800000, 0x3f800000], [0x7f800000], E, "a NaN quotient of finite inputs becomes an infinity", ieee=1)
E = SO + " (the f64 division macro and the f64 unary ops)"
fact("v_div_scale_f64 v[10:11], vcc_lo, v[4:5], v[6:7], v[4:5]", [0, 0, 0, 0x3ff00000], [0x00000000, 0xfff80000], E, "a zero input gives the f64 default NaN")
fact("v_div_scale_f64 v[10:11], vcc_lo, v[4:5], v[6:7], v[4:5]", [0x00000001, 0x7ff00000, 0, 0x3ff00000], [0x00000001, 0x7ff00000], E, "a NaN source passes unchanged", ieee=1)
fact("v_sqrt_f64 v[10:11], v[4:5]", [0, 0x80000000], [0, 0x80000000], E, "sqrt(-0) = -0")
fact("v_rsq_f64 v[10:11], v[4:5]", [0, 0x80000000], [0, 0xfff00000], E, "rsq(-0) = -inf")
fact("v_sqrt_f64 v[10:11], v[4:5]", [0, 0xbff00000], [0, 0xfff80000], E, "a negative input gives the default NaN")

# -- sine near zero (transcendental: software sequence pending)
E = TD + " (entry: v_rcp, v_rsq, v_sqrt, v_log, v_exp, v_sin and v_cos use the driver's approximation)"
fact("v_sin_f32 v10, v4", [0x35800000], [0x36c90fd5], E, "below 2^-12 of a turn the result is the input times the hardware's 6.2831826")
fact("v_sin_f32 v10, v4", [0x00000001], [0x00000006], E, "a denormal input with f32 denormals kept gives the input times 6.2831826", denorm32=3)

# -- legacy mad on gfx1010
E = TD + " (entry: v_mad_legacy_f32 and v_mac_legacy_f32 round the product to f32 before the add)"
fact("v_fma_legacy_f32 v10, v4, v5, v6", [0x00000000, 0xbf800000, 0x80000000], [0x00000000], E, "a zero factor gives a +0 product, and +0 + -0 is +0", gfx="gfx1010")
fact("v_fma_legacy_f32 v10, v4, v5, v6", [0x7f800000, 0x3f800000, 0xff800000], [0xffc00000], E, "inf - inf gives the default NaN", gfx="gfx1010")


def encode(body):
    out = subprocess.run([BIN, "encode", body], check=True, capture_output=True, text=True).stdout
    return out.split()


def main():
    cols = ["instruction", "encoding", "wave", "ieee", "dx10_clamp", "denorm32", "denorm16", "round32",
            "round16", "fp16_overflow"] + [f"in{i}" for i in range(6)] + [f"out{i}" for i in range(16)] + [
            "gfx", "source", "note", "replay"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for body, ins, outs, m, gfx, src, note, replay in FACTS:
        words = encode(body)
        outcells = [f"0x{o:08x}" for o in outs] + [""] * (16 - len(outs))
        w.writerow([body.replace("\n", " ; "), " ".join(words), 32] + [m[k] for k in
                   ["ieee", "dx10_clamp", "denorm32", "denorm16", "round32", "round16", "fp16_overflow"]]
                   + [f"0x{x:08x}" for x in ins] + outcells + [gfx, src, note, replay])
    data = buf.getvalue().encode()
    path = os.path.join(ROOT, "datasets/reference-facts.csv")
    open(path, "wb").write(data)
    gfxs = {}
    for f in FACTS:
        gfxs[f[4]] = gfxs.get(f[4], 0) + 1
    manifest = {
        "schema_version": 1,
        "format": "rdnaprobe dataset schema v1 (docs/dataset-format.md)",
        "dataset": "reference-facts.csv",
        "producer": {
            "backend": "hip:gfx103x",
            "device": "the RDNA GPUs the reference notes name per fact (gfx1035, gfx1036, gfx1010)",
            "gfx": "gfx1030",
            "driver": "not recorded by the notes",
            "runtime": "as stated by the reference notes",
            "rdnaprobe_version": "",
        },
        "generator": "scripts/reference-facts/make.py: facts stated in shared/reference, one row each",
        "rows": len(FACTS),
        "sha256": hashlib.sha256(data).hexdigest(),
        "created": "2026-12-01T17:00:00Z",
        "provenance": {
            "source": "statements of measured results in the public reference notes (shared/reference)",
            "rows_per_gfx": gfxs,
            "unstated_mode_cells": {},
            "extra_columns": ["replay"],
            "caveats": [
                "The notes state the result of each fact; the operands the notes leave open (the other factor, the addend) are chosen here and named in the note.",
                "Only the outputs a fact states are filled; the others are empty (not captured).",
                "`replay` says whether the CPU model must reproduce the row bit for bit (`exact`) or why it cannot yet (`pending: ...`).",
            ],
        },
    }
    open(os.path.join(ROOT, "datasets/reference-facts.manifest.json"), "w").write(json.dumps(manifest, indent=2) + "\n")
    print(f"{len(FACTS)} facts", file=sys.stderr)


if __name__ == "__main__":
    main()
