//! The account files read and checked: every resource they name, in the form the plan
//! compares, or every problem found, each with its file, line and key. Nothing here reaches
//! the network: a bad file is refused before any request.

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::ownership;
use super::section::Section;
use super::spanned::{self, Leaf, Node};
use crate::api::fields::{Count, TextLimits};
use crate::error::Error;
use crate::escape::{escape, escape_path};

/// The largest account file read; a larger one is a mistake (a log, a dump).
pub const MAX_FILE: u64 = 16 * 1024 * 1024;

/// What stands in for an AWS secret wherever a resource is shown or compared: the API never
/// returns one, and no output ever holds one.
pub const SECRET_SHOWN: &str = "(secret)";

/// Where something is written: a file and a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    /// The file, as the user named it (escaped for showing).
    pub file: String,
    /// 1-based line.
    pub line: usize,
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One problem of a file.
#[derive(Debug, Clone)]
pub struct FileProblem {
    /// Where.
    pub spot: Spot,
    /// The key, dotted from the top (`event_destinations.audit.target`).
    pub key: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for FileProblem {
    /// Keys and names come from the file, and reasons quote its values: escaped, as values
    /// read from the service are, so that none can drive the terminal or forge a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.spot,
            escape(&self.key),
            escape(&self.reason)
        )
    }
}

/// One resource as the files want it.
#[derive(Debug, Clone)]
pub struct Wanted {
    /// Its kind.
    pub section: Section,
    /// The name the files give it (for TLS termination: the edge ID).
    pub name: String,
    /// The ID it adopts (for TLS termination: the edge ID).
    pub id: Option<String>,
    /// Its fields in the compared form (what [`super::live`] makes of the account); a subscription's
    /// `destination_ids` as written: names of destinations of the files, or IDs.
    pub form: Map<String, Value>,
    /// The environment variable holding its AWS secret access key, when it has one.
    pub secret_env: Option<String>,
    /// Where it is written.
    pub spot: Spot,
    /// Where its keys that name other resources are written.
    pub lines: KeyLines,
}

/// The lines of the keys of a resource that name other resources (`id`, `destinations`),
/// where a problem with what they name is reported; 0 for a key not written.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyLines {
    /// `id = "…"`.
    pub id: usize,
    /// A subscription's `destinations = [...]`.
    pub destinations: usize,
}

impl Wanted {
    /// Where the key on `line` is written (the resource's table when the key is not).
    pub fn spot_at(&self, line: usize) -> Spot {
        Spot {
            file: self.spot.file.clone(),
            line: if line == 0 { self.spot.line } else { line },
        }
    }
}

/// Every resource the files name.
#[derive(Debug, Default)]
pub struct Desired {
    /// In the order the files give them.
    pub wanted: Vec<Wanted>,
}

impl Desired {
    /// The resources of one kind.
    pub fn of(&self, section: Section) -> impl Iterator<Item = &Wanted> {
        self.wanted.iter().filter(move |w| w.section == section)
    }
}

