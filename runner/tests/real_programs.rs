//! Real compiler output: the OpenCL C kernels of `tests/kernels/` compiled by clang-19 for
//! gfx1030 (wave32 and wave64, -O0 and -O2, linked by ld.lld-19), dispatched with
//! `rdnaprobe dispatch`, and every output dword compared with a host reference written here
//! from the kernels' sources (no recompiler code: Rust integer and IEEE float operations, the
//! `half` crate's conversions).
//!
//! On `cpu` every kernel runs with workgroups of several waves (64 work-items: two wave32
//! waves; the LDS kernels 128: four or two), so barriers and the shared LDS are exercised. On
//! lavapipe the kernels without LDS run with a workgroup of one wave, -O0 and -O2, and the LDS
//! kernels with their workgroups of 128 work-items (four wave32 or two wave64 waves meeting at
//! `s_barrier`: the resumable modules, docs/dispatch.md).
//!
//! Without clang-19 and ld.lld-19 the tests say so and pass, except under CI, where
//! scripts/setup installs them and their absence fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use half::f16;

const N: u32 = 256;
const OUT_DWORDS: usize = 4 * N as usize + 32;

fn have_tools() -> bool {
    common::tools_or_skip(&["clang-19", "ld.lld-19"], "real_programs")
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

/// Compiles `file.cl` for gfx1030 with wave size `wave` at `-O{opt}` into `dir`.
fn compile(dir: &Path, file: &str, wave: u32, opt: u32) -> PathBuf {
    let out = dir.join(format!("{file}_w{wave}_O{opt}.co"));
    let mut c = Command::new("clang-19");
    c.args(["-x", "cl", "-cl-std=CL2.0", "-cl-kernel-arg-info"])
        .args([
            "-cl-fp32-correctly-rounded-divide-sqrt",
            "-ffp-contract=off",
        ])
        .args(["-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1030", "-nogpulib"])
        .arg(format!("-O{opt}"))
        .arg("--ld-path=/usr/bin/ld.lld-19")
        .arg(kernels_dir().join(format!("{file}.cl")))
        .arg("-o")
        .arg(&out);
    if wave == 64 {
        c.arg("-mwavefrontsize64");
    }
    let o = c.output().expect("runs clang-19");
    assert!(
        o.status.success(),
        "clang-19 {file}.cl: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// Seeded input dwords (splitmix64).
fn inputs(seed: u64) -> Vec<u32> {
    let mut s = seed;
    (0..N)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u32
        })
        .collect()
}

fn write_u32s(path: &Path, v: &[u32]) {
    let b: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(path, b).unwrap();
}

/// Runs `kernel` of `co` with `rdnaprobe dispatch` over `N` work-items; gives `out` after
/// the run, or what the command said.
fn dispatch(
    co: &Path,
    kernel: &str,
    block: u32,
    backend: &str,
    dir: &Path,
) -> Result<Vec<u32>, String> {
    dispatch_grid(co, kernel, [N, block], backend, dir)
}

/// [`dispatch`] over `grid` work-items in workgroups of `block`.
fn dispatch_grid(
    co: &Path,
    kernel: &str,
    [grid, block]: [u32; 2],
    backend: &str,
    dir: &Path,
) -> Result<Vec<u32>, String> {
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    write_u32s(&a, &inputs(1));
    write_u32s(&b, &inputs(2));
    let od = dir.join(format!(
        "{kernel}_{}",
        co.file_stem().unwrap().to_string_lossy()
    ));
    let o = common::command(["dispatch"])
        .arg(co)
        .args(["--kernel", kernel, "--grid", &grid.to_string()])
        .args(["--block", &block.to_string(), "--backend", backend])
        .args(["--arg", &format!("out=zeros:{}", 4 * OUT_DWORDS)])
        .arg("--arg")
        .arg(format!("a=file:{}", a.display()))
        .arg("--arg")
        .arg(format!("b=file:{}", b.display()))
        .args(["--arg", &format!("n={N}"), "-o"])
        .arg(&od)
        .output()
        .expect("runs rdnaprobe");
    if !o.status.success() {
        let e = String::from_utf8_lossy(&o.stderr);
        return Err(e.lines().next().unwrap_or_default().to_string());
    }
    Ok(std::fs::read(od.join("out.bin"))
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The kernels' references: out (OUT_DWORDS) from a, b, n and the wave size.
type Reference = fn(&[u32], &[u32], u32) -> Vec<u32>;

/// Per work-item reference writing `k` dwords at `k * i`.
fn each(k: usize, f: impl Fn(usize, u32, u32) -> Vec<u32>, a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = vec![0; OUT_DWORDS];
    for i in 0..N as usize {
        let v = f(i, a[i], b[i]);
        assert_eq!(v.len(), k);
        out[k * i..k * i + k].copy_from_slice(&v);
    }
    out
}

fn f32_of(x: u32) -> f32 {
    f32::from_bits((x & 0x807f_ffff) | ((((x >> 23) & 7) + 123) << 23))
}

fn f16_of(x: u32) -> f16 {
    f16::from_bits(((x & 0x83ff) | ((((x >> 10) & 7) + 12) << 10)) as u16)
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xedb8_8320 & 0u32.wrapping_sub(crc & 1));
        }
    }
    !crc
}

