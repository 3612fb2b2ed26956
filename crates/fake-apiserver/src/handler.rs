//! The one HTTP handler: record the request, apply latency and faults, enforce the access
//! rules, dispatch to the endpoint, and stamp `Date` from the server clock on every answer.

use crate::access::{self, Attributes};
use crate::clock::http_date;
use crate::faults::{FaultAction, consult};
use crate::log::{HEADERS_OF_INTEREST, RecordedRequest, parse_body, parse_query};
use crate::resources::{PODS, Route, SSAR, Target, route};
use crate::state::{Answer, Config, Ctx, Shared, lock};
use crate::status::{self, ApiError};
use crate::store::uid_for;
use crate::{discovery, read, watch, write};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::Notify;

/// Per-connection switch: notifying it makes the accept loop drop the connection unanswered.
#[derive(Clone)]
pub(crate) struct ConnKill(pub Arc<Notify>);

static REQUEST_IDS: AtomicU64 = AtomicU64::new(1);

/// The Kubernetes verb a request amounts to (what RBAC and Forbidden messages name).
fn verb_for(method: &str, route: &Route, watch: bool) -> String {
    let named = matches!(route, Route::Resource(Target { name: Some(_), .. }));
    match (method, named) {
        ("GET", false) if watch => "watch",
        ("GET", false) if matches!(route, Route::Resource(_)) => "list",
        ("GET", _) => "get",
        ("POST", _) => "create",
        ("PUT", _) => "update",
        ("PATCH", _) => "patch",
        ("DELETE", true) => "delete",
        ("DELETE", false) => "deletecollection",
        (other, _) => return other.to_ascii_lowercase(),
    }
    .to_string()
}

fn forbidden(route: &Route, verb: &str, cfg: &Config, path: &str) -> ApiError {
    match route {
        Route::Resource(t) => status::forbidden(
            t.def(),
            t.name.as_deref(),
            t.subresource.as_deref(),
            &cfg.user,
            verb,
            t.namespace.as_deref(),
        ),
        _ => {
            let msg = format!(
                "forbidden: User \"{}\" cannot {verb} path \"{path}\"",
                cfg.user
            );
            status::status(403, "Forbidden", &msg, serde_json::json!({}))
        }
    }
}

fn fault_error(
    action: FaultAction,
    route: &Route,
    verb: &str,
    cfg: &Config,
    path: &str,
) -> ApiError {
    match action {
        FaultAction::Forbidden => forbidden(route, verb, cfg, path),
        FaultAction::NotFound => match route {
            Route::Resource(Target {
                res, name: Some(n), ..
            }) => status::not_found(crate::state::def(*res), n),
            _ => status::no_such_path(),
        },
        FaultAction::TooManyRequests { retry_after_secs } => {
            status::too_many_requests(retry_after_secs)
        }
        FaultAction::InternalError => status::internal_error("fake-apiserver injected fault"),
        FaultAction::Status {
            code,
            reason,
            message,
        } => status::status(code, &reason, &message, serde_json::json!({})),
        FaultAction::Delay(_) | FaultAction::DropConnection | FaultAction::EndWatch(_) => {
            unreachable!("handled before dispatch")
        }
    }
}

/// The verb must be one the resource serves, and the access rules must allow it.
fn authorize(
    ctx: &Ctx<'_>,
    route: &Route,
    t: &Target,
    verb: &str,
    path: &str,
) -> Result<(), ApiError> {
    let d = t.def();
    if !d.allows(verb) {
        return Err(status::method_not_allowed(&format!(
            "{verb} is not supported on {}",
            d.group_resource()
        )));
    }
    let attrs = Attributes {
        verb: verb.to_string(),
        group: d.group.to_string(),
        resource: d.plural.to_string(),
        subresource: t.subresource.clone(),
        namespace: t.namespace.clone(),
    };
    if !access::allowed(&ctx.cfg.rules, &attrs) {
        return Err(forbidden(route, verb, &ctx.cfg, path));
    }
    Ok(())
}

fn dispatch(ctx: &Ctx<'_>, route: Route, method: &str, verb: &str, path: &str) -> Answer {
    let get_only = |f: &dyn Fn() -> Answer| {
        if method == "GET" {
            f()
        } else {
            Err(status::method_not_allowed("only GET is served here"))
        }
    };
    match route {
        Route::Version => get_only(&|| discovery::version(ctx)),
        Route::CoreVersions => get_only(&|| discovery::core_versions(ctx)),
        Route::Groups => get_only(&discovery::api_groups),
        Route::Group(g) => get_only(&|| discovery::api_group(&g)),
        Route::ResourceList(g, v) => get_only(&|| discovery::resource_list(&g, &v)),
        Route::Unknown => Err(status::no_such_path()),
        Route::ServiceProxy(_) => unreachable!("forwarded before dispatch"),
        Route::Resource(ref t) => {
            if t.res == SSAR && t.def().allows(verb) {
                return access::self_subject_access_review(ctx);
            }
            authorize(ctx, &route, t, verb, path)?;
            match (method, t.name.is_some()) {
                ("GET", false) => read::list(ctx, t),
                ("GET", true) if t.res == PODS && t.subresource.as_deref() == Some("log") => {
                    read::logs(ctx, t)
                }
                ("GET", true) => read::get(ctx, t),
                ("POST", false) if t.subresource.is_none() => write::create(ctx, t, "Update"),
                ("PUT", true) => write::replace(ctx, t),
                ("PATCH", true) => write::patch(ctx, t),
                ("DELETE", true) => write::delete(ctx, t),
                _ => Err(status::method_not_allowed(&format!(
                    "{method} is not supported here"
                ))),
            }
        }
    }
}

