// Properties (`<{...}>`) next to discardable attributes (`{...}`). For
// unregistered ops the properties are any attribute, printed as written
// (dictionaries sorted); an empty `{}` attribute dictionary is dropped, empty
// properties `<{}>` are kept.

"foo.p"() <{}> : () -> ()
"foo.p"() <{}> {} : () -> ()
"foo.p"() {} : () -> ()
"foo.p"() <{a = 1}> : () -> ()
"foo.p"() <{z = 1, a = 2, m = 3}> : () -> ()
"foo.p"() <{a = 1}> {a = 2} : () -> ()
"foo.p"() <{flag}> {flag} : () -> ()

// Non-dictionary properties.
"foo.p"() <1 : i32> : () -> ()
"foo.p"() <"str"> : () -> ()
"foo.p"() <[1, 2]> {a = 1} : () -> ()
"foo.p"() <#foo.x> : () -> ()
"foo.p"() <i32> : () -> ()
"foo.p"() <dense<1> : tensor<2xi8>> : () -> ()
"foo.p"() <array<i64: 1, 2>> : () -> ()
"foo.p"() <@sym> : () -> ()
"foo.p"() <unit> : () -> ()
"foo.p"() <1.5> : () -> ()

// Properties with everything else.
%0 = "foo.def"() : () -> i32
%1 = "foo.p"(%0) <{a = 1}> ({
  "foo.q"() : () -> ()
}) {b = 2} : (i32) -> i64
"foo.r"() ({
^bb0(%x: i1):
  "foo.br"(%x)[^bb1] <{weights = array<i32: 3, 1>}> {foo.hint = "likely"} : (i1) -> ()
^bb1:
  "foo.ret"() : () -> ()
}) : () -> ()

// Larger property dictionaries of mixed kinds.
"foo.conv"() <{
  dilations = array<i64: 1, 1>,
  strides = array<i64: 2, 2>,
  padding = [[0, 1], [0, 1]],
  layout = "NHWC",
  groups = 1 : i32,
  alpha = 1.0e-3 : f32,
  acc_type = f32,
  bias = dense<0.0> : tensor<16xf32>,
  callee = @kernels::@conv2d,
  options = {fast_math, unroll = 4 : i8},
  tag = #foo.tag<"x">
}> {foo.origin = "onnx.Conv", foo.id = 17 : i64} : () -> ()
