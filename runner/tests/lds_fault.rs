//! A 64-bit LDS atomic at an address that is 4- but not 8-byte aligned faults the wave on
//! RDNA2 (the reference notes' "64-bit LDS atomics" entry): every row of the wave is an
//! error naming the fault, on `cpu` and on `vulkan:lavapipe`, and an aligned one is not.

mod common;

use rdnaprobe_dataset::read_dataset;

fn wave_csv(offset: u32) -> String {
    let mut text = format!(
        "{},wave_id,lane,lds_bytes\n",
        rdnaprobe_dataset::V1_COLUMNS.join(",")
    );
    // v_mov_b32 v7, 0; ds_add_rtn_u64 v[10:11], v7, v[4:5] offset:N
    for lane in 0..2 {
        text += &format!(
            "\"ds_add_rtn_u64 offset:{offset}\",0x7e0e0280 0xd980{offset:04x} 0x0a000407,32,,,,,,,,{},{},gfx1030,,,w,{lane},{}\n",
            ["0x1"; 6].join(","),
            [""; 16].join(","),
            if lane == 0 { "64" } else { "" }
        );
    }
    text
}

#[test]
fn a_misaligned_64bit_lds_atomic_faults_the_wave_on_every_backend() {
    let dir = common::scratch_dir("lds-fault");
    let backends = common::cpu_and_lavapipe();
    for (offset, fault) in [(4, true), (8, false)] {
        let input = dir.join(format!("fault{offset}.csv"));
        std::fs::write(&input, wave_csv(offset)).unwrap();
        for backend in &backends {
            let out = dir.join(format!("{offset}-{}.csv", backend.replace(':', "-")));
            let o = common::command(["replay", "-b", backend, "-o"])
                .arg(&out)
                .arg(&input)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", common::stderr(&o));
            let got = read_dataset(&out).unwrap();
            for (lane, row) in got.rows.iter().enumerate() {
                if fault {
                    assert_eq!(
                        row.extra[1],
                        format!("error: {}", rdnaprobe_recompiler::wave::LDS_FAULT),
                        "{backend}"
                    );
                } else {
                    assert_eq!(row.extra[1], "ok", "{backend}");
                    // in0 = in1 = 1: lane 1 sees lane 0's addend
                    let old = lane as u32;
                    assert_eq!(row.outputs[0], Some(old), "{backend}: the old value");
                }
            }
        }
    }
}
