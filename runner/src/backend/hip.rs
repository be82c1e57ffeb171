//! `hip[:gfx10xx]`: the native body on an AMD GPU through the oracle crate.
//!
//! Rows are grouped by kernel (body words, resolved float mode, wave); each kernel is assembled
//! once with comgr (cached across `run` calls) and all its rows go to the worker process in one
//! batch (the worker splits very large batches into dispatches of 4 Mi rows). The worker runs
//! under a watchdog: a batch that hangs gets `error: timeout` on its rows, one whose worker dies
//! gets `error: worker crashed: ...`; the worker is restarted and the other kernels still run.
//!
//! The rows run on the device's own target whatever their `gfx` cell says: the hardware is the
//! reference. Empty cells resolve as on every backend (the dataset schema's `Row::float_mode`
//! and `Row::wave_size`: `FloatMode::DEFAULT`, wave32).
//!
//! Watchdog deadlines: 20 s per batch plus 5 s per million rows, overridable with
//! `RDNAPROBE_HIP_TIMEOUT_S` (the per-batch part, in seconds).

use std::collections::HashMap;
use std::time::Duration;

use rdnaprobe_dataset::{Row, WaveLayout};
use rdnaprobe_oracle::exec::{Batch, Executor, LaneOutput};
use rdnaprobe_oracle::hip::DeviceInfo;
use rdnaprobe_oracle::wave::{WaveBatch, WaveInput, WaveResult, WaveShape};
use rdnaprobe_oracle::worker::{Supervisor, Watchdog};
use rdnaprobe_oracle::{
    assemble_probe, assemble_wave_probe, Comgr, Hip, Mode, OracleError, Target,
};

use super::hip_wave::{self, WaveKernel};
use super::{Backend, Producer, RowResult, Status, WaveResults};
use crate::dispatch::probe::CpuProbe;

/// Environment variable overriding the per-batch watchdog deadline, in seconds.
pub const TIMEOUT_ENV: &str = "RDNAPROBE_HIP_TIMEOUT_S";

pub struct HipBackend {
    target: Target,
    device: DeviceInfo,
    comgr: Comgr,
    runner: Runner,
    runtime: String,
    /// Per kernel: its code object, or the status its rows get.
    kernels: HashMap<(Vec<u32>, Mode), Result<Vec<u8>, Status>>,
    /// Per wave kernel: its code object, or the status its rows get.
    wave_kernels: HashMap<WaveKernel, Result<Vec<u8>, Status>>,
    /// `--allow-hazards`: run the waves [`super::hazards`] refuses.
    allow_hazards: bool,
}

/// Where the code objects run: the GPU through the worker process, or the CPU model in this
/// process (`hip-template-cpu`, [`crate::dispatch::probe`]).
enum Runner {
    Worker(Supervisor),
    CpuModel(CpuProbe),
}

impl Runner {
    fn run(
        &mut self,
        device: i32,
        code: &[u8],
        inputs: &[[u32; 6]],
    ) -> Result<Vec<LaneOutput>, Status> {
        match self {
            Runner::Worker(s) => s
                .run(device, code, inputs)
                .map_err(|e| Status::Error(e.to_string())),
            Runner::CpuModel(c) => c
                .run(&Batch {
                    id: 0,
                    device,
                    code_object: code.to_vec(),
                    inputs: inputs.to_vec(),
                })
                .map_err(cpu_status),
        }
    }

    fn run_waves(
        &mut self,
        device: i32,
        code: &[u8],
        shape: WaveShape,
        waves: &[WaveInput],
    ) -> Result<Vec<WaveResult>, Status> {
        match self {
            Runner::Worker(s) => s
                .run_waves(device, code, shape, waves)
                .map_err(|e| Status::Error(e.to_string())),
            Runner::CpuModel(c) => c
                .run_waves(&WaveBatch {
                    id: 0,
                    device,
                    code_object: code.to_vec(),
                    shape,
                    waves: waves.to_vec(),
                })
                .map_err(cpu_status),
        }
    }
}

/// A batch the CPU model could not run: what the recompiler cannot lower (the template's own
/// instructions included) is `unsupported`, anything else an error.
fn cpu_status(e: OracleError) -> Status {
    let m = e.to_string();
    match m.split_once("unsupported: ") {
        Some((at, why)) => Status::Unsupported(format!("{at}{why}")),
        None => Status::Error(m),
    }
}

