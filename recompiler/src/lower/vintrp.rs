//! Parameter interpolation under the wave contract: v_interp_p1/p2/mov_f32 (VINTRP and their
//! VOP3 `_e64` forms) and the VOP3 v_interp_p1ll_f16, v_interp_p1lv_f16 and v_interp_p2_f16.
//!
//! A pixel wave finds its primitives' parameters (P0, P10 = P1 - P0, P20 = P2 - P0 of each
//! attribute channel) in LDS, where the rasteriser put them; here the wave's `lds_in` region
//! holds them. M0 is `{1'b0, new_prim_mask[15:1], lds_param_offset[15:0]}` (RDNA2 ISA,
//! "Parameter Interpolation"): bit 15 + q set says quad q (1..15) starts a new primitive, so
//! quad q uses primitive `prim = popcount(new_prim_mask[q:1])` and the wave holds
//! `n = 1 + popcount(new_prim_mask[quads-1:1])` primitives. Channel `chan` of parameter `k`
//! (0 P0, 1 P10, 2 P20) of attribute `attr` is the dword at byte
//! `lds_param_offset + 4 * ((attr * n + prim) * 12 + 4 * k + chan)` (the address formula of the
//! RDNA3 ISA guide's LDS_PARAM_LOAD, 12 dwords per attribute and primitive). A read outside
//! the wave's LDS gives 0, as every LDS read of the wave contract does.

use super::arithmetic::{arith, Arith};
use super::error::{RuleError, RuleResult};
use super::interp16::{interp_f16, InterpStep};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::Fmt;
use crate::ir::{Expr, Handle, IntBin, IntUn, LdsOp};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::code;
use rdnaprobe_isa::{Encoding, Wave};

/// The error of an interpolation under the lane contract.
const NEEDS_WAVE: &str = "interpolation: needs the wave contract (give the rows a wave_id and \
     lds_in column holding the parameters, docs/dataset-format.md)";

/// Which parameter of an attribute channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Param {
    P0 = 0,
    P10 = 1,
    P20 = 2,
}

/// The operands of one interpolation instruction.
struct Fields {
    attr: u32,
    chan: u32,
    /// The `high` bit of the f16 forms (src0 bit 8): the upper 16 bits of the parameter dword
    /// and of v_interp_p1lv_f16's S2.
    high: bool,
    vdst: u16,
    /// src1: the barycentric VGPR, or the parameter code of v_interp_mov_f32.
    src1: u32,
    /// src2 (VOP3 f16 forms).
    src2: u32,
}

fn fields(l: &Lowerer, c: &Ctx) -> RuleResult<Fields> {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let i = c.inst;
    if c.enc == Encoding::VINTRP {
        return Ok(Fields {
            attr: i.field(Field::Attr),
            chan: i.field(Field::AttrChan),
            high: false,
            vdst: i.field(Field::Vdst) as u16,
            src1: i.field(Field::Vsrc),
            src2: 0,
        });
    }
    // VOP3: src0 is {high[8], chan[7:6], attr[5:0]}; LLVM neither prints nor accepts op_sel
    // or modifiers on it for these opcodes
    if c.mods.op_sel != 0 {
        return Err(RuleError::modifier(
            "interpolation: op_sel is not part of these opcodes (llvm-mc)",
        ));
    }
    if c.mods.neg[0] || c.mods.abs[0] {
        return Err(RuleError::modifier(
            "interpolation: a modifier on the attribute operand",
        ));
    }
    let s0 = i.field(Field::Src0);
    Ok(Fields {
        attr: s0 & 0x3f,
        chan: (s0 >> 6) & 3,
        high: s0 & 0x100 != 0,
        vdst: i.field(Field::Vdst) as u16,
        src1: i.field(Field::Src1),
        src2: i.field(Field::Src2),
    })
}

impl Lowerer {
    /// Parameter `p` of channel `chan` of attribute `attr` for this lane's quad: a read of the
    /// wave's LDS at the address M0 gives.
    // rule: interp-params
    fn interp_param(&mut self, attr: u32, chan: u32, p: Param) -> Handle {
        let m0 = self.sgpr_get(code::M0);
        let quads = if self.wave == Wave::W64 { 16 } else { 8 };
        let b = &mut self.b;
        let offset = b.andc(m0, 0xffff);
        // new_prim_mask[15:1] as bits 14:0: bit q - 1 is quad q
        let mask = b.shrc(m0, 16);
        let mask = b.andc(mask, 0x7fff);
        let quad = b.shrc(self.lane, 2);
        let one = b.c32(1);
        let below = b.ib(IntBin::Shl, one, quad);
        let below = b.addc(below, u64::from(u32::MAX));
        let mine = b.and(mask, below);
        let prim = b.iu(IntUn::Popcount, mine);
        let wave_mask = b.andc(mask, (1u64 << (quads - 1)) - 1);
        let n = b.iu(IntUn::Popcount, wave_mask);
        let n = b.addc(n, 1);
        let a = b.c32(attr);
        let slot = b.ib(IntBin::Mul, a, n);
        let slot = b.add(slot, prim);
        let twelve = b.c32(12);
        let dw = b.ib(IntBin::Mul, slot, twelve);
        let dw = b.addc(dw, u64::from(4 * p as u32 + chan));
        let bytes = b.shlc(dw, 2);
        let addr = b.add(offset, bytes);
        let zero = b.c32(0);
        let active = b.cb(true);
        b.push(Expr::lds(LdsOp::Read, addr, zero, active))
    }

