// REQUIRES: strata-opt
// Without --allow-unregistered-dialect, operations, attributes and types of
// dialects that are not registered are errors; unknown operations of the
// (registered) builtin dialect are errors either way.
// RUN: not strata-opt %s 2>&1 | FileCheck %s
// RUN: not strata-opt --split-input-file %s -o /dev/null 2>&1 | FileCheck --check-prefix=SPLIT %s

// Without --split-input-file, parsing stops at the first error.
// CHECK:      unregistered-dialect.mlir:[[@LINE+5]]:9: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// CHECK-NEXT: "foo.op"() : () -> ()
// CHECK-NEXT: ^
// CHECK-NOT:  error
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:9: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
"foo.op"() : () -> ()

// -----

// mlir-opt: "#"foo"<"attr"> : 'none' attribute created with unregistered
// dialect. If this is intended, please call allowUnregisteredDialects() on the
// MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used",
// at the end of the attribute (column 52).
"builtin.module"() ({
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:52: error: #"foo"<"attr"> : 'none' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
  "builtin.unrealized_conversion_cast"() {a = #foo.attr} : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:47: error: #"foo"<"attr"> : 'none' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
  "builtin.unrealized_conversion_cast"() {a = #foo<attr>} : () -> ()
}) : () -> ()

// -----

// mlir-opt: "`!"foo"<"type">` type created with unregistered dialect. ...",
// at the end of the type (column 60).
"builtin.module"() ({
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:60: error: `!"foo"<"type">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
  %0 = "builtin.unrealized_conversion_cast"() : () -> !foo.type
}) : () -> ()

// -----

"builtin.module"() ({
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:55: error: `!"foo"<"type">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
  %0 = "builtin.unrealized_conversion_cast"() : () -> !foo<type>
}) : () -> ()

// -----

// SPLIT:      unregistered-dialect.mlir:[[@LINE+2]]:1: error: Dialect `foo' not found for custom op 'foo.bar'
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:1: note: Available dialects: arith, builtin, cf, func, graph, kernel, math, nvptx, scf, tensor, test, ub, vector ; for more info on dialect registration see https://mlir.llvm.org/getting_started/Faq/#registered-loaded-dependent-whats-up-with-dialects-management
foo.bar

// -----

module {
// SPLIT:      unregistered-dialect.mlir:[[@LINE+1]]:3: error: unregistered operation 'builtin.foo' found in dialect ('builtin') that does not allow unknown operations
  "builtin.foo"() : () -> ()
}

// -----

// Registered operations with builtin attributes and types are fine.
// SPLIT-NOT:  error
"builtin.module"() ({
  %0 = "builtin.unrealized_conversion_cast"() {a = [1, "s", @sym]} : () -> tensor<4xf32>
}) : () -> ()
