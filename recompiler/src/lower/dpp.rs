//! DPP16 and DPP8 forms of VOP1/VOP2/VOPC instructions under the wave contract: src0 is read
//! from another lane of the wave ([`Expr::WaveRead`](crate::ir::Expr::WaveRead)), then the
//! instruction's own lowering runs on that value.
//!
//! DPP16 (gfx10 controls; RDNA2 ISA 6.2.2 "DPP"): lane `j` of its row of 16 reads
//! - `quad_perm` (0x000..0x0ff): lane `4 * (j / 4) + sel[j % 4]` of the row;
//! - `row_shl:n` (0x101..0x10f): `j + n`, `row_shr:n` (0x111..0x11f): `j - n`, invalid when
//!   outside the row; `row_ror:n` (0x121..0x12f): `(j - n) % 16`;
//! - `row_mirror` (0x140): `15 - j`; `row_half_mirror` (0x141): `7 - j` within each half row;
//! - `row_share:n` (0x150..0x15f): `n`; `row_xmask:n` (0x160..0x16f): `j ^ n`.
//!
//! The other codes (the gfx9 wave shifts and broadcasts among them) are illegal on gfx10.
//! A source lane that is invalid, or inactive in EXEC without fetch-inactive (FI), gives 0
//! with `bound_ctrl` set and otherwise leaves the lane's destination unwritten. Lanes whose row
//! (`row_mask`, rows of 16) or bank (`bank_mask`, lanes `4b..4b+3` of each row) is masked off
//! are not written either. DPP8: lane `i` reads lane `8 * (i / 8) + sel[i % 8]`; without FI an
//! inactive source lane gives 0 (an unmeasured choice: the ISA guide says only that FI fetches
//! inactive lanes).
//!
//! "Not written" is done by ANDing EXEC with the wave's ballot of the lanes that write, for
//! the one instruction, so that lane masks it writes (VOPC, carries) follow EXEC as usual.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Handle, IntBin, IntCmp};
use rdnaprobe_isa::operand::code;
use rdnaprobe_isa::{Encoding, Operand, Reg, RegKind, Wave};

/// Where the permuted src0 lives while the instruction's lowering runs: past the 256 VGPRs
/// an encoding can name.
const DPP_SRC0: u16 = 0x4000;

/// Where lane `lane` reads from under a DPP16 control, and whether that lane exists.
/// `None`: the control is illegal on gfx10.
fn dpp16_source(l: &mut Lowerer, ctrl: u16) -> Option<(Handle, Handle)> {
    let b = &mut l.b;
    let lane = l.lane;
    let row = b.andc(lane, !15u32 as u64);
    let j = b.andc(lane, 15);
    let yes = b.cb(true);
    let in_row = |b: &mut crate::builder::Builder, k: Handle| {
        let from = b.or(row, k);
        (from, yes)
    };
    Some(match ctrl {
        0x000..=0x0ff => {
            let q = b.andc(j, 3);
            let sh = b.shlc(q, 1);
            let c = b.c32(u32::from(ctrl));
            let sel = b.ib(IntBin::ShrU, c, sh);
            let sel = b.andc(sel, 3);
            let base = b.andc(j, 12);
            let k = b.or(base, sel);
            in_row(b, k)
        }
        0x101..=0x10f | 0x111..=0x11f => {
            let n = u64::from(ctrl & 15);
            let k = if ctrl < 0x110 {
                b.addc(j, n)
            } else {
                let c = b.c32(n as u32);
                b.sub(j, c)
            };
            // out of the row: above 15 (a wrapped subtraction is huge)
            let valid = b.icmpc(IntCmp::LeU, k, 15);
            let k = b.andc(k, 15);
            let from = b.or(row, k);
            (from, valid)
        }
        0x121..=0x12f => {
            let c = b.c32(u32::from(ctrl & 15));
            let k = b.sub(j, c);
            let k = b.andc(k, 15);
            in_row(b, k)
        }
        0x140 => {
            let k = b.xorc(j, 15);
            in_row(b, k)
        }
        0x141 => {
            let k = b.xorc(j, 7);
            in_row(b, k)
        }
        0x150..=0x15f => {
            let k = b.c32(u32::from(ctrl & 15));
            in_row(b, k)
        }
        0x160..=0x16f => {
            let k = b.xorc(j, u64::from(ctrl & 15));
            in_row(b, k)
        }
        _ => return None,
    })
}

/// Bit `lane` (a per-lane `U32` below the wave size) of EXEC.
fn exec_bit_of(l: &mut Lowerer, lane: Handle) -> Handle {
    let e = l.exec64();
    let lane64 = l.b.zext(lane);
    let s = l.b.ib(IntBin::ShrU, e, lane64);
    let one = l.b.c64(1);
    let bit = l.b.and(s, one);
    l.b.nec(bit, 0)
}

