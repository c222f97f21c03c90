//! The settings of one run, resolved once with their sources: a flag, then its environment
//! variable, then the active profile of the config file, then the built-in default.
//!
//! This is the one place that precedence is written. Which settings there are, and their
//! flags, variables and defaults, is the registry's ([`crate::registry`]); this reads them.
//! The command line's global flags are turned once, at the top (`cli.rs`), into plain
//! [`SettingFlags`] (the text each setting was given, and whether as a flag or through its
//! variable), so nothing below the command handlers sees a clap type. The first command that
//! needs a value has every setting resolved at once into [`SettingValues`], concrete values (a setting
//! with a default is no `Option`), each with the [`Source`] it came from; nothing resolves
//! again. A wrong value in the profile is an error then, whichever setting the command reads:
//! the `config` commands, which are how it is put right, read the profile as text instead.

use std::cell::OnceCell;
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use crate::config_file::{self, ConfigFile};
use crate::error::{Error, Result};
use crate::ratelimit::RateSetting;
use crate::registry::{self, Setting};
use crate::signature::{Provider, Secrets};

/// A value a setting was given before any profile is read: by its flag or its variable.
#[derive(Debug, Clone)]
pub struct Given {
    /// The setting.
    pub setting: &'static Setting,
    /// The text, as given (a path need not be UTF-8).
    pub text: OsString,
    /// [`Source::Flag`] or [`Source::Env`].
    pub source: Source,
}

/// What the command line gave: the settings' values (a flag, or its environment variable:
/// clap reads them alike), and the flags of this run that are no setting. Output flags
/// (`--json`, `--quiet`, ...) are the printer's, not these.
#[derive(Debug, Clone, Default)]
pub struct SettingFlags {
    /// The settings given, each once.
    pub given: Vec<Given>,
    /// `--timeout`: the limit of the whole command.
    pub timeout: Option<Duration>,
    /// `--verbose`.
    pub verbose: bool,
    /// `--yes`.
    pub yes: bool,
}

impl SettingFlags {
    /// What the environment alone gives (for shell completion, which runs before any flag of
    /// the command line being typed is known).
    pub fn from_env() -> Self {
        let given = registry::SETTINGS
            .iter()
            .filter(|s| s.flag.is_some())
            .filter_map(|s| {
                let var = s.env?;
                let text = std::env::var_os(var)?;
                Some(Given {
                    setting: s,
                    text,
                    source: Source::Env(var),
                })
            })
            .collect();
        SettingFlags {
            given,
            ..SettingFlags::default()
        }
    }

