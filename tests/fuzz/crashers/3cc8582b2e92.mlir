// PIPELINE: 
// FOUND: form: no location (VerifyException), a symbol defined twice
llvm.mlir.global@g(1) {a2} : i32
llvm.mlir.global common @g(i32) {ad32} : i3
