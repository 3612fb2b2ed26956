//! `next SCHEDULE`: when a schedule really fires.

use doctor::render::{next, style::Style};

use super::{controller_zone, parse_rfc3339};
use crate::cli::{NextArgs, NextFormat};
use crate::error::Error;
use crate::error::exit;
use crate::term::{emit, use_color};

pub fn run(args: &NextArgs) -> Result<i32, Error> {
    let zone = controller_zone(&args.controller_time_zone)?;
    let from = match &args.from {
        // The whole computable range: near its end the view says where computing stops.
        Some(v) => parse_rfc3339("--from", v)?,
        None => jiff::Timestamp::now(),
    };
    let mut view = next::compute(
        &args.schedule,
        args.time_zone.as_deref(),
        from,
        args.count as usize,
        &args.controller_time_zone,
        &zone,
    );
    let text = match args.output {
        NextFormat::Json => next::to_json(&view),
        NextFormat::Text => {
            // The schedule and zone as typed, with control characters made visible.
            doctor::render::next::for_terminal(&mut view);
            next::to_text(
                &view,
                Style {
                    color: use_color(args.color),
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
