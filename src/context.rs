//! What a command handler is given: the settings of the run ([`crate::settings`]), the
//! printer ([`crate::output::Printer`]) and the prompter ([`crate::prompt::Prompter`]), and what
//! is built from them (the API clients, confirmations, notes). Tests build one with memory
//! streams and a scripted prompter to run a handler in-process.

use std::sync::Arc;
use std::time::Duration;

use url::Url;

use crate::agent;
use crate::api;
use crate::error::{Error, Result};
use crate::http::{is_loopback_host, Expected, Http, HttpOptions, DEFAULT_MAX_BODY};
use crate::output::Printer;
use crate::parse::BaseUrl;
use crate::prompt::Prompter;
use crate::ratelimit::{Limiter, RateSetting};
use crate::registry::{self, env};
use crate::settings::{SettingFlags, Settings, Source};

/// The default time limit of one request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest management API answer read.
pub const MANAGEMENT_MAX_BODY: usize = 16 * 1024 * 1024;
/// The largest agent API answer read.
pub const AGENT_MAX_BODY: usize = 1024 * 1024 * 1024;

/// Everything a command handler needs besides its own arguments.
pub struct Context {
    /// The settings of this run, with their sources.
    pub settings: Settings,
    /// How to print, and where to.
    pub printer: Printer,
    /// How to ask the person at the terminal.
    pub prompter: Prompter,
}

impl Context {
    /// Builds the context from the settings the command line gave and the printer its output
    /// flags made.
    pub fn new(flags: SettingFlags, printer: Printer) -> Self {
        Context {
            prompter: Prompter::terminal(flags.yes),
            settings: Settings::new(flags),
            printer,
        }
    }

    fn http_options(&self, base: Url, hint: String) -> HttpOptions {
        HttpOptions {
            base,
            bearer: None,
            fixed_headers: Vec::new(),
            timeout: self.settings.flags.timeout.unwrap_or(DEFAULT_TIMEOUT),
            verbose: self.settings.flags.verbose,
            // Each client sets its own.
            max_attempts: 1,
            unreachable_hint: hint,
            unauthorized_hint: None,
            max_body: DEFAULT_MAX_BODY,
            limiter: None,
            deadline: crate::deadline::get(),
            secret_fields: api::SECRET_FIELDS,
            read_only: None,
            expected: None,
        }
    }

    /// Refuses (exit 2, before anything is sent) a command that `changes` the account (what
    /// it does: "'sessions restart' changes sessions") when read-only is on, naming where it
    /// was set. The management client refuses every write of a read-only profile too; this
    /// says so before a command asks or reads anything.
    pub fn refuse_if_read_only(&self, changes: &str) -> Result<()> {
        let read_only = &self.settings.values()?.read_only;
        if read_only.value {
            return Err(Error::Usage(format!(
                "{changes} and {}",
                read_only_note(&read_only.source)
            )));
        }
        Ok(())
    }

    /// The management API client, or exit 3 when the URL or key is missing or unusable.
    pub fn management(&self) -> Result<api::Client> {
        self.management_of(&self.settings)
    }