    /// A VGPR source given by its 9-bit source code (VOP3) or 8-bit VGPR number (VINTRP).
    /// With `fmt`, source `i`'s abs/neg modifiers apply in that format.
    fn interp_vgpr(
        &mut self,
        c: &Ctx,
        code: u32,
        i: usize,
        fmt: Option<Fmt>,
    ) -> RuleResult<Handle> {
        let r = if c.enc == Encoding::VINTRP {
            code
        } else if code >= 256 {
            code - 256
        } else {
            return Err(RuleError::operand(format!(
                "interpolation: source {i} is not a VGPR"
            )));
        };
        let v = self.vgpr_get(r as u16);
        Ok(match fmt {
            Some(fmt) => self.apply_absneg(fmt, v, c, i),
            None => v,
        })
    }
}

/// v_interp_p1_f32, v_interp_p2_f32 and v_interp_mov_f32, VINTRP or VOP3: p1 = P10 * I + P0
/// and p2 = P20 * J + D, each computed exactly and rounded once as v_fma_f32 is; mov = P0,
/// P10 or P20 unchanged.
// rule: interp-f32
/// The step of an f32 interpolation ([`interp_f32`]); the VINTRP and VOP3 encodings share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum InterpF32 {
    P1,
    P2,
    Mov,
}

pub(super) fn interp_f32(l: &mut Lowerer, c: &Ctx, step: InterpF32) -> RuleResult {
    let f = fields(l, c)?;
    let r = if step == InterpF32::Mov {
        let p = match f.src1 {
            0 => Param::P10,
            1 => Param::P20,
            2 => Param::P0,
            n => {
                return Err(RuleError::operand(format!(
                    "interpolation: invalid parameter {n} of v_interp_mov_f32"
                )))
            }
        };
        l.interp_param(f.attr, f.chan, p)
    } else {
        let coord = l.interp_vgpr(c, f.src1, 1, Some(Fmt::F32))?;
        let (delta, base) = if step == InterpF32::P1 {
            let d = l.interp_param(f.attr, f.chan, Param::P10);
            (d, l.interp_param(f.attr, f.chan, Param::P0))
        } else {
            let d = l.interp_param(f.attr, f.chan, Param::P20);
            (d, l.vgpr_get(f.vdst))
        };
        let (round, ieee) = (l.mode.round32(), l.mode.ieee);
        let (fi, fo) = (l.flush_in32(), l.flush_out32());
        let srcs = [delta, coord, base];
        arith(&mut l.b, Fmt::F32, Arith::Fma, &srcs, round, fi, fo, ieee)
    };
    let r = if c.enc == Encoding::VINTRP {
        r
    } else {
        l.f32_result(c, r)
    };
    l.vgpr_set(f.vdst, r);
    Ok(())
}

/// The f16 half of a parameter dword or VGPR as exact f32 bits.
fn half(l: &mut Lowerer, v: Handle, high: bool) -> Handle {
    let h = if high { l.b.shrc(v, 16) } else { v };
    l.b.f16_to_f32_bits(h)
}

/// v_interp_p1ll_f16 (P10 * I + P0, both parameters f16 halves from LDS),
/// v_interp_p1lv_f16 (P10 * I + S2, S2's f16 half from a VGPR) and v_interp_p2_f16
/// (P20 * J + S2 with an f32 S2, an f16 result in the low half). `high` selects the upper 16
/// bits of the parameter dword and of p1lv's S2 (RDNA2 ISA, VOP3 interpolation).
// rule: interp-f16
/// The f16 interpolation ops of [`interp_f16_op`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum InterpF16 {
    /// v_interp_p1ll_f16: both parameters from LDS.
    P1ll,
    /// v_interp_p1lv_f16: S2 from a VGPR.
    P1lv,
    P2,
}

pub(super) fn interp_f16_op(l: &mut Lowerer, c: &Ctx, op: InterpF16) -> RuleResult {
    let f = fields(l, c)?;
    let coord = l.interp_vgpr(c, f.src1, 1, Some(Fmt::F32))?;
    let mode = l.mode;
    match op {
        InterpF16::P1ll | InterpF16::P1lv => {
            let d = l.interp_param(f.attr, f.chan, Param::P10);
            let delta = half(l, d, f.high);
            let base = if op == InterpF16::P1ll {
                let p0 = l.interp_param(f.attr, f.chan, Param::P0);
                half(l, p0, f.high)
            } else {
                let s2 = l.interp_vgpr(c, f.src2, 2, None)?;
                let h = if f.high { l.b.shrc(s2, 16) } else { s2 };
                let h = l.b.andc(h, 0xffff);
                let h = l.apply_absneg(Fmt::F16, h, c, 2);
                l.b.f16_to_f32_bits(h)
            };
            let r = interp_f16(&mut l.b, InterpStep::P1, mode, delta, coord, base);
            let r = l.f32_result(c, r);
            l.vgpr_set(f.vdst, r);
            Ok(())
        }
        InterpF16::P2 => {
            let d = l.interp_param(f.attr, f.chan, Param::P20);
            let delta = half(l, d, f.high);
            let base = l.interp_vgpr(c, f.src2, 2, Some(Fmt::F32))?;
            let r = interp_f16(&mut l.b, InterpStep::P2, mode, delta, coord, base);
            let r = l.f16_result(c, r);
            l.write16(c, r)
        }
    }
}
