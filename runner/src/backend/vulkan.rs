//! `vulkan[:lavapipe|nvidia|radv|N]`: recompiled SPIR-V run through ash.
//!
//! Rows are grouped into kernels by (body words, resolved float mode, wave, target); each
//! kernel is decoded, lowered to IR, emitted as SPIR-V for the device's features and compiled
//! into a compute pipeline once (cached across `run` calls). All groups of one `run` go to the
//! device in one batch. A group that cannot be lowered or emitted gets `unsupported: <reason>`
//! on its rows, a driver failure gets `error: <message>`; neither stops the other groups.
//!
//! Empty mode cells resolve to `FloatMode::DEFAULT`'s fields, an empty wave cell to wave32 and
//! an empty gfx cell to gfx1030 (docs/backends.md), as on every backend ([`kernel_key`]).

use std::collections::HashMap;
use std::rc::Rc;

use rdnaprobe_dataset::{Row, WaveLayout};
use rdnaprobe_recompiler::native::NativeImage;
use rdnaprobe_recompiler::{spirv, ImagePath};

use super::phase::{span, Phase};
use super::{kernel_key, Backend, KernelKey, Producer, RowResult, Status, WaveResults};
use crate::vulkan::{DeviceSelector, Executor, ImageRunError, Job, PipelineId};

type WaveKernelKey = (KernelKey, u32, u32, Option<Vec<u32>>);

/// A wave module's pipeline and, on the native image path, the images it samples
/// (`rdnaprobe_recompiler::native`): such a wave runs on its own, its images made from its
/// memory region.
type WaveKernel = (PipelineId, Option<Rc<[NativeImage]>>);

pub struct VulkanBackend {
    exec: Executor,
    /// Who answers image samples, gathers and loads (`--images`).
    images: ImagePath,
    /// Per kernel: its pipeline, or the status its rows get.
    kernels: HashMap<KernelKey, Result<PipelineId, Status>>,
    /// The same for kernels lowered under the wave contract (wave modules), per LDS and region
    /// size, and per `s_in` for a body lowered for it (`WaveJob::sgpr_values`).
    wave_kernels: HashMap<WaveKernelKey, Result<WaveKernel, Status>>,
}

impl VulkanBackend {
    /// Opens `vulkan[:which]`: `lavapipe`, `nvidia`, `radv`, a device index, or the default.
    pub fn open(which: Option<&str>) -> anyhow::Result<VulkanBackend> {
        Self::open_images(which, ImagePath::Software)
    }

    /// [`Self::open`] with image instructions answered by `images`.
    pub fn open_images(which: Option<&str>, images: ImagePath) -> anyhow::Result<VulkanBackend> {
        let selector = DeviceSelector::parse(which)?;
        Ok(VulkanBackend {
            exec: Executor::open(&selector)?,
            images,
            kernels: HashMap::new(),
            wave_kernels: HashMap::new(),
        })
    }

    /// Lowers, emits and compiles `key` (once).
    fn prepare(&mut self, key: &KernelKey) -> Result<PipelineId, Status> {
        if let Some(r) = self.kernels.get(key) {
            return r.clone();
        }
        let r = self.build(key);
        self.kernels.insert(key.clone(), r.clone());
        r
    }

    fn build(&mut self, key: &KernelKey) -> Result<PipelineId, Status> {
        let kernel = rdnaprobe_recompiler::lower_words(&key.words, key.mode, key.wave, key.target)
            .map_err(|e| Status::Unsupported(e.to_string()))?;
        let words =
            spirv::emit(&kernel, key.wave, &self.exec.spirv_options()).map_err(|e| match e {
                spirv::SpirvError::Unsupported { .. } => Status::Unsupported(e.to_string()),
                // A kernel the backend cannot emit is a recompiler bug, not a device limit.
                other => Status::Error(format!("SPIR-V backend: {other}")),
            })?;
        self.exec
            .pipeline(&words, key.wave)
            .map_err(|e| Status::Error(format!("{e:#}")))
    }
}

