//! The team store's address (`history_url`): a PostgreSQL URL in libpq's form, read as `psql`
//! reads it, so that a URL a team already uses works as it is.
//!
//! `postgres://` or `postgresql://`, then `user:password@`, a host (a name, an address, `[::1]`,
//! or a socket folder percent-encoded: `%2Fvar%2Frun%2Fpostgresql`), `:port`, `/dbname`, and
//! the parameters `host` (a socket folder), `port`, `dbname`, `user`, `password`, `sslmode`,
//! `sslrootcert`, `connect_timeout` and `application_name`. Anything else is refused, as libpq
//! refuses it, rather than ignored.
//!
//! The password is part of the URL, and the URL part of settings that are shown: an error here
//! never repeats the text it was given, and [`HistoryUrl::shown`] is the URL without it.

use std::path::PathBuf;
use std::time::Duration;

/// Where the server is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgHost {
    /// A host name or an IP address (without brackets), over TCP.
    Tcp(String),
    /// The folder of a Unix socket.
    Socket(PathBuf),
    /// None given: libpq's default socket folder.
    Default,
}

/// libpq's `sslmode`, as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// Plain.
    Disable,
    /// libpq: plain first, TLS when the server insists.
    Allow,
    /// libpq: TLS when the server offers it.
    Prefer,
    /// TLS, its certificate unchecked by libpq.
    Require,
    /// TLS, the certificate's chain checked.
    VerifyCa,
    /// TLS, the chain and the host name checked.
    VerifyFull,
}

impl SslMode {
    /// As written in a URL.
    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Allow => "allow",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    fn parse(s: &str) -> Option<SslMode> {
        [
            SslMode::Disable,
            SslMode::Allow,
            SslMode::Prefer,
            SslMode::Require,
            SslMode::VerifyCa,
            SslMode::VerifyFull,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

/// A PostgreSQL URL, read.
#[derive(Clone, PartialEq, Eq)]
pub struct HistoryUrl {
    /// The role to log in as (none: the login name, as libpq does).
    pub user: Option<String>,
    /// The password, when the URL holds one.
    pub password: Option<String>,
    /// The server.
    pub host: PgHost,
    /// Its port.
    pub port: u16,
    /// The database (none: named as the user, as libpq does).
    pub dbname: Option<String>,
    /// `sslmode`, when given.
    pub sslmode: Option<SslMode>,
    /// `sslrootcert`: the CA certificates (PEM) a server's certificate is checked against.
    pub sslrootcert: Option<PathBuf>,
    /// `connect_timeout`.
    pub connect_timeout: Option<Duration>,
    /// `application_name`.
    pub application_name: Option<String>,
}

/// `Debug` without the password.
impl std::fmt::Debug for HistoryUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown())
    }
}

/// libpq's port.
pub const DEFAULT_PORT: u16 = 5432;

impl HistoryUrl {
    /// The URL as it may be shown: everything but the password (`…(redacted)` in its place).
    pub fn shown(&self) -> String {
        let enc = |s: &str| {
            percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC)
                .to_string()
                .replace("%2D", "-")
                .replace("%2E", ".")
                .replace("%5F", "_")
        };
        let mut out = String::from("postgres://");
        if let Some(user) = &self.user {
            out.push_str(&enc(user));
        }
        if self.password.is_some() {
            out.push_str(":…(redacted)");
        }
        if self.user.is_some() || self.password.is_some() {
            out.push('@');
        }
        let mut query: Vec<String> = Vec::new();
        match &self.host {
            PgHost::Tcp(h) if h.contains(':') => out.push_str(&format!("[{h}]")),
            PgHost::Tcp(h) => out.push_str(h),
            PgHost::Socket(dir) => query.push(format!("host={}", enc(&dir.to_string_lossy()))),
            PgHost::Default => {}
        }
        if self.port != DEFAULT_PORT {
            out.push_str(&format!(":{}", self.port));
        }
        out.push('/');
        if let Some(db) = &self.dbname {
            out.push_str(&enc(db));
        }
        if let Some(m) = self.sslmode {
            query.push(format!("sslmode={}", m.as_str()));
        }
        if let Some(p) = &self.sslrootcert {
            query.push(format!("sslrootcert={}", enc(&p.to_string_lossy())));
        }
        if !query.is_empty() {
            out.push('?');
            out.push_str(&query.join("&"));
        }
        out
    }

    /// Where the server is, as a message names it: `host:port`, or the socket's path.
    pub fn place(&self) -> String {
        match &self.host {
            PgHost::Tcp(h) if h.contains(':') => format!("[{h}]:{}", self.port),
            PgHost::Tcp(h) => format!("{h}:{}", self.port),
            PgHost::Socket(dir) => format!("{}/.s.PGSQL.{}", dir.display(), self.port),
            PgHost::Default => format!("the default socket, port {}", self.port),
        }
    }

    /// Is the server on this machine (a socket, or a loopback address or `localhost`), where
    /// the traffic never leaves it and a plain connection is allowed?
    pub fn is_local(&self) -> bool {
        match &self.host {
            PgHost::Socket(_) | PgHost::Default => true,
            PgHost::Tcp(h) => {
                h.eq_ignore_ascii_case("localhost")
                    || h.parse::<std::net::IpAddr>()
                        .is_ok_and(|ip| ip.is_loopback())
            }
        }
    }
}

