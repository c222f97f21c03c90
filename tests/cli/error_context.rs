//! Errors say what the command was doing when they happened ("cannot read the request file
//! x.http"), in front of the cause, and keep the exit code of the cause.

use crate::common::Env;

#[test]
fn a_request_file_that_is_not_there_names_what_was_being_read() {
    let env = Env::new();
    let missing = env.dir.path().join("missing.http");
    let missing = missing.to_str().unwrap_or("missing.http");
    let out = env.local(&["requests", "send", missing, "--to", "http://127.0.0.1:9"]);
    out.code(2).says(&format!(
        "error: cannot read the request file {missing}: there is no such file"
    ));
}

#[test]
fn a_har_log_that_is_not_there_is_named_as_one() {
    let env = Env::new();
    let missing = env.dir.path().join("log.har");
    let missing = missing.to_str().unwrap_or("log.har");
    let out = env.local(&[
        "requests",
        "send",
        "--har",
        missing,
        "--to",
        "http://127.0.0.1:9",
    ]);
    out.code(2).says(&format!(
        "error: cannot read the HAR log {missing}: there is no such file"
    ));
}

#[test]
fn a_config_file_that_cannot_be_read_is_exit_3_with_the_file_named() {
    let env = Env::new();
    let path = env.config_path();
    std::fs::create_dir_all(&path).unwrap();
    let shown = path.display().to_string();
    let out = crate::common::run(env.bare().args(["config", "get", "api_url"]));
    out.code(3)
        .says(&format!("error: reading config {shown}: "))
        .says("cannot read the config file");
}
