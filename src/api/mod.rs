//! The management API: typed calls over the HTTP layer, and the page stream of lists.
//!
//! Resources are kept as the server's JSON values, so fields this client does not know yet
//! reach `--json` output unchanged; request bodies are typed and validated against the
//! API reference's rules before anything is sent. One file per resource holds its paths, request
//! bodies and rules.

pub mod backends;
pub mod event_destinations;
pub mod event_sources;
pub mod event_subscriptions;
pub mod fields;
pub mod ip_policies;
pub mod prefixes;
pub mod sessions;
pub mod tls_termination;
pub mod validate;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet, VecDeque};

use reqwest::Method;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;
use url::Url;

use crate::error::{Error, Result};
use crate::escape::escape;
use crate::http::{encode_segment, origin, Http};
use crate::output::columns::Kind;

/// The names of the fields of any resource that hold secrets, kept on the floor
/// ([`crate::secrets`]) where the renderers and the trace find them without knowing the API.
pub use crate::secrets::SECRET_FIELDS;

/// The largest page the API serves; a smaller `--limit` asks for a smaller page.
pub const MAX_PAGE: usize = 100;

/// A client of the management API.
pub struct Client {
    http: Http,
}

/// One segment of a path: fixed text, or a value from the user that gets encoded.
#[derive(Clone, Copy)]
pub enum Seg<'a> {
    /// A literal segment of the API (never encoded).
    Lit(&'a str),
    /// An ID or type given by the user, with what it is for error messages.
    Id(&'a str, &'a str),
}

impl Client {
    /// Wraps an HTTP layer set up for the management API.
    pub fn new(http: Http) -> Self {
        Client { http }
    }

    /// The rate its requests are paced to; `None` when they are not (`--rate off`).
    pub fn rate(&self) -> Option<crate::ratelimit::Rate> {
        self.http.rate()
    }

