//! Keeping the secrets this process holds (the API key, an AWS secret access key) inside it.
//!
//! Two guards, both set up before anything else runs:
//!
//! - **No core dumps.** A crash dump would write the key to disk, where any backup or bug
//!   report can pick it up. As ssh-agent does, the core size limit is set to zero (soft and
//!   hard, so a child cannot raise it again) and, on Linux, the process is marked not
//!   dumpable, which also keeps other processes of the same user from reading its memory
//!   through `/proc/<pid>/mem` or `ptrace`.
//! - **A registry of known secrets.** Every secret the program learns is registered here, and
//!   [`redact_known`] replaces each one in any text shown to the user: a server that echoes
//!   the key in an error message, a response header or a body cannot make us print it. The
//!   shared escaper ([`crate::output::escape::escape`]) applies it to every server string.

use std::borrow::Cow;
use std::sync::RwLock;

/// Secrets shorter than this are not registered: replacing two or three characters wherever
/// they appear would mangle ordinary text, and no real key is that short.
const MIN_SECRET_LEN: usize = 8;

static KNOWN: RwLock<Vec<String>> = RwLock::new(Vec::new());

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

/// Remembers a secret so that [`redact_known`] hides it from every text shown to the user.
pub fn register_secret(secret: &str) {
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    // A poisoned lock only means another thread panicked while pushing: the list is intact.
    let mut known = KNOWN.write().unwrap_or_else(|e| e.into_inner());
    if !known.iter().any(|k| k == secret) {
        known.push(secret.to_string());
    }
}

/// Does `text` hold a registered secret?
pub fn holds_known(text: &str) -> bool {
    let known = KNOWN.read().unwrap_or_else(|e| e.into_inner());
    known.iter().any(|k| text.contains(k.as_str()))
}

/// `text` with every registered secret replaced by its redacted form (`abcd…(redacted)`).
pub fn redact_known(text: &str) -> Cow<'_, str> {
    let known = KNOWN.read().unwrap_or_else(|e| e.into_inner());
    if !known.iter().any(|k| text.contains(k.as_str())) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_string();
    for k in known.iter() {
        if out.contains(k.as_str()) {
            out = out.replace(k.as_str(), &crate::http::redact(k));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_are_redacted_and_short_ones_ignored() {
        register_secret("sk_unit_0123456789abcdefghij");
        register_secret("short");
        assert_eq!(
            redact_known("bad key Bearer sk_unit_0123456789abcdefghij!"),
            "bad key Bearer sk_u…(redacted)!"
        );
        assert!(holds_known("x sk_unit_0123456789abcdefghij"));
        assert_eq!(redact_known("a short text"), "a short text");
    }

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
