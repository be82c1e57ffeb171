//! The CPU model: a bit-exact interpreter of [`ir::Kernel`](crate::ir::Kernel).
//!
//! Each expression's bits come from the scalar semantics of [`crate::eval`], the one definition
//! of every IR operation (NaN bits included) that the column-wise evaluator and the SPIR-V
//! backend follow too. The approximate unary operations
//! ([`FloatUn::is_approximate`](crate::ir::FloatUn::is_approximate)) use the Rust standard
//! library; a backend may differ from them in the low bits, and the diff treats that as
//! approximation, not as a deviation.
//!
//! A kernel is pure, so one [`Kernel`] can be run from many threads at once ([`run_batch`]).

use crate::eval;
use crate::ir::{Expr, Handle, Kernel, Ty};

/// Runs `kernel` for one lane with input dwords `inputs` (v4..v9) and lane index `lane`;
/// returns the sixteen output dwords (v10..v25).
///
/// The kernel must be valid ([`Kernel::validate`]) and straight-line (no blocks: kernels with
/// control flow or cross-lane operations run through [`crate::wave::run_wave`]); the lane
/// contract's lowering only produces such kernels.
pub fn run(kernel: &Kernel, inputs: [u32; 6], lane: u32) -> [u32; 16] {
    let vals = values(kernel, inputs, lane);
    let mut out = [0u32; 16];
    for (o, h) in out.iter_mut().zip(&kernel.outputs) {
        *o = vals[h.index()] as u32;
    }
    out
}

/// The value of every expression of `kernel` for one lane, in expression order: `Bool` as 0/1,
/// `U32`/`F32` zero-extended bits, `U64`/`F64` bits.
pub fn values(kernel: &Kernel, inputs: [u32; 6], lane: u32) -> Vec<u64> {
    let mut vals: Vec<u64> = Vec::with_capacity(kernel.exprs.len());
    for e in &kernel.exprs {
        let v = eval_expr(kernel, &vals, e, &inputs, lane, &Uniform::LANE_CONTRACT);
        vals.push(v);
    }
    vals
}

/// Runs `kernel` for many lanes: `lanes[i]` is (inputs, lane index). Work is split over the
/// calling thread pool by the caller; this function itself is sequential and allocation-light,
/// so callers may run disjoint batches of one kernel from several threads.
pub fn run_batch(kernel: &Kernel, lanes: &[([u32; 6], u32)]) -> Vec<[u32; 16]> {
    lanes
        .iter()
        .map(|(inputs, lane)| run(kernel, *inputs, *lane))
        .collect()
}

/// The wave-uniform state before the body that [`Expr::SgprIn`] and [`Expr::ExecIn`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uniform {
    pub sgprs: [u32; crate::wave::SGPR_INPUTS],
    pub exec: u64,
}

impl Uniform {
    /// The lane contract's state: SGPRs 0, EXEC all ones.
    pub const LANE_CONTRACT: Uniform = Uniform {
        sgprs: [0; crate::wave::SGPR_INPUTS],
        exec: u64::MAX,
    };
}

