//! Shape buckets: which compiled shape serves an input shape
//! ([`resolve`], a pure function), and how a session runs a request padded
//! to its bucket. The proof that padding cannot change the real values is
//! in [`super::padding`] ([`padding_safety`]).

use std::collections::{BTreeMap, HashMap};

use std::sync::Arc;
use strata_ir::{Context, Operation};

use strata_recipe::{BudgetAction, OutsideBuckets};

use super::cache::KEYS_REMEMBERED;
pub use super::padding::{insert_masks, padding_safety, Mask, Padded, Padding, Proof, Unsafe};
use super::{Plan, PlanKey, Session, SessionError};
use crate::Tensor;

/// The symbol of each dimension of each input (`None`: static or unnamed).
pub type InputDims = Vec<Vec<Option<String>>>;

/// What serves an input shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The plan of `shapes` (each bucketed symbol at its bucket); `sizes`
    /// gives each bucketed symbol's real size and bucket.
    Bucket {
        /// The shapes to compile for.
        shapes: Vec<Vec<usize>>,
        /// Symbol -> (real size, bucket size).
        sizes: BTreeMap<String, (usize, usize)>,
    },
    /// Refused (`outside_buckets = "reject"`, or a size above the largest
    /// bucket): why.
    Reject(String),
    /// Run eagerly (`outside_buckets = "eager"`): why.
    Eager(String),
}

impl Resolution {
    /// Whether any input is padded.
    pub fn pads(&self) -> bool {
        matches!(self, Resolution::Bucket { sizes, .. } if sizes.values().any(|(r, b)| r != b))
    }
}

/// The bucket of each bucketed symbol of `shapes` (one per input, each
/// dimension named by `dims`), under `buckets` (symbol -> increasing sizes)
/// and `outside` (what a size that is not a bucket does).
pub fn resolve(
    dims: &InputDims,
    shapes: &[Vec<usize>],
    buckets: &BTreeMap<String, Vec<i64>>,
    outside: OutsideBuckets,
) -> Resolution {
    let mut sizes: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut shapes = shapes.to_vec();
    for (i, shape) in shapes.iter_mut().enumerate() {
        let Some(names) = dims.get(i) else { continue };
        for (axis, size) in shape.iter_mut().enumerate() {
            let Some(sym) = names.get(axis).and_then(Option::as_ref) else {
                continue;
            };
            let Some(list) = buckets.get(sym) else {
                continue;
            };
            let real = *size;
            if let Some(&(seen, bucket)) = sizes.get(sym) {
                if seen != real {
                    return Resolution::Reject(format!(
                        "dimension '{sym}' is {seen} in one input and {real} in another"
                    ));
                }
                *size = bucket;
                continue;
            }
            let exact = list.iter().any(|&b| usize::try_from(b) == Ok(real));
            let next = list
                .iter()
                .filter_map(|&b| usize::try_from(b).ok())
                .find(|&b| b >= real);
            let shown = || {
                let l: Vec<String> = list.iter().map(i64::to_string).collect();
                format!("[{}]", l.join(", "))
            };
            let bucket = match (exact, outside, next) {
                (true, _, _) => real,
                // The padding proof takes every size to be at least 1
                // (`equal(size, 0)` is false, position 0 exists).
                (false, _, _) if real == 0 => {
                    return Resolution::Eager(format!(
                        "dimension '{sym}' is 0, and an empty dimension is not padded"
                    ))
                }
                (false, OutsideBuckets::Pad, Some(b)) => b,
                (false, OutsideBuckets::Pad, None) => {
                    return Resolution::Reject(format!(
                        "dimension '{sym}' = {real} is above the largest bucket {}",
                        shown()
                    ))
                }
                (false, OutsideBuckets::Reject, _) => {
                    return Resolution::Reject(format!(
                        "dimension '{sym}' = {real} is not a bucket {} (capture.outside_buckets = \"reject\")",
                        shown()
                    ))
                }
                (false, OutsideBuckets::Eager, _) => {
                    return Resolution::Eager(format!(
                        "dimension '{sym}' = {real} is not a bucket {}",
                        shown()
                    ))
                }
            };
            sizes.insert(sym.clone(), (real, bucket));
            *size = bucket;
        }
    }
    Resolution::Bucket { shapes, sizes }
}

