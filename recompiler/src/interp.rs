//! The CPU model: a bit-exact interpreter of [`ir::Kernel`](crate::ir::Kernel).
//!
//! Native float operations use the host's IEEE 754 arithmetic (round to nearest even, denormals
//! kept), which is exactly what the IR asks for. The approximate unary operations
//! ([`FloatUn::is_approximate`]) use the Rust standard library; a backend may differ from them in
//! the low bits, and the diff treats that as approximation, not as a deviation.
//!
//! A kernel is pure, so one [`Kernel`] can be run from many threads at once ([`run_batch`]).

use crate::ir::{Convert, Expr, FloatBin, FloatCmp, FloatUn, IntBin, IntCmp, IntUn, Kernel, Ty};

/// Runs `kernel` for one lane with input dwords `inputs` (v4..v9) and lane index `lane`;
/// returns the sixteen output dwords (v10..v25).
///
/// The kernel must be valid ([`Kernel::validate`]); the lowering only produces valid kernels.
pub fn run(kernel: &Kernel, inputs: [u32; 6], lane: u32) -> [u32; 16] {
    let mut vals: Vec<u64> = Vec::with_capacity(kernel.exprs.len());
    for e in &kernel.exprs {
        let v = eval(kernel, &vals, e, &inputs, lane);
        vals.push(v);
    }
    let mut out = [0u32; 16];
    for (o, h) in out.iter_mut().zip(&kernel.outputs) {
        *o = vals[h.index()] as u32;
    }
    out
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

fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}
fn of_f32(x: f32) -> u64 {
    u64::from(x.to_bits())
}
fn of_f64(x: f64) -> u64 {
    x.to_bits()
}

