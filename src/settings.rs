//! The settings of one run, resolved once with their sources: a flag, then its environment
//! variable, then the active profile of the config file, then the built-in default.
//!
//! This is the one place that precedence is written. The command line's global flags are
//! turned once, at the top (`cli.rs`), into plain [`SettingFlags`] (these) and output flags
//! (`output::OutputFlags`, which make the printer), so nothing below the command handlers sees
//! a clap type; `config show` prints each value with the [`Source`] it came from. The config
//! file is read only when a value is not given by a flag or the environment, and then only
//! once.

use std::cell::OnceCell;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::config_file::{self, ConfigFile};
use crate::error::{Error, Result};
use crate::ratelimit::{RateSetting, DEFAULT_RATE};
use crate::signature::{Provider, Secrets};

/// The default URL of the local agent API.
pub const DEFAULT_AGENT_URL: &str = "http://127.0.0.1:4040/api";
/// How many times a request may be tried in all, by default.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 3;
/// The default profile.
pub const DEFAULT_PROFILE: &str = "default";

/// The environment variables of the settings that have one.
pub mod env {
    /// The API key.
    pub const API_KEY: &str = "TUNNELCTL_API_KEY";
    /// The management API URL.
    pub const API_URL: &str = "TUNNELCTL_API_URL";
    /// The agent API URL.
    pub const AGENT_URL: &str = "TUNNELCTL_AGENT_URL";
    /// The capture history's file.
    pub const HISTORY_FILE: &str = "TUNNELCTL_HISTORY_FILE";
}

/// The default bound of the capture history's size: 1 GiB.
pub const DEFAULT_HISTORY_MAX_SIZE: u64 = 1 << 30;
/// [`DEFAULT_HISTORY_MAX_SIZE`] as `config show` writes it (a test holds the two together).
pub const DEFAULT_HISTORY_MAX_SIZE_TEXT: &str = "1GiB";
/// The default bound of the capture history's age: 30 days.
pub const DEFAULT_HISTORY_MAX_AGE: Duration = Duration::from_secs(30 * 86_400);
/// [`DEFAULT_HISTORY_MAX_AGE`] as `config show` writes it (a test holds the two together).
pub const DEFAULT_HISTORY_MAX_AGE_TEXT: &str = "30d";

/// The settings the command line gave: a flag, or (clap reads them alike) its environment
/// variable. Output flags (`--json`, `--quiet`, ...) are the printer's, not these.
#[derive(Debug, Clone, Default)]
pub struct SettingFlags {
    /// `--api-key` / `TUNNELCTL_API_KEY`.
    pub api_key: Option<String>,
    /// `--api-url` / `TUNNELCTL_API_URL`.
    pub api_url: Option<String>,
    /// `--agent-url` / `TUNNELCTL_AGENT_URL`.
    pub agent_url: Option<String>,
    /// `--config` / `TUNNELCTL_CONFIG`.
    pub config: Option<PathBuf>,
    /// `--profile` / `TUNNELCTL_PROFILE`.
    pub profile: Option<String>,
    /// `--max-attempts`.
    pub max_attempts: Option<u32>,
    /// `--rate`.
    pub rate: Option<RateSetting>,
    /// `--history-file` / `TUNNELCTL_HISTORY_FILE`.
    pub history_file: Option<PathBuf>,
    /// `--timeout`: the limit of the whole command.
    pub timeout: Option<Duration>,
    /// `--verbose`.
    pub verbose: bool,
    /// `--yes`.
    pub yes: bool,
    /// Which of the values above were typed as flags on the command line (clap fills a field
    /// alike from its flag and its environment variable).
    pub on_command_line: OnCommandLine,
}

/// Which settings were typed as flags on the command line, not set through their variables.
#[derive(Debug, Clone, Copy, Default)]
pub struct OnCommandLine {
    /// `--api-key`.
    pub api_key: bool,
    /// `--api-url`.
    pub api_url: bool,
    /// `--agent-url`.
    pub agent_url: bool,
    /// `--history-file`.
    pub history_file: bool,
}

