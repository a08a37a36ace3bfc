//! The element types of host tensors.

use std::fmt;

/// Element type of a [`Tensor`](crate::Tensor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE 754 binary16.
    F16,
    /// bfloat16 (8-bit exponent, 7-bit mantissa).
    BF16,
    /// IEEE 754 binary32.
    F32,
    /// IEEE 754 binary64.
    F64,
    /// Boolean (`i1`), stored as `bool`.
    I1,
    /// Signed 8-bit integer (`i8`; signless integers are signed here).
    I8,
    /// Signed 16-bit integer.
    I16,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
    /// Unsigned 8-bit integer (`ui8`).
    U8,
    /// Unsigned 16-bit integer (`ui16`).
    U16,
    /// Unsigned 32-bit integer (`ui32`).
    U32,
    /// Unsigned 64-bit integer (`ui64`).
    U64,
    /// 8-bit float, 4 exponent and 3 mantissa bits, no infinities
    /// (`f8E4M3FN`); this and the following narrow dtypes are stored one
    /// element per byte.
    F8E4M3FN,
    /// `f8E4M3FNUZ`: no infinities, no negative zero.
    F8E4M3FNUZ,
    /// `f8E5M2`: 5 exponent and 2 mantissa bits, IEEE-like.
    F8E5M2,
    /// `f8E5M2FNUZ`: no infinities, no negative zero.
    F8E5M2FNUZ,
    /// 4-bit float, 2 exponent and 1 mantissa bit, finite only (`f4E2M1FN`).
    F4E2M1,
    /// Signed 4-bit integer (`i4`).
    I4,
    /// Unsigned 4-bit integer (`ui4`).
    U4,
    /// Signed 2-bit integer (`i2`).
    I2,
    /// Unsigned 2-bit integer (`ui2`).
    U2,
    /// 8-bit power of two, exponent only, no sign, zero or infinity
    /// (`f8E8M0FNU`, ONNX's `FLOAT8E8M0`: the scales of the MX formats).
    F8E8M0,
}

impl DType {
    /// Every dtype, in declaration order.
    pub const ALL: [DType; 23] = [
        DType::F16,
        DType::BF16,
        DType::F32,
        DType::F64,
        DType::I1,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F8E4M3FN,
        DType::F8E4M3FNUZ,
        DType::F8E5M2,
        DType::F8E5M2FNUZ,
        DType::F4E2M1,
        DType::I4,
        DType::U4,
        DType::I2,
        DType::U2,
        DType::F8E8M0,
    ];

    /// The MLIR spelling of the element type (`"f32"`, `"i1"`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::U8 => "ui8",
            DType::U16 => "ui16",
            DType::U32 => "ui32",
            DType::U64 => "ui64",
            DType::F8E4M3FN => "f8E4M3FN",
            DType::F8E4M3FNUZ => "f8E4M3FNUZ",
            DType::F8E5M2 => "f8E5M2",
            DType::F8E5M2FNUZ => "f8E5M2FNUZ",
            DType::F4E2M1 => "f4E2M1FN",
            DType::I4 => "i4",
            DType::U4 => "ui4",
            DType::I2 => "i2",
            DType::U2 => "ui2",
            DType::F8E8M0 => "f8E8M0FNU",
        }
    }

    /// True for the floating-point dtypes.
    pub fn is_float(&self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32 | DType::F64) || self.is_narrow_float()
    }

    /// True for the 8- and 4-bit float dtypes.
    pub fn is_narrow_float(&self) -> bool {
        matches!(
            self,
            DType::F8E4M3FN
                | DType::F8E4M3FNUZ
                | DType::F8E5M2
                | DType::F8E5M2FNUZ
                | DType::F4E2M1
                | DType::F8E8M0
        )
    }

    /// True for the dtypes stored one element per byte below 8 bits of
    /// value or as 8-bit float bit patterns (`f8*`, `f4E2M1FN`, `i4`,
    /// `ui4`, `i2`, `ui2`): the interpreter converts them and moves them,
    /// and computes on them only through other dtypes.
    pub fn is_narrow(&self) -> bool {
        self.is_narrow_float() || matches!(self, DType::I4 | DType::U4 | DType::I2 | DType::U2)
    }

    /// True for the integer dtypes, signed and unsigned (not `i1`).
    pub fn is_int(&self) -> bool {
        self.is_signed_int() || self.is_unsigned()
    }

    /// True for `i8`, `i16`, `i32` and `i64`.
    pub fn is_signed_int(&self) -> bool {
        matches!(
            self,
            DType::I8 | DType::I16 | DType::I32 | DType::I64 | DType::I4 | DType::I2
        )
    }

    /// True for `ui8`, `ui16`, `ui32` and `ui64`.
    pub fn is_unsigned(&self) -> bool {
        matches!(
            self,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 | DType::U4 | DType::U2
        )
    }

    /// The bit width of an integer dtype (1 for `i1`), `None` for floats.
    pub fn int_width(&self) -> Option<u32> {
        match self {
            DType::I1 => Some(1),
            DType::I2 | DType::U2 => Some(2),
            DType::I4 | DType::U4 => Some(4),
            DType::I8 | DType::U8 => Some(8),
            DType::I16 | DType::U16 => Some(16),
            DType::I32 | DType::U32 => Some(32),
            DType::I64 | DType::U64 => Some(64),
            _ => None,
        }
    }

    /// The smallest and largest value of an integer dtype, as `i128`.
    pub fn int_range(&self) -> Option<(i128, i128)> {
        let w = self.int_width()?;
        Some(match self {
            DType::I1 => (0, 1),
            d if d.is_unsigned() => (0, (1i128 << w) - 1),
            _ => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
        })
    }

    /// Bytes per element in the raw little-endian encoding (`i1` takes one).
    pub fn byte_size(&self) -> usize {
        match self {
            DType::I1 | DType::I8 | DType::U8 => 1,
            DType::F8E4M3FN
            | DType::F8E4M3FNUZ
            | DType::F8E5M2
            | DType::F8E5M2FNUZ
            | DType::F4E2M1
            | DType::I4
            | DType::U4
            | DType::I2
            | DType::U2
            | DType::F8E8M0 => 1,
            DType::F16 | DType::BF16 | DType::I16 | DType::U16 => 2,
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::F64 | DType::I64 | DType::U64 => 8,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
