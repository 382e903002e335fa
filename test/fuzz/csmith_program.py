"""Turns one Csmith program into a respec spec with a static/dynamic split.

Csmith writes a closed program: globals with initializers, func_1() and its callees,
and a main() that calls func_1() and hashes every global into a checksum. respec
needs a spec: one RESPEC_SPECIALIZE function whose parameters are the dynamic
inputs. This module rewrites Csmith's file (one file, so no mutable static of a
generic source is duplicated by the specialized object) into

    RESPEC_SPECIALIZE uint32_t run(int16_t d0, uint8_t d1, ...)
    {
        <every mutable global re-initialized from a constant copy>  -- static
        g_53[2][0] = d0; g_139.f5 = d1; ...                         -- dynamic
        g_112 = (d2 & 1u) ? &g_113 : &g_47;                         -- dynamic pointer
        crc32_context = 0xFFFFFFFF; crc32_gentab();
        func_1();
        <Csmith's own checksum over the globals>
        return crc32_context ^ 0xFFFFFFFF;
    }

The re-initialization stores make the globals respec sees static (a store of a
constant), except the randomly chosen cells set from parameters, so both
evaluation and residualization are exercised; it also resets the globals, so the
driver calls run() once per input vector in one process. Each parameter has the
type of the cell it sets, so small-integer argument extension is exercised too.
"""

import random
import re

# Csmith's generation options: small, fast programs (a 200-program slice takes a
# few minutes on two cores), with floats and packed structs; volatiles (which respec
# must leave in place, in order) in half the programs.
CSMITH_OPTIONS = [
    "--no-argc", "--concise", "--float", "--packed-struct", "--max-funcs", "4",
    "--max-block-depth", "3", "--max-array-len-per-dim", "6", "--max-expr-complexity", "6",
]


def csmith_options(seed):
    rng = random.Random(seed ^ 0xc5)
    if rng.random() < 0.5:
        return CSMITH_OPTIONS + ["--no-volatiles", "--no-volatile-pointers"]
    return CSMITH_OPTIONS


INTEGER_TYPES = {
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
    "int64_t", "uint64_t", "signed", "unsigned",
}

# static TYPE NAME[D1][D2] = INIT;   (TYPE has no parentheses in Csmith output)
GLOBAL_RE = re.compile(
    r"^static\s+(?P<type>[^=;()]*?)\s*\b(?P<name>g_\d+)(?P<dims>(?:\[\d+\])*)"
    r"\s*(?:=\s*(?P<init>.*))?;\s*$")
# A struct field: `   const uint32_t  f3;` or `   signed f6 : 21;`
FIELD_RE = re.compile(r"^\s*(?P<type>[^:;]*?)\s+(?P<name>f\d+)\s*(?::\s*(?P<bits>\d+))?\s*;")


class CsmithGlobal:
    def __init__(self, type_, name, dims, init):
        self.type = type_.strip()
        self.name = name
        self.dims = [int(d) for d in re.findall(r"\[(\d+)\]", dims)]
        self.init = init

    @property
    def is_const_object(self):
        """The object itself is const: `const int32_t g`, `int8_t ** const g`."""
        if "*" in self.type:  # the qualifiers after the last star are the object's
            return "const" in self.type.rsplit("*", 1)[1].split()
        return "const" in self.type.split()

    @property
    def integer_type(self):
        """The integer type of a scalar or array of integers, else None."""
        words = [w for w in self.type.split() if w != "volatile"]
        if "*" in self.type or len(words) != 1:
            return None
        return words[0] if words[0] in INTEGER_TYPES else None


def parse_structs(lines):
    """struct name -> [(field type, field name, bits or None)] for every struct."""
    structs = {}
    current = None
    for line in lines:
        m = re.match(r"^struct\s+(S\d+)\s*\{", line)
        if m:
            current = structs.setdefault(m.group(1), [])
            continue
        if current is not None:
            if line.startswith("}"):
                current = None
                continue
            f = FIELD_RE.match(line)
            if f:
                current.append((f.group("type").strip(), f.group("name"), f.group("bits")))
    return structs


def dynamic_slots(globals_, structs, rng):
    """Every cell a parameter may set: (lvalue, C type of the parameter, what is
    assigned with {d} for the parameter). Integer cells take the parameter's value;
    of an array, two random elements are candidates (a cell may repeat). Pointer
    globals (one level, initialized with an address or null) take their initializer
    or the address of another mutable object of the pointed-to type, as the
    parameter's low bit says: a dynamic pointer, into static memory, that stays
    valid wherever Csmith dereferences it."""
    slots = []
    for g in globals_:
        m = re.fullmatch(r"(?:const\s+)?(?P<base>[\w ]+?)\s*\*", g.type)
        if g.is_const_object or g.dims or not m or not g.init:
            continue
        if not (g.init.startswith("&") or g.init == "(void*)0"):
            continue
        targets = [t for t in globals_ if t.type == m.group("base") and t.init is not None]
        if targets:
            t = rng.choice(targets)
            alternative = "&" + t.name + "".join("[%d]" % rng.randrange(d) for d in t.dims)
            slots.append((g.name, "uint8_t", "({d} & 1u) ? %s : %s" % (g.init, alternative)))
    for g in globals_:
        if g.is_const_object or g.init is None:
            continue
        indices = [[rng.randrange(d) for d in g.dims] for _ in range(2 if g.dims else 1)]
        for index in sorted(set(map(tuple, indices))):
            cell = g.name + "".join("[%d]" % i for i in index)
            t = g.integer_type
            if t:
                slots.append((cell, param_type(t), "{d}"))
                continue
            m = re.fullmatch(r"struct\s+(S\d+)", g.type)
            if not m:
                continue
            for ftype, fname, bits in structs.get(m.group(1), []):
                if ftype in INTEGER_TYPES:  # neither const nor a nested aggregate
                    slots.append(("%s.%s" % (cell, fname), param_type(ftype), "{d}"))
    return slots


