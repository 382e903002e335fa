# lit configuration for `respec link`'s tests: a small library with link-time
# rules, linked into clients that reference, or do not reference, what its facts
# depend on; FileCheck lines on --explain and on the programs' output.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_respec

lit_respec.configure(config, "respec-link", [".test"], os.path.dirname(__file__))
config.substitutions.append(("%audit", config.link_audit))
