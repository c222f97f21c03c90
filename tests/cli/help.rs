//! The help of every command: its own arguments and options first, the global options after
//! them under their own heading, only the global options that mean something to it (while
//! every command still takes all of them), and `--no-color` covering clap's own output.

use clap::CommandFactory;
use tunnelctl::cli::Cli;

use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

/// Every command path below the root, the root itself as an empty path.
fn command_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            path.push(sub.get_name().to_string());
            walk(sub, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(&Cli::command(), &mut Vec::new(), &mut out);
    out
}

/// The command at `path` in the clap tree.
fn find<'a>(root: &'a clap::Command, path: &[String]) -> &'a clap::Command {
    path.iter().fold(root, |cmd, word| {
        cmd.find_subcommand(word)
            .unwrap_or_else(|| panic!("no {word}"))
    })
}

/// `--long` names of the global flags.
fn global_flags() -> Vec<String> {
    Cli::command()
        .get_arguments()
        .filter(|a| a.is_global_set())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

/// The `--long` flag an option line of the help starts with ("-o, --output <FORMAT>" gives
/// "--output"); `None` for other lines (descriptions are indented further).
fn flag_of(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if line.len() - t.len() > 6 || !t.starts_with('-') {
        return None;
    }
    let t = if t.starts_with("--") {
        t
    } else {
        t.split_once(", ")?.1
    };
    t.split([' ', '=']).next()
}

/// The help split at the "Global options:" heading: (everything before, the global options
/// section up to the next heading such as "Examples:").
fn split_help(out: &Out, what: &str) -> (String, String) {
    out.ok();
    let (before, after) = out
        .stdout
        .split_once("\nGlobal options:\n")
        .unwrap_or_else(|| panic!("{what}: no 'Global options:' heading:\n{}", out.stdout));
    let section: Vec<&str> = after
        .lines()
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect();
    let rest = &after[section
        .iter()
        .map(|l| l.len() + 1)
        .sum::<usize>()
        .min(after.len())..];
    assert!(
        !rest.contains("Options:") && !rest.contains("Arguments:"),
        "{what}: options after the global ones:\n{}",
        out.stdout
    );
    (before.to_string(), section.join("\n"))
}

#[test]
fn every_command_lists_its_own_options_first_then_the_global_ones() {
    let env = Env::new();
    let root = Cli::command();
    let globals = global_flags();
    for path in command_paths() {
        let what = format!("tunnelctl {} --help", path.join(" "));
        let cmd = find(&root, &path);
        // `-h` lists no global option at all (issue 33: they made it 25 lines longer).
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("-h");
        let short = run(env.bare().args(&args));
        short.ok();
        assert!(
            !short.stdout.contains("Global options:"),
            "{what} -h:\n{}",
            short.stdout
        );
        let options = short
            .stdout
            .lines()
            .take_while(|l| !l.starts_with("Example"));
        // A command that asks lists `--yes` among its own options, `-h` too: the way to
        // answer in a script.
        let asks = matches!(
            path.iter().map(String::as_str).collect::<Vec<_>>()[..],
            [.., "delete" | "stop" | "clear"] | ["local", "requests", "record"] | ["apply"]
        );
        let mut yes = false;
        for f in options.filter_map(flag_of) {
            yes |= f == "--yes";
            assert!(
                !globals.iter().any(|g| g == f) || (asks && f == "--yes"),
                "{what} -h shows {f}"
            );
        }
        assert_eq!(yes, asks, "{what} -h:\n{}", short.stdout);
        for flag in ["--help"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(flag);
            let out = run(env.bare().args(&args));
            let (own, global) = split_help(&out, &what);
            for line in own.lines() {
                if let Some(f) = flag_of(line) {
                    assert!(
                        !globals.iter().any(|g| g == f) || (asks && f == "--yes"),
                        "{what}: global {f} among the command's own options"
                    );
                }
            }
            for f in global.lines().filter_map(flag_of) {
                assert!(
                    globals.iter().any(|g| g == f),
                    "{what}: {f} among the global options"
                );
            }
            for arg in cmd
                .get_arguments()
                .filter(|a| !a.is_global_set() && !a.is_hide_set())
            {
                let shown = match arg.get_long() {
                    Some(long) => format!("--{long}"),
                    None => arg
                        .get_value_names()
                        .and_then(|v| v.first())
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| arg.get_id().to_string().to_uppercase()),
                };
                assert!(
                    own.contains(&shown),
                    "{what}: its own {shown} is not before the global options"
                );
                assert!(
                    arg.is_hide_short_help_set() || short.stdout.contains(&shown),
                    "{what} -h: its own {shown} is missing"
                );
            }
        }
    }
}

