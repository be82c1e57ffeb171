//! Control flow under the wave contract: s_branch, s_cbranch_scc0/scc1/vccz/vccnz/execz/
//! execnz, s_endpgm or s_setkill before the body's end, and the program-counter ops
//! (s_getpc_b64, s_call_b64, s_setpc_b64, s_swappc_b64: `calls`). RDNA2 branches are wave-uniform (SCC, VCC and
//! EXEC are the same on every lane), so the body becomes basic blocks
//! ([`Block`](crate::ir::Block)) that every lane runs together: a block starts at the body's
//! first word, at a branch target and after a branch or s_endpgm. A branch offset counts
//! dwords from the instruction after the branch (RDNA2 ISA, SOPP: `PC + 4 + simm16 * 4`); a
//! target at the body's end, like s_endpgm, goes to the exit.
//!
//! Registers live in variables across blocks: a block reads a register it has not written
//! yet as its variable ([`Expr::Var`]: VGPR `r` is variable `r`, scalar source code `c` is
//! [`SCALAR_VARS`]` + c`, SCC is code 253) and stores every register it wrote at its end. The
//! exit code reads the variables and forms the outputs.

use super::calls::{self, Pc};
use super::dispatch::flow;
use super::regs::Lowerer;
use super::wave::SCC;
use super::{LowerError, RuleError};
use crate::ir::{Block, Expr, Handle, Kernel, Terminator};
use rdnaprobe_isa::operand::code;
use rdnaprobe_isa::{Decoded, Instruction, Opcode, Wave};

/// The variable of scalar source code `c` is `SCALAR_VARS + c`.
pub(super) const SCALAR_VARS: u16 = 256;

/// The error of a branch under the lane contract.
pub(super) const NEEDS_WAVE: &str =
    "control flow: needs the wave contract (give the rows a wave_id column, docs/dataset-format.md)";

/// What a control-flow instruction does: the dispatch's [`Rule::Flow`](super::dispatch::Rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    /// s_branch and s_cbranch_*: a branch by SIMM16 words.
    Branch(Branch),
    /// The program-counter ops (`lower::calls`).
    Pc(Pc),
    /// s_barrier: the waves of a workgroup meet.
    Barrier,
    /// s_endpgm, and s_setkill with any immediate (rule: s-setkill-ends).
    EndWave,
}

/// When a branch is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Branch {
    Always,
    Scc0,
    Scc1,
    Vccz,
    Vccnz,
    Execz,
    Execnz,
}

/// The branch of `op`, if it is one.
fn branch_of(op: Opcode) -> Option<Branch> {
    match flow(op) {
        Some(Flow::Branch(b)) => Some(b),
        Some(Flow::Pc(_) | Flow::Barrier | Flow::EndWave) | None => None,
    }
}

fn ends_wave(op: Opcode) -> bool {
    flow(op) == Some(Flow::EndWave)
}

fn ends_block(inst: &Instruction) -> bool {
    match flow(inst.info().op()) {
        Some(
            Flow::Branch(_) | Flow::Barrier | Flow::EndWave | Flow::Pc(Pc::Call | Pc::Jump { .. }),
        ) => true,
        Some(Flow::Pc(Pc::Get)) | None => false,
    }
}

/// Whether `body` needs blocks: a branch, a program-counter op, an s_barrier (where the
/// waves of a workgroup meet), or an s_endpgm / s_setkill before its last instruction.
pub(super) fn has_control_flow(body: &[Decoded]) -> bool {
    body.iter().enumerate().any(|(i, d)| match d {
        Decoded::Inst(inst) => match flow(inst.info().op()) {
            Some(Flow::Branch(_) | Flow::Pc(_) | Flow::Barrier) => true,
            Some(Flow::EndWave) => i + 1 < body.len(),
            None => false,
        },
        Decoded::Unsupported(_) => false,
    })
}

