//! The files `test` finds in a fixture folder resolve inside it (issue 41): an expectation
//! file, a body sidecar or a request file that is a symbolic link leading out of the folder is
//! refused, naming the link, and `--update` never writes through one (a cloned repository must
//! not make it rewrite a file in the user's home); links that stay inside the folder are
//! followed, for reading and writing; a path the user names (`--junit FILE`) follows its link.
//! Every link is made by the test in its own temporary folder.

use std::fs;
use std::os::unix::fs::symlink;
use std::sync::{Arc, Mutex};

use crate::common::hostile::{Hostile, Reply};
use crate::webhook_tests::{read, Answer, World};

/// A world with one saved fixture, `hooks/post-hooks-stripe.*`, and a folder `outside` beside
/// `hooks` holding a file of the user's: `outside/mine.toml`.
fn world_with(handler: Option<Hostile>) -> World {
    let w = match handler {
        Some(h) => World::with(h, Arc::new(Mutex::new(Answer::good()))),
        None => World::new(),
    };
    w.saved("/hooks/stripe");
    fs::create_dir(w.dir.path().join("outside")).unwrap();
    fs::write(w.dir.path().join("outside/mine.toml"), "# mine\n").unwrap();
    w
}

fn expect_file(w: &World) -> std::path::PathBuf {
    w.fixtures().join("post-hooks-stripe.expect.toml")
}

#[test]
fn an_expectation_linked_out_of_the_folder_is_refused_and_never_rewritten() {
    let w = world_with(None);
    let expect = expect_file(&w);
    fs::remove_file(&expect).unwrap();
    symlink("../outside/mine.toml", &expect).unwrap();
    let visits = w.handler.count();
    for extra in [&[][..], &["--update"][..]] {
        let out = w.test(extra);
        out.code(2).says_all(&[
            "hooks/post-hooks-stripe.expect.toml is a link leading out of its fixture folder hooks",
            "../outside/mine.toml",
        ]);
    }
    assert_eq!(w.handler.count(), visits, "nothing was sent");
    assert_eq!(read(&w.dir.path().join("outside/mine.toml")), "# mine\n");
    assert!(fs::symlink_metadata(&expect)
        .unwrap()
        .file_type()
        .is_symlink());

    // A link to a file that is not there yet: --update does not make it.
    fs::remove_file(&expect).unwrap();
    symlink("../outside/new.toml", &expect).unwrap();
    w.test(&["--update"])
        .code(2)
        .says("is a link leading out of its fixture folder");
    assert!(!w.dir.path().join("outside/new.toml").exists());
}

#[test]
fn a_body_sidecar_or_a_request_file_linked_out_of_the_folder_is_refused() {
    let w = world_with(None);
    let expect = expect_file(&w);
    let text = read(&expect);
    let body_at = text.rfind("\n[body]").unwrap() + 1;
    fs::write(
        &expect,
        format!("{}[body]\nfile = \"answer.body\"\n", &text[..body_at]),
    )
    .unwrap();
    symlink("../outside/mine.toml", w.fixtures().join("answer.body")).unwrap();
    w.test(&[])
        .code(2)
        .says("hooks/answer.body is a link leading out of its fixture folder hooks");

    let w = world_with(None);
    let stray = w.dir.path().join("outside/stray.http");
    fs::copy(w.fixtures().join("post-hooks-stripe.http"), &stray).unwrap();
    symlink("../outside/stray.http", w.fixtures().join("stray.http")).unwrap();
    w.test(&[])
        .code(2)
        .says("hooks/stray.http is a link leading out of its fixture folder hooks");
}

#[test]
fn update_refuses_to_write_a_new_sidecar_through_a_link_out_of_the_folder() {
    // An app whose answer is binary: --update keeps it in a sidecar, post-hooks-stripe.body.
    let binary = Hostile::start(|_| {
        Reply::With(
            200,
            vec![("Content-Type".into(), "application/octet-stream".into())],
            vec![0xff, 0xfe, 0, 1, 2],
        )
    });
    let w = world_with(Some(binary));
    let expect = expect_file(&w);
    fs::write(&expect, "status = 200\n\n[body]\ntext = \"old\"\n").unwrap();
    let sidecar = w.fixtures().join("post-hooks-stripe.body");
    if sidecar.exists() {
        fs::remove_file(&sidecar).unwrap();
    }
    symlink(
        "../outside/mine.toml",
        w.fixtures().join("post-hooks-stripe.body"),
    )
    .unwrap();
    let out = w.test(&["--update"]);
    out.code(8);
    assert!(
        out.stdout
            .contains("post-hooks-stripe.body is a link leading out of its fixture folder"),
        "{}",
        out.stdout
    );
    assert_eq!(read(&w.dir.path().join("outside/mine.toml")), "# mine\n");
    assert_eq!(
        read(&expect),
        "status = 200\n\n[body]\ntext = \"old\"\n",
        "nothing is written when one file is refused"
    );
}

#[test]
fn links_that_stay_inside_the_folder_are_followed_and_a_named_report_follows_its_link() {
    let w = world_with(None);
    let expect = expect_file(&w);
    let kept = w.fixtures().join("kept");
    fs::create_dir(&kept).unwrap();
    fs::rename(&expect, kept.join("stripe.expect.toml")).unwrap();
    symlink("kept/stripe.expect.toml", &expect).unwrap();
    fs::write(w.dir.path().join("outside/report.xml"), "").unwrap();
    symlink("outside/report.xml", w.dir.path().join("report.xml")).unwrap();
    w.test(&["--junit", "report.xml"]).ok();
    assert!(read(&w.dir.path().join("outside/report.xml")).contains("<testsuite"));
    // --update writes where the link inside the folder leads, and the link stays.
    w.set(|a| a.status = 202);
    w.test(&["--update"]).ok();
    assert!(read(&kept.join("stripe.expect.toml")).contains("status = 202"));
    assert!(fs::symlink_metadata(&expect)
        .unwrap()
        .file_type()
        .is_symlink());
}
