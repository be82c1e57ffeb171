//! Differential test against llvm-mc-19 over random instructions of all families.
//!
//! `cargo run --release -p rdnaprobe-isa --example difftest -- --count 200000 --seed 1`
//! (`--wave 64` for wave64, `--show N` to list N unexplained disagreements, `--dump FILE` to
//! write all of them, `--dump-known FILE` to write the classified ones). Disagreements in a class of scripts/isa/known-differences.toml are
//! counted per class and left out of the agreement figure.
#![allow(clippy::print_stdout)]

use rdnaprobe_isa::difftest::{run, KnownDifferences};
use rdnaprobe_isa::Wave;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: &str| {
        args.iter()
            .position(|a| a == k)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let num = |k: &str, d: u64| arg(k).and_then(|v| v.parse().ok()).unwrap_or(d);
    let count = num("--count", 20_000) as usize;
    let seed = num("--seed", 1);
    let show = num("--show", 20) as usize;
    let wave = if num("--wave", 32) == 64 {
        Wave::W64
    } else {
        Wave::W32
    };
    let known = KnownDifferences::load(&known_differences_path())?;
    let start = std::time::Instant::now();
    let t = run(seed, count, wave, &known)?;
    println!(
        "seed {seed} count {count} wave {} ({:.1} s)",
        if wave == Wave::W64 { 64 } else { 32 },
        start.elapsed().as_secs_f64()
    );
    println!(
        "llvm-mc decodes {}, rejects {}; hardware-only rows (not compared) {}; agree {}, \
         known-class {}, unexplained {}",
        t.decoded(),
        t.llvm_rejects,
        t.hardware_only,
        t.agree,
        t.known_total(),
        t.unexplained.len()
    );
    println!("family   decoded  agree  known  agreement (known classes left out)");
    for (f, (n, a, k)) in &t.by_family {
        println!(
            "{f:8} {n:7} {a:6} {k:6}  {:.2}%",
            100.0 * *a as f64 / (n - k).max(1) as f64
        );
    }
    for (c, n) in &t.known {
        println!("known class {c}: {n}");
    }
    let mut dump = String::new();
    for (i, (fam, w, o)) in t.unexplained.iter().enumerate() {
        let ws: Vec<String> = w.iter().map(|x| format!("0x{x:08x}")).collect();
        let line = format!("{fam}\t{}\t{o:?}\n", ws.join(" "));
        if i < show {
            print!("{line}");
        }
        dump.push_str(&line);
    }
    if let Some(p) = arg("--dump") {
        std::fs::write(p, dump)?;
    }
    if let Some(p) = arg("--dump-known") {
        let lines: String = t
            .explained
            .iter()
            .map(|(c, w, o)| {
                let ws: Vec<String> = w.iter().map(|x| format!("0x{x:08x}")).collect();
                format!("{c}\t{}\t{o:?}\n", ws.join(" "))
            })
            .collect();
        std::fs::write(p, lines)?;
    }
    println!(
        "agreement where llvm-mc decodes: {}/{} = {:.3}%",
        t.agree,
        t.decoded() - t.known_total(),
        100.0 * t.agreement()
    );
    Ok(())
}

/// The committed known-differences file of the printer (scripts/isa/known-differences.toml).
fn known_differences_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts/isa/known-differences.toml")
}
