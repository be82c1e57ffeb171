//! Control-flow analysis of a kernel's blocks: the graph (node `n` = the exit), reverse
//! postorder from block 0, immediate dominators (Cooper, Harvey and Kennedy's iterative
//! algorithm), back edges, natural loops and reducibility. A graph is reducible when every
//! retreating edge of the depth-first search goes to a node that dominates its source; then
//! each such edge is a back edge and its target the header of a natural loop. The SPIR-V
//! backend structures reducible graphs and keeps the block dispatcher for the others.

use super::{Kernel, Terminator};

/// The control-flow graph of `n` blocks and the exit (node `n`), with its analysis.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Distinct successors of each node, in terminator order (`then` before `other`).
    pub succ: Vec<Vec<usize>>,
    /// Predecessors of each node among the reachable ones.
    pub preds: Vec<Vec<usize>>,
    /// Nodes reachable from block 0, in reverse postorder.
    pub rpo: Vec<usize>,
    /// Position of each node in `rpo` (`usize::MAX` when unreachable).
    pub order: Vec<usize>,
    /// Immediate dominator of each reachable node (block 0: itself; unreachable: `None`).
    pub idom: Vec<Option<usize>>,
}

/// A natural loop: its header and its nodes (the header included), ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    pub nodes: Vec<usize>,
}

impl Cfg {
    /// The graph of `kernel`'s blocks (no blocks: one node, the exit).
    pub fn of_kernel(kernel: &Kernel) -> Cfg {
        let terms: Vec<Terminator> = kernel.blocks.iter().map(|b| b.term.clone()).collect();
        Cfg::of_terms(&terms)
    }

    /// The graph of blocks that end in `terms`.
    pub fn of_terms(terms: &[Terminator]) -> Cfg {
        let succ = terms
            .iter()
            .map(|t| match *t {
                Terminator::Jump(t) => vec![t as usize],
                Terminator::Branch { then, other, .. } => vec![then as usize, other as usize],
            })
            .collect();
        Cfg::new(succ)
    }

    /// The graph whose block `i` goes to `succ[i]` (a target `succ.len()` is the exit).
    pub fn new(mut succ: Vec<Vec<usize>>) -> Cfg {
        let n = succ.len();
        for s in &mut succ {
            let mut seen = Vec::with_capacity(s.len());
            s.retain(|t| {
                !seen.contains(t) && {
                    seen.push(*t);
                    true
                }
            });
        }
        succ.push(Vec::new());
        let mut order = vec![usize::MAX; n + 1];
        let mut post = Vec::with_capacity(n + 1);
        // iterative depth-first search: (node, next successor to visit)
        let mut stack = vec![(0usize, 0usize)];
        order[0] = 0;
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if let Some(&w) = succ[v].get(i) {
                top.1 += 1;
                if order[w] == usize::MAX {
                    order[w] = 0;
                    stack.push((w, 0));
                }
            } else {
                post.push(v);
                stack.pop();
            }
        }
        let rpo: Vec<usize> = post.into_iter().rev().collect();
        order.fill(usize::MAX);
        for (i, &v) in rpo.iter().enumerate() {
            order[v] = i;
        }
        let mut preds = vec![Vec::new(); n + 1];
        for &v in &rpo {
            for &w in &succ[v] {
                preds[w].push(v);
            }
        }
        let idom = dominators(&rpo, &order, &preds);
        Cfg {
            succ,
            preds,
            rpo,
            order,
            idom,
        }
    }

    /// The exit node.
    pub fn exit(&self) -> usize {
        self.succ.len() - 1
    }

    pub fn reachable(&self, v: usize) -> bool {
        self.order[v] != usize::MAX
    }

    /// Whether `a` dominates `b` (both reachable).
    pub fn dominates(&self, a: usize, mut b: usize) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.idom[b] {
                Some(d) if d != b => b = d,
                _ => return false,
            }
        }
    }

    /// An edge of the depth-first search that goes to a node at or before its source in
    /// reverse postorder (back edges are retreating; in an irreducible graph not every
    /// retreating edge is a back edge).
    pub fn retreating(&self, from: usize, to: usize) -> bool {
        self.order[to] <= self.order[from]
    }

    /// The reachable edges `(from, to)` whose target dominates their source.
    pub fn back_edges(&self) -> Vec<(usize, usize)> {
        self.edges()
            .filter(|&(f, t)| self.dominates(t, f))
            .collect()
    }

    fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rpo
            .iter()
            .flat_map(move |&f| self.succ[f].iter().map(move |&t| (f, t)))
    }

    /// Every retreating edge is a back edge.
    pub fn reducible(&self) -> bool {
        self.edges()
            .filter(|&(f, t)| self.retreating(f, t))
            .all(|(f, t)| self.dominates(t, f))
    }

    /// Whether `v` is the target of a back edge.
    pub fn is_loop_header(&self, v: usize) -> bool {
        self.preds[v].iter().any(|&p| self.dominates(v, p))
    }

    /// Predecessors of `v` before it in reverse postorder.
    pub fn forward_preds(&self, v: usize) -> usize {
        self.preds[v]
            .iter()
            .filter(|&&p| !self.retreating(p, v))
            .count()
    }

    /// The natural loops, one per header (the union of its back edges' loops), in reverse
    /// postorder of their headers; an outer loop comes before the loops it contains.
    pub fn loops(&self) -> Vec<Loop> {
        let mut loops = Vec::new();
        for &h in &self.rpo {
            let tails: Vec<usize> = self.preds[h]
                .iter()
                .copied()
                .filter(|&p| self.dominates(h, p))
                .collect();
            if tails.is_empty() {
                continue;
            }
            let mut inside = vec![false; self.succ.len()];
            inside[h] = true;
            let mut work = tails;
            while let Some(v) = work.pop() {
                if !inside[v] {
                    inside[v] = true;
                    work.extend(self.preds[v].iter().copied());
                }
            }
            let nodes = (0..inside.len()).filter(|&v| inside[v]).collect();
            loops.push(Loop { header: h, nodes });
        }
        loops
    }

    /// The children of `v` in the dominator tree, in reverse postorder.
    pub fn dom_children(&self, v: usize) -> Vec<usize> {
        self.rpo
            .iter()
            .copied()
            .filter(|&c| c != v && self.idom[c] == Some(v))
            .collect()
    }
}

/// Immediate dominators over the reachable nodes (Cooper, Harvey and Kennedy, "A Simple, Fast
/// Dominance Algorithm").
fn dominators(rpo: &[usize], order: &[usize], preds: &[Vec<usize>]) -> Vec<Option<usize>> {
    let mut idom: Vec<Option<usize>> = vec![None; order.len()];
    let Some(&root) = rpo.first() else {
        return idom;
    };
    idom[root] = Some(root);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while order[a] > order[b] {
                a = idom[a].expect("processed");
            }
            while order[b] > order[a] {
                b = idom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &v in &rpo[1..] {
            let mut new = None;
            for &p in &preds[v] {
                if idom[p].is_some() {
                    new = Some(new.map_or(p, |d| intersect(&idom, p, d)));
                }
            }
            if new.is_some() && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    idom
}

#[cfg(test)]
#[path = "cfg_tests.rs"]
mod tests;
