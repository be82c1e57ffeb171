//! The cube-map helpers v_cubeid_f32, v_cubesc_f32, v_cubetc_f32 and v_cubema_f32 (rule:
//! cube-map). S0, S1, S2 are the direction's x, y, z; the major axis is z when
//! |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x (the RDNA2 ISA's pseudocode).

use super::arithmetic::{arith, finish_f32, Arith};
use super::error::RuleResult;
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{FloatCmp, Handle};

/// rule: cube-map. The sources (abs/neg applied) are flushed with `denorm32` input flushing
/// and compared as IEEE values, so a NaN fails every comparison (the x axis is major and no
/// sign test holds). cubeid gives the face 0..5 (2 * axis + 1 when the major coordinate is
/// negative); cubesc and cubetc give a source or its negation by the face's table; cubema gives
/// 2 * the major coordinate, rounded in `round32` with `denorm32` output flushing. A NaN result
/// is quieted with IEEE=1 and keeps the sign the instruction gives it (rule: snan-ieee). The
/// f32 result modifiers apply.
/// Which of the cube-map ops [`cube`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CubeOp {
    /// v_cubeid_f32: the face index.
    Id,
    /// v_cubesc_f32: the face's s coordinate.
    Sc,
    /// v_cubetc_f32: the face's t coordinate.
    Tc,
    /// v_cubema_f32: twice the major axis.
    Ma,
}

pub(super) fn cube(l: &mut Lowerer, c: &Ctx, op: CubeOp) -> RuleResult {
    let fi = l.flush_in32();
    let (ieee, round, fo) = (l.mode.ieee, l.mode.round32(), l.flush_out32());
    let mut s = Vec::new();
    for i in 0..3 {
        let x = l.f32_src(c, i)?;
        s.push(l.b.flush_if(Fmt::F32, x, fi));
    }
    let b = &mut l.b;
    let w: Vec<Handle> = s.iter().map(|&x| b.f32_to_f64_exact(x)).collect();
    let a: Vec<Handle> = s
        .iter()
        .map(|&x| {
            let m = b.abs_bits(Fmt::F32, x);
            b.f32_to_f64_exact(m)
        })
        .collect();
    let zge_x = b.fcmp(FloatCmp::OrdGe, a[2], a[0]);
    let zge_y = b.fcmp(FloatCmp::OrdGe, a[2], a[1]);
    let zmaj = b.band(zge_x, zge_y);
    let ymaj = b.fcmp(FloatCmp::OrdGe, a[1], a[0]);
    let zero = b.cf64(0.0);
    let neg: Vec<Handle> = w
        .iter()
        .map(|&x| b.fcmp(FloatCmp::OrdLt, x, zero))
        .collect();
    let pick = |b: &mut Builder, z: Handle, y: Handle, x: Handle| {
        let v = b.sel(ymaj, y, x);
        b.sel(zmaj, z, v)
    };
    let r = match op {
        CubeOp::Id => {
            let face = |b: &mut Builder, n: Handle, base: f32| {
                let p = b.c32(base.to_bits());
                let q = b.c32((base + 1.0).to_bits());
                b.sel(n, q, p)
            };
            let fz = face(b, neg[2], 4.0);
            let fy = face(b, neg[1], 2.0);
            let fx = face(b, neg[0], 0.0);
            pick(b, fz, fy, fx)
        }
        CubeOp::Sc => {
            // z: -x when z < 0 else x; y: x; x: z when x < 0 else -z
            let nx = b.neg_bits(Fmt::F32, s[0]);
            let nz = b.neg_bits(Fmt::F32, s[2]);
            let vz = b.sel(neg[2], nx, s[0]);
            let vx = b.sel(neg[0], s[2], nz);
            let v = pick(b, vz, s[0], vx);
            nan_result(b, v, ieee)
        }
        CubeOp::Tc => {
            // z: -y; y: -z when y < 0 else z; x: -y
            let ny = b.neg_bits(Fmt::F32, s[1]);
            let nz = b.neg_bits(Fmt::F32, s[2]);
            let vy = b.sel(neg[1], nz, s[2]);
            let v = pick(b, ny, vy, ny);
            nan_result(b, v, ieee)
        }
        CubeOp::Ma => {
            let m = pick(b, s[2], s[1], s[0]);
            let two = b.c32(2f32.to_bits());
            // an exact doubling, rounded only on overflow; the NaN rule of the multiply is
            // replaced by the cube ops' own
            let v = arith(b, Fmt::F32, Arith::Mul, &[m, two], round, false, fo, ieee);
            let nan = b.is_nan(Fmt::F32, m);
            let q = nan_result(b, m, ieee);
            b.sel(nan, q, v)
        }
    };
    finish_f32(l, c, r)
}

