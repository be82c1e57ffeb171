#!/usr/bin/env python3
"""Writes datasets/wave/crosslane.csv: hand-computed wave-contract rows (expected values worked
out here from the RDNA2 ISA's descriptions of VOPC, v_cmpx, v_readlane/readfirstlane/writelane
and v_permlane16/x16), one wave per case. Encodings come from `rdnaprobe encode`.
Usage: scripts/wave-fixtures.py PATH/TO/rdnaprobe datasets/wave/crosslane.csv (writes its manifest too)
With a third argument (datasets/wave/lds.csv) it also writes the LDS waves there, with a
fourth (datasets/wave/memory.csv) the memory-region waves, with a fifth
(datasets/wave/interp.csv) the interpolation waves and with a sixth (datasets/wave/movrel.csv)
the run-time-M0 relative-move waves."""
import subprocess, sys

V1 = ("instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,"
      + ",".join(f"in{i}" for i in range(6)) + "," + ",".join(f"out{i}" for i in range(16))
      + ",gfx,source,note")
WAVE = "wave_id,lane,exec_in,s_in,s_out,exec_out,vcc_out,scc_out"

def encode(text):
    out = subprocess.run([sys.argv[1], "encode", text], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())

def mask(w, m):
    return m & ((1 << w) - 1)

def row_cells(w, lane, in0, out0):
    return [f"0x{in0:08x}", f"0x{lane:08x}"] + ["0x00000000"] * 4, [f"0x{out0:08x}"] + ["0x00000000"] * 15

def case(wid, text, w, lanes, in0, exec_in, s_in, s_out, exec_out, vcc, out0, note, enc=None, scc=0):
    # DS modifiers are not in the project's assembler: those rows give llvm-mc's words
    enc = enc or encode(text)
    rows = []
    for i, l in enumerate(lanes):
        ins, outs = row_cells(w, l, in0(l), out0(l))
        first = i == 0
        cells = [f'"{text}"', enc, str(w)] + [""] * 7 + ins + outs + ["gfx1030", "hand-computed from the RDNA2 ISA", f'"{note}"']
        sin = " ".join(f"0x{x:08x}" for x in s_in) if first else ""
        sout = " ".join(f"0x{x:08x}" for x in s_out) if first else ""
        cells += [wid, str(l), f"0x{exec_in:016x}" if first else "", sin, sout,
                  f"0x{mask(w, exec_out):016x}" if first else "",
                  f"0x{mask(w, vcc):016x}" if first else "", str(scc) if first else ""]
        rows.append(",".join(cells))
    return rows

def s16(**kv):
    s = [0] * 16
    for k, v in kv.items():
        s[int(k[1:])] = v
    return s

rows = []
A32, A64 = list(range(32)), list(range(64))
# VOPC into VCC is the ballot of the lanes' results, ANDed with EXEC
rows += case("ballot32", "v_cmp_lt_u32 vcc_lo, 5, v4", 32, A32, lambda l: l, 0xffff, s16(), s16(),
             0xffff, 0xffc0, lambda l: 0, "VOPC: VCC = ballot & EXEC")
rows += case("ballot64", "v_cmp_lt_u32 vcc, 40, v4", 64, A64, lambda l: l, (1 << 64) - 1, s16(), s16(),
             (1 << 64) - 1, ~((1 << 41) - 1), lambda l: 0, "VOPC wave64: the high half in VCC_HI")
# lanes without a row hold in0 = 0
rows += case("sparse", "v_cmp_ne_u32 vcc_lo, 0, v4", 32, [0, 5, 31], lambda l: l + 1, (1 << 32) - 1,
             s16(), s16(), (1 << 32) - 1, (1 << 0) | (1 << 5) | (1 << 31), lambda l: 0,
             "lanes with no row have zero inputs")
rows += case("cmpx", "v_cmpx_gt_u32 v4, 3; v_mov_b32 v10, 9", 32, A32, lambda l: l, 0xff, s16(), s16(),
             0xf0, 0, lambda l: 9 if 4 <= l < 8 else 0, "v_cmpx writes EXEC = result & EXEC")
rows += case("firstlane", "v_readfirstlane_b32 s0, v4", 32, A32, lambda l: 3 * l + 1, 0xf0, s16(s0=7),
             s16(s0=13), 0xf0, 0, lambda l: 0, "v_readfirstlane_b32: lowest lane of EXEC")
rows += case("firstlane0", "v_readfirstlane_b32 s0, v4", 32, A32, lambda l: 3 * l + 1, 0, s16(), s16(s0=1),
             0, 0, lambda l: 0, "v_readfirstlane_b32: lane 0 when EXEC is empty")
rows += case("readlane64", "v_readlane_b32 s1, v4, s2", 64, A64, lambda l: 3 * l + 1, 1 << 50,
             s16(s2=40), s16(s1=121, s2=40), 1 << 50, 0, lambda l: 0,
             "v_readlane_b32 reads an inactive lane's VGPR")
rows += case("writelane", "v_writelane_b32 v10, s0, 3", 32, A32, lambda l: l, 1, s16(s0=0xabc),
             s16(s0=0xabc), 1, 0, lambda l: 0xabc if l == 3 else 0, "v_writelane_b32 ignores EXEC")
rows += case("permlane16", "v_permlane16_b32 v10, v4, s0, s1", 32, A32, lambda l: 100 + l, (1 << 32) - 1,
             s16(s0=0x89abcdef, s1=0x01234567), s16(s0=0x89abcdef, s1=0x01234567), (1 << 32) - 1, 0,
             lambda l: 100 + (l & ~15) + 15 - (l & 15), "v_permlane16_b32: selects within a row")
rows += case("permlanex16", "v_permlanex16_b32 v10, v4, s0, s1", 64, A64, lambda l: 100 + l, (1 << 64) - 1,
             s16(s0=0x76543210, s1=0xfedcba98), s16(s0=0x76543210, s1=0xfedcba98), (1 << 64) - 1, 0,
             lambda l: 100 + (l ^ 16), "v_permlanex16_b32: the other row of the half")
# DPP16 (gfx10 controls) and DPP8: src0 from another lane of the row
rows += case("dpp_shr_bc", "v_mov_b32_dpp v10, v4 row_shr:1 bound_ctrl:1", 64, A64, lambda l: 100 + l,
             (1 << 64) - 1, s16(), s16(), (1 << 64) - 1, 0, lambda l: 0 if l % 16 == 0 else 99 + l,
             "DPP row_shr: no source in the row with bound_ctrl gives 0")
rows += case("dpp_share", "v_mov_b32_dpp v10, v4 row_share:5", 32, A32, lambda l: 100 + l, (1 << 32) - 1,
             s16(), s16(), (1 << 32) - 1, 0, lambda l: 100 + (l & ~15) + 5, "DPP row_share (gfx10)")
rows += case("dpp_masks", "v_mov_b32 v10, 0x55; v_mov_b32_dpp v10, v4 quad_perm:[0,0,0,0] row_mask:0x2 bank_mask:0x5",
             32, A32, lambda l: 100 + l, (1 << 32) - 1, s16(), s16(), (1 << 32) - 1, 0,
             lambda l: 100 + (l & ~3) if l >= 16 and (l % 16) // 4 in (0, 2) else 0x55,
             "DPP row_mask/bank_mask: masked lanes keep vdst")
rows += case("dpp8", "v_mov_b32_dpp v10, v4 dpp8:[7,6,5,4,3,2,1,0]", 64, A64, lambda l: 100 + l,
             (1 << 64) - 1, s16(), s16(), (1 << 64) - 1, 0, lambda l: 100 + (l ^ 7), "DPP8 lane selects")
# DPP whose destination or src1 is src0's own register (clang's cross-lane builtins and
# reductions): the destination takes the permuted src0 like any other register, and only
# src0 is permuted; src1 reads this lane's value (RDNA2 ISA 6.2.2)
SHR1 = lambda l: 0 if l % 16 == 0 else 0x100 + l - 1
for w, lanes, full in ((32, A32, (1 << 32) - 1), (64, A64, (1 << 64) - 1)):
    rows += case(f"dpp8_self{w}", "v_mov_b32_dpp v4, v4 dpp8:[7,6,5,4,3,2,1,0]; v_mov_b32 v10, v4", w, lanes,
                 lambda l: 0x100 + l, full, s16(), s16(), full, 0, lambda l: 0x100 + (l ^ 7),
                 "DPP8 move onto its own source")
    rows += case(f"dpp_quad_self{w}", "v_mov_b32_dpp v4, v4 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf; "
                 "v_mov_b32 v10, v4", w, lanes, lambda l: 0x100 + l, full, s16(), s16(), full, 0,
                 lambda l: 0x100 + (l ^ 3), "DPP quad_perm move onto its own source")
    rows += case(f"dpp_shr_self{w}", "v_mov_b32_dpp v4, v4 row_shr:1 bound_ctrl:1; v_mov_b32 v10, v4", w, lanes,
                 lambda l: 0x100 + l, full, s16(), s16(), full, 0, SHR1,
                 "DPP row_shr move onto its own source, bound_ctrl")
    rows += case(f"dpp_add_alias{w}", "v_add_nc_u32_dpp v4, v4, v4 row_shr:1 bound_ctrl:1; v_mov_b32 v10, v4", w,
                 lanes, lambda l: 0x100 + l, full, s16(), s16(), full, 0, lambda l: SHR1(l) + 0x100 + l,
                 "DPP src1 naming src0's register reads this lane's value")
    rows += case(f"dpp_add_alias_keep{w}", "v_add_nc_u32_dpp v4, v4, v4 row_shr:1; v_mov_b32 v10, v4", w, lanes,
                 lambda l: 0x100 + l, full, s16(), s16(), full, 0,
                 lambda l: 0x100 + l if l % 16 == 0 else 2 * (0x100 + l) - 1,
                 "DPP without bound_ctrl: a lane with no source keeps its destination")
# control flow: branches are wave-uniform; a loop runs until its condition is empty
COUNTED = "v_mov_b32 v10, v4; v_add_nc_u32 v10, 1, v10; v_cmp_gt_u32 vcc_lo, 5, v10; s_cbranch_vccnz -3"
rows += case("loop32", COUNTED, 32, A32, lambda l: l, (1 << 32) - 1, s16(), s16(), (1 << 32) - 1, 0,
             lambda l: l + 5, "counted loop on VCC: 5 passes for the lowest lane (in0 = 0)")
rows += case("loop64", COUNTED.replace("vcc_lo", "vcc"), 64, A64, lambda l: 3 * l, (1 << 64) - 1, s16(), s16(),
             (1 << 64) - 1, 0, lambda l: 3 * l + 5, "counted loop: wave64")
rows += case("endpgm", "v_mov_b32 v10, 1; s_endpgm; v_mov_b32 v10, 2", 32, A32, lambda l: l, (1 << 32) - 1,
             s16(), s16(), (1 << 32) - 1, 0, lambda l: 1, "s_endpgm in the middle ends the wave")
rows += case("execz", "v_cmpx_lt_u32 100, v4; s_cbranch_execz 1; v_mov_b32 v11, 7; v_mov_b32 v10, 3", 32, A32,
             lambda l: l, (1 << 32) - 1, s16(), s16(), 0, 0, lambda l: 0, "s_cbranch_execz taken: EXEC empty")
rows += case("execnz64", "v_cmpx_lt_u32 20, v4; s_cbranch_execnz 1; v_mov_b32 v11, 7; v_mov_b32 v10, 3", 64, A64,
             lambda l: l, (1 << 64) - 1, s16(), s16(), ~((1 << 21) - 1), 0, lambda l: 3 if l > 20 else 0,
             "s_cbranch_execnz taken: the skipped move never runs")
# scalar ALU inside a wave: SCC drives a loop; saveexec narrows EXEC to a VOPC ballot and restores it
rows += case("scalar_loop", "s_mov_b32 s1, 0; s_add_u32 s1, s1, 3; s_sub_u32 s0, s0, 1; s_cmp_lg_u32 s0, 0; "
             "s_cbranch_scc1 -4; v_mov_b32 v10, s1", 32, A32, lambda l: l, (1 << 32) - 1, s16(s0=5),
             s16(s1=15), (1 << 32) - 1, 0, lambda l: 15, "SALU loop on SCC: s0 passes of s1 += 3")
rows += case("saveexec32", "v_cmp_gt_u32 vcc_lo, v4, s1; s_and_saveexec_b32 s3, vcc_lo; v_mov_b32 v10, 7; "
             "s_or_b32 exec_lo, exec_lo, s3", 32, A32, lambda l: l, (1 << 32) - 1, s16(s1=15),
             s16(s1=15, s3=0xffffffff), (1 << 32) - 1, 0xffff0000, lambda l: 7 if l > 15 else 0,
             "s_and_saveexec_b32: EXEC = VCC & EXEC, old EXEC saved; s_or restores it (SCC = result != 0)",
             scc=1)
