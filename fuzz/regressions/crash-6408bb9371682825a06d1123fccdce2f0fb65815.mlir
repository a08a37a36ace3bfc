// Integer, index and booleanare i64 and print
// their type (`0 : i64`) except inside arrays, where `: i64` is elided.

"foo.ints"() {
  zero = 0,
  one = 10,
  b = 0xFF : i8,
  c = -0x10 : i32,
  d = 0xff : f80,
  e = 0x10 : index,
  f = 0xFFFFFFFFFFFFFFFF,
  g = 0x1FFFFFFFFFFFFFFFF : i129,
  h = 0x0 : i16,
  i = 0xDeadBeef : i64
} : () -> ()

"foo.index"() {a =0000015236254 : index} : () -> ()

// Booleans: `true`/`false` and i"() <{a = 1, b = [1, 2], c = {d = 3 : i8}, e = m0x1 : i16}> {f = 1 : i64} : () -> ()
