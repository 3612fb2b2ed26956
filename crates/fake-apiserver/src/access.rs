//! Authorization: configurable allow/deny rules, consulted both by
//! SelfSubjectAccessReview answers and by the real requests, so a pre-flight permission check
//! and the request it guards always agree (as they do against real RBAC).

/// One rule; `*` fields match anything. The first matching rule decides; no match allows.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessRule {
    pub verb: String,
    pub group: String,
    /// Resource, or `resource/subresource` (`cronjobs/status`).
    pub resource: String,
    pub namespace: String,
    pub allowed: bool,
}

impl AccessRule {
    /// Denies `verb` on `resource` in every group and namespace; narrow with the builders.
    pub fn deny(verb: &str, resource: &str) -> Self {
        AccessRule {
            verb: verb.into(),
            group: "*".into(),
            resource: resource.into(),
            namespace: "*".into(),
            allowed: false,
        }
    }
    pub fn allow(verb: &str, resource: &str) -> Self {
        AccessRule {
            allowed: true,
            ..Self::deny(verb, resource)
        }
    }
    pub fn in_namespace(mut self, ns: &str) -> Self {
        self.namespace = ns.into();
        self
    }
    pub fn in_group(mut self, group: &str) -> Self {
        self.group = group.into();
        self
    }

    fn matches(&self, a: &Attributes) -> bool {
        let m = |rule: &str, v: &str| rule == "*" || rule == v;
        let resource = match &a.subresource {
            Some(s) if !s.is_empty() => format!("{}/{s}", a.resource),
            _ => a.resource.clone(),
        };
        m(&self.verb, &a.verb)
            && m(&self.group, &a.group)
            && m(&self.resource, &resource)
            && m(&self.namespace, a.namespace.as_deref().unwrap_or(""))
    }
}

/// What is being attempted (SelfSubjectAccessReview `resourceAttributes`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Attributes {
    pub verb: String,
    pub group: String,
    pub resource: String,
    pub subresource: Option<String>,
    pub namespace: Option<String>,
}

pub(crate) fn allowed(rules: &[AccessRule], a: &Attributes) -> bool {
    rules
        .iter()
        .find(|r| r.matches(a))
        .is_none_or(|r| r.allowed)
}

/// `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`: echoes the review with a
/// `status` decided by the rules (201, like the real server).
pub(crate) fn self_subject_access_review(ctx: &crate::state::Ctx<'_>) -> crate::state::Answer {
    use serde_json::json;
    let mut review = ctx.body_value()?;
    let ra = &review["spec"]["resourceAttributes"];
    let s = |k: &str| ra[k].as_str().unwrap_or_default().to_string();
    let attrs = Attributes {
        verb: s("verb"),
        group: s("group"),
        resource: s("resource"),
        subresource: Some(s("subresource")).filter(|x| !x.is_empty()),
        namespace: Some(s("namespace")).filter(|x| !x.is_empty()),
    };
    // Non-resource requests (`/healthz`…) and reviews without attributes are allowed.
    let ok = ra.is_null() || allowed(&ctx.cfg.rules, &attrs);
    review["apiVersion"] = json!("authorization.k8s.io/v1");
    review["kind"] = json!("SelfSubjectAccessReview");
    review["metadata"] = json!({"creationTimestamp": null});
    review["status"] = if ok {
        json!({"allowed": true, "reason": format!("RBAC: allowed by ClusterRoleBinding \"fake-admin\" of ClusterRole \"cluster-admin\" to User \"{}\"", ctx.cfg.user)})
    } else {
        json!({"allowed": false})
    };
    crate::state::json_answer(201, &review)
}