fn respond(answer: Answer, cfg_shared: &Shared, id: u64, text: bool) -> Response {
    let content_type = if text && answer.is_ok() {
        "text/plain"
    } else {
        "application/json"
    };
    let rule = lock(&cfg_shared.cfg).wire_rewrite.clone();
    let (code, body, retry_after) = match answer {
        Ok((code, body)) => (code, crate::state::rewrite(body, rule.as_ref()), None),
        Err(e) => (
            e.code,
            serde_json::to_vec(&e.body).expect("serialises").into(),
            e.retry_after,
        ),
    };
    // Read the clock at answer time: a test may move it while a delayed request waits.
    let now = lock(&cfg_shared.cfg).clock.now();
    let mut b = Response::builder()
        .status(code)
        .header("content-type", content_type)
        .header("date", http_date(now))
        .header("cache-control", "no-cache, private")
        .header("audit-id", uid_for(&format!("audit/{id}")));
    if let Some(secs) = retry_after {
        b = b.header("retry-after", secs.to_string());
    }
    b.body(Body::from(body)).expect("valid response parts")
}

fn finish_log(shared: &Shared, id: u64, status: u16, faulted: bool) {
    let mut log = lock(&shared.log);
    if let Some(r) = log.iter_mut().rev().find(|r| r.id == id) {
        r.status = status;
        r.faulted = faulted;
    }
}

pub(crate) async fn handle(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let id = REQUEST_IDS.fetch_add(1, Ordering::Relaxed);
    let method = parts.method.as_str().to_string();
    let path = parts.uri.path().to_string();
    let query = parse_query(parts.uri.query().unwrap_or_default());
    let header = |n: &str| {
        parts
            .headers
            .get(n)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    let route = route(&path);
    let text = matches!(&route, Route::Resource(Target { subresource: Some(s), .. }) if s == "log");
    let verb = verb_for(
        &method,
        &route,
        query.get("watch").is_some_and(|w| w == "true" || w == "1"),
    );
    lock(&shared.log).push(RecordedRequest {
        id,
        method: method.clone(),
        path: path.clone(),
        query: query.clone(),
        content_type: Some(header("content-type").to_string()).filter(|c| !c.is_empty()),
        body: parse_body(&body),
        headers: HEADERS_OF_INTEREST
            .iter()
            .filter(|h| parts.headers.contains_key(**h))
            .map(|h| (h.to_string(), header(h).to_string()))
            .collect(),
        status: 0,
        faulted: false,
    });

    // A frozen server (a stopped process) takes the request and never gets to it until thawed.
    shared.thawed().await;
    // A server that is down: the connection closes unanswered.
    if shared.down.load(Ordering::SeqCst) {
        finish_log(&shared, id, 0, true);
        match parts.extensions.get::<ConnKill>() {
            Some(k) => k.0.notify_one(),
            None => return Response::new(Body::empty()),
        }
        std::future::pending::<()>().await;
        unreachable!()
    }
    let cfg = shared.cfg();
    if !cfg.latency.is_zero() {
        tokio::time::sleep(cfg.latency).await;
    }
    let has_continue = query.get("continue").is_some_and(|c| !c.is_empty());
    let (delay, action) = consult(
        &mut lock(&shared.faults),
        &method,
        &verb,
        &path,
        has_continue,
    );
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let faulted = !delay.is_zero() || action.is_some();
    // Only a watch can end early; any other request is answered as usual.
    let (action, end_watch) = match action {
        Some(FaultAction::EndWatch(after)) if verb == "watch" => (None, Some(after)),
        Some(FaultAction::EndWatch(_)) => (None, None),
        other => (other, None),
    };
    let answer = match action {
        Some(FaultAction::DropConnection) => {
            finish_log(&shared, id, 0, true);
            match parts.extensions.get::<ConnKill>() {
                Some(k) => k.0.notify_one(),
                None => return Response::new(Body::empty()),
            }
            // The connection is being torn down around this future; never answer.
            std::future::pending::<()>().await;
            unreachable!()
        }
        Some(a) => Err(fault_error(a, &route, &verb, &cfg, &path)),
        None => {
            let ctx = Ctx {
                shared: &shared,
                now: cfg.clock.now(),
                cfg: cfg.clone(),
                query: &query,
                content_type: header("content-type"),
                accept: header("accept"),
                user_agent: header("user-agent"),
                body: &body,
            };
            if verb == "watch"
                && let Route::Resource(t) = &route
                && t.subresource.is_none()
            {
                let opened = authorize(&ctx, &route, t, &verb, &path).and_then(|()| {
                    let kill = parts.extensions.get::<ConnKill>().cloned();
                    watch::open(&ctx, shared.clone(), t, kill, end_watch)
                });
                match opened {
                    Ok(response) => {
                        finish_log(&shared, id, 200, faulted);
                        return response;
                    }
                    Err(e) => Err(e),
                }
            } else if let Route::ServiceProxy(p) = &route {
                crate::proxy::forward(&ctx, p, &method, parts.uri.query().unwrap_or_default()).await
            } else {
                dispatch(&ctx, route, &method, &verb, &path)
            }
        }
    };
    let code = answer.as_ref().map_or_else(|e| e.code, |(c, _)| *c);
    finish_log(&shared, id, code, faulted);
    respond(answer, &shared, id, text)
}
