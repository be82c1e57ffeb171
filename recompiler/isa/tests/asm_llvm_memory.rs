//! The assembler against llvm-mc-19 on a seeded corpus of the memory, export, interpolation and
//! symbolic-operand forms: for every DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, SMEM, EXP, VINTRP
//! MIMG and SOPP row (and the VOP3 interpolation and SOPK hwreg rows), lines whose operands are drawn
//! per the row's operand widths (from its probe text) with the modifiers its form takes, and
//! deliberately invalid variants (a missing or extra operand, a scalar register for a VGPR, a
//! wrong register width, an offset out of range, a modifier the form does not take). Per family,
//! at least 99.5% of the lines llvm-mc accepts must assemble to the same words, and at least 99%
//! of the lines it rejects must be rejected; differences with a reason are listed in
//! tests/known-asm-differences.toml.
//!
//! `ASM_MEM_SEED` draws another corpus, `ASM_MEM_LINES` (per row, default 6) a larger one.

#![allow(clippy::print_stdout)]

mod asm_llvm;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rdnaprobe_isa::{assemble_for, table, Family, OpInfo, Source, Wave};

type R = ChaCha8Rng;

fn reg(prefix: &str, index: u32, dwords: u32) -> String {
    if dwords <= 1 {
        format!("{prefix}{index}")
    } else {
        format!("{prefix}[{index}:{}]", index + dwords - 1)
    }
}

fn vgpr(r: &mut R, dwords: u32) -> String {
    reg("v", r.gen_range(0..=256 - dwords.max(1)), dwords)
}

/// An aligned scalar tuple (pairs even, wider four-aligned); single registers sometimes a named
/// one.
fn sgpr(r: &mut R, dwords: u32) -> String {
    let align = match dwords {
        0 | 1 => 1,
        2 => 2,
        _ => 4,
    };
    if dwords <= 1 && r.gen_bool(0.15) {
        return ["vcc_lo", "vcc_hi", "m0", "exec_lo", "ttmp3"]
            .choose(r)
            .expect("names")
            .to_string();
    }
    if dwords == 2 && r.gen_bool(0.1) {
        return ["vcc", "exec", "ttmp[4:5]"]
            .choose(r)
            .expect("names")
            .to_string();
    }
    if dwords == 4 && r.gen_bool(0.1) {
        return "ttmp[8:11]".to_string();
    }
    let slots = (106 - dwords.max(1)) / align;
    reg("s", r.gen_range(0..=slots) * align, dwords)
}

/// Register tokens of a probe text with their widths: (is_vgpr, dwords).
fn width_of(t: &str) -> Option<(bool, u32)> {
    let (v, rest) = if let Some(r) = t.strip_prefix('v') {
        (true, r)
    } else if let Some(r) = t.strip_prefix('s') {
        (false, r)
    } else {
        return None;
    };
    if let Some(inner) = rest.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        let (a, b) = inner.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        return Some((v, b - a + 1));
    }
    rest.parse::<u32>().ok().map(|_| (v, 1))
}

/// The operands of a probe text (after the mnemonic, before the modifiers).
fn probe_ops(info: &OpInfo) -> Vec<String> {
    let text = info.probe_text;
    let rest = text.split_once(' ').map_or("", |x| x.1);
    let mut ops = Vec::new();
    for part in rest.split(", ") {
        let tok = part.split(' ').next().unwrap_or("").to_string();
        let modifier = tok.contains(':') && !tok.contains('[');
        if !tok.is_empty() && !modifier && tok != "gds" {
            ops.push(tok);
        }
        if part.contains(' ') {
            break;
        }
    }
    ops
}

fn join(mn: &str, ops: &[String], mods: &[String]) -> String {
    let mut l = mn.to_string();
    if !ops.is_empty() {
        l.push(' ');
        l.push_str(&ops.join(", "));
    }
    for m in mods {
        l.push(' ');
        l.push_str(m);
    }
    l
}

/// A drawn statement: mnemonic, operands, modifiers (kept apart for the invalid variants).
struct Line {
    mn: String,
    ops: Vec<String>,
    mods: Vec<String>,
}

