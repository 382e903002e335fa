# lit configuration for `respec layout`'s tests: small C programs laid out by BOLT
# through respec layout, with FileCheck lines on its report beside them.
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_respec

lit_respec.configure(config, "respec-layout", [".test"], os.path.dirname(__file__))
config.substitutions.append(("%librespec", config.librespec))
if shutil.which("perf"):
    config.available_features.add("perf")
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
