//! Bit-exact model of the LLVM `APFloat` behaviour that MLIR's textual format
//! depends on, for every MLIR builtin float type.
//!
//! * [`format_float`] reproduces `printFloatValue` from `mlir/lib/IR/AsmPrinter.cpp`
//!   (which is built on `APFloat::toString`), character for character.
//! * [`parse_decimal`] reproduces `APFloat::convertFromString` for decimal
//!   literals: correctly rounded, round-to-nearest-ties-to-even, directly into
//!   the target semantics.
//! * [`parse_mlir_float_literal`] reproduces what the MLIR *parser* does with a
//!   float literal: it rounds to `f64` first (`StringRef::getAsDouble`) and then
//!   converts to the attribute type, so it can double-round and it limits `f80`
//!   / `f128` literals to `f64` precision.
//! * [`to_f64`] / [`from_f64`] mirror `APFloat::convert` to/from IEEE double.
//!
//! Values are passed around as raw bit patterns (`u128`, low `bit_width` bits).
//! Internally a value is unpacked exactly like `IEEEFloat` (category, sign,
//! unbiased exponent, significand with the integer bit at `precision - 1`), so
//! the ported algorithms can follow APFloat step by step.

use std::fmt;

mod bignum;
use bignum::Big;

/// An MLIR builtin floating-point type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// IEEE 754 binary16.
    F16,
    /// bfloat16: binary32's exponent with an 8-bit significand.
    BF16,
    /// IEEE 754 binary32.
    F32,
    /// IEEE 754 binary64.
    F64,
    /// x87 80-bit extended precision (explicit integer bit).
    F80,
    /// IEEE 754 binary128.
    F128,
    /// NVIDIA TensorFloat-32 (19 bits: binary32 exponent, 11-bit significand).
    TF32,
    /// 8-bit, 5 exponent bits, 2 mantissa bits, IEEE-style Inf/NaN.
    F8E5M2,
    /// 8-bit, 4 exponent bits, 3 mantissa bits, IEEE-style Inf/NaN.
    F8E4M3,
    /// 8-bit E4M3, no Inf; NaN is `S.1111.111`.
    F8E4M3FN,
    /// 8-bit E5M2, no Inf, no -0; NaN is `0x80`; bias 16.
    F8E5M2FNUZ,
    /// 8-bit E4M3, no Inf, no -0; NaN is `0x80`; bias 8.
    F8E4M3FNUZ,
    /// 8-bit E4M3, no Inf, no -0; NaN is `0x80`; bias 11.
    F8E4M3B11FNUZ,
    /// 8-bit, 3 exponent bits, 4 mantissa bits, IEEE-style Inf/NaN.
    F8E3M4,
    /// 4-bit E2M1 (OCP MX), finite only.
    F4E2M1FN,
    /// 6-bit E2M3 (OCP MX), finite only.
    F6E2M3FN,
    /// 6-bit E3M2 (OCP MX), finite only.
    F6E3M2FN,
    /// 8-bit unsigned power of two 2^-127..2^127 (OCP MX scale); no zero; NaN is `0xFF`.
    F8E8M0FNU,
}

const ALL_KINDS: [FloatKind; 18] = [
    FloatKind::F16,
    FloatKind::BF16,
    FloatKind::F32,
    FloatKind::F64,
    FloatKind::F80,
    FloatKind::F128,
    FloatKind::TF32,
    FloatKind::F8E5M2,
    FloatKind::F8E4M3,
    FloatKind::F8E4M3FN,
    FloatKind::F8E5M2FNUZ,
    FloatKind::F8E4M3FNUZ,
    FloatKind::F8E4M3B11FNUZ,
    FloatKind::F8E3M4,
    FloatKind::F4E2M1FN,
    FloatKind::F6E2M3FN,
    FloatKind::F6E3M2FN,
    FloatKind::F8E8M0FNU,
];

