//! `tunnelctl api METHOD PATH`: any request to the management API, with the key and version
//! headers added — for endpoints and fields the commands do not cover yet.

use anyhow::Context as _;
use clap::Args;
use reqwest::Method;
use serde_json::{Map, Value};

use super::{shown_input, value_or_file};
use crate::context::Context;
use crate::error::Error;
use crate::output::columns::RAW;

/// Arguments of `api`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  tunnelctl api GET /ip_policies --paginate --jq '.[].id'
  tunnelctl api POST /ip_policies -f description=office -F metadata='\"{}\"'
  tunnelctl api PATCH /ip_policies/ipp_2Qm… --input patch.json
  tunnelctl api DELETE /ip_policies/ipp_2Qm…

Fields (-f, -F) form the JSON body; on GET and DELETE they become query parameters.
Under --read-only (or read_only in the profile) only GET is sent: any other method may
change the account (POST /tunnel_sessions/ID/restart) and is refused, exit 2.")]
pub struct ApiArgs {
    /// GET, POST, PUT, PATCH or DELETE
    #[arg(value_parser = parse_method)]
    method: Method,
    /// Path under the API URL, with an optional query (e.g. /ip_policies?limit=5)
    path: String,
    /// A string field, KEY=VALUE (repeatable)
    #[arg(short = 'f', long = "raw-field", value_name = "KEY=VALUE", value_parser = parse_string_field)]
    fields: Vec<(String, Value)>,
    /// A typed field, KEY=JSON, e.g. -F enabled=true -F labels='{"env":"prod"}' (repeatable)
    #[arg(short = 'F', long = "field", value_name = "KEY=JSON", value_parser = parse_json_field)]
    typed: Vec<(String, Value)>,
    /// The request body from a file, or - for stdin
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["fields", "typed"])]
    input: Option<String>,
    /// Follow next_page_uri and print every item of every page as one array
    #[arg(long)]
    paginate: bool,
}

fn parse_method(s: &str) -> std::result::Result<Method, String> {
    match s.to_ascii_uppercase().as_str() {
        "GET" => Ok(Method::GET),
        "POST" => Ok(Method::POST),
        "PUT" => Ok(Method::PUT),
        "PATCH" => Ok(Method::PATCH),
        "DELETE" => Ok(Method::DELETE),
        _ => Err(format!("'{s}' is not one of GET, POST, PUT, PATCH, DELETE")),
    }
}

fn split_field(s: &str) -> std::result::Result<(String, &str), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v)),
        _ => Err(format!("'{s}' is not KEY=VALUE")),
    }
}

fn parse_string_field(s: &str) -> std::result::Result<(String, Value), String> {
    let (k, v) = split_field(s)?;
    Ok((k, Value::String(v.to_string())))
}

fn parse_json_field(s: &str) -> std::result::Result<(String, Value), String> {
    let (k, v) = split_field(s)?;
    serde_json::from_str(v)
        .map(|j| (k, j))
        .map_err(|e| format!("the value of '{s}' is not JSON ({e}); use -f for a string"))
}

impl super::Group for ApiArgs {
    const REACHES: super::Reaches = super::Reaches::Management;
    const ECHOES_SECRETS: bool = true;

    async fn run(self, ctx: &crate::context::Context) -> crate::error::CommandResult {
        run(self, ctx).await
    }
}

/// Runs `api`.
pub async fn run(args: ApiArgs, ctx: &Context) -> crate::error::CommandResult {
    // Read-only means "change nothing": every method but GET may change sessions (a restart,
    // a stop, an update are POSTs), so each is refused before anything is read or sent.
    if args.method != Method::GET {
        ctx.refuse_if_read_only(&format!("'api {}' may change sessions", args.method))?;
    }
    let mut fields = Map::new();
    for (k, v) in args.fields.into_iter().chain(args.typed) {
        if fields.insert(k.clone(), v).is_some() {
            return Err(Error::usage(format!("the field '{k}' is given twice")).into());
        }
    }
    let body_method = !matches!(args.method, Method::GET | Method::DELETE);
    let mut path = args.path.clone();
    let body = match &args.input {
        Some(input) => {
            let text = value_or_file("--input", &format!("@{input}"))
                .with_context(|| format!("reading the request body {}", shown_input(input)))?;
            Some(
                serde_json::from_str::<Value>(&text)
                    .map_err(|e| Error::usage(format!("--input: not valid JSON: {e}")))?,
            )
        }
        None if body_method => Some(Value::Object(fields)),
        None => {
            if !fields.is_empty() {
                let mut q = url::form_urlencoded::Serializer::new(String::new());
                for (k, v) in &fields {
                    q.append_pair(k, &v.as_str().map_or_else(|| v.to_string(), str::to_string));
                }
                path.push(if path.contains('?') { '&' } else { '?' });
                path.push_str(&q.finish());
            }
            None
        }
    };
    if args.paginate && args.method != Method::GET {
        return Err(Error::usage("--paginate goes with GET").into());
    }
    let client = ctx.management()?;
    let out = ctx.printer.json_always();
    if args.paginate {
        let pages = client.raw_pages(&path)?;
        super::stream_list(&out, &RAW, pages).await?;
        return Ok(());
    }
    match client.raw(args.method, &path, body.as_ref()).await? {
        Some(v) => Ok(out.object(&RAW, &v)?),
        // 204: nothing to print.
        None => Ok(()),
    }
}
