//! A rough cost of each `graph` op, from its static types: the floating-
//! point operations it does and the bytes it reads and writes. Hybrid mode
//! reports the fraction of each that its compiled segments cover: a
//! partition that compiles 90 % of the ops but leaves the one convolution
//! eager covers little of the work.
//!
//! The estimates count what dominates and nothing finer:
//! - products (`matmul`, `gemm`): 2 per multiply-add of the contraction;
//! - convolutions: 2 per multiply-add of each output over its window
//!   (`conv2d`), or of each input over the kernel (`conv_transpose2d`);
//! - `attention`: 2 per multiply-add of the scores and of the weighted sum;
//! - recurrent layers (`lstm`, `gru`, `rnn`): 2 per multiply-add of the
//!   gate products, over every step, direction and batch row;
//! - every other op: one per element of its largest operand or result
//!   (an elementwise op, a reduction, a copy).
//!
//! Bytes are the sizes of the operands and results. A value whose shape is
//! not static counts nothing.

use strata_ir::{Context, Operation, TypeKind, Value};

/// The estimated cost of some ops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Floating-point operations (multiply and add count one each).
    pub flops: u64,
    /// Bytes read and written (operands and results).
    pub bytes: u64,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost {
            flops: self.flops.saturating_add(o.flops),
            bytes: self.bytes.saturating_add(o.bytes),
        }
    }
}

impl std::iter::Sum for Cost {
    fn sum<I: Iterator<Item = Cost>>(iter: I) -> Cost {
        iter.fold(Cost::default(), |a, b| a + b)
    }
}

/// The static shape of `v` and the bytes of one element (as a buffer
/// holds it).
fn shape_and_width(ctx: &Context, v: Value) -> Option<(Vec<u64>, u64)> {
    let TypeKind::RankedTensor { shape, element, .. } = ctx.type_kind(ctx.value_type(v)) else {
        return None;
    };
    let dims = shape
        .iter()
        .map(|&d| u64::try_from(d).ok())
        .collect::<Option<Vec<u64>>>()?;
    let width = strata_dialects::kernel::types::element_bytes(ctx, *element)?;
    Some((dims, width))
}

fn elements(dims: &[u64]) -> u64 {
    dims.iter().fold(1u64, |a, &d| a.saturating_mul(d))
}

/// The estimated cost of `op` and of the ops nested in it (the bodies of
/// a `graph.scan` or `graph.if` count once).
pub fn op_cost(ctx: &Context, op: Operation) -> Cost {
    let nested: Cost = ctx
        .op_regions(op)
        .iter()
        .flat_map(|&r| ctx.region_blocks(r).collect::<Vec<_>>())
        .flat_map(|b| ctx.block_ops(b).collect::<Vec<_>>())
        .map(|o| op_cost(ctx, o))
        .sum();
    let operands: Vec<Option<(Vec<u64>, u64)>> =
        ctx.operands(op).map(|v| shape_and_width(ctx, v)).collect();
    let results: Vec<Option<(Vec<u64>, u64)>> =
        ctx.results(op).map(|v| shape_and_width(ctx, v)).collect();
    let bytes = operands
        .iter()
        .chain(&results)
        .flatten()
        .fold(0u64, |a, (d, w)| {
            a.saturating_add(elements(d).saturating_mul(*w))
        });
    let largest = operands
        .iter()
        .chain(&results)
        .flatten()
        .map(|(d, _)| elements(d))
        .max()
        .unwrap_or(0);
    let dims = |i: usize| operands.get(i).and_then(|o| o.as_ref()).map(|(d, _)| d);
    let out = results.first().and_then(|o| o.as_ref()).map(|(d, _)| d);
    let name = ctx.op_name_str(op);
    let flops = match name {
        "graph.matmul" => dims(0)
            .and_then(|a| a.last())
            .zip(out)
            .map(|(&k, o)| 2u64.saturating_mul(elements(o)).saturating_mul(k)),
        "graph.gemm" => {
            let trans = strata_dialects::graph::infer::attr_bool(ctx, op, "transA");
            dims(0)
                .and_then(|a| if trans { a.first() } else { a.last() })
                .zip(out)
                .map(|(&k, o)| 2u64.saturating_mul(elements(o)).saturating_mul(k))
        }
        // w: [C_out, C_in / group, k...] (or [C_out, k..., C_in / group]
        // in NHWC): each output sums C_in / group * k products.
        "graph.conv2d" | "graph.deform_conv2d" => dims(1).zip(out).map(|(w, o)| {
            2u64.saturating_mul(elements(o))
                .saturating_mul(elements(&w[1..]))
        }),
        // w: [C_in, C_out / group, k...]: each input spreads over C_out / group * k.
        "graph.conv_transpose2d" => dims(0).zip(dims(1)).map(|(x, w)| {
            2u64.saturating_mul(elements(x))
                .saturating_mul(elements(&w[1..]))
        }),
        // q: [..., S_q, D], k: [..., S_k, D]: the scores and the weighted
        // sum of the values, each S_k multiply-adds per element.
        "graph.attention" => dims(0).zip(dims(1)).zip(out).and_then(|((q, k), o)| {
            let sk = *k.get(k.len().checked_sub(2)?)?;
            Some(
                2u64.saturating_mul(sk)
                    .saturating_mul(elements(q).saturating_add(elements(o))),
            )
        }),
        // x: [T, B, I]; w: [D, G * H, I]; r: [D, G * H, H].
        "graph.lstm" | "graph.gru" | "graph.rnn" => {
            dims(0).zip(dims(1)).zip(dims(2)).and_then(|((x, w), r)| {
                let (t, b) = (*x.first()?, *x.get(1)?);
                Some(
                    2u64.saturating_mul(t)
                        .saturating_mul(b)
                        .saturating_mul(elements(w).saturating_add(elements(r))),
                )
            })
        }
        _ => None,
    }
    .unwrap_or(largest);
    Cost { flops, bytes } + nested
}

#[cfg(test)]
mod tests {
    use super::*;

    fn costs(text: &str) -> Vec<(String, Cost)> {
        let mut ctx = Context::new();
        strata_dialects::register_all(&mut ctx);
        let module = strata_ir::parser::parse_source(
            &mut ctx,
            &strata_ir::SourceBuffer::new("cost.mlir", text),
        )
        .expect("parses");
        ctx.nested_ops(module, strata_ir::WalkOrder::PreOrder)
            .into_iter()
            .filter(|&o| ctx.op_name_str(o).starts_with("graph."))
            .map(|o| (ctx.op_name_str(o).to_string(), op_cost(&ctx, o)))
            .collect()
    }

    #[test]
    fn products_and_convolutions_count_their_multiply_adds() {
        let c = costs(
            "func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<8x5xf32>, %x: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>, %d: tensor<?x4xf32>) {
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x5xf32>) -> tensor<2x4x5xf32>
  %1 = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x8x8xf32>
  %2 = graph.relu %1 : (tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %3 = graph.relu %d : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return
}",
        );
        // 2 * (2*4*5 outputs) * 8.
        assert_eq!(c[0].1.flops, 640);
        assert_eq!(c[0].1.bytes, 4 * (64 + 40 + 40));
        // 2 * (6*8*8 outputs) * (3*3*3 window).
        assert_eq!(c[1].1.flops, 2 * 384 * 27);
        // One per element.
        assert_eq!(
            c[2].1,
            Cost {
                flops: 384,
                bytes: 4 * 768
            }
        );
        // Not static: nothing.
        assert_eq!(c[3].1, Cost::default());
    }
}
