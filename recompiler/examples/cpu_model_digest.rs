//! Bit identity of the column-wise CPU model (`batch`) on the f32 transcendentals, for
//! comparing two builds: for each of v_sin/v_cos/v_exp/v_log/v_sqrt/v_rcp/v_rsq_f32 (`v10, v4`,
//! default mode, wave32) it runs 2^24 inputs spread over the whole 32-bit space (every 24-bit
//! prefix once, its low byte hashed) plus every special class (each sign with exponents 0, 1,
//! 0xfe and 0xff and the edge fractions, every exponent with the edge fractions, every 16-bit
//! prefix with low halves 0 and 0xffff) through `batch` and prints a 64-bit FNV-1a digest of
//! all output dwords. Every row is also checked against the per-row interpreter (`interp`,
//! the reference) and against the portable build of `batch`; the mismatch counts must be 0.
//! Equal digests from two builds mean equal outputs on these inputs.
//!
//! `cargo run --release -p rdnaprobe-recompiler --example cpu_model_digest [-- --no-interp]`
use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_recompiler::{batch::BatchKernel, interp};
use std::io::Write;

const OPS: [(&str, u32); 7] = [
    ("v_sin_f32", 0x7e146b04),
    ("v_cos_f32", 0x7e146d04),
    ("v_exp_f32", 0x7e144b04),
    ("v_log_f32", 0x7e144f04),
    ("v_sqrt_f32", 0x7e146704),
    ("v_rcp_f32", 0x7e145504),
    ("v_rsq_f32", 0x7e145d04),
];

fn inputs() -> Vec<u32> {
    let mut v: Vec<u32> = (0u32..1 << 24)
        .map(|i| {
            let h = i.wrapping_mul(0x9e37_79b9) ^ (i >> 7).wrapping_mul(0x85eb_ca6b);
            i << 8 | (h >> 24)
        })
        .collect();
    let fracs = [
        0, 1, 2, 3, 0x1fffff, 0x200000, 0x3fffff, 0x400000, 0x400001, 0x555555, 0x7ffffe, 0x7fffff,
    ];
    for sign in [0u32, 1 << 31] {
        for exp in 0u32..256 {
            for &f in &fracs {
                v.push(sign | exp << 23 | f);
            }
        }
        for exp in [0u32, 1, 0xfe, 0xff] {
            for f in (0..1 << 12)
                .map(|k| k << 11)
                .chain((0..1 << 11).map(|k| k * 2 + 1))
            {
                v.push(sign | exp << 23 | f);
            }
        }
    }
    for p in 0u32..1 << 16 {
        v.push(p << 16);
        v.push(p << 16 | 0xffff);
    }
    v
}

fn fnv(h: &mut u64, row: &[u32; 16]) {
    for w in row {
        for b in w.to_le_bytes() {
            *h = (*h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn main() {
    let check_interp = !std::env::args().any(|a| a == "--no-interp");
    let xs = inputs();
    let rows: Vec<[u32; 6]> = xs.iter().map(|&x| [x, 0, 0, 0, 0, 0]).collect();
    let mut stdout = std::io::stdout().lock();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (name, word) in OPS {
        let k = rdnaprobe_recompiler::lower_words(
            &[word],
            FloatMode::DEFAULT,
            Wave::W32,
            Target::Gfx1030,
        )
        .expect("lowers");
        let bk = BatchKernel::new(&k).expect("valid kernel");
        let t = std::time::Instant::now();
        let run = |bk: &BatchKernel| {
            let mut out = vec![[0u32; 16]; rows.len()];
            let mut s = bk.scratch();
            for (i, (inp, o)) in rows
                .chunks(1 << 16)
                .zip(out.chunks_mut(1 << 16))
                .enumerate()
            {
                bk.run(&mut s, inp, (i as u64) << 16, 32, o);
            }
            out
        };
        let out = run(&bk);
        let secs = t.elapsed().as_secs_f64();
        let portable = run(&bk.clone().portable());
        let vs_portable = out.iter().zip(&portable).filter(|(a, b)| a != b).count();
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        out.iter().for_each(|r| fnv(&mut h, r));
        let vs_interp = if check_interp {
            let per = rows.len().div_ceil(threads);
            std::thread::scope(|sc| {
                let hs: Vec<_> = (0..threads)
                    .map(|t| {
                        let (k, rows, out) = (&k, &rows, &out);
                        sc.spawn(move || {
                            let lo = (t * per).min(rows.len());
                            let hi = ((t + 1) * per).min(rows.len());
                            (lo..hi)
                                .filter(|&i| interp::run(k, rows[i], i as u32 % 32) != out[i])
                                .count()
                        })
                    })
                    .collect();
                hs.into_iter()
                    .map(|h| h.join().expect("thread"))
                    .sum::<usize>()
            })
            .to_string()
        } else {
            "not checked".into()
        };
        writeln!(
            stdout,
            "{name}: {} rows, digest {h:016x}, vs interp {vs_interp}, vs portable {vs_portable}, batch {:.1} ns/row",
            rows.len(),
            secs * 1e9 / rows.len() as f64
        )
        .expect("stdout");
    }
}
