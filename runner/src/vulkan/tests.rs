//! Executor tests on lavapipe (the CPU Vulkan driver CI installs through mesa-vulkan-drivers);
//! the differential test of random IR kernels against the CPU model is in `eval_tests`. Without a
//! loader or lavapipe they skip with a message, except under `CI=true`, where they fail.
//! NVIDIA and RADV tests skip cleanly when those drivers are absent.

use ash::vk;
use rdnaprobe_isa::Wave;
use rdnaprobe_recompiler::ir::{Convert, Expr, FloatBin, Handle, IntBin, Kernel, Ty};
use rdnaprobe_recompiler::spirv::emit;

use super::*;

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// The lavapipe executor, or `None` (with a message) where it cannot exist.
pub(super) fn lavapipe() -> Option<Executor> {
    match Executor::open(&DeviceSelector::Driver(vk::DriverId::MESA_LLVMPIPE)) {
        Ok(e) => Some(e),
        Err(e) if !in_ci() => {
            eprintln!("skipping: lavapipe unavailable: {e:#}");
            None
        }
        Err(e) => panic!("lavapipe must be present under CI=true: {e:#}"),
    }
}

fn bitcast(k: &mut Kernel, a: Handle, to: Ty) -> Handle {
    k.push(Expr::Convert {
        op: Convert::Bitcast,
        a,
        to,
    })
}

/// out0 = f32 add of in0, in1; out1 = lane id; out2 = in2 / in3 (DivU); out3 = in5.
fn small_kernel() -> Kernel {
    let mut k = Kernel::default();
    let a = k.push(Expr::Input(0));
    let b = k.push(Expr::Input(1));
    let fa = bitcast(&mut k, a, Ty::F32);
    let fb = bitcast(&mut k, b, Ty::F32);
    let s = k.push(Expr::FloatBin {
        op: FloatBin::Add,
        a: fa,
        b: fb,
    });
    let o0 = bitcast(&mut k, s, Ty::U32);
    let lane = k.push(Expr::LaneId);
    let c = k.push(Expr::Input(2));
    let d = k.push(Expr::Input(3));
    let q = k.push(Expr::IntBin {
        op: IntBin::DivU,
        a: c,
        b: d,
    });
    let i5 = k.push(Expr::Input(5));
    let zero = k.push(Expr::Const {
        ty: Ty::U32,
        bits: 0,
    });
    k.outputs = vec![o0, lane, q, i5];
    k.outputs.resize(16, zero);
    k
}

/// out0..out5 = in0..in5, out6 = lane id, the rest 0.
fn passthrough_kernel() -> Kernel {
    let mut k = Kernel::default();
    let mut outs: Vec<Handle> = (0..6).map(|i| k.push(Expr::Input(i))).collect();
    outs.push(k.push(Expr::LaneId));
    let zero = k.push(Expr::Const {
        ty: Ty::U32,
        bits: 0,
    });
    outs.resize(16, zero);
    k.outputs = outs;
    k
}

#[test]
fn generated_inputs_follow_the_row_order_past_2_pow_32() {
    use rdnaprobe_recompiler::spirv::{emit_with, InputRange, InputSource, Interface};
    let Some(mut ex) = lavapipe() else { return };
    let r = |first: u32, count: u64| InputRange { first, count };
    // in0 all 2^32 values, in1 three values, in3 a constant, in5 five values: rows past 2^32
    // need the high half of the base; 3 and 5 are not powers of two (division path).
    let ranges = [
        r(0, 1 << 32),
        r(7, 3),
        r(0, 1),
        r(0xdead_beef, 1),
        r(0, 1),
        r(100, 5),
    ];
    // Stored: in0, in1, in5 and the lane id (out0, out1, out5, out6), packed in that order.
    let iface = Interface {
        inputs: InputSource::Generated(ranges),
        outputs: 0b110_0011,
    };
    let stride = iface.output_stride();
    assert_eq!(stride, 4);
    let words = emit_with(
        &passthrough_kernel(),
        Wave::W64,
        &ex.spirv_options(),
        &iface,
    )
    .unwrap();
    let p = ex.pipeline(&words, Wave::W64).unwrap();
    let value = |i: u64| -> [u32; 4] {
        let (d0, i) = (i % (1 << 32), i >> 32);
        let (d1, i) = (i % 3, i / 3);
        [d0 as u32, 7 + d1 as u32, 100 + (i % 5) as u32, 0]
    };
    for (base, rows) in [
        (0u64, 100usize),
        ((1 << 32) - 64, 200),
        ((5 << 32) + 128, 77),
    ] {
        let got = ex.run_generated(p, base, rows, stride).unwrap();
        assert_eq!(got.len(), rows * stride);
        for (i, row) in got.chunks_exact(stride).enumerate() {
            let mut want = value(base + i as u64);
            want[3] = (i % 64) as u32;
            assert_eq!(row, want, "row {} (base {base:#x})", base + i as u64);
        }
    }
    // A base off the wave grid and a bad stride are refused.
    assert!(ex.run_generated(p, 32, 10, stride).is_err());
    assert!(ex.run_generated(p, 0, 10, 17).is_err());
}

