//! The result types arith infers when a pattern or a user builds a
//! comparison without giving them: `i1` shaped like the operands, for
//! scalars, vectors and ranked and unranked tensors (cases that mlir-opt
//! cannot reach through canonicalization, so `test/tests/arith_folds.rs`
//! does not cover them).

use strata_dialects::arith::{CmpFOp, CmpIOp};
use strata_ir::{Context, OperationState};

fn inferred(op: &'static strata_ir::ods::OpSpec, operand: &str) -> String {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    let ty = strata_ir::parser::parse_type(&mut ctx, operand).expect("a type");
    let loc = ctx.unknown_loc();
    let block = ctx.create_block();
    let value = ctx.add_block_argument(block, ty, loc);
    let mut state = OperationState::new(ctx.ident(op.name), loc);
    state.operands = vec![value, value];
    let infer = op
        .infer_result_types
        .expect("comparisons infer their result");
    let types = infer(&mut ctx, &state).expect("inference succeeds");
    assert_eq!(types.len(), 1);
    strata_ir::printer::type_to_string(&ctx, types[0])
}

#[test]
fn comparisons_infer_i1_shaped_like_their_operands() {
    for spec in [CmpIOp::spec(), CmpFOp::spec()] {
        let elem = if spec.name == CmpIOp::NAME {
            "i32"
        } else {
            "f32"
        };
        assert_eq!(inferred(spec, elem), "i1");
        assert_eq!(
            inferred(spec, &format!("vector<[4]x{elem}>")),
            "vector<[4]xi1>"
        );
        assert_eq!(
            inferred(spec, &format!("tensor<2x?x{elem}, \"enc\">")),
            "tensor<2x?xi1, \"enc\">"
        );
        assert_eq!(inferred(spec, &format!("tensor<*x{elem}>")), "tensor<*xi1>");
    }
}
