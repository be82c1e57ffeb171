//! Cross-lane VALU instructions under the wave contract, built from the IR's two cross-lane
//! primitives ([`Expr::WaveRead`], [`Expr::WaveBallot`]): v_readlane_b32,
//! v_readfirstlane_b32, v_writelane_b32, v_permlane16_b32 and v_permlanex16_b32.
//! Under the lane contract they are unsupported (a row is one lane: there is no other lane to
//! read).

use super::error::{RuleError, RuleResult};
use super::lds;
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, IntBin, IntCmp, IntUn};
use rdnaprobe_isa::{Operand, RegKind, Wave};

/// The error of a cross-lane instruction in a lane-contract body.
pub(super) const NEEDS_WAVE: &str =
    "cross-lane: needs the wave contract (give the rows a wave_id column, docs/dataset-format.md)";

impl Lowerer {
    fn need_wave(&self) -> RuleResult {
        if self.wave_contract {
            Ok(())
        } else {
            Err(RuleError::not_modelled(NEEDS_WAVE))
        }
    }

    /// The value `v` of lane `lane` (taken modulo the wave size).
    pub(super) fn wave_read(&mut self, v: Handle, lane: Handle) -> Handle {
        self.b.push(Expr::WaveRead { value: v, lane })
    }
}

fn dst(l: &Lowerer, c: &Ctx) -> RuleResult<Operand> {
    c.inst
        .dsts(l.wave)
        .into_iter()
        .next()
        .ok_or_else(|| RuleError::operand("missing destination"))
}

fn src(c: &Ctx, i: usize) -> RuleResult<Operand> {
    c.srcs
        .get(i)
        .copied()
        .ok_or_else(|| RuleError::operand(format!("missing source {i}")))
}

/// v_readlane_b32 sdst, vsrc0, ssrc1: lane `ssrc1 % wave`'s vsrc0, whatever EXEC holds (the
/// hardware reads the lane's VGPR even when the lane is inactive).
/// (rule: readlane-any-lane)
pub(super) fn readlane(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    l.need_wave()?;
    let v = l.read32(&src(c, 0)?)?;
    let sel = l.read32(&src(c, 1)?)?;
    let r = l.wave_read(v, sel);
    let d = dst(l, c)?;
    l.write_sreg(&d, &[r])
}

