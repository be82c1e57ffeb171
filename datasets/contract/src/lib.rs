//! The lane contract's shared vocabulary (ARCHITECTURE.md, "The lane contract"): the types that
//! every stage of rdnaprobe names the same way, defined once.
//!
//! - [`FloatMode`] (with [`Round`] and the [`ModeField`] list) is the MODE register as the kernel
//!   descriptor sets it; [`ModeCells`] is the same fields as a dataset row states them, where an
//!   empty cell is "not stated" and [`ModeCells::resolve`] fills it from [`FloatMode::DEFAULT`].
//! - [`Wave`] and [`Target`] (the gfx10 chips, and `gfx103x`, the family's semantics).
//! - The documented replay defaults: [`FloatMode::DEFAULT`], [`Wave::DEFAULT`],
//!   [`Target::DEFAULT`].
//! - [`DwordType`]: what one output dword holds, which decides how a diff compares it.
//! - [`Status`]: what happened to a row on a backend (`ok`, `unsupported: ..`, `error: ..`).
//!
//! No I/O, no GPU, no instruction set: the instruction table, the dataset schema, the oracle
//! and the reports all depend on this crate, never the other way round.

pub mod dtype;
pub mod error;
pub mod mode;
pub mod status;
pub mod target;
pub mod wave;

pub use dtype::DwordType;
pub use error::ContractError;
pub use mode::{FloatMode, ModeCells, ModeField, Round};
pub use status::Status;
pub use target::{Target, UnknownTarget};
pub use wave::{watchdog_message, Wave, CONTRACT_SGPRS, MEM_BASE, SGPR_INPUTS, WATCHDOG_BLOCKS};
