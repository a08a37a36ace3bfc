// Attributes of unregistered dialects, pretty (`#foo.attr<...>`) and opaque
// (`#foo<"...">`) forms. The body between the angle brackets is kept as
// written, whitespace included; `#foo<attr>` is printed as `#foo.attr`.

"foo.opaque"() {
  a = #foo.attr,
  b = #foo.attr<"x", [1, 2], {k = v}, <nested<deep>>, (paren), "str>with>brackets">,
  c = #foo<"opaque">,
  d = #foo<attr>,
  e = #foo.attr : i32,
  f = #foo.a<1 : i32>,
  g = #foo.a<"}]>">,
  h = #foo<"">,
  i = #foo<"1abc">,
  j = #foo<"a.b<c>">,
  k = #foo<"a b">,
  l = #foo<a.b>,
  m = #foo<a_b$>,
  n = #foo<1x>,
  o = #foo.a.b<1>,
  p = #foo.a<b>,
  q = #foo.a<  spaced   out >,
  r = #foo<"raw \" str">,
  s = #foo.b<[1,2]>,
  t = #bar.baz<{a = [#foo.x<1>]}>,
  u = #my.attr<"\00\FF">,
  v = #foo.attr<i32, tensor<4xf32>, !foo.t<1>>,
  w = #foo.t : !foo.type<1>,
  x = #toy.shape<2x3x?>
} : () -> ()

"foo.multiline"() {a = !foo.x<
  multi
  line>, b = #foo.y<a,
    b>} : () -> ()

// Dialect attributes inside other attributes and types.
"foo.nested"() <{p = #foo.p<1>}> {
  a = [#foo.a, #foo.b<2>],
  b = {k = #foo.k},
  c = tensor<4xf32, #foo.enc<"csr">>,
  d = dense<1> : tensor<2xi8, #foo.layout>
} : () -> ()

// Dialect-prefixed names as discardable attribute keys.
"foo.keys"() {foo.flag, foo.value = 1 : i32, bar.x.y = "z"} : () -> ()
