#!/usr/bin/env python3
"""Writes datasets/notes/wave_notes.csv (and its manifest): wave-contract rows written from the
statements of the reference notes (../reference/shader-technical-debt.md) about scalar control
flow and calls, cross-lane ops, wave64 lanes, VOPC masks and SMEM. The expected values are what each cited
statement gives for the inputs, worked out here; they are not hardware captures. Encodings come
from llvm-mc-19 -mcpu=gfx1030 (the decoder's oracle).
Usage: scripts/notes-wave-fixtures.py datasets/notes/wave_notes.csv"""
import hashlib, json, math, struct, subprocess, sys

V1 = ("instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,"
      + ",".join(f"in{i}" for i in range(6)) + "," + ",".join(f"out{i}" for i in range(16))
      + ",gfx,source,note")
WAVE = "wave_id,lane,exec_in,s_in,mem_in,mem_bytes,s_out,exec_out,vcc_out,scc_out,mem_out"
SOURCE = "rdnaprobe datasets/notes/wave_notes.csv: written from ../reference notes (see note)"


def encode(text):
    """The body's words, one llvm-mc-19 run per instruction."""
    words = []
    for inst in text.split("; "):
        out = subprocess.run(["llvm-mc-19", "-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"],
                             input=inst, capture_output=True, text=True, check=True).stdout
        enc = out.split("encoding: [")[1].split("]")[0].split(",")
        b = [int(x, 16) for x in enc]
        words += [b[i] | b[i + 1] << 8 | b[i + 2] << 16 | b[i + 3] << 24 for i in range(0, len(b), 4)]
    return " ".join(f"0x{w:08x}" for w in words)


def dw(xs):
    return " ".join(f"0x{x:08x}" for x in xs)


def case(wid, text, w, gfx, note, ins, outs, exec_in=None, s_in=None, mem_in=None, mem_bytes=None,
         s_out=None, exec_out=None, vcc_out=None, scc_out=None, mem_out=None):
    """One wave: a row per lane; `ins(l)` gives in0.., `outs(l)` out0.. (unlisted dwords 0)."""
    enc = encode(text)
    full = (1 << w) - 1
    rows = []
    for l in range(w):
        i = ins(l) + [0] * (6 - len(ins(l)))
        o = outs(l) + [0] * (16 - len(outs(l)))
        cells = [f'"{text}"', enc, str(w)] + [""] * 7 + [f"0x{x:08x}" for x in i + o]
        cells += [gfx, SOURCE, f'"{note}"', wid, str(l)]
        first = l == 0
        opt = lambda v, f: f(v) if first and v is not None else ""
        cells += [opt(exec_in, lambda v: f"0x{v:016x}"), opt(s_in, dw), opt(mem_in, dw),
                  opt(mem_bytes, str), opt(s_out, dw), opt(exec_out, lambda v: f"0x{v & full:016x}"),
                  opt(vcc_out, lambda v: f"0x{v & full:016x}"), opt(scc_out, str), opt(mem_out, dw)]
        rows.append(",".join(cells))
    return rows


def s16(**kv):
    s = [0] * 16
    for k, v in kv.items():
        s[int(k[1:])] = v
    return s


def bits(pred, w):
    return sum(1 << l for l in range(w) if pred(l))


rows = []
ALL64 = (1 << 64) - 1

# [N-SETKILL] s_setkill ends the wave like s_endpgm for any immediate: a store before it is
# visible and nothing after it runs (measured on gfx1035).
rows += case("setkill_vgpr", "v_mov_b32 v10, v4; s_setkill 0; v_mov_b32 v10, v5; v_mov_b32 v11, 7", 64,
             "gfx1035", "[N-SETKILL] nothing after s_setkill 0 runs", lambda l: [100 + l, l],
             lambda l: [100 + l], exec_in=ALL64, exec_out=ALL64, vcc_out=0, scc_out=0)
rows += case("setkill_store", "v_lshlrev_b32 v6, 2, v5; global_store_dword v6, v4, s[16:17]; s_setkill 1; "
             "global_store_dword v6, v5, s[16:17]; v_mov_b32 v10, 1", 32, "gfx1035",
             "[N-SETKILL] a store before s_setkill 1 is visible, the one after it never happens",
             lambda l: [100 + l, l], lambda l: [], exec_in=(1 << 32) - 1, mem_bytes=128,
             mem_out=[100 + l for l in range(32)])

