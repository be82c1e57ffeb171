//! The CPU model of the wave contract: runs a [`Kernel`] over every lane of one wave at once,
//! expression by expression, so that a cross-lane expression sees the values every lane
//! computed for its operands.
//!
//! Per-lane expressions take their bits from the same scalar semantics as the per-lane
//! interpreter ([`crate::interp`]). The cross-lane ones are defined here:
//! - [`Expr::WaveBallot`]: bit `i` of the result is lane `i`'s `Bool` (`i < wave`), on every
//!   lane;
//! - [`Expr::WaveRead`]: the `value` of lane `lane % wave`.
//!
//! Every lane of the wave runs (lanes with no dataset row have zero inputs): a lane outside
//! EXEC still computes, as the SPIR-V module's invocations do; EXEC masking is explicit in
//! the lowering. The uniform outputs are lane 0's values, as the SPIR-V module stores them.

use crate::interp::{eval_expr, Uniform};
use crate::ir::{Expr, Kernel};

/// A wave's state before the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveInput {
    /// in0..in5 of every lane (`wave` entries, lane order).
    pub lanes: Vec<[u32; 6]>,
    /// s0..s15.
    pub sgprs: [u32; 16],
    /// EXEC (a wave32 uses the low 32 bits).
    pub exec: u64,
}

/// The uniform state after the body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniformValues {
    pub sgprs: [u32; 16],
    pub exec: u64,
    pub vcc: u64,
    pub scc: bool,
}

/// A wave's results: out0..out15 of every lane and, for a kernel with uniform outputs, their
/// values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveOutput {
    pub lanes: Vec<[u32; 16]>,
    pub uniform: Option<UniformValues>,
}

/// Runs `kernel` (valid, see [`Kernel::validate`]) over the wave `input`.
pub fn run_wave(kernel: &Kernel, input: &WaveInput) -> WaveOutput {
    let n = input.lanes.len();
    let uni = Uniform {
        sgprs: input.sgprs,
        exec: input.exec,
    };
    // vals[lane][expr]
    let mut vals: Vec<Vec<u64>> = vec![Vec::with_capacity(kernel.exprs.len()); n];
    for e in &kernel.exprs {
        match *e {
            Expr::WaveBallot(a) => {
                let mask = (0..n.min(64))
                    .filter(|&l| vals[l][a.index()] != 0)
                    .fold(0u64, |m, l| m | 1 << l);
                for v in &mut vals {
                    v.push(mask);
                }
            }
            Expr::WaveRead { value, lane } => {
                let read: Vec<u64> = (0..n)
                    .map(|l| {
                        let from = vals[l][lane.index()] as usize % n.max(1);
                        vals[from][value.index()]
                    })
                    .collect();
                for (v, r) in vals.iter_mut().zip(read) {
                    v.push(r);
                }
            }
            _ => {
                for (l, v) in vals.iter_mut().enumerate() {
                    let x = eval_expr(kernel, v, e, &input.lanes[l], l as u32, &uni);
                    v.push(x);
                }
            }
        }
    }
    let lanes = vals
        .iter()
        .map(|v| {
            let mut out = [0u32; 16];
            for (o, h) in out.iter_mut().zip(&kernel.outputs) {
                *o = v[h.index()] as u32;
            }
            out
        })
        .collect();
    let uniform = kernel.uniform.as_ref().zip(vals.first()).map(|(u, v)| {
        let mut sgprs = [0u32; 16];
        for (s, h) in sgprs.iter_mut().zip(&u.sgprs) {
            *s = v[h.index()] as u32;
        }
        UniformValues {
            sgprs,
            exec: v[u.exec.index()],
            vcc: v[u.vcc.index()],
            scc: v[u.scc.index()] != 0,
        }
    });
    WaveOutput { lanes, uniform }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Convert, Handle, IntBin, IntCmp, Ty, UniformOutputs};

    /// out0 = WaveRead(in0, in1), out1 = low half of ballot(in0 > 5), uniform s0 = s_in[3].
    fn kernel() -> Kernel {
        let mut k = Kernel::default();
        let in0 = k.push(Expr::Input(0));
        let in1 = k.push(Expr::Input(1));
        let read = k.push(Expr::WaveRead {
            value: in0,
            lane: in1,
        });
        let five = k.push(Expr::Const {
            ty: Ty::U32,
            bits: 5,
        });
        let gt = k.push(Expr::IntCmp {
            op: IntCmp::GtU,
            a: in0,
            b: five,
        });
        let ballot = k.push(Expr::WaveBallot(gt));
        let lo = k.push(Expr::Convert {
            op: Convert::TruncU64,
            a: ballot,
            to: Ty::U32,
        });
        let s3 = k.push(Expr::SgprIn(3));
        let exec = k.push(Expr::ExecIn);
        let t = k.push(Expr::IntCmp {
            op: IntCmp::Eq,
            a: s3,
            b: s3,
        });
        let sum = k.push(Expr::IntBin {
            op: IntBin::Add,
            a: s3,
            b: in0,
        });
        k.outputs = vec![
            read, lo, sum, read, read, read, read, read, read, read, read, read, read, read, read,
            read,
        ];
        k.uniform = Some(UniformOutputs {
            sgprs: vec![s3; 16],
            exec,
            vcc: ballot,
            scc: t,
        });
        k.validate().unwrap();
        let _ = Handle(0);
        k
    }

    #[test]
    fn ballots_and_reads_see_every_lane() {
        let k = kernel();
        let lanes: Vec<[u32; 6]> = (0..32u32).map(|l| [l, 31 - l, 0, 0, 0, 0]).collect();
        let out = run_wave(
            &k,
            &WaveInput {
                lanes,
                sgprs: [0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                exec: 0xf,
            },
        );
        for l in 0..32u32 {
            let o = out.lanes[l as usize];
            assert_eq!(o[0], 31 - l, "lane {l} reads lane 31-l's in0");
            assert_eq!(o[1], 0xffff_ffc0, "lanes 6..31 have in0 > 5");
            assert_eq!(o[2], 100 + l);
        }
        let u = out.uniform.unwrap();
        assert_eq!(u.sgprs, [100; 16]);
        assert_eq!(u.exec, 0xf);
        assert_eq!(u.vcc, 0xffff_ffc0);
        assert!(u.scc);
    }

    #[test]
    fn wave64_ballot_and_read_index_modulo_wave() {
        let k = kernel();
        let lanes: Vec<[u32; 6]> = (0..64u32).map(|l| [l, l + 64 + 1, 0, 0, 0, 0]).collect();
        let out = run_wave(
            &k,
            &WaveInput {
                lanes,
                sgprs: [0; 16],
                exec: u64::MAX,
            },
        );
        assert_eq!(out.lanes[63][0], 0, "lane 63 reads lane (63 + 65) % 64 = 0");
        assert_eq!(out.lanes[10][0], 11);
        assert_eq!(out.uniform.unwrap().vcc, !0x3f);
    }
}
