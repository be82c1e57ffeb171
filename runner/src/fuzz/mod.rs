//! The differential VALU fuzzer: random bodies of lowered VALU instructions (see `body`), run
//! on the CPU model and on a candidate backend with random inputs biased to special values
//! ([`crate::specials`]) in random float modes (see `values`). Every row whose outputs or status differ is a
//! mismatch, reported as a one-line `rdnaprobe exhaustive` command that reruns exactly that
//! row. Generation is seeded (ChaCha8): the same seed and sizes give the same rows.
//!
//! `fuzz --images N` draws random image sweep specs instead ([`image`]) and compares their
//! wave rows, outputs and memory region after the body ([`image_run`]).

pub mod body;
pub mod image;
pub mod image_run;
pub mod values;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rdnaprobe_dataset::{ModeCells, Row};
use rdnaprobe_isa::Wave;

use crate::backend::{Backend, RowResult};

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub seed: u64,
    pub rows: usize,
    /// Rows that share one body and one float mode (one kernel on a GPU backend).
    pub rows_per_body: usize,
    /// Instructions per body: 1..=max_len.
    pub max_len: usize,
}

/// The generated rows and how they were drawn.
pub struct Generated {
    pub rows: Vec<Row>,
    pub bodies: usize,
    /// The opcodes drawn.
    pub opcodes: std::collections::HashSet<rdnaprobe_isa::Opcode>,
    /// Drawn instances the assembler or the lowering refused (retried).
    pub refused: usize,
    /// Opcodes the fuzzer could draw from.
    pub templates: usize,
}

/// The mode cells as `rdnaprobe exhaustive --modes` spells them.
pub fn modes_arg(m: &ModeCells) -> String {
    let f = |v: Option<u8>| v.unwrap_or(0);
    format!(
        "ieee={},dx10_clamp={},denorm32={},denorm16={},round32={},round16={},fp16_overflow={}",
        f(m.ieee),
        f(m.dx10_clamp),
        f(m.denorm32),
        f(m.denorm16),
        f(m.round32),
        f(m.round16),
        f(m.fp16_overflow)
    )
}

/// Generates `cfg.rows` rows.
pub fn generate(cfg: &Config) -> Generated {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let templates = body::templates();
    let mut rows = Vec::with_capacity(cfg.rows);
    let mut used = std::collections::HashSet::new();
    let (mut bodies, mut refused) = (0, 0);
    while rows.len() < cfg.rows {
        let cells = values::mode(&mut rng);
        let mode = cells.resolve();
        let wave = if rng.gen_bool(0.25) {
            Wave::W64
        } else {
            Wave::W32
        };
        let len = rng.gen_range(1..=cfg.max_len.max(1));
        let mut words = Vec::new();
        let mut texts = Vec::new();
        while texts.len() < len {
            let t = &templates[rng.gen_range(0..templates.len())];
            let text = body::instance(t, &mut rng, !texts.is_empty());
            match body::accept(&text, mode, wave) {
                Some(w) => {
                    used.insert(t.row.op());
                    words.extend(w);
                    texts.push(text);
                }
                None => refused += 1,
            }
        }
        bodies += 1;
        let n = cfg.rows_per_body.max(1).min(cfg.rows - rows.len());
        for _ in 0..n {
            rows.push(Row {
                instruction: texts.join(" ; "),
                encoding: words.clone(),
                wave: Some(if wave == Wave::W64 { 64 } else { 32 }),
                mode: cells,
                inputs: crate::specials::inputs(&mut rng),
                outputs: [None; 16],
                gfx: body::GFX.to_string(),
                source: format!("rdnaprobe fuzz --seed {}", cfg.seed),
                note: String::new(),
                extra: Vec::new(),
            });
        }
    }
    Generated {
        rows,
        bodies,
        opcodes: used,
        refused,
        templates: templates
            .iter()
            .map(|t| t.row.op())
            .collect::<std::collections::HashSet<_>>()
            .len(),
    }
}

/// One row where the backends disagree.
pub struct Mismatch {
    pub index: usize,
    pub repro: String,
    pub detail: String,
}

/// The one-line command that reruns row `row` on `backend` against the CPU model.
pub fn repro(row: &Row, backend: &str) -> String {
    let words: Vec<String> = row.encoding.iter().map(|w| format!("0x{w:08x}")).collect();
    let inputs: Vec<String> = row
        .inputs
        .iter()
        .enumerate()
        .map(|(i, v)| format!("--input in{i}=const:0x{v:08x}"))
        .collect();
    format!(
        "rdnaprobe exhaustive --words '{}' --wave {} --gfx {} --modes {} {} --backend {backend} --reference cpu -o /tmp/rdnaprobe-repro",
        words.join(" "),
        row.wave.unwrap_or(32),
        row.gfx,
        modes_arg(&row.mode),
        inputs.join(" "),
    )
}