/// Reads a PostgreSQL URL. The error says what is wrong without repeating the URL (it may
/// hold a password).
pub fn parse_history_url(text: &str) -> Result<HistoryUrl, String> {
    let text = text.trim();
    let rest = text
        .strip_prefix("postgresql://")
        .or_else(|| text.strip_prefix("postgres://"))
        .ok_or_else(|| {
            "the history URL must start with postgres:// or postgresql:// (e.g. \
             postgres://recorder@db.example.com/captures)"
                .to_string()
        })?;
    let (main, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, db) = main.split_once('/').unwrap_or((main, ""));
    let (userinfo, hostport) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let mut url = HistoryUrl {
        user: None,
        password: None,
        host: PgHost::Default,
        port: DEFAULT_PORT,
        dbname: None,
        sslmode: None,
        sslrootcert: None,
        connect_timeout: None,
        application_name: None,
    };
    if let Some(info) = userinfo {
        let (user, password) = match info.split_once(':') {
            Some((u, p)) => (u, Some(p)),
            None => (info, None),
        };
        url.user = Some(decode(user, "the user name")?).filter(|u| !u.is_empty());
        url.password = password.map(|p| decode(p, "the password")).transpose()?;
    }
    if hostport.contains(',') {
        return Err("the history URL names several hosts; give one".into());
    }
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let (addr, after) = v6
            .split_once(']')
            .ok_or("the history URL's [IPv6 address] is not closed with ]")?;
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return Err("the history URL has text after its ]: give :PORT".into()),
        };
        (addr.to_string(), port)
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (decode(h, "the host")?, Some(p)),
            None => (decode(hostport, "the host")?, None),
        }
    };
    url.host = host_of(&host);
    if let Some(p) = port.filter(|p| !p.is_empty()) {
        url.port = port_of(p)?;
    }
    if !db.is_empty() {
        url.dbname = Some(decode(db, "the database name")?);
    }
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(key, "a parameter's name")?;
        let value = decode(value, "a parameter's value")?;
        match key.as_str() {
            "host" => url.host = host_of(&value),
            "port" => url.port = port_of(&value)?,
            "dbname" => url.dbname = Some(value).filter(|v| !v.is_empty()),
            "user" => url.user = Some(value).filter(|v| !v.is_empty()),
            "password" => url.password = Some(value),
            "sslmode" => {
                url.sslmode = Some(SslMode::parse(&value).ok_or_else(|| {
                    format!(
                        "the history URL's sslmode '{}' is not one of disable, allow, prefer, \
                         require, verify-ca, verify-full",
                        value.escape_default()
                    )
                })?)
            }
            "sslrootcert" => url.sslrootcert = Some(PathBuf::from(value)),
            "connect_timeout" => {
                let secs: u64 = value.trim().parse().map_err(|_| {
                    "the history URL's connect_timeout is not a whole number of seconds".to_string()
                })?;
                url.connect_timeout = (secs > 0).then(|| Duration::from_secs(secs));
            }
            "application_name" => url.application_name = Some(value),
            other => {
                return Err(format!(
                    "the history URL's parameter '{}' is not one tunnelctl reads (host, port, \
                     dbname, user, password, sslmode, sslrootcert, connect_timeout, \
                     application_name)",
                    other.escape_default()
                ))
            }
        }
    }
    Ok(url)
}

/// A host as given: a path is a socket folder.
fn host_of(host: &str) -> PgHost {
    if host.is_empty() {
        PgHost::Default
    } else if host.starts_with('/') {
        PgHost::Socket(PathBuf::from(host))
    } else {
        PgHost::Tcp(host.to_string())
    }
}

fn port_of(p: &str) -> Result<u16, String> {
    match p.trim().parse::<u16>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "the history URL's port '{}' is not a port number (1 to 65535)",
            p.escape_default()
        )),
    }
}

/// Percent-decodes a part of the URL; `what` names it in the error (never its text: it may
/// be the password).
fn decode(s: &str, what: &str) -> Result<String, String> {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map(|c| c.into_owned())
        .map_err(|_| format!("{what} in the history URL is not UTF-8 once percent-decoded"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libpq_urls() {
        let u = parse_history_url(
            "postgresql://rec:p%40ss@db.example.com:6543/captures?sslmode=verify-ca&sslrootcert=/ca.pem",
        )
        .unwrap();
        assert_eq!(u.user.as_deref(), Some("rec"));
        assert_eq!(u.password.as_deref(), Some("p@ss"));
        assert_eq!(u.host, PgHost::Tcp("db.example.com".into()));
        assert_eq!((u.port, u.dbname.as_deref()), (6543, Some("captures")));
        assert_eq!(u.sslmode, Some(SslMode::VerifyCa));
        assert!(!u.is_local());
        assert!(!u.shown().contains("p@ss") && !u.shown().contains("p%40ss"));
        assert_eq!(
            u.shown(),
            "postgres://rec:…(redacted)@db.example.com:6543/captures?sslmode=verify-ca&sslrootcert=%2Fca.pem"
        );
        let s = parse_history_url("postgres:///h?host=%2Ftmp%2Fpg&user=me").unwrap();
        assert_eq!(s.host, PgHost::Socket("/tmp/pg".into()));
        assert!(s.is_local());
        let v6 = parse_history_url("postgres://[::1]:7/x").unwrap();
        assert_eq!((v6.host.clone(), v6.port), (PgHost::Tcp("::1".into()), 7));
        assert!(v6.is_local());
        assert!(parse_history_url("postgres://%2Fvar%2Frun/x")
            .unwrap()
            .is_local());
    }

    #[test]
    fn wrong_urls_are_refused_without_repeating_them() {
        for bad in [
            "mysql://u:hunter2secret@h/db",
            "postgres://u:hunter2secret@h:99999/db",
            "postgres://u:hunter2secret@a,b/db",
            "postgres://u:hunter2secret@h/db?sslmode=maybe",
            "postgres://u:hunter2secret@h/db?colour=blue",
        ] {
            let e = parse_history_url(bad).unwrap_err();
            assert!(!e.contains("hunter2"), "{e}");
        }
    }
}
