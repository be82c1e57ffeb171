//! The HIP runtime (libamdhip64), loaded at run time, with the entry points the oracle uses
//! resolved once into a typed table.
//!
//! Device properties: `hipDeviceProp_t` changed layout between ROCm 5 and ROCm 6 (ROCm 6 exports
//! the new one as `hipGetDevicePropertiesR0600` and keeps the old one under the old name), and
//! `hipDeviceAttribute_t` was renumbered too. So the name comes from `hipDeviceGetName`, memory from
//! `hipDeviceTotalMem`, and the arch name (`gcnArchName`, e.g. `gfx1030:xnack-`) is the field of
//! the struct the resolved entry point fills: [`PropLayout::R0000`] for `hipGetDeviceProperties`
//! (checked against Debian's libamdhip64-dev 5.2.3 header by the test `prop_layout_is_the_header's`),
//! [`PropLayout::R0600`] for `hipGetDevicePropertiesR0600` (ROCm 6's `hipDeviceProp_tR0600`).

use std::ffi::{c_char, c_void, CStr, CString};

use crate::error::{Library, OracleError, Result};
use crate::loader::{open_first, sym, Loaded};

/// Sonames tried in order: ROCm 5 (Debian 12 libamdhip64-5), ROCm 6, the unversioned dev link.
pub const HIP_SONAMES: [&str; 3] = ["libamdhip64.so.5", "libamdhip64.so.6", "libamdhip64.so"];
/// Environment variable naming a HIP library to try before the sonames.
pub const HIP_ENV: &str = "RDNAPROBE_HIP_LIB";
/// hipErrorNoDevice.
pub const HIP_ERROR_NO_DEVICE: i32 = 100;

/// The name of a `hipError_t` value (HIP's hip_runtime_api.h numbering, shared by ROCm 5 and 6).
pub fn error_name(code: i32) -> &'static str {
    match code {
        0 => "hipSuccess",
        1 => "hipErrorInvalidValue",
        2 => "hipErrorOutOfMemory",
        3 => "hipErrorNotInitialized",
        4 => "hipErrorDeinitialized",
        5 => "hipErrorProfilerDisabled",
        6 => "hipErrorProfilerNotInitialized",
        7 => "hipErrorProfilerAlreadyStarted",
        8 => "hipErrorProfilerAlreadyStopped",
        9 => "hipErrorInvalidConfiguration",
        12 => "hipErrorInvalidPitchValue",
        13 => "hipErrorInvalidSymbol",
        17 => "hipErrorInvalidDevicePointer",
        21 => "hipErrorInvalidMemcpyDirection",
        35 => "hipErrorInsufficientDriver",
        52 => "hipErrorMissingConfiguration",
        53 => "hipErrorPriorLaunchFailure",
        98 => "hipErrorInvalidDeviceFunction",
        100 => "hipErrorNoDevice",
        101 => "hipErrorInvalidDevice",
        200 => "hipErrorInvalidImage",
        201 => "hipErrorInvalidContext",
        202 => "hipErrorContextAlreadyCurrent",
        205 => "hipErrorMapFailed",
        206 => "hipErrorUnmapFailed",
        207 => "hipErrorArrayIsMapped",
        208 => "hipErrorAlreadyMapped",
        209 => "hipErrorNoBinaryForGpu",
        210 => "hipErrorAlreadyAcquired",
        211 => "hipErrorNotMapped",
        212 => "hipErrorNotMappedAsArray",
        213 => "hipErrorNotMappedAsPointer",
        214 => "hipErrorECCNotCorrectable",
        215 => "hipErrorUnsupportedLimit",
        216 => "hipErrorContextAlreadyInUse",
        217 => "hipErrorPeerAccessUnsupported",
        218 => "hipErrorInvalidKernelFile",
        219 => "hipErrorInvalidGraphicsContext",
        300 => "hipErrorInvalidSource",
        301 => "hipErrorFileNotFound",
        302 => "hipErrorSharedObjectSymbolNotFound",
        303 => "hipErrorSharedObjectInitFailed",
        304 => "hipErrorOperatingSystem",
        400 => "hipErrorInvalidHandle",
        401 => "hipErrorIllegalState",
        500 => "hipErrorNotFound",
        600 => "hipErrorNotReady",
        700 => "hipErrorIllegalAddress",
        701 => "hipErrorLaunchOutOfResources",
        702 => "hipErrorLaunchTimeOut",
        704 => "hipErrorPeerAccessAlreadyEnabled",
        705 => "hipErrorPeerAccessNotEnabled",
        708 => "hipErrorSetOnActiveProcess",
        709 => "hipErrorContextIsDestroyed",
        710 => "hipErrorAssert",
        712 => "hipErrorHostMemoryAlreadyRegistered",
        713 => "hipErrorHostMemoryNotRegistered",
        719 => "hipErrorLaunchFailure",
        720 => "hipErrorCooperativeLaunchTooLarge",
        801 => "hipErrorNotSupported",
        999 => "hipErrorUnknown",
        1052 => "hipErrorRuntimeMemory",
        1053 => "hipErrorRuntimeOther",
        _ => "unknown hipError_t",
    }
}

