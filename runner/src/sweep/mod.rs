//! Sweeps: TOML specs ([`spec`]), operand generators ([`gen`]) and the crash-safe, shardable
//! executor ([`exec`]). Also the small pieces `replay`, `sweep` and `merge` share: the
//! manifest producer and the summary of mode defaults ([`out`]).

pub mod exec;
pub mod gen;
pub mod out;
pub mod spec;