#[test]
fn short_help_stays_short() {
    let env = Env::new();
    let long = run(env.bare().args(["ip-policies", "create", "--help"]));
    let short = run(env.bare().args(["ip-policies", "create", "-h"]));
    long.ok();
    short.ok();
    assert!(long.stdout.contains("Possible values:"), "{}", long.stdout);
    assert!(
        !short.stdout.contains("Possible values:"),
        "{}",
        short.stdout
    );
    assert!(
        short.stdout.lines().count() * 2 < long.stdout.lines().count() + 10,
        "-h is a summary:\n{}",
        short.stdout
    );
    // The global options are --help's; -h says where they are.
    assert!(!short.stdout.contains("--api-key"), "{}", short.stdout);
    assert!(short.stdout.contains("see more with '--help'"));
    assert!(long
        .stdout
        .lines()
        .any(|l| l.trim_start().starts_with("--api-key <KEY>")));
}

/// `tunnelctl -h` and `tunnelctl` alone fit a 24-row screen at 80 columns with a row to
/// spare for the prompt (issue 33: 81 lines, the error and the command list scrolled away);
/// `--help` has the rest.
#[test]
fn the_top_short_help_and_bare_tunnelctl_fit_a_screen() {
    let env = Env::new();
    let short = run(env.bare().env("COLUMNS", "80").arg("-h"));
    short.ok();
    assert!(short.stdout.lines().count() <= 23, "{}", short.stdout);
    for word in ["Commands:", "event-subscriptions", "config init", "--help"] {
        assert!(short.stdout.contains(word), "{word}: {}", short.stdout);
    }
    let bare = run(env.bare().env("COLUMNS", "80"));
    bare.code(2);
    assert!(bare.stderr.lines().count() <= 23, "{}", bare.stderr);
    assert!(bare.stderr.starts_with("error: a command is required"));
    let long = run(env.bare().env("COLUMNS", "80").arg("--help"));
    long.ok();
    assert!(long.stdout.contains("Global options:") && long.stdout.contains("Examples:"));
}

/// The command names listed under "Commands:" in a `--help` page.
fn listed_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command's `-h` fits a 24-row screen at 80 columns, found by walking the commands each
/// `--help` lists, as a user would (clap put every option's description on a line of its
/// own once one did not fit beside its flag: `local tunnels start -h` was 44 lines).
#[test]
fn every_short_help_fits_a_24_row_screen() {
    let env = Env::new();
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    let mut long = Vec::new();
    while let Some(path) = todo.pop() {
        seen += 1;
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("-h");
        let short = run(env.bare().env("COLUMNS", "80").args(&args));
        short.ok();
        let rows = short.stdout.lines().count();
        if rows > 24 {
            long.push(format!("{} ({rows} lines)", args.join(" ")));
        }
        args.pop();
        args.push("--help");
        let full = run(env.bare().env("COLUMNS", "80").args(&args));
        full.ok();
        for name in listed_commands(&full.stdout) {
            let mut sub = path.clone();
            sub.push(name);
            todo.push(sub);
        }
    }
    assert!(seen > 50, "only {seen} commands found");
    assert!(
        long.is_empty(),
        "-h longer than 24 lines:\n{}",
        long.join("\n")
    );
}

