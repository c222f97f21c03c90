//! Opening the connection a request sent as captured goes over: TCP to the server (or to the
//! proxy the environment names for it), then TLS for an `https://` server, trusting what the
//! API client trusts (the platform's verifier, rustls on ring).
//!
//! Proxies: as the API client does, a server on loopback is always reached directly, and any
//! other follows `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY` (upper or lower
//! case). An `http://` proxy is supported: a plain request is sent to it in absolute form, an
//! `https://` one goes through a `CONNECT` tunnel, both with the proxy's credentials from its
//! URL. A proxy of another kind (`socks5://`, an `https://` proxy) is refused before anything
//! is sent, with the variable to change.

use std::sync::Arc;

use http_body_util::Full;
use hyper::header::{HeaderValue, HOST, PROXY_AUTHORIZATION};
use hyper::{Method, Request, Uri};
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use url::Url;

use super::tape::ByteStream;

/// Why a connection could not be opened: nothing was sent.
pub type DialError = Box<dyn std::error::Error + Send + Sync>;

/// An open connection, and how a request goes over it.
pub struct Route {
    /// The connection.
    pub stream: Box<dyn ByteStream>,
    /// Through a plain-HTTP proxy, with its credentials if any: the request names its whole
    /// URL, not only its path.
    pub proxied: Option<Option<HeaderValue>>,
}

/// Opens a connection for a request to `url` (`uri`, as the HTTP layer takes it).
pub async fn open(
    url: &Url,
    uri: &Uri,
    tls: impl FnOnce() -> Result<Arc<rustls::ClientConfig>, DialError>,
) -> Result<Route, DialError> {
    let (host, port) = host_port(url)?;
    let https = url.scheme() == "https";
    let proxy = if super::is_loopback_host(url) {
        None
    } else {
        Matcher::from_env().intercept(uri)
    };
    let Some(proxy) = proxy else {
        let tcp = tcp(&host, port).await?;
        let stream: Box<dyn ByteStream> = if https {
            Box::new(secure(tcp, &host, tls()?).await?)
        } else {
            Box::new(tcp)
        };
        return Ok(Route {
            stream,
            proxied: None,
        });
    };
    let via = proxy.uri();
    if via.scheme_str() != Some("http") {
        return Err(format!(
            "the proxy the environment names for it is a {}:// one; requests sent as captured go only through http:// proxies (set NO_PROXY={host} to reach the server directly)",
            crate::escape::escape(via.scheme_str().unwrap_or("?"))
        )
        .into());
    }
    let proxy_host = via.host().ok_or("the proxy's URL has no host")?;
    let proxy_host = proxy_host.trim_start_matches('[').trim_end_matches(']');
    let tcp = tcp(proxy_host, via.port_u16().unwrap_or(80)).await?;
    let auth = proxy.basic_auth().cloned();
    if !https {
        return Ok(Route {
            stream: Box::new(tcp),
            proxied: Some(auth),
        });
    }
    let tunnel = tunnel(tcp, &host, port, auth).await?;
    Ok(Route {
        stream: Box::new(secure(tunnel, &host, tls()?).await?),
        proxied: None,
    })
}

/// The TLS set-up of requests sent as captured: the API client's trust, and ALPN offering
/// only `http/1.1`, since a captured request is an HTTP/1.1 message and goes as one.
pub fn client_config() -> Result<Arc<rustls::ClientConfig>, DialError> {
    use rustls_platform_verifier::BuilderVerifierExt;
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_platform_verifier()?
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// The host (bare, an IPv6 address without brackets) and port of a URL.
fn host_port(url: &Url) -> Result<(String, u16), DialError> {
    let host = match url.host() {
        Some(url::Host::Domain(d)) => d.to_string(),
        Some(url::Host::Ipv4(ip)) => ip.to_string(),
        Some(url::Host::Ipv6(ip)) => ip.to_string(),
        None => return Err("the URL has no host".into()),
    };
    let port = url.port_or_known_default().ok_or("the URL has no port")?;
    Ok((host, port))
}

async fn tcp(host: &str, port: u16) -> Result<TcpStream, DialError> {
    let tcp = TcpStream::connect((host, port)).await?;
    // The head and a small body go out at once, not held back for more.
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

async fn secure<S: ByteStream + 'static>(
    stream: S,
    host: &str,
    config: Arc<rustls::ClientConfig>,
) -> Result<tokio_rustls::client::TlsStream<S>, DialError> {
    let name = rustls::pki_types::ServerName::try_from(host.to_string())?;
    let connector = tokio_rustls::TlsConnector::from(config);
    Ok(connector.connect(name, stream).await?)
}

/// A `CONNECT` tunnel to `host:port` through an HTTP proxy.
async fn tunnel(
    tcp: TcpStream,
    host: &str,
    port: u16,
    auth: Option<HeaderValue>,
) -> Result<TokioIo<hyper::upgrade::Upgraded>, DialError> {
    let authority = if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    };
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await?;
    let driver = super::driver::Driver::spawn(conn.with_upgrades());
    let mut req = Request::builder()
        .method(Method::CONNECT)
        .uri(authority.as_str())
        .header(HOST, authority.as_str());
    if let Some(auth) = auth {
        req = req.header(PROXY_AUTHORIZATION, auth);
    }
    let resp = sender
        .send_request(req.body(Full::<hyper::body::Bytes>::default())?)
        .await?;
    if !resp.status().is_success() {
        return Err(format!(
            "the proxy refused a tunnel to {authority}: {}",
            crate::error::status_text(resp.status().as_u16())
        )
        .into());
    }
    let upgraded = hyper::upgrade::on(resp).await?;
    drop(driver);
    Ok(TokioIo::new(upgraded))
}