fn mix(x: u32, y: u32) -> u32 {
    (x ^ (y << 5)).wrapping_add((y >> 3).wrapping_mul(7))
}

/// Per workgroup of `size`: `f` of the group's items.
fn groups(size: usize, a: &[u32], f: impl Fn(&[u32]) -> Vec<u32>) -> Vec<Vec<u32>> {
    a.chunks(size).map(f).collect()
}

fn references() -> Vec<(&'static str, &'static str, bool, Reference)> {
    vec![
        ("integer", "mad_u32", false, |a, b, _| {
            each(
                1,
                |_, x, y| vec![x.wrapping_mul(2_654_435_761).wrapping_add(y ^ N)],
                a,
                b,
            )
        }),
        ("integer", "minmax", false, |a, b, _| {
            each(
                2,
                |_, x, y| {
                    let (sx, sy) = (x as i32, y as i32);
                    let s = y & 31;
                    vec![
                        (sx.min(sy) as u32) ^ x.max(y),
                        (sx >> s).wrapping_add((x >> s) as i32) as u32,
                    ]
                },
                a,
                b,
            )
        }),
        ("integer", "mul_hi24", false, |a, b, _| {
            each(
                2,
                |_, x, y| {
                    let (sx, sy) = (((x << 8) as i32) >> 8, ((y << 8) as i32) >> 8);
                    vec![
                        ((u64::from(x) * u64::from(y)) >> 32) as u32,
                        (sx as u32).wrapping_mul(sy as u32).wrapping_add(N),
                    ]
                },
                a,
                b,
            )
        }),
        ("integer", "sat_add", false, |a, b, _| {
            each(
                2,
                |_, x, y| {
                    let d = i64::from(x as i32) - i64::from(y as i32);
                    vec![
                        x.saturating_add(y),
                        d.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32,
                    ]
                },
                a,
                b,
            )
        }),
        ("wide", "mul64", false, |a, b, _| {
            each(
                4,
                |_, x, y| {
                    let p = (u64::from(x) * u64::from(y))
                        .wrapping_add(u64::from(x) << 32 | u64::from(y));
                    let q = p.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    vec![p as u32, (p >> 32) as u32, q as u32, (q >> 32) as u32]
                },
                a,
                b,
            )
        }),
        ("wide", "div32", false, |a, b, _| {
            each(
                4,
                |_, x, y| {
                    let d = (y >> (x & 15)) | 1;
                    let sd = (d as i32).wrapping_mul(if x & 1 != 0 { -1 } else { 1 });
                    vec![
                        x / d,
                        x % d,
                        (x as i32).wrapping_div(sd) as u32,
                        (x as i32).wrapping_rem(sd) as u32,
                    ]
                },
                a,
                b,
            )
        }),
        ("wide", "div64", false, |a, b, _| {
            each(
                4,
                |_, x, y| {
                    let v = u64::from(x) << 32 | u64::from(y);
                    let d = (u64::from(y) >> (x & 31)) | 1;
                    let (q, r) = (v / d, v % d);
                    vec![q as u32, (q >> 32) as u32, r as u32, (r >> 32) as u32]
                },
                a,
                b,
            )
        }),
        ("bits", "bitops", false, |a, b, _| {
            each(
                4,
                |_, x, y| {
                    let w = u64::from(x) << 32 | u64::from(y);
                    vec![
                        x.count_ones()
                            + ((x | 1).leading_zeros() << 8)
                            + ((y | 0x8000_0000).trailing_zeros() << 16),
                        x.rotate_left(y & 31) ^ y.reverse_bits(),
                        ((x >> (y & 7)) & 0xff) | (((x & !0x0f0f_0f0f) | (y & 0x0f0f_0f0f)) << 8),
                        (u64::from(w.count_ones() + (w | 1).leading_zeros()) + (w >> (x & 63)))
                            as u32,
                    ]
                },
                a,
                b,
            )
        }),
        ("bits", "crc32", false, |a, b, _| {
            each(
                1,
                |_, x, y| {
                    let mut bytes = x.to_le_bytes().to_vec();
                    bytes.extend(y.to_le_bytes());
                    vec![crc32(&bytes)]
                },
                a,
                b,
            )
        }),
        ("bits", "fnv1a", false, |a, b, _| {
            each(
                1,
                |i, x, _| {
                    let mut h = 2_166_136_261u32;
                    for k in 0..4 + (x & 7) as usize {
                        h ^= b[(i + k) % N as usize] >> (k & 3);
                        h = h.wrapping_mul(16_777_619);
                    }
                    vec![h]
                },
                a,
                b,
            )
        }),
        ("flow", "diverge", false, |a, b, _| {
            each(
                1,
                |_, x, y| {
                    let r = if x & 1 != 0 {
                        let r = x.wrapping_mul(3).wrapping_add(1);
                        if r & 2 != 0 {
                            r ^ y
                        } else {
                            r.wrapping_add(7)
                        }
                    } else if x & 2 != 0 {
                        (0..(y & 15)).fold(0u32, |r, k| r.wrapping_add(k.wrapping_mul(x)))
                    } else {
                        y >> 3
                    };
                    vec![r]
                },
                a,
                b,
            )
        }),
        ("flow", "collatz", false, |a, b, _| {
            each(
                1,
                |_, x, _| {
                    let (mut v, mut steps) = ((x & 0xfff) + 1, 0);
                    while v != 1 && steps < 300 {
                        v = if v & 1 != 0 { 3 * v + 1 } else { v >> 1 };
                        steps += 1;
                    }
                    vec![steps]
                },
                a,
                b,
            )
        }),
        ("flow", "calls", false, |a, b, _| {
            each(
                1,
                |i, x, _| vec![(0..3).fold(x, |h, k| mix(h, b[(i + k) % N as usize]))],
                a,
                b,
            )
        }),
        ("flow", "private_array", false, |a, b, _| {
            each(
                1,
                |i, _, y| {
                    let t: Vec<u32> = (0..16)
                        .map(|k| a[(i + k) % N as usize] ^ k as u32)
                        .collect();
                    vec![(0..8).fold(0u32, |s, k| {
                        s.wrapping_add(t[((y >> (4 * k)) & 15) as usize])
                    })]
                },
                a,
                b,
            )
        }),
        ("lds", "lds_reduce", true, |a, _, _| {
            let mut out = vec![0; OUT_DWORDS];
            for (g, s) in groups(128, a, |g| {
                vec![g.iter().fold(0u32, |s, &x| s.wrapping_add(x))]
            })
            .into_iter()
            .enumerate()
            {
                out[g] = s[0];
            }
            out
        }),
        ("lds", "lds_scan", true, |a, _, _| {
            let mut out = vec![0; OUT_DWORDS];
            let scans = groups(128, a, |g| {
                g.iter()
                    .scan(0u32, |s, &x| {
                        *s += x & 0xffff;
                        Some(*s)
                    })
                    .collect()
            });
            out[..N as usize].copy_from_slice(&scans.concat());
            out
        }),
        ("lds", "bitonic", true, |a, _, _| {
            let mut out = vec![0; OUT_DWORDS];
            let sorted = groups(128, a, |g| {
                let mut v = g.to_vec();
                v.sort_unstable();
                v
            });
            out[..N as usize].copy_from_slice(&sorted.concat());
            out
        }),
        ("lds", "atomics", true, |a, _, _| {
            let mut out = vec![0; OUT_DWORDS];
            for (i, &x) in a.iter().enumerate() {
                out[i] = x & 15;
                out[N as usize + (x & 15) as usize] += 1;
            }
            out[N as usize + 16] = a.iter().copied().max().unwrap();
            out[N as usize + 17] = N;
            out
        }),
        ("math", "f32_ops", false, |a, b, _| {
            each(
                4,
                |_, x, y| {
                    let (x, y) = (f32_of(x), f32_of(y));
                    vec![
                        (x * y + x).to_bits(),
                        (x / y).to_bits(),
                        x.abs().sqrt().to_bits(),
                        (x.mul_add(y, -x) - x.min(y)).to_bits(),
                    ]
                },
                a,
                b,
            )
        }),
        ("math", "f32_convert", false, |a, b, _| {
            each(
                4,
                |_, x, y| {
                    let x = f32_of(x) * 1000.0;
                    vec![
                        x as i32 as u32,
                        (y as i32 as f32).to_bits(),
                        (y as f32).to_bits(),
                        (x.floor() + (-x).ceil() + (x * 0.5).trunc()).to_bits(),
                    ]
                },
                a,
                b,
            )
        }),
        ("math", "f16_ops", false, |a, b, _| {
            each(
                2,
                |_, x, y| {
                    let (x, y) = (f16_of(x), f16_of(y));
                    let r = |v: f32| u32::from(f16::from_f32(v).to_bits());
                    let (fx, fy) = (x.to_f32(), y.to_f32());
                    vec![
                        r(fx + fy) | r(fx * fy) << 16,
                        r(fx - fy) | r(fx * 3.0) << 16,
                    ]
                },
                a,
                b,
            )
        }),
    ]
}

