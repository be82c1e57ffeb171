//! Symbolic immediates of the scalar and memory families as llvm-mc prints them on GFX10.3:
//! `hwreg(...)`, `sendmsg(...)`, `s_waitcnt` counters, `s_waitcnt_depctr` fields, the
//! `ds_swizzle_b32` offset and the MTBUF unified buffer formats. The names are facts of the
//! GFX10.3 ISA (register, message and format numbering); the print rules follow llvm-mc's
//! output, checked by the differential test.

/// Hardware register names by id (`s_getreg_b32` / `s_setreg_b32`); ids without a name print as
/// numbers.
pub(crate) fn hwreg_name(id: u32) -> Option<&'static str> {
    Some(match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        16 => "HW_REG_TBA_LO",
        17 => "HW_REG_TBA_HI",
        18 => "HW_REG_TMA_LO",
        19 => "HW_REG_TMA_HI",
        20 => "HW_REG_FLAT_SCR_LO",
        21 => "HW_REG_FLAT_SCR_HI",
        23 => "HW_REG_HW_ID1",
        24 => "HW_REG_HW_ID2",
        25 => "HW_REG_POPS_PACKER",
        29 => "HW_REG_SHADER_CYCLES",
        _ => return None,
    })
}

/// The fields of an s_getreg/s_setreg SIMM16: bits 5:0 the hardware register id, 10:6 the bit
/// offset, 15:11 the size - 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwRegField {
    pub id: u32,
    pub offset: u32,
    /// 1..=32 bits.
    pub size: u32,
}

impl HwRegField {
    pub fn decode(simm16: u32) -> HwRegField {
        HwRegField {
            id: simm16 & 0x3f,
            offset: (simm16 >> 6) & 0x1f,
            size: ((simm16 >> 11) & 0x1f) + 1,
        }
    }
}

/// `hwreg(id[, offset, size])` ([`HwRegField`]). Offset 0 and size 32 are the defaults and are
/// left out.
pub fn hwreg(simm16: u32) -> String {
    let HwRegField { id, offset, size } = HwRegField::decode(simm16);
    let name = hwreg_name(id).map_or_else(|| id.to_string(), str::to_string);
    if offset == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {offset}, {size})")
    }
}

pub(crate) fn msg_name(id: u32) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 => "MSG_SAVEWAVE",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        7 => "MSG_ORDERED_PS_DONE",
        8 => "MSG_EARLY_PRIM_DEALLOC",
        9 => "MSG_GS_ALLOC_REQ",
        10 => "MSG_GET_DOORBELL",
        11 => "MSG_GET_DDID",
        15 => "MSG_SYSMSG",
        _ => return None,
    })
}

pub(crate) const GS_OPS: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];

pub(crate) fn sysmsg_op(op: u32) -> Option<&'static str> {
    Some(match op {
        1 => "SYSMSG_OP_ECC_ERR_INTERRUPT",
        2 => "SYSMSG_OP_REG_RD",
        4 => "SYSMSG_OP_TTRACE_PC",
        _ => return None,
    })
}

/// `s_sendmsg` / `s_sendmsghalt` immediate: bits 3:0 message, 6:4 operation, 9:8 GS stream.
/// Named when message, operation and stream form a valid combination; `sendmsg(id, op, stream)`
/// when only those fields are set; otherwise the plain number.
pub fn sendmsg(simm16: u32) -> String {
    let id = simm16 & 0xf;
    let op = (simm16 >> 4) & 7;
    let stream = (simm16 >> 8) & 3;
    let named = match (id, msg_name(id)) {
        (2, Some(n)) if (1..=3).contains(&op) => {
            Some(format!("{n}, {}, {stream}", GS_OPS[op as usize]))
        }
        (3, Some(n)) if op == 0 && stream == 0 => Some(format!("{n}, {}", GS_OPS[0])),
        (3, Some(n)) if (1..=3).contains(&op) => {
            Some(format!("{n}, {}, {stream}", GS_OPS[op as usize]))
        }
        (15, Some(n)) if stream == 0 => sysmsg_op(op).map(|o| format!("{n}, {o}")),
        (2 | 3 | 15, _) => None,
        (_, Some(n)) if op == 0 && stream == 0 => Some(n.to_string()),
        _ => None,
    };
    match named {
        Some(n) => format!("sendmsg({n})"),
        None if simm16 & !0x37f == 0 => format!("sendmsg({id}, {op}, {stream})"),
        None => simm16.to_string(),
    }
}