def param_type(ctype):
    """Csmith's bit-fields are declared `signed`/`unsigned`: int-sized parameters."""
    if ctype == "signed":
        return "int32_t"
    if ctype == "unsigned":
        return "uint32_t"
    return ctype


TYPE_RANGES = {
    "int8_t": (-2**7, 2**7 - 1), "uint8_t": (0, 2**8 - 1),
    "int16_t": (-2**15, 2**15 - 1), "uint16_t": (0, 2**16 - 1),
    "int32_t": (-2**31, 2**31 - 1), "uint32_t": (0, 2**32 - 1),
    "int64_t": (-2**63, 2**63 - 1), "uint64_t": (0, 2**64 - 1),
}


def random_value(rng, ctype):
    """A value of ctype: often a corner (0, 1, -1, a limit), small, or anywhere."""
    lo, hi = TYPE_RANGES[ctype]
    kind = rng.randrange(6)  # mostly small: Csmith's loops may count from a global
    if kind == 0:
        v = rng.choice([0, 1, -1, lo, hi])
    elif kind in (1, 2, 3):
        v = rng.randint(-16, 16)
    else:
        v = rng.randint(lo, hi)
    if v < lo:  # -1 and small negatives for unsigned types: wrap like C would
        v %= hi + 1
    return v


def c_literal(v, ctype):
    if ctype.startswith("u"):
        return "%dULL" % v
    if v == -2**63:
        return "(-9223372036854775807LL - 1)"
    return "%dLL" % v


def generate(csmith_source, rng, inputs_per_program):
    """Returns (spec text, driver text, description) for one Csmith program."""
    lines = csmith_source.splitlines()
    structs = parse_structs(lines)
    globals_ = []
    main_at = None
    for n, line in enumerate(lines):
        m = GLOBAL_RE.match(line)
        if m:
            globals_.append(CsmithGlobal(m.group("type"), m.group("name"),
                                         m.group("dims"), m.group("init")))
        if re.match(r"^int\s+main\s*\(", line):
            main_at = n
    if main_at is None:
        raise ValueError("no main() in the Csmith program")

    # Which cells are dynamic: each with one probability drawn per program, so that
    # some programs are all static, some mostly dynamic; at most 8 parameters.
    slots = dynamic_slots(globals_, structs, rng)
    p = rng.choice([0.0, 0.05, 0.15, 0.3, 0.6])
    chosen = [s for s in slots if rng.random() < p]
    rng.shuffle(chosen)
    chosen = chosen[:8]

    params = ", ".join("%s d%d" % (t, i) for i, (_, t, _) in enumerate(chosen)) or "void"
    reinit = []
    for g in globals_:
        if g.is_const_object or g.init is None:
            continue
        if not g.dims and ("*" in g.type or g.integer_type):
            reinit.append("    %s = %s;" % (g.name, g.init))
        else:  # arrays, structs, unions: a byte copy of a const twin
            reinit.append("    { static const __typeof__(%s) init = %s;\n"
                          "      memcpy(&%s, &init, sizeof %s); }"
                          % (g.name, g.init, g.name, g.name))
    assigns = ["    %s = %s;" % (cell, rhs.format(d="d%d" % i))
               for i, (cell, _, rhs) in enumerate(chosen)]

    # Csmith's main becomes run(): same locals and checksum, our prologue, no print.
    body = lines[main_at + 1:]
    out_body = []
    for line in body:
        if "platform_main_begin()" in line:
            continue
        if "crc32_gentab()" in line:
            out_body.extend(reinit)
            out_body.extend(assigns)
            out_body.append("    crc32_context = 0xFFFFFFFFUL;")
            out_body.append(line)
            continue
        m = re.match(r"^(\s*)platform_main_end\((.*),\s*print_hash_value\);", line)
        if m:
            out_body.append("%sreturn %s;" % (m.group(1), m.group(2)))
            continue
        if re.match(r"^\s*return 0;", line):
            continue
        out_body.append(line)
    spec = "\n".join(
        ["#include <respec/respec.h>"] + lines[:main_at]
        + ["RESPEC_SPECIALIZE uint32_t run(%s)" % params] + out_body) + "\n"

    vectors = [[random_value(rng, t) for _, t, _ in chosen] for _ in range(inputs_per_program)]
    driver = ["/* Calls the spec's run() on each input vector and prints its checksum. */",
              "#include <stdint.h>", "#include <stdio.h>",
              "uint32_t run(%s);" % params, "int main(void)", "{"]
    for n, vec in enumerate(vectors):
        args = ", ".join("(%s)%s" % (t, c_literal(v, t)) for v, (_, t, _) in zip(vec, chosen))
        driver.append('    printf("input %d: checksum %%08X\\n", (unsigned)run(%s));' % (n, args))
    driver += ["    return 0;", "}"]
    description = "%d globals, %d dynamic cells of %d candidates: %s" % (
        len(globals_), len(chosen), len(slots), " ".join(c for c, _, _ in chosen) or "-")
    return spec, "\n".join(driver) + "\n", description