impl VulkanBackend {
    /// The wave module of `key` (lowered, emitted and compiled once).
    fn prepare_wave(&mut self, job: &super::wave::WaveJob) -> Result<WaveKernel, Status> {
        let key = &job.key;
        let lds_dwords = job.input.lds.len() as u32;
        let mem_dwords = job.mem.len() as u32;
        let cache_key = (key.clone(), lds_dwords, mem_dwords, job.sgpr_values());
        if let Some(r) = self.wave_kernels.get(&cache_key) {
            return r.clone();
        }
        let r = rdnaprobe_recompiler::lower_wave_words_images(
            &key.words,
            key.mode,
            key.wave,
            key.target,
            4 * mem_dwords,
            job.specialised.then_some(&job.input.sgprs),
            self.images,
        )
        .map_err(|e| super::wave::lower_status(&e))
        .and_then(|kernel| {
            let opts = self.exec.spirv_options();
            spirv::emit_wave_mem(&kernel, key.wave, lds_dwords, mem_dwords, &opts)
                .map_err(|e| match e {
                    spirv::SpirvError::Unsupported { .. } => Status::Unsupported(e.to_string()),
                    other => Status::Error(format!("SPIR-V backend: {other}")),
                })
                .map(|words| (words, kernel.images))
        })
        .and_then(|(words, images)| {
            let pipeline = if images.is_empty() {
                self.exec.wave_pipeline(&words)
            } else {
                let storage: Vec<bool> = images.iter().map(|i| i.storage).collect();
                self.exec.image_wave_pipeline(&words, &storage)
            };
            pipeline
                .map(|p| (p, (!images.is_empty()).then(|| Rc::from(images))))
                .map_err(|e| Status::Error(format!("{e:#}")))
        });
        self.wave_kernels.insert(cache_key, r.clone());
        r
    }
}

/// Stores one wave's module output words in `results`, its region with the texel rows of
/// its storage images (`written`: native stores) put in.
fn store_wave(
    j: &super::wave::WaveJob,
    words: &[u32],
    written: &[crate::vulkan::Written],
    results: &mut WaveResults,
) {
    match super::wave::module_outputs(words, j.key.wave.lanes() as usize) {
        Ok((lanes, uni, mut lds)) => {
            let region = j.input.lds.len();
            let mut mem = super::wave::module_region(&lds[region..], j.mem.len())
                .0
                .to_vec();
            crate::vulkan::Written::apply_all(written, &mut mem);
            lds.truncate(region);
            results.store(&j.rows, &lanes, Some(uni), lds);
            results.set_mem(&j.rows, mem);
        }
        Err(e) => results.fail(&j.rows, &Status::Error(e)),
    }
}

impl VulkanBackend {
    /// Runs the waves with native images, one at a time (each has its own images).
    fn run_alone(
        &mut self,
        jobs: &[super::wave::WaveJob],
        alone: &[(usize, PipelineId, Rc<[NativeImage]>)],
        results: &mut WaveResults,
    ) {
        let _running = span(Phase::Run);
        for (i, p, images) in alone {
            let j = &jobs[*i];
            let extra = j.input.lds.len() as u32 + spirv::region_words(j.mem.len() as u32);
            let out_words = spirv::wave_out_stride(j.key.wave, extra) as usize;
            let input = super::wave::module_inputs_mem(&j.input, &j.mem);
            match self
                .exec
                .run_image_wave(*p, &input, out_words, &j.mem, images)
            {
                Ok((words, written)) => store_wave(j, &words, &written, results),
                Err(ImageRunError::Unsupported(why)) => {
                    results.fail(&j.rows, &Status::Unsupported(why))
                }
                Err(ImageRunError::Error(e)) => {
                    results.fail(&j.rows, &Status::Error(format!("{e:#}")))
                }
            }
        }
    }
}

