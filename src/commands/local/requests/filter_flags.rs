//! The filter flags of `local requests list` (`--method`, `--status`, `--path`, `--grep`,
//! `--since`, `--signature`), each one a term of the language the inspector's `/` bar reads
//! ([`crate::capture::filter`]), parsed by its own term parser, so a flag and the word
//! `status:5xx` select the same exchanges. A bad value is a usage error from clap, before the
//! agent is asked anything.

use clap::Args;
use time::OffsetDateTime;

use crate::capture::filter::{term, Clause, Query, Term};
use crate::commands::parse_limit;
use crate::escape::escape;

/// `--method`, `--status`, `--path`, `--grep`, `--since`, `--signature`.
#[derive(Debug, Args)]
pub struct RequestFilters {
    /// Only these methods (repeatable, or comma-separated: POST,PUT)
    #[arg(long = "method", value_name = "METHOD", value_parser = parse_method)]
    methods: Vec<Term>,
    /// Only these statuses (repeatable, or comma-separated): a code (404), a class (5xx), or
    /// pending (no answer yet)
    #[arg(long = "status", value_name = "STATUS", value_parser = parse_status)]
    statuses: Vec<Term>,
    /// Only paths that match this glob (/hooks/*)
    ///
    /// In the glob, '*' is any run of characters, '?' one, '[abc]' one of those; it may match
    /// the path with its query string or without it.
    #[arg(long, value_name = "GLOB", value_parser = parse_path)]
    path: Option<Term>,
    /// Only exchanges that hold TEXT (repeatable)
    ///
    /// TEXT is looked for, in any case, in the headers and bodies of the request and the
    /// response, and in the method, path and status; given several times, all must be there.
    #[arg(long = "grep", value_name = "TEXT", value_parser = parse_grep)]
    grep: Vec<Term>,
    /// Only captures since DURATION ago or TIME
    ///
    /// DURATION: 90s, 10m, 2h; TIME: an RFC 3339 time (2026-11-27T09:00:00Z).
    // `-2d` is a wrong duration, not flags `-2` and `-d`: the parser says it is negative.
    #[arg(long, value_name = "DURATION|TIME", value_parser = parse_since, allow_hyphen_values = true)]
    since: Option<Term>,
    /// Only requests with this signature check result
    ///
    /// RESULT: valid, invalid, expired, unsigned or no-secret, as 'local requests verify'
    /// checks the webhook signature.
    #[arg(long, value_name = "RESULT", value_parser = parse_signature)]
    signature: Option<Term>,
}

impl RequestFilters {
    /// [`RequestFilters::query`], its `--signature` checked with the webhook secrets set.
    pub fn query_signing(&self, ctx: &crate::context::Context) -> crate::error::Result<Query> {
        let query = self.query();
        if !query.checks_signatures() {
            return Ok(query);
        }
        let secrets = ctx.settings.values()?.webhook_secrets.clone();
        Ok(query.signing(secrets, crate::capture::signed::now()))
    }

    /// The query the flags make: every flag must match; the values of one repeated
    /// `--method` or `--status` are alternatives.
    pub fn query(&self) -> Query {
        let mut clauses: Vec<Clause> = Vec::new();
        let mut one = |term: Term| {
            clauses.push(Clause {
                negated: false,
                term,
            })
        };
        if let Some(t) = merge(&self.methods) {
            one(t);
        }
        if let Some(t) = merge(&self.statuses) {
            one(t);
        }
        for t in self
            .path
            .iter()
            .chain(&self.grep)
            .chain(&self.since)
            .chain(&self.signature)
        {
            one(t.clone());
        }
        Query::from_clauses(clauses)
    }
}

/// Repeated `--method` (or `--status`) flags as one term: any of their values.
fn merge(terms: &[Term]) -> Option<Term> {
    let mut it = terms.iter().cloned();
    let first = it.next()?;
    Some(it.fold(first, |acc, t| match (acc, t) {
        (Term::Method(mut a), Term::Method(b)) => {
            a.extend(b);
            Term::Method(a)
        }
        (Term::Status(mut a), Term::Status(b)) => {
            a.extend(b);
            Term::Status(a)
        }
        (acc, _) => acc,
    }))
}

