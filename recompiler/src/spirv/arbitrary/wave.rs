//! Random kernels for the wave contract: a random per-lane kernel extended with the
//! cross-lane primitives and uniform inputs and outputs, so that the wave executors (the CPU
//! model's `wave::run_wave` and the SPIR-V wave module) can be held to identical bits.

use crate::ir::{Convert, Expr, IntBin, IntCmp, Kernel, LdsOp, Ty, UniformOutputs};

/// `k` with cross-lane outputs: out11 = the old value of an LDS atomic (at byte `in1 & 0x7f`
/// with data out3, on the lanes with out0 != 0), out12 = an LDS read after it, out13 = out2 +
/// s(seed % 16), out14 = the low half of ballot(out0 != 0), out15 = out1 of lane `in0 %
/// wave`; uniform outputs: s0..s15 = the ballot's high half plus sgpr k, EXEC = EXEC before,
/// VCC = the ballot, SCC = lane 0's `out0 != 0`.
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
    // LDS: a lane-ordered atomic at a byte address from in1 (unaligned ones included), then
    // a read at another address.
    let in1 = k.push(Expr::Input(1));
    let mask = k.push(Expr::Const {
        ty: Ty::U32,
        bits: 0x7f,
    });
    let addr = k.push(Expr::IntBin {
        op: IntBin::And,
        a: in1,
        b: mask,
    });
    let op = [
        LdsOp::Add,
        LdsOp::MaxU,
        LdsOp::Write,
        LdsOp::Xor,
        LdsOp::Dec,
    ][(seed % 5) as usize];
    let old = k.push(Expr::lds(op, addr, k.outputs[3], nz));
    let back = k.push(Expr::IntBin {
        op: IntBin::Xor,
        a: addr,
        b: plus,
    });
    let back = k.push(Expr::IntBin {
        op: IntBin::And,
        a: back,
        b: mask,
    });
    let yes = k.push(Expr::Const {
        ty: Ty::Bool,
        bits: 1,
    });
    let lds_read = k.push(Expr::lds(LdsOp::Read, back, zero, yes));
    k.outputs[11] = old;
    k.outputs[12] = lds_read;
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