/// Every help page, `-h` and `--help`, at 80 columns: no line wider than 80 (clap never
/// breaks a usage line; the terminal then broke `--addr` into `--a` / `ddr`).
#[test]
fn no_help_line_is_wider_than_80_columns() {
    let env = Env::new();
    let mut wide = Vec::new();
    for path in command_paths() {
        for flag in ["-h", "--help"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(flag);
            let out = run(env.bare().env("COLUMNS", "80").args(&args));
            out.ok();
            for line in out.stdout.lines().filter(|l| l.chars().count() > 80) {
                wide.push(format!("{}: {line}", args.join(" ")));
            }
        }
    }
    assert!(wide.is_empty(), "wider than 80:\n{}", wide.join("\n"));
    // A usage error's usage line too.
    let out = run(env
        .bare()
        .env("COLUMNS", "80")
        .args(["local", "tunnels", "start", "--name", "x"]));
    out.code(2);
    assert!(
        out.stderr.lines().all(|l| l.chars().count() <= 80),
        "{}",
        out.stderr
    );
}

/// What each kind of command shows of the global options.
#[test]
fn each_command_shows_only_the_global_options_that_mean_something_to_it() {
    let env = Env::new();
    let help = |path: &[&str]| {
        let mut args = path.to_vec();
        args.push("--help");
        let out = run(env.bare().args(&args));
        split_help(&out, &args.join(" ")).1
    };
    for path in command_paths().into_iter().filter(|p| !p.is_empty()) {
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        let global = help(&path);
        let has = |flag: &str| global.lines().any(|l| flag_of(l) == Some(flag));
        let what = path.join(" ");
        match path[0] {
            "local" => {
                for flag in [
                    "--api-key",
                    "--api-url",
                    "--rate",
                    "--max-attempts",
                    "--show-secrets",
                ] {
                    assert!(!has(flag), "{what} shows {flag}:\n{global}");
                }
                // `test` needs no agent, nor the history.
                let offline = what.starts_with("local requests test");
                assert_eq!(has("--agent-url"), !offline, "{what}:\n{global}");
                assert!(!offline || !has("--history-file"), "{what}:\n{global}");
            }
            "sessions"
            | "ip-policies"
            | "backends"
            | "edges"
            | "event-destinations"
            | "event-subscriptions"
            | "api" => {
                assert!(!has("--agent-url"), "{what} shows --agent-url:\n{global}");
                assert!(
                    has("--api-key") && has("--api-url") && has("--rate"),
                    "{what}"
                );
            }
            "help" | "completions" => {
                assert!(
                    !has("--api-key") && !has("--json") && !has("--profile"),
                    "{what}"
                );
                assert!(has("--no-color"), "{what}");
            }
            _ => {}
        }
        let confirms = matches!(path.last(), Some(&("delete" | "stop" | "clear" | "apply")));
        if path.len() > 1 && ["list", "get", "create", "update"].contains(path.last().unwrap()) {
            assert!(!has("--yes"), "{what} asks nothing, yet shows --yes");
        }
        if confirms {
            // Among its own options (see every_command_lists_its_own_options_first…).
            let mut args = path.clone();
            args.push("--help");
            let whole = run(env.bare().args(&args)).stdout;
            assert!(
                whole.lines().any(|l| flag_of(l) == Some("--yes")),
                "{what} asks for confirmation: it shows --yes"
            );
        }
    }
    // The top level lists every global option.
    let top = help(&[]);
    for flag in global_flags() {
        assert!(top.contains(&flag), "tunnelctl --help lacks {flag}");
    }
}

#[test]
fn hidden_global_options_are_still_taken_everywhere() {
    let env = Env::new();
    let agent = env.mock.agent_url();
    let local = |args: &[&str]| run(env.cmd().env(var::AGENT_URL, &agent).args(args));
    local(&["--api-key", "K", "local", "tunnels", "list"]).ok();
    local(&[
        "local",
        "tunnels",
        "list",
        "--api-key",
        "K",
        "--api-url",
        "https://api.example.com",
        "--rate",
        "5/1",
        "--max-attempts",
        "2",
        "--show-secrets",
        "--yes",
    ])
    .ok();
    run(env
        .cmd()
        .args(["sessions", "list", "--agent-url", "http://127.0.0.1:9/api"]))
    .ok();
    // A wrong value of a flag the command does not show is still refused before sending.
    env.mock.clear_agent_requests();
    for bad in [["--rate", "fast"], ["--max-attempts", "0"]] {
        let mut args = vec!["local", "tunnels", "list"];
        args.extend(bad);
        local(&args).code(2).says(bad[0]);
    }
    assert!(env.mock.agent_requests().is_empty(), "nothing sent");
}