impl FloatKind {
    /// The type's spelling in MLIR assembly, e.g. `"f16"` or `"f8E4M3FN"`.
    pub fn mlir_name(self) -> &'static str {
        use FloatKind::*;
        match self {
            F16 => "f16",
            BF16 => "bf16",
            F32 => "f32",
            F64 => "f64",
            F80 => "f80",
            F128 => "f128",
            TF32 => "tf32",
            F8E5M2 => "f8E5M2",
            F8E4M3 => "f8E4M3",
            F8E4M3FN => "f8E4M3FN",
            F8E5M2FNUZ => "f8E5M2FNUZ",
            F8E4M3FNUZ => "f8E4M3FNUZ",
            F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            F8E3M4 => "f8E3M4",
            F4E2M1FN => "f4E2M1FN",
            F6E2M3FN => "f6E2M3FN",
            F6E3M2FN => "f6E3M2FN",
            F8E8M0FNU => "f8E8M0FNU",
        }
    }

    /// Inverse of [`FloatKind::mlir_name`].
    pub fn from_mlir_name(s: &str) -> Option<Self> {
        ALL_KINDS.iter().copied().find(|k| k.mlir_name() == s)
    }

    /// Storage width in bits (`f80` -> 80, `tf32` -> 19).
    pub fn bit_width(self) -> u32 {
        self.sem().bits
    }

    /// Every builtin float kind, in declaration order.
    pub fn all() -> &'static [FloatKind] {
        &ALL_KINDS
    }

    fn sem(self) -> Sem {
        use FloatKind::*;
        use NanEnc::{AllOnes, NegZero};
        use NonFinite::{FiniteOnly, NanOnly};
        match self {
            F16 => Sem::ieee(15, -14, 11, 16),
            BF16 => Sem::ieee(127, -126, 8, 16),
            F32 => Sem::ieee(127, -126, 24, 32),
            F64 => Sem::ieee(1023, -1022, 53, 64),
            F80 => Sem::ieee(16383, -16382, 64, 80),
            F128 => Sem::ieee(16383, -16382, 113, 128),
            TF32 => Sem::ieee(127, -126, 11, 19),
            F8E5M2 => Sem::ieee(15, -14, 3, 8),
            F8E4M3 => Sem::ieee(7, -6, 4, 8),
            F8E3M4 => Sem::ieee(3, -2, 5, 8),
            F8E4M3FN => Sem::ieee(8, -6, 4, 8).non_finite(NanOnly, AllOnes),
            F8E5M2FNUZ => Sem::ieee(15, -15, 3, 8).non_finite(NanOnly, NegZero),
            F8E4M3FNUZ => Sem::ieee(7, -7, 4, 8).non_finite(NanOnly, NegZero),
            F8E4M3B11FNUZ => Sem::ieee(4, -10, 4, 8).non_finite(NanOnly, NegZero),
            F4E2M1FN => Sem::ieee(2, 0, 2, 4).non_finite(FiniteOnly, NanEnc::Ieee),
            F6E2M3FN => Sem::ieee(2, 0, 4, 6).non_finite(FiniteOnly, NanEnc::Ieee),
            F6E3M2FN => Sem::ieee(4, -2, 3, 6).non_finite(FiniteOnly, NanEnc::Ieee),
            F8E8M0FNU => Sem {
                has_zero: false,
                signed: false,
                ..Sem::ieee(127, -127, 1, 8).non_finite(NanOnly, AllOnes)
            },
        }
    }
}

impl fmt::Display for FloatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir_name())
    }
}

/// Why a float literal could not be converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatParseError {
    /// The input was empty.
    Empty,
    /// The input is not `[-+]?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?`.
    InvalidSyntax,
    /// A negative literal for a type without a sign (`f8E8M0FNU`).
    NegativeUnsigned,
    /// The value overflowed `f64` and the target type has neither Inf nor NaN
    /// (only [`parse_mlir_float_literal`]; MLIR would build an unencodable value).
    OutOfRange,
}

impl fmt::Display for FloatParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FloatParseError::Empty => "empty float literal",
            FloatParseError::InvalidSyntax => "invalid float literal",
            FloatParseError::NegativeUnsigned => "negative value for an unsigned float type",
            FloatParseError::OutOfRange => "float literal out of range for the type",
        })
    }
}

impl std::error::Error for FloatParseError {}

/// How Inf/NaN are represented (`fltNonfiniteBehavior`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum NonFinite {
    Ieee,
    NanOnly,
    FiniteOnly,
}

/// How NaN is encoded (`fltNanEncoding`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum NanEnc {
    Ieee,
    AllOnes,
    NegZero,
}

/// `fltSemantics`.
#[derive(Clone, Copy)]
struct Sem {
    max_exp: i32,
    min_exp: i32,
    prec: u32,
    bits: u32,
    non_finite: NonFinite,
    nan: NanEnc,
    has_zero: bool,
    signed: bool,
}

impl Sem {
    const fn ieee(max_exp: i32, min_exp: i32, prec: u32, bits: u32) -> Sem {
        Sem {
            max_exp,
            min_exp,
            prec,
            bits,
            non_finite: NonFinite::Ieee,
            nan: NanEnc::Ieee,
            has_zero: true,
            signed: true,
        }
    }

    const fn non_finite(self, non_finite: NonFinite, nan: NanEnc) -> Sem {
        Sem {
            non_finite,
            nan,
            ..self
        }
    }

