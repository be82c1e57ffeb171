//! Sweeps: TOML specs ([`spec`]) read into the plan model ([`crate::plan`]) and the
//! crash-safe, shardable executor ([`exec`]). The batches it runs and the row bar it draws
//! are [`crate::batch`]'s and [`crate::progress`]'s, shared with `replay`.

pub mod exec;
pub mod image;
pub mod spec;
