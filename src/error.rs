//! The one error type of the program and its mapping to exit codes.
//!
//! Every failure a user can meet ends here, so that `main` prints it the same way and picks
//! the exit code the command-line contract promises (see `tunnelctl help exit-codes`).

use std::fmt;

/// Exit codes of the command-line contract.
pub mod exit {
    /// Success.
    pub const OK: i32 = 0;
    /// The API answered with an error, or its answer could not be understood.
    pub const API: i32 = 1;
    /// Bad flags or arguments, input refused before sending, a confirmation refused.
    pub const USAGE: i32 = 2;
    /// Configuration missing or unusable.
    pub const CONFIG: i32 = 3;
    /// The API answered 404.
    pub const NOT_FOUND: i32 = 4;
    /// Some of several operations failed.
    pub const PARTIAL: i32 = 5;
    /// The server could not be reached.
    pub const UNREACHABLE: i32 = 6;
    /// A wait ran out of time.
    pub const WAIT_TIMEOUT: i32 = 7;
    /// A check failed (`verify`: a signature invalid or expired; `test`: an answer not as
    /// expected; `diff --exit-code`: they differ; `plan --exit-code`: changes pending;
    /// `apply PLAN`: the account changed since the plan).
    pub const CHECK_FAILED: i32 = 8;
    /// Interrupted by Ctrl-C (SIGINT): 128 + 2, as a shell reports it.
    pub const INTERRUPTED: i32 = 130;
    /// Terminated by SIGTERM (how CI systems and supervisors cancel a job): 128 + 15.
    pub const TERMINATED: i32 = 143;
}

/// The text of `tunnelctl help exit-codes`.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0    success
  1    the API answered with an error (after any retries), or its answer could not be understood;
       a local file could not be written (a full disk)
  2    usage error: bad flags or arguments, invalid input caught before any request was sent,
       a confirmation refused
  3    configuration missing or unusable (no API key, no API URL, unreadable config file, a
       setting whose value does not read, a URL setting pointed at the wrong kind of server)
  4    not found (the API answered 404)
  5    partial failure: a command over several IDs where some succeeded and some failed
  6    the server could not be reached (connection refused, DNS, timeout, after retries)
  7    a wait ran out of time (e.g. an agent did not reconnect within --timeout, the history
       file stayed locked by another program)
  8    a check failed (local requests verify: a webhook signature invalid or expired;
       local requests test: a fixture's answer not as expected; diff --exit-code: they differ;
       plan --exit-code: changes pending; apply PLAN: the account changed since the plan)
  130  interrupted (Ctrl-C, SIGINT)
  143  terminated (SIGTERM, as CI systems and supervisors cancel a job)

A bulk operation stopped by either signal finishes the requests under way (for up to 0.8 s:
a signal ends every command within a second), reports what was done and what was not, then
exits 130 or 143; a second signal stops it at once.
";

/// What the server said when it answered with an error status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiFailure {
    /// Method of the request, e.g. `GET`.
    pub method: String,
    /// Path of the request as sent (percent-encoded), without the query.
    pub path: String,
    /// HTTP status code.
    pub status: u16,
    /// The error code from the body (a string on the management API, a number on the agent).
    pub code: Option<String>,
    /// The human message from the body, or a summary of a body that is not JSON.
    pub message: Option<String>,
    /// Extra detail from the body's `details` (e.g. the agent's `details.err`).
    pub detail: Option<String>,
    /// The operation id the service gave this request, when it gave one.
    pub operation_id: Option<String>,
    /// A hint for the user on what to do next.
    pub hint: Option<String>,
}

impl fmt::Display for ApiFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.method,
            self.path,
            status_text(self.status)
        )?;
        if let Some(m) = &self.message {
            write!(f, ": {m}")?;
        }
        if let Some(d) = &self.detail {
            write!(f, " ({d})")?;
        }
        let mut extra = Vec::new();
        if let Some(c) = &self.code {
            extra.push(format!("code {c}"));
        }
        if let Some(o) = &self.operation_id {
            extra.push(format!("operation {o}"));
        }
        if !extra.is_empty() {
            write!(f, " [{}]", extra.join(", "))?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n{h}")?;
        }
        Ok(())
    }
}

/// `404 Not Found` style text for a status code.
pub fn status_text(status: u16) -> String {
    match reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
    {
        Some(reason) => format!("{status} {reason}"),
        None => format!("HTTP {status}"),
    }
}

