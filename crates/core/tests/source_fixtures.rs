//! `doctor::source` on small hand-written fixtures, one feature each.

use doctor::model::{ConcurrencyPolicy, FieldManagerEntry, Position};
use doctor::source::{Loaded, parse_bytes, parse_text};
use jiff::Timestamp;

fn fixture(name: &str) -> Loaded {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/source")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_bytes(name, &bytes)
}

fn pos(line: u32, column: u32) -> Position {
    Position { line, column }
}

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn messages<T: ToString>(v: &[T]) -> Vec<String> {
    v.iter().map(ToString::to_string).collect()
}

#[test]
fn broken_middle_document_does_not_stop_the_others() {
    let l = fixture("broken-middle.yaml");
    let names: Vec<_> = l.cron_jobs.iter().map(|c| c.meta.name.as_str()).collect();
    assert_eq!(names, ["first", "third"]);
    assert_eq!(l.errors.len(), 1, "{:?}", l.errors);
    let e = &l.errors[0];
    // The unterminated quote opens on line 22; the parser notices within the document.
    assert_eq!(e.file, "broken-middle.yaml");
    assert!((22..=24).contains(&e.line), "{e}");
    assert!(e.column >= 1);
    assert!(e.to_string().starts_with(&format!(
        "broken-middle.yaml:{}:{}: invalid YAML: ",
        e.line, e.column
    )));
    // Positions in the third document are positions in the file.
    let third = &l.cron_jobs[1];
    let o = third.origin.as_ref().unwrap();
    assert_eq!(o.file, "broken-middle.yaml");
    assert_eq!(o.position, pos(25, 1));
    assert_eq!(o.fields["spec.schedule"], pos(30, 13));
    assert_eq!(third.spec.schedule.as_deref(), Some("*/5 * * * *"));
    assert_eq!(third.spec.job_template.spec.containers[0].image, "busybox");
    assert_eq!(
        o.fields["spec.jobTemplate.spec.template.spec.containers.0.image"],
        pos(36, 33)
    );
}

#[test]
fn positions_of_the_fields_the_linter_prints() {
    let l = fixture("positions.yaml");
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    let cj = &l.cron_jobs[0];
    let o = cj.origin.as_ref().unwrap();
    assert_eq!(o.position, pos(3, 1));
    let expect = [
        // Scalars: the value. Mappings and lists: the key.
        ("metadata.name", pos(6, 9)),
        ("metadata.namespace", pos(7, 14)),
        ("metadata.annotations", pos(8, 3)),
        ("spec", pos(10, 1)),
        ("spec.schedule", pos(11, 13)),
        ("spec.timeZone", pos(12, 13)),
        ("spec.startingDeadlineSeconds", pos(13, 28)),
        ("spec.concurrencyPolicy", pos(14, 22)),
        ("spec.suspend", pos(15, 12)),
        ("spec.successfulJobsHistoryLimit", pos(16, 31)),
        ("spec.failedJobsHistoryLimit", pos(17, 27)),
        ("spec.jobTemplate", pos(18, 3)),
        ("spec.jobTemplate.spec", pos(19, 5)),
        ("spec.jobTemplate.spec.backoffLimit", pos(20, 21)),
        ("spec.jobTemplate.spec.activeDeadlineSeconds", pos(21, 30)),
        ("spec.jobTemplate.spec.ttlSecondsAfterFinished", pos(22, 32)),
        ("spec.jobTemplate.spec.template", pos(23, 7)),
        ("spec.jobTemplate.spec.template.spec", pos(24, 9)),
        (
            "spec.jobTemplate.spec.template.spec.restartPolicy",
            pos(25, 26),
        ),
        (
            "spec.jobTemplate.spec.template.spec.containers",
            pos(26, 11),
        ),
        (
            "spec.jobTemplate.spec.template.spec.containers.0",
            pos(27, 15),
        ),
        (
            "spec.jobTemplate.spec.template.spec.containers.0.image",
            pos(28, 22),
        ),
    ];
    for (path, p) in expect {
        assert_eq!(o.fields.get(path), Some(&p), "{path}");
    }
    // Fallback to the closest enclosing field.
    assert_eq!(
        o.position_of("spec.jobTemplate.spec.template.spec.containers.0.resources"),
        pos(27, 15)
    );
    assert_eq!(
        o.position_of("spec.jobTemplate.spec.completions"),
        pos(19, 5)
    );
    assert_eq!(o.position_of("nothing.here"), pos(3, 1));
    let s = &cj.spec;
    assert_eq!(s.schedule.as_deref(), Some("*/5 * * * *"));
    assert_eq!(s.time_zone.as_deref(), Some("Europe/Zurich"));
    assert_eq!(s.starting_deadline_seconds, Some(30));
    assert_eq!(s.concurrency_policy, ConcurrencyPolicy::Forbid);
    assert!(!s.suspend);
    assert_eq!(s.successful_jobs_history_limit, Some(0));
    assert_eq!(s.failed_jobs_history_limit, Some(2));
    let j = &s.job_template.spec;
    assert_eq!(
        (
            j.backoff_limit,
            j.active_deadline_seconds,
            j.ttl_seconds_after_finished
        ),
        (Some(1), Some(600), Some(3600))
    );
    assert_eq!(j.restart_policy.as_deref(), Some("OnFailure"));
    assert!(s.job_template.has_pod_template);
    assert_eq!(cj.meta.annotations["owner"], "team-a");
    assert_eq!(cj.meta.namespace, "ops");
}

