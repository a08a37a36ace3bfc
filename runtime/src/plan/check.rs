//! `kernel.check_indices`: the indices of a gather checked on the host
//! before the kernel that reads with them runs, so that an index out of
//! range stops the run with eager mode's message instead of reading
//! another row.

use strata_ir::{Context, Operation};

use super::{PlanError, RunError, Spec};
use crate::tensor::DType;

/// A `kernel.check_indices` step: element `k` of the buffer must lie in
/// `[-s, s)` for `s = sizes[k % sizes.len()]`.
#[derive(Clone, Debug)]
pub struct IndexCheck {
    pub sizes: Vec<i64>,
    pub axes: Vec<i64>,
    /// With `{index}`, `{axis}` and `{size}` to fill in.
    pub message: String,
    /// The op's location as eager mode's errors give it
    /// (`strata_ir::diagnostics::describe_location`).
    pub location: String,
    pub spec: Spec,
}

impl IndexCheck {
    /// The check of op `op` (a `kernel.check_indices`) on a buffer of `spec`.
    pub(crate) fn read(ctx: &Context, op: Operation, spec: Spec) -> Result<IndexCheck, PlanError> {
        let check = strata_dialects::kernel::CheckIndicesOp(op);
        let (Some(sizes), Some(axes), Some(message)) =
            (check.sizes(ctx), check.axes(ctx), check.message(ctx))
        else {
            return Err(PlanError(
                "kernel.check_indices without its sizes, axes and message".into(),
            ));
        };
        if sizes.is_empty() || sizes.len() != axes.len() || sizes.iter().any(|&s| s <= 0) {
            return Err(PlanError(format!(
                "kernel.check_indices with sizes {sizes:?} and axes {axes:?}"
            )));
        }
        if !matches!(spec.dtype, DType::I32 | DType::I64) {
            return Err(PlanError(format!(
                "kernel.check_indices on {} indices (expected i32 or i64)",
                spec.dtype
            )));
        }
        Ok(IndexCheck {
            sizes,
            axes,
            message,
            location: strata_ir::diagnostics::describe_location(ctx, ctx.op_loc(op)),
            spec,
        })
    }

    /// `Ok` when every index in `bytes` (the buffer, little-endian; at
    /// least the spec's bytes) is in range, else the first bad one as the
    /// run's error.
    pub fn check(&self, bytes: &[u8]) -> Result<(), RunError> {
        let width = self.spec.dtype.byte_size();
        let count: usize = self.spec.shape.iter().product();
        let Some(bytes) = bytes.get(..count * width) else {
            return Err(RunError::Index {
                location: self.location.clone(),
                message: "internal error: an index buffer smaller than its type".into(),
            });
        };
        // Indices are i32 or i64 (`IndexCheck::read`).
        let message = if width == 4 {
            self.first_bad(bytes.chunks_exact(4).map(|c| {
                <[u8; 4]>::try_from(c).map_or(i64::MIN, |b| i64::from(i32::from_le_bytes(b)))
            }))
        } else {
            self.first_bad(
                bytes
                    .chunks_exact(8)
                    .map(|c| <[u8; 8]>::try_from(c).map_or(i64::MIN, i64::from_le_bytes)),
            )
        };
        match message {
            Some(message) => Err(RunError::Index {
                location: self.location.clone(),
                message,
            }),
            None => Ok(()),
        }
    }

    /// The message of the first index of `values` out of range. With one
    /// size for every index (gather, and gather_elements along its axis),
    /// a branch-free pass that the compiler vectorizes comes first; the
    /// message is looked for only when it fails.
    fn first_bad(&self, values: impl Iterator<Item = i64> + Clone) -> Option<String> {
        if let &[s] = self.sizes.as_slice() {
            if values.clone().fold(true, |ok, v| ok & (v >= -s) & (v < s)) {
                return None;
            }
        }
        first_bad_index(values, &self.sizes, &self.axes, &self.message)
    }
}

/// The message for the first of `values` (row-major) out of range: value
/// `k` must lie in `[-s, s)` for `s = sizes[k % sizes.len()]`; `template`'s
/// `{index}`, `{axis}`, `{size}` filled in. `None` when all are in range
/// (or `sizes` is empty).
pub fn first_bad_index(
    values: impl Iterator<Item = i64>,
    sizes: &[i64],
    axes: &[i64],
    template: &str,
) -> Option<String> {
    if sizes.is_empty() {
        return None;
    }
    let n = sizes.len();
    for (k, i) in values.enumerate() {
        let size = sizes[k % n];
        if i < -size || i >= size {
            let axis = axes.get(k % n).copied().unwrap_or(0);
            return Some(
                template
                    .replace("{index}", &i.to_string())
                    .replace("{axis}", &axis.to_string())
                    .replace("{size}", &size.to_string()),
            );
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(dtype: DType, values: &[i64], sizes: &[i64]) -> Result<(), RunError> {
        let bytes: Vec<u8> = match dtype {
            DType::I32 => values
                .iter()
                .flat_map(|&v| (v as i32).to_le_bytes())
                .collect(),
            _ => values.iter().flat_map(|&v| v.to_le_bytes()).collect(),
        };
        IndexCheck {
            sizes: sizes.to_vec(),
            axes: (0..sizes.len() as i64).collect(),
            message: "index {index} is out of range for dim {axis} of size {size}".into(),
            location: "here".into(),
            spec: Spec {
                shape: vec![values.len()],
                dtype,
            },
        }
        .check(&bytes)
    }

    fn message(r: Result<(), RunError>) -> String {
        match r {
            Err(RunError::Index { message, .. }) => message,
            other => panic!("not an index error: {other:?}"),
        }
    }

    /// One bound (the vectorized pass) and several (gather_nd's tuples):
    /// the ends of `[-s, s)` pass, one past them fails with the first bad
    /// index named, in both widths.
    #[test]
    fn indices_are_checked_at_both_ends() {
        for dtype in [DType::I32, DType::I64] {
            assert!(check(dtype, &[-5, 4, 0, -1], &[5]).is_ok());
            assert_eq!(
                message(check(dtype, &[0, 5, -6], &[5])),
                "index 5 is out of range for dim 0 of size 5"
            );
            assert_eq!(
                message(check(dtype, &[1, -6], &[5])),
                "index -6 is out of range for dim 0 of size 5"
            );
            assert!(check(dtype, &[2, 3, -3, -4], &[3, 4]).is_ok());
            assert_eq!(
                message(check(dtype, &[2, 3, 3, 4], &[3, 4])),
                "index 3 is out of range for dim 0 of size 3"
            );
        }
        assert_eq!(
            message(check(DType::I64, &[i64::MIN], &[5])),
            format!("index {} is out of range for dim 0 of size 5", i64::MIN)
        );
        assert_eq!(
            message(check(DType::I64, &[i64::MAX], &[5])),
            format!("index {} is out of range for dim 0 of size 5", i64::MAX)
        );
    }
}
