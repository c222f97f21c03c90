//! The local agent API: running tunnels and captured HTTP requests.
//!
//! Requests carry no credentials and always ask for JSON (the agent answers XML to an
//! `Accept: application/xml`). Names and IDs are encoded path segments: tunnel names contain
//! spaces (`t1 (http)`).

use reqwest::Method;
use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::http::{encode_segment, Http};

/// Is this error answer the management API's rather than a local agent's (the agent URL
/// pointed at the management API)? Its errors carry an `ERR_NGROK_…` code and an operation ID
/// (a 401 first of all: the agent is sent no key); an agent's never do.
pub fn is_management_answer(_status: u16, body: &[u8]) -> bool {
    let Ok(Value::Object(error)) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    let code = error.get("error_code").and_then(Value::as_str);
    let operation = error
        .get("details")
        .and_then(|d| d.get("operation_id"))
        .and_then(Value::as_str);
    code.is_some_and(|c| c.starts_with("ERR_NGROK_"))
        || operation.is_some_and(|o| o.starts_with("op_"))
}

/// A client of the local agent API.
pub struct AgentClient {
    http: Http,
}

impl AgentClient {
    /// Wraps an HTTP layer set up for the agent.
    pub fn new(http: Http) -> Self {
        AgentClient { http }
    }

    fn url(&self, segs: &[&str]) -> reqwest::Url {
        self.http.url(segs)
    }

    /// Adds what an agent error means to the user.
    fn explain(e: Error) -> Error {
        match e {
            Error::Api(mut f) if f.status == 503 => {
                f.hint = Some(
                    "The agent is running but has no session with the tunnel service yet, so it cannot start tunnels; \
                     check its connection and try again in a moment."
                        .into(),
                );
                Error::Api(f)
            }
            Error::Api(mut f) if f.status == 502 && f.code.as_deref() == Some("103") => {
                f.hint = Some(
                    "The agent could not reach the tunnel service to start the tunnel.".into(),
                );
                Error::Api(f)
            }
            other => other,
        }
    }

    async fn json(
        &self,
        method: Method,
        url: &reqwest::Url,
        body: Option<&Value>,
    ) -> Result<Value> {
        self.http
            .json_value(method, url, body)
            .await
            .map_err(Self::explain)
    }

    async fn no_content(
        &self,
        method: Method,
        url: &reqwest::Url,
        body: Option<&Value>,
    ) -> Result<()> {
        self.http
            .send(method, url, body)
            .await
            .map(|_| ())
            .map_err(Self::explain)
    }

    /// Every running tunnel, sorted by name (the agent answers in random order).
    pub async fn tunnels(&self) -> Result<Vec<Value>> {
        let url = self.url(&["tunnels"]);
        let mut tunnels = match self.json(Method::GET, &url, None).await? {
            Value::Object(mut page) => match page.remove("tunnels") {
                Some(Value::Array(t)) => t,
                Some(Value::Null) | None => Vec::new(),
                Some(_) => return Err(bad_shape("GET", &url, "tunnels")),
            },
            _ => return Err(bad_shape("GET", &url, "tunnels")),
        };
        tunnels.sort_by(|a, b| name_of(a).cmp(name_of(b)));
        Ok(tunnels)
    }

    /// One tunnel.
    pub async fn tunnel(&self, name: &str) -> Result<Value> {
        let seg = encode_segment("tunnel name", name)?;
        self.json(Method::GET, &self.url(&["tunnels", &seg]), None)
            .await
    }

    /// Starts a tunnel from its configuration.
    pub async fn start(&self, config: &Value) -> Result<Value> {
        self.json(Method::POST, &self.url(&["tunnels"]), Some(config))
            .await
    }

    /// Stops a tunnel.
    pub async fn stop(&self, name: &str) -> Result<()> {
        let seg = encode_segment("tunnel name", name)?;
        self.no_content(Method::DELETE, &self.url(&["tunnels", &seg]), None)
            .await
    }

    fn requests_url(&self, limit: Option<usize>, tunnel: Option<&str>) -> reqwest::Url {
        let mut url = self.url(&["requests", "http"]);
        {
            let mut q = url.query_pairs_mut();
            if let Some(n) = limit {
                q.append_pair("limit", &n.to_string());
            }
            if let Some(t) = tunnel {
                q.append_pair("tunnel_name", t);
            }
        }
        if url.query() == Some("") {
            url.set_query(None);
        }
        url
    }

