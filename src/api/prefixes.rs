//! What each ID prefix names, and the command that reads such an ID: so that an ID given to
//! the wrong command (`ip-policies get ts_…`) gets more than a bare 404, an answer that says
//! whose ID it is and what to type instead. The prefixes are the API reference's (management API) and
//! the agent's captured requests.

use super::RESOURCES;
use crate::error::Error;
use crate::escape::escape;

/// One kind of ID.
struct IdKind {
    /// The prefix its IDs start with.
    prefix: &'static str,
    /// The first path segment of the collection that holds it (none: not in the API).
    collection: Option<&'static str>,
    /// What it names, with its article.
    names: String,
    /// The command that reads one, without the ID.
    reads: String,
}

/// The IDs of what is not a collection of [`RESOURCES`]: (prefix, first path segment, what
/// it names, the command that reads one).
const OTHERS: &[(&str, Option<&str>, &str, &str)] = &[
    (
        "edgtls_",
        Some("edges"),
        "a TLS edge",
        "tunnelctl edges tls-termination get",
    ),
    (
        "airt_",
        None,
        "a request captured by the local agent",
        "tunnelctl local requests get",
    ),
];

/// Every ID prefix this tool knows: the resources' and the [`OTHERS`]. No prefix is the start
/// of another (`ed_` and `edgtls_` do not overlap: `edg…` is not `ed_`).
fn kinds() -> impl Iterator<Item = IdKind> {
    let resources = RESOURCES.iter().map(|r| IdKind {
        prefix: r.prefix,
        collection: r.path.first().copied(),
        names: format!("{} {}", r.article, r.kind.noun),
        reads: r.get_command(),
    });
    let others = OTHERS
        .iter()
        .map(|&(prefix, collection, names, reads)| IdKind {
            prefix,
            collection,
            names: names.to_string(),
            reads: reads.to_string(),
        });
    resources.chain(others)
}

/// What to tell a person whose `id`, sent to the collection `collection`, was not found,
/// when its prefix says it belongs to another kind; `None` when it does not.
pub fn wrong_kind(collection: &str, id: &str) -> Option<String> {
    let kind = kinds().find(|k| id.starts_with(k.prefix))?;
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

    /// The command each kind names for reading its IDs is one of the clap tree's, so a
    /// renamed or moved command cannot leave a hint pointing at nothing.
    #[test]
    fn every_command_named_exists() {
        let tree = crate::cli::command();
        for kind in kinds() {
            let words = kind.reads.strip_prefix("tunnelctl ").unwrap();
            let mut cmd = &tree;
            for word in words.split(' ') {
                cmd = cmd
                    .find_subcommand(word)
                    .unwrap_or_else(|| panic!("no command '{}'", kind.reads));
            }
        }
    }

    /// No prefix starts another, so an ID has one kind whatever the order of the list.
    #[test]
    fn no_prefix_starts_another() {
        let all: Vec<IdKind> = kinds().collect();
        for a in &all {
            for b in &all {
                assert!(
                    a.prefix == b.prefix || !a.prefix.starts_with(b.prefix),
                    "{} starts with {}",
                    a.prefix,
                    b.prefix
                );
            }
        }
        assert_eq!(all.len(), RESOURCES.len() + OTHERS.len());
    }

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