# [N-FIRSTLANE] v_readfirstlane_b32 with an empty EXEC reads lane 0 (the notes' empty-EXEC
# lane-zero fallback, Vega ISA 12.8).
rows += case("firstlane_empty", "v_readfirstlane_b32 s0, v4", 64, "gfx1030",
             "[N-FIRSTLANE] EXEC empty: lane 0's VGPR", lambda l: [3 * l + 7], lambda l: [],
             exec_in=0, s_in=s16(s0=0xdead), s_out=s16(s0=7), exec_out=0, vcc_out=0, scc_out=0)
rows += case("firstlane_high", "v_readfirstlane_b32 s0, v4", 64, "gfx1030",
             "[N-FIRSTLANE] the lowest lane of EXEC, here lane 45 of a wave64", lambda l: [3 * l + 7],
             lambda l: [], exec_in=1 << 45 | 1 << 60, s_out=s16(s0=3 * 45 + 7), exec_out=1 << 45 | 1 << 60)

# [N-LANES] a wave64 holds lanes 32-63: v_readlane_b32 reads the selected lane's VGPR (also an
# inactive one), EXEC read as a value holds every lane, and each lane runs by its own EXEC bit.
rows += case("readlane_upper", "v_readlane_b32 s1, v4, s2", 64, "gfx1030",
             "[N-LANES] v_readlane_b32 of lane 50 while EXEC holds lanes 0-31 only",
             lambda l: [3 * l + 7], lambda l: [], exec_in=0xffffffff, s_in=s16(s2=50),
             s_out=s16(s1=3 * 50 + 7, s2=50), exec_out=0xffffffff)
S0, S1 = 0x0000ff00, 0x80000001
NEW_EXEC = S1 << 32 | S0
rows += case("exec_value64", "s_mov_b64 s[4:5], exec; v_mov_b32 v10, exec_hi; "
             "s_and_saveexec_b64 s[6:7], s[0:1]; v_mov_b32 v11, 5", 64, "gfx1030",
             "[N-LANES] EXEC as a value and the saveexec copy hold lanes 32-63; after EXEC = s[0:1] "
             "each lane runs by its own bit", lambda l: [l],
             lambda l: [0xffffffff, 5 if NEW_EXEC >> l & 1 else 0], exec_in=ALL64, s_in=s16(s0=S0, s1=S1),
             s_out=s16(s0=S0, s1=S1, s4=0xffffffff, s5=0xffffffff, s6=0xffffffff, s7=0xffffffff),
             exec_out=NEW_EXEC, vcc_out=0, scc_out=1)

# [N-PERMLANE] v_permlane16/x16: with fetch-inactive (op_sel[0]) an inactive source lane's VGPR
# is read; without it an inactive source leaves vdst unchanged, or writes 0 with bound_ctrl
# (op_sel[1]). Selectors s0 = 0x76543210, s1 = 0xfedcba98: lane l reads lane l ^ 16.
SEL = s16(s0=0x76543210, s1=0xfedcba98)
EX = 0x00ff000f
for wid, opsel, fallback, what in [("permx_keep", "", None, "keeps vdst"),
                                   ("permx_bound", " op_sel:[0,1]", 0, "writes 0 with bound_ctrl"),
                                   ("permx_fetch", " op_sel:[1,0]", "fetch", "reads it with fetch-inactive")]:
    def out(l, fallback=fallback):
        if not EX >> l & 1:
            return [0]
        src = l ^ 16
        if EX >> src & 1 or fallback == "fetch":
            return [100 + src]
        return [0x55 if fallback is None else fallback]
    rows += case(wid, f"v_mov_b32 v10, 0x55; v_permlanex16_b32 v10, v4, s0, s1{opsel}", 32, "gfx1030",
                 f"[N-PERMLANE] an inactive source lane {what}", lambda l: [100 + l], out,
                 exec_in=EX, s_in=SEL, s_out=SEL, exec_out=EX)
rows += case("permx_upper64", "v_permlanex16_b32 v10, v4, s0, s1", 64, "gfx1030",
             "[N-PERMLANE] [N-LANES] lanes 32-63 of a wave64 read each other's VGPRs",
             lambda l: [100 + l], lambda l: [100 + (l ^ 16)] if l >= 32 else [],
             exec_in=ALL64 ^ 0xffffffff, s_in=SEL, s_out=SEL, exec_out=ALL64 ^ 0xffffffff)

