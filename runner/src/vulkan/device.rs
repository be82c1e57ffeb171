//! Device choice: what each physical device is (name, driver, API version, float controls,
//! limits) and which one `vulkan[:which]` means.

use std::ffi::CStr;

use anyhow::{bail, Context};
use ash::vk;

use super::instance::version_string;

/// One physical device as `rdnaprobe devices` shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DeviceInfo {
    /// Position in the loader's enumeration (what `vulkan:N` selects).
    pub index: usize,
    pub name: String,
    /// `VkDriverId` as a number (0 when the device does not report one).
    pub driver_id: i32,
    /// Short driver name: `lavapipe`, `nvidia`, `radv`, or the driver's own name.
    pub driver: String,
    /// `VkPhysicalDeviceDriverProperties::driverName`.
    pub driver_name: String,
    /// `VkPhysicalDeviceDriverProperties::driverInfo` (usually the driver version string).
    pub driver_info: String,
    /// `major.minor.patch` of the device's Vulkan API.
    pub api_version: String,
    /// `VkPhysicalDeviceProperties::driverVersion`, raw.
    pub driver_version: u32,
    /// `discrete-gpu`, `integrated-gpu`, `virtual-gpu`, `cpu` or `other`.
    pub device_type: String,
}

/// Which device `vulkan[:which]` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceSelector {
    /// The first discrete GPU, else the first device.
    Default,
    /// The first device whose driver has this id.
    Driver(vk::DriverId),
    /// The device at this enumeration index.
    Index(usize),
}

impl DeviceSelector {
    /// Parses the part after `vulkan:`: `lavapipe`, `nvidia`, `radv` or an index.
    pub fn parse(which: Option<&str>) -> anyhow::Result<DeviceSelector> {
        let Some(w) = which else {
            return Ok(DeviceSelector::Default);
        };
        Ok(match w.to_ascii_lowercase().as_str() {
            "" => DeviceSelector::Default,
            "lavapipe" | "llvmpipe" => DeviceSelector::Driver(vk::DriverId::MESA_LLVMPIPE),
            "nvidia" => DeviceSelector::Driver(vk::DriverId::NVIDIA_PROPRIETARY),
            "radv" => DeviceSelector::Driver(vk::DriverId::MESA_RADV),
            n => match n.parse::<usize>() {
                Ok(i) => DeviceSelector::Index(i),
                Err(_) => bail!(
                    "unknown Vulkan device `{w}`: expected lavapipe, nvidia, radv or a device index"
                ),
            },
        })
    }

    /// Picks a device from `devices` (in enumeration order).
    pub fn choose(&self, devices: &[DeviceInfo]) -> anyhow::Result<usize> {
        let found = match *self {
            DeviceSelector::Default => devices
                .iter()
                .position(|d| d.device_type == "discrete-gpu")
                .or(if devices.is_empty() { None } else { Some(0) }),
            DeviceSelector::Driver(id) => devices.iter().position(|d| d.driver_id == id.as_raw()),
            DeviceSelector::Index(i) => (i < devices.len()).then_some(i),
        };
        found.ok_or_else(|| {
            let wanted = match *self {
                DeviceSelector::Default => "any device".to_string(),
                DeviceSelector::Driver(id) => {
                    format!("a device with driver {}", short_driver(id, ""))
                }
                DeviceSelector::Index(i) => format!("device index {i}"),
            };
            let list = if devices.is_empty() {
                "none (is a Vulkan driver installed? lavapipe: mesa-vulkan-drivers)".to_string()
            } else {
                devices
                    .iter()
                    .map(|d| format!("{}: {} ({})", d.index, d.name, d.driver))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            anyhow::anyhow!("no Vulkan device matches {wanted}; devices found: {list}")
        })
    }
}

/// The short name used in backend labels (`vulkan:<driver>`).
pub fn short_driver(id: vk::DriverId, driver_name: &str) -> String {
    match id {
        vk::DriverId::MESA_LLVMPIPE => "lavapipe".into(),
        vk::DriverId::NVIDIA_PROPRIETARY => "nvidia".into(),
        vk::DriverId::MESA_RADV => "radv".into(),
        vk::DriverId::AMD_PROPRIETARY => "amdvlk-pro".into(),
        vk::DriverId::AMD_OPEN_SOURCE => "amdvlk".into(),
        vk::DriverId::INTEL_OPEN_SOURCE_MESA => "anv".into(),
        _ if !driver_name.is_empty() => driver_name.to_ascii_lowercase().replace(' ', "-"),
        _ => format!("driver-{}", id.as_raw()),
    }
}

fn cstr_field(chars: &[std::ffi::c_char]) -> String {
    // The fields are NUL-terminated within their fixed size; fall back to the whole array.
    let bytes: Vec<u8> = chars.iter().map(|&c| c as u8).collect();
    match CStr::from_bytes_until_nul(&bytes) {
        Ok(s) => s.to_string_lossy().into_owned(),
        Err(_) => String::from_utf8_lossy(&bytes).into_owned(),
    }
}

pub(crate) fn has_extension(instance: &ash::Instance, pd: vk::PhysicalDevice, name: &CStr) -> bool {
    // SAFETY: `pd` came from this instance.
    let exts = unsafe { instance.enumerate_device_extension_properties(pd) }.unwrap_or_default();
    exts.iter()
        .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
}

/// Device facts read once: the listing and what the executor needs.
pub(crate) struct Probe {
    pub info: DeviceInfo,
    pub api_version: u32,
    pub features: vk::PhysicalDeviceFeatures,
    /// Float controls usable: Vulkan 1.2 or VK_KHR_shader_float_controls (see `needs_fc_ext`).
    pub float_controls: Option<FloatControlsProps>,
    /// VK_KHR_shader_float_controls must be enabled (a Vulkan 1.1 device with the extension).
    pub needs_fc_ext: bool,
    pub limits: vk::PhysicalDeviceLimits,
}

/// The float-controls properties that matter here.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FloatControlsProps {
    pub denorm_preserve: [bool; 2],
    pub signed_zero_inf_nan_preserve: [bool; 2],
    pub rounding_rte: [bool; 2],
}

