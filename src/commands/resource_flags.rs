//! The flags of a management resource's create and update: `--description` and `--metadata`,
//! which every resource has, then the resource's own flags, flattened in after them.

use clap::Args;

use super::check;
use crate::api::fields::{Fields, OwnFields};
use crate::api::Resource;
use crate::error::Result;

/// A resource's own create and update flags, and what the shared two say of it.
pub trait OwnFlags: Args {
    /// The collection the flags describe (its text limits are checked).
    const RESOURCE: &'static Resource;
    /// The help of `--description`.
    const DESCRIPTION_HELP: &'static str;
    /// The help of `--metadata`.
    const METADATA_HELP: &'static str;

    /// The flag that sets the API field `field`, when its name is not the field's (the
    /// rules name API fields; a usage error names the flag to change).
    fn flag_of(field: &'static str) -> &'static str {
        field
    }
}

/// `--description`, `--metadata` and the resource's own flags `T`.
#[derive(Debug, Args)]
pub struct ResourceFlags<T: OwnFlags> {
    // The help comes from `T`, as each resource states its limits its own way.
    #[arg(long, value_name = "TEXT", help = T::DESCRIPTION_HELP)]
    description: Option<String>,
    #[arg(long, value_name = "TEXT", help = T::METADATA_HELP)]
    metadata: Option<String>,
    #[command(flatten)]
    own: T,
}

impl<T: OwnFlags> ResourceFlags<T> {
    /// The request body: the shared two and what `own` makes of the resource's flags,
    /// checked against the API reference's rules before anything is sent.
    pub fn into_fields<U: OwnFields>(self, own: impl FnOnce(T) -> Result<U>) -> Result<Fields<U>> {
        let fields = Fields {
            description: self.description,
            metadata: self.metadata,
            own: own(self.own)?,
        };
        check(fields.validate(T::RESOURCE.text).map_err(|mut invalid| {
            invalid.field = T::flag_of(invalid.field);
            invalid
        }))?;
        Ok(fields)
    }
}
