# lit configuration for `respec guard`'s tests: each test is a small C input run
# through `respec guard`, with FileCheck lines beside it; librpc.test runs it on the
# unmodified Sun RPC library the rpc case study fetches (when the build has it).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_respec

lit_respec.configure(config, "respec-guard", [".c", ".test"], os.path.dirname(__file__))
config.substitutions.append(("%python", "python3"))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
if os.path.isdir(os.path.join(config.sunrpc_dir, "librpc")):
    config.available_features.add("sunrpc")
    config.substitutions.append(("%sunrpc", config.sunrpc_dir))
