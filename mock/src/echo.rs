//! A small web app for the demo account to tunnel to: it answers every request `200` with a
//! JSON echo of its method, path, content type and body (the body as text when it is, else
//! its size; a chunked body with its chunk lines). A person trying the local half needs an upstream that says what it received,
//! and a fresh clone has none.

use std::net::SocketAddr;

use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

use crate::agent::http1::{values, Conn, RequestHead};

/// Starts the echo app on a free loopback port; it serves until the program ends.
pub async fn spawn_echo() -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve(stream));
        }
    });
    Ok(addr)
}

/// Answers the requests of one connection until it closes or sends something not HTTP.
async fn serve(stream: TcpStream) {
    let mut conn = Conn::new(stream);
    while let Ok(Some(head)) = conn.read_head(true).await {
        let Ok(req) = RequestHead::parse(&head) else {
            return;
        };
        let Ok(framing) = req.framing() else {
            return;
        };
        let mut raw = Vec::new();
        if conn
            .read_body::<TcpStream>(framing, &mut raw, None)
            .await
            .is_err()
        {
            return;
        }
        // As it came on the wire: a chunked body keeps its chunk lines.
        let body = raw;
        let shown = match std::str::from_utf8(&body) {
            Ok(text) => json!(text),
            Err(_) => json!(format!("{} bytes", body.len())),
        };
        let echo = json!({
            "method": req.method,
            "path": req.target,
            "content_type": values(&req.headers, "content-type").next(),
            "body": shown,
        })
        .to_string();
        let answer = format!(
            "HTTP/1.1 200 OK\r\nServer: tunnelctl-mock-echo\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{echo}",
            echo.len()
        );
        if conn.stream.write_all(answer.as_bytes()).await.is_err() || req.wants_close() {
            return;
        }
    }
}
