//! The TLS termination module of a TLS edge (`/edges/tls/{id}/tls_termination`).

use serde::Serialize;
use serde_json::Value;

use super::validate::{Checked, Invalid};
use super::{Client, Seg};
use crate::error::Result;

/// The body of a PUT. Fields left `None` are not sent; `min_version: Some(None)` sends `null`.
#[derive(Debug, Default, Serialize)]
pub struct TlsTermination {
    /// Apply the module to traffic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `edge` or `upstream`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminate_at: Option<String>,
    /// Minimum TLS version; must be null when terminating at the upstream.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_version: Option<Option<String>>,
}

impl TlsTermination {
    /// Checks the API reference's rule: `min_version` is null with `terminate_at: upstream`. With
    /// `upstream` and no version given, it sends the `null` the rule asks for.
    pub fn validate(&mut self) -> Checked {
        if let Some(Some(v)) = &self.min_version {
            if v.trim().is_empty() {
                return Err(Invalid {
                    field: "min_version",
                    reason: "must not be empty (e.g. 1.2 or 1.3)".into(),
                });
            }
        }
        if let Some(t) = &self.terminate_at {
            if t != "edge" && t != "upstream" {
                return Err(Invalid {
                    field: "terminate_at",
                    reason: format!("'{t}' is neither 'edge' nor 'upstream'"),
                });
            }
        }
        if self.terminate_at.as_deref() == Some("upstream") {
            match &self.min_version {
                Some(Some(v)) => {
                    return Err(Invalid {
                        field: "min_version",
                        reason: format!(
                            "cannot be set ('{v}') when terminating at the upstream: TLS passes through to it"
                        ),
                    })
                }
                _ => self.min_version = Some(None),
            }
        }
        Ok(())
    }
}

fn segs(edge_id: &str) -> [Seg<'_>; 4] {
    [
        Seg::Lit("edges"),
        Seg::Lit("tls"),
        Seg::Id("edge ID", edge_id),
        Seg::Lit("tls_termination"),
    ]
}

/// Reads the module of an edge.
pub async fn get(client: &Client, edge_id: &str) -> Result<Value> {
    client.get(&segs(edge_id)).await
}

/// Replaces the module of an edge.
pub async fn set(client: &Client, edge_id: &str, module: &TlsTermination) -> Result<Value> {
    client.put(&segs(edge_id), module).await
}

/// Removes the module of an edge.
pub async fn delete(client: &Client, edge_id: &str) -> Result<()> {
    client.delete(&segs(edge_id)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_sends_a_null_min_version() {
        let mut m = TlsTermination {
            terminate_at: Some("upstream".into()),
            ..Default::default()
        };
        m.validate().unwrap();
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({"terminate_at": "upstream", "min_version": null})
        );
        m.min_version = Some(Some("1.2".into()));
        assert_eq!(m.validate().unwrap_err().field, "min_version");
    }
}