/// The part of a lane-contract body that runs: up to and including the first instruction
/// that ends the wave, as nothing after it executes (a branch before it is refused anyway).
pub(super) fn reachable(body: &[Decoded]) -> &[Decoded] {
    let end = body.iter().position(|d| match d {
        Decoded::Inst(inst) => ends_wave(inst.info().op()),
        Decoded::Unsupported(_) => false,
    });
    end.map_or(body, |i| &body[..=i])
}

impl Lowerer {
    /// A register's value when this block has neither read nor written it: 0 in a body
    /// without blocks, else its variable.
    pub(super) fn unset(&mut self, var: u16) -> Handle {
        if !self.vars {
            return self.b.c32(0);
        }
        let h = self.b.push(Expr::Var(var));
        if !(SCALAR_VARS..super::scratch::SCRATCH_REG).contains(&var) {
            // a VGPR, or a private dword (super::scratch)
            self.vgpr.insert(var, h);
        } else {
            self.sgpr.insert(var - SCALAR_VARS, h);
        }
        h
    }

    /// The registers this block wrote, as variable stores.
    fn stores(&self) -> Vec<(u16, Handle)> {
        let regs = self.vgpr.iter().map(|(&r, &h)| (r, h));
        let scalars = self.sgpr.iter().map(|(&c, &h)| (SCALAR_VARS + c, h));
        let mut v: Vec<(u16, Handle)> = regs
            .chain(scalars)
            .filter(|&(id, h)| self.b.k.exprs[h.index()] != Expr::Var(id))
            .collect();
        v.sort_unstable();
        v
    }

    /// The lane mask at scalar code `code` (a pair on wave64) is zero.
    fn mask_zero(&mut self, code: u16) -> Handle {
        let lo = self.sgpr_get(code);
        if self.wave == Wave::W64 {
            let hi = self.sgpr_get(code + 1);
            let o = self.b.or(lo, hi);
            self.b.eqc(o, 0)
        } else {
            self.b.eqc(lo, 0)
        }
    }

    /// The condition under which branch `br` is taken (`None`: always).
    fn branch_cond(&mut self, br: Branch) -> Option<Handle> {
        let scc = |l: &mut Lowerer| {
            let s = l.sgpr_get(SCC);
            l.b.eqc(s, 0)
        };
        let c = match br {
            Branch::Always => return None,
            Branch::Scc0 => scc(self),
            Branch::Scc1 => {
                let z = scc(self);
                self.b.bnot(z)
            }
            Branch::Vccz => self.mask_zero(code::VCC_LO),
            Branch::Vccnz => {
                let z = self.mask_zero(code::VCC_LO);
                self.b.bnot(z)
            }
            Branch::Execz => self.mask_zero(code::EXEC_LO),
            Branch::Execnz => {
                let z = self.mask_zero(code::EXEC_LO);
                self.b.bnot(z)
            }
        };
        Some(c)
    }
}

/// Which instructions of `body` can run, from the first one: fall-through, branch targets,
/// and for a jump to an SGPR pair every function entry (word offsets in `entries`) and the
/// return site of every call that can run itself. Another kernel of the same code object, or
/// a function nothing calls, is not reached (its calls add no return sites).
fn live_code(body: &[Decoded], offsets: &[usize], entries: &[usize]) -> Vec<bool> {
    let n = body.len();
    let index_of = |word: i64| offsets.iter().position(|&o| o as i64 == word);
    let mut live = vec![false; n];
    let mut work = vec![0];
    let mut jumped = false;
    while let Some(i) = work.pop() {
        if i >= n || live[i] {
            continue;
        }
        live[i] = true;
        let Decoded::Inst(inst) = &body[i] else {
            continue;
        };
        let op = inst.info().op();
        let branch = || {
            let simm = i64::from(inst.words()[0] as u16 as i16);
            index_of(offsets[i] as i64 + 1 + simm)
        };
        if ends_wave(op) {
            continue;
        }
        match calls::pc_use(op) {
            Some(Pc::Jump { link }) => {
                if !jumped {
                    jumped = true;
                    work.extend(
                        offsets
                            .iter()
                            .enumerate()
                            .filter_map(|(k, o)| entries.contains(o).then_some(k)),
                    );
                }
                if link {
                    work.push(i + 1);
                }
            }
            Some(Pc::Call) => work.extend(branch().into_iter().chain([i + 1])),
            Some(Pc::Get) | None => match branch_of(op) {
                Some(br) => {
                    work.extend(branch());
                    if br != Branch::Always {
                        work.push(i + 1);
                    }
                }
                None => work.push(i + 1),
            },
        }
    }
    live
}

