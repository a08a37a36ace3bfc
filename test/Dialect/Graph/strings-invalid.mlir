// REQUIRES: strata-opt
// Verifier errors of the string ops.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @bad_pattern(%a: tensor<2x!graph.string>) {
  // expected-error @+1 {{'graph.regex_full_match' op pattern does not compile}}
  %m = graph.regex_full_match %a {pattern = "(unclosed"} : (tensor<2x!graph.string>) -> tensor<2xi1>
  return
}

// -----

func.func @numbers(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'graph.string_concat' op operand #0 must be tensor of string values, but got 'tensor<2xf32>'}}
  %c = graph.string_concat %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @three_d(%a: tensor<1x2x3x!graph.string>) {
  // expected-error @+1 {{'graph.string_normalizer' op takes a [C] or [1, C] tensor, but the input has shape [1, 2, 3]}}
  %w = graph.string_normalizer %a : (tensor<1x2x3x!graph.string>) -> tensor<?x!graph.string>
  return
}

// -----

func.func @case(%a: tensor<2x!graph.string>) {
  // expected-error @+1 {{'graph.string_normalizer' op case_change_action must be "NONE", "LOWER" or "UPPER", not "TITLE"}}
  %w = graph.string_normalizer %a {case_change_action = "TITLE"} : (tensor<2x!graph.string>) -> tensor<?x!graph.string>
  return
}

// -----

func.func @split_rank(%a: tensor<2x!graph.string>) {
  // expected-error @+1 {{'graph.string_split' op result #0}}
  %p, %n = graph.string_split %a : (tensor<2x!graph.string>) -> (tensor<2x!graph.string>, tensor<2xi64>)
  return
}

// -----

// expected-error @+1 {{unknown graph type 'strings' (expected 'seq', 'opt' or 'string')}}
func.func @typo(%a: tensor<2x!graph.strings<x>>) {
  return
}

// -----

func.func @table_types(%a: tensor<3x!graph.string>) {
  // expected-error @+1 {{'graph.label_encoder' op keys are i64 but the input is of !graph.string}}
  %n = graph.label_encoder %a {keys = dense<[1, 2]> : tensor<2xi64>, values = dense<[1, 2]> : tensor<2xi64>, default_value = dense<-1> : tensor<i64>} : (tensor<3x!graph.string>) -> tensor<3xi64>
  return
}

// -----

func.func @table_lengths(%a: tensor<3x!graph.string>) {
  // expected-error @+1 {{'graph.label_encoder' op has 2 keys but 3 values}}
  %n = graph.label_encoder %a {keys = dense<["a", "b"]> : tensor<2x!graph.string>, values = dense<[1, 2, 3]> : tensor<3xi64>, default_value = dense<-1> : tensor<i64>} : (tensor<3x!graph.string>) -> tensor<3xi64>
  return
}
