//! The error type's promises: every error exits 2, and messages read as they always have.

use super::*;

#[test]
fn every_kind_of_error_exits_2() {
    let io = || std::io::Error::other("disk full");
    for e in [
        Error::from(UsageError::FleetSarif),
        Error::from(InputError::NoKubeconfigForContexts),
        Error::from(ClusterError::ContextTimeout(
            std::time::Duration::from_secs(30),
        )),
        Error::from(OutputError::Stdout(io())),
        Error::from(SystemError::ClientPanicked),
        Error::from(Declined::NotConfirmed {
            nothing_was: "nothing was changed",
        }),
    ] {
        assert_eq!(e.exit_code(), exit::TROUBLE, "{e}");
    }
}

#[test]
fn messages_say_the_cause_once_and_keep_it_as_the_source() {
    let e = Error::from(OutputError::Stdout(std::io::Error::other("disk full")));
    assert_eq!(e.to_string(), "cannot write the output: disk full");
    // The top level is transparent: its source is the cause itself.
    let source = std::error::Error::source(&e).map(|s| s.to_string());
    assert_eq!(source.as_deref(), Some("disk full"));

    let name = doctor::names::cron_job_name("Bad_Name").unwrap_err();
    let e = Error::from(UsageError::NothingSent(Box::new(UsageError::InvalidName(
        name.clone(),
    ))));
    assert_eq!(e.to_string(), format!("{name}; nothing was sent"));

    let e = Error::from(Declined::NoTerminal {
        nothing_was: "nothing was created",
    });
    assert_eq!(
        e.to_string(),
        "stdin is not a terminal, so there is nobody to confirm: nothing was created. Review the preview above and add --yes to go ahead (or --dry-run=server to only test it)"
    );
    let e = Error::from(UsageError::SlotSeveral(3));
    assert_eq!(
        e.to_string(),
        "--slot answers for one CronJob; the input has 3: name one (explain NAME -f …)"
    );
}
