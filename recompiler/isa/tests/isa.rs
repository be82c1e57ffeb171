//! Table, decoder, encoder and printer tests: hardware rows, the table's own probe cases, random
//! words, and a small differential draw against llvm-mc-19.
#![allow(clippy::print_stdout)]

use std::path::{Path, PathBuf};

use rdnaprobe_isa::difftest::{llvm_mc_or_skip, run, KnownDifferences, Outcome, Rng};
use rdnaprobe_isa::{decode_stream, encode, table, Decoded, Family, Source, Wave};

/// The shipped lane datasets (datasets/rdna2/*.csv).
fn lane_csvs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/rdna2");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    assert!(!v.is_empty(), "no datasets in {}", dir.display());
    v.sort();
    v
}

fn encodings(path: &Path) -> Vec<Vec<u32>> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        // The encoding is the first field of hex words after the quoted instruction text.
        let rest = match line.strip_prefix('"') {
            Some(r) => r.split_once("\",").map(|x| x.1).unwrap_or(""),
            None => line.split_once(',').map(|x| x.1).unwrap_or(""),
        };
        let enc = rest.split(',').next().unwrap_or("");
        let words: Option<Vec<u32>> = enc
            .split_whitespace()
            .map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).ok())
            .collect();
        if let Some(w) = words.filter(|w| !w.is_empty()) {
            out.push(w);
        }
    }
    out
}

#[test]
fn every_lane_dataset_encoding_decodes() {
    let files = lane_csvs();
    if files.is_empty() {
        println!("no lane datasets found; skipping");
        return;
    }
    let (mut bodies, mut insts) = (0, 0);
    for f in &files {
        for body in encodings(f) {
            bodies += 1;
            let items =
                decode_stream(&body).unwrap_or_else(|e| panic!("{}: {body:x?}: {e}", f.display()));
            for d in items {
                match d {
                    Decoded::Inst(i) => {
                        insts += 1;
                        assert_eq!(encode(&i), i.words(), "{}", i);
                        let _ = i.to_llvm_text(Wave::W32);
                    }
                    Decoded::Unsupported(u) => panic!("{}: {u} in {body:x?}", f.display()),
                }
            }
        }
    }
    println!(
        "lane datasets: {} files, {bodies} bodies, {insts} instructions, 0 unsupported",
        files.len()
    );
    assert!(insts > 1000);
}

#[test]
fn table_rows_per_family_and_llvm_known() {
    let t = table();
    let mut total = 0;
    for fam in Family::ALL {
        let rows: Vec<_> = t.rows.iter().filter(|r| r.family == fam).collect();
        let llvm = rows.iter().filter(|r| r.source == Source::Llvm).count();
        println!("{fam:8} rows {:4} llvm {:4}", rows.len(), llvm);
        assert!(!rows.is_empty(), "{fam} has no rows");
        total += rows.len();
    }
    println!("total {total}");
    let hw: Vec<_> = t
        .rows
        .iter()
        .filter(|r| r.source == Source::HardwareOnly)
        .map(|r| r.mnemonic)
        .collect();
    assert_eq!(
        hw,
        [
            "image_gather4h_pck",
            "image_gather8h_pck",
            "image_load_by2",
            "image_load_by4",
            "image_load_mip_by2",
            "image_load_mip_by4",
            "image_store_by2",
            "image_store_by4",
            "image_store_mip_by2",
            "image_store_mip_by4",
            "image_load_pck2",
            "image_load_pck4",
            "image_load_mip_pck2",
            "image_load_mip_pck4",
            "image_store_pck2",
            "image_store_pck4",
            "image_store_mip_pck2",
            "image_store_mip_pck4",
        ]
    );
}