    /// The URL of a path made of segments.
    pub fn url(&self, segs: &[Seg<'_>]) -> Result<Url> {
        let mut parts = Vec::with_capacity(segs.len());
        for s in segs {
            parts.push(match s {
                Seg::Lit(l) => (*l).to_string(),
                Seg::Id(what, v) => encode_segment(what, v)?,
            });
        }
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        Ok(self.http.url(&refs))
    }

    /// GET a resource.
    pub async fn get(&self, segs: &[Seg<'_>]) -> Result<Value> {
        let url = self.url(segs)?;
        let got = self.http.json_value(Method::GET, &url, None).await;
        got.map_err(|e| explained(e, segs))
    }

    /// POST a create; the answer is the new resource.
    pub async fn create(&self, segs: &[Seg<'_>], body: &impl Serialize) -> Result<Value> {
        let url = self.url(segs)?;
        let body = to_json(body)?;
        self.http.json_value(Method::POST, &url, Some(&body)).await
    }

    /// PATCH the given fields; the answer is the resource.
    pub async fn patch(&self, segs: &[Seg<'_>], body: &impl Serialize) -> Result<Value> {
        let url = self.url(segs)?;
        let body = to_json(body)?;
        let got = self.http.json_value(Method::PATCH, &url, Some(&body)).await;
        got.map_err(|e| explained(e, segs))
    }

    /// PUT a whole object; the answer is the object.
    pub async fn put(&self, segs: &[Seg<'_>], body: &impl Serialize) -> Result<Value> {
        let url = self.url(segs)?;
        let body = to_json(body)?;
        let got = self.http.json_value(Method::PUT, &url, Some(&body)).await;
        got.map_err(|e| explained(e, segs))
    }

    /// DELETE a resource (204).
    pub async fn delete(&self, segs: &[Seg<'_>]) -> Result<()> {
        let url = self.url(segs)?;
        let sent = self.http.send(Method::DELETE, &url, None).await;
        sent.map(|_| ()).map_err(|e| explained(e, segs))
    }

    /// POST a command with an empty JSON object as body (204).
    pub async fn command(&self, segs: &[Seg<'_>]) -> Result<()> {
        let url = self.url(segs)?;
        let body = Value::Object(Default::default());
        let sent = self.http.send(Method::POST, &url, Some(&body)).await;
        sent.map(|_| ()).map_err(|e| explained(e, segs))
    }

    /// The items of a list, page after page, stopping after `limit` items.
    pub fn list(
        &self,
        segs: &[Seg<'_>],
        collection: &'static str,
        limit: Option<usize>,
    ) -> Result<Pages<'_>> {
        let mut first = self.url(segs)?;
        if let Some(n) = limit.filter(|n| *n < MAX_PAGE) {
            first
                .query_pairs_mut()
                .append_pair("limit", &n.max(1).to_string());
        }
        Ok(Pages::new(self, first, collection, limit))
    }

    /// Sends any request to a path of the API (`tunnelctl api`): `path` is relative to the
    /// base URL and may carry a query; an absolute URL must be on the API's own origin.
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Option<Value>> {
        let url = self.resolve(path)?;
        self.http.json(method, &url, body).await
    }

    /// Every item of any list, following `next_page_uri` (`tunnelctl api --paginate`): each
    /// page's one array field is taken as the items.
    pub fn raw_pages(&self, path: &str) -> Result<Pages<'_>> {
        Ok(Pages::new(self, self.resolve(path)?, "", None))
    }

    fn resolve(&self, path: &str) -> Result<Url> {
        let base = self.http.base();
        let url = if path.starts_with("http://") || path.starts_with("https://") {
            Url::parse(path).map_err(|e| Error::usage(format!("'{path}' is not a URL: {e}")))?
        } else {
            let mut joined = base.clone();
            let (p, q) = path
                .split_once('?')
                .map_or((path, None), |(p, q)| (p, Some(q)));
            let prefix = base.path().trim_end_matches('/');
            joined.set_path(&format!("{prefix}/{}", p.trim_start_matches('/')));
            joined.set_query(q);
            joined
        };
        if origin(&url) != origin(base) {
            return Err(Error::usage(format!(
                "refusing to send the API key to {}: the API is {}",
                origin(&url),
                origin(base)
            )));
        }
        Ok(url)
    }

    /// The items of a list that has no pages (no `next_page_uri`).
    pub fn unpaged(
        &self,
        segs: &[Seg<'_>],
        collection: &'static str,
        limit: Option<usize>,
    ) -> Result<Pages<'_>> {
        let mut pages = self.list(segs, collection, None)?;
        pages.remaining = limit;
        pages.paged = false;
        Ok(pages)
    }
}

/// `err` with a hint when it is a 404 for an ID of another kind than the path's collection.
fn explained(err: Error, segs: &[Seg<'_>]) -> Error {
    let collection = match segs.first() {
        Some(Seg::Lit(c)) => *c,
        _ => return err,
    };
    let ids = segs.iter().filter_map(|s| match s {
        Seg::Id(_, v) => Some(*v),
        Seg::Lit(_) => None,
    });
    prefixes::explain_not_found(err, collection, ids)
}

fn not_json(url: &Url, e: &serde_json::Error) -> Error {
    Error::BadResponse(format!(
        "GET {}: the answer is not valid JSON ({e})",
        url.path()
    ))
}

fn to_json(body: &impl Serialize) -> Result<Value> {
    serde_json::to_value(body).map_err(|e| Error::Io(format!("could not encode the request: {e}")))
}

/// The most empty pages in a row a listing follows: a server that links empty page after
/// empty page (each at a new address) would otherwise be followed for ever.
pub const MAX_EMPTY_PAGES: usize = 20;

/// A list read page by page: items are handed out as pages arrive, so memory stays flat.
///
/// A page is kept as the server's text and its items are decoded one at a time, so a page of
/// millions of tiny items costs about its own size in memory, not a value per item.
pub struct Pages<'a> {
    client: &'a Client,
    next: Option<Url>,
    collection: &'static str,
    /// The page being handed out, and where each of its items lies in it.
    page: Vec<u8>,
    spans: VecDeque<(usize, usize)>,
    remaining: Option<usize>,
    paged: bool,
    /// Every page address read in this listing, to stop at a cycle.
    visited: HashSet<String>,
    empty_run: usize,
    pages_read: usize,
    items_given: usize,
}

impl<'a> Pages<'a> {
    fn new(client: &'a Client, first: Url, collection: &'static str, limit: Option<usize>) -> Self {
        Pages {
            client,
            next: Some(first),
            collection,
            page: Vec::new(),
            spans: VecDeque::new(),
            remaining: limit,
            paged: true,
            visited: HashSet::new(),
            empty_run: 0,
            pages_read: 0,
            items_given: 0,
        }
    }

    /// How many pages were read and how many items handed out so far: what was done when a
    /// listing is cut short.
    pub fn progress(&self) -> (usize, usize) {
        (self.pages_read, self.items_given)
    }

    /// Fetches pages until one has items; false at the end of the list.
    async fn fill(&mut self) -> Result<bool> {
        while self.spans.is_empty() {
            let Some(url) = self.next.take() else {
                return Ok(false);
            };
            let body = self.client.http.send(Method::GET, &url, None).await?.body;
            self.pages_read += 1;
            let spans = self.read_page(&url, &body)?;
            self.page = body;
            self.spans = spans.into();
            if self.spans.is_empty() {
                self.empty_run += 1;
                if self.empty_run >= MAX_EMPTY_PAGES && self.next.is_some() {
                    return Err(Error::BadResponse(format!(
                        "GET {}: the server sent {} empty pages in a row, each pointing at another; stopping",
                        url.path(),
                        self.empty_run
                    )));
                }
            } else {
                self.empty_run = 0;
            }
        }
        Ok(true)
    }

    /// The next item as the server's JSON text, fetching the next page when needed; `None`
    /// at the end (or once `limit` items were handed out).
    async fn next_raw(&mut self) -> Result<Option<&str>> {
        if self.remaining == Some(0) || !self.fill().await? {
            return Ok(None);
        }
        let Some((start, end)) = self.spans.pop_front() else {
            return Ok(None);
        };
        if let Some(r) = self.remaining.as_mut() {
            *r -= 1;
        }
        self.items_given += 1;
        // The spans were cut from this very page on UTF-8 boundaries by the JSON parser.
        std::str::from_utf8(self.page.get(start..end).unwrap_or_default())
            .map(Some)
            .map_err(|e| Error::BadResponse(format!("a list item is not UTF-8: {e}")))
    }

    /// The next item, fetching the next page when needed; `None` at the end.
    pub async fn next_item(&mut self) -> Result<Option<Value>> {
        self.next_raw().await?.map(read_item).transpose()
    }

    /// The items not yet handed out of the next page that has any, whole, as the server wrote
    /// them; `None` at the end (or once `limit` items were handed out). A caller that reads a
    /// page's items while the next page is fetched takes them this way.
    pub async fn next_page(&mut self) -> Result<Option<RawPage>> {
        if self.remaining == Some(0) || !self.fill().await? {
            return Ok(None);
        }
        let mut spans: Vec<(usize, usize)> = std::mem::take(&mut self.spans).into();
        if let Some(r) = self.remaining.as_mut() {
            spans.truncate(*r);
            *r -= spans.len();
        }
        self.items_given += spans.len();
        // The spans were cut by the JSON parser, which read the page as UTF-8.
        let text = String::from_utf8(std::mem::take(&mut self.page))
            .map_err(|e| Error::BadResponse(format!("a list page is not UTF-8: {e}")))?;
        Ok(Some(RawPage { text, spans }))
    }

    /// Hands each item to `f` as the server's own JSON text, page after page, without building
    /// values: the fast path for `--json` and `-o ndjson`. Returns how many items there were.
    pub async fn for_each_raw(&mut self, mut f: impl FnMut(&str) -> Result<()>) -> Result<usize> {
        let mut count = 0;
        while let Some(item) = self.next_raw().await? {
            f(item)?;
            count += 1;
        }
        Ok(count)
    }

    /// Splits one page into its items (where each lies in the page, as the server wrote it) and
    /// takes note of the next page. A list of an unknown resource (`tunnelctl api --paginate`)
    /// has its items in its one array field.
    fn read_page(&mut self, url: &Url, body: &[u8]) -> Result<Vec<(usize, usize)>> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::BadResponse(format!(
                "GET {}: the answer has no body, a JSON object was expected",
                url.path()
            )));
        }
        self.visited.insert(url.as_str().to_string());
        let page: BTreeMap<Cow<'_, str>, &RawValue> =
            serde_json::from_slice(body).map_err(|e| not_json(url, &e))?;
        let field = if self.collection.is_empty() {
            page.iter()
                .find(|(_, v)| v.get().starts_with('['))
                .map(|(k, _)| k.to_string())
                .unwrap_or_default()
        } else {
            self.collection.to_string()
        };
        let items: Vec<&RawValue> = match page.get(field.as_str()) {
            Some(raw) if raw.get().starts_with('[') => {
                serde_json::from_str(raw.get()).map_err(|e| not_json(url, &e))?
            }
            Some(raw) if raw.get() == "null" => Vec::new(),
            None if page.contains_key("uri") => Vec::new(),
            _ => {
                return Err(Error::BadResponse(format!(
                    "GET {}: the answer has no '{}' list",
                    url.path(),
                    escape(&field)
                )))
            }
        };
        let base = body.as_ptr() as usize;
        let spans = items
            .iter()
            .map(|raw| {
                let start = raw.get().as_ptr() as usize - base;
                (start, start + raw.get().len())
            })
            .collect();
        if self.paged {
            if let Some(raw) = page.get("next_page_uri") {
                if let Ok(Some(next)) = serde_json::from_str::<Option<String>>(raw.get()) {
                    if !next.is_empty() {
                        self.next = Some(self.check_next(url, &next)?);
                    }
                }
            }
        }
        Ok(spans)
    }

    /// Follows `next_page_uri` only to the configured API's scheme, host and port (anywhere
    /// else the API key would leave with the request), never with credentials in it, and
    /// never back to a page this listing already read. A relative address is resolved against
    /// the page that gave it (RFC 3986).
    fn check_next(&self, current: &Url, next: &str) -> Result<Url> {
        let base = self.client.http.base();
        let shown = || escape(&shorten(next, 200));
        let url = current.join(next).map_err(|e| {
            Error::BadResponse(format!(
                "the server's next_page_uri '{}' is not a URL: {e}",
                shown()
            ))
        })?;
        if origin(&url) != origin(base) {
            return Err(Error::BadResponse(format!(
                "refusing to follow next_page_uri to {} (the API is {}): the API key would be sent to another server",
                escape(&origin(&url)),
                origin(base)
            )));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(Error::BadResponse(format!(
                "refusing to follow the server's next_page_uri '{}': it carries a user name or password",
                shown()
            )));
        }
        if self.visited.contains(url.as_str()) {
            return Err(Error::BadResponse(format!(
                "the server's next_page_uri leads back to a page already read ({}); stopping after {} page(s)",
                escape(&shorten(url.as_str(), 200)),
                self.pages_read
            )));
        }
        Ok(url)
    }
}

/// One item of a list as the server wrote it, read (exit 1 when it is not JSON).
pub fn read_item(text: &str) -> Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| Error::BadResponse(format!("a list item is not valid JSON ({e})")))
}

/// Items of a list page as the server wrote them ([`Pages::next_page`]).
#[derive(Debug)]
pub struct RawPage {
    text: String,
    /// Where each item lies in `text`.
    spans: Vec<(usize, usize)>,
}

impl RawPage {
    /// A page of these items, as a server would write it (tests of what reads pages).
    #[cfg(test)]
    pub fn of_items(items: &[&str]) -> RawPage {
        let mut text = String::from("[");
        let mut spans = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            spans.push((text.len(), text.len() + item.len()));
            text.push_str(item);
        }
        text.push(']');
        RawPage { text, spans }
    }

