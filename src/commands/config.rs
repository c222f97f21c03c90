//! `tunnelctl config …`: the config file and its profiles.

use std::path::Path;

use anyhow::Context as _;
use clap::{Args, Subcommand};

use crate::config_file::{is_webhook_secret_key, ConfigFile};
use crate::context::{validate_agent_url, validate_api_url, Context};
use crate::error::{CommandResult, Error, Result};
use crate::escape::{escape, escape_path};
use crate::registry::{self, is_secret_key};
use crate::secrets::redact;

mod show;

/// `config` and its verbs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl config init                      # asks for the API URL and key
  printf '%s\\n' \"$KEY\" | tunnelctl config init \\
      --api-url https://api.example.com --api-key-stdin
  tunnelctl config show
  tunnelctl --profile staging config set api_url \\
      https://api.staging.example.com
  tunnelctl config set rate 60/60
  tunnelctl config set max_attempts 5
  tunnelctl config path
  printf '%s\\n' \"$SECRET\" | tunnelctl config set webhook_secret_github -

Keys: api_key (secret), api_url, agent_url, max_attempts (1 to 20), rate (N/SECONDS or off),
read_only (true or false), history_file, history_url (postgres://… : the team store),
history_source, history_max_size (1GiB), history_max_age (30d), webhook_secret_github, webhook_secret_stripe, webhook_secret_slack, webhook_secret_shopify,
webhook_secret_standard (secrets, set from stdin only; TUNNELCTL_WEBHOOK_SECRET_<PROVIDER> wins).")]
pub struct ConfigArgs {
    #[command(subcommand)]
    command: ConfigCommand,
}

#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Store the API URL and key in the profile (asks on a terminal; the key is hidden)
    #[command(
        long_about = "Store the API URL and key in the profile (asks on a terminal; the key is hidden).\n\n\
The key is checked against the API first (one GET of /ip_policies, as 'gh auth login' \
does): a key the API refuses (401, 403) is not saved (exit 3), nor is anything when the API \
cannot be reached (exit 6) unless --no-check is given. Only what is typed, or given on this \
command line (--api-url, --api-key, --agent-url, --api-key-stdin), is stored: values from \
TUNNELCTL_* environment variables are not.",
        after_help = "Examples:
  tunnelctl config init
  tunnelctl --profile staging config init
  printf '%s\\n' \"$KEY\" | tunnelctl config init \\
      --api-url https://api.example.com --api-key-stdin"
    )]
    Init {
        /// Read the API key from the first line of stdin
        #[arg(long)]
        api_key_stdin: bool,
        /// Save without checking the key against the API (e.g. while it cannot be reached)
        #[arg(long)]
        no_check: bool,
    },
    /// Show the settings in effect and where each comes from (the key redacted)
    #[command(
        after_help = "Example:\n  tunnelctl config show\n  tunnelctl --profile staging config show --json"
    )]
    Show,
    /// Print the value of a key in the profile (the API key only redacted)
    #[command(
        after_help = "Examples:\n  tunnelctl config get api_url\n  tunnelctl config get rate"
    )]
    Get {
        /// api_key, api_url, agent_url, max_attempts, rate, history_* or webhook_secret_<provider>
        key: String,
    },
    /// Set a key in the profile ('-' as VALUE reads it from stdin)
    #[command(after_help = "Examples:
  tunnelctl config set api_url https://api.example.com
  tunnelctl config set rate 60/60            # N/SECONDS, or off
  tunnelctl config set max_attempts 5        # 1 to 20
  printf '%s\\n' \"$KEY\" | tunnelctl config set api_key -
  printf '%s\\n' \"$SECRET\" | tunnelctl config set webhook_secret_stripe -

A webhook secret is read from stdin only ('-'), never from the command line.")]
    Set {
        /// api_key, api_url, agent_url, max_attempts, rate, history_* or webhook_secret_<provider>
        key: String,
        /// The value, or '-' to read it from stdin
        // A value that starts with '-' (`-2d`, `-1`) is the value, checked as the key's, not
        // taken for a flag clap does not know.
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
    /// Remove a key from the profile
    #[command(after_help = "Example:\n  tunnelctl config unset agent_url")]
    Unset {
        /// api_key, api_url, agent_url, max_attempts, rate, history_* or webhook_secret_<provider>
        key: String,
    },
    /// Print the path of the config file
    #[command(after_help = "Example:\n  tunnelctl config path")]
    Path,
}

fn known_key(key: &str) -> Result<()> {
    if registry::profile_key(key).is_some() {
        Ok(())
    } else {
        let keys: Vec<&str> = registry::profile_keys().map(|s| s.key).collect();
        Err(Error::usage(format!(
            "unknown key '{}'; the keys are {}",
            escape(key),
            keys.join(", ")
        )))
    }
}