rows += case("saveexec64", "v_cmp_gt_u32 vcc, v4, s1; s_and_saveexec_b64 s[4:5], vcc; v_mov_b32 v10, 7; "
             "s_or_b64 exec, exec, s[4:5]", 64, A64, lambda l: l, (1 << 64) - 1 - 2, s16(s1=40),
             s16(s1=40, s4=0xfffffffd, s5=0xffffffff), (1 << 64) - 1 - 2, ~((1 << 41) - 1),
             lambda l: 7 if l > 40 else 0, "s_and_saveexec_b64 on a wave64 with lane 1 off", scc=1)
# DS cross-lane ops without LDS access (words from llvm-mc -mcpu=gfx1030); in1 = lane
rows += case("swizzle_qp", "ds_swizzle_b32 v10, v4 offset:swizzle(QUAD_PERM,3,2,1,0)", 64, A64,
             lambda l: 100 + l, (1 << 64) - 1, s16(), s16(), (1 << 64) - 1, 0,
             lambda l: 100 + (l & ~3) + 3 - (l & 3), "ds_swizzle_b32 quad permute mode",
             enc="0xd8d4801b 0x0a000004")
rows += case("bpermute", "ds_bpermute_b32 v10, v5, v4 offset:4", 32, A32, lambda l: 100 + l, (1 << 32) - 1,
             s16(), s16(), (1 << 32) - 1, 0, lambda l: 100 + ((l + 4) // 4) % 32,
             "ds_bpermute_b32: lane (v5 + offset) / 4", enc="0xdacc0004 0x0a000405")

def write(out, header, rows):
    import hashlib, json
    text = header + "\n" + "".join(r + "\n" for r in rows)
    open(out, "w").write(text)
    manifest = {
        "schema_version": 1,
        "format": "rdnaprobe dataset schema v1 with the wave contract's columns (docs/dataset-format.md)",
        "dataset": out.rsplit("/", 1)[-1],
        "producer": {"backend": "none", "device": "hand-computed", "gfx": "gfx1030",
                     "driver": "", "runtime": "", "rdnaprobe_version": ""},
        "generator": "scripts/wave-fixtures.py: expected values worked out from the RDNA2 ISA guide",
        "rows": len(rows),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "created": "2026-12-01T00:00:00Z",
        "provenance": {"caveats": ["Not measured on hardware: each row's note names the rule it follows."]},
    }
    open(out.rsplit(".", 1)[0] + ".manifest.json", "w").write(json.dumps(manifest, indent=2) + "\n")

write(sys.argv[2], V1 + "," + WAVE, rows)

# LDS waves (words from llvm-mc -mcpu=gfx1030): in0 = 100 + lane, in1 = lane, LDS of 512 bytes
LDS_WAVE = "wave_id,lane,exec_in,lds_in,lds_bytes,lds_out"

def dw(xs):
    return " ".join(f"0x{x:08x}" for x in xs)

def lds_case(wid, text, enc, w, exec_in, lds_in, lds_out, outs, note, ins=None, denorm=("", "")):
    rows = []
    for l in range(w):
        i = (ins(l) if ins else [100 + l, l]) + [0] * 6
        ins_cells = [f"0x{x:08x}" for x in i[:6]]
        o = outs(l) + [0] * (16 - len(outs(l)))
        mode = ["", "", str(denorm[0]), str(denorm[1]), "", "", ""]
        cells = [f'"{text}"', enc, str(w)] + mode + ins_cells + [f"0x{x:08x}" for x in o]
        cells += ["gfx1030", "hand-computed from the RDNA2 ISA", f'"{note}"']
        first = l == 0
        cells += [wid, str(l), f"0x{exec_in:016x}" if first else "", dw(lds_in) if first else "",
                  "512" if first else "", dw(lds_out) if first else ""]
        rows.append(",".join(cells))
    return rows

def active(exec_in, l):
    return exec_in >> l & 1 == 1

lds_rows = []
lds_rows += lds_case("exchange", "v_lshlrev_b32 v5, 2, v5; ds_write_b32 v5, v4; v_xor_b32 v6, 4, v5; ds_read_b32 v10, v6",
                     "0x340a0a82 0xd8340000 0x00000405 0x3a0c0a84 0xd8d80000 0x0a000006", 32, (1 << 32) - 1, [],
                     [100 + l for l in range(32)] + [0] * 96, lambda l: [100 + (l ^ 1)],
                     "ds_write_b32 then ds_read_b32 of the neighbour's dword")
E = 0xf0f0f0f0f0f0f0f0
lds_rows += lds_case("atomic_rank", "v_mov_b32 v8, 1; v_mov_b32 v7, 0; ds_add_rtn_u32 v10, v7, v8",
                     "0x7e100281 0x7e0e0280 0xd8800000 0x0a000807", 64, E, [], [32] + [0] * 127,
                     lambda l: [bin(E & ((1 << l) - 1)).count("1") if active(E, l) else 0],
                     "ds_add_rtn_u32: active lanes in ascending order")
lds_rows += lds_case("unaligned", "v_mov_b32 v7, 0; ds_read_b32 v10, v7 offset:1; ds_read_b32 v11, v7 offset:509",
                     "0x7e0e0280 0xd8d80001 0x0a000007 0xd8d801fd 0x0b000007", 32, (1 << 32) - 1,
                     [0x11223344, 0x55667788], [0x11223344, 0x55667788] + [0] * 126,
                     lambda l: [0x88112233, 0], "unaligned read; a read past the LDS gives 0")
lds_rows += lds_case("b64_read2", "v_mov_b32 v7, 0; ds_write_b64 v7, v[4:5]; ds_read2_b32 v[10:11], v7 offset0:1 offset1:3",
                     "0x7e0e0280 0xd9340000 0x00000407 0xd8dc0301 0x0a000007", 64, (1 << 64) - 1, [],
                     [163, 63] + [0] * 126, lambda l: [63, 0], "the highest lane writes last")

# Memory-region waves (words from llvm-mc -mcpu=gfx1030): in0 = 100 + lane, in1 = lane. Bodies
# take addresses from s[16:17] and the V# from s[20:23], so they hold for any region address.
MEM_WAVE = "wave_id,lane,exec_in,s_in,mem_in,mem_bytes,s_out,mem_out"

def mem_case(wid, text, enc, w, exec_in, mem_in, mem_bytes, mem_out, outs, note, s_in=None, s_out=None,
             in0=lambda l: 100 + l, denorm32="", more=lambda l: [0] * 4, denorm16=""):
    s_in, s_out = s_in or [0] * 16, s_out or s_in or [0] * 16
    rows = []
    for l in range(w):
        ins = [f"0x{x:08x}" for x in [in0(l), l] + more(l)]
        o = outs(l) + [0] * (16 - len(outs(l)))
        cells = [f'"{text}"', enc, str(w), "", "", str(denorm32), str(denorm16)] + [""] * 3 + ins
        cells += [f"0x{x:08x}" for x in o]
        cells += ["gfx1030", "hand-computed from the RDNA2 ISA", f'"{note}"']
        first = l == 0
        cells += [wid, str(l), f"0x{exec_in:016x}" if first else "", dw(s_in) if first else "",
                  dw(mem_in) if first else "", str(mem_bytes) if first else "",
                  dw(s_out) if first else "", dw(mem_out) if first else ""]
        rows.append(",".join(cells))
    return rows

ALL32, ALL64 = (1 << 32) - 1, (1 << 64) - 1
mem_rows = []
for w, all_ in ((32, ALL32), (64, ALL64)):
    mem_rows += mem_case(f"global_rw{w}", "v_lshlrev_b32 v6, 2, v5; global_store_dword v6, v4, s[16:17]; "
                         "v_xor_b32 v7, 4, v6; global_load_dword v10, v7, s[16:17]",
                         "0x340c0a82 0xdc708000 0x00100406 0x3a0e0c84 0xdc308000 0x0a100007", w, all_, [],
                         4 * w, [100 + l for l in range(w)], lambda l: [100 + (l ^ 1)],
                         "global_store_dword then global_load_dword of the neighbour's dword (SADDR + VGPR offset)")
BYTES = [0x80ff7f01, 0x11223344]
mem_rows += mem_case("global_widths", "v_mov_b32 v6, 0; global_load_sbyte v10, v6, s[16:17] offset:1; "
                     "global_load_sbyte v11, v6, s[16:17] offset:2; global_load_ushort v12, v6, s[16:17] offset:3; "
                     "global_load_sshort v13, v6, s[16:17] offset:2; global_load_dword v14, v6, s[16:17] offset:6; "
                     "global_load_dword v15, v6, s[16:17] offset:1; v_mov_b32 v16, 0x12345678; "
                     "global_load_ubyte_d16_hi v16, v6, s[16:17] offset:2; global_load_short_d16 v17, v6, s[16:17]; "
                     "global_load_sbyte_d16 v18, v6, s[16:17] offset:3",
                     "0x7e0c0280 0xdc248001 0x0a100006 0xdc248002 0x0b100006 0xdc288003 0x0c100006 0xdc2c8002 "
                     "0x0d100006 0xdc308006 0x0e100006 0xdc308001 0x0f100006 0x7e2002ff 0x12345678 0xdc848002 "
                     "0x10100006 0xdc908000 0x11100006 0xdc888003 0x12100006", 32, ALL32, BYTES, 8, BYTES,
                     lambda l: [0x7f, 0xffffffff, 0x4480, 0xffff80ff, 0, 0x4480ff7f, 0x00ff5678, 0x7f01, 0xff80],
                     "sign and zero extension, unaligned exact bytes, d16 halves; a dword past the region reads 0")
EVEN = 0x55555555
mem_rows += mem_case("store_byte", "global_store_byte v5, v5, s[16:17]", "0xdc608000 0x00100505", 32, EVEN,
                     [0xaaaaaaaa] * 8, 32,
                     [4 * k | 0xaa << 8 | (4 * k + 2) << 16 | 0xaa << 24 for k in range(8)], lambda l: [],
                     "global_store_byte: active lanes write one byte each, the others' bytes stay")
# Lanes of one store that write the same bytes: in lane order, the last active lane's bytes
# stay (a dword every lane writes; shorts at 4 + lane / 2, so lanes 2k and 2k + 1 write the
# same bytes, neighbouring pairs overlap by one byte, and some cross a dword boundary).
def collide_mem(w, exec_in):
    m = bytearray(0xaa for _ in range(48))
    for l in range(w):
        if active(exec_in, l):
            m[0:4] = (100 + l).to_bytes(4, "little")
    for l in range(w):
        if active(exec_in, l):
            a = 4 + l // 2
            m[a:a + 2] = ((100 + l) & 0xffff).to_bytes(2, "little")
    return [int.from_bytes(m[i:i + 4], "little") for i in range(0, len(m), 4)]
for w, all_ in ((32, ALL32), (64, ALL64)):
    ex = all_ & ~(1 << (w - 1)) & ~(1 << 14)
    mem_rows += mem_case(f"store_collide{w}", "v_mov_b32 v6, 0; global_store_dword v6, v4, s[16:17]; "
                         "v_lshrrev_b32 v7, 1, v5; global_store_short v7, v4, s[16:17] offset:4",
                         "0x7e0c0280 0xdc708000 0x00100406 0x2c0e0a81 0xdc688004 0x00100407", w, ex,
                         [0xaaaaaaaa] * 12, 48, collide_mem(w, ex), lambda l: [],
                         "stores whose lanes write the same bytes: the last active lane in lane order "
                         "gives each byte its value (a dword all lanes write; overlapping unaligned shorts)")
E = 0xf0f0f0f0f0f0f0f0
mem_rows += mem_case("atomic_rank", "v_mov_b32 v8, 1; v_mov_b32 v7, 0; global_atomic_add v10, v7, v8, s[16:17] glc; "
                     "global_atomic_add v7, v8, s[16:17] offset:4",
                     "0x7e100281 0x7e0e0280 0xdcc98000 0x0a100807 0xdcc88004 0x00100807", 64, E, [], 8, [32, 32],
                     lambda l: [bin(E & ((1 << l) - 1)).count("1") if active(E, l) else 0],
                     "global_atomic_add: active lanes in ascending order; GLC returns the old value")
mem_rows += mem_case("atomic_ops", "v_mov_b32 v7, 0; global_atomic_swap v10, v7, v4, s[16:17] glc; "
                     "global_atomic_inc v11, v7, v5, s[16:17] offset:8 glc; global_atomic_and v12, v7, v4, s[16:17] offset:4 glc",
                     "0x7e0e0280 0xdcc18000 0x0a100407 0xdcf18008 0x0b100507 0xdce58004 0x0c100407", 32, 0x7,
                     [10, 0xf0, 5, 7], 16, [102, 0x60, 2, 7],
                     lambda l: [[10, 100, 101][l], [5, 0, 1][l], [0xf0, 0x60, 0x60][l]] if l < 3 else [],
                     "global_atomic_swap/inc/and on one dword each, lanes 0..2 in order")
mem_rows += mem_case("flat", "v_lshlrev_b32 v6, 2, v5; v_add_co_u32 v8, vcc_lo, s16, v6; v_mov_b32 v9, s17; "
                     "flat_load_dword v10, v[8:9] offset:4; flat_store_short_d16_hi v[8:9], v4",
                     "0x340c0a82 0xd70f6a08 0x00020c10 0x7e120211 0xdc300004 0x0a7d0008 0xdc6c0000 0x007d0408",
                     32, ALL32, [0x10001 * (i + 1) for i in range(32)], 128,
                     [(0x10001 * (i + 1)) & 0xffff0000 for i in range(32)],
                     lambda l: [0x10001 * (l + 2) if l < 31 else 0],
                     "flat_load_dword from a 64-bit VGPR address (the last lane's is past the region: 0); "
                     "flat_store_short_d16_hi writes bits 31:16")
mem_rows += mem_case("buffer_raw", "v_lshlrev_b32 v6, 2, v5; buffer_load_dword v10, v6, s[20:23], 0 offen; "
                     "buffer_load_dword v11, v6, s[20:23], s3 offen; buffer_store_dword v4, v6, s[20:23], 0 offen offset:64",
                     "0x340c0a82 0xe0301000 0x80050a06 0xe0301000 0x03050b06 0xe0701040 0x80050406", 32, ALL32,
                     [3 * i for i in range(16)], 64, [3 * i for i in range(16)],
                     lambda l: [3 * l if l < 16 else 0, 3 * (l + 2) if l < 14 else 0],
                     "raw V# (OOB_SELECT 3): offset >= num_records loads 0 and stores nothing",
                     s_in=[0, 0, 0, 8] + [0] * 12)
mem_rows += mem_case("buffer_structured", "s_mov_b32 s24, s16; s_and_b32 s25, s17, 0xffff; s_or_b32 s25, s25, 0x80000; "
                     "s_mov_b32 s26, 4; s_mov_b32 s27, 0x01016fac; buffer_load_dword v10, v5, s[24:27], 0 idxen offset:4",
                     "0xbe980310 0x8719ff11 0x0000ffff 0x8819ff19 0x00080000 0xbe9a0384 0xbe9b03ff 0x01016fac "
                     "0xe0302004 0x80060a05", 32, ALL32, [0x100 + i for i in range(16)], 64,
                     [0x100 + i for i in range(16)], lambda l: [0x100 + 2 * l + 1 if l < 4 else 0],
                     "a V# built by the body: stride 8, 4 records, OOB_SELECT 0; index = v5")
mem_rows += mem_case("smem", "s_load_dwordx2 s[0:1], s[16:17], 0x4; s_buffer_load_dword s2, s[20:23], 0x3c; "
                     "s_buffer_load_dwordx2 s[4:5], s[20:23], 0x3c; s_load_dword s6, s[16:17], 0x6; v_mov_b32 v10, s0",
                     "0xf4040008 0xfa000004 0xf420008a 0xfa00003c 0xf424010a 0xfa00003c 0xf4000188 0xfa000006 "
                     "0x7e140200", 32, ALL32, [0x200 + i for i in range(16)], 64, [0x200 + i for i in range(16)],
                     lambda l: [0x201], "s_load (address & ~3) and s_buffer_load (a dword at offset >= num_records is 0)",
                     s_out=[0x201, 0x202, 0x20f, 0, 0x20f, 0, 0x201] + [0] * 9)
mem_rows += mem_case("cmpswap", "v_mov_b32 v7, 0; v_mov_b32 v8, v4; v_mov_b32 v9, 5; "
                     "global_atomic_cmpswap v10, v7, v[8:9], s[16:17] glc",
                     "0x7e0e0280 0x7e100304 0x7e120285 0xdcc58000 0x0a100807", 32, 0xf, [5], 4, [100],
                     lambda l: [[5, 100, 100, 100][l]] if l < 4 else [],
                     "global_atomic_cmpswap: DATA[0] is written where the old value equals DATA[1]; "
                     "GLC returns the old value")
mem_rows += mem_case("buffer_cmpswap", "v_mov_b32 v10, v4; v_mov_b32 v11, v5; "
                     "buffer_atomic_cmpswap v[10:11], v6, s[20:23], 0 offen glc",
                     "0x7e140304 0x7e160305 0xe0c45000 0x80050a06", 64, 0xf, [2], 4, [102],
                     lambda l: [[2, 2, 2, 102][l], l] if l < 4 else [],
                     "buffer_atomic_cmpswap: VDATA = [src, cmp], the old value returns to VDATA[0]")
mem_rows += mem_case("tbuffer", "v_lshlrev_b32 v6, 3, v5; tbuffer_load_format_xy v[10:11], v6, s[20:23], 0 "
                     "format:[BUF_FMT_32_32_UINT] offen; tbuffer_store_format_x v4, v6, s[20:23], 0 "
                     "format:[BUF_FMT_32_FLOAT] offen offset:4",
                     "0x340c0a83 0xe9f11000 0x80050a06 0xe8b41004 0x80050406", 32, ALL32,
                     [0x300 + i for i in range(32)], 128,
                     [0x300 + i if i % 2 == 0 else 100 + i // 2 for i in range(32)],
                     lambda l: [0x300 + 2 * l, 0x301 + 2 * l] if l < 16 else [],
                     "MTBUF with 32-bit formats: plain dwords; raw V# range check per dword")
mem_rows += mem_case("csub", "v_mov_b32 v7, 0; global_atomic_csub v10, v7, v5, s[16:17] glc",
                     "0x7e0e0280 0xdcd18000 0x0a100507", 32, 0xf, [5], 4, [0],
                     lambda l: [[5, 5, 4, 2][l]] if l < 4 else [],
                     "global_atomic_csub: old >= data ? old - data : 0, lanes in order")
mem_rows += mem_case("loop_atomic", "s_mov_b32 s0, 3; v_mov_b32 v7, 0; v_mov_b32 v8, 1; "
                     "global_atomic_add v7, v8, s[16:17]; s_sub_u32 s0, s0, 1; s_cmp_lg_u32 s0, 0; "
                     "s_cbranch_scc1 -5; global_load_dword v10, v7, s[16:17]",
                     "0xbe800383 0x7e0e0280 0x7e100281 0xdcc88000 0x00100807 0x80808100 0xbf078000 "
                     "0xbf85fffb 0xdc308000 0x0a100007", 64, E, [0], 4, [96],
                     lambda l: [96] if active(E, l) else [],
                     "memory atomics inside a loop: 3 passes of 32 active lanes", s_in=[0] * 16)
X2_OLD = [(0xffffffff, 1), (0xffffffff, 1), (0, 2)]
X2_CMP = [(5, 0), (100, 0), (100, 0)]
mem_rows += mem_case("atomic_x2", "v_mov_b32 v7, 0; v_mov_b32 v8, v5; v_mov_b32 v9, 0; "
                     "global_atomic_add_x2 v[10:11], v7, v[8:9], s[16:17] glc; v_mov_b32 v14, v4; "
                     "v_mov_b32 v15, 0; v_mov_b32 v16, 5; v_mov_b32 v17, 0; "
                     "global_atomic_cmpswap_x2 v[12:13], v7, v[14:17], s[16:17] offset:8 glc; "
                     "global_atomic_smax_x2 v[18:19], v7, v[8:9], s[16:17] offset:4 glc",
                     "0x7e0e0280 0x7e100305 0x7e120280 0xdd498000 0x0a100807 0x7e1c0304 0x7e1e0280 "
                     "0x7e200285 0x7e220280 0xdd458008 0x0c100e07 0xdd5d8004 0x12100807", 32, 0x7,
                     [0xffffffff, 1, 5, 0], 16, [2, 2, 100, 0],
                     lambda l: [*X2_OLD[l], *X2_CMP[l], 100 + l, 0, 5, 0, 0, 0] if l < 3 else [],
                     "64-bit atomics in lane order (add_x2 carries into the high dword, cmpswap_x2 "
                     "compares 64 bits); an address that is not a multiple of 8 is out of range")
# The float atomics rule (reference notes, "LDS float atomics", shared by the buffer float
# atomics): flush by the f32 denormal field's bit 0, then sNaN data, sNaN old, qNaN old, qNaN
# data, then the ordered compare with -0 below +0; the flushed value is written.
def float_atomic(old, data, flush, mx):
    fl = lambda x: x & 0x80000000 if flush and x & 0x7f800000 == 0 else x
    o, d = fl(old), fl(data)
    nan = lambda x: x & 0x7fffffff > 0x7f800000
    snan = lambda x: nan(x) and not x & 0x00400000
    if snan(d): return d | 0x00400000
    if snan(o): return o | 0x00400000
    if nan(o): return d
    if nan(d): return o
    key = lambda x: (~x & 0xffffffff) if x & 0x80000000 else x | 0x80000000
    return d if (key(d) > key(o) if mx else key(d) < key(o)) else o

FPAIRS = [(0x3f800000, 0x40000000), (0x40000000, 0x3f800000), (0x80000000, 0x00000000),
          (0x00000000, 0x80000000), (0x7fc00000, 0x3f800000), (0x3f800000, 0x7fc00000),
          (0x7f800001, 0x3f800000), (0x3f800000, 0xff800001), (0x7f800001, 0xff800002),
          (0x00000001, 0x3f800000), (0x3f800000, 0x80000001), (0xff800000, 0x7f800000),
          (0xc0000000, 0xbf800000), (0x7fc00000, 0x7fc00001), (0x80000001, 0x00000001),
          (0x12345678, 0x12345679)]
for mx, denorm32, wid, text, enc in [
        (False, 0, "fmin_flush", "v_lshlrev_b32 v6, 2, v5; global_atomic_fmin v10, v6, v4, s[16:17] glc",
         "0x340c0a82 0xdcfd8000 0x0a100406"),
        (False, 3, "fmin_keep", "v_lshlrev_b32 v6, 2, v5; global_atomic_fmin v10, v6, v4, s[16:17] glc",
         "0x340c0a82 0xdcfd8000 0x0a100406"),
        (True, 0, "fmax_flush", "v_lshlrev_b32 v6, 2, v5; buffer_atomic_fmax v4, v6, s[20:23], 0 offen glc; "
         "v_mov_b32 v10, v4", "0x340c0a82 0xe1005000 0x80050406 0x7e140304")]:
    olds = [o for o, _ in FPAIRS]
    mem_rows += mem_case(wid, text, enc, 32, 0xffff, olds, 64,
                         [float_atomic(o, d, denorm32 & 1 == 0, mx) for o, d in FPAIRS],
                         lambda l: [FPAIRS[l][0]] if l < 16 else [],
                         "the float atomics rule: flush by denorm32 bit 0, NaN order, -0 below +0; "
                         "the old value returns", in0=lambda l: FPAIRS[l][1] if l < 16 else 100 + l,
                         denorm32=denorm32)
# The same rule on f64 bits (the f16/f64 denormal field), and the float compare-and-swap: the
# flushed old and compare values equal as floats (the zeros equal, NaN equal to nothing); the
# data is stored as given. Written for any width from the bit layout.
def float_rule(bits):
    sign, quiet = 1 << (bits - 1), 1 << (22 if bits == 32 else 51)
    exp = 0x7f800000 if bits == 32 else 0x7ff0000000000000
    fl = lambda x, flush: x & sign if flush and x & exp == 0 else x
    nan = lambda x: x & (sign - 1) > exp
    def minmax(old, data, flush, mx):
        o, d = fl(old, flush), fl(data, flush)
        if nan(d) and not d & quiet: return d | quiet
        if nan(o) and not o & quiet: return o | quiet
        if nan(o): return d
        if nan(d): return o
        key = lambda x: (~x & (2 * sign - 1)) if x & sign else x | sign
        return d if (key(d) > key(o) if mx else key(d) < key(o)) else o
    def equal(old, cmp, flush):
        o, c = fl(old, flush), fl(cmp, flush)
        return not nan(o) and not nan(c) and (o == c or (o | c) & (sign - 1) == 0)
    return minmax, equal

_, feq32 = float_rule(32)
ONE, TWO = 0x3f800000, 0x40000000
# (old, compare value, data)
FCAS = [(ONE, ONE, TWO), (ONE, TWO, 0x40400000), (0, 0x80000000, 0x40a00000), (0x80000000, 0, ONE),
        (1, 0, TWO), (0, 0x80000001, TWO), (0x7fc00000, 0x7fc00000, ONE), (ONE, 0x7fc00000, TWO),
        (0x7f800001, 0x7f800001, ONE), (0x12345678, 0x12345678, 3), (ONE, ONE, 0x7f800001),
        (0x7f800000, 0x7f800000, ONE), (5, 5, TWO), (5, 6, TWO), (0xff800000, 0x7f800000, ONE),
        (0x80000002, 0x00000001, 0x40400000)]
for denorm32 in (0, 3):
    flush = denorm32 & 1 == 0
    mem_rows += mem_case(f"fcmpswap_d{denorm32}", "v_lshlrev_b32 v7, 2, v5; v_mov_b32 v8, v4; v_mov_b32 v9, v6; "
                         "global_atomic_fcmpswap v10, v7, v[8:9], s[16:17] glc",
                         "0x340e0a82 0x7e100304 0x7e120306 0xdcf98000 0x0a100807", 32, 0xffff,
                         [o for o, _, _ in FCAS], 64,
                         [d if feq32(o, c, flush) else o for o, c, d in FCAS],
                         lambda l: [FCAS[l][0]] if l < 16 else [],
                         "float compare-and-swap: flushed old and compare equal as floats (zeros equal, "
                         "NaN never); the data is stored as given; the old value returns",
                         in0=lambda l: FCAS[l][2] if l < 16 else 0,
                         more=lambda l: [FCAS[l][1] if l < 16 else 0, 0, 0, 0], denorm32=denorm32)

def lohi(x):
    return [x & 0xffffffff, x >> 32]

minmax64, feq64 = float_rule(64)
ONE64, TWO64, QNAN64 = 0x3ff0000000000000, 0x4000000000000000, 0x7ff8000000000000
# (old, data)
F64 = [(ONE64, TWO64), (TWO64, ONE64), (0, 1 << 63), (1 << 63, 0), (QNAN64, ONE64), (ONE64, QNAN64),
       (0x7ff0000000000001, ONE64), (ONE64, 0xfff0000000000002), (1, ONE64), (ONE64, (1 << 63) | 3),
       (0xfff0000000000000, 0x7ff0000000000000), (0xc000000000000000, 0xbff0000000000000),
       ((1 << 63) | 1, 1), (0x123456789abcdef0, 0x123456789abcdef1), (0x000fffffffffffff, 0x0010000000000000),
       (QNAN64 | 5, QNAN64 | 7)]
for mx, denorm16, wid, text, enc in [
        (False, 0, "fmin_x2_flush", "v_lshlrev_b32 v7, 3, v5; v_mov_b32 v8, v4; v_mov_b32 v9, v6; "
         "global_atomic_fmin_x2 v[10:11], v7, v[8:9], s[16:17] glc",
         "0x340e0a83 0x7e100304 0x7e120306 0xdd7d8000 0x0a100807"),
        (False, 3, "fmin_x2_keep", "v_lshlrev_b32 v7, 3, v5; v_mov_b32 v8, v4; v_mov_b32 v9, v6; "
         "global_atomic_fmin_x2 v[10:11], v7, v[8:9], s[16:17] glc",
         "0x340e0a83 0x7e100304 0x7e120306 0xdd7d8000 0x0a100807"),
        (True, 0, "fmax_x2_flush", "v_lshlrev_b32 v7, 3, v5; v_mov_b32 v8, v4; v_mov_b32 v9, v6; "
         "buffer_atomic_fmax_x2 v[8:9], v7, s[20:23], 0 offen glc; v_mov_b32 v10, v8; v_mov_b32 v11, v9",
         "0x340e0a83 0x7e100304 0x7e120306 0xe1805000 0x80050807 0x7e140308 0x7e160309")]:
    flush = denorm16 & 1 == 0
    mem_rows += mem_case(wid, text, enc, 32, 0xffff, [x for o, _ in F64 for x in lohi(o)], 128,
                         [x for o, d in F64 for x in lohi(minmax64(o, d, flush, mx))],
                         lambda l: lohi(F64[l][0]) if l < 16 else [],
                         "the float atomics rule on f64: flush by denorm16 bit 0, NaN order, -0 below +0; "
                         "the old value returns", in0=lambda l: lohi(F64[l][1])[0] if l < 16 else 0,
                         more=lambda l: [lohi(F64[l][1])[1] if l < 16 else 0, 0, 0, 0], denorm16=denorm16)
# (old, compare value, data) on f64
FCAS64 = [(ONE64, ONE64, TWO64), (ONE64, TWO64, 3), (0, 1 << 63, ONE64), (1, 0, TWO64), (QNAN64, QNAN64, ONE64),
          (0x7ff0000000000001, 0x7ff0000000000001, ONE64), (5, 6, TWO64), (ONE64, ONE64 | 1, TWO64)]
for denorm16 in (0, 3):
    flush = denorm16 & 1 == 0
    mem_rows += mem_case(f"fcmpswap_x2_d{denorm16}", "v_lshlrev_b32 v16, 3, v5; v_mov_b32 v12, v4; "
                         "v_mov_b32 v13, v6; v_mov_b32 v14, v7; v_mov_b32 v15, v8; "
                         "global_atomic_fcmpswap_x2 v[10:11], v16, v[12:15], s[16:17] glc",
                         "0x34200a83 0x7e180304 0x7e1a0306 0x7e1c0307 0x7e1e0308 0xdd798000 0x0a100c10", 32,
                         0xff, [x for o, _, _ in FCAS64 for x in lohi(o)], 64,
                         [x for o, c, d in FCAS64 for x in lohi(d if feq64(o, c, flush) else o)],
                         lambda l: [*lohi(FCAS64[l][0]), *lohi(FCAS64[l][2]), *lohi(FCAS64[l][1]), 8 * l]
                         if l < 8 else [],
                         "f64 float compare-and-swap (DATA[0:1] the data, DATA[2:3] the compare value), "
                         "flushed by denorm16 bit 0", in0=lambda l: lohi(FCAS64[l][2])[0] if l < 8 else 0,
                         more=lambda l: [lohi(FCAS64[l][2])[1], *lohi(FCAS64[l][1]), 0] if l < 8 else [0] * 4,
                         denorm16=denorm16)
# global_*_dword_addtid: the address is SADDR + offset + lane id * 4 (VADDR unused)
mem_rows += mem_case("addtid", "global_store_dword_addtid v4, s[16:17]; "
                     "global_load_dword_addtid v10, s[16:17] offset:4; global_load_dword_addtid v11, s[16:17] offset:-4",
                     "0xdc5c8000 0x00100400 0xdc588004 0x0a100000 0xdc588ffc 0x0b100000", 32, ALL32,
                     [0x400 + i for i in range(64)], 256,
                     [100 + i if i < 32 else 0x400 + i for i in range(64)],
                     lambda l: [100 + l + 1 if l < 31 else 0x420, 100 + l - 1 if l > 0 else 0],
                     "addtid: lane l's dword at SADDR + offset + 4 * l; the lane before the region reads 0")
# Typed (format) buffer accesses: the conversions worked out here on exact fractions.
from fractions import Fraction

def round_frac(q, mbits, ebits):
    """The float (mbits stored fraction bits, ebits exponent bits) nearest to q, ties to even."""
    sign = 1 if q < 0 else 0
    q = abs(q)
    if q == 0:
        return sign << (mbits + ebits)
    bias = (1 << (ebits - 1)) - 1
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    if Fraction(2) ** (e + 1) <= q:
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

f32 = lambda q: round_frac(q, 23, 8)
f16 = lambda q: round_frac(q, 10, 5)

def sx(v, n):
    return v - (1 << n) if v >> (n - 1) & 1 else v

def unorm(i, n, out=f32):
    return out(Fraction(i, (1 << n) - 1))

def snorm(i, n, out=f32):
    return out(max(Fraction(sx(i, n), (1 << (n - 1)) - 1), Fraction(-1)))

def small_float(v, mbits):
    """An unsigned e5 float with mbits fraction bits (or an f16 with its sign) as f32 bits,
    exactly; NaN keeps its payload moved up, not quieted."""
    sign = v >> 15 & 1 if mbits == 10 else 0
    e, m = v >> mbits & 0x1f, v & ((1 << mbits) - 1)
    if e == 0x1f:
        return sign << 31 | 0x7f800000 | m << (23 - mbits)
    q = Fraction(m, 1 << mbits) * Fraction(2) ** -14 if e == 0 else \
        (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - 15)
    return sign << 31 | f32(q)

def unpack(word, comps):
    return [word >> o & ((1 << w) - 1) for o, w in comps]

def typed_load(wid, text, enc, w, words_per_lane, mem_in, conv, note, exec_in=None):
    exec_in = exec_in if exec_in is not None else (1 << w) - 1
    mem_rows.extend(mem_case(wid, text, enc, w, exec_in, mem_in, 4 * len(mem_in), mem_in,
                             lambda l: conv(mem_in[words_per_lane * l: words_per_lane * (l + 1)]), note))

RGBA8 = [(0, 8), (8, 8), (16, 8), (24, 8)]
BYTES256 = [sum((4 * k + j) << (8 * j) for j in range(4)) for k in range(64)]
typed_load("tbuf_unorm8", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_8_8_8_8_UNORM] offen", "0x340c0a82 0xe9c31000 0x80050a06", 64, 1, BYTES256,
           lambda ws: [unorm(c, 8) for c in unpack(ws[0], RGBA8)],
           "8_8_8_8_UNORM: every byte i gives i / 255 rounded to nearest even")
typed_load("tbuf_snorm8", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_8_8_8_8_SNORM] offen", "0x340c0a82 0xe9cb1000 0x80050a06", 64, 1, BYTES256,
           lambda ws: [snorm(c, 8) for c in unpack(ws[0], RGBA8)],
           "8_8_8_8_SNORM: every byte, max(i / 127, -1) rounded to nearest even")
