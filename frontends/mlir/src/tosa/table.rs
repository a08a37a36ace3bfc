//! Which ops convert, by rule family, and MLIR 22's TOSA ops.

/// TOSA ops that are one `graph` op of the same operands.
pub(super) const ONE_TO_ONE: &[(&str, &str)] = &[
    ("tosa.abs", "graph.abs"),
    ("tosa.add", "graph.add"),
    ("tosa.bitwise_and", "graph.and"),
    ("tosa.bitwise_not", "graph.not"),
    ("tosa.bitwise_or", "graph.or"),
    ("tosa.bitwise_xor", "graph.xor"),
    ("tosa.ceil", "graph.ceil"),
    ("tosa.cos", "graph.cos"),
    ("tosa.equal", "graph.equal"),
    ("tosa.erf", "graph.erf"),
    ("tosa.exp", "graph.exp"),
    ("tosa.floor", "graph.floor"),
    ("tosa.greater", "graph.greater"),
    ("tosa.greater_equal", "graph.greater_equal"),
    ("tosa.identity", "graph.identity"),
    ("tosa.intdiv", "graph.div"),
    ("tosa.log", "graph.log"),
    ("tosa.logical_and", "graph.and"),
    ("tosa.logical_not", "graph.not"),
    ("tosa.logical_or", "graph.or"),
    ("tosa.logical_xor", "graph.xor"),
    ("tosa.maximum", "graph.max"),
    ("tosa.minimum", "graph.min"),
    ("tosa.pow", "graph.pow"),
    ("tosa.reciprocal", "graph.reciprocal"),
    ("tosa.rsqrt", "graph.rsqrt"),
    ("tosa.select", "graph.where"),
    ("tosa.sigmoid", "graph.sigmoid"),
    ("tosa.sin", "graph.sin"),
    ("tosa.sub", "graph.sub"),
    ("tosa.tanh", "graph.tanh"),
];

/// TOSA reductions (one axis, kept) and their `graph` op.
pub(super) const REDUCTIONS: &[(&str, &str)] = &[
    ("tosa.reduce_max", "graph.reduce_max"),
    ("tosa.reduce_min", "graph.reduce_min"),
    ("tosa.reduce_product", "graph.reduce_prod"),
    ("tosa.reduce_sum", "graph.reduce_sum"),
];

/// The other TOSA ops that convert, each by its own rule in [`convert`].
pub(super) const COMPOSED: &[&str] = &[
    "tosa.argmax",
    "tosa.arithmetic_right_shift",
    "tosa.avg_pool2d",
    "tosa.cast",
    "tosa.clamp",
    "tosa.concat",
    "tosa.const",
    "tosa.const_shape",
    "tosa.conv2d",
    "tosa.conv3d",
    "tosa.depthwise_conv2d",
    "tosa.dim",
    "tosa.fft2d",
    "tosa.gather",
    "tosa.logical_left_shift",
    "tosa.logical_right_shift",
    "tosa.matmul",
    "tosa.max_pool2d",
    "tosa.mul",
    "tosa.negate",
    "tosa.pad",
    "tosa.reduce_all",
    "tosa.reduce_any",
    "tosa.reshape",
    "tosa.resize",
    "tosa.reverse",
    "tosa.rfft2d",
    "tosa.scatter",
    "tosa.slice",
    "tosa.slice_shape",
    "tosa.tile",
    "tosa.transpose",
    "tosa.transpose_conv2d",
];

/// `!tosa.shape` arithmetic, computed at import: every operand is known.
pub(super) const SHAPE_OPS: &[&str] = &[
    "tosa.add_shape",
    "tosa.concat_shape",
    "tosa.div_ceil_shape",
    "tosa.div_floor_shape",
    "tosa.exp2_shape",
    "tosa.log2_ceil_shape",
    "tosa.log2_floor_shape",
    "tosa.max_shape",
    "tosa.min_shape",
    "tosa.mod_shape",
    "tosa.mul_shape",
    "tosa.sub_shape",
];

/// Ops of other upstream dialects that appear in TOSA modules and convert.
pub(super) const OTHERS: &[&str] = &["arith.constant", "func.return", "tensor.cast"];

/// Control flow, converted with its regions (`Importer::cond_if`).
pub(super) const CONTROL: &[&str] = &["tosa.cond_if", "tosa.while_loop", "tosa.yield"];