/// Checks a value before it is stored, so a bad URL fails now rather than at the next call.
fn check_value(key: &str, value: &str) -> Result<()> {
    let bad = |e: Error| Error::usage(e.to_string());
    match key {
        "api_url" => validate_api_url(value).map(|_| ()).map_err(bad),
        "agent_url" => validate_agent_url(value).map(|_| ()).map_err(bad),
        "api_key" if value.trim().is_empty() => Err(Error::usage("the API key must not be empty")),
        _ if is_webhook_secret_key(key) => check_webhook_secret(key, value),
        _ => match registry::profile_key(key).and_then(|s| s.check) {
            Some(check) => check(value).map_err(|e| Error::usage(format!("{key}: {}", escape(&e)))),
            None => Ok(()),
        },
    }
}

/// A webhook secret must be usable for signing: not empty, and for Standard Webhooks base64
/// after `whsec_`. The error never quotes the value.
fn check_webhook_secret(key: &str, value: &str) -> Result<()> {
    let Some(provider) = crate::signature::Provider::from_config_key(key) else {
        return Ok(());
    };
    if value.trim().is_empty() {
        return Err(Error::usage(format!("{key} must not be empty")));
    }
    crate::signature::key(provider, value)
        .map(|_| ())
        .map_err(|e| Error::usage(e.to_string()))
}

/// Refuses a webhook secret typed as an argument: every user of the machine sees it in `ps`,
/// and the shell keeps it in its history. The value is not repeated.
fn refuse_secret_argument(key: &str) -> Error {
    Error::usage(format!(
        "{key} is a secret and is not taken on the command line (other users see it in 'ps', the shell keeps it in its history); \
give '-' and pipe it: printf '%s\\n' \"$SECRET\" | tunnelctl config set {key} -"
    ))
}

fn read_line(what: &str) -> Result<String> {
    super::stdin_line(what)
}

impl super::Group for ConfigArgs {
    const REACHES: super::Reaches = super::Reaches::Neither;
    const SHOWS_SETTINGS: &'static [(&'static str, &'static [&'static str])] = &[
        ("api_key", &["show", "init"]),
        ("api_url", &["show", "init"]),
        ("agent_url", &["show", "init"]),
        ("max_attempts", &["show"]),
        ("history_file", &["show"]),
        ("history_url", &["show"]),
        ("rate", &["show"]),
        ("read_only", &["show"]),
    ];

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs a `config` command.
pub async fn run(args: ConfigArgs, ctx: &Context) -> crate::error::CommandResult {
    let profile = ctx.settings.profile().to_string();
    match args.command {
        ConfigCommand::Path => Ok(ctx
            .printer
            .line(&ctx.settings.config_path()?.display().to_string())?),
        ConfigCommand::Init {
            api_key_stdin,
            no_check,
        } => init(ctx, &profile, api_key_stdin, !no_check).await,
        ConfigCommand::Show => show::run(ctx, &profile),
        ConfigCommand::Get { key } => {
            known_key(&key)?;
            let cfg = load(&ctx.settings.config_path()?)?;
            match cfg.written(&profile, &key) {
                Some(v) if is_secret_key(&key) => {
                    ctx.printer.line(&redact(&v))?;
                    if is_webhook_secret_key(&key) {
                        ctx.note("(a webhook secret is never printed in full)");
                    } else {
                        ctx.note("(the API key is never printed in full)");
                    }
                    Ok(())
                }
                Some(v) => Ok(ctx.printer.line(&v)?),
                None => Err(Error::Config(format!(
                    "'{key}' is not set in profile '{}' of {}",
                    escape(&profile),
                    cfg.path().display()
                ))
                .into()),
            }
        }
        ConfigCommand::Set { key, value } => {
            known_key(&key)?;
            if is_webhook_secret_key(&key) && value != "-" {
                return Err(refuse_secret_argument(&key).into());
            }
            let value = if value == "-" {
                read_line(&key)?
            } else {
                value
            };
            check_value(&key, &value)?;
            let path = ctx.settings.config_path()?;
            update(&path, |cfg| cfg.set(&profile, &key, &value))?;
            ctx.note(&format!(
                "Set {key} in profile '{}' of {}",
                escape(&profile),
                path.display()
            ));
            Ok(())
        }
        ConfigCommand::Unset { key } => {
            known_key(&key)?;
            let path = ctx.settings.config_path()?;
            if update(&path, |cfg| Ok(cfg.unset(&profile, &key)))? {
                ctx.note(&format!(
                    "Removed {key} from profile '{}'",
                    escape(&profile)
                ));
            } else {
                ctx.note(&format!(
                    "{key} was not set in profile '{}'",
                    escape(&profile)
                ));
            }
            Ok(())
        }
    }
}

