//! Sequences and optionals: `SequenceConstruct`, `SequenceEmpty`,
//! `SequenceAt`, `SequenceInsert`, `SequenceErase`, `SequenceLength`,
//! `SplitToSequence`, `ConcatFromSequence`, `Optional`,
//! `OptionalGetElement` and `OptionalHasElement` as the `graph` ops of the
//! same names, on `!graph.seq` and `!graph.opt` values.
//!
//! `SequenceMap` becomes what its ONNX function expands to: a `graph.loop`
//! over the first sequence's length whose body takes element `i` of each
//! sequence input (and each tensor input whole), runs the node's body and
//! appends its outputs to the output sequences.
//!
//! From opset 18 `OptionalGetElement` and `OptionalHasElement` also take a
//! plain tensor or sequence (or, `OptionalHasElement`, no input): that is
//! the value itself, and a constant `true` (or `false`).

use strata_dialects::graph::sequence as seq;
use strata_dialects::graph::shape::{tensor_type, Shape};
use strata_dialects::graph::types::{opt_element, opt_type, seq_type};
use strata_ir::{Location, Type, Value};

use super::attrs::Attrs;
use super::{Convert, ConvertError, Importer, Res};
use crate::proto::{attribute_proto, AttributeProto, GraphProto, NodeProto, ValueInfoProto};
use crate::tensor::{dtype_name, element_type};

pub(super) const OPS: &[(&str, Convert)] = &[
    ("SequenceConstruct", construct),
    ("SequenceEmpty", empty),
    ("SequenceAt", at),
    ("SequenceInsert", insert),
    ("SequenceErase", erase),
    ("SequenceLength", length),
    ("SplitToSequence", split_to_sequence),
    ("ConcatFromSequence", concat_from_sequence),
    ("Optional", optional),
    ("OptionalGetElement", get_element),
    ("OptionalHasElement", has_element),
    ("SequenceMap", sequence_map),
];

impl Importer<'_> {
    /// Appends the `graph` op `name` with one result of type `ty`.
    fn typed_op(
        &mut self,
        name: &str,
        operands: Vec<Value>,
        ty: Type,
        props: Vec<(&str, strata_ir::Attribute)>,
        loc: Location,
    ) -> Vec<Value> {
        self.region_op(name, operands, vec![ty], props, vec![], loc)
    }

    /// The inputs of `node` from `from` on that are present.
    fn present_inputs(&self, node: &NodeProto, from: usize) -> Res<Vec<Value>> {
        let mut out = Vec::new();
        for i in from..node.input.len() {
            out.extend(self.input(node, i)?);
        }
        Ok(out)
    }
}

fn construct(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let inputs = im.present_inputs(node, 0)?;
    let ty = seq::construct_type(im.ctx, &inputs)?;
    Ok(im.typed_op("graph.sequence_construct", inputs, ty, vec![], loc))
}

fn empty(im: &mut Importer, _node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    // The default dtype is float.
    let dtype = a.int("dtype").unwrap_or(1) as i32;
    let elem = element_type(im.ctx, dtype).ok_or_else(|| {
        ConvertError::unsupported(format!(
            "element type {} is not supported",
            dtype_name(dtype)
        ))
    })?;
    let tensor = tensor_type(im.ctx, &Shape::unranked(), elem);
    let ty = seq_type(im.ctx, tensor);
    Ok(im.typed_op("graph.sequence_empty", vec![], ty, vec![], loc))
}

fn at(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (s, p) = (im.req(node, 0)?, im.req(node, 1)?);
    let ty = seq::at_type(im.ctx, s)?;
    Ok(im.typed_op("graph.sequence_at", vec![s, p], ty, vec![], loc))
}

fn insert(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let (s, t) = (im.req(node, 0)?, im.req(node, 1)?);
    let ty = seq::insert_type(im.ctx, s, t)?;
    let mut operands = vec![s, t];
    operands.extend(im.input(node, 2)?);
    Ok(im.typed_op("graph.sequence_insert", operands, ty, vec![], loc))
}

fn erase(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let s = im.req(node, 0)?;
    seq::at_type(im.ctx, s)?;
    let ty = im.ctx.value_type(s);
    let mut operands = vec![s];
    operands.extend(im.input(node, 1)?);
    Ok(im.typed_op("graph.sequence_erase", operands, ty, vec![], loc))
}

