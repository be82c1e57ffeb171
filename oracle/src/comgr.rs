//! The AMD code object manager (comgr), loaded at run time. It assembles the probe kernel's
//! source into a relocatable object and links that into an executable code object, in process:
//! no clang or lld subprocess.
//!
//! The enum values below are the ones of comgr's public header. The action numbering changed
//! between the ABI majors: comgr 2 (ROCm 5, Debian libamd-comgr2) still has
//! ADD_DEVICE_LIBRARIES and OPTIMIZE_BC_TO_BC, which comgr 3 (ROCm 6) dropped, so the assemble and
//! link actions are 0xA/0x9 under comgr 2 and 0x8/0x7 under comgr 3. The library's own
//! `amd_comgr_get_version` decides which table applies.

use std::ffi::{c_char, CStr, CString};

use crate::error::{Library, OracleError, Result};
use crate::loader::{open_first, sym, Loaded};

/// Sonames tried in order: ROCm 5 (Debian 12 libamd-comgr2), ROCm 6, the unversioned dev link.
pub const COMGR_SONAMES: [&str; 3] = ["libamd_comgr.so.2", "libamd_comgr.so.3", "libamd_comgr.so"];
/// Environment variable naming a comgr library to try before the sonames.
pub const COMGR_ENV: &str = "RDNAPROBE_COMGR_LIB";

type Status = u32;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Handle {
    handle: u64,
}

const DATA_KIND_SOURCE: u32 = 0x1;
const DATA_KIND_LOG: u32 = 0x5;
const DATA_KIND_EXECUTABLE: u32 = 0x8;

/// The name of an `amd_comgr_status_t` value.
pub fn status_name(code: u32) -> &'static str {
    match code {
        0 => "AMD_COMGR_STATUS_SUCCESS",
        1 => "AMD_COMGR_STATUS_ERROR",
        2 => "AMD_COMGR_STATUS_ERROR_INVALID_ARGUMENT",
        3 => "AMD_COMGR_STATUS_ERROR_OUT_OF_RESOURCES",
        _ => "unknown amd_comgr_status_t",
    }
}

/// The action numbers of one comgr ABI major.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Actions {
    assemble_source_to_relocatable: u32,
    link_relocatable_to_executable: u32,
}

fn actions_for_major(major: usize) -> Actions {
    if major <= 2 {
        Actions {
            assemble_source_to_relocatable: 0xA,
            link_relocatable_to_executable: 0x9,
        }
    } else {
        Actions {
            assemble_source_to_relocatable: 0x8,
            link_relocatable_to_executable: 0x7,
        }
    }
}

struct Fns {
    get_version: unsafe extern "C" fn(*mut usize, *mut usize),
    create_data: unsafe extern "C" fn(u32, *mut Handle) -> Status,
    release_data: unsafe extern "C" fn(Handle) -> Status,
    set_data: unsafe extern "C" fn(Handle, usize, *const c_char) -> Status,
    set_data_name: unsafe extern "C" fn(Handle, *const c_char) -> Status,
    get_data: unsafe extern "C" fn(Handle, *mut usize, *mut c_char) -> Status,
    create_data_set: unsafe extern "C" fn(*mut Handle) -> Status,
    destroy_data_set: unsafe extern "C" fn(Handle) -> Status,
    data_set_add: unsafe extern "C" fn(Handle, Handle) -> Status,
    action_data_count: unsafe extern "C" fn(Handle, u32, *mut usize) -> Status,
    action_data_get_data: unsafe extern "C" fn(Handle, u32, usize, *mut Handle) -> Status,
    create_action_info: unsafe extern "C" fn(*mut Handle) -> Status,
    destroy_action_info: unsafe extern "C" fn(Handle) -> Status,
    action_info_set_isa_name: unsafe extern "C" fn(Handle, *const c_char) -> Status,
    action_info_set_option_list:
        unsafe extern "C" fn(Handle, *const *const c_char, usize) -> Status,
    action_info_set_logging: unsafe extern "C" fn(Handle, bool) -> Status,
    do_action: unsafe extern "C" fn(u32, Handle, Handle, Handle) -> Status,
}

