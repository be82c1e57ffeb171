//! EXP and VINTRP statements. `exp TARGET src0, src1, src2, src3 [done] [compr] [vm]`: each
//! written source sets its enable bit (`off` leaves it clear); with `compr` the first two
//! sources share VSRC0 and the last two VSRC1, so a pair names one register. VINTRP:
//! `vdst, vsrc, attrN.c` (`p10`/`p20`/`p0` for v_interp_mov_f32), attribute 0..32.

use super::mem::{count, mem_mods};
use super::*;

/// Export target numbers by name (GFX10): mrt0..7, mrtz, null, pos0..4, prim, param0..31.
fn target(t: &str) -> Option<u32> {
    let num = |p: &str, n: u32| {
        t.strip_prefix(p)
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|v| *v < n)
    };
    match t {
        "mrtz" => Some(8),
        "null" => Some(9),
        "prim" => Some(20),
        _ => num("mrt", 8)
            .or_else(|| num("pos", 5).map(|v| v + 12))
            .or_else(|| num("param", 32).map(|v| v + 32)),
    }
}

pub(super) fn exp(rest: &str, rest_col: usize) -> Res<Vec<u32>> {
    let info = *table::lookup_name("exp")
        .first()
        .ok_or((0, "no exp row".to_string()))?;
    let lead = rest.len() - rest.trim_start().len();
    let body = rest.trim_start();
    let (tt, after) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    let tcol = rest_col + lead;
    let t = target(tt).ok_or((tcol, format!("invalid exp target `{tt}`")))?;
    let (ops, mods) = split_operands(
        after,
        tcol + tt.len() + (body.len() - tt.len() - after.len()),
    );
    count(info, &ops, 4)?;
    let mm = mem_mods("exp", &mods, &["done", "compr", "vm"], &[])?;
    let compr = mm.has("compr");
    let mut f = Fields::default();
    let srcs = [Field::Vsrc0, Field::Vsrc1, Field::Vsrc2, Field::Vsrc3];
    let mut en = 0;
    let mut pair: [Option<u32>; 2] = [None, None];
    for (i, o) in ops.iter().enumerate() {
        if o.0 == "off" {
            continue;
        }
        let r = super::mem::vreg(o, 1)?;
        en |= 1 << i;
        if compr {
            match pair[i / 2] {
                Some(p) if p != r => {
                    return Err((
                        o.1,
                        "with compr, sources 0 and 1 (and 2 and 3) are one register".into(),
                    ))
                }
                _ => pair[i / 2] = Some(r),
            }
            f.set(srcs[i / 2], r);
        } else {
            f.set(srcs[i], r);
        }
    }
    f.set(Field::En, en);
    f.set(Field::Target, t);
    f.set(Field::Compr, u32::from(compr));
    f.set(Field::Done, u32::from(mm.has("done")));
    f.set(Field::Vm, u32::from(mm.has("vm")));
    f.set(Field::Enc, 0x3e);
    finish(&[layout::EXP], &f, 2, None, 0)
}

pub(super) fn vintrp(
    info: &'static OpInfo,
    ops: &[(String, usize)],
    mods: &Tokens,
) -> Res<Vec<u32>> {
    count(info, ops, 3)?;
    mem_mods(info.mnemonic, mods, &[], &[])?;
    let mut f = Fields::default();
    f.set(Field::Vdst, super::mem::vreg(&ops[0], 1)?);
    let (st, sc) = &ops[1];
    let src = if info.op() == Opcode::v_interp_mov_f32_vintrp {
        ["p10", "p20", "p0"]
            .iter()
            .position(|p| p == st)
            .ok_or((*sc, "invalid interpolation slot".to_string()))? as u32
    } else {
        super::mem::vreg(&ops[1], 1)?
    };
    f.set(Field::Vsrc, src);
    let (n, chan) = attribute(&ops[2])?;
    f.set(Field::Attr, n);
    f.set(Field::AttrChan, chan);
    f.set(Field::Op, u32::from(info.opcode));
    f.set(Field::Enc, 0x32);
    finish(&[layout::VINTRP], &f, 1, None, 0)
}

