//! The lowering state: the register files (VGPRs, SGPRs, VCC, EXEC, M0) as IR values under the
//! lane contract, and the reads and writes of register operands. Lane masks are held per lane:
//! this lane's bit is what a write sets and a read tests.

use super::error::{RuleError, RuleResult};
use crate::builder::Builder;
use crate::ir::known_bits::Bits;
use crate::ir::{Expr, Handle, IntBin, IntCmp, Kernel};
use rdnaprobe_isa::operand::code;
use rdnaprobe_isa::{FloatMode, Operand, RegKind, Special, Target, Wave};
use std::collections::HashMap;

/// The per-body lowering state: the register files as IR values.
pub(crate) struct Lowerer {
    pub(crate) b: Builder,
    pub(crate) mode: FloatMode,
    pub(crate) wave: Wave,
    pub(crate) gfx: Target,
    pub(super) vgpr: HashMap<u16, Handle>,
    /// Scalar registers by source code (SGPRs, VCC 106/107, TTMP, M0 124, EXEC 126/127).
    pub(super) sgpr: HashMap<u16, Handle>,
    pub(super) lane: Handle,
    /// EXEC is known to hold every lane (no body instruction wrote it).
    pub(super) exec_all: bool,
    /// Lowering under the wave contract: s0..s15 and EXEC come from the wave's inputs, lane
    /// masks written by VALU instructions are whole-wave ballots, and the kernel has uniform
    /// outputs (see `wave_regs`).
    pub(crate) wave_contract: bool,
    /// Lowering a body with control flow: a register not yet read or written in the current
    /// block reads its variable (see `control`) instead of 0.
    pub(super) vars: bool,
    /// Scalar-ALU state beside the register files.
    pub(super) scalar: super::salu::State,
    /// The VGPRs the body names (see `movrel`): the registers a run-time-M0 relative move
    /// selects over.
    pub(super) named_vgprs: Vec<u16>,
    /// The word offsets an indirect jump may go to besides returns (function entries), when
    /// known (`lower_program_words`); `None`: any instruction.
    pub(super) jump_targets: Option<Vec<usize>>,
    /// With control flow, the known bits of the scalar registers' variables whenever each
    /// block begins, by block (`lower_program_words`, [`Kernel::entry_bits`]).
    pub(super) entry_bits: Vec<HashMap<u16, Bits>>,
    /// The block being lowered (`control`): its index, for [`Self::entry_bits`] (a register
    /// whose every bit is known when it begins reads as that constant), and its first
    /// expression. `None` outside the blocks (a straight body, the dispatch chain).
    pub(super) block: Option<(usize, u32)>,
    /// Memory no wave writes while the kernel runs (`lower_program_words`): region address
    /// and dwords. A scalar load at a known address inside it is those words.
    pub(super) read_only: std::rc::Rc<[(u64, Vec<u32>)]>,
    /// Samples, gathers and loads go to the host's texture unit (`ImagePath::Native`).
    pub(super) native_images: bool,
}

/// Where SCC lives in the scalar register map: its source-operand code (`src_scc`), as U32 0/1.
pub(super) use rdnaprobe_isa::operand::code::SCC;

/// Where an operand's value lives, for writes.
fn sreg_code(kind: RegKind, index: u16) -> Option<u16> {
    match kind {
        RegKind::Sgpr => Some(index),
        RegKind::Vcc => Some(code::VCC_LO + index),
        RegKind::Ttmp => Some(code::TTMP0 + index),
        RegKind::M0 => Some(code::M0),
        RegKind::Exec => Some(code::EXEC_LO + index),
        RegKind::Null | RegKind::Vgpr => None,
    }
}

impl Lowerer {
    pub(super) fn new(mode: FloatMode, wave: Wave, gfx: Target) -> Lowerer {
        let mut b = Builder::new();
        let mut vgpr = HashMap::new();
        for i in 0..6u8 {
            let h = b.push(Expr::Input(i));
            vgpr.insert(4 + u16::from(i), h);
        }
        let lane = b.push(Expr::LaneId);
        let mut sgpr = HashMap::new();
        let all = b.c32(u32::MAX);
        sgpr.insert(code::EXEC_LO, all);
        if wave == Wave::W64 {
            sgpr.insert(code::EXEC_HI, all);
        }
        Lowerer {
            b,
            mode,
            wave,
            gfx,
            vgpr,
            sgpr,
            lane,
            exec_all: true,
            scalar: Default::default(),
            wave_contract: false,
            vars: false,
            named_vgprs: Vec::new(),
            jump_targets: None,
            entry_bits: Vec::new(),
            block: None,
            read_only: std::rc::Rc::new([]),
            native_images: false,
        }
    }

    /// Sets scalar register `code` (no EXEC bookkeeping; the wave contract's setup).
    pub(super) fn sgpr_init(&mut self, code: u16, v: Handle) {
        self.sgpr.insert(code, v);
    }

