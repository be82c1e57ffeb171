//! Real comgr assembly of the probe kernel for every gfx103x target: kernel-descriptor fields
//! against the requested modes, and the body's words in place in the disassembly.

mod common;

use common::objdump::{disassemble, objdump_or_skip};

use rdnaprobe_oracle::elf::CodeObject;
use rdnaprobe_oracle::template::{KERNARG_SIZE, KERNEL_NAME};
use rdnaprobe_oracle::{assemble_probe, FloatMode, Mode, Target, Wave};

/// v_mov_b32 v10, v4 ; v_add_f32 v11, v4, v5 ; v_mov_b32 v12, 0xabcdabcd (literal).
const BODY: [u32; 4] = [0x7e14_0304, 0x0616_0b04, 0x7e18_02ff, 0xabcd_abcd];

fn modes() -> Vec<Mode> {
    let d = FloatMode::DEFAULT;
    let m = |float: FloatMode, wave: Wave| Mode::new(float, wave);
    vec![
        Mode::default(),
        m(d, Wave::W64),
        m(
            FloatMode {
                ieee: false,
                dx10_clamp: false,
                denorm32: 0,
                denorm16: 0,
                ..d
            },
            Wave::W32,
        ),
        m(
            FloatMode {
                denorm32: 1,
                denorm16: 2,
                round32: 1,
                round16: 2,
                fp16_overflow: true,
                ..d
            },
            Wave::W32,
        ),
        m(
            FloatMode {
                ieee: false,
                denorm32: 2,
                denorm16: 1,
                round32: 3,
                round16: 3,
                fp16_overflow: true,
                ..d
            },
            Wave::W64,
        ),
        m(
            FloatMode {
                dx10_clamp: false,
                round32: 2,
                round16: 1,
                ..d
            },
            Wave::W32,
        ),
    ]
}

#[test]
fn descriptor_fields_match_requested_modes_on_all_targets() {
    let Some(comgr) =
        common::comgr_or_skip("descriptor_fields_match_requested_modes_on_all_targets")
    else {
        return;
    };
    let mut checked = 0;
    for target in Target::GFX103X {
        for mode in modes() {
            let k = assemble_probe(&comgr, target, &mode, &BODY)
                .unwrap_or_else(|e| panic!("{target} {mode:?}: {e}"));
            let elf = CodeObject::parse(&k.code_object).unwrap();
            assert_eq!(elf.mach(), target.elf_mach(), "{target}");
            assert_eq!(elf.abi_version(), 2, "code object v4");
            let kd = elf.kernel_descriptor(KERNEL_NAME).unwrap();
            assert_eq!(kd.ieee_mode(), mode.float.ieee, "{target} {mode:?}");
            assert_eq!(kd.dx10_clamp(), mode.float.dx10_clamp, "{target} {mode:?}");
            assert_eq!(
                kd.fp16_overflow(),
                mode.float.fp16_overflow,
                "{target} {mode:?}"
            );
            assert_eq!(kd.float_mode(), mode.float_mode_byte(), "{target} {mode:?}");
            assert_eq!(kd.wave32(), mode.wave == Wave::W32, "{target} {mode:?}");
            assert_eq!(kd.kernarg_size as usize, KERNARG_SIZE);
            assert_eq!(kd.private_segment_fixed_size, 0);
            checked += 1;
        }
    }
    assert_eq!(checked, 7 * modes().len());
}

#[test]
fn assembler_errors_carry_the_log() {
    let Some(comgr) = common::comgr_or_skip("assembler_errors_carry_the_log") else {
        return;
    };
    let err = comgr
        .assemble_executable(&Target::Gfx1030.isa_name(), "  v_bogus_op v1, v2\n", &[])
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("ASSEMBLE_SOURCE_TO_RELOCATABLE"), "{text}");
    assert!(text.contains("AMD_COMGR_STATUS_ERROR"), "{text}");
    assert!(
        text.contains("v_bogus_op"),
        "the assembler's diagnostic is kept: {text}"
    );
}

#[test]
fn objdump_shows_the_body_between_loads_and_stores() {
    let Some(comgr) = common::comgr_or_skip("objdump_shows_the_body_between_loads_and_stores")
    else {
        return;
    };
    let Some(objdump) = objdump_or_skip("objdump_shows_the_body_between_loads_and_stores") else {
        return;
    };
    for mode in [
        Mode::default(),
        Mode {
            wave: Wave::W64,
            ..Mode::default()
        },
    ] {
        let k = assemble_probe(&comgr, Target::Gfx1030, &mode, &BODY).unwrap();
        let insts: Vec<(String, Vec<u32>)> =
            disassemble(objdump, "gfx1030", &k.code_object, "gfx1030")
                .into_iter()
                .map(|(m, _, w)| (m, w))
                .collect();
        let words: Vec<u32> = insts.iter().flat_map(|(_, w)| w.clone()).collect();
        let start = words
            .windows(BODY.len())
            .position(|w| w == BODY)
            .unwrap_or_else(|| panic!("body words not found in {words:08x?}"));
        // Word index where each instruction begins.
        let mut at = 0;
        let mut last_load = None;
        let mut first_store = None;
        for (m, w) in &insts {
            if m.starts_with("global_load") {
                last_load = Some(at);
            }
            if m.starts_with("global_store") && first_store.is_none() {
                first_store = Some(at);
            }
            at += w.len();
        }
        let (load, store) = (
            last_load.expect("template loads"),
            first_store.expect("template stores"),
        );
        assert!(
            load < start && start + BODY.len() <= store,
            "load@{load} body@{start} store@{store}"
        );
        let stores = insts
            .iter()
            .filter(|(m, _)| m.starts_with("global_store"))
            .count();
        assert_eq!(stores, 5, "four dwordx4 output stores and the done mark");
        let mnemonics: Vec<&str> = insts.iter().map(|(m, _)| m.as_str()).collect();
        assert!(mnemonics.contains(&"v_add_f32_e32"), "{mnemonics:?}");
    }
}
