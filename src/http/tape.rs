//! A connection that keeps a copy of the first bytes the server sends: the head of its answer
//! as written, which the HTTP layer parses into lower-case names (see [`super::head`]). The
//! copy is bounded, so a server sending a endless head costs no more than the bound.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A byte stream both ways: TCP, TLS over TCP, a tunnel through a proxy.
pub trait ByteStream: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send> ByteStream for T {}

/// What was read so far, shared between the connection and the caller.
#[derive(Debug, Default)]
struct Recording {
    bytes: Vec<u8>,
    /// The bound was reached: bytes were read that are not in `bytes`.
    cut: bool,
    /// The caller has what it needed; nothing more is kept.
    stopped: bool,
}

/// The caller's hold on what a [`Taped`] connection read.
#[derive(Debug, Clone)]
pub struct Tape {
    recording: Arc<Mutex<Recording>>,
    bound: usize,
}

impl Tape {
    /// A tape that keeps at most `bound` bytes.
    pub fn new(bound: usize) -> Tape {
        Tape {
            recording: Arc::default(),
            bound,
        }
    }

    /// Wraps `inner` so that what is read from it goes on this tape.
    pub fn wrap(&self, inner: Box<dyn ByteStream>) -> Taped {
        Taped {
            inner,
            tape: self.clone(),
        }
    }

    /// Stops keeping bytes, and gives those kept and whether the bound cut them short.
    pub fn stop(&self) -> (Vec<u8>, bool) {
        match self.recording.lock() {
            Ok(mut r) => {
                r.stopped = true;
                (std::mem::take(&mut r.bytes), r.cut)
            }
            Err(_) => (Vec::new(), true),
        }
    }

    fn keep(&self, read: &[u8]) {
        if read.is_empty() {
            return;
        }
        let Ok(mut r) = self.recording.lock() else {
            return;
        };
        if r.stopped || r.cut {
            return;
        }
        let room = self.bound.saturating_sub(r.bytes.len());
        let take = read.len().min(room);
        r.bytes.extend_from_slice(&read[..take]);
        r.cut = take < read.len();
    }
}

/// A connection whose reads are copied onto a [`Tape`].
pub struct Taped {
    inner: Box<dyn ByteStream>,
    tape: Tape,
}

impl AsyncRead for Taped {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            this.tape.keep(&buf.filled()[before..]);
        }
        polled
    }
}

impl AsyncWrite for Taped {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn reads_are_kept_up_to_the_bound_and_until_stopped() {
        let (near, mut far) = tokio::io::duplex(64);
        let tape = Tape::new(8);
        let mut taped = tape.wrap(Box::new(near));
        far.write_all(b"HTTP/1.1").await.unwrap();
        let mut buf = [0u8; 8];
        taped.read_exact(&mut buf).await.unwrap();
        far.write_all(b" 200").await.unwrap();
        taped.read_exact(&mut buf[..4]).await.unwrap();
        assert_eq!(tape.stop(), (b"HTTP/1.1".to_vec(), true));

        let tape = Tape::new(64);
        let (near, mut far) = tokio::io::duplex(64);
        let mut taped = tape.wrap(Box::new(near));
        far.write_all(b"head").await.unwrap();
        taped.read_exact(&mut buf[..4]).await.unwrap();
        assert_eq!(tape.stop(), (b"head".to_vec(), false));
        far.write_all(b"body").await.unwrap();
        taped.read_exact(&mut buf[..4]).await.unwrap();
        assert_eq!(tape.stop(), (Vec::new(), false));
    }
}