    /// `exponentNaN()`: the unbiased exponent stored for NaN.
    fn exponent_nan(&self) -> i32 {
        if self.non_finite == NonFinite::NanOnly {
            if self.nan == NanEnc::NegZero {
                return self.min_exp - 1;
            }
            if self.signed {
                return self.max_exp;
            }
        }
        self.max_exp + 1
    }

    /// NaN is the all-ones pattern, so that pattern is an overflow in `normalize`.
    fn nan_is_all_ones(&self) -> bool {
        self.non_finite == NonFinite::NanOnly && self.nan == NanEnc::AllOnes
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cat {
    Zero,
    Normal,
    Inf,
    Nan,
}

/// An unpacked `IEEEFloat`: value = sig * 2^(exp - (prec - 1)) for `Normal`.
/// Zero/Inf keep `exp == 0 && sig == 0` so that `==` is `bitwiseIsEqual`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    cat: Cat,
    sign: bool,
    exp: i32,
    sig: u128,
}

impl Value {
    const fn new(cat: Cat, sign: bool, exp: i32, sig: u128) -> Value {
        Value {
            cat,
            sign,
            exp,
            sig,
        }
    }

    const fn special(cat: Cat, sign: bool) -> Value {
        Value::new(cat, sign, 0, 0)
    }
}

fn low_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// `makeZero`, or the smallest normal for types without a zero (`f8E8M0FNU`).
fn make_zero(s: &Sem, sign: bool) -> Value {
    if !s.has_zero {
        return Value::new(Cat::Normal, false, s.min_exp, 1 << (s.prec - 1));
    }
    Value::special(Cat::Zero, sign && s.nan != NanEnc::NegZero)
}

/// `makeNaN(/*SNaN=*/false, sign)`: a quiet NaN with APFloat's default payload.
fn make_nan(s: &Sem, sign: bool) -> Value {
    let (sign, sig) = match (s.non_finite, s.nan) {
        (NonFinite::NanOnly, NanEnc::NegZero) => (true, 0),
        (NonFinite::NanOnly, _) => (sign, low_mask(s.prec - 1).max(1)),
        _ if s.bits == 80 => (sign, 3 << 62), // x87: quiet bit plus explicit integer bit
        _ => (sign, 1 << (s.prec - 2)),
    };
    Value::new(Cat::Nan, sign, 0, sig)
}

/// `handleOverflow` for round-to-nearest: Inf, NaN, or the largest finite value.
fn overflow(s: &Sem, sign: bool) -> Value {
    match s.non_finite {
        NonFinite::Ieee => Value::special(Cat::Inf, sign),
        NonFinite::NanOnly => make_nan(s, sign),
        NonFinite::FiniteOnly => Value::new(Cat::Normal, sign, s.max_exp, low_mask(s.prec)),
    }
}

/// Decodes raw bits (`initFromAPInt`).
fn decode(kind: FloatKind, bits: u128) -> Value {
    let s = kind.sem();
    let bits = bits & low_mask(s.bits);
    match kind {
        FloatKind::F80 => decode_x87(bits),
        FloatKind::F8E8M0FNU if bits == 0xFF => make_nan(&s, false),
        FloatKind::F8E8M0FNU => Value::new(Cat::Normal, false, bits as i32 - 127, 1),
        _ => decode_ieee(&s, bits),
    }
}

fn decode_ieee(s: &Sem, bits: u128) -> Value {
    let mant_bits = s.prec - 1;
    let exp_bits = s.bits - 1 - mant_bits;
    let bias = 1 - s.min_exp;
    let sign = (bits >> (s.bits - 1)) & 1 == 1;
    let biased = ((bits >> mant_bits) & low_mask(exp_bits)) as i32;
    let mant = bits & low_mask(mant_bits);
    let is_zero = biased == 0 && mant == 0;
    if s.non_finite == NonFinite::Ieee && biased - bias == s.max_exp + 1 && mant == 0 {
        return Value::special(Cat::Inf, sign);
    }
    let is_nan = match s.nan {
        NanEnc::Ieee => biased - bias == s.exponent_nan() && mant != 0,
        NanEnc::AllOnes => biased - bias == s.exponent_nan() && mant == low_mask(mant_bits),
        NanEnc::NegZero => is_zero && sign,
    };
    if is_nan {
        // Keep the payload so that re-encoding reproduces the input bits.
        return Value::new(Cat::Nan, sign, 0, mant);
    }
    if is_zero {
        return make_zero(s, sign);
    }
    let (exp, sig) = if biased == 0 {
        (s.min_exp, mant)
    } else {
        (biased - bias, mant | (1 << mant_bits))
    };
    Value::new(Cat::Normal, sign, exp, sig)
}

/// `initFromF80LongDoubleAPInt`: the integer bit is explicit; unnormals and
/// pseudo-NaN/Inf are NaN, pseudo-denormals are ordinary finite values.
fn decode_x87(bits: u128) -> Value {
    let sig = bits & low_mask(64);
    let biased = ((bits >> 64) & 0x7fff) as i32;
    let sign = (bits >> 79) & 1 == 1;
    if biased == 0 && sig == 0 {
        return Value::special(Cat::Zero, sign);
    }
    if biased == 0x7fff && sig == 1 << 63 {
        return Value::special(Cat::Inf, sign);
    }
    if biased == 0x7fff || (biased != 0 && sig >> 63 == 0) {
        return Value::new(Cat::Nan, sign, 0, sig);
    }
    Value::new(
        Cat::Normal,
        sign,
        if biased == 0 { -16382 } else { biased - 16383 },
        sig,
    )
}

/// Encodes an unpacked value (`bitcastToAPInt`).
fn encode(kind: FloatKind, v: &Value) -> u128 {
    let s = kind.sem();
    let (bias, mant_bits) = match kind {
        FloatKind::F8E8M0FNU => (-s.min_exp, 0),
        FloatKind::F80 => (16383, 64), // the explicit integer bit is stored
        _ => (1 - s.min_exp, s.prec - 1),
    };
    let int_bit = if kind == FloatKind::F80 {
        1 << 63
    } else {
        1 << (s.prec - 1)
    };
    let (biased, mant) = match v.cat {
        Cat::Normal => {
            let mut biased = v.exp + bias;
            if biased == 1 && v.sig & int_bit == 0 {
                biased = 0; // denormal
            }
            (biased, v.sig)
        }
        Cat::Zero => (s.min_exp - 1 + bias, 0),
        Cat::Inf if kind == FloatKind::F80 => (0x7fff, 1 << 63),
        Cat::Inf => (s.max_exp + 1 + bias, 0),
        Cat::Nan => (s.exponent_nan() + bias, v.sig),
    };
    let exp_bits = s.bits - u32::from(s.signed) - mant_bits;
    (u128::from(v.sign) << (s.bits - 1))
        | ((biased as u128 & low_mask(exp_bits)) << mant_bits)
        | (mant & low_mask(mant_bits))
}

/// The part of a value lost by truncation, relative to half an ulp (`lostFraction`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lost {
    Zero,
    LessThanHalf,
    Half,
    MoreThanHalf,
}

