//! Compiles `proto/onnx.proto` and `proto/onnx-data.proto` with protox (a pure-Rust protobuf compiler,
//! so no system `protoc` is needed) and prost-build.

fn main() {
    println!("cargo:rerun-if-changed=proto/onnx.proto");
    println!("cargo:rerun-if-changed=proto/onnx-data.proto");
    let descriptors = match protox::compile(["onnx.proto", "onnx-data.proto"], ["proto"]) {
        Ok(fds) => fds,
        Err(e) => panic!("compiling the ONNX protobuf schema: {e}"),
    };
    if let Err(e) = prost_build::Config::new().compile_fds(descriptors) {
        panic!("generating the ONNX protobuf types: {e}");
    }
}
