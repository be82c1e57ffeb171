//! Checking one chunk: every block of rows is generated, run on the CPU model where the
//! candidate or the reference needs it, compared, classified and hashed, in parallel; the
//! mismatching rows are kept in run order up to the room left.

use anyhow::Context;
use rayon::prelude::*;
use rdnaprobe_recompiler::batch::BatchKernel;
use rdnaprobe_recompiler::interp;
use rdnaprobe_recompiler::ir::Kernel;
use rdnaprobe_reports::classify::{classify_dword, classify_f64, Class, Verdict};
use rdnaprobe_reports::DwordType;

use super::dhash::block_dhash;
use super::digest::{block_digest, DIGEST_ROWS};
use super::layout::OutputLayout;
use super::store::{stored, ModeDigests};
use super::{spec, Engine, Mismatch, Plan};

/// Test hook: `RDNAPROBE_EXHAUSTIVE_FLIP_EVERY=K` flips bit 0 of out0 of a GPU candidate's
/// rows whose index is a multiple of K, so that tests of the mismatch paths (resume, caps)
/// have mismatching rows now that every lowered instruction gives the CPU model's bits.
pub const FLIP_EVERY_ENV: &str = "RDNAPROBE_EXHAUSTIVE_FLIP_EVERY";

/// The kernels of a plan, one per mode.
pub(super) fn lower_all(plan: &Plan) -> anyhow::Result<Vec<Kernel>> {
    plan.modes
        .iter()
        .map(|m| {
            rdnaprobe_recompiler::lower_words(&plan.words, *m, plan.wave, plan.gfx)
                .with_context(|| format!("lowering the body for mode {}", spec::mode_text(m)))
        })
        .collect()
}

/// How one chunk's rows are compared.
pub(super) struct Checker<'a> {
    pub(super) plan: &'a Plan,
    pub(super) layout: &'a OutputLayout,
    pub(super) types: [DwordType; 16],
    /// Per mode: the CPU kernels of the candidate and the reference, as they need them.
    pub(super) kernels: &'a [Kernel],
    pub(super) batch: &'a [BatchKernel],
    pub(super) candidate: &'a Engine,
    pub(super) reference: Option<&'a Engine>,
    /// Stored reference digests per mode ([`super::store`]): a block whose digest matches is
    /// exact without the reference being computed.
    pub(super) against: Option<&'a [ModeDigests]>,
    /// Whether every block's device hash ([`super::dhash`]) is taken too (to be saved).
    pub(super) dhash: bool,
}

/// A chunk's device block hashes (`--against-digests` on a Vulkan candidate): blocks whose
/// hash matched the stored one are exact without their outputs being read back; the others'
/// outputs were read back and are diffed row by row against the reference.
#[derive(Clone, Copy)]
pub(super) struct DeviceBlocks<'a> {
    pub(super) hashes: &'a [u64],
    pub(super) differ: &'a [bool],
}

/// One thread's working rows for a block: inputs, candidate and reference outputs.
pub(super) struct BlockBuffers {
    scratch: rdnaprobe_recompiler::batch::Scratch,
    inputs: Vec<[u32; 6]>,
    candidate: Vec<[u32; 16]>,
    reference: Vec<[u32; 16]>,
}

impl BlockBuffers {
    pub(super) fn new(batch: &BatchKernel) -> BlockBuffers {
        BlockBuffers {
            scratch: batch.scratch(),
            inputs: vec![[0; 6]; DIGEST_ROWS],
            candidate: Vec::with_capacity(DIGEST_ROWS),
            reference: Vec::with_capacity(DIGEST_ROWS),
        }
    }
}

/// One block's findings.
#[derive(Default)]
pub(super) struct BlockResult {
    pub(super) digest: String,
    pub(super) classes: [u64; Class::ALL.len()],
    pub(super) max_ulp: Option<u64>,
    pub(super) mismatches: Vec<Mismatch>,
    /// Whether the block's digest differed from the stored reference digest (and the
    /// reference was computed for it).
    pub(super) recomputed: bool,
    /// The block's device hash, when taken.
    pub(super) dhash: Option<u64>,
}

