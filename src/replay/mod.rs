//! The request model behind replays with changes, `save` and `send`: a captured or saved HTTP
//! request as a value ([`message`]), the changes asked for on the command line
//! ([`modify`]), the user's editor on it ([`edit`]), the requests of a HAR log ([`har`]) and
//! sending it to an upstream ([`send`]).
//!
//! Pure but for [`edit`] (runs the editor) and [`send`] (through `crate::http`): commands and
//! the inspector share it.

pub mod edit;
pub mod har;
pub mod message;
pub mod modify;
pub mod send;

pub use message::Message;
pub use modify::{apply, Mods};
pub use send::{send, Sent};