fn length(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let s = im.req(node, 0)?;
    seq::at_type(im.ctx, s)?;
    let ty = seq::length_type(im.ctx);
    Ok(im.typed_op("graph.sequence_length", vec![s], ty, vec![], loc))
}

fn split_to_sequence(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let split = im.input(node, 1)?;
    let axis = a.int("axis").unwrap_or(0);
    let keepdims = a.int("keepdims").unwrap_or(1) != 0;
    let ty = seq::split_type(im.ctx, x, split, axis, keepdims)?;
    let mut operands = vec![x];
    operands.extend(split);
    let props = vec![
        ("axis", im.i64_attr(axis)),
        ("keepdims", im.bool_attr(keepdims)),
    ];
    Ok(im.typed_op("graph.split_to_sequence", operands, ty, props, loc))
}

fn concat_from_sequence(
    im: &mut Importer,
    node: &NodeProto,
    a: &Attrs,
    loc: Location,
) -> Res<Vec<Value>> {
    let s = im.req(node, 0)?;
    let axis = a
        .int("axis")
        .ok_or_else(|| ConvertError::Invalid("requires the attribute 'axis'".into()))?;
    let new_axis = a.int("new_axis").unwrap_or(0) != 0;
    let ty = seq::concat_type(im.ctx, s, axis, new_axis)?;
    let props = vec![
        ("axis", im.i64_attr(axis)),
        ("new_axis", im.bool_attr(new_axis)),
    ];
    Ok(im.typed_op("graph.concat_from_sequence", vec![s], ty, props, loc))
}

fn optional(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let input = im.input(node, 0)?;
    let element = match (input, a.get("type").and_then(|t| t.tp.as_ref())) {
        (_, Some(tp)) => im.type_proto_type(tp)?,
        (Some(x), None) => im.ctx.value_type(x),
        (None, None) => {
            return Err(ConvertError::Invalid(
                "requires an input or the attribute 'type'".into(),
            ))
        }
    };
    if !strata_dialects::graph::types::valid_opt_element(im.ctx, element) {
        return Err(ConvertError::Invalid(format!(
            "holds a tensor or a sequence of tensors, not '{}'",
            strata_ir::printer::type_to_string(im.ctx, element)
        )));
    }
    let ty = opt_type(im.ctx, element);
    Ok(im.typed_op(
        "graph.optional",
        input.into_iter().collect(),
        ty,
        vec![],
        loc,
    ))
}

fn get_element(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let x = im.req(node, 0)?;
    let ty = im.ctx.value_type(x);
    match opt_element(im.ctx, ty) {
        Some(element) => {
            Ok(im.typed_op("graph.optional_get_element", vec![x], element, vec![], loc))
        }
        // A tensor or a sequence (opset 18): the value itself.
        None => Ok(vec![x]),
    }
}

fn has_element(im: &mut Importer, node: &NodeProto, _a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let result = seq::has_element_type(im.ctx);
    let x = im.input(node, 0)?;
    match x {
        Some(x) if opt_element(im.ctx, im.ctx.value_type(x)).is_some() => {
            Ok(im.typed_op("graph.optional_has_element", vec![x], result, vec![], loc))
        }
        // A tensor or a sequence is there; no input is not (opset 18).
        present => Ok(vec![im.const_bool(present.is_some(), loc)?]),
    }
}

