//! `doctor::source` never panics and stays linear, whatever it is fed.

use std::time::{Duration, Instant};

use doctor::source::{parse_bytes, parse_text};

const MANIFEST: &str = "\
# leading comment
apiVersion: batch/v1
kind: CronJob
metadata:
  name: sample
  namespace: default
  labels: {app: sample}
  annotations:
    a: \"b\"
spec:
  schedule: \"*/5 * * * *\"
  timeZone: Etc/UTC
  startingDeadlineSeconds: 100
  concurrencyPolicy: Forbid
  suspend: False
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: main
            image: busybox
            args: ['sh', '-c', 'echo {{range .items}} && date']
status:
  lastScheduleTime: 2024-05-01T00:00:00Z
  active:
  - {name: sample-1, namespace: default, uid: u}
---
apiVersion: v1
kind: List
items:
- {apiVersion: batch/v1, kind: Job, metadata: {name: j}, status: {succeeded: 1}}
- {apiVersion: v1, kind: Pod, metadata: {name: p}, status: {phase: Running}}
";

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn sample_manifest_loads() {
    let l = parse_text("s.yaml", MANIFEST);
    assert!(
        l.errors.is_empty() && l.notes.is_empty(),
        "{:?} {:?}",
        l.errors,
        l.notes
    );
    assert_eq!((l.cron_jobs.len(), l.jobs.len(), l.pods.len()), (1, 1, 1));
}

#[test]
fn every_truncation_of_a_manifest() {
    for (i, _) in MANIFEST.char_indices() {
        let _ = parse_text("t.yaml", &MANIFEST[..i]);
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let alphabet = b"{}[]:-,'\"#&*!|>%@`?\\ \t\r\n\n\n  abcxyz019.~$\xff\xc3\xa9\xef\xbb\xbf";
    for round in 0..3000 {
        let len = rng.below(300);
        let bytes: Vec<u8> = if round % 2 == 0 {
            (0..len).map(|_| rng.next() as u8).collect()
        } else {
            (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        let _ = parse_bytes("r.yaml", &bytes);
    }
}

#[test]
fn random_mutations_of_a_manifest() {
    let mut rng = Rng(42);
    let pieces = [
        "",
        " ",
        "\n",
        "---\n",
        "...\n",
        "- ",
        ": ",
        "{",
        "}",
        "[",
        "]",
        "&a ",
        "*a",
        "<<: *a\n",
        "\"",
        "'",
        "|\n",
        "{{ .Values.x }}",
        "\t",
        "!!str ",
        "!!int ",
        "%YAML 1.2\n",
        "~",
        "99999999999999999999999",
    ];
    let base: Vec<char> = MANIFEST.chars().collect();
    for _ in 0..3000 {
        let mut s: String = String::new();
        let edits = 1 + rng.below(4);
        let mut cuts: Vec<usize> = (0..edits).map(|_| rng.below(base.len())).collect();
        cuts.sort_unstable();
        let mut last = 0;
        for c in cuts {
            let c = c.max(last);
            s.extend(&base[last..c]);
            s.push_str(pieces[rng.below(pieces.len())]);
            last = (c + rng.below(3)).min(base.len());
        }
        s.extend(&base[last..]);
        let _ = parse_text("m.yaml", &s);
    }
}

fn quick(name: &str, text: &str) -> doctor::source::Loaded {
    let t = Instant::now();
    let l = parse_text(name, text);
    assert!(
        t.elapsed() < Duration::from_secs(20),
        "{name} took {:?}",
        t.elapsed()
    );
    l
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 200_000;
    for text in [
        "[".repeat(n),
        format!("{}{}", "[".repeat(n), "]".repeat(n)),
        "{a: ".repeat(n),
        "- ".repeat(n),
        (0..2_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect::<String>(),
    ] {
        let l = quick("deep.yaml", &text);
        assert!(l.cron_jobs.is_empty());
        assert_eq!(l.errors.len(), 1, "{:?}", l.errors);
    }
    // Deep but legal nesting under a CronJob still loads.
    let deep = format!(
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: x}}\nspec:\n  schedule: '* * * * *'\n  x: {}1{}\n",
        "[".repeat(200),
        "]".repeat(200)
    );
    let l = quick("deep-ok.yaml", &deep);
    assert_eq!(l.cron_jobs.len(), 1);
}

#[test]
fn billion_laughs_costs_what_its_text_costs() {
    let mut text = String::from(
        "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: lol\nx0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for i in 1..40 {
        let p = i - 1;
        text.push_str(&format!(
            "x{i}: &x{i} [*x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}, *x{p}]\n"
        ));
    }
    // Used where the loader reads: a label map, a container list, a status list.
    text.push_str("spec:\n  schedule: *x39\n  jobTemplate: {spec: {template: {spec: {containers: *x39}}}}\nstatus:\n  active: *x39\n");
    let l = quick("lol.yaml", &text);
    assert_eq!(l.cron_jobs.len(), 1);
    assert!(l.cron_jobs[0].spec.job_template.spec.containers.is_empty());
    assert!(l.errors.len() < 50, "{}", l.errors.len());

    // The same with merge keys, which the loader does follow (within a budget).
    let mut text = String::from("apiVersion: batch/v1\nkind: CronJob\nm0: &m0 {a: b}\n");
    for i in 1..40 {
        let p = i - 1;
        text.push_str(&format!("m{i}: &m{i} {{<<: [*m{p}, *m{p}, *m{p}, *m{p}, *m{p}, *m{p}, *m{p}, *m{p}], k{i}: v}}\n"));
    }
    text.push_str("metadata:\n  name: merge-bomb\n  labels: *m39\n  annotations: {<<: *m39}\nspec: {<<: *m39, schedule: '* * * * *'}\n");
    let l = quick("merge.yaml", &text);
    assert_eq!(l.cron_jobs.len(), 1);
    assert_eq!(l.cron_jobs[0].spec.schedule.as_deref(), Some("* * * * *"));
    assert!(l.cron_jobs[0].meta.labels.contains_key("k39"));
}

#[test]
fn recursive_and_unknown_aliases() {
    let l = quick(
        "rec.yaml",
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: &m {name: r, labels: *m}\n",
    );
    assert_eq!(l.cron_jobs.len(), 1);
    let l = quick(
        "unk.yaml",
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: *nope\n",
    );
    assert!(l.cron_jobs.is_empty());
    assert_eq!(l.errors.len(), 1);
}

#[test]
fn huge_numbers_and_long_strings() {
    let text = format!(
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: {}}}\nspec:\n  schedule: '* * * * *'\n  startingDeadlineSeconds: {}\n  successfulJobsHistoryLimit: 1e400\n  failedJobsHistoryLimit: -9223372036854775808\n",
        "n".repeat(1_000_000),
        "9".repeat(10_000)
    );
    let l = quick("huge.yaml", &text);
    let cj = &l.cron_jobs[0];
    assert_eq!(cj.meta.name.len(), 1_000_000);
    assert_eq!(cj.spec.starting_deadline_seconds, None);
    assert_eq!(cj.spec.successful_jobs_history_limit, None);
    assert_eq!(cj.spec.failed_jobs_history_limit, Some(i64::MIN));
    assert_eq!(
        l.errors.len(),
        2,
        "{:?}",
        l.errors
            .iter()
            .map(|e| e.message.chars().take(120).collect::<String>())
            .collect::<Vec<_>>()
    );
}

