//! The wave contract's SPIR-V modules (`spirv::emit_wave`) pass
//! `spirv-val --target-env vulkan1.1`: cross-lane and control-flow bodies (calls included)
//! lowered for wave32 and wave64, and
//! random kernels extended with ballots and cross-lane reads of their results.
//! spirv-val comes from spirv-tools; under `CI=true` a missing spirv-val fails the test.

mod common;

use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
use rdnaprobe_recompiler::lower_wave_words;
use rdnaprobe_recompiler::spirv::arbitrary::{random_kernel, with_cross_lane, GenOptions};
use rdnaprobe_recompiler::spirv::{emit, emit_wave, emit_wave_mem, SpirvError, SpirvOptions};

use common::image::{s_in, tsharp};
use common::spirv_val::spirv_val;
use rdnaprobe_recompiler::wave::SGPR_INPUTS;

const BODIES: [&str; 13] = [
    "v_mov_b32 v10, v4\nv_add_nc_u32 v10, 1, v10\nv_cmp_gt_u32 vcc_lo, 5, v10\ns_cbranch_vccnz -3",
    "v_cmpx_lt_u32 100, v4\ns_cbranch_execz 1\nv_mov_b32 v11, 7\nv_readfirstlane_b32 s0, v4",
    "v_mov_b32 v10, 1\ns_endpgm\nv_mov_b32_dpp v10, v4 row_shr:1",
    "v_cmp_lt_u32 vcc_lo, 5, v4\nv_cndmask_b32 v10, 1, 2, vcc_lo",
    "v_cmpx_gt_u32 v4, 3\nv_mov_b32 v10, 9",
    "v_readfirstlane_b32 s0, v4\nv_readlane_b32 s1, v4, s2",
    "v_writelane_b32 v10, s0, 3",
    "v_permlane16_b32 v10, v4, s0, s1 op_sel:[0,1]",
    "v_permlanex16_b32 v10, v4, s0, s1",
    "v_add_f32 v10, v4, v5\nv_cmp_class_f32 s6, v10, 3",
    "v_add_co_u32 v10, s8, v4, v5",
    "s_call_b64 s[4:5], 2\nv_mov_b32 v11, 9\ns_endpgm\nv_mov_b32 v10, v4\ns_setpc_b64 s[4:5]",
    "v_mov_b32 v10, 1\ns_setkill 0\nv_mov_b32 v10, 2",
];

#[test]
fn wave_bodies_emit_valid_modules() {
    for text in BODIES {
        for wave in [Wave::W32, Wave::W64] {
            let text = if wave == Wave::W64 {
                text.replace("vcc_lo", "vcc")
                    .replace("s8,", "s[8:9],")
                    .replace("s6,", "s[6:7],")
            } else {
                text.to_string()
            };
            let words = assemble(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let k = lower_wave_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030)
                .unwrap_or_else(|e| panic!("{text} ({wave:?}): {e}"));
            assert!(k.uniform.is_some(), "a wave kernel has uniform outputs");
            for lds in [0, 128] {
                let spv = emit_wave(&k, wave, lds, &SpirvOptions::DESKTOP).expect("emits");
                spirv_val(&spv, &format!("`{text}` ({wave:?})")).unwrap();
            }
        }
    }
}

#[test]
fn random_kernels_with_cross_lane_ops_emit_valid_modules() {
    let opts = GenOptions::default();
    let mut checked = 0;
    for seed in 0..24 {
        let k = with_cross_lane(random_kernel(seed, &opts), seed);
        let wave = if seed % 2 == 0 { Wave::W32 } else { Wave::W64 };
        let spv = emit_wave(&k, wave, 0, &SpirvOptions::DESKTOP).expect("emits");
        if spirv_val(&spv, &format!("seed {seed}")).unwrap() {
            checked += 1;
        }
    }
    eprintln!("{checked} wave modules validated");
}

#[test]
fn cross_lane_ops_are_refused_outside_a_wave_module() {
    let k = with_cross_lane(random_kernel(1, &GenOptions::default()), 1);
    let e = emit(&k, Wave::W32, &SpirvOptions::DESKTOP).unwrap_err();
    assert!(
        matches!(&e, SpirvError::Unsupported { reason } if reason.contains("emit_wave")),
        "{e}"
    );
}