import random
rng = random.Random(20261201)
H16 = [0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x5555, 0xaaaa, 3, 0x100]
H16 += [rng.randrange(1 << 16) for _ in range(128 - len(H16))]
W16 = [H16[2 * i] | H16[2 * i + 1] << 16 for i in range(64)]
RGBA16 = [(0, 16), (16, 16)]
typed_load("tbuf_unorm16", "v_lshlrev_b32 v6, 3, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_16_16_UNORM] offen", "0x340c0a83 0xea0b1000 0x80050a06", 32, 2, W16,
           lambda ws: [unorm(c, 16) for wd in ws for c in unpack(wd, RGBA16)],
           "16_16_16_16_UNORM: i / 65535 rounded to nearest even")
typed_load("tbuf_snorm16", "v_lshlrev_b32 v6, 3, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_16_16_SNORM] offen", "0x340c0a83 0xea131000 0x80050a06", 32, 2, W16,
           lambda ws: [snorm(c, 16) for wd in ws for c in unpack(wd, RGBA16)],
           "16_16_16_16_SNORM: max(i / 32767, -1) rounded to nearest even")
P1010102 = [(0, 10), (10, 10), (20, 10), (30, 2)]
WP = [0, 0xffffffff, 0x3ff, 0x200 | 0x1ff << 10 | 0x201 << 20 | 2 << 30, 0x40000000, 0x80000000]
WP += [rng.randrange(1 << 32) for _ in range(32 - len(WP))]
typed_load("tbuf_2_10_10_10_unorm", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_2_10_10_10_UNORM] offen", "0x340c0a82 0xe9931000 0x80050a06", 32, 1, WP,
           lambda ws: [unorm(c, wd) for c, (_, wd) in zip(unpack(ws[0], P1010102), P1010102)],
           "2_10_10_10_UNORM: x in bits 9:0 ... w in 31:30, i / (2^n - 1)")
