//! `labelSelector` and `fieldSelector` query parameters, parsed and matched with the real
//! apimachinery semantics (`!=` and `notin` match objects that lack the label; field values
//! may escape `,`, `=` and `\`).

use crate::error::SelectorError;

/// One requirement of a label selector.
#[derive(Debug, Clone, PartialEq)]
enum Req {
    Eq(String, String),
    Ne(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
    Gt(String, i64),
    Lt(String, i64),
}

/// A parsed `labelSelector`; all requirements must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSelector(Vec<Req>);

#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    Op(&'static str),
}

fn tokenize(s: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            ' ' | '\t' => {
                chars.next();
            }
            '(' | ')' | ',' | '<' | '>' => {
                chars.next();
                out.push(Tok::Op(match c {
                    '(' => "(",
                    ')' => ")",
                    ',' => ",",
                    '<' => "<",
                    _ => ">",
                }));
            }
            '=' | '!' => {
                chars.next();
                let double = chars.peek() == Some(&'=');
                if double {
                    chars.next();
                }
                out.push(Tok::Op(match (c, double) {
                    ('=', _) => "=",
                    ('!', true) => "!=",
                    _ => "!",
                }));
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if " \t(),<>=!".contains(c) {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                out.push(Tok::Ident(word));
            }
        }
    }
    out
}

impl LabelSelector {
    pub fn parse(s: &str) -> Result<Self, SelectorError> {
        let toks = tokenize(s);
        let mut i = 0;
        let mut reqs = Vec::new();
        let err = |what: &'static str| {
            Err(SelectorError::Label {
                what,
                selector: s.to_string(),
            })
        };
        let ident = |i: usize| match toks.get(i) {
            Some(Tok::Ident(w)) => Some(w.clone()),
            _ => None,
        };
        while i < toks.len() {
            if toks[i] == Tok::Op("!") {
                let Some(k) = ident(i + 1) else {
                    return err("expected a key after '!'");
                };
                reqs.push(Req::NotExists(k));
                i += 2;
            } else {
                let Some(k) = ident(i) else {
                    return err("expected a key");
                };
                i += 1;
                match toks.get(i) {
                    None | Some(Tok::Op(",")) => reqs.push(Req::Exists(k)),
                    Some(Tok::Op(op @ ("=" | "!="))) => {
                        // `key=` selects the empty value, so a missing value token is fine.
                        let v = ident(i + 1).unwrap_or_default();
                        i += 1 + usize::from(ident(i + 1).is_some());
                        reqs.push(if *op == "=" {
                            Req::Eq(k, v)
                        } else {
                            Req::Ne(k, v)
                        });
                    }
                    Some(Tok::Op(op @ ("<" | ">"))) => {
                        let Some(n) = ident(i + 1).and_then(|v| v.parse().ok()) else {
                            return err("expected an integer");
                        };
                        reqs.push(if *op == "<" {
                            Req::Lt(k, n)
                        } else {
                            Req::Gt(k, n)
                        });
                        i += 2;
                    }
                    Some(Tok::Ident(w)) if w == "in" || w == "notin" => {
                        let notin = w == "notin";
                        if toks.get(i + 1) != Some(&Tok::Op("(")) {
                            return err("expected '('");
                        }
                        i += 2;
                        let mut vals = Vec::new();
                        loop {
                            match toks.get(i) {
                                Some(Tok::Ident(v)) => vals.push(v.clone()),
                                Some(Tok::Op(",")) => {}
                                Some(Tok::Op(")")) => break,
                                _ => return err("expected ')'"),
                            }
                            i += 1;
                        }
                        i += 1;
                        reqs.push(if notin {
                            Req::NotIn(k, vals)
                        } else {
                            Req::In(k, vals)
                        });
                    }
                    _ => return err("unexpected token"),
                }
            }
            match toks.get(i) {
                None => {}
                Some(Tok::Op(",")) => i += 1,
                _ => return err("expected ','"),
            }
        }
        Ok(LabelSelector(reqs))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn matches(&self, labels: &[(String, String)]) -> bool {
        let get = |k: &str| {
            labels
                .iter()
                .find(|(lk, _)| lk == k)
                .map(|(_, v)| v.as_str())
        };
        self.0.iter().all(|r| match r {
            Req::Eq(k, v) => get(k) == Some(v),
            Req::Ne(k, v) => get(k) != Some(v),
            Req::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Req::NotIn(k, vs) => get(k).is_none_or(|x| !vs.iter().any(|v| v == x)),
            Req::Exists(k) => get(k).is_some(),
            Req::NotExists(k) => get(k).is_none(),
            Req::Gt(k, n) => get(k)
                .and_then(|x| x.parse::<i64>().ok())
                .is_some_and(|x| x > *n),
            Req::Lt(k, n) => get(k)
                .and_then(|x| x.parse::<i64>().ok())
                .is_some_and(|x| x < *n),
        })
    }
}

