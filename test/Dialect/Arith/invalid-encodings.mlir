// Tensor encodings in arith's type checks, with mlir-opt 22's messages
// (this file passes --verify-diagnostics with both tools): a comparison's
// i1 result keeps the operands' encoding, casts need equal encodings, and
// a select's tensor condition must be the result's shape of i1, encoding
// included.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @cmpi_encoding(%a: tensor<4xi32, "foo">) -> tensor<4xi1, "bar"> {
  // expected-error @+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %r = "arith.cmpi"(%a, %a) {predicate = 0} : (tensor<4xi32, "foo">, tensor<4xi32, "foo">) -> tensor<4xi1, "bar">
  return %r : tensor<4xi1, "bar">
}

// -----

func.func @extf_encoding(%a: tensor<2xf32, "foo">) {
  // expected-error @+1 {{'arith.extf' op operand type 'tensor<2xf32, "foo">' and result type 'tensor<2xf64, "bar">' are cast incompatible}}
  %0 = arith.extf %a : tensor<2xf32, "foo"> to tensor<2xf64, "bar">
  return
}

// -----

func.func @bitcast_encoding(%a: tensor<2xi32, "foo">) {
  // expected-error @+1 {{'arith.bitcast' op operand type 'tensor<2xi32, "foo">' and result type 'tensor<2xf32>' are cast incompatible}}
  %0 = arith.bitcast %a : tensor<2xi32, "foo"> to tensor<2xf32>
  return
}

// -----

func.func @select_encoding(%c: tensor<8xi1, "bar">, %x: tensor<8xi32, "foo">) -> tensor<8xi32, "foo"> {
  // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type, expected 'tensor<8xi1, "foo">', but got 'tensor<8xi1, "bar">'}}
  %0 = arith.select %c, %x, %x : tensor<8xi1, "bar">, tensor<8xi32, "foo">
  return %0 : tensor<8xi32, "foo">
}
