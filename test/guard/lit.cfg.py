# lit configuration for `respec guard`'s tests: each test is a small C input run
# through `respec guard`, with FileCheck lines beside it; librpc.test runs it on the
# unmodified Sun RPC library the rpc case study fetches (when the build has it).
import os
import lit.formats

config.name = "respec-guard"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.respec_bin_dir, "..", "..", "test", "guard")

config.environment["PATH"] = os.pathsep.join(
    [config.respec_bin_dir, config.llvm_bin_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%respec", config.respec_tool))
config.substitutions.append(("%inc", os.path.join(config.respec_src_root, "include")))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_bin_dir, "FileCheck")))
config.substitutions.append(("%not", os.path.join(config.llvm_bin_dir, "not")))
config.substitutions.append(("%clang", os.path.join(config.llvm_bin_dir, "clang")))
config.substitutions.append(("%python", "python3"))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
if os.path.exists(os.path.join(config.sunrpc_dir, ".fetched")):
    config.available_features.add("sunrpc")
    config.substitutions.append(("%sunrpc", config.sunrpc_dir))