/// A parsed `fieldSelector`: `label=value`, `label==value`, `label!=value`, comma-separated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSelector(Vec<(String, bool, String)>);

impl FieldSelector {
    /// `supported` are the field labels the resource accepts; the real server answers
    /// `field label not supported: x` for anything else.
    pub fn parse(
        s: &str,
        supported: &[&str],
        aliases: &[(&str, &str)],
    ) -> Result<Self, SelectorError> {
        let mut out = Vec::new();
        for term in split_unescaped(s, ',') {
            if term.trim().is_empty() {
                continue;
            }
            let (key, eq, raw) = split_op(&term).ok_or_else(|| SelectorError::Field {
                selector: s.to_string(),
                term: term.clone(),
            })?;
            let key = key.trim();
            let key = aliases
                .iter()
                .find(|(a, _)| *a == key)
                .map_or(key, |(_, k)| k);
            if !(key == "metadata.name" || key == "metadata.namespace" || supported.contains(&key))
            {
                return Err(SelectorError::UnsupportedField(key.to_string()));
            }
            out.push((key.to_string(), eq, unescape(raw)));
        }
        Ok(FieldSelector(out))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A field the object lacks counts as the empty string, as in the real field sets.
    pub fn matches(&self, fields: &[(&'static str, String)]) -> bool {
        self.0.iter().all(|(k, eq, v)| {
            let got = fields
                .iter()
                .find(|(fk, _)| fk == k)
                .map_or("", |(_, fv)| fv.as_str());
            (got == v) == *eq
        })
    }
}

fn split_unescaped(s: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut escaped = false;
    for c in s.chars() {
        if c == sep && !escaped {
            parts.push(String::new());
        } else {
            parts.last_mut().expect("never empty").push(c);
        }
        escaped = c == '\\' && !escaped;
    }
    parts
}

/// Splits `term` at its first unescaped operator: `!=`, `==` or `=`.
fn split_op(term: &str) -> Option<(&str, bool, &str)> {
    let bytes = term.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'!' if bytes.get(i + 1) == Some(&b'=') => {
                return Some((&term[..i], false, &term[i + 2..]));
            }
            b'=' if bytes.get(i + 1) == Some(&b'=') => {
                return Some((&term[..i], true, &term[i + 2..]));
            }
            b'=' => return Some((&term[..i], true, &term[i + 1..])),
            _ => {}
        }
        i += 1;
    }
    None
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' {
            chars.next().unwrap_or('\\')
        } else {
            c
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn label_selectors() {
        let l = labels(&[("job-name", "x"), ("tier", "batch"), ("n", "5")]);
        let m = |s: &str| LabelSelector::parse(s).unwrap().matches(&l);
        assert!(m("job-name=x"));
        assert!(m("job-name==x,tier=batch"));
        assert!(!m("job-name!=x"));
        assert!(m("missing!=x"));
        assert!(m("job-name in (a, x)"));
        assert!(m("batch.kubernetes.io/job-name notin (a,b)"));
        assert!(!m("tier notin (batch)"));
        assert!(m("tier,!missing"));
        assert!(!m("!tier"));
        assert!(m("n>4") && !m("n<5"));
        assert!(m(""));
        assert!(LabelSelector::parse("a in (x").is_err());
        assert!(LabelSelector::parse("a b").is_err());
    }

    #[test]
    fn field_selectors() {
        let f = vec![
            ("metadata.name", "a,b".to_string()),
            ("status.phase", "Failed".to_string()),
        ];
        let sup = &["status.phase"];
        let m = |s: &str| FieldSelector::parse(s, sup, &[]).unwrap().matches(&f);
        assert!(m("metadata.name=a\\,b"));
        assert!(m("status.phase!=Succeeded,metadata.name==a\\,b"));
        assert!(!m("status.phase=Succeeded"));
        assert!(m("metadata.namespace="));
        let err = FieldSelector::parse("spec.foo=1", sup, &[]).unwrap_err();
        assert_eq!(err.to_string(), "field label not supported: spec.foo");
        let aliased = FieldSelector::parse("phase=Failed", sup, &[("phase", "status.phase")]);
        assert!(aliased.unwrap().matches(&f));
    }
}
