//! The peak memory of a run of the binary, from its own rusage.
//!
//! A child spawned straight from the test process is charged the test process's high-water
//! mark (the kernel carries the old address space's peak across `exec`, and `posix_spawn`
//! shares it), which grows as the other tests of the process run. So the command runs as the
//! grandchild of a small Python process that forks it and reports its `wait4` rusage.

use std::process::Stdio;
use std::time::{Duration, Instant};

/// Forks the command from a small Python process and reports its rusage.
const REPORTER: &str = r#"
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.stderr.write("rusage %d %d\n" % (code, usage.ru_maxrss))
"#;

/// What a measured run did.
pub struct Measured {
    /// The exit code (negative: the signal that ended it).
    pub code: i32,
    /// Peak resident memory, in bytes.
    pub peak: u64,
    /// Wall-clock time.
    pub took: Duration,
    /// What it wrote to stdout.
    pub stdout: Vec<u8>,
    /// What it wrote to stderr.
    pub stderr: String,
}

/// Runs the binary to the end and returns its exit code, its peak RSS in bytes, how long it
/// took, and what it printed.
pub fn measure(cmd: std::process::Command) -> Measured {
    let out = tempfile::NamedTempFile::new().expect("a temp file");
    let mut reporter = std::process::Command::new("python3");
    reporter
        .arg("-c")
        .arg(REPORTER)
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => reporter.env(k, v),
            None => reporter.env_remove(k),
        };
    }
    let started = Instant::now();
    let done = reporter
        .stdin(Stdio::null())
        .stdout(out.reopen().expect("reopen"))
        .stderr(Stdio::piped())
        .output()
        .expect("python3 runs");
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&done.stderr);
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("rusage "))
        .unwrap_or_else(|| panic!("no rusage reported: {stderr}"));
    let mut parts = line.split(' ');
    let code: i32 = parts
        .next()
        .and_then(|c| c.parse().ok())
        .expect("exit code");
    let kib: u64 = parts.next().and_then(|c| c.parse().ok()).expect("maxrss");
    let stdout = std::fs::read(out.path()).expect("read the output");
    let stderr = stderr
        .lines()
        .filter(|l| !l.starts_with("rusage "))
        .collect::<Vec<_>>()
        .join("\n");
    Measured {
        code,
        // ru_maxrss is in kilobytes on Linux.
        peak: kib * 1024,
        took,
        stdout,
        stderr,
    }
}
