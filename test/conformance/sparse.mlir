// sparse<indices, values> elements attributes: indices are a [N, rank] (or,
// for 1-d types, [N]) list of i64, values N elements; splats of either.
"foo.sparse"() {
  a = sparse<[[0, 0], [1, 2]], [1, 5]> : tensor<3x4xi32>,
  b = sparse<> : tensor<2x2xf32>,
  c = sparse<[1, 2], 7.5> : tensor<4xf32>,
  d = sparse<[[0], [1]], [(1.0, 2.0), (3.0, 4.0)]> : tensor<4xcomplex<f32>>,
  e = sparse<0, true> : tensor<4xi1>,
  f = sparse<[[0, 0]], [1]> : vector<2x2xi8>,
  g = sparse<[[0, 1, 2]], [-3.5]> : tensor<1x2x3xf64>
} : () -> ()
