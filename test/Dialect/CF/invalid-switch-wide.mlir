// A cf.switch case value past 64 bits is "integer value too large", at
// the literal, for any flag width (this file passes --verify-diagnostics
// with both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @past_64_bits(%flag: i128) {
  cf.switch %flag : i128, [
    default: ^bb1,
    // expected-error @+1 {{custom op 'cf.switch' integer value too large}}
    18446744073709551616: ^bb1
  ]
^bb1:
  return
}

// -----

func.func @past_128_bits(%flag: i128) {
  cf.switch %flag : i128, [
    default: ^bb1,
    // expected-error @+1 {{custom op 'cf.switch' integer value too large}}
    -170141183460469231731687303715884105729: ^bb1
  ]
^bb1:
  return
}
