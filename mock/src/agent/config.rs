//! Checking a tunnel definition (`POST /api/tunnels`) the way the real agent does, and
//! turning it into what the emulator starts: the legs, the normalised `addr` that `config`
//! shows, and the upstream to connect to.
//!
//! The agent reads the body twice: once as JSON into `{name, proto}` (type errors worded by
//! Go's `encoding/json`), then as YAML into the protocol's tunnel definition (type errors
//! worded by go-yaml, with the line of the field), then validates and normalises `addr`.
//! Every message below was observed on the real agent; SPEC.md lists them.

use serde_json::{Map, Value};

use super::decode::go_kind;

/// The tunnel protocols the agent accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proto {
    /// HTTP: one or two legs (`https` and/or `http`), inspected by default.
    Http,
    /// Raw TCP.
    Tcp,
    /// TLS passed through as raw TCP.
    Tls,
}

/// What kind of listener a leg is, which is also its `proto` in the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LegKind {
    /// The `https` leg of an http tunnel (plain HTTP on loopback in the emulator).
    Https,
    /// The `http` leg of an http tunnel.
    Http,
    /// A tcp tunnel.
    Tcp,
    /// A tls tunnel.
    Tls,
}

impl LegKind {
    /// The `proto` the API shows.
    pub fn proto(self) -> &'static str {
        match self {
            LegKind::Https => "https",
            LegKind::Http => "http",
            LegKind::Tcp => "tcp",
            LegKind::Tls => "tls",
        }
    }

    /// Whether traffic on this leg is HTTP that can be inspected.
    pub fn is_http(self) -> bool {
        matches!(self, LegKind::Https | LegKind::Http)
    }
}

/// Where a tunnel forwards to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    /// `host:port` to connect to.
    pub host_port: String,
    /// The upstream expects TLS (`addr` `https://...`), which the emulator does not speak.
    pub tls: bool,
}

/// A validated tunnel definition.
#[derive(Debug, Clone)]
pub struct TunnelSpec {
    /// `config.addr` as the agent normalises it (`http://localhost:8080`).
    pub addr: String,
    /// `config.inspect`.
    pub inspect: bool,
    /// Where connections go.
    pub upstream: Upstream,
    /// The legs to start, by name, first one answered by `POST`.
    pub legs: Vec<(String, LegKind)>,
    /// The public host asked for (`hostname`, or `subdomain` under `tunnel.test`).
    pub host: Option<String>,
}

/// The Go type the agent first decodes a tunnel body into; named in its error messages.
const NAME_PROTO_STRUCT: &str =
    "struct { Proto string \"json:\\\"proto\\\"\"; Name string \"json:\\\"name\\\"\" }";

/// The type of a field of the agent's tunnel definition.
#[derive(Clone, Copy, PartialEq)]
enum FieldType {
    /// Any scalar is read as its text (`8080`, `true`).
    Str,
    Bool,
}

fn field_type(proto: Proto, key: &str) -> Option<FieldType> {
    use FieldType::*;
    let common = match key {
        "addr" | "metadata" | "name" | "proto" => Some(Str),
        "inspect" => Some(Bool),
        _ => None,
    };
    common.or(match (proto, key) {
        (
            Proto::Http,
            "auth" | "host_header" | "subdomain" | "hostname" | "crt" | "key" | "client_cas"
            | "bind_tls",
        ) => Some(Str),
        (Proto::Tcp, "remote_addr") => Some(Str),
        (Proto::Tls, "subdomain" | "hostname" | "crt" | "key" | "client_cas") => Some(Str),
        _ => None,
    })
}

