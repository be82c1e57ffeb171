//! The M0-relative VGPR moves (v_movrels/movreld/movrelsd/movrelsd_2/swaprel_b32): a source
//! or destination VGPR at the instruction's register plus an offset from M0.
//!
//! The register file is the wave's VGPR allocation, v0..v255 (the probe template allocates
//! 256); an index past v255 reads v0 and drops its write. An M0 known at lowering time
//! addresses one register. A run-time M0 (under the wave contract M0 may come from an SGPR
//! input or change from one loop iteration to the next) becomes a select over the registers
//! that can hold a value: those the body names anywhere, v4..v25 (the contract's inputs and
//! outputs) and those written so far, from the instruction's register up. Any other register
//! of the allocation reads 0 (it was never written) and a relative write to it is dropped: the
//! one place the model departs from the hardware, which would keep that write for a later
//! relative read. (With a select over all 256 registers the 16-program progfuzz test took
//! 113 s on lavapipe instead of 4 s.) Under the lane contract a scalar built from lane values
//! (a compare mask) holds only this lane's bits, so a non-constant M0 is refused there.

use super::error::{RuleError, RuleResult};
use super::moves::{dst_src, vgpr_index};
use super::operands::Ctx;
use super::Lowerer;
use crate::ir::{Expr, Handle, IntCmp};
use rdnaprobe_isa::operand::code;
use rdnaprobe_isa::{Decoded, Opcode, Target, Wave};

/// VGPRs in the wave's allocation.
const VGPRS: u32 = 256;

/// A register offset from M0.
#[derive(Clone, Copy)]
enum Offset {
    Const(u32),
    Dyn(Handle),
}

/// Whether `op` addresses a VGPR relative to M0.
fn is_relative(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::v_movrels_b32
            | Opcode::v_movreld_b32
            | Opcode::v_movrelsd_b32
            | Opcode::v_movrelsd_2_b32
            | Opcode::v_swaprel_b32
    )
}

/// The VGPRs `body` names in any operand (`vN` and `v[N:M]` in its printed text), sorted;
/// empty for a body without a relative move.
pub(super) fn named_vgprs(body: &[Decoded], wave: Wave) -> Vec<u16> {
    let relative = body.iter().any(|d| match d {
        Decoded::Inst(i) => is_relative(i.info().op()),
        Decoded::Unsupported(_) => false,
    });
    if !relative {
        return Vec::new();
    }
    named_registers(body, wave, 'v', 255)
}

/// The registers of the file whose operands print as `{file}N` or `{file}[N:M]` (`v`, `s`)
/// that `body` names in any operand, up to `last`, sorted.
pub(super) fn named_registers(body: &[Decoded], wave: Wave, file: char, last: u16) -> Vec<u16> {
    let insts = body.iter().filter_map(|d| match d {
        Decoded::Inst(i) => Some(i),
        Decoded::Unsupported(_) => None,
    });
    let mut out = Vec::new();
    for i in insts {
        let text = i.to_llvm_text_for(Target::Gfx1030, wave);
        let ops = text.split_once(' ').map_or("", |(_, o)| o);
        let c: Vec<char> = ops.chars().collect();
        let num = |k: &mut usize| {
            let s = *k;
            while *k < c.len() && c[*k].is_ascii_digit() {
                *k += 1;
            }
            c[s..*k].iter().collect::<String>().parse::<u16>().ok()
        };
        let mut k = 0;
        while k < c.len() {
            let start =
                c[k] == file && (k == 0 || !(c[k - 1].is_alphanumeric() || c[k - 1] == '_'));
            k += 1;
            if !start {
                continue;
            }
            if c.get(k) == Some(&'[') {
                k += 1;
                let lo = num(&mut k);
                k += 1;
                if let (Some(lo), Some(hi)) = (lo, num(&mut k)) {
                    out.extend(lo..=hi.min(last));
                }
            } else if let Some(r) = num(&mut k) {
                if r <= last {
                    out.push(r);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

impl Lowerer {
    /// The registers from `base` up a run-time-M0 access selects over (see the module doc).
    fn candidates(&self, base: u16) -> Vec<u16> {
        let mut rs: Vec<u16> = self.named_vgprs.clone();
        rs.extend(4..=25);
        rs.extend(self.vgpr.keys().copied());
        rs.retain(|&r| r >= base && u32::from(r) < VGPRS);
        rs.sort_unstable();
        rs.dedup();
        rs
    }

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
                // past the allocation: v0; an unnamed, unwritten register: 0
                let ok = self.rel_ok(base, off);
                let v0 = self.vgpr_get(0);
                let zero = self.b.c32(0);
                let mut v = self.b.sel(ok, zero, v0);
                for r in self.candidates(base) {
                    let hit = self.b.eqc(h, u64::from(r - base));
                    let x = self.vgpr_get(r);
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
                for r in self.candidates(base) {
                    let hit = self.b.eqc(h, u64::from(r - base));
                    let hit = self.b.band(hit, ok);
                    let old = self.vgpr_get(r);
                    let nv = self.b.sel(hit, v, old);
                    self.vgpr_set(r, nv);
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
/// Which operands of a VGPR relative move M0 indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum VMovrel {
    /// v_movrels_b32: the source.
    Src,
    /// v_movreld_b32: the destination.
    Dst,
    /// v_movrelsd_b32: both, by M0.
    Both,
    /// v_movrelsd_2_b32: the source by M0[9:0], the destination by M0[25:16].
    Both2,
    /// v_swaprel_b32: swaps the two, indexed as v_movrelsd_2_b32.
    Swap,
}

pub(super) fn movrel(l: &mut Lowerer, c: &Ctx, op: VMovrel) -> RuleResult {
    let (d, s) = dst_src(l, c)?;
    let di = vgpr_index(&d, "the destination")?;
    let m0 = l.sgpr_get(code::M0);
    if !l.wave_contract && !matches!(l.offset(m0), Offset::Const(_)) {
        return Err(RuleError::not_modelled(
            "M0 is not a constant at lowering time (a run-time M0 needs the wave \
                    contract)",
        ));
    }
    let zero = Offset::Const(0);
    let (src_off, dst_off) = match op {
        VMovrel::Src => (l.offset(m0), zero),
        VMovrel::Dst => (zero, l.offset(m0)),
        VMovrel::Both => (l.offset(m0), l.offset(m0)),
        VMovrel::Both2 | VMovrel::Swap => {
            let lo = l.b.andc(m0, 0x3ff);
            let hi = l.b.shrc(m0, 16);
            let hi = l.b.andc(hi, 0x3ff);
            (l.offset(lo), l.offset(hi))
        }
    };
    let dst_ok = l.rel_ok(di, dst_off);
    if op == VMovrel::Dst {
        let v = l.read32(&s)?;
        l.rel_write(di, dst_off, v, dst_ok);
        return Ok(());
    }
    let si = vgpr_index(&s, "source 0")?;
    let sv = l.rel_read(si, src_off);
    if op == VMovrel::Swap {
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
