//! Event destinations (`/event_destinations`) and their targets.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::fields::{usual_limits, Count, OwnFields};
use super::validate::{Checked, Invalid};
use super::Resource;
use crate::output::columns::{col, detail_col, table_col, Cell, Column, Kind, ALWAYS};

/// The collection.
pub const RESOURCE: Resource = Resource {
    path: &["event_destinations"],
    collection: "event_destinations",
    id_name: "event destination ID",
    prefix: "ed_",
    article: "an",
    command: "tunnelctl event-destinations",
    kind: &Kind {
        noun: "event destination",
        plural: "event destinations",
        columns: &[
            col("ID", "id", Cell::Text, ALWAYS),
            col("DESCRIPTION", "description", Cell::Free, 3),
            // TSV and detail views keep FORMAT where it was; tables show it last (below).
            detail_col("FORMAT", "format", Cell::Text),
            detail_col("TARGET", "target", Cell::Target),
            // The kind of target and the name in its ARN tell destinations apart where their
            // ARNs do not fit.
            table_col("TYPE", "target", Cell::TargetType, 2),
            table_col("TARGET", "target", Cell::TargetArn, 2),
            Column {
                stands_in_for: Some("TARGET"),
                ..table_col("TARGET NAME", "target", Cell::TargetName, 2)
            },
            col("AUTH", "target", Cell::Auth, 5),
            col("METADATA", "metadata", Cell::Free, 6),
            col("CREATED", "created_at", Cell::Time, 3),
            // The same for every destination today (`json`): it tells none apart, so it comes
            // after what does.
            table_col("FORMAT", "format", Cell::Text, 7),
        ],
    },
    summary: &["description"],
    text: usual_limits(Count::Bytes),
};

/// The members an EventTarget may have; exactly one is set.
pub const TARGET_MEMBERS: &[&str] = &["firehose", "kinesis", "cloudwatch_logs", "s3", "datadog"];

/// The own fields of an event destination: how and where its events are delivered.
#[derive(Debug, Default, Serialize)]
pub struct Delivery {
    /// Serialization of events; only `json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Where and how events are sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Value>,
}

impl OwnFields for Delivery {
    /// Checks the API reference's rules: `format` only `json`, exactly one target member and,
    /// for the AWS members, exactly one of `role` and `creds`.
    fn validate(&self) -> Checked {
        if let Some(f) = &self.format {
            if f != "json" {
                return Err(Invalid {
                    field: "format",
                    reason: format!("'{f}' is not accepted; the only format is 'json'"),
                });
            }
        }
        if let Some(t) = &self.target {
            validate_target(t)?;
        }
        Ok(())
    }
}

/// The kind of AWS target, with its resource name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AwsTarget {
    /// A Kinesis stream.
    Kinesis(String),
    /// A Firehose delivery stream.
    Firehose(String),
    /// A CloudWatch Logs log group.
    CloudwatchLogs(String),
}

/// How the service authenticates to AWS.
#[derive(Clone, PartialEq, Eq)]
pub enum AwsAuth {
    /// An IAM role the service assumes.
    Role(String),
    /// A long-term access key.
    Creds {
        /// The ID part.
        access_key_id: String,
        /// The secret part.
        secret_access_key: String,
    },
}

impl std::fmt::Debug for AwsAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AwsAuth::Role(r) => f.debug_tuple("Role").field(r).finish(),
            AwsAuth::Creds { access_key_id, .. } => f
                .debug_struct("Creds")
                .field("access_key_id", access_key_id)
                .field("secret_access_key", &"(redacted)")
                .finish(),
        }
    }
}

/// The EventTarget JSON for an AWS target and its auth.
pub fn aws_target(target: &AwsTarget, auth: &AwsAuth) -> Value {
    let auth = match auth {
        AwsAuth::Role(arn) => json!({"role": {"role_arn": arn}}),
        AwsAuth::Creds {
            access_key_id,
            secret_access_key,
        } => {
            json!({"creds": {"aws_access_key_id": access_key_id, "aws_secret_access_key": secret_access_key}})
        }
    };
    match target {
        AwsTarget::Kinesis(arn) => json!({"kinesis": {"auth": auth, "stream_arn": arn}}),
        AwsTarget::Firehose(arn) => json!({"firehose": {"auth": auth, "delivery_stream_arn": arn}}),
        AwsTarget::CloudwatchLogs(arn) => {
            json!({"cloudwatch_logs": {"auth": auth, "log_group_arn": arn}})
        }
    }
}

fn invalid(reason: impl Into<String>) -> Invalid {
    Invalid {
        field: "target",
        reason: reason.into(),
    }
}

/// Checks an EventTarget: an object with exactly one non-null member, and for AWS members an
/// object with exactly one of `role`/`creds` in `auth`.
pub fn validate_target(target: &Value) -> Checked {
    let Value::Object(map) = target else {
        return Err(invalid(
            "must be a JSON object such as {\"kinesis\": {...}}",
        ));
    };
    let set: Vec<(&String, &Value)> = map.iter().filter(|(_, v)| !v.is_null()).collect();
    let [(name, member)] = set.as_slice() else {
        return Err(invalid(format!(
            "exactly one member must be set (one of {}), found {}",
            TARGET_MEMBERS.join(", "),
            set.len()
        )));
    };
    if !matches!(name.as_str(), "firehose" | "kinesis" | "cloudwatch_logs") {
        // Other members (s3, datadog, later ones) are the server's to check.
        return Ok(());
    }
    let Value::Object(member) = member else {
        return Err(invalid(format!("'{name}' must be an object")));
    };
    let auth = member
        .get("auth")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            invalid(format!(
                "'{name}' needs an 'auth' object with 'role' or 'creds'"
            ))
        })?;
    check_auth(name, auth)
}

fn check_auth(name: &str, auth: &Map<String, Value>) -> Checked {
    let role = auth.get("role").is_some_and(|v| !v.is_null());
    let creds = auth.get("creds").is_some_and(|v| !v.is_null());
    if role == creds {
        return Err(invalid(format!(
            "the auth of '{name}' must have exactly one of 'role' and 'creds'"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let t = aws_target(
            &AwsTarget::Kinesis("arn:k".into()),
            &AwsAuth::Role("arn:r".into()),
        );
        assert!(validate_target(&t).is_ok());
        assert!(validate_target(&json!({"kinesis": null, "firehose": null})).is_err());
        assert!(
            validate_target(&json!({"kinesis": {"auth": {}}, "firehose": {"auth": {}}})).is_err()
        );
        assert!(validate_target(&json!({"kinesis": {"auth": {"role": {}, "creds": {}}}})).is_err());
        assert!(validate_target(&json!({"s3": {"bucket": "b"}})).is_ok());
        assert!(validate_target(&json!([1])).is_err());
    }

    #[test]
    fn debug_hides_the_secret() {
        let a = AwsAuth::Creds {
            access_key_id: "AKIA".into(),
            secret_access_key: "s3cr3t".into(),
        };
        assert!(!format!("{a:?}").contains("s3cr3t"));
    }
}
