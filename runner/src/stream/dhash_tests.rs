//! The device block hash on lavapipe against [`block_dhash`] over the same outputs: rows that
//! cross row 2^32 (the 64-bit position key's carry), a partial last block, blocks whose
//! expected hash is wrong (their rows come back, the others' do not) and the flip hook.
//! Without lavapipe the test is skipped with a message, unless `CI=true`.

use rdnaprobe_isa::{Target, Wave};
use rdnaprobe_recompiler::spirv::{emit_with, InputSource, Interface};

use super::check::lower_all;
use super::dhash::block_dhash;
use super::digest::DIGEST_ROWS;
use super::layout::OutputLayout;
use super::spec::{self, Inputs};
use super::Plan;
use crate::vulkan::{DeviceSelector, Executor};

/// `v_add_f32 v10, v4, v5` (VOP2).
const ADD_F32: u32 = 0x0614_0b04;

#[test]
fn device_hash_matches_the_host_function() {
    let inputs = [
        "in0=range:0x00000000:0xffffffff".to_string(),
        "in1=range:0x3f800000:0x3f800001".to_string(),
    ];
    let plan = Plan {
        instruction: String::new(),
        words: vec![ADD_F32],
        inputs: Inputs::parse(&inputs).unwrap(),
        modes: spec::parse_modes("denorm=3").unwrap(),
        wave: Wave::W32,
        gfx: Target::Gfx1030,
        chunk_rows: 1 << 16,
        max_mismatches: 0,
        ulp_k: 4,
    };
    let mut exec = match Executor::open(&DeviceSelector::parse(Some("lavapipe")).unwrap()) {
        Ok(e) => e,
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("lavapipe must be present under CI=true: {e:#}")
        }
        Err(e) => {
            eprintln!("skipping: lavapipe unavailable: {e:#}");
            return;
        }
    };
    let kernels = lower_all(&plan).unwrap();
    let layout = OutputLayout::of(&kernels);
    let iface = Interface {
        inputs: InputSource::Generated(plan.inputs.ranges()),
        outputs: layout.mask(),
    };
    let words = emit_with(&kernels[0], plan.wave, &exec.spirv_options(), &iface).unwrap();
    let pipe = exec.pipeline(&words, plan.wave).unwrap();
    let stride = iface.output_stride();
    // Five blocks from 8,192 rows below 2^32, the last one 100 rows long.
    let base = (1u64 << 32) - 2 * DIGEST_ROWS as u64;
    let rows = 4 * DIGEST_ROWS + 100;
    let plain = exec.run_generated(pipe, base, rows, stride).unwrap();
    let mut unpacked = vec![];
    layout.unpack(0, &plain, &mut unpacked);
    for flip in [None, Some(3u64)] {
        let mut outs = unpacked.clone();
        if let Some(k) = flip {
            for (i, o) in outs.iter_mut().enumerate() {
                if (base + i as u64) % k == 0 {
                    o[0] ^= 1;
                }
            }
        }
        let want: Vec<u64> = outs
            .chunks(DIGEST_ROWS)
            .enumerate()
            .map(|(b, o)| block_dhash(o, &layout.live, base + (b * DIGEST_ROWS) as u64))
            .collect();
        assert_eq!(want.len(), 5);
        // Blocks 1 and 3 are expected with a wrong hash.
        let expected: Vec<u64> = want
            .iter()
            .enumerate()
            .map(|(b, &h)| if b % 2 == 1 { h ^ 1 } else { h })
            .collect();
        let hash = exec.hash_pipeline(&layout.live, rows, flip).unwrap();
        let run = exec
            .run_generated_hashed(pipe, hash, base, rows, stride, &expected)
            .unwrap();
        assert_eq!(run.hashes, want, "flip {flip:?}");
        assert_eq!(run.differ, [false, true, false, true, false]);
        let block_words = DIGEST_ROWS * stride;
        for (b, (got, all)) in run
            .outputs
            .chunks(block_words)
            .zip(plain.chunks(block_words))
            .enumerate()
        {
            if b % 2 == 1 {
                assert_eq!(got, all, "block {b}");
            } else {
                assert!(got.iter().all(|&w| w == 0), "block {b} was read back");
            }
        }
        assert_eq!(run.bytes_read, 5 * 8 + 2 * block_words as u64 * 4);
    }
}
