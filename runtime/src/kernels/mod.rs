//! Numerical kernels over [`Tensor`](crate::Tensor)s.
//!
//! Every kernel validates its operands and returns a [`KernelError`] rather
//! than panicking. Elementwise float kernels compute in `f64` and round once
//! to the result dtype. Kernels that combine many elements (reductions,
//! normalizations, matrix products and convolutions) compute their
//! intermediates in the op's [`Compute`] precision, as graph mode and
//! onnxruntime do: `f64` for `f64`, `f32` for every narrower float (so an
//! `x²` that overflows `f32` is infinite here too); products accumulate as
//! a fused multiply-add. `f16`/`bf16` never compute in their own precision.
//! Integer kernels use wrapping two's-complement arithmetic.

mod allclose;
mod attention;
mod conv;
mod dft;
mod elementwise;
mod grid_sample;
mod image;
mod indexing;
mod linear_attention;
mod matmul;
mod movement;
mod normalization;
mod pool;
mod random;
mod reduce;
mod resize;
mod select;
pub(crate) mod shape;

pub use allclose::{allclose, Tolerance};
pub use attention::attention;
pub use conv::{col2im, conv2d, conv2d_workspace, conv_transpose2d, ConvTransposeParams};
pub use dft::dft;
pub use elementwise::{
    binary, bit_shift, bitcast, cast, cast_e8m0, cast_saturating, clip, compare, logical,
    map_float, map_scalar, not, unary, where_, BinaryOp, CompareOp, LogicalOp, UnaryOp,
};
pub use grid_sample::{affine_grid, deform_conv2d, grid_sample, DeformConv, GridMode, GridPadding};
pub use image::{image_decode, PixelFormat};
pub use indexing::{
    cumprod, cumsum, gather_elements, gather_nd, non_max_suppression, scatter_elements, scatter_nd,
    top_k, ScatterReduction,
};
pub use linear_attention::{linear_attention, LinearAttention, Rule as LinearAttentionRule};
pub use matmul::{det, gemm, matmul};
pub use movement::{concat, gather, pad, range, reshape, slice, split, tile, transpose, PadMode};
pub use normalization::{batch_norm, layer_norm, log_softmax, rms_norm, softmax};
pub use pool::{avg_pool2d, global_avg_pool, global_max_pool, max_pool2d, max_pool2d_with_indices};
pub use random::{dropout, random_uniform};
pub use reduce::{argmax, argmin, reduce, ReduceOp};
pub use resize::{
    resize, AspectPolicy, CoordinateMode, NearestMode, ResizeMode, ResizeParams, ResizeTarget,
};
pub use select::{non_zero, roi_align, unique, RoiAlign, Unique};
pub use shape::{broadcast_shapes, broadcast_to, expand};

/// The precision in which a kernel over many elements of one float dtype
/// computes its intermediates: `f64` for `f64`, `f32` for `f32`, `f16`,
/// `bf16` and the 8-bit floats. Values travel as `f64` and are rounded by
/// [`Compute::round`] after each step; for `+ - * /` and `sqrt` that is
/// exactly `f32` arithmetic (the `f64` result has more than twice the bits,
/// so the second rounding cannot differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Compute {
    wide: bool,
}

impl Compute {
    /// The precision of ops on `dtype`.
    pub(crate) fn of(dtype: crate::DType) -> Self {
        Compute {
            wide: dtype == crate::DType::F64,
        }
    }

    /// `v` rounded to this precision.
    #[inline(always)]
    pub(crate) fn round(self, v: f64) -> f64 {
        if self.wide {
            v
        } else {
            v as f32 as f64
        }
    }

    /// The sum of `values`, accumulated in order in this precision.
    pub(crate) fn sum(self, values: impl Iterator<Item = f64>) -> f64 {
        values.fold(0.0, |acc, v| self.round(acc + v))
    }
}

/// Why a kernel rejected its operands.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum KernelError {
    /// Operand shapes are incompatible with each other or with the op.
    #[error("{op}: shape mismatch: {detail}")]
    ShapeMismatch {
        /// The kernel that failed.
        op: &'static str,
        /// What was found and what was expected.
        detail: String,
    },
    /// Operand dtypes are incompatible with each other.
    #[error("{op}: dtype mismatch: {detail}")]
    DTypeMismatch {
        /// The kernel that failed.
        op: &'static str,
        /// What was found and what was expected.
        detail: String,
    },
    /// An attribute or operand value is out of range (bad axis, zero step,
    /// index out of bounds, integer division by zero, ...).
    #[error("{op}: invalid argument: {detail}")]
    InvalidArgument {
        /// The kernel that failed.
        op: &'static str,
        /// What was found and what was expected.
        detail: String,
    },
    /// The kernel does not implement this dtype or configuration.
    #[error("{op}: unsupported: {detail}")]
    Unsupported {
        /// The kernel that failed.
        op: &'static str,
        /// What is not supported.
        detail: String,
    },
}

/// Shorthand for the result of a kernel.
pub(crate) type KResult<T> = Result<T, KernelError>;

pub(crate) fn invalid(op: &'static str, detail: impl Into<String>) -> KernelError {
    KernelError::InvalidArgument {
        op,
        detail: detail.into(),
    }
}

pub(crate) fn shape_mismatch(op: &'static str, detail: impl Into<String>) -> KernelError {
    KernelError::ShapeMismatch {
        op,
        detail: detail.into(),
    }
}

pub(crate) fn unsupported(op: &'static str, detail: impl Into<String>) -> KernelError {
    KernelError::Unsupported {
        op,
        detail: detail.into(),
    }
}

pub(crate) fn dtype_mismatch(op: &'static str, detail: impl Into<String>) -> KernelError {
    KernelError::DTypeMismatch {
        op,
        detail: detail.into(),
    }
}

/// Errors unless `dtype` is a float dtype.
pub(crate) fn require_float(op: &'static str, dtype: crate::DType) -> KResult<()> {
    if dtype.is_float() {
        Ok(())
    } else {
        Err(unsupported(
            op,
            format!("dtype {dtype} (expected a float dtype)"),
        ))
    }
}

/// Errors unless both dtypes are equal.
pub(crate) fn require_same_dtype(
    op: &'static str,
    a: crate::DType,
    b: crate::DType,
) -> KResult<()> {
    if a == b {
        Ok(())
    } else {
        Err(dtype_mismatch(
            op,
            format!("operands have dtypes {a} and {b}"),
        ))
    }
}

/// Resolves a possibly negative `axis` against `rank`.
pub(crate) fn normalize_axis(op: &'static str, axis: i64, rank: usize) -> KResult<usize> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a >= r {
        return Err(invalid(
            op,
            format!("axis {axis} is out of range for rank {rank}"),
        ));
    }
    Ok(a as usize)
}

/// Row-major strides of `shape`.
pub(crate) fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        // Saturating: a zero dim elsewhere can make a product of huge dims
        // meaningless without the tensor having any element to address.
        s[i] = s[i + 1].saturating_mul(shape[i + 1]);
    }
    s
}
