//! RADV's compiler without an AMD GPU: Mesa's RADV driver on its null device
//! (`RADV_FORCE_FAMILY`), which creates a device for a chip family without a GPU and compiles
//! compute pipelines with ACO, but executes nothing. With VK_KHR_pipeline_executable_properties
//! and `CAPTURE_INTERNAL_REPRESENTATIONS` a pipeline gives back ACO's final gfx10.3 assembly,
//! every instruction's words as a hex comment, NIR and the ACO IR, and its statistics.
//!
//! The family, the RADV ICD and the shader cache are chosen through the environment RADV and the
//! Vulkan loader read when an instance is created ([`Chip::open`] sets them before it creates
//! its instance; nothing else in the process creates one at the same time). A family name RADV
//! does not know aborts the process inside the driver, so only the names of [`CHIPS`] are used.

use std::ffi::CStr;
use std::time::Instant;

use anyhow::{bail, Context};
use ash::vk;
use rdnaprobe_isa::Target;
use rdnaprobe_recompiler::spirv::SpirvOptions;

/// The gfx103x chips and the family names Mesa 22.3's RADV takes for them.
pub const CHIPS: [(Target, &str); 7] = [
    (Target::Gfx1030, "navi21"),
    (Target::Gfx1031, "navi22"),
    (Target::Gfx1032, "navi23"),
    (Target::Gfx1033, "vangogh"),
    (Target::Gfx1034, "navi24"),
    (Target::Gfx1035, "rembrandt"),
    (Target::Gfx1036, "gfx1036"),
];

/// Where Debian's Mesa installs the RADV ICD manifest.
const ICD_DIRS: [&str; 2] = ["/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d"];

/// The RADV ICD manifest of this machine, if Mesa's Vulkan drivers are installed.
pub fn icd_manifest() -> Option<std::path::PathBuf> {
    ICD_DIRS.iter().find_map(|d| {
        std::fs::read_dir(d)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("radeon_icd") && n.ends_with(".json"))
            })
    })
}

/// One compiled module: ACO's listing and what the pipeline reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Compiled {
    pub gfx: String,
    pub family: String,
    /// Milliseconds in vkCreateComputePipelines (the shader cache is off).
    pub compile_ms: f64,
    /// The subgroup size the pipeline reports (the wave size ACO compiled for).
    pub subgroup_size: u32,
    /// The statistics, by RADV's names (instructions, VGPRs, SGPRs, spills ...).
    pub statistics: Vec<(String, u64)>,
    /// ACO's final assembly.
    pub assembly: String,
    /// The instruction words of the assembly, in order (its hex comments).
    pub words: Vec<u32>,
    /// The other internal representations (NIR, ACO IR ...), by RADV's names.
    pub representations: Vec<(String, String)>,
}

/// A RADV null device of one chip.
pub struct Chip {
    pub target: Target,
    pub family: &'static str,
    /// The Mesa version the driver reports (`driverInfo`).
    pub mesa: String,
    /// The SPIR-V options the device's features and float controls give.
    pub options: SpirvOptions,
    /// Keeps the Vulkan loader loaded while the instance lives (dropped after it).
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    exec_props: ash::khr::pipeline_executable_properties::Device,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
}