fn ds(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let mut ops: Vec<String> = probe_ops(info)
        .iter()
        .map(|t| match width_of(t) {
            Some((_, w)) => vgpr(r, w),
            None => t.clone(),
        })
        .collect();
    if ops.is_empty() {
        ops = Vec::new();
    }
    let two = ["read2", "write2", "wrxchg2"].iter().any(|k| m.contains(k));
    let mut mods = Vec::new();
    if two {
        if r.gen_bool(0.6) {
            mods.push(format!("offset0:{}", r.gen_range(0..256)));
        }
        if r.gen_bool(0.6) {
            mods.push(format!("offset1:{}", r.gen_range(0..256)));
        }
    } else if m == "ds_swizzle_b32" {
        mods.push(
            [
                "offset:swizzle(QUAD_PERM,0,1,2,3)",
                "offset:swizzle(SWAP,16)",
                "offset:swizzle(REVERSE,8)",
                "offset:swizzle(BROADCAST,4,1)",
                "offset:swizzle(BITMASK_PERM,\"01pip\")",
                "offset:0xffff",
                "offset:1234",
            ]
            .choose(r)
            .expect("swizzle")
            .to_string(),
        );
    } else if r.gen_bool(0.6) {
        mods.push(format!("offset:{}", r.gen_range(0..65536)));
    }
    if info.probe_text.ends_with(" gds") || r.gen_bool(0.15) {
        mods.push("gds".into());
    }
    Line {
        mn: m.into(),
        ops,
        mods,
    }
}

fn buffer(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let probe = probe_ops(info);
    let mut mods = Vec::new();
    if probe.is_empty() {
        return Line {
            mn: m.into(),
            ops: vec![],
            mods,
        };
    }
    let data_w = width_of(&probe[0]).map_or(1, |w| w.1);
    let store = m.contains("store");
    let atomic = m.contains("atomic");
    let lds_load = !m.starts_with("tbuffer")
        && [
            "buffer_load_ubyte",
            "buffer_load_sbyte",
            "buffer_load_ushort",
            "buffer_load_sshort",
            "buffer_load_dword",
            "buffer_load_format_x",
        ]
        .contains(&m);
    let lds = lds_load && r.gen_bool(0.25);
    let tfe = !store && !atomic && !lds && r.gen_bool(0.2);
    let mut ops = Vec::new();
    if !lds {
        ops.push(vgpr(r, data_w + u32::from(tfe)));
    }
    let (idxen, offen) = match r.gen_range(0..4) {
        0 => (false, false),
        1 => (true, false),
        2 => (false, true),
        _ => (true, true),
    };
    ops.push(match (idxen, offen) {
        (false, false) => "off".into(),
        (true, true) => vgpr(r, 2),
        _ => vgpr(r, 1),
    });
    ops.push(sgpr(r, 4));
    ops.push(match r.gen_range(0..6) {
        0..=2 => sgpr(r, 1),
        3 => "null".into(),
        _ => format!("{}", r.gen_range(0..=64)),
    });
    if m.starts_with("tbuffer") && r.gen_bool(0.8) {
        mods.push(if r.gen_bool(0.5) {
            format!("format:{}", r.gen_range(0..128))
        } else {
            format!(
                "format:[{}]",
                [
                    "BUF_FMT_32_FLOAT",
                    "BUF_FMT_8_UNORM",
                    "BUF_FMT_16_16_SINT",
                    "BUF_FMT_32_32_32_32_UINT",
                    "BUF_FMT_10_11_11_FLOAT",
                    "BUF_FMT_INVALID",
                ]
                .choose(r)
                .expect("format")
            )
        });
    }
    if idxen {
        mods.push("idxen".into());
    }
    if offen {
        mods.push("offen".into());
    }
    if r.gen_bool(0.6) {
        mods.push(format!("offset:{}", r.gen_range(0..4096)));
    }
    for f in ["glc", "slc", "dlc"] {
        if r.gen_bool(0.3) && !(atomic && f == "dlc") {
            mods.push(f.into());
        }
    }
    if lds {
        mods.push("lds".into());
    }
    if tfe {
        mods.push("tfe".into());
    }
    Line {
        mn: m.into(),
        ops,
        mods,
    }
}

