//! Keeping the secrets this process holds (the API key, an AWS secret access key) inside it,
//! set up before anything else runs (what is shown of them is [`crate::secrets`]' job).
//!
//! - **No core dumps.** A crash dump would write the key to disk, where any backup or bug
//!   report can pick it up. As ssh-agent does, the core size limit is set to zero (soft and
//!   hard, so a child cannot raise it again) and, on Linux, the process is marked not
//!   dumpable, which also keeps other processes of the same user from reading its memory
//!   through `/proc/<pid>/mem` or `ptrace`.

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
