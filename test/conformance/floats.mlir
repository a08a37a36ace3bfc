// Float attributes. The printer writes `%e` with 6 digits when that reads back
// exactly, else the shortest exact decimal when it has a '.', else the bit
// pattern in hex; NaN and infinity are always hex.

"foo.simple"() {
  untyped = 1.0,
  a = 1.5 : f32,
  b = -2.5 : f64,
  c = 0.0 : f32,
  d = -0.0 : f64,
  e = 1. : f32,
  f = 1.0e10 : f64,
  g = 1.5E-3 : f32,
  h = 2.5e+3 : f64,
  i = 1.0e+100 : f64,
  j = 1.0e-320 : f64,
  k = 0.1 : f32,
  l = 0.1 : f64,
  m = 100.0 : f32,
  n = 4.0 : f64,
  o = 0.001 : f64,
  p = 1.0e-4 : f64,
  q = 3.0e38 : f32
} : () -> ()

// Values that need more than 6 significant digits.
"foo.long"() {
  a = 1.23456789 : f64,
  b = 3.14159265358979 : f64,
  c = 0.3333333333333333 : f64,
  d = 2.718281828 : f32,
  e = 12345.678 : f32,
  f = 7.0e300 : f64,
  g = 0.0001 : f32
} : () -> ()
// (`0.1 : f80` is a known, deliberate difference: see test/IR/float-wide.mlir.)

// Integral values too long for `%e` print as hex.
"foo.hex_printed"() {
  a = 123456789.0 : f64,
  b = 12345678.0 : f64,
  c = 1234567.0 : f64,
  d = 1234567.0 : f32,
  e = 1048576.0 : f32,
  f = 16777217.0 : f32,
  g = 1000001.0 : f32,
  h = 123456789.0 : f80,
  i = 123456789.0 : f128,
  not_hex = 999999.0 : f32
} : () -> ()

// Hexadecimal bit patterns: NaN, infinities, denormals, ordinary values.
"foo.bits"() {
  nan32 = 0x7FC00000 : f32,
  ninf32 = 0xFF800000 : f32,
  inf32 = 0x7F800000 : f32,
  nan64 = 0x7FF8000000000000 : f64,
  inf64 = 0x7FF0000000000000 : f64,
  ninf64 = 0xFFF0000000000000 : f64,
  one64 = 0x3FF0000000000000 : f64,
  denorm64 = 0x0000000000000001 : f64,
  denorm32 = 0x7F : f32,
  f16 = 0x0001 : f16,
  nan_bf16 = 0x7FC0 : bf16,
  one_f80 = 0x3FFF8000000000000000 : f80,
  lower = 0x7fc00000 : f32
} : () -> ()

// Overflow and underflow while parsing decimals.
"foo.rounding"() {overflow = 1.0e39 : f32, underflow = 1.0e-50 : f32, denorm = 1.0e-45 : f32, min64 = 5.0E-324 : f64} : () -> ()

// Narrow formats.
"foo.narrow"() {
  f16 = 3.0 : f16,
  f16_max = 65504.0 : f16,
  f16_tenth = 0.1 : f16,
  bf16 = 3.0 : bf16,
  bf16_tenth = 0.1 : bf16,
  bf16_int = 123.0 : bf16,
  tf32 = 0.1 : tf32,
  f80 = 1.0 : f80,
  f128 = 1.0 : f128
} : () -> ()

"foo.small_floats"() {
  e5m2 = 1.0 : f8E5M2,
  e5m2_tenth = 0.1 : f8E5M2,
  e5m2_max = 57344.0 : f8E5M2,
  e5m2_inf = 0x7C : f8E5M2,
  e4m3 = 0.5 : f8E4M3,
  e4m3fn = 448.0 : f8E4M3FN,
  e4m3fn_nan = 0x7F : f8E4M3FN,
  e4m3fnuz_nan = 0x80 : f8E4M3FNUZ,
  e5m2fnuz = 2.0 : f8E5M2FNUZ,
  e4m3b11 = 1.0 : f8E4M3B11FNUZ,
  e3m4 = 1.25 : f8E3M4,
  e8m0 = 2.0 : f8E8M0FNU,
  e8m0_nan = 0xFF : f8E8M0FNU,
  e2m3 = 1.5 : f6E2M3FN,
  e3m2 = 0x3F : f6E3M2FN,
  e2m1 = 1.0 : f4E2M1FN,
  e2m1_bits = 0x1 : f4E2M1FN,
  e2m1_saturates = 100.0 : f4E2M1FN
} : () -> ()

// Inside arrays only f64 elides its type.
"foo.in_arrays"() {a = [1.0, 2.0 : f32, 0x7FF8000000000000 : f64, 0x7FC00000 : f32, -0.0, 1.5 : f16], b = [[0.5]]} : () -> ()

"foo.props"() <{scale = 0.125 : f32, eps = 1.0e-5 : f64, big = 123456789.0 : f64}> : () -> ()
