//! The Vulkan loader (opened at run time) and the instance.

use anyhow::{bail, Context};
use ash::vk;

/// Opens the Vulkan loader, or says which package provides it.
pub(crate) fn load_entry() -> anyhow::Result<ash::Entry> {
    // SAFETY: loading the system Vulkan loader runs its initialisers; that is what it is for.
    unsafe { ash::Entry::load() }.map_err(|e| {
        anyhow::anyhow!(
            "cannot load the Vulkan loader (libvulkan.so.1): {e}; install it \
             (Debian/Ubuntu: `apt install libvulkan1`, plus `mesa-vulkan-drivers` for lavapipe)"
        )
    })
}

/// Creates an instance for the newest API version the loader offers, capped at 1.3.
pub(crate) fn create_instance(entry: &ash::Entry) -> anyhow::Result<ash::Instance> {
    // SAFETY: plain query on a loaded entry.
    let loader_version = unsafe { entry.try_enumerate_instance_version() }
        .context("vkEnumerateInstanceVersion")?
        .unwrap_or(vk::API_VERSION_1_0);
    if loader_version < vk::API_VERSION_1_1 {
        bail!(
            "the Vulkan loader supports only API {}; rdnaprobe needs Vulkan 1.1",
            version_string(loader_version)
        );
    }
    let api = loader_version.min(vk::API_VERSION_1_3);
    let app = vk::ApplicationInfo::default()
        .application_name(c"rdnaprobe")
        .application_version(0)
        .engine_name(c"rdnaprobe")
        .api_version(api);
    let info = vk::InstanceCreateInfo::default().application_info(&app);
    // SAFETY: `info` and what it points to live across the call.
    unsafe { entry.create_instance(&info, None) }.context("vkCreateInstance")
}

pub(crate) fn version_string(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}