impl Backend for VulkanBackend {
    /// One workgroup per wave (`spirv::emit_wave`); all waves of the batch in one submit per
    /// wave size. A failed submit gives its waves `error: <message>`.
    fn run_waves(&mut self, rows: &[Row], layout: &WaveLayout) -> WaveResults {
        let mut results = WaveResults::all(rows.len(), Status::Error("not scheduled".into()));
        let jobs = super::wave::prepare(rows, layout, &mut results);
        // The executor's extra words per wave are the LDS's and the region's (`lds_dwords` of
        // a `WaveJob`); outputs split them again.
        let lowering = span(Phase::Lower);
        let mut order: Vec<(PipelineId, rdnaprobe_isa::Wave, u32)> = vec![];
        let mut groups: HashMap<PipelineId, Vec<usize>> = HashMap::new();
        let mut alone: Vec<(usize, PipelineId, Rc<[NativeImage]>)> = vec![];
        for (i, j) in jobs.iter().enumerate() {
            let lds_dwords = j.input.lds.len() as u32;
            let mem_dwords = j.mem.len() as u32;
            match self.prepare_wave(j) {
                Ok((p, Some(images))) => alone.push((i, p, images)),
                Ok((p, None)) => groups
                    .entry(p)
                    .or_insert_with(|| {
                        let region = spirv::region_words(mem_dwords);
                        order.push((p, j.key.wave, lds_dwords + region));
                        vec![]
                    })
                    .push(i),
                Err(status) => results.fail(&j.rows, &status),
            }
        }
        drop(lowering);
        self.run_alone(&jobs, &alone, &mut results);
        let running = span(Phase::Run);
        let inputs: Vec<Vec<Vec<u32>>> = order
            .iter()
            .map(|(p, _, _)| {
                groups[p]
                    .iter()
                    .map(|&i| super::wave::module_inputs_mem(&jobs[i].input, &jobs[i].mem))
                    .collect()
            })
            .collect();
        let wave_jobs: Vec<crate::vulkan::WaveJob<'_>> = order
            .iter()
            .zip(&inputs)
            .map(
                |(&(pipeline, wave, lds_dwords), waves)| crate::vulkan::WaveJob {
                    pipeline,
                    wave,
                    lds_dwords,
                    waves,
                },
            )
            .collect();
        let outs = self.exec.run_waves(&wave_jobs);
        drop(running);
        let _s = span(Phase::Store);
        match outs {
            Ok(outs) => {
                for ((p, _, _), out) in order.iter().zip(outs) {
                    for (&i, words) in groups[p].iter().zip(out) {
                        store_wave(&jobs[i], &words, &[], &mut results);
                    }
                }
            }
            Err(e) => {
                let status = Status::Error(format!("{e:#}"));
                for &i in order.iter().flat_map(|(p, _, _)| &groups[p]) {
                    results.fail(&jobs[i].rows, &status);
                }
            }
        }
        results
    }

    fn producer(&self) -> Producer {
        let info = self.exec.info();
        Producer {
            backend: format!("vulkan:{}", info.driver),
            device: info.name.clone(),
            driver: format!(
                "{} {} (driver version {:#x}, Vulkan {}){}",
                info.driver_name,
                info.driver_info,
                info.driver_version,
                info.api_version,
                if self.images == ImagePath::Native {
                    "; native images (the driver's texture unit)"
                } else {
                    ""
                }
            ),
            gfx: None,
        }
    }