/// Picks the device: the first whose arch is `wanted` (a gfx103x chip, or `gfx103x` for any of
/// them), or the first gfx103x device.
pub fn select_device(
    devices: &[DeviceInfo],
    wanted: Option<&str>,
) -> Result<(DeviceInfo, Target), OracleError> {
    let wanted_target = wanted
        .filter(|w| !w.is_empty())
        .map(parse_gfx103x)
        .transpose()?
        .unwrap_or(Target::Gfx103x);
    devices
        .iter()
        .filter_map(|d| Target::from_arch_name(&d.arch).ok().map(|t| (d.clone(), t)))
        .find(|(_, t)| wanted_target.covers(*t) && t.is_gfx103x())
        .ok_or_else(|| OracleError::NoMatchingDevice {
            wanted: wanted
                .filter(|w| !w.is_empty())
                .unwrap_or("a gfx103x device")
                .to_string(),
            found: devices
                .iter()
                .map(|d| format!("{} {} ({})", d.index, d.name, d.arch))
                .collect(),
        })
}

/// A target the hip backend runs on: a gfx103x chip or the `gfx103x` family.
fn parse_gfx103x(name: &str) -> Result<Target, OracleError> {
    match name.parse::<Target>() {
        Ok(t) if t.is_gfx103x() => Ok(t),
        _ => Err(OracleError::UnknownTarget(name.to_string())),
    }
}

impl HipBackend {
    /// Opens `hip[:gfx10xx]`. Without an AMD GPU this fails with one line naming the cause: the
    /// library sonames tried and the package to install, or hipErrorNoDevice.
    pub fn open(target: Option<&str>) -> anyhow::Result<HipBackend> {
        let unavailable = |e: OracleError| anyhow::anyhow!("hip backend unavailable: {e}");
        // A misspelt target is the user's error whatever the machine has.
        if let Some(t) = target.filter(|t| !t.is_empty()) {
            parse_gfx103x(t)?;
        }
        let hip = Hip::load().map_err(unavailable)?;
        let devices = hip.devices().map_err(unavailable)?;
        let (device, target) = select_device(&devices, target).map_err(unavailable)?;
        let runtime = match hip.versions() {
            Ok((rt, _)) => format!("HIP {rt} ({})", hip.soname()),
            Err(_) => format!("HIP ({})", hip.soname()),
        };
        // The parent never runs kernels; only the worker does. Dropping `hip` here keeps the
        // library loaded (see the oracle's loader) but holds no device state.
        drop(hip);
        let comgr = Comgr::load().map_err(unavailable)?;
        let mut watchdog = Watchdog::default();
        if let Some(secs) = std::env::var(TIMEOUT_ENV).ok().filter(|s| !s.is_empty()) {
            let secs: f64 = secs
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s > 0.0)
                .ok_or_else(|| {
                    anyhow::anyhow!("{TIMEOUT_ENV}={secs:?} is not a positive number of seconds")
                })?;
            watchdog.batch = Duration::from_secs_f64(secs);
        }
        let supervisor = Supervisor::new(crate::worker::command()?, watchdog);
        let (major, minor) = comgr.version();
        let runtime = format!("{runtime}, comgr {major}.{minor} ({})", comgr.soname());
        Ok(HipBackend {
            target,
            device,
            comgr,
            runner: Runner::Worker(supervisor),
            runtime,
            kernels: HashMap::new(),
            wave_kernels: HashMap::new(),
            allow_hazards: false,
        })
    }

    /// Opens `hip-template-cpu[:gfx10NN]`: the code objects `hip` would load for that chip
    /// (comgr, no GPU; gfx1030 unless named), dispatched on the CPU model with the buffers `hip`
    /// would pass. Needs comgr only. The RDNA1 chips are accepted too, so rows measured there
    /// (their `gfx` cell) are read with their own instruction table, as `cpu` reads them.
    pub fn cpu_model(target: Option<&str>) -> anyhow::Result<HipBackend> {
        let target = match target.filter(|t| !t.is_empty()) {
            Some(t) => t
                .parse::<Target>()
                .ok()
                .filter(|t| Target::ALL.contains(t))
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "hip-template-cpu: `{t}` is not a chip (gfx1010, gfx1013, gfx1030 .. \
                         gfx1036)"
                    )
                })?,
            None => Target::Gfx1030,
        };
        let comgr = Comgr::load()
            .map_err(|e| anyhow::anyhow!("hip-template-cpu backend unavailable: {e}"))?;
        let (major, minor) = comgr.version();
        Ok(HipBackend {
            target,
            device: DeviceInfo {
                index: 0,
                name: "host CPU (the probe kernels on the IR interpreter)".into(),
                arch: target.to_string(),
                total_mem: 0,
            },
            runtime: format!(
                "rdnaprobe-recompiler {}, comgr {major}.{minor} ({})",
                env!("CARGO_PKG_VERSION"),
                comgr.soname()
            ),
            comgr,
            runner: Runner::CpuModel(CpuProbe),
            kernels: HashMap::new(),
            wave_kernels: HashMap::new(),
            allow_hazards: false,
        })
    }

    fn code_object(&mut self, words: &[u32], mode: Mode) -> Result<Vec<u8>, Status> {
        let key = (words.to_vec(), mode);
        if let Some(k) = self.kernels.get(&key) {
            return k.clone();
        }
        let built = assemble_probe(&self.comgr, self.target, &mode, words)
            .map(|k| k.code_object)
            .map_err(|e| Status::Error(format!("assembling the probe kernel: {e}")));
        self.kernels.insert(key, built.clone());
        built
    }

    fn wave_code_object(&mut self, key: &WaveKernel) -> Result<Vec<u8>, Status> {
        if let Some(k) = self.wave_kernels.get(key) {
            return k.clone();
        }
        let (words, mode, shape): (&[u32], &Mode, &WaveShape) = (&key.0, &key.1, &key.2);
        let built = assemble_wave_probe(&self.comgr, self.target, mode, shape, words)
            .map(|k| k.code_object)
            .map_err(|e| Status::Error(format!("assembling the wave probe kernel: {e}")));
        self.wave_kernels.insert(key.clone(), built.clone());
        built
    }
}

