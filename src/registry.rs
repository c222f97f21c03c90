//! The registry of settings and environment variables: every setting's config key, flag,
//! environment variable, default and meaning, and the name of every other `TUNNELCTL_`
//! variable the program reads.
//!
//! The one place such a name is written. clap's `env =` (`cli.rs`), the resolution of the
//! settings (`settings.rs`), `config show`, the keys `config set` takes, the table of
//! `docs/configuration.md` (a test compares the two) and the tests all read it here. A leaf of
//! the floor: it imports nothing but the floor's parsers, so `output` and `http`, which may import only the floor,
//! read their variables' names here too.
//!
//! Adding a setting: its row here (and in [`SETTINGS`]), its typed field in
//! `settings::SettingValues`, its flag in `cli.rs` if it has one, its row in the docs' table, its
//! test (CONTRIBUTING, "Adding a setting").

/// The names of the environment variables.
pub mod env {
    /// The API key.
    pub const API_KEY: &str = "TUNNELCTL_API_KEY";
    /// The management API URL.
    pub const API_URL: &str = "TUNNELCTL_API_URL";
    /// The agent API URL.
    pub const AGENT_URL: &str = "TUNNELCTL_AGENT_URL";
    /// The config file.
    pub const CONFIG: &str = "TUNNELCTL_CONFIG";
    /// The profile of the config file.
    pub const PROFILE: &str = "TUNNELCTL_PROFILE";
    /// Read-only: no command changes sessions, nor anything else of the account.
    pub const READ_ONLY: &str = "TUNNELCTL_READ_ONLY";
    /// The capture history's file.
    pub const HISTORY_FILE: &str = "TUNNELCTL_HISTORY_FILE";
    /// The team's capture history (a PostgreSQL URL).
    pub const HISTORY_URL: &str = "TUNNELCTL_HISTORY_URL";
    /// The source a recorder keeps its captures under.
    pub const HISTORY_SOURCE: &str = "TUNNELCTL_HISTORY_SOURCE";
    /// GitHub's webhook secret.
    pub const WEBHOOK_SECRET_GITHUB: &str = "TUNNELCTL_WEBHOOK_SECRET_GITHUB";
    /// Stripe's webhook secret.
    pub const WEBHOOK_SECRET_STRIPE: &str = "TUNNELCTL_WEBHOOK_SECRET_STRIPE";
    /// Slack's signing secret.
    pub const WEBHOOK_SECRET_SLACK: &str = "TUNNELCTL_WEBHOOK_SECRET_SLACK";
    /// Shopify's webhook secret.
    pub const WEBHOOK_SECRET_SHOPIFY: &str = "TUNNELCTL_WEBHOOK_SECRET_SHOPIFY";
    /// A Standard Webhooks secret.
    pub const WEBHOOK_SECRET_STANDARD: &str = "TUNNELCTL_WEBHOOK_SECRET_STANDARD";
    /// The AWS secret of an event destination (no setting: read only where one is created).
    pub const AWS_SECRET_ACCESS_KEY: &str = "TUNNELCTL_AWS_SECRET_ACCESS_KEY";
    /// `1`: stdout counts as a terminal even in a pipe (for tests of what people see).
    pub const FORCE_TTY: &str = "TUNNELCTL_FORCE_TTY";
    /// A shorter retry backoff, in milliseconds, honoured by debug builds only (the tests').
    pub const TEST_BACKOFF_MS: &str = "TUNNELCTL_TEST_BACKOFF_MS";
}

/// A setting's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Default {
    /// None: unset until given.
    None,
    /// This value, as it would be written (read by the setting's own parser).
    Value(&'static str),
    /// A place found on this platform, as described here.
    Platform(&'static str),
}

/// How a value of a setting is checked before `config set` stores it: the parser the
/// settings read it with (`src/parse.rs`), its value dropped.
pub type ValueCheck = fn(&str) -> Result<(), String>;

/// What type a setting's value has: how a profile holds it in TOML (its natural type, or the
/// same as a string), how its flag takes it, and how `config set` writes it. The one place a
/// setting's type is known: the config file, `config set`, the docs' table and the flags all
/// read it here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// Text: a URL, a path, a secret, a rate (`api_url = "https://…"`). A TOML string.
    Text,
    /// Yes or no: its flag takes no value (typed, it means `true`); its variable and its key
    /// hold `true` or `false` (`read_only = true`). A TOML boolean, or the same as a string.
    Switch,
    /// A whole number (`max_attempts = 5`). A TOML integer, or the same as a string.
    Count,
    /// A quantity with its unit (`history_max_size = "500MiB"`, `history_max_age = "7d"`), or
    /// a bare number in the smallest unit (bytes, seconds). A TOML string, or an integer.
    Quantity,
}