type Err = i32;
/// `hipModule_t`, `hipFunction_t`, `hipDeviceptr_t`, `hipStream_t`: opaque pointers.
pub type RawPtr = *mut c_void;

/// `hipModuleLaunchKernel`'s `extra` markers (HIP_LAUNCH_PARAM_*).
const LAUNCH_PARAM_BUFFER_POINTER: usize = 0x01;
const LAUNCH_PARAM_BUFFER_SIZE: usize = 0x02;
const LAUNCH_PARAM_END: usize = 0x03;

type LaunchFn = unsafe extern "C" fn(
    RawPtr,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    u32,
    RawPtr,
    *mut *mut c_void,
    *mut *mut c_void,
) -> Err;

struct Fns {
    init: unsafe extern "C" fn(u32) -> Err,
    get_device_count: unsafe extern "C" fn(*mut i32) -> Err,
    set_device: unsafe extern "C" fn(i32) -> Err,
    device_get_name: unsafe extern "C" fn(*mut c_char, i32, i32) -> Err,
    device_total_mem: unsafe extern "C" fn(*mut usize, i32) -> Err,
    get_device_properties: unsafe extern "C" fn(*mut c_void, i32) -> Err,
    /// The struct `get_device_properties` fills.
    prop_layout: PropLayout,
    get_error_name: Option<unsafe extern "C" fn(Err) -> *const c_char>,
    runtime_get_version: unsafe extern "C" fn(*mut i32) -> Err,
    driver_get_version: unsafe extern "C" fn(*mut i32) -> Err,
    module_load_data: unsafe extern "C" fn(*mut RawPtr, *const c_void) -> Err,
    module_unload: unsafe extern "C" fn(RawPtr) -> Err,
    module_get_function: unsafe extern "C" fn(*mut RawPtr, RawPtr, *const c_char) -> Err,
    malloc: unsafe extern "C" fn(*mut RawPtr, usize) -> Err,
    free: unsafe extern "C" fn(RawPtr) -> Err,
    memcpy_htod: unsafe extern "C" fn(RawPtr, *const c_void, usize) -> Err,
    memcpy_dtoh: unsafe extern "C" fn(*mut c_void, RawPtr, usize) -> Err,
    memset: unsafe extern "C" fn(RawPtr, i32, usize) -> Err,
    module_launch_kernel: LaunchFn,
    device_synchronize: unsafe extern "C" fn() -> Err,
}

/// A loaded HIP runtime.
pub struct Hip {
    fns: Fns,
    soname: String,
    _lib: Loaded,
}

impl std::fmt::Debug for Hip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hip").field("soname", &self.soname).finish()
    }
}

/// One HIP device.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeviceInfo {
    pub index: i32,
    pub name: String,
    /// `gcnArchName`, e.g. `gfx1030` or `gfx1035:xnack-`; empty if it could not be read.
    pub arch: String,
    pub total_mem: usize,
}

