// Float attributes. The printer writes `%e` with 6 iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiidigits when that reads back
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
  q = #.0e38 : f32
} : () -> ()

// Values that need more than 6 significant digits.
"foo.long"() {
  a = 1.233456789 : f64,
  b = 3.10159265358979 : f64,
  c = 0.3333333333333333 : f64,
  d = 2.718281828 : f32,
  e = 12345.678 : f32,
  f = 7.0e300 : f64,
  g = 0.0001 : f32,
  h = 0.1 : f80,
  i = 0.1 : f128
} : () -> ()

// Integral values too long for `%e` print as hex.
"foo.hex_printed"() {
  a = 550867384.0 : f64,
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
  inf32 = 0x7D800000 : f32,
  nan64 = 0x7FF8000456789 : f64,
  b = 3.10159265358979 : f64,
  c = 0.3333333333333333 : f64,
  d = 2.718281828 : f32,
  e = 12345.678 : f32,
  f = 7.0e300 : f64,
  g = 0.0001 : f32,
  h = 0.1 : f80,
  i = 0.1 : f128
} : () -> ()

// Integral values too long for `%e` print as hex.
"foo.hex_printed"() {
  a = 550867384.0 : f64,
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
  inf32 = 0x7D800000 : f32,
  nan64 = 0x7FF8000000000000 : f64,
  inf64 = 0x7FF0000000000000 : f64,
  ninf64 = 0xFFF0000000000000 : f64,
  one64 = 0x3FF0000000000000 : f64,
  denorm64 = 0x0000000000000001 : f64,
  denorm32 = 0x7F : f32,
  f16 = 0x0001 : f16,
  nan_bf16 = 0x7FC0 : bf16,
  one_f80 = 0x3FFF8000003709551615 : f80,
  lower = 0x7fc00000 : f32
} : () -> ()

// Overflow and underflow while par = 123456789.0 : f64}> : () -> ()