/// clap's usage errors and help, run where it would colour them, with and without
/// `--no-color` and `NO_COLOR`.
#[test]
fn no_color_covers_usage_errors_and_help() {
    let env = Env::new();
    let colour = |envs: &[(&str, &str)], args: &[&str]| {
        let mut cmd = env.bare();
        cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let out = run(cmd.args(args));
        out.stdout.contains('\u{1b}') || out.stderr.contains('\u{1b}')
    };
    let forced = [(var::FORCE_TTY, "1")];
    let usage_error = ["sessions", "list", "--bogus"];
    assert!(
        colour(&forced, &usage_error),
        "forced onto the terminal path, clap colours"
    );
    assert!(colour(&[("CLICOLOR_FORCE", "1")], &usage_error));
    let mut flagged = usage_error.to_vec();
    flagged.push("--no-color");
    assert!(
        !colour(&forced, &flagged),
        "--no-color: a plain usage error"
    );
    assert!(!colour(&[("CLICOLOR_FORCE", "1")], &flagged));
    assert!(!colour(
        &[(var::FORCE_TTY, "1"), ("NO_COLOR", "1")],
        &usage_error
    ));
    assert!(!colour(
        &forced,
        &["--no-color", "ip-policies", "create", "--help"]
    ));
    assert!(colour(&forced, &["ip-policies", "create", "--help"]));
    let out = run(env
        .bare()
        .args(["--no-color", "sessions", "list", "--bogus"]));
    out.code(2).says("--bogus");
}

#[test]
fn help_never_shows_the_value_of_an_environment_variable() {
    // `run` fails on the API key anywhere in the output; every help page is read with the key
    // and the URLs in the environment.
    let env = Env::new();
    for path in command_paths() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = run(env.cmd().env(var::PROFILE, "prof-x9q").args(&args));
        assert_eq!(out.code, 0, "{args:?}");
        assert!(!out.stdout.contains("prof-x9q"), "{args:?}: {}", out.stdout);
    }
}

/// Every example of every help page (`-h` and `--help`) reads whole at 80 columns: each line
/// of its "Examples:" block is a line of an example as written (`-h` shows one or two,
/// `--help` all), none broken where clap wrapped
/// it (a continuation line starting with `--remove-header` cannot be pasted).
#[test]
fn every_help_example_is_whole_at_80_columns() {
    let env = Env::new();
    let root = tunnelctl::cli::command();
    let mut broken = Vec::new();
    for path in command_paths() {
        let cmd = find(&root, &path);
        let Some(text) = cmd
            .get_after_long_help()
            .or_else(|| cmd.get_after_help())
            .map(|t| t.to_string())
        else {
            continue;
        };
        let examples = tunnelctl::cli::after_help::parse(&text).examples;
        let lines_of = |n: usize| -> Vec<String> {
            examples
                .iter()
                .take(n)
                .flat_map(|e| e.lines.iter().map(|l| format!("  {l}")))
                .collect()
        };
        let written = lines_of(usize::MAX);
        // `-h` shows at least one (the first few, or one chosen where options leave no room),
        // `--help` all of them.
        let written_short = lines_of(1);
        // Two columns to spare: a line filling the last column wraps on some terminals.
        for line in written.iter().filter(|l| l.chars().count() > 78) {
            broken.push(format!(
                "{}: wider than 78 columns: {line:?}",
                path.join(" ")
            ));
        }
        for flag in ["-h", "--help"] {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push(flag);
            let out = run(env.bare().env("COLUMNS", "80").args(&args));
            out.ok();
            let shown: Vec<&str> = out
                .stdout
                .lines()
                .skip_while(|l| !matches!(*l, "Examples:" | "Example:"))
                .skip(1)
                .take_while(|l| !l.trim().is_empty())
                .collect();
            assert!(
                !written.is_empty() || shown.is_empty(),
                "{args:?}: no examples"
            );
            let what = args.join(" ");
            // The top's `-h` has no room for them (it fits a screen); every other has.
            if path.is_empty() && flag == "-h" {
                assert!(shown.is_empty(), "{what}");
                continue;
            }
            for line in &shown {
                if line.chars().count() > 80 || !written.iter().any(|w| w == line) {
                    broken.push(format!("{what}: {line:?}"));
                }
            }
            let expected = if flag == "-h" {
                &written_short
            } else {
                &written
            };
            assert!(
                shown.len() >= expected.len(),
                "{what}: examples missing:\n{}",
                out.stdout
            );
        }
    }
    assert!(
        broken.is_empty(),
        "example lines broken at 80 columns:\n{}",
        broken.join("\n")
    );
}

