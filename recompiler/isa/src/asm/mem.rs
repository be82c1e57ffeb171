//! Memory statements: the operand and modifier checks llvm-mc-19 makes for DS and
//! FLAT/GLOBAL/SCRATCH, and the helpers the buffer, scalar-memory and export packers share
//! (register operands of a given width, a modifier list of the names a form takes). Operand
//! widths come from the row's probe text, read as the printer reads it (`display_mem`).

use super::*;
use crate::probe::probe_widths;

/// A VGPR tuple of `count` dwords: its 8-bit field.
pub(super) fn vreg(tok: &(String, usize), count: u8) -> Res<u32> {
    let (t, c) = tok;
    let r = parse_reg(t)
        .filter(|r| r.kind == RegKind::Vgpr)
        .ok_or((*c, format!("`{t}` is not a VGPR operand")))?;
    if u32::from(r.index) + u32::from(r.count) > 256 {
        return Err((*c, "register index is out of range".into()));
    }
    if r.count != count {
        return Err((
            *c,
            format!("`{t}` is {} dword(s); the operand is {count}", r.count),
        ));
    }
    Ok(u32::from(r.index))
}

/// Which scalar registers a 7-bit field takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scalar {
    /// SGPRs, VCC, TTMP, M0, NULL, EXEC.
    Any,
    /// No M0 or EXEC (SMEM load destinations).
    NoM0Exec,
    /// SGPRs, VCC, TTMP, EXEC pairs (64-bit bases and FLAT saddr).
    NoM0Null,
    /// Any but NULL (the 32-bit SCRATCH saddr, where NULL's code means `off`).
    NoNull,
}