#[test]
fn lists_lavapipe() {
    match list_devices() {
        Ok(devs) => {
            let lvp = devs.iter().find(|d| d.driver == "lavapipe");
            match lvp {
                Some(d) => {
                    assert_eq!(d.device_type, "cpu", "{d:?}");
                    assert!(d.api_version.starts_with("1."), "{d:?}");
                    assert!(!d.driver_info.is_empty(), "{d:?}");
                }
                None if in_ci() => panic!("no lavapipe among {devs:?}"),
                None => eprintln!("skipping: no lavapipe among {devs:?}"),
            }
        }
        Err(e) if !in_ci() => eprintln!("skipping: {e:#}"),
        Err(e) => panic!("{e:#}"),
    }
}

#[test]
fn runs_rows_across_waves_and_jobs() {
    let Some(mut ex) = lavapipe() else { return };
    let k = small_kernel();
    let opts = ex.spirv_options();
    assert!(
        opts.float64 && opts.int64,
        "lavapipe offers 64-bit types: {opts:?}"
    );
    let p32 = ex
        .pipeline(&emit(&k, Wave::W32, &opts).unwrap(), Wave::W32)
        .unwrap();
    let p64 = ex
        .pipeline(&emit(&k, Wave::W64, &opts).unwrap(), Wave::W64)
        .unwrap();
    // The same words give the same pipeline.
    assert_eq!(
        ex.pipeline(&emit(&k, Wave::W32, &opts).unwrap(), Wave::W32)
            .unwrap(),
        p32
    );
    // Row counts that are not multiples of the wave exercise the bounds check.
    let rows = |n: u32, salt: u32| -> Vec<[u32; 6]> {
        (0..n)
            .map(|i| {
                [
                    (1.0f32 + i as f32).to_bits(),
                    0.5f32.to_bits(),
                    1000 + i,
                    i % 7,
                    0,
                    i ^ salt,
                ]
            })
            .collect()
    };
    let (a, b, c) = (rows(77, 0x55), rows(130, 0xaa), rows(1, 0xff));
    let jobs = [
        Job {
            pipeline: p32,
            inputs: &a,
        },
        Job {
            pipeline: p64,
            inputs: &b,
        },
        Job {
            pipeline: p32,
            inputs: &c,
        },
    ];
    let out = ex.run(&jobs).unwrap();
    for (job, res, wave) in [(&a, &out[0], 32), (&b, &out[1], 64), (&c, &out[2], 32)] {
        assert_eq!(res.len(), job.len());
        for (i, (inp, o)) in job.iter().zip(res).enumerate() {
            let want_sum = (f32::from_bits(inp[0]) + 0.5).to_bits();
            let want_q = inp[2].checked_div(inp[3]).unwrap_or(u32::MAX);
            assert_eq!(o[0], want_sum, "row {i}");
            assert_eq!(o[1], i as u32 % wave, "row {i}: lane id");
            assert_eq!(o[2], want_q, "row {i}: DivU (by zero = all ones)");
            assert_eq!(o[3], inp[5], "row {i}");
            assert!(o[4..].iter().all(|&x| x == 0));
        }
    }
    // A second batch reuses (and grows) the buffers.
    let big = rows(5000, 1);
    let out = ex
        .run(&[Job {
            pipeline: p64,
            inputs: &big,
        }])
        .unwrap();
    assert_eq!(out[0][4999][3], 4999 ^ 1);
    assert_eq!(out[0][4999][1], 4999 % 64);
    assert!(ex.run(&[]).unwrap().is_empty());
}