/// The VOP3 interpolation forms (`v_interp_*_f32_e64`, `v_interp_p1ll_f16`,
/// `v_interp_p1lv_f16`, `v_interp_p2_f16`): `vdst, src1, attrN.c[, src2]` with neg/abs on the
/// VGPR sources, `high` (the f16 forms), clamp and an output modifier. src0 holds the attribute
/// (bits 5:0), channel (7:6) and `high` (8), as the printer reads it.
pub(super) fn vop3_interp(
    info: &'static OpInfo,
    ops: &[(String, usize)],
    mods: &Tokens,
) -> Res<Vec<u32>> {
    let m = info.mnemonic;
    // p1lv and p2_f16 read a third source (P0 or the first step's result).
    let three = info.srcs.len() >= 3;
    count(info, ops, if three { 4 } else { 3 })?;
    let flags: &[&'static str] = if info.has(Flags::INTERP_HIGH) {
        &["high", "clamp"]
    } else {
        &["clamp"]
    };
    // v_interp_p2_f16 has no output modifier.
    let keys: &[&'static str] = if info.op() == Opcode::v_interp_p2_f16 {
        &[]
    } else {
        &["mul", "div"]
    };
    let mm = mem_mods(m, mods, flags, keys)?;
    let omod = match (mm.value("mul"), mm.value("div")) {
        (None, None) => 0,
        (Some(("2", _)), None) => 1,
        (Some(("4", _)), None) => 2,
        (None, Some(("2", _))) => 3,
        (Some((_, c)), _) | (_, Some((_, c))) => return Err((c, "invalid output modifier".into())),
    };
    let mut f = Fields::default();
    f.set(Field::Vdst, super::mem::vreg(&ops[0], 1)?);
    let (neg, abs) = (&mut 0u32, &mut 0u32);
    let mut vsrc = |i: usize, o: &(String, usize)| -> Res<u32> {
        let s = parse_src(&o.0, o.1, ValueType::F32)?;
        match s.op {
            Operand::Reg(r) if r.kind == RegKind::Vgpr && r.count == 1 && !s.sext => {
                *neg |= u32::from(s.neg) << i;
                *abs |= u32::from(s.abs) << i;
                Ok(256 + u32::from(r.index))
            }
            _ => Err((o.1, format!("`{}` is not a VGPR operand", o.0))),
        }
    };
    let src1 = if info.op() == Opcode::v_interp_mov_f32_vop3 {
        let (st, sc) = &ops[1];
        ["p10", "p20", "p0"]
            .iter()
            .position(|p| p == st)
            .ok_or((*sc, "invalid interpolation slot".to_string()))? as u32
    } else {
        vsrc(1, &ops[1])?
    };
    f.set(Field::Src1, src1);
    if three {
        f.set(Field::Src2, vsrc(2, &ops[3])?);
    }
    let (n, chan) = attribute(&ops[2])?;
    f.set(Field::Src0, n | chan << 6 | u32::from(mm.has("high")) << 8);
    f.set(Field::Neg, *neg);
    f.set(Field::Abs, *abs);
    f.set(Field::Clamp, u32::from(mm.has("clamp")));
    f.set(Field::Omod, omod);
    f.set(
        Field::Op,
        u32::from(info.vop3_opcode.unwrap_or(info.opcode)),
    );
    f.set(Field::Enc, 0x35);
    finish(&[layout::VOP3], &f, 2, None, 0)
}

/// `attrN.c`: the attribute number (0..32) and channel.
fn attribute(o: &(String, usize)) -> Res<(u32, u32)> {
    let (at, ac) = o;
    let (n, ch) = at
        .strip_prefix("attr")
        .and_then(|r| r.split_once('.'))
        .ok_or((
            *ac,
            "invalid or missing interpolation attribute channel".to_string(),
        ))?;
    let n: u32 = n
        .parse()
        .ok()
        .ok_or((*ac, format!("`{at}` is not attrN.c")))?;
    if n > 32 {
        return Err((*ac, "out of bounds interpolation attribute number".into()));
    }
    let chan = ["x", "y", "z", "w"].iter().position(|c| *c == ch).ok_or((
        *ac,
        "invalid or missing interpolation attribute channel".to_string(),
    ))?;
    Ok((n, chan as u32))
}
