//! What `scan` keeps of each CronJob it diagnoses, one cluster or several: its health (for
//! the footer and the exit code), the controller's lag, and — unless `--only-problems` drops
//! a healthy one — its table row or its report JSON fragment. Computed on the worker that
//! diagnosed the CronJob, so the report itself is not kept.

use jiff::Timestamp;

use super::scan_rows::Row;
use crate::model::CronJob;
use crate::report::stream::json_fragment;
use crate::report::{CronJobReport, Health};

/// One CronJob's result as the output needs it.
pub struct Diagnosed {
    pub health: Health,
    /// Its table row or JSON fragment; `None` when filtered out.
    pub out: Option<Entry>,
    /// `namespace/name` and how late the controller created its newest Job, when that made
    /// the run late: several make one note
    /// ([`crate::rules::late_start::lagging_controller_note`]).
    pub controller_lag: Option<(String, i64)>,
}

/// A CronJob's entry in the output: its table row or its JSON fragment.
pub enum Entry {
    Row(Box<Row>),
    Json(String),
}

/// How one scan (of one cluster, or of one context of a fleet) shows its CronJobs.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    pub form: Form,
    /// `--only-problems`: a healthy CronJob gets no entry (it still counts).
    pub only_problems: bool,
    /// The kubeconfig context read, in a fleet scan.
    pub context: Option<Context<'a>>,
}

/// The output's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The report JSON's fragments.
    Json,
    /// Table rows; `wide` for `-o wide`.
    Table { wide: bool },
}

/// The context a fleet scan read the CronJobs from.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    pub name: &'a str,
    /// That cluster's clock: its rows' relative times are its own.
    pub now: Timestamp,
    /// The table has a CONTEXT column (more than one context was asked). JSON fragments
    /// always carry their context.
    pub column: bool,
}

/// `cj`'s report `r` as `how` shows it.
pub fn shape(cj: &CronJob, r: CronJobReport, how: &Shape<'_>) -> Diagnosed {
    let health = r.health;
    let out = (!how.only_problems || health != Health::Ok).then(|| match how.form {
        Form::Json => Entry::Json(match how.context {
            Some(c) => super::fleet::fragment(c.name, &r),
            None => json_fragment(&r),
        }),
        Form::Table { wide } => {
            let row = Row::new(cj, &r, wide);
            Entry::Row(Box::new(match how.context {
                Some(c) if c.column => row.in_context(c.name, c.now),
                _ => row,
            }))
        }
    });
    let controller_lag = r
        .controller_lag_seconds
        .map(|s| (format!("{}/{}", r.namespace, r.name), s));
    Diagnosed {
        health,
        out,
        controller_lag,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `finance/invoices`, healthy, and `finance/weekly-report`, whose schedule does not
    /// parse (an error): the repository's examples.
    fn diagnosed() -> Vec<(CronJob, CronJobReport)> {
        let yaml = [
            include_str!("../../../../examples/healthy.yaml"),
            include_str!("../../../../examples/invalid-schedule-sunday-7.yaml"),
        ]
        .join("\n---\n");
        let (snapshot, report) = super::super::report_of(&yaml, 2);
        let cron_jobs = snapshot.cron_jobs.into_iter().zip(report.cron_jobs);
        cron_jobs.collect()
    }

    fn shape_all(how: &Shape<'_>) -> Vec<Diagnosed> {
        diagnosed()
            .into_iter()
            .map(|(cj, r)| shape(&cj, r, how))
            .collect()
    }

    fn row(d: &Diagnosed) -> &Row {
        match &d.out {
            Some(Entry::Row(r)) => r,
            _ => panic!("not a row"),
        }
    }

    fn json(d: &Diagnosed) -> &str {
        match &d.out {
            Some(Entry::Json(j)) => j,
            _ => panic!("not a JSON fragment"),
        }
    }

    #[test]
    fn only_problems_drops_the_entry_of_a_healthy_cron_job_not_its_health() {
        let [ok, broken] = &diagnosed()[..] else {
            panic!("two CronJobs")
        };
        assert_eq!((ok.1.health, broken.1.health), (Health::Ok, Health::Error));
        for form in [Form::Json, Form::Table { wide: false }] {
            let all = shape_all(&Shape {
                form,
                only_problems: false,
                context: None,
            });
            assert!(all.iter().all(|d| d.out.is_some()));
            let problems = shape_all(&Shape {
                form,
                only_problems: true,
                context: None,
            });
            let healths: Vec<Health> = problems.iter().map(|d| d.health).collect();
            assert_eq!(healths, [Health::Ok, Health::Error]);
            assert!(problems[0].out.is_none());
            assert!(problems[1].out.is_some());
        }
    }

    #[test]
    fn a_fragment_carries_its_context_whenever_one_was_read() {
        let reports = diagnosed();
        let now = "2026-11-20T12:00:00Z".parse().unwrap();
        let plain = shape_all(&Shape {
            form: Form::Json,
            only_problems: false,
            context: None,
        });
        assert_eq!(json(&plain[1]), json_fragment(&reports[1].1));
        // One context asked (no CONTEXT column): the JSON still names it.
        for column in [false, true] {
            let shaped = shape_all(&Shape {
                form: Form::Json,
                only_problems: false,
                context: Some(Context {
                    name: "prod",
                    now,
                    column,
                }),
            });
            assert_eq!(
                json(&shaped[1]),
                super::super::fleet::fragment("prod", &reports[1].1)
            );
        }
    }

    #[test]
    fn a_row_has_its_context_only_when_the_table_has_the_column() {
        let now = "2026-11-20T12:00:00Z".parse().unwrap();
        let with = |context| {
            shape_all(&Shape {
                form: Form::Table { wide: true },
                only_problems: false,
                context,
            })
        };
        let single = with(Some(Context {
            name: "prod",
            now,
            column: false,
        }));
        assert_eq!(row(&single[1]).context, None);
        assert_eq!(row(&single[1]).name, "weekly-report");
        let several = with(Some(Context {
            name: "prod",
            now,
            column: true,
        }));
        assert_eq!(row(&several[1]).context.as_deref(), Some("prod"));
        assert_eq!(row(&with(None)[1]).context, None);
    }

    #[test]
    fn the_controller_lag_is_named_by_namespace_and_name() {
        let mut reports = diagnosed();
        reports[1].1.controller_lag_seconds = Some(42);
        let how = Shape {
            form: Form::Table { wide: false },
            only_problems: true,
            context: None,
        };
        let lags: Vec<_> = reports
            .into_iter()
            .map(|(cj, r)| shape(&cj, r, &how).controller_lag)
            .collect();
        assert_eq!(
            lags,
            [None, Some(("finance/weekly-report".to_string(), 42))]
        );
    }
}
