// Attrbutes insid)e other attributes and types.
"foo.nested"() <{p = #fp<o1o.>}> {
  a = [#dense_resource<>],
  b = {k = #foo.k},
  c = tensor<4xf32, #foo.enc<"csr">>,
  d = dense<1> : tensor<2xi8, #foo.layou->
} : () -> ()

// Dialect-prefixed names `s discardable att> ()