# [N-CMPNAN] the ordered not-equal, less-than and greater-than compares are false with a NaN
# operand (also against a literal infinity) and the unordered not-equal is true, the same in a
# ballot as per lane; a VOPC mask holds the active lanes' bits.
f = lambda x: struct.unpack("<f", struct.pack("<I", x))[0]
QNAN, SNAN, NQNAN, ONE, TWO, INF, NINF = 0x7fc00000, 0x7f800001, 0xffc00000, 0x3f800000, 0x40000000, 0x7f800000, 0xff800000
PAIRS = [(QNAN, ONE), (ONE, QNAN), (ONE, ONE), (ONE, TWO), (TWO, ONE), (QNAN, QNAN), (INF, ONE), (ONE, INF),
         (SNAN, ONE), (0x80000000, 0), (NQNAN, NINF), (INF, INF), (NINF, INF), (TWO, SNAN), (0xc0000000, ONE),
         (ONE, 0xbf800000)]
pair = lambda l: PAIRS[l % len(PAIRS)]
EXC = 0xfffffffe
def mask(pred):
    return bits(lambda l: EXC >> l & 1 and pred(f(pair(l)[0]), f(pair(l)[1])), 32)
NEQ = mask(lambda x, y: not x == y)
LG = mask(lambda x, y: x < y or x > y)
LT = mask(lambda x, y: x < y)
GT = mask(lambda x, y: x > y)
LT_INF = mask(lambda x, y: x < math.inf)
NLT = mask(lambda x, y: not x < y)
rows += case("cmp_nan", "v_cmp_neq_f32 vcc_lo, v4, v5; s_mov_b32 s0, vcc_lo; v_cmp_lg_f32 vcc_lo, v4, v5; "
             "s_mov_b32 s1, vcc_lo; v_cmp_lt_f32 s2, v4, v5; v_cmp_gt_f32 s3, v4, v5; "
             "v_cmp_lt_f32 s4, v4, 0x7f800000; v_cmp_nlt_f32 vcc_lo, v4, v5; v_cmpx_neq_f32 v4, v5; "
             "v_mov_b32 v10, 1", 32, "gfx1030",
             "[N-CMPNAN] NaN lanes: lg, lt, gt false, neq and nlt true; lane 0 is outside EXEC",
             lambda l: list(pair(l)), lambda l: [1 if NEQ >> l & 1 else 0], exec_in=EXC,
             s_out=s16(s0=NEQ, s1=LG, s2=LT, s3=GT, s4=LT_INF), exec_out=NEQ, vcc_out=NLT)

# [N-SMEM] s_buffer_load reads whole dwords from (base & ~3) + (offset & ~3) (measured on
# gfx1035): a V# whose base is the region's address + 1 and offsets 5 and 2.
MEM = [0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c]
rows += case("smem_unaligned", "s_mov_b64 s[24:25], s[20:21]; s_mov_b64 s[26:27], s[22:23]; "
             "s_add_u32 s24, s24, 1; s_buffer_load_dword s0, s[24:27], 0x5; "
             "s_buffer_load_dword s1, s[24:27], 0x2; s_buffer_load_dword s2, s[20:23], 0x7", 32, "gfx1035",
             "[N-SMEM] an unaligned V# base and offset: the dwords at (base & ~3) + (offset & ~3)",
             lambda l: [], lambda l: [], exec_in=(1 << 32) - 1, mem_in=MEM, mem_bytes=16,
             s_out=s16(s0=MEM[1], s1=MEM[0], s2=MEM[1]), mem_out=MEM)

# [N-CALL] s_call_b64 writes PC + 4 to its pair and branches to PC + 4 + sext(SIMM16) * 4;
# s_setpc_b64 of the link returns after the call (measured on gfx1036, wave32 and wave64, with
# SIMM16 = 3). s_swappc_b64 links PC + 4 like s_getpc_b64 and branches to its source pair; with
# SDST 125 (null) it is s_setpc_b64 and writes no pair. Code addresses only enter the outputs as
# differences, so the rows hold whatever the body's address is.
CALL3 = ("s_getpc_b64 s[8:9]; s_call_b64 s[4:5], 3; v_mov_b32 v11, 9; v_mov_b32 v12, s6; s_endpgm; "
         "v_mov_b32 v10, v4; s_sub_u32 s6, s4, s8; s_setpc_b64 s[4:5]")
for w in (32, 64):
    rows += case(f"call{w}", CALL3, w, "gfx1036",
                 "[N-CALL] s_call_b64 with SIMM16 = 3: the callee runs, its link minus the call's own "
                 "address is 4, and s_setpc_b64 of the link returns after the call",
                 lambda l: [100 + l], lambda l: [100 + l, 9, 4], exec_in=(1 << w) - 1, exec_out=(1 << w) - 1)
