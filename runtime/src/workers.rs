//! The threads of a compiled plan: workers that spin while a run is going
//! on, so that a parallel step starts on every thread at once.
//!
//! A plan alternates parallel steps (products, large maps) with small steps
//! that run on the calling thread. A pool whose idle workers park between
//! two parallel steps (rayon's parks within microseconds) pays a wake-up at
//! each one, and on a virtual machine a wake-up costs about as much as a
//! step's share of the work: the second thread joined late or not at all.
//! onnxruntime's pool spins between ops for the same reason (its
//! `allow_spinning`), IREE's has `--task_worker_spin_us`.
//!
//! [`Workers`] holds `threads - 1` threads. A run takes a [`Lease`], which
//! wakes them; until the lease is dropped they spin, watching for work, and
//! each [`Parallel::for_each`] of the lease hands its tasks out through one
//! atomic counter that the calling thread and the workers draw from. After
//! the run they spin for [`Workers::GRACE`] more (the next run often
//! follows at once) and then park. One run uses the workers at a time: a
//! run that finds them leased runs on its own thread.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A way to run `tasks` independent tasks, perhaps on several threads at
/// once: what a plan's parallel steps are split over. (The host kernels'
/// `strata_lowering::llvm::launch` takes the same thing under the same
/// name; a [`Lease`] is both.)
pub trait Parallel {
    /// How many threads share the tasks (1: the calling thread alone).
    fn threads(&self) -> usize;
    /// Run `task(i)` for every `i` in `0..tasks`, each exactly once, and
    /// return when all have returned.
    fn for_each(&self, tasks: usize, task: &(dyn Fn(usize) + Sync));
}

/// One parallel step's tasks, drawn by index until none is left.
struct Job {
    /// The step's task, its lifetime erased: it is only called for indices
    /// below `tasks`, and [`Lease::for_each`] returns (ending the borrow)
    /// only once every one of those calls has returned.
    task: *const (dyn Fn(usize) + Sync),
    tasks: usize,
    next: AtomicUsize,
    done: AtomicUsize,
    panicked: AtomicBool,
}

// SAFETY: `task` points to a `Sync` closure, called from several threads
// only while the `for_each` that made the job waits for them.
unsafe impl Send for Job {}
// SAFETY: as above.
unsafe impl Sync for Job {}

impl Job {
    /// Draw and run tasks until none is left.
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.tasks {
                return;
            }
            // SAFETY: `i < tasks`, so the `for_each` that owns the closure
            // is still waiting for this call (see `task`).
            let task = unsafe { &*self.task };
            if catch_unwind(AssertUnwindSafe(|| task(i))).is_err() {
                self.panicked.store(true, Ordering::Relaxed);
            }
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

struct Shared {
    /// Bumped for each job published in `job`.
    epoch: AtomicU64,
    job: Mutex<Option<Arc<Job>>>,
    /// A run holds the lease: spin, do not park.
    leased: AtomicBool,
    shutdown: AtomicBool,
}

impl Shared {
    fn job(&self) -> MutexGuard<'_, Option<Arc<Job>>> {
        // A panic while the lock is held cannot leave the slot half
        // written: it holds an `Option<Arc>`.
        self.job.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn worker(&self) {
        // Epoch 0 has no job: a job published before this thread got here
        // is still seen.
        let mut seen = 0;
        let mut idle_since = Instant::now();
        let mut spins = 0u32;
        while !self.shutdown.load(Ordering::Acquire) {
            let epoch = self.epoch.load(Ordering::Acquire);
            if epoch != seen {
                seen = epoch;
                let job = self.job().clone();
                if let Some(job) = job {
                    job.work();
                }
                idle_since = Instant::now();
                continue;
            }
            if self.leased.load(Ordering::Relaxed) {
                std::hint::spin_loop();
                idle_since = Instant::now();
                continue;
            }
            // Between runs: spin a little longer, then park until a lease
            // (or the drop) unparks this thread. Checking the clock every
            // 64 spins keeps the spin loop light.
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(64) || idle_since.elapsed() < Workers::GRACE {
                std::hint::spin_loop();
                continue;
            }
            std::thread::park();
            idle_since = Instant::now();
        }
    }
}

/// Worker threads for the parallel steps of a plan's runs.
pub struct Workers {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
    lease: Mutex<()>,
}

impl Workers {
    /// How long workers keep spinning after a run before they park.
    pub const GRACE: Duration = Duration::from_micros(200);

