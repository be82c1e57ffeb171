//! The bits of the LDS operations of [`Expr::LdsWide`](crate::ir::Expr::LdsWide): the
//! two-operand atomics (mskor, cmpst, wrap, condxchg32), ds_add_f32 and the float atomics
//! rule on f64 (the reference notes' "LDS float atomics" entry); the one-operand integer ops
//! are [`crate::wave::lds_apply`]'s and [`crate::wave::lds_apply64`]'s.

use crate::ir::LdsOp;
use crate::wave::{lds_apply, lds_apply64};

/// The message of a wave that a 64-bit LDS atomic faulted (rule: lds-atomic64).
pub const LDS_FAULT: &str =
    "fault: a 64-bit LDS atomic at an address that is not a multiple of 8 (the hardware faults the wave)";

/// The value a wide LDS operation leaves at its address: `op` on the `old` bytes with `data`
/// and `data2` (all zero-extended to 64 bits; `bytes` 8 is a 64-bit operation, the others
/// 32-bit ones cut to the low `bytes` bytes).
pub fn lds_apply_wide(op: LdsOp, bytes: u8, old: u64, data: u64, data2: u64) -> u64 {
    if bytes == 8 {
        return match op {
            LdsOp::MskOr => (old & !data) | data2,
            LdsOp::Cmpst => {
                if old == data {
                    data2
                } else {
                    old
                }
            }
            LdsOp::FCmpst { flush } => fcmpst(F64, old, data, data2, flush),
            LdsOp::FMin { flush } => float_atomic(F64, old, data, flush, false),
            LdsOp::FMax { flush } => float_atomic(F64, old, data, flush, true),
            LdsOp::CondXchg => {
                let half = |o: u64, d: u64| {
                    if d & 0x8000_0000 != 0 {
                        d & 0x7fff_ffff
                    } else {
                        o
                    }
                };
                let lo = half(old & 0xffff_ffff, data & 0xffff_ffff);
                let hi = half(old >> 32, data >> 32);
                lo | hi << 32
            }
            LdsOp::Wrap | LdsOp::FAdd { .. } => old,
            _ => lds_apply64(op, old, data),
        };
    }
    let (o, d, d2) = (old as u32, data as u32, data2 as u32);
    let new = match op {
        LdsOp::MskOr => (o & !d) | d2,
        LdsOp::Cmpst => {
            if o == d {
                d2
            } else {
                o
            }
        }
        LdsOp::FCmpst { flush } => {
            fcmpst(F32, u64::from(o), u64::from(d), u64::from(d2), flush) as u32
        }
        LdsOp::Wrap => {
            if o >= d {
                o.wrapping_sub(d)
            } else {
                o.wrapping_add(d2)
            }
        }
        LdsOp::FAdd { flush } => fadd32(o, d, flush),
        LdsOp::CondXchg => o,
        _ => lds_apply(op, o, d),
    };
    u64::from(new & width_mask(bytes))
}

/// The low `bytes` bytes of a dword.
pub fn width_mask(bytes: u8) -> u32 {
    match bytes {
        1 => 0xff,
        2 => 0xffff,
        _ => u32::MAX,
    }
}

/// One lane's [`Expr::LdsWide`](crate::ir::Expr::LdsWide) on the LDS bytes `lds`: the old
/// bytes, or `Err` when the access faults the wave (rule: lds-atomic64).
pub(crate) fn wide_access(
    lds: &mut [u8],
    op: LdsOp,
    n: u8,
    a: u32,
    [d, d2]: [u64; 2],
) -> Result<u64, ()> {
    // An LDS too small for 8 bytes has every 8-byte access out of range (the SPIR-V module
    // has no room for one either).
    if n == 8 && a % 8 != 0 && lds.len() >= 8 {
        return Err(());
    }
    let (a, n) = (a as usize, usize::from(n));
    if a.checked_add(n).is_none_or(|end| end > lds.len()) {
        return Ok(0);
    }
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&lds[a..a + n]);
    let old = u64::from_le_bytes(b);
    if op != LdsOp::Read {
        let new = lds_apply_wide(op, n as u8, old, d, d2);
        lds[a..a + n].copy_from_slice(&new.to_le_bytes()[..n]);
    }
    Ok(old)
}

/// A float format's bit fields.
#[derive(Clone, Copy)]
pub struct FloatBits {
    pub exp: u64,
    pub sign: u64,
    pub quiet: u64,
}

pub const F32: FloatBits = FloatBits {
    exp: 0x7f80_0000,
    sign: 0x8000_0000,
    quiet: 0x0040_0000,
};
pub const F64: FloatBits = FloatBits {
    exp: 0x7ff0_0000_0000_0000,
    sign: 0x8000_0000_0000_0000,
    quiet: 0x0008_0000_0000_0000,
};

impl FloatBits {
    fn is_f64(self) -> bool {
        self.sign == F64.sign
    }
    fn flush(self, x: u64, flush: bool) -> u64 {
        if flush && x & self.exp == 0 {
            x & self.sign
        } else {
            x
        }
    }
    fn nan(self, x: u64) -> bool {
        x & !self.sign > self.exp
    }
}