/// `lostFractionThroughTruncation`: what dropping the low `bits` bits of `x` loses.
fn lost_through_truncation(x: &Big, bits: u64) -> Lost {
    let lsb = x.trailing_zeros();
    if bits <= lsb {
        Lost::Zero
    } else if bits == lsb + 1 {
        Lost::Half
    } else if x.bit(bits - 1) {
        Lost::MoreThanHalf
    } else {
        Lost::LessThanHalf
    }
}

/// `combineLostFractions`.
fn combine(more_significant: Lost, less_significant: Lost) -> Lost {
    match (more_significant, less_significant) {
        (m, Lost::Zero) => m,
        (Lost::Zero, _) => Lost::LessThanHalf,
        (Lost::Half, _) => Lost::MoreThanHalf,
        (m, _) => m,
    }
}

/// True if the low `prec - 1` bits are all ones (`isSignificandAllOnes`).
fn trailing_all_ones(s: &Sem, sig: &Big) -> bool {
    s.prec > 1 && sig.trailing_ones() >= u64::from(s.prec - 1)
}

/// `IEEEFloat::normalize` with round-to-nearest-ties-to-even, for a nonzero
/// significand `sig` of any width: value = (sig + lf) * 2^(exp - (prec - 1)).
fn normalize(s: &Sem, sign: bool, mut sig: Big, mut exp: i64, mut lf: Lost) -> Value {
    let prec = i64::from(s.prec);
    let (min, max) = (i64::from(s.min_exp), i64::from(s.max_exp));
    let finite = |exp: i64, sig: &Big| Value::new(Cat::Normal, sign, exp as i32, sig.low_u128());
    let mut omsb = sig.bit_len() as i64;
    if omsb != 0 || lf != Lost::Zero {
        let mut change = omsb - prec;
        if exp + change > max {
            return overflow(s, sign);
        }
        if exp + change < min {
            change = min - exp; // subnormal: the exponent is pinned at the minimum
        }
        if change < 0 {
            // Widening is exact; callers only get here with lf == Zero.
            sig.shl((-change) as u64);
            return finite(exp + change, &sig);
        }
        if change > 0 {
            let lost = lost_through_truncation(&sig, change as u64);
            sig.shr(change as u64);
            exp += change;
            lf = combine(lost, lf);
            omsb = (omsb - change).max(0);
        }
    }
    if s.nan_is_all_ones() && exp == max && trailing_all_ones(s, &sig) {
        return overflow(s, sign);
    }
    if lf == Lost::Zero {
        return if omsb == 0 {
            make_zero(s, sign)
        } else {
            finite(exp, &sig)
        };
    }
    if lf == Lost::MoreThanHalf || (lf == Lost::Half && sig.bit(0)) {
        if omsb == 0 {
            exp = min;
        }
        sig.mul_add_small(1, 1);
        omsb = sig.bit_len() as i64;
        if omsb == prec + 1 {
            if exp == max {
                return overflow(s, sign);
            }
            sig.shr(1);
            return finite(exp + 1, &sig);
        }
        if s.nan_is_all_ones() && exp == max && trailing_all_ones(s, &sig) {
            return overflow(s, sign);
        }
    }
    if omsb == 0 {
        make_zero(s, sign)
    } else {
        finite(exp, &sig)
    }
}

