//! The columns of `sessions watch`: their headers, and a session's value in each (what the
//! table sorts and the `/` filter's free words search) and its text there (what it shows).

use super::watched_session::WatchedSession;

/// A column of the table, in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionColumn {
    /// The session ID.
    Id,
    /// The agent version.
    Version,
    /// The region.
    Region,
    /// The OS.
    Os,
    /// The IP address.
    Ip,
    /// When it started.
    Started,
    /// The credential's ID.
    Credential,
    /// The metadata.
    Metadata,
    /// The profile of the config file whose account lists it (shown when several are
    /// watched).
    Profile,
}

/// The field the screen adds to a session listed by one of several accounts: the name of its
/// profile. The service's sessions have no such field.
pub const PROFILE_FIELD: &str = "profile";

impl SessionColumn {
    /// Every column, in order; a digit key (1 to 9) sorts by the column of its place.
    pub const ALL: [SessionColumn; 9] = [
        SessionColumn::Id,
        SessionColumn::Version,
        SessionColumn::Region,
        SessionColumn::Os,
        SessionColumn::Ip,
        SessionColumn::Started,
        SessionColumn::Credential,
        SessionColumn::Metadata,
        SessionColumn::Profile,
    ];

    /// Its header.
    pub fn title(self) -> &'static str {
        match self {
            SessionColumn::Id => "ID",
            SessionColumn::Version => "VERSION",
            SessionColumn::Region => "REGION",
            SessionColumn::Os => "OS",
            SessionColumn::Ip => "IP",
            SessionColumn::Started => "STARTED",
            SessionColumn::Credential => "CREDENTIAL",
            SessionColumn::Metadata => "METADATA",
            SessionColumn::Profile => "PROFILE",
        }
    }

    /// A session's text in it, as the table shows it: escaped, the start time relative.
    pub fn cell(self, s: &WatchedSession) -> String {
        let value = s.value(self);
        match self {
            SessionColumn::Started => crate::output::time::human_time(value)
                .unwrap_or_else(|| crate::escape::escape(value)),
            _ => crate::escape::escape(value),
        }
    }

    /// Its place in [`SessionColumn::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The width of a session's text in each column, in the order of [`SessionColumn::ALL`]: what
/// sizes the columns, worked out when a session changes rather than for every frame (a frame of
/// 5,000 sessions would otherwise escape and format 45,000 cells to size its columns).
pub fn cell_widths(s: &WatchedSession) -> [usize; 9] {
    SessionColumn::ALL.map(|c| match c {
        SessionColumn::Started => c.cell(s).chars().count(),
        _ => crate::escape::escaped_len(s.value(c)),
    })
}