/// The float atomics rule (min/max) on the bits of `f` (rule: lds-float-atomics): see
/// [`crate::wave::float_atomic`], of which this is the width-generic form.
pub fn float_atomic(f: FloatBits, old: u64, data: u64, flush: bool, max: bool) -> u64 {
    crate::wave_float::float_minmax(old, data, flush, max, f.is_f64())
}

/// ds_cmpst_f32/f64 (rule: lds-float-atomics): the flushed `old` and compare value `cmp` are equal
/// when both are zeros or their bits are equal and not NaN; then `src` is stored as given,
/// else memory keeps `old`.
pub fn fcmpst(f: FloatBits, old: u64, cmp: u64, src: u64, flush: bool) -> u64 {
    if crate::wave_float::float_cmp_equal(old, cmp, flush, f.is_f64()) {
        src
    } else {
        old
    }
}

/// ds_add_f32 (rule: ds-add-f32; not measured bit for bit; the reference notes' "DS src2" entry says only that
/// it ignores IEEE_MODE and depends on the f32 denormal field): with `flush` both operands and
/// the sum are flushed to the zero of their sign; the sum is rounded to nearest even; a NaN
/// operand gives the first NaN (`old`, then `data`) quieted; an invalid sum (inf - inf) gives
/// 0x7fc00000.
pub fn fadd32(old: u32, data: u32, flush: bool) -> u32 {
    let (o, d) = (
        F32.flush(u64::from(old), flush) as u32,
        F32.flush(u64::from(data), flush) as u32,
    );
    if F32.nan(u64::from(o)) {
        return o | 0x0040_0000;
    }
    if F32.nan(u64::from(d)) {
        return d | 0x0040_0000;
    }
    let s = (f32::from_bits(o) + f32::from_bits(d)).to_bits();
    if F32.nan(u64::from(s)) {
        return 0x7fc0_0000;
    }
    F32.flush(u64::from(s), flush) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generic_rule_is_the_f32_rule() {
        let vals = [
            0u32,
            0x8000_0000,
            1,
            0x8000_0001,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffc0_0002,
            0x007f_ffff,
        ];
        for &a in &vals {
            for &b in &vals {
                for flush in [false, true] {
                    for max in [false, true] {
                        let w = crate::wave::float_atomic(a, b, flush, max);
                        let g = float_atomic(F32, a.into(), b.into(), flush, max);
                        assert_eq!(u64::from(w), g, "{a:#x} {b:#x} {flush} {max}");
                    }
                }
            }
        }
    }

    #[test]
    fn f64_min_max_follow_the_notes_order() {
        let (one, two) = (0x3ff0_0000_0000_0000u64, 0x4000_0000_0000_0000u64);
        assert_eq!(float_atomic(F64, two, one, false, false), one);
        assert_eq!(float_atomic(F64, two, one, false, true), two);
        assert_eq!(float_atomic(F64, 0, F64.sign, false, false), F64.sign);
        let snan = 0x7ff0_0000_0000_0001;
        assert_eq!(float_atomic(F64, one, snan, false, true), snan | F64.quiet);
        assert_eq!(
            float_atomic(F64, 1, one, true, false),
            0,
            "flushed old written"
        );
        assert_eq!(float_atomic(F64, 1, one, false, false), 1, "kept");
    }

    #[test]
    fn cmpst_compares_flushed_floats() {
        let one = 0x3f80_0000u64;
        assert_eq!(fcmpst(F32, 0, 0x8000_0000, one, false), one, "zeros equal");
        assert_eq!(
            fcmpst(F32, 1, 0, one, true),
            one,
            "denormal flushed to zero"
        );
        assert_eq!(fcmpst(F32, 1, 0, one, false), 1, "kept denormal differs");
        assert_eq!(
            fcmpst(F32, 0x7fc0_0000, 0x7fc0_0000, one, true),
            0x7fc0_0000
        );
    }

    #[test]
    fn two_operand_integer_ops() {
        assert_eq!(
            lds_apply_wide(LdsOp::MskOr, 4, 0xffff_0000, 0xff00_0000, 0x12),
            0x00ff_0012
        );
        assert_eq!(lds_apply_wide(LdsOp::Cmpst, 4, 5, 5, 9), 9);
        assert_eq!(lds_apply_wide(LdsOp::Cmpst, 4, 5, 6, 9), 5);
        assert_eq!(lds_apply_wide(LdsOp::Wrap, 4, 10, 3, 100), 7);
        assert_eq!(lds_apply_wide(LdsOp::Wrap, 4, 2, 3, 100), 102);
        assert_eq!(
            lds_apply_wide(
                LdsOp::CondXchg,
                8,
                0x1111_1111_2222_2222,
                0x8000_0005_0000_0007,
                0
            ),
            0x0000_0005_2222_2222
        );
        assert_eq!(lds_apply_wide(LdsOp::Write, 1, 0, 0x1234, 0), 0x34);
        assert_eq!(fadd32(0x3f80_0000, 0x3f80_0000, true), 0x4000_0000);
        assert_eq!(fadd32(0x7f80_0000, 0xff80_0000, true), 0x7fc0_0000);
        assert_eq!(fadd32(1, 1, true), 0);
        assert_eq!(fadd32(1, 1, false), 2);
    }
}
