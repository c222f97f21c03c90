//! Event destinations: CRUD with the seeds' rules on the target (exactly one member, exactly
//! one AWS auth, the ARN required), `json` as the only format, secrets never echoed, and no
//! deleting a destination a subscription still uses.

use serde_json::{json, Map, Value};

use super::{list_page, ApiRequest, Ctx, Reply};
use crate::clock;
use crate::errors::{code, ApiError};
use crate::input::{description_metadata, Fields, Unit};
use crate::store::{Destination, Store};

const WHAT: &str = "event destination";
const FIELDS: &[&str] = &["description", "metadata", "format", "target"];
const PATH: &str = "/event_destinations";
const MEMBERS: &[&str] = &["firehose", "kinesis", "cloudwatch_logs", "s3", "datadog"];

/// The destination as the API shows it.
pub fn render(d: &Destination, ctx: &Ctx<'_>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(d.id));
    out.insert("uri".into(), json!(ctx.url(&format!("{PATH}/{}", d.id))));
    out.insert("created_at".into(), json!(d.created_at));
    out.insert("description".into(), json!(d.description));
    out.insert("metadata".into(), json!(d.metadata));
    out.insert("format".into(), json!(d.format));
    out.insert("target".into(), d.target.clone());
    ctx.finish(out)
}

/// `GET /event_destinations`.
pub fn list(store: &Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    list_page(
        &store.destinations,
        req,
        ctx,
        "event_destinations",
        PATH,
        |d| render(d, ctx),
    )
}

/// `GET /event_destinations/{id}`.
pub fn get(store: &Store, id: &str, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let d = store
        .destinations
        .get(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))?;
    Ok(Reply::Json(200, render(d, ctx)))
}

/// `POST /event_destinations`.
pub fn create(store: &mut Store, req: &ApiRequest<'_>, ctx: &Ctx<'_>) -> Result<Reply, ApiError> {
    let body = req.json()?;
    let id = insert(store, &body)?;
    let d = store
        .destinations
        .get(&id)
        .ok_or_else(|| ApiError::not_found(WHAT, &id))?;
    Ok(Reply::Json(201, render(d, ctx)))
}

/// Validates a create body and stores the new destination; also used by seeding.
pub fn insert(store: &mut Store, body: &Map<String, Value>) -> Result<String, ApiError> {
    let f = Fields::root(body);
    f.only(FIELDS)?;
    let (description, metadata) = description_metadata(&f, 255, 4096, Unit::Bytes)?;
    let format = format(&f)?.unwrap_or("json");
    let target = match f.object("target")? {
        Some(t) => target(t)?,
        None => return Err(ApiError::invalid("target", "target is required.")),
    };
    let id = store.ids.next("ed_");
    store.destinations.insert(
        id.clone(),
        Destination {
            id: id.clone(),
            created_at: clock::now(),
            description: description.unwrap_or_default(),
            metadata: metadata.unwrap_or_default(),
            format: format.to_string(),
            target,
        },
    );
    Ok(id)
}

/// `PATCH /event_destinations/{id}`.
pub fn update(
    store: &mut Store,
    req: &ApiRequest<'_>,
    id: &str,
    ctx: &Ctx<'_>,
) -> Result<Reply, ApiError> {
    let dest = store
        .destinations
        .get_mut(id)
        .ok_or_else(|| ApiError::not_found(WHAT, id))?;
    let body = req.json()?;
    let f = Fields::root(&body);
    f.only(FIELDS)?;
    let (description, metadata) = description_metadata(&f, 255, 4096, Unit::Bytes)?;
    let format = format(&f)?;
    let target = f.object("target")?.map(target).transpose()?;
    if let Some(d) = description {
        dest.description = d;
    }
    if let Some(m) = metadata {
        dest.metadata = m;
    }
    if let Some(fm) = format {
        dest.format = fm.to_string();
    }
    if let Some(t) = target {
        dest.target = t;
    }
    Ok(Reply::Json(200, render(dest, ctx)))
}

/// `DELETE /event_destinations/{id}`; refused while a subscription references it.
pub fn delete(store: &mut Store, id: &str) -> Result<Reply, ApiError> {
    if !store.destinations.contains_key(id) {
        return Err(ApiError::not_found(WHAT, id));
    }
    if let Some(sub) = store
        .subscriptions
        .values()
        .find(|s| s.destination_ids.iter().any(|d| d == id))
    {
        return Err(ApiError::new(
            400,
            code::DESTINATION_IN_USE,
            format!(
                "The event destination '{id}' is still referenced by the event subscription '{}'.",
                sub.id
            ),
        )
        .detail("id", id)
        .detail("subscription_id", sub.id.as_str()));
    }
    store.destinations.remove(id);
    Ok(Reply::NoContent)
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
        // The seeds do not show these members' fields, so they are kept as given.
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