/// The error of words the decoder did not recognise, at word `offset`.
pub(super) fn undecoded(offset: usize, u: &rdnaprobe_isa::decode::Unsupported) -> LowerError {
    LowerError::Undecoded {
        offset,
        unknown: u.clone(),
    }
}

/// Lowers a body with control flow (see the module docs).
pub(super) fn lower_cfg(mut l: Lowerer, body: &[Decoded]) -> Result<Kernel, LowerError> {
    let mut offsets = Vec::with_capacity(body.len());
    let mut words = 0usize;
    for d in body {
        offsets.push(words);
        words += d.len();
    }
    let undecoded_at = |i: usize| match &body[i] {
        Decoded::Unsupported(u) => undecoded(offsets[i], u),
        Decoded::Inst(inst) => Lowerer::unsupported(
            inst,
            offsets[i],
            RuleError::operand("an instruction where undecoded words were expected"),
        ),
    };
    // The error of instruction `i`: the rule's reason, or the decoder's for words it did not
    // recognise.
    let unsupported = |i: usize, reason: RuleError| match &body[i] {
        Decoded::Inst(inst) => Lowerer::unsupported(inst, offsets[i], reason),
        Decoded::Unsupported(u) => undecoded(offsets[i], u),
    };
    // Branch targets as instruction indices (`body.len()`: the exit). A body with a jump to
    // an SGPR pair may go to any instruction: each one starts a block.
    let mut target_of = vec![None; body.len()];
    let indirect = body.iter().any(|d| match d {
        Decoded::Inst(inst) => matches!(calls::pc_use(inst.info().op()), Some(Pc::Jump { .. })),
        Decoded::Unsupported(_) => false,
    });
    // With known targets (function entries and returns), only those start blocks for the
    // jumps, and only the code that can run from the first instruction is lowered; otherwise
    // every instruction may be a target.
    let live = match &l.jump_targets {
        Some(entries) => live_code(body, &offsets, entries),
        None => vec![true; body.len()],
    };
    let indirect = indirect
        && (l.jump_targets.is_none()
            || body.iter().zip(&live).any(|(d, &live)| {
                live && matches!(d, Decoded::Inst(inst)
                    if matches!(calls::pc_use(inst.info().op()), Some(Pc::Jump { .. })))
            }));
    let mut is_target = vec![indirect && l.jump_targets.is_none(); body.len() + 1];
    if indirect {
        if let Some(t) = &l.jump_targets {
            for (i, &o) in offsets.iter().enumerate() {
                is_target[i] = t.contains(&o);
            }
            for (i, d) in body.iter().enumerate() {
                if let Decoded::Inst(inst) = d {
                    if live[i] && calls::pc_use(inst.info().op()).is_some_and(|p| p != Pc::Get) {
                        is_target[i + 1] = true;
                    }
                }
            }
        }
        is_target[body.len()] = true;
    }
    let mut leader = is_target.clone();
    leader[0] = true;
    // Code that never runs is a block of its own that does nothing.
    for i in 1..body.len() {
        leader[i] |= live[i] != live[i - 1];
    }
    for (i, d) in body.iter().enumerate() {
        let Decoded::Inst(inst) = d else {
            return Err(undecoded_at(i));
        };
        if !ends_block(inst) {
            continue;
        }
        leader[i + 1] = true;
        let op = inst.info().op();
        if branch_of(op).is_some() || calls::pc_use(op) == Some(Pc::Call) {
            let simm = i64::from(inst.words()[0] as u16 as i16);
            let to = offsets[i] as i64 + 1 + simm;
            let idx = if to == words as i64 {
                Some(body.len())
            } else {
                offsets.iter().position(|&o| o as i64 == to)
            };
            let Some(idx) = idx else {
                return Err(unsupported(
                    i,
                    RuleError::operand(format!(
                        "branch target word {to} is not an instruction of the body (0..{words})"
                    )),
                ));
            };
            leader[idx] = true;
            target_of[i] = Some(idx);
        }
    }
    // block index of each leader instruction
    let starts: Vec<usize> = (0..body.len()).filter(|&i| leader[i]).collect();
    // the dispatch chain: a block per instruction and the end, and one that never ends
    let chain = starts.len() as u32;
    let chained: Vec<usize> = (0..=body.len()).filter(|&i| is_target[i]).collect();
    let exit = if indirect {
        chain + calls::chain_blocks(chained.len())
    } else {
        chain
    };
    let block_at = |i: usize| {
        starts
            .iter()
            .position(|&s| s == i)
            .map_or(exit, |b| b as u32)
    };
    l.vars = true;
    let mut blocks = Vec::with_capacity(starts.len());
    for (bi, &start) in starts.iter().enumerate() {
        let end = starts.get(bi + 1).copied().unwrap_or(body.len());
        if bi > 0 {
            l.vgpr.clear();
            l.sgpr.clear();
        }
        // Block 0 also holds the contract's setup (inputs, s_in, EXEC).
        let first = if bi == 0 { 0 } else { l.b.k.exprs.len() as u32 };
        l.block = Some((bi, first));
        let mut term = Terminator::Jump(block_at(end));
        let mut barrier = false;
        let mut target = Vec::new();
        if !live[start] {
            term = Terminator::Jump(exit);
        }
        for i in (start..end).filter(|_| live[start]) {
            let Decoded::Inst(inst) = &body[i] else {
                return Err(undecoded_at(i));
            };
            let op = inst.info().op();
            let next = offsets[i] + body[i].len();
            match calls::pc_use(op) {
                Some(Pc::Get) => {
                    l.write_link(inst, next).map_err(|e| unsupported(i, e))?;
                    continue;
                }
                Some(Pc::Call) => l.write_link(inst, next).map_err(|e| unsupported(i, e))?,
                Some(Pc::Jump { link }) => {
                    target = l.jump_target(inst).map_err(|e| unsupported(i, e))?;
                    if link {
                        l.write_link(inst, next).map_err(|e| unsupported(i, e))?;
                    }
                    term = Terminator::Jump(chain);
                    continue;
                }
                None => {}
            }
            if flow(op) == Some(Flow::Barrier) {
                barrier = true;
            } else if ends_wave(op) {
                term = Terminator::Jump(exit);
            } else if let Some(to) = target_of[i] {
                // a branch, or s_call_b64's jump to its callee
                let to = block_at(to);
                term = match branch_of(op).and_then(|br| l.branch_cond(br)) {
                    None => Terminator::Jump(to),
                    Some(cond) => Terminator::Branch {
                        cond,
                        then: to,
                        other: block_at(end),
                    },
                };
            } else {
                l.inst(inst, offsets[i])?;
            }
        }
        let mut stores = l.stores();
        stores.extend(target);
        blocks.push(Block {
            exprs: first..l.b.k.exprs.len() as u32,
            stores,
            term,
            barrier,
        });
    }
    l.block = None;
    if indirect {
        let targets: Vec<(usize, u32)> = chained
            .iter()
            .map(|&i| {
                let word = offsets.get(i).copied().unwrap_or(words);
                (word, if i == body.len() { exit } else { block_at(i) })
            })
            .collect();
        blocks.extend(calls::dispatch_chain(&mut l, &targets, chain));
    }
    l.vgpr.clear();
    l.sgpr.clear();
    let mut k = l.finish();
    k.blocks = blocks;
    debug_assert_eq!(k.validate(), Ok(()));
    Ok(k)
}
