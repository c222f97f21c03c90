//! Captured exchanges of the local agent as people and tools read them: decoded for a person
//! ([`exchange`]), as a curl command line ([`curl`]), as a HAR log ([`har`]). Renderers only:
//! the agent client (`crate::agent`) fetches, these turn what it fetched into text.

pub mod curl;
pub mod exchange;
pub mod har;
