//! MIMG statements: `vdata, vaddr, srsrc[, ssamp]` with `dmask:`, `dim:` (required), unorm,
//! glc slc dlc, r128, a16, tfe, lwe and d16, in the order llvm-mc-19 reads them. vaddr is a
//! register tuple or an NSA list `[vA, vB, ...]` (the addresses after the first go in the NSA
//! words). As llvm-mc-19 checks them: the data size must match dmask (4 for gather4), d16 and
//! tfe, and the address size the opcode, dim and a16 (a tuple of 8 may hold 5..7 addresses).
//! The ray-intersection forms take `vdata[4], vaddr, srsrc[4]` and only `a16`; their dmask,
//! unorm and r128 bits are fixed.

use super::mem::{count, mem_mods, sreg, vreg, Scalar};
use super::*;
use crate::display_mem::{mimg_address_count, mimg_sampler_range, DIMS};

/// The VGPRs of vaddr: a tuple (first register and count) or an NSA list.
enum Vaddr {
    Tuple(u32, u32),
    List(Vec<u32>),
}

fn vaddr(tok: &(String, usize)) -> Res<Vaddr> {
    let (t, c) = tok;
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        if !inner.contains(':') {
            let mut regs = Vec::new();
            for part in inner.split(',') {
                let p = part.trim().to_string();
                regs.push(vreg(&(p, *c), 1)?);
            }
            // A list of one register is the plain form.
            if let [r] = regs[..] {
                return Ok(Vaddr::Tuple(r, 1));
            }
            return Ok(Vaddr::List(regs));
        }
    }
    let r = parse_reg(t)
        .filter(|r| r.kind == RegKind::Vgpr)
        .ok_or((*c, format!("`{t}` is not a VGPR operand")))?;
    if u32::from(r.index) + u32::from(r.count) > 256 {
        return Err((*c, "register index is out of range".into()));
    }
    Ok(Vaddr::Tuple(u32::from(r.index), u32::from(r.count)))
}

/// The width of a VGPR tuple operand.
fn vdata(tok: &(String, usize)) -> Res<(u32, u32)> {
    let (t, c) = tok;
    let r = parse_reg(t)
        .filter(|r| r.kind == RegKind::Vgpr)
        .ok_or((*c, format!("`{t}` is not a VGPR operand")))?;
    if u32::from(r.index) + u32::from(r.count) > 256 {
        return Err((*c, "register index is out of range".into()));
    }
    Ok((u32::from(r.index), u32::from(r.count)))
}

