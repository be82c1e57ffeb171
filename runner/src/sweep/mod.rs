//! Sweeps: TOML specs ([`spec`]) read into the plan model ([`crate::plan`]) and the
//! crash-safe, shardable executor ([`exec`]). Also the small pieces `replay`, `sweep` and
//! `merge` share: the manifest producer and the summary of mode defaults ([`out`]).

pub mod exec;
pub mod out;
pub mod spec;