    /// Its items, in order, each as the server's JSON text.
    pub fn items(&self) -> impl Iterator<Item = &str> {
        self.spans
            .iter()
            .map(|&(start, end)| self.text.get(start..end).unwrap_or_default())
    }
}

/// At most `max` characters of `s`, with `…` when cut.
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars().take(max).chain(std::iter::once('…')).collect()
    }
}

/// True when a create or update body sets no field: every field of those bodies is skipped
/// when unset, so nothing set serializes to `{}`.
pub fn sets_nothing(body: &impl Serialize) -> bool {
    matches!(serde_json::to_value(body), Ok(Value::Object(fields)) if fields.is_empty())
}

/// Is this error answer a local tunnel agent's rather than the management API's (the API URL
/// pointed at an agent)? The agent's errors carry a numeric `error_code` (`100`, `106`), or,
/// for a path it does not serve, none at all and the path in `details`; the management API's
/// always carry an `ERR_NGROK_…` code and an operation ID.
pub fn is_agent_answer(_status: u16, body: &[u8]) -> bool {
    let Ok(Value::Object(error)) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    let details = error.get("details").and_then(Value::as_object);
    let numbered = error.get("error_code").is_some_and(Value::is_u64);
    let framework = !error.contains_key("error_code")
        && details.is_some_and(|d| d.contains_key("path") && !d.contains_key("operation_id"));
    error.get("status_code").is_some_and(Value::is_u64) && (numbered || framework)
}

