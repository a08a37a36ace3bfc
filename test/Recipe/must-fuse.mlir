// optimize.fusion.must_fuse: each chain must end in one kernel, or the
// compile fails at the chain's first op, naming the kernels its ops ended
// in and why.
// RUN: printf '[optimize.fusion]\nmust_fuse = [["add", "relu"]]\n' > %t.eltwise.toml
// RUN: strata compile %S/Inputs/must-fuse-eltwise.mlir --recipe %t.eltwise.toml | FileCheck %s --check-prefix=ELTWISE
// RUN: strata recipe pipeline %t.eltwise.toml | FileCheck %s --check-prefix=PIPELINE
//
// A matmul's bias add fuses as the epilogue of a generated contraction, not
// of a library product.
// RUN: printf '[optimize.fusion]\nmust_fuse = [["matmul", "add"]]\n' > %t.library.toml
// RUN: not strata compile %S/Inputs/must-fuse-bias.mlir --recipe %t.library.toml 2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: printf '[optimize.fusion]\nmust_fuse = [["matmul", "add"]]\n[codegen]\nkernel_selection = "generated"\n' > %t.generated.toml
// RUN: strata compile %S/Inputs/must-fuse-bias.mlir --recipe %t.generated.toml | FileCheck %s --check-prefix=GENERATED
//
// A convolution's output is transposed back to NCHW before the norm: the
// chain cannot be one kernel.
// RUN: printf '[optimize.fusion]\nmust_fuse = [["conv", "batch_norm", "relu"]]\n[codegen]\nkernel_selection = "generated"\n' > %t.conv.toml
// RUN: not strata compile %S/Inputs/must-fuse-cbr.mlir --recipe %t.conv.toml 2>&1 | FileCheck %s --check-prefix=CONV
//
// A chain the model does not contain constrains nothing; max_fused_ops
// splitting a chain is an error too.
// RUN: strata compile %S/Inputs/must-fuse-bias.mlir --recipe %t.eltwise.toml | FileCheck %s --check-prefix=ABSENT
// RUN: printf '[optimize.fusion]\nmust_fuse = [["add", "relu", "neg"]]\nmax_fused_ops = 2\n' > %t.max.toml
// RUN: not strata compile %S/Inputs/must-fuse-eltwise.mlir --recipe %t.max.toml 2>&1 | FileCheck %s --check-prefix=MAX

// ELTWISE-COUNT-1: kernel.launch
// ELTWISE-NOT: kernel.launch
// PIPELINE: graph-mark-fusion-chains{chains=add+relu},convert-graph-to-tensor

// LIBRARY: must-fuse-bias.mlir:2:8: error: must_fuse chain 'matmul, add' ends in 2 kernels, not one: gemm 4x8x5 (library), main_0_map
// LIBRARY-NEXT: must-fuse-bias.mlir:2:8: note: 'matmul' computes a tensor.contract in gemm 4x8x5 (library)
// LIBRARY: must-fuse-bias.mlir:3:8: note: 'add' computes a tensor.map in main_0_map
// LIBRARY: note: why: a library matrix product (codegen.kernel_selection = "library") runs alone

// GENERATED-COUNT-1: kernel.launch
// GENERATED-NOT: kernel.gemm

// CONV: must-fuse-cbr.mlir:2:8: error: must_fuse chain 'conv, batch_norm, relu' ends in
// CONV: note: 'conv' computes a tensor.contract in main_1_contract
// CONV: note: 'batch_norm' computes a tensor.map in main_2_map
// CONV: note: why: tensor-fuse joins an op to its producer's kernel only as

// ABSENT: kernel.gemm

// MAX: must-fuse-eltwise.mlir:2:8: error: must_fuse chain 'add, relu, neg' ends in 2 kernels