#[test]
fn positions_survive_crlf_bom_and_missing_final_newline() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/source/positions.yaml"),
    )
    .unwrap();
    let crlf = format!("\u{feff}{}", text.trim_end().replace('\n', "\r\n"));
    let l = parse_text("crlf.yaml", &crlf);
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    let o = l.cron_jobs[0].origin.as_ref().unwrap();
    assert_eq!(o.fields["spec.schedule"], pos(11, 13));
    assert_eq!(
        o.fields["spec.jobTemplate.spec.template.spec.containers.0.image"],
        pos(28, 22)
    );
    assert_eq!(
        l.cron_jobs[0].spec.job_template.spec.containers[0].image,
        "busybox:1.36"
    );
}

#[test]
fn lists_mixed_kinds_and_statuses() {
    let l = fixture("list.yaml");
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    assert_eq!(
        messages(&l.notes),
        [
            "list.yaml:34:12: `metadata.ownerReferences[].uid: 1234` is a number in YAML, not a string; the API server rejects it (quote it: \"1234\")"
        ]
    );
    assert_eq!(
        (
            l.cron_jobs.len(),
            l.jobs.len(),
            l.pods.len(),
            l.events.len()
        ),
        (1, 1, 1, 0)
    );
    assert!(l.evidence.jobs && l.evidence.pods && !l.evidence.events);

    let cj = &l.cron_jobs[0];
    assert!(cj.spec.suspend);
    assert_eq!(
        cj.status.last_schedule_time,
        Some(ts("2024-05-01T03:00:00Z"))
    );
    assert_eq!(
        cj.status.last_successful_time,
        Some(ts("2024-05-01T03:00:41Z"))
    );
    // The origin of a List item is the item.
    assert_eq!(cj.origin.as_ref().unwrap().position, pos(4, 3));
    assert_eq!(
        cj.origin.as_ref().unwrap().fields["spec.schedule"],
        pos(10, 15)
    );

    let job = &l.jobs[0];
    assert!(job.is_manual() && job.is_finished() && job.is_succeeded());
    assert_eq!(job.meta.controller().unwrap().name, "nightly");
    assert_eq!(
        job.meta.controller().unwrap().uid,
        "1234",
        "a number where a string belongs is kept as text"
    );
    assert_eq!(job.spec.backoff_limit, Some(2));
    assert_eq!(job.status.succeeded, 1);
    assert_eq!(job.status.completion_time, Some(ts("2024-05-01T03:00:41Z")));
    assert_eq!(
        job.origin.as_ref().unwrap().fields["spec.backoffLimit"],
        pos(37, 19)
    );

    let pod = &l.pods[0];
    assert_eq!(pod.job_name(), Some("nightly-28573380"));
    assert_eq!(
        (pod.phase.as_str(), pod.node_name.as_str()),
        ("Failed", "node-1")
    );
    let cs = &pod.container_statuses[0];
    assert_eq!(cs.restart_count, 3);
    assert_eq!(cs.state.state, "terminated");
    assert_eq!(cs.state.reason, "OOMKilled");
    assert_eq!(cs.state.exit_code, Some(137));
    assert_eq!(cs.state.at, Some(ts("2024-05-01T03:00:40Z")));
    assert_eq!(cs.last_state.state, "waiting");
    assert_eq!(cs.last_state.message, "back-off 40s");
}

