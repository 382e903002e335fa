# What the lit test suites of respec share: ShTest over C sources next to their
# FileCheck lines, the tools on PATH, and the substitutions they use.
import os
import shutil
import lit.formats


def configure(config, name, suffixes, source_dir):
    config.name = name
    config.test_format = lit.formats.ShTest(execute_external=False)
    config.suffixes = suffixes
    config.excludes = ["Inputs"]
    config.test_source_root = source_dir
    config.test_exec_root = os.path.join(config.respec_bin_dir, "..", "..", "test",
                                         os.path.basename(source_dir))
    config.environment["PATH"] = os.pathsep.join(
        [config.respec_bin_dir, config.llvm_bin_dir, config.environment.get("PATH", "")])
    config.substitutions.append(("%respec", config.respec_tool))
    config.substitutions.append(("%inc", os.path.join(config.respec_src_root, "include")))
    if hasattr(config, "librespec"):
        config.substitutions.append(("%librespec", config.librespec))
    for tool in ("FileCheck", "not", "clang"):
        config.substitutions.append(("%" + tool, os.path.join(config.llvm_bin_dir, tool)))
    config.substitutions.append(("%python", "python3"))
    config.substitutions.append(("%inputs", os.path.join(source_dir, "Inputs")))
    # The Sun RPC library examples/rpc fetches at configure time, when the build
    # has it, and the rpcgen that compiles interfaces for it.
    if os.path.isdir(os.path.join(config.sunrpc_dir, "librpc")):
        config.available_features.add("sunrpc")
        config.substitutions.append(("%sunrpc", config.sunrpc_dir))
    if shutil.which("rpcgen"):
        config.available_features.add("rpcgen")
