//! Differential test against llvm-mc-19 over random instructions of all families.
//!
//! `cargo run --release -p rdnaprobe-isa --example difftest -- --count 200000 --seed 1`
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;

use rdnaprobe_isa::difftest::{compare, random_instruction, Outcome, Rng};
use rdnaprobe_isa::{decode_one, Decoded, Wave};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let get = |k: &str, d: u64| -> u64 {
        args.iter()
            .position(|a| a == k)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let count = get("--count", 20_000) as usize;
    let seed = get("--seed", 1);
    let show = get("--show", 20) as usize;
    let dump_path = args
        .iter()
        .position(|a| a == "--dump")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let mut dump = String::new();
    println!("seed {seed} count {count}");
    let mut rng = Rng(seed);
    let corpus: Vec<Vec<u32>> = (0..count).map(|_| random_instruction(&mut rng)).collect();
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_family: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut shown = 0;
    for chunk in corpus.chunks(4000) {
        let outcomes = compare(chunk, Wave::W32)?;
        for (w, o) in chunk.iter().zip(outcomes) {
            let fam = match decode_one(w, 0) {
                Ok(Decoded::Inst(i)) => i.info().family.to_string(),
                Ok(Decoded::Unsupported(u)) => format!("{:?}", u.family),
                Err(_) => "error".into(),
            };
            let key = match &o {
                Outcome::LlvmRejects => "llvm-rejects",
                Outcome::Agree => "agree",
                Outcome::Length { .. } => "length",
                Outcome::Text { .. } => "text",
                Outcome::OursUnsupported { .. } => "ours-unsupported",
            };
            *tally.entry(key.into()).or_default() += 1;
            if o != Outcome::LlvmRejects {
                let e = by_family.entry(fam.clone()).or_default();
                e.0 += 1;
                if o == Outcome::Agree {
                    e.1 += 1;
                }
            }
            if !matches!(o, Outcome::Agree | Outcome::LlvmRejects) {
                let ws: Vec<String> = w.iter().map(|x| format!("0x{x:08x}")).collect();
                dump.push_str(&format!("{fam}\t{}\t{o:?}\n", ws.join(" ")));
            }
            if !matches!(o, Outcome::Agree | Outcome::LlvmRejects) && shown < show {
                shown += 1;
                let ws: Vec<String> = w.iter().map(|x| format!("0x{x:08x}")).collect();
                println!("{} {o:?}", ws.join(" "));
            }
        }
    }
    if let Some(p) = dump_path {
        std::fs::write(p, dump)?;
    }
    let decoded = count - tally.get("llvm-rejects").copied().unwrap_or(0);
    let agree = tally.get("agree").copied().unwrap_or(0);
    println!("{tally:?}");
    for (f, (n, a)) in &by_family {
        println!(
            "{f:8} {a}/{n} ({:.2}%)",
            100.0 * *a as f64 / (*n).max(1) as f64
        );
    }
    println!(
        "agreement where llvm-mc decodes: {agree}/{decoded} = {:.3}%",
        100.0 * agree as f64 / decoded.max(1) as f64
    );
    Ok(())
}