/// A loaded comgr with every entry point the oracle uses resolved once.
pub struct Comgr {
    fns: Fns,
    version: (usize, usize),
    actions: Actions,
    soname: String,
    _lib: Loaded,
}

impl std::fmt::Debug for Comgr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Comgr")
            .field("soname", &self.soname)
            .field("version", &self.version)
            .finish()
    }
}

fn check(call: &'static str, code: Status) -> Result<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(OracleError::Comgr {
            call,
            code,
            name: status_name(code),
            log: String::new(),
        })
    }
}

impl Comgr {
    /// Loads comgr from [`COMGR_ENV`] or [`COMGR_SONAMES`].
    pub fn load() -> Result<Comgr> {
        Self::load_from(&COMGR_SONAMES)
    }

    /// Loads comgr trying `sonames` (after [`COMGR_ENV`]).
    pub fn load_from(sonames: &[&str]) -> Result<Comgr> {
        let lib = open_first(Library::Comgr, COMGR_ENV, sonames)?;
        let l = Library::Comgr;
        let fns = Fns {
            get_version: sym(&lib, l, "amd_comgr_get_version")?,
            create_data: sym(&lib, l, "amd_comgr_create_data")?,
            release_data: sym(&lib, l, "amd_comgr_release_data")?,
            set_data: sym(&lib, l, "amd_comgr_set_data")?,
            set_data_name: sym(&lib, l, "amd_comgr_set_data_name")?,
            get_data: sym(&lib, l, "amd_comgr_get_data")?,
            create_data_set: sym(&lib, l, "amd_comgr_create_data_set")?,
            destroy_data_set: sym(&lib, l, "amd_comgr_destroy_data_set")?,
            data_set_add: sym(&lib, l, "amd_comgr_data_set_add")?,
            action_data_count: sym(&lib, l, "amd_comgr_action_data_count")?,
            action_data_get_data: sym(&lib, l, "amd_comgr_action_data_get_data")?,
            create_action_info: sym(&lib, l, "amd_comgr_create_action_info")?,
            destroy_action_info: sym(&lib, l, "amd_comgr_destroy_action_info")?,
            action_info_set_isa_name: sym(&lib, l, "amd_comgr_action_info_set_isa_name")?,
            action_info_set_option_list: sym(&lib, l, "amd_comgr_action_info_set_option_list")?,
            action_info_set_logging: sym(&lib, l, "amd_comgr_action_info_set_logging")?,
            do_action: sym(&lib, l, "amd_comgr_do_action")?,
        };
        let (mut major, mut minor) = (0usize, 0usize);
        // SAFETY: two valid out-pointers, as the prototype asks.
        unsafe { (fns.get_version)(&mut major, &mut minor) };
        Ok(Comgr {
            fns,
            version: (major, minor),
            actions: actions_for_major(major),
            soname: lib.soname.clone(),
            _lib: lib,
        })
    }

    /// comgr's (major, minor) version, e.g. (2, 4) for ROCm 5.2.
    pub fn version(&self) -> (usize, usize) {
        self.version
    }

    /// The soname or path the library was loaded from.
    pub fn soname(&self) -> &str {
        &self.soname
    }

