//! The TLS termination module of a TLS edge (`/edges/tls/{id}/tls_termination`).

use serde::Serialize;
use serde_json::Value;

use super::validate::{Checked, Invalid};
use super::{Client, Seg};
use crate::error::Result;

/// The minimum TLS versions the service takes. The API reference lists none; these are the
/// emulator's, the reference for what the service accepts. `edges tls-termination set` and the
/// account files are checked against this one list before anything is sent.
pub const MIN_VERSIONS: &[&str] = &["1.0", "1.1", "1.2", "1.3"];

/// Why `v` is not a minimum TLS version the service takes, if it is not.
pub fn min_version_problem(v: &str) -> Option<String> {
    if MIN_VERSIONS.contains(&v) {
        return None;
    }
    Some(format!(
        "'{}' is not a TLS version the service takes: one of {}",
        crate::escape::escape(v),
        MIN_VERSIONS.join(", ")
    ))
}

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
            if let Some(reason) = min_version_problem(v) {
                return Err(Invalid {
                    field: "min_version",
                    reason,
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

    #[test]
    fn only_the_versions_the_service_takes_are_sent() {
        for (v, ok) in [
            ("1.2", true),
            ("1.3", true),
            ("1.4", false),
            ("", false),
            ("1.2 ", false),
        ] {
            let mut m = TlsTermination {
                min_version: Some(Some(v.into())),
                ..Default::default()
            };
            assert_eq!(m.validate().is_ok(), ok, "{v:?}");
        }
    }
}
