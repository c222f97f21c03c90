//! A `--jq` filter that recurses without end (`def f: [f]; f`) must end with a clear error,
//! not abort the process with "has overflowed its stack" (SIGABRT, exit 134).
//!
//! jaq 3 evaluates filters by plain Rust recursion and has no depth limit, and it offers no
//! hook inside that recursion where a depth or step counter could run; its values are not
//! `Send`, so evaluation cannot move to a thread of our own either. What remains sound is to
//! recognise the overflow itself: while a filter runs, a SIGSEGV/SIGBUS handler (on the
//! alternate signal stack, where a handler for a stack overflow must run) checks whether the
//! faulting address lies at the low end of the evaluating thread's stack, where growth ran
//! out. If so it writes one error line with `write(2)` and ends with `_exit(2)`, both
//! async-signal-safe; any other fault is handed back to the handler that was there before
//! (Rust's own), untouched.
//!
//! Exit 2, as for any other error of the filter the user gave (`--jq: …` runtime errors are
//! usage errors): the data was fine, the filter cannot be evaluated.
//!
//! Linux only; elsewhere the filter runs unguarded.

/// Runs `eval` (the evaluation of a filter) with the stack guard armed.
pub fn guarded<T>(eval: impl FnOnce() -> T) -> T {
    #[cfg(target_os = "linux")]
    let _armed = imp::arm();
    eval()
}

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Once, OnceLock};

    /// What the user reads; one line, as every error.
    const MESSAGE: &[u8] = b"error: --jq: the filter recursed too deeply and ran out of stack; give each recursive def a case that ends it\n";

    /// How far from the stack's low end a fault still counts as the stack running out: a
    /// frame may skip past the limit, and the kernel keeps a gap of up to 1 MiB below it.
    const WINDOW: usize = 2 * 1024 * 1024;

    static ARMED: AtomicBool = AtomicBool::new(false);
    /// The lowest address the evaluating thread's stack may grow to.
    static LOW: AtomicUsize = AtomicUsize::new(0);
    static INSTALL: Once = Once::new();
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    static PREVIOUS_SEGV: OnceLock<libc::sigaction> = OnceLock::new();
    static PREVIOUS_BUS: OnceLock<libc::sigaction> = OnceLock::new();

    thread_local! {
        /// This thread's stack low end, once it has an alternate signal stack.
        static THREAD_LOW: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    }

    /// Disarms the guard when the evaluation ends.
    pub struct Armed {
        was: bool,
    }

    impl Drop for Armed {
        fn drop(&mut self) {
            ARMED.store(self.was, Ordering::SeqCst);
        }
    }

    /// Arms the guard for the current thread; without a known stack, or if the handler could
    /// not be installed, the evaluation runs unguarded.
    pub fn arm() -> Option<Armed> {
        INSTALL.call_once(install);
        if !INSTALLED.load(Ordering::SeqCst) {
            return None;
        }
        // Found once per thread: glibc reads /proc/self/maps for the main thread's stack, far
        // too slow to repeat for each of a million list items filtered one by one.
        let low = THREAD_LOW.with(|cell| {
            if cell.get().is_none() && ensure_altstack() {
                cell.set(stack_low());
            }
            cell.get()
        })?;
        LOW.store(low, Ordering::SeqCst);
        let was = ARMED.swap(true, Ordering::SeqCst);
        Some(Armed { was })
    }

    /// The low end of the current thread's stack, as the C library knows it.
    fn stack_low() -> Option<usize> {
        // SAFETY: `attr` is initialised by pthread_getattr_np before it is read, and destroyed
        // once; the out-pointers point at locals.
        unsafe {
            let mut attr: libc::pthread_attr_t = std::mem::zeroed();
            if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
                return None;
            }
            let mut addr: *mut libc::c_void = std::ptr::null_mut();
            let mut size: libc::size_t = 0;
            let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
            libc::pthread_attr_destroy(&mut attr);
            (ok && !addr.is_null()).then_some(addr as usize)
        }
    }

    /// A handler for a stack overflow can only run on an alternate stack. Rust gives the main
    /// thread one; make sure this thread has one.
    fn ensure_altstack() -> bool {
        // SAFETY: sigaltstack reads/writes only the structs given; the new stack is leaked, so
        // it stays valid for the life of the thread.
        unsafe {
            let mut current: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut current) != 0 {
                return false;
            }
            if current.ss_flags & libc::SS_DISABLE == 0 {
                return true;
            }
            let size = libc::SIGSTKSZ.max(64 * 1024);
            let memory: &'static mut [u8] = Box::leak(vec![0u8; size].into_boxed_slice());
            let stack = libc::stack_t {
                ss_sp: memory.as_mut_ptr().cast(),
                ss_flags: 0,
                ss_size: size,
            };
            libc::sigaltstack(&stack, std::ptr::null_mut()) == 0
        }
    }

    fn install() {
        // SAFETY: the handler only reads atomics and calls async-signal-safe functions
        // (write, _exit, sigaction); the structs passed live across each call.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fault as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            for (signal, previous) in [
                (libc::SIGSEGV, &PREVIOUS_SEGV),
                (libc::SIGBUS, &PREVIOUS_BUS),
            ] {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, &action, &mut old) != 0 {
                    return;
                }
                let _ = previous.set(old);
            }
        }
        INSTALLED.store(true, Ordering::SeqCst);
    }

    extern "C" fn on_fault(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let addr = unsafe { (*info).si_addr() } as usize;
        if ARMED.load(Ordering::SeqCst) {
            let low = LOW.load(Ordering::SeqCst);
            if addr >= low.saturating_sub(WINDOW) && addr < low.saturating_add(WINDOW) {
                // SAFETY: write and _exit are async-signal-safe; MESSAGE is static.
                unsafe {
                    libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
                    libc::_exit(2);
                }
            }
        }
        // Not a filter running out of stack: put back the handler that was there before and
        // return; the fault happens again and that handler deals with it as it always did.
        let previous = if signal == libc::SIGSEGV {
            PREVIOUS_SEGV.get()
        } else {
            PREVIOUS_BUS.get()
        };
        // SAFETY: sigaction is async-signal-safe; the structs live for the call.
        unsafe {
            match previous {
                Some(p) => {
                    libc::sigaction(signal, p, std::ptr::null_mut());
                }
                None => {
                    let mut default: libc::sigaction = std::mem::zeroed();
                    default.sa_sigaction = libc::SIG_DFL;
                    libc::sigaction(signal, &default, std::ptr::null_mut());
                }
            }
        }
    }
}