fn flat(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let fam = info.family;
    let probe = probe_ops(info);
    let load = m.contains("_load_");
    let atomic = m.contains("_atomic_");
    let addtid = m.contains("addtid");
    let widths: Vec<u32> = probe
        .iter()
        .filter_map(|t| width_of(t).map(|w| w.1))
        .collect();
    let mut mods = Vec::new();
    let mut ops = Vec::new();
    let lds_load = fam != Family::FLAT
        && ["ubyte", "sbyte", "ushort", "sshort", "dword"]
            .iter()
            .any(|t| m.split_once("_load_").is_some_and(|(_, k)| k == *t));
    let lds = lds_load && r.gen_bool(0.2);
    let glc = r.gen_bool(if atomic { 0.5 } else { 0.3 });
    let data_w = if addtid {
        widths.first().copied().unwrap_or(1)
    } else {
        widths.get(1).copied().unwrap_or(1)
    };
    if load && !lds {
        ops.push(vgpr(r, widths.first().copied().unwrap_or(1)));
    } else if atomic && glc {
        let ret = if m.contains("cmpswap") {
            data_w / 2
        } else {
            data_w
        };
        ops.push(vgpr(r, ret));
    } else if addtid {
        ops.push(vgpr(r, data_w));
    }
    let wide_saddr_off = r.gen_bool(0.5);
    let (vaddr, saddr) = match fam {
        Family::FLAT => (Some(vgpr(r, 2)), None),
        Family::GLOBAL if wide_saddr_off => (Some(vgpr(r, 2)), Some("off".to_string())),
        Family::GLOBAL => (Some(vgpr(r, 1)), Some(sgpr(r, 2))),
        _ => match r.gen_range(0..3) {
            0 => (Some(vgpr(r, 1)), Some("off".to_string())),
            1 => (Some("off".to_string()), Some(sgpr(r, 1))),
            _ => (Some("off".to_string()), Some("off".to_string())),
        },
    };
    if !addtid {
        ops.extend(vaddr);
        if !load {
            ops.push(vgpr(r, data_w));
        }
    }
    ops.extend(saddr.filter(|_| !(addtid && fam == Family::FLAT)));
    if r.gen_bool(0.6) {
        mods.push(format!(
            "offset:{}",
            if fam == Family::FLAT {
                r.gen_range(0..2048)
            } else {
                r.gen_range(-2048..2048)
            }
        ));
    }
    if glc {
        mods.push("glc".into());
    }
    for f in ["slc", "dlc"] {
        if r.gen_bool(0.3) {
            mods.push(f.into());
        }
    }
    if lds {
        mods.push("lds".into());
    }
    Line {
        mn: m.into(),
        ops,
        mods,
    }
}

fn smem(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let probe = probe_ops(info);
    let mut mods = Vec::new();
    let mut ops = Vec::new();
    if probe.len() < 3 {
        for t in &probe {
            ops.push(sgpr(r, width_of(t).map_or(2, |w| w.1)));
        }
        return Line {
            mn: m.into(),
            ops,
            mods,
        };
    }
    let buffer = m.starts_with("s_buffer") || m == "s_atc_probe_buffer";
    if m.starts_with("s_atc_probe") {
        ops.push(format!("{}", r.gen_range(0..128)));
    } else {
        let w = width_of(&probe[0]).map_or(1, |w| w.1);
        ops.push(if w <= 2 && r.gen_bool(0.05) {
            "null".into()
        } else {
            sgpr(r, w)
        });
    }
    ops.push(sgpr(r, if buffer { 4 } else { 2 }));
    let max = 0xf_ffff;
    let lo = if buffer { 0 } else { -0x10_0000 };
    match r.gen_range(0..3) {
        0 => ops.push(format!("{:#x}", r.gen_range(0..=max))),
        1 => ops.push(sgpr(r, 1)),
        _ => {
            ops.push(sgpr(r, 1));
            let v: i64 = r.gen_range(lo..=max);
            mods.push(if v < 0 {
                format!("offset:-{:#x}", -v)
            } else {
                format!("offset:{v:#x}")
            });
        }
    }
    if m.contains("load") {
        for f in ["glc", "dlc"] {
            if r.gen_bool(0.3) {
                mods.push(f.into());
            }
        }
    }
    Line {
        mn: m.into(),
        ops,
        mods,
    }
}

