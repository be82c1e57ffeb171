//! Scratch (private) memory: `scratch_load_*` and `scratch_store_*` (FLAT with SEG 1).
//!
//! Every lane has its own [`SCRATCH_BYTES`] bytes of private memory, zero before the body and
//! not an output of either contract: what a body stores is checked through the VGPRs that
//! later loads write. The private address is `s[saddr] + sext(offset12)`, or with SADDR off
//! `v[vaddr] + sext(offset12)` (RDNA2 ISA guide, "Scratch"; gfx10 takes one or the other),
//! 32 bits. The hardware swizzles private dwords across the wave's lanes in the scratch
//! buffer (element size 4, index stride the wave size), which a lane cannot observe except
//! through an access that crosses a dword boundary: those are computed on the lane's bytes
//! in order, as for the other segments (not measured). An access whose bytes are not all
//! inside the lane's memory reads 0 and writes nothing (the hardware's range check against
//! the private segment size; the size is this model's).
//!
//! The lowering keeps a lane's private dwords as pseudo VGPRs from [`SCRATCH_REG`] (so they
//! follow the body's control flow like registers): a load selects its dwords by index, a
//! store rewrites the dwords it touches.

use super::error::{RuleError, RuleResult};
use super::mem::{sext, Vm};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Handle, IntBin, IntCmp};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::code;

/// The private dwords of a lane.
pub(super) const SCRATCH_DWORDS: u16 = 64;
/// The private bytes of a lane.
pub const SCRATCH_BYTES: u32 = 4 * SCRATCH_DWORDS as u32;
/// The pseudo VGPR of private dword 0 (past every real VGPR and the scalar variables).
pub(super) const SCRATCH_REG: u16 = 1024;

/// `scratch_*` loads (`Vm::Load`) and stores (`Vm::Store`).
pub(super) fn scratch(l: &mut Lowerer, c: &Ctx, what: Vm) -> RuleResult {
    let f = |field| c.inst.field(field);
    if f(Field::Lds) != 0 {
        return Err(RuleError::not_modelled(
            "memory: the LDS (lds) form of a scratch load is not modelled",
        ));
    }
    let [vaddr, data, saddr, vdst] =
        [Field::Addr, Field::Data, Field::Saddr, Field::Vdst].map(|x| f(x) as u16);
    let base = if saddr == code::NULL {
        l.vgpr_get(vaddr)
    } else {
        l.scalar_src(saddr)?
    };
    let a = l.b.addc(base, sext(f(Field::Offset), 12) & 0xffff_ffff);
    match what {
        Vm::Load {
            bytes,
            n,
            sext,
            d16,
        } => {
            let vals: Vec<Handle> = (0..n)
                .map(|i| {
                    let ai = l.b.addc(a, u64::from(bytes) * u64::from(i));
                    read(l, ai, bytes)
                })
                .collect();
            for (i, v) in vals.into_iter().enumerate() {
                let r = vdst + i as u16;
                let v = l.extend(v, bytes, sext, d16, r);
                l.vgpr_set(r, v);
            }
        }
        Vm::Store { bytes, n, hi } => {
            for i in 0..n {
                let mut d = l.vgpr_get(data + i);
                if hi {
                    d = l.b.shrc(d, 16);
                }
                let ai = l.b.addc(a, u64::from(bytes) * u64::from(i));
                write(l, ai, bytes, d);
            }
        }
        Vm::Atomic(_)
        | Vm::FloatAtomic { .. }
        | Vm::Atomic64 { .. }
        | Vm::CmpSwap
        | Vm::FloatAtomic64 { .. }
        | Vm::FCmpSwap { .. } => {
            return Err(RuleError::not_modelled(
                "memory: scratch has loads and stores only",
            ))
        }
    }
    Ok(())
}

/// Whether the `bytes` at private address `a` lie in the lane's memory, and (first dword
/// index, bit shift in it).
fn place(l: &mut Lowerer, a: Handle, bytes: u8) -> (Handle, Handle, Handle) {
    let b = &mut l.b;
    let inside = b.icmpc(IntCmp::LeU, a, u64::from(SCRATCH_BYTES - u32::from(bytes)));
    let i0 = b.shrc(a, 2);
    let byte = b.andc(a, 3);
    let sh = b.shlc(byte, 3);
    (inside, i0, sh)
}

/// Private dword `index` (0 past the end).
fn dword(l: &mut Lowerer, index: Handle) -> Handle {
    let mut r = l.b.c32(0);
    for k in 0..SCRATCH_DWORDS {
        let v = l.vgpr_get(SCRATCH_REG + k);
        let here = l.b.eqc(index, u64::from(k));
        r = l.b.sel(here, v, r);
    }
    r
}

/// The `bytes` at private address `a`, zero-extended (0 outside the lane's memory).
fn read(l: &mut Lowerer, a: Handle, bytes: u8) -> Handle {
    let (inside, i0, sh) = place(l, a, bytes);
    let lo = dword(l, i0);
    let i1 = l.b.addc(i0, 1);
    let hi = dword(l, i1);
    let b = &mut l.b;
    let both = b.pack64(lo, hi);
    let sh64 = b.zext(sh);
    let v = b.ib(IntBin::ShrU, both, sh64);
    let v = b.trunc64(v);
    let v = b.andc(v, crate::eval::width_mask(bytes));
    let zero = b.c32(0);
    b.sel(inside, v, zero)
}

/// Writes the low `bytes` of `d` at private address `a` where this lane is active and the
/// bytes lie in its memory.
fn write(l: &mut Lowerer, a: Handle, bytes: u8, d: Handle) {
    let (inside, i0, sh) = place(l, a, bytes);
    let active = match l.exec_bit() {
        Some(e) => l.b.band(e, inside),
        None => inside,
    };
    let b = &mut l.b;
    let sh64 = b.zext(sh);
    let m = b.c64(crate::eval::width_mask(bytes));
    let m = b.ib(IntBin::Shl, m, sh64);
    let d = b.andc(d, crate::eval::width_mask(bytes));
    let d = b.zext(d);
    let d = b.ib(IntBin::Shl, d, sh64);
    let (m_lo, m_hi) = (b.trunc64(m), b.hi32(m));
    let (keep_lo, keep_hi) = (b.xorc(m_lo, 0xffff_ffff), b.xorc(m_hi, 0xffff_ffff));
    let (d_lo, d_hi) = (b.trunc64(d), b.hi32(d));
    let i1 = b.addc(i0, 1);
    for k in 0..SCRATCH_DWORDS {
        let old = l.vgpr_get(SCRATCH_REG + k);
        let b = &mut l.b;
        let at0 = b.eqc(i0, u64::from(k));
        let at0 = b.band(active, at0);
        let at1 = b.eqc(i1, u64::from(k));
        let at1 = b.band(active, at1);
        let kept0 = b.and(old, keep_lo);
        let new0 = b.or(kept0, d_lo);
        let kept1 = b.and(old, keep_hi);
        let new1 = b.or(kept1, d_hi);
        let v = b.sel(at1, new1, old);
        let v = b.sel(at0, new0, v);
        l.vgpr_put(SCRATCH_REG + k, v);
    }
}