    pub(super) fn finish(mut self) -> Kernel {
        let outs: Vec<Handle> = (10..26u16).map(|r| self.vgpr_get(r)).collect();
        self.b.k.outputs = outs;
        if self.wave_contract {
            self.b.k.uniform = Some(self.uniform_outputs());
        }
        debug_assert_eq!(self.b.k.validate(), Ok(()));
        self.b.k
    }

    pub(crate) fn vgpr_get(&mut self, r: u16) -> Handle {
        match self.vgpr.get(&r) {
            Some(&h) => h,
            None => self.unset(r),
        }
    }
    pub(super) fn sgpr_get(&mut self, code: u16) -> Handle {
        if let Some(&h) = self.sgpr.get(&code) {
            return h;
        }
        if let Some(v) = self.var_value(code) {
            let h = self.b.c32(v);
            self.sgpr.insert(code, h);
            return h;
        }
        self.unset(super::control::SCALAR_VARS + code)
    }

    /// The value scalar register `code` holds when the current block begins, when known.
    fn var_value(&self, code: u16) -> Option<u32> {
        let id = super::control::SCALAR_VARS + code;
        let v = self.block_vars()?.get(&id)?.value()?;
        Some(v as u32)
    }

    /// The known bits of the variables when the current block begins.
    fn block_vars(&self) -> Option<&HashMap<u16, Bits>> {
        self.entry_bits.get(self.block?.0)
    }

    /// The dword at region address `at` (a multiple of 4) when read-only memory holds it.
    pub(super) fn read_only_dword(&self, at: u64) -> Option<u32> {
        self.read_only.iter().find_map(|(base, words)| {
            let i = at.checked_sub(*base)? / 4;
            words.get(usize::try_from(i).ok()?).copied()
        })
    }

    /// The known bits of `h`: its block's expressions evaluated with the variables' bits
    /// when the block begins ([`Self::entry_bits`]); a body without blocks from its start.
    pub(super) fn known_bits(&self, h: Handle) -> Bits {
        let start = self.block.map_or(0, |(_, start)| start);
        let Some(at) = h.index().checked_sub(start as usize) else {
            return self.b.k.leaf_bits(h);
        };
        let none = HashMap::new();
        let vars = self.block_vars().unwrap_or(&none);
        self.b.k.bits_in(start..h.0 + 1, vars)[at]
    }

    /// Sets SCC (a U32 0/1).
    pub(super) fn set_scc(&mut self, v: Handle) {
        self.sgpr.insert(SCC, v);
    }

    /// This lane's EXEC bit, or `None` when EXEC is known to be all ones.
    pub(super) fn exec_bit(&mut self) -> Option<Handle> {
        if self.exec_all {
            return None;
        }
        let lo = self.sgpr_get(code::EXEC_LO);
        let hi = self.sgpr_get(code::EXEC_HI);
        Some(self.lane_bit(lo, hi))
    }

    /// Bit `lane` of the mask held in (lo, hi).
    pub(super) fn lane_bit(&mut self, lo: Handle, hi: Handle) -> Handle {
        let b = &mut self.b;
        let l31 = b.andc(self.lane, 31);
        let word = if self.wave == Wave::W64 {
            let upper = b.icmpc(IntCmp::GeU, self.lane, 32);
            b.sel(upper, hi, lo)
        } else {
            lo
        };
        let s = b.ib(IntBin::ShrU, word, l31);
        b.bit(s, 1)
    }

    /// Writes VGPR `r` in this lane whatever EXEC holds (v_writelane_b32).
    pub(super) fn vgpr_put(&mut self, r: u16, v: Handle) {
        self.vgpr.insert(r, v);
    }

    /// Writes VGPR `r` under EXEC.
    pub(crate) fn vgpr_set(&mut self, r: u16, v: Handle) {
        let v = match self.exec_bit() {
            Some(e) => {
                let old = self.vgpr_get(r);
                self.b.sel(e, v, old)
            }
            None => v,
        };
        self.vgpr.insert(r, v);
    }