#[test]
fn uid_written_as_a_number_gets_a_note_only_where_kubectl_would_object() {
    // `uid: 1234` in list.yaml is inside ownerReferences: still a string field.
    let l = parse_text(
        "x.yaml",
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  labels:\n    version: 2\n",
    );
    assert_eq!(l.jobs[0].meta.labels["version"], "2");
    assert_eq!(messages(&l.notes).len(), 1);
    assert!(
        l.notes[0]
            .to_string()
            .starts_with("x.yaml:6:14: `metadata.labels.version: 2` is a number"),
        "{:?}",
        l.notes
    );
}

#[test]
fn typed_list_from_the_api_server_json() {
    let l = fixture("cronjoblist.json");
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    let cj = &l.cron_jobs[0];
    // Items of a CronJobList may omit kind and apiVersion.
    assert_eq!(cj.api_version, "batch/v1");
    assert_eq!(cj.meta.name, "raw-api-item");
    assert_eq!(cj.meta.annotations["note"], "a & b < c");
    assert_eq!(cj.spec.concurrency_policy, ConcurrencyPolicy::Forbid);
    assert_eq!(cj.spec.starting_deadline_seconds, Some(200));
    assert_eq!(cj.spec.job_template.spec.containers[0].image, "alpine:3");
    assert_eq!(cj.status.active.len(), 1);
    assert_eq!(cj.status.active[0].uid, "u-1");
    assert_eq!(
        cj.status.last_schedule_time,
        Some(ts("2024-05-01T10:10:00Z"))
    );
    let o = cj.origin.as_ref().unwrap();
    // In JSON an item starts at its `{`.
    assert_eq!(o.position, pos(4, 9));
    assert_eq!(o.fields["spec.schedule"], pos(13, 29));
    assert_eq!(
        o.fields["spec.jobTemplate.spec.template.spec.restartPolicy"],
        pos(17, 81)
    );
    assert!(!l.evidence.jobs);
}

#[test]
fn empty_typed_list_is_evidence_of_nothing() {
    let l = parse_text(
        "jobs.json",
        r#"{"apiVersion":"batch/v1","kind":"JobList","items":[]}"#,
    );
    assert!(l.evidence.jobs && !l.evidence.pods);
    assert!(l.jobs.is_empty() && l.errors.is_empty());
}

