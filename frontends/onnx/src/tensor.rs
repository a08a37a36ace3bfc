//! ONNX tensors and element types.

use strata_ir::float::FloatKind;
use strata_ir::{Attribute, Context, Type};

use crate::proto::{tensor_proto::DataType, TensorProto};
use crate::ConvertError;

/// The strata element type of an ONNX `TensorProto.DataType`, if supported.
pub fn element_type(ctx: &mut Context, data_type: i32) -> Option<Type> {
    Some(match DataType::try_from(data_type).ok()? {
        DataType::Float => ctx.float_type(FloatKind::F32),
        DataType::Double => ctx.float_type(FloatKind::F64),
        DataType::Float16 => ctx.float_type(FloatKind::F16),
        DataType::Bfloat16 => ctx.float_type(FloatKind::BF16),
        DataType::Bool => ctx.integer_type(1),
        DataType::Int8 => ctx.integer_type(8),
        DataType::Int16 => ctx.integer_type(16),
        DataType::Int32 => ctx.integer_type(32),
        DataType::Int64 => ctx.integer_type(64),
        DataType::Uint8 => ctx.unsigned_integer_type(8),
        DataType::Uint16 => ctx.unsigned_integer_type(16),
        DataType::Uint32 => ctx.unsigned_integer_type(32),
        DataType::Uint64 => ctx.unsigned_integer_type(64),
        DataType::Float8e4m3fn => ctx.float_type(FloatKind::F8E4M3FN),
        DataType::Float8e4m3fnuz => ctx.float_type(FloatKind::F8E4M3FNUZ),
        DataType::Float8e5m2 => ctx.float_type(FloatKind::F8E5M2),
        DataType::Float8e5m2fnuz => ctx.float_type(FloatKind::F8E5M2FNUZ),
        DataType::Float4e2m1 => ctx.float_type(FloatKind::F4E2M1FN),
        DataType::Float8e8m0 => ctx.float_type(FloatKind::F8E8M0FNU),
        DataType::Int4 => ctx.integer_type(4),
        DataType::Uint4 => ctx.unsigned_integer_type(4),
        DataType::Int2 => ctx.integer_type(2),
        DataType::Uint2 => ctx.unsigned_integer_type(2),
        _ => return None,
    })
}

/// The ONNX name of a data type (`FLOAT`, `UINT8`, ...).
pub fn dtype_name(data_type: i32) -> String {
    DataType::try_from(data_type)
        .map(|d| d.as_str_name().to_string())
        .unwrap_or_else(|_| format!("data type {data_type}"))
}

/// Bytes per element of a supported data type (`bool` as one byte).
fn byte_size(dt: DataType) -> usize {
    match dt {
        DataType::Double | DataType::Int64 | DataType::Uint64 => 8,
        DataType::Float | DataType::Int32 | DataType::Uint32 => 4,
        DataType::Float16 | DataType::Bfloat16 | DataType::Int16 | DataType::Uint16 => 2,
        _ => 1,
    }
}