/// `IEEEFloat::convert` with round-to-nearest-ties-to-even. An Inf or NaN
/// result for a type without them is returned as is; callers decide.
fn convert(from: FloatKind, v: Value, to: FloatKind) -> Value {
    let (fs, ts) = (from.sem(), to.sem());
    match v.cat {
        Cat::Normal => {
            // Same significand, integer bit moved from fs.prec-1 to ts.prec-1.
            let exp = i64::from(v.exp) + i64::from(ts.prec) - i64::from(fs.prec);
            normalize(&ts, v.sign, Big::from_u128(v.sig), exp, Lost::Zero)
        }
        Cat::Zero => make_zero(&ts, v.sign),
        Cat::Inf if ts.non_finite == NonFinite::NanOnly => make_nan(&ts, v.sign),
        Cat::Inf => v,
        Cat::Nan if ts.non_finite != NonFinite::Ieee => make_nan(&ts, v.sign),
        Cat::Nan => {
            let signaling = fs.non_finite == NonFinite::Ieee && v.sig >> (fs.prec - 2) & 1 == 0;
            // x87 NaNs without both top bits set cannot be expressed elsewhere.
            let x86_special = from == FloatKind::F80 && to != FloatKind::F80 && v.sig >> 62 != 0b11;
            if fs.nan == NanEnc::NegZero {
                return make_nan(&ts, false); // otherwise the payload would read as -Inf
            }
            let mut sig = v.sig;
            if ts.prec < fs.prec && fs.non_finite != NonFinite::NanOnly {
                sig >>= fs.prec - ts.prec;
            } else if ts.prec > fs.prec {
                sig <<= ts.prec - fs.prec;
            }
            if to == FloatKind::F80 && !x86_special {
                sig |= 1 << 63;
            }
            if signaling {
                sig |= 1 << (ts.prec - 2); // makeQuiet
            }
            Value { sig, ..v }
        }
    }
}

