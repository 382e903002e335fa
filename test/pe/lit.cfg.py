# lit configuration for the partial evaluator's tests: each test is a small C spec
# (or IR) run through `respec specialize --emit-llvm`, with FileCheck lines beside it.
import os
import lit.formats

config.name = "respec-pe"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".ll"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.respec_bin_dir, "..", "..", "test", "pe")

config.environment["PATH"] = os.pathsep.join(
    [config.respec_bin_dir, config.llvm_bin_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%respec", config.respec_tool))
config.substitutions.append(("%inc", os.path.join(config.respec_src_root, "include")))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_bin_dir, "FileCheck")))
config.substitutions.append(("%not", os.path.join(config.llvm_bin_dir, "not")))
config.substitutions.append(("%clang", os.path.join(config.llvm_bin_dir, "clang")))
