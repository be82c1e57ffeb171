//! The LDS bodies of datasets/wave/lds.csv (every DS form the wave contract lowers) emit wave
//! modules that pass `spirv-val --target-env vulkan1.1`, with the fixture's 128-dword LDS,
//! with one dword (too small for an 8-byte access) and with none.
//! spirv-val comes from spirv-tools; under `CI=true` a missing spirv-val fails the test.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use rdnaprobe_isa::{Target, Wave};
use rdnaprobe_recompiler::lower_wave_words;
use rdnaprobe_recompiler::spirv::{emit_wave, SpirvOptions};

use common::spirv_val::spirv_val;

#[test]
fn lds_fixture_bodies_emit_valid_modules() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/wave/lds.csv");
    let data = rdnaprobe_dataset::read_dataset(&path).expect("lds.csv reads");
    let mut bodies = BTreeSet::new();
    for row in &data.rows {
        let mode = row.float_mode();
        let key = (row.encoding.clone(), row.wave, format!("{mode:?}"));
        if !bodies.insert(key) {
            continue;
        }
        let wave = if row.wave == Some(64) {
            Wave::W64
        } else {
            Wave::W32
        };
        let k = lower_wave_words(&row.encoding, mode, wave, Target::Gfx1030)
            .unwrap_or_else(|e| panic!("{}: {e}", row.instruction));
        for lds in [128, 1, 0] {
            let spv = emit_wave(&k, wave, lds, &SpirvOptions::DESKTOP).expect("emits");
            let what = format!("`{}` ({wave:?}, {lds} LDS dwords)", row.instruction);
            if !spirv_val(&spv, &what).unwrap() {
                return;
            }
        }
    }
    assert!(bodies.len() >= 20, "{} distinct bodies", bodies.len());
}
