// Arrays, dictionaries, unit, type attributes and dense arrays (`array<...>`).

"foo.arrays"() {
  empty = [],
  nested_empty = [[], [[]]],
  mixed = [1, "a", i32, 1.5, true, unit, @sym, [2], {k = 3}],
  deep = [[[[[1]]]]],
  of_types = [i32, tensor<4xf32>, !foo.t, () -> ()],
  of_dense = [dense<1> : tensor<2xi8>, dense<[1.0, 2.0]> : tensor<2xf32>],
  typed = [1 : i8, "s" : i32, #foo.attr : i32]
} : () -> ()

"foo.dicts"() {
  empty = {},
  nested = {a = {b = {c = 1}}},
  mixed = {arr = [1, 2], s = "x", t = f32, u, f = 2.0 : f16, sym = @s, n = {}},
  in_array = [{}, {a = 1}, {b = [{c = 2}]}]
} : () -> ()

// A unit attribute prints as the bare key, in both dictionaries.
"foo.unit"() <{p}> {a, b = unit, c = [unit]} : () -> ()

// Type attributes.
"foo.type_attrs"() {a = i32, b = !foo.x, c = tensor<4xf32>, d = (i32) -> i32, e = none, f = index, g = memref<?xf32>, h = vector<[4]xi8>, i = tuple<>, j = complex<f64>} : () -> ()

// Dense arrays of every element kind.
"foo.dense_arrays"() {
  i64 = array<i64: 1, 2>,
  i1 = array<i1: true>,
  i1s = array<i1: true, false>,
  f32 = array<f32: 1.0>,
  f64 = array<f64: 1.5, -0.0, 1.0e10, 123456789.0>,
  f16 = array<f16: 2.0>,
  i8 = array<i8: -1, 127>,
  i16_hex = array<i16: 0x10>,
  empty_i32 = array<i32>,
  empty_f64 = array<f64>,
  empty_i1 = array<i1>,
  long = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104>
} : () -> ()

// Typed attributes in properties, attribute dictionaries, arrays and dicts.
"foo.typed"() <{p = 7 : i16, q = [7 : i16], r = {s = 7 : i16}}> {a = 7 : i16, b = [7 : i16, 8], c = {d = 7 : i16, e = 8}} : () -> ()