impl Lowerer {
    /// Lowers a DPP16/DPP8 instruction with `f`, the lowering of its opcode.
    pub(super) fn dpp(&mut self, c: &Ctx, f: super::dispatch::LowerFn) -> RuleResult {
        if !self.wave_contract {
            return Err(RuleError::modifier(
                "DPP reads other lanes: needs the wave contract (give the rows a wave_id column)",
            ));
        }
        let Some(Operand::Reg(src0)) = c.srcs.first().copied() else {
            return Err(RuleError::operand("DPP without a VGPR src0"));
        };
        if src0.kind != RegKind::Vgpr {
            return Err(RuleError::operand("DPP src0 is not a VGPR"));
        }
        let (from, valid, fi, bound_ctrl, row_mask, bank_mask) = match c.enc {
            Encoding::DPP16 => {
                let d = c
                    .mods
                    .dpp
                    .ok_or(RuleError::operand("DPP16 without its fields"))?;
                let (from, valid) = dpp16_source(self, d.dpp_ctrl).ok_or_else(|| {
                    RuleError::operand(format!("dpp_ctrl {:#x} is illegal on gfx10", d.dpp_ctrl))
                })?;
                (from, valid, d.fi, d.bound_ctrl, d.row_mask, d.bank_mask)
            }
            _ => {
                let (sel, fi) = c
                    .mods
                    .dpp8
                    .ok_or(RuleError::operand("DPP8 without its lane selects"))?;
                let packed = sel
                    .iter()
                    .enumerate()
                    .fold(0u32, |acc, (i, s)| acc | u32::from(*s) << (3 * i));
                let b = &mut self.b;
                let i = b.andc(self.lane, 7);
                let three = b.c32(3);
                let sh = b.ib(IntBin::Mul, i, three);
                let word = b.c32(packed);
                let s = b.ib(IntBin::ShrU, word, sh);
                let s = b.andc(s, 7);
                let base = b.andc(self.lane, !7u32 as u64);
                let from = b.or(base, s);
                let yes = b.cb(true);
                // DPP8: an inactive source without FI reads 0 (see the module docs).
                (from, yes, fi, true, 0xf, 0xf)
            }
        };
        // Whether the source gives data, and whether the lane writes at all.
        let fetched = if fi {
            valid
        } else {
            let active = exec_bit_of(self, from);
            self.b.band(valid, active)
        };
        let mut writes = if bound_ctrl { self.b.cb(true) } else { fetched };
        let b = &mut self.b;
        if row_mask & 0xf != 0xf {
            let r = b.shrc(self.lane, 4);
            let m = b.c32(u32::from(row_mask));
            let bit = b.ib(IntBin::ShrU, m, r);
            let on = b.bit(bit, 1);
            writes = b.band(writes, on);
        }
        if bank_mask & 0xf != 0xf {
            let bank = b.shrc(self.lane, 2);
            let bank = b.andc(bank, 3);
            let m = b.c32(u32::from(bank_mask));
            let bit = b.ib(IntBin::ShrU, m, bank);
            let on = b.bit(bit, 1);
            writes = b.band(writes, on);
        }
        // src0, read from `from` (0 where nothing is fetched), into shadow registers that no
        // instruction can name: the instruction's own src0 operand is redirected there, so a
        // src1 naming the same VGPR reads this lane's value, and a destination equal to src0
        // is written as any destination is.
        let dwords = src0.count.max(1);
        for i in 0..u16::from(dwords) {
            let v = self.vgpr_get(src0.index + i);
            let got = self.wave_read(v, from);
            let zero = self.b.c32(0);
            let got = self.b.sel(fetched, got, zero);
            self.vgpr_put(DPP_SRC0 + i, got);
        }
        let mut srcs = c.srcs.clone();
        srcs[0] = Operand::Reg(Reg {
            index: DPP_SRC0,
            ..src0
        });
        let shadow = Ctx {
            inst: c.inst,
            op: c.op,
            srcs,
            mods: c.mods,
            enc: c.enc,
        };
        // EXEC for this one instruction: the lanes that write.
        let exec_before = (self.sgpr_get(code::EXEC_LO), self.sgpr_get(code::EXEC_HI));
        let mask = self.ballot_dwords(writes);
        let lo = self.b.and(exec_before.0, mask[0]);
        self.sgpr_init(code::EXEC_LO, lo);
        if self.wave == Wave::W64 {
            let hi = self.b.and(exec_before.1, mask[1]);
            self.sgpr_init(code::EXEC_HI, hi);
        }
        let r = f(self, &shadow);
        // Restore EXEC unless the instruction wrote it (v_cmpx).
        if self.sgpr_get(code::EXEC_LO) == lo {
            self.sgpr_init(code::EXEC_LO, exec_before.0);
            self.sgpr_init(code::EXEC_HI, exec_before.1);
        }
        for i in 0..u16::from(dwords) {
            self.vgpr.remove(&(DPP_SRC0 + i));
        }
        r
    }
}
