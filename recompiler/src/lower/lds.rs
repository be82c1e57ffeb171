//! LDS instructions under the wave contract ([`Expr::Mem`] of the LDS): ds_read/write_b32/b64/b96/b128,
//! ds_read2/write2(st64)_b32 and the 32-bit integer atomics with and without return. The
//! address is the ADDR VGPR plus the instruction's offset (offset1:offset0, or for the
//! read2/write2 forms offset0 and offset1 in dwords, times 64 for st64). Active lanes (EXEC)
//! take part in ascending lane order; a 64-bit or two-address form is two dword operations,
//! all lanes' first before any lane's second. An access whose four bytes are not all inside
//! the wave's LDS reads 0 and writes nothing (docs/dataset-format.md, "Wave contract").

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, LdsOp};
use rdnaprobe_isa::layout::Field;

/// The error of an LDS instruction under the lane contract.
const NEEDS_WAVE: &str =
    "LDS: needs the wave contract (give the rows a wave_id and lds_in or lds_bytes column)";

/// What an LDS instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ds {
    /// `dwords` consecutive dwords from ADDR + offset into VDST...
    Read(u16),
    /// `dwords` consecutive dwords of DATA0... to ADDR + offset.
    Write(u16),
    /// ds_read2_b32: two dwords at offset0 and offset1 (dwords x `scale`).
    Read2 { scale: u32 },
    /// ds_write2_b32.
    Write2 { scale: u32 },
    /// A 32-bit atomic; `rtn` returns the old value to VDST.
    Atomic { op: LdsOp, rtn: bool },
}

/// A DS instruction's 16-bit offset (OFFSET1:OFFSET0) and its ADDR, DATA0, DATA1 and VDST.
pub(super) fn fields(c: &Ctx) -> (u32, [u16; 4]) {
    let f = |field| c.inst.field(field);
    (
        f(Field::Offset1) << 8 | f(Field::Offset0),
        [Field::Addr, Field::Data0, Field::Data1, Field::Vdst].map(|x| f(x) as u16),
    )
}

impl Lowerer {
    pub(super) fn lds(&mut self, op: LdsOp, addr: Handle, offset: u32, data: Handle) -> Handle {
        let a = self.b.addc(addr, u64::from(offset));
        let active = match self.exec_bit() {
            Some(e) => e,
            None => self.b.cb(true),
        };
        self.b.push(Expr::lds(op, a, data, active))
    }
}

/// Lowers the DS instruction `c` as `what`.
pub(super) fn ds(l: &mut Lowerer, c: &Ctx, what: Ds) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let (offset, [addr, data0, data1, vdst]) = fields(c);
    let a = l.vgpr_get(addr);
    let zero = l.b.c32(0);
    match what {
        Ds::Read(n) => {
            let vals: Vec<Handle> = (0..n)
                .map(|i| l.lds(LdsOp::Read, a, offset + 4 * u32::from(i), zero))
                .collect();
            for (i, v) in vals.into_iter().enumerate() {
                l.vgpr_set(vdst + i as u16, v);
            }
        }
        Ds::Write(n) => {
            for i in 0..n {
                let d = l.vgpr_get(data0 + i);
                l.lds(LdsOp::Write, a, offset + 4 * u32::from(i), d);
            }
        }
        Ds::Read2 { scale } => {
            let (o0, o1) = (offset & 0xff, offset >> 8);
            let x = l.lds(LdsOp::Read, a, 4 * scale * o0, zero);
            let y = l.lds(LdsOp::Read, a, 4 * scale * o1, zero);
            l.vgpr_set(vdst, x);
            l.vgpr_set(vdst + 1, y);
        }
        Ds::Write2 { scale } => {
            let (o0, o1) = (offset & 0xff, offset >> 8);
            let (d0, d1) = (l.vgpr_get(data0), l.vgpr_get(data1));
            l.lds(LdsOp::Write, a, 4 * scale * o0, d0);
            l.lds(LdsOp::Write, a, 4 * scale * o1, d1);
        }
        Ds::Atomic { op, rtn } => {
            let d = l.vgpr_get(data0);
            let old = l.lds(op, a, offset, d);
            if rtn {
                l.vgpr_set(vdst, old);
            }
        }
    }
    Ok(())
}
