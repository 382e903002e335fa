# lit configuration for the partial evaluator's tests: each test is a small C spec
# (or IR) run through `respec specialize --emit-llvm`, with FileCheck lines beside it;
# .test files run respec on real library code (the Sun RPC library, when fetched).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_respec

lit_respec.configure(config, "respec-pe", [".c", ".ll", ".test"], os.path.dirname(__file__))