/// A row result as a mismatch report shows it: the status, then out0..out15 in hex.
pub(super) fn describe(r: &RowResult) -> String {
    let outs: Vec<String> = r
        .outputs
        .iter()
        .map(|o| o.map_or("-".into(), |v| format!("{v:08x}")))
        .collect();
    format!("{} [{}]", r.status, outs.join(" "))
}

/// Runs `rows` on the CPU model and on `candidate` and lists the rows that differ.
pub fn compare(
    rows: &[Row],
    cpu: &mut dyn Backend,
    candidate: &mut dyn Backend,
    backend: &str,
) -> Vec<Mismatch> {
    let want = cpu.run(rows);
    let got = candidate.run(rows);
    let mut out = Vec::new();
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        if w != g {
            out.push(Mismatch {
                index: i,
                repro: repro(&rows[i], backend),
                detail: format!(
                    "{}: cpu {} vs {backend} {}",
                    rows[i].instruction,
                    describe(w),
                    describe(g)
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_seeded_and_draws_many_opcodes() {
        let cfg = Config {
            seed: 7,
            rows: 4000,
            rows_per_body: 4,
            max_len: 3,
        };
        let a = generate(&cfg);
        let b = generate(&cfg);
        assert_eq!(a.rows.len(), 4000);
        assert_eq!(a.bodies, 1000);
        let ta: Vec<_> = a.rows.iter().map(|r| (&r.encoding, r.inputs)).collect();
        let tb: Vec<_> = b.rows.iter().map(|r| (&r.encoding, r.inputs)).collect();
        assert_eq!(ta, tb, "the same seed gives the same rows");
        assert!(a.templates > 400, "only {} opcodes", a.templates);
        assert!(
            a.opcodes.len() > 300,
            "only {} opcodes drawn",
            a.opcodes.len()
        );
        let c = generate(&Config { seed: 8, ..cfg });
        assert_ne!(c.rows[0].encoding, a.rows[0].encoding);
    }

    #[test]
    fn the_repro_names_words_mode_and_inputs_in_hex() {
        let g = generate(&Config {
            seed: 1,
            rows: 1,
            rows_per_body: 1,
            max_len: 1,
        });
        let r = repro(&g.rows[0], "vulkan:lavapipe");
        assert!(!r.contains('\n'));
        assert!(r.contains(&format!("0x{:08x}", g.rows[0].encoding[0])));
        assert!(r.contains(&format!("in5=const:0x{:08x}", g.rows[0].inputs[5])));
        assert!(r.contains("round16="));
    }

    #[test]
    fn the_cpu_model_agrees_with_itself() {
        let g = generate(&Config {
            seed: 3,
            rows: 300,
            rows_per_body: 3,
            max_len: 4,
        });
        let mut a = crate::backend::cpu::CpuBackend::new();
        let mut b = crate::backend::cpu::CpuBackend::new();
        let m = compare(&g.rows, &mut a, &mut b, "cpu");
        assert!(m.is_empty());
        // every generated row runs
        let res = a.run(&g.rows);
        assert!(res.iter().all(|r| r.status.is_ok()));
    }

    /// The CPU model with bit 0 of out0 flipped on every third row.
    struct Flip(crate::backend::cpu::CpuBackend);

    impl Backend for Flip {
        fn producer(&self) -> crate::backend::Producer {
            self.0.producer()
        }
        fn run(&mut self, rows: &[Row]) -> Vec<RowResult> {
            let mut r = self.0.run(rows);
            for x in r.iter_mut().step_by(3) {
                x.outputs[0] = x.outputs[0].map(|v| v ^ 1);
            }
            r
        }
    }

    #[test]
    fn a_differing_row_is_reported_with_its_repro() {
        let g = generate(&Config {
            seed: 11,
            rows: 30,
            rows_per_body: 10,
            max_len: 2,
        });
        let mut a = crate::backend::cpu::CpuBackend::new();
        let mut b = Flip(crate::backend::cpu::CpuBackend::new());
        let m = compare(&g.rows, &mut a, &mut b, "flip");
        assert_eq!(
            m.iter().map(|x| x.index).collect::<Vec<_>>(),
            (0..30).step_by(3).collect::<Vec<_>>()
        );
        assert_eq!(m[1].repro, repro(&g.rows[3], "flip"));
        assert!(m[1].repro.contains("--backend flip --reference cpu"));
    }
}