/// Every physical device of `instance`, probed, in enumeration order.
pub(crate) fn probe_all(
    instance: &ash::Instance,
) -> anyhow::Result<(Vec<vk::PhysicalDevice>, Vec<Probe>)> {
    // SAFETY: plain query on a live instance.
    let pds = unsafe { instance.enumerate_physical_devices() }
        .map_err(|e| anyhow::anyhow!("vkEnumeratePhysicalDevices: {e}"))?;
    let probes = pds
        .iter()
        .enumerate()
        .map(|(i, &pd)| probe(instance, i, pd))
        .collect();
    Ok((pds, probes))
}

pub(crate) fn probe(instance: &ash::Instance, index: usize, pd: vk::PhysicalDevice) -> Probe {
    // SAFETY: `pd` came from this instance; the chained structs outlive the calls.
    unsafe {
        let props = instance.get_physical_device_properties(pd);
        let api = props.api_version;
        let has_driver_props = api >= vk::API_VERSION_1_2
            || has_extension(instance, pd, ash::khr::driver_properties::NAME);
        let fc_ext = has_extension(instance, pd, ash::khr::shader_float_controls::NAME);
        let has_fc = api >= vk::API_VERSION_1_2 || fc_ext;
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut fc = vk::PhysicalDeviceFloatControlsProperties::default();
        {
            let mut props2 = vk::PhysicalDeviceProperties2::default();
            if has_driver_props {
                props2 = props2.push_next(&mut driver);
            }
            if has_fc {
                props2 = props2.push_next(&mut fc);
            }
            instance.get_physical_device_properties2(pd, &mut props2);
        }
        let name = props
            .device_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let driver_name = cstr_field(&driver.driver_name);
        let device_type = match props.device_type {
            vk::PhysicalDeviceType::DISCRETE_GPU => "discrete-gpu",
            vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated-gpu",
            vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual-gpu",
            vk::PhysicalDeviceType::CPU => "cpu",
            _ => "other",
        };
        let info = DeviceInfo {
            index,
            name,
            driver_id: driver.driver_id.as_raw(),
            driver: short_driver(driver.driver_id, &driver_name),
            driver_name,
            driver_info: cstr_field(&driver.driver_info),
            api_version: version_string(api),
            driver_version: props.driver_version,
            device_type: device_type.into(),
        };
        let t = |b: vk::Bool32| b == vk::TRUE;
        let float_controls = has_fc.then(|| FloatControlsProps {
            denorm_preserve: [
                t(fc.shader_denorm_preserve_float32),
                t(fc.shader_denorm_preserve_float64),
            ],
            signed_zero_inf_nan_preserve: [
                t(fc.shader_signed_zero_inf_nan_preserve_float32),
                t(fc.shader_signed_zero_inf_nan_preserve_float64),
            ],
            rounding_rte: [
                t(fc.shader_rounding_mode_rte_float32),
                t(fc.shader_rounding_mode_rte_float64),
            ],
        });
        Probe {
            info,
            api_version: api,
            features: instance.get_physical_device_features(pd),
            float_controls,
            needs_fc_ext: api < vk::API_VERSION_1_2 && fc_ext,
            limits: props.limits,
        }
    }
}

