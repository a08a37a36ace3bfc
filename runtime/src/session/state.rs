//! The session's state behind its lock: the plan cache and the counters,
//! and the guard that gives the events pushed under the lock to
//! `on_event` once it is released.

use super::cache::PlanCache;
use super::events::{self, Event};
use super::Plan;

/// What the cache and the counters hold, behind the session's lock.
pub(crate) struct State {
    pub(super) cache: PlanCache<Plan>,
    pub(super) runs: u64,
    pub(super) compiles: u64,
    pub(super) compile_ms: f64,
    pub(super) hits: u64,
    pub(super) misses: u64,
    pub(super) evictions: u64,
    /// Plans loaded from the disk cache, entries written to it, and
    /// entries refused (corrupt, truncated, for another key).
    pub(super) disk_hits: u64,
    pub(super) disk_writes: u64,
    pub(super) disk_rejected: u64,
    /// Runs refused with the error of their key's failed compile.
    pub(super) failed_again: u64,
    /// The latest events, at most [`super::EVENTS_KEPT`].
    pub(super) events: std::collections::VecDeque<Event>,
    /// Events no longer kept; those not yet given to `on_event`.
    pub(super) events_dropped: u64,
    pub(super) outbox: Vec<Event>,
    /// Input elements given, and added by padding to a bucket.
    pub(super) real_elements: u64,
    pub(super) padded_elements: u64,
    /// The run counts at which the latest compiles happened (bursts).
    pub(super) recent_compiles: std::collections::VecDeque<u64>,
    /// Whether the 75 % warning was given.
    pub(super) budget_warned: bool,
    /// The run count of the latest burst warning.
    pub(super) burst_warned_at: Option<u64>,
    /// The latest runs' spans (with `trace`), at most [`super::EVENTS_KEPT`].
    pub(super) spans: std::collections::VecDeque<events::Span>,
}

impl State {
    /// A state with an empty plan cache of at most `plan_cache_limit` plans.
    pub(super) fn new(plan_cache_limit: usize) -> State {
        State {
            cache: PlanCache::new(plan_cache_limit),
            runs: 0,
            compiles: 0,
            compile_ms: 0.0,
            hits: 0,
            misses: 0,
            evictions: 0,
            disk_hits: 0,
            disk_writes: 0,
            disk_rejected: 0,
            failed_again: 0,
            events: std::collections::VecDeque::new(),
            events_dropped: 0,
            outbox: Vec::new(),
            real_elements: 0,
            padded_elements: 0,
            recent_compiles: std::collections::VecDeque::new(),
            budget_warned: false,
            burst_warned_at: None,
            spans: std::collections::VecDeque::new(),
        }
    }
}

/// The session's state, locked. The events pushed while it is held reach
/// [`SessionOptions::on_event`](super::SessionOptions::on_event) when it is
/// released, so that the callback may call back into the session.
pub(super) struct StateGuard<'a> {
    guard: Option<std::sync::MutexGuard<'a, State>>,
    sink: Option<&'a super::EventSink>,
}

impl<'a> StateGuard<'a> {
    pub(super) fn new(
        guard: std::sync::MutexGuard<'a, State>,
        sink: Option<&'a super::EventSink>,
    ) -> Self {
        StateGuard {
            guard: Some(guard),
            sink,
        }
    }
}

impl std::ops::Deref for StateGuard<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        // Present until the guard is dropped.
        self.guard.as_deref().unwrap_or_else(|| unreachable!())
    }
}

impl std::ops::DerefMut for StateGuard<'_> {
    fn deref_mut(&mut self) -> &mut State {
        self.guard.as_deref_mut().unwrap_or_else(|| unreachable!())
    }
}

impl Drop for StateGuard<'_> {
    fn drop(&mut self) {
        let Some(mut guard) = self.guard.take() else {
            return;
        };
        let pending = std::mem::take(&mut guard.outbox);
        drop(guard);
        if let Some(sink) = self.sink {
            for event in &pending {
                sink(event);
            }
        }
    }
}

impl super::Session {
    /// The session's state, locked ([`StateGuard`]).
    pub(super) fn state(&self) -> StateGuard<'_> {
        StateGuard::new(super::lock(&self.state), self.options.on_event.as_ref())
    }
}
