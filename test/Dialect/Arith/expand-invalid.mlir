// arith-expand fails, as MLIR 22's, on a scaling op whose scale is a type
// of eight bits or fewer other than f8E8M0FNU (this file passes
// --verify-diagnostics with both tools).
// RUN: strata-opt %s --split-input-file --verify-diagnostics --arith-expand

func.func @scale_f8E4M3FN(%a: f4E2M1FN, %s: f8E4M3FN) -> f32 {
  // expected-error @+1 {{failed to legalize operation 'arith.scaling_extf' that was explicitly marked illegal}}
  %0 = arith.scaling_extf %a, %s : f4E2M1FN, f8E4M3FN to f32
  return %0 : f32
}

// -----

func.func @scale_f6E2M3FN(%a: f32, %s: f6E2M3FN) -> f4E2M1FN {
  // expected-error @+1 {{failed to legalize operation 'arith.scaling_truncf' that was explicitly marked illegal}}
  %0 = arith.scaling_truncf %a, %s : f32, f6E2M3FN to f4E2M1FN
  return %0 : f4E2M1FN
}
