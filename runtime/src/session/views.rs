//! Runs on inputs held elsewhere (a NumPy array's memory): a graph-mode
//! plan already compiled for their shapes reads them in place.

use std::sync::Arc;

use super::{EventKind, ExeMode, Plan, PlanKey, Session, SessionError};
use crate::{Tensor, TensorView};

impl Session {
    /// [`Session::run`] on inputs held elsewhere (a NumPy array's memory).
    /// A graph-mode plan already compiled for their shapes reads them in
    /// place; a run that compiles, pads to a bucket, runs islands or runs
    /// eagerly works on a copy of them.
    pub fn run_views(&self, inputs: &[TensorView<'_>]) -> Result<Vec<Tensor>, SessionError> {
        if self.options.exe_mode == ExeMode::Graph && self.options.buckets.is_empty() {
            self.check_count(inputs.len())?;
            for (spec, v) in self.inputs.iter().zip(inputs) {
                spec.check_view(v)?;
            }
            if let Some(plan) = self.compiled_for(inputs) {
                if let Plan::Compiled(model, _, _) = plan.as_ref() {
                    return self.spanned(|| Ok(model.run_views(inputs)?));
                }
            }
        }
        let owned = inputs
            .iter()
            .map(|v| v.to_tensor())
            .collect::<Result<Vec<Tensor>, _>>()
            .map_err(|e| SessionError::Load(e.to_string()))?;
        self.run(&owned)
    }

    /// The compiled plan cached for inputs of these shapes (a run and a
    /// hit, counted), when it holds no input values as constants.
    fn compiled_for(&self, inputs: &[TensorView<'_>]) -> Option<Arc<Plan>> {
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|v| v.shape().to_vec()).collect();
        let mut state = self.state();
        if state.cache.pinned_inputs(&shapes).is_some() {
            return None;
        }
        let key = PlanKey {
            shapes,
            pinned: Vec::new(),
        };
        let plan = state.cache.get(&key)?;
        if !matches!(plan.as_ref(), Plan::Compiled(..)) {
            return None;
        }
        state.runs += 1;
        state.hits += 1;
        self.event(&mut state, EventKind::Hit, &key, String::new(), 0.0);
        Some(plan)
    }
}
