//! Output dword types for the diff.

/// Type of one output dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DwordType {
    Unknown,
}

pub fn output_types(_body: &[u32]) -> [DwordType; 16] {
    [DwordType::Unknown; 16]
}