    /// Captured requests, newest first, as values (for completions, which read only their IDs).
    pub async fn requests(&self, limit: Option<usize>, tunnel: Option<&str>) -> Result<Vec<Value>> {
        let url = self.requests_url(limit, tunnel);
        match self.json(Method::GET, &url, None).await? {
            Value::Object(mut page) => match page.remove("requests") {
                Some(Value::Array(r)) => Ok(r),
                Some(Value::Null) | None => Ok(Vec::new()),
                Some(_) => Err(bad_shape("GET", &url, "requests")),
            },
            _ => Err(bad_shape("GET", &url, "requests")),
        }
    }

    /// Captured requests as the agent's own JSON text, for output that passes them through
    /// unchanged: lists of large bodies are never turned into values, so memory stays near the
    /// size of the answer.
    pub async fn requests_raw(
        &self,
        limit: Option<usize>,
        tunnel: Option<&str>,
    ) -> Result<RawList> {
        let url = self.requests_url(limit, tunnel);
        let body = self
            .http
            .send(Method::GET, &url, None)
            .await
            .map_err(Self::explain)?
            .body;
        Ok(RawList { body, url })
    }

    /// One captured request, as the agent's JSON text (checked to be JSON, not made a value:
    /// its caller reads it once into its own type and may print it unchanged).
    pub async fn request(&self, id: &str) -> Result<String> {
        let seg = encode_segment("request ID", id)?;
        let url = self.url(&["requests", "http", &seg]);
        let answer = self
            .http
            .send(Method::GET, &url, None)
            .await
            .map_err(Self::explain)?;
        if answer.body.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::BadResponse(format!(
                "GET {}: the answer has no body, a JSON object was expected",
                url.path()
            )));
        }
        let text = String::from_utf8(answer.body).map_err(|_| not_json(&url, "not UTF-8"))?;
        serde_json::from_str::<&serde_json::value::RawValue>(&text)
            .map_err(|e| not_json(&url, &e.to_string()))?;
        Ok(text)
    }

    /// Replays a captured request, on the tunnel it came from or on `tunnel`.
    pub async fn replay(&self, id: &str, tunnel: Option<&str>) -> Result<()> {
        let mut body = json!({ "id": id });
        if let Some(t) = tunnel {
            body["tunnel_name"] = json!(t);
        }
        self.no_content(Method::POST, &self.url(&["requests", "http"]), Some(&body))
            .await
    }

    /// Deletes every captured request.
    pub async fn clear(&self) -> Result<()> {
        self.no_content(Method::DELETE, &self.url(&["requests", "http"]), None)
            .await
    }
}

/// The body of a list answer, kept as text.
pub struct RawList {
    body: Vec<u8>,
    url: reqwest::Url,
}

#[derive(serde::Deserialize)]
struct RequestsPage<'a> {
    #[serde(borrow, default)]
    requests: Option<&'a serde_json::value::RawValue>,
}

#[derive(serde::Deserialize)]
struct RawItems<'a>(#[serde(borrow)] Vec<&'a serde_json::value::RawValue>);

impl RawList {
    /// The `requests` array as the agent wrote it (`[]` when absent).
    pub fn array(&self) -> Result<&str> {
        let page: RequestsPage<'_> = serde_json::from_slice(&self.body).map_err(|e| {
            Error::BadResponse(format!(
                "GET {}: the answer is not valid JSON ({e})",
                self.url.path()
            ))
        })?;
        match page.requests {
            Some(raw) if raw.get().starts_with('[') => Ok(raw.get()),
            Some(raw) if raw.get() == "null" => Ok("[]"),
            None => Ok("[]"),
            Some(_) => Err(bad_shape("GET", &self.url, "requests")),
        }
    }

    /// Each request of the array as the agent wrote it.
    pub fn items(&self) -> Result<Vec<&str>> {
        let array = self.array()?;
        let items: RawItems<'_> = serde_json::from_str(array).map_err(|e| {
            Error::BadResponse(format!(
                "GET {}: the answer is not valid JSON ({e})",
                self.url.path()
            ))
        })?;
        Ok(items.0.into_iter().map(|r| r.get()).collect())
    }
}

/// The `name` of a tunnel ("" when missing).
pub fn name_of(tunnel: &Value) -> &str {
    tunnel.get("name").and_then(Value::as_str).unwrap_or("")
}

fn not_json(url: &reqwest::Url, why: &str) -> Error {
    Error::BadResponse(format!(
        "GET {}: the answer is not valid JSON ({why})",
        url.path()
    ))
}

fn bad_shape(method: &str, url: &reqwest::Url, field: &str) -> Error {
    Error::BadResponse(format!(
        "{method} {}: the answer has no '{field}' list",
        url.path()
    ))
}