/// `s_waitcnt` counters (GFX10: vmcnt bits 3:0 and 15:14, expcnt 6:4, lgkmcnt 13:8). Counters at
/// their maximum ("no wait") are left out, unless all are, then all are printed.
pub fn waitcnt(simm16: u32) -> String {
    let vm = (simm16 & 0xf) | (((simm16 >> 14) & 3) << 4);
    let exp = (simm16 >> 4) & 7;
    let lgkm = (simm16 >> 8) & 0x3f;
    let all = vm == 63 && exp == 7 && lgkm == 63;
    let mut parts = Vec::new();
    if vm != 63 || all {
        parts.push(format!("vmcnt({vm})"));
    }
    if exp != 7 || all {
        parts.push(format!("expcnt({exp})"));
    }
    if lgkm != 63 || all {
        parts.push(format!("lgkmcnt({lgkm})"));
    }
    parts.join(" ")
}

/// `s_waitcnt_depctr` fields: (name, low bit, width); each field's default is all ones.
pub(crate) const DEPCTR: [(&str, u32, u32); 7] = [
    ("depctr_hold_cnt", 7, 1),
    ("depctr_sa_sdst", 0, 1),
    ("depctr_va_vdst", 12, 4),
    ("depctr_va_sdst", 9, 3),
    ("depctr_va_ssrc", 8, 1),
    ("depctr_va_vcc", 1, 1),
    ("depctr_vm_vsrc", 2, 3),
];

