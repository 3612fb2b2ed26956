//! The resources this fake serves and how a request path maps onto them.
//!
//! One static table drives routing, discovery documents, field-selector validation and the
//! names used in `Status` messages, so those can never disagree with each other.

/// One REST resource (a group/version/plural triple) as the API server describes it.
#[derive(Debug)]
pub struct ResourceDef {
    /// API group; `""` is the legacy core group served under `/api`.
    pub group: &'static str,
    pub version: &'static str,
    pub plural: &'static str,
    pub singular: &'static str,
    pub kind: &'static str,
    pub namespaced: bool,
    /// Resources with a `status` subresource ignore `.status` on the main endpoint and
    /// everything but `.status` on `/status`, as the real registry strategies do.
    pub status_subresource: bool,
    /// Field-selector labels the real server accepts beyond `metadata.name`/`metadata.namespace`.
    /// Anything else is refused with 400, like the real server, so client bugs surface here.
    pub fields: &'static [&'static str],
    pub short_names: &'static [&'static str],
    /// Index into [`RESOURCES`] of the table that stores these objects: events.k8s.io/v1 events
    /// are a converted view of core/v1 events, exactly one store behind both.
    pub storage: usize,
    /// Only `get`/`list`/`watch` (views) or only `create` (reviews); `None` means every verb.
    pub verbs: Option<&'static [&'static str]>,
}

pub const NAMESPACES: usize = 0;
pub const PODS: usize = 1;
pub const EVENTS: usize = 2;
pub const CRONJOBS: usize = 3;
pub const JOBS: usize = 4;
pub const EVENTS_V1: usize = 5;
pub const SSAR: usize = 6;

const EVENT_FIELDS: &[&str] = &[
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
];

pub static RESOURCES: &[ResourceDef] = &[
    ResourceDef {
        group: "",
        version: "v1",
        plural: "namespaces",
        singular: "namespace",
        kind: "Namespace",
        namespaced: false,
        status_subresource: true,
        fields: &["status.phase"],
        short_names: &["ns"],
        storage: NAMESPACES,
        verbs: None,
    },
    ResourceDef {
        group: "",
        version: "v1",
        plural: "pods",
        singular: "pod",
        kind: "Pod",
        namespaced: true,
        status_subresource: true,
        fields: &[
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.nominatedNodeName",
        ],
        short_names: &["po"],
        storage: PODS,
        verbs: None,
    },
    ResourceDef {
        group: "",
        version: "v1",
        plural: "events",
        singular: "event",
        kind: "Event",
        namespaced: true,
        status_subresource: false,
        fields: EVENT_FIELDS,
        short_names: &["ev"],
        storage: EVENTS,
        verbs: None,
    },
    ResourceDef {
        group: "batch",
        version: "v1",
        plural: "cronjobs",
        singular: "cronjob",
        kind: "CronJob",
        namespaced: true,
        status_subresource: true,
        fields: &[],
        short_names: &["cj"],
        storage: CRONJOBS,
        verbs: None,
    },
    ResourceDef {
        group: "batch",
        version: "v1",
        plural: "jobs",
        singular: "job",
        kind: "Job",
        namespaced: true,
        status_subresource: true,
        fields: &["status.successful"],
        short_names: &[],
        storage: JOBS,
        verbs: None,
    },
    ResourceDef {
        group: "events.k8s.io",
        version: "v1",
        plural: "events",
        singular: "event",
        kind: "Event",
        namespaced: true,
        status_subresource: false,
        // Selectors use the core field labels; `regarding.*` etc. are translated first.
        fields: EVENT_FIELDS,
        short_names: &["ev"],
        storage: EVENTS,
        verbs: Some(&["get", "list", "watch"]),
    },
    ResourceDef {
        group: "authorization.k8s.io",
        version: "v1",
        plural: "selfsubjectaccessreviews",
        singular: "selfsubjectaccessreview",
        kind: "SelfSubjectAccessReview",
        namespaced: false,
        status_subresource: false,
        fields: &[],
        short_names: &[],
        storage: SSAR,
        verbs: Some(&["create"]),
    },
];

