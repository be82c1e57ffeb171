"""The derived columns of the instruction table: destinations, sources (kind, value type, register
width) and flags of each row, as gen_table.py writes them into recompiler/isa/src/table/gfx10.txt.

Each fact comes from one of three places, in this order:

1. llvm-mc-19's text of the row's probe words: the operand count, register files and widths, the
   implicit VCC operands of the 32-bit forms (`v_cndmask_b32_e32 v10, v0, v1, vcc_lo`), a literal
   operand (`v_fmamk_f32 v10, v0, 0xbf800000, v1`), an attribute operand (`attr0.x`), a printed
   carry/scale destination (VOP3b), a sampler operand (MIMG), the `high` half select.
2. The naming conventions that the ISA manual and LLVM share: the value-type suffixes of a
   mnemonic (`v_add_f32`; `<op>_<dst type>_<src type>` where it names two, `v_cvt_f32_u32`); VOPC
   writes a lane mask; VOP3P's 16-bit types are packed pairs; memory words `load`, `store`,
   `atomic`, `cmpswap`, `addtid`, `gws`, the two-address DS forms; the MIMG address suffixes
   (`_o` offset, `_b` bias, `_c` compare, `_d`/`_cd` gradients, `_g16`, `_l`/`_cl`/`mip` lod,
   clamp or mip level) of LLVM's MIMGBaseOpcode fields.
3. recompiler/isa/src/table/overrides.toml: the rows where neither holds, each entry with its
   reason; and the rows llvm-mc does not know at all (`[[hardware]]`), with their evidence.

Nothing downstream reads a mnemonic's text for a fact: the Rust side parses these columns.
"""

import os

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

OVERRIDES = os.path.join(os.path.dirname(__file__), "..", "..", "recompiler", "isa", "src", "table",
                         "overrides.toml")

# Every flag the table knows, in the order of recompiler/isa/src/table/flags.rs.
FLAGS = [
    "CMPX", "VOP3B", "READS_VCC", "WRITES_VCC", "LITERAL_OPERAND", "KEEPS_HIGH", "INTERP",
    "INTERP_HIGH", "FMA_MIX", "NO_LDS_DIRECT", "ONE_CONSTANT", "REGISTER_ONLY", "BRANCH",
    "LOAD", "STORE", "ATOMIC", "ATOMIC_X2", "ADDTID", "LDS_FORM", "VDST", "NO_ADDR",
    "TWO_OFFSETS", "GWS", "ATC_PROBE", "SMEM_BUFFER", "SAMPLER", "GATHER4", "NO_D16", "MSAA",
    "BVH", "BVH64", "OFFSET", "BIAS", "COMPARE", "GRADIENTS", "G16", "LOD", "NO_COORDINATES",
    "GDS_ONLY", "NO_GDS",
]

# Type suffixes of mnemonics and the value type each stands for (8-, 4- and 24-bit integers are
# read from 32-bit registers).
TYPE_TOKENS = {
    "f16": "f16", "f32": "f32", "f64": "f64", "b16": "b16", "b32": "b32", "b64": "b64",
    "i16": "i16", "u16": "u16", "i32": "i32", "i24": "i32", "i8": "i32", "i4": "i32",
    "u32": "u32", "u24": "u32", "u8": "u32", "u4": "u32", "i64": "i64", "u64": "u64",
}
TYPES = set(TYPE_TOKENS.values()) | {"pk_f16", "pk_i16", "pk_u16", "mask", "untyped"}
KINDS = {"vgpr", "sgpr", "src", "mask", "imm", "mem"}
PACKED = {"f16": "pk_f16", "i16": "pk_i16", "u16": "pk_u16", "b16": "pk_u16"}
VALU = {"VOP1", "VOP2", "VOPC", "VOP3", "VOP3P"}
SALU = {"SOP2", "SOP1", "SOPC", "SOPK", "SOPP"}
MEMORY = {"SMEM", "DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH", "MIMG"}


def probe_operands(text):
    """Operand tokens of an llvm-mc line: the first word of each comma-separated operand after
    the mnemonic, with /* ... */ comments removed; commas inside parentheses and brackets belong
    to one operand or modifier (`hwreg(52, 8, 3)`, `op_sel_hi:[0,0,0]`)."""
    clean, rest = "", text
    while "/*" in rest:
        i = rest.index("/*")
        clean += rest[:i]
        j = rest.find("*/", i)
        rest = rest[j + 2:] if j >= 0 else ""
    clean += rest
    parts = clean.strip().split(None, 1)
    if len(parts) < 2:
        return []
    pieces, depth, cur = [], 0, ""
    for c in parts[1]:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            pieces.append(cur)
            cur = ""
        else:
            cur += c
    pieces.append(cur)
    return [p.split()[0] for p in pieces if p.split()]