typed_load("tbuf_2_10_10_10_snorm", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_2_10_10_10_SNORM] offen", "0x340c0a82 0xe99b1000 0x80050a06", 32, 1, WP,
           lambda ws: [snorm(c, wd) for c, (_, wd) in zip(unpack(ws[0], P1010102), P1010102)],
           "2_10_10_10_SNORM: max(i / (2^(n-1) - 1), -1); the 2-bit w is -1, -1, 0 or 1")
typed_load("tbuf_2_10_10_10_sint", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xyzw v[10:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_2_10_10_10_SINT] offen", "0x340c0a82 0xe9bb1000 0x80050a06", 32, 1, WP,
           lambda ws: [sx(c, wd) & 0xffffffff for c, (_, wd) in zip(unpack(ws[0], P1010102), P1010102)],
           "2_10_10_10_SINT: sign-extended components")
F111110 = [(0, 11), (11, 11), (22, 10)]
WF = [0, 0x7c0 | 0x7c0 << 11 | 0x3e0 << 22, 0x7c1 | 0x7ff << 11 | 0x3e1 << 22, 1 | 1 << 11 | 1 << 22,
      0x3c0 | 0x3c0 << 11 | 0x1e0 << 22, 0x3f | 0x7bf << 11 | 0x3df << 22]