/// Every Vulkan device the loader enumerates, in its order.
pub fn list_devices() -> anyhow::Result<Vec<DeviceInfo>> {
    let entry = super::instance::load_entry()?;
    let instance = super::instance::create_instance(&entry)?;
    // SAFETY: the instance is live until destroyed below, after the last use.
    let result = unsafe { instance.enumerate_physical_devices() }
        .context("vkEnumeratePhysicalDevices")
        .map(|pds| {
            pds.into_iter()
                .enumerate()
                .map(|(i, pd)| probe(&instance, i, pd).info)
                .collect()
        });
    // SAFETY: nothing created from the instance is alive.
    unsafe { instance.destroy_instance(None) };
    result
}

/// The features a device is created with (those of the emitted modules it has) and the SPIR-V
/// options that follow from them and its float-controls properties.
pub(crate) fn features_and_options(
    probe: &Probe,
) -> (
    vk::PhysicalDeviceFeatures,
    rdnaprobe_recompiler::spirv::SpirvOptions,
) {
    use rdnaprobe_recompiler::spirv::{FloatControls, SpirvOptions};
    let f = &probe.features;
    let float64 = f.shader_float64 == vk::TRUE;
    let int64 = f.shader_int64 == vk::TRUE;
    let min_lod = f.shader_resource_min_lod == vk::TRUE;
    let storage_write = f.shader_storage_image_write_without_format == vk::TRUE;
    let gather_ext = f.shader_image_gather_extended == vk::TRUE;
    let gather_offsets = gather_ext
        && probe.limits.min_texel_gather_offset <= -32
        && probe.limits.max_texel_gather_offset >= 31;
    let features = vk::PhysicalDeviceFeatures::default()
        .shader_float64(float64)
        .shader_int64(int64)
        .shader_resource_min_lod(min_lod)
        .shader_storage_image_write_without_format(storage_write)
        .shader_image_gather_extended(gather_ext);
    // RDNAPROBE_FLOAT_CONTROLS=0 emits no float-controls execution modes even where the device
    // advertises them: the IR never needs them, so this isolates driver paths.
    let fc = if std::env::var("RDNAPROBE_FLOAT_CONTROLS").is_ok_and(|v| v == "0") {
        Default::default()
    } else {
        probe.float_controls.unwrap_or_default()
    };
    let options = SpirvOptions {
        float64,
        int64,
        float_controls: FloatControls {
            denorm_preserve_32: fc.denorm_preserve[0],
            denorm_preserve_64: fc.denorm_preserve[1] && float64,
            signed_zero_inf_nan_preserve_32: fc.signed_zero_inf_nan_preserve[0],
            signed_zero_inf_nan_preserve_64: fc.signed_zero_inf_nan_preserve[1] && float64,
            rounding_rte_32: fc.rounding_rte[0],
            rounding_rte_64: fc.rounding_rte[1] && float64,
        },
        min_lod,
        storage_write,
        gather_offsets,
    };
    (features, options)
}

#[cfg(test)]
mod selector_tests {
    use super::*;

    fn dev(index: usize, driver: vk::DriverId, ty: &str) -> DeviceInfo {
        DeviceInfo {
            index,
            name: format!("dev{index}"),
            driver_id: driver.as_raw(),
            driver: short_driver(driver, ""),
            driver_name: String::new(),
            driver_info: String::new(),
            api_version: "1.3.0".into(),
            driver_version: 0,
            device_type: ty.into(),
        }
    }

    #[test]
    fn selector_parses_and_chooses() {
        let devs = [
            dev(0, vk::DriverId::MESA_LLVMPIPE, "cpu"),
            dev(1, vk::DriverId::NVIDIA_PROPRIETARY, "discrete-gpu"),
        ];
        let pick = |w: Option<&str>| DeviceSelector::parse(w).and_then(|s| s.choose(&devs));
        assert_eq!(pick(None).unwrap(), 1, "a discrete GPU is preferred");
        assert_eq!(pick(Some("lavapipe")).unwrap(), 0);
        assert_eq!(pick(Some("NVIDIA")).unwrap(), 1);
        assert_eq!(pick(Some("0")).unwrap(), 0);
        let err = pick(Some("radv")).unwrap_err().to_string();
        assert!(
            err.contains("radv") && err.contains("0: dev0 (lavapipe)"),
            "{err}"
        );
        let err = pick(Some("7")).unwrap_err().to_string();
        assert!(err.contains("index 7"), "{err}");
        assert!(DeviceSelector::parse(Some("mystery")).is_err());
        assert_eq!(
            DeviceSelector::Default.choose(&devs[..1]).unwrap(),
            0,
            "else the first"
        );
        assert!(DeviceSelector::Default
            .choose(&[])
            .unwrap_err()
            .to_string()
            .contains("none"));
    }
}