#[test]
fn concatenated_json_values() {
    let text = "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"schedule\":\"1 * * * *\"}}\n\
                {\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":{\"name\":\"b\"},\"spec\":{\"schedule\":\"2 * * * *\"}}\n";
    let l = parse_text("stream.json", text);
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    let names: Vec<_> = l.cron_jobs.iter().map(|c| c.meta.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(
        l.cron_jobs[1].origin.as_ref().unwrap().fields["spec.schedule"],
        pos(2, 86)
    );
}

#[test]
fn both_event_apis() {
    let l = fixture("events.yaml");
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    assert!(l.evidence.events);
    let [core, new] = &l.events[..] else {
        panic!("{:?}", l.events)
    };
    assert_eq!(core.involved_object.kind, "CronJob");
    assert_eq!(core.involved_object.uid, "1234");
    assert_eq!(
        (core.type_.as_str(), core.reason.as_str(), core.count),
        ("Warning", "MissSchedule", 4)
    );
    assert_eq!(core.first_timestamp, Some(ts("2024-05-01T03:00:00Z")));
    assert_eq!(core.last_timestamp, Some(ts("2024-05-01T06:00:00Z")));
    assert_eq!(core.source, "cronjob-controller");

    assert_eq!(new.involved_object.kind, "Job");
    assert_eq!(new.involved_object.name, "nightly-28573380");
    assert_eq!(new.message, "Created pod: nightly-28573380-abcde");
    assert_eq!(new.count, 2);
    assert_eq!(new.first_timestamp, Some(ts("2024-05-01T03:00:01.123456Z")));
    assert_eq!(new.last_timestamp, Some(ts("2024-05-01T03:05:00.5Z")));
    assert_eq!(new.source, "job-controller");
}

#[test]
fn lenient_values() {
    let l = fixture("lenient.yaml");
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    let [a, b] = &l.cron_jobs[..] else { panic!() };
    assert_eq!(a.api_version, "batch/v1beta1");
    assert_eq!(a.spec.schedule.as_deref(), Some("0 0 * * *"));
    assert_eq!(a.spec.concurrency_policy, ConcurrencyPolicy::Forbid);
    assert!(!a.spec.suspend);
    assert_eq!(a.spec.starting_deadline_seconds, Some(120));
    assert_eq!(a.spec.successful_jobs_history_limit, Some(3));
    assert_eq!(a.spec.failed_jobs_history_limit, Some(2));
    assert_eq!(a.spec.job_template.spec.suspend, Some(true));
    assert_eq!(a.spec.job_template.spec.backoff_limit, Some(6));

    assert_eq!(b.meta.name, "1234");
    assert_eq!(b.meta.annotations["prometheus.io/scrape"], "true");
    assert_eq!(b.meta.annotations["empty"], "");
    assert_eq!(b.spec.schedule.as_deref(), Some("@hourly"));
    assert_eq!(
        b.spec.concurrency_policy,
        ConcurrencyPolicy::Other("Sometimes".into())
    );
    assert!(b.spec.suspend);
    assert!(!b.spec.job_template.has_pod_template);

    let notes = messages(&l.notes);
    let expected = [
        "lenient.yaml:1:13: apiVersion batch/v1beta1 for CronJob was removed in Kubernetes 1.25",
        "lenient.yaml:9:28: `spec.startingDeadlineSeconds` is the string \"120\"; read as the integer 120",
        "lenient.yaml:15:21: `spec.jobTemplate.spec.backoffLimit` is the string \"6\"; read as the integer 6",
        "lenient.yaml:26:9: `metadata.name: 1234` is a number in YAML",
        "lenient.yaml:28:27: `metadata.annotations.prometheus.io/scrape: true` is a boolean in YAML",
        "lenient.yaml:33:12: `spec.suspend` is the string \"true\"; read as true",
    ];
    assert_eq!(notes.len(), expected.len(), "{notes:#?}");
    for e in expected {
        assert!(
            notes.iter().any(|n| n.starts_with(e)),
            "missing {e:?} in {notes:#?}"
        );
    }
}

#[test]
fn structurally_broken_cronjobs_load_as_far_as_possible() {
    let l = fixture("broken-structure.yaml");
    let [no_spec, bad, misplaced, strings] = &l.cron_jobs[..] else {
        panic!("{:?}", l.cron_jobs)
    };

    assert_eq!(no_spec.meta.name, "no-spec");
    assert_eq!(no_spec.spec.schedule, None);
    assert!(!no_spec.spec.job_template.has_pod_template);

    assert_eq!(bad.meta.name, "bad-types");
    assert_eq!(bad.spec.schedule, None);
    assert_eq!(bad.spec.starting_deadline_seconds, None);
    assert!(!bad.spec.suspend);
    assert_eq!(bad.spec.successful_jobs_history_limit, None);
    assert_eq!(bad.spec.failed_jobs_history_limit, None);
    assert_eq!(
        bad.origin.as_ref().unwrap().fields["spec.startingDeadlineSeconds"],
        pos(12, 28)
    );

    assert_eq!(misplaced.spec.schedule.as_deref(), Some("0 * * * *"));
    assert!(!misplaced.spec.job_template.has_pod_template);
    assert_eq!(misplaced.spec.job_template.spec.backoff_limit, None);

    assert_eq!(strings.meta.name, "");
    assert_eq!(strings.status.last_schedule_time, None);

    let errors = messages(&l.errors);
    let expected = [
        "broken-structure.yaml:11:13: `spec.schedule` should be a string, found a list",
        "broken-structure.yaml:12:28: `spec.startingDeadlineSeconds` should be an integer, found \"soon\"",
        "broken-structure.yaml:13:12: `spec.suspend` should be true or false, found the string \"maybe\"",
        "broken-structure.yaml:14:31: `spec.successfulJobsHistoryLimit`: \"99999999999999999999\" is out of range",
        "broken-structure.yaml:15:27: `spec.failedJobsHistoryLimit` should be an integer, found \"1.5\" (not a whole number)",
        "broken-structure.yaml:16:16: `spec.jobTemplate` should be a mapping, found a string",
        "broken-structure.yaml:34:11: `metadata` should be a mapping, found a string",
        "broken-structure.yaml:35:7: `spec` should be a mapping, found a number",
        "broken-structure.yaml:37:21: `status.lastScheduleTime` should be an RFC 3339 time",
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:#?}");
    for e in expected {
        assert!(
            errors.iter().any(|n| n.starts_with(e)),
            "missing {e:?} in {errors:#?}"
        );
    }
    let notes = messages(&l.notes);
    let expected = [
        "broken-structure.yaml:24:3: unknown field `spec.backoffLimit`",
        "broken-structure.yaml:27:7: unknown field `spec.jobTemplate.spec.containers`",
        "broken-structure.yaml:30:7: unknown field `spec.jobTemplate.spec.restartPolicy`",
    ];
    assert_eq!(notes.len(), expected.len(), "{notes:#?}");
    for e in expected {
        assert!(
            notes.iter().any(|n| n.starts_with(e)),
            "missing {e:?} in {notes:#?}"
        );
    }
    assert!(
        notes[0].ends_with("`backoffLimit` belongs under `spec.jobTemplate.spec`"),
        "{notes:#?}"
    );
}

#[test]
fn helm_templates_are_reported_not_parsed() {
    let l = fixture("helm.yaml");
    assert!(l.cron_jobs.is_empty());
    assert_eq!(
        messages(&l.errors),
        [
            "helm.yaml:4:9: looks like a Helm template ({{ … }}); render it first with `helm template`"
        ]
    );
    // Even when the template happens to be valid YAML.
    let l = parse_text(
        "v.yaml",
        "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: x\nspec:\n  schedule: \"{{ .Values.schedule }}\"\n",
    );
    assert!(l.cron_jobs.is_empty());
    assert_eq!(l.errors.len(), 1);
    assert_eq!((l.errors[0].line, l.errors[0].column), (6, 13));
    assert!(l.errors[0].message.contains("helm template"));
}

#[test]
fn go_templates_in_strings_and_env_placeholders_are_fine() {
    let l = fixture("not-helm.yaml");
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    assert_eq!(
        l.cron_jobs[0].spec.schedule.as_deref(),
        Some("${CRON_SCHEDULE}")
    );
}

#[test]
fn other_kinds_comments_and_empty_documents_are_ignored() {
    let text = "# just a comment\n---\n---\n# another\n...\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n~\n---\nreplicaCount: 1\n";
    let l = parse_text("misc.yaml", text);
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    assert!(l.cron_jobs.is_empty());
    let l = parse_text("s.yaml", "just a sentence\n");
    assert_eq!(
        messages(&l.errors),
        [
            "s.yaml:1:1: expected a Kubernetes object (a mapping with `apiVersion` and `kind`), found a string"
        ]
    );
    let l = parse_text(
        "nokind.yaml",
        "metadata: {name: x}\nspec:\n  schedule: '* * * * *'\n",
    );
    assert_eq!(
        messages(&l.notes),
        ["nokind.yaml:1:1: this looks like a CronJob but has no `kind`; ignored"]
    );
}

#[test]
fn duplicate_keys_last_wins_with_a_note() {
    let l = parse_text(
        "d.yaml",
        "kind: CronJob\napiVersion: batch/v1\nspec:\n  schedule: '1 * * * *'\n  schedule: '2 * * * *'\n",
    );
    assert_eq!(l.cron_jobs[0].spec.schedule.as_deref(), Some("2 * * * *"));
    assert_eq!(
        messages(&l.notes),
        ["d.yaml:5:3: duplicate key `schedule` (first at line 4): the last value is used"]
    );
}

#[test]
fn anchors_aliases_and_merge_keys() {
    let text = "\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: merged
  labels: &labels {app: x, tier: batch}
  annotations:
    <<: *labels
    tier: override
spec:
  schedule: &s '*/7 * * * *'
  jobTemplate:
    spec: &jobspec
      backoffLimit: 4
      template: {spec: {restartPolicy: Never, containers: [{name: a, image: b}]}}
";
    let l = parse_text("a.yaml", text);
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    let cj = &l.cron_jobs[0];
    assert_eq!(cj.meta.labels.len(), 2);
    assert_eq!(cj.meta.annotations["app"], "x");
    assert_eq!(cj.meta.annotations["tier"], "override");
    assert_eq!(cj.spec.job_template.spec.backoff_limit, Some(4));
}

#[test]
fn managed_fields_record_who_set_suspend() {
    let text = r#"{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"m","managedFields":[
  {"manager":"kubectl-client-side-apply","operation":"Update","time":"2024-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:schedule":{}}}},
  {"manager":"kubectl-patch","operation":"Update","time":"2024-02-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:suspend":{}}}},
  {"manager":"argocd","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:suspend":{},"f:schedule":{}}}}
]},"spec":{"schedule":"@daily","suspend":true}}"#;
    let l = parse_text("m.json", text);
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    let m = &l.cron_jobs[0].meta.suspend_managers;
    assert_eq!(m.len(), 2);
    assert_eq!(
        (m[0].manager.as_str(), m[0].operation.as_str()),
        ("kubectl-patch", "Update")
    );
    assert_eq!(m[0].time, Some(ts("2024-02-01T00:00:00Z")));
    assert_eq!((m[1].manager.as_str(), m[1].time), ("argocd", None));
}