    fn run(&mut self, rows: &[Row]) -> Vec<RowResult> {
        let mut results: Vec<Option<RowResult>> = vec![None; rows.len()];
        // Group rows by kernel, keeping first-seen order so batches are deterministic.
        let mut order: Vec<KernelKey> = vec![];
        let mut groups: HashMap<KernelKey, Vec<usize>> = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            match kernel_key(row) {
                Ok(key) => groups
                    .entry(key)
                    .or_insert_with_key(|k| {
                        order.push(k.clone());
                        vec![]
                    })
                    .push(i),
                Err(reason) => {
                    results[i] = Some(RowResult {
                        outputs: [None; 16],
                        status: Status::Unsupported(reason),
                    })
                }
            }
        }
        let lowering = span(Phase::Lower);
        let mut ready: Vec<(PipelineId, Vec<usize>, Vec<[u32; 6]>)> = vec![];
        for key in order {
            let idx = groups.remove(&key).unwrap_or_default();
            match self.prepare(&key) {
                Ok(p) => {
                    let inputs = idx.iter().map(|&i| rows[i].inputs).collect();
                    ready.push((p, idx, inputs));
                }
                Err(status) => {
                    for i in idx {
                        results[i] = Some(RowResult {
                            outputs: [None; 16],
                            status: status.clone(),
                        });
                    }
                }
            }
        }
        let jobs: Vec<Job<'_>> = ready
            .iter()
            .map(|(p, _, inputs)| Job {
                pipeline: *p,
                inputs,
            })
            .collect();
        let mut store = |idx: &[usize], out: Result<Vec<[u32; 16]>, String>| match out {
            Ok(out) => {
                for (&i, o) in idx.iter().zip(out) {
                    results[i] = Some(RowResult {
                        outputs: o.map(Some),
                        status: Status::Ok,
                    });
                }
            }
            Err(msg) => {
                for &i in idx {
                    results[i] = Some(RowResult {
                        outputs: [None; 16],
                        status: Status::Error(msg.clone()),
                    });
                }
            }
        };
        drop(lowering);
        let running = span(Phase::Run);
        let ran = self.exec.run(&jobs);
        drop(running);
        match ran {
            Ok(outs) => {
                for ((_, idx, _), out) in ready.iter().zip(outs) {
                    store(idx, Ok(out));
                }
            }
            Err(_) if jobs.len() > 1 => {
                // Find the failing kernel(s): run each group alone so the others still get
                // their results.
                for (job, (_, idx, _)) in jobs.iter().zip(&ready) {
                    let out = self.exec.run(std::slice::from_ref(job));
                    store(
                        idx,
                        out.map_err(|e| format!("{e:#}")).and_then(|o| {
                            o.into_iter()
                                .next()
                                .ok_or_else(|| "no result for the job".into())
                        }),
                    );
                }
            }
            Err(e) => {
                if let Some((_, idx, _)) = ready.first() {
                    store(idx, Err(format!("{e:#}")));
                }
            }
        }
        results
            .into_iter()
            .map(|r| {
                r.unwrap_or(RowResult {
                    outputs: [None; 16],
                    status: Status::Error("row was not scheduled".into()),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdnaprobe_dataset::ModeCells;
    use rdnaprobe_isa::{FloatMode, Target, Wave};

    fn row(words: &[u32], inputs: [u32; 6]) -> Row {
        Row {
            instruction: "test".into(),
            encoding: words.to_vec(),
            wave: Some(32),
            inputs,
            gfx: "gfx1030".into(),
            ..Row::default()
        }
    }

    #[test]
    fn empty_cells_resolve_to_the_documented_defaults() {
        let mut r = row(&[0x0614_0b04], [0; 6]);
        r.wave = None;
        r.gfx.clear();
        let key = kernel_key(&r).unwrap();
        assert_eq!(key.mode, FloatMode::DEFAULT);
        assert_eq!(key.wave, Wave::W32);
        assert_eq!(key.target, Target::DEFAULT);
        r.mode = ModeCells {
            denorm32: Some(3),
            ieee: Some(0),
            ..ModeCells::default()
        };
        let m = kernel_key(&r).unwrap().mode;
        assert_eq!(
            (m.denorm32, m.ieee, m.denorm16),
            (3, false, FloatMode::DEFAULT.denorm16)
        );
        r.wave = Some(48);
        assert!(kernel_key(&r).unwrap_err().contains("48"));
        r.wave = Some(64);
        r.gfx = "gfx9999".into();
        assert!(kernel_key(&r).unwrap_err().contains("gfx9999"));
        assert!(kernel_key(&row(&[], [0; 6])).is_err());
    }

    #[test]
    fn replays_rows_on_lavapipe() {
        let mut b = match VulkanBackend::open(Some("lavapipe")) {
            Ok(b) => b,
            Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => panic!("{e:#}"),
            Err(e) => return eprintln!("skipping: {e:#}"),
        };
        assert_eq!(b.producer().backend, "vulkan:lavapipe");
        let one = 1.0f32.to_bits();
        // v_add_f32 v10, v4, v5
        let add = [0x0614_0b04];
        let mut rows = vec![
            row(&add, [one, 2.0f32.to_bits(), 0, 0, 0, 0]),
            row(&[0xffff_ffff], [0; 6]),
            row(&add, [0x3fc0_0000, one, 0, 0, 0, 0]),
        ];
        let mut wave64 = row(&add, [one, one, 0, 0, 0, 0]);
        wave64.wave = Some(64);
        rows.push(wave64);
        let mut bad_gfx = row(&add, [0; 6]);
        bad_gfx.gfx = "gfx9999".into();
        rows.push(bad_gfx);
        let out = b.run(&rows);
        assert_eq!(out.len(), rows.len());
        assert_eq!(out[0].status, Status::Ok, "{:?}", out[0]);
        assert_eq!(out[0].outputs[0], Some(3.0f32.to_bits()));
        assert_eq!(out[0].outputs[1], Some(0), "v11 stays zero");
        assert!(
            matches!(out[1].status, Status::Unsupported(_)),
            "{:?}",
            out[1]
        );
        assert_eq!(out[1].outputs, [None; 16]);
        assert_eq!(out[2].outputs[0], Some(2.5f32.to_bits()));
        assert_eq!(out[3].outputs[0], Some(2.0f32.to_bits()));
        assert!(matches!(&out[4].status, Status::Unsupported(r) if r.contains("gfx9999")));
        // A second run reuses the cached pipelines.
        let again = b.run(&rows[..1]);
        assert_eq!(again[0], out[0]);
        assert_eq!(
            b.kernels.len(),
            3,
            "three kernels: add wave32, garbage, add wave64"
        );
    }
}
