//! A custom op, end to end: register `example.ScaledSilu`
//! (`y = x * sigmoid(beta * x)`, `beta` from the op's config), then
//!
//! 1. verify, shape-infer and run IR that uses it as `graph.custom`;
//! 2. import an ONNX model with a node of domain `example` and run it;
//! 3. show the error a model gets when the op is not registered.
//!
//! Run with `cargo run -p strata-runtime --example custom_op`.

use std::sync::Arc;

use strata_dialects::graph::custom::CustomOpDef;
use strata_dialects::graph::infer::{OperandInfo, ResultElem};
use strata_ir::{AttrKind, Attribute, Context, SourceBuffer};
use strata_onnx::proto;
use strata_runtime::interp::{lookup_function, register_custom_op, run_function, CustomOp};
use strata_runtime::kernels::{binary, unary, BinaryOp, UnaryOp};
use strata_runtime::Tensor;

/// `beta` from the op's config dictionary (default 1).
fn beta(ctx: &Context, config: Option<Attribute>) -> Result<f64, String> {
    let Some(config) = config else { return Ok(1.0) };
    for (key, value) in ctx.dictionary_entries(config) {
        if ctx.ident_str(*key) == "beta" {
            return match ctx.attr_kind(*value) {
                AttrKind::Float { bits, .. } => Ok(f64::from_bits(*bits as u64)),
                _ => Err("'beta' must be an f64 attribute".into()),
            };
        }
    }
    Ok(1.0)
}

fn scaled_silu() -> CustomOp {
    let def = CustomOpDef {
        name: "example.ScaledSilu".into(),
        version: 1,
        summary: "x * sigmoid(beta * x)".into(),
        // One float input; the result has its shape and element type.
        shape_fn: Arc::new(|ctx: &Context, _config, inputs: &[OperandInfo]| {
            let [x] = inputs else {
                return Err(format!("expects 1 input, got {}", inputs.len()));
            };
            if ctx.float_kind(x.elem).is_none() {
                return Err("expects a float tensor".into());
            }
            Ok(vec![(x.shape.clone(), ResultElem::Of(x.elem))])
        }),
    };
    let kernel = Arc::new(
        |ctx: &Context, config: Option<Attribute>, inputs: &[Tensor]| {
            let x = inputs.first().ok_or("expects 1 input")?;
            let b = Tensor::scalar_f64(x.dtype(), beta(ctx, config)?);
            let scaled = binary(BinaryOp::Mul, x, &b).map_err(|e| e.to_string())?;
            let gate = unary(UnaryOp::Sigmoid, &scaled).map_err(|e| e.to_string())?;
            Ok(vec![
                binary(BinaryOp::Mul, x, &gate).map_err(|e| e.to_string())?
            ])
        },
    );
    CustomOp { def, kernel }
}

