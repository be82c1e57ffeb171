//! Structured control flow from a reducible graph of blocks ([`Cfg`]), after Ramsey's
//! "Beyond Relooper" (JFP 2022): the dominator tree is walked from block 0; a loop header
//! becomes a [`Stmt::Loop`] around its code; each dominator-tree child reached by two or more
//! forward edges (a merge node) follows a [`Stmt::Block`] that holds its dominator's code, the
//! later merge node outermost; every other forward target is written in place, inside the
//! code of its only forward predecessor. A branch to a loop header is a [`Stmt::Br`] to that
//! loop (continue), one to a merge node a `Br` to the block it follows (break), one to the
//! exit a `Br` to [`EXIT_LABEL`], the block around the whole body. Control never falls off
//! the end of a statement list: each one ends in a `Br` or an `If` whose arms do. Last, a
//! `Block` whose every branch ends its body is dropped for its statements (`flatten`): the
//! `If`s at its end then fall through to the code after it, as selections with a merge.

use super::cfg::Cfg;
use super::{Handle, Kernel, Terminator};

/// The label of the block around the whole body: a branch to it goes to the exit code.
pub const EXIT_LABEL: u32 = 1;

/// A statement of the structured body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `block label { body }`: a branch to `label` goes to the statement after it.
    Block { label: u32, body: Vec<Stmt> },
    /// `loop label { body }`: a branch to `label` runs the body again.
    Loop { label: u32, body: Vec<Stmt> },
    /// Block `b`'s expressions and register stores.
    Code(usize),
    /// `if cond { then } else { other }` on a `Bool` of the block just run.
    If {
        cond: Handle,
        then: Vec<Stmt>,
        other: Vec<Stmt>,
    },
    /// A branch to the enclosing `Block` or `Loop` labelled so.
    Br(u32),
}

/// The body of the block labelled [`EXIT_LABEL`] for `kernel`'s blocks, or `None` when their
/// graph is irreducible (or has no blocks).
pub fn structure(kernel: &Kernel) -> Option<Vec<Stmt>> {
    let terms: Vec<Terminator> = kernel.blocks.iter().map(|b| b.term.clone()).collect();
    structure_terms(&terms)
}

/// [`structure`] for blocks that end in `terms`.
pub fn structure_terms(terms: &[Terminator]) -> Option<Vec<Stmt>> {
    if terms.is_empty() {
        return None;
    }
    let cfg = Cfg::of_terms(terms);
    if !cfg.reducible() {
        return None;
    }
    let merge = (0..cfg.succ.len())
        .map(|v| cfg.reachable(v) && cfg.forward_preds(v) >= 2)
        .collect();
    let mut s = Structurer {
        terms,
        cfg: &cfg,
        merge,
        next_label: EXIT_LABEL + 1,
        ctx: Vec::new(),
    };
    s.tree(0).map(flatten)
}

/// Removes each [`Stmt::Block`] whose branches to it all end its body (directly or as the
/// last statements of its trailing `If`s): those branches become the end of their arm, and the
/// `If`s selections whose merge the code after the block follows.
fn flatten(list: Vec<Stmt>) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(list.len());
    for s in list {
        match s {
            Stmt::Block { label, body } => {
                let mut body = flatten(body);
                let n = branches_to(&body, label);
                if n > 0 && n == tail_branches(&body, label) {
                    drop_tail_branches(&mut body, label);
                    out.extend(body);
                } else {
                    out.push(Stmt::Block { label, body });
                }
            }
            Stmt::Loop { label, body } => out.push(Stmt::Loop {
                label,
                body: flatten(body),
            }),
            Stmt::If { cond, then, other } => out.push(Stmt::If {
                cond,
                then: flatten(then),
                other: flatten(other),
            }),
            s => out.push(s),
        }
    }
    out
}

