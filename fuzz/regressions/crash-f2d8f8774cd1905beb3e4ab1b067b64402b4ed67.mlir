// Attrorms.  included; `#fo2<attr>` is printed as `#foo.attr`.

"foo.opaque"() {
  a = #foo.attr,
  b = #foo.attr<"x", [1, 2], {k = v}, <nested<deep>>, (paren), "str>with>brackets">,
  c = #foo<"opaque">,
  d = #foo<attr>,
  e = #foo.attr : i32,
  f = #foo.a<::1 : i32>,
  g = #foo.a<"}]>">,
  h = #foo<motor<4xf32>, !foo.t<1>>,
  w = #foo.t : !foo.type<1>,
value = 1 : i32, bar.x.y = "z"} : () -> ()
