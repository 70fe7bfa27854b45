//! Failures at the boundary: an error value that carries a status and a
//! message naming the entry point and the argument, the thread-local last
//! error, and the guard that keeps panics from crossing into C.

use core::ffi::c_char;
use std::cell::RefCell;
use std::ffi::CString;
use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::status::LcStatus;

/// A failed call: its status and a message for `lc_last_error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfiError {
    /// The status returned to the caller.
    pub status: LcStatus,
    /// What went wrong and where (without the entry point's name, which the
    /// guard adds).
    pub message: String,
}

impl FfiError {
    /// An error of `status` described by `message`.
    pub fn new(status: LcStatus, message: impl Display) -> FfiError {
        FfiError { status, message: message.to_string() }
    }

    /// A null pointer passed for argument `arg`.
    pub fn null(arg: &str) -> FfiError {
        FfiError::new(LcStatus::NullPointer, format_args!("{arg} is null"))
    }

    /// An argument outside its allowed values.
    pub fn out_of_range(message: impl Display) -> FfiError {
        FfiError::new(LcStatus::OutOfRange, message)
    }
}

/// The result type of the bodies of entry points.
pub type FfiResult<T> = Result<T, FfiError>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `message` as this thread's last error.
pub(crate) fn set_last_error(message: &str) {
    // Interior NULs would cut the C string short: show them instead.
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = text);
}

/// The message of the last failed call on this thread, as Rust text.
pub fn last_error_message() -> String {
    LAST_ERROR.with(|slot| slot.borrow().to_string_lossy().into_owned())
}

/// The description of the last call on this thread that returned a status
/// other than `LC_STATUS_OK`: the entry point, the argument and what was
/// wrong, for example `"lc_game_step: moves[1] = 7 is not a move code"`.
/// An empty string when no call has failed on this thread yet.
///
/// Successful calls leave it unchanged. The string is owned by the library:
/// never free it; it stays valid until the next failing call on the same
/// thread. Never null.
#[no_mangle]
pub extern "C" fn lc_last_error() -> *const c_char {
    LAST_ERROR.with(|slot| slot.borrow().as_ptr())
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs the body of entry point `name`: a success is `LC_STATUS_OK`; an
/// error or a panic becomes its status and this thread's last error. No
/// panic ever unwinds past this function.
pub(crate) fn guard(name: &str, body: impl FnOnce() -> FfiResult<()>) -> LcStatus {
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return LcStatus::Ok,
        Ok(Err(e)) => e,
        Err(payload) => FfiError::new(
            LcStatus::Panic,
            format_args!("internal error (please report it): {}", panic_text(payload.as_ref())),
        ),
    };
    set_last_error(&format!("{name}: {}", failure.message));
    failure.status
}

/// Borrows `ptr` as a shared reference, or fails naming `arg`.
///
/// # Safety
/// A non-null `ptr` must point to a live, properly aligned `T`.
pub(crate) unsafe fn borrow<'a, T>(ptr: *const T, arg: &str) -> FfiResult<&'a T> {
    // SAFETY: the caller promises a non-null pointer is valid.
    unsafe { ptr.as_ref() }.ok_or_else(|| FfiError::null(arg))
}

/// Borrows `ptr` as an exclusive reference, or fails naming `arg`.
///
/// # Safety
/// A non-null `ptr` must point to a live, properly aligned `T` that nothing
/// else uses during the call.
pub(crate) unsafe fn borrow_mut<'a, T>(ptr: *mut T, arg: &str) -> FfiResult<&'a mut T> {
    // SAFETY: the caller promises a non-null pointer is valid and unshared.
    unsafe { ptr.as_mut() }.ok_or_else(|| FfiError::null(arg))
}

/// Borrows `len` elements at `ptr` (a null `ptr` is fine when `len` is 0).
///
/// # Safety
/// A non-null `ptr` must point to `len` live, initialised elements.
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize, arg: &str) -> FfiResult<&'a [T]> {
    if ptr.is_null() {
        return if len == 0 { Ok(&[]) } else { Err(FfiError::null(arg)) };
    }
    // SAFETY: the caller promises `len` elements at a non-null `ptr`.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Borrows `len` writable elements at `ptr` (a null `ptr` is fine when `len` is 0).
///
/// # Safety
/// A non-null `ptr` must point to `len` writable elements that nothing else
/// uses during the call.
pub(crate) unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize, arg: &str) -> FfiResult<&'a mut [T]> {
    if ptr.is_null() {
        return if len == 0 { Ok(&mut []) } else { Err(FfiError::null(arg)) };
    }
    // SAFETY: the caller promises `len` writable elements at a non-null `ptr`.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, len) })
}

/// Largest `struct_size` accepted: anything larger is taken for an
/// uninitialised field rather than a struct from a far future version.
pub const MAX_STRUCT_SIZE: u32 = 1 << 16;

/// Checks the `struct_size` of a caller struct: at least the size of the
/// first version (the prefix this library reads and writes), at most
/// [`MAX_STRUCT_SIZE`].
pub(crate) fn check_struct_size(arg: &str, struct_size: u32, first_version: usize) -> FfiResult<()> {
    if (struct_size as usize) < first_version || struct_size > MAX_STRUCT_SIZE {
        return Err(FfiError::new(
            LcStatus::StructSize,
            format_args!(
                "{arg}->struct_size = {struct_size}, expected at least {first_version} (set it to sizeof the struct)"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        unsafe { CStr::from_ptr(lc_last_error()) }.to_str().unwrap().to_string()
    }

    #[test]
    fn errors_name_the_entry_point_and_stay_per_thread() {
        assert_eq!(guard("lc_test", || Ok(())), LcStatus::Ok);
        let status = guard("lc_test", || Err(FfiError::null("game")));
        assert_eq!(status, LcStatus::NullPointer);
        assert_eq!(last(), "lc_test: game is null");
        assert_eq!(guard("lc_test", || Ok(())), LcStatus::Ok);
        assert_eq!(last(), "lc_test: game is null", "a success leaves the message");
        let other = std::thread::spawn(|| unsafe { CStr::from_ptr(lc_last_error()) }.to_str().unwrap().to_string());
        assert_eq!(other.join().unwrap(), "", "another thread has its own last error");
    }

    #[test]
    fn a_panic_becomes_a_status() {
        let status = guard("lc_test", || panic!("boom"));
        assert_eq!(status, LcStatus::Panic);
        assert_eq!(last(), "lc_test: internal error (please report it): boom");
    }

    #[test]
    fn interior_nul_bytes_are_shown_not_cut() {
        set_last_error("a\0b");
        assert_eq!(last(), "a\\0b");
    }

    #[test]
    fn struct_sizes() {
        assert!(check_struct_size("c", 8, 8).is_ok());
        assert!(check_struct_size("c", 100, 8).is_ok());
        assert_eq!(check_struct_size("c", 7, 8).unwrap_err().status, LcStatus::StructSize);
        assert_eq!(check_struct_size("c", 0, 8).unwrap_err().status, LcStatus::StructSize);
        assert_eq!(check_struct_size("c", u32::MAX, 8).unwrap_err().status, LcStatus::StructSize);
        assert!(check_struct_size("config", 3, 28).unwrap_err().message.contains("config->struct_size = 3"));
    }
}
