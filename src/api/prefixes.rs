//! What each ID prefix names, and the command that reads such an ID: so that an ID given to
//! the wrong command (`ip-policies get ts_…`) gets more than a bare 404, an answer that says
//! whose ID it is and what to type instead. The prefixes are the API reference's (management API) and
//! the agent's captured requests.

use crate::error::Error;
use crate::escape::escape;

/// One kind of ID.
struct Kind {
    /// The prefix its IDs start with.
    prefix: &'static str,
    /// The first path segment of the collection that holds it (none: not in the API).
    collection: Option<&'static str>,
    /// What it names, with its article.
    names: &'static str,
    /// The command that reads one, without the ID.
    reads: &'static str,
}

/// Every ID prefix this tool knows. `ed_` and `edgtls_` do not overlap (`edg…` is not `ed_`).
const KINDS: &[Kind] = &[
    Kind {
        prefix: "ts_",
        collection: Some("tunnel_sessions"),
        names: "a tunnel session",
        reads: "tunnelctl sessions get",
    },
    Kind {
        prefix: "ipp_",
        collection: Some("ip_policies"),
        names: "an IP policy",
        reads: "tunnelctl ip-policies get",
    },
    Kind {
        prefix: "bkdtg_",
        collection: Some("backends"),
        names: "a tunnel-group backend",
        reads: "tunnelctl backends tunnel-group get",
    },
    Kind {
        prefix: "edgtls_",
        collection: Some("edges"),
        names: "a TLS edge",
        reads: "tunnelctl edges tls-termination get",
    },
    Kind {
        prefix: "ed_",
        collection: Some("event_destinations"),
        names: "an event destination",
        reads: "tunnelctl event-destinations get",
    },
    Kind {
        prefix: "esb_",
        collection: Some("event_subscriptions"),
        names: "an event subscription",
        reads: "tunnelctl event-subscriptions get",
    },
    Kind {
        prefix: "airt_",
        collection: None,
        names: "a request captured by the local agent",
        reads: "tunnelctl local requests get",
    },
];

/// What to tell a person whose `id`, sent to the collection `collection`, was not found,
/// when its prefix says it belongs to another kind; `None` when it does not.
pub fn wrong_kind(collection: &str, id: &str) -> Option<String> {
    let kind = KINDS.iter().find(|k| id.starts_with(k.prefix))?;
    if kind.collection == Some(collection) {
        return None;
    }
    let id = escape(id);
    Some(format!(
        "{id} is the ID of {} (prefix {}); read it with: {} {id}",
        kind.names, kind.prefix, kind.reads
    ))
}

/// `err` with the hint of [`wrong_kind`] when it is a 404 for an ID of another kind (`ids`:
/// the IDs the request named, in the collection `collection`).
pub fn explain_not_found<'a>(
    err: Error,
    collection: &str,
    mut ids: impl Iterator<Item = &'a str>,
) -> Error {
    match err {
        Error::Api(mut failure) if failure.status == 404 && failure.hint.is_none() => {
            failure.hint = ids.find_map(|id| wrong_kind(collection, id));
            Error::Api(failure)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_of_another_kind_is_named_with_its_command() {
        let hint = wrong_kind("ip_policies", "ts_2gv").unwrap();
        assert_eq!(
            hint,
            "ts_2gv is the ID of a tunnel session (prefix ts_); read it with: tunnelctl sessions get ts_2gv"
        );
        assert!(wrong_kind("event_destinations", "edgtls_1")
            .unwrap()
            .contains("edges tls-termination get edgtls_1"));
        assert!(wrong_kind("edges", "ed_1")
            .unwrap()
            .contains("event-destinations get ed_1"));
        assert!(wrong_kind("tunnel_sessions", "airt_1")
            .unwrap()
            .contains("local requests get airt_1"));
    }

    #[test]
    fn an_id_of_the_right_or_an_unknown_kind_gets_no_hint() {
        assert_eq!(wrong_kind("ip_policies", "ipp_1"), None);
        assert_eq!(wrong_kind("edges", "edgtls_1"), None);
        assert_eq!(wrong_kind("ip_policies", "nonsense"), None);
        assert_eq!(
            wrong_kind("event_subscriptions", "ip_policy_created.v0"),
            None
        );
    }
}