/// `(manager, operation, time)` of who set `spec.suspend`, for comparing whole lists.
fn managers(m: &[FieldManagerEntry]) -> Vec<(&str, &str, Option<Timestamp>)> {
    m.iter()
        .map(|e| (e.manager.as_str(), e.operation.as_str(), e.time))
        .collect()
}

/// The `managedFields` entries that set `spec.suspend` are read with the loader's leniency:
/// each wrong type is reported at its value (after the fields of `metadata` before it) and
/// reads as "" or None, the entry's other fields kept; a plain number or boolean is kept as
/// written, noted and remembered as a wrong type; `f:suspend: null` sets it too.
#[test]
fn who_set_suspend_entries_with_wrong_types_are_reported_and_kept() {
    let l = fixture("managed-fields-wrong-types.yaml");
    assert_eq!(
        messages(&l.errors),
        [
            "managed-fields-wrong-types.yaml:6:11: `metadata.labels` should be a mapping, found a list",
            "managed-fields-wrong-types.yaml:8:14: `metadata.managedFields[].manager` should be a string, found a list",
            "managed-fields-wrong-types.yaml:10:11: `metadata.managedFields[].time` should be a time, found a mapping",
            "managed-fields-wrong-types.yaml:15:11: `metadata.managedFields[].time` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"not a time\"",
            "managed-fields-wrong-types.yaml:22:16: `metadata.managedFields[].operation` should be a string, found a mapping",
            "managed-fields-wrong-types.yaml:34:11: `metadata.managedFields[].time` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"5\"",
        ]
    );
    assert_eq!(
        messages(&l.notes),
        [
            "managed-fields-wrong-types.yaml:9:16: `metadata.managedFields[].operation: 5` is a number in YAML, not a string; the API server rejects it (quote it: \"5\")",
            "managed-fields-wrong-types.yaml:13:14: `metadata.managedFields[].manager: true` is a boolean in YAML, not a string; the API server rejects it (quote it: \"true\")",
            "managed-fields-wrong-types.yaml:17:14: `metadata.managedFields[].manager: 123` is a number in YAML, not a string; the API server rejects it (quote it: \"123\")",
        ]
    );
    let cj = &l.cron_jobs[0];
    assert_eq!(
        managers(&cj.meta.suspend_managers),
        [
            ("", "5", None),
            ("true", "Update", None),
            ("123", "Apply", None),
            ("argocd", "", None),
            ("kubectl-patch", "Update", Some(ts("2024-02-01T00:00:00Z"))),
            ("quoted", "Update", Some(ts("2024-03-01T00:00:00Z"))),
            ("", "", None),
        ]
    );
    let origin = cj.origin.as_ref().unwrap();
    let wrong: Vec<_> = origin
        .wrong_types
        .iter()
        .map(|w| {
            (
                w.path.as_str(),
                w.value.as_str(),
                w.found,
                w.position.clone(),
            )
        })
        .collect();
    assert_eq!(
        wrong,
        [
            (
                "metadata.managedFields[].operation",
                "5",
                "number",
                pos(9, 16)
            ),
            (
                "metadata.managedFields[].manager",
                "true",
                "bool",
                pos(13, 14)
            ),
            (
                "metadata.managedFields[].manager",
                "123",
                "number",
                pos(17, 14)
            ),
        ]
    );
    // Not positioned: the entries are not fields a finding points at.
    assert!(
        origin
            .fields
            .iter()
            .all(|(path, _)| !path.contains("managedFields")),
        "{:?}",
        origin.fields
    );
}

