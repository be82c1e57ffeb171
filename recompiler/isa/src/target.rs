//! Targets the crate accepts: RDNA2 (gfx1030..gfx1036, and the `gfx103x` family), and the
//! RDNA1 parts whose rows the datasets carry (gfx1010, gfx1013). Defined by the lane contract
//! (`rdnaprobe-contract`); re-exported here.

pub use rdnaprobe_contract::{Target, UnknownTarget};
