//! What shape functions read of their operands (`operand_info`,
//! `int_elements`): the elements of small integer constants, with the
//! 1024-element limit at its boundary and negative values kept.

use strata_dialects::graph::infer::{int_elements, operand_info};
use strata_ir::parser::parse_source;
use strata_ir::{Context, SourceBuffer};

fn dense_i64(ctx: &mut Context, count: usize) -> strata_ir::Attribute {
    let values: Vec<String> = (0..count).map(|i| (i as i64 - 3).to_string()).collect();
    let text = format!("dense<[{}]> : tensor<{count}xi64>", values.join(", "));
    strata_ir::parser::parse_attribute(ctx, &text).expect("an elements attribute")
}

#[test]
fn int_elements_reads_up_to_1024_elements() {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    for count in [1, 1023, 1024] {
        let attr = dense_i64(&mut ctx, count);
        let values = int_elements(&ctx, attr).expect("small enough to read");
        assert_eq!(values.len(), count);
        assert_eq!(values[0], -3);
        assert_eq!(values[count - 1], count as i64 - 4);
    }
    for count in [1025, 2048] {
        let attr = dense_i64(&mut ctx, count);
        assert_eq!(int_elements(&ctx, attr), None, "{count} elements");
    }
}

#[test]
fn operand_info_reads_constants_and_only_constants() {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let text = r#"
func.func @f(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2x2xi32>) {
  %c = graph.constant dense<[-1, 4]> : tensor<2xi64>
  %n = graph.neg %x : (tensor<2xi64>) -> tensor<2xi64>
  %m = graph.constant dense<[[0, -1], [2, 3]]> : tensor<2x2xi32>
  return %c, %n, %m : tensor<2xi64>, tensor<2xi64>, tensor<2x2xi32>
}
"#;
    let buffer = SourceBuffer::new("t.mlir", text);
    let module = parse_source(&mut ctx, &buffer).expect("parses");
    let first_block = |ctx: &Context, op| {
        let region = ctx.op_regions(op)[0];
        ctx.region_blocks(region).next().expect("a block")
    };
    let func = ctx.block_ops(first_block(&ctx, module)).next().expect("@f");
    let ops: Vec<_> = ctx.block_ops(first_block(&ctx, func)).collect();
    let constant = ctx.result(ops[0], 0);
    let info = operand_info(&ctx, constant).expect("a tensor");
    assert_eq!(info.value, Some(vec![-1, 4]));
    let neg = ctx.result(ops[1], 0);
    let info = operand_info(&ctx, neg).expect("a tensor");
    assert_eq!(info.value, None, "a computed value has no known elements");
    // Beyond what shape computations cover (0-D and 1-D): a 2-D constant.
    let matrix = ctx.result(ops[2], 0);
    let info = operand_info(&ctx, matrix).expect("a tensor");
    assert_eq!(info.value, Some(vec![0, -1, 2, 3]));
}