/// A flag's value as the `/` bar's word `key:value`.
fn keyed(key: &str, value: &str) -> std::result::Result<Term, String> {
    term(key, value, OffsetDateTime::now_utc()).map_err(|e| escape(&e.0))
}

fn parse_method(s: &str) -> std::result::Result<Term, String> {
    keyed("method", s)
}

fn parse_status(s: &str) -> std::result::Result<Term, String> {
    keyed("status", s)
}

fn parse_path(s: &str) -> std::result::Result<Term, String> {
    keyed("path", s)
}

fn parse_grep(s: &str) -> std::result::Result<Term, String> {
    if s.is_empty() {
        return Err("must not be empty".into());
    }
    Ok(Term::Text(s.to_lowercase()))
}

fn parse_since(s: &str) -> std::result::Result<Term, String> {
    keyed("since", s.trim())
}

fn parse_signature(s: &str) -> std::result::Result<Term, String> {
    keyed("sig", s.trim())
}

/// Which captures `list` and `export` read: `--limit`, `--tunnel` and the filters.
#[derive(Debug, Args)]
pub struct Chosen {
    /// At most N requests, the newest (1 or more)
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub limit: Option<usize>,
    #[command(flatten)]
    pub filter: TunnelFlag,
    #[command(flatten)]
    pub only: RequestFilters,
    #[command(flatten)]
    pub from: super::history_file::SourceFlag,
}

/// `--tunnel NAME` of the commands that read many captures.
#[derive(Debug, Args)]
pub struct TunnelFlag {
    /// Only requests captured on this tunnel
    #[arg(long, value_name = "NAME", add = clap_complete::ArgValueCandidates::new(crate::complete::tunnel_names))]
    pub tunnel: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::exchange::Exchange;
    use serde_json::json;

    #[test]
    fn flags_make_one_query() {
        let f = RequestFilters {
            methods: vec![
                parse_method("post").unwrap(),
                parse_method("PUT,patch").unwrap(),
            ],
            statuses: vec![parse_status("4xx").unwrap(), parse_status("200").unwrap()],
            path: Some(parse_path("/hooks/*").unwrap()),
            grep: vec![parse_grep("Paid").unwrap()],
            since: None,
            signature: None,
        };
        let q = f.query();
        assert_eq!(q.clauses().len(), 4);
        let x = |method: &str, status: u16, uri: &str| {
            json!({"request": {"method": method, "uri": uri, "raw": null, "headers": {"X": ["paid"]}},
                   "response": {"status_code": status}})
        };
        let x = |method: &str, status: u16, uri: &str| {
            Exchange::from_json(&x(method, status, uri).to_string()).expect("a capture")
        };
        assert!(q.matches(&x("PATCH", 404, "/hooks/a?x=1")));
        assert!(q.matches(&x("POST", 200, "/hooks/a")));
        assert!(!q.matches(&x("GET", 200, "/hooks/a")));
        assert!(!q.matches(&x("POST", 500, "/hooks/a")));
        assert!(!q.matches(&x("POST", 200, "/other")));
    }

    #[test]
    fn bad_values_are_refused() {
        assert!(parse_method("").is_err());
        assert!(parse_method(",").is_err());
        assert!(parse_method("GE T").is_err());
        for bad in ["6xx", "99", "abc", "", "4x"] {
            assert!(parse_status(bad).is_err(), "{bad}");
        }
        for bad in ["10x", "", "yesterday"] {
            assert!(parse_since(bad).is_err(), "{bad}");
        }
        assert!(parse_since("10m").is_ok() && parse_since("2026-01-02T15:04:05Z").is_ok());
        assert!(parse_grep("").is_err() && parse_path("").is_err());
        assert!(parse_signature("expired").is_ok() && parse_signature("broken").is_err());
    }
}
