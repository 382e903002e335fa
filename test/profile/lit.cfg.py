# lit configuration for `respec profile`'s tests: small C programs built with the
# value-profiling plugin, run, and ranked, with FileCheck lines on the report.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_respec

lit_respec.configure(config, "respec-profile", [".c"], os.path.dirname(__file__))