const IR: &str = r#"
func.func @main(%x: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>> {
  %0 = graph.custom "example.ScaledSilu"(%x) {config = {beta = 1.500000e+00 : f64}} : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  %1 = graph.relu %0 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  return %1 : tensor<?x4xf32, #graph.dims<batch>>
}
"#;

/// A one-node ONNX model: `y = example.ScaledSilu(x)` with `beta = 1.5`.
fn onnx_model() -> proto::ModelProto {
    let tensor_type = |dims: &[&str]| proto::TypeProto {
        value: Some(proto::type_proto::Value::TensorType(
            proto::type_proto::Tensor {
                elem_type: Some(proto::tensor_proto::DataType::Float as i32),
                shape: Some(proto::TensorShapeProto {
                    dim: dims
                        .iter()
                        .map(|d| proto::tensor_shape_proto::Dimension {
                            value: Some(match d.parse::<i64>() {
                                Ok(n) => proto::tensor_shape_proto::dimension::Value::DimValue(n),
                                Err(_) => proto::tensor_shape_proto::dimension::Value::DimParam(
                                    d.to_string(),
                                ),
                            }),
                            ..Default::default()
                        })
                        .collect(),
                }),
            },
        )),
        ..Default::default()
    };
    let value = |name: &str| proto::ValueInfoProto {
        name: Some(name.into()),
        r#type: Some(tensor_type(&["batch", "4"])),
        ..Default::default()
    };
    proto::ModelProto {
        ir_version: Some(8),
        opset_import: vec![
            proto::OperatorSetIdProto {
                domain: Some(String::new()),
                version: Some(17),
            },
            proto::OperatorSetIdProto {
                domain: Some("example".into()),
                version: Some(1),
            },
        ],
        graph: Some(proto::GraphProto {
            name: Some("custom".into()),
            node: vec![proto::NodeProto {
                name: Some("act/ScaledSilu".into()),
                op_type: Some("ScaledSilu".into()),
                domain: Some("example".into()),
                input: vec!["x".into()],
                output: vec!["y".into()],
                attribute: vec![proto::AttributeProto {
                    name: Some("beta".into()),
                    r#type: Some(proto::attribute_proto::AttributeType::Float as i32),
                    f: Some(1.5),
                    ..Default::default()
                }],
                ..Default::default()
            }],
            input: vec![value("x")],
            output: vec![value("y")],
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Runs the three steps; `Err` says which one went wrong.
pub fn main() -> Result<(), String> {
    let x = Tensor::from_f32(vec![2, 4], vec![-2.0, -1.0, 0.0, 1.0, 2.0, 3.0, -0.5, 0.5])
        .map_err(|e| e.to_string())?;

    // 1. IR.
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    register_custom_op(&mut ctx, scaled_silu());
    let buffer = SourceBuffer::new("custom.mlir", IR);
    let module = strata_ir::parser::parse_source(&mut ctx, &buffer).map_err(|_| "parse error")?;
    strata_ir::verifier::verify(&ctx, module).map_err(|_| "verification failed")?;
    let main = lookup_function(&ctx, module, "main").ok_or("no @main")?;
    let out = run_function(&ctx, main, vec![x.clone()]).map_err(|e| e.to_string())?;
    println!("IR:   y = {:?}", out[0].to_f64_vec());

    // 2. ONNX.
    let mut ctx = Context::new();
    strata_dialects::register_all(&mut ctx);
    register_custom_op(&mut ctx, scaled_silu());
    let module = strata_onnx::import_model(&mut ctx, &onnx_model(), "custom.onnx")
        .map_err(|e| e.to_string())?;
    strata_ir::verifier::verify(&ctx, module).map_err(|_| "verification failed")?;
    let main = lookup_function(&ctx, module, "main").ok_or("no @main")?;
    let from_onnx = run_function(&ctx, main, vec![x]).map_err(|e| e.to_string())?;
    println!("ONNX: y = {:?}", from_onnx[0].to_f64_vec());
    let expected: Vec<f64> = [-2.0f32, -1.0, 0.0, 1.0, 2.0, 3.0, -0.5, 0.5]
        .iter()
        .map(|&v| f64::from(v / (1.0 + (-1.5 * v).exp())))
        .collect();
    let close = from_onnx[0]
        .to_f64_vec()
        .iter()
        .zip(&expected)
        .all(|(a, e)| (a - e).abs() <= 1e-6);
    if !close {
        return Err(format!(
            "ONNX result differs from x * sigmoid(1.5 x) = {expected:?}"
        ));
    }
    print!(
        "{}",
        strata_ir::printer::print_operation(&ctx, module, Default::default())
    );

    // 3. Not registered.
    let mut ctx = Context::new();
    match strata_onnx::import_model(&mut ctx, &onnx_model(), "custom.onnx") {
        Err(e) => println!("without registration: {e}"),
        Ok(_) => return Err("an unregistered custom op was accepted".into()),
    }
    Ok(())
}