/// Validates a `POST /api/tunnels` body (its first JSON value; `raw` for line numbers).
/// The error is the text of `details.err`.
pub fn parse(value: &Value, raw: &[u8]) -> Result<TunnelSpec, String> {
    let empty = Map::new();
    let map = match value {
        Value::Object(m) => m,
        Value::Null => &empty,
        other => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type {NAME_PROTO_STRUCT}",
                go_kind(other)
            ))
        }
    };
    // Pass 1: {name, proto} as JSON strings, in document order.
    for (key, v) in map {
        if (key == "name" || key == "proto") && !matches!(v, Value::String(_) | Value::Null) {
            return Err(format!(
                "json: cannot unmarshal {} into Go struct field .{key} of type string",
                go_kind(v)
            ));
        }
    }
    let text = |key: &str| map.get(key).map(scalar_text).unwrap_or_default();
    let proto_name = text("proto");
    let proto = match proto_name.as_str() {
        "http" => Proto::Http,
        "tcp" => Proto::Tcp,
        "tls" => Proto::Tls,
        other => return Err(format!("Invalid protocol name '{other}'")),
    };
    // Pass 2: the protocol's definition, as YAML would type it.
    let mut yaml_errors = Vec::new();
    for (key, v) in map {
        let Some(ty) = field_type(proto, key) else {
            continue;
        };
        if let Some(e) = yaml_type_error(ty, v) {
            yaml_errors.push(format!("  line {}: {e}", line_of_key(raw, key)));
        }
    }
    if !yaml_errors.is_empty() {
        return Err(format!(
            "yaml: unmarshal errors:\n{}",
            yaml_errors.join("\n")
        ));
    }
    let name = text("name");
    if name.is_empty() {
        return Err("Tunnel declaration must contain a 'name'".to_string());
    }
    let addr_given = text("addr");
    if addr_given.is_empty() {
        return Err(format!("Tunnel '{name}' must specify 'addr' to tunnel to"));
    }
    let (addr, upstream) = match proto {
        Proto::Http => normalize_http(&name, &addr_given)?,
        Proto::Tcp => normalize_tcp(&name, &addr_given)?,
        Proto::Tls => normalize_tls(&name, &addr_given)?,
    };
    let inspect = match map.get("inspect") {
        Some(Value::Bool(b)) => *b,
        _ => proto == Proto::Http,
    };
    if inspect && proto != Proto::Http {
        let kind = if proto == Proto::Tcp { "TCP" } else { "TLS" };
        return Err(format!("{kind} tunnel '{name}' cannot inspect traffic"));
    }
    let legs = match proto {
        Proto::Http => match map.get("bind_tls") {
            None | Some(Value::Null) => vec![
                (name.clone(), LegKind::Https),
                (format!("{name} (http)"), LegKind::Http),
            ],
            Some(Value::Bool(true)) => vec![(name.clone(), LegKind::Https)],
            Some(Value::Bool(false)) => vec![(name.clone(), LegKind::Http)],
            Some(Value::String(s)) if s == "both" => vec![
                (name.clone(), LegKind::Https),
                (format!("{name} (http)"), LegKind::Http),
            ],
            Some(Value::String(s)) if s == "true" => vec![(name.clone(), LegKind::Https)],
            Some(Value::String(s)) if s == "false" => vec![(name.clone(), LegKind::Http)],
            Some(other) => {
                return Err(format!(
                    "HTTP tunnel '{name}' specifies invalid 'bind_tls': {}",
                    go_v(other)
                ))
            }
        },
        Proto::Tcp => vec![(name.clone(), LegKind::Tcp)],
        Proto::Tls => vec![(name.clone(), LegKind::Tls)],
    };
    let host = if proto == Proto::Tcp {
        None
    } else {
        let hostname = text("hostname");
        let subdomain = text("subdomain");
        if !hostname.is_empty() {
            Some(hostname)
        } else if !subdomain.is_empty() {
            Some(format!("{subdomain}.tunnel.test"))
        } else {
            None
        }
    };
    Ok(TunnelSpec {
        addr,
        inspect,
        upstream,
        legs,
        host,
    })
}

/// A scalar as YAML would read it into a string field (`8080` -> "8080", `true` -> "true").
fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