/// An entry that does not set `spec.suspend` says nothing, whatever is wrong in it (every
/// field of the wrong type, `fieldsV1` or `f:spec` not a mapping, `f:suspend` elsewhere),
/// before or after one that does: no error, no note, no wrong type.
#[test]
fn managed_fields_entries_that_do_not_set_suspend_are_not_reported() {
    let l = fixture("managed-fields-others-unreported.yaml");
    assert_eq!(messages(&l.errors), Vec::<String>::new());
    assert_eq!(messages(&l.notes), Vec::<String>::new());
    let cj = &l.cron_jobs[0];
    assert_eq!(
        managers(&cj.meta.suspend_managers),
        [("good", "Update", Some(ts("2024-01-01T00:00:00Z")))]
    );
    assert!(cj.origin.as_ref().unwrap().wrong_types.is_empty());
}

/// `managedFields` that is not a list (a mapping, a number, a string, null), and items that are
/// not mappings, read as no entries without a diagnostic; the mapping items are still read.
#[test]
fn managed_fields_of_another_shape_read_as_no_entries_unreported() {
    let l = fixture("managed-fields-shapes.yaml");
    assert_eq!(messages(&l.errors), Vec::<String>::new());
    assert_eq!(messages(&l.notes), Vec::<String>::new());
    let read: Vec<_> = l
        .cron_jobs
        .iter()
        .map(|c| (c.meta.name.as_str(), managers(&c.meta.suspend_managers)))
        .collect();
    assert_eq!(
        read,
        [
            ("c1", vec![]),
            ("c2", vec![]),
            ("c3", vec![]),
            ("c4", vec![]),
            ("d", vec![("m", "Update", Some(ts("2024-05-01T12:00:00Z")))]),
        ]
    );
}