/// `t` grown to `shape` along its padded axes (at their ends), floats
/// filled with `fill`, integers and booleans with 0 (a valid index).
pub(crate) fn pad_to(t: &Tensor, shape: &[usize], fill: f64) -> Result<Tensor, SessionError> {
    if t.shape() == shape {
        return Ok(t.clone());
    }
    let rank = t.rank();
    let mut pads = vec![0i64; 2 * rank];
    for (axis, (&have, &want)) in t.shape().iter().zip(shape).enumerate() {
        pads[rank + axis] = i64::try_from(want.saturating_sub(have)).unwrap_or(0);
    }
    let value = if t.dtype().is_float() { fill } else { 0.0 };
    crate::kernels::pad(t, &pads, crate::kernels::PadMode::Constant(value))
        .map_err(|e| SessionError::Bucket(format!("padding an input: {e}")))
}

/// The padding of each bucket's shapes, or why padding is not safe
/// ([`Session::padding_for`]).
pub(crate) type Paddings = HashMap<Vec<Vec<usize>>, Result<Padding, String>>;

impl Session {
    /// The axes of each input that a bucket may pad: those named by a
    /// symbol that has buckets.
    fn bucketed_axes(&self) -> BTreeMap<usize, Padded> {
        self.input_dims
            .iter()
            .enumerate()
            .map(|(i, names)| {
                let axes = names
                    .iter()
                    .enumerate()
                    .filter_map(|(a, s)| {
                        s.as_ref()
                            .filter(|s| self.options.buckets.contains_key(*s))
                            .map(|s| (a, s.clone()))
                    })
                    .collect();
                (i, axes)
            })
            .collect()
    }

    /// The bucketed axes that a plan for `shapes` may pad: a bucket of
    /// size 1 serves size 1 only (sizes are at least 1), so it is static.
    fn padded_axes_at(&self, shapes: &[Vec<usize>]) -> BTreeMap<usize, Padded> {
        let mut axes = self.bucketed_axes();
        for (i, p) in axes.iter_mut() {
            p.retain(|&a, _| shapes.get(*i).and_then(|s| s.get(a)) != Some(&1));
        }
        axes
    }

    /// Whether padding the bucketed axes of a plan for `shapes` leaves the
    /// real values alone (see [`padding_safety`]): the padded axes of each
    /// result, or why padding is refused (a run that needs padding then
    /// fails with it; one at a bucket's exact size runs). The proof runs on
    /// the function specialized and its shapes inferred, before any
    /// folding: a size read from a padded value (`shape_of`) would fold
    /// into a constant that hides where it came from.
    fn check_padding(
        &self,
        shapes: &[Vec<usize>],
    ) -> Result<Result<Padding, String>, SessionError> {
        let padded = self.padded_axes_at(shapes);
        if padded.values().all(BTreeMap::is_empty) {
            return Ok(Ok(Padding::default()));
        }
        let (mut ctx, module) = (self.source)().map_err(SessionError::Load)?;
        let func = self.shaped(&mut ctx, module, shapes)?;
        Ok(padding_safety(&ctx, func, &padded)
            .map(|p| p.padding())
            .map_err(|u| u.to_string()))
    }

    /// [`Session::check_padding`] for `shapes`, kept for the session's
    /// buckets (at most [`KEYS_REMEMBERED`] shape lists): the request that
    /// needs padding, the disk cache and the compile of a bucket ask it
    /// once, where each would load and specialize the model.
    pub(crate) fn padding_for(
        &self,
        shapes: &[Vec<usize>],
    ) -> Result<Result<Padding, String>, SessionError> {
        if self.options.buckets.is_empty() {
            return self.check_padding(shapes);
        }
        if let Some(v) = super::lock(&self.paddings).get(shapes) {
            return Ok(v.clone());
        }
        let verdict = self.check_padding(shapes)?;
        let mut kept = super::lock(&self.paddings);
        if kept.len() >= KEYS_REMEMBERED {
            kept.clear();
        }
        kept.insert(shapes.to_vec(), verdict.clone());
        Ok(verdict)
    }

    /// `module`'s function specialized to `shapes`, its shapes inferred.
    fn shaped(
        &self,
        ctx: &mut Context,
        module: Operation,
        shapes: &[Vec<usize>],
    ) -> Result<Operation, SessionError> {
        super::hybrid::specialized(
            ctx,
            module,
            &self.options.function,
            shapes,
            "builtin.module(graph-infer-shapes)",
        )
    }

    /// Specializes `module` to `shapes` and inserts the masks that padding
    /// its bucketed axes needs ([`insert_masks`]), which must read the
    /// real sizes of `lengths` (those [`Session::check_padding`] found).
    pub(crate) fn mask_padding(
        &self,
        ctx: &mut Context,
        module: Operation,
        shapes: &[Vec<usize>],
        lengths: &[String],
    ) -> Result<(), SessionError> {
        let func = self.shaped(ctx, module, shapes)?;
        let proof = padding_safety(ctx, func, &self.padded_axes_at(shapes))
            .map_err(|u| SessionError::Compile(u.to_string()))?;
        if proof.lengths() != lengths {
            return Err(SessionError::Compile(format!(
                "the masks of a padded plan read {:?}, where {lengths:?} were expected",
                proof.lengths()
            )));
        }
        insert_masks(ctx, func, &proof)
            .map_err(|e| SessionError::Compile(format!("masking the padding of a bucket: {e}")))
    }

