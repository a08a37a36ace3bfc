//! The narrow dtypes (ONNX's 8- and 4-bit floats and 4- and 2-bit
//! integers), one element per byte: a float's bit pattern in the byte's
//! low bits, an integer's value (sign-extended for the signed ones).
//! Conversions round to nearest even, as `APFloat` and ONNX's reference do.

use strata_ir::float::{self, FloatKind};

use crate::kernels::KernelError;
use crate::tensor::{DType, TensorData};

/// The IR float kind of a narrow float dtype.
pub(crate) fn float_kind(d: DType) -> Option<FloatKind> {
    Some(match d {
        DType::F8E4M3FN => FloatKind::F8E4M3FN,
        DType::F8E4M3FNUZ => FloatKind::F8E4M3FNUZ,
        DType::F8E5M2 => FloatKind::F8E5M2,
        DType::F8E5M2FNUZ => FloatKind::F8E5M2FNUZ,
        DType::F4E2M1 => FloatKind::F4E2M1FN,
        DType::F8E8M0 => FloatKind::F8E8M0FNU,
        _ => return None,
    })
}

/// The largest finite value of a narrow float dtype.
fn max_finite(d: DType) -> f64 {
    match d {
        DType::F8E4M3FN => 448.0,
        DType::F8E4M3FNUZ => 240.0,
        DType::F8E5M2 | DType::F8E5M2FNUZ => 57344.0,
        DType::F4E2M1 => 6.0,
        DType::F8E8M0 => 2f64.powi(127),
        _ => f64::MAX,
    }
}

/// The value of element `b` of narrow dtype `d`.
pub(crate) fn decode(d: DType, b: u8) -> f64 {
    match float_kind(d) {
        Some(kind) => float::to_f64(kind, u128::from(b)),
        None if d.is_signed_int() => f64::from(b as i8),
        None => f64::from(b),
    }
}

/// The integer value of element `b` of narrow dtype `d` (floats truncate
/// toward zero; NaN is 0).
pub(crate) fn decode_int(d: DType, b: u8) -> i64 {
    match float_kind(d) {
        Some(_) => decode(d, b) as i64,
        None if d.is_signed_int() => i64::from(b as i8),
        None => i64::from(b),
    }
}

/// `v` as narrow dtype `d`: floats round to nearest even (out of range:
/// Inf where the type has it, else NaN; `f4E2M1` saturates), integers
/// truncate toward zero and wrap into their width (NaN is 0), as ONNX's
/// reference casts to `INT4`, `UINT2`, ...
pub(crate) fn encode(d: DType, v: f64) -> u8 {
    match float_kind(d) {
        Some(kind) => float::from_f64(kind, v) as u8,
        // `as` truncates toward zero, NaN to 0.
        None => encode_int(d, v as i64),
    }
}

/// `v` as narrow float dtype `d`, saturating: out-of-range values and
/// ±Inf become the largest finite value of their sign (ONNX's `Cast` with
/// `saturate`, its default); NaN stays NaN. Integers as [`encode`].
pub(crate) fn encode_saturating(d: DType, v: f64) -> u8 {
    if float_kind(d).is_some() && !v.is_nan() {
        let max = max_finite(d);
        return encode(d, v.clamp(-max, max));
    }
    encode(d, v)
}

/// How a cast to `f8E8M0FNU` rounds a value between two powers of two
/// (ONNX's `round_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundMode {
    /// To the larger (ONNX's default).
    Up,
    /// To the smaller.
    Down,
    /// To the nearer, ties to the even exponent.
    Nearest,
}

/// `v` as `f8E8M0FNU`, as ONNX's reference converts it: the exponent of
/// `v` as an f32 (its sign ignored), rounded by `mode` from the mantissa,
/// NaN and infinities to NaN (0xFF); with `saturate` a rounding does not
/// go past the largest exponent (0xFE).
pub(crate) fn encode_e8m0(v: f64, saturate: bool, mode: RoundMode) -> u8 {
    let bits = (v as f32).to_bits();
    let exponent = (bits >> 23) & 0xFF;
    if exponent == 0xFF {
        return 0xFF;
    }
    let up = match mode {
        RoundMode::Up => bits & 0x7F_FFFF != 0,
        RoundMode::Down => false,
        RoundMode::Nearest => {
            let guard = bits & 0x40_0000 != 0;
            let rest = bits & 0x3F_FFFF != 0;
            guard && (rest || exponent > 0)
        }
    };
    let up = up && !(saturate && exponent == 0xFE);
    (exponent + u32::from(up)) as u8
}

/// Integer `v` as narrow dtype `d`: integers keep their low bits (two's
/// complement wrapping), floats round to nearest.
pub(crate) fn encode_int(d: DType, v: i64) -> u8 {
    if float_kind(d).is_some() {
        return encode(d, v as f64);
    }
    let w = d.int_width().unwrap_or(8);
    let low = v & ((1i64 << w) - 1);
    let x = if d.is_signed_int() && low >> (w - 1) != 0 {
        low - (1i64 << w)
    } else {
        low
    };
    store_int(d, x)
}

