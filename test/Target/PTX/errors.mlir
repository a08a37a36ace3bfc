// strata-translate --emit=ptx: what it refuses, located, with exit status 1.
// RUN: not strata-translate --split-input-file --emit=ptx %s 2>&1 | FileCheck %s
// RUN: not strata-translate --emit=ptx --target=sm_80 %S/Inputs/sm90.mlir 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: strata-translate --emit=ptx --target=sm_80 %S/Inputs/untargeted.mlir | FileCheck %s --check-prefix=SET
// RUN: not strata-translate --emit=ptx --target=sm_75 %s 2>&1 | FileCheck %s --check-prefix=FLAG

// CHECK: errors.mlir:[[@LINE+2]]:3: error: 'func.func' op returns values: a GPU kernel returns nothing (write results through pointers)
module attributes {nvptx.target = "sm_90"} {
  func.func @k(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// CHECK: errors.mlir:[[@LINE+4]]:10: error: 'arith.addf' op computes on vectors, which the GPU translation does not handle yet
module attributes {nvptx.target = "sm_90"} {
  func.func @k(%p: !nvptx.ptr<f32, global>, %i: i32) {
    %v = nvptx.load %p[%i] : !nvptx.ptr<f32, global> -> vector<4xf32>
    %w = arith.addf %v, %v : vector<4xf32>
    nvptx.store %w, %p[%i] : vector<4xf32>, !nvptx.ptr<f32, global>
    return
  }
}

// -----

// CHECK: errors.mlir:[[@LINE+1]]:1: error: 'builtin.module' op has no 'nvptx.target' (an nvptx module names its GPU; kernel modules are not lowered to nvptx yet)
module {
  func.func @k() {
    return
  }
}

// TARGET: sm90.mlir:1:1: error: 'builtin.module' op targets 'sm_90', not 'sm_80' (--target)
// SET: .target sm_80
// SET: .entry k(
// FLAG: --target='sm_75': unknown GPU; the targets are: sm_80, sm_90
