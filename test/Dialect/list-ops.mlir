// REQUIRES: strata-opt
// The registered dialects and operations, as strata-opt lists them.
// RUN: strata-opt --list-dialects | FileCheck %s --check-prefix=DIALECTS
// RUN: strata-opt --list-ops | FileCheck %s --check-prefix=OPS
// RUN: strata-opt --show-dialects | FileCheck %s --check-prefix=SHOW

// DIALECTS:      arith
// DIALECTS-NEXT: builtin
// DIALECTS-NEXT: cf
// DIALECTS-NEXT: func
// DIALECTS-NEXT: graph
// DIALECTS-NEXT: kernel
// DIALECTS-NEXT: math
// DIALECTS-NEXT: nvptx
// DIALECTS-NEXT: scf
// DIALECTS-NEXT: tensor
// DIALECTS-NEXT: test
// DIALECTS-NEXT: ub
// DIALECTS-NEXT: vector

// OPS: arith.addf Floating point addition operation.
// OPS: arith.cmpi Integer comparison operation.
// OPS: builtin.module A top level container operation
// OPS: func.call Call operation: calls the function named by `callee` with the operands.
// OPS: func.func
// OPS: math.fma
// OPS: scf.for For operation.
// OPS: scf.while
// OPS: tensor.contract A contraction: matrix product, batched matrix product, or any sum of products whose operands are read through projected permutations.
// OPS: tensor.map Elementwise computation over an iteration domain, reading each input through an affine indexing map.
// OPS: ub.poison Poisoned constant operation.

// SHOW: Available Dialects: arith,builtin,cf,func,graph,kernel,math,nvptx,scf,tensor,test,ub,vector
