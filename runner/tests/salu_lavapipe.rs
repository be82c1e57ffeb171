//! Every SOP1/SOP2/SOPC/SOPK opcode the recompiler lowers gives the same bits on lavapipe as on
//! the CPU model, in wave32 and wave64, and its SPIR-V passes spirv-val. SALU inputs cannot come
//! from VGPRs under the lane contract, so each case moves seeded random literals (special values
//! and random bits) into s0..s3, sets SCC, runs the op and moves the result and SCC into VGPRs;
//! a body holds five cases. The opcodes come from the instruction table (every lowered SALU
//! row), so a newly lowered opcode is tested without a list to update. The seed and the counts
//! are printed. Without lavapipe the test is skipped with a message, unless `CI=true`.

mod common;

use std::fmt::Write as _;

use rdnaprobe_dataset::read_dataset;
use rdnaprobe_isa::difftest::Rng;
use rdnaprobe_isa::{assemble, table, Family, FloatMode, OpInfo, Target, Wave};
use rdnaprobe_recompiler::spirv::{emit, SpirvOptions};
use rdnaprobe_recompiler::{is_lowered, lower_words};

use common::spirv_val::spirv_val;

const SEED: u64 = 0x5a10_0012;
const CASES_PER_OP: usize = 6;
const CASES_PER_BODY: usize = 5;

/// A random operand value: an edge value or random bits.
fn value(rng: &mut Rng) -> u32 {
    const EDGES: [u32; 12] = [
        0,
        1,
        2,
        31,
        32,
        63,
        64,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0xffff_fffe,
        0x0010_0004,
    ];
    if rng.below(3) == 0 {
        EDGES[rng.below(EDGES.len())]
    } else {
        rng.next_u32()
    }
}

/// Scalar register text of `dwords` registers from `s{first}`.
fn sreg(first: u32, dwords: u8) -> String {
    if dwords == 2 {
        format!("s[{first}:{}]", first + 1)
    } else {
        format!("s{first}")
    }
}

/// One case of `row`: literal setup, SCC, the op, and moves of the result (s4, s5) and SCC
/// into v{out}..; returns the text and the number of output dwords it uses.
fn case(row: &OpInfo, rng: &mut Rng, out: u32) -> Option<(String, u32)> {
    let m = row.mnemonic;
    let mut t = String::new();
    for r in 0..4 {
        let _ = writeln!(t, "s_mov_b32 s{r}, {:#x}", value(rng));
    }
    let _ = writeln!(t, "s_cmp_eq_u32 0, {}", rng.below(2));
    let ddw = row.dsts.first().map_or(0, |d| d.dwords);
    let sdw = |i: usize| row.srcs.get(i).map_or(1, |s| s.dwords);
    let op = match row.family {
        Family::SOP2 => format!(
            "{m} {}, {}, {}",
            sreg(4, ddw),
            sreg(0, sdw(0)),
            sreg(2, sdw(1))
        ),
        Family::SOPC => format!("{m} {}, {}", sreg(0, sdw(0)), sreg(2, sdw(1))),
        Family::SOP1 => {
            if m.starts_with("s_movrel") {
                let _ = writeln!(t, "s_mov_b32 m0, {}", rng.below(3));
            }
            format!("{m} {}, {}", sreg(4, ddw), sreg(0, sdw(0)))
        }
        Family::SOPK => match m {
            "s_getreg_b32" => "s_getreg_b32 s4, hwreg(1, 0, 32)".into(),
            "s_setreg_b32" => {
                let _ = writeln!(t, "s_mov_b32 s0, {:#x}", value(rng) & 0x3ff);
                "s_setreg_b32 hwreg(1, 0, 10), s0\ns_getreg_b32 s4, hwreg(1, 0, 32)".into()
            }
            "s_setreg_imm32_b32" => format!(
                "s_setreg_imm32_b32 hwreg(1, 0, 8), {:#x}\ns_getreg_b32 s4, hwreg(1, 0, 32)",
                value(rng) & 0xff
            ),
            _ if m.starts_with("s_waitcnt_") || m == "s_version" => return None,
            _ => format!("{m} s4, {:#x}", value(rng) & 0xffff),
        },
        _ => return None,
    };
    let _ = writeln!(t, "{op}");
    if m.contains("exec") {
        let _ = writeln!(t, "s_mov_b64 exec, -1");
    }
    let mut n = 0;
    if row.family != Family::SOPC {
        for i in 0..ddw.max(1) {
            let _ = writeln!(t, "v_mov_b32 v{}, s{}", out + n, 4 + u32::from(i));
            n += 1;
        }
    }
    let _ = writeln!(t, "s_cselect_b32 s6, 1, 0\nv_mov_b32 v{}, s6", out + n);
    Some((t, n + 1))
}

