//! The structured body runs the blocks in the order the graph does: both are walked under the
//! same sequence of branch decisions, on hand-made graphs and on random ones.

use super::{structure_terms, Stmt, EXIT_LABEL};
use crate::ir::cfg::Cfg;
use crate::ir::{Handle, Terminator};

/// Steps after which a walk stops (bodies that loop for ever).
const FUEL: usize = 300;

/// Block `i` branches on `Handle(i)` to `t[0]`, else `t[1]` (one target: a jump).
fn terms(succ: &[&[usize]]) -> Vec<Terminator> {
    succ.iter()
        .enumerate()
        .map(|(i, t)| match *t {
            [to] => Terminator::Jump(*to as u32),
            [a, b] => Terminator::Branch {
                cond: Handle(i as u32),
                then: *a as u32,
                other: *b as u32,
            },
            _ => panic!("one or two targets"),
        })
        .collect()
}

/// Decisions for conditional branches, taken in turn (cycling).
struct Decide<'a>(&'a [bool], usize);

impl Decide<'_> {
    fn next(&mut self) -> bool {
        self.1 += 1;
        self.0[(self.1 - 1) % self.0.len()]
    }
}

/// The blocks the graph runs.
fn walk_graph(terms: &[Terminator], d: &mut Decide) -> Vec<usize> {
    let mut trace = Vec::new();
    let mut b = 0usize;
    while b < terms.len() && trace.len() < FUEL {
        trace.push(b);
        b = match terms[b] {
            Terminator::Jump(t) => t as usize,
            Terminator::Branch { then, other, .. } if then == other => then as usize,
            Terminator::Branch { then, other, .. } => {
                if d.next() {
                    then as usize
                } else {
                    other as usize
                }
            }
        };
    }
    trace
}

enum Flow {
    Next,
    Br(u32),
    OutOfFuel,
}

fn run(stmts: &[Stmt], d: &mut Decide, trace: &mut Vec<usize>) -> Flow {
    for s in stmts {
        match s {
            Stmt::Code(b) => {
                if trace.len() == FUEL {
                    return Flow::OutOfFuel;
                }
                trace.push(*b);
            }
            Stmt::Br(l) => return Flow::Br(*l),
            Stmt::If { then, other, .. } => {
                let arm = if d.next() { then } else { other };
                match run(arm, d, trace) {
                    Flow::Next => {}
                    f => return f,
                }
            }
            Stmt::Block { label, body } => match run(body, d, trace) {
                Flow::Br(l) if l == *label => {}
                Flow::Next => {}
                f => return f,
            },
            Stmt::Loop { label, body } => loop {
                match run(body, d, trace) {
                    Flow::Br(l) if l == *label => {}
                    Flow::Next => break,
                    f => return f,
                }
            },
        }
    }
    Flow::Next
}

/// The blocks the structured body runs (falling off its end goes to the exit, as the block
/// around it does).
fn walk_tree(tree: &[Stmt], d: &mut Decide) -> Vec<usize> {
    let mut trace = Vec::new();
    match run(tree, d, &mut trace) {
        Flow::Br(EXIT_LABEL) | Flow::OutOfFuel | Flow::Next => trace,
        Flow::Br(l) => panic!("branch to label {l} outside every construct"),
    }
}

fn same_runs(terms: &[Terminator], tree: &[Stmt], decisions: &[bool]) {
    let g = walk_graph(terms, &mut Decide(decisions, 0));
    let t = walk_tree(tree, &mut Decide(decisions, 0));
    assert_eq!(g, t, "{terms:?}\n{tree:#?}\ndecisions {decisions:?}");
}

fn check(succ: &[&[usize]]) -> Vec<Stmt> {
    let t = terms(succ);
    let tree = structure_terms(&t).expect("reducible");
    for decisions in [
        &[true][..],
        &[false],
        &[true, false],
        &[false, true, true],
        &[true, true, false, false, true],
    ] {
        same_runs(&t, &tree, decisions);
    }
    tree
}