/// A usage line shows what the command needs, whatever the environment holds: with every
/// `TUNNELCTL_*` setting in the environment (as `tunnelctl-mock exec` leaves it), a local
/// command's usage error does not list `--api-key` and the other settings as if required.
#[test]
fn usage_errors_do_not_list_settings_read_from_the_environment() {
    let env = Env::new();
    let settings = [
        "--api-key",
        "--api-url",
        "--agent-url",
        "--config",
        "--profile",
    ];
    let usage_of = |args: &[&str]| {
        let out = run(env
            .cmd()
            .env(var::AGENT_URL, env.mock.agent_url())
            .env(var::PROFILE, "default")
            .args(args));
        out.code(2);
        assert_eq!(out.stdout, "");
        let usage = out
            .stderr
            .lines()
            .find(|l| l.starts_with("Usage:"))
            .unwrap_or_else(|| panic!("{args:?}: no usage line:\n{}", out.stderr))
            .to_string();
        for flag in settings {
            assert!(!usage.contains(flag), "{args:?} lists {flag}: {usage}");
        }
        (out.stderr.clone(), usage)
    };
    let (said, usage) = usage_of(&["local", "requests", "export"]);
    assert!(said.contains("--har <FILE>"), "{said}");
    assert_eq!(usage, "Usage: tunnelctl local requests export --har <FILE>");
    let (said, usage) = usage_of(&["local", "requests", "send", "x.http"]);
    assert!(said.contains("--to <URL>"), "{said}");
    assert!(usage.contains("<FILE>..."), "{usage}");
    // A conflict is written with the same usage line.
    let (said, _) = usage_of(&[
        "local", "requests", "replay", "airt_x", "--tunnel", "a", "--to", "http://x",
    ]);
    assert!(said.contains("cannot be used with"), "{said}");
    assert!(env.mock.agent_requests().is_empty(), "nothing sent");
    assert!(env.requests().is_empty(), "nothing sent");
}

/// `tunnelctl` alone lists the commands, as `gh` and `kubectl` do: in a script it is a usage
/// error (exit 2, the list on stderr, nothing on stdout).
#[test]
fn bare_tunnelctl_lists_the_commands_and_exits_2_off_a_terminal() {
    let env = Env::new();
    let out = run(&mut env.cmd());
    out.code(2);
    assert_eq!(out.stdout, "");
    assert!(
        !out.stderr.contains("subcommand is required"),
        "{}",
        out.stderr
    );
    for word in [
        "Commands:",
        "sessions",
        "local",
        "config",
        "Usage: tunnelctl",
    ] {
        out.says(word);
    }
    let forced = run(env.cmd().env(var::FORCE_TTY, "1"));
    forced.ok().prints("Commands:").prints("local");
    // Flags without a command are still an error about the missing command.
    run(env.cmd().arg("--json")).code(2).says("subcommand");
}