/// A value as a TOML document holds it: its type, and its text for the setting's parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TomlValue {
    /// A string: its text.
    String(String),
    /// A boolean.
    Boolean(bool),
    /// An integer.
    Integer(i64),
    /// Any other type (a float, a date, an array, a table): its name, e.g. `a float`.
    Other(&'static str),
}

impl ValueType {
    /// The TOML types a profile may give it in, as the docs' table names them.
    pub const fn toml_types(self) -> &'static str {
        match self {
            ValueType::Text => "string",
            ValueType::Switch => "boolean (or string)",
            ValueType::Count => "integer (or string)",
            ValueType::Quantity => "string or integer",
        }
    }

    /// The text its parser reads from `value`, or what is wrong with the value's type.
    pub fn text_of(self, value: &TomlValue) -> Result<String, String> {
        let wanted = match self {
            ValueType::Text => "a string",
            ValueType::Switch => "a boolean, true or false",
            ValueType::Count => "a whole number",
            ValueType::Quantity => "a string such as \"500MiB\" or \"7d\", or a whole number",
        };
        match (self, value) {
            (_, TomlValue::String(s)) => Ok(s.clone()),
            (ValueType::Switch, TomlValue::Boolean(b)) => Ok(b.to_string()),
            (ValueType::Count | ValueType::Quantity, TomlValue::Integer(n)) => Ok(n.to_string()),
            (_, TomlValue::Boolean(_)) => Err(format!("is a boolean; give {wanted}")),
            (_, TomlValue::Integer(_)) => Err(format!("is an integer; give {wanted}")),
            (_, TomlValue::Other(t)) => Err(format!("is {t}; give {wanted}")),
        }
    }

    /// The value `config set` writes for `text` (already checked): a switch as a boolean and
    /// a count as an integer, their natural types; anything else as the string given.
    pub fn stored(self, text: &str) -> TomlValue {
        let typed = match self {
            ValueType::Switch => crate::parse::parse_switch(text)
                .ok()
                .map(TomlValue::Boolean),
            ValueType::Count => text.trim().parse().ok().map(TomlValue::Integer),
            ValueType::Text | ValueType::Quantity => None,
        };
        typed.unwrap_or_else(|| TomlValue::String(text.to_string()))
    }

    /// Is an empty string in a profile the same as no value? For text, yes (`api_url = ""`
    /// is no URL, as an empty variable is none); for a switch never: `read_only = ""` does
    /// not say off, and a safety setting never fails open.
    pub const fn empty_is_unset(self) -> bool {
        !matches!(self, ValueType::Switch)
    }
}

/// One setting: where it may be given, and its default.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// Its name: its key in a profile of the config file (when [`Setting::in_profile`]), in
    /// `config show` and in the docs' table.
    pub key: &'static str,
    /// Whether a profile may hold it (the config file and the profile are chosen before any
    /// profile is read).
    pub in_profile: bool,
    /// Its flag (clap's id is [`Setting::key`]), if it has one.
    pub flag: Option<&'static str>,
    /// Its environment variable, if it has one.
    pub env: Option<&'static str>,
    /// Its default.
    pub default: Default,
    /// A secret: never shown, set from stdin only when it is a webhook's.
    pub secret: bool,
    /// What it is, as `config` lists the keys.
    pub about: &'static str,
    /// Its value's check, when it is more than text (URLs and secrets have checks of their
    /// own, in `config set`).
    pub check: Option<ValueCheck>,
    /// Its value's type.
    pub kind: ValueType,
}

impl Setting {
    /// Its default as it would be written, when it has one (a place found on this platform
    /// is not).
    pub const fn default_value(&self) -> Option<&'static str> {
        match self.default {
            Default::Value(v) => Some(v),
            Default::None | Default::Platform(_) => None,
        }
    }

    const fn new(key: &'static str, about: &'static str) -> Setting {
        Setting {
            key,
            in_profile: true,
            flag: None,
            env: None,
            default: Default::None,
            secret: false,
            about,
            check: None,
            kind: ValueType::Text,
        }
    }
    const fn kind(self, kind: ValueType) -> Setting {
        Setting { kind, ..self }
    }
    const fn check(self, check: ValueCheck) -> Setting {
        Setting {
            check: Some(check),
            ..self
        }
    }
    const fn flag(self, flag: &'static str) -> Setting {
        Setting {
            flag: Some(flag),
            ..self
        }
    }
    const fn env(self, env: &'static str) -> Setting {
        Setting {
            env: Some(env),
            ..self
        }
    }
    const fn default(self, default: Default) -> Setting {
        Setting { default, ..self }
    }
    const fn secret(self) -> Setting {
        Setting {
            secret: true,
            ..self
        }
    }
    const fn not_in_profile(self) -> Setting {
        Setting {
            in_profile: false,
            ..self
        }
    }
}

