//! List paging shared by every collection: `limit` and `before_id` in, a newest-first page and
//! the `{<collection>, uri, next_page_uri}` envelope out.
//!
//! One implementation means every list pages the same way, which is what a client following
//! `next_page_uri` relies on.

use std::collections::BTreeMap;
use std::ops::Bound;

use percent_encoding::percent_decode_str;
use serde_json::{json, Value};

use crate::api_error::{code, ApiError};
use crate::mgmt::request::Ctx;

/// The largest `limit` a request may ask for.
pub const MAX_LIMIT: usize = 100;

/// What a list request asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest {
    /// Items on this page.
    pub limit: usize,
    /// Only items whose id sorts before this one.
    pub before_id: Option<String>,
}

/// Reads `limit` (1..=100) and `before_id` from a raw query string; other parameters are
/// ignored, as a server would.
pub fn parse(query: Option<&str>, default_limit: usize) -> Result<PageRequest, ApiError> {
    let mut limit = None;
    let mut before_id = None;
    for (key, value) in query_pairs(query.unwrap_or("")) {
        match key.as_str() {
            "limit" => limit = Some(value),
            "before_id" => before_id = Some(value).filter(|v| !v.is_empty()),
            _ => {}
        }
    }
    let limit = match limit {
        None => default_limit.max(1),
        Some(raw) => match raw.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
            _ => {
                return Err(ApiError::new(
                    400,
                    code::INVALID_QUERY,
                    format!("limit must be an integer from 1 to {MAX_LIMIT} (got '{raw}')."),
                )
                .detail("field", "limit"))
            }
        },
    };
    Ok(PageRequest { limit, before_id })
}

/// Decoded `key=value` pairs of a query string (`+` is a space, as in forms).
pub fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode_component(k), decode_component(v))
        })
        .collect()
}

fn decode_component(s: &str) -> String {
    let spaced = s.replace('+', " ");
    percent_decode_str(&spaced).decode_utf8_lossy().into_owned()
}

/// The `(id, item)`s of one page, newest first, and whether more remain after it.
pub fn select<'m, T>(
    map: &'m BTreeMap<String, T>,
    page: &PageRequest,
) -> (Vec<(&'m String, &'m T)>, bool) {
    let upper = match &page.before_id {
        Some(b) => Bound::Excluded(b.as_str()),
        None => Bound::Unbounded,
    };
    let mut iter = map.range::<str, _>((Bound::Unbounded, upper)).rev();
    let items: Vec<(&String, &T)> = iter.by_ref().take(page.limit).collect();
    let more = iter.next().is_some();
    (items, more)
}

/// The list envelope. `path` is the list's path (e.g. `/ip_policies`); `last_id` the id of
/// the last item on the page, used for the next page's `before_id`.
pub fn envelope(
    collection: &str,
    items: Vec<Value>,
    path: &str,
    ctx: &Ctx<'_>,
    page: &PageRequest,
    last_id: Option<&str>,
    more: bool,
) -> Value {
    let next = match (more, last_id) {
        (true, Some(last)) => Value::String(format!(
            "{}{path}?before_id={last}&limit={}",
            ctx.next_page_base.unwrap_or(ctx.base).trim_end_matches('/'),
            page.limit
        )),
        _ => Value::Null,
    };
    let mut out = serde_json::Map::new();
    out.insert(collection.to_string(), Value::Array(items));
    out.insert("uri".to_string(), json!(format!("{}{path}", ctx.base)));
    out.insert("next_page_uri".to_string(), next);
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_bounds() {
        assert_eq!(parse(Some("limit=1"), 100).map(|p| p.limit).ok(), Some(1));
        assert_eq!(
            parse(Some("limit=100"), 100).map(|p| p.limit).ok(),
            Some(100)
        );
        assert!(parse(Some("limit=0"), 100).is_err());
        assert!(parse(Some("limit=101"), 100).is_err());
        assert!(parse(Some("limit=x"), 100).is_err());
        assert_eq!(parse(None, 7).map(|p| p.limit).ok(), Some(7));
    }

    #[test]
    fn select_pages_newest_first() {
        let map: BTreeMap<String, u32> = (0..5).map(|i| (format!("id{i}"), i)).collect();
        let first = PageRequest {
            limit: 2,
            before_id: None,
        };
        let (items, more) = select(&map, &first);
        let values: Vec<u32> = items.iter().map(|(_, v)| **v).collect();
        assert_eq!(values, vec![4, 3]);
        assert!(more);
        let last = PageRequest {
            limit: 2,
            before_id: Some("id1".to_string()),
        };
        let (items, more) = select(&map, &last);
        let values: Vec<u32> = items.iter().map(|(_, v)| **v).collect();
        assert_eq!(values, vec![0]);
        assert!(!more);
    }
}
