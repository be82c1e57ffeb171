//! llvm-mc-19 as the reference assembler: one process for a batch of lines, one result per line.

use std::io::Write;
use std::process::{Command, Stdio};

pub use rdnaprobe_isa::difftest::LLVM_MC;

pub use rdnaprobe_isa::difftest::llvm_mc_or_skip as or_skip;

/// Words of every line llvm-mc accepts, or its first error message.
pub type Outcome = Result<Vec<u32>, String>;

/// Assemble `lines` (one instruction each, no `;`) with llvm-mc-19 for gfx1030 in one process.
pub fn assemble(lines: &[String], wave64: bool) -> Vec<Outcome> {
    let mut child = Command::new(LLVM_MC)
        .args([
            "-arch=amdgcn",
            "-mcpu=gfx1030",
            if wave64 {
                "-mattr=+wavefrontsize64"
            } else {
                "-mattr=+wavefrontsize32"
            },
            "-show-encoding",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("llvm-mc-19 starts");
    let mut input = String::new();
    for l in lines {
        assert!(!l.contains(';') && !l.contains('\n'), "{l}");
        input.push_str(l);
        input.push('\n');
    }
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc-19 runs");
    writer.join().expect("writer").expect("write to llvm-mc-19");
    let mut errors: Vec<Option<String>> = vec![None; lines.len()];
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        let Some(rest) = l.strip_prefix("<stdin>:") else {
            continue;
        };
        let mut p = rest.splitn(3, ':');
        let (Some(ln), Some(_col), Some(msg)) = (p.next(), p.next(), p.next()) else {
            continue;
        };
        let Some(msg) = msg.trim().strip_prefix("error:") else {
            continue;
        };
        if let Ok(n) = ln.parse::<usize>() {
            if (1..=lines.len()).contains(&n) && errors[n - 1].is_none() {
                errors[n - 1] = Some(msg.trim().to_string());
            }
        }
    }
    let mut encodings = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once("; encoding: [").map(|(_, e)| e.to_string()))
        .collect::<Vec<_>>()
        .into_iter();
    errors
        .into_iter()
        .map(|e| match e {
            Some(m) => Err(m),
            None => {
                let e = encodings.next().expect("one encoding per accepted line");
                let bytes: Vec<u8> = e
                    .trim_end_matches(']')
                    .split(',')
                    .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
                    .collect();
                Ok(bytes
                    .chunks(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect())
            }
        })
        .collect()
}
