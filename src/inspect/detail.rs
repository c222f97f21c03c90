//! The detail pane's text: the selected exchange's request or response (start line, headers,
//! decoded body), as lines of toned pieces wrapped to the pane's width.

use unicode_width::UnicodeWidthChar;

use super::model::Side;
use crate::capture::body::{self, Line, Tone};
use crate::capture::message::more_headers_note;
use crate::capture::{signed, view, Exchange};
use crate::escape::escape;
use crate::output::time::human_duration;
use crate::signature::Secrets;

/// The lines of one side of an exchange, not yet wrapped; a signed request's side says
/// whether its signature holds for `secrets`.
pub fn lines(e: &Exchange, side: Side, secrets: &Secrets) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let took = e
        .duration
        .map(|d| format!(" · took {}", human_duration(d)))
        .unwrap_or_default();
    out.push(vec![(
        Tone::Note,
        format!(
            "{} · {} · from {} · {}{took}",
            escape(&e.id),
            escape(&e.tunnel),
            escape(&e.remote_addr),
            escape(&e.start)
        ),
    )]);
    out.push(Vec::new());
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

/// Wraps lines to `width` display columns (at least 1), keeping each piece's tone.
pub fn wrap(lines: Vec<Line>, width: usize) -> Vec<Line> {
    let width = width.max(1);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
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
}
