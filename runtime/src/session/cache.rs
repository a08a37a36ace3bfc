//! The session's plan cache: compiled plans by key, least recently used
//! first out.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What a plan was compiled for: the input shapes, and the values of the
/// inputs it holds as constants (axes, pads or shapes that ONNX passes as
/// inputs and the lowering needs at compile time).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlanKey {
    /// One shape per input.
    pub shapes: Vec<Vec<usize>>,
    /// `(input index, bytes)` of each input compiled in as a constant.
    pub pinned: Vec<(usize, Vec<u8>)>,
}

impl PlanKey {
    /// `[2x3, 4]` (shapes) and, when some are pinned, `pinned #1, #2`.
    pub fn describe(&self) -> String {
        let shapes: Vec<String> = self
            .shapes
            .iter()
            .map(|s| {
                if s.is_empty() {
                    "scalar".to_string()
                } else {
                    s.iter().map(usize::to_string).collect::<Vec<_>>().join("x")
                }
            })
            .collect();
        let mut text = format!("[{}]", shapes.join(", "));
        if !self.pinned.is_empty() {
            let pinned: Vec<String> = self.pinned.iter().map(|(i, _)| format!("#{i}")).collect();
            text.push_str(&format!(" pinned {}", pinned.join(", ")));
        }
        text
    }
}

/// A bounded map from [`PlanKey`] to compiled plans, evicting the least
/// recently used. It remembers the keys it evicted (so that compiling one
/// again says `evicted`, not `new-shape`) and, for the shape lists whose
/// plans need input values, which inputs they hold.
pub(crate) struct PlanCache<P> {
    limit: usize,
    /// Most recently used last.
    entries: Vec<(PlanKey, Arc<P>)>,
    evicted: HashSet<PlanKey>,
    seen_shapes: HashSet<Vec<Vec<usize>>>,
    /// Whether anything was ever inserted (a miss is `cold` before).
    warm: bool,
    pinned_inputs: HashMap<Vec<Vec<usize>>, Vec<bool>>,
    /// The keys whose compile failed, with the error, oldest first (at most
    /// [`FAILURES_KEPT`]): compiling is deterministic, so a run with one of
    /// them fails at once instead of compiling again.
    failures: std::collections::VecDeque<(PlanKey, String)>,
}

/// Failed compiles a cache remembers.
pub(crate) const FAILURES_KEPT: usize = 256;

/// Keys and shape lists a cache remembers beyond its plans (evicted keys,
/// shapes seen, inputs held as constants): a server that sees ever new
/// shapes must not grow without bound. Past it each set starts again
/// (a miss may then say `new-shape` where it was `evicted`, and a plan
/// that holds input values finds them again by compiling without).
pub(crate) const KEYS_REMEMBERED: usize = 4096;

/// Inserts into `set`, emptied first when it holds [`KEYS_REMEMBERED`].
fn remember<T: std::hash::Hash + Eq>(set: &mut HashSet<T>, item: T) {
    if set.len() >= KEYS_REMEMBERED && !set.contains(&item) {
        set.clear();
    }
    set.insert(item);
}

impl<P> PlanCache<P> {
    /// A cache of at most `limit` plans (at least 1).
    pub(crate) fn new(limit: usize) -> Self {
        PlanCache {
            limit: limit.max(1),
            entries: Vec::new(),
            evicted: HashSet::new(),
            seen_shapes: HashSet::new(),
            warm: false,
            pinned_inputs: HashMap::new(),
            failures: std::collections::VecDeque::new(),
        }
    }

