//! Connecting to the team store as `psql` would: the URL's parts, the password from the URL,
//! `PGPASSWORD` or the password file (`PGPASSFILE`, else `~/.pgpass`), and TLS through rustls.
//!
//! TLS is secure by default. A server that is not on this machine (not a socket, not a
//! loopback address) is reached over TLS only, its certificate checked against the platform's
//! roots or `sslrootcert`, host name included (`verify-full`), whatever weaker `sslmode` the
//! URL names (`require` checks the certificate too); only an explicit `sslmode=disable` sends
//! in plain. On this machine libpq's defaults hold: TLS when the server offers it, unchecked
//! unless `verify-ca` or `verify-full` is asked.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use tokio_postgres::config::{Config, SslMode as WireSsl};

use super::pg_error::{connect_failure, unreachable_at};
use crate::error::{Error, Result};
use crate::escape::escape_path;
use crate::parse::history_url::{PgHost, SslMode};
use crate::parse::HistoryUrl;

/// How long a connection may take when the URL sets no `connect_timeout`.
const CONNECT_WAIT: Duration = Duration::from_secs(10);

/// How the certificate of a server is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CertCheck {
    /// No TLS (a socket, or `sslmode=disable`).
    Plain,
    /// TLS when offered (`prefer`) or required, the certificate not checked (libpq's
    /// `prefer` and `require`, on this machine only).
    Unchecked { required: bool },
    /// TLS, the chain checked (`verify-ca`).
    Chain,
    /// TLS, the chain and the host name checked (`verify-full`).
    Full,
}

/// How a URL's server is reached (see the module's doc).
fn check_of(url: &HistoryUrl) -> CertCheck {
    if matches!(url.host, PgHost::Socket(_) | PgHost::Default) {
        return CertCheck::Plain;
    }
    match (url.sslmode, url.is_local()) {
        (Some(SslMode::Disable), _) => CertCheck::Plain,
        (Some(SslMode::VerifyCa), _) => CertCheck::Chain,
        (Some(SslMode::VerifyFull), _) => CertCheck::Full,
        (Some(SslMode::Require), true) => CertCheck::Unchecked { required: true },
        (None | Some(SslMode::Allow | SslMode::Prefer), true) => {
            CertCheck::Unchecked { required: false }
        }
        (_, false) => CertCheck::Full,
    }
}

/// An open connection: the client, and the task that drives its socket.
pub struct Connection {
    /// The client.
    pub client: tokio_postgres::Client,
    /// The role logged in as.
    pub user: String,
}

/// Connects to the server of `url` (exit 6 naming host and port when it cannot be reached; 3
/// when it refuses the login or the database).
pub async fn connect(url: &HistoryUrl) -> Result<Connection> {
    let mut config = Config::new();
    let user = url.user.clone().unwrap_or_else(login_name);
    config.user(&user);
    let dbname = url.dbname.clone().unwrap_or_else(|| user.clone());
    config.dbname(&dbname);
    match &url.host {
        PgHost::Tcp(h) => config.host(h),
        PgHost::Socket(dir) => config.host_path(dir),
        PgHost::Default => config.host_path(default_socket_folder()),
    };
    config.port(url.port);
    config.application_name(url.application_name.as_deref().unwrap_or("tunnelctl"));
    let wait = url.connect_timeout.unwrap_or(CONNECT_WAIT);
    config.connect_timeout(wait);
    let host_for_file = match &url.host {
        PgHost::Tcp(h) => h.clone(),
        PgHost::Socket(dir) => dir.display().to_string(),
        PgHost::Default => "localhost".into(),
    };
    if let Some(password) = password(url, &host_for_file, &dbname, &user)? {
        config.password(password);
    }
    let check = check_of(url);
    let failed = |e: tokio_postgres::Error| connect_failure(url, &e);
    let connect = async {
        match check {
            CertCheck::Plain => {
                config.ssl_mode(WireSsl::Disable);
                let (client, conn) = config
                    .connect(tokio_postgres::NoTls)
                    .await
                    .map_err(failed)?;
                tokio::spawn(async move { drop(conn.await) });
                Ok::<_, Error>(client)
            }
            _ => {
                config.ssl_mode(match check {
                    CertCheck::Unchecked { required: false } => WireSsl::Prefer,
                    _ => WireSsl::Require,
                });
                let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls_config(url, check)?);
                let (client, conn) = config.connect(tls).await.map_err(failed)?;
                tokio::spawn(async move { drop(conn.await) });
                Ok(client)
            }
        }
    };
    // The connect timeout bounds each step; this bounds the whole, TLS and login included.
    let client = match tokio::time::timeout(wait + wait, connect).await {
        Ok(r) => r?,
        Err(_) => {
            return Err(unreachable_at(
                url,
                &format!("no answer within {} s", (wait + wait).as_secs()),
            ))
        }
    };
    Ok(Connection { client, user })
}

/// The user's login name, libpq's default role.
fn login_name() -> String {
    ["USER", "LOGNAME", "USERNAME"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "postgres".into())
}

/// libpq's socket folder on Debian (and most Linux packages), else its built-in `/tmp`.
fn default_socket_folder() -> PathBuf {
    let debian = Path::new("/var/run/postgresql");
    if debian.is_dir() {
        debian.to_path_buf()
    } else {
        PathBuf::from("/tmp")
    }
}