/// The cross-lane kernels' references depend on the wave size.
type WaveReference = Box<dyn Fn(&[u32]) -> Vec<u32>>;

fn wave_references(wave: usize) -> Vec<(&'static str, WaveReference)> {
    let shr = |v: &[u32], i: usize, by: usize| if i % 16 < by { 0 } else { v[i - by] };
    vec![
        (
            "dpp_shift",
            Box::new(move |a: &[u32]| {
                let mut out = vec![0; OUT_DWORDS];
                for i in 0..N as usize {
                    out[2 * i] = shr(a, i, 1);
                    out[2 * i + 1] = a[i ^ 3];
                }
                out
            }),
        ),
        (
            "wave_reduce",
            Box::new(move |a: &[u32]| {
                let mut v: Vec<u32> = a.iter().map(|x| x & 0xffff).collect();
                for by in [1, 2, 4, 8] {
                    let before = v.clone();
                    for (i, x) in v.iter_mut().enumerate() {
                        *x = x.wrapping_add(shr(&before, i, by));
                    }
                }
                let mut out = vec![0; OUT_DWORDS];
                for i in 0..N as usize {
                    let first = i - i % wave;
                    out[2 * i] = v[i];
                    out[2 * i + 1] = v[first + 15].wrapping_add(a[first]);
                }
                out
            }),
        ),
        (
            "ballot",
            Box::new(move |a: &[u32]| {
                let mut out = vec![0; OUT_DWORDS];
                for i in 0..N as usize {
                    let first = i - i % wave;
                    let m = (0..wave)
                        .filter(|l| a[first + l] & 1 != 0)
                        .fold(0u64, |m, l| m | 1 << l);
                    out[2 * i] = (m as u32) ^ (m >> 32) as u32;
                    out[2 * i + 1] = a[i ^ 1];
                }
                out
            }),
        ),
    ]
}