WF += [rng.randrange(1 << 32) for _ in range(32 - len(WF))]
typed_load("tbuf_10_11_11_float", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xyz v[10:12], v6, s[20:23], 0 "
           "format:[BUF_FMT_10_11_11_FLOAT] offen", "0x340c0a82 0xe9221000 0x80050a06", 32, 1, WF,
           lambda ws: [small_float(c, wd - 5) for c, (_, wd) in zip(unpack(ws[0], F111110), F111110)],
           "10_11_11_FLOAT: unsigned 11-bit (x, y) and 10-bit (z) floats widened exactly; "
           "infinities and NaN payloads kept")
W2 = [0, 0x3c00 | 0xbc00 << 16, 0x7c00 | 0xfc01 << 16, 0x0001 | 0x83ff << 16, 0x7e00 | 0xffff << 16,
      0x8000 | 0x7bff << 16]
W2 += [rng.randrange(1 << 32) for _ in range(32 - len(W2))]
P16 = [(0, 16), (16, 16)]
P8 = [(0, 8), (8, 8)]
typed_load("tbuf_16_16", "v_lshlrev_b32 v6, 2, v5; tbuffer_load_format_xy v[10:11], v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_FLOAT] offen; tbuffer_load_format_xy v[12:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_USCALED] offen; tbuffer_load_format_xy v[14:15], v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_SSCALED] offen; tbuffer_load_format_xy v[16:17], v6, s[20:23], 0 "
           "format:[BUF_FMT_8_8_UINT] offen; tbuffer_load_format_xy v[18:19], v6, s[20:23], 0 "
           "format:[BUF_FMT_8_8_SINT] offen offset:2",
           "0x340c0a82 0xe8e91000 0x80050a06 0xe8c91000 0x80050c06 0xe8d11000 0x80050e06 0xe8911000 "
           "0x80051006 0xe8991002 0x80051206", 32, 1, W2,
           lambda ws: [small_float(c, 10) for c in unpack(ws[0], P16)]
           + [f32(Fraction(c)) for c in unpack(ws[0], P16)]
           + [f32(Fraction(sx(c, 16))) for c in unpack(ws[0], P16)]
           + unpack(ws[0], P8) + [sx(c, 8) & 0xffffffff for c in unpack(ws[0] >> 16, P8)],
           "16_16 FLOAT (exact), USCALED, SSCALED; 8_8 UINT and SINT (the upper two bytes at offset 2)")

def pack16(vals):
    return [vals[i] | (vals[i + 1] << 16 if i + 1 < len(vals) else 0) for i in range(0, len(vals), 2)]

typed_load("tbuf_d16", "v_lshlrev_b32 v6, 3, v5; tbuffer_load_format_d16_xyzw v[10:11], v6, s[20:23], 0 "
           "format:[BUF_FMT_8_8_8_8_UNORM] offen; tbuffer_load_format_d16_xyz v[12:13], v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_16_16_UNORM] offen; tbuffer_load_format_d16_xy v14, v6, s[20:23], 0 "
           "format:[BUF_FMT_16_16_SNORM] offen",
           "0x340c0a83 0xe9c31000 0x80250a06 0xea0a1000 0x80250c06 0xe8c11000 0x80250e06", 32, 2, W16,
           lambda ws: pack16([unorm(c, 8, f16) for c in unpack(ws[0], RGBA8)])
           + pack16([unorm(c, 16, f16) for wd in ws for c in unpack(wd, RGBA16)][:3])
           + pack16([snorm(c, 16, f16) for c in unpack(ws[0], RGBA16)]),
           "d16: components rounded to f16 (16-bit UNORM below 2^-14 gives f16 denormals), two per "
           "VGPR; the high half of the last odd one keeps the VGPR's bits (0)")

# MUBUF's D16 format loads (opcodes 128-135: the opcode's bit 7 in word0 bit 25) through a V# the
# body builds in s[24:27] from the contract's, with 16_16_16_16_UNORM (format 65) in word3.
typed_load("mubuf_d16", "v_lshlrev_b32 v6, 3, v5; s_mov_b32 s24, s20; s_mov_b32 s25, s21; "
           "s_mov_b32 s26, s22; s_mov_b32 s27, 0x31041fac; "
           "buffer_load_format_d16_xyzw v[10:11], v6, s[24:27], 0 offen; "
           "buffer_load_format_d16_xyz v[12:13], v6, s[24:27], 0 offen; "
           "buffer_load_format_d16_x v14, v6, s[24:27], 0 offen",
           "0x340c0a83 0xbe980314 0xbe990315 0xbe9a0316 0xbe9b03ff 0x31041fac 0xe20c1000 0x80060a06 "
           "0xe2081000 0x80060c06 0xe2001000 0x80060e06", 32, 2, W16,
           lambda ws: pack16([unorm(c, 16, f16) for wd in ws for c in unpack(wd, RGBA16)])
           + pack16([unorm(c, 16, f16) for wd in ws for c in unpack(wd, RGBA16)][:3])
           + [unorm(ws[0] & 0xffff, 16, f16)],
           "MUBUF d16 format loads: buffer_load_format_d16_xyzw/_xyz/_x, the V#'s 16_16_16_16_UNORM "
           "rounded to f16, two per VGPR; the high half of the last odd one keeps the VGPR's bits (0)")

def f32v(bits):
    sign = -1 if bits >> 31 else 1
    e, m = bits >> 23 & 0xff, bits & 0x7fffff
    return sign * (Fraction(m, 1 << 23) * Fraction(2) ** -126 if e == 0 else
                   (1 + Fraction(m, 1 << 23)) * Fraction(2) ** (e - 127))

def unorm_store(x, n):
    if x & 0x7fffffff > 0x7f800000 or x >> 31:
        return 0
    if x & 0x7fffffff >= 0x3f800000:
        return (1 << n) - 1
    q = f32v(x) * ((1 << n) - 1) + Fraction(1, 2)
    return q.numerator // q.denominator

def snorm_store(x, n):
    if x & 0x7fffffff > 0x7f800000:
        return 0
    m = (1 << (n - 1)) - 1
    if x & 0x7fffffff >= 0x3f800000:
        r = m
    else:
        q = abs(f32v(x)) * m + Fraction(1, 2)
        r = q.numerator // q.denominator
    return (-r if x >> 31 else r) & ((1 << n) - 1)

FS = [0, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x7f800000, 0xff800000, 0x7fc00000,
      0xffc00000, 0x00000001, 0x807fffff, f32(Fraction(1, 510)), f32(Fraction(3, 510)), f32(Fraction(1, 254)),
      f32(Fraction(-1, 254)), 0x3b808081, 0x3f7fffff, 0xbf7fffff, 0x3c010204]
FS += [rng.randrange(0x3f800000) for _ in range(128 - len(FS))]
STORE = "v_lshlrev_b32 v6, 2, v5; v_mov_b32 v10, v4; v_mov_b32 v11, v7; v_mov_b32 v12, v8; v_mov_b32 v13, v9; "
STORE_ENC = "0x340c0a82 0x7e140304 0x7e160307 0x7e180308 0x7e1a0309 "
def typed_store(wid, fmt, enc, vals, words, note, w=32):
    quads = [vals[4 * l: 4 * l + 4] for l in range(w)]
    mem_out = [x for q in quads for x in words(q)]
    mem_rows.extend(mem_case(wid, STORE + f"tbuffer_store_format_xyzw v[10:13], v6, s[20:23], 0 format:[{fmt}] offen",
                             STORE_ENC + enc, w, (1 << w) - 1, [0xdeadbeef] * len(mem_out), 4 * len(mem_out),
                             mem_out, lambda l: quads[l], note, in0=lambda l: quads[l][0],
                             more=lambda l: [0, *quads[l][1:]]))
typed_store("tbuf_store_unorm8", "BUF_FMT_8_8_8_8_UNORM", "0xe9c71000 0x80050a06", FS,
            lambda q: [sum(unorm_store(x, 8) << (8 * j) for j, x in enumerate(q))],
            "8_8_8_8_UNORM store: NaN and negatives 0, >= 1 255, else floor(x * 255 + 1/2) exactly")
typed_store("tbuf_store_snorm8", "BUF_FMT_8_8_8_8_SNORM", "0xe9cf1000 0x80050a06", FS,
            lambda q: [sum(snorm_store(x, 8) << (8 * j) for j, x in enumerate(q))],
            "8_8_8_8_SNORM store: NaN 0, |x| >= 1 127, else floor(|x| * 127 + 1/2) with the sign back")
IS = [0, 1, 0x3ff, 0x400, 0xffffffff, 3, 4, 0x80000000] + [rng.randrange(1 << 32) for _ in range(120)]
typed_store("tbuf_store_uint", "BUF_FMT_2_10_10_10_UINT", "0xe9b71000 0x80050a06", IS,
            lambda q: [sum(min(x, (1 << wd) - 1) << o for x, (o, wd) in zip(q, P1010102))],
            "2_10_10_10_UINT store: each component saturated to its width")
# 16_16_SINT saturates each component; a d16 store widens its f16 halves exactly first
I2 = [(rng.randrange(1 << 32), rng.randrange(1 << 32)) for _ in range(32)]
I2[:4] = [(0x7fff, 0x8000), (0xffff8000, 0xffff7fff), (0x80000000, 0x7fffffff), (0, 0xffffffff)]
H2 = [0x3c00 | 0xbc00 << 16, 0x7c00 | 0x7e00 << 16, 0x3800 | 0x1c02 << 16, 0x0001 | 0x3bff << 16]
H2 += [rng.randrange(1 << 32) for _ in range(28)]
sat16 = lambda v: min(max(sx(v, 32), -0x8000), 0x7fff) & 0xffff
mem_rows += mem_case("tbuf_store_16_16", "v_lshlrev_b32 v6, 3, v5; v_mov_b32 v10, v4; v_mov_b32 v11, v7; "
                     "tbuffer_store_format_xy v[10:11], v6, s[20:23], 0 format:[BUF_FMT_16_16_SINT] offen; "
                     "tbuffer_store_format_d16_xy v8, v6, s[20:23], 0 format:[BUF_FMT_16_16_UNORM] offen offset:4",
                     "0x340c0a83 0x7e140304 0x7e160307 0xe8e51000 0x80050a06 0xe8bd1004 0x80250806", 32, ALL32,
                     [0] * 64, 256,
                     [x for l in range(32) for x in (sat16(I2[l][0]) | sat16(I2[l][1]) << 16,
                      unorm_store(small_float(H2[l] & 0xffff, 10), 16)
                      | unorm_store(small_float(H2[l] >> 16, 10), 16) << 16)],
                     lambda l: [I2[l][0], I2[l][1]],
                     "16_16_SINT store saturates; tbuffer_store_format_d16_xy of 16_16_UNORM: f16 halves "
                     "widened exactly, then the UNORM store rule", in0=lambda l: I2[l][0],
                     more=lambda l: [0, I2[l][1], H2[l], 0])