impl SettingFlags {
    /// What the environment alone gives (for shell completion, which runs before any flag of
    /// the command line being typed is known).
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        SettingFlags {
            api_key: var(env::API_KEY),
            api_url: var(env::API_URL),
            agent_url: var(env::AGENT_URL),
            config: var("TUNNELCTL_CONFIG").map(PathBuf::from),
            profile: var("TUNNELCTL_PROFILE"),
            history_file: var(env::HISTORY_FILE).map(PathBuf::from),
            ..SettingFlags::default()
        }
    }
}

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag.
    Flag,
    /// An environment variable.
    Env(&'static str),
    /// A profile of the config file.
    Profile(String),
    /// The built-in default (or nothing at all).
    Default,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Flag => write!(f, "flag"),
            Source::Env(var) => write!(f, "env {var}"),
            Source::Profile(p) => write!(f, "profile {p}"),
            Source::Default => write!(f, "default"),
        }
    }
}

/// A setting's value (if any) and where it came from.
#[derive(Debug, Clone)]
pub struct Resolved<T> {
    /// The value; `None` when nothing sets it and it has no default.
    pub value: Option<T>,
    /// Where it came from.
    pub source: Source,
}

/// The settings of this run.
pub struct Settings {
    /// What the command line gave.
    pub flags: SettingFlags,
    config: OnceCell<ConfigFile>,
}

impl Settings {
    /// Settings from what the command line gave; the config file is read when first needed.
    pub fn new(flags: SettingFlags) -> Self {
        register_env_webhook_secrets();
        Settings {
            flags,
            config: OnceCell::new(),
        }
    }

    /// The profile in use.
    pub fn profile(&self) -> &str {
        self.flags.profile.as_deref().unwrap_or(DEFAULT_PROFILE)
    }

    /// The config file's path.
    pub fn config_path(&self) -> Result<PathBuf> {
        match &self.flags.config {
            Some(p) => Ok(p.clone()),
            None => config_file::default_path().ok_or_else(|| {
                Error::Config(
                    "cannot find the config folder of this platform; pass --config FILE or set TUNNELCTL_CONFIG"
                        .into(),
                )
            }),
        }
    }

    /// The config file (an absent file is an empty one), read once.
    pub fn config(&self) -> Result<&ConfigFile> {
        if let Some(c) = self.config.get() {
            return Ok(c);
        }
        let loaded = ConfigFile::load(&self.config_path()?)?;
        Ok(self.config.get_or_init(|| loaded))
    }

    /// A text setting: flag, environment variable, profile.
    fn text(
        &self,
        given: Option<&String>,
        on_command_line: bool,
        var: &'static str,
        key: &str,
    ) -> Result<Resolved<String>> {
        if let Some(v) = given.filter(|v| !v.is_empty()) {
            // clap fills the field from the flag or the environment: on_command_line says which
            // (a value set by a caller other than clap, unlike its variable, counts as a flag).
            let source =
                if on_command_line || std::env::var(var).ok().as_deref() != Some(v.as_str()) {
                    Source::Flag
                } else {
                    Source::Env(var)
                };
            return Ok(Resolved {
                value: Some(v.clone()),
                source,
            });
        }
        self.profile_value(key)
    }

    /// A value from the profile, or none.
    fn profile_value(&self, key: &str) -> Result<Resolved<String>> {
        let profile = self.profile();
        Ok(
            match self.config()?.get(profile, key).filter(|v| !v.is_empty()) {
                Some(v) => Resolved {
                    value: Some(v.to_string()),
                    source: Source::Profile(profile.to_string()),
                },
                None => Resolved {
                    value: None,
                    source: Source::Default,
                },
            },
        )
    }

    /// A typed setting that has a flag but no environment variable.
    fn typed<T>(
        &self,
        given: Option<T>,
        key: &str,
        parse: impl Fn(&str) -> std::result::Result<T, String>,
        default: T,
    ) -> Result<Resolved<T>> {
        if let Some(v) = given {
            return Ok(Resolved {
                value: Some(v),
                source: Source::Flag,
            });
        }
        let found = self.profile_value(key)?;
        match found.value {
            Some(text) => parse(&text)
                .map(|v| Resolved {
                    value: Some(v),
                    source: found.source,
                })
                .map_err(|e| {
                    Error::Config(format!(
                        "the config key '{key}' of profile '{}': {e}",
                        self.profile()
                    ))
                }),
            None => Ok(Resolved {
                value: Some(default),
                source: Source::Default,
            }),
        }
    }

