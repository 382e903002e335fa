"""hot_range.py PROGRAM FUNCTION... — prints, for each function, "hot" when BOLT put
it between __hot_start and __hot_end (the hot text of a laid-out program), else
"cold"; from the symbol table (llvm-nm)."""
import subprocess
import sys

program, functions = sys.argv[1], sys.argv[2:]
symbols = {}
for line in subprocess.run(["llvm-nm", "--defined-only", program], check=True,
                           capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3:
        symbols.setdefault(parts[2], int(parts[0], 16))
start, end = symbols["__hot_start"], symbols["__hot_end"]
for function in functions:
    print(function, "hot" if start <= symbols[function] < end else "cold")
