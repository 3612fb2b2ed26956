//! The 123 real-world manifests of the project's corpus (`shared/corpus/realworld`, outside
//! the repository, named by `CRONJOB_DOCTOR_CORPUS`, which `.ci/run` sets): every file loads
//! without panicking, and the facts below were checked by reading the files (and, for the
//! CronJob count, cross-checked with PyYAML, which only rejects 033 and 052). Skipped, with a
//! line saying so, when the variable is unset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use doctor::model::{ConcurrencyPolicy, CronJob, Position};
use doctor::source::{Loaded, parse_bytes};
use jiff::Timestamp;

fn corpus_dir() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("CRONJOB_DOCTOR_CORPUS").map(PathBuf::from) else {
        eprintln!(
            "skipped: CRONJOB_DOCTOR_CORPUS unset (the real-world corpus lives outside the repository)"
        );
        return None;
    };
    assert!(
        dir.is_dir(),
        "CRONJOB_DOCTOR_CORPUS={} is not a directory",
        dir.display()
    );
    Some(dir)
}

/// Every corpus file, by its number ("001" …), loaded.
fn load_corpus(dir: &Path) -> BTreeMap<String, (String, Loaded)> {
    let mut files = Vec::new();
    for sub in [dir.to_path_buf(), dir.join("helm-templates")] {
        for e in std::fs::read_dir(&sub).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                files.push(p);
            }
        }
    }
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            let loaded = parse_bytes(&name, &bytes);
            (name[..3].to_string(), (name, loaded))
        })
        .collect()
}

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn pos(line: u32, column: u32) -> Position {
    Position { line, column }
}

fn field(cj: &CronJob, path: &str) -> Position {
    cj.origin.as_ref().unwrap().fields[path].clone()
}