    /// The management API key.
    pub fn api_key(&self) -> Result<Resolved<String>> {
        self.text(
            self.flags.api_key.as_ref(),
            self.flags.on_command_line.api_key,
            env::API_KEY,
            "api_key",
        )
    }

    /// The management API URL.
    pub fn api_url(&self) -> Result<Resolved<String>> {
        self.text(
            self.flags.api_url.as_ref(),
            self.flags.on_command_line.api_url,
            env::API_URL,
            "api_url",
        )
    }

    /// The local agent API URL, with its default.
    pub fn agent_url(&self) -> Result<Resolved<String>> {
        let mut r = self.text(
            self.flags.agent_url.as_ref(),
            self.flags.on_command_line.agent_url,
            env::AGENT_URL,
            "agent_url",
        )?;
        if r.value.is_none() {
            r.value = Some(DEFAULT_AGENT_URL.to_string());
        }
        Ok(r)
    }

    /// Attempts per request.
    pub fn max_attempts(&self) -> Result<Resolved<u32>> {
        self.typed(
            self.flags.max_attempts,
            "max_attempts",
            crate::parse::parse_attempts,
            DEFAULT_MAX_ATTEMPTS,
        )
    }

    /// The capture history's file: flag, environment, profile, else `history.sqlite3` in the
    /// platform's data folder.
    pub fn history_file(&self) -> Result<Resolved<PathBuf>> {
        // Taken as the path it is: a file name need not be UTF-8, and a text made of it with
        // replacement characters would name another file.
        let given = self.flags.history_file.as_ref();
        if let Some(path) = given.filter(|p| !p.as_os_str().is_empty()) {
            let from_env = !self.flags.on_command_line.history_file
                && std::env::var_os(env::HISTORY_FILE).as_deref() == Some(path.as_os_str());
            return Ok(Resolved {
                value: Some(path.clone()),
                source: if from_env {
                    Source::Env(env::HISTORY_FILE)
                } else {
                    Source::Flag
                },
            });
        }
        let r = self.profile_value("history_file")?;
        let value = match r.value {
            Some(v) => PathBuf::from(v),
            None => crate::history::file::default_path().ok_or_else(|| {
                Error::Config(
                    "cannot find the data folder of this platform; pass --history-file FILE or set TUNNELCTL_HISTORY_FILE"
                        .into(),
                )
            })?,
        };
        Ok(Resolved {
            value: Some(value),
            source: r.source,
        })
    }

    /// How large the capture history may grow (`history_max_size`), default 1 GiB.
    pub fn history_max_size(&self) -> Result<Resolved<u64>> {
        self.typed(
            None,
            "history_max_size",
            crate::history::parse_max_size,
            DEFAULT_HISTORY_MAX_SIZE,
        )
    }

    /// How old a kept capture may grow (`history_max_age`), default 30 days.
    pub fn history_max_age(&self) -> Result<Resolved<Duration>> {
        self.typed(
            None,
            "history_max_age",
            crate::parse::parse_lookback,
            DEFAULT_HISTORY_MAX_AGE,
        )
    }

    /// The pacing of management requests.
    pub fn rate(&self) -> Result<Resolved<RateSetting>> {
        self.typed(
            self.flags.rate,
            "rate",
            |t| t.parse(),
            RateSetting::Limit(DEFAULT_RATE),
        )
    }
}

/// The webhook secret of `provider` from its environment variable, if set.
fn env_webhook_secret(provider: Provider) -> Option<String> {
    std::env::var(provider.env_var())
        .ok()
        .filter(|v| !v.is_empty())
}

/// Registers the webhook secrets of the environment with [`crate::secrets`] before anything
/// runs, so no output shows them even when the command never reads them (a captured body that
/// quotes one, a trace). The config file's are registered when it is read.
fn register_env_webhook_secrets() {
    for provider in Provider::ALL {
        if let Some(secret) = env_webhook_secret(provider) {
            crate::secrets::register_secret(&secret);
        }
    }
}

impl Settings {
    /// The webhook secret of `provider`: its environment variable, then the profile's key.
    pub fn webhook_secret(&self, provider: Provider) -> Result<Resolved<String>> {
        match env_webhook_secret(provider) {
            Some(secret) => Ok(Resolved {
                value: Some(secret),
                source: Source::Env(provider.env_var()),
            }),
            None => self.profile_value(provider.config_key()),
        }
    }