/// Parses a decimal literal into `s` exactly as `IEEEFloat::convertFromString`.
fn parse_value(s: &Sem, text: &str) -> Result<Value, FloatParseError> {
    let b = text.as_bytes();
    let (neg, mut i) = match b.first() {
        None => return Err(FloatParseError::Empty),
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        Some(_) => (false, 0),
    };
    let digits_in = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let int_len = digits_in(i);
    if int_len == 0 {
        return Err(FloatParseError::InvalidSyntax);
    }
    let int_part = &b[i..i + int_len];
    i += int_len;
    let mut frac_part: &[u8] = &[];
    if b.get(i) == Some(&b'.') {
        let n = digits_in(i + 1);
        frac_part = &b[i + 1..i + 1 + n];
        i += 1 + n;
    }
    let mut exp10: i64 = 0;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let exp_neg = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let n = digits_in(i);
        if n == 0 {
            return Err(FloatParseError::InvalidSyntax);
        }
        for &c in &b[i..i + n] {
            // readExponent saturates at 24000, which is far outside every range.
            exp10 = (exp10 * 10 + i64::from(c - b'0')).min(24000);
        }
        i += n;
        if exp_neg {
            exp10 = -exp10;
        }
    }
    if i != b.len() {
        return Err(FloatParseError::InvalidSyntax);
    }
    if neg && !s.signed {
        return Err(FloatParseError::NegativeUnsigned);
    }
    let all = || int_part.iter().chain(frac_part);
    let Some(first) = all().position(|&c| c != b'0') else {
        return Ok(make_zero(s, neg));
    };
    let last =
        int_part.len() + frac_part.len() - 1 - all().rev().position(|&c| c != b'0').unwrap_or(0);
    // value = D * 10^exp where D is the integer formed by digits first..=last.
    let exp = exp10 + int_part.len() as i64 - 1 - last as i64;
    let norm_exp = exp + (last - first) as i64;

    // convertFromDecimalString's early outs, with its exact integer bounds.
    let (prec, min_exp, max_exp) = (
        i64::from(s.prec),
        i64::from(s.min_exp),
        i64::from(s.max_exp),
    );
    if norm_exp - 1 > i64::from(i32::MAX / 42039) || (norm_exp - 1) * 42039 >= 12655 * max_exp {
        return Ok(overflow(s, neg));
    }
    if norm_exp - 1 < i64::from(i32::MIN / 42039)
        || (norm_exp + 1) * 28738 <= 8651 * (min_exp - prec)
    {
        return Ok(make_zero(s, neg));
    }

    let mut d = Big::default();
    for chunk in all()
        .skip(first)
        .take(last - first + 1)
        .collect::<Vec<_>>()
        .chunks(9)
    {
        let val = chunk
            .iter()
            .fold(0u32, |acc, &&c| acc * 10 + u32::from(c - b'0'));
        d.mul_add_small(10u32.pow(chunk.len() as u32), val);
    }
    if exp >= 0 {
        d.mul_pow(5, exp as u64); // 10^e = 5^e * 2^e; the 2^e goes into the exponent
        return Ok(normalize(s, neg, d, prec - 1 + exp, Lost::Zero));
    }
    // Divide by 5^k with enough extra quotient bits (>= prec + 3) that the
    // remainder only matters as a sticky bit below the rounding position.
    let k = (-exp) as u64;
    let pow5_bits = k * 2322 / 1000 + 2; // upper bound on bit_len(5^k)
    let shift = (prec as u64 + 3 + pow5_bits).saturating_sub(d.bit_len());
    d.shl(shift);
    let inexact = d.div_pow(5, k);
    let lf = if inexact {
        Lost::LessThanHalf
    } else {
        Lost::Zero
    };
    Ok(normalize(s, neg, d, prec - 1 - shift as i64 - k as i64, lf))
}

/// `AdjustToPrecision` on the digit buffer (least significant digit first):
/// keep `precision` digits, rounding half up on the first dropped digit only.
fn adjust_digits(buf: &mut Vec<u8>, exp: &mut i64, precision: usize) {
    let n = buf.len();
    if n <= precision {
        return;
    }
    let mut first = n - precision;
    if buf[first - 1] < b'5' {
        while first < n && buf[first] == b'0' {
            first += 1;
        }
    } else {
        // Decimal add-with-carry: the 9s carried through become zeros, which
        // are dropped with the rest.
        first += buf[first..].iter().take_while(|&&d| d == b'9').count();
        if first == n {
            *exp += first as i64;
            buf.clear();
            buf.push(b'1');
            return;
        }
        buf[first] += 1;
    }
    *exp += first as i64;
    buf.drain(..first);
}

/// The integer `AdjustToPrecision` of `toStringImpl`: with N = n0 * 2^pow2 *
/// 5^pow5, drops `tens` = (bit_len(N) - bits_required) * 59 / 196 decimal
/// digits by truncation and returns (floor(N / 10^tens), tens). Dividing by
/// 10^tens is folded into the powers so huge `f80`/`f128` exponents never build
/// N itself; bit_len(N) comes from a log2 estimate unless that is too close to
/// call (or `exact` is set), in which case N's size is computed exactly.
fn truncated_digits(n0: u128, pow2: u64, pow5: u64, precision: u32, exact: bool) -> (Big, u64) {
    let bits_required = (u64::from(precision) * 196).div_ceil(59);
    let bits = if pow5 == 0 {
        u64::from(128 - n0.leading_zeros()) + pow2
    } else {
        // pow2 == 0 here; N is never a power of two, so log2(N) is not an integer.
        let log2 = (n0 as f64).log2() + pow5 as f64 * 5f64.log2();
        let frac = log2 - log2.floor();
        if !exact && frac > 1e-6 && frac < 1.0 - 1e-6 {
            log2.floor() as u64 + 1
        } else {
            let mut n = Big::from_u128(n0);
            n.mul_pow(5, pow5);
            n.bit_len()
        }
    };
    let tens = if bits > bits_required {
        (bits - bits_required) * 59 / 196
    } else {
        0
    };
    // floor(n0 * 2^(pow2 - tens) * 5^(pow5 - tens)): multiply first, then divide
    // (floor(floor(x / a) / b) == floor(x / (a * b)) keeps the truncation exact).
    let (p2, p5) = (pow2 as i64 - tens as i64, pow5 as i64 - tens as i64);
    let mut n = Big::from_u128(n0);
    n.mul_pow(5, p5.max(0) as u64);
    n.shl(p2.max(0) as u64);
    n.shr(p2.min(0).unsigned_abs());
    n.div_pow(5, p5.min(0).unsigned_abs());
    (n, tens)
}

