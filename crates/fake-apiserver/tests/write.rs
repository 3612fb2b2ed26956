//! Writes through the real kube 5 client: merge patches with managedFields, dry runs,
//! resourceVersion conflicts, creates (AlreadyExists, generateName), the status
//! subresource, PUT, JSON patch, server-side apply and delete.

use crate::common::{api_status, client_for, raw, world};
use fake_apiserver::FakeApiServer;
use k8s_openapi::api::batch::v1::{CronJob, Job};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

fn rv(v: &Value) -> u64 {
    v["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn merge_patch_records_field_manager_and_bumps_resource_version() {
    let server = FakeApiServer::start(world()).await;
    server.set_clock("2025-03-01T12:00:00Z".parse().unwrap());
    let cronjobs: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    let before = server.object("cronjobs", "ops", "nightly").unwrap();

    let pp = PatchParams {
        field_manager: Some("cronjob-doctor".into()),
        ..Default::default()
    };
    let patch =
        json!({"spec": {"suspend": true}, "metadata": {"annotations": {"doctor/why": "test"}}});
    let cj = cronjobs
        .patch("nightly", &pp, &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(cj.spec.suspend, Some(true));

    let after = server.object("cronjobs", "ops", "nightly").unwrap();
    assert!(
        rv(&after) > rv(&before),
        "resourceVersions are global, like etcd revisions"
    );
    assert_eq!(after["metadata"]["generation"], 2, "spec changed");
    assert_eq!(after["metadata"]["uid"], before["metadata"]["uid"]);
    assert_eq!(
        after["status"], before["status"],
        "the main resource ignores status"
    );
    let mf = after["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(mf.len(), 1);
    assert_eq!(
        mf[0],
        json!({"manager": "cronjob-doctor", "operation": "Update", "apiVersion": "batch/v1",
               "time": "2025-03-01T12:00:00Z", "fieldsType": "FieldsV1",
               "fieldsV1": {"f:metadata": {"f:annotations": {"f:doctor/why": {}}}, "f:spec": {"f:suspend": {}}}})
    );

    let req = server.requests().pop().unwrap();
    assert_eq!(
        req.line(),
        "PATCH /apis/batch/v1/namespaces/ops/cronjobs/nightly?fieldManager=cronjob-doctor"
    );
    assert_eq!(
        req.content_type.as_deref(),
        Some("application/merge-patch+json")
    );
    assert_eq!(req.body, Some(patch.clone()));
    assert_eq!(req.bearer_token(), Some("fake-token"));

    // The same patch again changes nothing: no write, no new resourceVersion.
    cronjobs
        .patch("nightly", &pp, &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(
        rv(&server.object("cronjobs", "ops", "nightly").unwrap()),
        rv(&after)
    );

    // Strategic merge is applied as a merge for these fields.
    let unsuspend = Patch::Strategic(json!({"spec": {"suspend": false}}));
    let cj = cronjobs.patch("nightly", &pp, &unsuspend).await.unwrap();
    assert_eq!(cj.spec.suspend, Some(false));
}

#[tokio::test]
async fn dry_run_validates_and_stores_nothing() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), "ops");
    let before = server.object("cronjobs", "ops", "nightly").unwrap();
    let pp = PatchParams {
        dry_run: true,
        field_manager: Some("doctor".into()),
        ..Default::default()
    };
    let cj = cronjobs
        .patch(
            "nightly",
            &pp,
            &Patch::Merge(json!({"spec": {"suspend": true}})),
        )
        .await
        .unwrap();
    assert_eq!(cj.spec.suspend, Some(true), "the would-be object");
    assert_eq!(server.object("cronjobs", "ops", "nightly").unwrap(), before);
    assert_eq!(server.requests().last().unwrap().query["dryRun"], "All");

    let jobs: Api<Job> = Api::namespaced(client.clone(), "ops");
    let job: Job = serde_json::from_value(json!({"metadata": {"name": "manual-1"}, "spec": {"template": {"spec": {"containers": []}}}})).unwrap();
    let created = jobs
        .create(
            &PostParams {
                dry_run: true,
                ..Default::default()
            },
            &job,
        )
        .await
        .unwrap();
    assert!(created.metadata.uid.is_some());
    assert!(server.object("jobs", "ops", "manual-1").is_none());

    // Validation still runs in a dry run.
    let bad: Job =
        serde_json::from_value(json!({"metadata": {"name": "Bad_Name"}, "spec": {"template": {}}}))
            .unwrap();
    let s = api_status(
        jobs.create(
            &PostParams {
                dry_run: true,
                ..Default::default()
            },
            &bad,
        )
        .await
        .unwrap_err(),
    );
    assert_eq!((s.code, s.reason.as_str()), (422, "Invalid"));
    assert!(s.message.starts_with(
        "Job.batch \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\""
    ));
}

#[tokio::test]
async fn stale_resource_version_is_a_conflict() {
    let server = FakeApiServer::start(world()).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    let mut cj = cronjobs.get("hourly").await.unwrap();
    let stale = cj.metadata.resource_version.clone().unwrap();
    cronjobs
        .patch(
            "hourly",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"suspend": true}})),
        )
        .await
        .unwrap();

    let with_rv = json!({"metadata": {"resourceVersion": stale}, "spec": {"suspend": false}});
    let s = api_status(
        cronjobs
            .patch("hourly", &PatchParams::default(), &Patch::Merge(with_rv))
            .await
            .unwrap_err(),
    );
    assert_eq!((s.code, s.reason.as_str()), (409, "Conflict"));
    assert_eq!(
        s.message,
        "Operation cannot be fulfilled on cronjobs.batch \"hourly\": the object has been modified; please apply your changes to the latest version and try again"
    );

    cj.spec.suspend = Some(false);
    let s = api_status(
        cronjobs
            .replace("hourly", &PostParams::default(), &cj)
            .await
            .unwrap_err(),
    );
    assert_eq!(s.code, 409);
    let fresh = cronjobs.get("hourly").await.unwrap();
    cj.metadata.resource_version = fresh.metadata.resource_version;
    let replaced = cronjobs
        .replace("hourly", &PostParams::default(), &cj)
        .await
        .unwrap();
    assert_eq!(replaced.spec.suspend, Some(false));
}