fn exp(r: &mut R) -> Line {
    let target = match r.gen_range(0..6) {
        0 => format!("mrt{}", r.gen_range(0..8)),
        1 => "mrtz".into(),
        2 => "null".into(),
        3 => format!("pos{}", r.gen_range(0..5)),
        4 => "prim".into(),
        _ => format!("param{}", r.gen_range(0..32)),
    };
    let compr = r.gen_bool(0.3);
    let mut ops = Vec::new();
    if compr {
        for _ in 0..2 {
            let v = vgpr(r, 1);
            match r.gen_range(0..10) {
                0..=6 => {
                    ops.push(v.clone());
                    ops.push(v);
                }
                7 | 8 => {
                    ops.push("off".into());
                    ops.push("off".into());
                }
                // One half of a pair enabled (an enable mask llvm-mc-19 sets in pairs).
                _ => {
                    ops.push(v);
                    ops.push("off".into());
                }
            }
        }
    } else {
        for _ in 0..4 {
            ops.push(if r.gen_bool(0.2) {
                "off".into()
            } else {
                vgpr(r, 1)
            });
        }
    }
    let mut mods = Vec::new();
    for f in ["done", "compr", "vm"] {
        if (f == "compr" && compr) || (f != "compr" && r.gen_bool(0.4)) {
            mods.push(f.into());
        }
    }
    Line {
        mn: format!("exp {target}"),
        ops,
        mods,
    }
}

fn attr(r: &mut R) -> String {
    format!(
        "attr{}.{}",
        r.gen_range(0..33),
        ["x", "y", "z", "w"].choose(r).expect("chan")
    )
}

fn interp(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let mut mods = Vec::new();
    let mut ops = vec![vgpr(r, 1)];
    if m == "v_interp_mov_f32" {
        ops.push(["p10", "p20", "p0"].choose(r).expect("slot").to_string());
    } else {
        let v = vgpr(r, 1);
        ops.push(if info.family == Family::VOP3 && r.gen_bool(0.3) {
            format!("-{v}")
        } else {
            v
        });
    }
    ops.push(attr(r));
    if matches!(m, "v_interp_p1lv_f16" | "v_interp_p2_f16") {
        ops.push(vgpr(r, 1));
    }
    let mn = if info.family == Family::VOP3 {
        if m.ends_with("_f16") {
            for f in ["high", "clamp"] {
                if r.gen_bool(0.3) {
                    mods.push(f.to_string());
                }
            }
            if r.gen_bool(0.2) {
                mods.push("mul:2".into());
            }
            m.to_string()
        } else {
            if r.gen_bool(0.2) {
                mods.push("clamp".into());
            }
            format!("{m}_e64")
        }
    } else if r.gen_bool(0.5) {
        format!("{m}_e32")
    } else {
        m.to_string()
    };
    Line { mn, ops, mods }
}

fn waitcnt(r: &mut R) -> String {
    let mut items = Vec::new();
    if r.gen_bool(0.7) {
        items.push(format!("vmcnt({})", r.gen_range(0..64)));
    }
    if r.gen_bool(0.5) {
        items.push(format!("expcnt({})", r.gen_range(0..8)));
    }
    if r.gen_bool(0.7) || items.is_empty() {
        items.push(format!("lgkmcnt({})", r.gen_range(0..64)));
    }
    let sep = [" ", " & ", ", "].choose(r).expect("sep");
    if r.gen_bool(0.1) {
        return format!("{}", r.gen_range(0..65536));
    }
    items.join(sep)
}

