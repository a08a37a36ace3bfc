// Top-level operations are wrapped in an implicit, unnamed builtin.module
// located at <file>:0:0, also when one of them is a module itself.
"foo.before"() : () -> ()
"builtin.module"() ({
  "foo.inside"() : () -> ()
}) : () -> ()
"builtin.module"() <{sym_name = "named"}> ({
  "foo.inside"() : () -> ()
}) : () -> ()
"foo.after"() : () -> ()