/// The management API URL.
pub const API_URL: Setting = Setting::new("api_url", "base URL of the management API")
    .flag("--api-url")
    .env(env::API_URL);
/// The management API key.
pub const API_KEY: Setting = Setting::new("api_key", "API key of the management API (secret)")
    .flag("--api-key")
    .env(env::API_KEY)
    .secret();
/// The local agent API URL.
pub const AGENT_URL: Setting = Setting::new("agent_url", "URL of the local agent API")
    .flag("--agent-url")
    .env(env::AGENT_URL)
    .default(Default::Value("http://127.0.0.1:4040/api"));
/// The config file.
pub const CONFIG: Setting = Setting::new("config", "the config file")
    .flag("--config")
    .env(env::CONFIG)
    .default(Default::Platform(
        "config.toml in the platform's config folder",
    ))
    .not_in_profile();
/// The profile of the config file.
pub const PROFILE: Setting = Setting::new("profile", "the profile of the config file")
    .flag("--profile")
    .env(env::PROFILE)
    .default(Default::Value("default"))
    .not_in_profile();
/// Attempts per request.
pub const MAX_ATTEMPTS: Setting = Setting::new(
    "max_attempts",
    "how many times a request may be tried in all, 1 to 20",
)
.flag("--max-attempts")
.default(Default::Value("3"))
.kind(ValueType::Count)
.check(|t| crate::parse::parse_attempts(t).map(drop));
/// The pacing of management requests.
pub const RATE: Setting = Setting::new("rate", "pace of management requests, N/SECONDS or off")
    .flag("--rate")
    .default(Default::Value("120/60"))
    .check(|t| t.parse::<crate::ratelimit::RateSetting>().map(drop));
/// Read-only: every command that changes sessions, or anything else of the account, refuses,
/// and `sessions watch` takes no action.
pub const READ_ONLY: Setting = Setting::new(
    "read_only",
    "refuse every command that changes the account (sessions or any resource), true or false",
)
.flag("--read-only")
.env(env::READ_ONLY)
.default(Default::Value("false"))
.kind(ValueType::Switch)
.check(|t| crate::parse::parse_switch(t).map(drop));
/// The capture history's file.
pub const HISTORY_FILE: Setting = Setting::new("history_file", "the capture history's SQLite file")
    .flag("--history-file")
    .env(env::HISTORY_FILE)
    .default(Default::Platform(
        "history.sqlite3 in the platform's data folder",
    ));
/// The team's capture history: a PostgreSQL URL, in effect instead of the file when set.
pub const HISTORY_URL: Setting = Setting::new(
    "history_url",
    "the team's capture history, a postgres:// URL (wins over history_file)",
)
.flag("--history-url")
.env(env::HISTORY_URL)
.check(|t| crate::parse::parse_history_url(t).map(drop));
/// The name a recorder keeps its captures under (default: this host's name and the agent URL).
pub const HISTORY_SOURCE: Setting = Setting::new(
    "history_source",
    "the source recorded captures are kept under [default: host name and agent URL]",
)
.env(env::HISTORY_SOURCE)
.check(|t| crate::parse::parse_source_name(t).map(drop));
/// How large the capture history may grow.
pub const HISTORY_MAX_SIZE: Setting = Setting::new(
    "history_max_size",
    "largest size of the capture history, e.g. 500MiB",
)
.default(Default::Value("1GiB"))
.kind(ValueType::Quantity)
.check(|t| crate::parse::parse_history_size(t).map(drop));
/// How old a capture the history keeps may grow.
pub const HISTORY_MAX_AGE: Setting = Setting::new(
    "history_max_age",
    "oldest capture the history keeps, e.g. 7d",
)
.default(Default::Value("30d"))
.kind(ValueType::Quantity)
.check(|t| crate::parse::parse_lookback(t).map(drop));
/// GitHub's webhook secret.
pub const WEBHOOK_SECRET_GITHUB: Setting = Setting::new(
    "webhook_secret_github",
    "secret GitHub signs webhooks with (secret; set from stdin)",
)
.env(env::WEBHOOK_SECRET_GITHUB)
.secret();
/// Stripe's webhook secret.
pub const WEBHOOK_SECRET_STRIPE: Setting = Setting::new(
    "webhook_secret_stripe",
    "Stripe's webhook signing secret, whsec_... (secret; set from stdin)",
)
.env(env::WEBHOOK_SECRET_STRIPE)
.secret();
/// Slack's signing secret.
pub const WEBHOOK_SECRET_SLACK: Setting = Setting::new(
    "webhook_secret_slack",
    "Slack's signing secret (secret; set from stdin)",
)
.env(env::WEBHOOK_SECRET_SLACK)
.secret();
/// Shopify's webhook secret.
pub const WEBHOOK_SECRET_SHOPIFY: Setting = Setting::new(
    "webhook_secret_shopify",
    "Shopify's webhook secret (secret; set from stdin)",
)
.env(env::WEBHOOK_SECRET_SHOPIFY)
.secret();
/// A Standard Webhooks secret.
pub const WEBHOOK_SECRET_STANDARD: Setting = Setting::new(
    "webhook_secret_standard",
    "Standard Webhooks / Svix secret, whsec_BASE64 (secret; set from stdin)",
)
.env(env::WEBHOOK_SECRET_STANDARD)
.secret();