/// A scalar register tuple of `count` dwords (tuples aligned: pairs even, wider four-aligned):
/// its 7-bit field.
pub(super) fn sreg(tok: &(String, usize), count: u8, class: Scalar) -> Res<u32> {
    let (t, c) = tok;
    let r = parse_reg(t)
        .filter(|r| r.kind != RegKind::Vgpr)
        .ok_or((*c, format!("`{t}` is not a scalar register")))?;
    let limit = match r.kind {
        RegKind::Sgpr => 106,
        RegKind::Ttmp => 16,
        _ => 2,
    };
    if u32::from(r.index) + u32::from(r.count) > limit {
        return Err((*c, "register index is out of range".into()));
    }
    if r.count != count && r.kind != RegKind::Null {
        return Err((
            *c,
            format!("`{t}` is {} dword(s); the operand is {count}", r.count),
        ));
    }
    let align = match count {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    if matches!(r.kind, RegKind::Sgpr | RegKind::Ttmp) && r.index % align != 0 {
        return Err((*c, "invalid register alignment".into()));
    }
    let bad = match class {
        Scalar::Any => false,
        Scalar::NoM0Exec => matches!(r.kind, RegKind::M0 | RegKind::Exec),
        Scalar::NoM0Null => matches!(r.kind, RegKind::M0 | RegKind::Null),
        Scalar::NoNull => r.kind == RegKind::Null,
    };
    // `null` stands for one or two dwords only (llvm-mc-19 has no wider null tuple).
    let null_width = match class {
        Scalar::NoM0Exec => 2,
        _ => 1,
    };
    if bad || (r.kind == RegKind::Null && count > null_width) {
        return Err((*c, format!("`{t}` is not allowed here")));
    }
    Ok(u32::from(operand::encode_src(&Operand::Reg(r))))
}

/// The modifiers of one memory statement: bare names and `name:value` items, each at most once.
#[derive(Default)]
pub(super) struct MemMods {
    /// Bare names with their columns.
    pub(super) set: Vec<(&'static str, usize)>,
    /// `name:value` items by name, with the value text and its column.
    pub(super) keyed: Vec<(&'static str, String, usize)>,
}

impl MemMods {
    pub(super) fn has(&self, n: &str) -> bool {
        self.set.iter().any(|f| f.0 == n)
    }
    /// The column of a bare name (0 when it is not there).
    pub(super) fn col(&self, n: &str) -> usize {
        self.set.iter().find(|f| f.0 == n).map_or(0, |f| f.1)
    }
    pub(super) fn value(&self, n: &str) -> Option<(&str, usize)> {
        self.keyed
            .iter()
            .find(|k| k.0 == n)
            .map(|k| (k.1.as_str(), k.2))
    }
}

/// Read `mods` against the names a form takes (`flags` bare, `keys` with a value).
pub(super) fn mem_mods(
    mn: &str,
    mods: &[(String, usize)],
    flags: &[&'static str],
    keys: &[&'static str],
) -> Res<MemMods> {
    check_order(mods, mem_rank)?;
    let mut m = MemMods::default();
    for (t, c) in mods {
        if let Some(f) = flags.iter().find(|f| **f == t) {
            if m.has(f) {
                return Err((*c, format!("`{t}` is given twice")));
            }
            m.set.push((f, *c));
            continue;
        }
        let known = t
            .split_once(':')
            .and_then(|(k, v)| keys.iter().find(|x| **x == k).map(|k| (*k, v)));
        match known {
            Some((k, v)) => {
                if m.value(k).is_some() {
                    return Err((*c, format!("`{k}` is given twice")));
                }
                m.keyed.push((k, v.to_string(), c + k.len() + 1));
            }
            None => return Err((*c, format!("`{t}` is not an operand or modifier of {mn}"))),
        }
    }
    Ok(m)
}

/// The order llvm-mc-19 reads memory, image, export and interpolation modifiers in.
fn mem_rank(t: &str) -> usize {
    let k = t.split_once(':').map_or(t, |x| x.0);
    [
        &["format"][..],
        &["idxen"],
        &["offen"],
        &["offset", "offset0"],
        &["offset1"],
        &["dmask"],
        &["dim"],
        &["unorm"],
        &["glc", "slc", "dlc"],
        &["lds"],
        &["r128"],
        &["a16"],
        &["tfe"],
        &["lwe"],
        &["d16"],
        &["gds"],
        &["done"],
        &["compr"],
        &["vm"],
        &["high"],
        &["clamp"],
        &["mul", "div"],
    ]
    .iter()
    .position(|names| names.contains(&k))
    .unwrap_or(usize::MAX)
}

/// An integer modifier value in `lo..=hi`; `what` names the range in the error.
pub(super) fn ranged(v: Option<(&str, usize)>, lo: i64, hi: i64, what: &str) -> Res<i64> {
    match v {
        None => Ok(0),
        Some((t, c)) => parse_int(t)
            .filter(|x| (lo..=hi).contains(x))
            .ok_or((c, format!("expected {what}"))),
    }
}

pub(super) fn count(info: &OpInfo, ops: &[(String, usize)], want: usize) -> Res<()> {
    if ops.len() == want {
        return Ok(());
    }
    let c = ops.get(want).or(ops.last()).map_or(0, |o| o.1);
    let which = if ops.len() < want { "few" } else { "many" };
    Err((
        c,
        format!(
            "too {which} operands: {} takes {want}, got {}",
            info.mnemonic,
            ops.len()
        ),
    ))
}

/// DS: [vdst,] [addr,] [data0[, data1]] with `offset:` (16 bits) or `offset0:`/`offset1:`
/// (8 bits each, the two-address forms), and `gds` (required where the probe has it).
pub(super) fn ds(info: &'static OpInfo, ops: &[(String, usize)], mods: &Tokens) -> Res<Vec<u32>> {
    let m = info.mnemonic;
    let widths = probe_widths(info.probe_text);
    count(info, ops, widths.len())?;
    let mut f = Fields::default();
    let mut w = widths.iter().copied().zip(ops);
    if info.has(Flags::VDST) {
        if let Some((n, o)) = w.next() {
            f.set(Field::Vdst, vreg(o, n)?);
        }
    }
    let mut data = [Field::Data0, Field::Data1].into_iter();
    for (i, (n, o)) in w.enumerate() {
        // The gws forms' data0 sits in the address field, as the printer reads it.
        let field = if i == 0 && (!info.has(Flags::NO_ADDR) || info.has(Flags::GWS)) {
            Field::Addr
        } else {
            data.next().unwrap_or(Field::Data1)
        };
        f.set(field, vreg(o, n)?);
    }
    let two = info.has(Flags::TWO_OFFSETS);
    let keys: &[&'static str] = if two {
        &["offset0", "offset1"]
    } else if info.op() == Opcode::ds_nop {
        &[]
    } else {
        &["offset"]
    };
    let flags: &[&'static str] = if info.has(Flags::NO_GDS) {
        &[]
    } else {
        &["gds"]
    };
    let mm = mem_mods(m, mods, flags, keys)?;
    if two {
        f.set(
            Field::Offset0,
            ranged(mm.value("offset0"), 0, 255, "an 8-bit unsigned offset")? as u32,
        );
        f.set(
            Field::Offset1,
            ranged(mm.value("offset1"), 0, 255, "an 8-bit unsigned offset")? as u32,
        );
    } else {
        let off = match mm.value("offset") {
            Some((t, c)) if info.op() == Opcode::ds_swizzle_b32 => symbols::swizzle(t, c)?,
            v => ranged(v, 0, 65535, "a 16-bit unsigned offset")? as u32,
        };
        f.set(Field::Offset0, off & 0xff);
        f.set(Field::Offset1, off >> 8);
    }
    if info.has(Flags::GDS_ONLY) && !mm.has("gds") {
        return Err((0, format!("too few operands: {m} needs gds")));
    }
    f.set(Field::Gds, u32::from(mm.has("gds")));
    f.set(Field::Enc, 0x36);
    f.set(Field::Op, u32::from(info.opcode));
    finish(&[layout::DS], &f, 2, None, 0)
}

/// FLAT, GLOBAL and SCRATCH: loads `vdst, vaddr[, saddr]`, stores `vaddr, vdata[, saddr]`,
/// atomics `[vdst,] vaddr, vdata[, saddr]` (a returning atomic must use glc, another must not);
/// GLOBAL's addtid forms have no vaddr. FLAT offsets are 11-bit unsigned, the others 12-bit
/// signed (GFX10).
pub(super) fn flat(info: &'static OpInfo, ops: &[(String, usize)], mods: &Tokens) -> Res<Vec<u32>> {
    let m = info.mnemonic;
    let fam = info.family;
    let widths = probe_widths(info.probe_text);
    let load = info.has(Flags::LOAD);
    let atomic = info.has(Flags::ATOMIC);
    let addtid = info.has(Flags::ADDTID);
    // GLOBAL and SCRATCH loads of a byte, short or dword have an LDS form (`lds`, no vdst).
    let flags: &[&'static str] = if info.has(Flags::LDS_FORM) {
        &["glc", "slc", "dlc", "lds"]
    } else {
        &["glc", "slc", "dlc"]
    };
    let mm = mem_mods(m, mods, flags, &["offset"])?;
    let glc = mm.has("glc");
    let lds = mm.has("lds");
    let data_w = if addtid {
        widths.first().copied().unwrap_or(1)
    } else {
        widths.get(1).copied().unwrap_or(1)
    };
    let returns = atomic && glc;
    let want = usize::from(fam != Family::FLAT)
        + match () {
            _ if addtid => 1,
            _ if lds => 1,
            _ => 2 + usize::from(returns),
        };
    if atomic && ops.len() != want {
        let other = if glc { want - 1 } else { want + 1 };
        if ops.len() == other {
            let msg = if glc {
                "instruction must not use glc"
            } else {
                "instruction must use glc"
            };
            return Err((mm.col("glc"), msg.into()));
        }
    }
    count(info, ops, want)?;
    let mut f = Fields::default();
    let mut it = ops.iter();
    let mut next = || it.next().expect("operand count checked");
    if load && !lds {
        f.set(
            Field::Vdst,
            vreg(next(), widths.first().copied().unwrap_or(1))?,
        );
    } else if returns {
        let ret = if info.has(Flags::ATOMIC_X2) {
            data_w / 2
        } else {
            data_w
        };
        f.set(Field::Vdst, vreg(next(), ret)?);
    } else if addtid {
        f.set(Field::Data, vreg(next(), data_w)?);
    }
    let vaddr = if addtid { None } else { Some(next().clone()) };
    if !load && !addtid {
        f.set(Field::Data, vreg(next(), data_w)?);
    }
    let saddr = if fam == Family::FLAT {
        None
    } else {
        Some(next().clone())
    };
    let off = |s: &(String, usize)| s.0 == "off";
    match fam {
        Family::FLAT => {
            f.set(Field::Saddr, 0x7d);
            if let Some(v) = &vaddr {
                f.set(Field::Addr, vreg(v, 2)?);
            }
        }
        Family::GLOBAL => {
            let s = saddr.as_ref().expect("GLOBAL has saddr");
            let wide = off(s);
            f.set(
                Field::Saddr,
                if wide {
                    0x7d
                } else {
                    sreg(s, 2, Scalar::NoM0Null)?
                },
            );
            if let Some(v) = &vaddr {
                f.set(Field::Addr, vreg(v, if wide { 2 } else { 1 })?);
            }
        }
        _ => {
            let s = saddr.as_ref().expect("SCRATCH has saddr");
            let v = vaddr.as_ref().expect("SCRATCH has vaddr");
            match (off(v), off(s)) {
                (false, false) => {
                    return Err((v.1, "operands are not valid for this GPU or mode".into()))
                }
                (false, true) => {
                    f.set(Field::Addr, vreg(v, 1)?);
                    f.set(Field::Saddr, 0x7d);
                }
                (true, true) => f.set(Field::Saddr, 0x7f),
                (true, false) => f.set(Field::Saddr, sreg(s, 1, Scalar::NoNull)?),
            }
        }
    }
    let offset = if fam == Family::FLAT {
        ranged(mm.value("offset"), 0, 2047, "a 11-bit unsigned offset")?
    } else {
        ranged(mm.value("offset"), -2048, 2047, "a 12-bit signed offset")?
    };
    f.set(Field::Offset, offset as u32 & 0xfff);
    f.set(Field::Glc, u32::from(glc));
    f.set(Field::Slc, u32::from(mm.has("slc")));
    f.set(Field::Dlc, u32::from(mm.has("dlc")));
    f.set(Field::Lds, u32::from(lds));
    f.set(
        Field::Seg,
        match fam {
            Family::FLAT => 0,
            Family::SCRATCH => 1,
            _ => 2,
        },
    );
    f.set(Field::Enc, 0x37);
    f.set(Field::Op, u32::from(info.opcode));
    finish(&[layout::FLAT], &f, 2, None, 0)
}
