// builtin.unrealized_conversion_cast in generic form.
%0 = "foo.d"() : () -> i32
%1 = "builtin.unrealized_conversion_cast"(%0) : (i32) -> f32
%2:2 = "builtin.unrealized_conversion_cast"(%0, %1) : (i32, f32) -> (i64, i8)
%3 = "builtin.unrealized_conversion_cast"() : () -> (i32)
%4 = "builtin.unrealized_conversion_cast"(%2#1) {foo.note = "kept"} : (i8) -> !foo.t
"foo.use"(%1, %2#0, %3, %4) : (f32, i64, i32, !foo.t) -> ()
"foo.r"() ({
^bb0(%a: tensor<4xf32>):
  %5 = "builtin.unrealized_conversion_cast"(%a) : (tensor<4xf32>) -> memref<4xf32>
  "foo.yield"(%5) : (memref<4xf32>) -> ()
}) : () -> ()
