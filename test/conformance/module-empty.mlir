// A file without operations is an empty module; the empty body block prints
// as "^bb0:".