def token_dwords(tok):
    """Register width in dwords of an llvm-mc operand token (v[2:3] -> 2, s4 -> 1)."""
    if "[" in tok:
        inner = tok[tok.index("[") + 1:].rstrip("]")
        if ":" in inner:
            a, b = inner.split(":", 1)
            if a.isdigit() and b.isdigit():
                return min(max(int(b) - int(a), 0) + 1, 255)
    return 1


def widen(ty, dwords):
    """The type of a register operand of `dwords` dwords whose element type is `ty`."""
    if dwords == 2:
        return {"u32": "u64", "u16": "u64", "i32": "i64", "i16": "i64", "b32": "b64",
                "b16": "b64", "f32": "f64"}.get(ty, ty)
    if dwords == 1:
        return {"u64": "u32", "i64": "i32", "b64": "b32", "f64": "f32"}.get(ty, ty)
    if dwords > 2:
        return "untyped"
    return ty


def suffix_types(m, family, nsrc):
    """Value types from the mnemonic's type suffixes: one suffix types every operand; two are
    the destination's and the sources' (`v_cvt_f32_u32`, `s_bcnt1_i32_b64`); VOP3P's 16-bit
    types are packed pairs."""
    tys = [TYPE_TOKENS[t] for t in m.split("_") if t in TYPE_TOKENS]
    if len(tys) >= 2:
        dst, src = tys[0], tys[1]
    else:
        dst = src = tys[-1] if tys else "b32"
    if family == "VOP3P":
        dst, src = PACKED.get(dst, dst), PACKED.get(src, src)
    return dst, [src] * nsrc


def spec(kind, ty, tok):
    d = token_dwords(tok) if tok is not None else 1
    if kind not in ("mask", "mem"):
        ty = widen(ty, d)
    return [kind, ty, d]


def is_scalar(tok):
    return tok.startswith("s") or tok.startswith("vcc") or tok.startswith("ttmp")


def valu(r, flags):
    m, fam = r["mnemonic"], r["family"]
    own, full = probe_operands(r["text"]), probe_operands(r["full_text"])
    if fam == "VOPC" and own and own[0] != "vcc_lo":
        flags.add("CMPX")
    if fam != "VOPC" and len(full) > 1 and full[0].startswith("v") and is_scalar(full[1]):
        flags.add("VOP3B")
    if fam in ("VOP2",) and own and own[-1] == "vcc_lo":
        flags.add("READS_VCC")
    if (fam == "VOPC" and "CMPX" not in flags) or (fam == "VOP2" and own[1:2] == ["vcc_lo"]):
        flags.add("WRITES_VCC")
    if any(t.startswith("0x") for t in own[1:]):
        flags.add("LITERAL_OPERAND")
    if any(t.startswith("attr") for t in full):
        flags.add("INTERP")
    if r["full_text"].endswith(" high"):
        flags.add("INTERP_HIGH")
    if any(t.endswith("rev") and t != "bfrev" for t in m.split("_")):
        flags.add("NO_LDS_DIRECT")
    ndst = 0 if not full or "CMPX" in flags else (2 if "VOP3B" in flags else 1)
    src_toks = full[ndst:]
    dty, stys = suffix_types(m, fam, len(src_toks))
    if fam == "VOPC":
        dty = "mask"
    if "READS_VCC" in flags:
        stys[-1] = "mask"
    dsts = []
    if ndst >= 1:
        kind = "mask" if fam == "VOPC" else ("sgpr" if full[0].startswith("s") else "vgpr")
        dsts.append(spec(kind, dty, full[0]))
    if ndst == 2:
        dsts.append(["mask", "mask", 1])
    srcs = []
    for t, ty in zip(src_toks, stys):
        kind = "mask" if ty == "mask" else "imm" if t.startswith("0x") else \
            "mem" if t.startswith("attr") else "src"
        srcs.append(spec(kind, ty, t))
    return dsts, srcs


