// REQUIRES: strata-opt
// Parser diagnostics for builtin attributes: scalars, strings, arrays,
// dictionaries, symbol references, dialect attributes, strided layouts,
// dense arrays, dense elements, inline locations and the attribute kinds
// strata does not support yet.
// RUN: strata-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -o /dev/null

// Attribute values.

// expected-error @+1 {{expected attribute value}}
"foo.op"() {a = } : () -> ()

// -----

// expected-error @+1 {{expected attribute value}}
"foo.op"() {a = #-}} : () -> ()

// -----

// expected-error @+1 {{expected constant integer or floating point value}}
"foo.op"() {a = -foo} : () -> ()

// -----

// Integers.

// expected-error @+1 {{integer literal not valid for specified type}}
"foo.op"() {a = 1 : tensor<i32>} : () -> ()

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
"foo.op"() {a = -1 : ui8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 256 : i8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 128 : si8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = -129 : i8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = -1 : i0} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 0x100000000000000000000000000000000 : i128} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 340282366920938463463374607431768211456 : i128} : () -> ()

// -----

// Integer attributes wider than 128 bits.

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 0x1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF : i129} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = 0x100000000000000000000000000000000 : si129} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"foo.op"() {a = -0x100000000000000000000000000000001 : si129} : () -> ()

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
"foo.op"() {a = -1 : ui200} : () -> ()

// -----

// Elements of dense and array attributes are limited to 128 bits (mlir-opt
// accepts any width).
// expected-error @+1 {{integers wider than 128 bits are not supported by strata yet}}
"foo.op"() {a = dense<1> : tensor<2xi129>} : () -> ()

// -----

// expected-error @+1 {{integers wider than 128 bits are not supported by strata yet}}
"foo.op"() {a = array<i136: 1>} : () -> ()

// -----

// Floats.

// expected-error @+1 {{floating point value not valid for specified type}}
"foo.op"() {a = 1.0 : i32} : () -> ()

// -----

// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
"foo.op"() {a = 1 : f32} : () -> ()

// -----

// expected-error @+1 {{hexadecimal float literal should not have a leading minus}}
"foo.op"() {a = -0x3F800000 : f32} : () -> ()

// -----

// expected-error @+1 {{hexadecimal float constant out of range for type}}
"foo.op"() {a = 0x1FFFF : f16} : () -> ()

// -----

// Strings.

