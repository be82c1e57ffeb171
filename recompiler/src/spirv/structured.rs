//! Structured control flow in the wave module, for kernels whose block graph is reducible
//! ([`crate::ir::structure`]): every [`Stmt::Loop`] becomes an `OpLoopMerge` loop whose
//! continue target holds the watchdog; every [`Stmt::Block`] an `OpLoopMerge` loop that runs
//! once (its continue target is never reached), so that a break from nested selections is a
//! branch to its merge; every [`Stmt::If`] an `OpSelectionMerge` selection. A [`Stmt::Br`] to
//! the innermost loop is a branch to its merge (block) or continue target (loop); one to an
//! outer label stores the label in the `jump` variable and breaks, and after each loop that
//! such a branch leaves, a selection on `jump` breaks again or, at the target, clears it and
//! breaks or continues. The exit code follows the loop around the whole body.
//!
//! Register variables hold no value the driver can know at compile time: they start as an
//! opaque zero ([`Emitter::opaque_zero`]) rather than their constant initialiser, and a
//! constant stored at a block's end is stored XORed with it. Without this, the driver would
//! propagate constants from block to block along the structured paths (the dispatcher's loop
//! hides them) and apply the folds that change bits (docs/backends.md, "Folds the fuzzer found
//! (lavapipe)"), which the IR builder avoids only for the constants it sees in one block:
//! `s_cbranch_execnz 0; v_mov_b32 v24, -1.0` wrote -0.0 in inactive lanes on lavapipe.
//!
//! Watchdog: a Private counter goes up by one in every block, as the CPU model counts. At a
//! continue target, a count of [`WATCHDOG_BLOCKS`] or more means the next block would exceed
//! it: the counter becomes one past it and the wave breaks to the exit code. The status word
//! is 1 when the counter ends past the limit, so a body that ends after more blocks than the
//! limit reports the watchdog too, as on the CPU model.

use rspirv::spirv::{LoopControl, SelectionControl, Word};

use super::control::{BLOCK_VAR, COUNT_VAR};
use super::interface::Io;
use super::{build_err, Emitter, SpirvError};
use crate::ir::structure::{Stmt, EXIT_LABEL};
use crate::ir::Expr;
use rdnaprobe_contract::WATCHDOG_BLOCKS;

/// An enclosing `OpLoopMerge` construct while its body is emitted.
struct Construct {
    label: u32,
    /// A [`Stmt::Loop`] (a branch to it continues) rather than a [`Stmt::Block`].
    is_loop: bool,
    merge: Word,
    cont: Word,
    /// A branch to an outer label leaves it: its merge block checks `jump`.
    cascade: bool,
}