/// The generated table is the golden file: each row keeps the words llvm-mc decoded and its
/// text. Every row must decode back to itself and re-encode; rows whose text differs are listed.
#[test]
fn table_probe_cases_round_trip_and_print() {
    let mut mismatch = Vec::new();
    let mut checked = 0;
    for row in &table().rows {
        if row.probe_words.is_empty() {
            continue;
        }
        // A probe that llvm-mc completed with the next word (s_setreg_imm32_b32) is skipped.
        let Ok(items) = decode_stream(&row.probe_words) else {
            continue;
        };
        let Some(Decoded::Inst(i)) = items.first() else {
            panic!("{}: {:?}", row.mnemonic, items.first())
        };
        assert_eq!(i.info().mnemonic, row.mnemonic);
        assert_eq!(encode(i), i.words());
        checked += 1;
        let ours = i.to_llvm_text(Wave::W32);
        if rdnaprobe_isa::difftest::normalize(&ours)
            != rdnaprobe_isa::difftest::normalize(row.probe_text)
        {
            mismatch.push((row.family, ours, row.probe_text));
        }
    }
    let valu_salu: Vec<_> = mismatch
        .iter()
        .filter(|m| m.0.is_valu() || matches!(m.0, Family::SOP1 | Family::SOP2 | Family::SOPC))
        .collect();
    println!(
        "probe cases: {checked} rows, {} print differently ({} VALU/SALU)",
        mismatch.len(),
        valu_salu.len()
    );
    for m in mismatch.iter().take(20) {
        println!("  {:?}: ours `{}` llvm `{}`", m.0, m.1, m.2);
    }
    assert!(checked > 1100);
    // Every probe that prints differently belongs to a known class of disagreement.
    let known = KnownDifferences::load(&known_differences_path()).expect("known differences");
    let unexplained: Vec<String> = mismatch
        .iter()
        .filter(|(fam, ours, llvm)| {
            let o = Outcome::Text {
                llvm: llvm.to_string(),
                ours: ours.clone(),
            };
            known.classify(fam.name(), &o).is_none()
        })
        .map(|(fam, ours, llvm)| format!("{fam}: ours `{ours}` llvm `{llvm}`"))
        .collect();
    assert!(unexplained.is_empty(), "{}", unexplained.join("\n"));
}

#[test]
fn random_words_never_panic_and_round_trip() {
    let mut rng = Rng(0x5eed);
    let mut n_inst = 0;
    for _ in 0..20_000 {
        let words: Vec<u32> = (0..6).map(|_| rng.next_u32()).collect();
        if let Ok(items) = decode_stream(&words) {
            for d in items {
                if let Decoded::Inst(i) = d {
                    n_inst += 1;
                    assert_eq!(encode(&i), i.words());
                    let _ = i.to_llvm_text(Wave::W64);
                    let _ = rdnaprobe_isa::output_types(i.words());
                }
            }
        }
    }
    assert!(n_inst > 10_000);
}

#[test]
fn truncated_stream_reports_word_offset() {
    let e = decode_stream(&[0x06140b04, 0xd5080011]).unwrap_err();
    assert!(e.to_string().contains("word 1"), "{e}");
}

/// A seeded draw of random instructions across all families against llvm-mc: where llvm-mc
/// decodes, at least 99.5% of the texts agree, disagreements of the classes in
/// scripts/isa/known-differences.toml left out.
fn differential_draw(seed: u64, count: usize, wave: Wave) {
    let known = KnownDifferences::load(&known_differences_path()).expect("known differences");
    let t = run(seed, count, wave, &known).expect("llvm-mc runs");
    println!(
        "seed {seed}, {count} drawn, wave{}: llvm-mc decodes {}, agree {}, known-class {}, unexplained {} ({:.3}%)",
        if wave == Wave::W64 { 64 } else { 32 },
        t.decoded(),
        t.agree,
        t.known_total(),
        t.unexplained.len(),
        100.0 * t.agreement()
    );
    for (fam, w, o) in t.unexplained.iter().take(10) {
        println!("  {fam} {w:08x?} {o:?}");
    }
    assert!(t.decoded() > count / 3, "too few instructions decoded");
    assert!(
        t.agreement() >= 0.995,
        "agreement {:.3}% below 99.5%",
        100.0 * t.agreement()
    );
    // Counting the known classes too, agreement stays above 99.5%.
    let raw = t.agree as f64 / t.decoded() as f64;
    assert!(
        raw >= 0.995,
        "raw agreement {:.3}% below 99.5%",
        100.0 * raw
    );
}

#[test]
fn differential_small_draw_against_llvm_mc() {
    if llvm_mc_or_skip() {
        differential_draw(7, 3000, Wave::W32);
    }
}

#[test]
fn differential_small_draw_against_llvm_mc_wave64() {
    if llvm_mc_or_skip() {
        differential_draw(11, 2000, Wave::W64);
    }
}

