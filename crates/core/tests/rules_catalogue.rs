//! Meta-test over the rule registry (kube-linter's check-bats-tests, clippy's lint list): ids
//! are unique and well-formed, slugs are kebab-case, docs are present, and every rule fires on
//! its own "fires on" example and stays quiet on its "quiet on" example.

use doctor::rules::{RETIRED, RULES, examples};

#[test]
fn ids_and_slugs_are_unique_and_well_formed() {
    let mut ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    let mut slugs: Vec<&str> = RULES.iter().map(|r| r.slug).collect();
    for r in RULES.iter() {
        assert!(
            r.id.len() == 6
                && r.id.starts_with("CJD")
                && r.id[3..].chars().all(|c| c.is_ascii_digit()),
            "bad id {}",
            r.id
        );
        assert!(
            !r.slug.is_empty()
                && r.slug.split('-').all(|p| !p.is_empty()
                    && p.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
            "slug {} is not kebab-case",
            r.slug
        );
        assert!(!RETIRED.contains(&r.id), "{} reuses a retired id", r.id);
        assert!(
            r.summary.ends_with('.') && !r.summary.contains('\n'),
            "{}: summary must be one sentence",
            r.slug
        );
        assert!(
            !r.explanation.is_empty() && !r.remediation.is_empty(),
            "{}: docs missing",
            r.slug
        );
    }
    ids.sort_unstable();
    slugs.sort_unstable();
    let n = ids.len();
    ids.dedup();
    slugs.dedup();
    assert_eq!(ids.len(), n, "duplicate rule id");
    assert_eq!(slugs.len(), n, "duplicate rule slug");
}

#[test]
fn every_rule_fires_on_its_example_and_stays_quiet_on_the_other() {
    for r in RULES.iter() {
        let fired = examples::run(r.fires_on, r.example_now);
        assert!(
            fired.errors.is_empty(),
            "{}: fires_on does not load: {:?}",
            r.slug,
            fired.errors
        );
        assert!(
            !fired.cron_jobs.is_empty(),
            "{}: fires_on has no CronJob",
            r.slug
        );
        let hits = examples::findings(&fired, r.slug);
        assert!(
            !hits.is_empty(),
            "{}: does not fire on its fires_on example",
            r.slug
        );
        for f in hits {
            assert!(
                !f.message.is_empty() && !f.message.contains('\n'),
                "{}: message must be one line",
                r.slug
            );
            assert!(
                !f.remediation.is_empty(),
                "{}: finding without remediation",
                r.slug
            );
        }
        let quiet = examples::run(r.quiet_on, r.example_now);
        assert!(
            quiet.errors.is_empty(),
            "{}: quiet_on does not load: {:?}",
            r.slug,
            quiet.errors
        );
        assert!(
            !quiet.cron_jobs.is_empty(),
            "{}: quiet_on has no CronJob",
            r.slug
        );
        assert!(
            examples::findings(&quiet, r.slug).is_empty(),
            "{}: fires on its quiet_on example: {:?}",
            r.slug,
            examples::findings(&quiet, r.slug)
        );
    }
}

#[test]
fn the_ignore_annotation_silences_a_rule() {
    let r = doctor::rules::find("suspended").unwrap();
    let yaml = r.fires_on.replacen(
        "metadata: {name: report-daily, namespace: finance}",
        "metadata: {name: report-daily, namespace: finance, annotations: {cronjob-doctor.io/ignore: \"no-time-zone, suspended\"}}",
        1,
    );
    assert_ne!(yaml, r.fires_on, "fixture changed: update this test");
    let rep = examples::run(&yaml, r.example_now);
    assert!(examples::findings(&rep, "suspended").is_empty());
}
