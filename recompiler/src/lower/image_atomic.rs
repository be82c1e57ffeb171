//! Image atomics (image_atomic_swap .. image_atomic_fmax) under the wave contract: one atomic
//! on the raw bits of the texel the coordinates address, as the buffer atomics of
//! [`super::mem`] do on their dword or qword (the same [`crate::ir::Expr::Mem`] operations,
//! lane order and float atomics rule), at the texel's address of [`super::image::locate`].
//!
//! The width comes from DMASK (rule: image-atomics): 0x1 (0x3 for cmpswap, the data then the
//! compare value) is a 32-bit atomic on a 32_UINT, 32_SINT or 32_FLOAT texel, 0x3 (0xf for
//! cmpswap) a 64-bit one on a 32_32 texel; the number format does not change the operation
//! (the texel's raw bits, as the reference notes' "Image atomics on 32_SINT and 32_FLOAT
//! surfaces" entry gives them). GLC returns the value before the operation to VDATA (two
//! VGPRs for 64 bits). Out of range (rule: image-out-of-range) the atomic writes nothing and
//! returns 0. Refused: other formats and masks, a DIM that differs from the T#'s type, D16,
//! TFE/LWE, and the 64-bit inc, dec and float atomics (not measured: the notes' "64-bit image
//! atomics" entry leaves them out).

use super::error::{RuleError, RuleResult};
use super::image::{dmask_needed, locate};
use super::mem::Vm;
use super::mem_format::Num;
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{LdsOp, Space};
use rdnaprobe_isa::layout::Field;

/// What an image atomic does with the texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ImgAtomic {
    /// An integer operation of [`LdsOp`] (swap is `Write`) on the 32 or 64 bits.
    Int(LdsOp),
    /// The data written where the old value equals the compare value.
    CmpSwap,
    /// fmin (`max` false) or fmax by the float atomics rule (rule: float-atomics).
    FMinMax { max: bool },
    /// The float compare-and-swap (rule: float-cmpswap).
    FCmpSwap,
}

/// image_atomic_*: the texel's old value to VDATA with GLC (rule: image-atomics).
pub(super) fn atomic(l: &mut Lowerer, c: &Ctx, op: ImgAtomic) -> RuleResult {
    let f = |x| c.inst.field(x);
    // atomics only through a DIM equal to the T#'s type: no mismatched pair is measured
    let (m, t, tx) = locate(l, c, false, true, false)?;
    dmask_needed(&m)?;
    if m.d16 {
        return Err(RuleError::not_measured(
            "image: a d16 image atomic is not measured",
        ));
    }
    if f(Field::Tfe) != 0 || f(Field::Lwe) != 0 {
        return Err(RuleError::not_measured(
            "image: TFE or LWE on an image atomic (where its status VGPR goes) is not measured",
        ));
    }
    let cmp = matches!(op, ImgAtomic::CmpSwap | ImgAtomic::FCmpSwap);
    let wide = match (m.dmask, cmp) {
        (0x1, false) | (0x3, true) => false,
        (0x3, false) | (0xf, true) => true,
        (d, _) => {
            return Err(RuleError::not_measured(format!(
                "image: an atomic with DMASK 0x{d:x}: 0x1 (cmpswap 0x3) is a 32-bit atomic and \
                 0x3 (cmpswap 0xf) a 64-bit one; other masks are not measured"
            )))
        }
    };
    let fmt = t.format.fmt;
    let raw32 = fmt.comps.iter().all(|&(_, w)| w == 32)
        && matches!(fmt.num, Num::Uint | Num::Sint | Num::Float)
        && !t.format.srgb;
    let bytes = if wide { 8 } else { 4 };
    if !raw32 || fmt.bytes != bytes {
        return Err(RuleError::not_modelled(format!(
            "image: a {}-bit atomic on a {}-byte texel of {} components: only 32_UINT, 32_SINT \
             and 32_FLOAT (32-bit) or 32_32 (64-bit) texels are modelled",
            8 * bytes,
            fmt.bytes,
            fmt.comps.len()
        )));
    }
    let not_measured = |what: &str| {
        Err(RuleError::not_measured(format!(
            "image: the 64-bit {what} image atomic is not measured"
        )))
    };
    let vm = match (op, wide) {
        (ImgAtomic::Int(o), false) => Vm::Atomic(o),
        (ImgAtomic::Int(LdsOp::Inc), true) => return not_measured("inc"),
        (ImgAtomic::Int(LdsOp::Dec), true) => return not_measured("dec"),
        (ImgAtomic::Int(o), true) => Vm::atomic64(o),
        (ImgAtomic::CmpSwap, false) => Vm::CmpSwap,
        (ImgAtomic::CmpSwap, true) => Vm::cmpswap64(),
        (ImgAtomic::FMinMax { max }, false) => Vm::FloatAtomic { max },
        (ImgAtomic::FCmpSwap, false) => Vm::fcmpswap(false),
        (ImgAtomic::FMinMax { .. } | ImgAtomic::FCmpSwap, true) => return not_measured("float"),
    };
    let glc = f(Field::Glc) != 0;
    l.vmem(vm, [m.vdata, m.vdata], glc, Space::Region, &mut |l, k| {
        (l.b.addc(tx.addr, u64::from(k)), Some(tx.ok))
    });
    Ok(())
}
