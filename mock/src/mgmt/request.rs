//! What every management API handler speaks: the authenticated request it reads, the reply it
//! gives, and the context that renders resources (base URL, quirks switched on).
//!
//! A leaf of `mgmt/`, so that the resource modules, the CRUD engine and paging depend on it
//! rather than on the route table that depends on them.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use crate::api_error::{json_response, ApiError};
use crate::input::parse_object;
use crate::shared::Config;

/// What rendering needs to know: where the API lives and which quirks are switched on.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// Base URL for `uri` fields.
    pub base: &'a str,
    /// Whether to add `x_future_field` to resources.
    pub extra_fields: bool,
    /// Default page size.
    pub page_size: usize,
    /// Base for `next_page_uri`, when not `base`.
    pub next_page_base: Option<&'a str>,
}

impl<'a> Ctx<'a> {
    /// The context for the current settings.
    pub fn new(base: &'a str, cfg: &'a Config) -> Self {
        Ctx {
            base,
            extra_fields: cfg.extra_fields,
            page_size: cfg.page_size,
            next_page_base: cfg.next_page_base.as_deref(),
        }
    }

    /// Absolute URL of a path.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A `{id, uri}` reference to `{collection_path}/{id}`.
    pub fn reference(&self, collection_path: &str, id: &str) -> Value {
        json!({"id": id, "uri": self.url(&format!("{collection_path}/{id}"))})
    }

    /// Adds the unknown field to a rendered resource when `extra_fields` is on.
    pub fn finish(&self, mut resource: Map<String, Value>) -> Value {
        if self.extra_fields {
            resource.insert(
                "x_future_field".to_string(),
                json!({"added": "later", "n": [1, 2]}),
            );
        }
        Value::Object(resource)
    }
}

/// An authenticated API request, ready for a handler.
#[derive(Debug)]
pub struct ApiRequest<'a> {
    /// HTTP method, upper case.
    pub method: &'a str,
    /// Percent-decoded path segments.
    pub segments: &'a [String],
    /// Raw query string.
    pub query: Option<&'a str>,
    /// `Content-Type` header.
    pub content_type: Option<&'a str>,
    /// Body bytes.
    pub body: &'a [u8],
}

impl ApiRequest<'_> {
    /// The body as a JSON object (see [`parse_object`]).
    pub fn json(&self) -> Result<Map<String, Value>, ApiError> {
        parse_object(self.content_type, self.body)
    }
}

/// A successful answer.
#[derive(Debug)]
pub enum Reply {
    /// A JSON body with this status.
    Json(u16, Value),
    /// 204, no body.
    NoContent,
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        match self {
            Reply::NoContent => StatusCode::NO_CONTENT.into_response(),
            Reply::Json(status, value) => json_response(status, &value),
        }
    }
}