#[test]
fn lds_bodies_emit_valid_modules() {
    // words from llvm-mc -mcpu=gfx1030 (datasets/wave/lds.csv)
    let bodies: [&[u32]; 3] = [
        &[
            0x340a_0a82,
            0xd834_0000,
            0x0000_0405,
            0x3a0c_0a84,
            0xd8d8_0000,
            0x0a00_0006,
        ],
        &[0x7e10_0281, 0x7e0e_0280, 0xd880_0000, 0x0a00_0807],
        &[
            0x7e0e_0280,
            0xd934_0000,
            0x0000_0407,
            0xd8dc_0301,
            0x0a00_0007,
        ],
    ];
    for words in bodies {
        for wave in [Wave::W32, Wave::W64] {
            let k = lower_wave_words(words, FloatMode::DEFAULT, wave, Target::Gfx1030).unwrap();
            for lds in [0, 128] {
                let spv = emit_wave(&k, wave, lds, &SpirvOptions::DESKTOP).expect("emits");
                spirv_val(&spv, &format!("{words:x?} ({wave:?})")).unwrap();
            }
        }
    }
}

#[test]
fn interpolation_and_run_time_movrel_bodies_emit_valid_modules() {
    // s_mov_b32 m0, s0 then (llvm-mc -mcpu=gfx1030): v_interp_p1_f32_e32 v10, v4, attr1.z;
    // v_interp_p2_f32_e32 v10, v4, attr1.z; v_interp_mov_f32_e32 v11, p10, attr1.z;
    // v_interp_p1ll_f16 v12, v4, attr0.x high; v_interp_p2_f16 v13, v4, attr0.x, v10 high
    let m0 = assemble("s_mov_b32 m0, s0").unwrap();
    let interp = [
        0xc828_0604,
        0xc829_0604,
        0xc82e_0600,
        0xd742_000c,
        0x0002_0900,
        0xd75a_000d,
        0x042a_0900,
    ];
    let movrel = assemble(
        "s_mov_b32 s1, 3\ns_sub_u32 s1, s1, 1\ns_mov_b32 m0, s1\nv_movrelsd_b32 v10, v4\n\
         v_swaprel_b32 v11, v5\ns_cmp_lg_u32 s1, 0\ns_cbranch_scc1 -6",
    )
    .unwrap();
    let bodies = [
        [m0.clone(), interp.to_vec()].concat(),
        [m0, movrel].concat(),
    ];
    for words in &bodies {
        for wave in [Wave::W32, Wave::W64] {
            let k = lower_wave_words(words, FloatMode::DEFAULT, wave, Target::Gfx1030).unwrap();
            for lds in [0, 128] {
                let spv = emit_wave(&k, wave, lds, &SpirvOptions::DESKTOP).expect("emits");
                spirv_val(&spv, &format!("{words:x?} ({wave:?})")).unwrap();
            }
        }
    }
}

#[test]
fn memory_bodies_emit_valid_modules() {
    // the bodies of datasets/wave/memory.csv (words from llvm-mc -mcpu=gfx1030)
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../datasets/wave/memory.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut bodies: Vec<Vec<u32>> = vec![];
    for line in text.lines().skip(1) {
        // "instruction",encoding,...: the instruction cell is quoted
        let rest = line.split('"').nth(2).expect("quoted instruction");
        let enc = rest.split(',').nth(1).expect("encoding cell");
        let words: Vec<u32> = enc
            .split_whitespace()
            .map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap())
            .collect();
        if !bodies.contains(&words) {
            bodies.push(words);
        }
    }
    assert!(bodies.len() >= 9, "{} bodies", bodies.len());
    for words in &bodies {
        for wave in [Wave::W32, Wave::W64] {
            let k = lower_wave_mem_words(words, wave, 64);
            for (lds, mem) in [(0, 16), (128, 16), (0, 0)] {
                let spv = emit_wave_mem(&k, wave, lds, mem, &SpirvOptions::DESKTOP).expect("emits");
                spirv_val(&spv, &format!("{words:x?} ({wave:?})")).unwrap();
            }
        }
    }
}

#[test]
fn image_bodies_emit_valid_modules() {
    // every wave of the image fixtures, lowered for its s_in as the runner does
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut waves = common::wavedata::load(&std::path::Path::new(root).join("datasets/wave"));
    waves.extend(common::wavedata::load(
        &std::path::Path::new(root).join("datasets/notes"),
    ));
    let mut checked = 0;
    for w in waves
        .iter()
        .filter(|w| rdnaprobe_recompiler::specialises_on_sgprs(&w.rows[0].encoding))
    {
        let k = w.lower().unwrap_or_else(|e| panic!("{}: {e}", w.id));
        let wave = w.rows[0].wave_size().unwrap();
        let (lds, mem) = (w.inputs.lds.len() as u32, w.inputs.mem.len() as u32);
        let spv = emit_wave_mem(&k, wave, lds, mem, &SpirvOptions::DESKTOP).expect("emits");
        spirv_val(&spv, &w.id).unwrap();
        checked += 1;
    }
    assert!(checked >= 60, "{checked} image waves");
}