/// go-yaml's complaint about a value of the wrong type, if any.
fn yaml_type_error(ty: FieldType, v: &Value) -> Option<String> {
    let tag = match v {
        Value::Null => return None,
        Value::Array(_) => return Some(format!("cannot unmarshal !!seq into {}", ty_name(ty))),
        Value::Object(_) => return Some(format!("cannot unmarshal !!map into {}", ty_name(ty))),
        Value::String(s) => ("!!str", s.clone()),
        Value::Bool(b) => ("!!bool", b.to_string()),
        Value::Number(n) if n.is_f64() => ("!!float", n.to_string()),
        Value::Number(n) => ("!!int", n.to_string()),
    };
    match (ty, v) {
        (FieldType::Str, _) | (FieldType::Bool, Value::Bool(_)) => None,
        (FieldType::Bool, _) => Some(format!("cannot unmarshal {} `{}` into bool", tag.0, tag.1)),
    }
}

fn ty_name(ty: FieldType) -> &'static str {
    match ty {
        FieldType::Str => "string",
        FieldType::Bool => "bool",
    }
}

/// The line (1-based) on which `"key":` first appears in the body.
fn line_of_key(raw: &[u8], key: &str) -> usize {
    let needle = format!("\"{key}\"");
    let mut from = 0;
    while let Some(pos) = find(&raw[from..], needle.as_bytes()) {
        let at = from + pos;
        let rest = &raw[at + needle.len()..];
        let next = rest.iter().find(|b| !b.is_ascii_whitespace());
        if next == Some(&b':') {
            return 1 + raw[..at].iter().filter(|&&b| b == b'\n').count();
        }
        from = at + needle.len();
    }
    1
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Go's `%v` of a decoded JSON value.
fn go_v(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".to_string(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(a) => format!("[{}]", a.iter().map(go_v).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut items: Vec<String> =
                m.iter().map(|(k, v)| format!("{k}:{}", go_v(v))).collect();
            items.sort();
            format!("map[{}]", items.join(" "))
        }
    }
}

/// Go's `net.SplitHostPort`, enough of it to decide as the agent does.
fn split_host_port(s: &str) -> Option<(&str, &str)> {
    if let Some(rest) = s.strip_prefix('[') {
        let close = rest.find(']')?;
        // The host keeps its brackets: callers only test it for emptiness and odd characters.
        let host = &s[..close + 2];
        let port = rest[close + 1..].strip_prefix(':')?;
        if port.contains(':') {
            return None;
        }
        return Some((host, port));
    }
    let colon = s.rfind(':')?;
    let host = &s[..colon];
    if host.contains(':') {
        return None;
    }
    Some((host, &s[colon + 1..]))
}

/// A host the agent calls "strange": anything but letters, digits, `-`, `.`, `_`, or an
/// IPv6 literal in brackets.
fn strange_host(host: &str) -> bool {
    if host.starts_with('[') && host.ends_with(']') {
        return !host[1..host.len() - 1]
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
    }
    !host
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

fn is_integer(s: &str) -> bool {
    s.parse::<i64>().is_ok()
}

/// The upstream `host:port` of a `host[:port]` authority; an empty host is the loopback.
fn upstream_of(hostport: &str, tls: bool) -> Upstream {
    let host_port = match hostport.strip_prefix(':') {
        Some(port) => format!("127.0.0.1:{port}"),
        None => hostport.to_string(),
    };
    Upstream { host_port, tls }
}

fn normalize_http(name: &str, addr: &str) -> Result<(String, Upstream), String> {
    let malformed = |why: &str| {
        format!("Tunnel '{name}' specifies an invalid or malformed address '{addr}': {why}")
    };
    let s = if is_integer(addr) {
        format!("localhost:{addr}")
    } else {
        addr.to_string()
    };
    if let Some((scheme, rest)) = s.split_once("://") {
        let default_port = match scheme {
            "http" => "80",
            "https" => "443",
            other => {
                return Err(format!(
                    "Tunnel '{name}' specifies a URL with an unsupported scheme: {other}"
                ))
            }
        };
        let (hostport, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if hostport.is_empty() {
            return Err(malformed("malformed URL"));
        }
        if !path.is_empty() && path != "/" {
            return Err(format!(
                "Tunnel '{name}' specifies a path '{path}', this is unsupported"
            ));
        }
        let (host, hostport) = match split_host_port(hostport) {
            Some((host, port)) => {
                if !port.bytes().all(|b| b.is_ascii_digit()) || port.is_empty() {
                    return Err(malformed("port not a number?"));
                }
                (host.to_string(), hostport.to_string())
            }
            None => (hostport.to_string(), format!("{hostport}:{default_port}")),
        };
        if strange_host(&host) {
            return Err(malformed("strange hostname"));
        }
        let shown = format!("{scheme}://{hostport}{path}");
        return Ok((shown, upstream_of(&hostport, scheme == "https")));
    }
    let hostport = match split_host_port(&s) {
        Some((host, port)) => {
            if !is_integer(port) {
                return Err(malformed("port not a number?"));
            }
            if !port.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed(&format!(
                    "parse \"http://{s}\": invalid port \":{port}\" after host"
                )));
            }
            if strange_host(host) {
                return Err(malformed("strange hostname"));
            }
            s.clone()
        }
        None => {
            if strange_host(&s) {
                return Err(malformed("strange hostname"));
            }
            format!("{s}:80")
        }
    };
    Ok((format!("http://{hostport}"), upstream_of(&hostport, false)))
}

