//! Float min/max (rule: minmax-nan): the ordering on the bits (-0 below +0), the IEEE-mode
//! signaling-NaN rule, median of three, and the f32 v_min/v_max/v_min3/v_max3/v_med3 forms.

use super::error::RuleResult;
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{Handle, IntCmp, IntUn};

/// Total-order key of float bits for min/max (-0 below +0); NaNs must be handled apart.
pub(super) fn order_key(b: &mut Builder, fmt: Fmt, x: Handle) -> Handle {
    let s = b.sign_of(fmt, x);
    let m = b.abs_bits(fmt, x);
    let nm = b.iu(IntUn::Not, m);
    b.sel(s, nm, m)
}

/// rule: minmax-nan (docs/semantics.md). With IEEE=1 a signaling NaN operand wins, quieted;
/// otherwise a NaN operand is ignored (the first operand is returned when both are NaN).
pub(super) fn minmax(
    b: &mut Builder,
    fmt: Fmt,
    x: Handle,
    y: Handle,
    max: bool,
    ieee: bool,
) -> Handle {
    let kx = order_key(b, fmt, x);
    let ky = order_key(b, fmt, y);
    let op = if max { IntCmp::GtS } else { IntCmp::LtS };
    let c = b.icmp(op, ky, kx);
    let plain = b.sel(c, y, x);
    let nx = b.is_nan(fmt, x);
    let ny = b.is_nan(fmt, y);
    let r = b.sel(nx, y, plain);
    let r = b.sel(ny, x, r);
    if ieee {
        let sx = b.is_snan(fmt, x);
        let sy = b.is_snan(fmt, y);
        let qx = b.quiet(fmt, x);
        let qy = b.quiet(fmt, y);
        let r = b.sel(sy, qy, r);
        b.sel(sx, qx, r)
    } else {
        r
    }
}

/// Median of three (rule: minmax-nan): a NaN operand makes it min3, as the ISA manual says.
pub(super) fn med3(
    b: &mut Builder,
    fmt: Fmt,
    x: Handle,
    y: Handle,
    z: Handle,
    ieee: bool,
) -> Handle {
    let n0 = b.is_nan(fmt, x);
    let n1 = b.is_nan(fmt, y);
    let n2 = b.is_nan(fmt, z);
    let a = b.bor(n0, n1);
    let any = b.bor(a, n2);
    let mn = minmax(b, fmt, x, y, false, ieee);
    let min3 = minmax(b, fmt, mn, z, false, ieee);
    let mx = minmax(b, fmt, x, y, true, ieee);
    let t = minmax(b, fmt, mx, z, false, ieee);
    let med = minmax(b, fmt, mn, t, true, ieee);
    b.sel(any, min3, med)
}

/// v_min_f32 and v_max_f32 (`max`).
pub(super) fn minmax_f32(l: &mut Lowerer, c: &Ctx, max: bool) -> RuleResult {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let a = l.f32_src(c, 0)?;
    let bb = l.f32_src(c, 1)?;
    let a = l.b.flush_if(Fmt::F32, a, fi);
    let bb = l.b.flush_if(Fmt::F32, bb, fi);
    let r = minmax(&mut l.b, Fmt::F32, a, bb, max, ieee);
    let r = l.b.flush_if(Fmt::F32, r, fo);
    super::arithmetic::finish_f32(l, c, r)
}

/// Which of the three-operand forms.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Of3 {
    Min,
    Max,
    Med,
}

/// v_min3_f32, v_max3_f32 and v_med3_f32.
pub(super) fn of3_f32(l: &mut Lowerer, c: &Ctx, which: Of3) -> RuleResult {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in32(), l.flush_out32());
    let mut s = Vec::new();
    for i in 0..3 {
        let x = l.f32_src(c, i)?;
        s.push(l.b.flush_if(Fmt::F32, x, fi));
    }
    let b = &mut l.b;
    let r = match which {
        Of3::Med => med3(b, Fmt::F32, s[0], s[1], s[2], ieee),
        Of3::Min | Of3::Max => {
            let mx = which == Of3::Max;
            let t = minmax(b, Fmt::F32, s[0], s[1], mx, ieee);
            minmax(b, Fmt::F32, t, s[2], mx, ieee)
        }
    };
    let r = l.b.flush_if(Fmt::F32, r, fo);
    super::arithmetic::finish_f32(l, c, r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run_in;
    use rdnaprobe_isa::{FloatMode, Target};

    fn max(ieee: bool, a: u32, b: u32) -> u32 {
        let mode = FloatMode {
            ieee,
            ..FloatMode::DEFAULT
        };
        run_in(
            "v_max_f32 v10, v4, v5",
            mode,
            Target::Gfx1030,
            [a, b, 0, 0, 0, 0],
            0,
        )[0]
    }

    #[test]
    fn a_signaling_nan_wins_only_in_ieee_mode() {
        let (snan, one) = (0x7f80_0001, 0x3f80_0000);
        assert_eq!(max(true, snan, one), 0x7fc0_0001);
        assert_eq!(max(false, snan, one), one);
        // a quiet NaN is ignored in both modes
        assert_eq!(max(true, 0x7fc0_0000, one), one);
    }

    #[test]
    fn minus_zero_orders_below_plus_zero() {
        assert_eq!(max(true, 0x8000_0000, 0), 0);
        assert_eq!(max(true, 0, 0x8000_0000), 0);
    }

    #[test]
    fn med3_of_three_numbers_is_the_middle_one() {
        let t = "v_med3_f32 v10, v4, v5, v6";
        let i = [0x4040_0000, 0x3f80_0000, 0x4000_0000, 0, 0, 0]; // 3, 1, 2
        assert_eq!(
            run_in(t, FloatMode::DEFAULT, Target::Gfx1030, i, 0)[0],
            0x4000_0000
        );
    }
}