    /// Assembles `source` for `isa_name` (e.g. `amdgcn-amd-amdhsa--gfx1030`) and links it into an
    /// executable code object. `options` go to the assembler (clang driver spelling, e.g.
    /// `-mwavefrontsize64`). Assembler diagnostics are returned in the error's `log`.
    pub fn assemble_executable(
        &self,
        isa_name: &str,
        source: &str,
        options: &[&str],
    ) -> Result<Vec<u8>> {
        // comgr 2.x runs its in-process assembler and linker over LLVM's global state; one action
        // at a time per process keeps concurrent callers (test threads, rayon) safe.
        static ACTIONS: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one_at_a_time = ACTIONS.lock().unwrap_or_else(|p| p.into_inner());
        let isa = CString::new(isa_name)
            .map_err(|_| OracleError::Protocol(format!("isa name {isa_name:?} contains NUL")))?;
        let opts: Vec<CString> = options
            .iter()
            .map(|o| {
                CString::new(*o)
                    .map_err(|_| OracleError::Protocol(format!("option {o:?} contains NUL")))
            })
            .collect::<Result<_>>()?;

        let src = self.data(DATA_KIND_SOURCE)?;
        self.set_bytes(&src, source.as_bytes(), c"probe.s")?;
        let input = self.data_set()?;
        // SAFETY: both handles are live (owned by the guards).
        check("amd_comgr_data_set_add", unsafe {
            (self.fns.data_set_add)(input.0, src.0)
        })?;

        let info = self.action_info(&isa, &opts)?;
        let relocatable = self.data_set()?;
        self.action(
            "amd_comgr_do_action(ASSEMBLE_SOURCE_TO_RELOCATABLE)",
            self.actions.assemble_source_to_relocatable,
            &info,
            &input,
            &relocatable,
        )?;
        let link_info = self.action_info(&isa, &[])?;
        let executable = self.data_set()?;
        self.action(
            "amd_comgr_do_action(LINK_RELOCATABLE_TO_EXECUTABLE)",
            self.actions.link_relocatable_to_executable,
            &link_info,
            &relocatable,
            &executable,
        )?;
        let mut objects = self.collect(&executable, DATA_KIND_EXECUTABLE)?;
        match objects.len() {
            1 => Ok(objects.remove(0)),
            n => Err(OracleError::Comgr {
                call: "amd_comgr_action_data_count(EXECUTABLE)",
                code: 1,
                name: status_name(1),
                log: format!("expected one executable, comgr produced {n}"),
            }),
        }
    }

    fn action(
        &self,
        call: &'static str,
        kind: u32,
        info: &InfoGuard,
        input: &SetGuard,
        out: &SetGuard,
    ) -> Result<()> {
        // SAFETY: all handles are live guards.
        let code = unsafe { (self.fns.do_action)(kind, info.0, input.0, out.0) };
        if code == 0 {
            return Ok(());
        }
        let log = self
            .collect(out, DATA_KIND_LOG)
            .map(|logs| {
                logs.iter()
                    .map(|l| String::from_utf8_lossy(l).into_owned())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default();
        Err(OracleError::Comgr {
            call,
            code,
            name: status_name(code),
            log,
        })
    }

    fn data(&self, kind: u32) -> Result<DataGuard<'_>> {
        let mut h = Handle { handle: 0 };
        // SAFETY: valid out-pointer.
        check("amd_comgr_create_data", unsafe {
            (self.fns.create_data)(kind, &mut h)
        })?;
        Ok(DataGuard(h, self))
    }

    fn set_bytes(&self, data: &DataGuard<'_>, bytes: &[u8], name: &CStr) -> Result<()> {
        // SAFETY: live handle; comgr copies `bytes` and `name`.
        check("amd_comgr_set_data", unsafe {
            (self.fns.set_data)(data.0, bytes.len(), bytes.as_ptr().cast())
        })?;
        check("amd_comgr_set_data_name", unsafe {
            (self.fns.set_data_name)(data.0, name.as_ptr())
        })
    }

    fn data_set(&self) -> Result<SetGuard<'_>> {
        let mut h = Handle { handle: 0 };
        // SAFETY: valid out-pointer.
        check("amd_comgr_create_data_set", unsafe {
            (self.fns.create_data_set)(&mut h)
        })?;
        Ok(SetGuard(h, self))
    }

