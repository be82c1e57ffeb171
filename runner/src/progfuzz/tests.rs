//! Seeded random wave programs: `cpu` == `vulkan:lavapipe` on every output (the memory region
//! included), and the SPIR-V of each program passes spirv-val. `RDNAPROBE_PROGFUZZ=N` runs N programs (default 16).
//! Without lavapipe it skips (fails under `CI=true`).

use std::io::Write;
use std::process::{Command, Stdio};

use rdnaprobe_dataset::Wave;
use rdnaprobe_isa::Target;
use rdnaprobe_recompiler::lower_wave_words;
use rdnaprobe_recompiler::spirv::{emit_wave_mem, SpirvOptions};

use super::case::{LDS_DWORDS, MEM_DWORDS};
use super::gen::{Gen, Item, Pools};
use super::{fuzz, Args, Case};
use crate::backend::vulkan::VulkanBackend;
use crate::backend::Backend;

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// spirv-val (Vulkan 1.1) on `words`; `false` when the tool is absent outside CI (the runner's
/// tests share it).
pub(crate) fn spirv_val(words: &[u32]) -> bool {
    let child = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if !ci() && e.kind() == std::io::ErrorKind::NotFound => return false,
        Err(e) => panic!("spirv-val: {e}"),
    };
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    true
}

fn validate(case: &Case) {
    let words = case.program.words().unwrap();
    let wave = if case.program.wave == 64 {
        Wave::W64
    } else {
        Wave::W32
    };
    let mode = case.mode.resolve();
    let kernel = match lower_wave_words(&words, mode, wave, Target::Gfx1030) {
        Ok(k) => k,
        Err(e) if e.to_string().contains("not measured") => return,
        Err(e) => panic!("{}: {e}", case.program.text()),
    };
    let (lds, mem) = (LDS_DWORDS as u32, MEM_DWORDS as u32);
    let module = emit_wave_mem(&kernel, wave, lds, mem, &SpirvOptions::DESKTOP).unwrap();
    spirv_val(&module);
}

fn count(items: &[Item], f: &dyn Fn(&Item) -> bool) -> usize {
    items
        .iter()
        .map(|i| {
            usize::from(f(i))
                + match i {
                    Item::Inst(_) => 0,
                    Item::Skip { body, .. } | Item::Loop { body, .. } | Item::Exec { body, .. } => {
                        count(body, f)
                    }
                }
        })
        .sum()
}

