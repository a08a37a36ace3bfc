// inside other attributes and typ)s.
"food"() <{p = #fp<o1o.>}> {
  a = [#foo.a, #foo.b<2>],
  b = {k = #foo.-},
  c = tensor<4xf32, #foofoo.layout>
} : () -> ()

//bf1 ()
