//! Output types for the diff: the value type of each lane-contract output dword (v10..v25) after
//! a body runs, from the table's result types and the last writer of each VGPR.

use crate::decode::{decode_stream, Decoded, Encoding, Instruction};
use crate::layout::Field;
use crate::opcode::Opcode;
use crate::operand::{Operand, RegKind};
use crate::table::{Family, OpInfo, ValueType};
use crate::Wave;

pub use rdnaprobe_contract::DwordType;

/// Types of the output dwords v10..v25 after `body`. Undecodable bodies give all Unknown.
pub fn output_types(body: &[u32]) -> [DwordType; 16] {
    let mut regs = [DwordType::Unknown; 256];
    if let Ok(items) = decode_stream(body) {
        for d in items {
            if let Decoded::Inst(i) = d {
                apply(&i, &mut regs);
            }
        }
    }
    let mut out = [DwordType::Unknown; 16];
    out.copy_from_slice(&regs[10..26]);
    out
}

fn vgpr_of(op: &Operand) -> Option<(usize, usize)> {
    match op {
        Operand::Reg(r) if r.kind == RegKind::Vgpr => Some((r.index as usize, r.count as usize)),
        _ => None,
    }
}

fn set(regs: &mut [DwordType; 256], at: usize, t: DwordType) {
    if let Some(r) = regs.get_mut(at) {
        *r = t;
    }
}

fn apply(i: &Instruction, regs: &mut [DwordType; 256]) {
    let info = i.info();
    let dsts = i.dsts(Wave::W32);
    let Some((d, n)) = dsts.first().and_then(vgpr_of) else {
        // Memory and other writers of VGPRs: their data has no arithmetic type here.
        if !info.family.is_valu()
            && !matches!(
                info.family,
                Family::SOP1
                    | Family::SOP2
                    | Family::SOPK
                    | Family::SOPC
                    | Family::SOPP
                    | Family::SMEM
            )
        {
            for f in [Field::Vdst, Field::Vdata] {
                let v = i.field(f) as usize;
                if v != 0 || f == Field::Vdst {
                    set(regs, v, DwordType::Unknown);
                }
            }
        }
        return;
    };
    let srcs = i.srcs(Wave::W32);
    let op = info.op();
    // Copies keep the source's type.
    if matches!(op, Opcode::v_mov_b32 | Opcode::v_cndmask_b32) {
        let from = |op: &Operand| vgpr_of(op).map(|(s, _)| regs[s]);
        let t = if op == Opcode::v_mov_b32 {
            from(&srcs[0]).unwrap_or(DwordType::Int)
        } else {
            match (srcs.first().and_then(from), srcs.get(1).and_then(from)) {
                (Some(a), Some(b)) if a == b => a,
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => DwordType::Int,
                _ => DwordType::Unknown,
            }
        };
        set(regs, d, t);
        return;
    }
    if op == Opcode::v_swap_b32 {
        if let Some((s, _)) = srcs.first().and_then(vgpr_of) {
            regs.swap(d, s);
        }
        return;
    }
    let high = match i.encoding() {
        Encoding::VOP3 => i.modifiers().op_sel & 8 != 0,
        Encoding::SDWA => i.modifiers().sdwa.is_some_and(|s| s.dst_sel == 5),
        _ => false,
    } || writes_high_half(info);
    match result_dwords(info.result, high) {
        (lo, Some(hi)) => {
            set(regs, d, lo);
            set(regs, d + 1, hi);
        }
        (t, None) => {
            for k in 0..n.max(1) {
                set(regs, d + k, if k == 0 { t } else { DwordType::Unknown });
            }
        }
    }
}

/// An instruction whose 16-bit result always goes to bits 31:16.
fn writes_high_half(info: &OpInfo) -> bool {
    info.op() == Opcode::v_fma_mixhi_f16
}