impl Hip {
    /// Loads HIP from [`HIP_ENV`] or [`HIP_SONAMES`].
    pub fn load() -> Result<Hip> {
        Self::load_from(&HIP_SONAMES)
    }

    pub fn load_from(sonames: &[&str]) -> Result<Hip> {
        let lib = open_first(Library::Hip, HIP_ENV, sonames)?;
        let l = Library::Hip;
        let (get_device_properties, prop_layout) = match sym(&lib, l, "hipGetDevicePropertiesR0600")
        {
            Ok(f) => (f, PropLayout::R0600),
            Err(_) => (sym(&lib, l, "hipGetDeviceProperties")?, PropLayout::R0000),
        };
        let fns = Fns {
            init: sym(&lib, l, "hipInit")?,
            get_device_count: sym(&lib, l, "hipGetDeviceCount")?,
            set_device: sym(&lib, l, "hipSetDevice")?,
            device_get_name: sym(&lib, l, "hipDeviceGetName")?,
            device_total_mem: sym(&lib, l, "hipDeviceTotalMem")?,
            get_device_properties,
            prop_layout,
            get_error_name: sym(&lib, l, "hipGetErrorName").ok(),
            runtime_get_version: sym(&lib, l, "hipRuntimeGetVersion")?,
            driver_get_version: sym(&lib, l, "hipDriverGetVersion")?,
            module_load_data: sym(&lib, l, "hipModuleLoadData")?,
            module_unload: sym(&lib, l, "hipModuleUnload")?,
            module_get_function: sym(&lib, l, "hipModuleGetFunction")?,
            malloc: sym(&lib, l, "hipMalloc")?,
            free: sym(&lib, l, "hipFree")?,
            memcpy_htod: sym(&lib, l, "hipMemcpyHtoD")?,
            memcpy_dtoh: sym(&lib, l, "hipMemcpyDtoH")?,
            memset: sym(&lib, l, "hipMemset")?,
            module_launch_kernel: sym(&lib, l, "hipModuleLaunchKernel")?,
            device_synchronize: sym(&lib, l, "hipDeviceSynchronize")?,
        };
        Ok(Hip {
            fns,
            soname: lib.soname.clone(),
            _lib: lib,
        })
    }

    pub fn soname(&self) -> &str {
        &self.soname
    }

    /// The error's name from the runtime (`hipGetErrorName`) or, failing that, the built-in table.
    pub fn error_name(&self, code: i32) -> String {
        if let Some(f) = self.fns.get_error_name {
            // SAFETY: hipGetErrorName returns a static NUL-terminated string or null.
            let p = unsafe { f(code) };
            if !p.is_null() {
                // SAFETY: non-null, NUL-terminated, static.
                let s = unsafe { CStr::from_ptr(p) }.to_string_lossy();
                if s.starts_with("hip") {
                    return s.into_owned();
                }
            }
        }
        error_name(code).to_string()
    }

    fn check(&self, call: &'static str, code: Err) -> Result<()> {
        if code == 0 {
            Ok(())
        } else {
            Err(OracleError::Hip {
                call,
                code,
                name: self.error_name(code),
            })
        }
    }

    /// `hipInit(0)`.
    pub fn init(&self) -> Result<()> {
        // SAFETY: no pointers.
        self.check("hipInit", unsafe { (self.fns.init)(0) })
    }

    /// (runtime, driver) versions as HIP encodes them (e.g. 50221153).
    pub fn versions(&self) -> Result<(i32, i32)> {
        let (mut r, mut d) = (0, 0);
        // SAFETY: valid out-pointers.
        self.check("hipRuntimeGetVersion", unsafe {
            (self.fns.runtime_get_version)(&mut r)
        })?;
        self.check("hipDriverGetVersion", unsafe {
            (self.fns.driver_get_version)(&mut d)
        })?;
        Ok((r, d))
    }

