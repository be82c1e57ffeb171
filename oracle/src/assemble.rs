//! Template + comgr: one probe kernel's code object, checked against the mode it was asked for.

use crate::comgr::Comgr;
use crate::elf::CodeObject;
use crate::error::{OracleError, Result};
use crate::mode::{Mode, Target};
use crate::template::{assembler_options, kernel_source, KERNEL_NAME};
use crate::wave::hip::check_code_object;
use crate::wave::{wave_kernel_source, WaveShape};

/// An assembled probe kernel.
#[derive(Clone, Debug)]
pub struct ProbeKernel {
    pub target: Target,
    pub mode: Mode,
    /// The generated assembly (kept for `--keep-source`-style debugging and error reports).
    pub source: String,
    /// The executable code object (ELF) for hipModuleLoadData.
    pub code_object: Vec<u8>,
}

/// Assembles and links the probe kernel for `body`, then reads the kernel descriptor back and
/// checks that the float mode and wave size are the ones requested, so a directive the
/// assembler ignored cannot silently run the body in another mode.
pub fn assemble_probe(
    comgr: &Comgr,
    target: Target,
    mode: &Mode,
    body: &[u32],
) -> Result<ProbeKernel> {
    finish(comgr, target, mode, kernel_source(target, mode, body)?)
}

/// Assembles the wave-contract kernel (`crate::wave::template`) for `body` and checks its
/// descriptor's mode, wave size and LDS allocation.
pub fn assemble_wave_probe(
    comgr: &Comgr,
    target: Target,
    mode: &Mode,
    shape: &WaveShape,
    body: &[u32],
) -> Result<ProbeKernel> {
    let k = finish(
        comgr,
        target,
        mode,
        wave_kernel_source(target, mode, shape, body)?,
    )?;
    check_code_object(&k.code_object, shape)?;
    Ok(k)
}

fn finish(comgr: &Comgr, target: Target, mode: &Mode, source: String) -> Result<ProbeKernel> {
    let code_object =
        comgr.assemble_executable(&target.isa_name(), &source, &assembler_options(mode))?;
    let elf = CodeObject::parse(&code_object)?;
    if elf.mach() != target.elf_mach() {
        return Err(OracleError::BadElf {
            offset: 48,
            message: format!(
                "EF_AMDGPU_MACH {:#x}, expected {:#x} for {target}",
                elf.mach(),
                target.elf_mach()
            ),
        });
    }
    let got = elf.kernel_descriptor(KERNEL_NAME)?.mode();
    if got != *mode {
        return Err(OracleError::BadElf {
            offset: elf.symbol(&format!("{KERNEL_NAME}.kd"))?.file_offset,
            message: format!("kernel descriptor mode {got:?} differs from the requested {mode:?}"),
        });
    }
    Ok(ProbeKernel {
        target,
        mode: *mode,
        source,
        code_object,
    })
}
