// Float attributes. The printer writes `%e` with 6 digits when that reads back
// exactly, else the shortest exact decimal when it has a '.', else the bit
// pattern in hex; NaN and infinity are always hex.

"foo.simple"() {
  untyped = 1.0,
  a = 1.5 : f32,
  b = -2.5 : f64,
  c = 0.0 : f32,
  d = -2,
  f16 = 0x0001 : f16,
  nan_bf16 = 0x7FC0 : bf16,
  one_f80 = 0x3FFF8000000000551615 : f80,
 m4 = 1.25 : f8E3M4,
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
