// String attributes, symbol references, dictionary keys and operation names:
// escapes, quoting and non-ASCII text. Strings print printable ASCII as is and
// everything else (and `"`) as `\XX` hex escapes; `\\` stays `\\`.

"foo.strings"() {
  plain = "plain",
  empty = "",
  escapes = "a\"b\\c\n\t\00\FF",
  control = "\01\1f\7f\80",
  hex_letters = "\41\42\5C\7E~",
  lower_hex = "\e2\82\ac",
  utf8 = "héllo ✓ 日本 €",
  single_quote = "quote'single",
  brackets = "{}[]<>()",
  punctuation = "%@#$^&*!?;:,./|`=+-",
  spaces = "\20 two  spaces ",
  newline = "\0a",
  typed = "x" : i32,
  typed_tensor = "bytes" : tensor<5xi8>,
  typed_opaque = "s" : !foo.str
} : () -> ()
"foo.raw_tab"() {s = "tab	raw"} : () -> ()

// Dictionary keys print bare when they are identifiers (letters, digits, `_`,
// `$`, `.`; not starting with a digit) and quoted otherwise. Keys are sorted
// by their bytes.
"foo.keys"() {
  zz = 0,
  B = 1,
  _ok = 3,
  a$ = 2,
  a.b = 3,
  ok.k$ = 4,
  "ok" = 9,
  "a b" = 1,
  "0x" = 2,
  "1a" = 5,
  "a-b" = 6,
  "é" = 8,
  "q\"q" = 10,
  "tab\09" = 11
} : () -> ()
"foo.nested_keys"() {d = {"x y" = {"z-1" = "v"}, plain = {}}} : () -> ()
"foo.prop_keys"() <{"needs quote" = 1, bare = 2}> : () -> ()

// Symbol references: bare, quoted, nested, escapes.
"foo.symbols"() {
  a = @a,
  b = @"quoted sym",
  c = @a::@b::@c,
  d = @"x y"::@"z",
  e = @_a$.9,
  f = @"1x",
  g = @"a\"b",
  h = [@x, @y::@z],
  i = @"ünï",
  j = @"with-dash"::@"and space"::@plain,
  k = @"@at"
} : () -> ()

// Operation names are strings too.
"foo"() : () -> ()
"foo.bar.baz"() : () -> ()
"foo."() : () -> ()
".a"() : () -> ()
"Foo.Bar_9$"() : () -> ()
"foo.a b"() : () -> ()
"foo.a\"b"() : () -> ()
"foo.\41"() : () -> ()
"foo.é"() : () -> ()