/// `IEEEFloat::toString(Str, FormatPrecision, FormatMaxPadding, TruncateZero)`
/// for zero and finite values.
fn to_string(s: &Sem, v: &Value, precision: u32, max_padding: u32, truncate_zero: bool) -> String {
    let mut out = String::new();
    if v.sign {
        out.push('-');
    }
    if v.cat != Cat::Normal {
        if max_padding != 0 {
            out.push('0');
        } else if truncate_zero {
            out.push_str("0.0E+0");
        } else {
            out.push_str("0.0");
            out.extend(std::iter::repeat_n(
                '0',
                precision.saturating_sub(1) as usize,
            ));
            out.push_str("e+00");
        }
        return out;
    }
    // toStringImpl. Precision 0 means "enough to round-trip" (Steele & White).
    let precision = if precision == 0 {
        2 + s.prec * 59 / 196
    } else {
        precision
    };
    let tz = v.sig.trailing_zeros();
    let exp2 = i64::from(v.exp) - i64::from(s.prec - 1) + i64::from(tz);
    // N * 2^-e == N * 5^e * 10^-e, so a negative binary exponent becomes decimal.
    let (pow2, pow5) = if exp2 >= 0 {
        (exp2 as u64, 0)
    } else {
        (0, exp2.unsigned_abs())
    };
    let (mut n, tens) = truncated_digits(v.sig >> tz, pow2, pow5, precision, false);
    let mut exp = tens as i64 - pow5 as i64;
    let mut buf = Vec::new(); // least significant digit first
    while !n.is_zero() {
        let d = n.divrem_small(10) as u8;
        if buf.is_empty() && d == 0 {
            exp += 1;
        } else {
            buf.push(b'0' + d);
        }
    }
    adjust_digits(&mut buf, &mut exp, precision as usize);
    let nd = buf.len() as i64;
    let (prec, pad) = (i64::from(precision), i64::from(max_padding));
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp > pad || nd + exp > prec
    } else {
        let msd = exp + nd - 1;
        msd < 0 && -msd > pad
    };
    let digit = |i: i64| char::from(buf[(nd - 1 - i) as usize]); // i-th most significant
    if scientific {
        exp += nd - 1;
        out.push(digit(0));
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        }
        (1..nd).for_each(|i| out.push(digit(i)));
        if !truncate_zero && prec > nd - 1 {
            out.extend(std::iter::repeat_n('0', (prec - nd + 1) as usize));
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if exp >= 0 { '+' } else { '-' });
        let e = exp.unsigned_abs().to_string();
        if !truncate_zero && e.len() < 2 {
            out.push('0');
        }
        out.push_str(&e);
    } else if exp >= 0 {
        (0..nd).for_each(|i| out.push(digit(i)));
        out.extend(std::iter::repeat_n('0', exp as usize));
    } else {
        let whole = exp + nd;
        if whole > 0 {
            (0..whole).for_each(|i| out.push(digit(i)));
            out.push('.');
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-whole) as usize));
        }
        (whole.max(0)..nd).for_each(|i| out.push(digit(i)));
    }
    out
}

/// The text `mlir-opt` prints for a float attribute of type `kind` with these
/// raw bits (MLIR's `printFloatValue`); only the low `bit_width` bits are used.
pub fn format_float(kind: FloatKind, bits: u128) -> String {
    let s = kind.sem();
    let v = decode(kind, bits);
    if matches!(v.cat, Cat::Zero | Cat::Normal) {
        // Short scientific form if it reads back bit-identically...
        let text = to_string(&s, &v, 6, 0, false);
        if parse_value(&s, &text) == Ok(v) {
            return text;
        }
        // ...else the shortest round-tripping form, if it still lexes as a float.
        let text = to_string(&s, &v, 0, 3, true);
        if text.contains('.') {
            return text;
        }
    }
    // Inf, NaN and integral-looking values: the canonical bits as a hex literal.
    format!("0x{:X}", encode(kind, &v))
}