    /// The number of devices. hipErrorNoDevice and a count of zero both become
    /// [`OracleError::NoDevice`], which names the call and the code.
    pub fn device_count(&self) -> Result<i32> {
        let mut n = 0;
        // SAFETY: valid out-pointer.
        let code = unsafe { (self.fns.get_device_count)(&mut n) };
        if code == HIP_ERROR_NO_DEVICE {
            return Err(OracleError::NoDevice {
                reason: format!(
                    "hipGetDeviceCount returned {} ({code})",
                    self.error_name(code)
                ),
            });
        }
        self.check("hipGetDeviceCount", code)?;
        if n <= 0 {
            return Err(OracleError::NoDevice {
                reason: "hipGetDeviceCount reported 0 devices".into(),
            });
        }
        Ok(n)
    }

    /// Every device with its name and arch.
    pub fn devices(&self) -> Result<Vec<DeviceInfo>> {
        (0..self.device_count()?).map(|i| self.device(i)).collect()
    }

    pub fn device(&self, index: i32) -> Result<DeviceInfo> {
        let mut name = vec![0u8; 256];
        // SAFETY: the buffer holds `len` bytes.
        self.check("hipDeviceGetName", unsafe {
            (self.fns.device_get_name)(name.as_mut_ptr().cast(), name.len() as i32, index)
        })?;
        let mut mem = 0usize;
        // SAFETY: valid out-pointer.
        self.check("hipDeviceTotalMem", unsafe {
            (self.fns.device_total_mem)(&mut mem, index)
        })?;
        let layout = self.fns.prop_layout;
        // Twice the struct: room for a runtime that grew it within the same version.
        let mut props = vec![0u8; 2 * layout.size];
        // SAFETY: the buffer is larger than the struct this entry point fills.
        self.check("hipGetDeviceProperties", unsafe {
            (self.fns.get_device_properties)(props.as_mut_ptr().cast(), index)
        })?;
        let arch = layout.arch_name(&props).ok_or_else(|| {
            OracleError::Executor(format!(
                "hipGetDeviceProperties of {}: no gfx arch name at gcnArchName (byte {} of \
                 hipDeviceProp_t {}): a struct layout this build does not know",
                self.soname, layout.gcn_arch_name, layout.name
            ))
        })?;
        Ok(DeviceInfo {
            index,
            name: c_string(&name),
            arch,
            total_mem: mem,
        })
    }

    pub fn set_device(&self, index: i32) -> Result<()> {
        // SAFETY: no pointers.
        self.check("hipSetDevice", unsafe { (self.fns.set_device)(index) })
    }

    /// Loads a code object.
    pub fn module_load_data(&self, image: &[u8]) -> Result<Module> {
        let mut m: RawPtr = std::ptr::null_mut();
        // SAFETY: HIP reads the ELF image during the call only (it copies it).
        self.check("hipModuleLoadData", unsafe {
            (self.fns.module_load_data)(&mut m, image.as_ptr().cast())
        })?;
        Ok(Module { ptr: m })
    }

    pub fn module_unload(&self, module: Module) -> Result<()> {
        // SAFETY: `module` came from module_load_data and is consumed here; no Function of it
        // outlives the borrow that created it.
        self.check("hipModuleUnload", unsafe {
            (self.fns.module_unload)(module.ptr)
        })
    }