/// Byte `b` of dtype `d` as stored: an integer's low bits sign- or
/// zero-extended, a 4-bit float's low bits.
pub(crate) fn normalize(d: DType, b: u8) -> u8 {
    match d {
        DType::F4E2M1 => b & 0x0F,
        d if float_kind(d).is_some() => b,
        d => encode_int(d, i64::from(b)),
    }
}

/// The bits of stored byte `b` of dtype `d` in its raw form (what the IR's
/// dense attributes and ONNX hold): an integer's low bits only.
pub(crate) fn bits(d: DType, b: u8) -> u8 {
    match d.int_width() {
        Some(w) if w < 8 => b & ((1u8 << w) - 1),
        _ => b,
    }
}

/// Whether `data`, if narrow, has a narrow dtype and bytes as stored
/// ([`normalize`]d).
pub(crate) fn check(data: &TensorData) -> Result<(), KernelError> {
    let TensorData::Narrow(d, v) = data else {
        return Ok(());
    };
    if !d.is_narrow() {
        return Err(KernelError::InvalidArgument {
            op: "tensor",
            detail: format!("{d} is not a narrow dtype"),
        });
    }
    match v.iter().find(|&&b| normalize(*d, b) != b) {
        Some(b) => Err(KernelError::InvalidArgument {
            op: "tensor",
            detail: format!("byte {b:#04x} is not a stored {d} element"),
        }),
        None => Ok(()),
    }
}

/// The byte of an in-range integer of dtype `d`.
fn store_int(d: DType, x: i64) -> u8 {
    if d.is_signed_int() {
        (x as i8) as u8
    } else {
        x as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_round_and_saturate_as_onnx() {
        // E4M3FN: 448 is the largest; beyond it NaN, or 448 saturating.
        assert_eq!(
            decode(DType::F8E4M3FN, encode(DType::F8E4M3FN, 448.0)),
            448.0
        );
        assert!(decode(DType::F8E4M3FN, encode(DType::F8E4M3FN, 1e6)).is_nan());
        let s = encode_saturating(DType::F8E4M3FN, -1e6);
        assert_eq!(decode(DType::F8E4M3FN, s), -448.0);
        // E5M2 has Inf.
        assert_eq!(
            decode(DType::F8E5M2, encode(DType::F8E5M2, 1e6)),
            f64::INFINITY
        );
        let s = encode_saturating(DType::F8E5M2, f64::INFINITY);
        assert_eq!(decode(DType::F8E5M2, s), 57344.0);
        // Ties to even: 2.5 and 3.5 in f4E2M1 (2, 3, 4 are neighbours).
        assert_eq!(decode(DType::F4E2M1, encode(DType::F4E2M1, 2.5)), 2.0);
        assert_eq!(decode(DType::F4E2M1, encode(DType::F4E2M1, 3.5)), 4.0);
        assert_eq!(decode(DType::F4E2M1, encode(DType::F4E2M1, 100.0)), 6.0);
    }

    #[test]
    fn integers_wrap_into_their_width() {
        assert_eq!(decode_int(DType::I4, encode(DType::I4, -9.7)), 7);
        assert_eq!(decode_int(DType::I4, encode(DType::I4, 8.0)), -8);
        assert_eq!(decode_int(DType::U4, encode(DType::U4, 15.9)), 15);
        assert_eq!(decode_int(DType::I2, encode_int(DType::I2, 2)), -2);
        assert_eq!(decode_int(DType::U2, encode_int(DType::U2, 5)), 1);
        assert_eq!(decode(DType::I4, encode_int(DType::I4, -1)), -1.0);
    }
}

#[cfg(test)]
mod e8m0_tests {
    use super::*;

    #[test]
    fn e8m0_rounds_as_the_reference() {
        // ONNX's test data: 0, 0.124, 0.25, 0.5, 1.1, 2, 4, 8 rounded up.
        let got: Vec<u8> = [0.0, 0.124, 0.25, 0.5, 1.1, 2.0, 4.0, 8.0]
            .iter()
            .map(|&v| encode_e8m0(v, true, RoundMode::Up))
            .collect();
        assert_eq!(got, [0, 124, 125, 126, 128, 128, 129, 130]);
        assert_eq!(encode_e8m0(1.1, true, RoundMode::Down), 127);
        assert_eq!(encode_e8m0(1.5, true, RoundMode::Nearest), 128);
        assert_eq!(encode_e8m0(f64::NAN, true, RoundMode::Up), 0xFF);
        assert_eq!(decode(DType::F8E8M0, 130), 8.0);
    }
}
