// A single top-level builtin.module is the module itself: it is not wrapped in
// another one, and keeps its name, attributes and location.
"builtin.module"() <{sym_name = "outer"}> ({
  "builtin.module"() <{sym_name = "inner", sym_visibility = "private"}> ({
    "foo.z"() : () -> ()
  }) : () -> ()
  "builtin.module"() ({
    "builtin.module"() <{sym_name = "innermost"}> ({
      "foo.deep"() : () -> ()
    }) : () -> ()
  }) {foo.tag = "anonymous"} : () -> ()
  // Properties given out of order print in the op's declared order.
  "builtin.module"() <{sym_visibility = "nested", sym_name = "reordered"}> ({
    "foo.q"() : () -> ()
  }) : () -> ()
  // Inherent attributes written in the attribute dictionary move to the
  // properties.
  "builtin.module"() ({
    "foo.q"() : () -> ()
  }) {sym_name = "from_attr", foo.other = 1} : () -> ()
  "builtin.module"() <{sym_name = "k"}> ({
    "foo.q"() : () -> ()
  }) {sym_visibility = "public"} : () -> ()
}) {foo.attr = 1, foo.version = "1.0"} : () -> () loc("top":1:1)