    /// The management API client of these settings (another profile's, [`Settings::for_profile`]),
    /// or exit 3 when its URL or key is missing or unusable.
    pub fn management_of(&self, settings: &Settings) -> Result<api::Client> {
        let values = settings.values()?;
        let profile = settings.profile();
        let (url, key) = match (&values.api_url.value, &values.api_key.value) {
            (Some(u), Some(k)) => (u, k),
            (u, k) => {
                let mut missing = Vec::new();
                if k.is_none() {
                    missing.push(("API key", env::API_KEY));
                }
                if u.is_none() {
                    missing.push(("management API URL", env::API_URL));
                }
                let what: Vec<&str> = missing.iter().map(|m| m.0).collect();
                let vars: Vec<&str> = missing.iter().map(|m| m.1).collect();
                return Err(Error::Config(format!(
                    "no {}: set {}, or run 'tunnelctl config init' to store {} in profile '{profile}'",
                    what.join(" and no "),
                    vars.join(" and "),
                    if missing.len() == 1 { "it" } else { "them" }
                )));
            }
        };
        // A key pasted with its line's end (`\r` from a file written on Windows) cannot travel
        // in a header: say where it came from (the key itself is never shown).
        if key.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f) {
            return Err(Error::Config(format!(
                "the API key ({}) holds a control character (a line end?), which cannot be sent in a header",
                settings.named(&registry::API_KEY, &values.api_key.source)
            )));
        }
        let hint = unauthorized_hint(&values.api_key.source, &settings.config_path());
        let named = settings.named(&registry::API_URL, &values.api_url.source);
        let base = validate_api_url(url).map_err(|e| given_by(e, &named))?;
        self.client_of(settings, base, &named, key, Some(hint))
    }

    /// A management API client for this URL and key, whatever the settings say (`config
    /// init` checks a key with it before saving); `unauthorized_hint` is added to a 401.
    pub fn management_at(
        &self,
        url: &str,
        key: &str,
        unauthorized_hint: Option<String>,
    ) -> Result<api::Client> {
        let base = validate_api_url(url)?;
        self.client_of(&self.settings, base, "the API URL", key, unauthorized_hint)
    }

    /// A management API client for this URL (`named` so, when an answer shows it is not the
    /// management API's) and key, with the attempts and rate of `settings`.
    fn client_of(
        &self,
        settings: &Settings,
        base: Url,
        named: &str,
        key: &str,
        unauthorized_hint: Option<String>,
    ) -> Result<api::Client> {
        let values = settings.values()?;
        let mut opts = self.http_options(
            base,
            "Check the API URL (--api-url, TUNNELCTL_API_URL or 'tunnelctl config set api_url URL') and your network.".into(),
        );
        opts.bearer = Some(key.to_string());
        opts.unauthorized_hint = unauthorized_hint;
        opts.max_attempts = values.max_attempts.value;
        // A page of 100 items is well under a megabyte; a far larger answer is refused.
        opts.max_body = MANAGEMENT_MAX_BODY;
        opts.limiter = match values.rate.value {
            RateSetting::Limit(rate) => Some(Arc::new(Limiter::new(rate))),
            RateSetting::Off => None,
        };
        opts.fixed_headers.push(("Service-Version", "2"));
        opts.expected = Some(Expected {
            setting: named.to_string(),
            other_server: api::is_agent_answer,
            other_is: "answers as a local tunnel agent's API, not as the management API",
            wanted: "the management API's URL (such as https://api.example.com)",
        });
        if values.read_only.value {
            opts.read_only = Some(read_only_note(&values.read_only.source));
        }
        Ok(api::Client::new(Http::new(opts)?))
    }

    /// The local agent API client (no credentials). The user's API key is registered as a
    /// known secret first: their own app may send it through a tunnel, and captured traffic
    /// shown on screen must hide it as every other output does.
    pub fn agent(&self) -> Result<agent::AgentClient> {
        let values = self.settings.values()?;
        self.know_api_key();
        let named = self
            .settings
            .named(&registry::AGENT_URL, &values.agent_url.source);
        let base = validate_agent_url(&values.agent_url.value).map_err(|e| given_by(e, &named))?;
        let hint = format!(
            "Is the agent running? Its API was looked for at {base}; point elsewhere with --agent-url or TUNNELCTL_AGENT_URL."
        );
        let mut opts = self.http_options(base, hint);
        // A local agent that is down stays down: one quick retry is enough.
        opts.max_attempts = 2;
        // Captured requests carry whole bodies: a list may be hundreds of megabytes.
        opts.max_body = AGENT_MAX_BODY;
        opts.expected = Some(Expected {
            setting: named,
            other_server: agent::is_management_answer,
            other_is: "answers as the management API, not as a local agent's API",
            wanted: "the local agent's API URL (by default http://127.0.0.1:4040/api)",
        });
        Ok(agent::AgentClient::new(Http::new(opts)?))
    }

    /// Makes the user's API key a secret this run redacts wherever it shows: in captures
    /// (the agent's or the history's, which a visitor may have sent it in), in traces.
    pub fn know_api_key(&self) {
        if let Ok(values) = self.settings.values() {
            if let Some(key) = &values.api_key.value {
                crate::secrets::register_secret(key);
            }
        }
    }

    /// A client for sending requests as they were captured or saved to `upstream`, someone's
    /// own server: it carries no credentials (never the API key) and adds no header.
    pub fn upstream(&self, upstream: &Url) -> Result<Http> {
        let hint = format!(
            "Is the server at {} running? Give another with --to URL.",
            crate::http::origin(upstream)
        );
        let mut opts = self.http_options(upstream.clone(), hint);
        // Retried only when nothing was sent (see http::raw): one quick retry is enough.
        opts.max_attempts = 2;
        opts.secret_fields = &[];
        Http::verbatim(opts)
    }

    /// Asks the user to confirm a destructive action; off a terminal, refuses unless `--yes`.
    pub fn confirm(&self, question: &str) -> Result<()> {
        self.prompter.confirm(question)
    }

    /// A confirmation of what was done, on stderr, unless `--quiet`.
    pub fn note(&self, msg: &str) {
        self.printer.note(msg);
    }
}

