#!/usr/bin/env python3
"""Generate recompiler/isa/src/table/gfx10.txt, the instruction table: every row of every encoding
family with its operand columns and flags.

For each family and each opcode number the script builds instruction words with that opcode and a
few plausible operand fields, and asks llvm-mc-19 (`--disassemble`) what they are. The first variant
that decodes names the opcode. The rows llvm-mc rejects that the hardware executes come from the
[[hardware]] entries of recompiler/isa/src/table/overrides.toml. columns.py then derives the
destinations, sources and flags of each row from llvm-mc's text and the mnemonic's naming
conventions, and applies the file's [[override]] entries.

Run from the repository root: python3 scripts/isa/gen_table.py
(`--check`: compare with the committed file instead of writing it; exit 1 when it is stale.)
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
import columns  # noqa: E402
import llvmmc  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "recompiler", "isa", "src", "table", "gfx10.txt")

V0, V1, V2 = 0x100, 0x101, 0x102


def vop3_variants(op):
    base = (0b110101 << 26) | (op << 16) | 10
    return [
        [base, V0 | (V1 << 9) | (V2 << 18)],
        [base, V0 | (V1 << 9)],
        [base, V0],
        [base | (106 << 8), V0 | (V1 << 9) | (V2 << 18)],  # VOP3b with sdst = vcc_lo
        [base | (106 << 8), V0 | (V1 << 9) | (106 << 18)],
        [base, 0x80 | (V1 << 9)],
        [base, 0x80],
        [base, 0],
        [base, V0 | (V1 << 9) | (106 << 18)],
    ]


FAMILIES = {
    # family: (opcode count, variants(op) -> list of word lists)
    "SOP2": (0x60, lambda op: [[(0b10 << 30) | (op << 23) | (4 << 16) | (2 << 8) | 0],
                               [(0b10 << 30) | (op << 23) | (4 << 16) | (2 << 8) | 0]]),
    "SOPK": (0x1D, lambda op: [[(0b1011 << 28) | (op << 23) | (4 << 16) | 0x1234],
                               [(0b1011 << 28) | (op << 23) | (4 << 16) | 0x1234, 0x5678]]),
    "SOP1": (0x100, lambda op: [[(0b101111101 << 23) | (4 << 16) | (op << 8) | 2],
                                [(0b101111101 << 23) | (4 << 16) | (op << 8) | 0x80]]),
    "SOPC": (0x80, lambda op: [[(0b101111110 << 23) | (op << 16) | (2 << 8) | 0]]),
    "SOPP": (0x80, lambda op: [[(0b101111111 << 23) | (op << 16) | 0],
                               [(0b101111111 << 23) | (op << 16) | 1]]),
    "SMEM": (0x100, lambda op: [[(0b111101 << 26) | (op << 18) | (4 << 6) | 2, (0x7D << 25)],
                                [(0b111101 << 26) | (op << 18) | (4 << 6) | 0, (0x7D << 25)],
                                [(0b111101 << 26) | (op << 18) | (4 << 6) | 2, (0x7D << 25) | 4],
                                [(0b111101 << 26) | (op << 18), (0x7D << 25)]]),
    "VOP1": (0x100, lambda op: [[(0b0111111 << 25) | (10 << 17) | (op << 9) | V0],
                                [(0b0111111 << 25) | (op << 9)]]),
    "VOP2": (0x3E, lambda op: [[(op << 25) | (10 << 17) | (1 << 9) | V0],
                               [(op << 25) | (10 << 17) | (1 << 9) | V0, 0x3F800000]]),
    "VOPC": (0x100, lambda op: [[(0b0111110 << 25) | (op << 17) | (1 << 9) | V0]]),
    "VOP3": (0x400, vop3_variants),
    "VOP3P": (0x80, lambda op: [[(0b11001100 << 24) | (op << 16) | 10, V0 | (V1 << 9) | (V2 << 18)],
                                [(0b11001100 << 24) | (op << 16) | 10 | (1 << 14), V0 | (V1 << 9) | (V2 << 18) | (3 << 27)],
                                [(0b11001100 << 24) | (op << 16) | 10 | (1 << 14), V0 | (V1 << 9) | (3 << 27)],
                                [(0b11001100 << 24) | (op << 16) | 10, V0 | (V1 << 9) | (3 << 27)],
                                [(0b11001100 << 24) | (op << 16) | 10, V0 | (V1 << 9)]]),
    "VINTRP": (0x4, lambda op: [[(0b110010 << 26) | (10 << 18) | (op << 16) | 0]]),
    "DS": (0x100, lambda op: [[(0b110110 << 26) | (op << 18), d] for d in
                              [(10 << 24) | (2 << 16) | (1 << 8), (10 << 24), (1 << 8), (2 << 16) | (1 << 8),
                               (10 << 24) | (1 << 8), (10 << 24) | (2 << 16) | (1 << 8), 0]]
                             + [[(0b110110 << 26) | (op << 18) | (1 << 17), 0]]),
    "EXP": (0x1, lambda op: [[(0b111110 << 26) | 0xF, 0x03020100]]),
    # MUBUF keeps the opcode's bit 7 in word0 bit 25.
    "MUBUF": (0x100, lambda op: [[(0b111000 << 26) | ((op >> 7) << 25) | ((op & 0x7F) << 18), (4 << 16) | (1 << 8) | 0],
                                 [(0b111000 << 26) | ((op >> 7) << 25) | ((op & 0x7F) << 18) | (1 << 14), (4 << 16) | (1 << 8) | 0],
                                 [(0b111000 << 26) | ((op >> 7) << 25) | ((op & 0x7F) << 18) | (1 << 16), (4 << 16) | (1 << 8) | 0]]),
    "MTBUF": (0x10, lambda op: [[(0b111010 << 26) | ((op & 7) << 16) | (1 << 19), ((op >> 3) << 21) | (4 << 16) | (1 << 8) | 0]]),
    "FLAT": (0x80, lambda op: [[(0b110111 << 26) | (op << 18), (10 << 24) | (0x7D << 16) | (1 << 8) | 2],
                               [(0b110111 << 26) | (op << 18) | (1 << 16), (10 << 24) | (0x7D << 16) | (1 << 8) | 2]]),
    "GLOBAL": (0x80, lambda op: [[(0b110111 << 26) | (op << 18) | (2 << 14), (10 << 24) | (0x7D << 16) | (1 << 8) | 2],
                                 [(0b110111 << 26) | (op << 18) | (2 << 14) | (1 << 16), (10 << 24) | (0x7D << 16) | (1 << 8) | 2],
                                 [(0b110111 << 26) | (op << 18) | (2 << 14), (10 << 24) | (4 << 16) | (1 << 8) | 2]]),
    "SCRATCH": (0x80, lambda op: [[(0b110111 << 26) | (op << 18) | (1 << 14), (10 << 24) | (0x7D << 16) | (1 << 8) | 2],
                                  [(0b110111 << 26) | (op << 18) | (1 << 14), (10 << 24) | (4 << 16) | (1 << 8) | 0x7F]]),
    "MIMG": (0x100, lambda op: [[(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0xF << 8), (4 << 16) | (0 << 21) | (1 << 8) | 0],
                                [(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0x1 << 8), (4 << 16) | (0 << 21) | (1 << 8) | 0],
                                [(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0x1 << 8) | (1 << 13), (4 << 16) | (0 << 21) | (1 << 8) | 0],
                                [(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0x3 << 8) | (1 << 13), (4 << 16) | (0 << 21) | (1 << 8) | 0],
                                [(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0xF << 8) | (2 << 3), (4 << 16) | (0 << 21) | (1 << 8) | 0],
                                [(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0x1 << 8) | (2 << 3), (4 << 16) | (0 << 21) | (1 << 8) | 0],
                                # Ray intersection takes dmask 0xf, unorm and r128.
                                [(0b111100 << 26) | ((op & 0x7F) << 18) | (op >> 7) | (0xF << 8) | (1 << 12) | (1 << 15), (4 << 16) | (0 << 21) | (1 << 8) | 0]]),
}

SUFFIX = re.compile(r"_(e32|e64|sdwa|dpp)$")


def probe(mcpu):
    streams, keys = [], []
    for fam, (count, variants) in FAMILIES.items():
        for op in range(count):
            for v in variants(op):
                streams.append(v)
                keys.append((fam, op))
    res = llvmmc.disassemble(streams, mcpu=mcpu)
    names = {}
    for key, items, words in zip(keys, res, streams):
        if key in names:
            continue
        if not items or items[0][0] != 0:
            continue
        first = items[0]
        if first[2] is None:
            continue
        mnem = first[2].split()[0]
        if mnem == "v_illegal" and key[0] != "VOP1":
            continue
        names[key] = (mnem, first[2], words)
    return names


def table_rows(names, old, hardware):
    """Row dicts in table order: the probed rows, then the hardware-only ones."""
    order = list(FAMILIES)
    rows = []
    for (fam, op), (mnem, text, words) in sorted(names.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1])):
        base = SUFFIX.sub("", mnem)
        o = old.get((fam, op))
        alt = SUFFIX.sub("", o[0]) if o else None
        rows.append({"family": fam, "opcode": op, "mnemonic": base, "source": "llvm",
                     "gfx1010": alt if alt and alt != base else None, "text": text, "words": words})
    for h in hardware:
        fam, op, mnem = h["family"], h["opcode"], h["mnemonic"]
        assert (fam, op) not in names, "%s %d is known to llvm-mc now" % (fam, op)
        if not str(h.get("evidence", "")).strip():
            raise ValueError("overrides.toml [[hardware]] %s: no evidence" % mnem)
        rows.append({"family": fam, "opcode": op, "mnemonic": mnem, "source": "hardware",
                     "gfx1010": None, "text": "", "words": [], "like": h.get("like"),
                     "evidence": " ".join(h["evidence"].split())})
    # VOP3 rows that are the promoted form of a VOP1/VOP2/VOPC row: their text is the fullest
    # form of that row, and the table keeps them as one row.
    short = {r["mnemonic"] for r in rows if r["family"] in ("VOP1", "VOP2", "VOPC")}
    vop3 = {r["mnemonic"]: r["text"] for r in rows if r["family"] == "VOP3"}
    for r in rows:
        r["promoted"] = r["family"] == "VOP3" and r["mnemonic"] in short
        r["full_text"] = vop3.get(r["mnemonic"], r["text"]) if r["family"] in ("VOP1", "VOP2", "VOPC") else r["text"]
    return rows


HEADER = """\
# Generated by scripts/isa/gen_table.py from llvm-mc-19 -mcpu=gfx1030 --disassemble and
# overrides.toml (scripts/isa/columns.py says where each column comes from); do not edit.
# family opcode mnemonic source [gfx1010=mnemonic] | destinations | sources | flags | probe words |
# llvm-mc text of the probe (source llvm) or the evidence (source hardware).
# An operand is kind:type[:dwords]; `-` is none. The promoted VOP3 form of a VOP1/VOP2/VOPC row
# has `=` columns: its operands are the row's.
"""


def render(rows):
    out = [HEADER]
    for r in rows:
        cols = "= | = | =" if r["promoted"] else columns.columns_text(r)
        last = r.get("evidence", "") if r["source"] == "hardware" else r["text"]
        out.append("%s %d %s %s%s | %s | %s | %s\n" % (
            r["family"], r["opcode"], r["mnemonic"], r["source"],
            (" gfx1010=" + r["gfx1010"]) if r["gfx1010"] else "", cols,
            " ".join("0x%08x" % w for w in r["words"]), last))
    return "".join(out)


def main():
    check = "--check" in sys.argv[1:]
    out = OUT
    for a in sys.argv[1:]:
        if a.startswith("--out="):
            out = a[len("--out="):]
    overrides, hardware = columns.load_overrides()
    rows = table_rows(probe("gfx1030"), probe("gfx1010"), hardware)
    columns.derive(rows, overrides)
    text = render(rows)
    if check:
        with open(out) as f:
            old = f.read()
        if old != text:
            old_l, new_l = old.splitlines(), text.splitlines()
            diff = [l for l in new_l if l not in set(old_l)]
            print("%s is stale: python3 scripts/isa/gen_table.py; %d line(s) differ, first: %s"
                  % (out, len(diff), diff[:1]), file=sys.stderr)
            sys.exit(1)
        return
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    counts = {}
    for r in rows:
        counts[r["family"]] = counts.get(r["family"], 0) + 1
    print(counts, sum(counts.values()))


if __name__ == "__main__":
    main()
