// REQUIRES: strata-opt
// Verifier diagnostics: builtin op invariants, block terminators and
// successors, entry-block predecessors, region isolation and SSA dominance.
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -o /dev/null

// builtin.module and builtin.unrealized_conversion_cast invariants.

%0 = "foo.def"() : () -> i32
// expected-error @+1 {{'builtin.module' op requires zero operands}}
"builtin.module"(%0) ({
}) : (i32) -> ()

// -----

// expected-error @+1 {{'builtin.module' op requires zero results}}
%0 = "builtin.module"() ({
}) : () -> i32

// -----

// expected-error @+1 {{'builtin.module' op requires one region}}
"builtin.module"() : () -> ()

// -----

// expected-error @+1 {{'builtin.unrealized_conversion_cast' op requires zero regions}}
"builtin.unrealized_conversion_cast"() ({
}) : () -> ()

// -----

// Multiple blocks in a module.
// expected-error @+1 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
"builtin.module"() ({
^bb0:
  "foo.op"() : () -> ()
^bb1:
  "foo.op"() : () -> ()
}) : () -> ()

// -----

// mlir-opt: "'builtin.module' op region should have no arguments".
// expected-error @+1 {{'builtin.module' op region should have no arguments}}
"builtin.module"() ({
^bb0(%a: i32):
  "foo.op"() : () -> ()
}) : () -> ()

// -----

// mlir-opt: "invalid properties {sym_name = 1 : i32} for op builtin.module:
// Invalid attribute `sym_name` in property conversion: 1 : i32".
// expected-error @+1 {{'builtin.module' op attribute 'sym_name' failed to satisfy constraint: string attribute}}
"builtin.module"() <{sym_name = 1 : i32}> ({
^bb0:
}) : () -> ()

// -----

// mlir-opt reports this at the attribute dictionary (column 8), prefixed with
// "custom op 'builtin.module' ".
// expected-error @+1 {{'builtin.module' op attribute 'sym_name' failed to satisfy constraint: string attribute}}
module attributes {sym_name = 3} {
}

// -----

// expected-error @+1 {{'builtin.module' op attribute 'sym_visibility' failed to satisfy constraint: string attribute}}
module @foo attributes {sym_visibility = 3} {
}

// -----