#[test]
fn programs_cover_every_kind_of_item() {
    let pools = Pools::from_table();
    assert!(
        pools.valu.len() > 200,
        "{} VALU templates",
        pools.valu.len()
    );
    assert!(pools.salu.len() > 40, "{} SALU templates", pools.salu.len());
    assert!(!pools.ds.is_empty());
    let mut rng = rdnaprobe_recompiler::spirv::arbitrary::Rng::new(7);
    let mut items = Vec::new();
    for wave in [32, 64] {
        for _ in 0..80 {
            let p = Gen {
                pools: &pools,
                wave,
            }
            .program(&mut rng, 8);
            p.words().unwrap_or_else(|e| panic!("{}: {e}", p.text()));
            items.extend(p.items);
        }
    }
    for (what, f) in [
        (
            "skip",
            &(|i: &Item| matches!(i, Item::Skip { .. })) as &dyn Fn(&Item) -> bool,
        ),
        ("loop", &|i: &Item| matches!(i, Item::Loop { .. })),
        ("exec", &|i: &Item| matches!(i, Item::Exec { .. })),
        (
            "ds",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("ds_")),
        ),
        (
            "dpp",
            &|i: &Item| matches!(i, Item::Inst(t) if t.contains("_dpp")),
        ),
        (
            "salu",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("s_")),
        ),
        (
            "relative move",
            &|i: &Item| matches!(i, Item::Inst(t) if t.contains("rel")),
        ),
        (
            "interpolation",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("v_interp")),
        ),
        (
            "global store",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("global_store")),
        ),
        (
            "global load",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("global_load")),
        ),
        (
            "global atomic",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("global_atomic")),
        ),
        (
            "image load or store",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_load") || t.starts_with("image_store")),
        ),
        (
            "image sample",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_sample_lz")),
        ),
        (
            "image sample with user derivatives",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_sample_d") || t.starts_with("image_sample_cd")),
        ),
        (
            "image sample with a bias",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_sample_b")),
        ),
        (
            "image sample with a compare",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_sample_c_lz")),
        ),
        (
            "A16 image sample",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_sample") && t.contains(" a16")),
        ),
        (
            "D16 image sample",
            &|i: &Item| matches!(i, Item::Inst(t) if t.starts_with("image_sample") && t.ends_with(" d16")),
        ),
    ] {
        assert!(count(&items, f) > 0, "no {what} item in 160 programs");
    }
    // the T#s' formats: FORMAT in word1 bits 28:20, from the `s_or_b32 s41` that builds it
    let formats: std::collections::BTreeSet<u32> = items
        .iter()
        .filter_map(|i| match i {
            Item::Inst(t) => t.strip_prefix("s_or_b32 s41, s49, 0x"),
            _ => None,
        })
        .map(|w| u32::from_str_radix(w, 16).expect("hex word1") >> 20 & 0x1ff)
        .collect();
    assert!(
        formats.len() >= 8,
        "T# formats drawn in 80 programs: {formats:?}"
    );
}