    /// Gives `setting` this value, as a flag would (replacing what was given before).
    pub fn give(&mut self, setting: &'static Setting, text: impl Into<OsString>) {
        self.given.retain(|g| g.setting.key != setting.key);
        self.given.push(Given {
            setting,
            text: text.into(),
            source: Source::Flag,
        });
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

/// A setting's value and where it came from.
#[derive(Debug, Clone)]
pub struct Resolved<T> {
    /// The value.
    pub value: T,
    /// Where it came from.
    pub source: Source,
}

/// A setting as `config show` prints it: its key, and its text (none when unset) with where
/// it came from.
pub type ShownSetting = (&'static str, Resolved<Option<String>>);

/// Every setting of this run, resolved: what the handlers read.
#[derive(Clone)]
pub struct SettingValues {
    /// The management API URL (none: the management commands say how to set it).
    pub api_url: Resolved<Option<String>>,
    /// The management API key.
    pub api_key: Resolved<Option<String>>,
    /// The local agent API URL.
    pub agent_url: Resolved<String>,
    /// Attempts per request.
    pub max_attempts: Resolved<u32>,
    /// The pacing of management requests.
    pub rate: Resolved<RateSetting>,
    /// Read-only: no command changes sessions, nor anything else of the account.
    pub read_only: Resolved<bool>,
    /// The capture history's file.
    pub history_file: Resolved<PathBuf>,
    /// The team's capture history, when set (it wins over the file).
    pub history_url: Resolved<Option<crate::parse::HistoryUrl>>,
    /// The source recorded captures are kept under, when set.
    pub history_source: Resolved<Option<String>>,
    /// How large the capture history may grow, in bytes.
    pub history_max_size: Resolved<u64>,
    /// How old a capture the history keeps may grow.
    pub history_max_age: Resolved<Duration>,
    /// Every webhook secret set.
    pub webhook_secrets: Secrets,
}

/// The settings of this run.
pub struct Settings {
    /// What the command line gave.
    pub flags: SettingFlags,
    config: OnceCell<ConfigFile>,
    values: OnceCell<SettingValues>,
}

impl Settings {
    /// Settings from what the command line gave; the config file is read when first needed.
    pub fn new(flags: SettingFlags) -> Self {
        register_env_webhook_secrets();
        Settings {
            flags,
            config: OnceCell::new(),
            values: OnceCell::new(),
        }
    }

    /// The settings of another profile of the same config file: this run's flags and
    /// variables, with `profile` given as if by `--profile` (`sessions watch` over several
    /// accounts reads each one's URL, key, rate and read-only this way).
    pub fn for_profile(&self, profile: &str) -> Settings {
        let mut flags = self.flags.clone();
        flags.give(&registry::PROFILE, profile);
        Settings {
            flags,
            config: OnceCell::new(),
            values: OnceCell::new(),
        }
    }

    /// Every setting, resolved on the first call.
    pub fn values(&self) -> Result<&SettingValues> {
        if let Some(v) = self.values.get() {
            return Ok(v);
        }
        let resolved = self.resolve()?;
        Ok(self.values.get_or_init(|| resolved))
    }

    fn resolve(&self) -> Result<SettingValues> {
        use crate::parse::{parse_attempts, parse_history_size, parse_lookback, parse_switch};
        let mut webhook_secrets = Secrets::new();
        for provider in Provider::ALL {
            if let Some(secret) = self.text(provider.setting())?.value {
                webhook_secrets.set(provider, secret);
            }
        }
        Ok(SettingValues {
            api_url: self.text(&registry::API_URL)?,
            api_key: self.text(&registry::API_KEY)?,
            agent_url: self.typed(&registry::AGENT_URL, |t| Ok(t.to_string()))?,
            max_attempts: self.typed(&registry::MAX_ATTEMPTS, parse_attempts)?,
            rate: self.typed(&registry::RATE, str::parse)?,
            read_only: self.typed(&registry::READ_ONLY, parse_switch)?,
            history_file: self.history_file()?,
            history_url: self.optional(&registry::HISTORY_URL, |t| {
                let url = crate::parse::parse_history_url(t)?;
                // Kept out of every output, as the API key is.
                if let Some(p) = &url.password {
                    crate::secrets::register_secret(p);
                }
                Ok(url)
            })?,
            history_source: self
                .optional(&registry::HISTORY_SOURCE, crate::parse::parse_source_name)?,
            history_max_size: self.typed(&registry::HISTORY_MAX_SIZE, parse_history_size)?,
            history_max_age: self.typed(&registry::HISTORY_MAX_AGE, parse_lookback)?,
            webhook_secrets,
        })
    }

    /// The profile in use.
    pub fn profile(&self) -> &str {
        match self.given(&registry::PROFILE) {
            Some(g) => g.text.to_str().unwrap_or_default(),
            None => registry::PROFILE.default_value().unwrap_or_default(),
        }
    }

    /// The config file's path.
    pub fn config_path(&self) -> Result<PathBuf> {
        match self.given(&registry::CONFIG) {
            Some(g) => Ok(PathBuf::from(&g.text)),
            None => config_file::default_path().ok_or_else(|| {
                Error::Config(format!(
                    "cannot find the config folder of this platform; pass --config FILE or set {}",
                    registry::env::CONFIG
                ))
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

    /// The value `setting` was given by its flag or variable, not empty.
    fn given(&self, setting: &Setting) -> Option<&Given> {
        self.flags
            .given
            .iter()
            .find(|g| g.setting.key == setting.key && !g.text.is_empty())
    }

    /// A value given as a flag on this command line, not one picked up from the environment
    /// or the profile (`config init` stores only what the person gave it).
    pub fn given_as_flag(&self, setting: &Setting) -> Option<String> {
        self.given(setting)
            .filter(|g| g.source == Source::Flag)
            .map(|g| g.text.to_string_lossy().into_owned())
    }

    /// A setting's value as given (flag, environment, profile), before any default or parse.
    /// A value of the profile is read in its setting's type ([`registry::ValueType`]): one of
    /// another type stops here (exit 3, naming the file, the profile and the key).
    fn layered(&self, setting: &Setting) -> Result<Resolved<Option<OsString>>> {
        self.layered_as(setting, true)
    }

    /// [`Settings::layered`]; with `strict` false, a profile's value of a wrong type is taken
    /// as the file writes it (`config show` shows it, so that it can be mended).
    fn layered_as(&self, setting: &Setting, strict: bool) -> Result<Resolved<Option<OsString>>> {
        if let Some(g) = self.given(setting) {
            return Ok(Resolved {
                value: Some(g.text.clone()),
                source: g.source.clone(),
            });
        }
        // A setting without a flag is not in the command line's matches: its variable is read
        // here.
        if let (None, Some(var)) = (setting.flag, setting.env) {
            if let Some(text) = std::env::var_os(var).filter(|v| !v.is_empty()) {
                return Ok(Resolved {
                    value: Some(text),
                    source: Source::Env(var),
                });
            }
        }
        if setting.in_profile {
            let profile = self.profile();
            let config = self.config()?;
            let text = if strict {
                match config.value(profile, setting.key)? {
                    Some(value) => Some(setting.kind.text_of(&value).map_err(|why| {
                        Error::Config(format!("{} {why}", self.profile_key(setting.key)))
                    })?),
                    None => None,
                }
            } else {
                config.written(profile, setting.key)
            };
            if let Some(text) = text {
                if !(text.is_empty() && setting.kind.empty_is_unset()) {
                    return Ok(Resolved {
                        value: Some(text.into()),
                        source: Source::Profile(profile.to_string()),
                    });
                }
            }
        }
        Ok(Resolved {
            value: None,
            source: Source::Default,
        })
    }

    /// `key` of the profile in use, named for an error: the key, the profile, the file.
    fn profile_key(&self, key: &str) -> String {
        let file = match self.config_path() {
            Ok(path) => format!(" in {}", crate::escape::escape_path(&path)),
            Err(_) => String::new(),
        };
        format!(
            "the config key '{key}' of profile '{}'{file}",
            crate::escape::escape(self.profile())
        )
    }

    /// How an error names `setting`, given with this `source`: its flag, its variable, or its
    /// key in the profile (the file named); never a flag the user did not type.
    pub fn named(&self, setting: &Setting, source: &Source) -> String {
        match source {
            Source::Flag => setting.flag.unwrap_or(setting.key).to_string(),
            Source::Env(var) => format!("the environment variable {var}"),
            Source::Profile(_) => self.profile_key(setting.key),
            Source::Default => format!("{} (not set: its default)", setting.key),
        }
    }

    /// A text setting without a default.
    fn text(&self, setting: &Setting) -> Result<Resolved<Option<String>>> {
        let r = self.layered(setting)?;
        Ok(Resolved {
            value: r.value.map(|v| v.to_string_lossy().into_owned()),
            source: r.source,
        })
    }

    /// A setting with a default, read by `parse` (the default too, so the two never differ).
    fn typed<T>(
        &self,
        setting: &Setting,
        parse: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Result<Resolved<T>> {
        let r = self.text(setting)?;
        let key = setting.key;
        let (text, source) = match r.value {
            Some(text) => (text, r.source),
            None => match setting.default_value() {
                Some(default) => (default.to_string(), Source::Default),
                None => return Err(Error::Config(format!("no value for {key}"))),
            },
        };
        match parse(&text) {
            Ok(value) => Ok(Resolved { value, source }),
            Err(e) => Err(Error::Config(format!(
                "{}: {e}",
                self.named(setting, &source)
            ))),
        }
    }

    /// A setting without a default, read by `parse` when given.
    fn optional<T>(
        &self,
        setting: &Setting,
        parse: impl Fn(&str) -> std::result::Result<T, String>,
    ) -> Result<Resolved<Option<T>>> {
        let r = self.text(setting)?;
        let key = setting.key;
        let value = match r.value {
            None => None,
            Some(text) => Some(parse(&text).map_err(|e| {
                Error::Config(match &r.source {
                    Source::Profile(p) => format!("the config key '{key}' of profile '{p}': {e}"),
                    other => format!("{key} (from {other}): {e}"),
                })
            })?),
        };
        Ok(Resolved {
            value,
            source: r.source,
        })
    }

    /// The capture history's file: flag, environment, profile, else `history.sqlite3` in the
    /// platform's data folder. Taken as the path it is: a file name need not be UTF-8, and a
    /// text made of it with replacement characters would name another file.
    fn history_file(&self) -> Result<Resolved<PathBuf>> {
        let r = self.layered(&registry::HISTORY_FILE)?;
        let value = match r.value {
            Some(v) => PathBuf::from(v),
            None => default_history_file().ok_or_else(|| {
                Error::Config(format!(
                    "cannot find the data folder of this platform; pass --history-file FILE or set {}",
                    registry::env::HISTORY_FILE
                ))
            })?,
        };
        Ok(Resolved {
            value,
            source: r.source,
        })
    }

    /// Every key of a profile as `config show` prints it: the value as text (a value stored in
    /// the profile as it was written, even one that does not parse; the default when nothing
    /// sets it) and its source.
    pub fn shown(&self) -> Result<Vec<ShownSetting>> {
        let mut rows = Vec::new();
        for setting in registry::profile_keys() {
            let r = self.layered_as(setting, false)?;
            let value = match (r.value, setting.default) {
                (Some(v), _) => Some(v.to_string_lossy().into_owned()),
                (None, registry::Default::Value(v)) => Some(v.to_string()),
                (None, registry::Default::Platform(_))
                    if setting.key == registry::HISTORY_FILE.key =>
                {
                    default_history_file().map(|p| p.display().to_string())
                }
                (None, _) => None,
            };
            rows.push((
                setting.key,
                Resolved {
                    value,
                    source: r.source,
                },
            ));
        }
        Ok(rows)
    }
}

/// The default history file: `history.sqlite3` in the platform's data folder.
fn default_history_file() -> Option<PathBuf> {
    config_file::project_dirs().map(|d| d.data_dir().join("history.sqlite3"))
}

/// Registers the webhook secrets of the environment with [`crate::secrets`] before anything
/// runs, so no output shows them even when the command never reads them (a captured body that
/// quotes one, a trace). The config file's are registered when it is read.
fn register_env_webhook_secrets() {
    for provider in Provider::ALL {
        if let Some(secret) = std::env::var(provider.env_var())
            .ok()
            .filter(|v| !v.is_empty())
        {
            crate::secrets::register_secret(&secret);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::SETTINGS;

    #[test]
    fn every_default_reads_with_its_own_parser() {
        let (_d, s) = with_profile("");
        let v = s.values().unwrap();
        assert_eq!(v.history_max_size.value, 1 << 30);
        assert_eq!(v.history_max_age.value, Duration::from_secs(30 * 86_400));
        assert_eq!(v.max_attempts.value, 3);
        assert_eq!(v.agent_url.value, "http://127.0.0.1:4040/api");
        assert_eq!(v.agent_url.source, Source::Default);
        for setting in SETTINGS {
            if let Some(default) = setting.default_value() {
                let shown = s.shown().unwrap();
                if let Some((_, r)) = shown.iter().find(|(k, _)| *k == setting.key) {
                    assert_eq!(r.value.as_deref(), Some(default), "{}", setting.key);
                }
            }
        }
    }

    fn with_profile(text: &str) -> (tempfile::TempDir, Settings) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        let mut flags = SettingFlags::default();
        flags.give(&registry::CONFIG, path);
        flags.give(&registry::HISTORY_FILE, dir.path().join("h.sqlite3"));
        (dir, Settings::new(flags))
    }

    #[test]
    fn flag_then_profile_then_default() {
        let (_d, s) = with_profile("[default]\napi_url = \"https://p.example\"\nrate = \"off\"\n");
        let v = s.values().unwrap();
        assert_eq!(v.api_url.value.as_deref(), Some("https://p.example"));
        assert_eq!(v.api_url.source, Source::Profile("default".into()));
        assert_eq!(v.rate.value, RateSetting::Off);
        assert_eq!(
            (v.max_attempts.value, &v.max_attempts.source),
            (3, &Source::Default)
        );
        let (_d, mut s) = with_profile("[default]\nmax_attempts = \"4\"\n");
        s.flags.give(&registry::MAX_ATTEMPTS, "5");
        let v = s.values().unwrap();
        assert_eq!(
            (v.max_attempts.value, &v.max_attempts.source),
            (5, &Source::Flag)
        );
    }

    #[test]
    fn another_profile_reads_its_own_keys_and_the_flags_still_win() {
        let (_d, mut s) = with_profile(
            "[default]\napi_url = \"https://d.example\"\n[prod]\napi_url = \"https://p.example\"\nread_only = \"true\"\n",
        );
        s.flags.give(&registry::MAX_ATTEMPTS, "5");
        let prod = s.for_profile("prod");
        assert_eq!(prod.profile(), "prod");
        let v = prod.values().unwrap();
        assert_eq!(v.api_url.value.as_deref(), Some("https://p.example"));
        assert_eq!(v.api_url.source, Source::Profile("prod".into()));
        assert!(v.read_only.value);
        assert_eq!(v.max_attempts.value, 5);
        let d = s.values().unwrap();
        assert_eq!(d.api_url.value.as_deref(), Some("https://d.example"));
        assert!(!d.read_only.value);
    }

    #[test]
    fn a_bad_profile_value_names_the_key() {
        let (_d, s) = with_profile("[default]\nmax_attempts = \"99\"\n");
        let e = s.values().err().unwrap();
        assert_eq!(e.exit_code(), 3);
        assert!(e.to_string().contains("max_attempts"), "{e}");
        // `config show` still shows it, as written.
        let shown = s.shown().unwrap();
        let (_, r) = shown.iter().find(|(k, _)| *k == "max_attempts").unwrap();
        assert_eq!(r.value.as_deref(), Some("99"));
    }
}
