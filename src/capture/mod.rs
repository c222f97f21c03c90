//! One home for a captured exchange of the local agent: how it is read, shown, searched,
//! exported and sent again.
//!
//! - [`exchange`]: the typed capture, read once from the agent's JSON (that text kept beside
//!   it only where `--json` needs it); the one rule for "has it been answered?".
//! - [`message`]: the one HTTP message type (a lenient parse to show, a strict one to send),
//!   the one HTTP-token and header-value check, base64 and de-chunking.
//! - [`body`]: a body decoded (`Content-Encoding`) and laid out for a person.
//! - [`body_room`]: a body cut to about a screenful for a terminal.
//! - [`filter`]: the filter language of the inspector's `/` bar and of `requests list`.
//! - [`wildcard`]: the one glob dialect, for every pattern a user writes.
//! - [`follow`]: the one capture follower (poll window, cadence, pending rechecks) under
//!   `tail`, `record` and the inspector.
//! - [`curl`], [`har`]: a capture as a curl command line; HAR logs written and read.
//! - [`streamed`]: a capture's JSON text written out (`--json`) as it is read, no value tree.
//! - [`view`]: how the command line shows captures (`get`, `tail`, replays, sent requests).
//! - [`replay`]: a request changed, edited and sent again by `tunnelctl` itself.
//! - [`request_file`]: the one reader of request files (`send`, `diff`, `test`).
//!
//! The agent client (`crate::agent`) fetches the agent's JSON; this module gives it a type.
//! The inspector (`crate::inspect`) and the `local` commands build on it.

pub mod body;
pub mod body_room;
pub mod curl;
pub mod exchange;
pub mod filter;
pub mod follow;
pub mod har;
pub mod message;
pub mod replay;
pub mod request_file;
pub mod signed;
pub mod streamed;
pub mod view;
pub mod wildcard;

pub use exchange::Exchange;
pub use message::Message;