/// The files named by `-f`: each file, and every `*.toml` in each folder (sorted).
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| {
                Error::usage(format!(
                    "-f {}: cannot read the folder: {e}",
                    escape_path(p)
                ))
            })?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "toml") && f.is_file())
                .collect();
            if found.is_empty() {
                return Err(Error::usage(format!(
                    "-f {}: the folder holds no *.toml file",
                    escape_path(p)
                )));
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Reads and checks the files as one account. Every problem of every file is reported at
/// once (exit 2).
pub fn read(paths: &[PathBuf]) -> Result<Desired, Error> {
    let mut problems = Vec::new();
    let mut desired = Desired::default();
    for path in expand(paths)? {
        let shown = escape_path(&path);
        let text = read_text(&path)?;
        let checked = spanned::parse(&text, |root| {
            Checker {
                file: &shown,
                problems: &mut problems,
            }
            .file(root, &mut desired);
        });
        match checked {
            Ok(()) => {}
            Err((line, msg)) => problems.push(FileProblem {
                spot: Spot { file: shown, line },
                key: "(syntax)".into(),
                reason: format!("not valid TOML: {msg}"),
            }),
        }
    }
    across_files(&desired, &mut problems);
    if problems.is_empty() {
        Ok(desired)
    } else {
        Err(refused(&problems))
    }
}

/// The usage error listing `problems`.
pub fn refused(problems: &[FileProblem]) -> Error {
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    Error::usage(format!(
        "the account files have {} problem(s); nothing was sent:\n{}",
        problems.len(),
        lines.join("\n")
    ))
}

fn read_text(path: &Path) -> Result<String, Error> {
    let shown = escape_path(path);
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::usage(format!("-f {shown}: cannot read it: {e}")))?;
    if !meta.is_file() {
        // A FIFO or a device would hold the read, or never end it.
        return Err(Error::usage(format!("-f {shown}: not a regular file")));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes))
        .map_err(|e| Error::usage(format!("-f {shown}: cannot read it: {e}")))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(Error::usage(format!(
            "-f {shown}: larger than {} MiB; not an account file",
            MAX_FILE / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes).map_err(|_| Error::usage(format!("-f {shown}: not UTF-8 text")))
}

/// Checks what no single file can: a name given twice (in two files), an ID adopted twice,
/// a subscription naming a destination no file has.
fn across_files(desired: &Desired, problems: &mut Vec<FileProblem>) {
    let mut names: HashMap<(Section, &str), &Spot> = HashMap::with_capacity(desired.wanted.len());
    let mut ids: HashMap<&str, (&Spot, &str)> = HashMap::with_capacity(desired.wanted.len());
    for w in &desired.wanted {
        // The key is spelled only for a problem: thousands of resources have none.
        let key = || format!("{}.{}", w.section.table(), w.name);
        if let Some(first) = names.insert((w.section, &w.name), &w.spot) {
            problems.push(FileProblem {
                spot: w.spot.clone(),
                key: key(),
                reason: format!("the name is also given at {first}; each name once"),
            });
        }
        if let (Some(id), true) = (&w.id, w.section.has_metadata()) {
            if let Some((first, other)) = ids.insert(id, (&w.spot, &w.name)) {
                problems.push(FileProblem {
                    spot: w.spot_at(w.lines.id),
                    key: format!("{}.id", key()),
                    reason: format!(
                        "'{id}' is also adopted by '{other}' at {first}; one name per resource"
                    ),
                });
            }
        }
    }
    for w in desired.of(Section::EventSubscriptions) {
        for d in w
            .form
            .get("destination_ids")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(d) = d.as_str() else { continue };
            if is_id(d, "ed_") || names.contains_key(&(Section::EventDestinations, d)) {
                continue;
            }
            problems.push(FileProblem {
                spot: w.spot_at(w.lines.destinations),
                key: format!("event_subscriptions.{}.destinations", w.name),
                reason: format!(
                    "'{d}' is neither a destination of the files ([event_destinations.{d}]) nor an ID (ed_…)"
                ),
            });
        }
    }
}

/// Is `s` an ID with `prefix`?
pub fn is_id(s: &str, prefix: &str) -> bool {
    s.len() > prefix.len() && s.starts_with(prefix)
}

/// Is `s` a name a resource may have: letters, digits, `-` and `_`?
pub fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 128
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Walks one file, noting its problems.
struct Checker<'a> {
    file: &'a str,
    problems: &'a mut Vec<FileProblem>,
}