    /// Workers for runs on `threads` threads: the calling thread and
    /// `threads - 1` workers, each with a stack of `stack_bytes`. Fails if
    /// the system refuses a thread.
    pub fn new(threads: usize, stack_bytes: usize) -> std::io::Result<Workers> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            job: Mutex::new(None),
            leased: AtomicBool::new(false),
            shutdown: AtomicBool::new(false),
        });
        let mut workers = Workers {
            shared: shared.clone(),
            threads: Vec::new(),
            lease: Mutex::new(()),
        };
        for i in 1..threads.max(1) {
            let shared = shared.clone();
            let handle = std::thread::Builder::new()
                .name(format!("strata-worker-{i}"))
                .stack_size(stack_bytes)
                .spawn(move || shared.worker())?;
            // Dropping `workers` on an error stops the threads made so far.
            workers.threads.push(handle);
        }
        Ok(workers)
    }

    /// The threads a run shares its steps with, the calling one included.
    pub fn threads(&self) -> usize {
        self.threads.len() + 1
    }

    /// The workers for one run, awake until the lease is dropped; `None`
    /// while another run holds them.
    pub fn lease(&self) -> Option<Lease<'_>> {
        let guard = match self.lease.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => return None,
        };
        self.shared.leased.store(true, Ordering::Relaxed);
        for t in &self.threads {
            t.thread().unpark();
        }
        Some(Lease {
            workers: self,
            _guard: guard,
        })
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::Release);
        for t in &self.threads {
            t.thread().unpark();
        }
        for t in self.threads.drain(..) {
            // A worker's tasks catch their panics; a join error has no one
            // to go to.
            let _ = t.join();
        }
    }
}

/// The workers, held by one run.
pub struct Lease<'a> {
    workers: &'a Workers,
    _guard: MutexGuard<'a, ()>,
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        self.workers.shared.leased.store(false, Ordering::Relaxed);
    }
}

impl Parallel for Lease<'_> {
    fn threads(&self) -> usize {
        self.workers.threads()
    }

    /// Run the tasks on this thread and the workers. A task that panics
    /// does not stop the others; the panic is raised again here once all
    /// have run.
    fn for_each(&self, tasks: usize, task: &(dyn Fn(usize) + Sync)) {
        if tasks <= 1 || self.workers.threads.is_empty() {
            (0..tasks).for_each(task);
            return;
        }
        // SAFETY: only the lifetime changes (see `Job::task`).
        let task: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(task) };
        let job = Arc::new(Job {
            task,
            tasks,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
        });
        let shared = &self.workers.shared;
        *shared.job() = Some(job.clone());
        shared.epoch.fetch_add(1, Ordering::Release);
        job.work();
        let mut spins = 0u32;
        while job.done.load(Ordering::Acquire) < tasks {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(1024) {
                // A worker was descheduled in the middle of a task.
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        *shared.job() = None;
        if job.panicked.load(Ordering::Relaxed) {
            panic!("a task of a parallel step panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_runs_once() {
        let workers = Workers::new(3, 1 << 20).expect("threads");
        assert_eq!(workers.threads(), 3);
        let lease = workers.lease().expect("free");
        for tasks in [0, 1, 2, 7, 1000] {
            let counts: Vec<AtomicUsize> = (0..tasks).map(|_| AtomicUsize::new(0)).collect();
            lease.for_each(tasks, &|i| {
                counts[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
        }
    }

    #[test]
    fn one_run_at_a_time() {
        let workers = Workers::new(2, 1 << 20).expect("threads");
        let lease = workers.lease().expect("free");
        assert!(workers.lease().is_none());
        drop(lease);
        assert!(workers.lease().is_some());
    }

    #[test]
    fn workers_share_the_tasks_and_wake_after_parking() {
        let workers = Workers::new(2, 1 << 20).expect("threads");
        for _ in 0..2 {
            let lease = workers.lease().expect("free");
            let threads = Mutex::new(std::collections::HashSet::new());
            let seen = || {
                let mut t = threads.lock().unwrap_or_else(PoisonError::into_inner);
                t.insert(std::thread::current().id());
                t.len()
            };
            // Each of two tasks waits (up to seconds, for a loaded machine)
            // until both threads have taken one.
            lease.for_each(2, &|_| {
                let start = Instant::now();
                while seen() < 2 && start.elapsed() < Duration::from_secs(5) {
                    std::hint::spin_loop();
                }
            });
            assert_eq!(threads.into_inner().map(|t| t.len()).ok(), Some(2));
            drop(lease);
            // Past the grace period: the worker parks and the next lease
            // wakes it.
            std::thread::sleep(Workers::GRACE * 5);
        }
    }

    #[test]
    fn a_panicking_task_is_raised_after_the_others() {
        let workers = Workers::new(2, 1 << 20).expect("threads");
        let lease = workers.lease().expect("free");
        let ran = AtomicUsize::new(0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            lease.for_each(16, &|i| {
                ran.fetch_add(1, Ordering::Relaxed);
                assert!(i != 5, "task 5");
            })
        }));
        assert!(result.is_err());
        assert_eq!(ran.load(Ordering::Relaxed), 16);
        // The workers still serve the next step.
        let count = AtomicUsize::new(0);
        lease.for_each(8, &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.load(Ordering::Relaxed), 8);
    }
}
