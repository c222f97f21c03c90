//! What a `test` run says (issue 41): every problem of its expectation files at once, each
//! with file and line; a server that cannot be reached explained once, not under every case;
//! the folder it runs when none is named; and the signatures it makes, secrets like the
//! webhook secrets they are made with, never shown.

use std::fs;

use crate::webhook_tests::World;

/// The lines of `text` that hold `what`.
fn lines_with<'a>(text: &'a str, what: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(what)).collect()
}

#[test]
fn every_problem_of_every_expectation_file_is_said_with_its_file_and_line() {
    let w = World::new();
    w.saved_all(&["/hooks/a", "/hooks/b", "/hooks/c"]);
    let hooks = w.fixtures();
    let visits = w.handler.count();
    fs::write(
        hooks.join("post-hooks-a.expect.toml"),
        "status = 99\nstatuss = 1\n\n[headers]\nX-B = \"v[1\"\n",
    )
    .unwrap();
    fs::write(
        hooks.join("post-hooks-b.expect.toml"),
        "status = 200\njq = [\".[\"]\n",
    )
    .unwrap();
    let out = w.test(&[]);
    out.code(2);
    let said = lines_with(&out.stderr, ".expect.toml:");
    let at: Vec<&str> = said
        .iter()
        .map(|l| {
            let l = l.trim_start_matches("error: ");
            l.split(": ").next().unwrap()
        })
        .collect();
    assert_eq!(
        at,
        [
            "hooks/post-hooks-a.expect.toml:1",
            "hooks/post-hooks-a.expect.toml:2",
            "hooks/post-hooks-a.expect.toml:5",
            "hooks/post-hooks-b.expect.toml:2",
        ],
        "{}",
        out.stderr
    );
    assert!(said[0].contains("status must be"), "{}", out.stderr);
    assert!(said[1].contains("unknown key 'statuss'"), "{}", out.stderr);
    assert!(said[2].contains("headers.X-B"), "{}", out.stderr);
    assert!(said[3].contains("jq:"), "{}", out.stderr);
    assert_eq!(w.handler.count(), visits, "nothing was sent");
}

#[test]
fn a_server_that_cannot_be_reached_is_explained_once() {
    let w = World::new();
    w.saved_all(&["/hooks/a", "/hooks/b", "/hooks/c"]);
    // A port that was free a moment ago: nothing listens there.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let to = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path());
    let out = crate::common::run(cmd.args(["local", "requests", "test", "hooks", "--to", &to]));
    out.code(6);
    let both = format!("{}{}", out.stdout, out.stderr);
    assert_eq!(
        lines_with(&both, "running? Give another with --to URL").len(),
        1,
        "the hint once:\n{both}"
    );
    assert_eq!(
        lines_with(&out.stdout, "could not connect").len(),
        3,
        "each case says it failed:\n{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("could not be reached"),
        "{}",
        out.stderr
    );
}

#[test]
fn with_no_folder_named_the_current_one_runs_and_a_note_says_so() {
    let w = World::new();
    w.saved("/hooks/stripe");
    let mut cmd = w.env.bare();
    cmd.current_dir(w.fixtures());
    let url = w.handler.url();
    let out = crate::common::run(cmd.args(["local", "requests", "test", "--to", &url]));
    out.ok();
    assert!(
        out.stdout.starts_with("PASS    post-hooks-stripe"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("No fixture folder named: running the fixtures of the current folder (.)"),
        "{}",
        out.stderr
    );
    // The usage and -h say the folder may be left out, and what it is then.
    let help = crate::common::run(w.env.bare().args(["local", "requests", "test", "-h"]));
    help.ok();
    assert!(
        help.stdout.contains("[DIR|FILE]...") && help.stdout.contains("[default: .]"),
        "{}",
        help.stdout
    );
    // Named, it is run without a note.
    let mut cmd = w.env.bare();
    cmd.current_dir(w.dir.path());
    let out = crate::common::run(cmd.args(["local", "requests", "test", "hooks", "--to", &url]));
    out.ok();
    assert!(!out.stderr.contains("No fixture folder"), "{}", out.stderr);
}
