//! The M0-relative VGPR moves (v_movrels/movreld/movrelsd/movrelsd_2/swaprel_b32): a source
//! or destination VGPR at the instruction's register plus an offset from M0.
//!
//! The register file is the wave's VGPR allocation, v0..v255 (the probe template allocates
//! 256). An M0 known at lowering time addresses one register; a run-time M0 (under the wave
//! contract M0 may come from an SGPR input or change from one loop iteration to the next)
//! becomes a select over every register from the instruction's register to v255, so each
//! lane reads and writes exactly the register the hardware would. Under the lane contract a
//! scalar built from lane values (a compare mask) holds only this lane's bits, so a
//! non-constant M0 is refused there.

use super::moves::{dst_src, vgpr_index};
use super::operands::Ctx;
use super::Lowerer;
use crate::ir::{Expr, Handle, IntCmp};
use rdnaprobe_isa::Opcode;

/// VGPRs in the wave's allocation.
const VGPRS: u32 = 256;

/// A register offset from M0.
#[derive(Clone, Copy)]
enum Offset {
    Const(u32),
    Dyn(Handle),
}

impl Lowerer {
    fn offset(&mut self, h: Handle) -> Offset {
        match self.b.k.exprs[h.index()] {
            Expr::Const { bits, .. } => Offset::Const(bits as u32),
            _ => Offset::Dyn(h),
        }
    }

    /// Whether `base + off` is inside the allocation (no wrap: M0 is unsigned).
    fn rel_ok(&mut self, base: u16, off: Offset) -> Handle {
        let room = u64::from(VGPRS - u32::from(base));
        match off {
            Offset::Const(o) => self.b.cb(u64::from(o) < room),
            Offset::Dyn(h) => self.b.icmpc(IntCmp::LtU, h, room),
        }
    }

    /// VGPR `base + off`; an index past the allocation reads v0.
    fn rel_read(&mut self, base: u16, off: Offset) -> Handle {
        match off {
            Offset::Const(o) => {
                let r = u32::from(base).saturating_add(o);
                self.vgpr_get(if r < VGPRS { r as u16 } else { 0 })
            }
            Offset::Dyn(h) => {
                let mut v = self.vgpr_get(0);
                for r in u32::from(base)..VGPRS {
                    let hit = self.b.eqc(h, u64::from(r - u32::from(base)));
                    let x = self.vgpr_get(r as u16);
                    v = self.b.sel(hit, x, v);
                }
                v
            }
        }
    }

    /// Writes `v` to VGPR `base + off` under EXEC where `ok` holds; an index past the
    /// allocation writes nothing.
    fn rel_write(&mut self, base: u16, off: Offset, v: Handle, ok: Handle) {
        match off {
            Offset::Const(o) => {
                let r = u32::from(base).saturating_add(o);
                if r < VGPRS {
                    let always = matches!(self.b.k.exprs[ok.index()], Expr::Const { bits: 1, .. });
                    let nv = if always {
                        v
                    } else {
                        let old = self.vgpr_get(r as u16);
                        self.b.sel(ok, v, old)
                    };
                    self.vgpr_set(r as u16, nv);
                }
            }
            Offset::Dyn(h) => {
                for r in u32::from(base)..VGPRS {
                    let hit = self.b.eqc(h, u64::from(r - u32::from(base)));
                    let hit = self.b.band(hit, ok);
                    let old = self.vgpr_get(r as u16);
                    let nv = self.b.sel(hit, v, old);
                    self.vgpr_set(r as u16, nv);
                }
            }
        }
    }
}

/// v_movrels_b32 (D = VGPR[S0 + M0]), v_movreld_b32 (VGPR[D + M0] = S0), v_movrelsd_b32
/// (VGPR[D + M0] = VGPR[S0 + M0]), v_movrelsd_2_b32 (VGPR[D + M0[25:16]] = VGPR[S0 + M0[9:0]])
/// and v_swaprel_b32 (those two registers exchanged). An index past v255 reads v0 and drops
/// its write; v_swaprel_b32 writes neither register when either index is out of range.
// rule: movrel-m0
pub(super) fn movrel(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    let (d, s) = dst_src(l, c)?;
    let di = vgpr_index(&d, "the destination")?;
    let m0 = l.sgpr_get(124);
    if !l.wave_contract && !matches!(l.offset(m0), Offset::Const(_)) {
        return Err(
            "M0 is not a constant at lowering time (a run-time M0 needs the wave \
                    contract)"
                .into(),
        );
    }
    let zero = Offset::Const(0);
    let (src_off, dst_off) = match c.op {
        Opcode::v_movrels_b32 => (l.offset(m0), zero),
        Opcode::v_movreld_b32 => (zero, l.offset(m0)),
        Opcode::v_movrelsd_b32 => (l.offset(m0), l.offset(m0)),
        _ => {
            let lo = l.b.andc(m0, 0x3ff);
            let hi = l.b.shrc(m0, 16);
            let hi = l.b.andc(hi, 0x3ff);
            (l.offset(lo), l.offset(hi))
        }
    };
    let dst_ok = l.rel_ok(di, dst_off);
    if c.op == Opcode::v_movreld_b32 {
        let v = l.read32(&s)?;
        l.rel_write(di, dst_off, v, dst_ok);
        return Ok(());
    }
    let si = vgpr_index(&s, "source 0")?;
    let sv = l.rel_read(si, src_off);
    if c.op == Opcode::v_swaprel_b32 {
        let src_ok = l.rel_ok(si, src_off);
        let both = l.b.band(src_ok, dst_ok);
        let dv = l.rel_read(di, dst_off);
        l.rel_write(di, dst_off, sv, both);
        l.rel_write(si, src_off, dv, both);
        return Ok(());
    }
    l.rel_write(di, dst_off, sv, dst_ok);
    Ok(())
}
