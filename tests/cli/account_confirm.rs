//! What `plan` and `apply` show before anything is changed: at 80 columns every old and new
//! value whole (nothing confirmed that is not on the screen), `-o table` in a pipe every row
//! and column whole, and one question, or off a terminal one refusal.

use std::num::NonZeroU16;

use serde_json::json;

use crate::common::pty::Pty;
use crate::common::{self, Env};

/// A Kinesis stream ARN longer than an 80-column line.
const LONG_ARN: &str = "arn:aws:kinesis:us-east-1:123456789012:stream/tunnel-events-from-every-edge-of-the-production-fleet-2024";

/// An account with a policy and a destination, and a file that changes both (a description
/// of 200 characters, an ARN of more than 80) and makes a backend: the plan to confirm.
struct Case {
    env: Env,
    file: String,
    values: Vec<String>,
    ids: Vec<String>,
}

fn case() -> Case {
    let env = Env::new();
    let policy = env.seed_ids(
        "ip_policies",
        json!({"ip_policies": [{"description": "ci runners", "metadata": "{\"tunnelctl\":{\"name\":\"runners\"}}"}]}),
    )
    .remove(0);
    let destination = env.seed_destinations(1).remove(0);
    let description: String = (0..40)
        .map(|i| format!("word{i:02}"))
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(200)
        .collect();
    assert_eq!(description.len(), 200);
    let text = format!(
        "[ip_policies.runners]\ndescription = \"{description}\"\n\n\
         [event_destinations.audit]\nid = \"{destination}\"\ndescription = \"dest 1\"\n\
         [event_destinations.audit.target.kinesis]\nstream_arn = \"{LONG_ARN}\"\n\
         auth.role.role_arn = \"{}\"\n\n\
         [backends.web]\ndescription = \"web\"\nlabels = {{ env = \"prod\" }}\n",
        common::seed::ROLE
    );
    let path = env.dir.path().join("account.toml");
    std::fs::write(&path, text).unwrap();
    Case {
        file: path.to_string_lossy().into_owned(),
        values: vec![
            "\"ci runners\"".into(),
            format!("\"{description}\""),
            format!("\"{}\"", common::seed::KINESIS),
            format!("\"{LONG_ARN}\""),
            "\"web\"".into(),
            "\"prod\"".into(),
        ],
        ids: vec![policy, destination],
        env,
    }
}

/// Everything the program wrote, drawn on a terminal as wide as `term` and tall enough that
/// nothing scrolls away: what the person could read before answering.
fn transcript(term: &Pty, cols: u16) -> String {
    let mut parser = vt100::Parser::new(
        NonZeroU16::new(2000).unwrap(),
        NonZeroU16::new(cols).unwrap(),
        0,
    );
    parser.process(&term.output());
    parser.screen().contents()
}

/// Is `value` shown whole in `text`: every character of it, in order, with nothing between
/// them but the line breaks (and their indentation) of a folded line?
fn shown_whole(text: &str, value: &str) -> bool {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    squeeze(text).contains(&squeeze(value))
}

#[test]
fn apply_at_80x24_shows_every_old_and_new_value_whole_before_it_asks() {
    let c = case();
    c.env.mock.clear_requests();
    let mut cmd = c.env.std_cmd();
    cmd.args(["apply", "-f", &c.file]);
    let mut term = Pty::spawn(&cmd, 24, 80);
    let screen = term.wait_for("[y/N]");
    let seen = transcript(&term, 80);
    for value in &c.values {
        assert!(shown_whole(&seen, value), "{value} not whole in:\n{seen}");
    }
    for id in &c.ids {
        assert!(seen.contains(id.as_str()), "{id} not shown:\n{seen}");
    }
    assert!(!seen.contains('…'), "a value was cut:\n{seen}");
    // Every field changed has its line.
    for field in ["description", "target.kinesis.stream_arn", "labels.env"] {
        assert!(seen.contains(field), "{field}:\n{seen}");
    }
    // One summary, and the question on one line of its own, whole.
    assert_eq!(
        seen.matches("Plan: 1 to create, 2 to update").count(),
        1,
        "{seen}"
    );
    let question = screen
        .lines()
        .find(|l| l.contains("[y/N]"))
        .unwrap_or_default();
    assert!(
        question.starts_with("Apply these 3 changes? [y/N]"),
        "{question:?}\n{screen}"
    );
    assert!(term.wrapped_rows().is_empty(), "{:?}", term.wrapped_rows());
    term.send("n\r");
    assert_eq!(term.wait_exit(), 2, "{}", term.screen());
    assert!(c.env.writes().is_empty(), "{:?}", c.env.writes());
}