/// v_readfirstlane_b32 sdst, vsrc0: vsrc0 of the lowest lane in EXEC, or of lane 0 when EXEC
/// is empty (AMD Vega ISA 12.8, V_READFIRSTLANE_B32; the same in RDNA2).
/// (rule: readfirstlane-empty-exec)
pub(super) fn readfirstlane(l: &mut Lowerer, c: &Ctx) -> RuleResult {
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
pub(super) fn writelane(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    l.need_wave()?;
    let v = l.read32(&src(c, 0)?)?;
    let sel = l.read32(&src(c, 1)?)?;
    let Operand::Reg(r) = dst(l, c)? else {
        return Err(RuleError::operand("destination is not a VGPR"));
    };
    if r.kind != RegKind::Vgpr {
        return Err(RuleError::operand("destination is not a VGPR"));
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
/// (rule: permlane-inactive)
pub(super) fn permlane(l: &mut Lowerer, c: &Ctx, cross: bool) -> RuleResult {
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
        return Err(RuleError::operand("destination is not a VGPR"));
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

/// Writes `v` to the VGPR destination of a DS instruction under EXEC.
fn write_vdst(l: &mut Lowerer, c: &Ctx, v: Handle) -> RuleResult {
    let vdst = lds::fields(c).1[3];
    l.vgpr_set(vdst, v);
    Ok(())
}

/// `v` of lane `from`, or 0 when that lane is inactive (a DS cross-lane read of a disabled
/// lane).
fn read_active(l: &mut Lowerer, v: Handle, from: Handle) -> Handle {
    let got = l.wave_read(v, from);
    let e = l.exec64();
    let lo = l.b.trunc64(e);
    let c32 = l.b.c64(32);
    let h = l.b.ib(IntBin::ShrU, e, c32);
    let hi = l.b.trunc64(h);
    let active = src_bit(l, lo, hi, from);
    let zero = l.b.c32(0);
    l.b.sel(active, got, zero)
}

/// ds_swizzle_b32 vdst, vaddr offset:pattern (no LDS access): offset bit 15 set is the quad
/// permute mode (lane `j` of each quad reads lane `offset[2j+1:2j]` of the quad); clear is the
/// bit-mask mode within each group of 32 lanes: lane `((j & and) | or) ^ xor` with and, or,
/// xor = offset bits 4:0, 9:5, 14:10. Offsets 0xc000 and up are the rotate mode (0xe000 and up
/// the FFT mode) of the RDNA2 ISA's DS_SWIZZLE_B32 pseudocode, within each group of 32 lanes:
/// rotate reads lane `(j & mask) | ((j + r) & !mask)` with mask = offset[4:0] and r =
/// offset[9:5], negated when offset[10] is set; FFT reads lane `reverse5(j) >> popcount(mask)
/// | (j & mask)` with mask = offset[4:0]. A disabled source lane gives 0 (the pseudocode's
/// `thread_valid`).
pub(super) fn ds_swizzle(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    l.need_wave()?;
    let off = lds::fields(c).0;
    let v = l.vgpr_get(lds::fields(c).1[0]);
    let b = &mut l.b;
    let lane = l.lane;
    let group = b.andc(lane, !31u32 as u64);
    let j = b.andc(lane, 31);
    let mask = u64::from(off & 31);
    let from = if off >= 0xe000 {
        let rev = b.iu(IntUn::BitReverse, j);
        let rev = b.shrc(rev, 27 + (off & 31).count_ones());
        let keep = b.andc(j, mask);
        let within = b.or(rev, keep);
        b.or(group, within)
    } else if off >= 0xc000 {
        let r = (off >> 5) & 31;
        let r = if off & 0x400 != 0 {
            r.wrapping_neg()
        } else {
            r
        };
        let keep = b.andc(j, mask);
        let moved = b.addc(j, u64::from(r));
        let moved = b.andc(moved, !mask & 31);
        let within = b.or(keep, moved);
        b.or(group, within)
    } else if off & 0x8000 != 0 {
        let q = b.andc(lane, 3);
        let sh = b.shlc(q, 1);
        let pat = b.c32(off & 0xff);
        let sel = b.ib(IntBin::ShrU, pat, sh);
        let sel = b.andc(sel, 3);
        let base = b.andc(lane, !3u32 as u64);
        b.or(base, sel)
    } else {
        let (and, or, xor) = (off & 31, (off >> 5) & 31, (off >> 10) & 31);
        let j = b.andc(lane, 31);
        let j = b.andc(j, u64::from(and));
        let j = b.orc(j, u64::from(or));
        let j = b.xorc(j, u64::from(xor));
        let group = b.andc(lane, !31u32 as u64);
        b.or(group, j)
    };
    let r = read_active(l, v, from);
    write_vdst(l, c, r)
}

/// ds_bpermute_b32 vdst, vaddr, vdata offset:n (no LDS access): lane `i` reads vdata of lane
/// `((vaddr + n) / 4) % wave`, 0 when that lane is disabled (RDNA2 ISA pseudocode).
pub(super) fn ds_bpermute(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    l.need_wave()?;
    let [addr, data, ..] = lds::fields(c).1;
    let (addr, data) = (l.vgpr_get(addr), l.vgpr_get(data));
    let off = lds::fields(c).0;
    let a = l.b.addc(addr, u64::from(off));
    let from = l.b.shrc(a, 2);
    let from = l.b.andc(from, u64::from(l.wave.lanes() - 1));
    let r = read_active(l, data, from);
    write_vdst(l, c, r)
}
