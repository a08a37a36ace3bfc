// REQUIRES: strata-opt
// Parser diagnostics for the lexer, the generic operation syntax, SSA values,
// blocks and regions, aliases, custom operations and locations. The parser
// stops at its first error, so each chunk holds one invalid construct.
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -o /dev/null

// Nesting deeper than 1000 levels is rejected (mlir-opt has no such limit).
// RUN: python3 -c "print('// expected-error @+1 {{nesting is too deep: more than 1000 levels of regions, attributes or types}}'); print('\"foo.op\"() {a = ' + '[' * 1001 + ']' * 1001 + '} : () -> ()')" > %t.deep.mlir
// RUN: strata-opt --allow-unregistered-dialect --verify-diagnostics %t.deep.mlir -o /dev/null

// Lexer.

// expected-error @+1 {{unexpected character}}
"foo.op"() {a = $} : () -> ()

// -----

// A lone '.' (mlir-opt: "expected three consecutive dots for an ellipsis").
// expected-error @+1 {{expected three consecutive dots for an ellipsis}}
"foo.op"() {a = .} : () -> ()

// -----

// expected-error @+1 {{expected '"' in string literal}}
"foo.op"() {a = "abc} : () -> ()

// -----

// expected-error @+1 {{unknown escape in string literal}}
"foo.op"() {a = "ab\qc"} : () -> ()

// -----

// expected-error @+1 {{@ identifier expected to start with letter or '_'}}
"foo.op"() {a = @1} : () -> ()

// -----

// expected-error @+1 {{invalid SSA name}}
"foo.op"(% ) : () -> ()

// -----

// expected-error @+1 {{invalid block name}}
"foo.op"()[^ ] : () -> ()

// -----

// expected-error @+1 {{invalid type identifier}}
"foo.op"() : () -> ! i32

// -----

// expected-error @+1 {{invalid attribute name}}
"foo.op"() {a = # } : () -> ()

// -----

// File metadata.

// expected-error @+1 {{expected identifier key in file metadata dictionary}}
{-# 1 #-}

// -----

// expected-error @+1 {{expected ':'}}
{-# dialect_resources {} #-}

// -----

{-# external_resources: { group: {
  // expected-error @+1 {{expected string value for key 'x'}}
  x: 1
} } #-}

// -----

// expected-error @+1 {{unknown key 'foo' in file metadata dictionary}}
{-# foo: {} #-}

// -----

// mlir-opt: "expected ',' or '#-}'".
// expected-error @+1 {{expected ',' or '#-}'}}
{-# dialect_resources: {} "foo.op"() : () -> ()

// -----

// expected-error @+1 {{expected '{'}}
{-# dialect_resources: [] #-}

// -----

// expected-error @+1 {{expected identifier key for 'resource' entry}}
{-# dialect_resources: { 1 } #-}

// -----

// expected-error @+1 {{expected ':'}}
{-# dialect_resources: { builtin {} } #-}

// -----

// expected-error @+1 {{expected '{'}}
{-# dialect_resources: { builtin: [] } #-}

// -----

// expected-error @+1 {{dialect 'foo' is unknown}}
{-# dialect_resources: { foo: {} } #-}

// -----

// expected-error @+1 {{expected identifier key for 'resource' entry}}
{-# dialect_resources: { builtin: { 1: "0x04000000" } } #-}

// -----

// expected-error @+1 {{expected ':'}}
{-# dialect_resources: { builtin: { k "0x04000000" } } #-}

// -----

// expected-error @+1 {{expected hex string blob for key 'k'}}
{-# dialect_resources: { builtin: { k: 1 } } #-}

// -----

// An odd number of hex digits.
// expected-error @+1 {{expected hex string blob for key 'k'}}
{-# dialect_resources: { builtin: { k: "0x0400000" } } #-}

// -----

// expected-error @+1 {{expected hex string blob for key 'k' to encode alignment in first 4 bytes}}
{-# dialect_resources: { builtin: { k: "0x0102" } } #-}

// -----

// expected-error @+1 {{expected hex string blob for key 'k' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3}}
{-# dialect_resources: { builtin: { k: "0x0300000001" } } #-}

// -----

// mlir-opt: "expected ',' or '}'" (also below).
// expected-error @+1 {{expected ',' or '}'}}
{-# dialect_resources: { builtin: { k: "0x04000000" #-}

// -----

// expected-error @+1 {{expected ',' or '}'}}
{-# dialect_resources: { builtin: { k: "0x04000000" } #-}

// -----

// Aliases.

#a = 1
// expected-error @+1 {{redefinition of attribute alias id 'a'}}
#a = 2

// -----

// expected-error @+1 {{attribute names with a '.' are reserved for dialect-defined names}}
#a.b = 1

// -----

// expected-error @+1 {{expected '=' in attribute alias definition}}
#a 1

// -----

!a = i32
// expected-error @+1 {{redefinition of type alias id 'a'}}
!a = i64

// -----

// expected-error @+1 {{type names with a '.' are reserved for dialect-defined names}}
!a.b = i32

// -----

// expected-error @+1 {{expected '=' in type alias definition}}
!a i32

// -----

// SSA values.

// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%x) : (i32) -> ()

// -----

// Every undeclared name is reported, in source order.
// expected-error @+1 {{use of undeclared SSA value name}}
"foo.op"(%a,
// expected-error @+1 {{use of undeclared SSA value name}}
         %b) : (i32, i32) -> ()

// -----

// expected-note @+1 {{previously defined here}}
%x = "foo.op"() : () -> i32
// expected-error @+1 {{redefinition of SSA value '%x'}}
%x = "foo.op"() : () -> i32

// -----

// expected-note @+1 {{previously used here with type 'i32'}}
"foo.use"(%x) : (i32) -> ()
// expected-error @+1 {{definition of SSA value '%x#0' has type 'i64'}}
%x = "foo.op"() : () -> i64

// -----

// expected-note @+1 {{prior use here}}
"foo.use"(%x) : (i32) -> ()
// expected-error @+1 {{use of value '%x' expects different type than prior uses: 'i64' vs 'i32'}}
"foo.use"(%x) : (i64) -> ()
%x = "foo.op"() : () -> i32

// -----

// expected-note @+1 {{prior use here}}
%x = "foo.op"() : () -> i32
// expected-error @+1 {{use of value '%x' expects different type than prior uses: 'i64' vs 'i32'}}
"foo.use"(%x) : (i64) -> ()

// -----

%x = "foo.op"() : () -> i32
// expected-error @+1 {{reference to invalid result number}}
"foo.use"(%x#1) : (i32) -> ()

// -----

%x = "foo.op"() : () -> i32
// expected-error @+1 {{invalid SSA value result number}}
"foo.use"(%x#99999999999) : (i32) -> ()

// -----

// A result number on a block argument is accepted (and ignored), as in mlir-opt.
"foo.op"() ({
^bb0(%a#0: i32):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

%0 = "foo.def"() : () -> i32
// expected-error @+1 {{expected SSA operand}}
"foo.op"(%0, 1) : (i32, i32) -> ()

// -----

// mlir-opt: "expected valid ssa identifier".
// expected-error @+1 {{expected valid ssa identifier}}
%x, = "foo.op"() : () -> (i32, i32)

// -----

// expected-error @+1 {{expected integer number of results}}
%x: = "foo.op"() : () -> (i32, i32)

// -----

// expected-error @+1 {{expected named operation to have at least 1 result}}
%x:0 = "foo.op"() : () -> ()

// -----

// expected-error @+1 {{expected '=' after SSA name}}
%x "foo.op"() : () -> i32

// -----

// expected-error @+1 {{cannot name an operation with no results}}
%x = "foo.op"() : () -> ()

// -----

// expected-error @+1 {{operation defines 3 results but was provided 2 to bind}}
%x:2 = "foo.op"() : () -> (i32, i32, i32)

// -----

// expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
%x, %y = "foo.op"() : () -> i32

// -----

// Generic operations.

// expected-error @+1 {{expected operation name in quotes}}
%x = 5

// -----

// expected-error @+1 {{empty operation name is invalid}}
""() : () -> ()

// -----

// expected-error @+1 {{null character not allowed in operation name}}
"foo\00op"() : () -> ()

// -----

// mlir-opt accepts operation names that are not valid UTF-8.
// expected-error @+1 {{operation name must be valid UTF-8}}
"foo\FFop"() : () -> ()

// -----

// expected-error @+1 {{expected '(' to start operand list}}
"foo.op" : () -> ()

// -----

// expected-error @+1 {{expected ')' to end operand list}}
"foo.op"(1) : (i32) -> ()

// -----

%x = "foo.op"() : () -> i32
// expected-error @+1 {{expected ')' to end operand list}}
"foo.op"(%x : () -> ()

// -----

// expected-error @+1 {{successors in non-terminator}}
"builtin.module"()[^bb1] ({
}) : () -> ()

// -----

// expected-error @+1 {{expected block name}}
"foo.op"()[%x] : () -> ()

// -----

// mlir-opt: "expected ',' or ']'".
// expected-error @+1 {{expected ',' or ']'}}
"foo.op"()[^bb1 : () -> ()

// -----

// expected-error @+1 {{expected '>' to close properties}}
"foo.op"() <{a = 1} : () -> ()

// -----

"foo.op"() ({
  "foo.t"() : () -> ()
// expected-error @+1 {{expected ')' to end region list}}
} : () -> ()

// -----

// expected-error @+1 {{expected '{' to begin a region}}
"foo.op"() (
  "foo.t"() : () -> ()
) : () -> ()

// -----

// expected-error @+1 {{expected ':' followed by operation type}}
"foo.op"() -> ()

// -----

// expected-error @+1 {{expected function type}}
"foo.op"() : i32

// -----

// expected-error @+1 {{expected 0 operand types but had 1}}
"foo.op"() : (i32) -> ()

// -----

%x = "foo.op"() : () -> i32
// expected-error @+1 {{expected 2 operand types but had 1}}
"foo.op"(%x, %x) : (i32) -> ()

// -----

// expected-error @+1 {{invalid properties [1] for op builtin.module: expected DictionaryAttr to set properties}}
"builtin.module"() <[1]> ({
}) : () -> ()

// -----

// Blocks and regions.

"foo.op"() ({
  // expected-error @+1 {{reference to an undefined block}}
  "foo.br"()[^missing] : () -> ()
}) : () -> ()

// -----

// Blocks are scoped to their region: an inner region cannot name an outer block.
"foo.op"() ({
^bb0:
  "foo.inner"() ({
    // expected-error @+1 {{reference to an undefined block}}
    "foo.br"()[^bb1] : () -> ()
  }) : () -> ()
  "foo.t"() : () -> ()
^bb1:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
^bb0:
  "foo.t"() : () -> ()
// expected-error @+1 {{redefinition of block '^bb0'}}
^bb0:
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
// expected-error @+1 {{expected ':' after block name}}
^bb0
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
// expected-error @+1 {{expected SSA operand}}
^bb0(1: i32):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

// mlir-opt: "expected ':' and type for SSA operand".
"foo.op"() ({
// expected-error @+1 {{expected ':'}}
^bb0(%a i32):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
// expected-error @+1 {{expected ')'}}
^bb0(%a: i32 %b: i32):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
// expected-error @+2 {{redefinition of SSA value '%a'}}
// expected-note @+1 {{previously defined here}}
^bb0(%a: i32, %a: i32):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

"foo.op"() ({
^bb0:
  "foo.r"() ({
    %0 = "foo.def"() : () -> i32
  }) : () -> ()
  "foo.br"()[^bb1] : () -> ()
^bb1:
  // Values defined in a region are not visible after it.
  // expected-error @+1 {{use of undeclared SSA value name}}
  "foo.use"(%0) : (i32) -> ()
}) : () -> ()

// -----

// Custom operations.

// expected-error @+2 {{Dialect `foo' not found for custom op 'foo.bar'}}
// expected-note @+1 {{Available dialects: arith, builtin, cf, func, graph, kernel, math, nvptx, scf, tensor, test, ub, vector ; for more info on dialect registration see}}
foo.bar

// -----

// expected-error @+1 {{custom op 'builtin.foo' is unknown}}
builtin.foo

// -----

// expected-error @+1 {{custom op 'foo' is unknown (tried 'builtin.foo' as well)}}
foo

// -----

// mlir-opt: "expected '{' in attribute dictionary".
// expected-error @+1 {{expected '{'}}
module attributes 5 {
}

// -----

// The missing '}' is reported right after the last token of the chunk.
module @name {
  // expected-error @below {{expected operation name in quotes}}
  "foo.op"() : () -> ()

// -----

// Locations.

// expected-error @+1 {{operation location alias was never defined}}
"foo.op"() : () -> () loc(#undefined_loc)

// -----

#notloc = 1
// expected-error @+1 {{expected location, but found '1 : i64'}}
"foo.op"() : () -> () loc(#notloc)

// -----

// A location alias may be defined after its use.
// expected-error @+1 {{expected location, but found '"str"'}}
"foo.op"() : () -> () loc(#laterloc)
#laterloc = "str"

// -----

// expected-error @+1 {{expected '(' in location}}
"foo.op"() : () -> () loc 1

// -----

// expected-error @+1 {{expected ')' in location}}
"foo.op"() : () -> () loc("a" 1)

// -----

// expected-error @+1 {{expected location instance}}
"foo.op"() : () -> () loc(nowhere)

// -----

// expected-error @+1 {{expected location instance}}
"foo.op"() : () -> () loc(1)

// -----

"foo.op"() ({
// expected-error @+1 {{expected location instance}}
^bb0(%a: i32 loc(1)):
  "foo.t"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"foo.op"() : () -> () loc("file":x)

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"foo.op"() : () -> () loc("file":99999999999:2)

// -----

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"foo.op"() : () -> () loc("file":1:x)

// -----

// expected-error @+1 {{expected either integer or `:` post `to` in FileLineColRange}}
"foo.op"() : () -> () loc("file":1:2 to x)

// -----

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"foo.op"() : () -> () loc("file":1:2 to 3:x)

// -----

// expected-error @+1 {{expected ')' after child location of NameLoc}}
"foo.op"() : () -> () loc("name"("child" "x"))

// -----

// expected-error @+1 {{expected '(' in callsite location}}
"foo.op"() : () -> () loc(callsite "a" at "b")

// -----

// expected-error @+1 {{expected 'at' in callsite location}}
"foo.op"() : () -> () loc(callsite("a" "b"))

// -----

// expected-error @+1 {{expected ')' in callsite location}}
"foo.op"() : () -> () loc(callsite("a" at "b" "c"))

// -----

// expected-error @+1 {{expected '>' after fused location metadata}}
"foo.op"() : () -> () loc(fused<"m" ["a"])

// -----

// expected-error @+1 {{expected '[' in fused location}}
"foo.op"() : () -> () loc(fused "a")

// -----

// expected-error @+1 {{expected ']' in fused location}}
"foo.op"() : () -> () loc(fused["a" "b"])

// -----

#a = 1
// mlir-opt reports this after the alias, at the ']'.
// expected-error @+1 {{expected location attribute, but got1 : i64}}
"foo.op"() : () -> () loc(fused[#a])

// -----

// expected-error @+1 {{invalid dialect namespace '""'}}
"foo.op"() {a = #.x} : () -> ()

// -----

// expected-error @+1 {{invalid dialect namespace '"a-b"'}}
"foo.op"() {a = !a-b.x} : () -> ()
