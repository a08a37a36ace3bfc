// One top-level operation that is not a module is wrapped too.
"foo.only"() : () -> ()
