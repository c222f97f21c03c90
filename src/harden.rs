//! Keeping the secrets this process holds (the API key, an AWS secret access key) inside it,
//! set up before anything else runs (what is shown of them is [`crate::secrets`]' job).
//!
//! - **No core dumps.** A crash dump would write the key to disk, where any backup or bug
//!   report can pick it up. As ssh-agent does, the core size limit is set to zero (soft and
//!   hard, so a child cannot raise it again) and, on Linux, the process is marked not
//!   dumpable, which also keeps other processes of the same user from reading its memory
//!   through `/proc/<pid>/mem` or `ptrace`.
//!
//! And one guard for the files it writes ([`crate::files`]):
//!
//! - **A file-size limit is an error, not a kill.** By default a write past `ulimit -f`
//!   raises SIGXFSZ, which ends the process before it can remove its half-written temporary
//!   file or say what failed. Ignored, the write fails with EFBIG instead, which is reported
//!   like any other failed write.

/// Turns core dumps off for this process. Called first thing in [`crate::run`]; failures are
/// ignored because the program works the same without the guard (a sandbox may forbid it).
pub fn disable_core_dumps() {
    #[cfg(unix)]
    {
        let zero = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: setrlimit reads a valid, initialised rlimit struct and touches nothing else.
        unsafe {
            libc::setrlimit(libc::RLIMIT_CORE, &zero);
        }
    }
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // SAFETY: PR_SET_DUMPABLE takes one integer argument; the rest are ignored.
        unsafe {
            libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        }
    }
}

/// Makes a write past the file-size limit fail with an error instead of killing the process
/// (see the module's documentation). Called first thing in [`crate::run`].
pub fn survive_file_size_limit() {
    #[cfg(unix)]
    {
        // SAFETY: setting a signal's disposition to SIG_IGN installs no handler code.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn core_dumps_are_off() {
        disable_core_dumps();
        let mut lim = libc::rlimit {
            rlim_cur: 1,
            rlim_max: 1,
        };
        // SAFETY: getrlimit writes into the struct it is given.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_CORE, &mut lim) }, 0);
        assert_eq!((lim.rlim_cur, lim.rlim_max), (0, 0));
        // SAFETY: PR_GET_DUMPABLE takes no arguments and returns the flag.
        assert_eq!(unsafe { libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0) }, 0);
    }
}