    pub fn module_get_function<'m>(&self, module: &'m Module, name: &str) -> Result<Function<'m>> {
        let cname = CString::new(name)
            .map_err(|_| OracleError::Protocol(format!("kernel name {name:?} has NUL")))?;
        let mut f: RawPtr = std::ptr::null_mut();
        // SAFETY: live module (borrowed), NUL-terminated name.
        self.check("hipModuleGetFunction", unsafe {
            (self.fns.module_get_function)(&mut f, module.ptr, cname.as_ptr())
        })?;
        Ok(Function {
            ptr: f,
            _module: std::marker::PhantomData,
        })
    }

    /// A device allocation freed on drop.
    pub fn alloc(&self, bytes: usize) -> Result<DeviceBuffer<'_>> {
        let mut p: RawPtr = std::ptr::null_mut();
        // SAFETY: valid out-pointer.
        self.check("hipMalloc", unsafe {
            (self.fns.malloc)(&mut p, bytes.max(4))
        })?;
        Ok(DeviceBuffer {
            hip: self,
            ptr: p,
            bytes,
        })
    }

    /// Launches `function` with a packed kernel-argument block (HIP_LAUNCH_PARAM_BUFFER_*), on
    /// the null stream.
    pub fn launch(
        &self,
        function: Function<'_>,
        grid_x: u32,
        block_x: u32,
        kernargs: &mut [u8],
    ) -> Result<()> {
        let mut size = kernargs.len();
        let mut extra: [*mut c_void; 5] = [
            LAUNCH_PARAM_BUFFER_POINTER as *mut c_void,
            kernargs.as_mut_ptr().cast(),
            LAUNCH_PARAM_BUFFER_SIZE as *mut c_void,
            (&mut size as *mut usize).cast(),
            LAUNCH_PARAM_END as *mut c_void,
        ];
        // SAFETY: `extra` and what it points to live for the call; HIP copies the arguments.
        self.check("hipModuleLaunchKernel", unsafe {
            (self.fns.module_launch_kernel)(
                function.ptr,
                grid_x,
                1,
                1,
                block_x,
                1,
                1,
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                extra.as_mut_ptr(),
            )
        })
    }

    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: no pointers.
        self.check("hipDeviceSynchronize", unsafe {
            (self.fns.device_synchronize)()
        })
    }
}

/// A loaded code object (`hipModule_t`). Only [`Hip::module_load_data`] makes one.
#[derive(Debug)]
pub struct Module {
    ptr: RawPtr,
}

/// A kernel of a loaded module (`hipFunction_t`); it cannot outlive its module.
#[derive(Clone, Copy, Debug)]
pub struct Function<'m> {
    ptr: RawPtr,
    _module: std::marker::PhantomData<&'m Module>,
}

/// Device memory, freed on drop.
pub struct DeviceBuffer<'h> {
    hip: &'h Hip,
    ptr: RawPtr,
    bytes: usize,
}

impl DeviceBuffer<'_> {
    pub fn ptr(&self) -> RawPtr {
        self.ptr
    }

    pub fn upload(&self, data: &[u8]) -> Result<()> {
        self.fits(data.len())?;
        // SAFETY: `data.len()` bytes fit in the allocation.
        self.hip.check("hipMemcpyHtoD", unsafe {
            (self.hip.fns.memcpy_htod)(self.ptr, data.as_ptr().cast(), data.len())
        })
    }

    pub fn download(&self, out: &mut [u8]) -> Result<()> {
        self.fits(out.len())?;
        // SAFETY: `out.len()` bytes fit in the allocation and in `out`.
        self.hip.check("hipMemcpyDtoH", unsafe {
            (self.hip.fns.memcpy_dtoh)(out.as_mut_ptr().cast(), self.ptr, out.len())
        })
    }

    pub fn fill(&self, byte: u8) -> Result<()> {
        // SAFETY: the whole allocation.
        self.hip.check("hipMemset", unsafe {
            (self.hip.fns.memset)(self.ptr, i32::from(byte), self.bytes)
        })
    }

    fn fits(&self, n: usize) -> Result<()> {
        if n > self.bytes {
            return Err(OracleError::Protocol(format!(
                "copy of {n} bytes into a {}-byte buffer",
                self.bytes
            )));
        }
        Ok(())
    }
}

impl Drop for DeviceBuffer<'_> {
    fn drop(&mut self) {
        // SAFETY: allocated by hipMalloc, freed once. A failure here cannot be reported.
        unsafe { (self.hip.fns.free)(self.ptr) };
    }
}

fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Where `gcnArchName` lies in a `hipDeviceProp_t` layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropLayout {
    pub name: &'static str,
    /// `sizeof(hipDeviceProp_t)`.
    pub size: usize,
    /// `offsetof(hipDeviceProp_t, gcnArchName)` (`char[256]`).
    pub gcn_arch_name: usize,
}

