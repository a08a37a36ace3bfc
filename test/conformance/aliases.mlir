// Alias definitions. User aliases are substituted while parsing and not kept:
// the printer makes its own aliases only for affine maps (#map), integer sets
// (#set), distinct attributes (#distinct) and, with debug info, locations
// (#loc). Alias groups are ordered by name, dependencies first; numbers
// follow first use.

#attr = {a = 1, b = "x"}
#arr = [1, 2, #attr]
!ty = tensor<4x?xf32>
!ty2 = tuple<!ty, i32>
#map0 = affine_map<(d0) -> (d0)>
!unused = i32
#unused_attr = "never used"
#dialect_alias = #foo.attr<1>
!dialect_type = !foo.type<"t">
#loc_alias = loc("aliased.mlir":3:4)

%0 = "foo.def"() {a = #attr, b = #arr, t = !ty2, m = #map0, d = #dialect_alias} : () -> !ty
"foo.use"(%0) : (!ty) -> !dialect_type loc(#loc_alias)

// Builtin aliases: first use decides the number within a name group.
"foo.c"() {z = affine_set<(d0) : (d0 >= 0)>, y = distinct[3]<1>} : () -> ()
"foo.c"() {a = affine_map<(d0) -> (d0 * 2)>, b = affine_map<(d0) -> (d0)>, c = memref<4xf32, affine_map<(d0) -> (d0 * 2)>>, d = distinct[1]<distinct[0]<2>>} : () -> ()
"foo.c"() {e = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2, d0 mod 3, d1 ceildiv 4)>, f = affine_map<() -> ()>, g = affine_map<(d0) -> (0)>, h = affine_set<(d0, d1) : (d0 - d1 == 0, d0 >= 0)>} : () -> ()

// Distinct attributes are renumbered in order of first use; equal ids are the
// same attribute.
"foo.d"() {a = distinct[7]<"x">, b = distinct[2]<#foo.a>, c = distinct[7]<"x">, d = distinct[5]<{}>, e = [distinct[9]<unit>]} : () -> ()

// Aliases are also used inside types.
"foo.e"() : () -> (memref<8x8xf32, affine_map<(d0, d1) -> (d1, d0)>>, tensor<4xf32, affine_map<(d0) -> (d0 + 1)>>)
