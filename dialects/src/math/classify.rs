//! The float classifications of `math`: `isfinite`, `isinf`, `isnan` and
//! `isnormal`, an `i1` per element, folded for every float type.

use strata_ir::dialect::FoldResult;
use strata_ir::float::{self, FloatKind};
use strata_ir::ods::constraints::{BoolLike, FloatLike};
use strata_ir::{op, Attribute, Context, Operation};

use crate::arith::FastMathAttr;
use crate::fold;

/// Folds a classification with `f(kind, bits)`: a scalar or a splat only,
/// as MLIR 22's folders (which build their result from a scalar `i1`
/// type and so fail on other elements).
fn fold_class(
    ctx: &mut Context,
    op: Operation,
    consts: &[Option<Attribute>],
    f: fn(FloatKind, u128) -> bool,
) -> Option<Vec<FoldResult>> {
    let input = fold::consts(ctx, consts.first().copied().flatten()?)?;
    if !input.splat {
        return None;
    }
    let kind = ctx.float_kind(input.elem)?;
    let bits: Vec<u128> = input
        .values
        .iter()
        .map(|&b| u128::from(f(kind, b)))
        .collect();
    let ty = ctx.value_type(ctx.result(op, 0));
    let attr = fold::make_attr(ctx, ty, &bits)?;
    Some(vec![FoldResult::Attr(attr)])
}

macro_rules! classification {
    ($name:ident, $mnemonic:tt, $summary:tt, $fold_name:ident, $f:expr) => {
        fn $fold_name(
            ctx: &mut Context,
            op: Operation,
            consts: &[Option<Attribute>],
        ) -> Option<Vec<FoldResult>> {
            fold_class(ctx, op, consts, $f)
        }

        #[doc = $summary]
        #[op($mnemonic,
                                             traits(Pure, Elementwise),
                                             format = "$operand attr-dict `:` type($operand)",
                                             verify_predicates = crate::arith::verify_cmp_result,
                                             infer = crate::arith::infer_cmp,
                                             fold = $fold_name)]
        pub struct $name {
            operand: Operand<FloatLike>,
            #[default = "#arith.fastmath<none>"]
            fastmath: Attr<FastMathAttr>,
            result: Result<BoolLike>,
        }
    };
}

classification!(
    IsFiniteOp,
    "math.isfinite",
    "Whether the value is finite (neither infinite nor NaN).",
    fold_isfinite,
    |k, b| !float::is_nan(k, b) && !float::is_inf(k, b)
);
classification!(
    IsInfOp,
    "math.isinf",
    "Whether the value is infinite.",
    fold_isinf,
    float::is_inf
);
classification!(
    IsNaNOp,
    "math.isnan",
    "Whether the value is NaN.",
    fold_isnan,
    float::is_nan
);
classification!(
    IsNormalOp,
    "math.isnormal",
    "Whether the value is normal (finite, nonzero, not subnormal).",
    fold_isnormal,
    float::is_normal
);