impl Checker<'_> {
    fn problem(&mut self, line: usize, key: &str, reason: impl Into<String>) {
        self.problems.push(FileProblem {
            spot: Spot {
                file: self.file.to_string(),
                line,
            },
            key: key.to_string(),
            reason: reason.into(),
        });
    }

    fn file(&mut self, root: &Node, desired: &mut Desired) {
        let Leaf::Table(tables) = &root.value else {
            return;
        };
        for (table, node) in tables {
            let Some(section) = Section::from_table(table) else {
                let known: Vec<&str> = Section::ALL.iter().map(|s| s.table()).collect();
                self.problem(
                    node.line,
                    table,
                    format!("unknown table; the tables are {}", known.join(", ")),
                );
                continue;
            };
            let Leaf::Table(items) = &node.value else {
                self.problem(node.line, table, "must be a table of named resources");
                continue;
            };
            for (name, item) in items {
                let key = format!("{table}.{name}");
                if let Some(w) = self.resource(section, name, &key, item) {
                    desired.wanted.push(w);
                }
            }
        }
    }

    fn resource(&mut self, section: Section, name: &str, key: &str, node: &Node) -> Option<Wanted> {
        let before = self.problems.len();
        let Leaf::Table(fields) = &node.value else {
            self.problem(
                node.line,
                key,
                format!("must be a table, not {}", node.value.what()),
            );
            return None;
        };
        if section == Section::TlsTermination {
            if !is_id(name, "edgtls_") || !is_name(name) {
                self.problem(
                    node.line,
                    key,
                    "a TLS termination is keyed by its edge ID (edgtls_…)",
                );
            }
        } else if !is_name(name) {
            self.problem(
                node.line,
                key,
                "a name has letters, digits, '-' and '_' only",
            );
        }
        for (k, v) in fields {
            if !section.keys().contains(k) {
                self.problem(
                    v.line,
                    &format!("{key}.{k}"),
                    format!(
                        "unknown key; {} takes {}",
                        section.table(),
                        section.keys().join(", ")
                    ),
                );
            }
        }
        let get = |k: &str| field(fields, k);
        let mut form = Map::with_capacity(4);
        let mut secret_env = None;
        let id = if section == Section::TlsTermination {
            Some(name.to_string())
        } else {
            self.id(section, key, get("id"))
        };
        if section.has_metadata() {
            let limits = section.resource().and_then(|r| r.text);
            let d = self.text(key, "description", get("description"));
            self.limit(
                key,
                "description",
                get("description"),
                &d,
                limits.map(|l| l.description),
                limits,
            );
            let m = self.text(key, "metadata", get("metadata"));
            let user = ownership::user_value(&m);
            self.limit(
                key,
                "metadata",
                get("metadata"),
                &m,
                limits.map(|l| l.metadata),
                limits,
            );
            self.limit_marked(key, name, get("metadata"), &m, &user, limits);
            form.insert("description".into(), json!(d));
            form.insert("metadata".into(), user);
        }
        match section {
            Section::IpPolicies => {}
            Section::Backends => {
                form.insert("labels".into(), self.labels(key, get("labels")));
            }
            Section::EventDestinations => {
                let format = self.text(key, "format", get("format"));
                if !format.is_empty() && format != "json" {
                    let line = get("format").map_or(node.line, |n| n.line);
                    self.problem(
                        line,
                        &format!("{key}.format"),
                        format!("'{format}' is not accepted; the only format is \"json\""),
                    );
                }
                form.insert("format".into(), json!("json"));
                match get("target") {
                    None => self.problem(
                        node.line,
                        &format!("{key}.target"),
                        "a destination needs a target (kinesis, firehose or cloudwatch_logs)",
                    ),
                    Some(t) => {
                        let (target, env) = self.target(&format!("{key}.target"), t);
                        form.insert("target".into(), target);
                        secret_env = env;
                    }
                }
            }
            Section::EventSubscriptions => {
                let sources = self.strings(key, "sources", get("sources"));
                let mut sources: Vec<String> = sources;
                sources.sort();
                sources.dedup();
                form.insert("sources".into(), json!(sources));
                let mut dests = self.strings(key, "destinations", get("destinations"));
                dests.sort();
                dests.dedup();
                form.insert("destination_ids".into(), json!(dests));
            }
            Section::TlsTermination => self.tls(key, node, fields, &mut form),
        }
        (self.problems.len() == before).then(|| Wanted {
            section,
            name: name.to_string(),
            id,
            form,
            secret_env,
            spot: Spot {
                file: self.file.to_string(),
                line: node.line,
            },
            lines: KeyLines {
                id: get("id").map_or(0, |n| n.line),
                destinations: get("destinations").map_or(0, |n| n.line),
            },
        })
    }

    fn id(&mut self, section: Section, key: &str, node: Option<&Node>) -> Option<String> {
        let node = node?;
        let resource = section.resource()?;
        match &node.value {
            Leaf::Text(s)
                if is_id(s, resource.prefix) && crate::http::encode_segment("ID", s).is_ok() =>
            {
                Some(s.to_string())
            }
            Leaf::Text(s) => {
                self.problem(
                    node.line,
                    &format!("{key}.id"),
                    format!(
                        "'{}' is not {} {} ({}…)",
                        crate::escape::escape(s),
                        resource.article,
                        resource.id_name,
                        resource.prefix
                    ),
                );
                None
            }
            other => {
                self.problem(
                    node.line,
                    &format!("{key}.id"),
                    format!("must be a string, not {}", other.what()),
                );
                None
            }
        }
    }

    /// A string key; "" when absent (the problem noted when it is not a string).
    fn text(&mut self, key: &str, field: &str, node: Option<&Node>) -> String {
        match node.map(|n| (&n.value, n.line)) {
            None => String::new(),
            Some((Leaf::Text(s), _)) => s.to_string(),
            Some((other, line)) => {
                self.problem(
                    line,
                    &format!("{key}.{field}"),
                    format!("must be a string, not {}", other.what()),
                );
                String::new()
            }
        }
    }

    fn limit(
        &mut self,
        key: &str,
        field: &str,
        node: Option<&Node>,
        value: &str,
        max: Option<usize>,
        limits: Option<TextLimits>,
    ) {
        let (Some(node), Some(max), Some(limits)) = (node, max, limits) else {
            return;
        };
        let (len, unit) = measure(value, limits.count);
        if len > max {
            self.problem(
                node.line,
                &format!("{key}.{field}"),
                format!("is {len} {unit} long; at most {max} {unit} are allowed"),
            );
        }
    }

    /// The metadata sent carries the ownership marker too: it must fit with it.
    /// The metadata as sent, with the ownership marker for `name` merged into `user`
    /// (written as `text`), must fit the limit too.
    fn limit_marked(
        &mut self,
        key: &str,
        name: &str,
        node: Option<&Node>,
        text: &str,
        user: &Value,
        limits: Option<TextLimits>,
    ) {
        let (Some(node), Some(limits)) = (node, limits) else {
            return;
        };
        let (own, unit) = measure(text, limits.count);
        let (len, _) = measure(&ownership::merged(user, name), limits.count);
        if own <= limits.metadata && len > limits.metadata {
            self.problem(node.line, &format!("{key}.metadata"), format!("is {len} {unit} long with the ownership marker tunnelctl adds (see the guide); at most {} {unit} are allowed", limits.metadata));
        }
    }

    fn labels(&mut self, key: &str, node: Option<&Node>) -> Value {
        let mut out = Map::new();
        let Some(node) = node else {
            return Value::Object(out);
        };
        let Leaf::Table(entries) = &node.value else {
            self.problem(
                node.line,
                &format!("{key}.labels"),
                format!(
                    "must be a table of strings, such as {{ env = \"prod\" }}, not {}",
                    node.value.what()
                ),
            );
            return Value::Object(out);
        };
        for (k, v) in entries {
            match &v.value {
                Leaf::Text(s) if !k.is_empty() => {
                    out.insert(k.to_string(), json!(s));
                }
                other => self.problem(
                    v.line,
                    &format!("{key}.labels.{k}"),
                    format!(
                        "a label is a non-empty key with a string value, not {}",
                        other.what()
                    ),
                ),
            }
        }
        Value::Object(out)
    }

    fn strings(&mut self, key: &str, field: &str, node: Option<&Node>) -> Vec<String> {
        let Some(node) = node else {
            return Vec::new();
        };
        let Leaf::List(items) = &node.value else {
            self.problem(
                node.line,
                &format!("{key}.{field}"),
                format!("must be an array of strings, not {}", node.value.what()),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            match &item.value {
                Leaf::Text(s) if !s.trim().is_empty() => out.push(s.to_string()),
                other => self.problem(
                    item.line,
                    &format!("{key}.{field}"),
                    format!(
                        "holds {}; each must be a non-empty string",
                        if matches!(other, Leaf::Text(_)) {
                            "an empty string"
                        } else {
                            other.what()
                        }
                    ),
                ),
            }
        }
        out
    }

    /// An event target: exactly one member; an AWS member with its ARN and exactly one auth.
    fn target(&mut self, key: &str, node: &Node) -> (Value, Option<String>) {
        let Leaf::Table(members) = &node.value else {
            self.problem(node.line, key, format!("must be a table with one member (kinesis, firehose or cloudwatch_logs), not {}", node.value.what()));
            return (Value::Null, None);
        };
        if members.len() != 1 {
            let names: Vec<&str> = members.iter().map(|(k, _)| *k).collect();
            self.problem(node.line, key, format!("exactly one member must be set (kinesis, firehose or cloudwatch_logs); found {}", if names.is_empty() { "none".to_string() } else { names.join(", ") }));
            return (Value::Null, None);
        }
        let (member, body) = &members[0];
        let mkey = format!("{key}.{member}");
        let arn_field = match *member {
            "kinesis" => "stream_arn",
            "firehose" => "delivery_stream_arn",
            "cloudwatch_logs" => "log_group_arn",
            // Members whose fields the API reference does not show: kept as written.
            "s3" | "datadog" => {
                if !matches!(body.value, Leaf::Table(_)) {
                    self.problem(
                        body.line,
                        &mkey,
                        format!(
                            "must be a table of the member's fields, not {}",
                            body.value.what()
                        ),
                    );
                    return (Value::Null, None);
                }
                return (json!({ member.to_string(): plain(body) }), None);
            }
            _ => {
                self.problem(body.line, &mkey, "unknown target; one of kinesis, firehose, cloudwatch_logs (s3 and datadog are passed on as written)");
                return (Value::Null, None);
            }
        };
        let Leaf::Table(fields) = &body.value else {
            self.problem(body.line, &mkey, "must be a table");
            return (Value::Null, None);
        };
        for (k, v) in fields {
            if *k != "auth" && *k != arn_field {
                self.problem(
                    v.line,
                    &format!("{mkey}.{k}"),
                    format!("unknown key; {member} takes {arn_field} and auth"),
                );
            }
        }
        let get = |k: &str| field(fields, k);
        let arn = self.text(&mkey, arn_field, get(arn_field));
        if arn.trim().is_empty() {
            self.problem(
                get(arn_field).map_or(body.line, |n| n.line),
                &format!("{mkey}.{arn_field}"),
                "is required (the ARN)",
            );
        }
        let (auth, env) = match get("auth") {
            Some(a) => self.auth(&format!("{mkey}.auth"), a),
            None => {
                self.problem(body.line, &format!("{mkey}.auth"), "is required: exactly one of role = { role_arn = \"…\" } or creds = { aws_access_key_id = \"…\", aws_secret_access_key_env = \"VAR\" }");
                (Value::Null, None)
            }
        };
        (
            json!({ member.to_string(): { arn_field: arn, "auth": auth } }),
            env,
        )
    }

    fn auth(&mut self, key: &str, node: &Node) -> (Value, Option<String>) {
        let Leaf::Table(kinds) = &node.value else {
            self.problem(node.line, key, "must be a table with role or creds");
            return (Value::Null, None);
        };
        if kinds.len() != 1 {
            self.problem(node.line, key, "exactly one of role and creds must be set");
            return (Value::Null, None);
        }
        let (kind, body) = &kinds[0];
        let ckey = format!("{key}.{kind}");
        let Leaf::Table(fields) = &body.value else {
            self.problem(body.line, &ckey, "must be a table");
            return (Value::Null, None);
        };
        let get = |k: &str| field(fields, k);
        let allowed: &[&str] = match *kind {
            "role" => &["role_arn"],
            "creds" => &["aws_access_key_id", "aws_secret_access_key_env"],
            _ => {
                self.problem(body.line, &ckey, "unknown auth; role or creds");
                return (Value::Null, None);
            }
        };
        for (k, v) in fields {
            if *k == "aws_secret_access_key" {
                self.problem(v.line, &format!("{ckey}.{k}"), "a secret is never written in the file: name the environment variable that holds it with aws_secret_access_key_env = \"VAR\"");
            } else if !allowed.contains(k) {
                self.problem(
                    v.line,
                    &format!("{ckey}.{k}"),
                    format!("unknown key; {kind} takes {}", allowed.join(", ")),
                );
            }
        }
        let required = |me: &mut Self, k: &str| {
            let v = me.text(&ckey, k, get(k));
            if v.trim().is_empty() {
                me.problem(
                    get(k).map_or(body.line, |n| n.line),
                    &format!("{ckey}.{k}"),
                    "is required",
                );
            }
            v
        };
        if *kind == "role" {
            let arn = required(self, "role_arn");
            (json!({"role": {"role_arn": arn}}), None)
        } else {
            let key_id = required(self, "aws_access_key_id");
            let env = required(self, "aws_secret_access_key_env");
            if !env.is_empty() && !env.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                self.problem(
                    get("aws_secret_access_key_env").map_or(body.line, |n| n.line),
                    &format!("{ckey}.aws_secret_access_key_env"),
                    "names an environment variable: letters, digits and '_'",
                );
            }
            (
                json!({"creds": {"aws_access_key_id": key_id, "aws_secret_access_key": SECRET_SHOWN}}),
                Some(env),
            )
        }
    }

    fn tls<'a>(
        &mut self,
        key: &str,
        node: &Node,
        fields: &[(&'a str, Node<'a>)],
        form: &mut Map<String, Value>,
    ) {
        let get = |k: &str| field(fields, k);
        let enabled = match get("enabled") {
            None => true,
            Some(Node {
                value: Leaf::Bool(b),
                ..
            }) => *b,
            Some(other) => {
                self.problem(
                    other.line,
                    &format!("{key}.enabled"),
                    format!("must be true or false, not {}", other.value.what()),
                );
                true
            }
        };
        let at = self.text(key, "terminate_at", get("terminate_at"));
        let at = if at.is_empty() {
            "edge".to_string()
        } else {
            at
        };
        if at != "edge" && at != "upstream" {
            self.problem(
                get("terminate_at").map_or(node.line, |n| n.line),
                &format!("{key}.terminate_at"),
                format!("'{at}' is neither \"edge\" nor \"upstream\""),
            );
        }
        let version = get("min_version").map(|_| self.text(key, "min_version", get("min_version")));
        if let Some(v) = &version {
            let line = get("min_version").map_or(node.line, |n| n.line);
            if let Some(reason) = crate::api::tls_termination::min_version_problem(v) {
                self.problem(line, &format!("{key}.min_version"), reason);
            } else if at == "upstream" {
                self.problem(
                    line,
                    &format!("{key}.min_version"),
                    "cannot be set when terminate_at is \"upstream\": TLS passes through to it",
                );
            }
        }
        form.insert("enabled".into(), json!(enabled));
        form.insert("terminate_at".into(), json!(at));
        form.insert("min_version".into(), json!(version));
    }
}

/// The length of `s` as the limits count it, and the unit's name.
fn measure(s: &str, count: Count) -> (usize, &'static str) {
    match count {
        Count::Bytes => (s.len(), "bytes"),
        Count::Chars => (s.chars().count(), "characters"),
    }
}

/// A node as plain JSON (for target members passed on as written).
fn plain(node: &Node) -> Value {
    match &node.value {
        Leaf::Text(s) => json!(s),
        Leaf::Bool(b) => json!(b),
        Leaf::Other(_) => Value::Null,
        Leaf::List(items) => Value::Array(items.iter().map(plain).collect()),
        Leaf::Table(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), plain(v)))
                .collect(),
        ),
    }
}

/// The value of key `k` of a table.
fn field<'a>(fields: &'a [(&'a str, Node<'a>)], k: &str) -> Option<&'a Node<'a>> {
    fields.iter().find(|(n, _)| *n == k).map(|(_, n)| n)
}
