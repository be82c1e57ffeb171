//! `rdnaprobe devices`: the HIP devices (or the one-line reason there are none) and the Vulkan
//! devices with their drivers, as a table or JSON.

use std::io::Write;
use std::process::ExitCode;

use super::TableOrJson;

use rdnaprobe_oracle::hip::DeviceInfo as HipDevice;
use rdnaprobe_oracle::Hip;

use crate::vulkan::DeviceInfo as VulkanDevice;

#[derive(clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableOrJson::Table)]
    pub format: TableOrJson,
}

/// What HIP says: the runtime and its devices, or why there are none.
#[derive(Debug, serde::Serialize)]
pub struct HipReport {
    pub library: Option<String>,
    pub runtime_version: Option<i32>,
    pub devices: Vec<HipDevice>,
    pub error: Option<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct VulkanReport {
    pub devices: Vec<VulkanDevice>,
    pub error: Option<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct Report {
    pub hip: HipReport,
    pub vulkan: VulkanReport,
}

pub fn hip_report() -> HipReport {
    let mut r = HipReport {
        library: None,
        runtime_version: None,
        devices: Vec::new(),
        error: None,
    };
    let hip = match Hip::load() {
        Ok(h) => h,
        Err(e) => {
            r.error = Some(e.to_string());
            return r;
        }
    };
    r.library = Some(hip.soname().to_string());
    r.runtime_version = hip.versions().ok().map(|(rt, _)| rt);
    match hip.devices() {
        Ok(d) => r.devices = d,
        Err(e) => r.error = Some(e.to_string()),
    }
    r
}

pub fn vulkan_report() -> VulkanReport {
    match crate::vulkan::list_devices() {
        Ok(devices) => VulkanReport {
            devices,
            error: None,
        },
        Err(e) => VulkanReport {
            devices: Vec::new(),
            error: Some(format!("{e:#}")),
        },
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = Report {
        hip: hip_report(),
        vulkan: vulkan_report(),
    };
    super::print_report(args.format, &report, write_table)
}

fn write_table(out: &mut impl Write, r: &Report) -> std::io::Result<()> {
    let hip_runtime = match (&r.hip.library, r.hip.runtime_version) {
        (Some(l), Some(v)) => format!(" ({l}, runtime {v})"),
        (Some(l), None) => format!(" ({l})"),
        _ => String::new(),
    };
    writeln!(out, "HIP{hip_runtime}")?;
    if let Some(e) = &r.hip.error {
        writeln!(out, "  none: {e}")?;
    }
    for d in &r.hip.devices {
        let mib = d.total_mem / (1024 * 1024);
        let arch = if d.arch.is_empty() {
            "arch unknown"
        } else {
            &d.arch
        };
        writeln!(
            out,
            "  hip {:<3} {:<40} {:<16} {mib} MiB",
            d.index, d.name, arch
        )?;
    }
    writeln!(out, "Vulkan")?;
    if let Some(e) = &r.vulkan.error {
        writeln!(out, "  none: {e}")?;
    }
    if r.vulkan.devices.is_empty() && r.vulkan.error.is_none() {
        writeln!(out, "  none: the Vulkan loader reports no devices")?;
    }
    for d in &r.vulkan.devices {
        writeln!(
            out,
            "  vulkan:{:<3} {:<40} {:<10} {} {} (Vulkan {}, {})",
            d.index, d.name, d.driver, d.driver_name, d.driver_info, d.api_version, d.device_type
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_lists_the_reason_for_no_hip_device() {
        let r = Report {
            hip: HipReport {
                library: Some("libamdhip64.so.5".into()),
                runtime_version: Some(50221153),
                devices: vec![],
                error: Some(
                    "no HIP device: hipGetDeviceCount returned hipErrorNoDevice (100)".into(),
                ),
            },
            vulkan: VulkanReport {
                devices: vec![],
                error: Some("no Vulkan loader".into()),
            },
        };
        let mut out = Vec::new();
        write_table(&mut out, &r).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("HIP (libamdhip64.so.5, runtime 50221153)\n"),
            "{text}"
        );
        assert!(text.contains(
            "  none: no HIP device: hipGetDeviceCount returned hipErrorNoDevice (100)\n"
        ));
        assert!(text.contains("Vulkan\n  none: no Vulkan loader\n"));
    }
}
