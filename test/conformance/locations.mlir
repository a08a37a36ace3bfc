// Locations of every kind, on operations, on block arguments and as attribute
// values. Without --mlir-print-debuginfo only location attributes print; with
// it, op locations become #loc aliases printed after the module, and block
// argument locations print inline (their aliases go before the module).
// Fused locations are normalized: nested fused flatten, duplicates and
// unknown parts drop, a single part stands alone, an empty list is unknown.

#loc1 = loc("alias.mlir":10:20)
#loc2 = loc("named"(#loc1))
#unused = loc("never used")

"foo.file"() : () -> () loc("file.mlir":1:2)
"foo.file_line_only"() : () -> () loc("f":5)
"foo.file_range"() : () -> () loc("f":1:2 to 3:4)
"foo.file_range_same_line"() : () -> () loc("f":1:2 to :4)
"foo.file_max_line"() : () -> () loc("f":4294967295:1)
"foo.file_escaped"() : () -> () loc("q\"uote\n":1:2)
"foo.file_utf8"() : () -> () loc("dir/ñ.py":7:8)
"foo.name"() : () -> () loc("name")
"foo.name_empty"() : () -> () loc("")
"foo.name_child"() : () -> () loc("name"("f":1:2))
"foo.name_unknown_child"() : () -> () loc("n"(unknown))
"foo.name_nested"() : () -> () loc("n"("m"("f":1:1)))
"foo.callsite"() : () -> () loc(callsite("a" at "b":1:2))
"foo.callsite_unknown"() : () -> () loc(callsite("a" at unknown))
"foo.callsite_nested"() : () -> () loc(callsite(callsite("x" at "y":1:1) at fused["z", unknown]))
"foo.fused"() : () -> () loc(fused["a", "b":1:2])
"foo.fused_meta"() : () -> () loc(fused<"meta">["a"])
"foo.fused_attr_meta"() : () -> () loc(fused<#foo.meta>["a", "b"])
"foo.fused_int_meta"() : () -> () loc(fused<1>["a"])
"foo.fused_single"() : () -> () loc(fused["a"])
"foo.fused_empty"() : () -> () loc(fused[])
"foo.fused_meta_empty"() : () -> () loc(fused<"m">[])
"foo.fused_meta_unknown"() : () -> () loc(fused<"m">[unknown])
"foo.fused_duplicates"() : () -> () loc(fused["a", "a"])
"foo.fused_flatten"() : () -> () loc(fused[fused["a", "b"], "c"])
"foo.unknown"() : () -> () loc(unknown)
"foo.alias"() : () -> () loc(#loc1)
"foo.alias_again"() : () -> () loc(#loc1)
"foo.alias_nested"() : () -> () loc(#loc2)
"foo.implicit"() : () -> ()
%0:2 = "foo.results"() : () -> (i32, f32) loc("results.mlir":3:3)

// Block arguments: explicit, unknown, aliased and implicit locations.
"foo.region"() ({
^bb0(%a: i32 loc("arg":1:1), %b: f32 loc(unknown), %c: i1, %d: i8 loc(#loc1), %e: i16 loc(fused["p", "q"])):
  "foo.use"(%a) : (i32) -> () loc("in_region":2:2)
  "foo.br"()[^bb1] : () -> ()
^bb1(%f: index loc("bb1_arg"), %g: index):
  "foo.yield"() : () -> ()
}) : () -> () loc("region":1:1)

// Location attributes print in both modes.
"foo.loc_attrs"() {a = loc("x":1:2), b = [unit, loc("y")], c = loc(unknown), d = loc(fused["a", "b"]), e = loc(callsite("c" at "d":1:1)), f = loc(#loc1)} : () -> ()
