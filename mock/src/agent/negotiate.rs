//! Content negotiation as the real agent does it: which representation an `Accept` header
//! asks for (JSON, `text/xml` or `application/xml`, else 406), and which request
//! `Content-Type`s a POST may carry (else 415).
//!
//! The agent's web framework picks the offer with the highest `q` among
//! `application/json`, `text/xml`, `application/xml` (ties go to that order, exact matches
//! beat `type/*`, which beats `*/*`); with no `Accept` header at all it answers JSON.

/// The media types the agent can produce and consume, in its order of preference.
pub const OFFERS: [&str; 3] = ["application/json", "text/xml", "application/xml"];

/// The representation of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `application/json`.
    Json,
    /// XML, with the content type the client asked for (`text/xml` or `application/xml`).
    Xml(&'static str),
}

impl Format {
    /// The `Content-Type` of answers in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Json => "application/json",
            Format::Xml(ct) => ct,
        }
    }
}

/// The format an `Accept` header selects; `None` when it accepts none of the offers (406).
pub fn accept(header: Option<&str>) -> Option<Format> {
    let Some(header) = header.filter(|h| !h.trim().is_empty()) else {
        return Some(Format::Json);
    };
    let specs: Vec<(String, f64)> = header.split(',').filter_map(parse_spec).collect();
    let mut best: Option<&'static str> = None;
    let mut best_q = -1.0_f64;
    // 0 = exact, 1 = type/*, 2 = */*, 3 = nothing yet.
    let mut best_wild = 3;
    for offer in OFFERS {
        for (value, q) in &specs {
            let q = *q;
            if q == 0.0 || q < best_q {
                continue;
            }
            let wild = if value == "*/*" {
                2
            } else if let Some(prefix) = value.strip_suffix('*') {
                if !(prefix.ends_with('/') && offer.starts_with(prefix)) {
                    continue;
                }
                1
            } else if value.eq_ignore_ascii_case(offer) {
                0
            } else {
                continue;
            };
            if q > best_q || best_wild > wild {
                best_q = q;
                best_wild = wild;
                best = Some(offer);
            }
        }
    }
    best.map(|offer| match offer {
        "application/json" => Format::Json,
        other => Format::Xml(other),
    })
}

/// One media range of an `Accept` header and its `q` (1 when absent).
fn parse_spec(part: &str) -> Option<(String, f64)> {
    let mut pieces = part.split(';');
    let value = pieces.next()?.trim().to_ascii_lowercase();
    if value.is_empty() {
        return None;
    }
    let mut q = 1.0;
    for param in pieces {
        if let Some((k, v)) = param.split_once('=') {
            if k.trim().eq_ignore_ascii_case("q") {
                q = v.trim().parse().unwrap_or(0.0);
            }
        }
    }
    Some((value, q))
}

/// How a request body will be read, from its `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestMedia {
    /// `application/json` (parameters allowed; the type itself is case-sensitive).
    Json,
    /// `text/xml` or `application/xml`: accepted, but the agent decodes nothing from it.
    Xml,
}

/// The kind of body a `Content-Type` announces; `None` means 415.
pub fn content_type(header: Option<&str>) -> Option<RequestMedia> {
    let media = header.unwrap_or("").split(';').next().unwrap_or("").trim();
    match media {
        "application/json" => Some(RequestMedia::Json),
        "text/xml" | "application/xml" => Some(RequestMedia::Xml),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_follows_the_agent() {
        assert_eq!(accept(None), Some(Format::Json));
        assert_eq!(accept(Some("text/html")), None);
        assert_eq!(accept(Some("text/plain")), None);
        assert_eq!(
            accept(Some("application/xml")),
            Some(Format::Xml("application/xml"))
        );
        assert_eq!(accept(Some("text/xml")), Some(Format::Xml("text/xml")));
        assert_eq!(
            accept(Some("application/xml, application/json")),
            Some(Format::Json)
        );
        assert_eq!(
            accept(Some("text/html, application/xml")),
            Some(Format::Xml("application/xml"))
        );
        assert_eq!(accept(Some("text/html, */*;q=0.1")), Some(Format::Json));
        assert_eq!(accept(Some("application/*")), Some(Format::Json));
        assert_eq!(accept(Some("application/json;q=0.5")), Some(Format::Json));
        assert_eq!(accept(Some("application/json;q=0")), None);
    }

    #[test]
    fn content_types() {
        assert_eq!(
            content_type(Some("application/json; charset=utf-8")),
            Some(RequestMedia::Json)
        );
        assert_eq!(content_type(Some("APPLICATION/JSON")), None);
        assert_eq!(content_type(None), None);
        assert_eq!(content_type(Some("text/xml")), Some(RequestMedia::Xml));
    }
}
