// Round trip of the vector dialect's ops that strata has (vector.from_elements,
// which the GPU path uses for a thread's vector stores and mma fragments, and
// vector.extract, which reads an mma accumulator back): the body below is
// exactly what mlir-opt prints for it, in the pretty form, after a second
// pass, and after going through the generic form.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | strata-opt | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: module {
module {
  // CHECK-NEXT:   func.func @from_elements(%arg0: f32, %arg1: f32, %arg2: f16, %arg3: i8) -> (vector<2xf32>, vector<1xf16>, vector<4xi8>) {
  // CHECK-NEXT:     %0 = vector.from_elements %arg0, %arg1 : vector<2xf32>
  // CHECK-NEXT:     %1 = vector.from_elements %arg2 {tag} : vector<1xf16>
  // CHECK-NEXT:     %2 = vector.from_elements %arg3, %arg3, %arg3, %arg3 : vector<4xi8>
  // CHECK-NEXT:     return %0, %1, %2 : vector<2xf32>, vector<1xf16>, vector<4xi8>
  // CHECK-NEXT:   }
  func.func @from_elements(%a: f32, %b: f32, %h: f16, %i: i8) -> (vector<2xf32>, vector<1xf16>, vector<4xi8>) {
    %0 = vector.from_elements %a, %b : vector<2xf32>
    %1 = vector.from_elements %h {tag} : vector<1xf16>
    %2 = vector.from_elements %i, %i, %i, %i : vector<4xi8>
    return %0, %1, %2 : vector<2xf32>, vector<1xf16>, vector<4xi8>
  }
  // CHECK-NEXT:   func.func @extract(%arg0: vector<4xf32>, %arg1: vector<2x3xf16>) -> (f32, vector<3xf16>, f16, vector<4xf32>) {
  // CHECK-NEXT:     %0 = vector.extract %arg0[3] : f32 from vector<4xf32>
  // CHECK-NEXT:     %1 = vector.extract %arg1[1] {tag} : vector<3xf16> from vector<2x3xf16>
  // CHECK-NEXT:     %2 = vector.extract %arg1[1, 2] : f16 from vector<2x3xf16>
  // CHECK-NEXT:     %3 = vector.extract %arg0[] : vector<4xf32> from vector<4xf32>
  // CHECK-NEXT:     return %0, %1, %2, %3 : f32, vector<3xf16>, f16, vector<4xf32>
  // CHECK-NEXT:   }
  func.func @extract(%v: vector<4xf32>, %w: vector<2x3xf16>) -> (f32, vector<3xf16>, f16, vector<4xf32>) {
    %0 = vector.extract %v[3] : f32 from vector<4xf32>
    %1 = vector.extract %w[1] {tag} : vector<3xf16> from vector<2x3xf16>
    %2 = vector.extract %w[1, 2] : f16 from vector<2x3xf16>
    %3 = vector.extract %v[] : vector<4xf32> from vector<4xf32>
    return %0, %1, %2, %3 : f32, vector<3xf16>, f16, vector<4xf32>
  }
}
// GENERIC: "vector.from_elements"(%arg{{[0-9]+}}, %arg{{[0-9]+}}) : (f32, f32) -> vector<2xf32>
// GENERIC: "vector.from_elements"(%arg{{[0-9]+}}) {tag} : (f16) -> vector<1xf16>
// GENERIC: "vector.extract"(%arg0) <{static_position = array<i64: 3>}> : (vector<4xf32>) -> f32
// GENERIC: "vector.extract"(%arg1) <{static_position = array<i64: 1>}> {tag} : (vector<2x3xf16>) -> vector<3xf16>
// GENERIC: "vector.extract"(%arg0) <{static_position = array<i64>}> : (vector<4xf32>) -> vector<4xf32>