impl PropLayout {
    /// ROCm 5's `hipDeviceProp_t` (`hipGetDeviceProperties`): Debian's libamdhip64-dev 5.2.3.
    pub const R0000: PropLayout = PropLayout {
        name: "R0000 (ROCm 5)",
        size: 792,
        gcn_arch_name: 396,
    };
    /// ROCm 6's `hipDeviceProp_tR0600` (`hipGetDevicePropertiesR0600`).
    pub const R0600: PropLayout = PropLayout {
        name: "R0600 (ROCm 6)",
        size: 1472,
        gcn_arch_name: 1160,
    };

    /// `gcnArchName` of a filled struct, when it holds an arch name (`gfx...`, printable).
    pub fn arch_name(&self, props: &[u8]) -> Option<String> {
        let field = props.get(self.gcn_arch_name..self.gcn_arch_name + 256)?;
        let s = c_string(field);
        (s.starts_with("gfx") && s.len() >= 6 && s.bytes().all(|b| b.is_ascii_graphic()))
            .then_some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_names_cover_the_codes_the_oracle_reports() {
        assert_eq!(error_name(HIP_ERROR_NO_DEVICE), "hipErrorNoDevice");
        assert_eq!(error_name(101), "hipErrorInvalidDevice");
        assert_eq!(error_name(209), "hipErrorNoBinaryForGpu");
        assert_eq!(error_name(719), "hipErrorLaunchFailure");
        assert_eq!(error_name(-5), "unknown hipError_t");
    }

    #[test]
    fn the_arch_name_is_read_at_the_layout_s_field() {
        let mut props = vec![0u8; 2 * PropLayout::R0600.size];
        props[..12].copy_from_slice(b"gfx-lookalik"); // inside `name`: not the field
        let at = PropLayout::R0000.gcn_arch_name;
        props[at..at + 14].copy_from_slice(b"gfx1035:xnack-");
        assert_eq!(
            PropLayout::R0000.arch_name(&props).as_deref(),
            Some("gfx1035:xnack-")
        );
        // The other layout's field holds no arch name: an unknown layout is said, not guessed.
        assert_eq!(PropLayout::R0600.arch_name(&props), None);
        let at = PropLayout::R0600.gcn_arch_name;
        props[at..at + 7].copy_from_slice(b"gfx1030");
        assert_eq!(
            PropLayout::R0600.arch_name(&props).as_deref(),
            Some("gfx1030")
        );
    }

    /// The R0000 layout against the header of Debian's libamdhip64-dev (ROCm 5.2.3), compiled
    /// with the system C compiler: `sizeof` and `offsetof(gcnArchName)`.
    #[test]
    fn prop_layout_is_the_header_s() {
        let header = std::path::Path::new("/usr/include/hip/hip_runtime_api.h");
        if !header.exists() {
            assert!(
                std::env::var_os("CI").is_none(),
                "libamdhip64-dev is missing under CI (scripts/setup installs it)"
            );
            eprintln!("no HIP header, skipped");
            return;
        }
        let dir = std::env::temp_dir().join(format!("rdnaprobe-hip-layout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("layout.c");
        std::fs::write(
            &src,
            "#define __HIP_PLATFORM_AMD__ 1\n#include <stddef.h>\n#include <stdio.h>\n\
             #include <hip/hip_runtime_api.h>\nint main(void) { printf(\"%zu %zu\", \
             sizeof(hipDeviceProp_t), offsetof(hipDeviceProp_t, gcnArchName)); return 0; }\n",
        )
        .unwrap();
        let exe = dir.join("layout");
        let cc = std::process::Command::new("cc")
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .expect("runs cc");
        assert!(
            cc.status.success(),
            "{}",
            String::from_utf8_lossy(&cc.stderr)
        );
        let out = std::process::Command::new(&exe).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        std::fs::remove_dir_all(&dir).unwrap();
        let l = PropLayout::R0000;
        assert_eq!(
            text,
            format!("{} {}", l.size, l.gcn_arch_name),
            "the header says {text}"
        );
    }

    #[test]
    fn missing_library_is_distinct() {
        let err = Hip::load_from(&["libamdhip64_absent.so.42"]).unwrap_err();
        assert!(
            matches!(
                err,
                OracleError::LibraryNotFound {
                    library: Library::Hip,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string().contains("libamdhip64_absent.so.42"),
            "{err}"
        );
    }
}