impl ResourceDef {
    /// `batch/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_string()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `cronjobs.batch`, or `events` for the core group: the spelling in `Status` messages.
    pub fn group_resource(&self) -> String {
        if self.group.is_empty() {
            self.plural.to_string()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    /// `CronJob.batch`: the spelling in `Invalid` messages.
    pub fn group_kind(&self) -> String {
        if self.group.is_empty() {
            self.kind.to_string()
        } else {
            format!("{}.{}", self.kind, self.group)
        }
    }

    pub fn list_kind(&self) -> String {
        format!("{}List", self.kind)
    }

    pub fn allows(&self, verb: &str) -> bool {
        self.verbs.is_none_or(|v| v.contains(&verb))
    }
}

/// Finds the resource a test names: plural (`cronjobs`), singular, Kind (`CronJob`) or short
/// name, case-insensitively. Prefers the stored (core) table over views.
pub fn lookup(name: &str) -> Option<usize> {
    let n = name.to_ascii_lowercase();
    RESOURCES.iter().enumerate().position(|(i, d)| {
        d.storage == i
            && (d.plural == n
                || d.singular == n
                || d.kind.eq_ignore_ascii_case(&n)
                || d.short_names.contains(&n.as_str()))
    })
}

/// The stored table for an object's `apiVersion` + `kind`.
pub fn for_object(api_version: &str, kind: &str) -> Option<usize> {
    RESOURCES
        .iter()
        .position(|d| d.api_version() == api_version && d.kind == kind && d.verbs.is_none())
}

/// What a request path addresses.
#[derive(Debug, PartialEq)]
pub enum Route {
    Version,
    /// `/api`
    CoreVersions,
    /// `/apis`
    Groups,
    /// `/apis/{group}`
    Group(String),
    /// `/api/v1` or `/apis/{group}/{version}`
    ResourceList(String, String),
    Resource(Target),
    /// `/api/v1/namespaces/{ns}/services/{name[:port]}/proxy/{path…}` (see `proxy.rs`).
    ServiceProxy(crate::proxy::ServiceProxy),
    Unknown,
}

/// A resource path: the collection, or one object, or one object's subresource.
#[derive(Debug, PartialEq)]
pub struct Target {
    pub res: usize,
    pub namespace: Option<String>,
    pub name: Option<String>,
    pub subresource: Option<String>,
}

impl Target {
    pub fn def(&self) -> &'static ResourceDef {
        &RESOURCES[self.res]
    }
}

pub fn route(path: &str) -> Route {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match segs.as_slice() {
        ["version"] => Route::Version,
        ["api"] => Route::CoreVersions,
        ["apis"] => Route::Groups,
        ["api", v] => Route::ResourceList(String::new(), v.to_string()),
        ["apis", g] => Route::Group(g.to_string()),
        ["apis", g, v] => Route::ResourceList(g.to_string(), v.to_string()),
        [
            "api",
            "v1",
            "namespaces",
            ns,
            "services",
            service,
            "proxy",
            rest @ ..,
        ] => Route::ServiceProxy(crate::proxy::ServiceProxy {
            namespace: ns.to_string(),
            service: service.to_string(),
            path: rest.join("/"),
        }),
        ["api", v, rest @ ..] => resource_route("", v, rest),
        ["apis", g, v, rest @ ..] => resource_route(g, v, rest),
        _ => Route::Unknown,
    }
}

fn resource_route(group: &str, version: &str, rest: &[&str]) -> Route {
    let find = |plural: &str| {
        RESOURCES
            .iter()
            .position(|d| d.group == group && d.version == version && d.plural == plural)
    };
    let target = |res, namespace: Option<&str>, name: Option<&&str>, sub: Option<&&str>| {
        Route::Resource(Target {
            res,
            namespace: namespace.map(str::to_string),
            name: name.map(|s| s.to_string()),
            subresource: sub.map(|s| s.to_string()),
        })
    };
    // `/namespaces/{ns}/{plural}…` is a namespaced resource, unless the third segment is a
    // subresource of the namespace itself (`/namespaces/{name}/status`).
    if let ["namespaces", ns, plural, tail @ ..] = rest
        && !matches!(*plural, "status" | "finalize")
        && tail.len() <= 2
    {
        return match find(plural) {
            Some(res) if RESOURCES[res].namespaced => {
                target(res, Some(ns), tail.first(), tail.get(1))
            }
            _ => Route::Unknown,
        };
    }
    match rest {
        [plural, tail @ ..] if tail.len() <= 2 => match find(plural) {
            // A named namespaced object needs its namespace in the path.
            Some(res) if !RESOURCES[res].namespaced || tail.is_empty() => {
                target(res, None, tail.first(), tail.get(1))
            }
            _ => Route::Unknown,
        },
        _ => Route::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(route("/version"), Route::Version);
        let Route::Resource(t) = route("/apis/batch/v1/namespaces/ops/cronjobs/nightly/status")
        else {
            panic!()
        };
        assert_eq!((t.res, t.namespace.as_deref()), (CRONJOBS, Some("ops")));
        assert_eq!(
            (t.name.as_deref(), t.subresource.as_deref()),
            (Some("nightly"), Some("status"))
        );
        let Route::Resource(t) = route("/api/v1/namespaces/ops") else {
            panic!()
        };
        assert_eq!((t.res, t.name.as_deref()), (NAMESPACES, Some("ops")));
        let Route::Resource(t) = route("/api/v1/events") else {
            panic!()
        };
        assert_eq!((t.res, t.namespace), (EVENTS, None));
        assert_eq!(route("/api/v1/pods/x"), Route::Unknown);
        assert_eq!(
            route("/apis/batch/v1/namespaces/ops/widgets"),
            Route::Unknown
        );
        assert_eq!(lookup("CronJob"), Some(CRONJOBS));
        assert_eq!(lookup("events"), Some(EVENTS));
        assert_eq!(for_object("batch/v1", "Job"), Some(JOBS));
    }
}