/// On a terminal of 80x24, `tunnelctl` alone shows the command list and exits 0.
#[test]
fn bare_tunnelctl_on_a_terminal_shows_the_command_list() {
    let env = Env::new();
    let mut term = env.pty(&[], 24, 80);
    assert_eq!(term.wait_exit(), 0, "{}", term.screen());
    let shown = String::from_utf8_lossy(&term.output()).into_owned();
    assert!(shown.contains("Commands:"), "{shown}");
    assert!(shown.contains("event-destinations"), "{shown}");
    assert!(!shown.contains("error:"), "{shown}");
    // All of it on the one screen: its first line and its last are both still there.
    let screen = term.screen();
    assert!(screen.starts_with("Usage: tunnelctl"), "{screen}");
    assert!(
        screen.contains("Start with 'tunnelctl config init'"),
        "{screen}"
    );
    assert!(term.wrapped_rows().is_empty(), "{:?}", term.wrapped_rows());
    term.assert_restored();
}

/// `help filters` names every flag `local requests list` filters with, so a new filter flag
/// cannot be added without its line there; `help output` names every output format clap
/// takes, and the environment variables that change what is printed.
#[test]
fn the_help_topics_cover_the_filter_flags_and_the_output_formats() {
    let env = Env::new();
    let root = Cli::command();
    let filters = run(env.bare().args(["help", "filters"]));
    filters.ok();
    let list = find(&root, &["local".into(), "requests".into(), "list".into()]);
    for arg in list.get_arguments().filter(|a| !a.is_global_set()) {
        if let Some(long) = arg.get_long().filter(|l| *l != "help") {
            assert!(
                filters.stdout.contains(&format!("--{long}")),
                "help filters lacks --{long}:\n{}",
                filters.stdout
            );
        }
    }
    for word in [
        "method:", "status:", "path:", "tunnel:", "since:", "sig:", "replayed", "!",
    ] {
        assert!(filters.stdout.contains(word), "help filters lacks {word}");
    }
    let output = run(env.bare().args(["help", "output"]));
    output.ok();
    let format = root
        .get_arguments()
        .find(|a| a.get_long() == Some("output"))
        .expect("-o/--output");
    for value in format.get_possible_values() {
        assert!(
            output.stdout.contains(&format!("  {}  ", value.get_name())),
            "help output lacks the format {}:\n{}",
            value.get_name(),
            output.stdout
        );
    }
    for name in [
        "--json",
        "--jq",
        "NO_COLOR",
        var::FORCE_TTY,
        "tab-separated",
    ] {
        assert!(output.stdout.contains(name), "help output lacks {name}");
    }
}

/// A topic that does not exist is a usage error that names the topics there are.
#[test]
fn an_unknown_help_topic_names_the_topics() {
    let env = Env::new();
    let out = run(env.bare().args(["help", "filter-words"]));
    out.code(2)
        .says("'filter-words'")
        .says("exit-codes, filters and output");
}

/// An option's `--help` goes on from its `-h` line instead of saying it again: the paragraphs
/// after the first (the summary `-h` shows) must not start as the summary does. Eleven options
/// of `local requests` and `event-destinations` once read as the summary twice.
#[test]
fn no_option_says_its_summary_twice_in_its_long_help() {
    fn opening(text: &str) -> Vec<String> {
        text.split_whitespace()
            .take(2)
            .map(|w| w.to_lowercase())
            .collect()
    }
    let root = Cli::command();
    let mut twice = Vec::new();
    for path in command_paths() {
        let cmd = find(&root, &path);
        for arg in cmd.get_arguments() {
            let Some(long) = arg.get_long_help().map(ToString::to_string) else {
                continue;
            };
            let mut paragraphs = long.split("\n\n");
            let summary = opening(paragraphs.next().unwrap_or_default());
            if paragraphs.any(|p| opening(p) == summary) {
                twice.push(format!("{} --{}", path.join(" "), arg.get_id()));
            }
        }
    }
    assert!(
        twice.is_empty(),
        "the summary said again in --help:\n{}",
        twice.join("\n")
    );
}
