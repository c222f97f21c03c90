//! The webhook secrets as settings: set from stdin only, the environment over the profile,
//! and never shown: not by `config show` or `config get`, not in a `-v` trace, not when a
//! server echoes one back.

use crate::common::{run, Env, Out};
use tunnelctl::registry::env as var;

/// One secret per provider, as a profile would hold them (long enough to be registered).
const IN_PROFILE: [(&str, &str); 5] = [
    ("webhook_secret_github", "gh-profile-secret-7a1c2e9d4b"),
    ("webhook_secret_stripe", "whsec_profile_stripe_5e3b8a1f6c"),
    ("webhook_secret_slack", "slack-profile-secret-2d9f7c4e1a"),
    ("webhook_secret_shopify", "shpss_profile_secret_8c6e3a0b2f"),
    (
        "webhook_secret_standard",
        "whsec_cHJvZmlsZS1zdGFuZGFyZC1rZXktMDEyMzQ1",
    ),
];

/// The same providers' secrets in the environment, which win.
const IN_ENV: [(&str, &str); 5] = [
    (var::WEBHOOK_SECRET_GITHUB, "gh-env-secret-3f8b6d2a9e"),
    (var::WEBHOOK_SECRET_STRIPE, "whsec_env_stripe_1b7d4f9a3c"),
    (var::WEBHOOK_SECRET_SLACK, "slack-env-secret-6a2c8e5b0d"),
    (var::WEBHOOK_SECRET_SHOPIFY, "shpss_env_secret_4e9a1c7f3b"),
    (
        var::WEBHOOK_SECRET_STANDARD,
        "whsec_ZW52LXN0YW5kYXJkLWtleS05ODc2NTQzMjEw",
    ),
];

/// Asserts that no webhook secret of this file is in `out`.
#[track_caller]
fn shows_no_webhook_secret(out: &Out) {
    for (_, secret) in IN_PROFILE.iter().chain(IN_ENV.iter()) {
        assert!(
            !out.stdout.contains(secret) && !out.stderr.contains(secret),
            "a webhook secret was printed:\nstdout:\n{}\nstderr:\n{}",
            out.stdout,
            out.stderr
        );
    }
}

/// Sets every secret of [`IN_PROFILE`] through `config set KEY -`.
fn set_all_from_stdin(env: &Env) {
    for (key, secret) in IN_PROFILE {
        let out = run(env
            .bare()
            .args(["config", "set", key, "-"])
            .write_stdin(format!("{secret}\n")));
        out.ok().says(&format!("Set {key}"));
        shows_no_webhook_secret(&out);
    }
}

#[test]
fn secrets_set_from_stdin_are_stored_and_shown_only_redacted() {
    let env = Env::new();
    set_all_from_stdin(&env);
    let file = std::fs::read_to_string(env.config_path()).unwrap();
    for (key, secret) in IN_PROFILE {
        assert!(file.contains(&format!("{key} = \"{secret}\"")), "{file}");
        let out = run(env.bare().args(["config", "get", key]));
        out.ok().says("never printed in full");
        assert_eq!(
            out.stdout.trim_end(),
            format!("{}…(redacted)", &secret[..4])
        );
        shows_no_webhook_secret(&out);
    }
}

#[test]
fn a_secret_on_the_command_line_is_refused_and_not_repeated() {
    let env = Env::new();
    for (key, secret) in IN_PROFILE {
        let out = run(env.bare().args(["config", "set", key, secret]));
        out.code(2)
            .says("not taken on the command line")
            .says(&format!("tunnelctl config set {key} -"));
        shows_no_webhook_secret(&out);
    }
    assert!(!env.config_path().exists(), "nothing was written");
    // An empty one, or a Standard Webhooks secret that is no base64, is refused too.
    let empty = run(env
        .bare()
        .args(["config", "set", "webhook_secret_slack", "-"])
        .write_stdin("\n"));
    empty.code(2).says("must not be empty");
    let bad = run(env
        .bare()
        .args(["config", "set", "webhook_secret_standard", "-"])
        .write_stdin("whsec_not*base64*at*all\n"));
    bad.code(2).says("not base64");
    assert!(!bad.stderr.contains("not*base64"), "{}", bad.stderr);
    assert!(!env.config_path().exists(), "nothing was written");
}

#[test]
fn the_environment_wins_and_config_show_names_the_source_not_the_value() {
    let env = Env::new();
    set_all_from_stdin(&env);
    let show = run(env.bare().args(["config", "show", "--json"]));
    show.ok();
    shows_no_webhook_secret(&show);
    let settings = &show.json()["settings"];
    for (key, secret) in IN_PROFILE {
        assert_eq!(settings[key]["source"], "profile default", "{settings}");
        assert_eq!(
            settings[key]["value"],
            format!("{}…(redacted)", &secret[..4])
        );
    }

    let mut cmd = env.bare();
    cmd.envs(IN_ENV).args(["config", "show", "--json"]);
    let show = run(&mut cmd);
    show.ok();
    shows_no_webhook_secret(&show);
    let settings = &show.json()["settings"];
    for ((key, _), (var, secret)) in IN_PROFILE.iter().zip(IN_ENV) {
        assert_eq!(settings[key]["source"], format!("env {var}"), "{settings}");
        assert_eq!(
            settings[key]["value"],
            format!("{}…(redacted)", &secret[..4])
        );
    }

    // Without any secret set, each says so.
    let other = Env::new();
    let show = run(other.bare().args(["config", "show"]));
    show.ok();
    for (key, _) in IN_PROFILE {
        show.prints(&format!("{key}\t\tdefault"));
    }
}

#[test]
fn no_secret_appears_in_any_output_even_verbose_or_echoed_by_a_server() {
    let env = Env::new();
    set_all_from_stdin(&env);
    let with_all = |args: &[&str]| {
        let mut cmd = env.cmd();
        cmd.envs(IN_ENV.iter().take(3).copied()).args(args);
        run(&mut cmd)
    };
    let mut runs = vec![
        with_all(&["-v", "config", "show"]),
        with_all(&["-v", "config", "show", "--json"]),
        with_all(&["-v", "ip-policies", "list"]),
    ];
    for (key, _) in IN_PROFILE {
        runs.push(with_all(&["-v", "config", "get", key]));
    }
    // A server that echoes a secret back (here: a description made of one, from the
    // environment and from the profile) cannot make tunnelctl print it.
    for secret in [IN_ENV[0].1, IN_PROFILE[4].1] {
        let out = with_all(&["-v", "ip-policies", "create", "--description", secret]);
        out.ok();
        assert!(out.stdout.contains("(redacted)"), "{}", out.stdout);
        runs.push(out);
    }
    for out in &runs {
        shows_no_webhook_secret(out);
    }
}