fn normalize_tcp(name: &str, addr: &str) -> Result<(String, Upstream), String> {
    let s = if is_integer(addr) {
        format!("localhost:{addr}")
    } else {
        addr.to_string()
    };
    if s.starts_with("http://") || s.starts_with("https://") {
        return Err(format!(
            "Tunnel '{name}' specifies a URL instead of a host address: {addr}"
        ));
    }
    match split_host_port(&s) {
        None => Err(format!(
            "Tunnel '{name}' specifies an invalid or malformed address: {addr}"
        )),
        Some(("", port)) => {
            let shown = format!("localhost:{port}");
            Ok((shown.clone(), upstream_of(&shown, false)))
        }
        Some(_) => Ok((s.clone(), upstream_of(&s, false))),
    }
}

fn normalize_tls(name: &str, addr: &str) -> Result<(String, Upstream), String> {
    let s = if is_integer(addr) {
        format!("localhost:{addr}")
    } else {
        addr.to_string()
    };
    // A host and a numeric port: `tls://` is put in front, except (as observed) when the
    // host is empty, where only `localhost` is filled in.
    if let Some((host, port)) = split_host_port(&s) {
        if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
            if host.is_empty() {
                let shown = format!("localhost:{port}");
                return Ok((shown.clone(), upstream_of(&shown, false)));
            }
            return Ok((format!("tls://{s}"), upstream_of(&s, false)));
        }
    }
    let scheme = url_scheme(&s).unwrap_or_default();
    if scheme == "tls" {
        let hostport = s
            .split_once("://")
            .map_or(s.as_str(), |(_, rest)| rest)
            .to_string();
        return Ok((s.clone(), upstream_of(&hostport, false)));
    }
    Err(format!(
        "Tunnel '{name}' specifies an invalid or malformed address '{addr}': unsupported scheme for tls tunnel: {scheme}"
    ))
}

