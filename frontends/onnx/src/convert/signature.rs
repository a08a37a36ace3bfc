//! A model's signature without its weights or nodes: what a session needs
//! before it knows whether it will compile (a plan found in the plan cache
//! on disk never needs the model itself).
//!
//! The model is decoded into messages that name only the graph's inputs,
//! outputs and initializer names: protobuf skips every other field (the
//! initializers' bytes, the nodes) without copying it.

use std::collections::HashSet;
use std::io::{BufReader, Read, Seek, SeekFrom};

use prost::Message;

use crate::proto::{OperatorSetIdProto, ValueInfoProto};
use crate::ImportError;

use super::{Importer, Signature};

/// `ModelProto`, only its opsets and its graph's signature.
#[derive(Clone, PartialEq, prost::Message)]
pub(crate) struct SignatureModel {
    #[prost(message, optional, tag = "7")]
    graph: Option<SignatureGraph>,
    #[prost(message, repeated, tag = "8")]
    opset_import: Vec<OperatorSetIdProto>,
}

/// `GraphProto`, only its inputs, outputs and initializers' names.
#[derive(Clone, PartialEq, prost::Message)]
struct SignatureGraph {
    #[prost(message, repeated, tag = "5")]
    initializer: Vec<Named>,
    #[prost(message, repeated, tag = "11")]
    input: Vec<ValueInfoProto>,
    #[prost(message, repeated, tag = "12")]
    output: Vec<ValueInfoProto>,
}

/// `TensorProto`, only its name.
#[derive(Clone, PartialEq, prost::Message)]
struct Named {
    #[prost(string, optional, tag = "8")]
    name: Option<String>,
}

/// The signature of the model `file` holds, read field by field: the
/// graph's inputs, outputs and opsets are decoded, the initializers' names
/// read, and everything else (their bytes, the nodes) skipped by seeking,
/// never read. (prost decodes whole buffers; this walks protobuf's framing
/// over a file so that a model of gigabytes costs a few reads.)
pub(crate) fn read_signature<F: Read + Seek>(file: F) -> Result<SignatureModel, String> {
    let mut file = Fields {
        reader: BufReader::new(file),
        at: 0,
    };
    let end = file
        .reader
        .seek(SeekFrom::End(0))
        .map_err(|e| e.to_string())?;
    file.reader.rewind().map_err(|e| e.to_string())?;
    let mut model = SignatureModel::default();
    file.walk(end, &mut |file, field, len| match field {
        7 => {
            let mut graph = SignatureGraph::default();
            let graph_end = file.at + len;
            file.walk(graph_end, &mut |file, field, len| match field {
                5 => {
                    let mut named = Named::default();
                    let tensor_end = file.at + len;
                    file.walk(tensor_end, &mut |file, field, len| match field {
                        8 => {
                            let bytes = file.bytes(len)?;
                            let name = String::from_utf8(bytes)
                                .map_err(|_| "a tensor name is not UTF-8".to_string())?;
                            named.name = Some(name);
                            Ok(())
                        }
                        _ => file.skip(len),
                    })?;
                    graph.initializer.push(named);
                    Ok(())
                }
                11 | 12 => {
                    let info = ValueInfoProto::decode(file.bytes(len)?.as_slice())
                        .map_err(|e| e.to_string())?;
                    if field == 11 {
                        graph.input.push(info);
                    } else {
                        graph.output.push(info);
                    }
                    Ok(())
                }
                _ => file.skip(len),
            })?;
            model.graph = Some(graph);
            Ok(())
        }
        8 => {
            let opset = OperatorSetIdProto::decode(file.bytes(len)?.as_slice())
                .map_err(|e| e.to_string())?;
            model.opset_import.push(opset);
            Ok(())
        }
        _ => file.skip(len),
    })?;
    Ok(model)
}

/// A reader of protobuf fields that knows its offset.
struct Fields<F> {
    reader: BufReader<F>,
    at: u64,
}

/// Called with a length-delimited field's number and length, positioned
/// at its bytes (it must read or skip them all).
type OnBytes<'a, F> = dyn FnMut(&mut Fields<F>, u64, u64) -> Result<(), String> + 'a;

impl<F: Read + Seek> Fields<F> {
    /// Walks the fields of a message that ends at offset `end`, calling
    /// `on_bytes` for each length-delimited one and skipping the others.
    fn walk(&mut self, end: u64, on_bytes: &mut OnBytes<'_, F>) -> Result<(), String> {
        while self.at < end {
            let key = self.varint()?;
            let (field, wire) = (key >> 3, key & 7);
            match wire {
                0 => {
                    self.varint()?;
                }
                1 => self.skip(8)?,
                5 => self.skip(4)?,
                2 => {
                    let len = self.varint()?;
                    let start = self.at;
                    if start.checked_add(len).is_none_or(|e| e > end) {
                        return Err(format!("field {field} runs past its message"));
                    }
                    on_bytes(self, field, len)?;
                    if self.at != start + len {
                        return Err(format!("field {field} was not read whole"));
                    }
                }
                other => return Err(format!("field {field} has wire type {other}")),
            }
        }
        if self.at != end {
            return Err("a field runs past its message".into());
        }
        Ok(())
    }

    fn skip(&mut self, len: u64) -> Result<(), String> {
        let step = i64::try_from(len).map_err(|_| "a field is too long".to_string())?;
        self.reader.seek_relative(step).map_err(|e| e.to_string())?;
        self.at += len;
        Ok(())
    }

