//! The TLS termination module of a TLS edge: set (PUT), read and remove, with the API reference's rule
//! that `min_version` must be null when TLS terminates upstream.
//!
//! Edges themselves are not managed by this API; they exist only when seeded.

use serde_json::{json, Map, Value};

use super::crud::{find, find_mut, Collection};
use super::request::{ApiRequest, Ctx, Reply};
use crate::api_error::{code, ApiError};
use crate::input::Fields;
use crate::store::{Store, TlsEdge, TlsModule};

const MIN_VERSIONS: &[&str] = &["1.0", "1.1", "1.2", "1.3"];

/// The seeded TLS edges, whose module is all the API manages of them.
pub struct TlsEdges;

impl Collection for TlsEdges {
    type Item = TlsEdge;
    const NOUN: &'static str = "TLS edge";
    const KEY: &'static str = "tls_edges";
    const PATH: &'static str = "/edges/tls";

    fn render(_: &Store, e: &TlsEdge, ctx: &Ctx<'_>) -> Value {
        json!({"id": e.id, "tls_termination": e.module.as_ref().map(|m| render(m, ctx))})
    }
}

/// The module as the API shows it.
pub fn render(m: &TlsModule, ctx: &Ctx<'_>) -> Value {
    let mut out = Map::new();
    out.insert("enabled".into(), json!(m.enabled));
    out.insert("terminate_at".into(), json!(m.terminate_at));
    out.insert("min_version".into(), json!(m.min_version));
    ctx.finish(out)
}

/// Validates a module body (PUT, or a seeded edge's `module`).
pub fn parse_module(f: &Fields<'_>) -> Result<TlsModule, ApiError> {
    f.only(&["enabled", "terminate_at", "min_version"])?;
    let enabled = f.boolean("enabled")?.unwrap_or(true);
    let terminate_at = f.string("terminate_at")?.unwrap_or("edge");
    if terminate_at != "edge" && terminate_at != "upstream" {
        return Err(ApiError::invalid(
            &f.path("terminate_at"),
            format!("terminate_at must be 'edge' or 'upstream' (got '{terminate_at}')."),
        ));
    }
    let min_version = f.string("min_version")?;
    if let Some(v) = min_version {
        if !MIN_VERSIONS.contains(&v) {
            return Err(ApiError::invalid(
                &f.path("min_version"),
                format!("min_version must be one of 1.0, 1.1, 1.2, 1.3 or null (got '{v}')."),
            ));
        }
        if terminate_at == "upstream" {
            return Err(ApiError::invalid(
                &f.path("min_version"),
                "min_version must be null when terminate_at is 'upstream'.",
            ));
        }
    }
    Ok(TlsModule {
        enabled,
        terminate_at: terminate_at.to_string(),
        min_version: min_version.map(str::to_string),
    })
}

fn no_module(id: &str) -> ApiError {
    ApiError::new(
        404,
        code::NOT_FOUND,
        format!("The TLS edge '{id}' has no tls_termination module."),
    )
    .detail("id", id)
}

/// `GET /edges/tls/{id}/tls_termination`.
pub fn get(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let e = find::<TlsEdges>(store, id)?;
    let m = e.module.as_ref().ok_or_else(|| no_module(id))?;
    Ok(Reply::Json(200, render(m, ctx)))
}

/// `PUT /edges/tls/{id}/tls_termination`.
pub fn put(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let e = find_mut::<TlsEdges>(store, id)?;
    let body = req.json()?;
    let module = parse_module(&Fields::root(&body))?;
    let shown = render(&module, ctx);
    e.module = Some(module);
    Ok(Reply::Json(200, shown))
}

/// `DELETE /edges/tls/{id}/tls_termination`.
pub fn delete(store: &mut Store, id: &str) -> Result<Reply, ApiError> {
    let e = find_mut::<TlsEdges>(store, id)?;
    e.module.take().ok_or_else(|| no_module(id))?;
    Ok(Reply::NoContent)
}
