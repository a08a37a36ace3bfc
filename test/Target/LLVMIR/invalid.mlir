// What strata-translate rejects, each at its location: an op the host
// target cannot compile (a scalar, a tile, a region op), IR that does not
// verify, text that does not parse.
// RUN: strata-translate %s --split-input-file --verify-diagnostics
// Without --verify-diagnostics each error is printed with its source line,
// no LLVM IR is printed and the exit status is 1:
// RUN: not strata-translate %s --split-input-file 2>&1 | FileCheck %s
// RUN: not strata-translate %s --split-input-file 2>/dev/null | count 0

// CHECK: invalid.mlir:[[# @LINE + 5]]:8: error: 'arith.ceildivsi' op is not compiled for the host yet
// CHECK-NEXT: {{^}}  %y = arith.ceildivsi %x, %x : i32
// CHECK-NEXT: {{^}}       ^
kernel.func @k(%x: i32) {
  // expected-error @+1 {{'arith.ceildivsi' op is not compiled for the host yet}}
  %y = arith.ceildivsi %x, %x : i32
  kernel.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 7]]:8: error: 'arith.floordivsi' op is not compiled for the host yet
kernel.func @tile_op(%x: !kernel.ptr<i32>) {
  %r = kernel.range 0, 4 : tensor<4xi32>
  %p = kernel.splat %x : !kernel.ptr<i32> -> tensor<4x!kernel.ptr<i32>>
  %a = kernel.addptr %p, %r : tensor<4x!kernel.ptr<i32>>, tensor<4xi32>
  %v = kernel.load %a : tensor<4x!kernel.ptr<i32>>
  // expected-error @+1 {{'arith.floordivsi' op is not compiled for the host yet}}
  %w = arith.floordivsi %v, %r : tensor<4xi32>
  kernel.store %a, %w : tensor<4x!kernel.ptr<i32>>
  kernel.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 4]]:3: error: 'scf.if' op is not compiled for the host yet
kernel.func @region_op(%c: i1, %x: !kernel.ptr<f32>) {
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{'scf.if' op is not compiled for the host yet}}
  scf.if %c {
    kernel.store %x, %one : !kernel.ptr<f32>
  }
  kernel.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 3]]:8: error: 'kernel.range' op result must be tensor<4xi32>, got 'tensor<8xi32>'
kernel.func @bad_range() {
  // expected-error @+1 {{'kernel.range' op result must be tensor<4xi32>, got 'tensor<8xi32>'}}
  %r = kernel.range 0, 4 : tensor<8xi32>
  kernel.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 3]]:20: error: use of undeclared SSA value name
kernel.func @unparsable(%p: !kernel.ptr<f32>) {
  // expected-error @+1 {{use of undeclared SSA value name}}
  kernel.store %p, %nothing : !kernel.ptr<f32>
  kernel.return
}