#[tokio::test]
async fn create_job_already_exists_and_generate_name() {
    let server = FakeApiServer::start(world()).await;
    server.set_clock("2025-03-01T12:00:00Z".parse().unwrap());
    let jobs: Api<Job> = Api::namespaced(client_for(&server, None).await, "ops");
    let job: Job = serde_json::from_value(json!({
        "metadata": {"name": "nightly-manual-abc", "annotations": {"cronjob.kubernetes.io/instantiate": "manual"}},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}},
        "status": {"succeeded": 3}
    }))
    .unwrap();
    let pp = PostParams {
        field_manager: Some("kubectl-cronjob-doctor".into()),
        ..Default::default()
    };
    let created = jobs.create(&pp, &job).await.unwrap();
    assert_eq!(
        created.metadata.creation_timestamp.unwrap().0.to_string(),
        "2025-03-01T12:00:00Z"
    );
    assert_eq!(created.metadata.generation, Some(1));
    let stored = server.object("job", "ops", "nightly-manual-abc").unwrap();
    assert_eq!(stored["status"], json!({}), "create resets status");
    assert_eq!(
        stored["metadata"]["managedFields"][0]["manager"],
        "kubectl-cronjob-doctor"
    );
    assert_eq!(server.requests().last().unwrap().status, 201);

    let s = api_status(jobs.create(&pp, &job).await.unwrap_err());
    assert_eq!((s.code, s.reason.as_str()), (409, "AlreadyExists"));
    assert_eq!(
        s.message,
        "jobs.batch \"nightly-manual-abc\" already exists"
    );

    let gen_job: Job = serde_json::from_value(
        json!({"metadata": {"generateName": "nightly-manual-"}, "spec": {"template": {}}}),
    )
    .unwrap();
    let a = jobs
        .create(&pp, &gen_job)
        .await
        .unwrap()
        .metadata
        .name
        .unwrap();
    let b = jobs
        .create(&pp, &gen_job)
        .await
        .unwrap()
        .metadata
        .name
        .unwrap();
    assert!(a.starts_with("nightly-manual-") && a.len() == "nightly-manual-".len() + 5);
    assert_ne!(a, b);

    let elsewhere: Api<Job> = Api::namespaced(client_for(&server, None).await, "nowhere");
    let s = api_status(elsewhere.create(&pp, &job).await.unwrap_err());
    assert_eq!(
        (s.code, s.message.as_str()),
        (404, "namespaces \"nowhere\" not found")
    );
}

