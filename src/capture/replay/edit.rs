//! Editing a request in the user's editor (`$VISUAL`, else `$EDITOR`), as git does: the
//! request is written to a temporary `.http` file, the editor runs on it, and what was saved is
//! read back. On Unix the editor line goes through `sh` as git runs it (so `EDITOR='code
//! --wait'` and shell syntax work); where there is no `sh` (Windows) it is split into words
//! by shell rules (`shell-words`, as cargo and git-for-windows do) and started directly.

use std::io::Write;
use std::path::PathBuf;

use crate::capture::message::Message;
use crate::error::{Error, Result};
use crate::escape::escape;

/// What came of an edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edited {
    /// The saved request, changed.
    Changed(Message),
    /// The file was saved as it was given (or not saved): nothing to send.
    Unchanged,
    /// The file was emptied: nothing to send.
    Emptied,
}

/// The editor the user chose: `$VISUAL`, else `$EDITOR` (the editor is the user's, not a
/// setting of this program, so it is read where it is used).
pub fn chosen_editor() -> Option<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.trim().is_empty())
}

/// Opens `msg` in `editor` and returns the changed request to send; saved unchanged or emptied,
/// the edit is cancelled (a usage error: nothing is sent), and so is a request that cannot be
/// sent.
pub fn edit_to_send(editor: &str, msg: &Message) -> Result<Message> {
    let msg = match edit(editor, msg)? {
        Edited::Changed(m) => m,
        Edited::Unchanged => {
            return Err(Error::usage(
                "edit cancelled: the request was saved unchanged, so nothing was sent \
                 (to send it as it is, leave out --edit)",
            ))
        }
        Edited::Emptied => {
            return Err(Error::usage(
                "edit cancelled: the request was emptied, so nothing was sent",
            ))
        }
    };
    match msg.unsendable() {
        Some(why) => Err(Error::usage(format!("{why}; nothing was sent"))),
        None => Ok(msg),
    }
}

/// Opens `msg` in `editor` and reads back what was saved. A saved file that is not a valid
/// request is a usage error that says where the file was kept, so the edit is not lost.
pub fn edit(editor: &str, msg: &Message) -> Result<Edited> {
    let given = msg.to_bytes();
    let mut file = tempfile::Builder::new()
        .prefix("tunnelctl-request-")
        .suffix(".http")
        .tempfile()
        .map_err(|e| Error::Io(format!("cannot make a file to edit the request in: {e}")))?;
    file.write_all(&given)
        .and_then(|()| file.flush())
        .map_err(|e| Error::Io(format!("cannot write the request to edit: {e}")))?;
    let path = file.into_temp_path();
    run_editor(editor, &path)?;
    let saved = std::fs::read(&path).map_err(|e| {
        Error::Io(format!(
            "cannot read the edited request back from {}: {e}",
            path.display()
        ))
    })?;
    if saved.iter().all(u8::is_ascii_whitespace) {
        return Ok(Edited::Emptied);
    }
    if saved == given {
        return Ok(Edited::Unchanged);
    }
    match Message::parse_request(&saved) {
        Ok(m) if m == *msg => Ok(Edited::Unchanged),
        Ok(m) => Ok(Edited::Changed(m)),
        Err(why) => {
            let kept: Option<PathBuf> = path.keep().ok();
            let where_kept = kept.map_or_else(String::new, |p| {
                format!(
                    "; your edit is kept in {} (send it with 'tunnelctl local requests send FILE --to URL' once fixed)",
                    p.display()
                )
            });
            Err(Error::usage(format!(
                "the edited request is not a valid HTTP request: {why}; nothing was sent{where_kept}"
            )))
        }
    }
}

/// The editor line as a command on `path`: through `sh` where there is one.
#[cfg(unix)]
fn editor_command(editor: &str, path: &std::path::Path) -> Result<std::process::Command> {
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(editor)
        .arg(path);
    Ok(cmd)
}

/// The editor line as a command on `path`: its words, the first one the program.
#[cfg(not(unix))]
fn editor_command(editor: &str, path: &std::path::Path) -> Result<std::process::Command> {
    let words = editor_words(editor)?;
    let (program, args) = words
        .split_first()
        .ok_or_else(|| Error::usage("the editor (VISUAL or EDITOR) is empty"))?;
    let mut cmd = std::process::Command::new(program);
    cmd.args(args).arg(path);
    Ok(cmd)
}

/// An editor line split into words by shell quoting rules (`"C:\Program Files\x.exe" -w`).
#[cfg(any(not(unix), test))]
fn editor_words(editor: &str) -> Result<Vec<String>> {
    shell_words::split(editor).map_err(|e| {
        Error::usage(format!(
            "the editor ({}) cannot be split into words: {e}",
            escape(editor)
        ))
    })
}

fn run_editor(editor: &str, path: &std::path::Path) -> Result<()> {
    let status = editor_command(editor, path)?
        .status()
        .map_err(|e| Error::Io(format!("cannot run the editor ({}): {e}", escape(editor))))?;
    if !status.success() {
        return Err(Error::usage(match status.code() {
            // What `sh` answers for a program it cannot find or run (a bare "exit status:
            // 127" told nothing).
            Some(127) if cfg!(unix) => format!(
                "the editor ({}) was not found; set VISUAL or EDITOR to an editor installed \
                 here (e.g. EDITOR=nano); nothing was sent",
                escape(editor)
            ),
            Some(126) if cfg!(unix) => format!(
                "the editor ({}) cannot be run (it is not executable); nothing was sent",
                escape(editor)
            ),
            _ => format!(
                "the editor ({}) exited with {status}; nothing was sent",
                escape(editor)
            ),
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg() -> Message {
        Message::parse_request(b"POST /h HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi").unwrap()
    }

    #[test]
    fn an_editor_line_splits_by_shell_quoting() {
        assert_eq!(
            editor_words("\"/opt/My Editor/ed\" --wait -n").ok(),
            Some(vec![
                "/opt/My Editor/ed".to_string(),
                "--wait".into(),
                "-n".into()
            ])
        );
        assert!(editor_words("code \"--wait").is_err());
    }

    #[test]
    fn unchanged_emptied_changed_and_broken() {
        assert_eq!(edit("true", &msg()).unwrap(), Edited::Unchanged);
        assert_eq!(edit("cp /dev/null", &msg()).unwrap(), Edited::Emptied);
        // An editor that adds a newline at the end changes nothing.
        assert_eq!(edit("printf '\\n' >>", &msg()).unwrap(), Edited::Unchanged);
        let Edited::Changed(m) = edit("sed -i s/hi/hello/", &msg()).unwrap() else {
            panic!("changed");
        };
        assert_eq!(m.body, b"hello");
        let e = edit("sed -i 1s/POST/P@ST/", &msg()).unwrap_err();
        assert!(e.to_string().contains("kept in"), "{e}");
        assert_eq!(e.exit_code(), 2);
        assert_eq!(edit("false", &msg()).unwrap_err().exit_code(), 2);
    }
}
