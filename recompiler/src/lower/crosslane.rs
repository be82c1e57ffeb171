//! Cross-lane VALU instructions under the wave contract, built from the IR's two cross-lane
//! primitives ([`Expr::WaveRead`], [`Expr::WaveBallot`]): v_readlane_b32,
//! v_readfirstlane_b32, v_writelane_b32, v_permlane16_b32 and v_permlanex16_b32.
//! Under the lane contract they are unsupported (a row is one lane: there is no other lane to
//! read).

use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, IntBin, IntCmp, IntUn};
use rdnaprobe_isa::{Operand, RegKind, Wave};

/// The error of a cross-lane instruction in a lane-contract body.
pub(super) const NEEDS_WAVE: &str =
    "cross-lane: needs the wave contract (give the rows a wave_id column, docs/dataset-format.md)";

impl Lowerer {
    fn need_wave(&self) -> Result<(), String> {
        if self.wave_contract {
            Ok(())
        } else {
            Err(NEEDS_WAVE.into())
        }
    }

    /// The value `v` of lane `lane` (taken modulo the wave size).
    pub(super) fn wave_read(&mut self, v: Handle, lane: Handle) -> Handle {
        self.b.push(Expr::WaveRead { value: v, lane })
    }
}

fn dst(l: &Lowerer, c: &Ctx) -> Result<Operand, String> {
    c.inst
        .dsts(l.wave)
        .into_iter()
        .next()
        .ok_or_else(|| "missing destination".to_string())
}

fn src(c: &Ctx, i: usize) -> Result<Operand, String> {
    c.srcs
        .get(i)
        .copied()
        .ok_or_else(|| format!("missing source {i}"))
}

/// v_readlane_b32 sdst, vsrc0, ssrc1: lane `ssrc1 % wave`'s vsrc0, whatever EXEC holds (the
/// hardware reads the lane's VGPR even when the lane is inactive).
pub(super) fn readlane(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    l.need_wave()?;
    let v = l.read32(&src(c, 0)?)?;
    let sel = l.read32(&src(c, 1)?)?;
    let r = l.wave_read(v, sel);
    let d = dst(l, c)?;
    l.write_sreg(&d, &[r])
}

/// v_readfirstlane_b32 sdst, vsrc0: vsrc0 of the lowest lane in EXEC, or of lane 0 when EXEC
/// is empty (AMD Vega ISA 12.8, V_READFIRSTLANE_B32; the same in RDNA2).
pub(super) fn readfirstlane(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    l.need_wave()?;
    let v = l.read32(&src(c, 0)?)?;
    let exec = l.exec64();
    let first = l.b.iu(IntUn::FindLsb, exec);
    let first = l.b.trunc64(first);
    let zero = l.b.c32(0);
    let none = l.b.eqc(exec, 0);
    let sel = l.b.sel(none, zero, first);
    let r = l.wave_read(v, sel);
    let d = dst(l, c)?;
    l.write_sreg(&d, &[r])
}

/// v_writelane_b32 vdst, ssrc0, ssrc1: lane `ssrc1 % wave`'s vdst = ssrc0, whatever EXEC
/// holds; the other lanes keep vdst.
pub(super) fn writelane(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    l.need_wave()?;
    let v = l.read32(&src(c, 0)?)?;
    let sel = l.read32(&src(c, 1)?)?;
    let Operand::Reg(r) = dst(l, c)? else {
        return Err("destination is not a VGPR".into());
    };
    if r.kind != RegKind::Vgpr {
        return Err("destination is not a VGPR".into());
    }
    let sel = l.b.andc(sel, u64::from(l.wave.lanes() - 1));
    let me = l.b.icmp(IntCmp::Eq, l.lane, sel);
    let old = l.vgpr_get(r.index);
    let new = l.b.sel(me, v, old);
    l.vgpr_put(r.index, new);
    Ok(())
}

/// v_permlane16_b32 / v_permlanex16_b32 vdst, vsrc0, ssrc1, ssrc2 (gfx10): lane `i` of each
/// row of 16 reads selector nibble `i % 16` of ssrc2:ssrc1 (ssrc1 holds lanes 0..7), a lane
/// of its own row (permlane16) or of the other row of its 32-lane half (permlanex16).
/// op_sel bit 0 is FI (fetch inactive), bit 1 bound_ctrl: an inactive source lane without FI
/// leaves vdst unchanged, or writes 0 with bound_ctrl. Lanes outside EXEC keep vdst.
pub(super) fn permlane(l: &mut Lowerer, c: &Ctx, cross: bool) -> Result<(), String> {
    l.need_wave()?;
    let v = l.read32(&src(c, 0)?)?;
    let s1 = l.read32(&src(c, 1)?)?;
    let s2 = l.read32(&src(c, 2)?)?;
    let fi = c.mods.op_sel & 1 != 0;
    let bound_ctrl = c.mods.op_sel & 2 != 0;
    let b = &mut l.b;
    let lane = l.lane;
    let j = b.andc(lane, 15);
    let high = b.icmpc(IntCmp::GeU, j, 8);
    let word = b.sel(high, s2, s1);
    let j7 = b.andc(j, 7);
    let shift = b.shlc(j7, 2);
    let nib = b.ib(IntBin::ShrU, word, shift);
    let nib = b.andc(nib, 15);
    let row = b.andc(lane, !15u32 as u64);
    let row = if cross { b.xorc(row, 16) } else { row };
    let from = b.or(row, nib);
    let got = l.wave_read(v, from);
    let d = dst(l, c)?;
    let Operand::Reg(r) = d else {
        return Err("destination is not a VGPR".into());
    };
    let old = l.vgpr_get(r.index);
    let result = if fi {
        got
    } else {
        let (lo, hi) = {
            let e = l.exec64();
            let lo = l.b.trunc64(e);
            let c32 = l.b.c64(32);
            let h = l.b.ib(IntBin::ShrU, e, c32);
            (lo, l.b.trunc64(h))
        };
        let src_active = src_bit(l, lo, hi, from);
        let fallback = if bound_ctrl { l.b.c32(0) } else { old };
        l.b.sel(src_active, got, fallback)
    };
    l.vgpr_set(r.index, result);
    Ok(())
}

/// Bit `lane` of the mask (lo, hi), `lane` a per-lane `U32` below the wave size.
fn src_bit(l: &mut Lowerer, lo: Handle, hi: Handle, lane: Handle) -> Handle {
    let b = &mut l.b;
    let word = if l.wave == Wave::W64 {
        let upper = b.icmpc(IntCmp::GeU, lane, 32);
        b.sel(upper, hi, lo)
    } else {
        lo
    };
    let l31 = b.andc(lane, 31);
    let s = b.ib(IntBin::ShrU, word, l31);
    b.bit(s, 1)
}
