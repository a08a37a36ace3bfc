// REQUIRES: strata-opt
// canonicalize,cse on a generated module gives exactly mlir-opt's result on
// the same module spelled with arith/func (test.constant/test.addi/test.func
// fold, merge and hoist as arith.constant/arith.addi/func.func do).
// RUN: rm -rf %t && python3 %S/../../scripts/bench-canonicalize --emit %t --ops 4000 --seed 7
// RUN: strata-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize,cse)' --mlir-print-op-generic %t/canon-4000-test.mlir | sed -e 's/test\.constant/arith.constant/' -e 's/test\.addi/arith.addi/' -e 's/test\.func/func.func/' -e 's/test\.return/func.return/' > %t/strata.mlir
// RUN: mlir-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize,cse)' --mlir-print-op-generic %t/canon-4000-arith.mlir | sed -e 's/ <{overflowFlags = #arith.overflow<none>}>//' -e 's/function_type = () -> (), //' > %t/mlir.mlir
// RUN: diff %t/strata.mlir %t/mlir.mlir