fn many_documents(target_bytes: usize) -> String {
    let mut text = String::with_capacity(target_bytes + MANIFEST.len());
    let mut i = 0;
    while text.len() < target_bytes {
        text.push_str("---\n");
        text.push_str(&MANIFEST.replace("name: sample", &format!("name: sample-{i}")));
        i += 1;
    }
    text
}

#[test]
fn many_documents_load_in_linear_time() {
    let text = many_documents(5 << 20);
    let t = Instant::now();
    let l = parse_text("big.yaml", &text);
    let took = t.elapsed();
    assert!(l.errors.is_empty());
    assert!(l.cron_jobs.len() > 5000);
    assert_eq!(l.cron_jobs.len(), l.jobs.len());
    // Debug builds on a shared machine: generous, but catches quadratic behaviour.
    assert!(took < Duration::from_secs(30), "5 MB took {took:?}");
    let last = l.cron_jobs.last().unwrap().origin.as_ref().unwrap();
    let start = text.rfind("---\n# leading comment\napiVersion").unwrap();
    assert_eq!(
        last.position.line as usize,
        text[..start].matches('\n').count() + 3
    );
}

/// `cargo test --release -- --ignored` for the 50 MB case from the issue.
#[test]
#[ignore = "50 MB; run in release"]
fn fifty_megabytes() {
    let text = many_documents(50 << 20);
    let t = Instant::now();
    let l = parse_text("huge.yaml", &text);
    assert!(l.errors.is_empty());
    assert!(
        t.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t.elapsed()
    );
}
