//! The `scan` table laid out for a terminal: the core says what each cell of a row says
//! (`doctor::render::scan_rows`); here the cells go into aligned columns, and in a colour
//! terminal the STATUS cell takes the colour of the row's health.

use comfy_table::{Cell, Color, ContentArrangement, Table, presets};
pub use doctor::render::scan_rows::Row;
use doctor::render::scan_rows::{Columns, cells};
use doctor::report::Health;
use jiff::Timestamp;

pub fn table(rows: &[Row], now: Timestamp, all_ns: bool, wide: bool, color: bool) -> String {
    let mut t = Table::new();
    t.load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled);
    if color {
        t.enforce_styling();
    } else {
        t.force_no_tty();
    }
    let columns = Columns::of(rows, all_ns, wide);
    t.set_header(columns.header());
    for r in rows {
        let fg = match r.health {
            Health::Error => Some(Color::Red),
            Health::Warning => Some(Color::Yellow),
            Health::Ok => None,
        };
        let line = cells(r, now, columns);
        let row: Vec<Cell> = line
            .text
            .into_iter()
            .enumerate()
            .map(|(i, text)| match fg {
                Some(fg) if i == line.status => Cell::new(text).fg(fg),
                _ => Cell::new(text),
            })
            .collect();
        t.add_row(row);
    }
    for col in t.column_iter_mut() {
        col.set_padding((0, 2));
    }
    t.trim_fmt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_from_the_cluster_show_control_characters() {
        let payload = "mallory\u{1b}]0;PWNED\u{7}\u{1b}[2J";
        let yaml = format!(
            "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: {n:?}, namespace: {n:?}}}\nspec: {{schedule: {n:?}, timeZone: {n:?}, concurrencyPolicy: {n:?}}}\n",
            n = format!("x{payload}")
        )
        .replace("\\u{1b}", "\\e")
        .replace("\\u{7}", "\\a");
        let (snapshot, _) = doctor::source::parse_bytes("f.yaml", yaml.as_bytes()).into_snapshot();
        assert_eq!(snapshot.cron_jobs[0].meta.name, format!("x{payload}"));
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let opts = doctor::report::Options::utc(now, doctor::replay::KubeVersion::NEWEST, 0);
        let r = doctor::report::build(&snapshot, Vec::new(), &opts);
        let row = Row::new(&snapshot.cron_jobs[0], &r.cron_jobs[0], true);
        for color in [false, true] {
            let out = table(std::slice::from_ref(&row), now, true, true, color);
            assert!(!out.contains('\u{7}'), "{out:?}");
            assert!(!out.contains("\u{1b}]"), "{out:?}");
            assert!(!out.contains("\u{1b}[2J"), "{out:?}");
            assert!(out.contains("xmallory\\e]0;PWNED\\a\\e[2J"), "{out}");
        }
    }
}
