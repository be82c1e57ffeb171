//! Control flow in the IR: a kernel's basic blocks ([`Block`]), how each ends
//! ([`Terminator`]) and the invariants that tie expressions to their block (checked by
//! [`Kernel::validate`]).

use super::{Handle, IrError, Kernel, Ty};

/// How a [`Block`] ends. A target equal to the number of blocks is the kernel's exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    Jump(u32),
    /// `cond` is a `Bool` of the block, the same on every lane (wave-uniform); executors take
    /// lane 0's.
    Branch {
        cond: Handle,
        then: u32,
        other: u32,
    },
}

/// One basic block of a kernel with control flow: the expressions `exprs` (a range of
/// handles), the register variables it writes at its end (each `(variable, U32 value)`, all
/// values read before any is written) and where it goes next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub exprs: std::ops::Range<u32>,
    pub stores: Vec<(u16, Handle)>,
    pub term: Terminator,
    /// The block ends at an `s_barrier`: after its stores, the wave waits until every wave
    /// of its workgroup that has not ended reaches a barrier, then follows `term`. A wave
    /// alone in its workgroup goes on at once.
    pub barrier: bool,
}

impl Kernel {
    /// Per expression, whether anything reads its value: another expression, an output, a
    /// uniform output, a block's register store or a branch condition. A memory expression
    /// nobody reads is done for its effect alone (a store).
    pub fn read_values(&self) -> Vec<bool> {
        let mut read = vec![false; self.exprs.len()];
        let mut mark = |h: Handle| {
            if let Some(r) = read.get_mut(h.0 as usize) {
                *r = true;
            }
        };
        for e in &self.exprs {
            Kernel::operands(e).into_iter().for_each(&mut mark);
        }
        self.outputs.iter().copied().for_each(&mut mark);
        if let Some(u) = &self.uniform {
            u.sgprs.iter().copied().for_each(&mut mark);
            [u.exec, u.vcc, u.scc].into_iter().for_each(&mut mark);
        }
        for b in &self.blocks {
            b.stores.iter().for_each(|&(_, h)| mark(h));
            if let Terminator::Branch { cond, .. } = b.term {
                mark(cond);
            }
        }
        read
    }

    /// The block (index; `blocks.len()` for the exit code) that holds expression `h`.
    pub fn block_of(&self, h: Handle) -> usize {
        self.blocks.partition_point(|b| b.exprs.end <= h.0)
    }

    /// Checks the control-flow invariants (see [`Kernel`]).
    pub(super) fn validate_blocks(&self) -> Result<(), IrError> {
        if self.blocks.is_empty() {
            return Ok(());
        }
        let n = self.blocks.len() as u32;
        let cfg = |at: Handle, what: String| Err(IrError::Type { at, what });
        let mut next = 0u32;
        for (i, b) in self.blocks.iter().enumerate() {
            if b.exprs.start != next || b.exprs.end < b.exprs.start {
                return cfg(
                    Handle(next),
                    format!("block {i} does not start where block {} ends", i.max(1) - 1),
                );
            }
            next = b.exprs.end;
        }
        if next as usize > self.exprs.len() {
            return cfg(Handle(next), "blocks run past the expressions".into());
        }
        let local = |h: Handle, block: usize| self.expr(h).is_leaf() || self.block_of(h) == block;
        for (i, e) in self.exprs.iter().enumerate() {
            let at = Handle(i as u32);
            let block = self.block_of(at);
            if let Some(op) = Kernel::operands(e)
                .into_iter()
                .find(|&op| !local(op, block))
            {
                return cfg(at, format!("uses {op} of another block"));
            }
        }
        for (i, b) in self.blocks.iter().enumerate() {
            for &(_, h) in &b.stores {
                if !local(h, i) || self.ty(h) != Ty::U32 {
                    return cfg(
                        h,
                        format!("block {i} stores a value that is not a U32 of the block"),
                    );
                }
            }
            match b.term {
                Terminator::Jump(t) if t <= n => {}
                Terminator::Branch { cond, then, other } if then <= n && other <= n => {
                    if !local(cond, i) || self.ty(cond) != Ty::Bool {
                        return cfg(
                            cond,
                            format!(
                                "block {i} branches on a value that is not a Bool of the block"
                            ),
                        );
                    }
                }
                _ => {
                    return cfg(
                        Handle(b.exprs.start),
                        format!("block {i} jumps past the exit"),
                    )
                }
            }
        }
        let exit = self.blocks.len();
        let outs = self.outputs.iter().copied();
        let uni = self
            .uniform
            .iter()
            .flat_map(|u| u.sgprs.iter().copied().chain([u.exec, u.vcc, u.scc]));
        if let Some(h) = outs.chain(uni).find(|&h| !local(h, exit)) {
            return cfg(h, "an output is not computed by the exit code".into());
        }
        Ok(())
    }
}
