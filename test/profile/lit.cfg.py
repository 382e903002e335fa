# lit configuration for `respec profile`'s tests: small C programs built with the
# value-profiling plugin, run, and ranked, with FileCheck lines on the report.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lit_respec

lit_respec.configure(config, "respec-profile", [".c"], os.path.dirname(__file__))

# A case study's profiled program, when its case study is built.
pcap = os.path.join(config.profiled_dir, "respec-pcap-profiled")
if os.path.exists(pcap) and config.bpf_traces:
    config.available_features.add("bpf")
    config.substitutions.append(("%pcap-profiled", pcap))
    config.substitutions.append(("%bpf-traces", config.bpf_traces))
if os.path.exists(config.rpc_calls_profiled):
    config.available_features.add("rpc")
    config.substitutions.append(("%rpc-calls-profiled", config.rpc_calls_profiled))
if os.path.exists(config.io_preload):
    config.available_features.add("io")
    config.substitutions.append(("%io-preload", config.io_preload))