/// The dword type(s) of a result of value type `result`: the first dword's, and the second's
/// for a 64-bit result. `high`: a 16-bit result lands in bits 31:16.
fn result_dwords(result: ValueType, high: bool) -> (DwordType, Option<DwordType>) {
    let t = match result {
        ValueType::F32 => DwordType::F32,
        ValueType::F16 if high => DwordType::F16Hi,
        ValueType::F16 => DwordType::F16Lo,
        ValueType::PackedF16 => DwordType::PackedF16,
        ValueType::I16 | ValueType::U16 | ValueType::B16 => DwordType::Int16Lo,
        ValueType::F64 => return (DwordType::F64Lo, Some(DwordType::F64Hi)),
        ValueType::I64 | ValueType::U64 | ValueType::B64 => {
            return (DwordType::Int64Lo, Some(DwordType::Int64Hi))
        }
        ValueType::LaneMask => DwordType::LaneMask,
        ValueType::Untyped => DwordType::Unknown,
        _ => DwordType::Int,
    };
    (t, None)
}

/// Types of the output dwords when `info`'s result lands in v10 (out0, and out1 for a 64-bit
/// result): what a row that names its instruction but carries no words holds, from the table's
/// result type.
pub fn result_types(info: &OpInfo) -> [DwordType; 16] {
    let mut out = [DwordType::Unknown; 16];
    let (lo, hi) = result_dwords(info.result, writes_high_half(info));
    out[0] = lo;
    if let Some(hi) = hi {
        out[1] = hi;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_follow_the_last_writer() {
        // v_fma_f64 v[12:13] ...; v_mov_b32 v10, v12; v_mov_b32 v11, v13 (f64_fma_divfmas rows)
        let t = output_types(&[0xd54c000c, 0x04220d04, 0x7e14030c, 0x7e16030d]);
        assert_eq!(t[0], DwordType::F64Lo);
        assert_eq!(t[1], DwordType::F64Hi);
        assert_eq!(t[2], DwordType::F64Lo);
        assert_eq!(t[4], DwordType::Unknown);
        // v_mov_b32 v10, literal; v_cvt_f16_f32 v10, v4: f16 keeping the high half.
        let t = output_types(&[0x7e1402ff, 0xabcdabcd, 0x7e141504]);
        assert_eq!(t[0], DwordType::F16Lo);
        // v_div_scale_f32 v10, s20 ...; v_cndmask_b32 v11, 0, 1, s20
        let t = output_types(&[0xd56d140a, 0x041a0b04, 0xd501000b, 0x00510280]);
        assert_eq!(t[0], DwordType::F32);
        assert_eq!(t[1], DwordType::Int);
        // v_add_f16_sdwa v18 dst_sel:WORD_1; v_mov_b32 v10, v18
        let t = output_types(&[0x64240af9, 0x04041504, 0x7e140312]);
        assert_eq!(t[0], DwordType::F16Hi);
        // v_pk_fma_f16 v10 ...
        let t = output_types(&[0xcc0e400a, 0x1c1a0b04]);
        assert_eq!(t[0], DwordType::PackedF16);
    }

    #[test]
    fn result_types_read_the_table() {
        let of = |m: &str| result_types(crate::table::lookup_name(m)[0]);
        assert_eq!(of("v_add_f32")[0], DwordType::F32);
        assert_eq!(
            of("v_fma_f64")[..3],
            [DwordType::F64Lo, DwordType::F64Hi, DwordType::Unknown]
        );
        assert_eq!(of("v_fma_mixhi_f16")[0], DwordType::F16Hi);
        assert_eq!(of("v_pk_fma_f16")[0], DwordType::PackedF16);
        assert_eq!(of("v_cvt_i32_f32")[0], DwordType::Int);
        assert_eq!(of("v_interp_p2_f16")[0], DwordType::F16Lo);
        assert_eq!(of("v_interp_p1ll_f16")[0], DwordType::F32);
        assert_eq!(of("v_interp_p1lv_f16")[0], DwordType::F32);
        assert_eq!(of("v_cmp_eq_f32")[0], DwordType::LaneMask);
    }
}
