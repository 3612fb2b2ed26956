//! `/version` and the legacy (non-aggregated) discovery documents, generated from the
//! resource table. Typed `Api<CronJob>` calls in kube 5 never ask for discovery; these exist
//! for `kube::Discovery` / `discovery::oneshot` users and for `apiserver_version()`.
//! Aggregated discovery (`Accept: …as=APIGroupDiscoveryList`) is answered with the legacy
//! document, which is what the real server does when the client also accepts plain JSON.

use crate::resources::{RESOURCES, ResourceDef};
use crate::state::{Answer, Ctx, json_answer};
use crate::status;
use serde_json::{Value, json};

/// `/version`, shaped like the real one for a `vMAJOR.MINOR.PATCH` gitVersion.
pub(crate) fn version(ctx: &Ctx<'_>) -> Answer {
    let git = &ctx.cfg.git_version;
    let mut parts = git.trim_start_matches('v').split(['.', '-', '+']);
    let major = parts.next().unwrap_or("1").to_string();
    let minor = parts.next().unwrap_or("0").to_string();
    json_answer(
        200,
        &json!({
            "major": major,
            "minor": minor,
            "emulationMajor": major,
            "emulationMinor": minor,
            "minCompatibilityMajor": major,
            "minCompatibilityMinor": minor.parse::<u32>().map_or(minor.clone(), |m| m.saturating_sub(1).to_string()),
            "gitVersion": git,
            "gitCommit": "0000000000000000000000000000000000000000",
            "gitTreeState": "clean",
            "buildDate": "2024-10-22T20:28:14Z",
            "goVersion": "go1.22.8",
            "compiler": "gc",
            "platform": "linux/amd64",
        }),
    )
}

fn groups() -> Vec<&'static str> {
    let mut g: Vec<&str> = RESOURCES
        .iter()
        .map(|d| d.group)
        .filter(|g| !g.is_empty())
        .collect();
    g.dedup();
    g
}

fn group_doc(group: &str) -> Value {
    let gv = json!({"groupVersion": format!("{group}/v1"), "version": "v1"});
    json!({"name": group, "versions": [gv], "preferredVersion": gv})
}

/// `/api`
pub(crate) fn core_versions(ctx: &Ctx<'_>) -> Answer {
    json_answer(
        200,
        &json!({
            "kind": "APIVersions",
            "versions": ["v1"],
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": ctx.cfg.addr.to_string()}],
        }),
    )
}

/// `/apis`
pub(crate) fn api_groups() -> Answer {
    let groups: Vec<Value> = groups().into_iter().map(group_doc).collect();
    json_answer(
        200,
        &json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}),
    )
}

/// `/apis/{group}`
pub(crate) fn api_group(group: &str) -> Answer {
    if !groups().contains(&group) {
        return Err(status::no_such_path());
    }
    let mut doc = group_doc(group);
    doc["kind"] = json!("APIGroup");
    doc["apiVersion"] = json!("v1");
    json_answer(200, &doc)
}

fn verbs(d: &ResourceDef) -> Vec<&'static str> {
    d.verbs.map(<[_]>::to_vec).unwrap_or_else(|| {
        vec![
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch",
        ]
    })
}

/// `/api/v1` or `/apis/{group}/{version}`
pub(crate) fn resource_list(group: &str, version: &str) -> Answer {
    let defs: Vec<&ResourceDef> = RESOURCES
        .iter()
        .filter(|d| d.group == group && d.version == version)
        .collect();
    if defs.is_empty() {
        return Err(status::no_such_path());
    }
    let mut resources = Vec::new();
    for d in defs {
        let mut r = json!({
            "name": d.plural,
            "singularName": d.singular,
            "namespaced": d.namespaced,
            "kind": d.kind,
            "verbs": verbs(d),
        });
        if !d.short_names.is_empty() {
            r["shortNames"] = json!(d.short_names);
        }
        if d.verbs.is_none() && d.kind != "Event" && d.kind != "Namespace" {
            r["categories"] = json!(["all"]);
        }
        resources.push(r);
        if d.status_subresource {
            resources.push(json!({
                "name": format!("{}/status", d.plural),
                "singularName": "",
                "namespaced": d.namespaced,
                "kind": d.kind,
                "verbs": ["get", "patch", "update"],
            }));
        }
    }
    let gv = if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    };
    json_answer(
        200,
        &json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources}),
    )
}