/// The scheme Go's `url.Parse` finds in `s` (`""` when there is none); `None` when `url.Parse`
/// fails ("missing protocol scheme", "first path segment in URL cannot contain colon").
fn url_scheme(s: &str) -> Option<String> {
    let no_scheme = |s: &str| {
        let first_segment = s.split('/').next().unwrap_or("");
        if first_segment.contains(':') {
            None
        } else {
            Some(String::new())
        }
    };
    for (i, c) in s.char_indices() {
        if c.is_ascii_alphabetic() {
            continue;
        }
        if c.is_ascii_digit() || matches!(c, '+' | '-' | '.') {
            if i == 0 {
                return no_scheme(s);
            }
            continue;
        }
        if c == ':' {
            if i == 0 {
                return None;
            }
            return Some(s[..i].to_ascii_lowercase());
        }
        return no_scheme(s);
    }
    no_scheme(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn addr_of(proto: &str, addr: Value) -> Result<String, String> {
        let body = json!({"name": "t", "proto": proto, "addr": addr});
        let raw = serde_json::to_vec(&body).unwrap();
        parse(&body, &raw).map(|s| s.addr)
    }

    #[test]
    fn http_addresses_normalise_like_the_agent() {
        for (given, shown) in [
            (json!("8080"), "http://localhost:8080"),
            (json!(8080), "http://localhost:8080"),
            (json!("localhost:8080"), "http://localhost:8080"),
            (json!("http://127.0.0.1:8080"), "http://127.0.0.1:8080"),
            (json!("https://127.0.0.1:8443"), "https://127.0.0.1:8443"),
            (json!("abc"), "http://abc:80"),
            (json!(true), "http://true:80"),
            (json!(":84"), "http://:84"),
            (json!("localhost"), "http://localhost:80"),
            (json!("http://localhost"), "http://localhost:80"),
            (json!("99999"), "http://localhost:99999"),
            (json!("https://x.example"), "https://x.example:443"),
            (json!("[::1]:80"), "http://[::1]:80"),
            (json!("http://localhost:8080/"), "http://localhost:8080/"),
        ] {
            assert_eq!(
                addr_of("http", given.clone()).as_deref(),
                Ok(shown),
                "{given}"
            );
        }
        let bad = "Tunnel 't' specifies an invalid or malformed address";
        for (given, err) in [
            (
                "http://x.example:81/path",
                "Tunnel 't' specifies a path '/path', this is unsupported".to_string(),
            ),
            ("foo bar", format!("{bad} 'foo bar': strange hostname")),
            (
                "ftp://x:1",
                "Tunnel 't' specifies a URL with an unsupported scheme: ftp".to_string(),
            ),
            ("x:y", format!("{bad} 'x:y': port not a number?")),
            ("http://", format!("{bad} 'http://': malformed URL")),
            (
                "-1",
                format!(
                    "{bad} '-1': parse \"http://localhost:-1\": invalid port \":-1\" after host"
                ),
            ),
        ] {
            assert_eq!(addr_of("http", json!(given)), Err(err), "{given}");
        }
    }

    #[test]
    fn tcp_and_tls_addresses() {
        let bad = "Tunnel 't' specifies an invalid or malformed address";
        let url = "Tunnel 't' specifies a URL instead of a host address";
        let tls = "unsupported scheme for tls tunnel";
        for (proto, given, expected) in [
            ("tcp", "22", Ok("localhost:22".to_string())),
            ("tcp", ":84", Ok("localhost:84".into())),
            ("tcp", "host:x", Ok("host:x".into())),
            (
                "tcp",
                "tcp://localhost:22",
                Err(format!("{bad}: tcp://localhost:22")),
            ),
            (
                "tcp",
                "http://localhost:22",
                Err(format!("{url}: http://localhost:22")),
            ),
            ("tls", "443", Ok("tls://localhost:443".into())),
            ("tls", ":84", Ok("localhost:84".into())),
            ("tls", "127.0.0.1:443", Ok("tls://127.0.0.1:443".into())),
            (
                "tls",
                "a.b:1/x",
                Err(format!("{bad} 'a.b:1/x': {tls}: a.b")),
            ),
            ("tls", "localhost:443", Ok("tls://localhost:443".into())),
            ("tls", "host", Err(format!("{bad} 'host': {tls}: "))),
        ] {
            assert_eq!(addr_of(proto, json!(given)), expected, "{proto} {given}");
        }
    }

    #[test]
    fn type_errors_name_the_line() {
        let raw = b"{\"name\":\"t\",\n\"proto\":\"tcp\",\n\"addr\":\"80\",\n\"inspect\":\"y\"}";
        let v: Value = serde_json::from_slice(raw).unwrap();
        assert_eq!(
            parse(&v, raw).unwrap_err(),
            "yaml: unmarshal errors:\n  line 4: cannot unmarshal !!str `y` into bool"
        );
        let v = json!([]);
        assert!(parse(&v, b"[]").unwrap_err().starts_with(
            "json: cannot unmarshal array into Go value of type struct { Proto string"
        ));
        let v = json!({"name": 7, "proto": "tcp"});
        assert_eq!(
            parse(&v, b"").unwrap_err(),
            "json: cannot unmarshal number into Go struct field .name of type string"
        );
        let v = json!(null);
        assert_eq!(parse(&v, b"null").unwrap_err(), "Invalid protocol name ''");
    }
}
