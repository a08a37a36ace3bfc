// REQUIRES: strata-opt
// Round trip of the string ops and of the !graph.string element type: in
// the pretty form, after a second pass, and through the generic form.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s

// CHECK-LABEL: func.func @strings
// CHECK-SAME: (%[[A:.*]]: tensor<2x!graph.string>, %[[B:.*]]: tensor<1x!graph.string>)
func.func @strings(%a: tensor<2x!graph.string>, %b: tensor<1x!graph.string>) -> (tensor<2x!graph.string>, tensor<2xi1>, tensor<2xi1>, tensor<2x?x!graph.string>, tensor<2xi64>, tensor<?x!graph.string>) {
  // CHECK: %[[C:.*]] = graph.string_concat %[[A]], %[[B]] : (tensor<2x!graph.string>, tensor<1x!graph.string>) -> tensor<2x!graph.string>
  %c = graph.string_concat %a, %b : (tensor<2x!graph.string>, tensor<1x!graph.string>) -> tensor<2x!graph.string>
  // CHECK: graph.string_equal %[[A]], %[[C]] : (tensor<2x!graph.string>, tensor<2x!graph.string>) -> tensor<2xi1>
  %e = graph.string_equal %a, %c : (tensor<2x!graph.string>, tensor<2x!graph.string>) -> tensor<2xi1>
  // CHECK: graph.regex_full_match %[[A]] {pattern = "[a-z]+\\.com"} : (tensor<2x!graph.string>) -> tensor<2xi1>
  %m = graph.regex_full_match %a {pattern = "[a-z]+\\.com"} : (tensor<2x!graph.string>) -> tensor<2xi1>
  // CHECK: graph.string_split %[[A]] {delimiter = ".", maxsplit = 1 : i64} : (tensor<2x!graph.string>) -> (tensor<2x?x!graph.string>, tensor<2xi64>)
  %p, %n = graph.string_split %a {delimiter = ".", maxsplit = 1 : i64} : (tensor<2x!graph.string>) -> (tensor<2x?x!graph.string>, tensor<2xi64>)
  // CHECK: graph.string_normalizer %[[C]] {case_change_action = "LOWER", stopwords = ["the", "a"]} : (tensor<2x!graph.string>) -> tensor<?x!graph.string>
  %w = graph.string_normalizer %c {case_change_action = "LOWER", stopwords = ["the", "a"]} : (tensor<2x!graph.string>) -> tensor<?x!graph.string>
  return %c, %e, %m, %p, %n, %w : tensor<2x!graph.string>, tensor<2xi1>, tensor<2xi1>, tensor<2x?x!graph.string>, tensor<2xi64>, tensor<?x!graph.string>
}

// A lookup table from strings to numbers and from numbers to strings.
// CHECK-LABEL: func.func @label_encoder
func.func @label_encoder(%a: tensor<3x!graph.string>, %x: tensor<2x2xf32>) -> (tensor<3xi64>, tensor<2x2x!graph.string>) {
  // CHECK: graph.label_encoder %{{.*}} {default_value = dense<-1> : tensor<i64>, keys = dense<["a", "b"]> : tensor<2x!graph.string>, values = dense<[1, 2]> : tensor<2xi64>} : (tensor<3x!graph.string>) -> tensor<3xi64>
  %n = graph.label_encoder %a {keys = dense<["a", "b"]> : tensor<2x!graph.string>, values = dense<[1, 2]> : tensor<2xi64>, default_value = dense<-1> : tensor<i64>} : (tensor<3x!graph.string>) -> tensor<3xi64>
  // CHECK: graph.label_encoder %{{.*}} {default_value = dense<"none"> : tensor<!graph.string>, keys = dense<[0.000000e+00, 1.000000e+00]> : tensor<2xf32>, values = dense<["zero", "one"]> : tensor<2x!graph.string>} : (tensor<2x2xf32>) -> tensor<2x2x!graph.string>
  %s = graph.label_encoder %x {keys = dense<[0.0, 1.0]> : tensor<2xf32>, values = dense<["zero", "one"]> : tensor<2x!graph.string>, default_value = dense<"none"> : tensor<!graph.string>} : (tensor<2x2xf32>) -> tensor<2x2x!graph.string>
  return %n, %s : tensor<3xi64>, tensor<2x2x!graph.string>
}