/// The password: the URL's, else `PGPASSWORD`, else the password file's line for this host,
/// port, database and user.
fn password(url: &HistoryUrl, host: &str, db: &str, user: &str) -> Result<Option<String>> {
    if let Some(p) = &url.password {
        return Ok(Some(p.clone()));
    }
    if let Some(p) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        crate::secrets::register_secret(&p);
        return Ok(Some(p));
    }
    let file = match std::env::var_os("PGPASSFILE").filter(|f| !f.is_empty()) {
        Some(f) => PathBuf::from(f),
        None => match directories::BaseDirs::new() {
            Some(d) => d.home_dir().join(".pgpass"),
            None => return Ok(None),
        },
    };
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(_) => return Ok(None),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // libpq ignores a password file others may read; so does tunnelctl, and says why.
        if let Ok(m) = std::fs::metadata(&file) {
            if m.permissions().mode() & 0o077 != 0 {
                return Err(Error::Config(format!(
                    "the password file {} may be read by others (mode {:o}); make it 0600 \
                     (chmod 600), as libpq asks",
                    escape_path(&file),
                    m.permissions().mode() & 0o777
                )));
            }
        }
    }
    let found = pgpass_lookup(&text, host, url.port, db, user);
    if let Some(p) = &found {
        crate::secrets::register_secret(p);
    }
    Ok(found)
}

/// The password of the first line of a password file that matches (`*` matches anything;
/// `\:` and `\\` are a colon and a backslash).
fn pgpass_lookup(text: &str, host: &str, port: u16, db: &str, user: &str) -> Option<String> {
    let port = port.to_string();
    for line in text.lines() {
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = Vec::new();
        let mut field = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => field.extend(chars.next()),
                ':' if fields.len() < 4 => fields.push(std::mem::take(&mut field)),
                c => field.push(c),
            }
        }
        fields.push(field);
        if fields.len() != 5 {
            continue;
        }
        let is = |f: &str, v: &str| f == "*" || f == v;
        let host_matches =
            is(&fields[0], host) || (fields[0] == "localhost" && host.starts_with('/'));
        if host_matches && is(&fields[1], &port) && is(&fields[2], db) && is(&fields[3], user) {
            return Some(fields[4].clone());
        }
    }
    None
}

/// The TLS set-up for `check`: the platform's roots, or `sslrootcert`'s certificates.
fn tls_config(url: &HistoryUrl, check: CertCheck) -> Result<rustls::ClientConfig> {
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
    let tls_error =
        |e: String| Error::Config(format!("could not set up TLS for the history store: {e}"));
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error(e.to_string()))?;
    let checked: Arc<dyn ServerCertVerifier> = match &url.sslrootcert {
        Some(file) => {
            use rustls::pki_types::pem::PemObject;
            let mut roots = rustls::RootCertStore::empty();
            let certs = CertificateDer::pem_file_iter(file).map_err(|e| {
                Error::Config(format!(
                    "the history URL's sslrootcert {} cannot be read: {e}",
                    escape_path(file)
                ))
            })?;
            for cert in certs {
                let cert = cert.map_err(|e| {
                    Error::Config(format!(
                        "the history URL's sslrootcert {} is not PEM certificates: {e}",
                        escape_path(file)
                    ))
                })?;
                roots.add(cert).map_err(|e| {
                    Error::Config(format!(
                        "the history URL's sslrootcert {} holds a certificate rustls refuses: {e}",
                        escape_path(file)
                    ))
                })?;
            }
            rustls::client::WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots),
                provider.clone(),
            )
            .build()
            .map_err(|e| tls_error(e.to_string()))?
        }
        None => Arc::new(
            rustls_platform_verifier::Verifier::new(provider.clone())
                .map_err(|e| tls_error(e.to_string()))?,
        ),
    };
    let verifier: Arc<dyn ServerCertVerifier> = match check {
        CertCheck::Full | CertCheck::Plain => checked,
        CertCheck::Chain => Arc::new(Lenient {
            inner: checked,
            chain: true,
        }),
        CertCheck::Unchecked { .. } => Arc::new(Lenient {
            inner: checked,
            chain: false,
        }),
    };
    Ok(builder
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// A verifier that lets a certificate through without its host name (`verify-ca`: `chain`),
/// or without any check of it (libpq's `prefer` and `require` on this machine), the
/// handshake's signatures still checked.
#[derive(Debug)]
struct Lenient {
    inner: Arc<dyn ServerCertVerifier>,
    chain: bool,
}

impl ServerCertVerifier for Lenient {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        if !self.chain {
            return Ok(ServerCertVerified::assertion());
        }
        match self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_servers_go_unchecked() {
        let url = |u: &str| crate::parse::parse_history_url(u).unwrap();
        assert_eq!(
            check_of(&url("postgres://db.example.com/x")),
            CertCheck::Full
        );
        assert_eq!(
            check_of(&url("postgres://db.example.com/x?sslmode=require")),
            CertCheck::Full
        );
        assert_eq!(
            check_of(&url("postgres://db.example.com/x?sslmode=disable")),
            CertCheck::Plain
        );
        assert_eq!(
            check_of(&url("postgres://127.0.0.1/x")),
            CertCheck::Unchecked { required: false }
        );
        assert_eq!(
            check_of(&url("postgres://localhost/x?sslmode=verify-ca")),
            CertCheck::Chain
        );
        assert_eq!(check_of(&url("postgres:///x?host=/tmp")), CertCheck::Plain);
    }

    #[test]
    fn the_password_file_is_read_as_libpq_reads_it() {
        let text = "# comment\nother:5432:*:me:nope\ndb\\:x:*:caps:me:pa\\:ss\n*:5433:*:*:any\n";
        assert_eq!(
            pgpass_lookup(text, "db:x", 5432, "caps", "me").as_deref(),
            Some("pa:ss")
        );
        assert_eq!(
            pgpass_lookup(text, "h", 5433, "d", "u").as_deref(),
            Some("any")
        );
        assert_eq!(pgpass_lookup(text, "h", 5432, "d", "u"), None);
    }
}