/// Jobs, Pods and both Event APIs read who set `spec.suspend` as CronJobs do, reported in the
/// same place of the object (`metadata` first: a Pod's `status.phase` and `spec.nodeName`
/// come after).
#[test]
fn who_set_suspend_is_read_for_jobs_pods_and_events_too() {
    let l = fixture("managed-fields-other-kinds.yaml");
    assert_eq!(
        messages(&l.errors),
        [
            "managed-fields-other-kinds.yaml:7:14: `metadata.managedFields[].manager` should be a string, found a list",
            "managed-fields-other-kinds.yaml:9:11: `metadata.managedFields[].time` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"x\"",
            "managed-fields-other-kinds.yaml:32:14: `metadata.managedFields[].manager` should be a string, found a list",
            "managed-fields-other-kinds.yaml:34:11: `metadata.managedFields[].time` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"x\"",
            "managed-fields-other-kinds.yaml:42:17: `status.phase` should be a string, found a list",
            "managed-fields-other-kinds.yaml:40:13: `spec.nodeName` should be a string, found a list",
            "managed-fields-other-kinds.yaml:50:14: `metadata.managedFields[].manager` should be a string, found a list",
            "managed-fields-other-kinds.yaml:52:11: `metadata.managedFields[].time` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"12\"",
            "managed-fields-other-kinds.yaml:67:16: `metadata.managedFields[].operation` should be a string, found a list",
            "managed-fields-other-kinds.yaml:68:11: `metadata.managedFields[].time` should be an RFC 3339 time such as 2024-05-01T12:00:00Z, found \"yesterday\"",
        ]
    );
    assert_eq!(
        messages(&l.notes),
        [
            "managed-fields-other-kinds.yaml:8:16: `metadata.managedFields[].operation: 1` is a number in YAML, not a string; the API server rejects it (quote it: \"1\")",
            "managed-fields-other-kinds.yaml:33:16: `metadata.managedFields[].operation: 1` is a number in YAML, not a string; the API server rejects it (quote it: \"1\")",
            "managed-fields-other-kinds.yaml:51:16: `metadata.managedFields[].operation: true` is a boolean in YAML, not a string; the API server rejects it (quote it: \"true\")",
        ]
    );
    assert_eq!(
        managers(&l.jobs[0].meta.suspend_managers),
        [
            ("", "1", None),
            (
                "kube-controller-manager",
                "Update",
                Some(ts("2024-01-01T00:00:00Z"))
            ),
        ]
    );
    assert_eq!(
        managers(&l.pods[0].meta.suspend_managers),
        [("", "1", None)]
    );
    let events: Vec<_> = l
        .events
        .iter()
        .map(|e| managers(&e.meta.suspend_managers))
        .collect();
    assert_eq!(events, [vec![("", "true", None)], vec![("x", "", None)]]);
    assert_eq!(l.jobs[0].origin.as_ref().unwrap().wrong_types.len(), 1);
}

#[test]
fn api_versions() {
    let doc = |v: &str| {
        format!(
            "apiVersion: {v}\nkind: CronJob\nmetadata: {{name: x}}\nspec: {{schedule: '* * * * *'}}\n"
        )
    };
    let l = parse_text("v.yaml", &doc("batch/v2alpha1"));
    assert_eq!(l.cron_jobs[0].api_version, "batch/v2alpha1");
    assert!(l.notes[0].to_string().starts_with("v.yaml:1:13: apiVersion batch/v2alpha1 for CronJob was an alpha API, removed in Kubernetes 1.21"));
    // A custom resource that happens to be called CronJob is not ours.
    let l = parse_text("v.yaml", &doc("batch.tutorial.kubebuilder.io/v1"));
    assert!(l.cron_jobs.is_empty() && l.notes.is_empty());
    let l = parse_text("v.yaml", &doc("apps/v1"));
    assert_eq!(l.cron_jobs.len(), 1);
    assert_eq!(l.notes.len(), 1);
    let l = parse_text("v.yaml", "kind: Cronjob\napiVersion: batch/v1\n");
    assert!(l.cron_jobs.is_empty());
    assert!(l.notes[0].message.contains("kinds are case-sensitive"));
}

