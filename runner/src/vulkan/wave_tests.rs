//! The wave contract's two executors agree bit for bit: random kernels extended with ballots,
//! cross-lane reads and uniform inputs and outputs
//! and lane-ordered LDS operations (`rdnaprobe_recompiler::spirv::arbitrary::with_cross_lane`)
//! run as whole waves through the
//! CPU model (`wave::run_wave`) and through the wave module on lavapipe (one workgroup per
//! wave), wave32 and wave64, with partial EXEC masks. Without lavapipe it skips (fails under
//! `CI=true`).

use rdnaprobe_isa::Wave;
use rdnaprobe_recompiler::spirv::arbitrary::{random_kernel, with_cross_lane, GenOptions, Rng};
use rdnaprobe_recompiler::spirv::emit_wave;
use rdnaprobe_recompiler::wave::{run_wave, WaveInput};

use super::tests::lavapipe;
use super::WaveJob;
use crate::backend::wave::{module_inputs, module_outputs};

#[test]
fn cpu_wave_model_and_lavapipe_agree_on_random_cross_lane_kernels() {
    let Some(mut exec) = lavapipe() else { return };
    // The classes where lavapipe's values deviate from IEEE 754 stay off, as in `eval_tests`.
    let opts = GenOptions {
        ops: 40,
        wide: true,
        approximate: false,
        div_sqrt: false,
        fma: false,
        canonical_nan: false,
        float_consts: false,
        round_f64: false,
    };
    let mut rng = Rng::new(7);
    let mut compared = 0usize;
    for seed in 0..10u64 {
        let wave = if seed % 2 == 0 { Wave::W32 } else { Wave::W64 };
        let k = with_cross_lane(random_kernel(seed, &opts), seed);
        // 32 dwords of LDS: addresses up to 127 + 3 cover in-range, unaligned and past-the-end
        let spv = emit_wave(&k, wave, 32, &exec.spirv_options()).expect("emits");
        let pipe = exec.wave_pipeline(&spv).expect("pipeline");
        let n = wave.lanes() as usize;
        let waves: Vec<WaveInput> = (0..5)
            .map(|_| WaveInput {
                lanes: (0..n)
                    .map(|_| {
                        std::array::from_fn(|_| rng.below(3).min(1) as u32 * rng.next_u64() as u32)
                    })
                    .collect(),
                sgprs: std::array::from_fn(|_| rng.next_u64() as u32),
                exec: rng.next_u64() & if n == 32 { 0xffff_ffff } else { u64::MAX },
                lds: (0..32).map(|_| rng.next_u64() as u32).collect(),
            })
            .collect();
        let words: Vec<Vec<u32>> = waves.iter().map(module_inputs).collect();
        let out = exec
            .run_waves(&[WaveJob {
                pipeline: pipe,
                wave,
                lds_dwords: 32,
                waves: &words,
            }])
            .expect("runs");
        for (w, got) in waves.iter().zip(&out[0]) {
            let want = run_wave(&k, w);
            let (lanes, uni, lds) = module_outputs(got, n).expect("status 0");
            assert_eq!(lds, want.lds);
            assert_eq!(lanes, want.lanes, "seed {seed}: lane outputs");
            assert_eq!(Some(uni), want.uniform, "seed {seed}: uniform outputs");
            compared += 1;
        }
    }
    assert_eq!(compared, 50);
}
