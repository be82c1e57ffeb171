//! Control flow in the wave module. A kernel whose block graph is reducible is emitted
//! structured (`structured`); any other, and every kernel under
//! [`emit_wave_dispatcher`](crate::spirv::emit_wave_dispatcher), becomes one dispatcher loop,
//! `loop { switch (block) { case i: <block i>; block = next; } } while block != exit && count
//! < WATCHDOG_BLOCKS`, with the block index and the register variables in Private variables.
//! The block index is wave-uniform (every branch condition is), so the barriers of cross-lane
//! expressions inside the cases stay in uniform control flow. Leaves (constants and inputs)
//! are emitted once, before the loop; the exit code after it. The status word is 0 when the
//! exit was reached and 1 when the watchdog stopped the wave (`rdnaprobe_contract::WATCHDOG_BLOCKS`,
//! the same count as the CPU model).

use rspirv::dr::Operand;
use rspirv::spirv::{LoopControl, SelectionControl, StorageClass, Word};

use super::interface::Io;
use super::{build_err, Emitter, SpirvError};
use crate::ir::structure::structure;
use crate::ir::{Expr, Handle, Terminator};
use rdnaprobe_contract::WATCHDOG_BLOCKS;

/// Keys of the dispatcher's own variables among [`Emitter::vars`](super::Emitter).
pub(super) const BLOCK_VAR: u16 = u16::MAX;
pub(super) const COUNT_VAR: u16 = u16::MAX - 1;