# MUBUF typed accesses: FORMAT and DST_SEL come from the V# (here built by the body)
M0 = [rng.randrange(1 << 32) for _ in range(64)]
X0 = [0x3f800000 | 0x3c00 << 16, 0x00000000 | 0x7c00 << 16, 0x3f000000 | 0x3800 << 16, 0xbf800000 | 0xfc00 << 16]
X0 += [rng.randrange(1 << 32) for _ in range(28)]
mem_rows += mem_case("buffer_format", "s_mov_b32 s24, s16; s_mov_b32 s25, s17; s_mov_b32 s26, 0x100; "
                     "s_mov_b32 s27, 0x3100efac; v_lshlrev_b32 v6, 2, v5; buffer_load_format_xy v[10:11], v6, s[24:27], 0 offen; "
                     "v_mov_b32 v12, v4; buffer_load_format_d16_hi_x v12, v6, s[24:27], 0 offen; s_mov_b32 s27, 0x31007fac; "
                     "buffer_store_format_x v4, v6, s[24:27], 0 offen; buffer_store_format_d16_hi_x v4, v6, s[24:27], 0 offen offset:2",
                     "0xbe980310 0xbe990311 0xbe9a03ff 0x00000100 0xbe9b03ff 0x3100efac 0x340c0a82 0xe0041000 "
                     "0x80060a06 0x7e180304 0xe0981000 0x80060c06 0xbe9b03ff 0x31007fac 0xe0101000 0x80060406 "
                     "0xe09c1002 0x80060406", 32, ALL32, M0, 256,
                     [unorm_store(X0[i], 16) | unorm_store(small_float(X0[i] >> 16, 10), 16) << 16 if i < 32
                      else M0[i] for i in range(64)],
                     lambda l: [unorm(M0[l] & 0xff, 8), unorm(M0[l] >> 8 & 0xff, 8),
                                unorm(M0[l] & 0xff, 8, f16) << 16 | X0[l] & 0xffff],
                     "buffer_load/store_format with the V#'s FORMAT (8_8_UNORM, then 16_UNORM) and DST_SEL "
                     "XYZW; _d16_hi_x loads into and stores from bits 31:16", in0=lambda l: X0[l])
# Scratch: every lane's own private memory (256 bytes, zero before the body, not an output):
# address v[vaddr] or s[saddr], plus the signed offset; past the end reads 0, writes nothing.
SIN = lambda l: (0x80000000 + l * 0x01010301) & 0xffffffff
def priv_dword5(l):
    return {2: l, 3: SIN(l), 5: SIN(l)}.get(l, 0)
mem_rows += mem_case("scratch", "v_lshlrev_b32 v6, 2, v5; scratch_store_dword v6, v4, off; "
                     "scratch_load_dword v10, v6, off; scratch_load_dword v11, v6, off offset:4; "
                     "scratch_store_dwordx2 v6, v[4:5], off offset:8; scratch_load_ubyte v12, v6, off offset:9; "
                     "scratch_load_sshort v13, v6, off offset:11; scratch_load_dword v14, off, s2 offset:-4; "
                     "v_mov_b32 v15, v4; scratch_load_short_d16_hi v15, v6, off offset:12; "
                     "scratch_store_dword off, v4, s3; scratch_load_ushort v16, off, s3; "
                     "scratch_store_short off, v4, s3; scratch_load_ushort v17, off, s3",
                     "0x340c0a82 0xdc704000 0x007d0406 0xdc304000 0x0a7d0006 0xdc304004 0x0b7d0006 0xdc744008 "
                     "0x007d0406 0xdc204009 0x0c7d0006 0xdc2c400b 0x0d7d0006 0xdc304ffc 0x0e020000 0x7e1e0304 "
                     "0xdc94400c 0x0f7d0006 0xdc704000 0x00030400 0xdc284000 0x10030000 0xdc684000 0x00030400 "
                     "0xdc284000 0x11030000", 32, ALL32, [0], 4, [0],
                     lambda l: [SIN(l), 0, SIN(l) >> 8 & 0xff,
                                sx(SIN(l) >> 24 | (l & 0xff) << 8, 16) & 0xffffffff,
                                priv_dword5(l), l << 16 | SIN(l) & 0xffff, 0, SIN(l) & 0xffff],
                     "scratch: per-lane private bytes (a dword store, an x2 store, byte/short loads across "
                     "dwords, an SGPR address seeing each lane's own dword 5); a dword at 254 of 256 is "
                     "dropped, a short there is kept", s_in=s16(s2=24, s3=254), in0=SIN)
E = 0xf0f0f0f0f0f0f0f0
mem_rows += mem_case("scratch_loop", "s_mov_b32 s0, 3; v_mov_b32 v7, 0; scratch_load_dword v8, v7, off; "
                     "v_add_nc_u32 v8, v8, v5; scratch_store_dword v7, v8, off; s_sub_u32 s0, s0, 1; "
                     "s_cmp_lg_u32 s0, 0; s_cbranch_scc1 -8; scratch_load_dword v10, v7, off",
                     "0xbe800383 0x7e0e0280 0xdc304000 0x087d0007 0x4a100b08 0xdc704000 0x007d0807 0x80808100 "
                     "0xbf078000 0xbf85fff8 0xdc304000 0x0a7d0007", 64, E, [0], 4, [0],
                     lambda l: [3 * l] if active(E, l) else [],
                     "scratch inside a loop: private dword 0 += lane, 3 passes; inactive lanes store nothing")
if len(sys.argv) > 4:
    write(sys.argv[4], V1 + "," + MEM_WAVE, mem_rows)

# Interpolation and relative VGPR addressing (words from llvm-mc -mcpu=gfx1030). The
# parameters sit in the wave's LDS as the rule interp-params lays them out (docs/semantics.md):
# channel `chan` of parameter k (0 P0, 1 P10, 2 P20) of attribute `attr` of primitive `prim` of
# `n` is dword offset/4 + (attr * n + prim) * 12 + 4 k + chan; M0 = new-primitive mask bits
# (quad q at bit 15 + q) | the byte offset. Results are exact sums rounded once (to nearest
# even), worked out here with fractions.
from fractions import Fraction
import random, struct

INTERP_WAVE = "wave_id,lane,exec_in,s_in,lds_in,lds_bytes,s_out,lds_out"

def value(bits, man, ebits):
    bias = (1 << (ebits - 1)) - 1
    e, m = bits >> man & ((1 << ebits) - 1), bits & ((1 << man) - 1)
    assert e != (1 << ebits) - 1, "no NaN or infinity in these rows"
    v = Fraction(m, 1 << man) * Fraction(2) ** (1 - bias) if e == 0 else \
        Fraction((1 << man) + m, 1 << man) * Fraction(2) ** (e - bias)
    return -v if bits >> (man + ebits) & 1 else v

def rne(x, man, ebits):
    bias = (1 << (ebits - 1)) - 1
    sign = 1 if x < 0 else 0
    a = abs(x)
    if a == 0:
        return sign << (man + ebits)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a: e -= 1
    while Fraction(2) ** (e + 1) <= a: e += 1
    assert e >= 1 - bias, "no denormal results in these rows"
    s = a / Fraction(2) ** (e - man)
    q, r = divmod(s.numerator, s.denominator)
    if 2 * r > s.denominator or (2 * r == s.denominator and q & 1):
        q += 1
    if q == 1 << (man + 1):
        q, e = q >> 1, e + 1
    assert e <= bias, "no overflow in these rows"
    return sign << (man + ebits) | (e + bias) << man | (q - (1 << man))

f32v = lambda b: value(b, 23, 8)
f16v = lambda b: value(b, 10, 5)
f32r = lambda x: rne(x, 23, 8)
f16r = lambda x: rne(x, 10, 5)
rng = random.Random(2031)

def rand_f32(lo, hi):
    return struct.unpack("<I", struct.pack("<f", rng.uniform(lo, hi)))[0]

def rand_f16():
    return rng.randrange(2) << 15 | rng.randrange(10, 19) << 10 | rng.randrange(1024)

def slot(offset, n, attr, prim, k, chan):
    return offset // 4 + (attr * n + prim) * 12 + 4 * k + chan

def prims(w, quads):
    """Each lane's primitive and the wave's primitive count for new primitives at `quads`."""
    p, cur = [], 0
    for l in range(w):
        if l % 4 == 0 and l // 4 in quads:
            cur += 1
        p.append(cur)
    return p, cur + 1

def m0_of(quads, offset):
    return offset | sum(1 << (15 + q) for q in quads)

