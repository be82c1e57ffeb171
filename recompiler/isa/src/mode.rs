//! The float mode a kernel runs under and its wave size: the lane contract's definitions
//! (`rdnaprobe-contract`), re-exported where the recompiler has always named them.

pub use rdnaprobe_contract::{FloatMode, ModeCells, ModeField, Round, Wave};