/// `None` when `got` is `want`, else what differs.
fn check(got: Result<Vec<u32>, String>, want: &[u32], what: &str) -> Option<String> {
    let got = match got {
        Ok(g) => g,
        Err(e) => return Some(format!("{what}: {e}")),
    };
    let bad: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
    bad.first().map(|&i| {
        format!(
            "{what}: {} of {} dwords differ, first at {i}: got {:#010x}, want {:#010x}",
            bad.len(),
            want.len(),
            got[i],
            want[i]
        )
    })
}

#[test]
fn every_kernel_is_bit_exact_on_cpu() {
    if !have_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (inputs(1), inputs(2));
    let mut ran = 0;
    let mut failed = Vec::new();
    for wave in [32u32, 64] {
        for opt in [0u32, 2] {
            let mut built = std::collections::HashMap::new();
            let mut co = |file: &'static str| {
                built
                    .entry(file)
                    .or_insert_with(|| compile(dir.path(), file, wave, opt))
                    .clone()
            };
            for (file, kernel, lds, reference) in references() {
                let block = if lds { 128 } else { 64 };
                let got = dispatch(&co(file), kernel, block, "cpu", dir.path());
                let what = format!("{kernel} w{wave} -O{opt}");
                failed.extend(check(got, &reference(&a, &b, wave), &what));
                ran += 1;
            }
            for (kernel, reference) in wave_references(wave as usize) {
                let got = dispatch(&co("wave"), kernel, 64, "cpu", dir.path());
                let what = format!("{kernel} w{wave} -O{opt}");
                failed.extend(check(got, &reference(&a), &what));
                ran += 1;
            }
        }
    }
    all_ran_and_equal(ran, 4 * 24, &failed);
}

