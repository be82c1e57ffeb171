//! SPIR-V backend tests: every emitted module passes `spirv-val --target-env vulkan1.1`,
//! random kernels cover every IR operation and type, device limits give clear errors, and a
//! few kernels' disassembly is pinned in `tests/snapshots/*.spvasm` (`BLESS=1` rewrites them).
//!
//! spirv-val comes from spirv-tools. Under `CI=true` a missing spirv-val fails the tests;
//! elsewhere the validation is skipped with a message.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rdnaprobe_isa::Wave;
use rdnaprobe_recompiler::ir::{
    Convert, Expr, FloatBin, FloatUn, Handle, IntBin, IntCmp, IntUn, Kernel, Ty,
};
use rdnaprobe_recompiler::spirv::arbitrary::{random_kernel, GenOptions};
use rdnaprobe_recompiler::spirv::{
    emit, emit_with, FloatControls, InputRange, InputSource, Interface, SpirvError, SpirvOptions,
};
use rspirv::binary::Disassemble;
use rspirv::spirv::{Decoration, Op};

use common::spirv_val::spirv_val;

fn disassemble(words: &[u32]) -> String {
    let module = rspirv::dr::load_words(words).expect("emitted module loads back");
    module.disassemble()
}

/// Kernel helper: bitcast input `i` to f32.
fn in_f32(k: &mut Kernel, i: u8) -> Handle {
    let x = k.push(Expr::Input(i));
    k.push(Expr::Convert {
        op: Convert::Bitcast,
        a: x,
        to: Ty::F32,
    })
}

/// Fills outputs up to sixteen with zero constants after the given ones.
fn finish(k: &mut Kernel, outs: &[Handle]) {
    let zero = k.push(Expr::Const {
        ty: Ty::U32,
        bits: 0,
    });
    k.outputs = outs.to_vec();
    k.outputs.resize(16, zero);
}

/// out0 = bits(f32(in0) + f32(in1)): the shape of a lowered v_add_f32.
fn add_f32_kernel() -> Kernel {
    let mut k = Kernel::default();
    let a = in_f32(&mut k, 0);
    let b = in_f32(&mut k, 1);
    let s = k.push(Expr::FloatBin {
        op: FloatBin::Add,
        a,
        b,
    });
    let o = k.push(Expr::Convert {
        op: Convert::Bitcast,
        a: s,
        to: Ty::U32,
    });
    finish(&mut k, &[o]);
    k
}

/// Integer operations whose SPIR-V forms need the IR's definitions made explicit.
fn int_edges_kernel() -> Kernel {
    let mut k = Kernel::default();
    let a = k.push(Expr::Input(0));
    let b = k.push(Expr::Input(1));
    let mut outs = vec![];
    for op in [
        IntBin::Shl,
        IntBin::ShrU,
        IntBin::ShrS,
        IntBin::DivU,
        IntBin::RemU,
        IntBin::MulHiS,
    ] {
        outs.push(k.push(Expr::IntBin { op, a, b }));
    }
    for op in [IntUn::FindMsbU, IntUn::FindLsb, IntUn::Popcount] {
        outs.push(k.push(Expr::IntUn { op, a }));
    }
    let lane = k.push(Expr::LaneId);
    outs.push(lane);
    let lt = k.push(Expr::IntCmp {
        op: IntCmp::LtS,
        a,
        b,
    });
    outs.push(k.push(Expr::Convert {
        op: Convert::BoolToU32,
        a: lt,
        to: Ty::U32,
    }));
    finish(&mut k, &outs);
    k
}

/// An f64 fma over (in0,in1) * (in2,in3) + (in4,in5), both halves out.
fn fma_f64_kernel() -> Kernel {
    let mut k = Kernel::default();
    let mut f = vec![];
    for i in 0..3u8 {
        let lo = k.push(Expr::Input(2 * i));
        let hi = k.push(Expr::Input(2 * i + 1));
        let p = k.push(Expr::Pack64 { lo, hi });
        f.push(k.push(Expr::Convert {
            op: Convert::Bitcast,
            a: p,
            to: Ty::F64,
        }));
    }
    let r = k.push(Expr::Fma {
        a: f[0],
        b: f[1],
        c: f[2],
    });
    let s = k.push(Expr::FloatUn {
        op: FloatUn::Sin,
        a: r,
    });
    let bits = k.push(Expr::Convert {
        op: Convert::Bitcast,
        a: s,
        to: Ty::U64,
    });
    let lo = k.push(Expr::Convert {
        op: Convert::TruncU64,
        a: bits,
        to: Ty::U32,
    });
    let c32 = k.push(Expr::Const {
        ty: Ty::U64,
        bits: 32,
    });
    let sh = k.push(Expr::IntBin {
        op: IntBin::ShrU,
        a: bits,
        b: c32,
    });
    let hi = k.push(Expr::Convert {
        op: Convert::TruncU64,
        a: sh,
        to: Ty::U32,
    });
    finish(&mut k, &[lo, hi]);
    k
}

