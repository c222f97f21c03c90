//! Files the local half writes hold what strangers sent (tokens, cookies, signatures): they are
//! written whole or not at all, readable by the user alone whatever the umask, never over an
//! existing file or through a symlink without `--force`; and a request file that lost the end
//! of its body is refused rather than sent as if whole.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;

use serde_json::json;

use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

/// The emulator with one captured POST carrying a body of `size` bytes: its ID.
pub fn one_capture(size: usize) -> (Env, String) {
    let env = Env::new();
    let ids = env.mock.seed_captures(json!([{
        "method": "POST",
        "uri": "/hooks/pay",
        "headers": {"Host": "example.test", "Authorization": "Bearer visitor-token"},
        "body_size": size,
    }]));
    let id = ids[0].as_str().expect("an id").to_string();
    (env, id)
}

/// `tunnelctl local ARGS` run with a umask and a file-size limit set in the child.
fn local_limited(env: &Env, umask: u32, fsize: Option<u64>, args: &[&str]) -> Out {
    let mut std = env.std_cmd();
    std.env(var::AGENT_URL, env.mock.agent_url())
        .current_dir(env.dir.path())
        .arg("local")
        .args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        std.pre_exec(move || {
            libc::umask(umask as libc::mode_t);
            if let Some(limit) = fsize {
                let lim = libc::rlimit {
                    rlim_cur: limit as libc::rlim_t,
                    rlim_max: limit as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    run(&mut assert_cmd::Command::from_std(std))
}

fn mode_of(path: &Path) -> u32 {
    std::fs::metadata(path)
        .expect("the file")
        .permissions()
        .mode()
        & 0o777
}

/// Names in `dir` other than the test's own config folders.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("the folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "xdg" && n != "config.toml")
        .collect()
}

#[test]
fn a_save_that_fails_halfway_leaves_nothing_and_fails() {
    let (env, id) = one_capture(200_000);
    let out = env.dir.path().join("req.http");
    let shown = out.to_string_lossy().into_owned();
    let failed = local_limited(
        &env,
        0o022,
        Some(50_000),
        &["requests", "save", &id, "--out", &shown],
    );
    assert_ne!(
        failed.code, 0,
        "a failed write must fail: {}",
        failed.stderr
    );
    assert!(!out.exists(), "nothing is left at the target");
    assert!(
        leftovers(env.dir.path()).is_empty(),
        "no temporary file is left beside it: {:?}",
        leftovers(env.dir.path())
    );
    assert!(failed.stderr.contains("req.http"), "{}", failed.stderr);
}

#[test]
fn an_export_that_fails_halfway_leaves_nothing_and_fails() {
    let (env, _) = one_capture(200_000);
    let out = env.dir.path().join("all.har");
    let shown = out.to_string_lossy().into_owned();
    let failed = local_limited(
        &env,
        0o022,
        Some(50_000),
        &["requests", "export", "--har", &shown],
    );
    assert_ne!(failed.code, 0, "{}", failed.stderr);
    assert!(!out.exists());
    assert!(
        leftovers(env.dir.path()).is_empty(),
        "{:?}",
        leftovers(env.dir.path())
    );
}

#[test]
fn files_holding_captured_traffic_are_the_users_alone_whatever_the_umask() {
    let (env, id) = one_capture(10);
    let saved = env.dir.path().join("req.http");
    let har = env.dir.path().join("all.har");
    local_limited(
        &env,
        0,
        None,
        &["requests", "save", &id, "--out", &saved.to_string_lossy()],
    )
    .ok();
    local_limited(
        &env,
        0,
        None,
        &["requests", "export", "--har", &har.to_string_lossy()],
    )
    .ok();
    assert_eq!(mode_of(&saved), 0o600);
    assert_eq!(mode_of(&har), 0o600);
}

#[test]
fn export_refuses_an_existing_file_or_symlink_without_force() {
    let (env, _) = one_capture(10);
    let dir = env.dir.path();
    let existing = dir.join("old.har");
    std::fs::write(&existing, "keep me").unwrap();
    let refused = env.local(&["requests", "export", "--har", &existing.to_string_lossy()]);
    refused.code(2).says("--force");
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me");

    let victim = dir.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let link = dir.join("link.har");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    env.local(&["requests", "export", "--har", &link.to_string_lossy()])
        .code(2)
        .says("--force");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

    // With --force the write goes through the link: local_links.rs.
}

#[test]
fn save_refuses_a_symlink_without_force_too() {
    let (env, id) = one_capture(10);
    let dir = env.dir.path();
    let victim = dir.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let link = dir.join("req.http");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    env.local(&["requests", "save", &id, "--out", &link.to_string_lossy()])
        .code(2)
        .says("--force");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

#[test]
fn send_refuses_a_request_whose_body_is_shorter_than_its_content_length() {
    let (_env, up, out) = super::local_requests::send_file(
        "cut.http",
        b"POST /hooks/pay HTTP/1.1\r\nHost: example.test\r\nContent-Length: 100\r\n\r\n{\"event\":\"pa",
        &[],
    );
    out.code(2).says("Content-Length").says("cut.http");
    assert_eq!(up.count(), 0, "nothing was sent");
}
