//! The recompile budget and the padding counts of a session.

use super::events::EventKind;
use super::{PlanKey, Session, State, BURST_COMPILES, BURST_RUNS};
use crate::Tensor;

impl Session {
    /// With the recompile budget spent: the event, and why.
    pub(crate) fn budget_spent(&self, state: &mut State, key: &PlanKey) -> Option<String> {
        let budget = self.options.recompile_budget;
        if budget == 0 || state.compiles < budget {
            return None;
        }
        let why = format!(
            "{} of {budget} plans compiled; on_budget_exhausted = {}",
            state.compiles,
            self.options.on_budget_exhausted.name()
        );
        self.event(state, EventKind::BudgetExhausted, key, why.clone(), 0.0);
        Some(why)
    }

    /// After a compile: a warning at 75 % of the budget, and on a burst
    /// ([`BURST_COMPILES`] compiles within [`BURST_RUNS`] runs).
    pub(crate) fn budget_warnings(&self, state: &mut State, key: &PlanKey) {
        let budget = self.options.recompile_budget;
        if budget == 0 {
            return;
        }
        if !state.budget_warned && state.compiles * 4 >= budget * 3 {
            state.budget_warned = true;
            let why = format!(
                "{} of the recompile budget of {budget} plans spent",
                state.compiles
            );
            self.event(state, EventKind::BudgetWarning, key, why, 0.0);
        }
        let runs = state.runs;
        state.recent_compiles.push_back(runs);
        while state
            .recent_compiles
            .front()
            .is_some_and(|&r| r + BURST_RUNS <= runs)
        {
            state.recent_compiles.pop_front();
        }
        let quiet = state.burst_warned_at.is_none_or(|r| r + BURST_RUNS <= runs);
        if state.recent_compiles.len() >= BURST_COMPILES && quiet {
            state.burst_warned_at = Some(runs);
            let why = format!(
                "a burst: {} compiles in the last {BURST_RUNS} runs",
                state.recent_compiles.len()
            );
            self.event(state, EventKind::BudgetWarning, key, why, 0.0);
        }
    }

    /// Counts the elements of `real` and what padding to `padded` added.
    pub(crate) fn count_padding(&self, real: &[Tensor], padded: &[Tensor]) {
        let count = |ts: &[Tensor]| -> u64 {
            ts.iter()
                .map(|t| t.shape().iter().product::<usize>() as u64)
                .sum()
        };
        let (r, p) = (count(real), count(padded));
        let mut state = self.state();
        state.real_elements += r;
        state.padded_elements += p.saturating_sub(r);
    }

    /// An event for shapes outside every bucket that run eagerly.
    pub(crate) fn note_outside_buckets(&self, shapes: &[Vec<usize>], why: String) {
        let key = PlanKey {
            shapes: shapes.to_vec(),
            pinned: Vec::new(),
        };
        let mut state = self.state();
        self.event(&mut state, EventKind::OutsideBuckets, &key, why, 0.0);
    }
}
