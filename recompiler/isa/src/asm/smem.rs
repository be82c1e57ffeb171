//! SMEM statements: `sdata, sbase, offset` where the offset is a 21-bit signed immediate or a
//! scalar register with an optional `offset:` immediate; glc and dlc on loads; s_memtime and
//! s_memrealtime take only a 64-bit destination, s_dcache_inv and s_gl1_inv nothing, and
//! s_atc_probe* a 7-bit probe mode in the data field.

use super::mem::{count, mem_mods, ranged, sreg, Scalar};
use super::*;
use crate::probe::probe_widths;

const OFFSET21: &str = "a 21-bit signed offset";
const OFFSET20: &str = "a 20-bit unsigned offset";

pub(super) fn smem(info: &'static OpInfo, ops: &[(String, usize)], mods: &Tokens) -> Res<Vec<u32>> {
    let m = info.mnemonic;
    let widths = probe_widths(info.probe_text);
    let probe = info.has(Flags::ATC_PROBE);
    let load = info.has(Flags::LOAD);
    let mut f = Fields::default();
    f.set(Field::Enc, 0x3d);
    f.set(Field::Op, u32::from(info.opcode));
    let flags: &[&'static str] = if load { &["glc", "dlc"] } else { &[] };
    let plain = info.srcs.len() < 3;
    let keys: &[&'static str] = if plain { &[] } else { &["offset"] };
    let mm = mem_mods(m, mods, flags, keys)?;
    f.set(Field::Glc, u32::from(mm.has("glc")));
    f.set(Field::Dlc, u32::from(mm.has("dlc")));
    if plain {
        // s_memtime / s_memrealtime (one 64-bit destination), s_dcache_inv / s_gl1_inv.
        count(info, ops, widths.len())?;
        if let Some(o) = ops.first() {
            f.set(Field::Sdata, sreg(o, widths[0], Scalar::NoM0Exec)?);
        }
        return finish(&[layout::SMEM], &f, 2, None, 0);
    }
    // The offset operand may be left out (offset 0, no soffset), as llvm-mc-19 allows.
    let mut ops = ops.to_vec();
    if ops.len() == 2 && mm.value("offset").is_none() {
        ops.push(("0".to_string(), 0));
    }
    count(info, &ops, 3)?;
    let (base_w, data) = if probe {
        let (t, c) = &ops[0];
        let v = parse_int(t)
            .filter(|v| (0..128).contains(v))
            .ok_or((*c, format!("`{t}`: the probe mode is 0..127")))?;
        (widths.first().copied().unwrap_or(2), v as u32)
    } else {
        (
            widths.get(1).copied().unwrap_or(2),
            sreg(&ops[0], widths[0], Scalar::NoM0Exec)?,
        )
    };
    f.set(Field::Sdata, data);
    let base = sreg(&ops[1], base_w, Scalar::NoM0Null)?;
    f.set(Field::Sbase, base >> 1);
    // s_buffer_* and s_atc_probe_buffer offsets are 20-bit unsigned, the others 21-bit signed
    // (GFX10).
    let (lo, what) = if info.has(Flags::SMEM_BUFFER) {
        (0, OFFSET20)
    } else {
        (-0x10_0000, OFFSET21)
    };
    let (t, c) = &ops[2];
    if parse_int(t).is_some() {
        if mm.value("offset").is_some() {
            return Err((*c, "an immediate offset and offset: together".into()));
        }
        let v = ranged(Some((t, *c)), lo, 0xf_ffff, what)?;
        f.set(Field::Offset, v as u32 & 0x1f_ffff);
        f.set(Field::Soffset, 0x7d);
    } else {
        f.set(Field::Soffset, sreg(&ops[2], 1, Scalar::Any)?);
        let v = ranged(mm.value("offset"), lo, 0xf_ffff, what)?;
        f.set(Field::Offset, v as u32 & 0x1f_ffff);
    }
    finish(&[layout::SMEM], &f, 2, None, 0)
}
