//! One module per subcommand. Each returns an exit code or an [`Error`], printed once by
//! `main`; the commands are the only place outcomes become exit codes.

pub mod completion;
pub mod explain;
mod explain_live;
mod explain_slot;
mod fleet;
mod fleet_explain;
pub mod lint;
pub mod manpage;
pub mod monitor;
pub mod next;
pub mod plan;
mod read_cluster;
mod read_files;
pub mod rules;
pub mod scan;
pub mod suspend;
pub mod trigger;
pub mod version;
