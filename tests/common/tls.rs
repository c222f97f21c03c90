//! An HTTPS server for the tests of requests `tunnelctl` sends itself to `https://` servers: it
//! answers every request with the same bytes, with a certificate for `localhost` and
//! `127.0.0.1` signed by a CA made for the tests (`certs/`, valid 2000 to 2999, its key kept
//! nowhere). The binary trusts that CA through `SSL_CERT_FILE`, which the platform's verifier
//! reads on Linux. The server offers `h2` before `http/1.1`, and remembers what each client
//! chose.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// A running HTTPS server on 127.0.0.1.
pub struct TlsServer {
    port: u16,
    alpn: Arc<Mutex<Vec<Option<Vec<u8>>>>>,
    stop: Arc<AtomicBool>,
}

fn certs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/common/certs")
}

impl TlsServer {
    /// Starts a server that answers every request with `answer`, then closes the connection.
    pub fn start(answer: &[u8]) -> TlsServer {
        let chain = CertificateDer::pem_file_iter(certs().join("localhost.pem"))
            .expect("the test certificate")
            .collect::<Result<Vec<_>, _>>()
            .expect("the test certificate");
        let key = PrivateKeyDer::from_pem_file(certs().join("localhost.key")).expect("its key");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("the test certificate and key");
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let config = Arc::new(config);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let alpn = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (chosen, halt, answer) = (alpn.clone(), stop.clone(), answer.to_vec());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    return;
                }
                if let Ok(conn) = conn {
                    serve(conn, config.clone(), &chosen, &answer);
                }
            }
        });
        TlsServer { port, alpn, stop }
    }

    /// `https://localhost:PORT`.
    pub fn url(&self) -> String {
        format!("https://localhost:{}", self.port)
    }

    /// The file of the CA that signed the server's certificate, for `SSL_CERT_FILE`.
    pub fn ca_file() -> PathBuf {
        certs().join("ca.pem")
    }

    /// The protocol each client chose by ALPN, in order (`None`: it offered none).
    pub fn alpn(&self) -> Vec<Option<Vec<u8>>> {
        self.alpn.lock().map(|a| a.clone()).unwrap_or_default()
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread so that it sees `stop`.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// Reads one request head, writes `answer`, closes.
fn serve(
    tcp: TcpStream,
    config: Arc<rustls::ServerConfig>,
    alpn: &Mutex<Vec<Option<Vec<u8>>>>,
    answer: &[u8],
) {
    let _ = tcp.set_read_timeout(Some(std::time::Duration::from_secs(30)));
    let Ok(conn) = rustls::ServerConnection::new(config) else {
        return;
    };
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let mut reader = BufReader::new(&mut tls);
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {}
        }
    }
    drop(reader);
    if let Ok(mut a) = alpn.lock() {
        a.push(tls.conn.alpn_protocol().map(<[u8]>::to_vec));
    }
    let _ = tls.write_all(answer);
    tls.conn.send_close_notify();
    let _ = tls.flush();
}
