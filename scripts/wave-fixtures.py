#!/usr/bin/env python3
"""Writes datasets/wave/crosslane.csv: hand-computed wave-contract rows (expected values worked
out here from the RDNA2 ISA's descriptions of VOPC, v_cmpx, v_readlane/readfirstlane/writelane
and v_permlane16/x16), one wave per case. Encodings come from `rdnaprobe encode`.
Usage: scripts/wave-fixtures.py PATH/TO/rdnaprobe datasets/wave/crosslane.csv (writes its manifest too)
With a third argument (datasets/wave/lds.csv) it also writes the LDS waves there."""
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

def lds_case(wid, text, enc, w, exec_in, lds_in, lds_out, outs, note):
    rows = []
    for l in range(w):
        ins = [f"0x{100 + l:08x}", f"0x{l:08x}"] + ["0x00000000"] * 4
        o = outs(l) + [0] * (16 - len(outs(l)))
        cells = [f'"{text}"', enc, str(w)] + [""] * 7 + ins + [f"0x{x:08x}" for x in o]
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
if len(sys.argv) > 3:
    write(sys.argv[3], V1 + "," + LDS_WAVE, lds_rows)
