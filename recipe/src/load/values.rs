//! The typed readers of [`Reader`]: a value of the schema's type, checked
//! against its range, or a located problem and the default.

use std::ops::Range;

use super::{Reader, Tab};
use crate::error::{Problem, Severity};
use crate::node::{Node, Val};
use crate::schema::Spelled;

impl Reader<'_> {
    /// `node` as a table with only `keys` (any key when `keys` is empty).
    pub(super) fn table<'n>(
        &mut self,
        node: &'n Node,
        path: String,
        keys: &[&'static str],
    ) -> Option<Tab<'n>> {
        let Val::Table(entries) = &node.value else {
            let p = if path.is_empty() {
                "recipe".into()
            } else {
                path
            };
            self.wrong_type(node, p, "a table");
            return None;
        };
        let t = Tab { path, entries };
        if !keys.is_empty() {
            for (key, _) in entries {
                if !keys.contains(&key.name.as_str()) {
                    self.error(
                        key.span.clone(),
                        Problem::UnknownKey {
                            path: t.path_of(&key.name),
                            expected: keys.to_vec(),
                        },
                    );
                }
            }
        }
        Some(t)
    }

    /// The sub-table `key` of `t` (an empty one when absent or invalid).
    pub(super) fn section<'n>(&mut self, t: &Tab<'n>, key: &str, keys: &[&'static str]) -> Tab<'n> {
        let path = t.path_of(key);
        t.get(key)
            .and_then(|node| self.table(node, path.clone(), keys))
            .unwrap_or(Tab { path, entries: &[] })
    }

    pub(super) fn bool(&mut self, t: &Tab<'_>, key: &str, default: bool) -> bool {
        match t.get(key) {
            None => default,
            Some(Node {
                value: Val::Bool(b),
                ..
            }) => *b,
            Some(node) => {
                self.wrong_type(node, t.path_of(key), "a boolean");
                default
            }
        }
    }

    pub(super) fn int(&mut self, t: &Tab<'_>, key: &str, default: i64, lo: i64, hi: i64) -> i64 {
        let Some(node) = t.get(key) else {
            return default;
        };
        match node.value {
            Val::Int(n) if (lo..=hi).contains(&n) => n,
            Val::Int(n) => {
                let allowed = if hi == i64::MAX {
                    format!("an integer >= {lo}")
                } else {
                    format!("an integer from {lo} to {hi}")
                };
                self.out_of_range(node, t.path_of(key), n.to_string(), allowed);
                default
            }
            _ => {
                self.wrong_type(node, t.path_of(key), "an integer");
                default
            }
        }
    }

    pub(super) fn pow2(&mut self, t: &Tab<'_>, key: &str, default: i64, hi: i64) -> i64 {
        let Some(node) = t.get(key) else {
            return default;
        };
        match node.value {
            Val::Int(n) if n > 0 && n <= hi && n & (n - 1) == 0 => n,
            Val::Int(n) => {
                let allowed = format!("a power of two from 1 to {hi}");
                self.out_of_range(node, t.path_of(key), n.to_string(), allowed);
                default
            }
            _ => {
                self.wrong_type(node, t.path_of(key), "an integer");
                default
            }
        }
    }

    pub(super) fn choice<T: Spelled>(&mut self, t: &Tab<'_>, key: &str, default: T) -> T {
        let Some(node) = t.get(key) else {
            return default;
        };
        let Val::Str(s) = &node.value else {
            self.wrong_type(node, t.path_of(key), "a string");
            return default;
        };
        if let Some((_, v)) = T::SPELLINGS.iter().find(|(name, _)| name == s) {
            return *v;
        }
        let names: Vec<String> = T::SPELLINGS
            .iter()
            .map(|(n, _)| format!("\"{n}\""))
            .collect();
        let allowed = format!("one of: {}", names.join(", "));
        self.out_of_range(node, t.path_of(key), format!("\"{s}\""), allowed);
        default
    }

    /// A string (absent: `None`); `nonempty` refuses `""`.
    pub(super) fn string(&mut self, t: &Tab<'_>, key: &str, nonempty: bool) -> Option<String> {
        let node = t.get(key)?;
        match &node.value {
            Val::Str(s) if nonempty && s.is_empty() => {
                let allowed = "a non-empty string".to_string();
                self.out_of_range(node, t.path_of(key), "\"\"".into(), allowed);
                None
            }
            Val::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(node, t.path_of(key), "a string");
                None
            }
        }
    }

    /// An array of strings (absent: empty).
    pub(super) fn strings(&mut self, t: &Tab<'_>, key: &str) -> Vec<String> {
        let Some(node) = t.get(key) else {
            return Vec::new();
        };
        self.string_list(node, &t.path_of(key))
            .into_iter()
            .map(|(s, _)| s)
            .collect()
    }

    pub(super) fn string_list(&mut self, node: &Node, path: &str) -> Vec<(String, Range<usize>)> {
        let Val::Array(items) = &node.value else {
            self.wrong_type(node, path.into(), "an array of strings");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match &item.value {
                Val::Str(s) if !s.trim().is_empty() => {
                    out.push((s.trim().to_string(), item.span.clone()))
                }
                Val::Str(_) => self.out_of_range(
                    item,
                    format!("{path}[{i}]"),
                    "\"\"".into(),
                    "a non-empty name".into(),
                ),
                _ => self.wrong_type(item, format!("{path}[{i}]"), "a string"),
            }
        }
        out
    }

    /// An array of op names; a name no dialect defines is a warning.
    pub(super) fn ops(&mut self, t: &Tab<'_>, key: &str) -> Vec<String> {
        let Some(node) = t.get(key) else {
            return Vec::new();
        };
        self.op_names(node, &t.path_of(key))
            .into_iter()
            .map(|(s, _)| s)
            .collect()
    }

    pub(super) fn op_names(&mut self, node: &Node, path: &str) -> Vec<(String, Range<usize>)> {
        let names = self.string_list(node, path);
        if let Some(known) = self.known_op {
            for (name, span) in &names {
                if !known(name) {
                    self.push(
                        span.clone(),
                        Severity::Warning,
                        Problem::UnknownOp {
                            path: path.to_string(),
                            name: name.clone(),
                        },
                    );
                }
            }
        }
        names
    }

    pub(super) fn int_list(
        &mut self,
        node: &Node,
        path: &str,
        lo: i64,
        hi: i64,
        allowed: &str,
    ) -> Vec<(i64, Range<usize>)> {
        let Val::Array(items) = &node.value else {
            self.wrong_type(node, path.into(), "an array of integers");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.value {
                Val::Int(n) if (lo..=hi).contains(&n) => out.push((n, item.span.clone())),
                Val::Int(n) => {
                    self.out_of_range(item, format!("{path}[{i}]"), n.to_string(), allowed.into())
                }
                _ => self.wrong_type(item, format!("{path}[{i}]"), "an integer"),
            }
        }
        out
    }
}