/// Every management collection this tool manages, each described once in its own file: the
/// ID hints ([`prefixes`]), the completion of IDs and the shared verbs of the command groups
/// read this list and the descriptors in it, so a new resource is added by writing its
/// descriptor and adding it here.
pub const RESOURCES: &[&Resource] = &[
    &sessions::RESOURCE,
    &ip_policies::RESOURCE,
    &backends::RESOURCE,
    &event_destinations::RESOURCE,
    &event_subscriptions::RESOURCE,
];

/// A collection of the API with the usual verbs (list, get, create, update (PATCH), delete),
/// and everything the rest of the tool needs to know about it.
pub struct Resource {
    /// The literal path segments of the collection, e.g. `["backends", "tunnel_group"]`.
    pub path: &'static [&'static str],
    /// The name of the list field in a page.
    pub collection: &'static str,
    /// What an ID of this collection is called in messages ("IP policy ID").
    pub id_name: &'static str,
    /// The prefix its IDs start with (`ipp_`).
    pub prefix: &'static str,
    /// The article of its noun ("an" IP policy), for messages that name one.
    pub article: &'static str,
    /// The command group that manages it (`tunnelctl ip-policies`); its `list` and `get`
    /// verbs are what messages tell a person to type.
    pub command: &'static str,
    /// Its nouns and columns: how the printer shows it.
    pub kind: &'static Kind,
    /// The fields a completion candidate shows beside an ID, what a person tells items by.
    pub summary: &'static [&'static str],
    /// The limits of its `description` and `metadata` (none where the API reference states
    /// none).
    pub text: Option<fields::TextLimits>,
}