    /// The smallest cached plan whose shapes hold `target`: larger only
    /// along bucketed axes, equal along the others (`nearest-bucket`).
    fn nearest_plan(&self, target: &[Vec<usize>]) -> Option<(Arc<Plan>, Vec<Vec<usize>>)> {
        let bucketed = self.bucketed_axes();
        let holds = |key: &PlanKey| {
            key.pinned.is_empty()
                && key.shapes.len() == target.len()
                && key
                    .shapes
                    .iter()
                    .zip(target)
                    .enumerate()
                    .all(|(i, (have, want))| {
                        have.len() == want.len()
                            && have.iter().zip(want).enumerate().all(|(a, (&h, &w))| {
                                let padded = bucketed.get(&i).is_some_and(|p| p.contains_key(&a));
                                if padded {
                                    h >= w
                                } else {
                                    h == w
                                }
                            })
                    })
        };
        let mut state = self.state();
        let best = state
            .cache
            .entries()
            .map(|(k, _)| k)
            .filter(|k| holds(k))
            .min_by_key(|k| {
                k.shapes
                    .iter()
                    .map(|s| s.iter().product::<usize>())
                    .sum::<usize>()
            })
            .cloned()?;
        let plan = state.cache.get(&best)?;
        Some((plan, best.shapes))
    }