#[test]
fn random_programs_agree_on_cpu_and_lavapipe() {
    let mut gpu = match VulkanBackend::open(Some("lavapipe")) {
        Ok(b) => b,
        Err(e) if ci() => panic!("{e:#}"),
        Err(e) => return eprintln!("skipping: {e:#}"),
    };
    let programs = std::env::var("RDNAPROBE_PROGFUZZ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    let dir = std::env::temp_dir().join(format!("progfuzz-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = Args {
        seed: 1000,
        programs,
        size: 8,
        waves: 2,
        backend: "vulkan:lavapipe".into(),
        out: dir.clone(),
        shrink_budget: 200,
        replay: None,
    };
    let s = fuzz(&args, &mut gpu, validate, false).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(s.programs, programs);
    assert_eq!(s.waves, 2 * programs);
    assert!(
        s.differences.is_empty(),
        "{:#?}\n{:#?}",
        s.differences,
        s.repros
    );
    // Every wave runs, but for modes whose rules were not measured (a wave that does not
    // run for another reason is a generator bug).
    assert!(
        s.not_run_why.iter().all(|w| w.contains("not measured")),
        "{:#?}",
        s.not_run_why
    );
    assert!(s.dwords > 2 * programs * 32 * 16);
}

/// The first difference progfuzz found: lavapipe folded `a * 0.0` to `+0.0` when the zero is a
/// constant (v10..v25 start at 0) although the product of a negative number and +0 is -0. The
/// SPIR-V now gives a zero product the XOR of the operand signs on the bits.
#[test]
fn zero_products_keep_their_sign_on_lavapipe() {
    let mut gpu = match VulkanBackend::open(Some("lavapipe")) {
        Ok(b) => b,
        Err(e) if ci() => panic!("{e:#}"),
        Err(e) => return eprintln!("skipping: {e:#}"),
    };
    let lines = [
        "v_mul_f32_e32 v10, -1.0, v11",
        "v_mul_f32_e32 v12, s0, v11",
        "v_mul_f16_e32 v13, s1, v11",
        "v_mul_f32_e32 v14, s0, v4",
        "v_pk_mul_f16 v15, s2, v11",
    ];
    let mut s_in = [0; 16];
    s_in[0] = 0xbf80_0000;
    s_in[1] = 0xbc00;
    s_in[2] = 0x3c00_bc00;
    let case = Case {
        program: super::gen::Program {
            wave: 32,
            items: lines.iter().map(|l| Item::Inst(l.to_string())).collect(),
        },
        exec: u32::MAX as u64,
        s_in,
        lds: vec![0; 4],
        mem: vec![],
        lanes: vec![[0; 6]; 32],
        mode: Default::default(),
    };
    let rows = case.rows("z").unwrap();
    let layout = super::case::layout();
    let cpu = crate::backend::cpu::CpuBackend::new().run_waves(&rows, &layout);
    let vk = gpu.run_waves(&rows, &layout);
    for r in [&cpu.rows[0], &vk.rows[0]] {
        let o = r.outputs;
        assert_eq!(o[0], Some(0x8000_0000), "{:?}", r.status);
        assert_eq!(o[2], Some(0x8000_0000));
        assert_eq!(o[3], Some(0x8000));
        assert_eq!(o[4], Some(0x8000_0000));
        assert_eq!(o[5], Some(0x0000_8000));
    }
}

/// The DS and interpolation lines, encoded by hand, say what their words decode to.
#[test]
fn ds_lines_decode_to_their_text() {
    use rdnaprobe_isa::{decode_stream, Decoded};
    let pools = Pools::from_table();
    let mut rng = rdnaprobe_recompiler::spirv::arbitrary::Rng::new(11);
    let mut seen = 0;
    for _ in 0..60 {
        let p = Gen {
            pools: &pools,
            wave: 32,
        }
        .program(&mut rng, 8);
        for line in p.text().lines() {
            let Some((text, _)) = line.split_once(" ; words:") else {
                continue;
            };
            let words = super::gen::encode_line(line).unwrap();
            let d = decode_stream(&words).unwrap();
            let Some(Decoded::Inst(i)) = d.first() else {
                panic!("{line}: {d:?}");
            };
            assert_eq!(i.to_llvm_text_for(Target::Gfx1030, Wave::W32), text);
            seen += 1;
        }
    }
    assert!(seen > 5, "{seen} DS and interpolation lines");
}

/// progfuzz seed 3 on lavapipe: `med3_i32(0, 0, v16)` folds to 0 in the driver, and then
/// `select(exec, 0xbf800000, 0)` became `-b2f(exec)`, so an inactive lane read 0x80000000
/// instead of keeping its 0. A select with a constant arm is now emitted on the bits.
#[test]
fn an_inactive_lane_keeps_its_zero_under_a_minus_one_move_on_lavapipe() {
    let mut gpu = match VulkanBackend::open(Some("lavapipe")) {
        Ok(b) => b,
        Err(e) if ci() => panic!("{e:#}"),
        Err(e) => return eprintln!("skipping: {e:#}"),
    };
    let lines = [
        "v_med3_u16 v16, s6, v18, v17",
        "v_med3_i32 v25, v14, v13, v16",
        "v_mov_b32_e32 v25, 0xbf800000",
    ];
    let case = Case {
        program: super::gen::Program {
            wave: 64,
            items: lines.iter().map(|l| Item::Inst(l.to_string())).collect(),
        },
        exec: 0x13e8_fd30_365d_2935,
        s_in: [0; 16],
        lds: vec![0; 4],
        mem: vec![],
        lanes: vec![[0; 6]; 64],
        mode: Default::default(),
    };
    let rows = case.rows("m").unwrap();
    let layout = super::case::layout();
    let cpu = crate::backend::cpu::CpuBackend::new().run_waves(&rows, &layout);
    let vk = gpu.run_waves(&rows, &layout);
    for r in [&cpu, &vk] {
        for (lane, row) in r.rows.iter().enumerate() {
            let active = case.exec >> lane & 1 == 1;
            let want = if active { 0xbf80_0000 } else { 0 };
            assert_eq!(row.outputs[15], Some(want), "lane {lane}: {:?}", row.status);
        }
    }
}
