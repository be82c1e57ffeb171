//! Real comgr assembly of the wave-contract kernel for every gfx103x target, both wave sizes,
//! with and without LDS: the kernel descriptor's fields, and the prologue/epilogue instructions
//! in the disassembly (the V# words, the LDS copies, SCC/EXEC capture around the body).

mod common;

use common::objdump::{disassemble, objdump_or_skip, Inst};

use rdnaprobe_oracle::elf::CodeObject;
use rdnaprobe_oracle::template::KERNEL_NAME;
use rdnaprobe_oracle::wave::template::{
    lds_alloc_bytes, RAW_BUFFER_WORD3, SCRATCH_BYTES, UNIFORM_DONE, WAVE_KERNARG_SIZE,
};
use rdnaprobe_oracle::wave::WaveShape;
use rdnaprobe_oracle::{assemble_wave_probe, FloatMode, Mode, Target, Wave};

/// v_mov_b32 v10, v4 ; s_add_u32 s0, s0, s1 ; v_mov_b32 v12, 0xabcdabcd (literal).
const BODY: [u32; 4] = [0x7e14_0304, 0x8000_0100, 0x7e18_02ff, 0xabcd_abcd];

fn mode(wave: Wave, odd: bool) -> Mode {
    let float = if odd {
        FloatMode {
            ieee: false,
            denorm32: 3,
            denorm16: 1,
            round32: 2,
            fp16_overflow: true,
            ..FloatMode::DEFAULT
        }
    } else {
        FloatMode::DEFAULT
    };
    Mode::new(float, wave)
}

