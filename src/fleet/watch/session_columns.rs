//! The columns of `sessions watch`: their headers, and a session's value in each (what the
//! table sorts and the `/` filter's free words search) and its text there (what it shows).

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

    /// Its place in [`SessionColumn::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}
