//! The report's JSON written straight to a writer. For a big input the JSON is several times
//! the input's size (a 6 MB manifest gives 28 MB of `explain -o json`); building it as one
//! `String` first, as `render::json::render` does, more than doubled the peak memory. The
//! bytes are the same as that renderer's.

use std::io::Write;

use super::Report;

/// Writes `report` as pretty JSON plus a final newline, through a buffer. A closed pipe
/// (`| head`) ends the output quietly, like every other output of the tool.
pub fn write_json(report: &Report, out: impl Write) {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let _ = serde_json::to_writer_pretty(&mut out, report)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_as_the_renderer() {
        let yaml = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: a, namespace: ops}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}\n";
        let (snapshot, _) = crate::source::parse_bytes("a.yaml", yaml.as_bytes()).into_snapshot();
        let zone = jiff::tz::TimeZone::UTC;
        let opts = super::super::Options {
            now: "2026-11-20T12:00:00Z".parse().unwrap(),
            controller_zone_name: "UTC",
            controller_zone: &zone,
            version: crate::replay::KubeVersion::NEWEST,
            timeline: 8,
        };
        let r = super::super::build(&snapshot, Vec::new(), &opts);
        let mut out = Vec::new();
        write_json(&r, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            crate::render::json::render(&r)
        );
    }
}