rows += case("call_twice", "s_call_b64 s[4:5], 4; v_add_nc_u32 v11, 1, v11; s_call_b64 s[4:5], 2; "
             "v_mov_b32 v12, 7; s_endpgm; v_add_nc_u32 v10, v4, v10; s_setpc_b64 s[4:5]", 32, "gfx1036",
             "[N-CALL] one callee called from two sites returns to each", lambda l: [100 + l],
             lambda l: [200 + 2 * l, 1, 7], exec_in=(1 << 32) - 1)
rows += case("swappc", "s_getpc_b64 s[0:1]; s_add_u32 s0, s0, 20; s_addc_u32 s1, s1, 0; "
             "s_swappc_b64 s[2:3], s[0:1]; v_mov_b32 v11, 5; s_endpgm; v_mov_b32 v10, v4; "
             "s_sub_u32 s6, s2, s0; v_mov_b32 v12, s6; s_setpc_b64 s[2:3]", 64, "gfx1036",
             "[N-CALL] s_swappc_b64 branches to its source pair and links PC + 4 (8 bytes before the "
             "callee here)", lambda l: [100 + l], lambda l: [100 + l, 5, 0xfffffff8], exec_in=ALL64)
rows += case("swappc_null", "s_getpc_b64 s[0:1]; s_add_u32 s0, s0, 16; s_addc_u32 s1, s1, 0; "
             "s_swappc_b64 null, s[0:1]; v_mov_b32 v11, 5; v_mov_b32 v10, v4; v_mov_b32 v12, s6; "
             "v_mov_b32 v13, s7", 32, "gfx1036",
             "[N-CALL] s_swappc_b64 with SDST 125 is s_setpc_b64: it branches and leaves the marker "
             "pair s[6:7] as it was", lambda l: [100 + l], lambda l: [100 + l, 0, 0x1234, 0x5678],
             exec_in=(1 << 32) - 1, s_in=s16(s6=0x1234, s7=0x5678))

out = sys.argv[1]
text = V1 + "," + WAVE + "\n" + "".join(r + "\n" for r in rows)
open(out, "w").write(text)
claims = {
    "[N-SETKILL]": "s_setkill ends the wave like s_endpgm for any immediate (notes, measured on gfx1035)",
    "[N-FIRSTLANE]": "v_readfirstlane_b32 reads lane 0 when EXEC is empty (notes, after the Vega ISA 12.8)",
    "[N-LANES]": "a wave64 holds lanes 32-63: EXEC as a value, a lane's own EXEC bit, v_readlane_b32 of "
                 "any lane (notes: the console's behaviour the narrow-host entries name)",
    "[N-PERMLANE]": "v_permlane16/x16 inactive source lanes: fetch-inactive reads them, else vdst is kept "
                    "or 0 with bound_ctrl (notes)",
    "[N-CMPNAN]": "ordered not-equal/less/greater compares are false with a NaN operand, in a ballot too (notes)",
    "[N-SMEM]": "s_buffer_load reads (base & ~3) + (offset & ~3) (notes, measured on gfx1035)",
    "[N-CALL]": "s_call_b64 / s_swappc_b64 link PC + 4 and branch; s_setpc_b64 of the link returns after the "
                "call; s_swappc_b64 with SDST 125 is s_setpc_b64 (notes, measured on gfx1036)",
}
manifest = {
    "schema_version": 1,
    "format": "rdnaprobe dataset schema v1 with the wave contract's columns (docs/dataset-format.md)",
    "dataset": out.rsplit("/", 1)[-1],
    "producer": {"backend": "none",
                 "device": "none: rows written from statements of the reference notes, not captured",
                 "gfx": "gfx1030", "driver": "not applicable", "runtime": "not applicable",
                 "rdnaprobe_version": ""},
    "generator": "scripts/notes-wave-fixtures.py: expected values worked out from the reference notes' "
                 "statements; encodings from llvm-mc-19 -mcpu=gfx1030",
    "rows": len(rows),
    "sha256": hashlib.sha256(text.encode()).hexdigest(),
    "created": "2026-12-01T20:30:00Z",
    "provenance": {
        "source": "public reference notes, transcribed as waves",
        "claims": claims,
        "caveats": ["Not measured here: each wave's note names the statement it follows; the rows of "
                    "a gfx the notes measured carry that gfx, the others gfx1030."],
    },
}
open(out.rsplit(".", 1)[0] + ".manifest.json", "w").write(json.dumps(manifest, indent=2) + "\n")