/// The value of expression `e` for one lane, `vals` holding the values of the expressions
/// before it (the representation of [`values`]). A cross-lane expression sees a wave of this
/// one lane (a ballot gives this lane's bit, a read this lane's value); [`crate::wave`]
/// evaluates them over the whole wave instead.
pub(crate) fn eval_expr(
    k: &Kernel,
    vals: &[u64],
    e: &Expr,
    inputs: &[u32; 6],
    lane: u32,
    uni: &Uniform,
) -> u64 {
    let v = |h: Handle| vals[h.index()];
    let v32 = |h: Handle| vals[h.index()] as u32;
    let wide = |h: Handle| matches!(k.ty(h), Ty::U64 | Ty::F64);
    match *e {
        Expr::Const { ty, bits } => eval::constant(ty, bits),
        Expr::Input(i) => u64::from(inputs.get(usize::from(i)).copied().unwrap_or(0)),
        Expr::LaneId => u64::from(lane),
        Expr::IntBin { op, a, b } if wide(a) => eval::int_bin64(op, v(a), v(b)),
        Expr::IntBin { op, a, b } => u64::from(eval::int_bin32(op, v32(a), v32(b))),
        Expr::IntUn { op, a } if wide(a) => eval::int_un64(op, v(a)),
        Expr::IntUn { op, a } => u64::from(eval::int_un32(op, v32(a))),
        Expr::IntCmp { op, a, b } if wide(a) => u64::from(eval::int_cmp64(op, v(a), v(b))),
        Expr::IntCmp { op, a, b } => u64::from(eval::int_cmp32(op, v32(a), v32(b))),
        Expr::FloatBin { op, a, b } if wide(a) => eval::float_bin64(op, v(a), v(b)),
        Expr::FloatBin { op, a, b } => u64::from(eval::float_bin32(op, v32(a), v32(b))),
        Expr::Fma { a, b, c } if wide(a) => eval::fma64(v(a), v(b), v(c)),
        Expr::Fma { a, b, c } => u64::from(eval::fma32(v32(a), v32(b), v32(c))),
        Expr::FloatUn { op, a } if wide(a) => eval::float_un64(op, v(a)),
        Expr::FloatUn { op, a } => u64::from(eval::float_un32(op, v32(a))),
        Expr::FloatCmp { op, a, b } if wide(a) => u64::from(eval::float_cmp64(op, v(a), v(b))),
        Expr::FloatCmp { op, a, b } => u64::from(eval::float_cmp32(op, v32(a), v32(b))),
        Expr::BoolAnd(a, b) => u64::from(eval::bool_and(v(a) != 0, v(b) != 0)),
        Expr::BoolOr(a, b) => u64::from(eval::bool_or(v(a) != 0, v(b) != 0)),
        Expr::BoolNot(a) => u64::from(eval::bool_not(v(a) != 0)),
        Expr::Select { cond, a, b } => eval::select(v(cond) != 0, v(a), v(b)),
        Expr::Convert { op, a, to: _ } => eval::convert(op, v(a)),
        Expr::Pack64 { lo, hi } => eval::pack64(v32(lo), v32(hi)),
        Expr::SgprIn(i) => u64::from(uni.sgprs.get(usize::from(i)).copied().unwrap_or(0)),
        Expr::ExecIn => uni.exec,
        Expr::WaveBallot(a) => u64::from(v(a) != 0) << (lane % 64),
        Expr::WaveRead { value, .. } => v(value),
        // A straight-line kernel has no variables; [`crate::wave`] runs kernels with blocks.
        Expr::Var(_) => 0,
        // One lane alone has no LDS: every access is out of range.
        Expr::Mem { .. } => 0,
        // The CPU model has no texture unit (crate::native).
        Expr::Image(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Convert, FloatBin, IntBin};

    fn kernel_with(exprs: Vec<Expr>, out: Handle) -> Kernel {
        let mut k = Kernel {
            exprs,
            ..Kernel::default()
        };
        let zero = k.push(Expr::Const {
            ty: Ty::U32,
            bits: 0,
        });
        k.outputs = vec![zero; 16];
        k.outputs[0] = out;
        k.validate().expect("valid test kernel");
        k
    }

    #[test]
    fn integer_ops_and_inputs() {
        let k = kernel_with(
            vec![
                Expr::Input(0),
                Expr::Input(1),
                Expr::IntBin {
                    op: IntBin::ShrS,
                    a: Handle(0),
                    b: Handle(1),
                },
            ],
            Handle(2),
        );
        assert_eq!(run(&k, [0x8000_0000, 4, 0, 0, 0, 0], 0)[0], 0xf800_0000);
        assert_eq!(run(&k, [0x8000_0000, 36, 0, 0, 0, 0], 0)[0], 0xf800_0000);
    }

    #[test]
    fn f32_arithmetic_keeps_denormals() {
        let k = kernel_with(
            vec![
                Expr::Input(0),
                Expr::Convert {
                    op: Convert::Bitcast,
                    a: Handle(0),
                    to: Ty::F32,
                },
                Expr::Input(1),
                Expr::Convert {
                    op: Convert::Bitcast,
                    a: Handle(2),
                    to: Ty::F32,
                },
                Expr::FloatBin {
                    op: FloatBin::Mul,
                    a: Handle(1),
                    b: Handle(3),
                },
                Expr::Convert {
                    op: Convert::Bitcast,
                    a: Handle(4),
                    to: Ty::U32,
                },
            ],
            Handle(5),
        );
        // 2^-126 * 0.5 = 2^-127, a denormal.
        assert_eq!(
            run(&k, [0x0080_0000, 0x3f00_0000, 0, 0, 0, 0], 0)[0],
            0x0040_0000
        );
    }

    #[test]
    fn lane_id_and_batch() {
        let k = kernel_with(vec![Expr::LaneId], Handle(0));
        let r = run_batch(&k, &[([0; 6], 3), ([0; 6], 31)]);
        assert_eq!(r[0][0], 3);
        assert_eq!(r[1][0], 31);
    }
}
