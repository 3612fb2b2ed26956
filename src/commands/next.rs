//! `next SCHEDULE`: when a schedule really fires.

use doctor::render::{next, style::Style};

use super::plan;
use crate::cli::{NextArgs, NextFormat};
use crate::error::Error;
use crate::error::exit;
use crate::term::emit;

pub fn run(args: &NextArgs) -> Result<i32, Error> {
    let plan = plan::next(args)?;
    let from = plan.from.given().unwrap_or_else(jiff::Timestamp::now);
    let mut view = next::compute(
        &plan.schedule,
        plan.time_zone.as_deref(),
        from,
        plan.count,
        &plan.zone.name,
        &plan.zone.tz,
    );
    let text = match plan.output.format {
        NextFormat::Json => next::to_json(&view),
        NextFormat::Text => {
            // The schedule and zone as typed, with control characters made visible.
            doctor::render::next::for_terminal(&mut view);
            next::to_text(
                &view,
                Style {
                    color: plan.output.color,
                },
            )
        }
    };
    emit(&text);
    // The verdict lint gives the same schedule and zone: rejected or never firing is 1.
    Ok(if view.is_error() {
        exit::FINDINGS
    } else {
        exit::OK
    })
}