/// `s_waitcnt_depctr` immediate: symbolic when no bit outside the fields is set (fields at their
/// default are left out unless all are), hexadecimal otherwise.
pub fn depctr(simm16: u32) -> String {
    let covered: u32 = DEPCTR
        .iter()
        .map(|&(_, lo, w)| ((1 << w) - 1) << lo)
        .fold(0, |a, b| a | b);
    if simm16 & !covered & 0xffff != 0 {
        return format!("0x{simm16:x}");
    }
    let all_default = simm16 & covered == covered;
    DEPCTR
        .iter()
        .filter_map(|&(name, lo, w)| {
            let max = (1 << w) - 1;
            let v = (simm16 >> lo) & max;
            (v != max || all_default).then(|| format!("{name}({v})"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `offset:` of `ds_swizzle_b32`: quad permutation (bit 15 set), or a bit-mask permutation
/// (and/or/xor masks of 5 bits) shown as its swap, reverse or broadcast special case when it is
/// one. Empty for 0.
pub fn swizzle(offset: u32) -> String {
    if offset == 0 {
        return String::new();
    }
    if offset & 0x8000 != 0 {
        if offset & 0x7f00 != 0 {
            return format!(" offset:{offset}");
        }
        let lanes: Vec<String> = (0..4)
            .map(|i| ((offset >> (2 * i)) & 3).to_string())
            .collect();
        return format!(" offset:swizzle(QUAD_PERM,{})", lanes.join(","));
    }
    let and = offset & 0x1f;
    let or = (offset >> 5) & 0x1f;
    let xor = (offset >> 10) & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        return format!(" offset:swizzle(SWAP,{xor})");
    }
    if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!(" offset:swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!(" offset:swizzle(BROADCAST,{group},{or})");
    }
    let p0 = or ^ xor;
    let p1 = (0x1f & and | or) ^ xor;
    let mask: String = (0..5)
        .rev()
        .map(|b| {
            let (a, c) = ((p0 >> b) & 1, (p1 >> b) & 1);
            match (a == c, a) {
                (true, 0) => '0',
                (true, _) => '1',
                (false, 0) => 'p',
                (false, _) => 'i',
            }
        })
        .collect();
    format!(" offset:swizzle(BITMASK_PERM,\"{mask}\")")
}

/// `s_version` immediate: bits 7:0 the code version (named where LLVM names it), bits 13, 14
/// and 15 the W64, W32 and MDP flags; hexadecimal when bits 12:8 are set.
pub fn version(simm16: u32) -> String {
    if simm16 & 0x1f00 != 0 {
        return format!("0x{simm16:x}");
    }
    let v = simm16 & 0xff;
    let mut out = match v {
        0 => "UC_VERSION_GFX7".to_string(),
        4 => "UC_VERSION_GFX10".to_string(),
        6 => "UC_VERSION_GFX11".to_string(),
        9 => "UC_VERSION_GFX12".to_string(),
        _ => v.to_string(),
    };
    for (bit, name) in [
        (13, "UC_VERSION_W64_BIT"),
        (14, "UC_VERSION_W32_BIT"),
        (15, "UC_VERSION_MDP_BIT"),
    ] {
        if simm16 & (1 << bit) != 0 {
            if out.contains('|') {
                out = format!("({out})");
            }
            out = format!("{out}|{name}");
        }
    }
    out
}

/// GFX10 unified buffer format names (MTBUF `format`), in encoding order from 1: each group of
/// component sizes with its numeric types.
pub(crate) const UFMT_GROUPS: [(&str, &[&str]); 14] = [
    ("8", &SIX),
    ("16", &SEVEN),
    ("8_8", &SIX),
    ("32", &THREE),
    ("16_16", &SEVEN),
    ("10_11_11", &SEVEN),
    ("11_11_10", &SEVEN),
    ("10_10_10_2", &SIX),
    ("2_10_10_10", &SIX),
    ("8_8_8_8", &SIX),
    ("32_32", &THREE),
    ("16_16_16_16", &SEVEN),
    ("32_32_32", &THREE),
    ("32_32_32_32", &THREE),
];
const SIX: [&str; 6] = ["UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT"];
const SEVEN: [&str; 7] = [
    "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "FLOAT",
];
const THREE: [&str; 3] = ["UINT", "SINT", "FLOAT"];

/// The ` format:...` text of an MTBUF format field; empty for the default format 1
/// (BUF_FMT_8_UNORM).
pub fn buffer_format(format: u32) -> String {
    if format == 1 {
        return String::new();
    }
    if format == 0 {
        return " format:[BUF_FMT_INVALID]".into();
    }
    let mut n = format - 1;
    for (size, types) in UFMT_GROUPS {
        if (n as usize) < types.len() {
            return format!(" format:[BUF_FMT_{size}_{}]", types[n as usize]);
        }
        n -= types.len() as u32;
    }
    format!(" format:{format}")
}

/// The format number of a `BUF_FMT_...` name (the inverse of [`buffer_format`]'s names).
pub(crate) fn buffer_format_code(name: &str) -> Option<u32> {
    if name == "BUF_FMT_INVALID" {
        return Some(0);
    }
    let rest = name.strip_prefix("BUF_FMT_")?;
    let mut code = 1;
    for (size, types) in UFMT_GROUPS {
        for t in types {
            if rest.strip_prefix(size).and_then(|r| r.strip_prefix('_')) == Some(*t) {
                return Some(code);
            }
            code += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbolic_forms() {
        assert_eq!(
            hwreg(1 | (1 << 6) | (17 << 11)),
            "hwreg(HW_REG_MODE, 1, 18)"
        );
        assert_eq!(hwreg(52 | (31 << 11)), "hwreg(52)");
        assert_eq!(sendmsg(0x22), "sendmsg(MSG_GS, GS_OP_EMIT, 0)");
        assert_eq!(sendmsg(0x103), "sendmsg(3, 0, 1)");
        assert_eq!(sendmsg(0xffff), "65535");
        assert_eq!(sendmsg(0x3), "sendmsg(MSG_GS_DONE, GS_OP_NOP)");
        assert_eq!(waitcnt(0xfc7f), "lgkmcnt(60)");
        assert_eq!(waitcnt(0xffff), "vmcnt(63) expcnt(7) lgkmcnt(63)");
        assert_eq!(depctr(0xfffe), "0xfffe");
        assert_eq!(depctr(0xef9f), "depctr_va_vdst(14)");
        assert_eq!(buffer_format(22), " format:[BUF_FMT_32_FLOAT]");
        assert_eq!(buffer_format(77), " format:[BUF_FMT_32_32_32_32_FLOAT]");
        assert_eq!(buffer_format(78), " format:78");
    }
}