fn sendmsg(r: &mut R) -> String {
    match r.gen_range(0..8) {
        0 => "sendmsg(MSG_INTERRUPT)".into(),
        1 => format!(
            "sendmsg(MSG_GS, {}, {})",
            ["GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"]
                .choose(r)
                .expect("op"),
            r.gen_range(0..4)
        ),
        2 => "sendmsg(MSG_GS_DONE, GS_OP_NOP)".into(),
        3 => format!(
            "sendmsg(MSG_SYSMSG, {})",
            [
                "SYSMSG_OP_ECC_ERR_INTERRUPT",
                "SYSMSG_OP_REG_RD",
                "SYSMSG_OP_HOST_TRAP_ACK",
                "SYSMSG_OP_TTRACE_PC"
            ]
            .choose(r)
            .expect("op")
        ),
        4 => format!(
            "sendmsg({}, {}, {})",
            r.gen_range(0..16),
            r.gen_range(0..8),
            r.gen_range(0..4)
        ),
        5 => "sendmsg(MSG_GET_DOORBELL)".into(),
        6 => "sendmsg(MSG_GS_ALLOC_REQ)".into(),
        _ => format!("{}", r.gen_range(0..1024)),
    }
}

fn depctr(r: &mut R) -> String {
    let names = [
        ("depctr_hold_cnt", 1),
        ("depctr_sa_sdst", 1),
        ("depctr_va_vdst", 15),
        ("depctr_va_sdst", 7),
        ("depctr_va_ssrc", 1),
        ("depctr_va_vcc", 1),
        ("depctr_vm_vsrc", 7),
    ];
    let mut items = Vec::new();
    for (n, max) in names {
        if r.gen_bool(0.3) {
            items.push(format!("{n}({})", r.gen_range(0..=max)));
        }
    }
    if items.is_empty() {
        return format!("{:#x}", r.gen_range(0..65536));
    }
    items.join([" ", " & ", ", "].choose(r).expect("sep"))
}

fn hwreg(r: &mut R) -> String {
    let id = if r.gen_bool(0.7) {
        [
            "HW_REG_MODE",
            "HW_REG_STATUS",
            "HW_REG_TRAPSTS",
            "HW_REG_HW_ID1",
            "HW_REG_GPR_ALLOC",
            "HW_REG_LDS_ALLOC",
            "HW_REG_IB_STS",
            "HW_REG_SH_MEM_BASES",
            "HW_REG_FLAT_SCR_LO",
            "HW_REG_SHADER_CYCLES",
        ]
        .choose(r)
        .expect("hwreg")
        .to_string()
    } else {
        format!("{}", r.gen_range(0..64))
    };
    if r.gen_bool(0.5) {
        format!("hwreg({id})")
    } else {
        let off = r.gen_range(0..32);
        format!("hwreg({id}, {off}, {})", r.gen_range(1..=32 - off))
    }
}

fn sopp(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let ops = match m {
        "s_waitcnt" => vec![waitcnt(r)],
        "s_sendmsg" | "s_sendmsghalt" => vec![sendmsg(r)],
        "s_waitcnt_depctr" => vec![depctr(r)],
        "s_endpgm" if r.gen_bool(0.3) => vec![format!("{}", r.gen_range(0..65536))],
        _ if probe_ops(info).is_empty() => vec![],
        _ => vec![format!("{}", r.gen_range(0..65536))],
    };
    Line {
        mn: m.into(),
        ops,
        mods: vec![],
    }
}

fn hwreg_line(r: &mut R, info: &OpInfo) -> Line {
    let ops = match info.mnemonic {
        "s_getreg_b32" => vec![sgpr(r, 1), hwreg(r)],
        "s_setreg_b32" => vec![hwreg(r), sgpr(r, 1)],
        _ => vec![hwreg(r), format!("{:#x}", r.gen_range(0..u32::MAX))],
    };
    Line {
        mn: info.mnemonic.into(),
        ops,
        mods: vec![],
    }
}

