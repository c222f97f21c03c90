//! The task that drives one hyper connection, shared by the proxy tunnel (`dial`) and the
//! request sent as given (`wire`): dropping it ends the connection, so nothing is left
//! reading from a server once its holder is done.

/// The task that drives a connection, ended when its holder is done with the connection
/// (a timeout, an error, the body read): nothing is left behind reading from the server.
pub struct Driver(tokio::task::JoinHandle<()>);

impl Driver {
    /// Runs `conn` until it ends or the driver is dropped.
    pub fn spawn<F>(conn: F) -> Driver
    where
        F: std::future::Future + Send + 'static,
    {
        Driver(tokio::spawn(async move {
            let _ = conn.await;
        }))
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.0.abort();
    }
}
