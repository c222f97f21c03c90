//! The detail pane's text: the selected exchange's request or response (start line, headers,
//! decoded body), as lines of toned pieces wrapped to the pane's width.

use unicode_width::UnicodeWidthChar;

use super::model::Side;
use crate::capture::body::{self, Line, Tone};
use crate::capture::message::more_headers_note;
use crate::capture::{signed, view, Exchange};
use crate::escape::escape;
use crate::signature::Secrets;

/// The lines of one side of an exchange, not yet wrapped; a signed request's side says
/// whether its signature holds for `secrets`.
pub fn lines(e: &Exchange, side: Side, secrets: &Secrets) -> Vec<Line> {
    let mut out: Vec<Line> = vec![header(e), Vec::new()];
    let msg = match side {
        Side::Request => Some(e.request_message()),
        Side::Response => e.response_message(),
    };
    let Some(msg) = msg else {
        out.push(vec![(
            Tone::Note,
            "(pending: the local server has not answered yet)".into(),
        )]);
        return out;
    };
    if side == Side::Request {
        let check = signed::check(e, secrets, signed::now());
        if check.provider.is_some() {
            let tone = if check.result.fails() {
                Tone::Tag
            } else {
                Tone::Note
            };
            out.push(vec![(
                tone,
                view::signature_line(&check).trim_end().to_string(),
            )]);
            out.push(Vec::new());
        }
    }
    out.push(vec![(Tone::Tag, escape(&msg.start_line))]);
    for (k, v) in &msg.headers {
        out.push(vec![
            (Tone::Key, escape(k)),
            (Tone::Punct, ": ".into()),
            (Tone::Plain, escape(v)),
        ]);
    }
    if msg.more_headers > 0 {
        out.push(vec![(Tone::Note, more_headers_note(msg.more_headers))]);
    }
    let shown = body::show(&msg);
    if !msg.body.is_empty() {
        out.push(Vec::new());
        out.push(vec![(
            Tone::Note,
            format!("── body: {}, {} bytes", shown.kind, msg.body.len()),
        )]);
        out.extend(shown.lines);
    }
    out
}

/// The first line: ID, tunnel, visitor, start time and duration (or pending), as pieces that
/// [`wrap`] moves whole to the next line when the width is short (a time is never broken).
fn header(e: &Exchange) -> Line {
    let took = match super::exchange_list::took(e) {
        t if e.answered() && !t.is_empty() => format!("took {t}"),
        t => t,
    };
    let fields = [
        escape(&e.id),
        escape(&e.tunnel),
        format!("from {}", escape(&e.remote_addr)),
        escape(&e.start),
        took,
    ];
    let mut line = Vec::new();
    for f in fields.into_iter().filter(|f| !f.is_empty()) {
        let sep = if line.is_empty() { "" } else { " · " };
        line.push((Tone::Note, format!("{sep}{f}")));
    }
    line
}

/// Wraps lines to `width` display columns (at least 1), keeping each piece's tone. A note
/// piece (a header field) that fits a line is moved whole to the next line rather than
/// broken; other text is broken where the width ends.
pub fn wrap(lines: Vec<Line>, width: usize) -> Vec<Line> {
    let width = width.max(1);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines.into_iter().flat_map(|l| keep_notes_whole(l, width)) {
        let mut current: Line = Vec::new();
        let mut used = 0;
        for (tone, text) in line {
            let mut piece = String::new();
            for c in text.chars() {
                let w = c.width().unwrap_or(0);
                if used + w > width && used > 0 {
                    if !piece.is_empty() {
                        current.push((tone, std::mem::take(&mut piece)));
                    }
                    out.push(std::mem::take(&mut current));
                    used = 0;
                }
                piece.push(c);
                used += w;
            }
            if !piece.is_empty() {
                current.push((tone, piece));
            }
        }
        out.push(current);
    }
    out
}

/// A line of note pieces (a header) split before each piece that would cross `width`, so that
/// a piece that fits a line on its own is never broken; any other line as it is.
fn keep_notes_whole(line: Line, width: usize) -> Vec<Line> {
    if line.len() < 2 || !line.iter().all(|(t, _)| *t == Tone::Note) {
        return vec![line];
    }
    let mut out = Vec::new();
    let mut current: Line = Vec::new();
    let mut used = 0;
    for (tone, text) in line {
        let w = text_width(&text);
        if used > 0 && used + w > width && w <= width {
            // Starts a new line: its separator goes.
            let text = text.strip_prefix(" · ").map(str::to_string).unwrap_or(text);
            out.push(std::mem::take(&mut current));
            used = text_width(&text);
            current.push((tone, text));
            continue;
        }
        used += w;
        current.push((tone, text));
    }
    out.push(current);
    out
}

fn text_width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_by_display_width() {
        let l = vec![vec![
            (Tone::Key, "abc".to_string()),
            (Tone::Plain, "界界x".to_string()),
        ]];
        let w = wrap(l, 4);
        assert_eq!(
            w,
            vec![
                vec![(Tone::Key, "abc".to_string())],
                vec![(Tone::Plain, "界界".to_string())],
                vec![(Tone::Plain, "x".to_string())],
            ]
        );
        assert_eq!(
            wrap(vec![Vec::new()], 10),
            vec![Vec::<(Tone, String)>::new()]
        );
    }

    #[test]
    fn the_header_breaks_between_its_fields() {
        let mut e = Exchange::sample("airt_36BCDEFGHIJKLMNOPQRSTUVWXYZ", "POST", "/x", None);
        e.tunnel = "hook (http)".into();
        e.remote_addr = "127.0.0.1:51234".into();
        e.start = "2026-11-25T01:25:14Z".into();
        e.duration = Some(0);
        let text: Vec<String> = wrap(vec![header(&e)], 78)
            .into_iter()
            .map(|l| l.into_iter().map(|(_, t)| t).collect())
            .collect();
        assert_eq!(
            text,
            [
                "airt_36BCDEFGHIJKLMNOPQRSTUVWXYZ · hook (http) · from 127.0.0.1:51234",
                "2026-11-25T01:25:14Z · pending"
            ]
        );
    }
}
