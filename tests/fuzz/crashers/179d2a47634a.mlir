// PIPELINE: finalize-memref-to-llvm
// FOUND: InternalPassError: AttributeError at dialects/builtin.py:__init__
memref.global""constant@c:memref<2xf32>=dense<[0,2]>{alignment=4:f64}