/// The span of the string entry `name` of array `node` (or the array's).
pub(super) fn entry_span(node: &Node, name: &str) -> Range<usize> {
    if let Val::Array(items) = &node.value {
        for item in items {
            if matches!(&item.value, Val::Str(s) if s.trim() == name) {
                return item.span.clone();
            }
        }
    }
    node.span.clone()
}

/// `"pow2:MIN..MAX"`: the powers of two from MIN to MAX.
pub(super) fn parse_pow2(s: &str) -> Option<Vec<i64>> {
    let (lo, hi) = s.strip_prefix("pow2:")?.split_once("..")?;
    let (lo, hi): (i64, i64) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    let pow2 = |n: i64| n > 0 && n & (n - 1) == 0;
    if !pow2(lo) || !pow2(hi) || lo > hi {
        return None;
    }
    let mut sizes = vec![lo];
    while let Some(&last) = sizes.last().filter(|&&l| l < hi) {
        sizes.push(last * 2);
    }
    Some(sizes)
}

/// `1`, `1.2`, `1.2.3`, optionally with a `-pre` or `+build` suffix.
pub(super) fn is_version(s: &str) -> bool {
    let core = s.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    (1..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-+._".contains(&b))
}

/// A dimension symbol: letters, digits and `_`, not starting with a digit.
pub(crate) fn is_symbol(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