/// Conversions whose NaN bits and out-of-range results the module selects explicitly:
/// out0 = f32(f64(f32(in0))), out1/out2 = f64(in2, in3) to s32/u32.
fn convert_kernel() -> Kernel {
    let mut k = Kernel::default();
    let x = in_f32(&mut k, 0);
    let wide = k.push(Expr::Convert {
        op: Convert::F32ToF64,
        a: x,
        to: Ty::F64,
    });
    let narrow = k.push(Expr::Convert {
        op: Convert::F64ToF32,
        a: wide,
        to: Ty::F32,
    });
    let o0 = k.push(Expr::Convert {
        op: Convert::Bitcast,
        a: narrow,
        to: Ty::U32,
    });
    let lo = k.push(Expr::Input(2));
    let hi = k.push(Expr::Input(3));
    let p = k.push(Expr::Pack64 { lo, hi });
    let d = k.push(Expr::Convert {
        op: Convert::Bitcast,
        a: p,
        to: Ty::F64,
    });
    let o1 = k.push(Expr::Convert {
        op: Convert::F64ToS32,
        a: d,
        to: Ty::U32,
    });
    let o2 = k.push(Expr::Convert {
        op: Convert::F64ToU32,
        a: d,
        to: Ty::U32,
    });
    finish(&mut k, &[o0, o1, o2]);
    k
}

const ALL_FLOAT_CONTROLS: FloatControls = FloatControls {
    denorm_preserve_32: true,
    denorm_preserve_64: true,
    signed_zero_inf_nan_preserve_32: true,
    signed_zero_inf_nan_preserve_64: true,
    rounding_rte_32: true,
    rounding_rte_64: true,
};

