//! The selector flags of the `sessions` commands (`--region`, `--os`, `--agent-version`,
//! `--credential-id`, `--ip`, `--metadata-contains`, `--all`), shared by every command that
//! picks sessions.

use clap::Args;

use crate::fleet::select::{IpMatch, Selector, VersionMatch};

/// Which sessions: filters applied on the client, all of them must hold.
#[derive(Debug, Args, Clone)]
pub(super) struct SelectArgs {
    /// Only sessions in this region (e.g. us, eu, ap)
    #[arg(long, value_name = "REGION", value_parser = crate::commands::non_empty)]
    region: Option<String>,
    /// Only sessions whose agent runs on this OS (e.g. linux, darwin, windows)
    #[arg(long, value_name = "OS", value_parser = crate::commands::non_empty)]
    os: Option<String>,
    /// Only agents of this version: 3.19 (the 3.19 and 3.19.x releases), 3.19.2 (that release
    /// and its +build variants), 3.20.0-rc.1 (that pre-release), =3.19.2 (exactly), <3.20,
    /// <=3.20, >3.19, >=3.19.1 (by semver precedence: <3.20.0 holds for 3.20.0-rc.1);
    /// conditions joined by commas must all hold (>=3.19,<3.20). Anything else (abc, v3.19,
    /// =>3.19, ~3.19) is refused
    #[arg(long, value_name = "VERSION")]
    agent_version: Option<VersionMatch>,
    /// Only sessions of this credential (cr_…)
    #[arg(long, value_name = "ID", value_parser = crate::commands::non_empty)]
    credential_id: Option<String>,
    /// Only sessions from this IP or CIDR block (203.0.113.0/24)
    #[arg(long, value_name = "IP|CIDR")]
    ip: Option<IpMatch>,
    /// Only sessions whose metadata holds this text
    #[arg(long, value_name = "TEXT", value_parser = crate::commands::non_empty)]
    metadata_contains: Option<String>,
    /// Every online session
    #[arg(long)]
    all: bool,
}

impl SelectArgs {
    /// The selector these flags make.
    pub(super) fn selector(&self) -> Selector {
        Selector {
            region: self.region.clone(),
            os: self.os.clone(),
            agent_version: self.agent_version.clone(),
            credential_id: self.credential_id.clone(),
            ip: self.ip.clone(),
            metadata_contains: self.metadata_contains.clone(),
            all: self.all,
        }
    }
}