    /// Every webhook secret set, for checking and making signatures.
    pub fn webhook_secrets(&self) -> Result<Secrets> {
        let mut secrets = Secrets::new();
        for provider in Provider::ALL {
            if let Some(secret) = self.webhook_secret(provider)?.value {
                secrets.set(provider, secret);
            }
        }
        Ok(secrets)
    }
}

impl Settings {
    /// Every key of a profile as `config show` prints it: the value as text (a value stored in
    /// the profile as it was written, even one that does not parse) and its source.
    pub fn shown(&self) -> Result<Vec<(&'static str, Resolved<String>)>> {
        let typed_text =
            |given: Option<String>, key: &str, default: String| -> Result<Resolved<String>> {
                if let Some(v) = given {
                    return Ok(Resolved {
                        value: Some(v),
                        source: Source::Flag,
                    });
                }
                let found = self.profile_value(key)?;
                Ok(match found.value {
                    Some(_) => found,
                    None => Resolved {
                        value: Some(default),
                        source: Source::Default,
                    },
                })
            };
        let mut rows = vec![
            ("api_url", self.api_url()?),
            ("api_key", self.api_key()?),
            ("agent_url", self.agent_url()?),
            (
                "max_attempts",
                typed_text(
                    self.flags.max_attempts.map(|n| n.to_string()),
                    "max_attempts",
                    DEFAULT_MAX_ATTEMPTS.to_string(),
                )?,
            ),
            (
                "rate",
                typed_text(
                    self.flags.rate.map(|r| r.to_string()),
                    "rate",
                    RateSetting::Limit(DEFAULT_RATE).to_string(),
                )?,
            ),
        ];
        let history_file = match self.history_file() {
            Ok(r) => Resolved {
                value: r.value.map(|p| p.display().to_string()),
                source: r.source,
            },
            Err(_) => self.profile_value("history_file")?,
        };
        rows.push(("history_file", history_file));
        rows.push((
            "history_max_size",
            typed_text(
                None,
                "history_max_size",
                DEFAULT_HISTORY_MAX_SIZE_TEXT.into(),
            )?,
        ));
        rows.push((
            "history_max_age",
            typed_text(None, "history_max_age", DEFAULT_HISTORY_MAX_AGE_TEXT.into())?,
        ));
        for provider in Provider::ALL {
            rows.push((provider.config_key(), self.webhook_secret(provider)?));
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_defaults_read_as_written() {
        assert_eq!(
            crate::history::parse_max_size(DEFAULT_HISTORY_MAX_SIZE_TEXT),
            Ok(DEFAULT_HISTORY_MAX_SIZE)
        );
        assert_eq!(
            crate::parse::parse_lookback(DEFAULT_HISTORY_MAX_AGE_TEXT).ok(),
            Some(DEFAULT_HISTORY_MAX_AGE)
        );
    }

    fn with_profile(text: &str) -> (tempfile::TempDir, Settings) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        let flags = SettingFlags {
            config: Some(path),
            ..SettingFlags::default()
        };
        (dir, Settings::new(flags))
    }

    #[test]
    fn flag_then_profile_then_default() {
        let (_d, mut s) =
            with_profile("[default]\napi_url = \"https://p.example\"\nrate = \"off\"\n");
        let url = s.api_url().unwrap();
        assert_eq!(url.value.as_deref(), Some("https://p.example"));
        assert_eq!(url.source, Source::Profile("default".into()));
        assert_eq!(s.rate().unwrap().value, Some(RateSetting::Off));
        let attempts = s.max_attempts().unwrap();
        assert_eq!(
            (attempts.value, attempts.source),
            (Some(3), Source::Default)
        );
        s.flags.max_attempts = Some(5);
        assert_eq!(s.max_attempts().unwrap().source, Source::Flag);
        assert_eq!(
            s.agent_url().unwrap().value.as_deref(),
            Some(DEFAULT_AGENT_URL)
        );
    }

    #[test]
    fn a_bad_profile_value_names_the_key() {
        let (_d, s) = with_profile("[default]\nmax_attempts = \"99\"\n");
        let e = s.max_attempts().unwrap_err();
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().contains("max_attempts"), "{e}");
    }
}