/// lavapipe, one wave per workgroup: every kernel without LDS at `opt`, wave32 and wave64,
/// against the host references.
fn kernels_without_lds_on_lavapipe(opt: u32) {
    if !have_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (inputs(1), inputs(2));
    let mut failed = Vec::new();
    let mut ran = 0;
    for wave in [32u32, 64] {
        let mut built = std::collections::HashMap::new();
        let mut co = |file: &'static str| {
            built
                .entry(file)
                .or_insert_with(|| compile(dir.path(), file, wave, opt))
                .clone()
        };
        for (file, kernel, _, reference) in references().into_iter().filter(|r| !r.2) {
            let got = dispatch(&co(file), kernel, wave, "vulkan:lavapipe", dir.path());
            let what = format!("{kernel} w{wave} -O{opt} lavapipe");
            failed.extend(check(got, &reference(&a, &b, wave), &what));
            ran += 1;
        }
        for (kernel, reference) in wave_references(wave as usize) {
            let got = dispatch(&co("wave"), kernel, wave, "vulkan:lavapipe", dir.path());
            let what = format!("{kernel} w{wave} -O{opt} lavapipe");
            failed.extend(check(got, &reference(&a), &what));
            ran += 1;
        }
    }
    all_ran_and_equal(ran, 2 * 20, &failed);
}

/// lavapipe, workgroups of 128 work-items (four wave32 or two wave64 waves sharing the LDS
/// and meeting at barriers): the LDS kernels at `opt` against the host references.
fn lds_kernels_on_lavapipe(opt: u32) {
    if !have_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (inputs(1), inputs(2));
    let mut failed = Vec::new();
    let mut ran = 0;
    for wave in [32u32, 64] {
        let co = compile(dir.path(), "lds", wave, opt);
        for (_, kernel, _, reference) in references().into_iter().filter(|r| r.2) {
            let got = dispatch(&co, kernel, 128, "vulkan:lavapipe", dir.path());
            let what = format!("{kernel} w{wave} -O{opt} lavapipe, 128 work-items");
            failed.extend(check(got, &reference(&a, &b, wave), &what));
            ran += 1;
        }
    }
    all_ran_and_equal(ran, 2 * 4, &failed);
}

#[test]
fn lds_kernels_with_workgroups_of_several_waves_are_bit_exact_on_lavapipe_at_o2() {
    lds_kernels_on_lavapipe(2);
}

#[test]
fn lds_kernels_with_workgroups_of_several_waves_are_bit_exact_on_lavapipe_at_o0() {
    lds_kernels_on_lavapipe(0);
}

#[test]
fn kernels_without_lds_are_bit_exact_on_lavapipe_at_o2() {
    kernels_without_lds_on_lavapipe(2);
}

/// -O0 keeps every value in scratch and calls the id helpers indirectly; `collatz` runs
/// thousands of loop iterations per wave (lavapipe ends a shader's loops after 65535 in all).
#[test]
fn kernels_without_lds_are_bit_exact_on_lavapipe_at_o0() {
    kernels_without_lds_on_lavapipe(0);
}