/// The bodies: every lowered SALU opcode, `CASES_PER_OP` cases each, in table order, packed
/// `CASES_PER_BODY` to a body.
fn bodies(rng: &mut Rng) -> (Vec<String>, usize) {
    let mut cases: Vec<&OpInfo> = Vec::new();
    let mut ops = 0;
    for row in &table().rows {
        let salu = matches!(
            row.family,
            Family::SOP1 | Family::SOP2 | Family::SOPC | Family::SOPK
        );
        // case() is None for the rows without a result to compare (waits, s_version); the
        // program-counter ops (s_getpc/s_setpc/s_swappc/s_call_b64) need the wave contract's
        // code address and are tested as waves (spirv_wave, datasets/notes/wave_notes.csv)
        let pc = row.mnemonic.contains("pc_b64") || row.mnemonic == "s_call_b64";
        if salu && !pc && is_lowered(row.op(), Target::Gfx1030) && case(row, rng, 0).is_some() {
            cases.extend(std::iter::repeat_n(row, CASES_PER_OP));
            ops += 1;
        }
    }
    let mut out = Vec::new();
    for chunk in cases.chunks(CASES_PER_BODY) {
        let mut body = String::new();
        let mut next = 0;
        for row in chunk {
            let (t, n) = case(row, rng, 10 + next).expect("case");
            body.push_str(&t);
            next += n;
        }
        assert!(next <= 16, "{body}");
        out.push(body);
    }
    (out, ops)
}

#[test]
fn salu_ops_agree_on_lavapipe_and_pass_spirv_val() {
    let mut rng = Rng(SEED);
    let (bodies, ops) = bodies(&mut rng);
    eprintln!(
        "seed {SEED:#x}: {ops} SALU opcodes, {} bodies of {CASES_PER_BODY} cases",
        bodies.len()
    );
    assert!(ops >= 149, "only {ops} SALU opcodes lowered");
    let mut csv = String::from(
        "instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,\
         fp16_overflow,in0,in1,in2,in3,in4,in5,out0,out1,out2,out3,out4,out5,out6,out7,out8,\
         out9,out10,out11,out12,out13,out14,out15,gfx,source,note\n",
    );
    let mut validated = 0;
    for body in &bodies {
        let words = assemble(body).unwrap_or_else(|e| panic!("{body}: {e:?}"));
        let enc: Vec<String> = words.iter().map(|w| format!("{w:#010x}")).collect();
        for wave in [Wave::W32, Wave::W64] {
            let k = lower_words(&words, FloatMode::DEFAULT, wave, Target::Gfx1030)
                .unwrap_or_else(|e| panic!("{body}: {e}"));
            let spv = emit(&k, wave, &SpirvOptions::DESKTOP).expect("emits");
            if spirv_val(&spv, body).unwrap_or_else(|e| panic!("{e}")) {
                validated += 1;
            }
            for lane in 0..2 {
                let _ = writeln!(
                    csv,
                    "\"{}\",{},{},,,,,,,,{lane:#010x},{z},{z},{z},{z},{z},{},gfx1030,salu test,",
                    body.replace('\n', "; "),
                    enc.join(" "),
                    if wave == Wave::W64 { 64 } else { 32 },
                    ",".repeat(15),
                    z = "0x00000000",
                );
            }
        }
    }
    eprintln!("spirv-val passed {validated} modules");
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let dir = common::scratch_dir("salu-lavapipe");
    let input = dir.join("salu.csv");
    std::fs::write(&input, csv).unwrap();
    let replay = |backend: &str, name: &str| {
        let out = dir.join(name);
        let o = common::command(["replay"])
            .arg(&input)
            .args(["--backend", backend, "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{backend}: {}", common::stderr(&o));
        read_dataset(&out).unwrap().rows
    };
    let started = std::time::Instant::now();
    let cpu = replay("cpu", "cpu.csv");
    let lvp = replay("vulkan:lavapipe", "lavapipe.csv");
    eprintln!(
        "{} rows replayed on cpu and lavapipe in {:.1} s",
        cpu.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(cpu.len(), bodies.len() * 4);
    assert_eq!(cpu.len(), lvp.len());
    let mut differ = Vec::new();
    for (c, v) in cpu.iter().zip(&lvp) {
        assert_eq!(
            c.extra.get(1).map(String::as_str),
            Some("ok"),
            "{}",
            c.instruction
        );
        if c.outputs != v.outputs || c.extra.get(1) != v.extra.get(1) {
            differ.push(format!(
                "{} (wave{:?}): cpu {:08x?}, lavapipe {:08x?} {:?}",
                c.instruction,
                c.wave,
                c.outputs,
                v.outputs,
                v.extra.get(1)
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
