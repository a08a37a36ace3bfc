// cf.switch on a flag wider than 64 bits, as mlir-opt 22 reads and prints
// it: case values are 64-bit literals sign-extended to the flag's width,
// printed as MLIR's getLimitedValue() prints them (a negative one as the
// largest 64-bit value). The CHECK lines are mlir-opt 22's output.
// RUN: strata-opt %s | FileCheck %s --strict-whitespace
// RUN: strata-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: cf.switch %arg0 : i128, [
// CHECK-NEXT:   default: ^bb1,
// CHECK-NEXT:   18446744073709551615: ^bb2,
// CHECK-NEXT:   9223372036854775807: ^bb2
// CHECK-NEXT: ]
// GENERIC: case_values = dense<[-5, 9223372036854775807]> : vector<2xi128>

func.func @wide(%flag: i128) {
  cf.switch %flag : i128, [
    default: ^bb1,
    -5: ^bb2,
    9223372036854775807: ^bb2
  ]
^bb1:
  return
^bb2:
  return
}