    fn action_info(&self, isa: &CStr, options: &[CString]) -> Result<InfoGuard<'_>> {
        let mut h = Handle { handle: 0 };
        // SAFETY: valid out-pointer.
        check("amd_comgr_create_action_info", unsafe {
            (self.fns.create_action_info)(&mut h)
        })?;
        let guard = InfoGuard(h, self);
        // SAFETY: live handle; comgr copies the strings.
        check("amd_comgr_action_info_set_isa_name", unsafe {
            (self.fns.action_info_set_isa_name)(h, isa.as_ptr())
        })?;
        check("amd_comgr_action_info_set_logging", unsafe {
            (self.fns.action_info_set_logging)(h, true)
        })?;
        let ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
        // SAFETY: `ptrs` points at `options`, alive for the call; comgr copies the list.
        check("amd_comgr_action_info_set_option_list", unsafe {
            (self.fns.action_info_set_option_list)(h, ptrs.as_ptr(), ptrs.len())
        })?;
        Ok(guard)
    }

    /// Copies out every data object of `kind` in `set`.
    fn collect(&self, set: &SetGuard<'_>, kind: u32) -> Result<Vec<Vec<u8>>> {
        let mut count = 0usize;
        // SAFETY: live handle, valid out-pointer.
        check("amd_comgr_action_data_count", unsafe {
            (self.fns.action_data_count)(set.0, kind, &mut count)
        })?;
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            let mut h = Handle { handle: 0 };
            // SAFETY: index < count; the returned handle holds a reference we release below.
            check("amd_comgr_action_data_get_data", unsafe {
                (self.fns.action_data_get_data)(set.0, kind, i, &mut h)
            })?;
            let data = DataGuard(h, self);
            let mut size = 0usize;
            // SAFETY: a null buffer asks for the size only.
            check("amd_comgr_get_data", unsafe {
                (self.fns.get_data)(data.0, &mut size, std::ptr::null_mut())
            })?;
            let mut bytes = vec![0u8; size];
            // SAFETY: `bytes` has room for `size` bytes.
            check("amd_comgr_get_data", unsafe {
                (self.fns.get_data)(data.0, &mut size, bytes.as_mut_ptr().cast())
            })?;
            bytes.truncate(size);
            out.push(bytes);
        }
        Ok(out)
    }
}

struct DataGuard<'a>(Handle, &'a Comgr);
struct SetGuard<'a>(Handle, &'a Comgr);
struct InfoGuard<'a>(Handle, &'a Comgr);

// Release failures cannot be reported from Drop; comgr only fails them for invalid handles,
// which the guards rule out.
impl Drop for DataGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle was created by comgr and is released once.
        unsafe { (self.1.fns.release_data)(self.0) };
    }
}
impl Drop for SetGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: as above.
        unsafe { (self.1.fns.destroy_data_set)(self.0) };
    }
}
impl Drop for InfoGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: as above.
        unsafe { (self.1.fns.destroy_action_info)(self.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names() {
        assert_eq!(status_name(0), "AMD_COMGR_STATUS_SUCCESS");
        assert_eq!(status_name(2), "AMD_COMGR_STATUS_ERROR_INVALID_ARGUMENT");
        assert_eq!(status_name(77), "unknown amd_comgr_status_t");
    }

    #[test]
    fn action_numbering_per_abi_major() {
        assert_eq!(actions_for_major(2).assemble_source_to_relocatable, 0xA);
        assert_eq!(actions_for_major(2).link_relocatable_to_executable, 0x9);
        assert_eq!(actions_for_major(3).assemble_source_to_relocatable, 0x8);
        assert_eq!(actions_for_major(3).link_relocatable_to_executable, 0x7);
    }

    #[test]
    fn missing_library_lists_what_was_tried() {
        let err = Comgr::load_from(&["libamd_comgr_absent.so.99"]).unwrap_err();
        match &err {
            OracleError::LibraryNotFound {
                library: Library::Comgr,
                tried,
                ..
            } => {
                assert!(
                    tried.iter().any(|t| t == "libamd_comgr_absent.so.99"),
                    "{tried:?}"
                )
            }
            other => panic!("expected LibraryNotFound, got {other:?}"),
        }
        assert!(err.to_string().contains("libamd-comgr2"), "{err}");
    }
}
