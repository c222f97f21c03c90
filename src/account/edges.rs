//! The TLS edges the files (or `export --edge`) name. The API lists no edges and reads none
//! but through its TLS termination module, whose `GET` answers 404 both for an edge without
//! the module and for no edge at all; the answer's message tells them apart (the module's
//! own 404 says the edge has no module). An edge with no module is one `apply` can give
//! one; an edge that is not there is one it never could, so `plan` refuses it.

use crate::error::{exit, Error};

/// The prefix of a TLS edge's ID.
pub const PREFIX: &str = "edgtls_";

/// Is `s` a TLS edge ID (and a name a file's table can have)?
pub fn is_edge_id(s: &str) -> bool {
    super::desired::is_id(s, PREFIX) && super::desired::is_name(s)
}

/// Does this failure of reading an edge's module say the edge is there without one (a 404
/// that names the module), rather than that there is no such edge?
pub fn lacks_module(e: &Error) -> bool {
    match e {
        Error::Api(f) if f.status == 404 => f
            .message
            .as_deref()
            .is_some_and(|m| m.to_ascii_lowercase().contains("module")),
        _ => false,
    }
}

/// Is this failure of reading an edge's module the answer that there is no such edge?
pub fn is_missing(e: &Error) -> bool {
    e.exit_code() == exit::NOT_FOUND && !lacks_module(e)
}

/// What the service answered, shortly: `GET /edges/tls/…/tls_termination: 404 Not Found`.
pub fn answer(e: &Error) -> String {
    match e {
        Error::Api(f) => format!("GET {}: {}", f.path, crate::error::status_text(f.status)),
        other => other.to_string(),
    }
}

/// `e`, the 404 of an edge that is not there, saying so and what to check.
pub fn missing(edge: &str, e: Error) -> Error {
    match e {
        Error::Api(mut f) => {
            f.hint = Some(format!(
                "The account has no TLS edge {}: check the ID.",
                crate::escape::escape(edge)
            ));
            Error::Api(f)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ApiFailure;

    fn not_found(message: &str) -> Error {
        Error::Api(Box::new(ApiFailure {
            method: "GET".into(),
            path: "/edges/tls/edgtls_1/tls_termination".into(),
            status: 404,
            code: Some("ERR_NGROK_404".into()),
            message: Some(message.into()),
            detail: None,
            operation_id: None,
            hint: None,
        }))
    }

    #[test]
    fn a_404_naming_the_module_is_an_edge_without_one() {
        let none = not_found("The TLS edge 'edgtls_1' has no tls_termination module.");
        assert!(lacks_module(&none) && !is_missing(&none));
        let gone = not_found("The TLS edge 'edgtls_1' was not found.");
        assert!(!lacks_module(&gone) && is_missing(&gone));
        assert!(is_edge_id("edgtls_2Qm") && !is_edge_id("edgtls_") && !is_edge_id("ipp_1"));
    }
}