/// A grid that ends in a partial wave: the last workgroup's EXEC is not every lane, so the
/// dispatch's waves do not share an EXEC and the lowering may not take it as known (it still
/// knows the private V#'s bits). -O0 code (every value spilled through the private segment)
/// and -O2 code, wave32 and wave64, on cpu and lavapipe: the first 200 work-items' results are
/// the host reference's, the rest of `out` stays zero.
#[test]
fn a_grid_that_ends_in_a_partial_wave_is_bit_exact() {
    if !have_tools() {
        return;
    }
    const GRID: u32 = 200;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (inputs(1), inputs(2));
    let mut failed = Vec::new();
    let mut ran = 0;
    for wave in [32u32, 64] {
        for opt in [0u32, 2] {
            let co = compile(dir.path(), "wide", wave, opt);
            for kernel in ["mul64", "div32"] {
                let mut want = references()
                    .into_iter()
                    .find(|r| r.1 == kernel)
                    .map(|r| (r.3)(&a, &b, wave))
                    .unwrap();
                // four dwords per work-item; the work-items past the grid write nothing
                want[4 * GRID as usize..].fill(0);
                for backend in ["cpu", "vulkan:lavapipe"] {
                    let got = dispatch_grid(&co, kernel, [GRID, 64], backend, dir.path());
                    let what = format!("{kernel} w{wave} -O{opt} {backend}, grid {GRID}");
                    failed.extend(check(got, &want, &what));
                    ran += 1;
                }
            }
        }
    }
    all_ran_and_equal(ran, 2 * 2 * 2 * 2, &failed);
}

