//! Handlers run in-process against the emulator, with memory streams for stdout and stderr and
//! a scripted prompter in place of a person: what a handler prints, at a chosen terminal
//! width, is checked without spawning the binary.

use clap::Parser;
use serde_json::{json, Value};
use tunnelctl_mock::{Mock, MockOptions};

use crate::cli::Cli;
use crate::context::Context;
use crate::output::{Captured, Format, OutputFlags, Printer, Streams};
use crate::prompt::Prompter;
use crate::settings::{SettingFlags, Settings};

/// A context for `mock` whose output lands in memory; `tty` and `width` fake the terminal.
pub(super) fn context(
    mock: &Mock,
    asked: OutputFlags,
    tty: bool,
    width: u16,
    keys: &str,
) -> (Context, Captured) {
    let (streams, captured) = Streams::memory(tty, width);
    let given = SettingFlags {
        api_url: Some(mock.url()),
        api_key: Some(mock.api_key().to_string()),
        agent_url: Some(mock.agent_url()),
        // No config file of the machine's is read.
        config: Some(std::env::temp_dir().join("tunnelctl-in-process-no-such-config.toml")),
        ..SettingFlags::default()
    };
    let ctx = Context {
        settings: Settings::new(given),
        printer: Printer::resolve(&asked, streams).expect("output options"),
        prompter: Prompter::scripted(false, keys),
    };
    (ctx, captured)
}

/// Runs `args` (after `tunnelctl`) with `ctx`.
pub(super) fn run(ctx: &Context, args: &[&str]) -> crate::error::Result<()> {
    let cli = Cli::try_parse_from(std::iter::once("tunnelctl").chain(args.iter().copied()))
        .expect("a valid command line");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(super::execute(cli.command, ctx))
}

fn mock_with_policy(description: &str) -> (Mock, String) {
    let mock = Mock::start(MockOptions::default()).expect("the emulator starts");
    let seeded = mock.seed(json!({"ip_policies": [{"description": description}]}));
    let id = seeded["ip_policies"][0]
        .as_str()
        .expect("a seeded ID")
        .to_string();
    (mock, id)
}

#[test]
fn a_list_on_an_80_column_terminal_is_a_table_that_fits() {
    let (mock, id) = mock_with_policy("office network");
    // Colour off: whether it is on by default depends on the runner's NO_COLOR.
    let asked = OutputFlags {
        no_color: true,
        ..OutputFlags::default()
    };
    let (ctx, out) = context(&mock, asked, true, 80, "");
    run(&ctx, &["ip-policies", "list"]).expect("list succeeds");
    let text = out.stdout();
    assert!(
        text.lines().next().unwrap_or("").starts_with("ID "),
        "{text}"
    );
    assert!(
        text.contains(&id) && text.contains("office network"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert_eq!(ctx.printer.format, Format::Table);
}

#[test]
fn a_list_in_a_pipe_is_tab_separated_and_json_when_asked() {
    let (mock, id) = mock_with_policy("office network");
    let (ctx, out) = context(&mock, OutputFlags::default(), false, 80, "");
    run(&ctx, &["ip-policies", "list"]).expect("list succeeds");
    assert!(
        out.stdout().starts_with(&format!("{id}\t")),
        "{}",
        out.stdout()
    );

    let asked = OutputFlags {
        json: true,
        ..OutputFlags::default()
    };
    let (ctx, out) = context(&mock, asked, false, 80, "");
    run(&ctx, &["ip-policies", "list"]).expect("list succeeds");
    let listed: Value = serde_json::from_str(&out.stdout()).expect("JSON");
    assert_eq!(listed[0]["id"], json!(id));
    assert_eq!(out.stderr(), "");
}

#[test]
fn a_declined_confirmation_deletes_nothing_and_an_accepted_one_notes_it_on_stderr() {
    let (mock, id) = mock_with_policy("office network");
    let (ctx, out) = context(&mock, OutputFlags::default(), true, 80, "no\r");
    let err = run(&ctx, &["ip-policies", "delete", &id]).expect_err("declined");
    assert_eq!(err.exit_code(), crate::error::exit::USAGE);
    assert!(!mock.requests().iter().any(|r| r.method == "DELETE"));
    assert_eq!(out.stdout(), "");

    let (ctx, out) = context(&mock, OutputFlags::default(), true, 80, "yes\r");
    run(&ctx, &["ip-policies", "delete", &id]).expect("deleted");
    assert!(out.stderr().contains(&id), "{}", out.stderr());
    assert!(mock.requests().iter().any(|r| r.method == "DELETE"));
}
