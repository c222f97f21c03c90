//! Keys as a terminal in raw mode sends them: bytes turned into [`Key`]s. Pure, so that a
//! scripted console and the real terminal read keys alike.

/// One key press.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter (CR, LF or CR LF).
    Enter,
    /// Backspace (DEL or BS).
    Backspace,
    /// Ctrl-U: erase the whole line.
    KillLine,
    /// Ctrl-C: in raw mode a key, not a signal.
    Interrupt,
    /// Ctrl-D, or the end of the input.
    Eof,
    /// Escape pressed alone.
    Esc,
    /// Cursor up.
    Up,
    /// Cursor down.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Anything else (other control keys, unknown sequences, bytes that are not UTF-8).
    Other,
}

/// The longest escape sequence waited for; longer ones are taken as unknown keys.
const MAX_SEQUENCE: usize = 16;

/// The first key in `bytes` and how many bytes it took; `None` when `bytes` may be the start
/// of a longer key (a lone ESC, part of an escape sequence or of a UTF-8 character): the
/// caller reads more, or after a short wait takes the first byte alone ([`lone`]).
pub fn parse(bytes: &[u8]) -> Option<(Key, usize)> {
    let first = *bytes.first()?;
    let key = match first {
        0x1b => return escape(bytes),
        b'\r' if bytes.get(1) == Some(&b'\n') => return Some((Key::Enter, 2)),
        b'\r' | b'\n' => Key::Enter,
        0x03 => Key::Interrupt,
        0x04 => Key::Eof,
        0x7f | 0x08 => Key::Backspace,
        0x15 => Key::KillLine,
        0x00..=0x1f => Key::Other,
        0x20..=0x7e => Key::Char(char::from(first)),
        _ => return utf8(bytes),
    };
    Some((key, 1))
}

/// The key a first byte makes when nothing follows it in time.
pub fn lone(byte: u8) -> Key {
    match parse(&[byte]) {
        Some((key, _)) => key,
        None if byte == 0x1b => Key::Esc,
        None => Key::Other,
    }
}

fn escape(bytes: &[u8]) -> Option<(Key, usize)> {
    match bytes.get(1) {
        None => None,
        Some(b'[') => {
            let rest = &bytes[2..];
            let Some(end) = rest.iter().position(|b| (0x40..=0x7e).contains(b)) else {
                return (bytes.len() > MAX_SEQUENCE).then_some((Key::Other, 1));
            };
            let key = match (&rest[..end], rest[end]) {
                (_, b'A') => Key::Up,
                (_, b'B') => Key::Down,
                (_, b'H') | (b"1" | b"7", b'~') => Key::Home,
                (_, b'F') | (b"4" | b"8", b'~') => Key::End,
                _ => Key::Other,
            };
            Some((key, end + 3))
        }
        Some(b'O') => {
            let key = match bytes.get(2)? {
                b'A' => Key::Up,
                b'B' => Key::Down,
                b'H' => Key::Home,
                b'F' => Key::End,
                _ => Key::Other,
            };
            Some((key, 3))
        }
        // Escape then another key typed quickly (or Alt-key): the escape alone.
        Some(_) => Some((Key::Esc, 1)),
    }
}

fn utf8(bytes: &[u8]) -> Option<(Key, usize)> {
    let len = match bytes[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some((Key::Other, 1)),
    };
    let Some(encoded) = bytes.get(..len) else {
        // Incomplete so far; bytes that can never complete one are not waited for.
        return if bytes[1..].iter().all(|b| b & 0xc0 == 0x80) {
            None
        } else {
            Some((Key::Other, 1))
        };
    };
    match std::str::from_utf8(encoded)
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) if !c.is_control() => Some((Key::Char(c), len)),
        Some(_) => Some((Key::Other, len)),
        None => Some((Key::Other, 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(mut bytes: &[u8]) -> Vec<Key> {
        let mut keys = Vec::new();
        while !bytes.is_empty() {
            let (key, n) = parse(bytes).unwrap_or((lone(bytes[0]), 1));
            keys.push(key);
            bytes = &bytes[n..];
        }
        keys
    }

    #[test]
    fn keys_from_bytes() {
        use Key::*;
        assert_eq!(
            all(b"y\r\x03\x04\x7f\x1b[A\x1bOB\x1b[1~\x1b[F\x1bq\x1b"),
            [
                Char('y'),
                Enter,
                Interrupt,
                Eof,
                Backspace,
                Up,
                Down,
                Home,
                End,
                Esc,
                Char('q'),
                Esc
            ]
        );
        assert_eq!(all("é€".as_bytes()), [Char('é'), Char('€')]);
        assert_eq!(all(b"\r\n\n"), [Enter, Enter]);
        assert_eq!(all(b"\x1b[2~\x01\xff"), [Other, Other, Other]);
    }

    #[test]
    fn incomplete_keys_wait_for_more() {
        assert_eq!(parse(b"\x1b"), None);
        assert_eq!(parse(b"\x1b["), None);
        assert_eq!(parse(b"\x1b[1"), None);
        assert_eq!(parse("é".as_bytes().get(..1).unwrap()), None);
        assert_eq!(parse(b"\xc3a"), Some((Key::Other, 1)));
        assert_eq!(lone(0x1b), Key::Esc);
    }
}