/// Every setting, in the order `config show` prints them.
pub const SETTINGS: &[Setting] = &[
    API_URL,
    API_KEY,
    AGENT_URL,
    CONFIG,
    PROFILE,
    MAX_ATTEMPTS,
    RATE,
    READ_ONLY,
    HISTORY_FILE,
    HISTORY_URL,
    HISTORY_SOURCE,
    HISTORY_MAX_SIZE,
    HISTORY_MAX_AGE,
    WEBHOOK_SECRET_GITHUB,
    WEBHOOK_SECRET_STRIPE,
    WEBHOOK_SECRET_SLACK,
    WEBHOOK_SECRET_SHOPIFY,
    WEBHOOK_SECRET_STANDARD,
];

/// Every environment variable read that names no setting.
pub const OTHER_VARIABLES: &[&str] = &[
    env::AWS_SECRET_ACCESS_KEY,
    env::FORCE_TTY,
    env::TEST_BACKOFF_MS,
];

/// The settings a profile of the config file may hold.
pub fn profile_keys() -> impl Iterator<Item = &'static Setting> {
    SETTINGS.iter().filter(|s| s.in_profile)
}

/// The setting a profile's key names.
pub fn profile_key(key: &str) -> Option<&'static Setting> {
    profile_keys().find(|s| s.key == key)
}

/// Is `key` a profile's key whose value is a secret (never shown)?
pub fn is_secret_key(key: &str) -> bool {
    profile_key(key).is_some_and(|s| s.secret)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_given_once() {
        let mut keys: Vec<&str> = SETTINGS.iter().map(|s| s.key).collect();
        let mut vars: Vec<&str> = SETTINGS.iter().filter_map(|s| s.env).collect();
        vars.extend(OTHER_VARIABLES);
        let mut flags: Vec<&str> = SETTINGS.iter().filter_map(|s| s.flag).collect();
        for names in [&mut keys, &mut vars, &mut flags] {
            let n = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), n, "a name is given twice: {names:?}");
        }
        for s in SETTINGS {
            if let Some(flag) = s.flag {
                assert_eq!(flag, format!("--{}", s.key.replace('_', "-")), "{s:?}");
            }
            if let Some(var) = s.env {
                assert_eq!(var, format!("TUNNELCTL_{}", s.key.to_uppercase()), "{s:?}");
            }
        }
    }

    /// `docs/configuration.md` lists every setting (its flag, variable, config key and
    /// default on one row of a table) and every other variable, and names no variable that
    /// is not registered.
    #[test]
    fn the_configuration_guide_lists_every_setting_and_variable() {
        let guide = include_str!("../docs/configuration.md");
        let rows: Vec<&str> = guide.lines().filter(|l| l.starts_with('|')).collect();
        let quoted = |name: &str| format!("`{name}`");
        for s in SETTINGS {
            let mut names: Vec<String> = s.flag.into_iter().chain(s.env).map(quoted).collect();
            if s.in_profile {
                names.push(quoted(s.key));
            }
            if let Some(default) = s.default_value() {
                names.push(quoted(default));
            }
            // A profile's key says which TOML type it takes.
            let cell = format!("| {} |", s.kind.toml_types());
            assert!(
                rows.iter()
                    .any(|row| names.iter().all(|n| row.contains(n.as_str()))
                        && (!s.in_profile || row.contains(&cell))),
                "docs/configuration.md has no table row naming {} together{}",
                names.join(", "),
                if s.in_profile {
                    format!(", with its TOML type ({})", s.kind.toml_types())
                } else {
                    String::new()
                }
            );
        }
        for var in OTHER_VARIABLES {
            assert!(
                rows.iter().any(|row| row.contains(&quoted(var))),
                "docs/configuration.md has no table row for {var}"
            );
        }
        let registered: Vec<&str> = SETTINGS
            .iter()
            .filter_map(|s| s.env)
            .chain(OTHER_VARIABLES.iter().copied())
            .collect();
        for row in &rows {
            for word in row.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
                if word.starts_with("TUNNELCTL_") {
                    assert!(
                        registered.contains(&word),
                        "docs/configuration.md names {word}, which is not in the registry"
                    );
                }
            }
        }
    }
}