#[test]
fn plan_on_a_terminal_that_fits_the_table_shows_it_whole() {
    let c = case();
    let wide = c.env.run_terminal(400, &["plan", "-f", &c.file]);
    wide.ok();
    let lines: Vec<&str> = wide.stdout.lines().collect();
    assert!(lines[0].starts_with("ACTION  RESOURCE"), "{}", wide.stdout);
    assert!(
        lines[0].contains("ID") && lines[0].contains("NEW"),
        "{}",
        lines[0]
    );
    for value in &c.values {
        assert!(
            wide.stdout.contains(value.as_str()),
            "{value}:\n{}",
            wide.stdout
        );
    }
    // At 80 columns the same plan is a list of changes, every value whole.
    let narrow = c.env.run_terminal(80, &["plan", "-f", &c.file]);
    narrow.ok();
    for value in &c.values {
        assert!(
            shown_whole(&narrow.stdout, value),
            "{value}:\n{}",
            narrow.stdout
        );
    }
    assert!(
        narrow.stdout.lines().all(|l| l.chars().count() <= 80),
        "{}",
        narrow.stdout
    );
    assert!(
        narrow.stdout.contains("description: \"ci runners\" ->"),
        "{}",
        narrow.stdout
    );
    assert!(!narrow.stdout.contains('…'), "{}", narrow.stdout);
}

#[test]
fn a_table_off_a_terminal_prints_every_row_whole_and_every_column() {
    let c = case();
    for extra in [&[][..], &["--exit-code"]] {
        let out = common::run(
            c.env
                .cmd()
                .env("COLUMNS", "80")
                .args(["plan", "-f", &c.file, "-o", "table"])
                .args(extra),
        );
        let lines: Vec<&str> = out.stdout.lines().collect();
        let head: Vec<&str> = lines[0].split_whitespace().collect();
        assert_eq!(
            head,
            ["ACTION", "RESOURCE", "ID", "FIELD", "OLD", "NEW"],
            "{}",
            out.stdout
        );
        for value in &c.values {
            assert!(
                out.stdout.contains(value.as_str()),
                "{value}:\n{}",
                out.stdout
            );
        }
        for id in &c.ids {
            assert!(out.stdout.contains(id.as_str()), "{id}:\n{}", out.stdout);
        }
        assert!(!out.stdout.contains('…'), "{}", out.stdout);
        assert!(
            out.stdout.contains("Plan: 1 to create, 2 to update"),
            "{}",
            out.stdout
        );
    }
}

#[test]
fn the_plan_names_a_subscription_s_destinations_as_the_file_does() {
    let env = Env::new();
    let dests = env.seed_destinations(2);
    env.seed_subscription(json!({
        "description": "s",
        "metadata": "{\"tunnelctl\":{\"name\":\"s\"}}",
        "sources": [{"type": "ip_policy_created.v0"}],
        "destination_ids": [dests[0]],
    }));
    let file = env.dir.path().join("account.toml");
    std::fs::write(
        &file,
        format!(
            "[event_subscriptions.s]\ndescription = \"s\"\nsources = [\"ip_policy_created.v0\"]\ndestinations = [\"{}\"]\n",
            dests[1]
        ),
    )
    .unwrap();
    let file = file.to_string_lossy().into_owned();
    let tsv = env.run(&["plan", "-f", &file]);
    tsv.ok().prints("\tdestinations\t");
    assert!(!tsv.stdout.contains("destination_ids"), "{}", tsv.stdout);
    let table = env.run_terminal(80, &["plan", "-f", &file]);
    table.ok().prints("destinations:");
    assert!(
        !table.stdout.contains("destination_ids"),
        "{}",
        table.stdout
    );
}

#[test]
fn off_a_terminal_apply_refuses_once_saying_to_pass_yes() {
    let c = case();
    c.env.mock.clear_requests();
    let out = c.env.run(&["apply", "-f", &c.file]);
    out.code(2).says("--yes");
    assert_eq!(out.stderr.matches("error:").count(), 1, "{}", out.stderr);
    assert!(!out.stderr.contains("Apply these"), "{}", out.stderr);
    assert!(!out.stderr.contains("Refusing"), "{}", out.stderr);
    let error = out
        .stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_default();
    assert!(!error.contains("Plan:"), "{error}");
    assert!(c.env.writes().is_empty());
}

#[test]
fn apply_short_help_lists_yes() {
    let env = Env::new();
    let help = env.run(&["apply", "-h"]);
    help.ok().prints("-y, --yes");
    let long = env.run(&["apply", "--help"]);
    long.ok().prints("-y, --yes");
    // A command that never asks does not offer it.
    let plan = env.run(&["plan", "-h"]);
    assert!(!plan.stdout.contains("--yes"), "{}", plan.stdout);
}

/// With stdout sent to a file, the question still comes with the plan: on stderr, the
/// terminal the person answers at.
#[test]
fn apply_with_stdout_in_a_file_shows_the_plan_on_the_terminal_before_asking() {
    let c = case();
    c.env.mock.clear_requests();
    let out = c.env.dir.path().join("out.txt");
    let cmd = c.env.std_cmd();
    let program = cmd.get_program().to_string_lossy().into_owned();
    let mut sh = std::process::Command::new("sh");
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    sh.args([
        "-c",
        "\"$0\" apply -f \"$1\" > \"$2\"",
        &program,
        &c.file,
        &out.to_string_lossy(),
    ]);
    let mut term = Pty::spawn(&sh, 24, 80);
    term.wait_for("[y/N]");
    let seen = transcript(&term, 80);
    for value in &c.values {
        assert!(shown_whole(&seen, value), "{value} not whole in:\n{seen}");
    }
    term.send("n\r");
    assert_eq!(term.wait_exit(), 2, "{}", term.screen());
    assert!(c.env.writes().is_empty());
}