    /// Graph or hybrid mode with buckets: the input shapes resolved to a
    /// bucket, the inputs padded to it, the plan of the bucket run, and
    /// each result sliced back to the real sizes. (A hybrid plan whose
    /// every op is an island runs the real shapes eagerly.)
    pub(crate) fn run_bucketed(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, SessionError> {
        let shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().to_vec()).collect();
        let resolution = resolve(
            &self.input_dims,
            &shapes,
            &self.options.buckets,
            self.options.outside_buckets,
        );
        let (target, sizes) = match resolution {
            Resolution::Reject(m) => return Err(SessionError::Bucket(m)),
            Resolution::Eager(m) => {
                self.note_outside_buckets(&shapes, m);
                return self.run_eagerly(inputs.to_vec());
            }
            Resolution::Bucket { shapes, sizes } => (shapes, sizes),
        };
        let pad = |shapes: &[Vec<usize>]| -> Result<Vec<Tensor>, SessionError> {
            inputs
                .iter()
                .zip(shapes)
                .map(|(t, s)| pad_to(t, s, self.options.pad_value))
                .collect()
        };
        // A request that needs padding to a bucket where padding is not
        // proven safe fails before that bucket's plan is compiled.
        if target != shapes {
            if let Err(why) = self.padding_for(&target)? {
                return Err(SessionError::Compile(why));
            }
        }
        let mut padded = pad(&target)?;
        let plan = match self.plan_for(&padded) {
            Err(SessionError::Budget(why)) => match self.options.on_budget_exhausted {
                BudgetAction::Eager => return self.run_eagerly(inputs.to_vec()),
                BudgetAction::Error => return Err(SessionError::Budget(why)),
                BudgetAction::NearestBucket => {
                    let (plan, shapes) = self.nearest_plan(&target).ok_or_else(|| {
                        SessionError::Budget(format!(
                            "{why}, and no compiled bucket holds the shapes {target:?}"
                        ))
                    })?;
                    padded = pad(&shapes)?;
                    plan
                }
            },
            other => other?,
        };
        let padding = match plan.as_ref() {
            Plan::Compiled(_, _, padding) | Plan::Hybrid(_, padding) => padding,
            Plan::Eager(_) => return self.run_eagerly(inputs.to_vec()),
        };
        self.count_padding(inputs, &padded);
        let pads = padded
            .iter()
            .zip(inputs)
            .any(|(p, t)| p.shape() != t.shape());
        let exact = Padding::default();
        let padding = match padding {
            Ok(padding) => padding,
            Err(why) if pads => return Err(SessionError::Compile(why.clone())),
            Err(_) => &exact,
        };
        // The real size of each symbol the plan's masks read.
        for sym in &padding.lengths {
            let &(real, _) = sizes.get(sym).ok_or_else(|| {
                SessionError::Bucket(format!("no size for the masked dimension '{sym}'"))
            })?;
            let real = i64::try_from(real)
                .map_err(|_| SessionError::Bucket(format!("dimension '{sym}' is too large")))?;
            padded.push(Tensor::scalar_i64(crate::DType::I64, real));
        }
        let slices = &padding.results;
        let outputs = match plan.as_ref() {
            Plan::Hybrid(plan, _) => plan
                .run(padded.into_iter().map(crate::Datum::Tensor).collect())?
                .into_iter()
                .map(|d| {
                    d.into_tensor().map_err(|d| {
                        SessionError::Bucket(format!(
                            "a result is {}: shape buckets take tensors",
                            d.describe()
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?,
            Plan::Compiled(model, _, _) => model.run(&padded)?,
            Plan::Eager(_) => return self.run_eagerly(inputs.to_vec()),
        };
        outputs
            .into_iter()
            .enumerate()
            .map(|(i, mut t)| {
                for (&axis, sym) in slices.get(i).into_iter().flatten() {
                    let real = sizes.get(sym).map_or(t.shape()[axis], |&(r, _)| r);
                    if real != t.shape()[axis] {
                        let end = i64::try_from(real).unwrap_or(i64::MAX);
                        let axis = i64::try_from(axis).unwrap_or(0);
                        t = crate::kernels::slice(&t, &[0], &[end], &[axis], &[1])
                            .map_err(|e| SessionError::Bucket(format!("slicing a result: {e}")))?;
                    }
                }
                Ok(t)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims() -> InputDims {
        vec![vec![Some("batch".into()), None]]
    }

    fn buckets() -> BTreeMap<String, Vec<i64>> {
        BTreeMap::from([("batch".to_string(), vec![1, 4, 16])])
    }

    #[test]
    fn a_size_goes_to_its_bucket() {
        let r = resolve(&dims(), &[vec![3, 8]], &buckets(), OutsideBuckets::Pad);
        assert_eq!(
            r,
            Resolution::Bucket {
                shapes: vec![vec![4, 8]],
                sizes: BTreeMap::from([("batch".to_string(), (3, 4))]),
            }
        );
        assert!(r.pads());
        let exact = resolve(&dims(), &[vec![16, 8]], &buckets(), OutsideBuckets::Reject);
        assert!(!exact.pads());
        assert!(matches!(exact, Resolution::Bucket { ref shapes, .. } if shapes == &[vec![16, 8]]));
        // Size 1 is a bucket like any other.
        let one = resolve(&dims(), &[vec![1, 8]], &buckets(), OutsideBuckets::Pad);
        assert!(matches!(one, Resolution::Bucket { ref shapes, .. } if shapes == &[vec![1, 8]]));
    }

    #[test]
    fn outside_the_buckets() {
        assert_eq!(
            resolve(&dims(), &[vec![17, 8]], &buckets(), OutsideBuckets::Pad),
            Resolution::Reject(
                "dimension 'batch' = 17 is above the largest bucket [1, 4, 16]".into()
            )
        );
        assert_eq!(
            resolve(&dims(), &[vec![3, 8]], &buckets(), OutsideBuckets::Reject),
            Resolution::Reject(
                "dimension 'batch' = 3 is not a bucket [1, 4, 16] (capture.outside_buckets = \"reject\")".into()
            )
        );
        assert_eq!(
            resolve(&dims(), &[vec![3, 8]], &buckets(), OutsideBuckets::Eager),
            Resolution::Eager("dimension 'batch' = 3 is not a bucket [1, 4, 16]".into())
        );
        // An empty dimension is never padded (the padding proof takes
        // sizes to be at least 1).
        assert_eq!(
            resolve(&dims(), &[vec![0, 8]], &buckets(), OutsideBuckets::Pad),
            Resolution::Eager(
                "dimension 'batch' is 0, and an empty dimension is not padded".into()
            )
        );
    }

    #[test]
    fn a_symbol_has_one_size() {
        let two = vec![vec![Some("batch".into())], vec![Some("batch".into())]];
        let r = resolve(&two, &[vec![3], vec![3]], &buckets(), OutsideBuckets::Pad);
        assert!(
            matches!(r, Resolution::Bucket { ref shapes, .. } if shapes == &[vec![4], vec![4]])
        );
        let bad = resolve(&two, &[vec![3], vec![2]], &buckets(), OutsideBuckets::Pad);
        assert!(matches!(bad, Resolution::Reject(_)));
    }

    #[test]
    fn unbucketed_dims_keep_their_size() {
        let r = resolve(
            &dims(),
            &[vec![3, 8]],
            &BTreeMap::new(),
            OutsideBuckets::Reject,
        );
        assert!(
            matches!(r, Resolution::Bucket { ref shapes, ref sizes } if shapes == &[vec![3, 8]] && sizes.is_empty())
        );
    }
}
