//! How the C allocator hands out large buffers in the commands that run for as long as the
//! user lets them (`local inspect`, `local requests tail`, `local requests record`,
//! `sessions watch`).
//!
//! glibc's malloc serves a request of 128 KiB or more with a mapping of its own, returned to
//! the system when freed, but each such free raises that threshold up to the size freed (up to
//! 32 MiB). After the first few 1 MB captures, every later body and every poll's answer comes
//! from the ordinary heap, where freed memory is fragmented and kept: the inspector under
//! `--max-memory 32MiB`, fed 300 captures of 1 MB, peaked at 96–98 MB against 74 MB with the
//! threshold held (bench S10). `sessions watch` reads a list of thousands of sessions at each
//! refresh: its RSS went on rising for a dozen refreshes before it settled (bench S16). Holding
//! it costs a fresh mapping per large buffer, which a watcher polling a few times a second does
//! not notice; the short commands keep glibc's default, tuned for throughput.

/// The size from which a buffer gets a mapping of its own: glibc's initial threshold.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;

/// Holds glibc's mmap threshold at its initial 128 KiB for the rest of the process (see the
/// module's text). Nothing on other platforms; a refusal is ignored, as the command works the
/// same with the default.
pub fn hold_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called before the command's
    // threads start, and glibc's allocator takes its own lock for it in any case.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
