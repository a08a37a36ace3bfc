// Builtin types, written as type attributes, as operand/result types and as
// block argument types. Everything here is accepted by
// `mlir-opt --allow-unregistered-dialect`; see docs/testing.md.

// Integers: signless, signed, unsigned, zero width and very wide.
"foo.ints"() {
  signless = [i1, i8, i16, i32, i64, i128, i1024],
  signed = [si1, si8, si16, si32, si64],
  unsigned = [ui1, ui8, ui16, ui32, ui64],
  zero = [i0, si0, ui0],
  widest = i16777215
} : () -> ()

"foo.index_none"() {a = index, b = none} : () -> ()

// Every float type mlir-opt 22 knows.
"foo.floats"() {
  ieee = [f16, bf16, f32, f64, f80, f128, tf32],
  f8 = [f8E5M2, f8E4M3, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E3M4, f8E8M0FNU],
  f6 = [f6E2M3FN, f6E3M2FN],
  f4 = [f4E2M1FN]
} : () -> ()

// Complex, tuple and function types. `(i32, f32) -> (i64)` prints its single
// result without parentheses; a function-typed result keeps them.
"foo.composite"() {
  complex = [complex<f32>, complex<f16>, complex<f64>, complex<i32>, complex<bf16>],
  tuples = [tuple<>, tuple<i32>, tuple<i32, tuple<f32>>, tuple<tuple<>>, tuple<!foo.x, none, index>],
  fn0 = () -> (),
  fn1 = (i32, f32) -> (i64),
  fn2 = (i32) -> i64,
  fn3 = (i32) -> (i64, f32),
  fn4 = ((i32) -> i32) -> (),
  fn5 = () -> (() -> ()),
  fn6 = (none) -> none,
  fn7 = (i32) -> ((i32) -> i32),
  fn8 = () -> tuple<>,
  fn9 = (tuple<>) -> (),
  fn10 = (i32, i32) -> (i32, i32)
} : () -> ()

// Ranked, unranked and 0-d tensors; encodings of several attribute kinds.
"foo.tensors"() {
  ranked = [tensor<4x?xf32>, tensor<?x?x?xindex>, tensor<0xi8>, tensor<0x?xf32>, tensor<1x2x3x4x5x6x7x8xi1>],
  big = tensor<9223372036854775807xf32>,
  scalar = tensor<f32>,
  unranked = [tensor<*xf32>, tensor<*x!foo.t>],
  elements = [tensor<4xcomplex<f32>>, tensor<2x!foo.elem<1>>, tensor<4x!foo.t>, tensor<3xf8E4M3FN>],
  encodings = [tensor<4xf32, #foo.enc>, tensor<4xf32, "enc">, tensor<4xf32, 1 : i64>, tensor<?xf32, {dims = [1]}>, tensor<4x4xf32, #foo.enc<"csr", [0, 1]>>]
} : () -> ()

// Memrefs: layouts (strided, identity-equivalent, affine map), memory spaces
// (integer, typed integer, string, dictionary), unranked and 0-d.
"foo.memrefs"() {
  plain = [memref<4x?xf32>, memref<f32>, memref<0xf32>, memref<4xi1>, memref<4xindex>],
  elements = [memref<4xvector<4xf32>>, memref<4xcomplex<f32>>, memref<4xmemref<4xf32>>],
  strided = [memref<4x?xf32, strided<[?, 1], offset: ?>>, memref<4x4xf32, strided<[4, 1]>>, memref<4x4xf32, strided<[4, 1], offset: 0>>, memref<4xf32, strided<[?], offset: 4>>, memref<f32, strided<[]>>, memref<4x4xf32, strided<[1, 4]>>, memref<4xf32, strided<[-1]>>, memref<4xf32, strided<[0]>>],
  spaces = [memref<4xf32, 1>, memref<4xf32, 1 : i64>, memref<4xf32, 1 : i32>, memref<4xf32, "foo">, memref<4xf32, {a = 1}>, memref<4xf32, strided<[1]>, 3>, memref<?x?xf32, strided<[?, ?], offset: ?>, 7>],
  unranked = [memref<*xf32>, memref<*xf32, 2>, memref<*xf32, "gpu">],
  affine = [memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<4x?xf32, affine_map<(d0, d1) -> (d0 * 4 + d1)>, 1>]
} : () -> ()

// Fixed-length and scalable vectors.
"foo.vectors"() {
  a = [vector<4xf32>, vector<[4]xf32>, vector<2x[4]xf32>, vector<[4]x2xf32>, vector<[2]x[4]xf32>],
  b = [vector<f32>, vector<4x4xi1>, vector<1xindex>, vector<4xf8E4M3FN>, vector<4xf4E2M1FN>, vector<16xbf16>]
} : () -> ()

// Types of unregistered dialects: pretty (`!foo.bar<...>`) and opaque
// (`!foo<"...">`) forms. `!foo<bar>` is printed in the pretty form.
"foo.dialect_types"() {
  a = [!foo.bar, !foo.bar<"x", 1, [2]>, !foo<"abc">, !foo<bar>, !foo<bar<x>>],
  b = [!foo.bar<{a = 1}>, !foo.bar<(x)>, !foo.t<i32, tensor<4xf32>>, !foo.a.b, !foo<"a.b">],
  c = [!foo<a<b>c>, !foo<x y>, !foo.bar<"a\"b\41">, !foo.bar< x ,  y >, !bar.baz<<<>>>]
} : () -> ()

// The same types as SSA value types.
%0:6 = "foo.make"() : () -> (i1, si8, ui16, index, f16, bf16)
%1:5 = "foo.make"() : () -> (tensor<4x?xf32>, tensor<*xf32>, tensor<f32>, tensor<4xf32, #foo.enc>, memref<4x?xf32, strided<[?, 1], offset: ?>>)
%2:5 = "foo.make"() : () -> (memref<4xf32, 1>, memref<*xf32>, vector<[4]xf32>, vector<2x[4]xf32>, !foo.bar<"x", 1, [2]>)
%3:4 = "foo.make"() : () -> (complex<f32>, tuple<i32, tuple<f32>>, none, !foo<"opaque">)
"foo.consume"(%0#0, %0#5, %1#0, %1#4, %2#4, %3#3) : (i1, bf16, tensor<4x?xf32>, memref<4x?xf32, strided<[?, 1], offset: ?>>, !foo.bar<"x", 1, [2]>, !foo<"opaque">) -> ()
"foo.region"() ({
^bb0(%a: f8E4M3FN, %b: tensor<*xf32>, %c: memref<*xf32, 2>, %d: vector<[2]x[4]xf32>, %e: tuple<>, %f: !foo.t):
  %r = "foo.op"(%a, %b, %c, %d, %e, %f) : (f8E4M3FN, tensor<*xf32>, memref<*xf32, 2>, vector<[2]x[4]xf32>, tuple<>, !foo.t) -> f4E2M1FN
  "foo.yield"(%r) : (f4E2M1FN) -> ()
}) : () -> ()