/// Every op the importer converts, sorted.
pub fn ops() -> Vec<&'static str> {
    let mut ops: Vec<&str> = ONE_TO_ONE
        .iter()
        .chain(REDUCTIONS)
        .map(|&(t, _)| t)
        .chain(COMPOSED.iter().copied())
        .chain(SHAPE_OPS.iter().copied())
        .chain(OTHERS.iter().copied())
        .chain(CONTROL.iter().copied())
        .collect();
    ops.sort_unstable();
    ops
}

/// The ops of MLIR 22's TOSA dialect (TOSA 1.0), sorted: the op names of
/// `mlir/Dialect/Tosa/IR/TosaOps.h.inc` (libmlir-22-dev).
pub const TOSA_OPS: &[&str] = &[
    "tosa.abs",
    "tosa.add",
    "tosa.add_shape",
    "tosa.apply_scale",
    "tosa.argmax",
    "tosa.arithmetic_right_shift",
    "tosa.avg_pool2d",
    "tosa.bitwise_and",
    "tosa.bitwise_not",
    "tosa.bitwise_or",
    "tosa.bitwise_xor",
    "tosa.cast",
    "tosa.cast_from_block_scaled",
    "tosa.cast_to_block_scaled",
    "tosa.ceil",
    "tosa.clamp",
    "tosa.clz",
    "tosa.concat",
    "tosa.concat_shape",
    "tosa.cond_if",
    "tosa.const",
    "tosa.const_shape",
    "tosa.conv2d",
    "tosa.conv3d",
    "tosa.cos",
    "tosa.custom",
    "tosa.depthwise_conv2d",
    "tosa.dim",
    "tosa.div_ceil_shape",
    "tosa.div_floor_shape",
    "tosa.equal",
    "tosa.erf",
    "tosa.exp",
    "tosa.exp2_shape",
    "tosa.fft2d",
    "tosa.floor",
    "tosa.gather",
    "tosa.greater",
    "tosa.greater_equal",
    "tosa.identity",
    "tosa.intdiv",
    "tosa.log",
    "tosa.log2_ceil_shape",
    "tosa.log2_floor_shape",
    "tosa.logical_and",
    "tosa.logical_left_shift",
    "tosa.logical_not",
    "tosa.logical_or",
    "tosa.logical_right_shift",
    "tosa.logical_xor",
    "tosa.matmul",
    "tosa.matmul_t_block_scaled",
    "tosa.max_pool2d",
    "tosa.max_shape",
    "tosa.maximum",
    "tosa.min_shape",
    "tosa.minimum",
    "tosa.mod_shape",
    "tosa.mul",
    "tosa.mul_shape",
    "tosa.negate",
    "tosa.pad",
    "tosa.pow",
    "tosa.reciprocal",
    "tosa.reduce_all",
    "tosa.reduce_any",
    "tosa.reduce_max",
    "tosa.reduce_min",
    "tosa.reduce_product",
    "tosa.reduce_sum",
    "tosa.rescale",
    "tosa.reshape",
    "tosa.resize",
    "tosa.reverse",
    "tosa.rfft2d",
    "tosa.rsqrt",
    "tosa.scatter",
    "tosa.select",
    "tosa.sigmoid",
    "tosa.sin",
    "tosa.slice",
    "tosa.slice_shape",
    "tosa.sub",
    "tosa.sub_shape",
    "tosa.table",
    "tosa.tanh",
    "tosa.tile",
    "tosa.transpose",
    "tosa.transpose_conv2d",
    "tosa.variable",
    "tosa.variable_read",
    "tosa.variable_write",
    "tosa.while_loop",
    "tosa.yield",
];

/// Which of [`TOSA_OPS`] convert, and which do not.
pub fn coverage() -> (Vec<&'static str>, Vec<&'static str>) {
    let converted = ops();
    TOSA_OPS.iter().partition(|op| converted.contains(op))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_lists_every_converted_tosa_op() {
        let (converted, _) = coverage();
        let ours: Vec<&str> = ops()
            .into_iter()
            .filter(|o| o.starts_with("tosa."))
            .collect();
        assert_eq!(converted, ours, "a converted op missing from TOSA_OPS");
        assert_eq!(TOSA_OPS.len(), 94);
    }
}