#[test]
fn wave_descriptor_fields_on_all_targets() {
    let Some(comgr) = common::comgr_or_skip("wave_descriptor_fields_on_all_targets") else {
        return;
    };
    let mut checked = 0;
    for target in Target::GFX103X {
        for wave in [Wave::W32, Wave::W64] {
            for (i, lds_bytes) in [0u32, 100, 65536].into_iter().enumerate() {
                let mode = mode(wave, i == 1);
                let shape = WaveShape { wave, lds_bytes };
                let what = format!("{target} wave{} lds {lds_bytes}", wave.lanes());
                let k = assemble_wave_probe(&comgr, target, &mode, &shape, &BODY)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let elf = CodeObject::parse(&k.code_object).unwrap();
                assert_eq!(elf.mach(), target.elf_mach(), "{what}");
                let kd = elf.kernel_descriptor(KERNEL_NAME).unwrap();
                assert_eq!(
                    kd.group_segment_fixed_size,
                    lds_alloc_bytes(lds_bytes),
                    "{what}"
                );
                assert_eq!(kd.granulated_lds_size(), 0, "{what}: CP fills LDS_SIZE");
                assert_eq!(kd.wave32(), wave == Wave::W32, "{what}");
                assert_eq!(kd.kernarg_size as usize, WAVE_KERNARG_SIZE, "{what}");
                assert_eq!(kd.private_segment_fixed_size, 0, "{what}");
                // Only the kernarg pointer (bit 3) as user SGPRs s[0:1]; workgroup id x in s2.
                assert_eq!(kd.user_sgpr_enables(), 1 << 3, "{what}");
                assert_eq!(kd.user_sgpr_count(), 2, "{what}");
                assert_eq!(kd.workgroup_id_enabled(), [true, false, false], "{what}");
                assert_eq!(kd.vgpr_workitem_id(), 0, "{what}");
                assert!(!kd.private_segment(), "{what}");
                // 256 VGPRs: blocks of 8 in wave32, of 4 in wave64; no SGPR blocks on gfx10.
                let vgpr_blocks: u32 = if wave == Wave::W32 { 256 / 8 } else { 256 / 4 };
                assert_eq!(u32::from(kd.vgpr_granules()), vgpr_blocks - 1, "{what}");
                assert_eq!(kd.sgpr_granules(), 0, "{what}");
                assert_eq!(kd.float_mode(), mode.float_mode_byte(), "{what}");
                assert_eq!(kd.ieee_mode(), mode.float.ieee, "{what}");
                assert_eq!(kd.dx10_clamp(), mode.float.dx10_clamp, "{what}");
                assert_eq!(kd.fp16_overflow(), mode.float.fp16_overflow, "{what}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7 * 2 * 3);
}

fn position(insts: &[Inst], mnemonic: &str, operands: &str) -> usize {
    insts
        .iter()
        .position(|(m, o, _)| m == mnemonic && o == operands)
        .unwrap_or_else(|| panic!("no `{mnemonic} {operands}` in {insts:#?}"))
}

#[test]
fn disassembly_shows_the_wave_prologue_and_epilogue() {
    let Some(comgr) = common::comgr_or_skip("disassembly_shows_the_wave_prologue_and_epilogue")
    else {
        return;
    };
    let Some(objdump) = objdump_or_skip("disassembly_shows_the_wave_prologue_and_epilogue") else {
        return;
    };
    for wave in [Wave::W32, Wave::W64] {
        let shape = WaveShape {
            wave,
            lds_bytes: 1024,
        };
        let k = assemble_wave_probe(&comgr, Target::Gfx1030, &mode(wave, false), &shape, &BODY)
            .unwrap();
        let insts = disassemble(
            objdump,
            "gfx1030",
            &k.code_object,
            &format!("w{}", wave.lanes()),
        );
        // The body, verbatim, as whole instructions.
        let mut at = vec![0usize];
        for (_, _, w) in &insts {
            at.push(at.last().unwrap() + w.len());
        }
        let words: Vec<u32> = insts.iter().flat_map(|(_, _, w)| w.clone()).collect();
        let start = words.windows(BODY.len()).position(|w| w == BODY).unwrap();
        let body = at
            .iter()
            .position(|a| *a == start)
            .expect("body starts an instruction");
        let body_end = at
            .iter()
            .position(|a| *a == start + BODY.len())
            .expect("body ends on an instruction boundary");
        assert_eq!(insts[body].0, "v_mov_b32_e32");
        // SCC = 0 right before the body; after it the template waits for the body's memory
        // operations (waits change no state), then captures SCC, then EXEC.
        assert_eq!(insts[body - 1].0, "s_cmp_eq_u32", "{:?}", insts[body - 1]);
        assert_eq!(insts[body_end].0, "s_waitcnt", "{:?}", insts[body_end]);
        assert_eq!(
            insts[body_end + 1].0,
            "s_waitcnt_vscnt",
            "{:?}",
            insts[body_end + 1]
        );
        let body_end = body_end + 2;
        assert_eq!(
            (insts[body_end].0.as_str(), insts[body_end].1.as_str()),
            ("s_cselect_b32", "s102, 1, 0")
        );
        let exec_save = if wave == Wave::W32 {
            ("s_mov_b32", "s104, exec_lo")
        } else {
            ("s_mov_b64", "s[104:105], exec")
        };
        assert_eq!(
            (
                insts[body_end + 1].0.as_str(),
                insts[body_end + 1].1.as_str()
            ),
            exec_save
        );
        // The V#: word1 = base[47:32], word3 = the raw-buffer word (as a literal).
        let w3 = position(&insts, "s_mov_b32", &format!("s23, 0x{RAW_BUFFER_WORD3:x}"));
        assert_eq!(insts[w3].2[1], RAW_BUFFER_WORD3);
        position(&insts, "s_and_b32", "s21, s17, 0xffff");
        position(&insts, "s_mov_b32", "s20, s16");
        position(&insts, "s_load_dword", "s22, s[100:101], 0x30");
        position(&insts, "s_load_dwordx16", "s[0:15], s[100:101], 0x40");
        position(&insts, "s_mov_b32", "m0, 0");
        let exec_in = if wave == Wave::W32 {
            ("s_mov_b32", "exec_lo, s102")
        } else {
            ("s_mov_b64", "exec, s[102:103]")
        };
        let e = position(&insts, exec_in.0, exec_in.1);
        assert!(e < body);
        // LDS in before the body (with the barrier), out after it; inputs loaded per lane.
        let ds_write = position(&insts, "ds_write_b128", "v2, v[26:29]");
        let barrier = insts.iter().position(|(m, _, _)| m == "s_barrier").unwrap();
        let ds_read = position(&insts, "ds_read_b128", "v[26:29], v2");
        assert!(ds_write < barrier && barrier < body && body_end < ds_read);
        position(&insts, "global_load_dwordx4", "v[4:7], v1, s[4:5]");
        let writelanes = insts[body_end..]
            .iter()
            .filter(|(m, _, _)| m == "v_writelane_b32")
            .count();
        assert_eq!(writelanes, 21, "s0..s15, EXEC x2, VCC x2, SCC");
        let stores: Vec<&Inst> = insts[body_end..]
            .iter()
            .filter(|(m, _, _)| m.starts_with("global_store"))
            .collect();
        assert_eq!(
            stores.len(),
            4 + 1 + 1 + 1,
            "v10..v25, uniforms, LDS, done mark"
        );
        assert_eq!(
            stores.last().unwrap().1,
            format!("v252, v253, s[2:3] offset:{}", UNIFORM_DONE * 4)
        );
        assert_eq!(insts.last().unwrap().0, "s_endpgm");
    }
}

#[test]
fn a_scratch_body_gets_a_private_segment_on_all_targets() {
    let Some(comgr) = common::comgr_or_skip("a_scratch_body_gets_a_private_segment_on_all_targets")
    else {
        return;
    };
    // scratch_store_dword v6, v4, off ; scratch_load_dword v10, v6, off
    let body = [0xdc70_4000, 0x007d_0406, 0xdc30_4000, 0x0a7d_0006];
    for target in Target::GFX103X {
        for wave in [Wave::W32, Wave::W64] {
            let what = format!("{target} wave{}", wave.lanes());
            let shape = WaveShape { wave, lds_bytes: 0 };
            let k = assemble_wave_probe(&comgr, target, &mode(wave, false), &shape, &body)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let elf = CodeObject::parse(&k.code_object).unwrap();
            let kd = elf.kernel_descriptor(KERNEL_NAME).unwrap();
            assert_eq!(kd.private_segment_fixed_size, SCRATCH_BYTES, "{what}");
            assert!(
                kd.private_segment(),
                "{what}: the wave's scratch offset is enabled"
            );
            // kernarg pointer s[0:1] and flat scratch init s[2:3]
            assert_eq!(kd.user_sgpr_enables(), 1 << 3 | 1 << 5, "{what}");
            assert_eq!(kd.user_sgpr_count(), 4, "{what}");
            assert_eq!(kd.workgroup_id_enabled(), [true, false, false], "{what}");
        }
    }
}

/// Image bodies as the image fixtures write them (llvm-mc-19 -mcpu=gfx1030 encodings): the T#
/// relocation by the region address (`s_lshr_b64 s[40:41], s[16:17], 8; s_add_u32 s8, s8, s40;
/// s_addc_u32 s9, s9, s41`), then one image instruction with the T# in s[8:15] and, for the
/// samplers, the S# in s[0:3]: the registers the wave kernel sets from `s_in`.
const IMAGE_BODIES: [(&str, [u32; 2]); 6] = [
    // image_load v[10:13], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    ("image_load", [0xf000_0f08, 0x0002_0a04]),
    // image_store v[6:9], v[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
    ("image_store", [0xf020_0f08, 0x0002_0604]),
    // image_sample_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0xf dim:SQ_RSRC_IMG_2D
    ("image_sample_lz", [0xf09c_0f08, 0x0002_0a04]),
    // image_sample_c_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D
    ("image_sample_c_lz", [0xf0bc_0108, 0x0002_0a04]),
    // image_gather4_lz v[10:13], v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D
    ("image_gather4_lz", [0xf11c_0108, 0x0002_0a04]),
    // image_atomic_add v6, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D glc
    ("image_atomic_add", [0xf044_2108, 0x0002_0604]),
];
const RELOCATE: [u32; 3] = [0x90a8_8810, 0x8008_2808, 0x8209_2909];

#[test]
fn image_bodies_assemble_on_all_targets_with_their_resources_from_s_in() {
    let name = "image_bodies_assemble_on_all_targets_with_their_resources_from_s_in";
    let Some(comgr) = common::comgr_or_skip(name) else {
        return;
    };
    let objdump = objdump_or_skip(name);
    let mut checked = 0;
    for target in Target::GFX103X {
        for wave in [Wave::W32, Wave::W64] {
            for (mnemonic, inst) in IMAGE_BODIES {
                let body: Vec<u32> = RELOCATE.iter().chain(&inst).copied().collect();
                let shape = WaveShape { wave, lds_bytes: 0 };
                let what = format!("{mnemonic} {target} wave{}", wave.lanes());
                let k = assemble_wave_probe(&comgr, target, &mode(wave, false), &shape, &body)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let elf = CodeObject::parse(&k.code_object).unwrap();
                assert_eq!(elf.mach(), target.elf_mach(), "{what}");
                let kd = elf.kernel_descriptor(KERNEL_NAME).unwrap();
                assert_eq!(kd.kernarg_size as usize, WAVE_KERNARG_SIZE, "{what}");
                assert_eq!(kd.wave32(), wave == Wave::W32, "{what}");
                assert_eq!(kd.user_sgpr_enables(), 1 << 3, "{what}");
                let Some(objdump) = objdump else {
                    checked += 1;
                    continue;
                };
                let insts = disassemble(objdump, target.name(), &k.code_object, mnemonic);
                // s_in (the T# in s[8:15], the S# in s[0:3]) is loaded before the body, which
                // is there verbatim: the relocation, then the image instruction
                let s_in = position(&insts, "s_load_dwordx16", "s[0:15], s[100:101], 0x40");
                let words: Vec<u32> = insts.iter().flat_map(|(_, _, w)| w.clone()).collect();
                assert!(
                    words.windows(body.len()).any(|w| w == body),
                    "{what}: the body is not verbatim in the disassembly"
                );
                let image = insts
                    .iter()
                    .position(|(m, _, _)| m == mnemonic)
                    .unwrap_or_else(|| panic!("{what}: no {mnemonic} in {insts:#?}"));
                assert!(s_in < image, "{what}");
                assert!(
                    insts[image].1.contains("s[8:15]"),
                    "{what}: {:?}",
                    insts[image]
                );
                let samples = mnemonic.contains("sample") || mnemonic.contains("gather");
                assert_eq!(insts[image].1.contains("s[0:3]"), samples, "{what}");
                assert_eq!(insts[image - 3].0, "s_lshr_b64", "{what}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 7 * 2 * IMAGE_BODIES.len());
}
