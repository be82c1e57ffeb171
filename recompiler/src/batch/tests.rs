//! The column-wise model against the per-lane interpreter, bit for bit.

use super::*;
use crate::interp;
use crate::spirv::arbitrary::{random_kernel, GenOptions, Rng, F32_SPECIALS, U32_SPECIALS};
use std::path::Path;

fn random_inputs(rng: &mut Rng, n: usize) -> Vec<[u32; 6]> {
    (0..n)
        .map(|_| {
            let mut r = [0u32; 6];
            for v in &mut r {
                *v = match rng.below(3) {
                    0 => rng.pick(&F32_SPECIALS),
                    1 => rng.pick(&U32_SPECIALS),
                    _ => rng.next_u64() as u32,
                };
            }
            r
        })
        .collect()
}

/// Runs `kernel` both ways over `inputs` (rows `first_row..`) and returns the first row
/// that differs, if any.
fn first_difference(
    kernel: &Kernel,
    inputs: &[[u32; 6]],
    first_row: u64,
    wave: u32,
) -> Option<(usize, [u32; 16], [u32; 16])> {
    let bk = BatchKernel::new(kernel).expect("valid kernel");
    // every build of the loops this CPU runs
    let builds: Vec<BatchKernel> = Isa::available()
        .into_iter()
        .map(|isa| BatchKernel { isa, ..bk.clone() })
        .collect();
    builds.iter().find_map(|bk| {
        let mut scratch = bk.scratch();
        let mut got = vec![[0u32; 16]; inputs.len()];
        bk.run(&mut scratch, inputs, first_row, wave, &mut got);
        inputs
            .iter()
            .zip(&got)
            .enumerate()
            .find_map(|(i, (inp, g))| {
                let lane = ((first_row + i as u64) % u64::from(wave)) as u32;
                let want = interp::run(kernel, *inp, lane);
                (want != *g).then_some((i, want, *g))
            })
    })
}

#[test]
fn matches_interp_on_random_kernels() {
    let opts = GenOptions::default();
    let mut rng = Rng::new(0x5eed_ba7c);
    let seeds = 120u64;
    for seed in 0..seeds {
        let k = random_kernel(seed, &opts);
        // 1,300 rows: two full blocks and a partial one, starting mid-wave.
        let inputs = random_inputs(&mut rng, 2 * BLOCK + 276);
        let wave = if seed % 2 == 0 { 32 } else { 64 };
        if let Some((i, want, got)) = first_difference(&k, &inputs, 7, wave) {
            panic!(
                "seed {seed} row {i} inputs {:08x?}: interp {want:08x?} batch {got:08x?}",
                inputs[i]
            );
        }
    }
}

/// An operation repeated on the same columns is computed once, also when only the repeat
/// is used (the column stays live through it), and the outputs are the interpreter's.
#[test]
fn repeated_operations_share_one_column() {
    let mut k = Kernel::default();
    let x = k.push(Expr::Input(0));
    let y = k.push(Expr::Input(1));
    let first = k.push(Expr::IntBin {
        op: IntBin::Add,
        a: x,
        b: y,
    });
    let again = k.push(Expr::IntBin {
        op: IntBin::Add,
        a: x,
        b: y,
    });
    let other = k.push(Expr::IntBin {
        op: IntBin::Add,
        a: y,
        b: x,
    });
    let twice = k.push(Expr::IntBin {
        op: IntBin::Xor,
        a: again,
        b: other,
    });
    let zero = k.push(Expr::Const {
        ty: Ty::U32,
        bits: 0,
    });
    k.outputs = vec![zero; 16];
    k.outputs[0] = again;
    k.outputs[1] = twice;
    let _ = first;
    let bk = BatchKernel::new(&k).unwrap();
    // the two inputs, one add for `first`/`again`, the operand-swapped add, the xor
    assert_eq!(bk.evaluated(), 5);
    let inputs = random_inputs(&mut Rng::new(9), 2 * BLOCK + 5);
    assert_eq!(first_difference(&k, &inputs, 0, 32), None);
}

#[test]
fn scratch_of_another_kernel_is_rebuilt() {
    let opts = GenOptions::default();
    let (a, b) = (random_kernel(1, &opts), random_kernel(2, &opts));
    let (ba, bb) = (BatchKernel::new(&a).unwrap(), BatchKernel::new(&b).unwrap());
    let mut scratch = ba.scratch();
    let inputs = random_inputs(&mut Rng::new(3), 40);
    let mut got = vec![[0u32; 16]; inputs.len()];
    bb.run(&mut scratch, &inputs, 0, 32, &mut got);
    for (i, (inp, g)) in inputs.iter().zip(&got).enumerate() {
        let want = interp::run(&b, *inp, i as u32 % 32);
        assert_eq!(want, *g, "row {i}");
    }
}

#[test]
fn invalid_kernel_is_refused() {
    let k = Kernel {
        exprs: vec![Expr::Input(0)],
        ..Kernel::default()
    };
    assert!(BatchKernel::new(&k).is_err());
}
/// Every shipped hardware row's body, lowered under its mode, runs identically both ways
/// (on the row's own inputs and on random ones).
#[test]
fn matches_interp_on_lowered_hardware_rows() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/rdna2");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    let mut rng = Rng::new(11);
    let mut seen = std::collections::HashSet::new();
    let mut kernels = 0;
    for path in files {
        let ds = rdnaprobe_dataset::read_dataset(&path).unwrap_or_else(|e| panic!("{e}"));
        for r in ds.rows {
            let (words, row, mode) = (&r.encoding, r.inputs, r.float_mode());
            let (Ok(wave), Ok(gfx)) = (r.wave_size(), r.target()) else {
                panic!(
                    "{}: a row's wave or gfx cell does not parse",
                    path.display()
                );
            };
            let Ok(kernel) = crate::lower_words(words, mode, wave, gfx) else {
                continue;
            };
            let mut inputs = vec![row];
            if seen.insert(format!("{words:?}{mode:?}{wave:?}{gfx:?}")) {
                kernels += 1;
                inputs.extend(random_inputs(&mut rng, 64));
            }
            if let Some((i, want, got)) = first_difference(&kernel, &inputs, 0, wave.lanes()) {
                panic!(
                    "{}: {words:08x?} {mode:?} inputs {:08x?}: interp {want:08x?} batch {got:08x?}",
                    path.display(),
                    inputs[i]
                );
            }
        }
    }
    assert!(
        kernels > 20,
        "only {kernels} distinct lowered kernels found in {}",
        dir.display()
    );
}
