module {
  func.func @k() {
    %0 = nvptx.thread_id x : i32
    return
  }
}