fn branches_to(list: &[Stmt], label: u32) -> usize {
    list.iter()
        .map(|s| match s {
            Stmt::Br(l) => usize::from(*l == label),
            Stmt::Block { body, .. } | Stmt::Loop { body, .. } => branches_to(body, label),
            Stmt::If { then, other, .. } => branches_to(then, label) + branches_to(other, label),
            Stmt::Code(_) => 0,
        })
        .sum()
}

fn tail_branches(list: &[Stmt], label: u32) -> usize {
    match list.last() {
        Some(Stmt::Br(l)) => usize::from(*l == label),
        Some(Stmt::If { then, other, .. }) => {
            tail_branches(then, label) + tail_branches(other, label)
        }
        _ => 0,
    }
}

fn drop_tail_branches(list: &mut Vec<Stmt>, label: u32) {
    match list.last_mut() {
        Some(Stmt::Br(l)) if *l == label => {
            list.pop();
        }
        Some(Stmt::If { then, other, .. }) => {
            drop_tail_branches(then, label);
            drop_tail_branches(other, label);
        }
        _ => {}
    }
}

/// What a label of the context stands for.
#[derive(Clone, Copy)]
enum Ctx {
    /// The loop headed by the node.
    LoopHeadedBy(usize, u32),
    /// The block that the node's code follows.
    BlockFollowedBy(usize, u32),
}

struct Structurer<'a> {
    terms: &'a [Terminator],
    cfg: &'a Cfg,
    merge: Vec<bool>,
    next_label: u32,
    ctx: Vec<Ctx>,
}

impl Structurer<'_> {
    fn label(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label - 1
    }

    /// The code of node `x` and of the nodes it dominates.
    fn tree(&mut self, x: usize) -> Option<Vec<Stmt>> {
        let exit = self.cfg.exit();
        let mut merges: Vec<usize> = self
            .cfg
            .dom_children(x)
            .into_iter()
            .filter(|&c| c != exit && self.merge[c])
            .collect();
        merges.reverse(); // the latest in reverse postorder first: outermost
        if self.cfg.is_loop_header(x) {
            let label = self.label();
            self.ctx.push(Ctx::LoopHeadedBy(x, label));
            let body = self.within(x, &merges);
            self.ctx.pop();
            Some(vec![Stmt::Loop { label, body: body? }])
        } else {
            self.within(x, &merges)
        }
    }

    fn within(&mut self, x: usize, ys: &[usize]) -> Option<Vec<Stmt>> {
        if let Some((&y, rest)) = ys.split_first() {
            let label = self.label();
            self.ctx.push(Ctx::BlockFollowedBy(y, label));
            let body = self.within(x, rest);
            self.ctx.pop();
            let mut out = vec![Stmt::Block { label, body: body? }];
            out.extend(self.tree(y)?);
            return Some(out);
        }
        let mut out = vec![Stmt::Code(x)];
        match self.terms[x] {
            Terminator::Jump(t) => out.extend(self.branch(x, t as usize)?),
            Terminator::Branch { then, other, .. } if then == other => {
                out.extend(self.branch(x, then as usize)?)
            }
            Terminator::Branch { cond, then, other } => out.push(Stmt::If {
                cond,
                then: self.branch(x, then as usize)?,
                other: self.branch(x, other as usize)?,
            }),
        }
        Some(out)
    }

    fn branch(&mut self, from: usize, to: usize) -> Option<Vec<Stmt>> {
        if to == self.cfg.exit() {
            return Some(vec![Stmt::Br(EXIT_LABEL)]);
        }
        let back = self.cfg.retreating(from, to);
        if !back && !self.merge[to] {
            return self.tree(to);
        }
        let label = self.ctx.iter().rev().find_map(|c| match *c {
            Ctx::LoopHeadedBy(h, l) if back && h == to => Some(l),
            Ctx::BlockFollowedBy(y, l) if !back && y == to => Some(l),
            _ => None,
        })?;
        Some(vec![Stmt::Br(label)])
    }
}

#[cfg(test)]
#[path = "structure_tests.rs"]
mod tests;