/// The buffers after a dispatch are rows (`OUT/buffers.csv`, a replay output with its
/// manifest): the CPU model's and lavapipe's diff as exact, the rows against the host
/// reference, and one changed dword is found by `rdnaprobe diff` at its row and dword.
#[test]
fn dispatch_buffers_diff_as_rows_across_backends() {
    if !have_tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let co = compile(dir.path(), "integer", 32, 2);
    let (a, b) = (inputs(1), inputs(2));
    let want = references()
        .into_iter()
        .find(|r| r.1 == "mad_u32")
        .map(|r| (r.3)(&a, &b, 32))
        .unwrap();
    let mut rows = Vec::new();
    for backend in ["cpu", "vulkan:lavapipe"] {
        let got = dispatch(&co, "mad_u32", 64, backend, dir.path()).unwrap();
        assert_eq!(got, want, "{backend}");
        let od = dir.path().join(format!(
            "mad_u32_{}",
            co.file_stem().unwrap().to_string_lossy()
        ));
        let csv = dir
            .path()
            .join(format!("{}.csv", backend.replace(':', "_")));
        std::fs::copy(od.join("buffers.csv"), &csv).unwrap();
        assert!(od.join("buffers.manifest.json").exists());
        rows.push(csv);
    }
    let text = std::fs::read_to_string(&rows[0]).unwrap();
    // out: OUT_DWORDS dwords; a and b: N dwords each, 16 to a row
    let expected_rows = OUT_DWORDS.div_ceil(16) + 2 * (N as usize).div_ceil(16);
    assert_eq!(text.lines().count(), 1 + expected_rows);
    // row 3 of `out` holds dwords 48..64 of the reference, in its out0..out15 cells
    let line = text.lines().nth(4).unwrap();
    assert!(
        line.starts_with("dispatch mad_u32 out[48..64],n/a,32,"),
        "{line}"
    );
    assert!(line.contains(&format!("0x{:08x}", want[48])), "{line}");

    let (r, c) = (rows[0].to_str().unwrap(), rows[1].to_str().unwrap());
    let same = common::rdnaprobe(["diff", r, c, "--format", "csv"]);
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        common::text(&same.stderr)
    );
    // one dword of lavapipe's rows changed: diff finds that row and dword
    let lvp = std::fs::read_to_string(c).unwrap();
    let old = format!("0x{:08x}", want[50]);
    let changed = lvp.replacen(&old, &format!("0x{:08x}", want[50] ^ 1), 1);
    assert_ne!(changed, lvp);
    let bad = dir.path().join("changed.csv");
    std::fs::write(&bad, changed).unwrap();
    let diff = common::rdnaprobe(["diff", r, bad.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(
        diff.status.code(),
        Some(1),
        "{}",
        common::text(&diff.stderr)
    );
    let out = common::text(&diff.stdout);
    let wrong: Vec<&str> = out.lines().filter(|l| l.contains(",wrong,")).collect();
    assert_eq!(wrong.len(), 1, "{out}");
    assert!(
        wrong[0].starts_with("dispatch mad_u32 out[48..64]"),
        "{}",
        wrong[0]
    );
    assert!(wrong[0].contains("out2"), "{}", wrong[0]);
}

/// Every dispatch ran (`ran` of `expected`) and none differed from its reference.
fn all_ran_and_equal(ran: usize, expected: usize, failed: &[String]) {
    assert_eq!(ran, expected);
    assert!(
        failed.is_empty(),
        "{} of {ran} differ:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// clang-19's code for the corpus (every kernel file, wave32 and wave64, -O0 and -O2) is real
/// gfx10.3 code from outside the project: every distinct instruction decodes as llvm-mc-19
/// prints it, and the printed text assembles in llvm-mc-19 to the same words (or to
/// llvm-mc-19's own words for them).
#[test]
fn clang_code_decodes_and_round_trips_through_llvm_mc() {
    use rdnaprobe_isa::difftest::{self, llvm_round_trip, Outcome, RoundTrip};
    use rdnaprobe_isa::{decode_stream, Decoded, Wave};
    if !have_tools() || !difftest::llvm_mc_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failed = Vec::new();
    let (mut distinct_total, mut same, mut llvm_own) = (0, 0, 0);
    for wave in [32u32, 64] {
        let w = if wave == 64 { Wave::W64 } else { Wave::W32 };
        let mut distinct = std::collections::BTreeSet::new();
        for file in ["bits", "flow", "integer", "lds", "math", "wave", "wide"] {
            for opt in [0u32, 2] {
                let co = compile(dir.path(), file, wave, opt);
                let image = std::fs::read(&co).unwrap();
                let code = rdnaprobe_oracle::elf::CodeObject::parse(&image).unwrap();
                let meta = rdnaprobe_oracle::metadata::Metadata::of(&code).unwrap();
                let sym = code.symbol(&meta.kernels[0].name).unwrap();
                let (_, text) = code.section_of(&sym).unwrap();
                let words: Vec<u32> = text
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let body = decode_stream(&words).expect("clang's .text decodes");
                let mut at = 0;
                for d in &body {
                    let Decoded::Inst(i) = d else {
                        panic!("{file} w{wave} -O{opt}: the decoder refuses {d:?}");
                    };
                    // s_code_end pads .text; it is also the marker of difftest's llvm-mc
                    // streams, so the golden files check it instead.
                    if i.info().op() != rdnaprobe_isa::Opcode::s_code_end {
                        distinct.insert(words[at..at + i.len()].to_vec());
                    }
                    at += i.len();
                }
            }
        }
        let streams: Vec<Vec<u32>> = distinct.into_iter().collect();
        distinct_total += streams.len();
        for (s, o) in streams.iter().zip(difftest::compare(&streams, w).unwrap()) {
            if o != Outcome::Agree {
                failed.push(format!("wave{wave} {s:08x?}: {o:?}"));
            }
        }
        for (s, t) in streams.iter().zip(llvm_round_trip(&streams, w).unwrap()) {
            match t {
                RoundTrip::SameWords => same += 1,
                RoundTrip::LlvmWords | RoundTrip::LlvmText => llvm_own += 1,
                other => failed.push(format!("wave{wave} round trip {s:08x?}: {other:?}")),
            }
        }
    }
    eprintln!(
        "clang-19's corpus code: {distinct_total} distinct instructions (wave32 and wave64 \
         counted apart); round trip: {same} same words, {llvm_own} llvm-mc-19's own words"
    );
    assert!(distinct_total > 1000, "{distinct_total}");
    assert!(
        failed.is_empty(),
        "{} failed, first:\n{}",
        failed.len(),
        failed
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
