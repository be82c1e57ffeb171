//! Shrinks a case whose backends disagree: deletes items, flattens blocks, shortens loops,
//! then simplifies the inputs (EXEC, SGPRs, LDS, lane inputs, float mode), keeping each
//! change only while the difference persists.

use rdnaprobe_dataset::ModeCells;

use super::case::Case;
use super::gen::Item;

/// Every program one step simpler than `items`: one item deleted, one block replaced by its
/// body, one loop run once, recursively inside bodies.
fn simpler(items: &[Item]) -> Vec<Vec<Item>> {
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut del = items.to_vec();
        del.remove(i);
        out.push(del);
        let body = match &items[i] {
            Item::Inst(_) => continue,
            Item::Skip { body, .. } | Item::Loop { body, .. } | Item::Exec { body, .. } => body,
        };
        let mut flat = items.to_vec();
        flat.splice(i..=i, body.iter().cloned());
        out.push(flat);
        if let Item::Loop { count, .. } = &items[i] {
            if *count > 1 {
                let mut once = items.to_vec();
                if let Item::Loop { count, .. } = &mut once[i] {
                    *count = 1;
                }
                out.push(once);
            }
        }
        for inner in simpler(body) {
            let mut v = items.to_vec();
            match &mut v[i] {
                Item::Skip { body, .. } | Item::Loop { body, .. } | Item::Exec { body, .. } => {
                    *body = inner
                }
                Item::Inst(_) => {}
            }
            out.push(v);
        }
    }
    out
}

/// Input simplifications of `c`, most sweeping first.
fn simpler_inputs(c: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let mut push = |f: &dyn Fn(&mut Case)| {
        let mut n = c.clone();
        f(&mut n);
        if n != *c {
            out.push(n);
        }
    };
    let full = if c.program.wave == 64 {
        u64::MAX
    } else {
        u32::MAX as u64
    };
    push(&|n| n.exec = full);
    push(&|n| n.mode = ModeCells::default());
    push(&|n| n.lds.iter_mut().for_each(|x| *x = 0));
    push(&|n| n.s_in = [0; 16]);
    for k in 0..6 {
        push(&|n| n.lanes.iter_mut().for_each(|l| l[k] = 0));
    }
    for k in 0..16 {
        push(&|n| n.s_in[k] = 0);
    }
    for lane in 0..c.lanes.len() {
        push(&|n| n.lanes[lane] = [0; 6]);
    }
    for lane in 0..c.lanes.len() {
        for k in 0..6 {
            push(&|n| n.lanes[lane][k] = 0);
        }
    }
    out
}

/// The smallest case reachable from `case` by the steps above for which `still` holds,
/// within `budget` checks.
pub fn shrink(case: &Case, budget: usize, still: &mut dyn FnMut(&Case) -> bool) -> Case {
    let mut best = case.clone();
    let mut checks = 0;
    loop {
        let mut progressed = false;
        let mut candidates: Vec<Case> = simpler(&best.program.items)
            .into_iter()
            .map(|items| {
                let mut n = best.clone();
                n.program.items = items;
                n
            })
            .collect();
        candidates.extend(simpler_inputs(&best));
        for cand in candidates {
            if checks >= budget {
                return best;
            }
            checks += 1;
            if still(&cand) {
                best = cand;
                progressed = true;
                break;
            }
        }
        if !progressed {
            return best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progfuzz::gen::Program;

    fn inst(s: &str) -> Item {
        Item::Inst(s.into())
    }

    #[test]
    fn shrinks_to_the_instruction_that_matters() {
        let program = Program {
            wave: 32,
            items: vec![
                inst("v_mov_b32 v10, 1"),
                Item::Loop {
                    counter: 30,
                    count: 3,
                    body: vec![inst("v_mov_b32 v11, 2"), inst("v_mov_b32 v12, 3")],
                },
                inst("v_mov_b32 v13, 4"),
            ],
        };
        let case = Case {
            program,
            exec: 5,
            s_in: [7; 16],
            lds: vec![9; 4],
            mem: vec![],
            lanes: vec![[1; 6]; 32],
            mode: ModeCells::default(),
        };
        let small = shrink(&case, 1000, &mut |c| c.program.text().contains("v12, 3"));
        assert_eq!(small.program.items, vec![inst("v_mov_b32 v12, 3")]);
        assert_eq!(small.exec, u32::MAX as u64);
        assert!(small.lanes.iter().all(|l| *l == [0; 6]));
        assert_eq!(small.s_in, [0; 16]);
        // A budget of zero checks changes nothing.
        assert_eq!(shrink(&case, 0, &mut |_| true), case);
    }
}