/// Address dwords of an image opcode (the test's own model of LLVM's rule): extra arguments
/// (offset, bias, z-compare), gradients (16-bit, two to a dword, for the g16 opcodes), the
/// coordinates of the dimension and lod/clamp/mip, the coordinates packed two to a dword with
/// a16.
fn image_addresses(m: &str, dim: usize, a16: bool) -> u32 {
    let coords = [1, 2, 3, 3, 2, 3, 3, 4][dim];
    let grads: u32 = [2, 4, 6, 4, 2, 4, 4, 4][dim];
    let parts: Vec<&str> = m.split('_').collect();
    let has = |p: &str| parts.contains(&p);
    let sample = has("sample") || m.starts_with("image_gather4");
    let extra = [sample && has("o"), sample && has("b"), sample && has("c")]
        .iter()
        .filter(|x| **x)
        .count() as u32;
    let resinfo = m == "image_get_resinfo";
    let lod = resinfo || has("mip") || (sample && (has("l") || has("cl")));
    let comps = if resinfo { 0 } else { coords } + u32::from(lod);
    let mut n = extra + if a16 { comps.div_ceil(2) } else { comps };
    if sample && (has("d") || has("cd")) {
        n += if has("g16") {
            (grads / 2).next_multiple_of(2)
        } else {
            grads
        };
    }
    n
}

fn mimg(r: &mut R, info: &OpInfo) -> Line {
    let m = info.mnemonic;
    let mut mods = Vec::new();
    if m.starts_with("image_bvh") {
        let a16 = r.gen_bool(0.4);
        let n = match (m.contains("bvh64"), a16) {
            (false, false) => 11,
            (false, true) => 8,
            (true, false) => 12,
            (true, true) => 9,
        };
        if a16 {
            mods.push("a16".into());
        }
        return Line {
            mn: m.into(),
            ops: vec![vgpr(r, 4), vgpr(r, n), sgpr(r, 4)],
            mods,
        };
    }
    let gather = m.starts_with("image_gather4");
    let sampler = m.contains("sample") || gather || m == "image_get_lod";
    let atomic = m.contains("_atomic_");
    let dim = r.gen_range(0..8);
    let a16 = r.gen_bool(0.2);
    let d16 = !atomic && r.gen_bool(0.2);
    let tfe = r.gen_bool(0.15);
    let dmask: u32 = if gather {
        1 << r.gen_range(0..4)
    } else if m.contains("cmpswap") {
        if m.contains("x2") {
            0xf
        } else {
            0x3
        }
    } else if atomic {
        if r.gen_bool(0.7) {
            1
        } else {
            3
        }
    } else {
        r.gen_range(1..16)
    };
    let mut data = if gather { 4 } else { dmask.count_ones() };
    if d16 {
        data = data.div_ceil(2);
    }
    data += u32::from(tfe);
    let n = image_addresses(m, dim, a16);
    let vaddr = if n >= 2 && r.gen_bool(0.4) {
        let regs: Vec<String> = (0..n).map(|_| vgpr(r, 1)).collect();
        format!("[{}]", regs.join(", "))
    } else {
        vgpr(r, if n > 12 { 16 } else { n })
    };
    let mut ops = vec![vgpr(r, data), vaddr, sgpr(r, 8)];
    if sampler {
        ops.push(sgpr(r, 4));
    }
    if dmask != 1 || r.gen_bool(0.5) {
        mods.push(format!("dmask:{dmask:#x}"));
    }
    const DIMS: [&str; 8] = [
        "1D",
        "2D",
        "3D",
        "CUBE",
        "1D_ARRAY",
        "2D_ARRAY",
        "2D_MSAA",
        "2D_MSAA_ARRAY",
    ];
    mods.push(if r.gen_bool(0.8) {
        format!("dim:SQ_RSRC_IMG_{}", DIMS[dim])
    } else {
        format!("dim:{}", DIMS[dim])
    });
    for (name, p) in [
        ("unorm", 0.2),
        ("glc", 0.3),
        ("slc", 0.2),
        ("dlc", 0.2),
        ("r128", 0.1),
    ] {
        if r.gen_bool(p) {
            mods.push(name.into());
        }
    }
    if a16 {
        mods.push("a16".into());
    }
    if tfe {
        mods.push("tfe".into());
    }
    if r.gen_bool(0.1) {
        mods.push("lwe".into());
    }
    if d16 {
        mods.push("d16".into());
    }
    Line {
        mn: m.into(),
        ops,
        mods,
    }
}