    fn bytes(&mut self, len: u64) -> Result<Vec<u8>, String> {
        // Only small fields are read: names, types, opsets.
        const LIMIT: u64 = 1 << 24;
        if len > LIMIT {
            return Err(format!("a signature field of {len} bytes"));
        }
        let mut bytes = vec![0; len as usize];
        self.reader
            .read_exact(&mut bytes)
            .map_err(|e| e.to_string())?;
        self.at += len;
        Ok(bytes)
    }

    /// A base-128 varint (at most 10 bytes).
    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for i in 0..10 {
            let mut byte = [0u8];
            self.reader
                .read_exact(&mut byte)
                .map_err(|e| e.to_string())?;
            self.at += 1;
            value |= u64::from(byte[0] & 0x7f) << (7 * i);
            if byte[0] & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a varint of more than 10 bytes".into())
    }
}

impl Importer<'_> {
    /// A module holding `func.func private @main`, declared with the
    /// argument types and names the full import gives it (the inputs that
    /// are not initializers) and the outputs' declared types and names.
    pub(crate) fn signature(
        mut self,
        model: &SignatureModel,
    ) -> Result<strata_ir::Operation, ImportError> {
        if model.opset_import.is_empty() {
            return Err(self.invalid(None, "the model imports no opset"));
        }
        let graph = model
            .graph
            .as_ref()
            .ok_or_else(|| self.invalid(None, "the model has no graph"))?;
        let initializers: HashSet<&str> = graph
            .initializer
            .iter()
            .filter_map(|t| t.name.as_deref())
            .collect();
        let typed = |this: &mut Self, info: &ValueInfoProto, what: &str| {
            this.value_info_type(info).map_err(|e| {
                let e = e.map_message(|m| format!("{what} '{}': {m}", info.name()));
                this.located(None, e)
            })
        };
        let (mut arg_types, mut arg_names) = (Vec::new(), Vec::new());
        for input in graph
            .input
            .iter()
            .filter(|i| !initializers.contains(i.name()))
        {
            arg_types.push(typed(&mut self, input, "input")?);
            arg_names.push(input.name().to_string());
        }
        let (mut result_types, mut result_names) = (Vec::new(), Vec::new());
        for out in &graph.output {
            result_types.push(typed(&mut self, out, "output")?);
            result_names.push(out.name().to_string());
        }
        let signature = Signature {
            arg_types,
            arg_names,
            result_types,
            result_names,
        };
        let body = self.ctx.create_region();
        Ok(self.module_of_main(signature, body, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::{
        tensor_proto, tensor_shape_proto, type_proto, GraphProto, ModelProto, NodeProto,
        TensorProto, TensorShapeProto, TypeProto,
    };

    fn value(name: &str, dims: &[Option<i64>]) -> ValueInfoProto {
        let dim = dims
            .iter()
            .map(|d| tensor_shape_proto::Dimension {
                value: Some(match d {
                    Some(n) => tensor_shape_proto::dimension::Value::DimValue(*n),
                    None => tensor_shape_proto::dimension::Value::DimParam("batch".into()),
                }),
                ..Default::default()
            })
            .collect();
        ValueInfoProto {
            name: Some(name.into()),
            r#type: Some(TypeProto {
                value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                    elem_type: Some(tensor_proto::DataType::Float as i32),
                    shape: Some(TensorShapeProto { dim }),
                })),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// `y = x + w`, with `w` both an input and an initializer of 4 KiB.
    fn model() -> Vec<u8> {
        let w = TensorProto {
            name: Some("w".into()),
            dims: vec![1024],
            data_type: Some(tensor_proto::DataType::Float as i32),
            raw_data: Some(vec![7; 4096]),
            ..Default::default()
        };
        let add = NodeProto {
            op_type: Some("Add".into()),
            input: vec!["x".into(), "w".into()],
            output: vec!["y".into()],
            ..Default::default()
        };
        let graph = GraphProto {
            node: vec![add],
            initializer: vec![w],
            input: vec![value("x", &[None, Some(1024)]), value("w", &[Some(1024)])],
            output: vec![value("y", &[None, Some(1024)])],
            ..Default::default()
        };
        ModelProto {
            ir_version: Some(8),
            opset_import: vec![OperatorSetIdProto {
                version: Some(17),
                ..Default::default()
            }],
            graph: Some(graph),
            ..Default::default()
        }
        .encode_to_vec()
    }

    #[test]
    fn walking_the_file_reads_what_decoding_the_bytes_does() {
        let bytes = model();
        let walked = read_signature(std::io::Cursor::new(&bytes)).expect("walked");
        let decoded = SignatureModel::decode(bytes.as_slice()).expect("decoded");
        assert_eq!(walked, decoded);
        let graph = walked.graph.expect("graph");
        let names: Vec<&str> = graph.input.iter().map(|i| i.name()).collect();
        assert_eq!(names, ["x", "w"]);
        assert_eq!(graph.initializer[0].name.as_deref(), Some("w"));
        assert_eq!(walked.opset_import.len(), 1);
    }

    #[test]
    fn a_damaged_file_is_an_error() {
        let bytes = model();
        for cut in [1, bytes.len() / 2, bytes.len() - 1] {
            let e = read_signature(std::io::Cursor::new(&bytes[..cut]));
            assert!(e.is_err(), "cut at {cut}");
        }
        // A length past the end of the file.
        let e = read_signature(std::io::Cursor::new(&[0x3a, 0xff, 0x01][..]));
        assert_eq!(e, Err("field 7 runs past its message".into()));
    }
}