/// The register variables a kernel with blocks reads or writes, in ascending order.
pub(super) fn register_vars(kernel: &crate::ir::Kernel) -> Vec<u16> {
    let mut ids: Vec<u16> = kernel
        .exprs
        .iter()
        .filter_map(|e| match e {
            Expr::Var(id) => Some(*id),
            _ => None,
        })
        .chain(
            kernel
                .blocks
                .iter()
                .flat_map(|b| b.stores.iter().map(|s| s.0)),
        )
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

impl Emitter<'_> {
    /// Opens `if (cond) {`: a selection whose then-block is begun here; returns the merge
    /// block for [`Self::end_if`].
    pub(super) fn if_then(&mut self, cond: Word) -> Result<Word, SpirvError> {
        let err = build_err(self.at);
        let (then, merge) = (self.b.id(), self.b.id());
        self.b
            .selection_merge(merge, SelectionControl::NONE)
            .map_err(&err)?;
        self.b
            .branch_conditional(cond, then, merge, [])
            .map_err(&err)?;
        self.b.begin_block(Some(then)).map_err(&err)?;
        Ok(merge)
    }

    /// Opens `if (lane == 0) {` ([`Self::if_then`]).
    pub(super) fn if_lane0(&mut self, lane: Word) -> Result<Word, SpirvError> {
        let c0 = self.u32c(0);
        let first = self
            .b
            .i_equal(self.t.bool_, None, lane, c0)
            .map_err(build_err(self.at))?;
        self.if_then(first)
    }

    /// Closes [`Self::if_then`]'s selection: `}`.
    pub(super) fn end_if(&mut self, merge: Word) -> Result<(), SpirvError> {
        let err = build_err(self.at);
        self.b.branch(merge).map_err(&err)?;
        self.b.begin_block(Some(merge)).map_err(&err)?;
        Ok(())
    }

    /// Declares a Private `u32` variable, initialised to 0, for every register variable the
    /// kernel uses and for the dispatcher (call before the function begins).
    pub(super) fn declare_vars(&mut self) {
        if self.kernel.blocks.is_empty() {
            return;
        }
        let ptr = self
            .b
            .type_pointer(None, StorageClass::Private, self.t.u32_);
        let zero = self.u32c(0);
        let ids = register_vars(self.kernel)
            .into_iter()
            .chain([BLOCK_VAR, COUNT_VAR]);
        for id in ids {
            let v = self
                .b
                .variable(ptr, None, StorageClass::Private, Some(zero));
            self.vars.insert(id, v);
        }
    }

    pub(super) fn var_ptr(&self, id: u16) -> Result<Word, SpirvError> {
        self.vars
            .get(&id)
            .copied()
            .ok_or_else(|| SpirvError::Builder {
                at: format!("variable {id}"),
                message: "a register variable outside a kernel with blocks".into(),
            })
    }

    /// [`Expr::Var`].
    pub(super) fn var_load(&mut self, id: u16) -> Result<Word, SpirvError> {
        let ptr = self.var_ptr(id)?;
        self.b
            .load(self.t.u32_, None, ptr, None, [])
            .map_err(build_err(self.at))
    }

    pub(super) fn emit_range(
        &mut self,
        io: &Io,
        range: std::ops::Range<u32>,
        leaves: bool,
    ) -> Result<(), SpirvError> {
        for i in range {
            let h = Handle(i);
            if self.kernel.expr(h).is_leaf() != leaves {
                continue;
            }
            self.at = Some(h);
            self.values[h.index()] = self.expr(h, io)?;
        }
        self.at = None;
        Ok(())
    }

    /// Emits a kernel with blocks (see the module docs); returns the status word's value.
    pub(super) fn cfg_body(&mut self, io: &Io) -> Result<Word, SpirvError> {
        if !self.dispatcher {
            if let Some(tree) = structure(self.kernel) {
                return self.structured_body(io, tree);
            }
        }
        let err = build_err(None);
        let k = self.kernel;
        let t = self.t.u32_;
        let n = k.exprs.len() as u32;
        self.values = vec![0; n as usize];
        self.emit_range(io, 0..n, true)?;
        let nb = k.blocks.len() as u32;
        let (block_var, count_var) = (self.var_ptr(BLOCK_VAR)?, self.var_ptr(COUNT_VAR)?);
        let [header, body, cont, merge, sw_merge] = [(); 5].map(|_| self.b.id());
        let labels: Vec<Word> = (0..nb).map(|_| self.b.id()).collect();
        self.b.branch(header).map_err(&err)?;

        self.b.begin_block(Some(header)).map_err(&err)?;
        self.b
            .loop_merge(merge, cont, LoopControl::NONE, [])
            .map_err(&err)?;
        self.b.branch(body).map_err(&err)?;

        self.b.begin_block(Some(body)).map_err(&err)?;
        let cur = self.b.load(t, None, block_var, None, []).map_err(&err)?;
        self.b
            .selection_merge(sw_merge, SelectionControl::NONE)
            .map_err(&err)?;
        let cases: Vec<(Operand, Word)> = labels
            .iter()
            .enumerate()
            .map(|(i, &l)| (Operand::LiteralBit32(i as u32), l))
            .collect();
        self.b.switch(cur, sw_merge, cases).map_err(&err)?;

        for (i, block) in k.blocks.iter().enumerate() {
            self.b.begin_block(Some(labels[i])).map_err(&err)?;
            self.emit_range(io, block.exprs.clone(), false)?;
            for &(id, h) in &block.stores {
                let ptr = self.var_ptr(id)?;
                self.b
                    .store(ptr, self.values[h.index()], None, [])
                    .map_err(&err)?;
            }
            let next = match block.term {
                Terminator::Jump(to) => self.u32c(to),
                Terminator::Branch { cond, then, other } => {
                    let (a, b) = (self.u32c(then), self.u32c(other));
                    let c = self.values[cond.index()];
                    self.b.select(t, None, c, a, b).map_err(&err)?
                }
            };
            self.b.store(block_var, next, None, []).map_err(&err)?;
            if let Some(suspended) = self.suspended.filter(|_| block.barrier) {
                self.suspend_here(io, suspended)?;
            }
            self.b.branch(sw_merge).map_err(&err)?;
        }

        self.b.begin_block(Some(sw_merge)).map_err(&err)?;
        self.b.branch(cont).map_err(&err)?;

        self.b.begin_block(Some(cont)).map_err(&err)?;
        let one = self.u32c(1);
        let c_exit = self.u32c(nb);
        let c_limit = self.u32c(WATCHDOG_BLOCKS);
        let tb = self.t.bool_;
        let b = &mut self.b;
        let count = b.load(t, None, count_var, None, []).map_err(&err)?;
        let count = b.i_add(t, None, count, one).map_err(&err)?;
        b.store(count_var, count, None, []).map_err(&err)?;
        let now = b.load(t, None, block_var, None, []).map_err(&err)?;
        let at_exit = b.i_equal(tb, None, now, c_exit).map_err(&err)?;
        let spent = b
            .u_greater_than_equal(tb, None, count, c_limit)
            .map_err(&err)?;
        let mut done = b.logical_or(tb, None, at_exit, spent).map_err(&err)?;
        if let Some(suspended) = self.suspended {
            let c0 = self.u32c(0);
            let b = &mut self.b;
            let s = b.load(t, None, suspended, None, []).map_err(&err)?;
            let s = b.i_not_equal(tb, None, s, c0).map_err(&err)?;
            done = b.logical_or(tb, None, done, s).map_err(&err)?;
        }
        let b = &mut self.b;
        b.branch_conditional(done, merge, header, [])
            .map_err(&err)?;

        self.b.begin_block(Some(merge)).map_err(&err)?;
        let exit = k.blocks.last().map_or(0, |b| b.exprs.end);
        self.emit_range(io, exit..n, false)?;
        let zero = self.u32c(0);
        let b = &mut self.b;
        let now = b.load(t, None, block_var, None, []).map_err(&err)?;
        let finished = b.i_equal(tb, None, now, c_exit).map_err(&err)?;
        b.select(t, None, finished, zero, one).map_err(&err)
    }

    /// At the end of a barrier's block of a resumable module: the wave stops here
    /// ([`super::wave::SUSPENDED_STATUS`]) unless an LDS access faulted it, which the CPU
    /// model runs on to the end of the wave.
    fn suspend_here(&mut self, io: &Io, suspended: Word) -> Result<(), SpirvError> {
        let err = build_err(None);
        let t = self.t.u32_;
        let (c0, stop) = (self.u32c(0), self.u32c(super::wave::SUSPENDED_STATUS));
        let value = match io.wave.and_then(|w| w.lds).map(|v| v.fault) {
            Some(fault) => {
                let f = self.b.load(t, None, fault, None, []).map_err(&err)?;
                let ok = self.b.i_equal(self.t.bool_, None, f, c0).map_err(&err)?;
                self.b.select(t, None, ok, stop, c0).map_err(&err)?
            }
            None => stop,
        };
        self.b.store(suspended, value, None, []).map_err(&err)
    }
}