impl Chip {
    /// Opens RADV's null device for `target` (a gfx103x chip).
    pub fn open(target: Target) -> anyhow::Result<Chip> {
        let Some(&(_, family)) = CHIPS.iter().find(|c| c.0 == target) else {
            bail!("{target}: RADV's null device is opened for gfx1030 ... gfx1036 only");
        };
        let icd = icd_manifest().context(
            "no RADV ICD manifest (radeon_icd.*.json): install Mesa's Vulkan drivers \
             (Debian: `apt install mesa-vulkan-drivers`)",
        )?;
        // The loader and RADV read these when the instance is created and its devices are
        // enumerated; this process creates no other instance meanwhile.
        std::env::set_var("VK_ICD_FILENAMES", &icd);
        std::env::set_var("VK_DRIVER_FILES", &icd);
        std::env::set_var("RADV_FORCE_FAMILY", family);
        std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
        let entry = crate::vulkan::load_entry()?;
        let instance = crate::vulkan::create_instance(&entry)?;
        match Self::open_on(entry.clone(), instance.clone(), target, family) {
            Ok(c) => Ok(c),
            Err(e) => {
                // SAFETY: open_on destroyed what it created before failing.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn open_on(
        entry: ash::Entry,
        instance: ash::Instance,
        target: Target,
        family: &'static str,
    ) -> anyhow::Result<Chip> {
        // SAFETY: every handle is created from `instance` and destroyed in `Drop` (or below on
        // the error paths).
        unsafe {
            let (pds, probes) = crate::vulkan::device::probe_all(&instance)?;
            let Some(i) = probes.iter().position(|p| p.info.driver == "radv") else {
                bail!(
                    "RADV's null device for {family} did not appear (devices: {})",
                    probes
                        .iter()
                        .map(|p| p.info.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            };
            let (pd, probe) = (pds[i], &probes[i]);
            let (features, options) = crate::vulkan::device::features_and_options(probe);
            let name = ash::khr::pipeline_executable_properties::NAME;
            if !crate::vulkan::device::has_extension(&instance, pd, name) {
                bail!(
                    "{}: no VK_KHR_pipeline_executable_properties",
                    probe.info.name
                );
            }
            let family_index = instance
                .get_physical_device_queue_family_properties(pd)
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .context("RADV's null device has no compute queue")?
                as u32;
            let mut exts = vec![name.as_ptr()];
            if probe.needs_fc_ext {
                exts.push(ash::khr::shader_float_controls::NAME.as_ptr());
            }
            let mut exec_features =
                vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
                    .pipeline_executable_info(true);
            let priorities = [1.0f32];
            let queues = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(family_index)
                .queue_priorities(&priorities)];
            let info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .enabled_features(&features)
                .enabled_extension_names(&exts)
                .push_next(&mut exec_features);
            let device = instance
                .create_device(pd, &info, None)
                .with_context(|| format!("vkCreateDevice on {}", probe.info.name))?;
            let (set_layout, layout) = match crate::vulkan::wave_layout(&device) {
                Ok(l) => l,
                Err(e) => {
                    device.destroy_device(None);
                    return Err(e);
                }
            };
            let exec_props =
                ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
            Ok(Chip {
                target,
                family,
                mesa: probe.info.driver_info.clone(),
                options,
                _entry: entry,
                instance,
                device,
                exec_props,
                set_layout,
                layout,
            })
        }
    }

    /// Compiles `spirv` (a module the recompiler emitted for this device's options, entry point
    /// `main`, the wave modules' layout) and reads back ACO's listing and statistics.
    pub fn compile(&self, spirv: &[u32]) -> anyhow::Result<Compiled> {
        let flags = vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR
            | vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR;
        let t = Instant::now();
        // SAFETY: the device and layout are this chip's; the module and pipeline are destroyed
        // before returning.
        let (module, pipeline) = unsafe {
            crate::vulkan::create_compute(
                &self.device,
                vk::PipelineCache::null(),
                spirv,
                self.layout,
                flags,
            )
        }
        .context("on RADV")?;
        let compile_ms = t.elapsed().as_secs_f64() * 1e3;
        let out = self.read(pipeline, compile_ms);
        // SAFETY: created above, not used after this.
        unsafe {
            self.device.destroy_pipeline(pipeline, None);
            self.device.destroy_shader_module(module, None);
        }
        out
    }

    /// The pipeline's first executable: its subgroup size, statistics, and internal
    /// representations with the buffers holding their texts.
    ///
    /// # Safety
    /// `pipeline` is a live pipeline of this device, created with the capture flags.
    #[allow(clippy::type_complexity)]
    unsafe fn capture(
        &self,
        pipeline: vk::Pipeline,
    ) -> anyhow::Result<(
        u32,
        Vec<(String, u64)>,
        Vec<vk::PipelineExecutableInternalRepresentationKHR<'static>>,
        Vec<Vec<u8>>,
    )> {
        unsafe {
            let p = &self.exec_props;
            let execs = p
                .get_pipeline_executable_properties(
                    &vk::PipelineInfoKHR::default().pipeline(pipeline),
                )
                .context("vkGetPipelineExecutablePropertiesKHR")?;
            let Some(first) = execs.first() else {
                bail!("the RADV pipeline has no executable");
            };
            let subgroup_size = first.subgroup_size;
            let info = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(0);
            let statistics = p
                .get_pipeline_executable_statistics(&info)
                .context("vkGetPipelineExecutableStatisticsKHR")?
                .iter()
                .map(|s| {
                    let v = match s.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => u64::from(s.value.b32),
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64 as u64,
                        vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64,
                        _ => s.value.f64 as u64,
                    };
                    (c_text(&s.name), v)
                })
                .collect();
            // Two calls: the sizes, then the texts into buffers of those sizes.
            let fp = p.fp().get_pipeline_executable_internal_representations_khr;
            let mut count = 0u32;
            fp(p.device(), &info, &mut count, std::ptr::null_mut())
                .result()
                .context("vkGetPipelineExecutableInternalRepresentationsKHR")?;
            let mut reps =
                vec![vk::PipelineExecutableInternalRepresentationKHR::default(); count as usize];
            fp(p.device(), &info, &mut count, reps.as_mut_ptr())
                .result()
                .context("vkGetPipelineExecutableInternalRepresentationsKHR")?;
            let mut bufs: Vec<Vec<u8>> = reps.iter().map(|r| vec![0u8; r.data_size]).collect();
            for (r, b) in reps.iter_mut().zip(&mut bufs) {
                r.p_data = b.as_mut_ptr().cast();
            }
            fp(p.device(), &info, &mut count, reps.as_mut_ptr())
                .result()
                .context("vkGetPipelineExecutableInternalRepresentationsKHR")?;
            Ok((subgroup_size, statistics, reps, bufs))
        }
    }

    /// The executable of `pipeline` (created from this device with the capture flags): its
    /// statistics and representations.
    fn read(&self, pipeline: vk::Pipeline, compile_ms: f64) -> anyhow::Result<Compiled> {
        // SAFETY: `pipeline` is live; the statistics' union is read by the format the driver
        // gives; the representation buffers outlive the calls that fill them.
        let (execs, statistics, reps, bufs) = unsafe { self.capture(pipeline)? };
        let mut assembly = String::new();
        let mut representations = Vec::new();
        for (r, b) in reps.iter().zip(&bufs) {
            let text = CStr::from_bytes_until_nul(b)
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or_else(|_| String::from_utf8_lossy(b).into_owned());
            let name = c_text(&r.name);
            if name.contains("Assembly") {
                assembly = text;
            } else {
                representations.push((name, text));
            }
        }
        if assembly.is_empty() {
            bail!(
                "RADV returned no assembly (representations: {})",
                representations
                    .iter()
                    .map(|r| r.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let words = listing_words(&assembly);
        Ok(Compiled {
            gfx: self.target.to_string(),
            family: self.family.to_string(),
            compile_ms,
            subgroup_size: execs,
            statistics,
            assembly,
            words,
            representations,
        })
    }
}

impl Drop for Chip {
    fn drop(&mut self) {
        // SAFETY: created in `open_on`, nothing uses them after this.
        unsafe {
            self.device.destroy_pipeline_layout(self.layout, None);
            self.device
                .destroy_descriptor_set_layout(self.set_layout, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn c_text(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The instruction words of ACO's listing: each instruction line ends in a comment with its
/// words in hex (`s_mov_b32 s0, s1 ; be800001`, two words for a literal or a 64-bit form).
pub fn listing_words(assembly: &str) -> Vec<u32> {
    let mut words = Vec::new();
    for line in assembly.lines() {
        let Some((_, comment)) = line.rsplit_once(';') else {
            continue;
        };
        let ws: Vec<u32> = comment
            .split_whitespace()
            .map_while(|w| {
                (w.len() == 8)
                    .then(|| u32::from_str_radix(w, 16).ok())
                    .flatten()
            })
            .collect();
        words.extend(ws);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_words_reads_the_hex_comments() {
        let text = "BB0:\n\
            \ts_mov_b32 s0, s1                                            ; be800001\n\
            \tv_add_f32_e32 v0, 0x3f800000, v1                            ; 060002ff 3f800000\n\
            \ts_endpgm                                                    ; bf810000\n";
        assert_eq!(
            listing_words(text),
            [0xbe80_0001, 0x0600_02ff, 0x3f80_0000, 0xbf81_0000]
        );
    }
}