fn snapshot_cases() -> Vec<(&'static str, Kernel, Wave, SpirvOptions)> {
    let fc = SpirvOptions {
        float_controls: ALL_FLOAT_CONTROLS,
        ..SpirvOptions::DESKTOP
    };
    vec![
        (
            "add_f32_wave32",
            add_f32_kernel(),
            Wave::W32,
            SpirvOptions::DESKTOP,
        ),
        (
            "add_f32_wave64_float_controls",
            add_f32_kernel(),
            Wave::W64,
            fc,
        ),
        (
            "int_edges_wave32",
            int_edges_kernel(),
            Wave::W32,
            SpirvOptions::DESKTOP,
        ),
        (
            "convert_nan_saturate_wave32",
            convert_kernel(),
            Wave::W32,
            SpirvOptions::DESKTOP,
        ),
        (
            "fma_sin_f64_wave32",
            fma_f64_kernel(),
            Wave::W32,
            SpirvOptions::DESKTOP,
        ),
    ]
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

#[test]
fn snapshots_match_and_validate() {
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let dir = snapshot_dir();
    let mut failures = vec![];
    let mut names = BTreeSet::new();
    for (name, kernel, wave, opts) in snapshot_cases() {
        let words = emit(&kernel, wave, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        spirv_val(&words, name).unwrap();
        let text = disassemble(&words);
        let path = dir.join(format!("{name}.spvasm"));
        names.insert(format!("{name}.spvasm"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(old) if old == text => {}
            Ok(old) => failures.push(format!(
                "{} is stale (- the file, + what the case emits now):\n{}",
                path.display(),
                common::line_diff::line_diff(&old, &text, 80)
            )),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    // A snapshot file no case produces is stale too.
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if file.ends_with(".spvasm") && !names.contains(&file) {
                if bless {
                    std::fs::remove_file(entry.path()).unwrap();
                } else {
                    failures.push(format!("{file} has no snapshot case"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\nrun with BLESS=1 to rewrite",
        failures.join("\n")
    );
}

#[test]
fn a_stale_snapshot_shows_the_changed_lines() {
    let old: String = (1..=20).map(|i| format!("%{i} = OpLoad\n")).collect();
    let new = old
        .replace("%5 = OpLoad\n", "%5 = OpIAdd\n")
        .replace("%18 = OpLoad\n", "");
    let diff = common::line_diff::line_diff(&old, &new, 100);
    assert_eq!(
        diff,
        "@@ old line 2\n %2 = OpLoad\n %3 = OpLoad\n %4 = OpLoad\n-%5 = OpLoad\n+%5 = OpIAdd\n \
         %6 = OpLoad\n %7 = OpLoad\n %8 = OpLoad\n@@ old line 15\n %15 = OpLoad\n %16 = OpLoad\n \
         %17 = OpLoad\n-%18 = OpLoad\n %19 = OpLoad\n %20 = OpLoad"
    );
    assert_eq!(common::line_diff::line_diff(&old, &old, 100), "");
    let cut = common::line_diff::line_diff(&old, &new, 3);
    assert!(cut.ends_with("\n... 13 more diff lines"), "{cut}");
}

#[test]
fn the_validator_rejects_a_broken_module() {
    // A header without OpMemoryModel: if this passes, validation is not really running.
    let broken = [0x0723_0203, 0x0001_0300, 0, 1, 0];
    match spirv_val(&broken, "a header-only module") {
        Ok(false) => {}
        Ok(true) => panic!("spirv-val accepted a module without a memory model"),
        Err(e) => assert!(e.contains("rejected"), "{e}"),
    }
}

#[test]
fn random_kernels_validate() {
    let opts = GenOptions::default();
    let count = 160;
    for seed in 0..count {
        let k = random_kernel(seed, &opts);
        k.validate()
            .unwrap_or_else(|e| panic!("seed {seed}: generator made invalid IR: {e}"));
        let wave = if seed % 2 == 0 { Wave::W32 } else { Wave::W64 };
        let words =
            emit(&k, wave, &SpirvOptions::DESKTOP).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if !spirv_val(&words, &format!("random kernel seed {seed}")).unwrap() {
            return;
        }
    }
}

/// Generated-input interfaces: every generator shape (power-of-two counts, other counts,
/// 2^32, single values) and packed output subsets.
fn generated_interfaces() -> Vec<Interface> {
    let r = |first: u32, count: u64| InputRange { first, count };
    let one = r(0, 1);
    vec![
        Interface {
            inputs: InputSource::Generated([r(0, 1 << 32), one, one, one, one, one]),
            outputs: 1,
        },
        Interface {
            inputs: InputSource::Generated([
                r(0, 1 << 16),
                r(5, 3),
                r(0x3c00, 1),
                one,
                one,
                r(7, 1000),
            ]),
            outputs: 0b1010_0000_0000_0011,
        },
        Interface {
            inputs: InputSource::Generated([r(0x7f00_0000, 257); 6]),
            outputs: 0xffff,
        },
    ]
}

#[test]
fn generated_input_modules_validate() {
    for (n, iface) in generated_interfaces().iter().enumerate() {
        for seed in 0..12 {
            let k = random_kernel(seed, &GenOptions::default());
            let wave = if seed % 2 == 0 { Wave::W32 } else { Wave::W64 };
            let words = emit_with(&k, wave, &SpirvOptions::DESKTOP, iface)
                .unwrap_or_else(|e| panic!("interface {n} seed {seed}: {e}"));
            let text = disassemble(&words);
            // No input buffer: only binding 1 is declared, and the stores are packed.
            assert!(!text.contains("Binding 0"), "interface {n}:\n{text}");
            let stores = text.matches("OpStore").count();
            assert_eq!(stores, iface.output_stride(), "interface {n}:\n{text}");
            if !spirv_val(&words, &format!("interface {n} seed {seed}")).unwrap() {
                return;
            }
        }
    }
}

#[test]
fn bad_interfaces_are_errors() {
    let k = add_f32_kernel();
    let none = Interface {
        outputs: 0,
        ..Interface::LANE_CONTRACT
    };
    assert!(matches!(
        emit_with(&k, Wave::W32, &SpirvOptions::DESKTOP, &none),
        Err(SpirvError::Interface { .. })
    ));
    let r = InputRange { first: 0, count: 1 };
    let mut ranges = [r; 6];
    ranges[3].count = (1 << 32) + 1;
    let big = Interface {
        inputs: InputSource::Generated(ranges),
        outputs: 1,
    };
    match emit_with(&k, Wave::W32, &SpirvOptions::DESKTOP, &big) {
        Err(SpirvError::Interface { reason }) => assert!(reason.contains("in3"), "{reason}"),
        other => panic!("expected an interface error, got {other:?}"),
    }
    let no_i64 = SpirvOptions {
        int64: false,
        ..SpirvOptions::DESKTOP
    };
    let gen = Interface {
        inputs: InputSource::Generated([r; 6]),
        outputs: 1,
    };
    match emit_with(&k, Wave::W32, &no_i64, &gen) {
        Err(SpirvError::Unsupported { reason }) => assert!(reason.contains("shaderInt64")),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn random_kernels_validate_with_float_controls() {
    let opts = SpirvOptions {
        float_controls: ALL_FLOAT_CONTROLS,
        ..SpirvOptions::DESKTOP
    };
    for seed in 1000..1020 {
        let k = random_kernel(seed, &GenOptions::default());
        let words = emit(&k, Wave::W32, &opts).unwrap();
        let text = disassemble(&words);
        assert!(text.contains("DenormPreserve 32"), "seed {seed}:\n{text}");
        if !spirv_val(&words, &format!("seed {seed} with float controls")).unwrap() {
            return;
        }
    }
}

/// A name for an expression's variant, operation and type, for the coverage check.
fn shape(k: &Kernel, h: Handle) -> String {
    let ty = k.ty(h);
    match k.expr(h) {
        Expr::Const { .. } => format!("Const {ty:?}"),
        Expr::Input(_) => "Input".into(),
        Expr::LaneId => "LaneId".into(),
        Expr::IntBin { op, .. } => format!("IntBin {op:?} {ty:?}"),
        Expr::IntUn { op, .. } => format!("IntUn {op:?} {ty:?}"),
        Expr::IntCmp { op, a, .. } => format!("IntCmp {op:?} {:?}", k.ty(*a)),
        Expr::FloatBin { op, .. } => format!("FloatBin {op:?} {ty:?}"),
        Expr::Fma { .. } => format!("Fma {ty:?}"),
        Expr::FloatUn { op, .. } => format!("FloatUn {op:?} {ty:?}"),
        Expr::FloatCmp { op, a, .. } => format!("FloatCmp {op:?} {:?}", k.ty(*a)),
        Expr::BoolAnd(..) => "BoolAnd".into(),
        Expr::BoolOr(..) => "BoolOr".into(),
        Expr::BoolNot(..) => "BoolNot".into(),
        Expr::Select { .. } => format!("Select {ty:?}"),
        Expr::Convert { op, a, to } => format!("Convert {op:?} {:?} {to:?}", k.ty(*a)),
        Expr::Pack64 { .. } => "Pack64".into(),
        // The wave contract's expressions: tests/spirv_wave.rs.
        Expr::SgprIn(_)
        | Expr::ExecIn
        | Expr::WaveBallot(_)
        | Expr::WaveRead { .. }
        | Expr::Mem { .. }
        | Expr::Var(_) => "wave".into(),
        // Native images: tests/native_images.rs.
        Expr::Image(_) => "image".into(),
    }
}

/// Every operation with every operand type the IR allows.
fn expected_shapes() -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for ty in ["Bool", "U32", "U64", "F32", "F64"] {
        s.insert(format!("Const {ty}"));
        s.insert(format!("Select {ty}"));
    }
    for x in ["Input", "LaneId", "BoolAnd", "BoolOr", "BoolNot", "Pack64"] {
        s.insert(x.into());
    }
    let ints = ["U32", "U64"];
    let floats = ["F32", "F64"];
    for op in "Add Sub Mul MulHiU MulHiS DivU RemU And Or Xor Shl ShrU ShrS".split(' ') {
        ints.iter()
            .for_each(|t| _ = s.insert(format!("IntBin {op} {t}")));
    }
    for op in "Not Neg Popcount BitReverse FindMsbU FindLsb".split(' ') {
        ints.iter()
            .for_each(|t| _ = s.insert(format!("IntUn {op} {t}")));
    }
    for op in "Eq Ne LtU LeU GtU GeU LtS LeS GtS GeS".split(' ') {
        ints.iter()
            .for_each(|t| _ = s.insert(format!("IntCmp {op} {t}")));
    }
    for op in "Add Sub Mul Div".split(' ') {
        floats
            .iter()
            .for_each(|t| _ = s.insert(format!("FloatBin {op} {t}")));
    }
    for op in "Sqrt Floor Ceil Trunc RoundEven Exp2 Log2 InverseSqrt Sin Cos".split(' ') {
        floats
            .iter()
            .for_each(|t| _ = s.insert(format!("FloatUn {op} {t}")));
    }
    for op in
        "OrdEq OrdNe OrdLt OrdLe OrdGt OrdGe UnordEq UnordNe UnordLt UnordLe UnordGt UnordGe Unord"
            .split(' ')
    {
        floats
            .iter()
            .for_each(|t| _ = s.insert(format!("FloatCmp {op} {t}")));
    }
    floats.iter().for_each(|t| _ = s.insert(format!("Fma {t}")));
    for c in [
        "ZextU32 U32 U64",
        "SextU32 U32 U64",
        "TruncU64 U64 U32",
        "BoolToU32 Bool U32",
        "Bitcast U32 F32",
        "Bitcast F32 U32",
        "Bitcast U64 F64",
        "Bitcast F64 U64",
        "F32ToF64 F32 F64",
        "F64ToF32 F64 F32",
        "S32ToF64 U32 F64",
        "U32ToF64 U32 F64",
        "F64ToS32 F64 U32",
        "F64ToU32 F64 U32",
    ] {
        s.insert(format!("Convert {c}"));
    }
    s
}

#[test]
fn random_kernels_cover_every_operation_and_type() {
    let expected = expected_shapes();
    let mut seen = BTreeSet::new();
    for seed in 0..160 {
        let k = random_kernel(seed, &GenOptions::default());
        for i in 0..k.exprs.len() {
            seen.insert(shape(&k, Handle(i as u32)));
        }
    }
    let missing: Vec<_> = expected.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "160 random kernels never produced: {missing:?}"
    );
    let unknown: Vec<_> = seen.difference(&expected).collect();
    assert!(
        unknown.is_empty(),
        "shapes the coverage list lacks: {unknown:?}"
    );
}

#[test]
fn restricted_generator_respects_its_options() {
    let opts = GenOptions {
        ops: 64,
        wide: false,
        approximate: false,
        div_sqrt: false,
        fma: false,
        canonical_nan: true,
        float_consts: false,
        round_f64: false,
    };
    for seed in 0..50 {
        let k = random_kernel(seed, &opts);
        for e in &k.exprs {
            match e {
                Expr::FloatUn { op, .. } => {
                    assert!(
                        !op.is_approximate() && *op != FloatUn::Sqrt,
                        "seed {seed}: {e:?}"
                    )
                }
                Expr::FloatBin { op, .. } => assert_ne!(*op, FloatBin::Div, "seed {seed}"),
                Expr::Fma { .. } => panic!("seed {seed}: Fma with fma: false"),
                // Only the canonical NaN (and clamp bounds, F64 only) may be float constants.
                Expr::Const { ty: Ty::F32, bits } => assert_eq!(*bits, 0x7fc0_0000, "seed {seed}"),
                _ => {}
            }
        }
        for i in 0..k.exprs.len() {
            let ty = k.ty(Handle(i as u32));
            assert!(
                !matches!(ty, Ty::U64 | Ty::F64),
                "seed {seed}: wide value {ty:?}"
            );
        }
        // Narrow kernels need neither Float64 nor Int64.
        let none = SpirvOptions {
            float64: false,
            int64: false,
            ..SpirvOptions::DESKTOP
        };
        emit(&k, Wave::W32, &none).unwrap();
    }
}

#[test]
fn missing_device_features_are_unsupported() {
    let k = fma_f64_kernel();
    let no_f64 = SpirvOptions {
        float64: false,
        ..SpirvOptions::DESKTOP
    };
    match emit(&k, Wave::W32, &no_f64) {
        Err(SpirvError::Unsupported { reason }) => assert!(reason.contains("shaderFloat64")),
        other => panic!("expected Unsupported, got {other:?}"),
    }
    let no_i64 = SpirvOptions {
        int64: false,
        ..SpirvOptions::DESKTOP
    };
    match emit(&k, Wave::W32, &no_i64) {
        Err(SpirvError::Unsupported { reason }) => assert!(reason.contains("shaderInt64")),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn invalid_kernels_are_errors() {
    let mut k = add_f32_kernel();
    k.outputs.pop();
    assert!(matches!(
        emit(&k, Wave::W32, &SpirvOptions::DESKTOP),
        Err(SpirvError::InvalidIr(_))
    ));

    let mut k = Kernel::default();
    let x = k.push(Expr::Input(6));
    k.outputs = vec![x; 16];
    assert_eq!(
        emit(&k, Wave::W32, &SpirvOptions::DESKTOP),
        Err(SpirvError::InputIndex {
            at: Handle(0),
            index: 6
        })
    );
}

#[test]
fn no_float_controls_unless_advertised() {
    for seed in 0..20 {
        let words = emit(
            &random_kernel(seed, &GenOptions::default()),
            Wave::W32,
            &SpirvOptions::DESKTOP,
        )
        .unwrap();
        let text = disassemble(&words);
        for word in [
            "SPV_KHR_float_controls",
            "DenormPreserve",
            "RoundingModeRTE",
            "DenormFlushToZero",
        ] {
            assert!(
                !text.contains(word),
                "seed {seed}: {word} emitted without being advertised"
            );
        }
    }
    // Only the advertised modes, only for the widths the kernel uses.
    let opts = SpirvOptions {
        float_controls: FloatControls {
            denorm_preserve_32: true,
            ..FloatControls::NONE
        },
        ..SpirvOptions::DESKTOP
    };
    let text = disassemble(&emit(&add_f32_kernel(), Wave::W32, &opts).unwrap());
    assert!(text.contains("DenormPreserve 32"), "{text}");
    assert!(
        !text.contains("DenormPreserve 64") && !text.contains("RoundingModeRTE"),
        "{text}"
    );
}

#[test]
fn float_arithmetic_is_never_contracted() {
    let arith = [Op::FAdd, Op::FSub, Op::FMul, Op::FDiv];
    for seed in 0..40 {
        let words = emit(
            &random_kernel(seed, &GenOptions::default()),
            Wave::W32,
            &SpirvOptions::DESKTOP,
        )
        .unwrap();
        let module = rspirv::dr::load_words(&words).unwrap();
        let decorated: BTreeSet<u32> = module
            .annotations
            .iter()
            .filter(|i| {
                i.class.opcode == Op::Decorate
                    && i.operands.get(1)
                        == Some(&rspirv::dr::Operand::Decoration(Decoration::NoContraction))
            })
            .filter_map(|i| i.operands[0].id_ref_any())
            .collect();
        let mut arithmetic = 0;
        for f in &module.functions {
            for block in &f.blocks {
                for inst in &block.instructions {
                    let is_fma = inst.class.opcode == Op::ExtInst
                        && inst.operands.get(1)
                            == Some(&rspirv::dr::Operand::LiteralExtInstInteger(50));
                    if arith.contains(&inst.class.opcode) || is_fma {
                        arithmetic += 1;
                        let id = inst.result_id.unwrap();
                        assert!(
                            decorated.contains(&id),
                            "seed {seed}: %{id} lacks NoContraction"
                        );
                    }
                }
            }
        }
        assert!(
            arithmetic > 0 || seed > 0,
            "seed 0 should contain float arithmetic"
        );
    }
}

#[test]
fn local_size_follows_the_wave() {
    for (wave, n) in [(Wave::W32, 32), (Wave::W64, 64)] {
        let text = disassemble(&emit(&add_f32_kernel(), wave, &SpirvOptions::DESKTOP).unwrap());
        assert!(text.contains(&format!("LocalSize {n} 1 1")), "{text}");
    }
}

/// The f64 arithmetic in every round16 x denorm16 mode (rules f64-rounding-mode and
/// f64-denormals: the rounding and flushing on the integer bits) lowers to valid modules.
#[test]
fn f64_arithmetic_validates_in_every_f64_mode() {
    use rdnaprobe_isa::{assemble, FloatMode, Target};
    let bodies = [
        "v_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]",
        "v_add_f64 v[10:11], v[4:5], v[6:7]",
        "v_mul_f64 v[10:11], v[4:5], v[6:7]",
        "v_ldexp_f64 v[10:11], v[4:5], v6",
        "s_mov_b32 vcc_lo, -1\nv_div_fmas_f64 v[10:11], v[4:5], v[6:7], v[8:9]",
    ];
    for body in bodies {
        let words = assemble(body).unwrap();
        for (round16, denorm16) in (0..4).flat_map(|r| (0..4).map(move |d| (r, d))) {
            let mode = FloatMode {
                round16,
                denorm16,
                ..FloatMode::DEFAULT
            };
            let k = rdnaprobe_recompiler::lower_words(&words, mode, Wave::W32, Target::Gfx1036)
                .unwrap();
            let spv = emit(&k, Wave::W32, &SpirvOptions::DESKTOP).unwrap();
            let what = format!("{body} round16={round16} denorm16={denorm16}");
            if !spirv_val(&spv, &what).unwrap() {
                return;
            }
        }
    }
}

/// The packing conversions, f64 <-> integer conversions, v_div_scale_f64, the three-operand
/// and fmamk/fmaak f16 forms, v_pk_fmac_f16 and the register moves lower to valid modules in
/// the default mode and in one with every denormal flushed and IEEE=0 (v_pack_b32_f16 and
/// v_trig_preop_f64 only lower with f16/f64 denormals kept, so they run in the first).
#[test]
fn packing_conversions_and_moves_validate() {
    use rdnaprobe_isa::{assemble, FloatMode, Target};
    let bodies = [
        "v_cvt_pkrtz_f16_f32 v10, v4, v5",
        "v_cvt_pkrtz_f16_f32_e64 v10, -v4, |v5| clamp",
        "v_cvt_pknorm_i16_f32 v10, v4, v5",
        "v_cvt_pknorm_u16_f32 v10, v4, v5",
        "v_cvt_off_f32_i4 v10, v4",
        "v_cvt_f64_i32 v[10:11], v4",
        "v_cvt_f64_u32 v[10:11], v4",
        "v_cvt_i32_f64 v10, v[4:5]",
        "v_cvt_u32_f64 v10, v[4:5]",
        "v_frexp_exp_i32_f64 v10, v[4:5]",
        "v_div_scale_f64 v[10:11], s20, v[4:5], v[6:7], v[8:9]\nv_cndmask_b32 v12, 0, 1, s20",
        "v_max3_f16 v10, v4, v5, v6",
        "v_min3_f16 v10, v4, v5, v6",
        "v_med3_f16 v10, v4, v5, v6 op_sel:[1,0,1,0]",
        "v_fmamk_f16 v10, v4, 0x3bff, v5",
        "v_fmaak_f16 v10, v4, v5, 0x4200",
        "v_mov_b32 v10, v6\nv_pk_fmac_f16 v10, v4, v5",
        "v_mov_b32 v10, v4\nv_swap_b32 v10, v5\nv_mov_b32 v11, v5",
        "s_mov_b32 m0, 2\nv_movrels_b32 v10, v4\nv_movrelsd_b32 v11, v4\nv_movreld_b32 v12, v5",
        "s_mov_b32 m0, 0x10002\nv_movrelsd_2_b32 v11, v4\nv_swaprel_b32 v12, v5",
        "v_clrexcp\nv_pipeflush\nv_mov_b32 v10, v4",
    ];
    let flushed = FloatMode {
        ieee: false,
        denorm32: 0,
        denorm16: 0,
        fp16_overflow: true,
        ..FloatMode::DEFAULT
    };
    let mut checked = 0;
    for mode in [FloatMode::DEFAULT, flushed] {
        let mut all: Vec<&str> = bodies.to_vec();
        if mode == FloatMode::DEFAULT {
            all.push("v_pack_b32_f16 v10, v4, -v5 op_sel:[0,1,0]");
            all.push("v_trig_preop_f64 v[10:11], v[4:5], v6");
        }
        for body in all {
            let words = assemble(body).unwrap();
            let k = rdnaprobe_recompiler::lower_words(&words, mode, Wave::W32, Target::Gfx1036)
                .unwrap_or_else(|e| panic!("{body}: {e}"));
            let spv = emit(&k, Wave::W32, &SpirvOptions::DESKTOP).unwrap();
            if !spirv_val(&spv, body).unwrap() {
                return;
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * bodies.len() + 2);
}

/// The 16-bit, packed, byte and dot-product integer ops (with their clamp and op_sel forms)
/// lower to valid modules in both wave sizes.
#[test]
fn integer_ops_validate() {
    use rdnaprobe_isa::{assemble, FloatMode, Target};
    let bodies = [
        "v_add_nc_u16 v10, v4, v5 op_sel:[1,0,1] clamp",
        "v_sub_nc_i16 v10, v4, v5 clamp",
        "v_lshlrev_b16 v10, v4, v5",
        "v_ashrrev_i16 v10, v4, v5",
        "v_mul_lo_u16 v10, v4, v5",
        "v_mad_i16 v10, v4, v5, v6 clamp",
        "v_mad_u32_u16 v10, v4, v5, v6 op_sel:[1,1,0,0] clamp",
        "v_mad_i32_i16 v10, v4, v5, v6 clamp",
        "v_med3_i16 v10, v4, v5, v6",
        "v_max3_u16 v10, v4, v5, v6",
        "v_cmp_lt_i16 vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo",
        "v_cmpx_ge_u16 v4, v5\nv_mov_b32 v10, 1",
        "v_cvt_pk_i16_i32 v10, v4, v5",
        "v_cvt_pk_u16_u32 v10, v4, v5",
        "v_pk_add_u16 v10, v4, v5 op_sel:[1,0] clamp",
        "v_pk_mad_i16 v10, v4, v5, v6 clamp",
        "v_pk_mul_lo_u16 v10, v4, v5",
        "v_pk_ashrrev_i16 v10, v4, v5",
        "v_pk_max_i16 v10, v4, v5",
        "v_sad_u8 v10, v4, v5, v6",
        "v_sad_hi_u8 v10, v4, v5, v6",
        "v_sad_u16 v10, v4, v5, v6",
        "v_sad_u32 v10, v4, v5, v6",
        "v_msad_u8 v10, v4, v5, v6",
        "v_qsad_pk_u16_u8 v[10:11], v[4:5], v6, v[8:9]",
        "v_mqsad_pk_u16_u8 v[10:11], v[4:5], v6, v[8:9]",
        "v_mqsad_u32_u8 v[10:13], v[4:5], v6, v[6:9]",
        "v_lerp_u8 v10, v4, v5, v6",
        "v_perm_b32 v10, v4, v5, v6",
        "v_mad_u64_u32 v[10:11], s0, v4, v5, v[6:7]\nv_cndmask_b32_e64 v12, 0, 1, s0",
        "v_mad_i64_i32 v[10:11], s0, v4, v5, v[6:7]\nv_cndmask_b32_e64 v12, 0, 1, s0",
        "v_dot2_i32_i16 v10, v4, v5, v6 clamp",
        "v_dot2_u32_u16 v10, v4, v5, v6 op_sel:[1,0,0]",
        "v_dot4_i32_i8 v10, v4, v5, v6",
        "v_dot4_u32_u8 v10, v4, v5, v6 clamp",
        "v_dot8_i32_i4 v10, v4, v5, v6",
        "v_dot8_u32_u4 v10, v4, v5, v6",
        "v_dot4c_i32_i8 v10, v4, v5",
    ];
    for body in bodies {
        let words = assemble(body).unwrap();
        for wave in [Wave::W32, Wave::W64] {
            let k = rdnaprobe_recompiler::lower_words(
                &words,
                FloatMode::DEFAULT,
                wave,
                Target::Gfx1036,
            )
            .unwrap_or_else(|e| panic!("{body}: {e}"));
            let spv = emit(&k, wave, &SpirvOptions::DESKTOP).unwrap();
            if !spirv_val(&spv, &format!("{body} {wave:?}")).unwrap() {
                return;
            }
        }
    }
}

/// The transcendental instructions (f32, f16, f64) lower to software sequences: no
/// approximate GLSL.std.450 function, native division or square root is left in their IR, and
/// the modules validate in the default mode and in one with directed rounding and flushing.
#[test]
fn transcendentals_are_software_sequences_that_validate() {
    use rdnaprobe_isa::{assemble, FloatMode, Target};
    use rdnaprobe_recompiler::ir::{Expr, FloatBin, FloatUn};
    let bodies: Vec<String> = common::TRANSCENDENTAL
        .iter()
        .map(|op| {
            if op.ends_with("_f64") {
                format!("{op} v[10:11], v[4:5]")
            } else {
                format!("{op} v10, v4")
            }
        })
        .collect();
    let flushing = FloatMode {
        round32: 3,
        round16: 2,
        denorm32: 0,
        denorm16: 0,
        ieee: false,
        ..FloatMode::DEFAULT
    };
    for body in &bodies {
        let words = assemble(body).unwrap();
        for mode in [FloatMode::DEFAULT, flushing] {
            let k = rdnaprobe_recompiler::lower_words(&words, mode, Wave::W32, Target::Gfx1036)
                .unwrap();
            for e in &k.exprs {
                let bad = match *e {
                    Expr::FloatUn { op, .. } => op.is_approximate() || op == FloatUn::Sqrt,
                    Expr::FloatBin { op, .. } => op == FloatBin::Div,
                    Expr::Fma { .. } => true,
                    _ => false,
                };
                assert!(!bad, "{body}: {e:?} is not exact on every driver");
            }
            let spv = emit(&k, Wave::W32, &SpirvOptions::DESKTOP).unwrap();
            if !spirv_val(&spv, body).unwrap() {
                return;
            }
        }
    }
}
