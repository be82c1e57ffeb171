//! The analysis on hand-made graphs (block `i` goes to `succ[i]`; `succ.len()` is the exit).

use super::{Cfg, Loop};

fn cfg(succ: &[&[usize]]) -> Cfg {
    Cfg::new(succ.iter().map(|s| s.to_vec()).collect())
}

fn lp(header: usize, nodes: &[usize]) -> Loop {
    Loop {
        header,
        nodes: nodes.to_vec(),
    }
}

#[test]
fn diamond() {
    let g = cfg(&[&[1, 2], &[3], &[3], &[4]]);
    assert!(g.reducible());
    assert_eq!(g.idom, [Some(0), Some(0), Some(0), Some(0), Some(3)]);
    assert_eq!(g.forward_preds(3), 2);
    assert!(g.back_edges().is_empty());
    assert!(g.loops().is_empty());
    assert_eq!(g.dom_children(0), [2, 1, 3], "reverse postorder");
}

#[test]
fn if_without_else() {
    let g = cfg(&[&[1, 2], &[2], &[3]]);
    assert!(g.reducible());
    assert_eq!(g.idom[2], Some(0));
    assert_eq!(g.idom[1], Some(0));
    assert_eq!(g.forward_preds(2), 2);
    assert!(g.loops().is_empty());
}

#[test]
fn nested_loops() {
    // 1: outer header, 2: inner header, 3 -> 2 inner latch, 4 -> 1 outer latch
    let g = cfg(&[&[1], &[2], &[3], &[2, 4], &[1, 5], &[6]]);
    assert!(g.reducible());
    assert_eq!(g.back_edges(), [(3, 2), (4, 1)]);
    assert_eq!(g.loops(), [lp(1, &[1, 2, 3, 4]), lp(2, &[2, 3])]);
    assert!(g.is_loop_header(1) && g.is_loop_header(2) && !g.is_loop_header(3));
    assert_eq!(g.idom[5], Some(4));
}

#[test]
fn loop_with_several_exits() {
    // header 1 leaves to 4, body 2 leaves to 5, 3 is the latch
    let g = cfg(&[&[1], &[2, 4], &[3, 5], &[1], &[6], &[6]]);
    assert!(g.reducible());
    assert_eq!(g.loops(), [lp(1, &[1, 2, 3])]);
    assert_eq!(g.idom[4], Some(1));
    assert_eq!(g.idom[5], Some(2));
    assert_eq!(g.idom[6], Some(1));
    assert_eq!(g.forward_preds(6), 2);
}

#[test]
fn loop_with_continue() {
    // 2 continues early, 3 is the latch that may leave
    let g = cfg(&[&[1], &[2, 3], &[1], &[1, 4], &[5]]);
    assert!(g.reducible());
    let mut back = g.back_edges();
    back.sort_unstable();
    assert_eq!(back, [(2, 1), (3, 1)]);
    assert_eq!(g.loops(), [lp(1, &[1, 2, 3])]);
    assert_eq!(g.preds[1].len(), 3);
    assert_eq!(g.forward_preds(1), 1);
}

#[test]
fn irreducible_two_entry_loop() {
    let g = cfg(&[&[1, 2], &[2, 3], &[1, 3]]);
    assert!(!g.reducible());
    assert!(
        g.back_edges().is_empty(),
        "neither entry dominates the other"
    );
    assert!(g.loops().is_empty());
    assert_eq!(g.idom[1], Some(0));
    assert_eq!(g.idom[2], Some(0));
}

#[test]
fn endpgm_in_the_middle() {
    // 1 ends the program; 2 follows it and no branch reaches it
    let g = cfg(&[&[1, 3], &[4], &[3], &[4]]);
    assert!(g.reducible());
    assert!(!g.reachable(2));
    assert_eq!(g.idom[2], None);
    assert_eq!(g.idom[4], Some(0));
    assert_eq!(g.rpo.len(), 4);
    assert!(
        g.preds[3].iter().all(|&p| p != 2),
        "unreachable preds are left out"
    );
}

#[test]
fn self_loop_and_duplicate_targets() {
    let g = cfg(&[&[0, 0], &[2]]);
    assert_eq!(g.succ[0], [0]);
    assert!(g.reducible());
    assert_eq!(g.back_edges(), [(0, 0)]);
    assert_eq!(g.loops(), [lp(0, &[0])]);
    assert!(!g.reachable(1) && !g.reachable(2));
}