#[tokio::test]
async fn status_subresource_is_separate_from_the_main_resource() {
    let server = FakeApiServer::start(world()).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client_for(&server, None).await, "ops");
    let pp = PatchParams {
        field_manager: Some("controller".into()),
        ..Default::default()
    };
    let st =
        json!({"status": {"lastScheduleTime": "2025-03-02T01:00:00Z"}, "spec": {"suspend": true}});
    let cj = cronjobs
        .patch_status("nightly", &pp, &Patch::Merge(&st))
        .await
        .unwrap();
    assert_eq!(cj.spec.suspend, None, "spec changes are ignored on /status");
    let stored = server.object("cronjobs", "ops", "nightly").unwrap();
    assert_eq!(stored["status"]["lastScheduleTime"], "2025-03-02T01:00:00Z");
    assert_eq!(
        stored["metadata"]["generation"], 1,
        "status writes leave generation alone"
    );
    let mf = &stored["metadata"]["managedFields"][0];
    assert_eq!(
        (mf["subresource"].as_str(), mf["fieldsV1"].clone()),
        (
            Some("status"),
            json!({"f:status": {"f:lastScheduleTime": {}}})
        )
    );
    let got = cronjobs.get_status("nightly").await.unwrap();
    assert!(got.status.unwrap().last_schedule_time.is_some());
}

#[tokio::test]
async fn json_patch_apply_and_delete() {
    let server = FakeApiServer::start(world()).await;
    let client = client_for(&server, None).await;
    let cronjobs: Api<CronJob> = Api::namespaced(client.clone(), "ops");
    // kube's Patch::Json needs its `jsonpatch` feature; send the body raw instead.
    let url = "/apis/batch/v1/namespaces/ops/cronjobs/hourly";
    let ops = r#"[{"op": "add", "path": "/spec/suspend", "value": true}]"#;
    let (code, _, cj) = raw(
        &client,
        "PATCH",
        url,
        Some("application/json-patch+json"),
        ops,
    )
    .await;
    assert_eq!((code, cj["spec"]["suspend"].as_bool()), (200, Some(true)));
    let mf = &server.object("cronjobs", "ops", "hourly").unwrap()["metadata"]["managedFields"][0];
    assert_eq!(mf["fieldsV1"], json!({"f:spec": {"f:suspend": {}}}));
    let failing = r#"[{"op": "test", "path": "/spec/suspend", "value": false}]"#;
    let (code, _, _) = raw(
        &client,
        "PATCH",
        url,
        Some("application/json-patch+json"),
        failing,
    )
    .await;
    assert_eq!(code, 422);

    // Server-side apply: needs a field manager, creates when missing.
    let applied = json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "applied"},
        "spec": {"schedule": "0 3 * * *", "jobTemplate": {"spec": {"template": {}}}}});
    let s = api_status(
        cronjobs
            .patch("applied", &PatchParams::default(), &Patch::Apply(&applied))
            .await
            .unwrap_err(),
    );
    assert_eq!(s.code, 422);
    let cj = cronjobs
        .patch(
            "applied",
            &PatchParams::apply("doctor"),
            &Patch::Apply(&applied),
        )
        .await
        .unwrap();
    assert_eq!(cj.spec.schedule, "0 3 * * *");
    assert_eq!(
        server.object("cronjobs", "ops", "applied").unwrap()["metadata"]["managedFields"][0]["operation"],
        "Apply"
    );

    let (code, _, _) = raw(&client, "PATCH", url, Some("text/plain"), "{}").await;
    assert_eq!(code, 415);

    let deleted = cronjobs
        .delete("applied", &DeleteParams::default())
        .await
        .unwrap();
    assert!(deleted.left().is_some());
    assert!(server.object("cronjobs", "ops", "applied").is_none());
    let s = api_status(
        cronjobs
            .delete("applied", &DeleteParams::default())
            .await
            .unwrap_err(),
    );
    assert_eq!(s.code, 404);
}