def interp_case(wid, text, enc, w, exec_in, s_in, s_out, lds, ins, outs, note, lds_bytes=512, mode=None):
    lds = lds + [0] * (lds_bytes // 4 - len(lds))
    rows = []
    for l in range(w):
        i = ins(l) + [0] * (6 - len(ins(l)))
        o = outs(l) + [0] * (16 - len(outs(l)))
        cells = [f'"{text}"', enc, str(w)] + (mode or [""] * 7) + [f"0x{x:08x}" for x in i]
        cells += [f"0x{x:08x}" for x in o] + ["gfx1030", "hand-computed from the RDNA2 ISA", f'"{note}"']
        first = l == 0
        cells += [wid, str(l), f"0x{exec_in:016x}" if first else "", dw(s_in) if first else "",
                  dw(lds) if first else "", str(lds_bytes) if first else "",
                  dw(s_out) if first else "", dw(lds) if first else ""]
        rows.append(",".join(cells))
    return rows

interp_rows = []
# f32: wave32, quads 2 and 5 begin primitives 1 and 2, parameters from byte 128; EXEC without
# lanes 8..11; p1 = P10 * I + P0 and p2 = P20 * J + p1, each rounded once
QUADS, OFF = [2, 5], 128
PRIM, N = prims(32, QUADS)
lds = [0] * 128
for p in range(N):
    for k in range(3):
        lds[slot(OFF, N, 1, p, k, 2)] = rand_f32(-4, 4)
I = [rand_f32(0, 1) for _ in range(32)]
J = [rand_f32(0, 1) for _ in range(32)]
EX = 0xfffff0ff
def f32_interp(l):
    if not active(EX, l):
        return [0, 0]
    P = lambda k: lds[slot(OFF, N, 1, PRIM[l], k, 2)]
    p1 = f32r(f32v(P(1)) * f32v(I[l]) + f32v(P(0)))
    p2 = f32r(f32v(P(2)) * f32v(J[l]) + f32v(p1))
    return [p2, P(1)]
m0 = m0_of(QUADS, OFF)
interp_rows += interp_case("interp_f32", "s_mov_b32 m0, s0; v_interp_p1_f32 v10, v4, attr1.z; "
                           "v_interp_p2_f32 v10, v5, attr1.z; v_interp_mov_f32 v11, p10, attr1.z",
                           "0xbefc0300 0xc8280604 0xc8290605 0xc82e0600", 32, EX, [m0], [m0] + [0] * 15,
                           lds, lambda l: [I[l], J[l]], f32_interp,
                           "interp-params + interp-f32: each quad reads its primitive's P0/P10/P20 "
                           "from LDS at M0's offset; fused p1 and p2")
# VOP3 forms: neg on I, clamp on p1's result
lds2 = [0] * 128
for k in range(3):
    lds2[slot(0, 1, 0, 0, k, 0)] = rand_f32(-1, 1)
def vop3_interp(l):
    P = lambda k: lds2[slot(0, 1, 0, 0, k, 0)]
    p1 = f32r(f32v(P(1)) * -f32v(I[l]) + f32v(P(0)))
    v = f32v(p1)
    p1 = 0 if v <= 0 else (0x3f800000 if v >= 1 else p1)
    return [f32r(f32v(P(2)) * f32v(J[l]) + f32v(p1))]
interp_rows += interp_case("interp_e64", "s_mov_b32 m0, s0; v_interp_p1_f32_e64 v10, -v4, attr0.x clamp; "
                           "v_interp_p2_f32_e64 v10, v5, attr0.x",
                           "0xbefc0300 0xd600800a 0x40020800 0xd601000a 0x00020a00", 32, (1 << 32) - 1,
                           [0], [0] * 16, lds2, lambda l: [I[l], J[l]], vop3_interp,
                           "VOP3 interpolation: neg on the barycentric, clamp on the result; one primitive")
# v_interp_mov_f32 on a wave64 with new primitives at quads 1 and 15; a parameter past the LDS
# (attribute 9 of 3 primitives starts at byte 1296 of 512) reads 0
QUADS64 = [1, 15]
PRIM64, N64 = prims(64, QUADS64)
lds3 = [0] * 128
for a, ch in [(2, 3), (0, 0)]:
    for p in range(N64):
        for k in range(3):
            lds3[slot(0, N64, a, p, k, ch)] = 0x1000 * (a + 1) + 0x100 * p + 0x10 * k + ch
m0 = m0_of(QUADS64, 0)
interp_rows += interp_case("interp_mov64", "s_mov_b32 m0, s0; v_interp_mov_f32 v10, p0, attr2.w; "
                           "v_interp_mov_f32 v11, p20, attr2.w; v_interp_mov_f32 v12, p10, attr0.x; "
                           "v_interp_mov_f32 v13, p0, attr9.x",
                           "0xbefc0300 0xc82a0b02 0xc82e0b01 0xc8320000 0xc8362402", 64, (1 << 64) - 1,
                           [m0], [m0] + [0] * 15, lds3, lambda l: [],
                           lambda l: [lds3[slot(0, N64, 2, PRIM64[l], 0, 3)], lds3[slot(0, N64, 2, PRIM64[l], 2, 3)],
                                      lds3[slot(0, N64, 0, PRIM64[l], 1, 0)], 0],
                           "wave64: 16 quads, the mask's bit for quad 15 is M0 bit 30; a read past the LDS gives 0")
# f16: the high halves of attribute 0 channel y (p1ll, p2) and the low halves (p1lv with S2 =
# v6's low half); p2's f16 result lands in v12's low half, its high half is kept
lds4 = [0] * 128
for k in range(3):
    lds4[slot(0, 1, 0, 0, k, 1)] = rand_f16() << 16 | rand_f16()
S2 = [rand_f16() for _ in range(32)]
def f16_interp(l):
    P = lambda k: lds4[slot(0, 1, 0, 0, k, 1)]
    hi, lo = lambda x: x >> 16, lambda x: x & 0xffff
    p1ll = f32r(f16v(hi(P(1))) * f32v(I[l]) + f16v(hi(P(0))))
    p1lv = f32r(f16v(lo(P(1))) * f32v(I[l]) + f16v(S2[l]))
    p2 = f16r(f16v(hi(P(2))) * f32v(J[l]) + f32v(p1ll))
    return [p1ll, p1lv, 0xabcd0000 | p2]
interp_rows += interp_case("interp_f16", "s_mov_b32 m0, s0; v_mov_b32 v12, 0xabcd0000; "
                           "v_interp_p1ll_f16 v10, v4, attr0.y high; v_interp_p1lv_f16 v11, v4, attr0.y, v6; "
                           "v_interp_p2_f16 v12, v5, attr0.y, v10 high",
                           "0xbefc0300 0x7e1802ff 0xabcd0000 0xd742000a 0x00020940 0xd743000b 0x041a0840 "
                           "0xd75a000c 0x042a0b40", 32, (1 << 32) - 1, [0], [0] * 16, lds4,
                           lambda l: [I[l], J[l], S2[l]], f16_interp,
                           "interp-f16: f16 parameter halves (the high bit), p1 rounded once to f32, "
                           "p2 once to f16 into the low half")

# f16 denormals flushed (denorm16 = 0), f32 kept (denorm32 = 3), IEEE = 0: a denormal P10 or
# p1lv S2 is read as a zero of its sign, and a denormal f16 result of p2 becomes one
def flush16(h):
    return h & 0x8000 if h & 0x7c00 == 0 else h

def f16r_flush(x):
    if x != 0 and abs(x) < Fraction(1, 1 << 14):
        return 0x8000 if x < 0 else 0
    return f16r(x)

lds5 = [0] * 128
lds5[slot(0, 1, 0, 0, 0, 0)] = 0x3d00          # P0 = 1.25
lds5[slot(0, 1, 0, 0, 1, 0)] = 0x0200          # P10: a denormal, flushed
lds5[slot(0, 1, 0, 0, 2, 0)] = 0x0400          # P20 = 2^-14
S2LV = [0x0123 if l % 2 == 0 else rand_f16() & 0x7fff for l in range(32)]
S2F = [0 if l % 2 == 0 else 0x3f800000 for l in range(32)]
def f16_flush(l):
    P = lambda k: lds5[slot(0, 1, 0, 0, k, 0)]
    zero = lambda a, b: Fraction(0) if a == 0 or b == 0 else None
    p10 = f16v(flush16(P(1)))
    p1ll = f32r(p10 * f32v(I[l]) + f16v(flush16(P(0))))
    p1lv = f32r(p10 * f32v(I[l]) + f16v(flush16(S2LV[l])))
    p2 = f16r_flush(f16v(flush16(P(2))) * f32v(J[l]) + f32v(S2F[l]))
    return [p1ll, p1lv, p2]
interp_rows += interp_case("interp_f16_flush", "s_mov_b32 m0, s0; v_interp_p1ll_f16 v10, v4, attr0.x; "
                           "v_interp_p1lv_f16 v11, v4, attr0.x, v7; v_interp_p2_f16 v12, v5, attr0.x, v6",
                           "0xbefc0300 0xd742000a 0x00020800 0xd743000b 0x041e0800 0xd75a000c 0x041a0a00",
                           32, (1 << 32) - 1, [0], [0] * 16, lds5,
                           lambda l: [I[l], J[l], S2F[l], S2LV[l]], f16_flush,
                           "interp-f16 with f16 denormals flushed: denormal P10 and p1lv S2 read as "
                           "zero, a denormal p2 result flushed", mode=["0", "", "3", "0", "", "", ""])

# Relative VGPR addressing with a run-time M0 (rule movrel-m0): the loop runs s0 passes, pass i
# moving v[4 + m0] to v[10 + m0] with m0 = s0 - i (v_movrelsd_b32); two waves, two s0
MOVREL = "wave_id,lane,exec_in,s_in,s_out"
def movrel_case(wid, text, w, exec_in, s_in, s_out, ins, outs, note):
    rows = []
    for l in range(w):
        i = ins(l)
        o = outs(l) + [0] * (16 - len(outs(l)))
        cells = [f'"{text}"', encode(text), str(w)] + [""] * 7 + [f"0x{x:08x}" for x in i]
        cells += [f"0x{x:08x}" for x in o] + ["gfx1030", "hand-computed from the RDNA2 ISA", f'"{note}"']
        first = l == 0
        cells += [wid, str(l), f"0x{exec_in:016x}" if first else "", dw(s_in) if first else "",
                  dw(s_out) if first else ""]
        rows.append(",".join(cells))
    return rows

LOOP = ("s_mov_b32 s1, s0; s_sub_u32 s1, s1, 1; s_mov_b32 m0, s1; v_movrelsd_b32 v10, v4; "
        "s_cmp_lg_u32 s1, 0; s_cbranch_scc1 -5")
INS = lambda l: [1000 * k + l for k in range(1, 7)]
movrel_rows = []
for s0, w in [(3, 32), (6, 64)]:
    movrel_rows += movrel_case(f"movrel_loop{s0}", LOOP, w, (1 << w) - 1, [s0], [s0, 0] + [0] * 14, INS,
                               lambda l, s0=s0: INS(l)[:s0],
                               "run-time M0 from an SGPR, a new value in each pass of a loop")
# past v255: v_movrels reads v0 and v_movreld drops its write; v_swaprel writes neither side
# when one index is out of range, and exchanges two registers when both are in range
RANGE = ("v_mov_b32 v0, 0x37; s_mov_b32 m0, s0; v_movrels_b32 v10, v4; v_mov_b32 v11, 9; "
         "v_movreld_b32 v11, v5; s_mov_b32 m0, s2; v_swaprel_b32 v12, v5; v_mov_b32 v13, v5; "
         "s_mov_b32 m0, s3; v_swaprel_b32 v14, v4; v_mov_b32 v16, v6")
EX = 0x0000ffff
def range_out(l):
    if not active(EX, l):
        return []
    i = INS(l)
    # swaprel 2: source v4 + 2 = v6, destination v14 + 1 = v15
    return [0x37, 9, 0, i[1], 0, i[2], 0]
movrel_rows += movrel_case("movrel_range", RANGE, 32, EX, [0xfc, 0, 0x00f50001, 0x00010002],
                           [0xfc, 0, 0x00f50001, 0x00010002] + [0] * 12, INS, range_out,
                           "M0 is unsigned: an index past v255 reads v0 and drops its write; "
                           "v_swaprel_b32 writes neither side when either is out of range")
if len(sys.argv) > 5:
    write(sys.argv[5], V1 + "," + INTERP_WAVE, interp_rows)
if len(sys.argv) > 6:
    write(sys.argv[6], V1 + "," + MOVREL, movrel_rows)

# The rest of the DS family (datasets/wave/lds.csv; words from llvm-mc-19 -mcpu=gfx1030). The
# expected values come from this LDS model, written from the RDNA2 ISA's pseudocode and the
# reference notes' LDS rules: byte addresses, active lanes in ascending order, an access whose
# bytes are not all inside the 512 bytes reads 0 and writes nothing.
import struct

class Lds:
    def __init__(self, dws):
        self.b = bytearray(b"".join(x.to_bytes(4, "little") for x in dws + [0] * (128 - len(dws))))
    def rd(self, a, n):
        return int.from_bytes(self.b[a:a + n], "little") if a + n <= len(self.b) else 0
    def wr(self, a, n, v):
        if a + n <= len(self.b):
            self.b[a:a + n] = (v & ((1 << 8 * n) - 1)).to_bytes(n, "little")
    def rmw(self, a, n, f):
        old = self.rd(a, n)
        if a + n <= len(self.b):
            self.wr(a, n, f(old))
        return old
    def dws(self):
        return [int.from_bytes(self.b[i:i + 4], "little") for i in range(0, len(self.b), 4)]

def sext(x, bits):
    return x - (1 << bits) if x >> (bits - 1) & 1 else x

def lds_model(wid, text, enc, w, exec_in, lds_in, run, note, ins=None, denorm=("", "")):
    """`run(lds, lanes)` fills lanes[l] (a list of outputs) for the active lanes."""
    m = Lds(list(lds_in))
    outs = [[0] * 16 for _ in range(w)]
    run(m, [l for l in range(w) if active(exec_in, l)], outs)
    return lds_case(wid, text, enc, w, exec_in, lds_in, m.dws(), lambda l: outs[l], note, ins, denorm)

def sub_dword(m, act, o):
    for l in act: m.wr(3, 1, 100 + l)
    for l in act: m.wr(511, 2, 100 + l)
    for l in act:
        o[l][0] = sext(m.rd(3, 1), 8) & 0xffffffff
        o[l][1] = m.rd(1, 2)
        o[l][2] = m.rd(3, 1) << 16
        o[l][3] = sext(m.rd(2, 1), 8) & 0xffff
    for l in act: m.wr(5, 1, (100 + l) >> 16)
lds_rows += lds_model("sub_dword", "v_mov_b32 v7, 0; ds_write_b8 v7, v4 offset:3; ds_write_b16 v7, v4 offset:511; "
                      "ds_read_i8 v10, v7 offset:3; ds_read_u16 v11, v7 offset:1; ds_read_u8_d16_hi v12, v7 offset:3; "
                      "ds_read_i8_d16 v13, v7 offset:2; ds_write_b8_d16_hi v7, v4 offset:5",
                      "0x7e0e0280 0xd8780003 0x00000407 0xd87c01ff 0x00000407 0xd8e40003 0x0a000007 0xd8f00001 "
                      "0x0b000007 0xda8c0003 0x0c000007 0xda900002 0x0d000007 0xda800005 0x00000407",
                      32, (1 << 32) - 1, [0x11a23344, 0x55667788] + [0] * 125 + [0xdeadbeef], sub_dword,
                      "bytes and halves at any byte address, sign and d16 placement; bytes 511..513 are outside")

def two_op(f):
    def run(m, act, o):
        for l in act: o[l][0] = m.rmw(0, 4, lambda x: f(x, 100 + l, l) & 0xffffffff)
    return run
for wid, name, enc, lds0, f in [
        ("cmpst_b32", "ds_cmpst_rtn_b32", "0xd8c00000", 103, lambda x, d, d2: d2 if x == d else x),
        ("mskor_b32", "ds_mskor_rtn_b32", "0xd8b00000", 0xffffffff, lambda x, d, d2: (x & ~d) | d2),
        ("wrap_b32", "ds_wrap_rtn_b32", "0xd8d00000", 250, lambda x, d, d2: x - d if x >= d else x + d2)]:
    lds_rows += lds_model(wid, f"v_mov_b32 v7, 0; {name} v10, v7, v4, v5", f"0x7e0e0280 {enc} 0x0a050407",
                          32, (1 << 32) - 1, [lds0], two_op(f), f"{name}: DATA0 = 100 + lane, DATA1 = lane, in lane order")

M64 = (1 << 64) - 1
def atomics64(m, act, o):
    d = lambda l: (l << 32) | (100 + l)
    for l in act:
        r = m.rmw(0, 8, lambda x: (x + d(l)) & M64); o[l][0:2] = [r & 0xffffffff, r >> 32]
    for l in act:
        r = m.rmw(8, 8, lambda x: max(sext(x, 64), sext(d(l), 64)) & M64); o[l][2:4] = [r & 0xffffffff, r >> 32]
    for l in act:
        r = m.rmw(16, 8, lambda x: (x & ~d(l) | d(l)) & M64); o[l][4:6] = [r & 0xffffffff, r >> 32]
lds_rows += lds_model("atomic64", "v_mov_b32 v7, 0; ds_add_rtn_u64 v[10:11], v7, v[4:5]; "
                      "ds_max_rtn_i64 v[12:13], v7, v[4:5] offset:8; ds_mskor_rtn_b64 v[14:15], v7, v[4:5], v[4:5] offset:16",
                      "0x7e0e0280 0xd9800000 0x0a000407 0xd9980008 0x0c000407 0xd9b00010 0x0e040407",
                      32, 0x7, [5, 7, 0xfffffff0, 0xffffffff, 0x0f0f0f0f, 0xf0f0f0f0], atomics64,
                      "64-bit atomics on 8-byte aligned addresses, in lane order (add carries, max is signed)")

CX_IN = lambda l: [(0x80000000 if l % 2 == 0 else 0) | (0x70 + l), (0x80000000 if l % 3 == 0 else 0) | (0x90 + l)]
def condxchg(m, act, o):
    for l in act:
        lo, hi = CX_IN(l)
        r = m.rmw(0, 8, lambda x: (lo & 0x7fffffff if lo >> 31 else x & 0xffffffff)
                  | (hi & 0x7fffffff if hi >> 31 else x >> 32) << 32)
        o[l][0:2] = [r & 0xffffffff, r >> 32]
lds_rows += lds_model("condxchg32", "v_mov_b32 v7, 0; ds_condxchg32_rtn_b64 v[10:11], v7, v[4:5]",
                      "0x7e0e0280 0xd9f80000 0x0a000407", 32, 0xf, [0x91111111, 0xa2222222], condxchg,
                      "ds_condxchg32_rtn_b64: each dword of DATA with bit 31 set is written with bit 31 clear",
                      ins=CX_IN)

EA = 0xf0f0_0000_0000_f0f1
def append(m, act, o):
    n = len(act)
    a = m.rmw(24, 4, lambda x: x + n)
    c = m.rmw(28, 4, lambda x: (x - n) & 0xffffffff)
    for l in act: o[l][0:2] = [a, c]
lds_rows += lds_model("append", "s_mov_b32 m0, 16; ds_append v10 offset:8; ds_consume v11 offset:12",
                      "0xbefc0390 0xd8f80008 0x0a000000 0xd8f4000c 0x0b000000", 64, EA,
                      [0, 0, 0, 0, 0, 0, 5, 100], append,
                      "ds_append/ds_consume: M0[15:0] + offset gets +/- the active-lane count once; "
                      "every active lane gets the value before")

def addtid(m, act, o):
    for l in act: m.wr(16 + 4 + 4 * l, 4, 100 + l)
    for l in act: o[l][0] = m.rd(16 + 4 + 4 * l, 4)
lds_rows += lds_model("addtid", "s_mov_b32 m0, 16; ds_write_addtid_b32 v4 offset:4; ds_read_addtid_b32 v10 offset:4",
                      "0xbefc0390 0xdac00004 0x00000400 0xdac40004 0x0a000000", 32, (1 << 32) - 1, [],
                      addtid, "addtid: address M0[15:0] + offset + 4 x lane id")

EP = ((1 << 64) - 1) & ~(1 << 63) & ~(1 << 2)
def permute(m, act, o):
    tmp = [0] * 64
    for l in act: tmp[(l >> 2) % 64] = 100 + l
    for l in act: o[l][0] = tmp[l]
lds_rows += lds_model("permute", "ds_permute_b32 v10, v5, v4", "0xdac80000 0x0a000405", 64, EP, [], permute,
                      "ds_permute_b32: lane l sends to lane (addr / 4) % 64; the highest active sender wins, "
                      "lanes nobody writes get 0")

WIDE_IN = [0x01010101 * i for i in range(1, 17)]
def wide(m, act, o):
    for l in act:
        for a, v in [(8, 100), (12, 0), (16, 0), (20, 0)]: m.wr(a, 4, v)
        o[l][0:4] = [m.rd(8, 4), m.rd(12, 4), m.rd(16, 4), m.rd(20, 4)]
        o[l][4:6] = [m.rmw(4, 4, lambda x: 100), m.rmw(8, 4, lambda x: l)]
        o[l][6:10] = [m.rd(4 * k, 4) for k in range(4)]
        for k, v in enumerate([100, l, 0]): m.wr(32 + 4 * k, 4, v)
        o[l][10:13] = [m.rd(30 + 4 * k, 4) for k in range(3)]
lds_rows += lds_model("wide", "v_mov_b32 v7, 0; ds_write2_b64 v7, v[4:5], v[8:9] offset0:1 offset1:2; "
                      "ds_read2_b64 v[10:13], v7 offset0:1 offset1:2; ds_wrxchg2_rtn_b32 v[14:15], v7, v4, v5 offset0:1 offset1:2; "
                      "ds_read_b128 v[16:19], v7; ds_write_b96 v7, v[4:6] offset:32; ds_read_b96 v[20:22], v7 offset:30",
                      "0x7e0e0280 0xd9380201 0x00080407 0xd9dc0201 0x0a000007 0xd8b80201 0x0e050407 0xdbfc0000 "
                      "0x10000007 0xdb780020 0x00000407 0xdbf8001e 0x14000007", 32, 1, WIDE_IN, wide,
                      "write2/read2_b64, wrxchg2_rtn_b32, b96/b128 as dwords at byte addresses")

ES = ((1 << 64) - 1) & ~(1 << 40)
def swizzle(m, act, o):
    rot = lambda j: (j & 3) | ((j + (32 - 3)) & ~3 & 31)      # offset 0xc463: mask 3, rotate -3
    rev5 = lambda j: int(f"{j:05b}"[::-1], 2)
    fft = lambda j: (rev5(j) >> 2) | (j & 5)                   # offset 0xe005: mask 5
    for l in act:
        for k, f in enumerate([rot, fft]):
            src = (l & 32) | f(l & 31)
            o[l][k] = 100 + src if active(ES, src) else 0
lds_rows += lds_model("swizzle_rot_fft", "ds_swizzle_b32 v10, v4 offset:0xc463; ds_swizzle_b32 v11, v4 offset:0xe005",
                      "0xd8d4c463 0x0a000004 0xd8d4e005 0x0b000004", 64, ES, [], swizzle,
                      "ds_swizzle_b32 rotate and FFT modes (RDNA2 ISA pseudocode) in each group of 32 lanes; "
                      "a disabled source lane gives 0")

# The float atomics rule on LDS (reference notes, "LDS float atomics"): float_atomic above, the
# cmpst compare of the flushed bits, and the same rule on f64 bits under the f16/f64 field.
def fcmpst(old, cmp, src, flush, bits=32):
    sign, exp = 1 << (bits - 1), (0x7f800000 if bits == 32 else 0x7ff0000000000000)
    fl = lambda x: x & sign if flush and x & exp == 0 else x
    o, c = fl(old), fl(cmp)
    nan = lambda x: x & (sign - 1) > exp
    eq = not nan(o) and not nan(c) and (o == c or (o & (sign - 1) == 0 and c & (sign - 1) == 0))
    return src if eq else old

def float_atomic64(old, data, flush, mx):
    sign, exp, quiet = 1 << 63, 0x7ff0000000000000, 1 << 51
    fl = lambda x: x & sign if flush and x & exp == 0 else x
    o, d = fl(old), fl(data)
    nan = lambda x: x & (sign - 1) > exp
    snan = lambda x: nan(x) and not x & quiet
    if snan(d): return d | quiet
    if snan(o): return o | quiet
    if nan(o): return d
    if nan(d): return o
    key = lambda x: (~x & M64) if x & sign else x | sign
    return d if (key(d) > key(o) if mx else key(d) < key(o)) else o

def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]
def fv(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]

