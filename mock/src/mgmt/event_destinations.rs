//! Event destinations: CRUD with the API reference's rules on the target (exactly one member, exactly
//! one AWS auth, the ARN required), `json` as the only format, secrets never echoed, and no
//! deleting a destination a subscription still uses.

use serde_json::{json, Map, Value};

use super::crud::{head, Changes, Collection, Editable};
use super::request::Ctx;
use crate::api_error::{code, ApiError};
use crate::input::{set_given, Fields, Unit};
use crate::store::{Destination, Store};

const MEMBERS: &[&str] = &["firehose", "kinesis", "cloudwatch_logs", "s3", "datadog"];

/// The event destinations collection.
pub struct Destinations;

/// What a create or update body of a destination sets beyond description and metadata
/// (`target` as responses show it).
pub struct Delivery {
    format: Option<String>,
    target: Option<Value>,
}

impl Collection for Destinations {
    type Item = Destination;
    const NOUN: &'static str = "event destination";
    const KEY: &'static str = "event_destinations";
    const PATH: &'static str = "/event_destinations";

    fn render(_: &Store, d: &Destination, ctx: &Ctx<'_>) -> Value {
        let mut out = head(ctx, Self::PATH, &d.id, &d.created_at);
        out.insert("description".into(), json!(d.description));
        out.insert("metadata".into(), json!(d.metadata));
        out.insert("format".into(), json!(d.format));
        out.insert("target".into(), d.target.clone());
        ctx.finish(out)
    }
}

impl Editable for Destinations {
    const PREFIX: &'static str = "ed_";
    const FIELDS: &'static [&'static str] = &["description", "metadata", "format", "target"];
    const REQUIRED: &'static [&'static str] = &["target"];
    type Own = Delivery;

    fn read(_: &Store, f: &Fields<'_>) -> Result<Changes<Delivery>, ApiError> {
        Changes::read(f, (255, 4096), Unit::Bytes, || {
            Ok(Delivery {
                format: format(f)?.map(str::to_string),
                target: f.object("target")?.map(target).transpose()?,
            })
        })
    }

    fn build(id: String, created_at: String, c: Changes<Delivery>) -> Destination {
        Destination {
            id,
            created_at,
            description: c.description.unwrap_or_default(),
            metadata: c.metadata.unwrap_or_default(),
            format: c.own.format.unwrap_or_else(|| "json".to_string()),
            // Never null: `target` is required on create.
            target: c.own.target.unwrap_or_default(),
        }
    }

    fn apply(d: &mut Destination, c: Changes<Delivery>) {
        let own = c.apply_to(&mut d.description, &mut d.metadata);
        set_given(&mut d.format, own.format);
        set_given(&mut d.target, own.target);
    }

    /// Refused while a subscription references the destination.
    fn check_delete(store: &Store, id: &str) -> Result<(), ApiError> {
        match store
            .subscriptions
            .values()
            .find(|s| s.destination_ids.iter().any(|d| d == id))
        {
            None => Ok(()),
            Some(sub) => Err(ApiError::new(
                400,
                code::DESTINATION_IN_USE,
                format!(
                    "The event destination '{id}' is still referenced by the event subscription '{}'.",
                    sub.id
                ),
            )
            .detail("id", id)
            .detail("subscription_id", sub.id.as_str())),
        }
    }
}

fn format<'a>(f: &Fields<'a>) -> Result<Option<&'a str>, ApiError> {
    match f.string("format")? {
        Some(v) if v != "json" => Err(ApiError::invalid(
            "format",
            format!("format must be 'json', the only supported format (got '{v}')."),
        )),
        other => Ok(other),
    }
}

/// Validates a request target and returns the response form: the members firehose, kinesis,
/// cloudwatch_logs and datadog (null but the one set; `s3` only appears when it is the one
/// set), AWS secrets nulled.
fn target(t: &Map<String, Value>) -> Result<Value, ApiError> {
    let f = Fields::nested(t, "target");
    f.only(MEMBERS)?;
    let set: Vec<&str> = MEMBERS.iter().copied().filter(|m| f.is_set(m)).collect();
    let [member] = set.as_slice() else {
        return Err(ApiError::invalid(
            "target",
            format!(
                "target must have exactly one of firehose, kinesis, cloudwatch_logs, s3, datadog set (found {}).",
                if set.is_empty() { "none".to_string() } else { set.join(", ") }
            ),
        ));
    };
    let member = *member;
    let path = format!("target.{member}");
    let body = f.object(member)?.cloned().unwrap_or_default();
    let shown = match member {
        "firehose" => aws_member(&body, &path, "delivery_stream_arn")?,
        "kinesis" => aws_member(&body, &path, "stream_arn")?,
        "cloudwatch_logs" => aws_member(&body, &path, "log_group_arn")?,
        // The API reference does not show these members' fields, so they are kept as given.
        _ => Value::Object(body),
    };
    let mut out = Map::new();
    for m in ["firehose", "kinesis", "cloudwatch_logs", "datadog"] {
        out.insert(
            m.into(),
            if m == member {
                shown.clone()
            } else {
                Value::Null
            },
        );
    }
    if member == "s3" {
        out.insert("s3".into(), shown);
    }
    Ok(Value::Object(out))
}

fn aws_member(body: &Map<String, Value>, path: &str, arn_field: &str) -> Result<Value, ApiError> {
    let f = Fields::nested(body, path);
    f.only(&["auth", arn_field])?;
    let auth_path = format!("{path}.auth");
    let auth = match f.object("auth")? {
        Some(a) => aws_auth(a, &auth_path)?,
        None => {
            return Err(ApiError::invalid(
                &auth_path,
                format!("{auth_path} is required: exactly one of role or creds."),
            ))
        }
    };
    let arn = f.required_string(arn_field)?;
    let mut out = Map::new();
    out.insert("auth".into(), auth);
    out.insert(arn_field.into(), json!(arn));
    Ok(Value::Object(out))
}

fn aws_auth(auth: &Map<String, Value>, path: &str) -> Result<Value, ApiError> {
    let f = Fields::nested(auth, path);
    f.only(&["role", "creds"])?;
    let (role, creds) = (f.object("role")?, f.object("creds")?);
    match (role, creds) {
        (Some(role), None) => {
            let rp = format!("{path}.role");
            let rf = Fields::nested(role, &rp);
            rf.only(&["role_arn"])?;
            let arn = rf.required_string("role_arn")?;
            Ok(json!({"role": {"role_arn": arn}, "creds": null}))
        }
        (None, Some(creds)) => {
            let cp = format!("{path}.creds");
            let cf = Fields::nested(creds, &cp);
            cf.only(&["aws_access_key_id", "aws_secret_access_key"])?;
            let key_id = cf.required_string("aws_access_key_id")?;
            cf.required_string("aws_secret_access_key")?;
            Ok(json!({
                "role": null,
                "creds": {"aws_access_key_id": key_id, "aws_secret_access_key": null},
            }))
        }
        _ => Err(ApiError::invalid(
            path,
            format!("{path} must have exactly one of role or creds set."),
        )),
    }
}