/// A `dense<...>` attribute holding an ONNX tensor.
pub fn tensor_attr(ctx: &mut Context, t: &TensorProto) -> Result<Attribute, ConvertError> {
    let dt = DataType::try_from(t.data_type()).map_err(|_| {
        format!(
            "tensor '{}' has unknown data type {}",
            t.name(),
            t.data_type()
        )
    })?;
    let elem = element_type(ctx, t.data_type()).ok_or_else(|| {
        ConvertError::unsupported(format!(
            "tensor '{}' has data type {}, which strata does not support",
            t.name(),
            dtype_name(t.data_type())
        ))
    })?;
    if !t.external_data.is_empty()
        || t.data_location() == crate::proto::tensor_proto::DataLocation::External
    {
        return Err(ConvertError::unsupported(format!(
            "tensor '{}' stores its data in an external file, which is not supported",
            t.name()
        )));
    }
    if t.dims.iter().any(|&d| d < 0) {
        return Err(format!(
            "tensor '{}' has a negative dimension {:?}",
            t.name(),
            t.dims
        )
        .into());
    }
    let count = t
        .dims
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d as usize))
        .ok_or_else(|| format!("tensor '{}' is too large", t.name()))?;
    let size = byte_size(dt);
    // 4- and 2-bit elements are packed, the first in the low bits, in raw
    // data and in int32_data (a byte per entry): one byte each in strata.
    let per_byte = match dt {
        DataType::Int4 | DataType::Uint4 | DataType::Float4e2m1 => 2,
        DataType::Int2 | DataType::Uint2 => 4,
        _ => 1,
    };
    let raw: Vec<u8> = if per_byte > 1 {
        let packed: Vec<u8> = if t.raw_data().is_empty() {
            t.int32_data.iter().map(|&v| v as u8).collect()
        } else {
            t.raw_data().to_vec()
        };
        let bits = 8 / per_byte;
        let mask = (1u8 << bits) - 1;
        let mut out: Vec<u8> = packed
            .iter()
            .flat_map(|&b| (0..per_byte).map(move |i| (b >> (i * bits)) & mask))
            .collect();
        if out.len() >= count && out.len() < count + per_byte {
            out.truncate(count);
        }
        out
    } else if !t.raw_data().is_empty() {
        if dt == DataType::Bool {
            t.raw_data().iter().map(|&b| u8::from(b != 0)).collect()
        } else {
            t.raw_data().to_vec()
        }
    } else {
        match dt {
            DataType::Float => t.float_data.iter().flat_map(|v| v.to_le_bytes()).collect(),
            DataType::Double => t.double_data.iter().flat_map(|v| v.to_le_bytes()).collect(),
            DataType::Int64 => t.int64_data.iter().flat_map(|v| v.to_le_bytes()).collect(),
            DataType::Int32 => t.int32_data.iter().flat_map(|v| v.to_le_bytes()).collect(),
            // int32_data holds the narrower types, one element per entry
            // (f16/bf16 as their bit patterns).
            DataType::Float16 | DataType::Bfloat16 => t
                .int32_data
                .iter()
                .flat_map(|&v| (v as u16).to_le_bytes())
                .collect(),
            DataType::Int16 | DataType::Uint16 => t
                .int32_data
                .iter()
                .flat_map(|&v| (v as u16).to_le_bytes())
                .collect(),
            DataType::Int8 | DataType::Uint8 => t.int32_data.iter().map(|&v| v as u8).collect(),
            // uint64_data holds UINT32 and UINT64, one element per entry.
            DataType::Uint32 => t
                .uint64_data
                .iter()
                .flat_map(|&v| (v as u32).to_le_bytes())
                .collect(),
            DataType::Uint64 => t
                .uint64_data
                .iter()
                .flat_map(|&v| v.to_le_bytes())
                .collect(),
            DataType::Bool => t.int32_data.iter().map(|&v| u8::from(v != 0)).collect(),
            // int32_data holds the 8-bit floats' bit patterns, one per entry.
            DataType::Float8e4m3fn
            | DataType::Float8e4m3fnuz
            | DataType::Float8e5m2
            | DataType::Float8e5m2fnuz
            | DataType::Float8e8m0 => t.int32_data.iter().map(|&v| v as u8).collect(),
            _ => Vec::new(),
        }
    };
    if count.checked_mul(size) != Some(raw.len()) {
        return Err(format!(
            "tensor '{}' of shape {:?} should hold {count} elements but holds {} bytes",
            t.name(),
            t.dims,
            raw.len()
        )
        .into());
    }
    let ty = ctx.tensor_type(t.dims.clone(), elem);
    ctx.dense_elements_attr(ty, raw)
        .ok_or_else(|| format!("tensor '{}' could not be stored", t.name()).into())
}