fn draw(r: &mut R, info: &OpInfo) -> Line {
    match info.family {
        Family::DS => ds(r, info),
        Family::MUBUF | Family::MTBUF => buffer(r, info),
        Family::FLAT | Family::GLOBAL | Family::SCRATCH => flat(r, info),
        Family::SMEM => smem(r, info),
        Family::EXP => exp(r),
        Family::VINTRP | Family::VOP3 => interp(r, info),
        Family::SOPK => hwreg_line(r, info),
        Family::MIMG => mimg(r, info),
        _ => sopp(r, info),
    }
}

/// Deliberately invalid variants of a drawn line.
fn invalid(r: &mut R, l: &Line, fam: Family) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if !l.ops.is_empty() {
        out.push(("missing", join(&l.mn, &l.ops[..l.ops.len() - 1], &l.mods)));
        // A scalar register where a VGPR is, or a VGPR where a scalar register is.
        if let Some(i) = l.ops.iter().position(|t| width_of(t).is_some()) {
            let mut o = l.ops.clone();
            let (v, w) = width_of(&o[i]).expect("register");
            o[i] = if v { sgpr(r, w) } else { vgpr(r, w) };
            out.push(("wrong-kind", join(&l.mn, &o, &l.mods)));
            let mut o = l.ops.clone();
            let w2 = if w == 1 { 2 } else { w - 1 };
            o[i] = if v { vgpr(r, w2) } else { sgpr(r, w2) };
            out.push(("wrong-width", join(&l.mn, &o, &l.mods)));
        }
    }
    let mut o = l.ops.clone();
    o.push(vgpr(r, 1));
    out.push(("extra", join(&l.mn, &o, &l.mods)));
    if l.mods.len() >= 2 {
        let mut m = l.mods.clone();
        m.reverse();
        out.push(("reordered", join(&l.mn, &l.ops, &m)));
    }
    let bad: &[&str] = match fam {
        Family::DS => &["offset:65536", "offset0:256", "glc", "offset:-1"],
        Family::MUBUF | Family::MTBUF => &["offset:4096", "gds", "clamp", "format:128"],
        Family::FLAT => &["offset:2048", "offset:-1", "gds", "tfe"],
        Family::GLOBAL | Family::SCRATCH => &["offset:2048", "offset:-2049", "tfe", "idxen"],
        Family::SMEM => &["slc", "offset:0x200000", "gds"],
        Family::MIMG => &[
            "offset:4",
            "dmask:0x10",
            "dim:SQ_RSRC_IMG_4D",
            "gds",
            "idxen",
        ],
        Family::EXP => &["glc", "done done", "row_mask:0xf"],
        Family::SOPP => &["glc"],
        _ => &["glc", "offset:4", "op_sel:[1,1,1,1]"],
    };
    let mut m = l.mods.clone();
    m.push(bad.choose(r).expect("bad").to_string());
    out.push(("modifier", join(&l.mn, &l.ops, &m)));
    out
}

#[derive(Default)]
struct Tally {
    lines: usize,
    accepted: usize,
    same_words: usize,
    rejected: usize,
    rejected_too: usize,
    known: usize,
}

fn in_corpus(info: &OpInfo) -> bool {
    let m = info.mnemonic;
    info.source == Source::Llvm
        && match info.family {
            Family::DS
            | Family::MUBUF
            | Family::MTBUF
            | Family::FLAT
            | Family::GLOBAL
            | Family::SCRATCH
            | Family::SMEM
            | Family::EXP
            | Family::VINTRP
            | Family::MIMG
            | Family::SOPP => true,
            Family::VOP3 => m.starts_with("v_interp_"),
            Family::SOPK => m.starts_with("s_getreg") || m.starts_with("s_setreg"),
            _ => false,
        }
}