def fadd32(old, data, flush):
    """ds_add_f32 as implemented (not measured bit for bit): flushed operands and sum, NaN
    operand quieted (old first), an invalid sum 0x7fc00000, rounding to nearest even."""
    fl = lambda x: x & 0x80000000 if flush and x & 0x7f800000 == 0 else x
    o, d = fl(old), fl(data)
    nan = lambda x: x & 0x7fffffff > 0x7f800000
    if nan(o): return o | 0x00400000
    if nan(d): return d | 0x00400000
    a, b = fv(o), fv(d)
    if a in (float("inf"), float("-inf")) and b == -a: return 0x7fc00000
    s = a + b  # exact in f64 for these pairs; struct rounds to f32 to nearest even
    r = f32(s) if s == s else 0x7fc00000
    if s == 0 and a == 0 and b == 0: r = o & d & 0x80000000
    return fl(r)

APAIRS = [(0x3f800000, 0x3f800000), (0x00000001, 0x00000001), (0x7f800000, 0xff800000),
          (0x7fc00001, 0x3f800000), (0x3f800000, 0xff800001), (0x80000000, 0x00000000),
          (0x00800000, 0x80000001), (0x3fc00000, 0x40100000), (0x4b800000, 0x3f800000),
          (0x00800001, 0x80800000), (0x80000000, 0x80000000), (0xbf800000, 0x3f800000)]
CSRC = 0x40400000
for wid, name, enc, denorm32, fn in [
        ("lds_fmin_flush", "ds_min_rtn_f32", "0xd8c80000 0x0a000406", 0, lambda o, d: float_atomic(o, d, True, False)),
        ("lds_fmax_keep", "ds_max_rtn_f32", "0xd8cc0000 0x0a000406", 3, lambda o, d: float_atomic(o, d, False, True)),
        ("lds_fcmpst_flush", "ds_cmpst_rtn_f32", "0xd8c40000 0x0a070406", 0, lambda o, d: fcmpst(o, d, CSRC, True)),
        ("lds_fcmpst_keep", "ds_cmpst_rtn_f32", "0xd8c40000 0x0a070406", 1, lambda o, d: fcmpst(o, d, CSRC, False)),
        ("lds_fadd_flush", "ds_add_rtn_f32", "0xd9540000 0x0a000406", 2, lambda o, d: fadd32(o, d, True)),
        ("lds_fadd_keep", "ds_add_rtn_f32", "0xd9540000 0x0a000406", 3, lambda o, d: fadd32(o, d, False))]:
    pairs = APAIRS if "add" in wid else FPAIRS
    cmp_ = "cmpst" in wid
    text = f"v_lshlrev_b32 v6, 2, v5; {name} v10, v6, v4" + (", v7" if cmp_ else "")
    lds_rows += lds_case(wid, text, "0x340c0a82 " + enc, 32, (1 << len(pairs)) - 1, [o for o, _ in pairs],
                         [fn(o, d) for o, d in pairs] + [0] * (128 - len(pairs)),
                         lambda l: [pairs[l][0]] if l < len(pairs) else [],
                         f"{name} under denorm32 = {denorm32}: the float atomics rule; the old value returns",
                         ins=lambda l, p=pairs: [p[l][1] if l < len(p) else 0, l, 0, CSRC], denorm=(denorm32, ""))

DPAIRS = [(0x3ff0000000000000, 0x4000000000000000), (0x8000000000000000, 0),
          (0x0000000000000064, 0x3ff0000000000000), (0x7ff0000000000001, 0x3ff0000000000000),
          (0x3ff0000000000000, 0xfff8000000000002), (0x7ff8000000000000, 0xbff0000000000000),
          (0x0000000000000001, 0x8000000000000001), (0xc000000000000000, 0x4000000000000000)]
DSRC = 0x4008000000000000
for wid, name, enc, denorm16, fn in [
        ("lds_fmax64_flush", "ds_max_rtn_f64", "0xd9cc0000 0x0a000406", 0, lambda o, d: float_atomic64(o, d, True, True)),
        ("lds_fmin64_keep", "ds_min_rtn_f64", "0xd9c80000 0x0a000406", 3, lambda o, d: float_atomic64(o, d, False, False)),
        ("lds_fcmpst64_flush", "ds_cmpst_rtn_f64", "0xd9c40000 0x0a080406", 2, lambda o, d: fcmpst(o, d, DSRC, True, 64))]:
    text = f"{name} v[10:11], v6, v[4:5]" + (", v[8:9]" if "cmpst" in wid else "")
    olds = [x for o, _ in DPAIRS for x in (o & 0xffffffff, o >> 32)]
    news = [x for o, d in DPAIRS for x in (fn(o, d) & 0xffffffff, fn(o, d) >> 32)]
    lds_rows += lds_case(wid, text, enc, 32, 0xff, olds, news + [0] * (128 - len(news)),
                         lambda l: [DPAIRS[l][0] & 0xffffffff, DPAIRS[l][0] >> 32] if l < 8 else [],
                         f"{name} under denorm16 = {denorm16}: the float atomics rule on f64 bits",
                         ins=lambda l: [DPAIRS[l][1] & 0xffffffff, DPAIRS[l][1] >> 32, 8 * l, 0,
                                        DSRC & 0xffffffff, DSRC >> 32] if l < 8 else [0, 0, 8 * l],
                         denorm=("", denorm16))

if len(sys.argv) > 3:
    write(sys.argv[3], V1 + "," + LDS_WAVE, lds_rows)
