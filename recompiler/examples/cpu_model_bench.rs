//! Single-thread speed of the column-wise CPU model (`batch`) on one-instruction bodies: for
//! each body word given (a VOP1 `v10, v4` form, e.g. 0x7e146b04 = v_sin_f32 v10, v4), the
//! expressions of its kernel, the operations evaluated per lane (constants, bit casts, repeats
//! and dead expressions left out) and the best of three runs over 2^21 inputs in ns per row.
//! The last number is a checksum of the outputs: equal checksums from two builds mean equal
//! outputs on those inputs.
//!
//! `cargo run --release -p rdnaprobe-recompiler --example cpu_model_bench -- 0x7e146b04`
use rdnaprobe_isa::{Target, Wave};
use rdnaprobe_recompiler::batch::BatchKernel;
use std::io::Write;
fn main() {
    let mut out_lock = std::io::stdout().lock();
    let n: usize = 1 << 21;
    for w in std::env::args().skip(1) {
        let word = u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap();
        let mode = rdnaprobe_isa::FloatMode::DEFAULT;
        let k =
            rdnaprobe_recompiler::lower_words(&[word], mode, Wave::W32, Target::Gfx1030).unwrap();
        let bk = BatchKernel::new(&k).unwrap();
        let mut s = bk.scratch();
        let chunk = 65536;
        let mut inputs = vec![[0u32; 6]; chunk];
        let mut out = vec![[0u32; 16]; chunk];
        let mut acc = 0u64;
        let mut best = f64::MAX;
        for _rep in 0..3 {
            let t = std::time::Instant::now();
            for c in 0..n / chunk {
                for (i, r) in inputs.iter_mut().enumerate() {
                    r[0] = ((c * chunk + i) as u32).wrapping_mul(2654435761);
                }
                bk.run(&mut s, &inputs, 0, 32, &mut out);
                acc = acc.wrapping_add(out.iter().map(|o| u64::from(o[0])).sum::<u64>());
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        writeln!(
            out_lock,
            "{w}: {} exprs, {} evaluated, {:.1} ns/row ({acc})",
            bk.len(),
            bk.evaluated(),
            best * 1e9 / n as f64
        )
        .expect("stdout");
    }
}
