//! rdnaprobe's hardware oracle: runs hand-encoded RDNA2 instruction words on a real gfx103x GPU.
//!
//! - [`comgr`] and [`hip`] load ROCm's libraries at run time (libloading) into typed tables of
//!   function pointers; a missing library is [`OracleError::LibraryNotFound`], not a link error.
//! - [`template`] wraps a body in the probe kernel of the lane contract; [`assemble`] turns it into
//!   a code object with comgr and checks the kernel descriptor ([`elf`]) against the [`Mode`].
//! - [`wave`] is the wave contract's kernel (whole waves: SGPRs, EXEC/VCC/SCC, LDS, a memory
//!   region) and its executor side ([`wave::WaveInput`] in, [`wave::WaveResult`] out);
//! - [`exec`] runs rows of one kernel (or waves of a wave kernel) on a device; [`worker`] does it
//!   in a child process with a watchdog, so a hang or a GPU fault costs the affected rows, not
//!   the sweep; [`protocol`] is their JSON-lines protocol.
//!
//! This crate knows nothing about the instruction set or the recompiler: bodies are `&[u32]`.

pub mod assemble;
pub mod bundle;
pub mod comgr;
pub mod elf;
pub mod error;
pub mod exec;
pub mod hip;
mod loader;
pub mod metadata;
pub mod mode;
pub mod protocol;
pub mod template;
pub mod wave;
pub mod worker;

pub use assemble::{assemble_probe, assemble_wave_probe, ProbeKernel};
pub use comgr::Comgr;
pub use error::{Library, OracleError, Result};
pub use hip::Hip;
pub use mode::{FloatMode, Mode, ModeField, Target, Wave};