// expected-error @+1 {{expected '"' in string literal}}
"foo.op"() {a = "abc} : () -> ()

// -----

// expected-error @+1 {{unknown escape in string literal}}
"foo.op"() {a = "\z"} : () -> ()

// -----

// Arrays.

// mlir-opt: "expected ',' or ']'".
// expected-error @+1 {{expected ',' or ']'}}
"foo.op"() {a = [1, 2} : () -> ()

// -----

// Dictionaries.

// expected-error @+1 {{expected attribute name}}
"foo.op"() {1 = 1} : () -> ()

// -----

// expected-error @+1 {{expected valid attribute name}}
"foo.op"() {"" = 1} : () -> ()

// -----

// mlir-opt accepts attribute names that are not valid UTF-8.
// expected-error @+1 {{attribute names must be valid UTF-8}}
"foo.op"() {"\FF" = 1} : () -> ()

// -----

// expected-error @+1 {{duplicate key 'a' in dictionary attribute}}
"foo.op"() {a = 1, a = 2} : () -> ()

// -----

// expected-error @+1 {{duplicate key 'a' in dictionary attribute}}
"foo.op"() {d = {a, "a" = 2}} : () -> ()

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"foo.op"() {a = 1 b = 2} : () -> ()

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"foo.op"() {a = {b = 1 c = 2}} : () -> ()

// -----

// Symbol references.

// expected-error @+1 {{@ identifier expected to start with letter or '_'}}
"foo.op"() {a = @1} : () -> ()

// -----

// expected-error @+1 {{expected nested symbol reference identifier}}
"foo.op"() {a = @foo::bar} : () -> ()

// -----

// Aliases and dialect attributes.

// expected-error @+1 {{undefined symbol alias id 'undefined'}}
"foo.op"() {a = #undefined} : () -> ()

// -----

// expected-error @+1 {{expected '"' in string literal}}
"foo.op"() {a = #foo<"abc} : () -> ()

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
"foo.op"() {a = #foo<abc} : () -> ()

// -----

// expected-error @+1 {{unbalanced '(' character in pretty dialect name}}
"foo.op"() {a = #foo<a(b>} : () -> ()

// -----

// Strided layouts.

// expected-error @+1 {{expected '<' after 'strided'}}
"foo.op"() {a = strided[1]>} : () -> ()

// -----

// expected-error @+1 {{expected '['}}
"foo.op"() {a = strided<1>} : () -> ()

// -----

// expected-error @+1 {{expected ']'}}
"foo.op"() {a = strided<[1, 2>} : () -> ()

// -----

// expected-error @+1 {{expected 'offset' after comma}}
"foo.op"() {a = strided<[1], 0>} : () -> ()

// -----

// expected-error @+1 {{expected ':' after 'offset'}}
"foo.op"() {a = strided<[1], offset 0>} : () -> ()

// -----

// expected-error @+1 {{expected '>'}}
"foo.op"() {a = strided<[1], offset: 0} : () -> ()

// -----

// expected-error @+1 {{expected a 64-bit signed integer or '?'}}
"foo.op"() {a = strided<[x]>} : () -> ()

// -----

// expected-error @+1 {{expected a 64-bit signed integer or '?'}}
"foo.op"() {a = strided<[99999999999999999999]>} : () -> ()

// -----

// Dense arrays.

// expected-error @+1 {{expected '<' after 'array'}}
"foo.op"() {a = array i32: 1>} : () -> ()

// -----

// mlir-opt quotes the type: "got: 'tensor<i32>'".
// expected-error @+1 {{expected integer or float type, got: 'tensor<i32>'}}
"foo.op"() {a = array<tensor<i32>: 1>} : () -> ()

// -----

// expected-error @+1 {{element type bitwidth must be a multiple of 8}}
"foo.op"() {a = array<i7: 1>} : () -> ()

// -----

// expected-error @+1 {{expected ':' after dense array type}}
"foo.op"() {a = array<i32 1>} : () -> ()

// -----

// expected-error @+1 {{expected floating point literal}}
"foo.op"() {a = array<f32: true>} : () -> ()

// -----

// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
"foo.op"() {a = array<f32: 1>} : () -> ()

// -----

// expected-error @+1 {{expected i1 type for 'true' or 'false' values}}
"foo.op"() {a = array<i32: true>} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range}}
"foo.op"() {a = array<i8: 300>} : () -> ()

// -----

// expected-error @+1 {{expected integer literal}}
"foo.op"() {a = array<i32: "s">} : () -> ()

// -----

// expected-error @+1 {{expected '>' to close an array attribute}}
"foo.op"() {a = array<i32: 1, 2} : () -> ()

// -----

// Dense elements: syntax.

// expected-error @+1 {{expected '<' after 'dense'}}
"foo.op"() {a = dense 1> : tensor<i32>} : () -> ()

// -----

// expected-error @+1 {{expected '>'}}
"foo.op"() {a = dense<1 : tensor<i32>} : () -> ()

// -----

// expected-error @+1 {{expected ':'}}
"foo.op"() {a = dense<1> tensor<i32>} : () -> ()

// -----

// expected-error @+1 {{expected ']'}}
"foo.op"() {a = dense<[1 2]> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{tensor literal is invalid; ranks are not consistent between elements}}
"foo.op"() {a = dense<[[1, 2], 3]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error @+1 {{tensor literal is invalid; ranks are not consistent between elements}}
"foo.op"() {a = dense<[1, [2]]> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected integer or floating point literal}}
"foo.op"() {a = dense<[-x]> : tensor<1xi32>} : () -> ()

// -----

// expected-error @+1 {{expected ',' between complex elements}}
"foo.op"() {a = dense<[(1 2)]> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// expected-error @+1 {{expected ')' after complex elements}}
"foo.op"() {a = dense<[(1, 2]> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// expected-error @+1 {{expected element literal of primitive type}}
"foo.op"() {a = dense<[@x]> : tensor<1xi32>} : () -> ()

// -----

// Dense elements: type.

// expected-error @+1 {{elements literal type must have static shape}}
"foo.op"() {a = dense<1> : tensor<*xi32>} : () -> ()

// -----

// expected-error @+1 {{elements literal type must have static shape}}
"foo.op"() {a = dense<1> : tensor<?xi32>} : () -> ()

// -----

// expected-error @+1 {{elements literal must be a shaped type}}
"foo.op"() {a = dense<1> : i32} : () -> ()

// -----

// Dense elements: shape and count.

// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
"foo.op"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()

// -----

// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([2, 2])}}
"foo.op"() {a = dense<[1, 2]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
"foo.op"() {a = dense<[1, 2]> : vector<3xi32>} : () -> ()

// -----

// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
"foo.op"() {a = dense<[(1, 2), (3, 4)]> : tensor<3xcomplex<i32>>} : () -> ()

// -----

// mlir-opt quotes the type: "type ('tensor<2xi32>')".
// expected-error @+1 {{parsed zero elements, but type ('tensor<2xi32>') expected at least 1}}
"foo.op"() {a = dense<> : tensor<2xi32>} : () -> ()

// -----

// mlir-opt quotes the type: "type ('complex<i32>')".
// expected-error @+1 {{parsed 1 elements, but type ('complex<i32>') expected 2 elements}}
"foo.op"() {a = dense<1> : tensor<1xcomplex<i32>>} : () -> ()

// -----

// A complex literal for a non-complex element type (mlir-opt accepts it and
// reads past the parsed elements).
// expected-error @+1 {{parsed 2 elements, but type ('tensor<3xi32>') expected 3 elements}}
"foo.op"() {a = dense<(1, 2)> : tensor<3xi32>} : () -> ()

// -----

// Dense elements: element values.

// expected-error @+1 {{expected unsigned integer elements, but parsed negative value}}
"foo.op"() {a = dense<-1> : tensor<2xui8>} : () -> ()

// -----

// expected-error @+1 {{expected integer elements, but parsed floating-point}}
"foo.op"() {a = dense<1.5> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected integer elements, but parsed floating-point}}
"foo.op"() {a = dense<[-1.0]> : tensor<1xi32>} : () -> ()

// -----

// expected-error @+1 {{expected i1 type for 'true' or 'false' values}}
"foo.op"() {a = dense<true> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for type}}
"foo.op"() {a = dense<300> : tensor<2xi8>} : () -> ()

// -----

// mlir-opt: "expected string containing hex digits starting with `0x`".
// expected-error @+1 {{expected integer elements}}
"foo.op"() {a = dense<"s"> : tensor<2xi32>} : () -> ()

// -----

// mlir-opt: "expected string containing hex digits starting with `0x`".
// expected-error @+1 {{expected floating point literal}}
"foo.op"() {a = dense<"s"> : tensor<2xf32>} : () -> ()

// -----

// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
"foo.op"() {a = dense<[1]> : tensor<1xf32>} : () -> ()

// -----

// mlir-opt: "expected string token, got 1", at 'dense'.
// expected-error @+1 {{expected string token, got non-string token}}
"foo.op"() {a = dense<1> : tensor<2x!foo.string>} : () -> ()

// -----

// mlir-opt accepts an empty string literal.
// expected-error @+1 {{expected string elements}}
"foo.op"() {a = dense<> : tensor<0x!foo.string>} : () -> ()

// -----

// Dense elements: hexadecimal data.

// mlir-opt parses this as a string splat.
// expected-error @+1 {{expected floating-point, integer, or complex element type, got !foo.string}}
"foo.op"() {a = dense<"0x0102"> : tensor<2x!foo.string>} : () -> ()

// -----

// expected-error @+1 {{expected string containing hex digits starting with `0x`}}
"foo.op"() {a = dense<"0xZZ"> : tensor<2xi8>} : () -> ()

// -----

// mlir-opt quotes the type: "type: 'tensor<2xi8>'".
// expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<2xi8>'}}
"foo.op"() {a = dense<"0x010203"> : tensor<2xi8>} : () -> ()

// -----

// expected-error @+1 {{elements hex data size is invalid for provided type: 'tensor<20xi1>'}}
"foo.op"() {a = dense<"0x0102"> : tensor<20xi1>} : () -> ()

// -----

// Distinct attributes.

// expected-error @+1 {{expected '[' after 'distinct'}}
"foo.op"() {a = distinct 0<unit>} : () -> ()

// -----

// expected-error @+1 {{expected distinct ID}}
"foo.op"() {a = distinct[x]<unit>} : () -> ()

// -----

// mlir-opt: "expected an unsigned 64-bit integer", after the ID (column 46).
// expected-error @+1 {{expected an unsigned 64-bit integer, got: 99999999999999999999}}
"foo.op"() {a = distinct[99999999999999999999]<unit>} : () -> ()

// -----

// expected-error @+1 {{expected ']' to close distinct ID}}
"foo.op"() {a = distinct[0 <unit>} : () -> ()

// -----

// expected-error @+1 {{expected '<' after distinct ID}}
"foo.op"() {a = distinct[0] unit} : () -> ()

// -----

// expected-error @+1 {{expected '>' to close distinct attribute}}
"foo.op"() {a = distinct[0]<unit} : () -> ()

// -----

// mlir-opt reports this at the second 'distinct' (column 37), strata at its ID.
// expected-error @+1 {{referenced attribute does not match previous definition: 1 : i64}}
"foo.op"() {a = distinct[0]<1>, b = distinct[0]<2>} : () -> ()

// -----

// Dense resources.

// expected-error @+1 {{expected '<' after 'dense_resource'}}
"foo.op"() {a = dense_resource blob>} : () -> ()

// -----

// expected-error @+1 {{expected identifier key for 'resource' entry}}
"foo.op"() {a = dense_resource<1>} : () -> ()

// -----

// expected-error @+1 {{expected '>'}}
"foo.op"() {a = dense_resource<blob : tensor<i32>} : () -> ()

// -----

// expected-error @+1 {{expected ':'}}
"foo.op"() {a = dense_resource<blob> tensor<i32>} : () -> ()

// -----

// expected-error @+1 {{`dense_resource` expected a shaped type}}
"foo.op"() {a = dense_resource<blob> : i32} : () -> ()

// -----

// Inline locations.

// expected-error @+1 {{expected '(' in inline location}}
"foo.op"() {l = loc "a"} : () -> ()

// -----

// expected-error @+1 {{expected ')' in inline location}}
"foo.op"() {l = loc("a"} : () -> ()

// -----

#a = 1
// expected-error @+1 {{expected location attribute, but got1 : i64}}
"foo.op"() {l = loc(#a)} : () -> ()

// -----

// Affine maps and integer sets (messages as mlir-opt's).

// expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
"foo.op"() {a = affine_map<(d0) -> (d0 * d0)>} : () -> ()

// -----

// expected-error @+1 {{expected '== affine-expr' or '>= affine-expr' at end of affine constraint}}
"foo.op"() {a = affine_set<(d0) : (d0)>} : () -> ()

// -----

// expected-error @+1 {{use of undeclared identifier}}
"foo.op"() {a = affine_map<(d0) -> (d1)>} : () -> ()

// -----

// expected-error @+1 {{expected shape ([3, 4]); inferred shape of indices literal ([2]); inferred shape of values literal ([2])}}
"foo.op"() {a = sparse<[1, 2], 7.5> : tensor<3x4xf32>} : () -> ()

// -----

// expected-error @+1 {{sparse index #0 is not contained within the value shape, with index=[1, 9], and type='tensor<3x4xf32>'}}
"foo.op"() {a = sparse<[[1, 9]], 7.5> : tensor<3x4xf32>} : () -> ()

// -----

// expected-error @+1 {{expected 1-d tensor for sparse element values}}
"foo.op"() {a = sparse<[[1, 1]], [[7.5]]> : tensor<3x4xf32>} : () -> ()

// -----

// expected-error @+1 {{memref layout mismatch between rank and affine map: 1 != 2}}
"foo.op"() : () -> memref<4xi32, affine_map<(d0, d1) -> (d0)>>