fn count(tree: &[Stmt], f: &dyn Fn(&Stmt) -> bool) -> usize {
    tree.iter()
        .map(|s| {
            usize::from(f(s))
                + match s {
                    Stmt::Block { body, .. } | Stmt::Loop { body, .. } => count(body, f),
                    Stmt::If { then, other, .. } => count(then, f) + count(other, f),
                    _ => 0,
                }
        })
        .sum()
}

fn loops(tree: &[Stmt]) -> usize {
    count(tree, &|s| matches!(s, Stmt::Loop { .. }))
}

#[test]
fn diamond_and_if_without_else() {
    let tree = check(&[&[1, 2], &[3], &[3], &[4]]);
    assert_eq!(loops(&tree), 0);
    assert_eq!(count(&tree, &|s| matches!(s, Stmt::If { .. })), 1);
    assert_eq!(count(&tree, &|s| matches!(s, Stmt::Block { .. })), 0);
    // the selection's arms end by falling through to block 3
    assert!(
        matches!(&tree[1], Stmt::If { then, other, .. } if then.len() == 1 && other.len() == 1)
    );
    assert_eq!(tree[2], Stmt::Code(3));
    let tree = check(&[&[1, 2], &[2], &[3]]);
    assert_eq!(loops(&tree), 0);
    assert_eq!(count(&tree, &|s| matches!(s, Stmt::Block { .. })), 0);
}

#[test]
fn nested_loops_and_several_exits() {
    let tree = check(&[&[1], &[2], &[3], &[2, 4], &[1, 5], &[6]]);
    assert_eq!(loops(&tree), 2);
    let tree = check(&[&[1], &[2, 4], &[3, 5], &[1], &[6], &[6]]);
    assert_eq!(loops(&tree), 1);
    let tree = check(&[&[1], &[2, 3], &[1], &[1, 4], &[5]]);
    assert_eq!(loops(&tree), 1);
    // a loop whose only way out ends the program
    let tree = check(&[&[1], &[2, 3], &[1], &[4]]);
    assert_eq!(loops(&tree), 1);
}

#[test]
fn irreducible_graphs_are_refused() {
    assert_eq!(structure_terms(&terms(&[&[1, 2], &[2, 3], &[1, 3]])), None);
}

#[test]
fn endpgm_in_the_middle_skips_unreachable_blocks() {
    let tree = check(&[&[1, 3], &[4], &[3], &[4]]);
    assert_eq!(count(&tree, &|s| *s == Stmt::Code(2)), 0);
    assert_eq!(count(&tree, &|s| matches!(s, Stmt::Code(_))), 3);
}

/// xorshift64*: a small deterministic generator for the random graphs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

#[test]
fn random_reducible_graphs_run_the_same_blocks() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut structured, mut irreducible) = (0, 0);
    for _ in 0..3000 {
        let n = 1 + rng.below(9);
        let succ: Vec<Vec<usize>> = (0..n)
            .map(|_| {
                let k = 1 + rng.below(2);
                (0..k).map(|_| rng.below(n + 1)).collect()
            })
            .collect();
        let refs: Vec<&[usize]> = succ.iter().map(Vec::as_slice).collect();
        let t = terms(&refs);
        let reducible = Cfg::of_terms(&t).reducible();
        let Some(tree) = structure_terms(&t) else {
            assert!(!reducible, "a reducible graph was refused: {succ:?}");
            irreducible += 1;
            continue;
        };
        structured += 1;
        for seed in 0..6u64 {
            let mut r = Rng(seed * 7919 + 1);
            let decisions: Vec<bool> = (0..1 + r.below(12)).map(|_| r.below(2) == 1).collect();
            same_runs(&t, &tree, &decisions);
        }
    }
    assert!(
        structured > 1000 && irreducible > 100,
        "{structured} {irreducible}"
    );
}
