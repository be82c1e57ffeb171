//! What identifies one kernel of the recompiler's backends (`cpu`, `vulkan`): rows with equal
//! keys share a lowered kernel. Unstated cells resolve through the dataset schema
//! ([`Row::float_mode`], [`Row::wave_size`], [`Row::target`]), the same on every backend.

use rdnaprobe_dataset::Row;
use rdnaprobe_isa::{FloatMode, Target, Wave};

/// The kernel a row runs: body words, resolved float mode, wave size and target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    pub words: Vec<u32>,
    pub mode: FloatMode,
    pub wave: Wave,
    pub target: Target,
}

/// The kernel a row runs, or why it cannot run anywhere.
pub fn kernel_key(row: &Row) -> Result<KernelKey, String> {
    if row.encoding.is_empty() {
        return Err("the row has no instruction words".into());
    }
    Ok(KernelKey {
        words: row.encoding.clone(),
        mode: row.float_mode(),
        wave: row.wave_size()?,
        target: row.target().map_err(|e| e.to_string())?,
    })
}