    /// The error of `key`'s failed compile, if it failed.
    pub(crate) fn failure(&self, key: &PlanKey) -> Option<&str> {
        self.failures
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, e)| e.as_str())
    }

    /// Remembers that compiling `key` failed with `error`.
    pub(crate) fn remember_failure(&mut self, key: PlanKey, error: String) {
        if self.failure(&key).is_some() {
            return;
        }
        if self.failures.len() == FAILURES_KEPT {
            self.failures.pop_front();
        }
        self.failures.push_back((key, error));
    }

    /// The plan of `key`, now the most recently used.
    pub(crate) fn get(&mut self, key: &PlanKey) -> Option<Arc<P>> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        let entry = self.entries.remove(at);
        let plan = Arc::clone(&entry.1);
        self.entries.push(entry);
        Some(plan)
    }

    /// Adds `plan` as the most recently used; returns the keys evicted to
    /// make room.
    pub(crate) fn insert(&mut self, key: PlanKey, plan: Arc<P>) -> Vec<PlanKey> {
        self.entries.retain(|(k, _)| *k != key);
        remember(&mut self.seen_shapes, key.shapes.clone());
        self.warm = true;
        self.evicted.remove(&key);
        self.entries.push((key, plan));
        let mut gone = Vec::new();
        while self.entries.len() > self.limit {
            let (k, _) = self.entries.remove(0);
            remember(&mut self.evicted, k.clone());
            gone.push(k);
        }
        gone
    }

    /// Why `key` must be compiled: `evicted` (it was, and left the cache),
    /// `new-values` (its shapes were compiled, with other pinned values),
    /// `new-shape`, or `cold` (nothing compiled yet).
    pub(crate) fn miss_reason(&self, key: &PlanKey) -> &'static str {
        if self.evicted.contains(key) {
            "evicted"
        } else if self.seen_shapes.contains(&key.shapes) {
            "new-values"
        } else if !self.warm {
            "cold"
        } else {
            "new-shape"
        }
    }

    /// Which inputs plans for `shapes` hold as constants, if any.
    pub(crate) fn pinned_inputs(&self, shapes: &[Vec<usize>]) -> Option<&[bool]> {
        self.pinned_inputs.get(shapes).map(Vec::as_slice)
    }

    /// Records that plans for `shapes` hold the inputs `pin` marks.
    pub(crate) fn set_pinned_inputs(&mut self, shapes: Vec<Vec<usize>>, pin: Vec<bool>) {
        if self.pinned_inputs.len() >= KEYS_REMEMBERED && !self.pinned_inputs.contains_key(&shapes)
        {
            self.pinned_inputs.clear();
        }
        self.pinned_inputs.insert(shapes, pin);
    }

    /// Plans held.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The keys and plans held, least recently used first.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&PlanKey, &P)> {
        self.entries.iter().map(|(k, p)| (k, p.as_ref()))
    }

    /// The plans held, least recently used first.
    pub(crate) fn plans(&self) -> impl Iterator<Item = &P> {
        self.entries.iter().map(|(_, p)| p.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: usize) -> PlanKey {
        PlanKey {
            shapes: vec![vec![n, 4]],
            pinned: Vec::new(),
        }
    }

    #[test]
    fn evicts_the_least_recently_used() {
        let mut cache = PlanCache::new(2);
        assert_eq!(cache.miss_reason(&key(1)), "cold");
        assert!(cache.insert(key(1), Arc::new(1)).is_empty());
        assert_eq!(cache.miss_reason(&key(2)), "new-shape");
        assert!(cache.insert(key(2), Arc::new(2)).is_empty());
        // Using 1 makes 2 the least recently used.
        assert_eq!(cache.get(&key(1)).as_deref(), Some(&1));
        assert_eq!(cache.insert(key(3), Arc::new(3)), vec![key(2)]);
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&key(2)).is_none());
        assert_eq!(cache.miss_reason(&key(2)), "evicted");
        assert_eq!(cache.plans().copied().collect::<Vec<_>>(), vec![1, 3]);
        // Back in, 2 pushes out 1.
        assert_eq!(cache.insert(key(2), Arc::new(2)), vec![key(1)]);
        assert_eq!(cache.miss_reason(&key(1)), "evicted");
        assert_eq!(cache.plans().copied().collect::<Vec<_>>(), vec![3, 2]);
    }

    #[test]
    fn what_it_remembers_beyond_its_plans_is_bounded() {
        let mut c: PlanCache<u32> = PlanCache::new(1);
        for n in 0..3 * KEYS_REMEMBERED {
            c.insert(key(n), Arc::new(0));
            c.set_pinned_inputs(vec![vec![n]], vec![true]);
        }
        assert!(c.evicted.len() <= KEYS_REMEMBERED);
        assert!(c.seen_shapes.len() <= KEYS_REMEMBERED);
        assert!(c.pinned_inputs.len() <= KEYS_REMEMBERED);
        // The latest are still known, and the cache is not cold again.
        let last = 3 * KEYS_REMEMBERED - 2;
        assert_eq!(c.miss_reason(&key(last)), "evicted");
        assert_eq!(c.miss_reason(&key(usize::MAX)), "new-shape");
        assert_eq!(c.pinned_inputs(&[vec![last]]), Some(&[true][..]));
    }

    #[test]
    fn failures_are_remembered_up_to_a_bound() {
        let mut c: PlanCache<u32> = PlanCache::new(4);
        c.remember_failure(key(1), "no".into());
        c.remember_failure(key(1), "again".into());
        assert_eq!(c.failure(&key(1)), Some("no"));
        assert_eq!(c.failure(&key(2)), None);
        for n in 2..=FAILURES_KEPT + 1 {
            c.remember_failure(key(n), format!("{n}"));
        }
        assert_eq!(c.failure(&key(1)), None, "the oldest is forgotten");
        assert_eq!(c.failure(&key(2)), Some("2"));
    }

    #[test]
    fn a_limit_of_zero_keeps_one_plan() {
        let mut cache = PlanCache::new(0);
        cache.insert(key(1), Arc::new(1));
        assert_eq!(cache.get(&key(1)).as_deref(), Some(&1));
    }

    #[test]
    fn pinned_values_are_part_of_the_key() {
        let mut cache = PlanCache::new(4);
        let pinned = |v: u8| PlanKey {
            shapes: vec![vec![2]],
            pinned: vec![(0, vec![v])],
        };
        cache.set_pinned_inputs(vec![vec![2]], vec![true]);
        assert_eq!(cache.pinned_inputs(&[vec![2]]), Some(&[true][..]));
        assert_eq!(cache.pinned_inputs(&[vec![3]]), None);
        cache.insert(pinned(1), Arc::new(1));
        assert!(cache.get(&pinned(2)).is_none());
        assert_eq!(cache.miss_reason(&pinned(2)), "new-values");
        assert_eq!(pinned(2).describe(), "[2] pinned #0");
        assert_eq!(key(3).describe(), "[3x4]");
    }
}