impl Emitter<'_> {
    /// Emits a kernel with blocks as the structured body `tree` (the body of the block
    /// labelled [`EXIT_LABEL`]); returns the status word's value.
    pub(super) fn structured_body(&mut self, io: &Io, tree: Vec<Stmt>) -> Result<Word, SpirvError> {
        let k = self.kernel;
        let n = k.exprs.len() as u32;
        self.values = vec![0; n as usize];
        self.emit_range(io, 0..n, true)?;
        let z = self.opaque_zero(io)?;
        self.zero = Some(z);
        let mut regs: Vec<(u16, Word)> = self
            .vars
            .iter()
            .filter(|(&id, _)| id != BLOCK_VAR && id != COUNT_VAR)
            .map(|(&id, &v)| (id, v))
            .collect();
        regs.sort_unstable();
        for (_, ptr) in regs {
            self.b.store(ptr, z, None, []).map_err(build_err(None))?;
        }
        let mut stack = Vec::new();
        let mut open = true;
        let top = Stmt::Block {
            label: EXIT_LABEL,
            body: tree,
        };
        self.stmt(io, &top, &mut stack, &mut open)?;
        let exit = k.blocks.last().map_or(0, |b| b.exprs.end);
        self.emit_range(io, exit..n, false)?;
        let err = build_err(None);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (zero, one, limit) = (self.u32c(0), self.u32c(1), self.u32c(WATCHDOG_BLOCKS));
        let count_var = self.var_ptr(COUNT_VAR)?;
        let count = self.b.load(t, None, count_var, None, []).map_err(&err)?;
        let spent = self
            .b
            .u_greater_than(tb, None, count, limit)
            .map_err(&err)?;
        self.b.select(t, None, spent, one, zero).map_err(&err)
    }

    fn stmts(
        &mut self,
        io: &Io,
        list: &[Stmt],
        stack: &mut Vec<Construct>,
        open: &mut bool,
    ) -> Result<(), SpirvError> {
        for s in list {
            if !*open {
                break; // unreachable: the structurizer never writes code here
            }
            self.stmt(io, s, stack, open)?;
        }
        Ok(())
    }

    fn stmt(
        &mut self,
        io: &Io,
        s: &Stmt,
        stack: &mut Vec<Construct>,
        open: &mut bool,
    ) -> Result<(), SpirvError> {
        let err = build_err(None);
        match s {
            Stmt::Code(b) => self.code(io, *b),
            Stmt::Br(label) => {
                *open = false;
                self.br(*label, stack)
            }
            Stmt::If { cond, then, other } => {
                let c = self.values[cond.index()];
                let [t, f, merge] = [(); 3].map(|_| self.b.id());
                self.b
                    .selection_merge(merge, SelectionControl::NONE)
                    .map_err(&err)?;
                self.b.branch_conditional(c, t, f, []).map_err(&err)?;
                let mut reached = false;
                for (label, arm) in [(t, then), (f, other)] {
                    self.b.begin_block(Some(label)).map_err(&err)?;
                    let mut arm_open = true;
                    self.stmts(io, arm, stack, &mut arm_open)?;
                    if arm_open {
                        self.b.branch(merge).map_err(&err)?;
                        reached = true;
                    }
                }
                self.b.begin_block(Some(merge)).map_err(&err)?;
                if !reached {
                    self.b.unreachable().map_err(&err)?;
                    *open = false;
                }
                Ok(())
            }
            Stmt::Block { label, body } | Stmt::Loop { label, body } => {
                let is_loop = matches!(s, Stmt::Loop { .. });
                self.construct(io, *label, is_loop, body, stack, open)
            }
        }
    }

    /// Block `b`'s expressions and stores, and the watchdog's count.
    fn code(&mut self, io: &Io, b: usize) -> Result<(), SpirvError> {
        let err = build_err(None);
        let block = &self.kernel.blocks[b];
        self.emit_range(io, block.exprs.clone(), false)?;
        for &(id, h) in &block.stores {
            let ptr = self.var_ptr(id)?;
            let mut v = self.values[h.index()];
            if let (Expr::Const { .. }, Some(z)) = (self.kernel.expr(h), self.zero) {
                v = self.b.bitwise_xor(self.t.u32_, None, v, z).map_err(&err)?;
            }
            self.b.store(ptr, v, None, []).map_err(&err)?;
        }
        let t = self.t.u32_;
        let one = self.u32c(1);
        let count_var = self.var_ptr(COUNT_VAR)?;
        let c = self.b.load(t, None, count_var, None, []).map_err(&err)?;
        let c = self.b.i_add(t, None, c, one).map_err(&err)?;
        self.b.store(count_var, c, None, []).map_err(&err)
    }

    /// A branch to the construct labelled `label` (see the module docs).
    fn br(&mut self, label: u32, stack: &mut [Construct]) -> Result<(), SpirvError> {
        let err = build_err(None);
        let at = stack
            .iter()
            .rposition(|c| c.label == label)
            .ok_or_else(|| SpirvError::Builder {
                at: format!("label {label}"),
                message: "a branch to a label outside its constructs".into(),
            })?;
        let inner = stack.len() - 1;
        let to = if at == inner {
            let c = &stack[inner];
            if c.is_loop {
                c.cont
            } else {
                c.merge
            }
        } else {
            let jump = self.var_ptr(BLOCK_VAR)?;
            let l = self.u32c(label);
            self.b.store(jump, l, None, []).map_err(&err)?;
            for c in &mut stack[at + 1..] {
                c.cascade = true;
            }
            stack[inner].merge
        };
        self.b.branch(to).map_err(&err)
    }

    fn construct(
        &mut self,
        io: &Io,
        label: u32,
        is_loop: bool,
        body: &[Stmt],
        stack: &mut Vec<Construct>,
        open: &mut bool,
    ) -> Result<(), SpirvError> {
        let err = build_err(None);
        let [header, first, cont, merge] = [(); 4].map(|_| self.b.id());
        self.b.branch(header).map_err(&err)?;
        self.b.begin_block(Some(header)).map_err(&err)?;
        self.b
            .loop_merge(merge, cont, LoopControl::NONE, [])
            .map_err(&err)?;
        self.b.branch(first).map_err(&err)?;
        self.b.begin_block(Some(first)).map_err(&err)?;
        stack.push(Construct {
            label,
            is_loop,
            merge,
            cont,
            cascade: false,
        });
        let mut body_open = true;
        self.stmts(io, body, stack, &mut body_open)?;
        if body_open {
            self.b.branch(merge).map_err(&err)?;
        }
        let mut c = stack.pop().expect("pushed above");
        self.b.begin_block(Some(cont)).map_err(&err)?;
        if is_loop {
            // The watchdog stops the wave: break to the exit code through every construct.
            for outer in stack.iter_mut().skip(1) {
                outer.cascade = true;
            }
            c.cascade = !stack.is_empty();
            self.watchdog(header, merge)?;
        } else {
            self.b.branch(header).map_err(&err)?;
        }
        self.b.begin_block(Some(merge)).map_err(&err)?;
        *open = true;
        if c.cascade {
            if let Some(parent) = stack.last() {
                self.cascade(parent)?;
            }
        }
        Ok(())
    }

    /// A loop's continue target: counts toward [`WATCHDOG_BLOCKS`], continues or breaks
    /// with `jump` at [`EXIT_LABEL`].
    fn watchdog(&mut self, header: Word, merge: Word) -> Result<(), SpirvError> {
        let err = build_err(None);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let limit = self.u32c(WATCHDOG_BLOCKS);
        let past = self.u32c(WATCHDOG_BLOCKS + 1);
        let (zero, exit) = (self.u32c(0), self.u32c(EXIT_LABEL));
        let (count_var, jump) = (self.var_ptr(COUNT_VAR)?, self.var_ptr(BLOCK_VAR)?);
        let b = &mut self.b;
        let count = b.load(t, None, count_var, None, []).map_err(&err)?;
        let spent = b
            .u_greater_than_equal(tb, None, count, limit)
            .map_err(&err)?;
        let new = b.select(t, None, spent, past, count).map_err(&err)?;
        b.store(count_var, new, None, []).map_err(&err)?;
        let j = b.select(t, None, spent, exit, zero).map_err(&err)?;
        b.store(jump, j, None, []).map_err(&err)?;
        b.branch_conditional(spent, merge, header, []).map_err(&err)
    }

    /// After a construct that a branch to an outer label leaves: `if jump != 0 { if jump ==
    /// parent { jump = 0; continue or break parent } else { break parent } }`.
    fn cascade(&mut self, parent: &Construct) -> Result<(), SpirvError> {
        let err = build_err(None);
        let (t, tb) = (self.t.u32_, self.t.bool_);
        let (zero, mine) = (self.u32c(0), self.u32c(parent.label));
        let jump = self.var_ptr(BLOCK_VAR)?;
        let [pending, here, other, inner_merge, merge] = [(); 5].map(|_| self.b.id());
        let b = &mut self.b;
        let j = b.load(t, None, jump, None, []).map_err(&err)?;
        let set = b.i_not_equal(tb, None, j, zero).map_err(&err)?;
        b.selection_merge(merge, SelectionControl::NONE)
            .map_err(&err)?;
        b.branch_conditional(set, pending, merge, [])
            .map_err(&err)?;
        b.begin_block(Some(pending)).map_err(&err)?;
        let is_mine = b.i_equal(tb, None, j, mine).map_err(&err)?;
        b.selection_merge(inner_merge, SelectionControl::NONE)
            .map_err(&err)?;
        b.branch_conditional(is_mine, here, other, [])
            .map_err(&err)?;
        b.begin_block(Some(here)).map_err(&err)?;
        b.store(jump, zero, None, []).map_err(&err)?;
        let to = if parent.is_loop {
            parent.cont
        } else {
            parent.merge
        };
        b.branch(to).map_err(&err)?;
        b.begin_block(Some(other)).map_err(&err)?;
        b.branch(parent.merge).map_err(&err)?;
        b.begin_block(Some(inner_merge)).map_err(&err)?;
        b.unreachable().map_err(&err)?;
        b.begin_block(Some(merge)).map_err(&err)?;
        Ok(())
    }
}