/// A NaN `v` quieted as the IEEE mode says (its sign kept); any other value unchanged.
fn nan_result(b: &mut Builder, v: Handle, ieee: bool) -> Handle {
    let nan = b.is_nan(Fmt::F32, v);
    let q = b.nan_out(Fmt::F32, v, ieee);
    b.sel(nan, q, v)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{out0, run_in};
    use rdnaprobe_isa::{FloatMode, Target};

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    /// (id, sc, tc, ma) of the direction (x, y, z).
    fn all(x: f32, y: f32, z: f32) -> [u32; 4] {
        [
            "v_cubeid_f32",
            "v_cubesc_f32",
            "v_cubetc_f32",
            "v_cubema_f32",
        ]
        .map(|m| out0(&format!("{m} v10, v4, v5, v6"), f(x), f(y), f(z)))
    }

    #[test]
    fn faces_and_coordinates_follow_the_major_axis() {
        // +x major: face 0, sc = -z, tc = -y, ma = 2x
        assert_eq!(all(2.0, 0.5, 0.25), [f(0.0), f(-0.25), f(-0.5), f(4.0)]);
        // -x major: face 1, sc = z
        assert_eq!(all(-2.0, 0.5, 0.25), [f(1.0), f(0.25), f(-0.5), f(-4.0)]);
        // +y major: face 2, sc = x, tc = z
        assert_eq!(all(0.5, 2.0, 0.25), [f(2.0), f(0.5), f(0.25), f(4.0)]);
        // -y major: face 3, tc = -z
        assert_eq!(all(0.5, -2.0, 0.25), [f(3.0), f(0.5), f(-0.25), f(-4.0)]);
        // +z major: face 4, sc = x, tc = -y
        assert_eq!(all(0.5, 0.25, 2.0), [f(4.0), f(0.5), f(-0.25), f(4.0)]);
        // -z major: face 5, sc = -x
        assert_eq!(all(0.5, 0.25, -2.0), [f(5.0), f(-0.5), f(-0.25), f(-4.0)]);
        // ties go to z, then to y
        assert_eq!(all(1.0, 1.0, 1.0)[0], f(4.0));
        assert_eq!(all(1.0, -1.0, 0.5)[0], f(3.0));
    }

    #[test]
    fn nan_and_modifiers() {
        // a NaN z fails every comparison: x is major, and sc = -z keeps the NaN, negated
        let nan = 0x7f80_0001;
        let t = "v_cubesc_f32 v10, v4, v5, v6";
        let i = [f(1.0), f(0.5), nan, 0, 0, 0];
        let m = FloatMode {
            ieee: false,
            ..FloatMode::DEFAULT
        };
        let o = run_in(t, m, Target::Gfx1036, i, 0);
        assert_eq!(o[0], 0xff80_0001, "IEEE=0 keeps the signaling NaN");
        let o = run_in(t, FloatMode::DEFAULT, Target::Gfx1036, i, 0);
        assert_eq!(o[0], 0xffc0_0001, "IEEE=1 quiets it");
        let o = out0("v_cubeid_f32 v10, v4, v5, v6", nan, f(0.5), f(0.5));
        assert_eq!(o, f(0.0), "no comparison with a NaN x holds: x stays major");
        // ma of the largest finite value overflows; clamp applies to the doubled value
        let o = out0("v_cubema_f32 v10, v4, v5, v6", 0x7f7f_ffff, 0, 0);
        assert_eq!(o, 0x7f80_0000);
        let o = out0("v_cubema_f32 v10, v4, v5, v6 clamp", f(0.25), 0, 0);
        assert_eq!(o, f(0.5));
        let o = out0("v_cubeid_f32 v10, -v4, v5, v6", f(2.0), 0, 0);
        assert_eq!(o, f(1.0));
    }
}
