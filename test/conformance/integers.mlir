// Integer, index and boolean attributes. Untyped integers are i64 and print
// their type (`0 : i64`) except inside arrays, where `: i64` is elided.

"foo.ints"() {
  zero = 0,
  one = 1,
  minus_one = -1,
  i64_max = 9223372036854775807,
  i64_min = -9223372036854775808,
  // 2^63 without a type wraps to i64 min.
  wraps = 9223372036854775808,
  // Unsigned max as i64 is -1.
  u64_max = 18446744073709551615 : i64,
  i8_min = -128 : i8,
  i8_max = 127 : i8,
  i8_wrap = 255 : i8,
  i16 = -12345 : i16,
  i32 = 2147483647 : i32,
  i128 = 123456789012345678901234567890 : i128,
  i128_neg = -170141183460469231731687303715884105728 : i128,
  wide = 1 : i1024,
  i0 = 0 : i0,
  i3 = 3 : i3
} : () -> ()

"foo.signedness"() {
  s8 = 7 : si8,
  s8_neg = -7 : si8,
  s8_min = -128 : si8,
  u8 = 7 : ui8,
  u8_max = 255 : ui8,
  u64_max = 18446744073709551615 : ui64,
  s64_min = -9223372036854775808 : si64,
  s1 = -1 : si1,
  u1 = 1 : ui1
} : () -> ()

// Hexadecimal integer literals print in decimal.
"foo.hex"() {
  a = 0x10,
  b = 0xFF : i8,
  c = -0x10 : i32,
  d = 0xff : ui8,
  e = 0x10 : index,
  f = 0xFFFFFFFFFFFFFFFF,
  g = 0x1FFFFFFFFFFFFFFFF : i128,
  h = 0x0 : i16,
  i = 0xDeadBeef : i64
} : () -> ()

"foo.index"() {a = 5 : index, b = -1 : index, c = 0 : index, d = 9223372036854775807 : index} : () -> ()

// Booleans: `true`/`false` and i1 integers all print as true/false.
"foo.bools"() {t = true, f = false, one = 1 : i1, zero = 0 : i1, neg = -1 : i1, hex = 0x1 : i1} : () -> ()

// Inside arrays only i64 elides its type.
"foo.in_arrays"() {
  a = [0, -1, 9223372036854775807, 1 : i32, 2 : i8, 3 : index, 4 : si8, 5 : ui8, true, 0 : i1],
  b = [[1], [[2 : i16]]],
  c = {inner = [1, 2], v = 1}
} : () -> ()

// Integers as properties and as values of a nested dictionary.
"foo.props"() <{a = 1, b = [1, 2], c = {d = 3 : i8}, e = -0x1 : i16}> {f = 1 : i64} : () -> ()
