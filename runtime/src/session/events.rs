//! Compile events and the session report.

use serde_json::{json, Value as Json};

use super::ExeMode;

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A plan was compiled (its `reason` says why it was not cached).
    Compile,
    /// A run found its plan in the cache.
    Hit,
    /// A plan left the cache to make room (`runtime.plan_cache_limit`).
    Evict,
    /// A compile failed (the run failed with it).
    CompileFailed,
    /// Hybrid mode: a segment did not compile and runs eagerly
    /// (`runtime.fallback = "eager"`); the reason is the compile error.
    Fallback,
    /// Input shapes outside every bucket ran eagerly
    /// (`capture.outside_buckets = "eager"`).
    OutsideBuckets,
    /// 75 % of the recompile budget spent, or a burst of compiles.
    BudgetWarning,
    /// A run needed a new plan with the budget spent; the reason names
    /// the action (`runtime.on_budget_exhausted`).
    BudgetExhausted,
    /// A disk cache entry was refused (corrupt, truncated, written for
    /// another key or by another compiler); the plan is compiled again
    /// and the entry replaced.
    DiskRejected,
    /// A compiled plan was written to the disk cache (its bytes).
    DiskWrite,
    /// A compiled plan could not be written to the disk cache (it still
    /// serves this session).
    DiskWriteFailed,
    /// A compiled plan is not kept on disk (it calls custom ops, or its
    /// kernels are GPU kernels emulated on the host).
    DiskSkipped,
}

impl EventKind {
    /// The name in the event log and the report.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Compile => "compile",
            EventKind::Hit => "hit",
            EventKind::Evict => "evict",
            EventKind::CompileFailed => "compile-failed",
            EventKind::Fallback => "fallback",
            EventKind::OutsideBuckets => "outside-buckets",
            EventKind::BudgetWarning => "budget-warning",
            EventKind::BudgetExhausted => "budget-exhausted",
            EventKind::DiskRejected => "cache-rejected",
            EventKind::DiskWrite => "cache-write",
            EventKind::DiskWriteFailed => "cache-write-failed",
            EventKind::DiskSkipped => "cache-skipped",
        }
    }
}

/// One compile event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The plan's key ([`super::PlanKey::describe`]).
    pub key: String,
    /// Why (`cold`, `new-shape`, `new-values`, `evicted`; for a failure, the
    /// error), or empty.
    pub reason: String,
    /// How long it took, in milliseconds (0 for a hit or an eviction).
    pub ms: f64,
    /// Where the plan was found or put: `memory` or `disk`.
    pub level: &'static str,
    /// Microseconds since the session was made, when it started.
    pub at_us: u64,
    /// The inputs compiled in as constants (their names), for a compile.
    pub pinned: Vec<String>,
}

impl Event {
    /// The event as one JSON object (a line of `--log-events`).
    pub fn to_json(&self) -> Json {
        let mut j = json!({
            "event": self.kind.name(),
            "key": self.key,
            "level": self.level,
            "ms": round3(self.ms),
            "at_us": self.at_us,
        });
        if !self.reason.is_empty() {
            j["reason"] = json!(self.reason);
        }
        if !self.pinned.is_empty() {
            j["pinned"] = json!(self.pinned);
        }
        j
    }
}

fn round3(v: f64) -> f64 {
    (v * 1e3).round() / 1e3
}

/// One run, for a Chrome trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// Microseconds since the session was made, when it started.
    pub at_us: u64,
    /// How long it took, in microseconds.
    pub us: u64,
    /// Whether it succeeded.
    pub ok: bool,
}