/// Parses a decimal literal (`[-+]?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?`) into
/// raw bits, correctly rounded like `APFloat::convertFromString`.
///
/// Out-of-range values behave as in APFloat: overflow gives ±Inf, or NaN for
/// the NaN-only `f8*FN`/`FNUZ`/`f8E8M0FNU` types, or ±largest finite for the
/// `f4`/`f6` types without Inf/NaN; underflow gives ±0 (+0 for `FNUZ` types,
/// whose -0 encoding is NaN) and the smallest value 2^-127 for `f8E8M0FNU`.
/// A `-` for `f8E8M0FNU` is [`FloatParseError::NegativeUnsigned`] (APFloat asserts).
pub fn parse_decimal(kind: FloatKind, text: &str) -> Result<u128, FloatParseError> {
    parse_value(&kind.sem(), text).map(|v| encode(kind, &v))
}

/// Parses a float literal the way the MLIR parser does: round to `f64` first,
/// then convert to `kind` (so `f80`/`f128` get only `f64` precision and narrow
/// types can double-round). Errors as [`parse_decimal`], plus
/// [`FloatParseError::OutOfRange`] when the literal overflows `f64` and `kind`
/// has no Inf or NaN (`mlir-opt` then prints `0x0`); `mlir-opt` accepts and keeps
/// a sign for negative `f8E8M0FNU` literals, which raw bits cannot express.
pub fn parse_mlir_float_literal(kind: FloatKind, text: &str) -> Result<u128, FloatParseError> {
    if text.starts_with('-') && !kind.sem().signed {
        return Err(FloatParseError::NegativeUnsigned);
    }
    let v = convert(
        FloatKind::F64,
        parse_value(&FloatKind::F64.sem(), text)?,
        kind,
    );
    if v.cat == Cat::Inf && kind.sem().non_finite == NonFinite::FiniteOnly {
        return Err(FloatParseError::OutOfRange);
    }
    Ok(encode(kind, &v))
}

/// The value as an `f64`: exact when representable, else round-to-nearest-even
/// (`f80`/`f128`); NaN payloads follow `APFloat::convert` but always stay NaN
/// (and `f64` bits pass through unchanged, signaling NaNs included).
pub fn to_f64(kind: FloatKind, bits: u128) -> f64 {
    if kind == FloatKind::F64 {
        return f64::from_bits(bits as u64);
    }
    let v = convert(kind, decode(kind, bits), FloatKind::F64);
    let r = f64::from_bits(encode(FloatKind::F64, &v) as u64);
    if v.cat == Cat::Nan && !r.is_nan() {
        f64::NAN // f8E8M0FNU's NaN payload would otherwise encode as Inf
    } else {
        r
    }
}

/// Rounds an `f64` to `kind` (round-to-nearest-even, as `APFloat::convert`).
/// Where the type lacks what `v` needs: NaN/Inf become NaN in NaN-only types,
/// ±Inf saturates and NaN becomes +0 in `f4`/`f6` types, -0 becomes +0 in `FNUZ`
/// types, and `f8E8M0FNU` maps zero to 2^-127 and negative values to NaN.
/// For `f64` itself the bits pass through unchanged.
pub fn from_f64(kind: FloatKind, v: f64) -> u128 {
    if kind == FloatKind::F64 {
        return u128::from(v.to_bits());
    }
    let s = kind.sem();
    let src = decode(FloatKind::F64, u128::from(v.to_bits()));
    if !s.signed && src.sign && src.cat != Cat::Zero {
        return encode(kind, &make_nan(&s, false));
    }
    let r = convert(FloatKind::F64, src, kind);
    match r.cat {
        Cat::Inf if s.non_finite == NonFinite::FiniteOnly => encode(kind, &overflow(&s, r.sign)),
        Cat::Nan if s.non_finite == NonFinite::FiniteOnly => 0,
        _ => encode(kind, &r),
    }
}

/// True if the bits encode a NaN.
pub fn is_nan(kind: FloatKind, bits: u128) -> bool {
    decode(kind, bits).cat == Cat::Nan
}

/// True if the bits encode ±Inf.
pub fn is_inf(kind: FloatKind, bits: u128) -> bool {
    decode(kind, bits).cat == Cat::Inf
}

/// True if the bits encode ±0 (never for `f8E8M0FNU`).
pub fn is_zero(kind: FloatKind, bits: u128) -> bool {
    decode(kind, bits).cat == Cat::Zero
}

/// True if the bits encode a normal value (`APFloat::isNormal`: finite,
/// nonzero and not subnormal).
pub fn is_normal(kind: FloatKind, bits: u128) -> bool {
    let s = kind.sem();
    let v = decode(kind, bits);
    let integer_bit = (v.sig >> (s.prec - 1)) & 1 == 1;
    v.cat == Cat::Normal && (v.exp != s.min_exp || integer_bit)
}

/// True if the sign is set (`APFloat::isNegative`, so also for negative NaNs).
pub fn is_negative(kind: FloatKind, bits: u128) -> bool {
    decode(kind, bits).sign
}

#[cfg(test)]
mod tests;