fn lower_wave_mem_words(
    words: &[u32],
    wave: Wave,
    mem_bytes: u32,
) -> rdnaprobe_recompiler::ir::Kernel {
    rdnaprobe_recompiler::lower_wave_words_mem(
        words,
        FloatMode::DEFAULT,
        wave,
        Target::Gfx1030,
        mem_bytes,
    )
    .unwrap_or_else(|e| panic!("{words:x?} ({wave:?}): {e}"))
}

/// Lowers each image body for the SGPR inputs `sgprs` (wave32 and wave64, a region of
/// `mem_bytes`) and validates its module; `what` names the case in a failure.
fn image_bodies_validate(bodies: &[&str], sgprs: &[u32; SGPR_INPUTS], mem_bytes: u32, what: &str) {
    for text in bodies {
        let words = assemble(text).unwrap();
        for wave in [Wave::W32, Wave::W64] {
            let k = rdnaprobe_recompiler::lower_wave_words_sgprs(
                &words,
                FloatMode::DEFAULT,
                wave,
                Target::Gfx1030,
                mem_bytes,
                Some(sgprs),
            )
            .unwrap_or_else(|e| panic!("{text}: {e}"));
            let spv =
                emit_wave_mem(&k, wave, 0, mem_bytes / 4, &SpirvOptions::DESKTOP).expect("emits");
            spirv_val(&spv, &format!("`{text}` {what} ({wave:?})")).unwrap();
        }
    }
}

#[test]
fn trilinear_sample_bodies_emit_valid_modules() {
    // MIP_FILTER linear (the software path's IR integer and f64 operations): a 32_FLOAT 8 x 8
    // T# with 4 levels in s[8:15], bilinear or point filters with linear mips in s[0:3]
    let t = tsharp(22, 9, 8, 8, 0, 3, 0xfac);
    let bodies = [
        "image_sample_l v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_sample v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_sample_c_b_cl_o v10, v[4:9], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_sample_cd_g16 v10, v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
    ];
    for filter in [0u32, 1] {
        let s = [
            1 | 1 << 3 | 3 << 12,
            (15 * 256) << 12,
            filter << 20 | filter << 22 | 2 << 26,
            0,
        ];
        image_bodies_validate(&bodies, &s_in(t, s), 4096, &format!("filter {filter}"));
    }
}

#[test]
fn sample_3d_and_get_lod_bodies_emit_valid_modules() {
    // the software path's 3D sampling (8 taps a level, 2^32 weights in f64 with MIP_FILTER
    // linear) and image_get_lod: a 32_FLOAT 4 x 4 x 4 3D T# with 3 levels and an 8 x 8 2D one
    // with 4 levels in s[8:15], CLAMP_Z border, point or bilinear filters with MIP_FILTER
    // none, point or linear in s[0:3]
    let cases = [
        (
            tsharp(22, 10, 4, 4, 3, 2, 0xfac),
            [
                "image_sample_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_3D",
                "image_sample_l v10, v[4:7], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_3D",
                "image_sample_c_b_o v10, v[4:9], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_3D",
                "image_get_lod v[10:11], v[4:6], s[8:15], s[0:3] dmask:0x3 dim:SQ_RSRC_IMG_3D",
            ],
        ),
        (
            tsharp(22, 9, 8, 8, 0, 3, 0xfac),
            [
                "image_get_lod v[10:13], v[4:5], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D",
                "image_get_lod v10, v[4:5], s[8:15], s[0:3] dmask:0x2 dim:SQ_RSRC_IMG_2D",
                "image_get_lod v[10:11], v[4:5], s[8:15], s[0:3] dmask:0x3 dim:SQ_RSRC_IMG_2D \
                 unorm",
                "image_sample v10, v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            ],
        ),
    ];
    for (t, bodies) in cases {
        for (filter, mip) in [(0u32, 2u32), (1, 2), (1, 1), (1, 0)] {
            let s = [
                1 | 1 << 3 | 6 << 6 | 3 << 12,
                (15 * 256) << 12,
                filter << 20 | filter << 22 | mip << 26,
                0,
            ];
            let what = format!("filter {filter} mip {mip}");
            image_bodies_validate(&bodies, &s_in(t, s), 8192, &what);
        }
    }
}
