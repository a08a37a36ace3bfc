// Round trip of the vector dialect's ops that strata has (vector.from_elements,
// which the GPU path uses for a thread's vector stores): the body below is
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
}
// GENERIC: %0 = "vector.from_elements"(%arg0, %arg1) : (f32, f32) -> vector<2xf32>
// GENERIC: %1 = "vector.from_elements"(%arg2) {tag} : (f16) -> vector<1xf16>