impl Resource {
    /// The command that lists it (`tunnelctl ip-policies list`).
    pub fn list_command(&self) -> String {
        format!("{} list", self.command)
    }

    /// The command that reads one, without the ID (`tunnelctl ip-policies get`).
    pub fn get_command(&self) -> String {
        format!("{} get", self.command)
    }

    fn segs<'a>(&'a self, id: Option<&'a str>) -> Vec<Seg<'a>> {
        let mut segs: Vec<Seg<'a>> = self.path.iter().map(|p| Seg::Lit(p)).collect();
        if let Some(id) = id {
            segs.push(Seg::Id(self.id_name, id));
        }
        segs
    }

    /// Every item, page after page, up to `limit`.
    pub fn list<'c>(&self, client: &'c Client, limit: Option<usize>) -> Result<Pages<'c>> {
        client.list(&self.segs(None), self.collection, limit)
    }

    /// One item.
    pub async fn get(&self, client: &Client, id: &str) -> Result<Value> {
        client.get(&self.segs(Some(id))).await
    }

    /// Creates an item.
    pub async fn create(&self, client: &Client, body: &impl Serialize) -> Result<Value> {
        client.create(&self.segs(None), body).await
    }

    /// Changes the given fields of an item.
    pub async fn update(&self, client: &Client, id: &str, body: &impl Serialize) -> Result<Value> {
        client.patch(&self.segs(Some(id)), body).await
    }

    /// Deletes an item.
    pub async fn delete(&self, client: &Client, id: &str) -> Result<()> {
        client.delete(&self.segs(Some(id))).await
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::time::Duration;

    use super::*;
    use crate::http::HttpOptions;

    /// A server of three pages of IP policies, a then b then c; c leads back to a when `cycle`.
    fn pages_server(cycle: bool) -> Url {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = Url::parse(&format!("http://{}/", listener.local_addr().unwrap())).unwrap();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { return };
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                let mut conn = conn;
                loop {
                    let mut request = String::new();
                    if reader.read_line(&mut request).unwrap_or(0) == 0 {
                        break;
                    }
                    let mut line = String::new();
                    while reader.read_line(&mut line).unwrap_or(0) > 2 {
                        line.clear();
                    }
                    let (items, next) = match request.split_whitespace().nth(1) {
                        Some("/ip_policies?p=b") => ("3,4", Some("/ip_policies?p=c")),
                        Some("/ip_policies?p=c") => ("5", cycle.then_some("/ip_policies")),
                        _ => ("1,2", Some("/ip_policies?p=b")),
                    };
                    let items: Vec<String> = items
                        .split(',')
                        .map(|n| format!("{{\"id\":\"ipp_{n}\"}}"))
                        .collect();
                    let next = next.map_or("null".to_string(), |n| format!("\"{n}\""));
                    let body = format!(
                        "{{\"ip_policies\":[{}],\"uri\":\"/ip_policies\",\"next_page_uri\":{next}}}",
                        items.join(",")
                    );
                    let _ = write!(
                        conn,
                        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                        body.len()
                    );
                }
            }
        });
        base
    }

    fn client(base: Url) -> Client {
        Client::new(
            Http::new(HttpOptions {
                base,
                bearer: None,
                fixed_headers: Vec::new(),
                timeout: Duration::from_secs(10),
                verbose: false,
                max_attempts: 1,
                unreachable_hint: String::new(),
                unauthorized_hint: None,
                max_body: 1 << 20,
                limiter: None,
                deadline: None,
                secret_fields: &[],
                read_only: None,
                expected: None,
            })
            .unwrap(),
        )
    }

    fn ids_by_page(
        client: &Client,
        limit: Option<usize>,
        rt: &tokio::runtime::Runtime,
    ) -> (Vec<Vec<String>>, Option<String>) {
        let mut pages = client
            .list(&[Seg::Lit("ip_policies")], "ip_policies", limit)
            .unwrap();
        let mut all = Vec::new();
        loop {
            match rt.block_on(pages.next_page()) {
                Ok(Some(page)) => all.push(
                    page.items()
                        .map(|t| serde_json::from_str::<Value>(t).unwrap()["id"].to_string())
                        .collect(),
                ),
                Ok(None) => return (all, None),
                Err(e) => return (all, Some(e.to_string())),
            }
        }
    }

    #[test]
    fn whole_pages_give_the_items_one_by_one_gives_and_stop_at_a_cycle() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let one_by_one = |c: &Client| {
            let mut ids = Vec::new();
            let mut pages = c
                .list(&[Seg::Lit("ip_policies")], "ip_policies", None)
                .unwrap();
            while let Ok(Some(item)) = rt.block_on(pages.next_item()) {
                ids.push(item["id"].to_string());
            }
            ids
        };
        let c = client(pages_server(false));
        let (by_page, end) = ids_by_page(&c, None, &rt);
        assert_eq!(end, None);
        assert_eq!(by_page.len(), 3);
        assert_eq!(
            by_page.concat(),
            one_by_one(&c),
            "the same items, in the same order"
        );
        // A limit cuts the page it ends in.
        let (limited, _) = ids_by_page(&c, Some(3), &rt);
        assert_eq!(limited.concat(), one_by_one(&c)[..3]);
        // A page that leads back to one already read ends the list, refused whole as one by
        // one does: the items of the pages before it, then the error.
        let c = client(pages_server(true));
        let (cycled, end) = ids_by_page(&c, None, &rt);
        assert_eq!(cycled.len(), 2);
        assert_eq!(cycled.concat(), one_by_one(&c));
        let end = end.unwrap_or_default();
        assert!(end.contains("leads back to a page already read"), "{end}");
    }
}
