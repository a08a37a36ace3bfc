// REQUIRES: strata-opt
// Parser diagnostics for builtin types, type aliases and dialect types.
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -o /dev/null

// A NUL byte inside a dialect type body (kept out of this file so that it
// stays text; mlir-opt reports "unbalanced '<' character in pretty dialect name").
// RUN: printf '// expected-error @+1 {{unexpected nul or EOF in pretty dialect name}}\n"foo.op"() : () -> !foo<a\0b>\n' > %t.nul.mlir
// RUN: strata-opt --allow-unregistered-dialect --verify-diagnostics %t.nul.mlir -o /dev/null

// Function types.

// expected-error @+1 {{expected ')'}}
"foo.op"() : () -> (i32 -> i32)

// -----

// expected-error @+1 {{expected ')'}}
"foo.op"() : (i32, i32 -> ()

// -----

// expected-error @+1 {{expected '->' in function type}}
"foo.op"() : (i32) i32

// -----

// Builtin type keywords and integer types.

// expected-error @+1 {{expected non-function type}}
"foo.op"() : () -> 5

// -----

// mlir-opt reports these three right after '->' (column 19, not 20).
// expected-error @+1 {{expected non-function type}}
"foo.op"() : () -> foo

// -----

// expected-error @+1 {{expected non-function type}}
"foo.op"() : () -> i

// -----

// expected-error @+1 {{expected non-function type}}
"foo.op"() : () -> i32x

// -----

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
"foo.op"() : () -> i16777216

// -----

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
"foo.op"() {a = 1 : i99999999} : () -> ()

// -----

// Type aliases and dialect types.

// expected-error @+1 {{undefined symbol alias id 'undefined'}}
"foo.op"() : () -> !undefined

// -----

// expected-error @+1 {{invalid type identifier}}
"foo.op"() : () -> ! i32

// -----

// expected-error @+1 {{expected '"' in string literal}}
"foo.op"() : () -> !foo<"abc

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
"foo.op"() : () -> !foo<abc

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
"foo.op"() : () -> !foo.bar<abc

// -----

// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
"foo.op"() : () -> !foo<a[b)>

// -----

// Dimension lists.

// expected-error @+1 {{expected 'x' in dimension list}}
"foo.op"() : () -> tensor<4i32>

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
"foo.op"() : () -> tensor<*i32>

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
"foo.op"() : () -> tensor<4x?>

// -----

// expected-error @+1 {{invalid dimension}}
"foo.op"() : () -> tensor<99999999999999999999xi32>

// -----

// expected-error @+1 {{expected non-function type}}
"foo.op"() : () -> tensor<-1xi32>

// -----

// Tensors.

// expected-error @+1 {{expected '<' in tensor type}}
"foo.op"() : () -> tensor i32

// -----

// expected-error @+1 {{expected '>' in tensor type}}
"foo.op"() : () -> tensor<4xi32

// -----

// expected-error @+1 {{invalid tensor element type}}
"foo.op"() : () -> tensor<4xtuple<>>

// -----

// expected-error @+1 {{invalid tensor element type}}
"foo.op"() : () -> tensor<4x(i32) -> i32>

// -----

// expected-error @+1 {{expected '->' in function type}}
"foo.op"() : () -> tensor<(i32)>

// -----

// mlir-opt accepts (and drops) an empty encoding.
// expected-error @+1 {{expected attribute value}}
"foo.op"() : () -> tensor<i32, >

// -----

// expected-error @+1 {{cannot apply encoding to unranked tensor}}
"foo.op"() {t = tensor<*xi32, "enc">} : () -> ()

// -----

// At the end of a chunk, the error moves back one character onto the type's
// line, as in mlir-opt.
// expected-error @+1 {{cannot apply encoding to unranked tensor}}
"foo.op"() : () -> tensor<*xi32, "enc">
// -----

// Memrefs.

// expected-error @+1 {{expected '<' in memref type}}
"foo.op"() : () -> memref i32

// -----

// expected-error @+1 {{invalid memref element type}}
"foo.op"() : () -> memref<4xtensor<i32>>

// -----

// expected-error @+1 {{expected ',' or '>' in memref type}}
"foo.op"() : () -> memref<4xi32 1>

// -----

// mlir-opt: "expected ',' or '>'".
// expected-error @+1 {{expected ',' or '>' in memref type}}
"foo.op"() : () -> memref<4xi32, 1 2>

// -----

// expected-error @+1 {{cannot have affine map for unranked memref type}}
"foo.op"() {t = memref<*xi32, strided<[1]>>} : () -> ()

// -----

// expected-error @+1 {{expected memory space to be last in memref type}}
"foo.op"() {t = memref<4xi32, 1, strided<[1]>>} : () -> ()

// -----

// expected-error @+1 {{multiple memory spaces specified in memref type}}
"foo.op"() {t = memref<4xi32, 1, 2>} : () -> ()

// -----

// expected-error @+1 {{multiple memory spaces specified in memref type}}
"foo.op"() {t = memref<*xi32, 1, 2>} : () -> ()

// -----

// Vectors.

// expected-error @+1 {{expected '<' in vector type}}
"foo.op"() : () -> vector i32

// -----

// expected-error @+1 {{expected '>' in vector type}}
"foo.op"() : () -> vector<4xi32

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 0}}
"foo.op"() : () -> vector<0xi32>

// -----

// expected-error @+1 {{expected non-function type}}
"foo.op"() : () -> vector<?xi32>

// -----

// expected-error @+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
"foo.op"() : () -> vector<4xtensor<i32>>

// -----

// mlir-opt: "invalid dimension".
// expected-error @+1 {{expected integer value}}
"foo.op"() : () -> vector<[?]xi32>

// -----

// mlir-opt: "missing ']' closing scalable dimension".
// expected-error @+1 {{missing ']' closing scalable dimension}}
"foo.op"() : () -> vector<[4xi32>

// -----

// Complex and tuple types.

// expected-error @+1 {{expected '<' in complex type}}
"foo.op"() : () -> complex i32

// -----

// expected-error @+1 {{expected '>' in complex type}}
"foo.op"() : () -> complex<f32

// -----

// expected-error @+1 {{invalid element type for complex}}
"foo.op"() : () -> complex<index>

// -----

// expected-error @+1 {{expected '<' in tuple type}}
"foo.op"() : () -> tuple i32

// -----

// expected-error @+1 {{expected '>' in tuple type}}
"foo.op"() : () -> tuple<i32, i64

// -----

// Memory spaces are integer, string or dictionary attributes (or another
// dialect's attributes), as in MLIR.
// expected-error @+1 {{unsupported memory space Attribute}}
"foo.op"() {t = memref<4xf32, [1]>} : () -> ()

// -----

// expected-error @+1 {{unsupported memory space Attribute}}
"foo.op"() {t = memref<*xf32, #foo.space>} : () -> ()