/// Every way a command can fail.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input caught before anything was sent.
    #[error("{0}")]
    Usage(String),
    /// Configuration missing or unusable.
    #[error("{0}")]
    Config(String),
    /// The server answered with an error status.
    #[error("{0}")]
    Api(Box<ApiFailure>),
    /// The server answered, but not in a form we understand.
    #[error("{0}")]
    BadResponse(String),
    /// The server could not be reached.
    #[error("{0}")]
    Unreachable(String),
    /// Whether the server acted is unknown (the connection failed after the request was sent).
    #[error("{0}")]
    Unknown(String),
    /// Some of several operations failed; each was already reported.
    #[error("{failed} of {total} operations failed")]
    Partial {
        /// How many failed.
        failed: usize,
        /// How many were tried.
        total: usize,
        /// A summary on the terminal already said so: nothing more to print.
        summarized: bool,
    },
    /// Every one of several operations failed the same way; each was already reported.
    #[error("all {count} operations failed")]
    AllFailed {
        /// The exit code they share.
        code: i32,
        /// How many there were.
        count: usize,
        /// A summary on the terminal already said so: nothing more to print.
        summarized: bool,
    },
    /// A wait ran out of time.
    #[error("{0}")]
    WaitTimeout(String),
    /// A check failed; what failed was already shown.
    #[error("{0}")]
    CheckFailed(String),
    /// Interrupted by Ctrl-C (SIGINT).
    #[error("interrupted (Ctrl-C)")]
    Interrupted,
    /// Terminated by SIGTERM.
    #[error("terminated (SIGTERM)")]
    Terminated,
    /// A local I/O failure (reading a file, writing output).
    #[error("{0}")]
    Io(String),
    /// The reader of our output went away (`| head`): end quietly.
    #[error("broken pipe")]
    BrokenPipe,
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Error::BrokenPipe
        } else {
            Error::Io(format!("could not write the output: {e}"))
        }
    }
}

impl Error {
    /// The exit code the contract assigns to this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => exit::USAGE,
            Error::Config(_) => exit::CONFIG,
            Error::Api(f) if f.status == 404 => exit::NOT_FOUND,
            Error::Api(_) | Error::BadResponse(_) | Error::Unknown(_) | Error::Io(_) => exit::API,
            Error::Unreachable(_) => exit::UNREACHABLE,
            Error::Partial { .. } => exit::PARTIAL,
            Error::AllFailed { code, .. } => *code,
            Error::WaitTimeout(_) => exit::WAIT_TIMEOUT,
            Error::CheckFailed(_) => exit::CHECK_FAILED,
            Error::Interrupted => exit::INTERRUPTED,
            Error::Terminated => exit::TERMINATED,
            Error::BrokenPipe => exit::OK,
        }
    }

    /// For an unknown outcome, says how to find out what happened.
    pub fn with_check(self, command: &str) -> Self {
        match self {
            Error::Unknown(msg) => Error::Unknown(format!("{msg}\nCheck with: {command}")),
            other => other,
        }
    }

    /// Is this a stop signal's ending? It is said as it is (`interrupted (Ctrl-C)`,
    /// `terminated (SIGTERM)`), both alike: a run stopped on purpose, not an error.
    pub fn is_stop_signal(&self) -> bool {
        matches!(self, Error::Interrupted | Error::Terminated)
    }

    /// Shorthand for a usage error.
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }
}

/// The outcome of an operation run over `total` items whose failures had these exit codes
/// (each already reported): success, the shared code when every one failed alike, else partial
/// failure (exit 5). `also_failed` counts failures that have no code of their own;
/// `summarized` says a summary on the terminal already counted them.
pub fn several(codes: &[i32], also_failed: usize, total: usize, summarized: bool) -> Result<()> {
    match codes.first() {
        None if also_failed == 0 => Ok(()),
        Some(first)
            if also_failed == 0 && codes.len() == total && codes.iter().all(|c| c == first) =>
        {
            Err(Error::AllFailed {
                code: *first,
                count: codes.len(),
                summarized,
            })
        }
        _ => Err(Error::Partial {
            failed: codes.len() + also_failed,
            total,
            summarized,
        }),
    }
}

/// The result type of the layers below the commands (API calls, HTTP, config, output).
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The result type of command handlers: a typed [`Error`] somewhere in the chain, with what
/// the command was doing around it ("reading request file x.http") as context.
pub type CommandResult<T = ()> = anyhow::Result<T>;

/// The typed error in `e`'s chain, outermost first: it decides the exit code, whatever
/// context was put around it on the way up.
pub fn typed(e: &anyhow::Error) -> Option<&Error> {
    e.chain().find_map(|cause| cause.downcast_ref::<Error>())
}

/// The exit code of an error that reached the top: its typed cause's, or 1 (a failure the
/// contract names no other code for) when it has none.
pub fn exit_code_of(e: &anyhow::Error) -> i32 {
    typed(e).map_or(exit::API, Error::exit_code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_failure_reads_as_one_line() {
        let f = ApiFailure {
            method: "GET".into(),
            path: "/ip_policies/ipp_1".into(),
            status: 404,
            code: Some("ERR_NGROK_404".into()),
            message: Some("Resource not found".into()),
            detail: None,
            operation_id: Some("op_1".into()),
            hint: None,
        };
        assert_eq!(
            f.to_string(),
            "GET /ip_policies/ipp_1: 404 Not Found: Resource not found [code ERR_NGROK_404, operation op_1]"
        );
        assert_eq!(Error::Api(Box::new(f)).exit_code(), 4);
    }

    #[test]
    fn exit_code_comes_from_the_typed_error_under_any_context() {
        use anyhow::Context as _;
        let e = Err::<(), _>(Error::Config("bad".into()))
            .context("reading config c.toml")
            .context("starting")
            .unwrap_err();
        assert_eq!(exit_code_of(&e), exit::CONFIG);
        assert_eq!(format!("{e:#}"), "starting: reading config c.toml: bad");
        assert_eq!(exit_code_of(&anyhow::anyhow!("untyped")), exit::API);
    }

    #[test]
    fn unknown_status_has_no_reason() {
        assert_eq!(status_text(599), "HTTP 599");
    }
}