#[test]
fn memory_corpus_agrees_with_llvm_mc() {
    if !asm_llvm::or_skip() {
        return;
    }
    let known = asm_llvm::Known::load();
    let seed: u64 = std::env::var("ASM_MEM_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x0019_3e30);
    let per_row: usize = std::env::var("ASM_MEM_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    println!("seed {seed}, {per_row} drawn line(s) per row");
    let mut r = R::seed_from_u64(seed);
    let mut corpus: Vec<(Family, &'static str, String)> = Vec::new();
    let rows: Vec<&OpInfo> = table()
        .rows
        .iter()
        .copied()
        .filter(|i| in_corpus(i))
        .collect();
    for info in &rows {
        // Families of few rows (EXP, VINTRP, the VOP3 interpolation forms) get more lines each.
        let family_rows = rows.iter().filter(|i| i.family == info.family).count();
        for k in 0..per_row.max(300 / family_rows) {
            let l = draw(&mut r, info);
            corpus.push((info.family, "drawn", join(&l.mn, &l.ops, &l.mods)));
            if k % per_row == 0 {
                for (v, t) in invalid(&mut r, &l, info.family) {
                    corpus.push((info.family, v, t));
                }
            }
        }
    }
    let lines: Vec<String> = corpus.iter().map(|c| c.2.clone()).collect();
    let mut reference = Vec::new();
    for chunk in lines.chunks(4000) {
        reference.extend(asm_llvm::assemble(chunk, false));
    }
    let mut tally: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut unexplained: Vec<(Family, String)> = Vec::new();
    let mut used = vec![0usize; known.known.len()];
    for ((fam, variant, line), llvm) in corpus.iter().zip(&reference) {
        let ours = assemble_for(line, Wave::W32);
        let t = tally.entry(fam.name()).or_default();
        t.lines += 1;
        let class = match (llvm, &ours) {
            (Ok(a), Ok(b)) if a == b => None,
            (Ok(_), Ok(_)) => Some("encoding"),
            (Ok(_), Err(_)) => Some("ours-rejects"),
            (Err(_), Ok(_)) => Some("ours-accepts"),
            (Err(_), Err(_)) => None,
        };
        if let Some(c) = class {
            if let Some(k) = known.find(c, line) {
                if std::env::var("SHOW_KNOWN").is_ok() {
                    println!(
                        "  known {}: `{line}`: llvm {llvm:08x?}, ours {:08x?}",
                        known.known[k].id,
                        ours.as_ref().map_err(|e| e.message.clone())
                    );
                }
                used[k] += 1;
                t.known += 1;
                continue;
            }
            unexplained.push((
                *fam,
                format!(
                    "{fam} {variant} {c}: `{line}`: llvm {llvm:08x?}, ours {:08x?}",
                    ours.as_ref().map_err(|e| e.message.clone())
                ),
            ));
        }
        match llvm {
            Ok(_) => {
                t.accepted += 1;
                t.same_words += usize::from(class.is_none());
            }
            Err(_) => {
                t.rejected += 1;
                t.rejected_too += usize::from(class.is_none());
            }
        }
    }
    let pct = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    println!("family  lines  llvm-accepts  same-words  llvm-rejects  rejected-too  known");
    let mut failing = Vec::new();
    for (fam, t) in &tally {
        let acc = pct(t.same_words, t.accepted);
        let rej = pct(t.rejected_too, t.rejected);
        println!(
            "{fam:7} {:6} {:13} {:10.2}% {:13} {:12.2}% {:6}",
            t.lines, t.accepted, acc, t.rejected, rej, t.known
        );
        if acc < 99.5 || rej < 99.0 {
            failing.push(*fam);
        }
    }
    for (k, n) in known.known.iter().zip(&used) {
        if *n > 0 {
            println!("known {}: {n} line(s)", k.id);
        }
    }
    let show: usize = std::env::var("SHOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let mut shown: BTreeMap<&str, usize> = BTreeMap::new();
    for (fam, u) in &unexplained {
        let n = shown.entry(fam.name()).or_default();
        *n += 1;
        if *n <= show {
            println!("  {u}");
        }
    }
    if std::env::var("SHOW_REJECTED").is_ok() {
        for ((fam, variant, line), llvm) in corpus.iter().zip(&reference) {
            if let (true, Err(e)) = (*variant == "drawn", llvm) {
                println!("  rejected {fam}: `{line}`: {e}");
            }
        }
    }
    println!("{} unexplained difference(s)", unexplained.len());
    assert!(
        failing.is_empty(),
        "families below 99.5% same words / 99% rejections agreed: {failing:?}"
    );
}
