//! The program counter under the wave contract: s_getpc_b64, s_call_b64, s_setpc_b64 and
//! s_swappc_b64 (rule: scalar-calls).
//!
//! The body's first word sits at the virtual code address [`CODE_BASE`] (the `hip` backend has
//! the real one, so a body that keeps a code address in an output depends on it, like one that
//! keeps a memory address). An instruction's "PC + 4" is the address of the word after it. A
//! jump to an address held in SGPRs (s_setpc_b64, s_swappc_b64) goes through one dispatch
//! chain appended after the body's blocks: the jump stores its target in two variables
//! ([`TARGET_LO`], [`TARGET_HI`]) and chain block `j` branches to instruction `j` when the
//! target is its address (the end of the body is the exit). A target that is no instruction
//! of the body never ends: the chain's last block jumps to itself, so the watchdog stops the
//! wave with its error.

use super::control::Flow;
use super::error::{RuleError, RuleResult};
use super::regs::Lowerer;
use crate::ir::{Block, Expr, Handle, IntCmp, Terminator};
use rdnaprobe_isa::{Instruction, Opcode};

/// The code address of the body's first word.
pub const CODE_BASE: u64 = 0x0000_2000_0000_0000;

/// The variables that carry a jump's target address into the dispatch chain: past a lane's
/// private dwords (they once shared dwords 0 and 1 of scratch, so a call overwrote a frame at
/// offset 0 with its return address).
const TARGET_LO: u16 = super::scratch::SCRATCH_REG + super::scratch::SCRATCH_DWORDS;
const TARGET_HI: u16 = TARGET_LO + 1;

/// How an instruction uses the program counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pc {
    /// s_getpc_b64: writes its own "PC + 4".
    Get,
    /// s_call_b64: writes "PC + 4" and branches to a constant offset.
    Call,
    /// s_setpc_b64, and s_swappc_b64 (`link`: which also writes "PC + 4"): a jump to an SGPR
    /// pair.
    Jump { link: bool },
}

/// The program-counter use of `op`, if any.
pub(super) fn pc_use(op: Opcode) -> Option<Pc> {
    match super::dispatch::flow(op) {
        Some(Flow::Pc(p)) => Some(p),
        Some(Flow::Branch(_) | Flow::Barrier | Flow::EndWave) | None => None,
    }
}

impl Lowerer {
    /// Writes the code address `CODE_BASE + 4 * word` to the instruction's destination pair
    /// (nothing for a null destination: s_swappc_b64 with SDST 125 is s_setpc_b64).
    pub(super) fn write_link(&mut self, inst: &Instruction, word: usize) -> RuleResult {
        let Some(d) = inst.dsts(self.wave).into_iter().next() else {
            return Ok(());
        };
        let at = CODE_BASE + 4 * word as u64;
        let lo = self.b.c32(at as u32);
        let hi = self.b.c32((at >> 32) as u32);
        self.write_sreg(&d, &[lo, hi])
    }

    /// The stores that hand the source pair of a jump to the dispatch chain (read before the
    /// instruction writes its link, so s_swappc_b64 may name one pair twice).
    pub(super) fn jump_target(&mut self, inst: &Instruction) -> RuleResult<Vec<(u16, Handle)>> {
        let src = inst
            .srcs(self.wave)
            .into_iter()
            .next()
            .ok_or(RuleError::operand("missing source pair"))?;
        let v = self.read(&src, 2, false)?;
        Ok(vec![(TARGET_LO, v[0]), (TARGET_HI, v[1])])
    }
}

/// The blocks of the dispatch chain for `starts` instruction starts (the body's end counted):
/// a binary search over their addresses (`2 * starts - 1` blocks), then the block that never
/// ends.
pub(super) fn chain_blocks(starts: usize) -> u32 {
    2 * starts as u32
}

/// The dispatch chain (see [`chain_blocks`]): a binary search of the jump target over
/// `targets` (word offset and block, ascending; the body's end last, whose block is the exit),
/// each leaf branching to its block when the target is its address and to the block that
/// never ends otherwise. So a jump costs about `log2(targets) + 1` blocks, which keeps real
/// programs' calls and returns far from the watchdog. `first` is the chain's first block.
pub(super) fn dispatch_chain(l: &mut Lowerer, targets: &[(usize, u32)], first: u32) -> Vec<Block> {
    let trap = first + chain_blocks(targets.len()) - 1;
    let mut blocks: Vec<Option<Block>> = Vec::with_capacity(2 * targets.len());
    let mut chain = Chain {
        l,
        targets,
        first,
        trap,
        blocks: &mut blocks,
    };
    chain.node(0..targets.len());
    let at = l_len(chain.l);
    blocks.push(Some(Block {
        exprs: at..at,
        stores: vec![],
        term: Terminator::Jump(trap),
        barrier: false,
    }));
    blocks
        .into_iter()
        .map(|b| b.expect("every node filled"))
        .collect()
}

fn l_len(l: &Lowerer) -> u32 {
    l.b.k.exprs.len() as u32
}

struct Chain<'a, 'l> {
    l: &'l mut Lowerer,
    targets: &'a [(usize, u32)],
    first: u32,
    trap: u32,
    blocks: &'a mut Vec<Option<Block>>,
}

impl Chain<'_, '_> {
    /// The node searching `keys` (indices into `word_of`), in preorder; gives its block.
    fn node(&mut self, keys: std::ops::Range<usize>) -> u32 {
        let index = self.first + self.blocks.len() as u32;
        self.blocks.push(None);
        let start = l_len(self.l);
        let b = &mut self.l.b;
        let lo = b.push(Expr::Var(TARGET_LO));
        let hi = b.push(Expr::Var(TARGET_HI));
        let block = if keys.len() == 1 {
            let (word, then) = self.targets[keys.start];
            let at = CODE_BASE + 4 * word as u64;
            let lo_ok = b.icmpc(IntCmp::Eq, lo, at & 0xffff_ffff);
            let hi_ok = b.icmpc(IntCmp::Eq, hi, at >> 32);
            let cond = b.band(lo_ok, hi_ok);
            Block {
                exprs: start..l_len(self.l),
                stores: vec![],
                barrier: false,
                term: Terminator::Branch {
                    cond,
                    then,
                    other: self.trap,
                },
            }
        } else {
            let mid = keys.start + keys.len() / 2;
            let at = CODE_BASE + 4 * self.targets[mid].0 as u64;
            // target < at, on the (lo, hi) dwords
            let hi_below = b.icmpc(IntCmp::LtU, hi, at >> 32);
            let hi_same = b.icmpc(IntCmp::Eq, hi, at >> 32);
            let lo_below = b.icmpc(IntCmp::LtU, lo, at & 0xffff_ffff);
            let same_below = b.band(hi_same, lo_below);
            let cond = b.bor(hi_below, same_below);
            let exprs = start..l_len(self.l);
            let then = self.node(keys.start..mid);
            let other = self.node(mid..keys.end);
            Block {
                exprs,
                stores: vec![],
                barrier: false,
                term: Terminator::Branch { cond, then, other },
            }
        };
        self.blocks[(index - self.first) as usize] = Some(block);
        index
    }
}
