//! The only way a request target is made: [`ApiPath`] can be built from path *segments* only,
//! each percent-encoded, and [`target`] appends the query with every key and value encoded.
//! Names and namespaces are validated before a command sends anything (`doctor::names`);
//! this is the second line: even a name that slipped past validation cannot add a path
//! segment (`/`), cut the query off (`#`), start its own (`?`), or smuggle an escape (`%`).
//!
//! Reads are built here. Writes are built with kube's request builders (`write_requests.rs`), which
//! format the name into the path as given (kube-core 5.0 `Request::patch`): that is safe only
//! because the names they get were validated first; their collection path still comes from
//! here.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Everything but RFC 3986's unreserved characters is encoded, in segments and in query
/// keys and values alike (a selector's `=`, `,` and `!`, a continue token's `/` and `=`).
const ENCODE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn encode(s: &str) -> String {
    utf8_percent_encode(s, ENCODE).to_string()
}

/// An API path, every segment encoded. Private field: only the constructors below make one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiPath(String);

impl ApiPath {
    /// `/version`.
    pub fn version() -> Self {
        ApiPath("/version".into())
    }

    /// `/api/v1` or `/apis/<group>/<version>`.
    fn root(group_version: &str) -> Self {
        let p = ApiPath(String::new());
        if group_version == "v1" {
            p.segment("api").segment("v1")
        } else {
            let (group, version) = group_version.split_once('/').unwrap_or((group_version, ""));
            p.segment("apis").segment(group).segment(version)
        }
    }

    /// A resource collection, in a namespace or across all of them.
    pub fn collection(group_version: &str, resource: &str, namespace: Option<&str>) -> Self {
        let p = Self::root(group_version);
        match namespace {
            Some(ns) => p.segment("namespaces").segment(ns).segment(resource),
            None => p.segment(resource),
        }
    }

    /// One named object of a namespaced resource.
    pub fn item(group_version: &str, resource: &str, namespace: &str, name: &str) -> Self {
        Self::collection(group_version, resource, Some(namespace)).segment(name)
    }

    /// `/api/v1/namespaces/NS/services/NAME:PORT/proxy/PATH…`: the API server's proxy to a
    /// Service's port. `NAME:PORT` is one segment: the name encoded like any other (a valid
    /// one has no `:`), the port a number; each segment of `path` encoded in turn.
    pub fn service_proxy(namespace: &str, service: &str, port: u16, path: &[&str]) -> Self {
        let mut p = Self::collection("v1", "services", Some(namespace)).segment(service);
        p.0.push(':');
        p.0.push_str(&port.to_string());
        let mut p = p.segment("proxy");
        for s in path {
            p = p.segment(s);
        }
        p
    }

