// REQUIRES: strata-opt
// Round trip of the graph dialect's custom assembly, for every op but
// graph.custom (no custom op is registered in strata-opt; its syntax is covered
// by invalid.mlir): in the pretty form, after a second pass, and after going
// through the generic form. Result types are the inferred ones (the verifier
// checks them), with symbolic dimensions in #graph.dims encodings.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace

// CHECK: module {
module {
  // Constants: the result has the type of the value (dense, splat, i1, 0-d).
  // CHECK-LABEL: func.func @constant(
  // CHECK-SAME: ) -> (tensor<2x2xf32>, tensor<3xi64>, tensor<4xi1>, tensor<f32>) {
  // CHECK-NEXT: %0 = graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
  // CHECK-NEXT: %1 = graph.constant dense<[0, -1, 16]> : tensor<3xi64>
  // CHECK-NEXT: %2 = graph.constant dense<true> : tensor<4xi1>
  // CHECK-NEXT: %3 = graph.constant dense<5.000000e-01> : tensor<f32>
  // CHECK-NEXT: return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<3xi64>, tensor<4xi1>, tensor<f32>
  // CHECK-NEXT: }
  func.func @constant() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<4xi1>, tensor<f32>) {
    %0 = graph.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
    %1 = graph.constant dense<[0, -1, 16]> : tensor<3xi64>
    %2 = graph.constant dense<true> : tensor<4xi1>
    %3 = graph.constant dense<5.000000e-01> : tensor<f32>
    return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<3xi64>, tensor<4xi1>, tensor<f32>
  }

  // Arithmetic with multidirectional broadcasting: a static dimension broadcasts
  // against a symbolic one (`batch`), and the symbol is kept.
  // CHECK-LABEL: func.func @arith(
  // CHECK-SAME: %arg0: tensor<?x16xf32, #graph.dims<batch>>, %arg1: tensor<16xf32>, %arg2: tensor<?x1xf32, #graph.dims<batch>>, %arg3: tensor<4x1xi32>, %arg4: tensor<3xi32>) -> (tensor<?x16xf32, #graph.dims<batch>>, tensor<4x3xi32>) {
  // CHECK-NEXT: %0 = graph.add %arg0, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.sub %0, %arg2 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x1xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.mul %arg1, %1 : (tensor<16xf32>, tensor<?x16xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %3 = graph.div %2, %arg2 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x1xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %4 = graph.pow %3, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %5 = graph.max %4, %0 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %6 = graph.min %5, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %7 = graph.mod %6, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %8 = graph.mod %arg3, %arg4 : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  // CHECK-NEXT: return %7, %8 : tensor<?x16xf32, #graph.dims<batch>>, tensor<4x3xi32>
  // CHECK-NEXT: }
  func.func @arith(%arg0: tensor<?x16xf32, #graph.dims<batch>>, %arg1: tensor<16xf32>, %arg2: tensor<?x1xf32, #graph.dims<batch>>, %arg3: tensor<4x1xi32>, %arg4: tensor<3xi32>) -> (tensor<?x16xf32, #graph.dims<batch>>, tensor<4x3xi32>) {
    %0 = graph.add %arg0, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
    %1 = graph.sub %0, %arg2 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x1xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
    %2 = graph.mul %arg1, %1 : (tensor<16xf32>, tensor<?x16xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
    %3 = graph.div %2, %arg2 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x1xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
    %4 = graph.pow %3, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
    %5 = graph.max %4, %0 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xf32, #graph.dims<batch>>) -> tensor<?x16xf32, #graph.dims<batch>>
    %6 = graph.min %5, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
    %7 = graph.mod %6, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<16xf32>) -> tensor<?x16xf32, #graph.dims<batch>>
    %8 = graph.mod %arg3, %arg4 : (tensor<4x1xi32>, tensor<3xi32>) -> tensor<4x3xi32>
    return %7, %8 : tensor<?x16xf32, #graph.dims<batch>>, tensor<4x3xi32>
  }

  // Logical ops on i1 tensors.
  // CHECK-LABEL: func.func @logical(
  // CHECK-SAME: %arg0: tensor<?x8xi1, #graph.dims<n>>, %arg1: tensor<8xi1>) -> tensor<?x8xi1, #graph.dims<n>> {
  // CHECK-NEXT: %0 = graph.and %arg0, %arg1 : (tensor<?x8xi1, #graph.dims<n>>, tensor<8xi1>) -> tensor<?x8xi1, #graph.dims<n>>
  // CHECK-NEXT: %1 = graph.or %0, %arg0 : (tensor<?x8xi1, #graph.dims<n>>, tensor<?x8xi1, #graph.dims<n>>) -> tensor<?x8xi1, #graph.dims<n>>
  // CHECK-NEXT: %2 = graph.xor %1, %arg1 : (tensor<?x8xi1, #graph.dims<n>>, tensor<8xi1>) -> tensor<?x8xi1, #graph.dims<n>>
  // CHECK-NEXT: %3 = graph.not %2 : (tensor<?x8xi1, #graph.dims<n>>) -> tensor<?x8xi1, #graph.dims<n>>
  // CHECK-NEXT: return %3 : tensor<?x8xi1, #graph.dims<n>>
  // CHECK-NEXT: }
  func.func @logical(%arg0: tensor<?x8xi1, #graph.dims<n>>, %arg1: tensor<8xi1>) -> tensor<?x8xi1, #graph.dims<n>> {
    %0 = graph.and %arg0, %arg1 : (tensor<?x8xi1, #graph.dims<n>>, tensor<8xi1>) -> tensor<?x8xi1, #graph.dims<n>>
    %1 = graph.or %0, %arg0 : (tensor<?x8xi1, #graph.dims<n>>, tensor<?x8xi1, #graph.dims<n>>) -> tensor<?x8xi1, #graph.dims<n>>
    %2 = graph.xor %1, %arg1 : (tensor<?x8xi1, #graph.dims<n>>, tensor<8xi1>) -> tensor<?x8xi1, #graph.dims<n>>
    %3 = graph.not %2 : (tensor<?x8xi1, #graph.dims<n>>) -> tensor<?x8xi1, #graph.dims<n>>
    return %3 : tensor<?x8xi1, #graph.dims<n>>
  }

  // Comparisons: the result is i1, with the broadcast shape.
  // CHECK-LABEL: func.func @compare(
  // CHECK-SAME: %arg0: tensor<2x?xf32, #graph.dims<seq>>, %arg1: tensor<1xf32>, %arg2: tensor<2x3xi64>, %arg3: tensor<3xi64>) -> (tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x3xi1>) {
  // CHECK-NEXT: %0 = graph.equal %arg0, %arg1 : (tensor<2x?xf32, #graph.dims<seq>>, tensor<1xf32>) -> tensor<2x?xi1, #graph.dims<seq>>
  // CHECK-NEXT: %1 = graph.less %arg0, %arg1 : (tensor<2x?xf32, #graph.dims<seq>>, tensor<1xf32>) -> tensor<2x?xi1, #graph.dims<seq>>
  // CHECK-NEXT: %2 = graph.less_equal %arg1, %arg0 : (tensor<1xf32>, tensor<2x?xf32, #graph.dims<seq>>) -> tensor<2x?xi1, #graph.dims<seq>>
  // CHECK-NEXT: %3 = graph.greater %arg0, %arg0 : (tensor<2x?xf32, #graph.dims<seq>>, tensor<2x?xf32, #graph.dims<seq>>) -> tensor<2x?xi1, #graph.dims<seq>>
  // CHECK-NEXT: %4 = graph.greater_equal %arg2, %arg3 : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi1>
  // CHECK-NEXT: return %0, %1, %2, %3, %4 : tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x3xi1>
  // CHECK-NEXT: }
  func.func @compare(%arg0: tensor<2x?xf32, #graph.dims<seq>>, %arg1: tensor<1xf32>, %arg2: tensor<2x3xi64>, %arg3: tensor<3xi64>) -> (tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x3xi1>) {
    %0 = graph.equal %arg0, %arg1 : (tensor<2x?xf32, #graph.dims<seq>>, tensor<1xf32>) -> tensor<2x?xi1, #graph.dims<seq>>
    %1 = graph.less %arg0, %arg1 : (tensor<2x?xf32, #graph.dims<seq>>, tensor<1xf32>) -> tensor<2x?xi1, #graph.dims<seq>>
    %2 = graph.less_equal %arg1, %arg0 : (tensor<1xf32>, tensor<2x?xf32, #graph.dims<seq>>) -> tensor<2x?xi1, #graph.dims<seq>>
    %3 = graph.greater %arg0, %arg0 : (tensor<2x?xf32, #graph.dims<seq>>, tensor<2x?xf32, #graph.dims<seq>>) -> tensor<2x?xi1, #graph.dims<seq>>
    %4 = graph.greater_equal %arg2, %arg3 : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi1>
    return %0, %1, %2, %3, %4 : tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x?xi1, #graph.dims<seq>>, tensor<2x3xi1>
  }

  // Elementwise unary ops keep the shape and the symbolic dimensions; neg, abs,
  // sign and relu also take integers.
  // CHECK-LABEL: func.func @unary(
  // CHECK-SAME: %arg0: tensor<?x?xf32, #graph.dims<batch, seq>>, %arg1: tensor<4xi32>) -> (tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<4xi32>) {
  // CHECK-NEXT: %0 = graph.neg %arg0 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %1 = graph.abs %0 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %2 = graph.sign %1 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %3 = graph.sqrt %2 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %4 = graph.rsqrt %3 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %5 = graph.reciprocal %4 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %6 = graph.exp %5 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %7 = graph.log %6 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %8 = graph.erf %7 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %9 = graph.tanh %8 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %10 = graph.sin %9 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %11 = graph.cos %10 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %12 = graph.floor %11 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %13 = graph.ceil %12 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %14 = graph.sigmoid %13 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %15 = graph.relu %14 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %16 = graph.silu %15 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %17 = graph.softplus %16 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %18 = graph.identity %17 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %19 = graph.neg %arg1 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: %20 = graph.abs %19 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: %21 = graph.sign %20 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: %22 = graph.relu %21 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: return %18, %22 : tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<4xi32>
  // CHECK-NEXT: }
  func.func @unary(%arg0: tensor<?x?xf32, #graph.dims<batch, seq>>, %arg1: tensor<4xi32>) -> (tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<4xi32>) {
    %0 = graph.neg %arg0 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %1 = graph.abs %0 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %2 = graph.sign %1 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %3 = graph.sqrt %2 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %4 = graph.rsqrt %3 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %5 = graph.reciprocal %4 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %6 = graph.exp %5 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %7 = graph.log %6 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %8 = graph.erf %7 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %9 = graph.tanh %8 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %10 = graph.sin %9 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %11 = graph.cos %10 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %12 = graph.floor %11 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %13 = graph.ceil %12 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %14 = graph.sigmoid %13 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %15 = graph.relu %14 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %16 = graph.silu %15 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %17 = graph.softplus %16 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %18 = graph.identity %17 : (tensor<?x?xf32, #graph.dims<batch, seq>>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %19 = graph.neg %arg1 : (tensor<4xi32>) -> tensor<4xi32>
    %20 = graph.abs %19 : (tensor<4xi32>) -> tensor<4xi32>
    %21 = graph.sign %20 : (tensor<4xi32>) -> tensor<4xi32>
    %22 = graph.relu %21 : (tensor<4xi32>) -> tensor<4xi32>
    return %18, %22 : tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<4xi32>
  }

  // Activations with attributes: defaults are elided (gelu's `none`, leaky_relu's
  // 0.01, elu's 1.0, hard_sigmoid's 0.2 and 0.5); other values are printed, and
  // an explicit default (hard_sigmoid's beta) is elided.
  // CHECK-LABEL: func.func @activations(
  // CHECK-SAME: %arg0: tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>> {
  // CHECK-NEXT: %0 = graph.gelu %arg0 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %1 = graph.gelu %0 {approximate = "tanh"} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %2 = graph.leaky_relu %1 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %3 = graph.leaky_relu %2 {alpha = 2.000000e-01 : f64} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %4 = graph.elu %3 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %5 = graph.elu %4 {alpha = 5.000000e-01 : f64} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %6 = graph.hard_sigmoid %5 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: %7 = graph.hard_sigmoid %6 {alpha = 0.16666666666666666 : f64} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: return %7 : tensor<?x768xf16, #graph.dims<tokens>>
  // CHECK-NEXT: }
  func.func @activations(%arg0: tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>> {
    %0 = graph.gelu %arg0 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %1 = graph.gelu %0 {approximate = "tanh"} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %2 = graph.leaky_relu %1 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %3 = graph.leaky_relu %2 {alpha = 2.000000e-01 : f64} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %4 = graph.elu %3 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %5 = graph.elu %4 {alpha = 5.000000e-01 : f64} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %6 = graph.hard_sigmoid %5 : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    %7 = graph.hard_sigmoid %6 {alpha = 0.16666666666666666 : f64, beta = 5.000000e-01 : f64} : (tensor<?x768xf16, #graph.dims<tokens>>) -> tensor<?x768xf16, #graph.dims<tokens>>
    return %7 : tensor<?x768xf16, #graph.dims<tokens>>
  }

  // clip with its two optional bounds: absent, min only, max only, both (a 0-d
  // or a one-element tensor).
  // CHECK-LABEL: func.func @clip(
  // CHECK-SAME: %arg0: tensor<?x3x224x224xf32, #graph.dims<batch>>, %arg1: tensor<f32>, %arg2: tensor<1xf32>) -> (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>) {
  // CHECK-NEXT: %0 = graph.clip %arg0 : (tensor<?x3x224x224xf32, #graph.dims<batch>>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.clip %arg0 min %arg1 : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<f32>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.clip %arg0 max %arg2 : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<1xf32>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
  // CHECK-NEXT: %3 = graph.clip %arg0 min %arg1 max %arg2 : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<f32>, tensor<1xf32>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
  // CHECK-NEXT: return %0, %1, %2, %3 : tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>
  // CHECK-NEXT: }
  func.func @clip(%arg0: tensor<?x3x224x224xf32, #graph.dims<batch>>, %arg1: tensor<f32>, %arg2: tensor<1xf32>) -> (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>) {
    %0 = graph.clip %arg0 : (tensor<?x3x224x224xf32, #graph.dims<batch>>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
    %1 = graph.clip %arg0 min %arg1 : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<f32>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
    %2 = graph.clip %arg0 max %arg2 : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<1xf32>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
    %3 = graph.clip %arg0 min %arg1 max %arg2 : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<f32>, tensor<1xf32>) -> tensor<?x3x224x224xf32, #graph.dims<batch>>
    return %0, %1, %2, %3 : tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<?x3x224x224xf32, #graph.dims<batch>>
  }

  // cast takes the declared element type; where broadcasts all three operands.
  // CHECK-LABEL: func.func @cast_where(
  // CHECK-SAME: %arg0: tensor<?x4xf32, #graph.dims<n>>, %arg1: tensor<?x4xi1, #graph.dims<n>>, %arg2: tensor<f32>) -> (tensor<?x4xi64, #graph.dims<n>>, tensor<?x4xf16, #graph.dims<n>>, tensor<?x4xf32, #graph.dims<n>>) {
  // CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<?x4xf32, #graph.dims<n>>) -> tensor<?x4xi64, #graph.dims<n>>
  // CHECK-NEXT: %1 = graph.cast %arg1 : (tensor<?x4xi1, #graph.dims<n>>) -> tensor<?x4xf16, #graph.dims<n>>
  // CHECK-NEXT: %2 = graph.where %arg1, %arg0, %arg2 : (tensor<?x4xi1, #graph.dims<n>>, tensor<?x4xf32, #graph.dims<n>>, tensor<f32>) -> tensor<?x4xf32, #graph.dims<n>>
  // CHECK-NEXT: return %0, %1, %2 : tensor<?x4xi64, #graph.dims<n>>, tensor<?x4xf16, #graph.dims<n>>, tensor<?x4xf32, #graph.dims<n>>
  // CHECK-NEXT: }
  func.func @cast_where(%arg0: tensor<?x4xf32, #graph.dims<n>>, %arg1: tensor<?x4xi1, #graph.dims<n>>, %arg2: tensor<f32>) -> (tensor<?x4xi64, #graph.dims<n>>, tensor<?x4xf16, #graph.dims<n>>, tensor<?x4xf32, #graph.dims<n>>) {
    %0 = graph.cast %arg0 : (tensor<?x4xf32, #graph.dims<n>>) -> tensor<?x4xi64, #graph.dims<n>>
    %1 = graph.cast %arg1 : (tensor<?x4xi1, #graph.dims<n>>) -> tensor<?x4xf16, #graph.dims<n>>
    %2 = graph.where %arg1, %arg0, %arg2 : (tensor<?x4xi1, #graph.dims<n>>, tensor<?x4xf32, #graph.dims<n>>, tensor<f32>) -> tensor<?x4xf32, #graph.dims<n>>
    return %0, %1, %2 : tensor<?x4xi64, #graph.dims<n>>, tensor<?x4xf16, #graph.dims<n>>, tensor<?x4xf32, #graph.dims<n>>
  }

  // matmul with NumPy's rules: batch dimensions broadcast, 1-D operands are
  // promoted and the promoted dimension dropped, symbols flow to the result.
  // CHECK-LABEL: func.func @matmul(
  // CHECK-SAME: %arg0: tensor<?x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<64x128xf32>, %arg2: tensor<64xf32>, %arg3: tensor<8x1x?x64xf32, #graph.dims<seq>>, %arg4: tensor<4x64x?xf32, #graph.dims<seq>>) -> (tensor<?x?x128xf32, #graph.dims<batch, seq>>, tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<128xf32>, tensor<8x4x?x?xf32, #graph.dims<seq, seq>>) {
  // CHECK-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<64x128xf32>) -> tensor<?x?x128xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %1 = graph.matmul %arg0, %arg2 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<64xf32>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %2 = graph.matmul %arg2, %arg1 : (tensor<64xf32>, tensor<64x128xf32>) -> tensor<128xf32>
  // CHECK-NEXT: %3 = graph.matmul %arg3, %arg4 : (tensor<8x1x?x64xf32, #graph.dims<seq>>, tensor<4x64x?xf32, #graph.dims<seq>>) -> tensor<8x4x?x?xf32, #graph.dims<seq, seq>>
  // CHECK-NEXT: return %0, %1, %2, %3 : tensor<?x?x128xf32, #graph.dims<batch, seq>>, tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<128xf32>, tensor<8x4x?x?xf32, #graph.dims<seq, seq>>
  // CHECK-NEXT: }
  func.func @matmul(%arg0: tensor<?x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<64x128xf32>, %arg2: tensor<64xf32>, %arg3: tensor<8x1x?x64xf32, #graph.dims<seq>>, %arg4: tensor<4x64x?xf32, #graph.dims<seq>>) -> (tensor<?x?x128xf32, #graph.dims<batch, seq>>, tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<128xf32>, tensor<8x4x?x?xf32, #graph.dims<seq, seq>>) {
    %0 = graph.matmul %arg0, %arg1 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<64x128xf32>) -> tensor<?x?x128xf32, #graph.dims<batch, seq>>
    %1 = graph.matmul %arg0, %arg2 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<64xf32>) -> tensor<?x?xf32, #graph.dims<batch, seq>>
    %2 = graph.matmul %arg2, %arg1 : (tensor<64xf32>, tensor<64x128xf32>) -> tensor<128xf32>
    %3 = graph.matmul %arg3, %arg4 : (tensor<8x1x?x64xf32, #graph.dims<seq>>, tensor<4x64x?xf32, #graph.dims<seq>>) -> tensor<8x4x?x?xf32, #graph.dims<seq, seq>>
    return %0, %1, %2, %3 : tensor<?x?x128xf32, #graph.dims<batch, seq>>, tensor<?x?xf32, #graph.dims<batch, seq>>, tensor<128xf32>, tensor<8x4x?x?xf32, #graph.dims<seq, seq>>
  }

  // gemm with and without `c`, transposed operands and non-default alpha/beta.
  // CHECK-LABEL: func.func @gemm(
  // CHECK-SAME: %arg0: tensor<?x256xf32, #graph.dims<batch>>, %arg1: tensor<1000x256xf32>, %arg2: tensor<1000xf32>, %arg3: tensor<256x?xf32, #graph.dims<batch>>, %arg4: tensor<256x1000xf32>) -> (tensor<?x1000xf32, #graph.dims<batch>>, tensor<?x1000xf32, #graph.dims<batch>>) {
  // CHECK-NEXT: %0 = graph.gemm %arg0, %arg1, %arg2 {transB = true} : (tensor<?x256xf32, #graph.dims<batch>>, tensor<1000x256xf32>, tensor<1000xf32>) -> tensor<?x1000xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.gemm %arg3, %arg4 {alpha = 5.000000e-01 : f64, beta = 0.000000e+00 : f64, transA = true} : (tensor<256x?xf32, #graph.dims<batch>>, tensor<256x1000xf32>) -> tensor<?x1000xf32, #graph.dims<batch>>
  // CHECK-NEXT: return %0, %1 : tensor<?x1000xf32, #graph.dims<batch>>, tensor<?x1000xf32, #graph.dims<batch>>
  // CHECK-NEXT: }
  func.func @gemm(%arg0: tensor<?x256xf32, #graph.dims<batch>>, %arg1: tensor<1000x256xf32>, %arg2: tensor<1000xf32>, %arg3: tensor<256x?xf32, #graph.dims<batch>>, %arg4: tensor<256x1000xf32>) -> (tensor<?x1000xf32, #graph.dims<batch>>, tensor<?x1000xf32, #graph.dims<batch>>) {
    %0 = graph.gemm %arg0, %arg1, %arg2 {transB = true} : (tensor<?x256xf32, #graph.dims<batch>>, tensor<1000x256xf32>, tensor<1000xf32>) -> tensor<?x1000xf32, #graph.dims<batch>>
    %1 = graph.gemm %arg3, %arg4 {alpha = 5.000000e-01 : f64, beta = 0.000000e+00 : f64, transA = true} : (tensor<256x?xf32, #graph.dims<batch>>, tensor<256x1000xf32>) -> tensor<?x1000xf32, #graph.dims<batch>>
    return %0, %1 : tensor<?x1000xf32, #graph.dims<batch>>, tensor<?x1000xf32, #graph.dims<batch>>
  }

  // conv2d: depthwise with bias, explicit default strides/pads/dilations
  // (elided), and a grouped, dilated, strided, padded convolution.
  // CHECK-LABEL: func.func @conv(
  // CHECK-SAME: %arg0: tensor<?x64x112x112xf32, #graph.dims<batch>>, %arg1: tensor<64x1x3x3xf32>, %arg2: tensor<64xf32>, %arg3: tensor<1x32x56x56xf32>, %arg4: tensor<64x16x3x3xf32>) -> (tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<?x64x110x110xf32, #graph.dims<batch>>, tensor<1x64x28x28xf32>) {
  // CHECK-NEXT: %0 = graph.conv2d %arg0, %arg1, %arg2 {group = 64 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<?x64x112x112xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.conv2d %arg0, %arg1 {group = 64 : i64} : (tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<64x1x3x3xf32>) -> tensor<?x64x110x110xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.conv2d %arg3, %arg4 {dilations = array<i64: 2, 2>, group = 2 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x32x56x56xf32>, tensor<64x16x3x3xf32>) -> tensor<1x64x28x28xf32>
  // CHECK-NEXT: return %0, %1, %2 : tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<?x64x110x110xf32, #graph.dims<batch>>, tensor<1x64x28x28xf32>
  // CHECK-NEXT: }
  func.func @conv(%arg0: tensor<?x64x112x112xf32, #graph.dims<batch>>, %arg1: tensor<64x1x3x3xf32>, %arg2: tensor<64xf32>, %arg3: tensor<1x32x56x56xf32>, %arg4: tensor<64x16x3x3xf32>) -> (tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<?x64x110x110xf32, #graph.dims<batch>>, tensor<1x64x28x28xf32>) {
    %0 = graph.conv2d %arg0, %arg1, %arg2 {group = 64 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<?x64x112x112xf32, #graph.dims<batch>>
    %1 = graph.conv2d %arg0, %arg1 {dilations = array<i64: 1, 1>, group = 64 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<64x1x3x3xf32>) -> tensor<?x64x110x110xf32, #graph.dims<batch>>
    %2 = graph.conv2d %arg3, %arg4 {dilations = array<i64: 2, 2>, group = 2 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x32x56x56xf32>, tensor<64x16x3x3xf32>) -> tensor<1x64x28x28xf32>
    return %0, %1, %2 : tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<?x64x110x110xf32, #graph.dims<batch>>, tensor<1x64x28x28xf32>
  }

  // Pooling: max/avg with strides and pads, ceil_mode, count_include_pad, an
  // explicit default dilation (elided), and the global pools.
  // CHECK-LABEL: func.func @pool(
  // CHECK-SAME: %arg0: tensor<?x64x112x112xf32, #graph.dims<batch>>, %arg1: tensor<1x8x7x7xf32>) -> (tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<?x64x1x1xf32, #graph.dims<batch>>, tensor<1x8x1x1xf32>) {
  // CHECK-NEXT: %0 = graph.max_pool2d %arg0 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>) -> tensor<?x64x56x56xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.avg_pool2d %arg0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>) -> tensor<?x64x56x56xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.max_pool2d %arg1 {ceil_mode = true, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
  // CHECK-NEXT: %3 = graph.avg_pool2d %arg1 {count_include_pad = true, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
  // CHECK-NEXT: %4 = graph.global_avg_pool %arg0 : (tensor<?x64x112x112xf32, #graph.dims<batch>>) -> tensor<?x64x1x1xf32, #graph.dims<batch>>
  // CHECK-NEXT: %5 = graph.global_max_pool %arg1 : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
  // CHECK-NEXT: return %0, %1, %2, %3, %4, %5 : tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<?x64x1x1xf32, #graph.dims<batch>>, tensor<1x8x1x1xf32>
  // CHECK-NEXT: }
  func.func @pool(%arg0: tensor<?x64x112x112xf32, #graph.dims<batch>>, %arg1: tensor<1x8x7x7xf32>) -> (tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<?x64x1x1xf32, #graph.dims<batch>>, tensor<1x8x1x1xf32>) {
    %0 = graph.max_pool2d %arg0 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>) -> tensor<?x64x56x56xf32, #graph.dims<batch>>
    %1 = graph.avg_pool2d %arg0 {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x64x112x112xf32, #graph.dims<batch>>) -> tensor<?x64x56x56xf32, #graph.dims<batch>>
    %2 = graph.max_pool2d %arg1 {ceil_mode = true, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
    %3 = graph.avg_pool2d %arg1 {count_include_pad = true, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
    %4 = graph.global_avg_pool %arg0 : (tensor<?x64x112x112xf32, #graph.dims<batch>>) -> tensor<?x64x1x1xf32, #graph.dims<batch>>
    %5 = graph.global_max_pool %arg1 : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<?x64x56x56xf32, #graph.dims<batch>>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>, tensor<?x64x1x1xf32, #graph.dims<batch>>, tensor<1x8x1x1xf32>
  }

  // softmax and log_softmax along a given axis (positive and negative),
  // layer_norm with and without bias, rms_norm, batch_norm.
  // CHECK-LABEL: func.func @normalization(
  // CHECK-SAME: %arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768xf32>, %arg2: tensor<?x32x56x56xf32, #graph.dims<batch>>, %arg3: tensor<32xf32>) -> (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x32x56x56xf32, #graph.dims<batch>>) {
  // CHECK-NEXT: %0 = graph.softmax %arg0 {axis = 1 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %1 = graph.log_softmax %0 {axis = -2 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %2 = graph.layer_norm %1, %arg1, %arg1 {axis = 2 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %3 = graph.layer_norm %2, %arg1 {axis = 2 : i64, epsilon = 9.9999999999999998E-13 : f64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %4 = graph.rms_norm %3, %arg1 {axis = 2 : i64, epsilon = 9.9999999999999995E-7 : f64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %5 = graph.batch_norm %arg2, %arg3, %arg3, %arg3, %arg3 : (tensor<?x32x56x56xf32, #graph.dims<batch>>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32, #graph.dims<batch>>
  // CHECK-NEXT: %6 = graph.batch_norm %5, %arg3, %arg3, %arg3, %arg3 {epsilon = 1.000000e-03 : f64} : (tensor<?x32x56x56xf32, #graph.dims<batch>>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32, #graph.dims<batch>>
  // CHECK-NEXT: return %4, %6 : tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x32x56x56xf32, #graph.dims<batch>>
  // CHECK-NEXT: }
  func.func @normalization(%arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768xf32>, %arg2: tensor<?x32x56x56xf32, #graph.dims<batch>>, %arg3: tensor<32xf32>) -> (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x32x56x56xf32, #graph.dims<batch>>) {
    %0 = graph.softmax %arg0 {axis = 1 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %1 = graph.log_softmax %0 {axis = -2 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %2 = graph.layer_norm %1, %arg1, %arg1 {axis = 2 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %3 = graph.layer_norm %2, %arg1 {axis = 2 : i64, epsilon = 9.9999999999999998E-13 : f64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %4 = graph.rms_norm %3, %arg1 {axis = 2 : i64, epsilon = 9.9999999999999995E-7 : f64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %5 = graph.batch_norm %arg2, %arg3, %arg3, %arg3, %arg3 : (tensor<?x32x56x56xf32, #graph.dims<batch>>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32, #graph.dims<batch>>
    %6 = graph.batch_norm %5, %arg3, %arg3, %arg3, %arg3 {epsilon = 1.000000e-03 : f64} : (tensor<?x32x56x56xf32, #graph.dims<batch>>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32, #graph.dims<batch>>
    return %4, %6 : tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x32x56x56xf32, #graph.dims<batch>>
  }

  // Element-wise gather and scatters (with reductions), cumsum and top_k;
  // top_k's k is a run-time value, so its size stays unknown.
  // CHECK-LABEL: func.func @indexing(
  // CHECK-NEXT: %0 = graph.gather_elements %arg0[%arg1] {axis = 1 : i64} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x2xi64, #graph.dims<batch>>) -> tensor<?x2xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.scatter_elements %arg0[%arg1], %arg2 {axis = 1 : i64, reduction = "add"} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x2xi64, #graph.dims<batch>>, tensor<?x2xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.scatter_nd %1[%arg3], %arg4 : (tensor<?x4xf32, #graph.dims<batch>>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<?x4xf32, #graph.dims<batch>>
  // CHECK-NEXT: %3 = graph.cumsum %2, %arg5 {exclusive = true, reverse = true} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<i64>) -> tensor<?x4xf32, #graph.dims<batch>>
  // CHECK-NEXT: %4:2 = graph.top_k %3, %arg6 {largest = false} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<1xi64>) -> (tensor<?x?xf32, #graph.dims<batch, ?>>, tensor<?x?xi64, #graph.dims<batch, ?>>)
  // CHECK-NEXT: return %0, %1, %2, %3, %4#0, %4#1 : tensor<?x2xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x?xf32, #graph.dims<batch, ?>>, tensor<?x?xi64, #graph.dims<batch, ?>>
  // CHECK-NEXT: }
  func.func @indexing(%arg0: tensor<?x4xf32, #graph.dims<batch>>, %arg1: tensor<?x2xi64, #graph.dims<batch>>, %arg2: tensor<?x2xf32, #graph.dims<batch>>, %arg3: tensor<3x1xi64>, %arg4: tensor<3x4xf32>, %arg5: tensor<i64>, %arg6: tensor<1xi64>) -> (tensor<?x2xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x?xf32, #graph.dims<batch, ?>>, tensor<?x?xi64, #graph.dims<batch, ?>>) {
    %0 = graph.gather_elements %arg0[%arg1] {axis = 1 : i64} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x2xi64, #graph.dims<batch>>) -> tensor<?x2xf32, #graph.dims<batch>>
    %1 = graph.scatter_elements %arg0[%arg1], %arg2 {axis = 1 : i64, reduction = "add"} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<?x2xi64, #graph.dims<batch>>, tensor<?x2xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
    %2 = graph.scatter_nd %1[%arg3], %arg4 : (tensor<?x4xf32, #graph.dims<batch>>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<?x4xf32, #graph.dims<batch>>
    %3 = graph.cumsum %2, %arg5 {exclusive = true, reverse = true} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<i64>) -> tensor<?x4xf32, #graph.dims<batch>>
    %4:2 = graph.top_k %3, %arg6 {largest = false} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<1xi64>) -> (tensor<?x?xf32, #graph.dims<batch, ?>>, tensor<?x?xi64, #graph.dims<batch, ?>>)
    return %0, %1, %2, %3, %4#0, %4#1 : tensor<?x2xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x4xf32, #graph.dims<batch>>, tensor<?x?xf32, #graph.dims<batch, ?>>, tensor<?x?xi64, #graph.dims<batch, ?>>
  }

  // resize by constant scales (sizes inferred, the batch symbol kept), by
  // run-time sizes, and crop-and-resize with a roi.
  // CHECK-LABEL: func.func @resize(
  // CHECK-NEXT: %0 = graph.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
  // CHECK-NEXT: %1 = graph.resize %arg0 scales %0 {axes = array<i64: 2, 3>, mode = "linear"} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<2xf32>) -> tensor<?x3x32x48xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.resize %arg0 sizes %arg1 {axes = array<i64: 2, 3>, coordinate_transformation_mode = "align_corners", mode = "cubic"} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<2xi64>) -> tensor<?x3x?x?xf32, #graph.dims<batch, ?, ?>>
  // CHECK-NEXT: %3 = graph.constant dense<8> : tensor<2xi64>
  // CHECK-NEXT: %4 = graph.resize %arg0 roi %arg2 sizes %3 {axes = array<i64: 2, 3>, coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+00 : f64} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<4xf32>, tensor<2xi64>) -> tensor<?x3x8x8xf32, #graph.dims<batch>>
  // CHECK-NEXT: return %1, %2, %4 : tensor<?x3x32x48xf32, #graph.dims<batch>>, tensor<?x3x?x?xf32, #graph.dims<batch, ?, ?>>, tensor<?x3x8x8xf32, #graph.dims<batch>>
  // CHECK-NEXT: }
  func.func @resize(%arg0: tensor<?x3x16x16xf32, #graph.dims<batch>>, %arg1: tensor<2xi64>, %arg2: tensor<4xf32>) -> (tensor<?x3x32x48xf32, #graph.dims<batch>>, tensor<?x3x?x?xf32, #graph.dims<batch, ?, ?>>, tensor<?x3x8x8xf32, #graph.dims<batch>>) {
    %0 = graph.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
    %1 = graph.resize %arg0 scales %0 {axes = array<i64: 2, 3>, mode = "linear"} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<2xf32>) -> tensor<?x3x32x48xf32, #graph.dims<batch>>
    %2 = graph.resize %arg0 sizes %arg1 {axes = array<i64: 2, 3>, coordinate_transformation_mode = "align_corners", mode = "cubic"} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<2xi64>) -> tensor<?x3x?x?xf32, #graph.dims<batch, ?, ?>>
    %3 = graph.constant dense<8> : tensor<2xi64>
    %4 = graph.resize %arg0 roi %arg2 sizes %3 {axes = array<i64: 2, 3>, coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+00 : f64} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<4xf32>, tensor<2xi64>) -> tensor<?x3x8x8xf32, #graph.dims<batch>>
    return %1, %2, %4 : tensor<?x3x32x48xf32, #graph.dims<batch>>, tensor<?x3x?x?xf32, #graph.dims<batch, ?, ?>>, tensor<?x3x8x8xf32, #graph.dims<batch>>
  }

  // conv_transpose2d: stride 2 doubles symbolic sizes; groups, bias and an
  // explicit output_shape.
  // CHECK-LABEL: func.func @conv_transpose(
  // CHECK-NEXT: %0 = graph.conv_transpose2d %arg0, %arg1 {strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32, #graph.dims<batch, h, w>>, tensor<8x4x2x2xf32>) -> tensor<?x4x?x?xf32, #graph.dims<batch, 2*h, 2*w>>
  // CHECK-NEXT: %1 = graph.conv_transpose2d %arg3, %arg4, %arg2 {group = 2 : i64, output_shape = array<i64: 10, 8>, strides = array<i64: 2, 2>} : (tensor<1x8x5x5xf32>, tensor<8x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x10x8xf32>
  // CHECK-NEXT: return %0, %1 : tensor<?x4x?x?xf32, #graph.dims<batch, 2*h, 2*w>>, tensor<1x4x10x8xf32>
  // CHECK-NEXT: }
  func.func @conv_transpose(%arg0: tensor<?x8x?x?xf32, #graph.dims<batch, h, w>>, %arg1: tensor<8x4x2x2xf32>, %arg2: tensor<4xf32>, %arg3: tensor<1x8x5x5xf32>, %arg4: tensor<8x2x3x3xf32>) -> (tensor<?x4x?x?xf32, #graph.dims<batch, 2*h, 2*w>>, tensor<1x4x10x8xf32>) {
    %0 = graph.conv_transpose2d %arg0, %arg1 {strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32, #graph.dims<batch, h, w>>, tensor<8x4x2x2xf32>) -> tensor<?x4x?x?xf32, #graph.dims<batch, 2*h, 2*w>>
    %1 = graph.conv_transpose2d %arg3, %arg4, %arg2 {group = 2 : i64, output_shape = array<i64: 10, 8>, strides = array<i64: 2, 2>} : (tensor<1x8x5x5xf32>, tensor<8x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x10x8xf32>
    return %0, %1 : tensor<?x4x?x?xf32, #graph.dims<batch, 2*h, 2*w>>, tensor<1x4x10x8xf32>
  }

  // cumprod (exclusive, from the end).
  // CHECK-LABEL: func.func @cumprod(
  // CHECK-NEXT: %0 = graph.cumprod %arg0, %arg1 {exclusive = true, reverse = true} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<i64>) -> tensor<?x4xf32, #graph.dims<batch>>
  func.func @cumprod(%arg0: tensor<?x4xf32, #graph.dims<batch>>, %arg1: tensor<i64>) -> tensor<?x4xf32, #graph.dims<batch>> {
    %0 = graph.cumprod %arg0, %arg1 {exclusive = true, reverse = true} : (tensor<?x4xf32, #graph.dims<batch>>, tensor<i64>) -> tensor<?x4xf32, #graph.dims<batch>>
    return %0 : tensor<?x4xf32, #graph.dims<batch>>
  }

  // Bitwise and, not and shifts on unsigned integers.
  // CHECK-LABEL: func.func @bitwise(
  // CHECK-NEXT: %0 = graph.and %arg0, %arg1 : (tensor<?x4xui8, #graph.dims<batch>>, tensor<4xui8>) -> tensor<?x4xui8, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.not %0 : (tensor<?x4xui8, #graph.dims<batch>>) -> tensor<?x4xui8, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.bit_shift %1, %arg1 {direction = "left"} : (tensor<?x4xui8, #graph.dims<batch>>, tensor<4xui8>) -> tensor<?x4xui8, #graph.dims<batch>>
  func.func @bitwise(%arg0: tensor<?x4xui8, #graph.dims<batch>>, %arg1: tensor<4xui8>) -> tensor<?x4xui8, #graph.dims<batch>> {
    %0 = graph.and %arg0, %arg1 : (tensor<?x4xui8, #graph.dims<batch>>, tensor<4xui8>) -> tensor<?x4xui8, #graph.dims<batch>>
    %1 = graph.not %0 : (tensor<?x4xui8, #graph.dims<batch>>) -> tensor<?x4xui8, #graph.dims<batch>>
    %2 = graph.bit_shift %1, %arg1 {direction = "left"} : (tensor<?x4xui8, #graph.dims<batch>>, tensor<4xui8>) -> tensor<?x4xui8, #graph.dims<batch>>
    return %2 : tensor<?x4xui8, #graph.dims<batch>>
  }

  // gather_nd with a batch dimension: [batch, 2] tuples into [batch, 4, 5, 6].
  // CHECK-LABEL: func.func @gather_nd(
  // CHECK-NEXT: %0 = graph.gather_nd %arg0[%arg1] {batch_dims = 1 : i64} : (tensor<?x4x5x6xf32, #graph.dims<batch>>, tensor<?x3x2xi64, #graph.dims<batch>>) -> tensor<?x3x6xf32, #graph.dims<batch>>
  func.func @gather_nd(%arg0: tensor<?x4x5x6xf32, #graph.dims<batch>>, %arg1: tensor<?x3x2xi64, #graph.dims<batch>>) -> tensor<?x3x6xf32, #graph.dims<batch>> {
    %0 = graph.gather_nd %arg0[%arg1] {batch_dims = 1 : i64} : (tensor<?x4x5x6xf32, #graph.dims<batch>>, tensor<?x3x2xi64, #graph.dims<batch>>) -> tensor<?x3x6xf32, #graph.dims<batch>>
    return %0 : tensor<?x3x6xf32, #graph.dims<batch>>
  }

  // grid_sample: a [batch, 3, 16, 16] image at an [batch, 8, 8, 2] grid.
  // CHECK-LABEL: func.func @grid_sample(
  // CHECK-NEXT: %0 = graph.grid_sample %arg0, %arg1 {align_corners = true, mode = "cubic", padding_mode = "reflection"} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<?x8x8x2xf32, #graph.dims<batch>>) -> tensor<?x3x8x8xf32, #graph.dims<batch>>
  func.func @grid_sample(%arg0: tensor<?x3x16x16xf32, #graph.dims<batch>>, %arg1: tensor<?x8x8x2xf32, #graph.dims<batch>>) -> tensor<?x3x8x8xf32, #graph.dims<batch>> {
    %0 = graph.grid_sample %arg0, %arg1 {align_corners = true, mode = "cubic", padding_mode = "reflection"} : (tensor<?x3x16x16xf32, #graph.dims<batch>>, tensor<?x8x8x2xf32, #graph.dims<batch>>) -> tensor<?x3x8x8xf32, #graph.dims<batch>>
    return %0 : tensor<?x3x8x8xf32, #graph.dims<batch>>
  }

  // non_max_suppression with every optional operand; K is a run-time size.
  // CHECK-LABEL: func.func @nms(
  // CHECK-NEXT: %0 = graph.non_max_suppression %arg0, %arg1 max_output %arg2 iou %arg3 score %arg3 {center_point_box = true} : (tensor<?x100x4xf32, #graph.dims<batch>>, tensor<?x3x100xf32, #graph.dims<batch>>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  func.func @nms(%arg0: tensor<?x100x4xf32, #graph.dims<batch>>, %arg1: tensor<?x3x100xf32, #graph.dims<batch>>, %arg2: tensor<1xi64>, %arg3: tensor<1xf32>) -> tensor<?x3xi64> {
    %0 = graph.non_max_suppression %arg0, %arg1 max_output %arg2 iou %arg3 score %arg3 {center_point_box = true} : (tensor<?x100x4xf32, #graph.dims<batch>>, tensor<?x3x100xf32, #graph.dims<batch>>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
    return %0 : tensor<?x3xi64>
  }

  // non_zero, unique (along an axis) and roi_align: counts known only at
  // run time are `?`.
  // CHECK-LABEL: func.func @data_dependent(
  // CHECK-NEXT: %0 = graph.non_zero %arg0 : (tensor<3x4xf32>) -> tensor<2x?xi64>
  // CHECK-NEXT: %1:4 = graph.unique %arg0 {axis = 1 : i64, sorted = false} : (tensor<3x4xf32>) -> (tensor<3x?xf32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
  // CHECK-NEXT: %2 = graph.roi_align %arg1, %arg2, %arg3 {half_pixel = false, mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f64} : (tensor<1x8x10x10xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8x2x3xf32>
  func.func @data_dependent(%arg0: tensor<3x4xf32>, %arg1: tensor<1x8x10x10xf32>, %arg2: tensor<?x4xf32>, %arg3: tensor<?xi64>) -> (tensor<2x?xi64>, tensor<3x?xf32>, tensor<?x8x2x3xf32>) {
    %0 = graph.non_zero %arg0 : (tensor<3x4xf32>) -> tensor<2x?xi64>
    %1:4 = graph.unique %arg0 {axis = 1 : i64, sorted = false} : (tensor<3x4xf32>) -> (tensor<3x?xf32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
    %2 = graph.roi_align %arg1, %arg2, %arg3 {half_pixel = false, mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f64} : (tensor<1x8x10x10xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x8x2x3xf32>
    return %0, %1#0, %2 : tensor<2x?xi64>, tensor<3x?xf32>, tensor<?x8x2x3xf32>
  }

  // dft: one-sided (16 points give 9), and with a run-time axis (only the
  // rank is known).
  // CHECK-LABEL: func.func @dft(
  // CHECK-NEXT: %0 = graph.dft %arg0 {onesided = true} : (tensor<?x16x1xf32, #graph.dims<batch>>) -> tensor<?x9x2xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.dft %arg0 axis %arg1 {inverse = true} : (tensor<?x16x1xf32, #graph.dims<batch>>, tensor<i64>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: return %0, %1 : tensor<?x9x2xf32, #graph.dims<batch>>, tensor<?x?x?xf32>
  // CHECK-NEXT: }
  func.func @dft(%arg0: tensor<?x16x1xf32, #graph.dims<batch>>, %arg1: tensor<i64>) -> (tensor<?x9x2xf32, #graph.dims<batch>>, tensor<?x?x?xf32>) {
    %0 = graph.dft %arg0 {onesided = true} : (tensor<?x16x1xf32, #graph.dims<batch>>) -> tensor<?x9x2xf32, #graph.dims<batch>>
    %1 = graph.dft %arg0 axis %arg1 {inverse = true} : (tensor<?x16x1xf32, #graph.dims<batch>>, tensor<i64>) -> tensor<?x?x?xf32>
    return %0, %1 : tensor<?x9x2xf32, #graph.dims<batch>>, tensor<?x?x?xf32>
  }

  // round (halves to even).
  // CHECK-LABEL: func.func @round(
  // CHECK-NEXT: %0 = graph.round %arg0 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
  func.func @round(%arg0: tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>> {
    %0 = graph.round %arg0 : (tensor<?x4xf32, #graph.dims<batch>>) -> tensor<?x4xf32, #graph.dims<batch>>
    return %0 : tensor<?x4xf32, #graph.dims<batch>>
  }

  // dropout in training mode: with and without the mask, the seed and the
  // run-time training flag.
  // CHECK-LABEL: func.func @dropout(
  // CHECK-NEXT: %0 = graph.dropout %arg0, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<f32>) -> tensor<?x16xf32, #graph.dims<batch>>
  // CHECK-NEXT: %1:2 = graph.dropout %0, %arg1 training %arg2 {seed = 42 : i64} : (tensor<?x16xf32, #graph.dims<batch>>, tensor<f32>, tensor<i1>) -> (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xi1, #graph.dims<batch>>)
  // CHECK-NEXT: return %1#0, %1#1 : tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xi1, #graph.dims<batch>>
  func.func @dropout(%arg0: tensor<?x16xf32, #graph.dims<batch>>, %arg1: tensor<f32>, %arg2: tensor<i1>) -> (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xi1, #graph.dims<batch>>) {
    %0 = graph.dropout %arg0, %arg1 : (tensor<?x16xf32, #graph.dims<batch>>, tensor<f32>) -> tensor<?x16xf32, #graph.dims<batch>>
    %1:2 = graph.dropout %0, %arg1 training %arg2 {seed = 42 : i64} : (tensor<?x16xf32, #graph.dims<batch>>, tensor<f32>, tensor<i1>) -> (tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xi1, #graph.dims<batch>>)
    return %1#0, %1#1 : tensor<?x16xf32, #graph.dims<batch>>, tensor<?x16xi1, #graph.dims<batch>>
  }

  // Reductions with constant axes (kept or dropped), without axes (every
  // dimension), empty axes with noop_with_empty_axes, and non-constant axes.
  // CHECK-LABEL: func.func @reductions(
  // CHECK-SAME: %arg0: tensor<?x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<1xi64>) -> (tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?x64xf32, #graph.dims<batch>>, tensor<1x1x1xf32>, tensor<f32>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1x?x1xf32, #graph.dims<seq>>, tensor<?x?x?xf32>, tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<seq>>) {
  // CHECK-NEXT: %0 = graph.constant dense<1> : tensor<1xi64>
  // CHECK-NEXT: %1 = graph.constant dense<[-1, 0]> : tensor<2xi64>
  // CHECK-NEXT: %2 = graph.constant dense<> : tensor<0xi64>
  // CHECK-NEXT: %3 = graph.reduce_sum %arg0 axes %0 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x1x64xf32, #graph.dims<batch>>
  // CHECK-NEXT: %4 = graph.reduce_mean %arg0 axes %0 {keepdims = false} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x64xf32, #graph.dims<batch>>
  // CHECK-NEXT: %5 = graph.reduce_max %arg0 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<1x1x1xf32>
  // CHECK-NEXT: %6 = graph.reduce_min %arg0 {keepdims = false} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<f32>
  // CHECK-NEXT: %7 = graph.reduce_prod %arg0 axes %2 {noop_with_empty_axes = true} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<0xi64>) -> tensor<?x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %8 = graph.reduce_sum_square %arg0 axes %1 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<1x?x1xf32, #graph.dims<seq>>
  // CHECK-NEXT: %9 = graph.reduce_l1 %arg0 axes %arg1 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: %10 = graph.reduce_l2 %arg0 axes %0 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x1x64xf32, #graph.dims<batch>>
  // CHECK-NEXT: %11 = graph.reduce_log_sum_exp %arg0 axes %1 {keepdims = false} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?xf32, #graph.dims<seq>>
  // CHECK-NEXT: return %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?x64xf32, #graph.dims<batch>>, tensor<1x1x1xf32>, tensor<f32>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1x?x1xf32, #graph.dims<seq>>, tensor<?x?x?xf32>, tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<seq>>
  // CHECK-NEXT: }
  func.func @reductions(%arg0: tensor<?x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<1xi64>) -> (tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?x64xf32, #graph.dims<batch>>, tensor<1x1x1xf32>, tensor<f32>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1x?x1xf32, #graph.dims<seq>>, tensor<?x?x?xf32>, tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<seq>>) {
    %0 = graph.constant dense<1> : tensor<1xi64>
    %1 = graph.constant dense<[-1, 0]> : tensor<2xi64>
    %2 = graph.constant dense<> : tensor<0xi64>
    %3 = graph.reduce_sum %arg0 axes %0 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x1x64xf32, #graph.dims<batch>>
    %4 = graph.reduce_mean %arg0 axes %0 {keepdims = false} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x64xf32, #graph.dims<batch>>
    %5 = graph.reduce_max %arg0 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<1x1x1xf32>
    %6 = graph.reduce_min %arg0 {keepdims = false} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<f32>
    %7 = graph.reduce_prod %arg0 axes %2 {noop_with_empty_axes = true} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<0xi64>) -> tensor<?x?x64xf32, #graph.dims<batch, seq>>
    %8 = graph.reduce_sum_square %arg0 axes %1 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<1x?x1xf32, #graph.dims<seq>>
    %9 = graph.reduce_l1 %arg0 axes %arg1 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x?x?xf32>
    %10 = graph.reduce_l2 %arg0 axes %0 : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1xi64>) -> tensor<?x1x64xf32, #graph.dims<batch>>
    %11 = graph.reduce_log_sum_exp %arg0 axes %1 {keepdims = false} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?xf32, #graph.dims<seq>>
    return %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?x64xf32, #graph.dims<batch>>, tensor<1x1x1xf32>, tensor<f32>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<1x?x1xf32, #graph.dims<seq>>, tensor<?x?x?xf32>, tensor<?x1x64xf32, #graph.dims<batch>>, tensor<?xf32, #graph.dims<seq>>
  }

  // argmax/argmin: the result is i64.
  // CHECK-LABEL: func.func @arg_reduce(
  // CHECK-SAME: %arg0: tensor<?x10xf32, #graph.dims<batch>>) -> (tensor<?x1xi64, #graph.dims<batch>>, tensor<?xi64, #graph.dims<batch>>, tensor<1x10xi64>) {
  // CHECK-NEXT: %0 = graph.argmax %arg0 {axis = 1 : i64} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<?x1xi64, #graph.dims<batch>>
  // CHECK-NEXT: %1 = graph.argmin %arg0 {axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<?xi64, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.argmax %arg0 {axis = -2 : i64} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<1x10xi64>
  // CHECK-NEXT: return %0, %1, %2 : tensor<?x1xi64, #graph.dims<batch>>, tensor<?xi64, #graph.dims<batch>>, tensor<1x10xi64>
  // CHECK-NEXT: }
  func.func @arg_reduce(%arg0: tensor<?x10xf32, #graph.dims<batch>>) -> (tensor<?x1xi64, #graph.dims<batch>>, tensor<?xi64, #graph.dims<batch>>, tensor<1x10xi64>) {
    %0 = graph.argmax %arg0 {axis = 1 : i64} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<?x1xi64, #graph.dims<batch>>
    %1 = graph.argmin %arg0 {axis = 1 : i64, keepdims = false, select_last_index = true} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<?xi64, #graph.dims<batch>>
    %2 = graph.argmax %arg0 {axis = -2 : i64} : (tensor<?x10xf32, #graph.dims<batch>>) -> tensor<1x10xi64>
    return %0, %1, %2 : tensor<?x1xi64, #graph.dims<batch>>, tensor<?xi64, #graph.dims<batch>>, tensor<1x10xi64>
  }

  // reshape copying dimensions (0), inferring one (-1, giving the symbolic
  // product batch*seq), with a non-constant shape, and with allowzero; transpose
  // with a permutation and without (reversed).
  // CHECK-LABEL: func.func @reshape_transpose(
  // CHECK-SAME: %arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<3xi64>, %arg2: tensor<2x3x4xf32>) -> (tensor<?x?x12x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x768xf32, #graph.dims<batch*seq>>, tensor<?x?x?xf32>, tensor<4x3x2xf32>, tensor<0x3xf32>) {
  // CHECK-NEXT: %0 = graph.constant dense<[0, 0, 12, 64]> : tensor<4xi64>
  // CHECK-NEXT: %1 = graph.reshape %arg0, %0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<4xi64>) -> tensor<?x?x12x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %2 = graph.transpose %1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x?x12x64xf32, #graph.dims<batch, seq>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %3 = graph.constant dense<[-1, 768]> : tensor<2xi64>
  // CHECK-NEXT: %4 = graph.reshape %arg0, %3 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?x768xf32, #graph.dims<batch*seq>>
  // CHECK-NEXT: %5 = graph.reshape %arg0, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<3xi64>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: %6 = graph.transpose %arg2 : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // CHECK-NEXT: %7 = graph.constant dense<[0, 3]> : tensor<2xi64>
  // CHECK-NEXT: %8 = graph.constant dense<0.000000e+00> : tensor<0x2xf32>
  // CHECK-NEXT: %9 = graph.reshape %8, %7 {allowzero = true} : (tensor<0x2xf32>, tensor<2xi64>) -> tensor<0x3xf32>
  // CHECK-NEXT: return %1, %2, %4, %5, %6, %9 : tensor<?x?x12x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x768xf32, #graph.dims<batch*seq>>, tensor<?x?x?xf32>, tensor<4x3x2xf32>, tensor<0x3xf32>
  // CHECK-NEXT: }
  func.func @reshape_transpose(%arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<3xi64>, %arg2: tensor<2x3x4xf32>) -> (tensor<?x?x12x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x768xf32, #graph.dims<batch*seq>>, tensor<?x?x?xf32>, tensor<4x3x2xf32>, tensor<0x3xf32>) {
    %0 = graph.constant dense<[0, 0, 12, 64]> : tensor<4xi64>
    %1 = graph.reshape %arg0, %0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<4xi64>) -> tensor<?x?x12x64xf32, #graph.dims<batch, seq>>
    %2 = graph.transpose %1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x?x12x64xf32, #graph.dims<batch, seq>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
    %3 = graph.constant dense<[-1, 768]> : tensor<2xi64>
    %4 = graph.reshape %arg0, %3 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> tensor<?x768xf32, #graph.dims<batch*seq>>
    %5 = graph.reshape %arg0, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<3xi64>) -> tensor<?x?x?xf32>
    %6 = graph.transpose %arg2 : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
    %7 = graph.constant dense<[0, 3]> : tensor<2xi64>
    %8 = graph.constant dense<0.000000e+00> : tensor<0x2xf32>
    %9 = graph.reshape %8, %7 {allowzero = true} : (tensor<0x2xf32>, tensor<2xi64>) -> tensor<0x3xf32>
    return %1, %2, %4, %5, %6, %9 : tensor<?x?x12x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x768xf32, #graph.dims<batch*seq>>, tensor<?x?x?xf32>, tensor<4x3x2xf32>, tensor<0x3xf32>
  }

  // expand; concat along a symbolic axis (seq + seq = 2*seq) and of a single
  // input; split with explicit sizes and into equal parts.
  // CHECK-LABEL: func.func @expand_concat_split(
  // CHECK-SAME: %arg0: tensor<?x1x64xf32, #graph.dims<batch>>, %arg1: tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> (tensor<?x8x64xf32, #graph.dims<batch>>, tensor<?x?x64xf32, #graph.dims<batch, 2*seq>>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<?x?x16xf32, #graph.dims<batch, seq>>, tensor<?x?x48xf32, #graph.dims<batch, seq>>, tensor<?x?x32xf32, #graph.dims<batch, seq>>) {
  // CHECK-NEXT: %0 = graph.constant dense<[1, 8, 1]> : tensor<3xi64>
  // CHECK-NEXT: %1 = graph.expand %arg0, %0 : (tensor<?x1x64xf32, #graph.dims<batch>>, tensor<3xi64>) -> tensor<?x8x64xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.concat %arg1, %arg1 {axis = 1 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<?x?x64xf32, #graph.dims<batch, 2*seq>>
  // CHECK-NEXT: %3 = graph.concat %arg1 {axis = -1 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<?x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %4 = graph.constant dense<[16, 48]> : tensor<2xi64>
  // CHECK-NEXT: %5:2 = graph.split %arg1 sizes %4 {axis = 2 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> (tensor<?x?x16xf32, #graph.dims<batch, seq>>, tensor<?x?x48xf32, #graph.dims<batch, seq>>)
  // CHECK-NEXT: %6:2 = graph.split %arg1 {axis = -1 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> (tensor<?x?x32xf32, #graph.dims<batch, seq>>, tensor<?x?x32xf32, #graph.dims<batch, seq>>)
  // CHECK-NEXT: return %1, %2, %3, %5#0, %5#1, %6#1 : tensor<?x8x64xf32, #graph.dims<batch>>, tensor<?x?x64xf32, #graph.dims<batch, 2*seq>>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<?x?x16xf32, #graph.dims<batch, seq>>, tensor<?x?x48xf32, #graph.dims<batch, seq>>, tensor<?x?x32xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: }
  func.func @expand_concat_split(%arg0: tensor<?x1x64xf32, #graph.dims<batch>>, %arg1: tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> (tensor<?x8x64xf32, #graph.dims<batch>>, tensor<?x?x64xf32, #graph.dims<batch, 2*seq>>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<?x?x16xf32, #graph.dims<batch, seq>>, tensor<?x?x48xf32, #graph.dims<batch, seq>>, tensor<?x?x32xf32, #graph.dims<batch, seq>>) {
    %0 = graph.constant dense<[1, 8, 1]> : tensor<3xi64>
    %1 = graph.expand %arg0, %0 : (tensor<?x1x64xf32, #graph.dims<batch>>, tensor<3xi64>) -> tensor<?x8x64xf32, #graph.dims<batch>>
    %2 = graph.concat %arg1, %arg1 {axis = 1 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<?x?x64xf32, #graph.dims<batch, 2*seq>>
    %3 = graph.concat %arg1 {axis = -1 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> tensor<?x?x64xf32, #graph.dims<batch, seq>>
    %4 = graph.constant dense<[16, 48]> : tensor<2xi64>
    %5:2 = graph.split %arg1 sizes %4 {axis = 2 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<2xi64>) -> (tensor<?x?x16xf32, #graph.dims<batch, seq>>, tensor<?x?x48xf32, #graph.dims<batch, seq>>)
    %6:2 = graph.split %arg1 {axis = -1 : i64} : (tensor<?x?x64xf32, #graph.dims<batch, seq>>) -> (tensor<?x?x32xf32, #graph.dims<batch, seq>>, tensor<?x?x32xf32, #graph.dims<batch, seq>>)
    return %1, %2, %3, %5#0, %5#1, %6#1 : tensor<?x8x64xf32, #graph.dims<batch>>, tensor<?x?x64xf32, #graph.dims<batch, 2*seq>>, tensor<?x?x64xf32, #graph.dims<batch, seq>>, tensor<?x?x16xf32, #graph.dims<batch, seq>>, tensor<?x?x48xf32, #graph.dims<batch, seq>>, tensor<?x?x32xf32, #graph.dims<batch, seq>>
  }

  // slice with axes, with axes and negative steps (ONNX's INT64_MIN+1 end),
  // with non-constant bounds; gather of a 2-D index tensor along axis 1.
  // CHECK-LABEL: func.func @slice_gather(
  // CHECK-SAME: %arg0: tensor<?x128x64xf32, #graph.dims<batch>>, %arg1: tensor<?x?xi64, #graph.dims<batch, seq>>, %arg2: tensor<2xi64>) -> (tensor<?x64x64xf32, #graph.dims<batch>>, tensor<?x128x32xf32, #graph.dims<batch>>, tensor<?x?x?xf32>, tensor<?x?x?x64xf32, #graph.dims<batch, batch, seq>>) {
  // CHECK-NEXT: %0 = graph.constant dense<0> : tensor<1xi64>
  // CHECK-NEXT: %1 = graph.constant dense<64> : tensor<1xi64>
  // CHECK-NEXT: %2 = graph.constant dense<1> : tensor<1xi64>
  // CHECK-NEXT: %3 = graph.constant dense<-1> : tensor<1xi64>
  // CHECK-NEXT: %4 = graph.constant dense<2> : tensor<1xi64>
  // CHECK-NEXT: %5 = graph.constant dense<-9223372036854775807> : tensor<1xi64>
  // CHECK-NEXT: %6 = graph.constant dense<-2> : tensor<1xi64>
  // CHECK-NEXT: %7 = graph.slice %arg0, %0, %1 axes %2 : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x64x64xf32, #graph.dims<batch>>
  // CHECK-NEXT: %8 = graph.slice %arg0, %3, %5 axes %4 steps %6 : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x128x32xf32, #graph.dims<batch>>
  // CHECK-NEXT: %9 = graph.slice %arg0, %arg2, %arg2 : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: %10 = graph.gather %arg0[%arg1] {axis = 1 : i64} : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<?x?xi64, #graph.dims<batch, seq>>) -> tensor<?x?x?x64xf32, #graph.dims<batch, batch, seq>>
  // CHECK-NEXT: return %7, %8, %9, %10 : tensor<?x64x64xf32, #graph.dims<batch>>, tensor<?x128x32xf32, #graph.dims<batch>>, tensor<?x?x?xf32>, tensor<?x?x?x64xf32, #graph.dims<batch, batch, seq>>
  // CHECK-NEXT: }
  func.func @slice_gather(%arg0: tensor<?x128x64xf32, #graph.dims<batch>>, %arg1: tensor<?x?xi64, #graph.dims<batch, seq>>, %arg2: tensor<2xi64>) -> (tensor<?x64x64xf32, #graph.dims<batch>>, tensor<?x128x32xf32, #graph.dims<batch>>, tensor<?x?x?xf32>, tensor<?x?x?x64xf32, #graph.dims<batch, batch, seq>>) {
    %0 = graph.constant dense<0> : tensor<1xi64>
    %1 = graph.constant dense<64> : tensor<1xi64>
    %2 = graph.constant dense<1> : tensor<1xi64>
    %3 = graph.constant dense<-1> : tensor<1xi64>
    %4 = graph.constant dense<2> : tensor<1xi64>
    %10 = graph.constant dense<-9223372036854775807> : tensor<1xi64>
    %11 = graph.constant dense<-2> : tensor<1xi64>
    %5 = graph.slice %arg0, %0, %1 axes %2 : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x64x64xf32, #graph.dims<batch>>
    %6 = graph.slice %arg0, %3, %10 axes %4 steps %11 : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x128x32xf32, #graph.dims<batch>>
    %7 = graph.slice %arg0, %arg2, %arg2 : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?x?xf32>
    %9 = graph.gather %arg0[%arg1] {axis = 1 : i64} : (tensor<?x128x64xf32, #graph.dims<batch>>, tensor<?x?xi64, #graph.dims<batch, seq>>) -> tensor<?x?x?x64xf32, #graph.dims<batch, batch, seq>>
    return %5, %6, %7, %9 : tensor<?x64x64xf32, #graph.dims<batch>>, tensor<?x128x32xf32, #graph.dims<batch>>, tensor<?x?x?xf32>, tensor<?x?x?x64xf32, #graph.dims<batch, batch, seq>>
  }

  // squeeze with and without axes, unsqueeze with a negative axis, flatten
  // at 0 and at -1 (products of a symbol and a static size).
  // CHECK-LABEL: func.func @squeeze_unsqueeze_flatten(
  // CHECK-SAME: %arg0: tensor<?x1x64x1xf32, #graph.dims<batch>>, %arg1: tensor<1x3x1xf32>, %arg2: tensor<?x3x7x7xf32, #graph.dims<batch>>) -> (tensor<?x64x1xf32, #graph.dims<batch>>, tensor<3xf32>, tensor<1x?x1x64x1x1xf32, #graph.dims<batch>>, tensor<1x?xf32, #graph.dims<147*batch>>, tensor<?x7xf32, #graph.dims<21*batch>>) {
  // CHECK-NEXT: %0 = graph.constant dense<1> : tensor<1xi64>
  // CHECK-NEXT: %1 = graph.squeeze %arg0 axes %0 : (tensor<?x1x64x1xf32, #graph.dims<batch>>, tensor<1xi64>) -> tensor<?x64x1xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.squeeze %arg1 : (tensor<1x3x1xf32>) -> tensor<3xf32>
  // CHECK-NEXT: %3 = graph.constant dense<[0, -1]> : tensor<2xi64>
  // CHECK-NEXT: %4 = graph.unsqueeze %arg0, %3 : (tensor<?x1x64x1xf32, #graph.dims<batch>>, tensor<2xi64>) -> tensor<1x?x1x64x1x1xf32, #graph.dims<batch>>
  // CHECK-NEXT: %5 = graph.flatten %arg2 {axis = 0 : i64} : (tensor<?x3x7x7xf32, #graph.dims<batch>>) -> tensor<1x?xf32, #graph.dims<147*batch>>
  // CHECK-NEXT: %6 = graph.flatten %arg2 {axis = -1 : i64} : (tensor<?x3x7x7xf32, #graph.dims<batch>>) -> tensor<?x7xf32, #graph.dims<21*batch>>
  // CHECK-NEXT: return %1, %2, %4, %5, %6 : tensor<?x64x1xf32, #graph.dims<batch>>, tensor<3xf32>, tensor<1x?x1x64x1x1xf32, #graph.dims<batch>>, tensor<1x?xf32, #graph.dims<147*batch>>, tensor<?x7xf32, #graph.dims<21*batch>>
  // CHECK-NEXT: }
  func.func @squeeze_unsqueeze_flatten(%arg0: tensor<?x1x64x1xf32, #graph.dims<batch>>, %arg1: tensor<1x3x1xf32>, %arg2: tensor<?x3x7x7xf32, #graph.dims<batch>>) -> (tensor<?x64x1xf32, #graph.dims<batch>>, tensor<3xf32>, tensor<1x?x1x64x1x1xf32, #graph.dims<batch>>, tensor<1x?xf32, #graph.dims<147*batch>>, tensor<?x7xf32, #graph.dims<21*batch>>) {
    %0 = graph.constant dense<1> : tensor<1xi64>
    %1 = graph.squeeze %arg0 axes %0 : (tensor<?x1x64x1xf32, #graph.dims<batch>>, tensor<1xi64>) -> tensor<?x64x1xf32, #graph.dims<batch>>
    %2 = graph.squeeze %arg1 : (tensor<1x3x1xf32>) -> tensor<3xf32>
    %3 = graph.constant dense<[0, -1]> : tensor<2xi64>
    %4 = graph.unsqueeze %arg0, %3 : (tensor<?x1x64x1xf32, #graph.dims<batch>>, tensor<2xi64>) -> tensor<1x?x1x64x1x1xf32, #graph.dims<batch>>
    %6 = graph.flatten %arg2 {axis = 0 : i64} : (tensor<?x3x7x7xf32, #graph.dims<batch>>) -> tensor<1x?xf32, #graph.dims<147*batch>>
    %7 = graph.flatten %arg2 {axis = -1 : i64} : (tensor<?x3x7x7xf32, #graph.dims<batch>>) -> tensor<?x7xf32, #graph.dims<21*batch>>
    return %1, %2, %4, %6, %7 : tensor<?x64x1xf32, #graph.dims<batch>>, tensor<3xf32>, tensor<1x?x1x64x1x1xf32, #graph.dims<batch>>, tensor<1x?xf32, #graph.dims<147*batch>>, tensor<?x7xf32, #graph.dims<21*batch>>
  }

  // pad with a value, in reflect mode with cropping, in edge mode with
  // non-constant pads; tile of a symbolic dimension (2*n).
  // CHECK-LABEL: func.func @pad_tile(
  // CHECK-SAME: %arg0: tensor<?x3x32x32xf32, #graph.dims<batch>>, %arg1: tensor<f32>, %arg2: tensor<?x16xi32, #graph.dims<n>>, %arg3: tensor<8xi64>) -> (tensor<?x3x34x34xf32, #graph.dims<batch>>, tensor<?x3x36x30xf32, #graph.dims<batch>>, tensor<?x?x?x?xf32>, tensor<?x32xi32, #graph.dims<2*n>>) {
  // CHECK-NEXT: %0 = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  // CHECK-NEXT: %1 = graph.pad %arg0, %0 value %arg1 : (tensor<?x3x32x32xf32, #graph.dims<batch>>, tensor<8xi64>, tensor<f32>) -> tensor<?x3x34x34xf32, #graph.dims<batch>>
  // CHECK-NEXT: %2 = graph.constant dense<[0, 0, 2, -1, 0, 0, 2, -1]> : tensor<8xi64>
  // CHECK-NEXT: %3 = graph.pad %arg0, %2 {mode = "reflect"} : (tensor<?x3x32x32xf32, #graph.dims<batch>>, tensor<8xi64>) -> tensor<?x3x36x30xf32, #graph.dims<batch>>
  // CHECK-NEXT: %4 = graph.pad %arg0, %arg3 {mode = "edge"} : (tensor<?x3x32x32xf32, #graph.dims<batch>>, tensor<8xi64>) -> tensor<?x?x?x?xf32>
  // CHECK-NEXT: %5 = graph.constant dense<2> : tensor<2xi64>
  // CHECK-NEXT: %6 = graph.tile %arg2, %5 : (tensor<?x16xi32, #graph.dims<n>>, tensor<2xi64>) -> tensor<?x32xi32, #graph.dims<2*n>>
  // CHECK-NEXT: return %1, %3, %4, %6 : tensor<?x3x34x34xf32, #graph.dims<batch>>, tensor<?x3x36x30xf32, #graph.dims<batch>>, tensor<?x?x?x?xf32>, tensor<?x32xi32, #graph.dims<2*n>>
  // CHECK-NEXT: }
  func.func @pad_tile(%arg0: tensor<?x3x32x32xf32, #graph.dims<batch>>, %arg1: tensor<f32>, %arg2: tensor<?x16xi32, #graph.dims<n>>, %arg3: tensor<8xi64>) -> (tensor<?x3x34x34xf32, #graph.dims<batch>>, tensor<?x3x36x30xf32, #graph.dims<batch>>, tensor<?x?x?x?xf32>, tensor<?x32xi32, #graph.dims<2*n>>) {
    %0 = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
    %1 = graph.pad %arg0, %0 value %arg1 : (tensor<?x3x32x32xf32, #graph.dims<batch>>, tensor<8xi64>, tensor<f32>) -> tensor<?x3x34x34xf32, #graph.dims<batch>>
    %2 = graph.constant dense<[0, 0, 2, -1, 0, 0, 2, -1]> : tensor<8xi64>
    %3 = graph.pad %arg0, %2 {mode = "reflect"} : (tensor<?x3x32x32xf32, #graph.dims<batch>>, tensor<8xi64>) -> tensor<?x3x36x30xf32, #graph.dims<batch>>
    %4 = graph.pad %arg0, %arg3 {mode = "edge"} : (tensor<?x3x32x32xf32, #graph.dims<batch>>, tensor<8xi64>) -> tensor<?x?x?x?xf32>
    %5 = graph.constant dense<2> : tensor<2xi64>
    %6 = graph.tile %arg2, %5 : (tensor<?x16xi32, #graph.dims<n>>, tensor<2xi64>) -> tensor<?x32xi32, #graph.dims<2*n>>
    return %1, %3, %4, %6 : tensor<?x3x34x34xf32, #graph.dims<batch>>, tensor<?x3x36x30xf32, #graph.dims<batch>>, tensor<?x?x?x?xf32>, tensor<?x32xi32, #graph.dims<2*n>>
  }

  // shape_of with start/end and of an unranked tensor, size, constant_of_shape
  // with and without value, range with constant and non-constant bounds.
  // CHECK-LABEL: func.func @shapes(
  // CHECK-SAME: %arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<*xf32>, %arg2: tensor<3xi64>, %arg3: tensor<i64>) -> (tensor<1xi64>, tensor<?xi64>, tensor<i64>, tensor<2x3xf32>, tensor<4xi32>, tensor<?x?x?xf32>, tensor<5xi64>, tensor<?xi64>) {
  // CHECK-NEXT: %0 = graph.shape_of %arg0 {end = -1 : i64, start = 1 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<1xi64>
  // CHECK-NEXT: %1 = graph.shape_of %arg1 {start = 1 : i64} : (tensor<*xf32>) -> tensor<?xi64>
  // CHECK-NEXT: %2 = graph.size %arg0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<i64>
  // CHECK-NEXT: %3 = graph.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK-NEXT: %4 = graph.constant_of_shape %3 : (tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK-NEXT: %5 = graph.constant dense<4> : tensor<1xi64>
  // CHECK-NEXT: %6 = graph.constant_of_shape %5 {value = dense<7> : tensor<1xi32>} : (tensor<1xi64>) -> tensor<4xi32>
  // CHECK-NEXT: %7 = graph.constant_of_shape %arg2 {value = dense<1.000000e+00> : tensor<f32>} : (tensor<3xi64>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: %8 = graph.constant dense<0> : tensor<i64>
  // CHECK-NEXT: %9 = graph.constant dense<10> : tensor<i64>
  // CHECK-NEXT: %10 = graph.constant dense<2> : tensor<i64>
  // CHECK-NEXT: %11 = graph.range %8, %9, %10 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
  // CHECK-NEXT: %12 = graph.range %8, %arg3, %10 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  // CHECK-NEXT: return %0, %1, %2, %4, %6, %7, %11, %12 : tensor<1xi64>, tensor<?xi64>, tensor<i64>, tensor<2x3xf32>, tensor<4xi32>, tensor<?x?x?xf32>, tensor<5xi64>, tensor<?xi64>
  // CHECK-NEXT: }
  func.func @shapes(%arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<*xf32>, %arg2: tensor<3xi64>, %arg3: tensor<i64>) -> (tensor<1xi64>, tensor<?xi64>, tensor<i64>, tensor<2x3xf32>, tensor<4xi32>, tensor<?x?x?xf32>, tensor<5xi64>, tensor<?xi64>) {
    %1 = graph.shape_of %arg0 {end = -1 : i64, start = 1 : i64} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<1xi64>
    %2 = graph.shape_of %arg1 {start = 1 : i64} : (tensor<*xf32>) -> tensor<?xi64>
    %3 = graph.size %arg0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<i64>
    %4 = graph.constant dense<[2, 3]> : tensor<2xi64>
    %5 = graph.constant_of_shape %4 : (tensor<2xi64>) -> tensor<2x3xf32>
    %6 = graph.constant dense<4> : tensor<1xi64>
    %7 = graph.constant_of_shape %6 {value = dense<7> : tensor<1xi32>} : (tensor<1xi64>) -> tensor<4xi32>
    %8 = graph.constant_of_shape %arg2 {value = dense<1.000000e+00> : tensor<f32>} : (tensor<3xi64>) -> tensor<?x?x?xf32>
    %9 = graph.constant dense<0> : tensor<i64>
    %10 = graph.constant dense<10> : tensor<i64>
    %11 = graph.constant dense<2> : tensor<i64>
    %12 = graph.range %9, %10, %11 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
    %13 = graph.range %9, %arg3, %11 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
    return %1, %2, %3, %5, %7, %8, %12, %13 : tensor<1xi64>, tensor<?xi64>, tensor<i64>, tensor<2x3xf32>, tensor<4xi32>, tensor<?x?x?xf32>, tensor<5xi64>, tensor<?xi64>
  }

  // attention without a mask, with an i1 mask and a scale, with a float mask
  // (broadcast over batch and heads) and is_causal.
  // CHECK-LABEL: func.func @attention(
  // CHECK-SAME: %arg0: tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, %arg2: tensor<?x?xi1, #graph.dims<seq, kv>>, %arg3: tensor<1x1x?x?xf32, #graph.dims<seq, kv>>) -> (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) {
  // CHECK-NEXT: %0 = graph.attention %arg0, %arg1, %arg1 : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %1 = graph.attention %arg0, %arg1, %arg1 mask %arg2 {scale = 1.250000e-01 : f64} : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x?xi1, #graph.dims<seq, kv>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %2 = graph.attention %arg0, %arg1, %arg1 mask %arg3 {is_causal = true} : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<1x1x?x?xf32, #graph.dims<seq, kv>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: return %0, %1, %2 : tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: }
  func.func @attention(%arg0: tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, %arg1: tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, %arg2: tensor<?x?xi1, #graph.dims<seq, kv>>, %arg3: tensor<1x1x?x?xf32, #graph.dims<seq, kv>>) -> (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>) {
    %0 = graph.attention %arg0, %arg1, %arg1 : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
    %1 = graph.attention %arg0, %arg1, %arg1 mask %arg2 {scale = 1.250000e-01 : f64} : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x?xi1, #graph.dims<seq, kv>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
    %2 = graph.attention %arg0, %arg1, %arg1 mask %arg3 {is_causal = true} : (tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<?x12x?x64xf32, #graph.dims<batch, kv>>, tensor<1x1x?x?xf32, #graph.dims<seq, kv>>) -> tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
    return %0, %1, %2 : tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>, tensor<?x12x?x64xf32, #graph.dims<batch, seq>>
  }

  // Integer attributes left at their default (axis -1 of the normalizations, axis
  // 0 of argmax/argmin/split/gather, axis 1 of flatten, group 1 of conv2d, start 0
  // of shape_of) are elided in every form, including after the generic form.
  // CHECK-LABEL: func.func @integer_defaults(
  // CHECK-SAME: %arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768xf32>, %arg2: tensor<?x3x224x224xf32, #graph.dims<batch>>, %arg3: tensor<64x3x7x7xf32>, %arg4: tensor<50257x768xf32>, %arg5: tensor<?x?xi64, #graph.dims<batch, seq>>) -> (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<1x?x768xi64, #graph.dims<seq>>, tensor<1x?x?xi64, #graph.dims<batch, seq>>, tensor<?x?x768xf32, #graph.dims<?, seq>>, tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x150528xf32, #graph.dims<batch>>, tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<3xi64>) {
  // CHECK-NEXT: %0 = graph.softmax %arg0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %1 = graph.log_softmax %0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %2 = graph.layer_norm %1, %arg1, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %3 = graph.rms_norm %2, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %4 = graph.argmax %3 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<1x?x768xi64, #graph.dims<seq>>
  // CHECK-NEXT: %5 = graph.transpose %3 {perm = array<i64: 2, 0, 1>} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<768x?x?xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %6 = graph.argmin %5 : (tensor<768x?x?xf32, #graph.dims<batch, seq>>) -> tensor<1x?x?xi64, #graph.dims<batch, seq>>
  // CHECK-NEXT: %7:2 = graph.split %3 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> (tensor<?x?x768xf32, #graph.dims<?, seq>>, tensor<?x?x768xf32, #graph.dims<?, seq>>)
  // CHECK-NEXT: %8 = graph.gather %arg4[%arg5] : (tensor<50257x768xf32>, tensor<?x?xi64, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
  // CHECK-NEXT: %9 = graph.flatten %arg2 : (tensor<?x3x224x224xf32, #graph.dims<batch>>) -> tensor<?x150528xf32, #graph.dims<batch>>
  // CHECK-NEXT: %10 = graph.conv2d %arg2, %arg3 {pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<64x3x7x7xf32>) -> tensor<?x64x112x112xf32, #graph.dims<batch>>
  // CHECK-NEXT: %11 = graph.shape_of %arg0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<3xi64>
  // CHECK-NEXT: return %3, %4, %6, %7#1, %8, %9, %10, %11 : tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<1x?x768xi64, #graph.dims<seq>>, tensor<1x?x?xi64, #graph.dims<batch, seq>>, tensor<?x?x768xf32, #graph.dims<?, seq>>, tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x150528xf32, #graph.dims<batch>>, tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<3xi64>
  // CHECK-NEXT: }
  func.func @integer_defaults(%arg0: tensor<?x?x768xf32, #graph.dims<batch, seq>>, %arg1: tensor<768xf32>, %arg2: tensor<?x3x224x224xf32, #graph.dims<batch>>, %arg3: tensor<64x3x7x7xf32>, %arg4: tensor<50257x768xf32>, %arg5: tensor<?x?xi64, #graph.dims<batch, seq>>) -> (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<1x?x768xi64, #graph.dims<seq>>, tensor<1x?x?xi64, #graph.dims<batch, seq>>, tensor<?x?x768xf32, #graph.dims<?, seq>>, tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x150528xf32, #graph.dims<batch>>, tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<3xi64>) {
    %0 = graph.softmax %arg0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %1 = graph.log_softmax %0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %2 = graph.layer_norm %1, %arg1, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %3 = graph.rms_norm %2, %arg1 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<768xf32>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %4 = graph.argmax %3 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<1x?x768xi64, #graph.dims<seq>>
    %5 = graph.transpose %3 {perm = array<i64: 2, 0, 1>} : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<768x?x?xf32, #graph.dims<batch, seq>>
    %6 = graph.argmin %5 : (tensor<768x?x?xf32, #graph.dims<batch, seq>>) -> tensor<1x?x?xi64, #graph.dims<batch, seq>>
    %7:2 = graph.split %3 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> (tensor<?x?x768xf32, #graph.dims<?, seq>>, tensor<?x?x768xf32, #graph.dims<?, seq>>)
    %8 = graph.gather %arg4[%arg5] : (tensor<50257x768xf32>, tensor<?x?xi64, #graph.dims<batch, seq>>) -> tensor<?x?x768xf32, #graph.dims<batch, seq>>
    %9 = graph.flatten %arg2 : (tensor<?x3x224x224xf32, #graph.dims<batch>>) -> tensor<?x150528xf32, #graph.dims<batch>>
    %10 = graph.conv2d %arg2, %arg3 {pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x3x224x224xf32, #graph.dims<batch>>, tensor<64x3x7x7xf32>) -> tensor<?x64x112x112xf32, #graph.dims<batch>>
    %11 = graph.shape_of %arg0 : (tensor<?x?x768xf32, #graph.dims<batch, seq>>) -> tensor<3xi64>
    return %3, %4, %6, %7#1, %8, %9, %10, %11 : tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<1x?x768xi64, #graph.dims<seq>>, tensor<1x?x?xi64, #graph.dims<batch, seq>>, tensor<?x?x768xf32, #graph.dims<?, seq>>, tensor<?x?x768xf32, #graph.dims<batch, seq>>, tensor<?x150528xf32, #graph.dims<batch>>, tensor<?x64x112x112xf32, #graph.dims<batch>>, tensor<3xi64>
  }
}
