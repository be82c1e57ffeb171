//! The code object's metadata (NT_AMDGPU_METADATA, code object v3 and later): the kernels, their
//! arguments' layout in the kernarg segment, and the sizes the dispatch needs. The note is a
//! message-pack map whose keys are LLVM's AMDGPUUsage "Code Object V3 Metadata" names
//! (`amdhsa.kernels`, `.args`, `.offset`, `.value_kind`, ...); keys this reader does not use are
//! ignored.

use crate::elf::CodeObject;
use crate::error::{OracleError, Result};
use serde::Deserialize;

/// The whole map.
#[derive(Clone, Debug, Deserialize)]
pub struct Metadata {
    #[serde(rename = "amdhsa.kernels", default)]
    pub kernels: Vec<KernelMeta>,
    #[serde(rename = "amdhsa.target", default)]
    pub target: Option<String>,
}

/// One kernel's entry.
#[derive(Clone, Debug, Deserialize)]
pub struct KernelMeta {
    #[serde(rename = ".name")]
    pub name: String,
    /// The kernel descriptor's symbol (`NAME.kd`).
    #[serde(rename = ".symbol")]
    pub symbol: String,
    #[serde(rename = ".args", default)]
    pub args: Vec<ArgMeta>,
    #[serde(rename = ".kernarg_segment_size")]
    pub kernarg_segment_size: u32,
    #[serde(rename = ".kernarg_segment_align", default)]
    pub kernarg_segment_align: u32,
    #[serde(rename = ".group_segment_fixed_size", default)]
    pub group_segment_fixed_size: u32,
    #[serde(rename = ".private_segment_fixed_size", default)]
    pub private_segment_fixed_size: u32,
    #[serde(rename = ".wavefront_size")]
    pub wavefront_size: u32,
    #[serde(rename = ".max_flat_workgroup_size", default)]
    pub max_flat_workgroup_size: Option<u32>,
    #[serde(rename = ".reqd_workgroup_size", default)]
    pub reqd_workgroup_size: Option<[u32; 3]>,
    #[serde(rename = ".uses_dynamic_stack", default)]
    pub uses_dynamic_stack: bool,
}

/// One argument of the kernarg segment.
#[derive(Clone, Debug, Deserialize)]
pub struct ArgMeta {
    /// Absent for the hidden arguments.
    #[serde(rename = ".name", default)]
    pub name: Option<String>,
    #[serde(rename = ".offset")]
    pub offset: u32,
    #[serde(rename = ".size")]
    pub size: u32,
    /// `global_buffer`, `by_value`, `dynamic_shared_pointer`, `hidden_block_count_x`, ...
    #[serde(rename = ".value_kind")]
    pub value_kind: String,
    #[serde(rename = ".address_space", default)]
    pub address_space: Option<String>,
    #[serde(rename = ".type_name", default)]
    pub type_name: Option<String>,
}

impl Metadata {
    /// Reads the metadata note of `code`.
    pub fn of(code: &CodeObject<'_>) -> Result<Metadata> {
        let (offset, desc) = code.metadata_note()?;
        rmp_serde::from_slice(desc).map_err(|e| OracleError::BadElf {
            offset,
            message: format!("metadata note: {e}"),
        })
    }

    /// The kernel named `name` (or the only one when `name` is `None`).
    pub fn kernel(&self, name: Option<&str>) -> Result<&KernelMeta> {
        let names = || {
            self.kernels
                .iter()
                .map(|k| k.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let found = match name {
            Some(n) => self.kernels.iter().find(|k| k.name == n),
            None if self.kernels.len() == 1 => self.kernels.first(),
            None => {
                return Err(OracleError::BadElf {
                    offset: 0,
                    message: format!("several kernels ({}): name one with --kernel", names()),
                })
            }
        };
        found.ok_or_else(|| OracleError::BadElf {
            offset: 0,
            message: format!(
                "no kernel `{}` in the metadata (kernels: {})",
                name.unwrap_or(""),
                names()
            ),
        })
    }
}
