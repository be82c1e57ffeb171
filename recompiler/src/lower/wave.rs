//! The wave contract's lowering state (docs/dataset-format.md, "Wave contract"): before the
//! body s0..s15 and s24..s103 are the wave's `s_in` ([`Expr::SgprIn`]; of s24..s103 only those
//! the body names, as no other can be read), or constants in a kernel lowered for one wave's
//! values ([`SgprValues`]), EXEC is `exec_in` ([`Expr::ExecIn`];
//! a wave32's EXEC_HI is 0), VCC, M0 and SCC are 0; lane masks that VALU instructions write
//! (VOPC into VCC, an SGPR pair or EXEC, carries, `v_div_scale`) are the wave's ballot of the
//! lanes' bits ANDed with EXEC. After the body the kernel's uniform outputs are s0..s15,
//! EXEC, VCC (a wave32's high halves are 0) and SCC.
//! A wave64 is 64 lanes whatever the host's subgroup size: EXEC as a value, a lane's own
//! EXEC bit, ballots and cross-lane reads cover lanes 32-63 (rule: wave64-upper-lanes).

use super::regs::Lowerer;
use crate::ir::{Expr, Handle, IntBin, Ty, UniformOutputs};
use rdnaprobe_contract::SGPR_INPUTS;
use rdnaprobe_isa::{Decoded, FloatMode, Target, Wave};

/// The values of a wave's SGPR inputs (`s_in`, s0..s103) that a kernel is lowered for
/// (`super::specialises_on_sgprs`); `None`: the kernel reads them at run time.
pub type SgprValues<'a> = Option<&'a [u32; SGPR_INPUTS]>;

/// SCC's source operand code: where the lowering keeps SCC (a `U32`, 0 or 1).
pub(super) use super::regs::SCC;
use rdnaprobe_isa::operand::code::{EXEC_HI, EXEC_LO, VCC_HI, VCC_LO};

impl Lowerer {
    /// A lowering state under the wave contract for `body`, its SGPR inputs read at run time
    /// or, with `known`, the constants a kernel for one wave's `s_in` holds.
    pub(super) fn new_wave(
        mode: FloatMode,
        wave: Wave,
        gfx: Target,
        body: &[Decoded],
        known: SgprValues,
    ) -> Lowerer {
        let mut l = Lowerer::new(mode, wave, gfx);
        l.wave_contract = true;
        l.exec_all = false;
        let high = super::movrel::named_registers(body, wave, 's', SGPR_INPUTS as u16 - 1);
        let inputs = (0..16u16).chain(high.into_iter().filter(|&s| s >= 24));
        for i in inputs {
            let s = match known {
                Some(v) => l.b.c32(v[usize::from(i)]),
                None => l.b.push(Expr::SgprIn(i as u8)),
            };
            l.sgpr_init(i, s);
        }
        let exec = l.b.push(Expr::ExecIn);
        let lo = l.b.trunc64(exec);
        let hi = if wave == Wave::W64 {
            let c32 = l.b.c64(32);
            let h = l.b.ib(IntBin::ShrU, exec, c32);
            l.b.trunc64(h)
        } else {
            l.b.c32(0)
        };
        l.sgpr_init(EXEC_LO, lo);
        l.sgpr_init(EXEC_HI, hi);
        l
    }

    /// The wave's ballot of `bit` (`Bool`) as the dwords of a lane mask: one for wave32, two
    /// for wave64.
    pub(super) fn ballot_dwords(&mut self, bit: Handle) -> Vec<Handle> {
        let m = self.b.push(Expr::WaveBallot(bit));
        let lo = self.b.trunc64(m);
        if self.wave == Wave::W64 {
            let c32 = self.b.c64(32);
            let h = self.b.ib(IntBin::ShrU, m, c32);
            vec![lo, self.b.trunc64(h)]
        } else {
            vec![lo]
        }
    }

    /// The whole EXEC mask as a `U64`.
    pub(super) fn exec64(&mut self) -> Handle {
        self.mask64(EXEC_LO)
    }

    /// The lane mask held at `code`, `code + 1` as a `U64` (a wave32 reads only `code`).
    fn mask64(&mut self, code: u16) -> Handle {
        let lo = self.sgpr_get(code);
        let hi = if self.wave == Wave::W64 {
            self.sgpr_get(code + 1)
        } else {
            self.b.c32(0)
        };
        self.b.pack64(lo, hi)
    }

    /// s0..s15, EXEC, VCC and SCC after the body.
    pub(super) fn uniform_outputs(&mut self) -> UniformOutputs {
        let sgprs = (0..16u16).map(|i| self.sgpr_get(i)).collect();
        let exec = self.mask64(EXEC_LO);
        let vcc = self.mask64(VCC_LO);
        let scc = self.sgpr_get(SCC);
        let scc = if self.b.ty(scc) == Ty::Bool {
            scc
        } else {
            self.b.nec(scc, 0)
        };
        debug_assert_eq!(VCC_HI, VCC_LO + 1);
        debug_assert_eq!(EXEC_HI, EXEC_LO + 1);
        UniformOutputs {
            sgprs,
            exec,
            vcc,
            scc,
        }
    }
}
