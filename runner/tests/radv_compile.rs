//! RADV's compiler without an AMD GPU (`rdnaprobe compile`, RADV's null device): every SPIR-V
//! module a replay of the shipped datasets emits compiles for the gfx103x chips, and ACO's
//! listings, real gfx10.3 code from a compiler outside the project, feed the decoder's checks:
//! every distinct instruction decodes as llvm-mc-19 prints it (outside the printer's listed
//! classes) and the printed text assembles in llvm-mc-19 to the same words.
#![allow(clippy::print_stdout)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rdnaprobe_isa::difftest::{self, llvm_round_trip, KnownDifferences, Outcome, RoundTrip};
use rdnaprobe_isa::{decode_stream, Decoded, Wave};

fn radv_or_skip() -> bool {
    let icd = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"]
        .iter()
        .any(|d| {
            std::fs::read_dir(d).is_ok_and(|r| {
                r.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("radeon_icd"))
            })
        });
    if !icd {
        assert!(
            std::env::var_os("CI").is_none(),
            "the RADV ICD is missing under CI (scripts/setup installs mesa-vulkan-drivers)"
        );
        eprintln!("radv_compile: no RADV ICD, skipped");
    }
    icd && difftest::llvm_mc_or_skip()
}

/// The modules a lavapipe replay of every shipped lane and wave dataset creates.
fn shipped_modules(dir: &Path) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let spv = dir.join("spv");
    let mut cmd = common::command(["--save-spirv", spv.to_str().unwrap(), "replay"]);
    for d in ["datasets/rdna2", "datasets/wave"] {
        for e in std::fs::read_dir(root.join(d)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "csv") {
                cmd.arg(e.path());
            }
        }
    }
    let out = cmd
        .args(["--backend", "vulkan:lavapipe", "-o"])
        .arg(format!("{}/", dir.join("replay").display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let mut v: Vec<PathBuf> = std::fs::read_dir(&spv)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

fn compile(modules: &[PathBuf], gfx: &str) -> Vec<serde_json::Value> {
    let out = common::command(["compile", "--gfx", gfx, "--format", "json", "--spirv"])
        .args(modules)
        .output()
        .unwrap();
    let json: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("compile --format json: {e}: {}", common::text(&out.stderr)));
    json
}

#[test]
fn shipped_modules_compile_for_every_chip_and_aco_code_decodes_as_llvm_mc() {
    if !radv_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let modules = shipped_modules(dir.path());
    assert!(modules.len() > 500, "{} modules", modules.len());
    // Every module on gfx1030; every eighth on the other six chips (the command's own run of
    // all of them on all seven is in docs/backends.md).
    let first = compile(&modules, "gfx1030");
    assert_eq!(first.len(), modules.len());
    let failed: Vec<&serde_json::Value> =
        first.iter().filter(|m| m.get("error").is_some()).collect();
    assert!(
        failed.is_empty(),
        "{} of {} failed, first: {}",
        failed.len(),
        modules.len(),
        failed[0]
    );
    let some: Vec<PathBuf> = modules.iter().step_by(8).cloned().collect();
    for gfx in [
        "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
    ] {
        let r = compile(&some, gfx);
        assert_eq!(r.len(), some.len(), "{gfx}");
        for m in &r {
            assert!(m.get("error").is_none(), "{gfx}: {m}");
            assert_eq!(m["gfx"], gfx);
            let words = m["words"].as_array().unwrap();
            assert!(!words.is_empty(), "{gfx}: no words");
        }
    }
    // ACO's words: the distinct instructions of every listing.
    let mut distinct: BTreeSet<Vec<u32>> = BTreeSet::new();
    let mut total = 0;
    for m in &first {
        assert_eq!(
            m["decoder_differences"].as_array().map(Vec::len),
            Some(0),
            "{}",
            m["module"]
        );
        let words: Vec<u32> = m["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap() as u32)
            .collect();
        let body = decode_stream(&words).expect("ACO's words decode");
        let mut at = 0;
        for d in &body {
            let Decoded::Inst(i) = d else {
                panic!("ACO wrote an instruction the decoder refuses: {d:?}");
            };
            distinct.insert(words[at..at + i.len()].to_vec());
            at += i.len();
            total += 1;
        }
        assert_eq!(at, words.len());
    }
    let streams: Vec<Vec<u32>> = distinct.into_iter().collect();
    // Text: as llvm-mc-19 prints it, outside the printer's listed classes.
    let known = KnownDifferences::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/isa/known-differences.toml"),
    )
    .unwrap();
    let mut agree = 0;
    let mut unexplained = Vec::new();
    // The one class of ACO's words llvm-mc-19 rejects: v_cndmask_b32 in SDWA with src0's SEXT
    // bit (ACO selects between sign-extended bytes or words so). The decoder prints it as ACO
    // does, `v_cndmask_b32_sdwa v24, sext(v5), v24, vcc ...`.
    let mut cndmask_sext = 0;
    let is_cndmask_sext = |w: &[u32]| match decode_stream(w).ok().and_then(|b| b.into_iter().next())
    {
        Some(Decoded::Inst(i)) => {
            let t = i.to_llvm_text(Wave::W64);
            t.starts_with("v_cndmask_b32_sdwa ")
                && t.split(", ").nth(1).is_some_and(|s| s.starts_with("sext("))
        }
        _ => false,
    };
    for chunk in streams.chunks(20_000) {
        for (w, o) in chunk
            .iter()
            .zip(difftest::compare(chunk, Wave::W64).unwrap())
        {
            match &o {
                Outcome::Agree => agree += 1,
                Outcome::LlvmRejects if is_cndmask_sext(w) => cndmask_sext += 1,
                Outcome::LlvmRejects | Outcome::HardwareOnly { .. } => {
                    unexplained.push(format!("{w:08x?}: {o:?}"))
                }
                _ => {
                    let fam = match decode_stream(w).ok().and_then(|b| b.into_iter().next()) {
                        Some(Decoded::Inst(i)) => i.info().family.name(),
                        _ => "",
                    };
                    if known.classify(fam, &o).is_none() {
                        unexplained.push(format!("{w:08x?}: {o:?}"));
                    }
                }
            }
        }
    }
    // The round trip through LLVM (wave64: ACO compiled the modules for wave64).
    let mut trips = [0usize; 4];
    for chunk in streams.chunks(20_000) {
        for (w, t) in chunk.iter().zip(llvm_round_trip(chunk, Wave::W64).unwrap()) {
            match t {
                RoundTrip::NotCompared => trips[0] += 1,
                RoundTrip::SameWords => trips[1] += 1,
                RoundTrip::LlvmWords | RoundTrip::LlvmText => trips[2] += 1,
                wrong => {
                    trips[3] += 1;
                    unexplained.push(format!("round trip {w:08x?}: {wrong:?}"));
                }
            }
        }
    }
    println!(
        "{} modules; ACO wrote {total} instructions, {} distinct: {agree} print as llvm-mc-19 \
         prints them, {cndmask_sext} are v_cndmask_b32_sdwa with sext(src0) (llvm-mc-19 \
         rejects them); round trip: {} same words, {} llvm-mc's own words or text, {} not \
         compared, {} wrong",
        modules.len(),
        streams.len(),
        trips[1],
        trips[2],
        trips[0],
        trips[3]
    );
    assert!(
        agree * 100 > streams.len() * 99,
        "{agree} of {}",
        streams.len()
    );
    assert!(
        unexplained.is_empty(),
        "{} unexplained, first:\n{}",
        unexplained.len(),
        unexplained
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
