"""The offloading translation: ``gpu.binary`` + ``gpu.launch_func`` → host LLVM IR."""