/// Why the compute probe cannot run `words`: an interpolation instruction reads a pixel
/// shader's parameter space, which the rasteriser fills and a compute dispatch has not
/// (docs/oracle.md, "What the probe cannot run").
pub fn probe_refusal(words: &[u32]) -> Option<String> {
    let body = rdnaprobe_isa::decode_stream(words).ok()?;
    body.iter().find_map(|d| match d {
        rdnaprobe_isa::Decoded::Inst(i)
            if i.info().family == rdnaprobe_isa::Family::VINTRP
                || i.info().has(rdnaprobe_isa::Flags::INTERP) =>
        {
            Some(format!(
                "{}: a compute probe cannot fill a pixel shader's parameter space (replay \
                 interpolation on cpu or vulkan:*)",
                i.info().mnemonic
            ))
        }
        _ => None,
    })
}

/// The oracle mode a row runs in, or why it cannot run.
pub fn row_mode(row: &Row) -> Result<Mode, Status> {
    if let Some(why) = probe_refusal(&row.encoding) {
        return Err(Status::Unsupported(why));
    }
    let wave = row.wave_size().map_err(Status::Unsupported)?;
    let mode = Mode::new(row.float_mode(), wave);
    mode.validate().map_err(|e| Status::Error(e.to_string()))?;
    Ok(mode)
}

fn failed(status: Status) -> RowResult {
    RowResult {
        outputs: [None; 16],
        status,
    }
}

impl Backend for HipBackend {
    fn allow_hazards(&mut self) -> bool {
        self.allow_hazards = true;
        true
    }

    fn producer(&self) -> Producer {
        let name = match self.runner {
            Runner::Worker(_) => "hip",
            Runner::CpuModel(_) => "hip-template-cpu",
        };
        Producer {
            backend: format!("{name}:{}", self.target),
            device: self.device.name.clone(),
            driver: self.runtime.clone(),
            gfx: Some(self.target.to_string()),
        }
    }

