//! Random kernels for the wave contract: a random per-lane kernel extended with the
//! cross-lane primitives and uniform inputs and outputs, so that the wave executors (the CPU
//! model's `wave::run_wave` and the SPIR-V wave module) can be held to identical bits.

use crate::ir::{Convert, Expr, IntBin, IntCmp, Kernel, Ty, UniformOutputs};

/// `k` with cross-lane outputs: out13 = out2 + s(seed % 16), out14 = the low half of
/// ballot(out0 != 0), out15 = out1 of lane `in0 % wave`; uniform outputs: s0..s15 = the
/// ballot's high half plus sgpr k, EXEC = EXEC before, VCC = the ballot, SCC = lane 0's
/// `out0 != 0`.
pub fn with_cross_lane(mut k: Kernel, seed: u64) -> Kernel {
    let zero = k.push(Expr::Const {
        ty: Ty::U32,
        bits: 0,
    });
    let nz = k.push(Expr::IntCmp {
        op: IntCmp::Ne,
        a: k.outputs[0],
        b: zero,
    });
    let ballot = k.push(Expr::WaveBallot(nz));
    let lo = k.push(Expr::Convert {
        op: Convert::TruncU64,
        a: ballot,
        to: Ty::U32,
    });
    let c32 = k.push(Expr::Const {
        ty: Ty::U64,
        bits: 32,
    });
    let hi64 = k.push(Expr::IntBin {
        op: IntBin::ShrU,
        a: ballot,
        b: c32,
    });
    let hi = k.push(Expr::Convert {
        op: Convert::TruncU64,
        a: hi64,
        to: Ty::U32,
    });
    let lane = k.push(Expr::Input(0));
    let read = k.push(Expr::WaveRead {
        value: k.outputs[1],
        lane,
    });
    let s = k.push(Expr::SgprIn((seed % 16) as u8));
    let plus = k.push(Expr::IntBin {
        op: IntBin::Add,
        a: k.outputs[2],
        b: s,
    });
    let exec = k.push(Expr::ExecIn);
    let sgprs = (0..16u8)
        .map(|i| {
            let si = k.push(Expr::SgprIn(i));
            k.push(Expr::IntBin {
                op: IntBin::Add,
                a: hi,
                b: si,
            })
        })
        .collect();
    k.outputs[13] = plus;
    k.outputs[14] = lo;
    k.outputs[15] = read;
    k.uniform = Some(UniformOutputs {
        sgprs,
        exec,
        vcc: ballot,
        scc: nz,
    });
    debug_assert_eq!(k.validate(), Ok(()));
    k
}