fn eval(k: &Kernel, vals: &[u64], e: &Expr, inputs: &[u32; 6], lane: u32) -> u64 {
    let v = |h: crate::ir::Handle| vals[h.index()];
    match *e {
        Expr::Const { ty, bits } => match ty {
            Ty::Bool => u64::from(bits != 0),
            Ty::U32 | Ty::F32 => bits & 0xffff_ffff,
            Ty::U64 | Ty::F64 => bits,
        },
        Expr::Input(i) => u64::from(inputs.get(usize::from(i)).copied().unwrap_or(0)),
        Expr::LaneId => u64::from(lane),
        Expr::IntBin { op, a, b } => {
            if k.ty(a) == Ty::U32 {
                u64::from(int_bin32(op, v(a) as u32, v(b) as u32))
            } else {
                int_bin64(op, v(a), v(b))
            }
        }
        Expr::IntUn { op, a } => {
            if k.ty(a) == Ty::U32 {
                let x = v(a) as u32;
                u64::from(match op {
                    IntUn::Not => !x,
                    IntUn::Neg => x.wrapping_neg(),
                    IntUn::Popcount => x.count_ones(),
                    IntUn::BitReverse => x.reverse_bits(),
                    IntUn::FindMsbU => {
                        if x == 0 {
                            u32::MAX
                        } else {
                            31 - x.leading_zeros()
                        }
                    }
                    IntUn::FindLsb => {
                        if x == 0 {
                            u32::MAX
                        } else {
                            x.trailing_zeros()
                        }
                    }
                })
            } else {
                let x = v(a);
                match op {
                    IntUn::Not => !x,
                    IntUn::Neg => x.wrapping_neg(),
                    IntUn::Popcount => u64::from(x.count_ones()),
                    IntUn::BitReverse => x.reverse_bits(),
                    IntUn::FindMsbU => {
                        if x == 0 {
                            u64::MAX
                        } else {
                            u64::from(63 - x.leading_zeros())
                        }
                    }
                    IntUn::FindLsb => {
                        if x == 0 {
                            u64::MAX
                        } else {
                            u64::from(x.trailing_zeros())
                        }
                    }
                }
            }
        }
        Expr::IntCmp { op, a, b } => {
            let (x, y) = (v(a), v(b));
            let (sx, sy) = if k.ty(a) == Ty::U32 {
                (i64::from(x as u32 as i32), i64::from(y as u32 as i32))
            } else {
                (x as i64, y as i64)
            };
            u64::from(match op {
                IntCmp::Eq => x == y,
                IntCmp::Ne => x != y,
                IntCmp::LtU => x < y,
                IntCmp::LeU => x <= y,
                IntCmp::GtU => x > y,
                IntCmp::GeU => x >= y,
                IntCmp::LtS => sx < sy,
                IntCmp::LeS => sx <= sy,
                IntCmp::GtS => sx > sy,
                IntCmp::GeS => sx >= sy,
            })
        }
        Expr::FloatBin { op, a, b } => {
            if k.ty(a) == Ty::F32 {
                let (x, y) = (f32_of(v(a)), f32_of(v(b)));
                of_f32(match op {
                    FloatBin::Add => x + y,
                    FloatBin::Sub => x - y,
                    FloatBin::Mul => x * y,
                    FloatBin::Div => x / y,
                })
            } else {
                let (x, y) = (f64_of(v(a)), f64_of(v(b)));
                of_f64(match op {
                    FloatBin::Add => x + y,
                    FloatBin::Sub => x - y,
                    FloatBin::Mul => x * y,
                    FloatBin::Div => x / y,
                })
            }
        }
        Expr::Fma { a, b, c } => {
            if k.ty(a) == Ty::F32 {
                of_f32(f32_of(v(a)).mul_add(f32_of(v(b)), f32_of(v(c))))
            } else {
                of_f64(f64_of(v(a)).mul_add(f64_of(v(b)), f64_of(v(c))))
            }
        }
        Expr::FloatUn { op, a } => {
            if k.ty(a) == Ty::F32 {
                of_f32(float_un32(op, f32_of(v(a))))
            } else {
                of_f64(float_un64(op, f64_of(v(a))))
            }
        }
        Expr::FloatCmp { op, a, b } => {
            let (x, y) = if k.ty(a) == Ty::F32 {
                (f64::from(f32_of(v(a))), f64::from(f32_of(v(b))))
            } else {
                (f64_of(v(a)), f64_of(v(b)))
            };
            let un = x.is_nan() || y.is_nan();
            u64::from(match op {
                FloatCmp::OrdEq => x == y,
                FloatCmp::OrdNe => !un && x != y,
                FloatCmp::OrdLt => x < y,
                FloatCmp::OrdLe => x <= y,
                FloatCmp::OrdGt => x > y,
                FloatCmp::OrdGe => x >= y,
                FloatCmp::UnordEq => un || x == y,
                FloatCmp::UnordNe => un || x != y,
                FloatCmp::UnordLt => un || x < y,
                FloatCmp::UnordLe => un || x <= y,
                FloatCmp::UnordGt => un || x > y,
                FloatCmp::UnordGe => un || x >= y,
                FloatCmp::Unord => un,
            })
        }
        Expr::BoolAnd(a, b) => v(a) & v(b),
        Expr::BoolOr(a, b) => v(a) | v(b),
        Expr::BoolNot(a) => v(a) ^ 1,
        Expr::Select { cond, a, b } => {
            if v(cond) != 0 {
                v(a)
            } else {
                v(b)
            }
        }
        Expr::Convert { op, a, to: _ } => {
            let x = v(a);
            match op {
                Convert::ZextU32 => x & 0xffff_ffff,
                Convert::SextU32 => x as u32 as i32 as i64 as u64,
                Convert::TruncU64 => x & 0xffff_ffff,
                Convert::BoolToU32 => x & 1,
                Convert::Bitcast => x,
                Convert::F32ToF64 => of_f64(f64::from(f32_of(x))),
                Convert::F64ToF32 => of_f32(f64_of(x) as f32),
                Convert::S32ToF64 => of_f64(f64::from(x as u32 as i32)),
                Convert::U32ToF64 => of_f64(f64::from(x as u32)),
                // Saturating casts: the IR leaves out-of-range inputs undefined and the
                // lowering clamps first, so saturation only matters for invalid kernels.
                Convert::F64ToS32 => u64::from(f64_of(x) as i32 as u32),
                Convert::F64ToU32 => u64::from(f64_of(x) as u32),
            }
        }
        Expr::Pack64 { lo, hi } => (v(lo) & 0xffff_ffff) | (v(hi) << 32),
    }
}