#[test]
fn known_differences_file_parses_and_classifies() {
    let known = KnownDifferences::load(&known_differences_path()).expect("known differences");
    assert!(!known.classes.is_empty());
    for c in &known.classes {
        assert!(!c.reason.is_empty() && !c.evidence.is_empty(), "{}", c.id);
    }
    let o = Outcome::Length {
        llvm_longer: true,
        ours: 1,
        llvm_text: "v_readfirstlane_b32 -1.0/*Invalid immediate*/, -2.0/*Invalid immediate*/"
            .into(),
    };
    assert_eq!(
        known.classify("VOP1", &o).map(|c| c.id.as_str()),
        Some("literal-code-in-register-slot")
    );
    // The same text as a text disagreement is in no class.
    let o = Outcome::Text {
        llvm: "s_movrels_b32 s16, 0.5/*Invalid immediate*/".into(),
        ours: "s_movrels_b32 s16, 0.5".into(),
    };
    assert!(known.classify("SOP1", &o).is_none());
    let o = Outcome::Text {
        llvm: "v_add_f32_e32 v1, v2, v3".into(),
        ours: "v_add_f32_e32 v1, v2, v4".into(),
    };
    assert!(known.classify("VOP2", &o).is_none());
}

/// The cases the CLI tests (runner/tests/cli_decode.rs) rely on, checked through the library.
#[test]
fn cli_cases_through_the_library() {
    let text = |words: &[u32], wave| -> Vec<String> {
        decode_stream(words)
            .expect("decodes")
            .iter()
            .map(|d| match d {
                Decoded::Inst(i) => i.to_llvm_text(wave),
                Decoded::Unsupported(u) => u.to_string(),
            })
            .collect()
    };
    assert_eq!(
        text(&[0x7e14_0304, 0xbf81_0000], Wave::W32),
        ["v_mov_b32_e32 v10, v4", "s_endpgm"]
    );
    assert_eq!(
        text(&[0x7c04_0300], Wave::W32),
        ["v_cmp_eq_f32_e32 vcc_lo, v0, v1"]
    );
    assert_eq!(
        text(&[0x7c04_0300], Wave::W64),
        ["v_cmp_eq_f32_e32 vcc, v0, v1"]
    );
    let u = text(&[0x7e00_fe00, 0xbf81_0000], Wave::W32);
    assert!(u[0].starts_with("unsupported VOP1 opcode 127: "), "{u:?}");
    assert_eq!(u[1], "s_endpgm");
    let e = decode_stream(&[0x7e14_0304, 0xd508_0011]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "truncated instruction at word 1: VOP3 needs 2 words, 1 left"
    );
    let words = rdnaprobe_isa::assemble("v_mov_b32 v10, v4; v_add_f32 v1, -v2, 0x40490fdb")
        .expect("assembles");
    assert_eq!(words[0], 0x7e14_0304);
    assert_eq!(
        text(&words, Wave::W32),
        ["v_mov_b32_e32 v10, v4", "v_add_f32_e64 v1, -v2, 0x40490fdb"]
    );
    let err = rdnaprobe_isa::assemble("v_mov_b32 v10, q4").unwrap_err();
    assert!(err.to_string().contains("column"), "{err}");
}

/// Ray intersection (gfx1030 MIMG 230/231) prints its fixed shape: llvm-mc's texts.
#[test]
fn bvh_intersect_ray_prints_as_llvm_mc() {
    let cases: [(&[u32], &str); 3] = [
        (
            &[0xf198_9f01, 0x4004_0100],
            "image_bvh_intersect_ray v[1:4], v[0:7], s[16:19] a16",
        ),
        (
            &[0xf198_9f01, 0x0004_0100],
            "image_bvh_intersect_ray v[1:4], v[0:10], s[16:19]",
        ),
        (
            &[0xf19c_9f05, 0x4004_0100, 0x0403_0201, 0x0807_0605],
            "image_bvh64_intersect_ray v[1:4], [v0, v1, v2, v3, v4, v5, v6, v7, v8], s[16:19] a16",
        ),
    ];
    for (words, text) in cases {
        let items = decode_stream(words).expect("decodes");
        assert_eq!(items.len(), 1, "{words:x?}");
        let Decoded::Inst(i) = &items[0] else {
            panic!("{words:x?}: {:?}", items[0])
        };
        assert_eq!(i.to_llvm_text(Wave::W32), text);
        assert_eq!(encode(i), words);
    }
}

/// The committed known-differences file of the printer (scripts/isa/known-differences.toml).
fn known_differences_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts/isa/known-differences.toml")
}
