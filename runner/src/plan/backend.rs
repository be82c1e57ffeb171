//! The backend registry: every backend name the commands accept, parsed in one place.
//!
//! | name | row backends (`replay`, `sweep`) | streaming (`exhaustive`) |
//! |---|---|---|
//! | `cpu` | the IR interpreter, per row | the column-wise CPU model |
//! | `cpu:interp` | - | the per-row IR interpreter |
//! | `vulkan[:lavapipe\|nvidia\|radv\|N]` | recompiled SPIR-V | recompiled SPIR-V |
//! | `hip[:gfx10xx]` | the native instruction (comgr + HIP) | - |
//! | `hip-template-cpu[:gfx103N]` | `hip`'s code objects (comgr) dispatched on the CPU model | - |

/// A backend as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendName {
    /// `cpu` (also `cpu:batch` for the streaming CPU model).
    Cpu,
    /// `cpu:interp`.
    CpuInterp,
    /// `vulkan` or `vulkan:WHICH` (the device choice is the Vulkan module's to parse).
    Vulkan(Option<String>),
    /// `hip` or `hip:GFX`.
    Hip(Option<String>),
    /// `hip-template-cpu` or `hip-template-cpu:GFX`.
    HipTemplateCpu(Option<String>),
}

/// What every command's help lists.
pub const ROW_BACKENDS: &str =
    "cpu, vulkan[:lavapipe|nvidia|radv|N], hip[:gfx10xx] or hip-template-cpu[:gfx103N]";

impl BackendName {
    /// Parses a name; `None` for anything not in the registry.
    pub fn parse(s: &str) -> Option<BackendName> {
        Some(match s.split_once(':') {
            None if s == "cpu" => BackendName::Cpu,
            None if s == "vulkan" => BackendName::Vulkan(None),
            None if s == "hip" => BackendName::Hip(None),
            None if s == "hip-template-cpu" => BackendName::HipTemplateCpu(None),
            Some(("cpu", "interp")) => BackendName::CpuInterp,
            Some(("cpu", "batch")) => BackendName::Cpu,
            Some(("vulkan", w)) => BackendName::Vulkan(Some(w.to_string())),
            Some(("hip", g)) => BackendName::Hip(Some(g.to_string())),
            Some(("hip-template-cpu", g)) => BackendName::HipTemplateCpu(Some(g.to_string())),
            _ => return None,
        })
    }
}

impl std::fmt::Display for BackendName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackendName::Cpu => f.write_str("cpu"),
            BackendName::CpuInterp => f.write_str("cpu:interp"),
            BackendName::Vulkan(None) => f.write_str("vulkan"),
            BackendName::Vulkan(Some(w)) => write!(f, "vulkan:{w}"),
            BackendName::Hip(None) => f.write_str("hip"),
            BackendName::Hip(Some(g)) => write!(f, "hip:{g}"),
            BackendName::HipTemplateCpu(None) => f.write_str("hip-template-cpu"),
            BackendName::HipTemplateCpu(Some(g)) => write!(f, "hip-template-cpu:{g}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        for s in [
            "cpu",
            "cpu:interp",
            "vulkan",
            "vulkan:lavapipe",
            "vulkan:1",
            "hip",
            "hip:gfx1030",
            "hip-template-cpu",
            "hip-template-cpu:gfx1031",
        ] {
            assert_eq!(BackendName::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(BackendName::parse("cpu:batch"), Some(BackendName::Cpu));
        for s in ["", "cpu:fast", "metal", "vulkan_lavapipe", "CPU"] {
            assert_eq!(BackendName::parse(s), None, "{s}");
        }
    }
}
