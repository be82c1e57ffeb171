//! SMEM loads under the wave contract (`s_load_dword*`, `s_buffer_load_dword*`) from the
//! wave's memory region: `s_load`: `(s[sbase:sbase+1] + sext(offset21) + s[soffset]) & ~3`;
//! `s_buffer_load`: `(base & ~3) + (offset & ~3)` (measured on gfx1035, the notes' "V# bases
//! off a DWORD boundary"), each dword out of range (0) when its offset >= num_records (x
//! stride when stride is not 0). An `s_load` from memory no wave writes while the kernel runs
//! (a dispatch's kernarg segment and constant buffers, `lower_program_words`) at an address
//! known when lowering is the words that memory holds.

use super::error::{RuleError, RuleResult};
use super::mem::{sext, NEEDS_WAVE};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, IntBin, IntCmp, LdsOp, Space};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::code;

/// SMEM loads of `n` dwords; `buffer`: through the V# at s[sbase:sbase+3], from
/// `(base & ~3) + (offset & ~3)` (rule: buffer-exact-bytes).
pub(super) fn smem(l: &mut Lowerer, c: &Ctx, n: u16, buffer: bool) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let f = |field| c.inst.field(field);
    // SBASE names an SGPR pair: s[2 * SBASE .. 2 * SBASE + 1]
    let sbase = (f(Field::Sbase) * 2) as u16;
    let [sdata, soffset] = [Field::Sdata, Field::Soffset].map(|x| f(x) as u16);
    if sdata + n > code::SGPRS || sbase + if buffer { 4 } else { 2 } > code::SGPRS {
        return Err(RuleError::not_modelled("memory: SMEM registers past s105"));
    }
    let s = l.scalar_src(soffset)?;
    let imm = sext(f(Field::Offset), 21);
    let lo = l.sgpr_get(sbase);
    let hi = l.sgpr_get(sbase + 1);
    let zero = l.b.c32(0);
    let all = l.b.cb(true);
    let vals: Vec<Handle> = if buffer {
        let b = &mut l.b;
        let hi16 = b.andc(hi, 0xffff);
        let base = b.pack64(lo, hi16);
        let base = b.andc(base, !3);
        let stride = b.shrc(hi, 16);
        let stride = b.andc(stride, 0x3fff);
        let records = l.sgpr_get(sbase + 2);
        let b = &mut l.b;
        let scaled = b.ib(IntBin::Mul, records, stride);
        let raw = b.eqc(stride, 0);
        let limit = b.sel(raw, records, scaled);
        let off = b.addc(s, imm & 0xffff_ffff);
        let off = b.andc(off, !3);
        (0..n)
            .map(|i| {
                let b = &mut l.b;
                let o = b.addc(off, 4 * u64::from(i));
                let ok = b.icmp(IntCmp::LtU, o, limit);
                let o64 = b.zext(o);
                let a = b.add(base, o64);
                l.b.push(Expr::Mem {
                    space: Space::Region,
                    op: LdsOp::Read,
                    bytes: 4,
                    addr: a,
                    data: zero,
                    data2: None,
                    cmp: None,
                    active: ok,
                })
            })
            .collect()
    } else {
        let b = &mut l.b;
        let base = b.pack64(lo, hi);
        let s64 = b.zext(s);
        let a = b.add(base, s64);
        let a = b.addc(a, imm);
        let a = b.andc(a, !3);
        // read-only memory at a known address: its words (see `lower_program_words`)
        let known = l.b.known(a);
        (0..n)
            .map(|i| {
                let folded =
                    known.and_then(|a| l.read_only_dword(a.wrapping_add(4 * u64::from(i))));
                if let Some(w) = folded {
                    return l.b.c32(w);
                }
                let addr = l.b.addc(a, 4 * u64::from(i));
                l.b.push(Expr::Mem {
                    space: Space::Region,
                    op: LdsOp::Read,
                    bytes: 4,
                    addr,
                    data: zero,
                    data2: None,
                    cmp: None,
                    active: all,
                })
            })
            .collect()
    };
    for (i, v) in vals.into_iter().enumerate() {
        l.sgpr_init(sdata + i as u16, v);
    }
    Ok(())
}
