module attributes {nvptx.target = "sm_90"} {
  func.func @k() {
    return
  }
}