#[test]
fn non_utf8_and_utf16_input() {
    let l = parse_bytes(
        "latin1.yaml",
        b"apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: caf\xe9\n",
    );
    assert_eq!(
        messages(&l.errors),
        ["latin1.yaml:4:12: not UTF-8 text (save the file as UTF-8)"]
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "kind: CronJob\napiVersion: batch/v1\nmetadata: {name: u}\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let l = parse_bytes("utf16.yaml", &utf16);
    assert_eq!(l.cron_jobs[0].meta.name, "u");
}

#[test]
fn into_snapshot_keeps_objects_and_renders_notes() {
    let mut all = fixture("list.yaml");
    all.extend(fixture("lenient.yaml"));
    assert_eq!(all.cron_jobs.len(), 3);
    let (snap, errors) = all.into_snapshot();
    assert!(errors.is_empty());
    assert_eq!(snap.cron_jobs.len(), 3);
    assert!(snap.evidence.jobs && snap.evidence.pods);
    assert!(
        snap.notes
            .iter()
            .any(|n| n.starts_with("lenient.yaml:1:13: "))
    );
}

#[test]
fn templates_for_other_tools_are_not_helm() {
    let text = r#"apiVersion: v1
kind: ConfigMap
metadata: {name: alertmanager-templates}
data:
  slack.tmpl: |
    {{ define "slack.title" }}{{ .CommonLabels.alertname }}{{ end }}
    {{ template "slack.title" . }}
  rules.yaml: "description: {{ $labels.instance }} is down ({{ $value }})"
  helmish: "{{ .Values.only.in.a.configmap }}"
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: ok}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: report
            image: alpine
            args: ['--format={{ template "row" . }}', "{{.metadata.name}}"]
"#;
    let l = parse_text("cm.yaml", text);
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    assert_eq!(l.cron_jobs.len(), 1);
}

#[test]
fn yaml_oddities() {
    let cases: &[(&str, usize, usize)] = &[
        // (text, CronJobs, errors)
        (
            "%YAML 1.1\n---\nkind: CronJob\napiVersion: batch/v1\n",
            1,
            0,
        ),
        (
            "--- !!map\nkind: !!str CronJob\napiVersion: batch/v1\nspec: {suspend: !!bool 'true'}\n",
            1,
            0,
        ),
        ("? kind\n: CronJob\n? apiVersion\n: batch/v1\n", 1, 0),
        ("kind: CronJob\napiVersion: batch/v1\n\tspec: {}\n", 0, 1),
        (
            "{kind: CronJob, apiVersion: batch/v1, metadata: {name: flow}}",
            1,
            0,
        ),
        (
            "kind: CronJob\napiVersion: batch/v1\nmetadata: {name: x}\n...\nkind: CronJob\napiVersion: batch/v1\n",
            2,
            0,
        ),
        (
            "- kind: CronJob\n  apiVersion: batch/v1\n- kind: Job\n  apiVersion: batch/v1\n",
            1,
            0,
        ),
        (
            "[{\"kind\": \"CronJob\", \"apiVersion\": \"batch/v1\"}]",
            1,
            0,
        ),
        (
            "kind: CronJob\napiVersion: batch/v1\nmetadata:\n  name: &n x\n  namespace: *n\n",
            1,
            0,
        ),
        (
            "kind: CronJobList\napiVersion: batch/v1\nitems: oops\n",
            0,
            1,
        ),
        (
            "kind: List\napiVersion: v1\nitems: [1, ~, {kind: CronJob, apiVersion: batch/v1}]\n",
            1,
            1,
        ),
        (
            &format!(
                "{}: 1\nkind: CronJob\napiVersion: batch/v1\n",
                "k".repeat(2000)
            ),
            0,
            1,
        ),
    ];
    for (text, cron_jobs, errors) in cases {
        let l = parse_text("odd.yaml", text);
        assert_eq!(
            (l.cron_jobs.len(), l.errors.len()),
            (*cron_jobs, *errors),
            "{text:?}: {:?}",
            l.errors
        );
    }
    let l = parse_text("odd.yaml", cases[1].0);
    assert!(
        l.cron_jobs[0].spec.suspend,
        "an explicit !!bool tag types the quoted value"
    );
}