/// `e`, a URL setting's that does not read, saying where that URL was given (`named`).
fn given_by(e: Error, named: &str) -> Error {
    match e {
        Error::Config(msg) => Error::Config(format!("{msg} ({named})")),
        other => other,
    }
}

/// What a 401 adds: check the key, and where this one came from (never the key itself).
fn unauthorized_hint(source: &Source, config: &Result<std::path::PathBuf>) -> String {
    let origin = match source {
        Source::Flag => "the --api-key flag".to_string(),
        Source::Env(var) => {
            format!("the environment variable {var} (it overrides the config file)")
        }
        Source::Profile(p) => {
            let file = config.as_ref().map_or_else(
                |_| "the config file".to_string(),
                |f| f.display().to_string(),
            );
            format!(
                "profile '{}' in {file}; 'tunnelctl config init' stores a new one",
                crate::escape::escape(p)
            )
        }
        Source::Default => "nowhere".to_string(),
    };
    format!("The API key was not accepted: check it. It came from {origin}.")
}

/// Parses the management API URL: https://, or http:// only to a loopback address, because the
/// API key travels with every request.
pub fn validate_api_url(raw: &str) -> Result<Url> {
    let url = parse_base(raw, BaseUrl::Api)?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if is_loopback_host(&url) => Ok(url),
        "http" => Err(Error::Config(format!(
            "refusing the API URL {raw}: plain http:// would send the API key unencrypted; use https:// (http:// is allowed only to a loopback address)"
        ))),
        other => Err(Error::Config(format!(
            "the API URL {raw} has scheme '{other}'; use https://"
        ))),
    }
}

fn parse_base(raw: &str, what: BaseUrl) -> Result<Url> {
    what.parse(raw).map_err(Error::Config)
}

/// Parses the local agent API URL: http:// or https://.
pub fn validate_agent_url(raw: &str) -> Result<Url> {
    let base = parse_base(raw, BaseUrl::Agent)?;
    if !matches!(base.scheme(), "http" | "https") {
        return Err(Error::Config(format!(
            "the agent URL {raw} must start with http:// or https://"
        )));
    }
    Ok(base)
}

/// What a refusal in read-only says after what was refused: where read-only was set and
/// how to lift it.
pub fn read_only_note(source: &crate::settings::Source) -> String {
    format!(
        "read-only is on (read_only from {source}): nothing was sent; run it without \
         --read-only, {} or the profile's read_only",
        env::READ_ONLY
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_urls() {
        assert!(validate_api_url("https://api.example.com").is_ok());
        assert!(validate_api_url("http://127.0.0.1:9000").is_ok());
        assert!(validate_api_url("http://[::1]:9000").is_ok());
        assert!(validate_api_url("http://localhost").is_ok());
        assert_eq!(
            validate_api_url("http://api.example.com")
                .unwrap_err()
                .exit_code(),
            3
        );
        assert!(validate_api_url("ftp://x").is_err());
        assert!(validate_api_url("nonsense").is_err());
    }

    #[test]
    fn a_refused_key_says_where_it_came_from() {
        let path = Ok(std::path::PathBuf::from("cfg.toml"));
        let hint = unauthorized_hint(&Source::Env(env::API_KEY), &path);
        assert!(
            hint.contains("environment variable TUNNELCTL_API_KEY"),
            "{hint}"
        );
        assert!(unauthorized_hint(&Source::Flag, &path).contains("--api-key"));
        let hint = unauthorized_hint(&Source::Profile("staging".into()), &path);
        assert!(hint.contains("profile 'staging' in cfg.toml"), "{hint}");
    }
}