/// Reads the config file at `path`, saying which file was being read when it fails.
fn load(path: &Path) -> CommandResult<ConfigFile> {
    ConfigFile::load(path).with_context(|| format!("reading config {}", escape_path(path)))
}

/// [`ConfigFile::update`], saying which file was being written when it fails.
fn update<T>(path: &Path, edit: impl FnOnce(&mut ConfigFile) -> Result<T>) -> CommandResult<T> {
    ConfigFile::update(path, edit).with_context(|| format!("writing config {}", escape_path(path)))
}

async fn init(ctx: &Context, profile: &str, api_key_stdin: bool, check: bool) -> CommandResult {
    let cfg = load(&ctx.settings.config_path()?)?;
    let interactive = ctx.prompter.is_interactive() && !api_key_stdin;
    let existing_url = cfg.get(profile, "api_url").map(str::to_string);
    let url = match (ctx.settings.given_as_flag(&registry::API_URL), interactive) {
        (Some(u), _) => u,
        (None, true) => {
            ctx.prompter
                .text("Management API URL", existing_url.clone(), |s: &str| {
                    validate_api_url(s).map(|_| ()).map_err(|e| e.to_string())
                })?
        }
        (None, false) => existing_url.ok_or_else(|| {
            Error::usage(
                "no API URL: pass --api-url URL when not on a terminal (config init does not store TUNNELCTL_API_URL)",
            )
        })?,
    };
    check_value("api_url", &url)?;
    let key = if api_key_stdin {
        read_line("the API key")?
    } else if let Some(k) = ctx.settings.given_as_flag(&registry::API_KEY) {
        k
    } else if interactive {
        let has_key = cfg.get(profile, "api_key").is_some();
        let prompt = if has_key {
            "API key (hidden; empty keeps the current one)"
        } else {
            "API key (hidden)"
        };
        let k = ctx.prompter.secret(prompt, has_key)?;
        if k.is_empty() {
            cfg.get(profile, "api_key").unwrap_or_default().to_string()
        } else {
            k
        }
    } else {
        return Err(Error::usage(
            "no API key: pipe it with --api-key-stdin when not on a terminal (config init does not store TUNNELCTL_API_KEY)",
        )
        .into());
    };
    check_value("api_key", &key)?;
    let agent = ctx.settings.given_as_flag(&registry::AGENT_URL);
    if let Some(agent) = &agent {
        check_value("agent_url", agent)?;
    }
    if check {
        check_key(ctx, &url, &key).await?;
    }
    // The answers above may have taken a while: write under the lock, on a fresh read.
    update(cfg.path(), |fresh| {
        fresh.set(profile, "api_url", &url)?;
        fresh.set(profile, "api_key", &key)?;
        if let Some(agent) = &agent {
            fresh.set(profile, "agent_url", agent)?;
        }
        Ok(())
    })?;
    ctx.note(&format!(
        "Saved profile '{}' to {} (mode 0600)",
        escape(profile),
        cfg.path().display()
    ));
    Ok(())
}

/// Makes one cheap authenticated request with the key about to be saved: a key the API
/// refuses is exit 3, any other failure keeps its own code; either way nothing is saved.
async fn check_key(ctx: &Context, url: &str, key: &str) -> Result<()> {
    let client = ctx.management_at(url, key, None)?;
    let outcome = client
        .raw(reqwest::Method::GET, "ip_policies?limit=1", None)
        .await;
    const NOTHING_SAVED: &str = "Nothing was saved.";
    match outcome {
        Ok(_) => {
            ctx.note(&format!("The API at {} accepted the key.", escape(url)));
            Ok(())
        }
        Err(Error::Api(f)) if matches!(f.status, 401 | 403) => Err(Error::Config(format!(
            "the API at {} refused the key ({}). {NOTHING_SAVED} Check the key and run 'tunnelctl config init' again.",
            escape(url),
            crate::error::status_text(f.status)
        ))),
        Err(Error::Unreachable(m)) => Err(Error::Unreachable(format!(
            "could not check the key: {m}\n{NOTHING_SAVED} To save it without checking, add --no-check."
        ))),
        Err(Error::Api(mut f)) => {
            f.hint = Some(format!(
                "Is {} the management API? {NOTHING_SAVED} To save it without checking, add --no-check.",
                escape(url)
            ));
            Err(Error::Api(f))
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// `config --help` lists the keys a profile holds: every one the registry has.
    #[test]
    fn the_help_names_every_key() {
        let cmd = crate::cli::Cli::command();
        let config = cmd.find_subcommand("config").unwrap();
        let help = config.get_after_help().unwrap().to_string();
        let keys = help.split("Keys:").nth(1).unwrap();
        for setting in crate::registry::profile_keys() {
            assert!(
                keys.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|w| w == setting.key),
                "config --help does not name the key {}",
                setting.key
            );
        }
    }
}