/// Also the column-wise evaluator's semantics ([`crate::batch`]), inlined per operation.
#[inline(always)]
pub(crate) fn int_bin32(op: IntBin, x: u32, y: u32) -> u32 {
    match op {
        IntBin::Add => x.wrapping_add(y),
        IntBin::Sub => x.wrapping_sub(y),
        IntBin::Mul => x.wrapping_mul(y),
        IntBin::MulHiU => ((u64::from(x) * u64::from(y)) >> 32) as u32,
        IntBin::MulHiS => ((i64::from(x as i32) * i64::from(y as i32)) >> 32) as u32,
        IntBin::DivU => x.checked_div(y).unwrap_or(u32::MAX),
        IntBin::RemU => x.checked_rem(y).unwrap_or(x),
        IntBin::And => x & y,
        IntBin::Or => x | y,
        IntBin::Xor => x ^ y,
        IntBin::Shl => x.wrapping_shl(y),
        IntBin::ShrU => x.wrapping_shr(y),
        IntBin::ShrS => (x as i32).wrapping_shr(y) as u32,
    }
}

/// Also the column-wise evaluator's semantics ([`crate::batch`]), inlined per operation.
#[inline(always)]
pub(crate) fn int_bin64(op: IntBin, x: u64, y: u64) -> u64 {
    match op {
        IntBin::Add => x.wrapping_add(y),
        IntBin::Sub => x.wrapping_sub(y),
        IntBin::Mul => x.wrapping_mul(y),
        IntBin::MulHiU => ((u128::from(x) * u128::from(y)) >> 64) as u64,
        IntBin::MulHiS => ((i128::from(x as i64) * i128::from(y as i64)) >> 64) as u64,
        IntBin::DivU => x.checked_div(y).unwrap_or(u64::MAX),
        IntBin::RemU => x.checked_rem(y).unwrap_or(x),
        IntBin::And => x & y,
        IntBin::Or => x | y,
        IntBin::Xor => x ^ y,
        IntBin::Shl => x.wrapping_shl(y as u32),
        IntBin::ShrU => x.wrapping_shr(y as u32),
        IntBin::ShrS => (x as i64).wrapping_shr(y as u32) as u64,
    }
}

/// Also the column-wise evaluator's semantics ([`crate::batch`]), inlined per operation.
#[inline(always)]
pub(crate) fn float_un32(op: FloatUn, x: f32) -> f32 {
    match op {
        FloatUn::Sqrt => x.sqrt(),
        FloatUn::Floor => x.floor(),
        FloatUn::Ceil => x.ceil(),
        FloatUn::Trunc => x.trunc(),
        FloatUn::RoundEven => x.round_ties_even(),
        FloatUn::Exp2 => x.exp2(),
        FloatUn::Log2 => x.log2(),
        FloatUn::InverseSqrt => 1.0 / x.sqrt(),
        FloatUn::Sin => x.sin(),
        FloatUn::Cos => x.cos(),
    }
}

/// Also the column-wise evaluator's semantics ([`crate::batch`]), inlined per operation.
#[inline(always)]
pub(crate) fn float_un64(op: FloatUn, x: f64) -> f64 {
    match op {
        FloatUn::Sqrt => x.sqrt(),
        FloatUn::Floor => x.floor(),
        FloatUn::Ceil => x.ceil(),
        FloatUn::Trunc => x.trunc(),
        FloatUn::RoundEven => x.round_ties_even(),
        FloatUn::Exp2 => x.exp2(),
        FloatUn::Log2 => x.log2(),
        FloatUn::InverseSqrt => 1.0 / x.sqrt(),
        FloatUn::Sin => x.sin(),
        FloatUn::Cos => x.cos(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Handle;

    fn kernel_with(exprs: Vec<Expr>, out: Handle) -> Kernel {
        let mut k = Kernel {
            exprs,
            outputs: vec![],
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
    fn division_by_zero_is_defined() {
        assert_eq!(int_bin32(IntBin::DivU, 7, 0), u32::MAX);
        assert_eq!(int_bin32(IntBin::RemU, 7, 0), 7);
        assert_eq!(int_bin32(IntBin::MulHiS, 0xffff_ffff, 2), 0xffff_ffff);
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