/// The same on NVIDIA or RADV when present (set VK_ICD_FILENAMES to pick one).
#[test]
fn other_drivers_open_when_present() {
    for (name, id) in [
        ("nvidia", vk::DriverId::NVIDIA_PROPRIETARY),
        ("radv", vk::DriverId::MESA_RADV),
    ] {
        match Executor::open(&DeviceSelector::Driver(id)) {
            Ok(mut ex) => {
                let k = small_kernel();
                let words = emit(&k, Wave::W32, &ex.spirv_options()).unwrap();
                let p = ex.pipeline(&words, Wave::W32).unwrap();
                let rows = [[1.0f32.to_bits(), 2.0f32.to_bits(), 9, 0, 0, 7]];
                let out = ex
                    .run(&[Job {
                        pipeline: p,
                        inputs: &rows,
                    }])
                    .unwrap();
                assert_eq!(out[0][0][0], 3.0f32.to_bits(), "{name}");
                assert_eq!(out[0][0][2], u32::MAX, "{name}");
            }
            Err(e) => eprintln!("skipping {name}: {e:#}"),
        }
    }
}

/// What lavapipe's compiler folds on its own does not change the bits: a product with a factor
/// it proves zero (a masked-out half) keeps the product's sign and NaN rule, `x + 0.0` gives +0
/// for x = -0, and a select between the constants -1.0 and 0.0 stays that select (NIR turns it
/// into `-b2f(c)`, -0.0 for false). Each output is compared with the CPU model.
#[test]
fn driver_folds_leave_the_bits_alone() {
    use rdnaprobe_recompiler::builder::Builder;
    let Some(mut ex) = lavapipe() else { return };
    let mut b = Builder::new();
    let x = b.push(Expr::Input(0));
    let xf = bitcast(&mut b.k, x, Ty::F32);
    let y = b.push(Expr::Input(1));
    let lo = b.andc(y, 0xffff);
    let z = b.shrc(lo, 16); // zero, but not a constant to the builder
    let zf = bitcast(&mut b.k, z, Ty::F32);
    let p = b.fb(FloatBin::Mul, xf, zf);
    let p = bitcast(&mut b.k, p, Ty::U32);
    let zero = b.cst(Ty::F32, 0);
    let s = b.fb(FloatBin::Add, xf, zero);
    let s = bitcast(&mut b.k, s, Ty::U32);
    let c = b.push(Expr::Input(2));
    let c = b.nec(c, 0);
    let m1 = b.c32(0xbf80_0000);
    let z32 = b.c32(0);
    let sel = b.sel(c, m1, z32);
    b.k.outputs = vec![p, s, sel];
    b.k.outputs.resize(16, z32);
    let k = b.k;
    k.validate().unwrap();
    let opts = ex.spirv_options();
    let pipe = ex
        .pipeline(&emit(&k, Wave::W32, &opts).unwrap(), Wave::W32)
        .unwrap();
    let mut rows = Vec::new();
    for x in [
        0x8000_0000,
        0xbf80_0000,
        0x7f80_0000,
        0xff80_0001,
        0x0000_0000,
    ] {
        for c in [0, 1] {
            rows.push([x, 0x1234_5678, c, 0, 0, 0]);
        }
    }
    let out = ex
        .run(&[Job {
            pipeline: pipe,
            inputs: &rows,
        }])
        .unwrap();
    for (r, o) in rows.iter().zip(&out[0]) {
        let want = rdnaprobe_recompiler::interp::run(&k, *r, 0);
        assert_eq!(o[..3], want[..3], "inputs {r:x?}");
    }
    // the cases that differed before: -0 * 0 = -0, -0 + 0 = +0, select(false) = +0
    let neg0 = rdnaprobe_recompiler::interp::run(&k, rows[0], 0);
    assert_eq!(neg0[..3], [0x8000_0000, 0, 0]);
}
