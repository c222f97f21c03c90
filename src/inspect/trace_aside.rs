//! The `--verbose` trace of a full-screen view (the inspector, `sessions watch`): it would be
//! drawn over the screen, so while the view owns the terminal it goes to a new file (0600, in
//! the temporary folder), named on stderr before the view starts and again once it ends.

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::http::trace::{divert, Diverted};
use crate::output::Printer;

/// The trace going to a file until [`TraceAside::end`] (or until dropped, unsaid).
pub struct TraceAside {
    path: PathBuf,
    diverted: Diverted,
}

impl TraceAside {
    /// Sends the trace to a new file, said on stderr while `view` (what takes the screen:
    /// "the inspector") runs.
    pub fn start(printer: &Printer, view: &str) -> Result<TraceAside> {
        let (file, path) = tempfile::Builder::new()
            .prefix("tunnelctl-trace-")
            .suffix(".log")
            .tempfile()
            .and_then(|f| f.keep().map_err(|e| e.error))
            .map_err(|e| {
                Error::Io(format!(
                    "could not create a file for the --verbose trace: {e}"
                ))
            })?;
        printer.streams.err_line(&format!(
            "The --verbose trace goes to {} while {view} runs",
            path.display()
        ));
        Ok(TraceAside {
            path,
            diverted: divert(file),
        })
    }

    /// The trace back to stderr; says where it was written.
    pub fn end(self, printer: &Printer) {
        drop(self.diverted);
        printer.streams.err_line(&format!(
            "The --verbose trace is in {}",
            self.path.display()
        ));
    }
}