    fn run(&mut self, rows: &[Row]) -> Vec<RowResult> {
        let mut results: Vec<Option<RowResult>> = vec![None; rows.len()];
        // Group row indices by kernel, keeping first-seen order so runs are reproducible.
        let mut order: Vec<(Vec<u32>, Mode)> = Vec::new();
        let mut groups: HashMap<(Vec<u32>, Mode), Vec<usize>> = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            if row.encoding.is_empty() {
                results[i] = Some(failed(Status::Unsupported(
                    "the row has no instruction words".into(),
                )));
                continue;
            }
            match row_mode(row) {
                Err(s) => results[i] = Some(failed(s)),
                Ok(mode) => {
                    let key = (row.encoding.clone(), mode);
                    groups.entry(key.clone()).or_insert_with(|| {
                        order.push(key);
                        Vec::new()
                    });
                    groups
                        .get_mut(&(row.encoding.clone(), mode))
                        .expect("inserted")
                        .push(i);
                }
            }
        }
        for key in order {
            let idx = &groups[&key];
            let code = match self.code_object(&key.0, key.1) {
                Ok(c) => c,
                Err(s) => {
                    for &i in idx {
                        results[i] = Some(failed(s.clone()));
                    }
                    continue;
                }
            };
            let inputs: Vec<[u32; 6]> = idx.iter().map(|&i| rows[i].inputs).collect();
            match self.runner.run(self.device.index, &code, &inputs) {
                Ok(lanes) => {
                    for (&i, lane) in idx.iter().zip(lanes) {
                        results[i] = Some(if lane.done {
                            RowResult {
                                outputs: lane.outputs.map(Some),
                                status: Status::Ok,
                            }
                        } else {
                            failed(Status::Error(super::hip_wave::NOT_DONE.into()))
                        });
                    }
                }
                Err(status) => {
                    for &i in idx {
                        results[i] = Some(failed(status.clone()));
                    }
                }
            }
        }
        results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| failed(Status::Error("row was not scheduled".into()))))
            .collect()
    }

    /// Waves with one kernel (body, mode, shape) run as one batch, in first-seen order.
    fn run_waves(&mut self, rows: &[Row], layout: &WaveLayout) -> WaveResults {
        let mut results = WaveResults::all(rows.len(), Status::Error("not scheduled".into()));
        let waves = hip_wave::prepare(rows, layout, &mut results, self.allow_hazards);
        let mut order: Vec<&WaveKernel> = Vec::new();
        let mut groups: HashMap<&WaveKernel, Vec<usize>> = HashMap::new();
        for (i, w) in waves.iter().enumerate() {
            groups
                .entry(&w.kernel)
                .or_insert_with(|| {
                    order.push(&w.kernel);
                    Vec::new()
                })
                .push(i);
        }
        for key in order {
            let idx = &groups[key];
            let outcome = self.wave_code_object(key).and_then(|code| {
                let inputs: Vec<_> = idx.iter().map(|&i| waves[i].input.clone()).collect();
                self.runner
                    .run_waves(self.device.index, &code, key.2, &inputs)
            });
            match outcome {
                Ok(done) => {
                    for (&i, r) in idx.iter().zip(done) {
                        hip_wave::store(&mut results, &waves[i].rows, r);
                    }
                }
                Err(s) => {
                    for &i in idx {
                        results.fail(&waves[i].rows, &s);
                    }
                }
            }
        }
        results
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdnaprobe_oracle::Wave;

    fn dev(index: i32, arch: &str) -> DeviceInfo {
        DeviceInfo {
            index,
            name: format!("dev{index}"),
            arch: arch.into(),
            total_mem: 0,
        }
    }

    #[test]
    fn device_selection() {
        let devs = [
            dev(0, "gfx90a:sramecc+:xnack-"),
            dev(1, "gfx1035"),
            dev(2, "gfx1030"),
        ];
        assert_eq!(select_device(&devs, None).unwrap().0.index, 1);
        assert_eq!(
            select_device(&devs, Some("gfx1030")).unwrap(),
            (devs[2].clone(), Target::Gfx1030)
        );
        let err = select_device(&devs, Some("gfx1036"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("gfx1036") && err.contains("0 dev0 (gfx90a:sramecc+:xnack-)"),
            "{err}"
        );
        assert!(matches!(
            select_device(&devs, Some("gfx9")),
            Err(OracleError::UnknownTarget(_))
        ));
        assert!(matches!(
            select_device(&devs, Some("gfx1010")),
            Err(OracleError::UnknownTarget(_))
        ));
        assert_eq!(select_device(&devs, Some("gfx103x")).unwrap().0.index, 1);
        assert!(select_device(&devs[..1], None).is_err());
    }

    #[test]
    fn row_modes_resolve_and_reject() {
        let mut row = Row {
            encoding: vec![1],
            ..Row::default()
        };
        let m = row_mode(&row).unwrap();
        assert_eq!(m.wave, Wave::W32);
        row.wave = Some(64);
        row.mode.denorm32 = Some(2);
        let m = row_mode(&row).unwrap();
        assert_eq!((m.wave, m.float.denorm32), (Wave::W64, 2));
        row.wave = Some(16);
        assert!(matches!(row_mode(&row), Err(Status::Unsupported(_))));
        row.wave = None;
        row.mode.round32 = Some(9);
        assert!(matches!(row_mode(&row), Err(Status::Error(_))));
    }

    #[test]
    fn interpolation_rows_are_unsupported_with_a_reason() {
        // v_mov_b32 v10, v4 runs; v_interp_p1_f32_e32 v10, v4, attr1.z (llvm-mc) does not
        let mut row = Row {
            encoding: vec![0x7e14_0304],
            ..Row::default()
        };
        assert!(row_mode(&row).is_ok());
        row.encoding = vec![0x7e14_0304, 0xc828_0604];
        match row_mode(&row) {
            Err(Status::Unsupported(why)) => {
                assert!(
                    why.starts_with("v_interp_p1_f32: a compute probe cannot"),
                    "{why}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
}