/// What a session did: its mode, its cache and its events.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The exe mode the session runs in.
    pub exe_mode: ExeMode,
    /// Runs, including failed ones.
    pub runs: u64,
    /// Plans compiled.
    pub compiles: u64,
    /// Milliseconds spent compiling, in all.
    pub compile_ms: f64,
    /// Runs that found their plan in the cache.
    pub hits: u64,
    /// Runs that did not (each compiled, or failed to).
    pub misses: u64,
    /// Plans evicted.
    pub evictions: u64,
    /// Plans loaded from the disk cache (no compile).
    pub disk_hits: u64,
    /// Plans written to the disk cache.
    pub disk_writes: u64,
    /// Disk cache entries refused (and compiled again).
    pub disk_rejected: u64,
    /// Runs refused at once with the error of their key's failed compile
    /// (a failed compile is not tried again).
    pub failed_again: u64,
    /// The disk cache's directory, when the session has one.
    pub cache_dir: Option<std::path::PathBuf>,
    /// Plans in the cache now.
    pub plans: usize,
    /// Bytes of the cached plans' arenas.
    pub cache_arena_bytes: usize,
    /// The launches of one run, summed over the cached plans.
    pub cache_launches: usize,
    /// The latest events, in order (at most [`super::EVENTS_KEPT`]).
    pub events: Vec<Event>,
    /// Older events that are no longer kept.
    pub events_dropped: u64,
    /// The latest runs (with [`super::SessionOptions::trace`]).
    pub spans: Vec<Span>,
    /// The fraction of the elements run that padding to buckets added.
    pub padding_waste: f64,
    /// Hybrid mode: the partition of each cached plan, by its key.
    pub partitions: Vec<(String, super::Partition)>,
}

impl Report {
    /// The report as JSON (`strata run --report FILE.json`).
    pub fn to_json(&self) -> Json {
        let mut j = json!({
            "exe_mode": self.exe_mode.name(),
            "runs": self.runs,
            "compiles": self.compiles,
            "compile_ms": round3(self.compile_ms),
            "cache": {
                "hits": self.hits,
                "misses": self.misses,
                "evictions": self.evictions,
                "failed_again": self.failed_again,
                "plans": self.plans,
                "arena_bytes": self.cache_arena_bytes,
                "launches": self.cache_launches,
                "level": "memory",
            },
            "events": self.events.iter().map(Event::to_json).collect::<Vec<_>>(),
            "events_dropped": self.events_dropped,
            "padding_waste": round3(self.padding_waste),
        });
        if let Some(dir) = &self.cache_dir {
            let cache = &mut j["cache"];
            cache["level"] = json!("disk");
            cache["dir"] = json!(dir.display().to_string());
            cache["disk_hits"] = json!(self.disk_hits);
            cache["disk_writes"] = json!(self.disk_writes);
            cache["disk_rejected"] = json!(self.disk_rejected);
        }
        if !self.partitions.is_empty() {
            j["partitions"] = self
                .partitions
                .iter()
                .map(|(key, p)| {
                    let mut pj = p.to_json();
                    pj["key"] = json!(key);
                    pj
                })
                .collect();
            // The latest plan's partition, at the top.
            if let Some((_, p)) = self.partitions.last() {
                let pj = p.to_json();
                j["segments"] = pj["segments"].clone();
                j["coverage"] = pj["coverage"].clone();
            }
        }
        j
    }
}

impl Report {
    /// The runs and the events in Chrome's trace format (JSON, loadable in
    /// Perfetto or `chrome://tracing`): runs on one track, compiles (with
    /// their durations) and the other events on another.
    pub fn to_chrome_trace(&self) -> Json {
        let mut events: Vec<Json> = vec![
            json!({"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "runs"}}),
            json!({"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "compile events"}}),
        ];
        for s in &self.spans {
            events.push(json!({
                "name": if s.ok { "run" } else { "run (failed)" },
                "ph": "X", "pid": 1, "tid": 1, "ts": s.at_us, "dur": s.us,
            }));
        }
        for e in &self.events {
            let name = format!("{} {}", e.kind.name(), e.key);
            let args = json!({"reason": e.reason, "level": e.level});
            if e.ms > 0.0 {
                let dur = (e.ms * 1e3).round() as u64;
                events.push(json!({
                    "name": name, "ph": "X", "pid": 1, "tid": 2,
                    "ts": e.at_us.saturating_sub(dur), "dur": dur, "args": args,
                }));
            } else {
                events.push(json!({
                    "name": name, "ph": "i", "s": "t", "pid": 1, "tid": 2,
                    "ts": e.at_us, "args": args,
                }));
            }
        }
        json!({ "traceEvents": events, "displayTimeUnit": "ms" })
    }
}