def salu(r, flags):
    m, fam = r["mnemonic"], r["family"]
    ops = probe_operands(r["text"])
    # Probe fields: sdst = s4, ssrc0 = s2 (SOPC: s2, s0).
    if fam == "SOP2":
        ndst = 1
    elif fam == "SOP1":
        ndst = int(bool(ops) and (ops[0] == "s4" or ops[0].startswith("s[4:")))
    elif fam == "SOPK":
        ndst = int(bool(ops) and ops[0].startswith("s"))
    else:
        ndst = 0
    if fam == "SOPP" and m.split("_")[1] in ("branch", "cbranch"):
        flags.add("BRANCH")
    dty, stys = suffix_types(m, fam, len(ops) - ndst)
    dsts = [spec("sgpr", dty, t) for t in ops[:ndst]]
    srcs = []
    for t, ty in zip(ops[ndst:], stys):
        if fam in ("SOPK", "SOPP"):
            kind = "sgpr" if t.startswith("s") else "imm"
        else:
            kind = "src"
        srcs.append(spec(kind, ty, t))
    return dsts, srcs


def memory(r, flags):
    """Memory, interpolation and export rows: the operands as llvm-mc prints them, untyped."""
    m, fam = r["mnemonic"], r["family"]
    ops = probe_operands(r["text"])
    words = m.split("_")
    if fam in MEMORY and fam != "DS":
        for w, f in (("load", "LOAD"), ("store", "STORE"), ("atomic", "ATOMIC"),
                     ("addtid", "ADDTID")):
            if w in words:
                flags.add(f)
    if fam in ("FLAT", "GLOBAL", "SCRATCH", "MIMG") and any(w.endswith("cmpswap") for w in words) \
            and (fam != "MIMG" or "ATOMIC" in flags):
        flags.add("ATOMIC_X2")
    if fam == "DS":
        if ops and (ops[0] == "v10" or ops[0].startswith("v[10:")):
            flags.add("VDST")
        if any(w in ("read2", "read2st64", "write2", "write2st64", "wrxchg2", "wrxchg2st64")
               for w in words):
            flags.add("TWO_OFFSETS")
        if words[1] == "gws":
            flags.update(("GWS", "NO_ADDR"))
        # llvm-mc-19 prints `gds` in the probe text of the forms that have no LDS variant
        if r["text"].endswith(" gds"):
            flags.add("GDS_ONLY")
    if fam == "SMEM" and ops:
        if ops[0].isdigit():
            flags.add("ATC_PROBE")
        base = ops[1] if len(ops) > 1 else ""
        if token_dwords(base) == 4:
            flags.add("SMEM_BUFFER")
    if fam == "MIMG":
        mimg_flags(m, flags)
        # The sampler operand is the fourth one llvm-mc prints: the naming rule must agree.
        if ops and (len(ops) == 4) != ("SAMPLER" in flags):
            raise ValueError("%s: the probe text and the sampler rule disagree" % m)
    return [], [spec("mem", "untyped", t) for t in ops]


def mimg_flags(m, flags):
    """LLVM's MIMGBaseOpcode fields, from the mnemonic's words: sampler, gather4, atomic,
    the address arguments (offset, bias, z-compare), gradients (16-bit with g16),
    coordinates and lod/clamp/mip."""
    words = m.split("_")
    if words[1] in ("bvh", "bvh64"):
        flags.add("BVH")
        if words[1] == "bvh64":
            flags.add("BVH64")
        return
    gather = words[1].startswith("gather4")
    sample = "sample" in words or gather
    if gather:
        flags.add("GATHER4")
    if sample or m == "image_get_lod":
        flags.add("SAMPLER")
    if "ATOMIC" in flags or any(w.startswith("pck") for w in words[1:]) \
            or m in ("image_get_resinfo", "image_get_lod"):
        flags.add("NO_D16")
    if "msaa" in words:
        flags.add("MSAA")
    if sample:
        for w, f in (("o", "OFFSET"), ("b", "BIAS"), ("c", "COMPARE")):
            if w in words:
                flags.add(f)
        if "d" in words or "cd" in words:
            flags.add("GRADIENTS")
    if "g16" in words:
        flags.add("G16")
    if m == "image_get_resinfo":
        flags.update(("LOD", "NO_COORDINATES"))
    elif "mip" in words or (sample and ("l" in words or "cl" in words)):
        flags.add("LOD")


def load_overrides(path=OVERRIDES):
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return data.get("override", []), data.get("hardware", [])


def parse_spec(s):
    """`kind:type[:dwords]` of the override file and the table."""
    p = s.split(":")
    if len(p) not in (2, 3) or p[0] not in KINDS or p[1] not in TYPES:
        raise ValueError("bad operand `%s`: kind:type[:dwords]" % s)
    return [p[0], p[1], int(p[2]) if len(p) == 3 else 1]


def fmt_spec(sp):
    kind, ty, d = sp
    return "%s:%s" % (kind, ty) + (":%d" % d if d != 1 else "")