impl Checker<'_> {
    fn cpu_run(
        &self,
        engine: &Engine,
        mode: usize,
        inputs: &[[u32; 6]],
        first_row: u64,
        scratch: &mut rdnaprobe_recompiler::batch::Scratch,
        out: &mut Vec<[u32; 16]>,
    ) {
        out.clear();
        out.resize(inputs.len(), [0; 16]);
        let wave = self.plan.wave.lanes();
        match engine {
            Engine::CpuInterp => {
                for (i, (inp, o)) in inputs.iter().zip(out.iter_mut()).enumerate() {
                    let lane = ((first_row + i as u64) % u64::from(wave)) as u32;
                    *o = interp::run(&self.kernels[mode], *inp, lane);
                }
            }
            _ => self.batch[mode].run(scratch, inputs, first_row, wave, out),
        }
    }

    /// Checks the `rows` rows of `mode` from `first_row`; `candidate` holds their packed live
    /// output dwords ([`OutputLayout`]) when a device computed them. Every block is counted,
    /// classified and hashed in parallel; mismatching rows are kept only up to `room`, and
    /// only in run order: the blocks that have mismatches are checked again one after the
    /// other until `room` rows are found, so memory never holds more than `room` rows (and a
    /// run that has its `max_mismatches` rows does no second pass at all).
    pub(super) fn chunk(
        &self,
        mode: usize,
        first_row: u64,
        rows: usize,
        candidate: Option<&[u32]>,
        room: usize,
    ) -> Vec<BlockResult> {
        self.chunk_hashed(mode, first_row, rows, candidate, None, room)
    }

    /// [`Self::chunk`] where the device has hashed the blocks (`device`).
    pub(super) fn chunk_hashed(
        &self,
        mode: usize,
        first_row: u64,
        rows: usize,
        candidate: Option<&[u32]>,
        device: Option<DeviceBlocks<'_>>,
        room: usize,
    ) -> Vec<BlockResult> {
        let blocks = rows.div_ceil(DIGEST_ROWS);
        // A chunk whose every block the device found equal to the store needs no working
        // buffers and no threads: each block is its stored digest.
        let stored_all: Option<Vec<BlockResult>> = (0..blocks)
            .map(|b| self.device_matched(mode, first_row, rows, b, device))
            .collect();
        if let Some(results) = stored_all {
            return results;
        }
        let mut results: Vec<BlockResult> = (0..blocks)
            .into_par_iter()
            .map_init(
                || BlockBuffers::new(&self.batch[mode]),
                |bufs, b| self.block(mode, first_row, rows, b, candidate, device, bufs, 0),
            )
            .collect();
        let mut left = room;
        let mut bufs = BlockBuffers::new(&self.batch[mode]);
        for (b, r) in results.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            let mismatching =
                r.classes.iter().sum::<u64>() - r.classes[Class::Exact.code() as usize];
            if mismatching > 0 {
                let again =
                    self.block(mode, first_row, rows, b, candidate, device, &mut bufs, left);
                left -= again.mismatches.len();
                r.mismatches = again.mismatches;
            }
        }
        results
    }

    /// Block `b`'s result when the device hash matched the stored one: the block is the
    /// trusted run's, whose SHA-256 stands for it in the run's digest.
    fn device_matched(
        &self,
        mode: usize,
        first_row: u64,
        rows: usize,
        b: usize,
        device: Option<DeviceBlocks<'_>>,
    ) -> Option<BlockResult> {
        let (d, against) = (device?, self.against?);
        if d.differ[b] {
            return None;
        }
        let id = first_row as usize / DIGEST_ROWS + b;
        let digest = stored(&against[mode], id).unwrap_or_default();
        let mut r = BlockResult {
            digest: String::from_utf8_lossy(digest).into_owned(),
            dhash: Some(d.hashes[b]),
            ..Default::default()
        };
        r.classes[Class::Exact.code() as usize] = DIGEST_ROWS.min(rows - b * DIGEST_ROWS) as u64;
        Some(r)
    }

    /// Checks block `b` of a chunk, keeping up to `keep` mismatching rows.
    #[allow(clippy::too_many_arguments)]
    fn block(
        &self,
        mode: usize,
        first_row: u64,
        rows: usize,
        b: usize,
        candidate: Option<&[u32]>,
        device: Option<DeviceBlocks<'_>>,
        bufs: &mut BlockBuffers,
        keep: usize,
    ) -> BlockResult {
        let stride = self.layout.live.len();
        let base = first_row + (b * DIGEST_ROWS) as u64;
        let len = DIGEST_ROWS.min(rows - b * DIGEST_ROWS);
        let id = first_row as usize / DIGEST_ROWS + b;
        let device_differs = device.map(|d| d.differ[b]);
        if let Some(r) = self.device_matched(mode, first_row, rows, b, device) {
            return r;
        }
        let block = &mut bufs.inputs[..len];
        self.plan.inputs.fill(base, block);
        let block = &*block;
        match candidate {
            Some(c) => {
                let at = b * DIGEST_ROWS * stride;
                self.layout
                    .unpack(mode, &c[at..at + len * stride], &mut bufs.candidate);
                let flip = std::env::var(FLIP_EVERY_ENV).ok();
                if let Some(k) = flip.and_then(|v| v.parse::<u64>().ok()).filter(|&k| k > 0) {
                    for (i, out) in bufs.candidate[..len].iter_mut().enumerate() {
                        if (base + i as u64) % k == 0 {
                            out[0] ^= 1;
                        }
                    }
                }
            }
            None => self.cpu_run(
                self.candidate,
                mode,
                block,
                base,
                &mut bufs.scratch,
                &mut bufs.candidate,
            ),
        }
        let cand: &[[u32; 16]] = &bufs.candidate;
        let mut r = BlockResult {
            digest: block_digest(cand, &self.layout.live),
            dhash: match device {
                Some(d) => Some(d.hashes[b]),
                None => self
                    .dhash
                    .then(|| block_dhash(cand, &self.layout.live, base)),
            },
            ..Default::default()
        };
        if let Some(against) = self.against {
            // A block whose device hash differed is diffed whatever its SHA-256 says.
            if device_differs.is_none() && stored(&against[mode], id) == Some(r.digest.as_bytes()) {
                r.classes[Class::Exact.code() as usize] = block.len() as u64;
                return r;
            }
            r.recomputed = true;
        }
        let Some(reference) = self.reference else {
            r.classes[Class::Exact.code() as usize] = block.len() as u64;
            return r;
        };
        self.cpu_run(
            reference,
            mode,
            block,
            base,
            &mut bufs.scratch,
            &mut bufs.reference,
        );
        for (i, (c, want)) in cand.iter().zip(bufs.reference.iter()).enumerate() {
            if c == want {
                r.classes[Class::Exact.code() as usize] += 1;
                continue;
            }
            let v = self.classify(want, c);
            r.classes[v.class.code() as usize] += 1;
            if let Some(u) = v.ulp {
                r.max_ulp = Some(r.max_ulp.map_or(u, |m| m.max(u)));
            }
            if r.mismatches.len() < keep {
                r.mismatches.push(Mismatch {
                    mode,
                    row: base + i as u64,
                    inputs: block[i],
                    candidate: *c,
                    reference: *want,
                    class: v.class,
                    ulp: v.ulp,
                });
            }
        }
        r
    }

    /// The worst verdict over the sixteen dwords (the diff engine's classification).
    fn classify(&self, reference: &[u32; 16], candidate: &[u32; 16]) -> Verdict {
        let mut worst = Verdict {
            class: Class::Exact,
            ulp: Some(0),
        };
        let mut i = 0;
        while i < 16 {
            let ty = self.types[i];
            let pair =
                ty == DwordType::F64Lo && i + 1 < 16 && self.types[i + 1] == DwordType::F64Hi;
            let width = if pair { 2 } else { 1 };
            // Equal dwords are exact whatever their type: only the differing ones need the
            // classifier (most rows differ in one dword).
            if reference[i..i + width] == candidate[i..i + width] {
                i += width;
                continue;
            }
            let v = if pair {
                let v = classify_f64(
                    (reference[i], reference[i + 1]),
                    (candidate[i], candidate[i + 1]),
                    self.plan.ulp_k,
                );
                i += 1;
                v
            } else {
                classify_dword(ty, reference[i], candidate[i], self.plan.ulp_k)
            };
            worst = worst.worst(v);
            i += 1;
        }
        worst
    }
}