pub(super) fn mimg(info: &'static OpInfo, ops: &[(String, usize)], mods: &Tokens) -> Res<Vec<u32>> {
    let m = info.mnemonic;
    let bvh = info.has(Flags::BVH);
    let gather = info.has(Flags::GATHER4);
    let sampler = info.has(Flags::SAMPLER);
    count(info, ops, if sampler { 4 } else { 3 })?;
    let mut f = Fields::default();
    f.set(Field::Enc, 0x3c);
    f.set(Field::Op, u32::from(info.opcode) & 0x7f);
    f.set(Field::OpHi, u32::from(info.opcode) >> 7);
    let (flags, keys): (&[&'static str], &[&'static str]) = if bvh {
        (&["a16"], &[])
    } else {
        (
            &[
                "unorm", "glc", "slc", "dlc", "r128", "a16", "tfe", "lwe", "d16",
            ],
            &["dmask", "dim"],
        )
    };
    let mm = mem_mods(m, mods, flags, keys)?;
    let a16 = mm.has("a16");
    let (vd, data_n) = vdata(&ops[0])?;
    f.set(Field::Vdata, vd);
    let va = vaddr(&ops[1])?;
    let srsrc = sreg(&ops[2], if bvh { 4 } else { 8 }, Scalar::NoM0Null)?;
    f.set(Field::Srsrc, srsrc >> 2);
    if sampler {
        f.set(Field::Ssamp, sreg(&ops[3], 4, Scalar::NoM0Null)? >> 2);
    }
    let (naddr, data_want) = if bvh {
        f.set(Field::Dmask, 0xf);
        f.set(Field::Unorm, 1);
        f.set(Field::R128, 1);
        let n = match (info.has(Flags::BVH64), a16) {
            (false, false) => 11,
            (false, true) => 8,
            (true, false) => 12,
            (true, true) => 9,
        };
        (n, 4)
    } else {
        let dmask = match mm.value("dmask") {
            None => 0,
            Some((t, c)) => parse_int(t)
                .filter(|v| (0..16).contains(v))
                .ok_or((c, "invalid dmask value".to_string()))? as u32,
        };
        let (dt, dc) = mm.value("dim").ok_or((0, format!("{m} needs dim:")))?;
        let name = dt.strip_prefix("SQ_RSRC_IMG_").unwrap_or(dt);
        let dim = DIMS
            .iter()
            .position(|d| *d == name)
            .ok_or((dc, format!("invalid dim value `{dt}`")))? as u32;
        if gather && dmask.count_ones() != 1 {
            return Err((
                mm.value("dmask").map_or(0, |v| v.1),
                "invalid image_gather dmask: only one bit must be set".into(),
            ));
        }
        let atomic = info.has(Flags::ATOMIC);
        // d16 is for the data of loads, stores, samples and gathers.
        if info.has(Flags::NO_D16) && mm.has("d16") {
            return Err((mm.col("d16"), format!("{m} takes no d16")));
        }
        if info.has(Flags::MSAA) && dim < 6 {
            return Err((dc, "invalid dim; must be MSAA type".into()));
        }
        if atomic {
            if ![1, 3, 0xf].contains(&dmask) {
                return Err((
                    mm.value("dmask").map_or(0, |v| v.1),
                    "invalid atomic image dmask".into(),
                ));
            }
            // One or two data dwords (cmpswap: two or four).
            let ok: &[u32] = if info.has(Flags::ATOMIC_X2) {
                &[2, 4]
            } else {
                &[1, 2]
            };
            if !ok.contains(&dmask.count_ones()) {
                return Err((
                    ops[0].1,
                    format!("{m} has no {}-dword data form", dmask.count_ones()),
                ));
            }
        }
        f.set(Field::Dmask, dmask);
        f.set(Field::Dim, dim);
        for (n, fl) in [
            ("unorm", Field::Unorm),
            ("glc", Field::Glc),
            ("slc", Field::Slc),
            ("dlc", Field::Dlc),
            ("r128", Field::R128),
            ("tfe", Field::Tfe),
            ("lwe", Field::Lwe),
            ("d16", Field::D16),
        ] {
            f.set(fl, u32::from(mm.has(n)));
        }
        let mut data = if gather { 4 } else { dmask.count_ones().max(1) };
        if mm.has("d16") {
            data = data.div_ceil(2);
        }
        data += u32::from(mm.has("tfe"));
        (mimg_address_count(info, dim, a16), data)
    };
    f.set(Field::A16, u32::from(a16));
    // gather4 returns four channels: two dwords with d16, five with tfe.
    let gather_ok = !gather || matches!(data_want, 2 | 4 | 5);
    if data_n != data_want || !gather_ok {
        return Err((
            ops[0].1,
            "image data size does not match dmask, d16 and tfe".into(),
        ));
    }
    let addr_err = || {
        (
            ops[1].1,
            "image address size does not match dim and a16".to_string(),
        )
    };
    // The address counts the opcode has variants for (see `mimg_sampler_range`); a tuple
    // must have the width of a variant (4 stands for 3 or 4, 8 for 5..8, 16 for 13..16), as
    // the printer reads them.
    let counts = if bvh {
        (naddr, naddr)
    } else if sampler {
        mimg_sampler_range(info)
    } else {
        (1, 4)
    };
    let has = |lo: u32, hi: u32| lo.max(counts.0) <= hi.min(counts.1);
    let variant_width = |w: u32| match w {
        4 => has(3, 4),
        8 => has(5, 8),
        16 => has(13, 16),
        _ => has(w, w),
    };
    let mut nsa_words = Vec::new();
    match va {
        Vaddr::Tuple(first, n) => {
            let want = if naddr > 12 { 16 } else { naddr };
            // A tuple of 8 may hold 5..7 addresses (llvm-mc-19 keeps that for older text).
            if !variant_width(n) {
                return Err((
                    ops[1].1,
                    format!("{m} has no form with a {n}-register address"),
                ));
            }
            if n != want && !(n == 8 && (5..=7).contains(&naddr)) {
                return Err(addr_err());
            }
            f.set(Field::Vaddr, first);
        }
        Vaddr::List(regs) => {
            let n = regs.len() as u32;
            if !has(n, n) || n > 12 {
                return Err((ops[1].1, format!("{m} has no form with {n} addresses")));
            }
            if n != naddr {
                return Err(addr_err());
            }
            f.set(Field::Vaddr, regs[0]);
            let extra = &regs[1..];
            f.set(Field::Nsa, extra.len().div_ceil(4) as u32);
            for chunk in extra.chunks(4) {
                let w = chunk
                    .iter()
                    .enumerate()
                    .fold(0u32, |w, (i, r)| w | r << (8 * i));
                nsa_words.push(w);
            }
        }
    }
    let mut words = vec![0u32; 2];
    f.pack(layout::MIMG, &mut words);
    words.extend(nsa_words);
    verify(words, 0)
}
