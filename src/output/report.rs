//! The JSON results of work over many items: one object per item, printed with `--json` only.

use std::io::Write;

use serde_json::Value;

use super::Printer;
use crate::error::Result;

impl Printer {
    /// The results of a bulk command, one object per item: printed with `--json` (or
    /// `-o ndjson`) only, since people read the per-item lines on stderr instead.
    pub fn results(&self, rows: Vec<Value>) -> Result<()> {
        if !self.is_json() {
            return Ok(());
        }
        let mut out = self.streams.out();
        super::write_json(&mut out, &Value::Array(rows), self.tty)?;
        out.flush()?;
        Ok(())
    }
}
