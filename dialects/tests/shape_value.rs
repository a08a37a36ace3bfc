//! Symbolic evaluation of shape computations (`graph::shape_value`): what it
//! determines, where it gives up, and that its work stays bounded on
//! computations that share values.

use std::time::{Duration, Instant};

use strata_dialects::graph::shape::Dim;
use strata_dialects::graph::shape_value::shape_value;
use strata_ir::{parser, verifier, Context, Operation, SourceBuffer};

fn context() -> Context {
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    ctx
}

/// The shape value of the operand of the function's `return`.
fn returned_value(text: &str) -> Option<Vec<Dim>> {
    let mut ctx = context();
    let module = parser::parse_source(&mut ctx, &SourceBuffer::new("t.mlir", text))
        .unwrap_or_else(|e| panic!("parse: {}", e[0].message));
    if let Err(d) = verifier::verify(&ctx, module) {
        panic!("verify: {}", d[0].message);
    }
    let ret = find(&ctx, module, "func.return").expect("a return");
    let value = ctx.operands(ret).next().expect("a returned value");
    shape_value(&ctx, value)
}

/// The first op named `name` nested in `op` (pre-order).
fn find(ctx: &Context, op: Operation, name: &str) -> Option<Operation> {
    if ctx.op_name_str(op) == name {
        return Some(op);
    }
    for &region in ctx.op_regions(op) {
        for block in ctx.region_blocks(region) {
            for inner in ctx.block_ops(block) {
                if let Some(found) = find(ctx, inner, name) {
                    return Some(found);
                }
            }
        }
    }
    None
}

#[test]
fn shapes_gathers_concats_and_arithmetic() {
    let v = returned_value(
        r#"
func.func @f(%x: tensor<?x?x8xf32, #graph.dims<b, s>>) -> tensor<3xi64> {
  %shape = graph.shape_of %x : (tensor<?x?x8xf32, #graph.dims<b, s>>) -> tensor<3xi64>
  %i = graph.constant dense<[1, 0]> : tensor<2xi64>
  %sb = graph.gather %shape[%i] {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %two = graph.constant dense<2> : tensor<i64>
  %doubled = graph.mul %sb, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %n = graph.size %x : (tensor<?x?x8xf32, #graph.dims<b, s>>) -> tensor<i64>
  %one = graph.constant dense<1> : tensor<1xi64>
  %n1 = graph.reshape %n, %one : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %all = graph.concat %doubled, %n1 {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  return %all : tensor<3xi64>
}
"#,
    );
    let v = v.expect("determined");
    assert_eq!(v.len(), 3);
    assert_eq!(v[0].to_string(), "2*s");
    assert_eq!(v[1].to_string(), "2*b");
    assert_eq!(v[2].to_string(), "8*b*s");
}

#[test]
fn run_time_values_are_not_determined() {
    // A function argument, and a division that is not exact.
    let arg = returned_value(
        r#"
func.func @f(%s: tensor<2xi64>) -> tensor<2xi64> {
  return %s : tensor<2xi64>
}
"#,
    );
    assert_eq!(arg, None);
    let div = returned_value(
        r#"
func.func @f(%x: tensor<?xf32, #graph.dims<n>>) -> tensor<1xi64> {
  %shape = graph.shape_of %x : (tensor<?xf32, #graph.dims<n>>) -> tensor<1xi64>
  %three = graph.constant dense<3> : tensor<1xi64>
  %q = graph.div %shape, %three : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %q : tensor<1xi64>
}
"#,
    );
    assert_eq!(div, Some(vec![Dim::Unknown]));
}

#[test]
fn shared_values_do_not_blow_up() {
    // Each level concatenates the previous one 32 times over empty tensors
    // and adds it to itself: without a bound on the visits, evaluating the
    // last value would visit 33^20 values.
    let mut body = String::from("  %v0 = graph.constant dense<> : tensor<0xi64>\n");
    for level in 1..=20 {
        let prev = format!("%v{}", level - 1);
        let operands = vec![prev.clone(); 32].join(", ");
        let types = vec!["tensor<0xi64>"; 32].join(", ");
        body.push_str(&format!(
            "  %c{level} = graph.concat {operands} {{axis = 0 : i64}} : ({types}) -> tensor<0xi64>\n  %v{level} = graph.add %c{level}, {prev} : (tensor<0xi64>, tensor<0xi64>) -> tensor<0xi64>\n"
        ));
    }
    let text =
        format!("func.func @f() -> tensor<0xi64> {{\n{body}  return %v20 : tensor<0xi64>\n}}\n");
    let start = Instant::now();
    let v = returned_value(&text);
    assert!(v.is_none() || v == Some(vec![]));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn unsigned_constants_and_narrowing_casts() {
    // A ui8 200 is 200, not -56; a cast that cannot hold a value (300 to
    // i8) or a symbol (n to i8) gives up on it.
    let wide = returned_value(
        r#"
func.func @f() -> tensor<1xi64> {
  %d = graph.constant dense<200> : tensor<1xui8>
  %w = graph.cast %d : (tensor<1xui8>) -> tensor<1xi64>
  return %w : tensor<1xi64>
}
"#,
    );
    assert_eq!(wide, Some(vec![Dim::Known(200)]));
    let narrow = returned_value(
        r#"
func.func @f(%x: tensor<300x?xf32, #graph.dims<n>>) -> tensor<2xi64> {
  %s = graph.shape_of %x : (tensor<300x?xf32, #graph.dims<n>>) -> tensor<2xi64>
  %b = graph.cast %s : (tensor<2xi64>) -> tensor<2xi8>
  %w = graph.cast %b : (tensor<2xi8>) -> tensor<2xi64>
  return %w : tensor<2xi64>
}
"#,
    );
    assert_eq!(narrow, Some(vec![Dim::Unknown, Dim::Unknown]));
}

#[test]
fn negative_factors_are_not_sizes() {
    let v = returned_value(
        r#"
func.func @f(%x: tensor<?xf32, #graph.dims<n>>) -> tensor<2xi64> {
  %s = graph.shape_of %x : (tensor<?xf32, #graph.dims<n>>) -> tensor<1xi64>
  %m = graph.constant dense<-1> : tensor<1xi64>
  %neg = graph.mul %s, %m : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %two = graph.constant dense<2> : tensor<1xi64>
  %twice = graph.mul %s, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %d = graph.constant dense<-2> : tensor<1xi64>
  %q = graph.div %twice, %d : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %both = graph.concat %neg, %q {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %both : tensor<2xi64>
}
"#,
    );
    assert_eq!(v, Some(vec![Dim::Unknown, Dim::Unknown]));
}