def apply_override(row, o, where):
    """One row's entry of an [[override]]: `dsts` / `srcs` (operand lists, replacing the derived
    ones), `result` (the first destination's type), `src_types` (types by source position,
    `-` keeps one), `flags` (added) and `not_flags` (removed)."""
    known = {"dsts", "srcs", "result", "src_types", "flags", "not_flags"}
    bad = set(o) - known
    if bad:
        raise ValueError("%s: unknown field(s) %s" % (where, sorted(bad)))
    before = (repr(row["dsts"]), repr(row["srcs"]), sorted(row["flags"]))
    if "dsts" in o:
        row["dsts"] = [parse_spec(s) for s in o["dsts"]]
    if "srcs" in o:
        row["srcs"] = [parse_spec(s) for s in o["srcs"]]
    if "result" in o:
        if not row["dsts"] or o["result"] not in TYPES:
            raise ValueError("%s: result needs a destination and a type" % where)
        row["dsts"][0][1] = o["result"]
    for i, ty in enumerate(o.get("src_types", [])):
        if ty == "-":
            continue
        if i >= len(row["srcs"]) or ty not in TYPES:
            raise ValueError("%s: src_types[%d] = %s" % (where, i, ty))
        row["srcs"][i][1] = ty
        if ty == "mask":
            row["srcs"][i][0] = "mask"
    for f in o.get("flags", []) + o.get("not_flags", []):
        if f not in FLAGS:
            raise ValueError("%s: unknown flag %s" % (where, f))
    row["flags"].update(o.get("flags", []))
    row["flags"].difference_update(o.get("not_flags", []))
    after = (repr(row["dsts"]), repr(row["srcs"]), sorted(row["flags"]))
    if before == after:
        raise ValueError("%s: the override changes nothing" % where)


def derive(rows, overrides=None):
    """Fill `dsts`, `srcs` and `flags` of each row dict (family, mnemonic, text, full_text,
    source, like). `full_text` is the llvm-mc text of the fullest form (the VOP3 form of a
    promoted VOP1/VOP2/VOPC row)."""
    if overrides is None:
        overrides, _ = load_overrides()
    by_name = {}
    for r in rows:
        if not r.get("promoted"):
            by_name.setdefault(r["mnemonic"], []).append(r)
    for r in rows:
        flags = set()
        fam = r["family"]
        if r.get("like"):
            sib = [x for x in by_name.get(r["like"], []) if x["family"] == fam and x["source"] == "llvm"]
            if len(sib) != 1:
                raise ValueError("%s: like = %s names no llvm row of %s" % (r["mnemonic"], r["like"], fam))
            r["text"], r["full_text"] = sib[0]["text"], sib[0]["full_text"]
        if fam in VALU:
            dsts, srcs = valu(r, flags)
        elif fam in SALU:
            dsts, srcs = salu(r, flags)
        else:
            dsts, srcs = memory(r, flags)
        if r.get("like"):
            r["text"] = r["full_text"] = ""
        r["dsts"], r["srcs"], r["flags"] = dsts, srcs, flags
    for i, o in enumerate(overrides):
        where = "overrides.toml [[override]] #%d" % (i + 1)
        if not str(o.get("reason", "")).strip():
            raise ValueError("%s: no reason" % where)
        entries = o.get("rows", {})
        if not entries:
            raise ValueError("%s: no rows" % where)
        for name, fields in entries.items():
            fam = fields.get("family")
            targets = [r for r in by_name.get(name, []) if fam is None or r["family"] == fam]
            if len(targets) != 1:
                raise ValueError("%s: %s names %d rows (give `family`)" % (where, name, len(targets)))
            fields = {k: v for k, v in fields.items() if k != "family"}
            apply_override(targets[0], fields, "%s %s" % (where, name))
    for r in rows:
        # A 16-bit result of VOP1/VOP2/VOP3 keeps bits 31:16 of the destination; VOP3P's
        # 16-bit results are packed pairs or mix halves.
        res = r["dsts"][0][1] if r["dsts"] else "untyped"
        if res in ("f16", "i16", "u16", "b16") and r["family"] in VALU - {"VOP3P"}:
            r["flags"].add("KEEPS_HIGH")


def columns_text(r):
    ops = lambda l: " ".join(fmt_spec(s) for s in l) if l else "-"
    flags = " ".join(f for f in FLAGS if f in r["flags"]) or "-"
    return "%s | %s | %s" % (ops(r["dsts"]), ops(r["srcs"]), flags)
