// Regions, blocks, successors and SSA values.
//
// Printer rules exercised here: values are renumbered (%0, %1, ...; entry block
// arguments %argN, other block arguments take plain numbers), regions are
// numbered depth-first from the last op's last region backwards, blocks are
// renamed ^bb0, ^bb1, ... in order, the entry block header is omitted when it
// has no arguments and is not empty, and non-entry blocks carry a predecessor
// comment ("// pred: ^bb0", "// 2 preds: ^bb0, ^bb1", "// no predecessors").

// The top-level module is a graph region: uses may come before definitions.
"foo.use"(%late) : (i32) -> ()

"foo.func"() ({
^entry(%a: i32, %b: i1):
  %0:3 = "foo.multi"(%a) : (i32) -> (i32, f32, i64)
  "foo.cond_br"(%b, %0#0, %0#2)[^bb1, ^bb2] {operandSegmentSizes = array<i32: 1, 1, 1>} : (i1, i32, i64) -> ()
^bb1(%x: i32):
  "foo.br"(%x)[^bb3] : (i32) -> ()
^bb2(%y: i64):
  // Two edges to the same block.
  "foo.br"()[^bb3, ^bb3] : () -> ()
^bb3(%z: i32):
  "foo.use"(%0#1, %late) : (f32, i32) -> ()
  "foo.br"()[^bb6] : () -> ()
^bb4:
  // A textual forward reference: ^bb6 dominates this block.
  "foo.use"(%w) : (i32) -> ()
  "foo.return"(%z) : (i32) -> ()
^bb6:
  %w = "foo.def"() : () -> i32
  "foo.br"()[^bb4] : () -> ()
^dead:
  // A self loop that is otherwise unreachable.
  "foo.br"()[^dead] : () -> ()
^unreachable:
  "foo.br"()[^bb1] : () -> ()
}) : () -> ()

%late = "foo.def"() : () -> i32

// A single-block region of an unregistered op is not checked for dominance
// (like a graph region): uses may come before definitions there too, also
// from nested regions. Multi-block regions are checked.
"foo.graph_like"() ({
  "foo.use"(%g1) : (i32) -> ()
  "foo.nested"() ({
    "foo.use"(%g2) : (f32) -> ()
  }) : () -> ()
  %g1 = "foo.def"() : () -> i32
  %g2 = "foo.def"() : () -> f32
}) : () -> ()

// Results: single, grouped, named in pieces, used by index.
%r1 = "foo.def"() : () -> i32
%r2:2 = "foo.def"() : () -> (i32, i32)
%r3 = "foo.def"() : () -> (i32)
%j, %k:2, %l = "foo.def"() : () -> (i32, i32, i32, i32)
"foo.use"(%j, %k#1, %l, %r2#0, %r2#1, %r1, %r3) : (i32, i32, i32, i32, i32, i32, i32) -> ()
%many:12 = "foo.def"() : () -> (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8)
"foo.use"(%many#11, %many#10, %many#0) : (i8, i8, i8) -> ()

// Source names of any shape are replaced.
%_x.y$-z = "foo.d"() : () -> i32
%123 = "foo.d"() : () -> i32
"foo.use"(%_x.y$-z, %123) : (i32, i32) -> ()

// Nested regions, values from enclosing regions, sibling regions.
%outer = "foo.def"() : () -> f32
"foo.level1"() ({
  %v1 = "foo.def"() : () -> f32
  "foo.level2"() ({
  ^bb0(%p2: index):
    %v2 = "foo.add"(%outer, %v1) : (f32, f32) -> f32
    "foo.level3"(%p2) ({
    ^bb0(%p3: index, %q3: index):
      "foo.level4"() ({
        "foo.level5"() ({
        ^bb0(%p5: i1):
          %v5 = "foo.combine"(%outer, %v1, %v2, %p2, %p3, %q3, %p5) : (f32, f32, f32, index, index, index, i1) -> f32
          "foo.yield"(%v5) : (f32) -> ()
        }) : () -> ()
        "foo.yield"() : () -> ()
      }) : () -> ()
      "foo.yield"() : () -> ()
    }) : (index) -> ()
    "foo.yield"(%v2) : (f32) -> ()
  }) : () -> ()
  %v1b = "foo.def"() : () -> f32
}, {
  %e = "foo.def"() : () -> i32
  "foo.inner"() ({
  ^bb0(%q: i32):
    %c = "foo.add"(%e, %q, %late) : (i32, i32, i32) -> i32
  }) : () -> ()
}, {
^bb0(%only_arg: i64):
  "foo.yield"(%only_arg) : (i64) -> ()
}) : () -> ()

// Empty regions, empty blocks, several regions, several blocks.
"foo.empty_region"() ({}) : () -> ()
"foo.two_empty_regions"() ({}, {}) : () -> ()
"foo.empty_block"() ({
^bb0:
}) : () -> ()
"foo.empty_block_with_args"() ({
^bb0(%x: i32, %y: f32):
}) : () -> ()
"foo.explicit_entry_label"() ({
^bb0:
  "foo.t"() : () -> ()
}) : () -> ()
"foo.unreachable_second_block"() ({
  "foo.t"() : () -> ()
^bb1:
  "foo.t"() : () -> ()
^bb2(%x: i32):
  "foo.t"(%x) : (i32) -> ()
}) : () -> ()
"foo.mixed"() ({
^bb7(%x: i32):
  "foo.t"(%x) : (i32) -> ()
}, {
  "foo.t"() : () -> ()
}, {}) : () -> ()

// A diamond and a loop.
"foo.cfg"() ({
^bb0(%cond: i1, %n: index):
  "foo.cond_br"(%cond)[^then, ^else] : (i1) -> ()
^then:
  %t = "foo.def"() : () -> index
  "foo.br"(%t)[^join] : (index) -> ()
^else:
  "foo.br"(%n)[^join] : (index) -> ()
^join(%m: index):
  "foo.br"(%m)[^loop] : (index) -> ()
^loop(%i: index):
  %next = "foo.inc"(%i) : (index) -> index
  "foo.cond_br"(%cond, %next)[^loop, ^exit] : (i1, index) -> ()
^exit:
  "foo.return"(%m) : (index) -> ()
}) : () -> ()

// A branch to many successors, and to one block from many predecessors.
"foo.switch"() ({
^bb0(%c: i32):
  "foo.switch"(%c)[^a, ^b, ^c, ^a, ^d] : (i32) -> ()
^a:
  "foo.br"()[^d] : () -> ()
^b:
  "foo.br"()[^d] : () -> ()
^c:
  "foo.br"()[^d] : () -> ()
^d:
  "foo.ret"() : () -> ()
}) : () -> ()

// Regions combined with operands, successors, properties and attributes.
"foo.all"() ({
^bb0(%x: i32):
  %y = "foo.kitchen_sink"(%x, %x)[^bb1] <{p = 1 : i32}> ({
    "foo.t"() : () -> ()
  }, {
  ^bb0(%z: f32):
    "foo.t"(%z) : (f32) -> ()
  }) {a = "attr"} : (i32, i32) -> f64
^bb1:
  "foo.ret"() : () -> ()
}) : () -> ()
