//! Fleet operations on tunnel sessions: choosing sessions by what they are (region, OS, agent
//! version, credential, IP, metadata) or by a person's pick ([`targets`]), running agent
//! commands over many of them with bounded concurrency and waiting for restarted agents to
//! come back ([`command`], [`wait`]), and rolling upgrades ([`upgrade`]), with what a person
//! sees of them ([`report`], [`upgrade_view`]).
//!
//! Nothing here parses flags: `commands::sessions` hands it settled choices ([`Selection`],
//! [`upgrade::Plan`]); the views hand the printer plain text and JSON values.

pub mod capable;
pub mod command;
pub mod report;
pub mod select;
pub mod targets;
pub mod upgrade;
pub mod upgrade_view;
pub mod wait;
pub mod watch;

pub use targets::Selection;

use serde_json::Value;

use crate::output::Printer;
use crate::prompt::Prompter;

/// Where a fleet command talks to the person who runs it: what it prints and what it asks.
/// (Features are given what they need, never the command's whole context.)
pub struct Console<'a> {
    /// How to print, and where to.
    pub printer: &'a Printer,
    /// How to ask (the session picker).
    pub prompter: &'a Prompter,
}

impl Console<'_> {
    /// A confirmation of what was done, on stderr, unless `--quiet`.
    pub fn note(&self, msg: &str) {
        self.printer.note(msg);
    }
}

/// A field of a session as text ("" when missing).
pub fn field<'a>(session: &'a Value, name: &str) -> &'a str {
    session.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The id of a session.
pub fn id_of(session: &Value) -> &str {
    field(session, "id")
}

/// The credential id of a session.
pub fn credential_of(session: &Value) -> &str {
    session
        .get("credential")
        .and_then(|c| c.get("id"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// What the selectors and the restart's link read of a session: a `Value` as listed, or a
/// session as `sessions watch` keeps it.
pub trait SessionFields {
    /// A field's text ("" when missing or not a string).
    fn text_field(&self, name: &str) -> &str;
    /// Its credential's ID ("" when it has none).
    fn credential_id(&self) -> &str;
}

impl SessionFields for Value {
    fn text_field(&self, name: &str) -> &str {
        field(self, name)
    }

    fn credential_id(&self) -> &str {
        credential_of(self)
    }
}

/// Is `candidate` the same agent as `old`: same credential, IP, OS and metadata?
pub fn same_agent<A: SessionFields + ?Sized, B: SessionFields + ?Sized>(
    old: &A,
    candidate: &B,
) -> bool {
    old.credential_id() == candidate.credential_id()
        && ["ip", "os", "metadata"]
            .iter()
            .all(|f| old.text_field(f) == candidate.text_field(f))
}