    /// Reads `dwords` dwords of a source operand. `float64` says how a literal widens to 64
    /// bits (an f64 literal is the high dword).
    pub(crate) fn read(
        &mut self,
        op: &Operand,
        dwords: u8,
        float64: bool,
    ) -> RuleResult<Vec<Handle>> {
        let n = usize::from(dwords.max(1));
        let mut out = Vec::with_capacity(n);
        match *op {
            Operand::Reg(r) => {
                for i in 0..n as u16 {
                    let h = match r.kind {
                        RegKind::Vgpr => self.vgpr_get(r.index + i),
                        RegKind::Null => self.b.c32(0),
                        k => {
                            let code = sreg_code(k, r.index + i).unwrap_or(code::NULL);
                            self.sgpr_get(code)
                        }
                    };
                    out.push(h);
                }
            }
            Operand::InlineInt(v) => {
                out.push(self.b.c32(v as i32 as u32));
                if n == 2 {
                    out.push(self.b.c32(if v < 0 { u32::MAX } else { 0 }));
                }
            }
            Operand::InlineFloat { bits, .. } => {
                out.push(self.b.c32(bits as u32));
                if n == 2 {
                    out.push(self.b.c32((bits >> 32) as u32));
                }
            }
            Operand::Literal(v) => {
                if n == 2 && float64 {
                    out.push(self.b.c32(0));
                    out.push(self.b.c32(v));
                } else {
                    out.push(self.b.c32(v));
                    if n == 2 {
                        out.push(self.b.c32(0));
                    }
                }
            }
            Operand::Special(Special::Execz) | Operand::Special(Special::Vccz) => {
                let code = if matches!(op, Operand::Special(Special::Execz)) {
                    code::EXEC_LO
                } else {
                    code::VCC_LO
                };
                let lo = self.sgpr_get(code);
                let hi = self.sgpr_get(code + 1);
                let z = if self.wave == Wave::W64 {
                    let o = self.b.or(lo, hi);
                    self.b.eqc(o, 0)
                } else {
                    self.b.eqc(lo, 0)
                };
                out.push(self.b.b2u(z));
            }
            Operand::Special(Special::Scc) => out.push(self.sgpr_get(SCC)),
            Operand::Special(s) => {
                return Err(RuleError::not_modelled(format!(
                    "source {} is not modelled",
                    s.name()
                )))
            }
            Operand::Invalid(c) => {
                return Err(RuleError::operand(format!("invalid source code {c}")))
            }
        }
        out.truncate(n);
        while out.len() < n {
            let z = self.b.c32(0);
            out.push(z);
        }
        Ok(out)
    }

    pub(crate) fn read32(&mut self, op: &Operand) -> RuleResult<Handle> {
        Ok(self.read(op, 1, false)?[0])
    }

    /// Reads a 64-bit source as `U64`.
    pub(crate) fn read64(&mut self, op: &Operand, float: bool) -> RuleResult<Handle> {
        let v = self.read(op, 2, float)?;
        Ok(self.b.pack64(v[0], v[1]))
    }

    /// This lane's bit of a lane-mask source.
    pub(crate) fn read_mask(&mut self, op: &Operand) -> RuleResult<Handle> {
        let n = if self.wave == Wave::W64 { 2 } else { 1 };
        let v = self.read(op, n, false)?;
        let hi = if n == 2 { v[1] } else { v[0] };
        Ok(self.lane_bit(v[0], hi))
    }

    /// Writes a 32-bit scalar destination (whole register).
    pub(super) fn write_sreg(&mut self, op: &Operand, vals: &[Handle]) -> RuleResult {
        match *op {
            Operand::Reg(r) => {
                if r.kind == RegKind::Null {
                    return Ok(());
                }
                for (i, &v) in vals.iter().enumerate() {
                    let code = sreg_code(r.kind, r.index + i as u16).ok_or_else(|| {
                        RuleError::operand("destination is not a scalar register")
                    })?;
                    if code == code::EXEC_LO || code == code::EXEC_HI {
                        self.exec_all = false;
                    }
                    self.sgpr.insert(code, v);
                }
                Ok(())
            }
            _ => Err(RuleError::operand("destination is not a register")),
        }
    }

    /// Writes this lane's bit `bit` (Bool) of a lane-mask destination, ANDed with EXEC. Under
    /// the lane contract the other lanes' bits are 0 in this lane's view; under the wave
    /// contract the mask is the wave's ballot (rule: compare-mask).
    pub(crate) fn write_mask(&mut self, op: &Operand, bit: Handle) -> RuleResult {
        let bit = match self.exec_bit() {
            Some(e) => self.b.band(e, bit),
            None => bit,
        };
        if self.wave_contract {
            let vals = self.ballot_dwords(bit);
            return self.write_sreg(op, &vals);
        }
        let b = &mut self.b;
        let u = b.b2u(bit);
        let l31 = b.andc(self.lane, 31);
        let sh = b.ib(IntBin::Shl, u, l31);
        let vals = if self.wave == Wave::W64 {
            let upper = b.icmpc(IntCmp::GeU, self.lane, 32);
            let z = b.c32(0);
            let lo = b.sel(upper, z, sh);
            let hi = b.sel(upper, sh, z);
            vec![lo, hi]
        } else {
            vec![sh]
        };
        self.write_sreg(op, &vals)
    }

    /// Writes the first destination (a VGPR, `dwords` wide).
    pub(crate) fn write_vdst(&mut self, op: &Operand, vals: &[Handle]) -> RuleResult {
        match *op {
            Operand::Reg(r) if r.kind == RegKind::Vgpr => {
                for (i, &v) in vals.iter().enumerate() {
                    self.vgpr_set(r.index + i as u16, v);
                }
                Ok(())
            }
            Operand::Reg(_) => self.write_sreg(op, vals),
            _ => Err(RuleError::operand("destination is not a register")),
        }
    }
}