// Every isolated op is verified on its own: both nested modules are reported.
"builtin.module"() ({
  // expected-error @+1 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
  "builtin.module"() ({
  ^bb0:
    "foo.op"() : () -> ()
  ^bb1:
    "foo.op"() : () -> ()
  }) : () -> ()
  // expected-error @+1 {{'builtin.module' op region should have no arguments}}
  "builtin.module"() ({
  ^bb0(%a: i32):
    "foo.op"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Unregistered operations of the builtin dialect.

// expected-error @+1 {{unregistered operation 'builtin.foo' found in dialect ('builtin') that does not allow unknown operations}}
"builtin.foo"() : () -> ()

// -----

module {
  // expected-error @+1 {{unregistered operation 'builtin.foo' found in dialect ('builtin') that does not allow unknown operations}}
  "builtin.foo"() : () -> ()
}

// -----

// Entry blocks.

// expected-error @+1 {{entry block of region may not have predecessors}}
"foo.op"() ({
^bb0:
  "foo.br"()[^bb0] : () -> ()
}) : () -> ()

// -----

// The entry block of the second region.
// expected-error @+1 {{entry block of region may not have predecessors}}
"foo.op"() ({
^bb0:
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.t"() : () -> ()
}, {
^bb0:
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.br"()[^bb0] : () -> ()
}) : () -> ()

// -----

// Terminators and successors.

// expected-error @+1 {{empty block: expect at least a terminator}}
"foo.op"() ({
^bb0:
^bb1:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
^bb0:
  // expected-error @+1 {{operation with block successors must terminate its parent block}}
  "foo.br"()[^bb1] : () -> ()
  "foo.t"() : () -> ()
^bb1:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

// The ops of a block are verified before its terminator is checked (as
// MLIR's verifier does on leaving the block): the cast's own error first.
"foo.op"() ({
^bb0:
  "foo.br"()[^bb1] : () -> ()
^bb1:
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op expected at least one result for cast operation}}
  "builtin.unrealized_conversion_cast"() : () -> ()
}) : () -> ()

// -----

// mlir-opt names the values: "has %1:2 = "builtin.unrealized_conversion_cast"(%0) ...".
"foo.op"() ({
^bb0:
  "foo.br"()[^bb1] : () -> ()
^bb1:
  %0 = "foo.def"() : () -> i32
  // expected-error @+1 {{block with no terminator, has %1:2 = "builtin.unrealized_conversion_cast"(%0) {a = 1 : i64} : (i32) -> (i32, i64)}}
  %1:2 = "builtin.unrealized_conversion_cast"(%0) {a = 1} : (i32) -> (i32, i64)
}) : () -> ()

// -----

// mlir-opt starts an op with regions on a new line: "has \n"builtin.module"() ({".
"foo.op"() ({
^bb0:
  "foo.br"()[^bb1] : () -> ()
^bb1:
  // expected-error @+1 {{block with no terminator, has "builtin.module"() ({}}
  module {
    "foo.x"() : () -> ()
  }
}) : () -> ()

// -----

// Region isolation.

%0 = "foo.def"() : () -> i32
// expected-note @+1 {{required by region isolation constraints}}
"builtin.module"() ({
  // expected-error @+1 {{'foo.use' op using value defined outside the region}}
  "foo.use"(%0) : (i32) -> ()
}) : () -> ()

// -----

// SSA dominance.

"foo.op"() ({
^bb0:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "foo.use"(%0) : (i32) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = "foo.def"() : () -> i32
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
^bb0:
  // expected-error @+2 {{operand #0 does not dominate this use}}
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = "foo.self"(%0) : (i32) -> i32
  "foo.br"()[^bb1] : () -> ()
^bb1:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

// mlir-opt: "operand defined here (op in the same region)".
"foo.op"() ({
^bb0:
  "foo.cond_br"()[^bb1, ^bb2] : () -> ()
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %0 = "foo.def"() : () -> i32
  "foo.br"()[^bb3] : () -> ()
^bb2:
  "foo.br"()[^bb3] : () -> ()
^bb3:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "foo.use"(%0) : (i32) -> ()
}) : () -> ()

// -----

// mlir-opt: "operand defined as a block argument (block #1 in the same region)".
// expected-note @+1 {{operand defined as a block argument (block #1 in the same region)}}
"foo.op"() ({
^bb0:
  "foo.cond_br"()[^bb1, ^bb2] : () -> ()
^bb1(%a: i32):
  "foo.br"()[^bb3] : () -> ()
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "foo.use"(%a) : (i32) -> ()
  "foo.br"()[^bb3] : () -> ()
^bb3:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
^bb0:
  "foo.br"()[^bb2] : () -> ()
^bb1:
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = "foo.def"() : () -> i32
  "foo.br"()[^bb2] : () -> ()
^bb2:
  "foo.r"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "foo.use"(%0) : (i32) -> ()
  }) : () -> ()
  "foo.t"() : () -> ()
}) : () -> ()

// -----

// expected-note @+1 {{operand defined as a block argument (block #1 in a parent region)}}
"foo.op"() ({
^bb0:
  "foo.br"()[^bb2] : () -> ()
^bb1(%a: i32):
  "foo.br"()[^bb2] : () -> ()
^bb2:
  "foo.r"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "foo.use"(%a) : (i32) -> ()
  }) : () -> ()
  "foo.t"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks}}
"builtin.module"() ({
}) : () -> ()

// -----

// expected-error @+1 {{'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'other'}}
"builtin.module"() ({
  "foo.a"() : () -> ()
}) {other = 1} : () -> ()

// -----

// expected-error @+1 {{'builtin.unrealized_conversion_cast' op expected at least one result for cast operation}}
"builtin.unrealized_conversion_cast"() : () -> ()

// -----

// expected-note @+1 {{see existing symbol definition here}}
"foo.f"() <{sym_name = "a"}> : () -> ()
// expected-error @+1 {{redefinition of symbol named 'a'}}
"foo.g"() {sym_name = "a"} : () -> ()

// -----

module @m {
  // expected-note @+1 {{see existing symbol definition here}}
  "foo.f"() {sym_name = "b"} : () -> ()
  // expected-error @+1 {{redefinition of symbol named 'b'}}
  "foo.f"() {sym_name = "b"} : () -> ()
}
