// ai.onnx.ml TreeEnsemble spelled out with graph ops (Inputs/tree-ensemble.py
// writes the model, two trees using every comparison mode, set membership
// and NaNs that take the true way, with onnxruntime's outputs): SUM,
// AVERAGE, MIN and MAX, and the SOFTMAX and LOGISTIC post transforms,
// eagerly and in graph mode. A node list whose tree loops is an error.
// RUN: strata import %S/Inputs/tree-ensemble.onnx | FileCheck %s
// RUN: strata run %S/Inputs/tree-ensemble.onnx --input x=%S/Inputs/tree-ensemble-x.npy --expect y_sum=%S/Inputs/tree-ensemble-sum.npy --expect y_avg=%S/Inputs/tree-ensemble-avg.npy --expect y_min=%S/Inputs/tree-ensemble-min.npy --expect y_max=%S/Inputs/tree-ensemble-max.npy --expect y_softmax=%S/Inputs/tree-ensemble-softmax.npy --expect y_logistic=%S/Inputs/tree-ensemble-logistic.npy | FileCheck %s --check-prefix=OUT
// RUN: strata run %S/Inputs/tree-ensemble.onnx --mode graph --input x=%S/Inputs/tree-ensemble-x.npy --expect y_sum=%S/Inputs/tree-ensemble-sum.npy --expect y_avg=%S/Inputs/tree-ensemble-avg.npy --expect y_min=%S/Inputs/tree-ensemble-min.npy --expect y_max=%S/Inputs/tree-ensemble-max.npy --expect y_softmax=%S/Inputs/tree-ensemble-softmax.npy --expect y_logistic=%S/Inputs/tree-ensemble-logistic.npy | FileCheck %s --check-prefix=OUT
// RUN: not strata import %S/Inputs/tree-ensemble-cycle.onnx 2>&1 | FileCheck %s --check-prefix=CYCLE

// The features of each comparison's nodes gathered and compared at once,
// the paths counted with two products, the weights summed with a third.
// CHECK-LABEL: func.func @main
// CHECK: graph.gather
// CHECK: graph.less_equal
// CHECK: graph.matmul
// CHECK: graph.matmul
// CHECK: graph.equal
// CHECK: graph.matmul
// CHECK: graph.softmax
// CHECK: graph.sigmoid

// OUT-DAG: y_sum: matches
// OUT-DAG: y_avg: matches
// OUT-DAG: y_min: matches
// OUT-DAG: y_max: matches
// OUT-DAG: y_softmax: matches
// OUT-DAG: y_logistic: matches
// OUT-NOT: does not match

// CYCLE: tree-ensemble-cycle.onnx: node 'loop': TreeEnsemble has a tree (root 0) with a cycle