/// A node of `op_type` from `inputs` to `outputs`.
fn node_of(op_type: &str, inputs: &[&str], outputs: &[&str]) -> NodeProto {
    NodeProto {
        op_type: Some(op_type.to_string()),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

fn named(name: &str) -> ValueInfoProto {
    ValueInfoProto {
        name: Some(name.to_string()),
        ..Default::default()
    }
}

/// `SequenceMap`: the `Loop` of its ONNX function expansion, converted.
fn sequence_map(im: &mut Importer, node: &NodeProto, a: &Attrs, loc: Location) -> Res<Vec<Value>> {
    let body = super::control::graph_attr(a, "body")?;
    let mut inputs = Vec::with_capacity(node.input.len());
    for i in 0..node.input.len() {
        inputs.push(im.req(node, i)?);
    }
    let first = *inputs.first().ok_or("requires an input sequence")?;
    seq::at_type(im.ctx, first)?;
    // What the body takes: an element of each sequence, each tensor whole.
    let arg_types: Vec<Type> = inputs
        .iter()
        .map(|&v| {
            let ty = im.ctx.value_type(v);
            strata_dialects::graph::types::seq_element(im.ctx, ty).unwrap_or(ty)
        })
        .collect();
    // The body's output types, from a first conversion of it.
    let (region, yielded) = im.subgraph(body, &arg_types, None, loc)?;
    let mut empties = Vec::with_capacity(yielded.len());
    for (k, &y) in yielded.iter().enumerate() {
        let elem = im.elem(y).ok_or_else(|| {
            ConvertError::unsupported(format!(
                "has a body whose output #{k} is not a tensor (the outputs are sequences of tensors)"
            ))
        })?;
        let tensor = tensor_type(im.ctx, &Shape::unranked(), elem);
        empties.push(seq_type(im.ctx, tensor));
    }
    if let Some(block) = im.ctx.region_entry_block(region) {
        im.ctx.erase_block(block);
    }
    // The expansion's outer values, under names no ONNX graph uses.
    let outer = |what: &str| format!("\u{0}sequence_map/{what}");
    let length = seq::length_type(im.ctx);
    let n = im.typed_op("graph.sequence_length", vec![first], length, vec![], loc)[0];
    im.values.insert(outer("length"), n);
    let cond = im.const_bool(true, loc)?;
    im.values.insert(outer("cond"), cond);
    let mut loop_inputs = vec![outer("length"), outer("cond")];
    for (k, ty) in empties.into_iter().enumerate() {
        let e = im.typed_op("graph.sequence_empty", vec![], ty, vec![], loc)[0];
        im.values.insert(outer(&format!("empty{k}")), e);
        loop_inputs.push(outer(&format!("empty{k}")));
    }
    // The loop body: element `i` of each input, the node's body, one
    // insertion per output.
    let inner = |what: &str| format!("\u{0}sequence_map_body/{what}");
    let mut nodes = vec![node_of(
        "Identity",
        &[&inner("cond_in")],
        &[&inner("cond_out")],
    )];
    if body.input.len() != inputs.len() {
        return Err(ConvertError::Invalid(format!(
            "has {} inputs, but its body takes {}",
            inputs.len(),
            body.input.len()
        )));
    }
    // The inputs under names of their own: a body input may be named as
    // an outer input that a later element is read from.
    for (j, (&v, arg)) in inputs.iter().zip(&body.input).enumerate() {
        let input = outer(&format!("input{j}"));
        im.values.insert(input.clone(), v);
        let ty = im.ctx.value_type(v);
        nodes.push(
            if strata_dialects::graph::types::seq_element(im.ctx, ty).is_some() {
                node_of("SequenceAt", &[&input, &inner("i")], &[arg.name()])
            } else {
                node_of("Identity", &[&input], &[arg.name()])
            },
        );
    }
    nodes.extend(body.node.iter().cloned());
    let mut body_inputs = vec![named(&inner("i")), named(&inner("cond_in"))];
    let mut body_outputs = vec![named(&inner("cond_out"))];
    for (k, out) in body.output.iter().enumerate() {
        let (acc_in, acc_out) = (inner(&format!("acc{k}")), inner(&format!("acc{k}_out")));
        nodes.push(node_of(
            "SequenceInsert",
            &[&acc_in, out.name()],
            &[&acc_out],
        ));
        body_inputs.push(named(&acc_in));
        body_outputs.push(named(&acc_out));
    }
    let loop_body = GraphProto {
        name: Some("sequence_map_body".into()),
        node: nodes,
        input: body_inputs,
        output: body_outputs,
        initializer: body.initializer.clone(),
        ..Default::default()
    };
    let attr = AttributeProto {
        name: Some("body".into()),
        r#type: Some(attribute_proto::AttributeType::Graph as i32),
        g: Some(loop_body),
        ..Default::default()
    };
    let input_refs: Vec<&str> = loop_inputs.iter().map(String::as_str).collect();
    let output_refs: Vec<&str> = node.output.iter().map(String::as_str).collect();
    let mut loop_node = node_of("Loop", &input_refs, &output_refs);
    loop_node.attribute = vec![attr];
    let attrs = Attrs(&loop_node.attribute);
    super::control::convert_loop(im, &loop_node, &attrs, loc)
}