    fn segment(mut self, s: &str) -> Self {
        self.0.push('/');
        // `.` and `..` consist of unreserved characters, yet a URL parser resolves them:
        // spell them encoded so they stay a (non-existent) name rather than a move upwards.
        match s {
            "." => self.0.push_str("%2E"),
            ".." => self.0.push_str("%2E%2E"),
            _ => self.0.push_str(&encode(s)),
        }
        self
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ApiPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `path?k=v&…`, keys and values encoded.
pub fn target(path: &ApiPath, params: &[(&str, String)]) -> String {
    let mut u = path.0.clone();
    for (i, (k, v)) in params.iter().enumerate() {
        u.push(if i == 0 { '?' } else { '&' });
        u.push_str(&encode(k));
        u.push('=');
        u.push_str(&encode(v));
    }
    u
}

/// The decoded `key=value` pairs of a request target's query (what the API server reads).
pub fn query_pairs(path_and_query: &str) -> Vec<(String, String)> {
    // A fragment is never sent; nothing after `#` is part of the query.
    let before_fragment = path_and_query.split('#').next().unwrap_or_default();
    let Some((_, query)) = before_fragment.split_once('?') else {
        return Vec::new();
    };
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(s: &str) -> String {
    let plus_as_space = s.replace('+', " ");
    percent_encoding::percent_decode_str(&plus_as_space)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_give_the_usual_paths() {
        assert_eq!(
            ApiPath::collection("batch/v1", "cronjobs", None).as_str(),
            "/apis/batch/v1/cronjobs"
        );
        assert_eq!(
            ApiPath::collection("v1", "events", Some("ops")).as_str(),
            "/api/v1/namespaces/ops/events"
        );
        assert_eq!(
            ApiPath::item("batch/v1", "cronjobs", "ops", "backup")
                .segment("status")
                .as_str(),
            "/apis/batch/v1/namespaces/ops/cronjobs/backup/status"
        );
        assert_eq!(ApiPath::version().as_str(), "/version");
    }

    #[test]
    fn service_proxy_paths_keep_name_and_port_in_one_segment() {
        let t = target(
            &ApiPath::service_proxy("cronjob-doctor", "cronjob-doctor", 9090, &["runs"]),
            &[("namespace", "ops".into()), ("name", "a&b=c#d".into())],
        );
        assert_eq!(
            t,
            "/api/v1/namespaces/cronjob-doctor/services/cronjob-doctor:9090/proxy/runs?namespace=ops&name=a%26b%3Dc%23d"
        );
        // A name that slipped past validation still cannot add a segment or a port.
        assert_eq!(
            ApiPath::service_proxy("a/..", "x:1/y", 1, &["r s"]).as_str(),
            "/api/v1/namespaces/a%2F../services/x%3A1%2Fy:1/proxy/r%20s"
        );
    }

    #[test]
    fn hostile_segments_stay_one_segment() {
        let p = |ns: &str, name: &str| ApiPath::item("batch/v1", "cronjobs", ns, name);
        assert_eq!(
            p("platform", "rotate-logs#").as_str(),
            "/apis/batch/v1/namespaces/platform/cronjobs/rotate-logs%23"
        );
        assert_eq!(
            p("platform", "rotate-logs?x=").as_str(),
            "/apis/batch/v1/namespaces/platform/cronjobs/rotate-logs%3Fx%3D"
        );
        assert_eq!(
            p("platform/../kube-system", "a").as_str(),
            "/apis/batch/v1/namespaces/platform%2F..%2Fkube-system/cronjobs/a"
        );
        assert_eq!(
            p("ops", "%2F").as_str(),
            "/apis/batch/v1/namespaces/ops/cronjobs/%252F"
        );
        assert_eq!(
            p("..", ".").as_str(),
            "/apis/batch/v1/namespaces/%2E%2E/cronjobs/%2E"
        );
        assert_eq!(
            p("ops", "é").as_str(),
            "/apis/batch/v1/namespaces/ops/cronjobs/%C3%A9"
        );
        // Every hostile target parses as a URI whose path has exactly the six segments.
        for name in ["a#b", "a?b", "a/b", "a b", "a%b", "a\\b", "\u{1b}[2J"] {
            let t = target(
                &p("ops", name),
                &[("dryRun", "All".into()), ("fieldManager", "x".into())],
            );
            let uri: http::Uri = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
            assert_eq!(uri.path().split('/').count(), 8, "{t}");
            assert_eq!(
                query_pairs(&t),
                [
                    ("dryRun".to_string(), "All".to_string()),
                    ("fieldManager".to_string(), "x".to_string())
                ]
            );
        }
    }

    #[test]
    fn queries_encode_selectors_and_tokens() {
        let t = target(
            &ApiPath::collection("v1", "pods", Some("ops")),
            &[
                ("labelSelector", "job-name in (a-1,b-2)".into()),
                ("limit", "500".into()),
            ],
        );
        assert_eq!(
            t,
            "/api/v1/namespaces/ops/pods?labelSelector=job-name%20in%20%28a-1%2Cb-2%29&limit=500"
        );
        assert_eq!(query_pairs(&t)[0].1, "job-name in (a-1,b-2)", "round trip");
        assert_eq!(
            query_pairs("/x?continue=a%3D%2F&x=%3FdryRun%3DAll#frag"),
            [
                ("continue".to_string(), "a=/".to_string()),
                ("x".to_string(), "?dryRun=All".to_string())
            ]
        );
    }
}