#[test]
fn realworld_corpus() {
    let Some(dir) = corpus_dir() else { return };
    let corpus = load_corpus(&dir);
    assert_eq!(corpus.len(), 123, "files in the corpus");
    let get = |n: &str| &corpus[n].1;

    // Counts.
    let total: usize = corpus.values().map(|(_, l)| l.cron_jobs.len()).sum();
    assert_eq!(total, 169);
    let per_file = [
        ("022", 2),
        ("024", 10),
        ("037", 3),
        ("041", 2),
        ("053", 3),
        ("054", 2),
        ("056", 2),
        ("057", 2),
        ("058", 2),
        ("059", 2),
        ("060", 2),
        ("061", 5),
        ("062", 2),
        ("063", 2),
        ("064", 2),
        ("065", 4),
        ("067", 5),
        ("068", 6),
        ("069", 3),
        ("070", 5),
        ("079", 2),
        ("123", 2),
        ("033", 0),
        ("071", 0),
    ];
    for (n, count) in per_file {
        assert_eq!(get(n).cron_jobs.len(), count, "{}", corpus[n].0);
    }
    for (n, (name, l)) in &corpus {
        if !per_file.iter().any(|(p, _)| p == n) {
            assert_eq!(l.cron_jobs.len(), 1, "{name}");
        }
    }
    let versions = |v: &str| -> usize {
        corpus
            .values()
            .flat_map(|(_, l)| &l.cron_jobs)
            .filter(|c| c.api_version == v)
            .count()
    };
    assert_eq!(
        (
            versions("batch/v1"),
            versions("batch/v1beta1"),
            versions("batch/v2alpha1")
        ),
        (128, 40, 1)
    );

    // Only the invalid YAML (033) and the Helm template (071) fail; everything else is clean.
    for (n, (name, l)) in &corpus {
        if n != "033" && n != "071" {
            assert!(l.errors.is_empty(), "{name}: {:?}", l.errors);
        }
    }
    let e = &get("033").errors;
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].to_string(),
        "033-HannTheSolo--cloudwatch-alert-to-slack--cronjob.yaml:14:34: invalid YAML: mapping values are not allowed in this context"
    );
    let e = &get("071").errors;
    assert_eq!(e.len(), 1, "one Helm error per file");
    assert!(e[0].message.contains("helm template"));
    assert_eq!((e[0].line, e[0].column), (1, 1));
    // `{{range .items}}` in kubectl arguments (001, 022) and Helm in a comment (095) are fine.
    for n in ["001", "022", "095"] {
        assert!(get(n).errors.is_empty());
    }

    // Every v1beta1 / v2alpha1 CronJob gets its note at the apiVersion value, and the only
    // other notes are the wrongly nested templates of 075 and 109.
    let mut removed = 0;
    for (name, l) in corpus.values() {
        for n in &l.notes {
            if n.message.starts_with("apiVersion batch/v1beta1 for CronJob was removed in Kubernetes 1.25")
                || n.message.starts_with("apiVersion batch/v2alpha1 for CronJob was an alpha API, removed in Kubernetes 1.21")
            {
                removed += 1;
                if name.ends_with(".yaml") {
                    assert_eq!(n.column, 13, "{name}: {n}");
                }
            } else {
                assert!(name.starts_with("075") || name.starts_with("109"), "{n}");
            }
        }
    }
    assert_eq!(removed, 41);
    assert_eq!(
        get("096").notes[0].to_string(),
        "096-CarltonSemple--domain-bot-github-crawler--cronjob.yaml:1:13: apiVersion batch/v2alpha1 for CronJob was an alpha API, removed in Kubernetes 1.21; use batch/v1"
    );

    // 008: NetworkPolicy ignored; the CronJob has no schedule and still loads.
    let cj = &get("008").cron_jobs[0];
    assert_eq!(cj.meta.name, "cronjob-test-1");
    assert_eq!(cj.spec.schedule, None);
    assert!(cj.spec.job_template.has_pod_template);
    assert_eq!(cj.origin.as_ref().unwrap().position, pos(14, 1));
    assert_eq!(get("008").notes.len(), 1);

    // 005: `kubectl get -o json` with CRLF, status, managedFields and \u0026 escapes.
    let cj = &get("005").cron_jobs[0];
    assert_eq!(cj.api_version, "batch/v1beta1");
    assert_eq!(
        (cj.meta.name.as_str(), cj.meta.namespace.as_str()),
        ("hello", "default")
    );
    assert_eq!(cj.meta.creation_timestamp, Some(ts("2023-02-17T09:32:14Z")));
    assert_eq!(cj.status.active.len(), 8);
    assert_eq!(cj.status.active[0].name, "hello-1676626380");
    assert_eq!(
        cj.status.active[7].uid,
        "3f6953a5-b4b4-4f5c-8e65-8d3966fbbb24"
    );
    assert_eq!(
        cj.status.last_schedule_time,
        Some(ts("2023-02-17T09:40:00Z"))
    );
    assert_eq!(cj.spec.schedule.as_deref(), Some("*/1 * * * *"));
    assert_eq!(field(cj, "spec.schedule"), pos(145, 21));
    let managers = &cj.meta.suspend_managers;
    assert_eq!(managers.len(), 1);
    assert_eq!(
        (managers[0].manager.as_str(), managers[0].operation.as_str()),
        ("kubectl-create", "Update")
    );
    assert_eq!(managers[0].time, Some(ts("2023-02-17T09:32:14Z")));
    // 002: plain JSON.
    assert_eq!(get("002").cron_jobs[0].meta.name, "nginx_cronjob");

    // 040: CRLF line endings, no final newline.
    let cj = &get("040").cron_jobs[0];
    assert_eq!(cj.spec.schedule.as_deref(), Some("*/1 * * * *"));
    assert_eq!(field(cj, "spec.schedule"), pos(7, 13));
    assert_eq!(cj.spec.concurrency_policy, ConcurrencyPolicy::Allow);

    // 079: kind: List with status; cj2 is suspended with `active: []`.
    let [cj1, cj2] = &get("079").cron_jobs[..] else {
        panic!()
    };
    assert_eq!(cj1.status.active.len(), 1);
    assert_eq!(cj1.status.active[0].name, "j1");
    assert_eq!(
        cj1.status.last_schedule_time,
        Some(ts("2023-02-06T15:49:00Z"))
    );
    assert_eq!(
        cj1.status.last_successful_time,
        Some(ts("2023-02-06T15:49:38Z"))
    );
    assert_eq!(cj1.meta.creation_timestamp, None);
    assert!(!cj1.spec.suspend && cj2.spec.suspend);
    assert!(cj2.status.active.is_empty());
    assert_eq!(cj2.origin.as_ref().unwrap().position, pos(49, 3));
    assert_eq!(field(cj2, "spec.suspend"), pos(74, 14));

    // 075: `suspend: False`, and a pod template without its `template:` level.
    let cj = &get("075").cron_jobs[0];
    assert!(!cj.spec.suspend);
    assert_eq!(field(cj, "spec.suspend"), pos(52, 12));
    assert_eq!(cj.spec.starting_deadline_seconds, Some(3600));
    assert_eq!(cj.spec.concurrency_policy, ConcurrencyPolicy::Forbid);
    assert!(!cj.spec.job_template.has_pod_template);
    assert!(
        get("075")
            .notes
            .iter()
            .any(|n| n.line == 59 && n.message.contains("`spec.jobTemplate.spec.spec`"))
    );

    // 109: containers and restartPolicy one level too high.
    let cj = &get("109").cron_jobs[0];
    assert_eq!(cj.spec.job_template.spec.restart_policy, None);
    assert_eq!(cj.spec.job_template.spec.containers.len(), 1);
    assert_eq!(cj.spec.job_template.spec.containers[0].name, "mysql-backup");
    let notes: Vec<_> = get("109")
        .notes
        .iter()
        .map(|n| (n.line, n.column))
        .collect();
    assert_eq!(notes, [(32, 9), (46, 9)]);

    // Separators: `--- ` with a trailing blank (020), leading and trailing `---` (056).
    assert_eq!(
        get("020").cron_jobs[0].spec.schedule.as_deref(),
        Some("*/5 * * * *")
    );
    let names: Vec<_> = get("056")
        .cron_jobs
        .iter()
        .map(|c| c.meta.name.as_str())
        .collect();
    assert_eq!(names, ["imageupload-test", "sms-invite-test"]);

    // Odds and ends.
    assert_eq!(
        get("029").cron_jobs[0].spec.schedule.as_deref(),
        Some("${CRON_SCHEDULE}")
    );
    assert_eq!(
        get("029").cron_jobs[0].spec.time_zone.as_deref(),
        Some("Europe/Zurich")
    );
    assert_eq!(
        get("013").cron_jobs[0].spec.starting_deadline_seconds,
        Some(16)
    );
    assert_eq!(
        get("094").cron_jobs[0].spec.concurrency_policy,
        ConcurrencyPolicy::Replace
    );
    assert_eq!(
        get("015").cron_jobs[0].spec.concurrency_policy,
        ConcurrencyPolicy::Forbid
    );
    assert_eq!(
        get("096").cron_jobs[0].spec.job_template.spec.containers[0].image,
        ""
    );
    let deadlines: Vec<_> = get("065")
        .cron_jobs
        .iter()
        .map(|c| c.spec.starting_deadline_seconds)
        .collect();
    assert_eq!(deadlines, [Some(300), Some(300), Some(3600), Some(3600)]);
    assert!(
        get("065")
            .cron_jobs
            .iter()
            .all(|c| c.spec.time_zone.as_deref() == Some("America/New_York"))
    );
    assert_eq!(
        get("074").cron_jobs[0].spec.job_template.spec.completions,
        Some(17)
    );
    assert_eq!(
        get("039").cron_jobs[0].spec.schedule.as_deref(),
        Some("0 0 */85 * *")
    );
}
