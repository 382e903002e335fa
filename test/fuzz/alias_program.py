"""Random programs about pointers, escapes and aliasing, for the respec campaign.

A partial evaluator that tracks memory cell by cell must know, at every store, every
cell the store may reach: through a pointer kept in a struct field or an array of
pointers, chosen on a dynamic branch, copied with memcpy or a struct assignment,
handed to a function of another translation unit that keeps it, returned by one,
redirected through a captured pointer-to-pointer; it must also keep a by-value copy
apart from its original, and a respec_assume fact about *p apart from a store through
a q that may be p; and it must evaluate parts of cells (bytes, bit-fields, unions),
copies of dynamic length, and loops (an interpreter over a const program among them)
exactly; and it must read a variadic callee's arguments where the call put them (a
static count or a dynamic one, pointers and doubles among them, a va_copy, a va_list
handed on) and specialize a recursion over a const program whose static arguments
repeat. Each generated program is

    common.h  the structs and the other translation unit's functions
    ext.c     that other translation unit: compiled generically, never shown to respec
    spec.c    static helpers, a few globals, and RESPEC_SPECIALIZE functions f0..fN
    driver.c  calls each fN on many pseudo-random inputs (aliasing p and q sometimes,
              respec_assume facts made true), printing the result and the caller's
              memory after each call

Every function keeps an invariant that makes it free of undefined behaviour: every
pointer variable or field always holds the address of a live int (all locals have
function scope; caller memory is refilled before each call; pointer globals are set
on entry), arithmetic is unsigned, indices are masked, a captured pointer is used
only after it was captured in the same call on every path. The campaign checks that
promise with ASan+UBSan on every program; a report there is a bug of this file.
"""

import re

COMMON_H = r"""/* Types shared by the spec, the other translation unit and the driver. */
#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
struct ref { int *p; int *q; int k; };
struct s { int op; int pad; int v[4]; int *ptr; };
struct big { unsigned long long a, b, c; int f; int *p; }; /* 40 bytes: passed in memory */
struct S { int64_t a, b, c; int8_t f; };
struct insn { unsigned char op, arg; };
struct bits { unsigned a : 3; unsigned b : 5; int c : 7; unsigned d : 17; };
union pun { int i; unsigned short h[2]; unsigned char c[4]; };
/* A stream: a cursor into cells, whose first two are a header and the rest the
   bytes the cursor walks (one array, so a walk backwards into the header is C). */
struct stream { int *pos; int cells[10]; };

/* ext.c: another translation unit, linked generically, never seen by respec. */
void ext_nop(void);
void ext_capture(int *p);           /* keeps p in a global */
void ext_write_captured(int v);     /* writes through the kept pointer */
int ext_read_captured(void);
void ext_capture_pp(int **pp);      /* keeps the address of a pointer variable */
void ext_redirect(int *p);          /* makes that pointer variable point to p */
void ext_write(int *p, int v);
int *ext_ret(int *p);
int ext_read(const int *p);
void ext_store_ref(struct ref *r, int *p);
void ext_copy_ref(struct ref *dst, const struct ref *src);
unsigned ext_big(struct big b);     /* writes its copy, returns a digest */
void ext_fill(struct s *s, int v);
void ext_gcapture(int *p);          /* keeps a pointer to a global, for good */
void ext_gwrite(int v);             /* writes through it, in any later call too */
int ext_gread(void);
/* Pure, and declared RESPEC_PURE in the spec: residual calls keep memory. */
int ext_pure_sum(const int *p, const int *q);   /* reads *p and *q */
int *ext_pure_pick(int *p, int *q, unsigned c); /* returns p or q */
unsigned ext_vsum(unsigned n, va_list ap);      /* reads n ints of a va_list */
int ext_vnext(va_list *ap);                     /* reads the next int, for the caller */
"""

EXT_C = r"""/* The other translation unit: plain generic code the spec's functions call. */
#include "common.h"
static int *slot;
static int **slot_pp;
void ext_nop(void) {}
void ext_capture(int *p) { slot = p; }
void ext_write_captured(int v) { *slot = v; }
int ext_read_captured(void) { return *slot; }
void ext_capture_pp(int **pp) { slot_pp = pp; }
void ext_redirect(int *p) { *slot_pp = p; }
void ext_write(int *p, int v) { *p = v; }
int *ext_ret(int *p) { return p; }
int ext_read(const int *p) { return *p; }
void ext_store_ref(struct ref *r, int *p) { r->p = p; }
void ext_copy_ref(struct ref *dst, const struct ref *src) { *dst = *src; }
unsigned ext_big(struct big b)
{
	b.f = 5;
	b.a += 3;
	*b.p = (int)((unsigned)*b.p + 1u);
	return (unsigned)(b.a ^ b.b ^ b.c) + (unsigned)b.f;
}
void ext_fill(struct s *s, int v)
{
	for (int i = 0; i < 4; i++)
		s->v[i] = (int)((unsigned)v + (unsigned)i);
}
static int own;
static int *gslot = &own;
void ext_gcapture(int *p) { gslot = p; }
void ext_gwrite(int v) { *gslot = v; }
int ext_gread(void) { return *gslot; }
int ext_pure_sum(const int *p, const int *q) { return (int)((unsigned)*p * 3u + (unsigned)*q); }
int *ext_pure_pick(int *p, int *q, unsigned c) { return c & 1u ? p : q; }
unsigned ext_vsum(unsigned n, va_list ap)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s = s * 7u + (unsigned)va_arg(ap, int);
	return s;
}
int ext_vnext(va_list *ap) { return va_arg(*ap, int); }
"""

# Static helpers of the spec (respec unfolds them); emitted when used.
HELPERS = {
    "h_set": "static void h_set(struct ref *r, int *p) { r->p = p; }",
    "h_write": "static void h_write(struct ref *r, int v) { *r->p = v; }",
    "h_pick": "static int *h_pick(struct ref *r, unsigned c) { return c ? r->p : r->q; }",
    "h_swap": "static void h_swap(int **x, int **y) { int *t = *x; *x = *y; *y = t; }",
    "h_big": "static unsigned h_big(struct big b)\n{\n\tb.f = 1;\n\tb.a += 7;\n"
             "\t*b.p = (int)((unsigned)*b.p + 1u);\n"
             "\treturn (unsigned)b.a + (unsigned)b.f;\n}",
    "h_S": "static int h_S(struct S v) { v.f = 1; return v.f; }",
    "h_bump": "static void h_bump(struct s *s, unsigned i) { s->v[i & 3] = (int)((unsigned)s->v[i & 3] + 1u); }",
    "h_add": "static void h_add(int *p, int v) { *p = (int)((unsigned)*p + (unsigned)v); }",
    "h_xor": "static void h_xor(int *p, int v) { *p ^= v; }",
    "h_ops": "static void (*const h_ops[2])(int *, int) = {h_add, h_xor};",
    "h_rec": "static void h_rec(int *p, unsigned n)\n{\n\tif (n) {\n"
             "\t\t*p = (int)((unsigned)*p * 3u + 1u);\n\t\th_rec(p, n - 1);\n\t}\n}",
    # Recursions on a dynamic count stay residual calls; what they may write is
    # found from the call site (pe/CallEffects.h): through a const table passed
    # down, a pointer saved in a static, a struct copied back with memcpy.
    "h_rapply": "static void h_rapply(struct ref *r, unsigned n, void (*const *ops)(int *, int))\n"
                "{\n\tif (n) {\n\t\tops[n & 1u](r->p, (int)n);\n"
                "\t\tr->k = (int)((unsigned)r->k + n);\n\t\th_rapply(r, n - 1, ops);\n\t}\n}",
    "h_rsave": "static void h_rsave(struct ref *r, unsigned n)\n{\n\tstatic struct ref *saved;\n"
               "\tsaved = r;\n\tif (n) {\n\t\tsaved->p = saved->q;\n\t\t*saved->p = (int)n;\n"
               "\t\th_rsave(saved, n - 1);\n\t}\n}",
    "h_rcopy": "static void h_rcopy(struct ref *r, unsigned n)\n{\n\tif (n) {\n"
               "\t\tstruct ref t = *r;\n\t\tt.k = (int)((unsigned)t.k + n);\n\t\tt.p = t.q;\n"
               "\t\tmemcpy(r, &t, sizeof t);\n\t\th_rcopy(r, n - 1);\n\t}\n}",
    "h_mk": "static struct big h_mk(struct big b, int *p)\n{\n\tb.p = p;\n"
            "\tb.f = (int)((unsigned)b.f + 1u);\n\tb.c ^= 5;\n\treturn b;\n}",
    "h_mkref": "static struct ref h_mkref(int *p, int *q) { struct ref r = {p, q, 7}; return r; }",
    "h_count": "static unsigned h_count(void) { static unsigned n; return ++n; }",
    "h_walk": "static int *h_walk(int *base, unsigned n)\n{\n\tint *e = base;\n"
              "\tfor (unsigned i = 0; i < n; i++)\n\t\te++;\n\treturn e;\n}",
    # Variadic callees (pe/VariadicArguments.cpp): the arguments are laid out where
    # the x86-64 ABI puts them, in registers' save area and the overflow area past
    # six integer arguments, and va_arg reads them back; a count that is static
    # unfolds the reads, a dynamic one keeps a loop over the areas residual.
    # The argument after the n summed is read too: where the list stands after a
    # loop of dynamic count.
    "h_vsum": "static unsigned h_vsum(unsigned n, ...)\n{\n\tva_list ap;\n\tunsigned s = 0;\n"
              "\tva_start(ap, n);\n\tfor (unsigned i = 0; i < n; i++)\n"
              "\t\ts = s * 7u + (unsigned)va_arg(ap, int);\n"
              "\ts ^= (unsigned)va_arg(ap, int) << 3;\n\tva_end(ap);\n\treturn s;\n}",
    # Pointers passed through the areas: writes through them must be seen.
    "h_vwrite": "static void h_vwrite(unsigned n, ...)\n{\n\tva_list ap;\n\tva_start(ap, n);\n"
                "\tfor (unsigned i = 0; i < n; i++) {\n\t\tint *p = va_arg(ap, int *);\n"
                "\t\t*p = va_arg(ap, int);\n\t}\n\tva_end(ap);\n}",
    # A va_list passed by pointer, so that the caller goes on where the callee
    # stopped: every other argument read by a helper respec unfolds, the others by
    # the other unit (a residual call that moves the real va_list on).
    "h_vnext": "static int h_vnext(va_list *ap) { return va_arg(*ap, int); }",
    "h_vskip": "static unsigned h_vskip(unsigned n, ...)\n{\n\tva_list ap;\n\tunsigned s = 0;\n"
               "\tva_start(ap, n);\n\tfor (unsigned i = 0; i < n; i++)\n"
               "\t\ts = s * 7u + (unsigned)(i & 1u ? ext_vnext(&ap) : h_vnext(&ap));\n"
               "\ts ^= (unsigned)va_arg(ap, int) << 3;\n\tva_end(ap);\n\treturn s;\n}",
    # Integers and doubles: gp_offset and fp_offset move apart.
    "h_vmix": "static unsigned h_vmix(unsigned n, ...)\n{\n\tva_list ap;\n\tunsigned s = 0;\n"
              "\tva_start(ap, n);\n\tfor (unsigned i = 0; i < n; i++)\n"
              "\t\ts = s * 5u + (i & 1u ? (unsigned)(int)(va_arg(ap, double) * 2.0)\n"
              "\t\t                      : va_arg(ap, unsigned));\n\tva_end(ap);\n\treturn s;\n}",
    # A va_list handed on by pointer, after a va_copy the callee consumes; the
    # original goes on from where it was.
    "h_vlist": "static unsigned h_vlist(unsigned n, va_list ap)\n{\n\tunsigned s = 1;\n"
               "\twhile (n--)\n\t\ts = s * 3u + (unsigned)va_arg(ap, int);\n\treturn s;\n}",
    "h_vcopy": "static unsigned h_vcopy(unsigned n, ...)\n{\n\tva_list ap, aq;\n"
               "\tva_start(ap, n);\n\tunsigned s = (unsigned)va_arg(ap, int);\n"
               "\tint *p = va_arg(ap, int *);\n\tva_copy(aq, ap);\n\ts ^= h_vlist(n, aq);\n"
               "\tva_end(aq);\n\ts = s * 11u + (unsigned)va_arg(ap, int);\n"
               "\t*p = (int)s;\n\tva_end(ap);\n\treturn s;\n}",
    # A va_list handed to the other translation unit, which reads the real areas.
    "h_vext": "static unsigned h_vext(unsigned n, ...)\n{\n\tva_list ap;\n\tva_start(ap, n);\n"
              "\tunsigned s = ext_vsum(n, ap);\n\tva_end(ap);\n\treturn s;\n}",
    # A recursive matcher over a const program (the shape of a backtracking
    # regular-expression matcher): a dynamic backward jump calls it again with the
    # static arguments of an enclosing activation (a residual specialized function,
    # memoized by them), and an alternation tries one branch then the other. x
    # halves at every jump and every alternation, so the recursion ends.
    "h_rmatch": "static unsigned h_rmatch(const struct insn *prog, unsigned len, unsigned pc,\n"
                "                         unsigned x, int *cur)\n{\n"
                "\tif (pc >= len)\n\t\treturn x;\n\tunsigned arg = prog[pc].arg;\n"
                "\tswitch (prog[pc].op % 4u) {\n\tcase 0:\n"
                "\t\t*cur = (int)((unsigned)*cur + arg);\n"
                "\t\treturn h_rmatch(prog, len, pc + 1u, x, cur);\n\tcase 1:\n"
                "\t\tif (x & 1u)\n\t\t\treturn h_rmatch(prog, len, arg % (pc + 1u), x >> 1, cur) + 1u;\n"
                "\t\treturn h_rmatch(prog, len, pc + 1u, x >> 1, cur);\n\tcase 2:\n"
                "\t\tif (x) {\n\t\t\tunsigned r = h_rmatch(prog, len, pc + 1u + (arg & 1u), x >> 1, cur);\n"
                "\t\t\tif (r & 1u)\n\t\t\t\treturn r;\n\t\t}\n"
                "\t\treturn h_rmatch(prog, len, pc + 1u, x >> 1, cur) ^ arg;\n\tdefault:\n"
                "\t\treturn (x + arg) * 3u + h_rmatch(prog, len, pc + 1u, x & arg, cur);\n\t}\n}",
    "h_new": "static int *h_new(void)\n{\n\tint *p = malloc(4 * sizeof *p);\n"
             "\tif (!p)\n\t\tabort();\n\tfor (int i = 0; i < 4; i++)\n"
             "\t\tp[i] = i + 10;\n\treturn p;\n}",
}
# Helpers that need others before them.
# Helpers with a static variable stay in the spec: respec does not copy one out
# of a generic source.
SPEC_ONLY_HELPERS = ["h_count", "h_rsave"]
HELPER_NEEDS = {"h_ops": ["h_add", "h_xor"], "h_rapply": ["h_ops", "h_add", "h_xor"],
                "h_vcopy": ["h_vlist"], "h_vskip": ["h_vnext"]}

# Globals of the spec; pointer globals are set on entry of every function using them.
GLOBALS = {
    "g0": "static int g0 = 3;",
    "g1": "static int g1 = 4;",
    "garr": "static int garr[4] = {5, 6, 7, 8};",
    "gS": "static struct S gS = {1, 2, 3, 3};",
    "gref": "static struct ref gref;",
    "gp": "static int *gp;",
    "gtab": "static int gtab[8] = {3, 1, 4, 1, 5, 9, 2, 6}; /* never written */",
}
GLOBAL_ENTRY = {"gref": "gref.p = &g0; gref.q = &garr[1]; gref.k = 0;", "gp": "gp = &g1;"}

# Locals: name -> (declaration, names its initializer refers to).
LOCALS = {
    "x0": "int x0 = 1;", "x1": "int x1 = 2;", "x2": "int x2 = 3;",
    "arr": "int arr[4] = {1, 2, 3, 4};",
    "p0": "int *p0 = &x0;", "p1": "int *p1 = &arr[1];",
    "pp": "int **pp = &p0;", "maybe": "int **maybe = 0;",
    "ap": "int *ap[3] = {&x0, &x1, &arr[2]};",
    "r0": "struct ref r0 = {&x1, &x2, 0};", "r1": "struct ref r1 = {&arr[0], &x0, 1};",
    "ls": "struct s ls = {0, 0, {1, 2, 3, 4}, &x2};",
    "bg": "struct big bg = {1, 2, 3, 4, &x0};",
    "acc": "unsigned acc = 0;",
    "bits": "struct bits bits = {1, 2, 3, 4};",
    "un": "union pun un = {0x01020304};",
    "hp": "int *hp = h_new(); /* freed before returning */",
    "sm": "struct stream sm = {0, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}};\n\tsm.pos = &sm.cells[2];",
    "vla": "int vla[(a & 3u) + 1u];\n\tfor (unsigned k = 0; k <= (a & 3u); k++)\n"
           "\t\tvla[k] = (int)k;",
}
LOCAL_ORDER = ["acc", "x0", "x1", "x2", "arr", "un", "hp", "vla", "p0", "p1", "pp", "maybe",
               "ap", "r0", "r1", "ls", "bg", "bits", "sm"]
PARAM_DECL = {"a": "unsigned a", "b": "unsigned b", "p": "struct s *p", "q": "struct s *q",
              "out": "struct ref *out"}
PARAM_ORDER = ["a", "b", "p", "q", "out"]

INT_CELLS_LOCAL = ["x0", "x1", "x2", "arr[0]", "arr[1]", "arr[2]", "arr[3]", "arr[(a & 3u)]",
                   "ls.v[0]", "ls.v[(b & 3u)]", "ls.op", "bg.f", "r0.k", "un.i", "hp[0]",
                   "hp[(b & 3u)]", "vla[0]", "vla[(a & 3u)]"]
INT_CELLS_OTHER = ["p->op", "p->v[0]", "p->v[1]", "p->v[(a & 3u)]", "q->op", "q->v[1]",
                   "q->v[(b & 3u)]", "out->k", "g0", "g1", "garr[(b & 3u)]", "garr[0]"]
# Pointer variables and fields: each always holds the address of a live int.
PTR_LVALUES = ["p0", "p1", "r0.p", "r0.q", "r1.p", "ap[0]", "ap[2]", "ap[(a % 3u)]",
               "out->p", "p->ptr", "ls.ptr", "gref.p", "gp", "bg.p"]


class Function:
    """One RESPEC_SPECIALIZE function, generated statement by statement."""

    def __init__(self, rng, name, library):
        self.rng = rng
        self.name = name
        self.library = library    # globals and helpers are in lib.c, visible to all
        self.lines = []
        self.depth = 1
        self.captured = False     # ext_capture() happened on every path so far
        self.captured_pp = False  # ext_capture_pp() likewise
        self.assumes = []         # (field of *p, value) made true by the driver
        self.loop_var = None
        self.entry_at = 0
        # Half the functions keep most values and tests static, so that respec
        # evaluates much and must know exactly when a static cell stops being one.
        self.static_bias = rng.choice([0.0, 0.75])
        self.programs = []        # the interpreter programs of s_interp: const globals
        # Some spec functions are variadic themselves: respec keeps their va_start
        # residual, reading the real registers (pe/VariadicArguments.cpp).
        self.variadic = rng.random() < 0.15

    # ---- expressions
    def chance(self, n):
        return self.rng.randrange(n) == 0

    def biased(self):
        return self.rng.random() < self.static_bias

    def static_cell(self):
        return self.rng.choice(["x0", "x1", "x2", "arr[0]", "arr[1]", "arr[2]", "arr[3]",
                                "ls.v[0]", "ls.op", "r0.k", "*p0", "*r0.p", "*ap[1]", "un.i",
                                "bg.f"])

    def int_cell(self):
        if self.biased():
            return self.static_cell()
        r = self.rng.randrange(10)
        if r < 4:
            return self.rng.choice(INT_CELLS_LOCAL)
        if r < 6:
            return self.rng.choice(INT_CELLS_OTHER)
        if r < 9:
            return "*" + self.ptr_lvalue()
        if self.loop_var:
            return "arr[%s & 3u]" % self.loop_var
        return "(*pp)[0]"

    def ptr_lvalue(self):
        if self.chance(8):
            return "(*pp)"
        if self.loop_var and self.chance(3):
            return "ap[%s %% 3u]" % self.loop_var
        return self.rng.choice(PTR_LVALUES)

    def address(self):
        cell = self.rng.choice(INT_CELLS_LOCAL + INT_CELLS_OTHER)
        return "&" + cell

    def ptr_expr(self, depth=0):
        r = self.rng.randrange(12 if depth < 2 else 6)
        if r < 3:
            return self.address()
        if r < 6:
            return self.ptr_lvalue()
        if r < 8:
            return "(%s ? %s : %s)" % (self.cond(), self.ptr_expr(depth + 1),
                                       self.ptr_expr(depth + 1))
        if r < 9:
            return "ext_ret(%s)" % self.ptr_expr(depth + 1)
        if r < 10:
            return "h_pick(&%s, %s)" % (self.rng.choice(["r0", "r1", "gref"]), self.cond())
        if r < 11:
            return "(&arr[0] + (%s & 3u))" % self.rng.choice(["a", "b"])
        return "(&%s->v[0] + (%s & 3u))" % (self.rng.choice(["p", "q"]), self.rng.choice(["a", "b"]))

    def value(self, depth=0):
        if self.biased():
            if self.chance(2):
                return "%du" % self.rng.choice([0, 1, 3, 5, 8, 13, 0x7f, 0x10000])
            return "(unsigned)" + self.static_cell()
        r = self.rng.randrange(10 if depth < 2 else 5)
        if r < 2:
            return "%du" % self.rng.choice([0, 1, 2, 7, 42, 100, 0xffff])
        if r < 4:
            return self.rng.choice(["a", "b"])
        if r < 5:
            return "(unsigned)" + self.int_cell()
        if r < 8:
            op = self.rng.choice(["+", "^", "*", "-"])
            return "(%s %s %s)" % (self.value(depth + 1), op, self.value(depth + 1))
        if r < 9:
            return self.rng.choice([
                "(unsigned)ext_read(%s)" % self.ptr_expr(depth + 1), "(unsigned)ext_gread()",
                "(unsigned)gtab[(%s & 7u)]" % self.rng.choice(["a", "b"]), "(unsigned)gtab[5]",
                "(unsigned)bits.%s" % self.rng.choice("abcd"), "(unsigned)un.h[1]",
                "(unsigned)un.c[%d]" % self.rng.randrange(4), "h_count()",
                "(unsigned)ext_pure_sum(%s, %s)" % (self.ptr_expr(depth + 1),
                                                    self.ptr_expr(depth + 1))])
        if self.captured:
            return "(unsigned)ext_read_captured()"
        return "(%s >> 1)" % self.value(depth + 1)

    def cond(self):
        if self.biased():
            return "((unsigned)%s %s %du)" % (self.static_cell(), self.rng.choice(["<", "==", ">"]),
                                              self.rng.randrange(5))
        r = self.rng.randrange(8)
        if r < 2:
            return "(%s & 1u)" % self.rng.choice(["a", "b"])
        if r < 3:
            return "(a == b)"
        if r < 4:
            return "(b > %du)" % self.rng.randrange(6)
        if r < 5:
            return "((unsigned)%s & 1u)" % self.int_cell()
        if r < 6:
            return "(%s == %s)" % (self.ptr_expr(2), self.ptr_expr(2))
        if r < 7:
            return "((unsigned)p->v[%d] > 2u)" % self.rng.randrange(4)
        return "(x0 == 1)"  # static unless something wrote x0 on a dynamic path

    # ---- statements
    def emit(self, text):
        for line in text.split("\n"):
            self.lines.append("\t" * self.depth + line)

    def read(self, cell=None):
        self.emit("acc = acc * 31u + (unsigned)%s;" % (cell or self.int_cell()))

    def block(self, n):
        for _ in range(n):
            self.statement()

    def branch(self, emit_then, emit_else):
        """if/else on a dynamic condition; capture state is what both paths have."""
        self.emit("if %s {" % self.cond())  # conditions come parenthesized
        before = (self.captured, self.captured_pp)
        self.depth += 1
        emit_then()
        then_state = (self.captured, self.captured_pp)
        self.captured, self.captured_pp = before
        self.depth -= 1
        self.emit("} else {")
        self.depth += 1
        emit_else()
        self.depth -= 1
        self.emit("}")
        self.captured = then_state[0] and self.captured
        self.captured_pp = then_state[1] and self.captured_pp

    def statement(self):
        kinds = [
            (6, self.s_store), (5, self.s_ptr_assign), (4, self.s_read),
            (3, self.s_join), (2, self.s_select), (3, self.s_struct_copy),
            (2, self.s_byval), (5, self.s_ext), (2, self.s_pp), (2, self.s_helper),
            (1, self.s_loop), (6, self.s_pattern), (3, self.s_bytes), (2, self.s_dynmem),
            (2, self.s_ptrloop), (2, self.s_calls), (2, self.s_switch), (2, self.s_bits),
            (2, self.s_interp), (2, self.s_cursor), (2, self.s_rootcopy),
            (2, self.s_variadic), (1, self.s_rmatch),
        ]
        if self.depth > 3:
            kinds = [k for k in kinds if k[1] not in (self.s_join, self.s_loop)]
        total = sum(w for w, _ in kinds)
        r = self.rng.randrange(total)
        for w, k in kinds:
            if r < w:
                return k()
            r -= w

    def s_store(self):
        target = self.int_cell() if self.chance(2) else "*" + self.ptr_expr()
        self.emit("%s = (int)%s;" % (target, self.value()))

    def s_ptr_assign(self):
        self.emit("%s = %s;" % (self.ptr_lvalue(), self.ptr_expr()))

    def s_read(self):
        self.read()

    def s_join(self):
        self.branch(lambda: self.block(self.rng.randrange(1, 3)),
                    lambda: self.block(self.rng.randrange(0, 3)))

    def s_select(self):
        self.emit("%s = %s ? %s : %s;" % (self.ptr_lvalue(), self.cond(), self.ptr_expr(1),
                                         self.ptr_expr(1)))

    def s_struct_copy(self):
        self.emit(self.rng.choice([
            "r1 = r0;", "r0 = r1;", "memcpy(&r1, &r0, sizeof r1);", "memcpy(&r0, &gref, sizeof r0);",
            "*out = r0;", "*out = r1;", "r0 = *out;", "memcpy(out, &r1, sizeof *out);",
            "ls = *p;", "*q = ls;", "memmove(q, p, sizeof *q);", "*p = *q;",
            "ext_copy_ref(&r1, &r0);", "ext_copy_ref(out, &r0);", "gref = r0;",
            "ls.ptr = %s;" % self.ptr_expr(1)]))

    def s_byval(self):
        self.emit(self.rng.choice([
            "bg.p = %s;\nacc += h_big(bg);\nacc = acc * 31u + (unsigned)bg.a + (unsigned)bg.f;"
            % self.ptr_expr(1),
            "acc += ext_big(bg);\nacc = acc * 31u + (unsigned)bg.a + (unsigned)bg.f;",
            "gS.f = (int8_t)%s;\nacc += (unsigned)h_S(gS);\nacc = acc * 31u + (unsigned)gS.f;"
            % self.value(1),
            "bg.f = (int)%s;\nacc += h_big(bg);\nacc = acc * 31u + (unsigned)bg.f;"
            % self.value(1)]))

    def s_ext(self):
        r = self.rng.randrange(11)
        if r == 0:
            self.emit("ext_bump_g1();" if self.library and self.chance(2) else "ext_nop();")
        elif r == 1:
            self.emit("ext_capture(%s);" % self.ptr_expr())
            self.captured = True
        elif r == 2 and self.captured:
            self.emit("ext_write_captured((int)%s);" % self.value())
        elif r == 3:
            self.emit("ext_write(%s, (int)%s);" % (self.ptr_expr(), self.value()))
        elif r == 4:
            self.emit("%s = ext_ret(%s);" % (self.ptr_lvalue(), self.ptr_expr()))
        elif r == 5:
            self.emit("ext_store_ref(&%s, %s);" % (self.rng.choice(["r0", "r1", "gref"]),
                                                   self.ptr_expr()))
        elif r == 6:
            self.emit("ext_capture_pp(&%s);" % self.rng.choice(
                ["p0", "p1", "r0.p", "ap[1]", "ap[(b % 3u)]", "gp", "out->p", "p->ptr"]))
            self.captured_pp = True
        elif r == 7 and self.captured_pp:
            self.emit("ext_redirect(%s);" % self.ptr_expr())
        elif r == 9:
            self.emit("acc += (unsigned)ext_pure_sum(%s, %s);" % (self.ptr_expr(), self.ptr_expr()))
        elif r == 10:
            # A pure function's pointer result may point into what it was given:
            # a write through it must be seen there.
            target = self.ptr_lvalue()
            self.emit("%s = ext_pure_pick(%s, %s, %s);" % (target, self.address(), self.ptr_expr(),
                                                           self.value()))
            self.emit("*%s = (int)%s;" % (target, self.value()))
        else:
            self.emit("ext_fill(%s, (int)%s);" % (self.rng.choice(["p", "q", "&ls"]), self.value()))
        if self.chance(2):
            self.read()

    def s_pp(self):
        target = self.rng.choice(["p0", "p1", "r0.p", "r1.q", "ap[(a % 3u)]", "gp", "out->p",
                                  "p->ptr"])
        other = self.rng.choice(["p0", "p1", "r0.q", "ap[0]", "gref.p"])
        self.emit(self.rng.choice([
            "pp = &%s;" % target,
            "pp = %s ? &%s : &%s;" % (self.cond(), target, other),
            "*pp = %s;" % self.ptr_expr(1),
            "**pp = (int)%s;" % self.value(1),
            "maybe = %s ? 0 : &%s;\nif (maybe)\n\t*maybe = %s;" % (self.cond(), target,
                                                                 self.ptr_expr(1))]))

    def s_helper(self):
        ref = self.rng.choice(["r0", "r1", "gref"])
        self.emit(self.rng.choice([
            "h_set(&%s, %s);" % (ref, self.ptr_expr()),
            "h_write(&%s, (int)%s);" % (ref, self.value()),
            "h_swap(&%s, &%s);" % (self.rng.choice(["p0", "r0.p", "ap[0]"]),
                                   self.rng.choice(["p1", "r1.q", "ap[(a % 3u)]", "out->p"])),
            "h_bump(%s, %s);" % (self.rng.choice(["p", "q", "&ls"]), self.value(1)),
            "*h_pick(&%s, %s) = (int)%s;" % (ref, self.cond(), self.value(1))]))

    def s_loop(self):
        if self.loop_var:
            return self.s_store()
        bound = self.rng.choice(["4u", "3u", "(a & 3u)", "(b & 7u)"])
        self.emit("for (unsigned i = 0; i < %s; i++) {" % bound)
        self.loop_var = "i"
        before = (self.captured, self.captured_pp)  # the loop may run no iteration
        self.depth += 1
        self.block(self.rng.randrange(1, 4))
        self.depth -= 1
        self.captured, self.captured_pp = before
        self.loop_var = None
        self.emit("}")

    def s_bytes(self):
        """Stores and copies of parts of cells: bytes, halves, unaligned spans."""
        k = self.rng.randrange(4)
        self.emit(self.rng.choice([
            "*((unsigned char *)%s + %d) = (unsigned char)%s;" % (self.ptr_expr(1), k,
                                                                 self.value(1)),
            "memmove((char *)%s + %d, &un.h[%d], 2);" % (self.ptr_expr(1), k % 3, k % 2),
            "memmove(%s, (char *)&arr[0] + (%s & 7u), sizeof(int));" % (
                self.ptr_expr(1), self.rng.choice(["a", "b", "1u", "6u"])),
            "memmove((char *)&ls.v[0] + (%s & 7u), %s, sizeof(int));" % (
                self.rng.choice(["a", "b", "2u"]), self.ptr_expr(1)),
            "un.h[%d] = (unsigned short)%s;" % (k % 2, self.value(1)),
            "un.c[%d] = (unsigned char)%s;" % (k, self.value(1)),
            "memmove(%s, &un, sizeof un);" % self.ptr_expr(1),
            "memmove(&un, %s, sizeof un);" % self.ptr_expr(1)]))
        if self.chance(2):
            self.read(self.rng.choice(["un.i", "x0", "arr[1]", "ls.v[1]", "*p0"]))

    def s_dynmem(self):
        """memset, memcpy and memmove of a dynamic length."""
        n = self.rng.choice(["a", "b"])
        self.emit(self.rng.choice([
            "memset(arr, 0, (%s & 3u) * sizeof arr[0]);" % n,
            "memset(&ls.v[1], %d, (%s & 3u) * sizeof(int));" % (self.rng.randrange(3), n),
            "memcpy(arr, %s->v, (%s & 3u) * sizeof(int));" % (self.rng.choice("pq"), n),
            "memcpy(%s->v, &arr[1], (%s & 3u) * sizeof(int));" % (self.rng.choice("pq"), n),
            "memmove(&arr[1], &arr[0], (%s & 3u) * sizeof(int));" % n,
            "memmove(&%s->v[0], &%s->v[1], (%s %% 4u) * sizeof(int));" % (
                self.rng.choice("pq"), self.rng.choice("pq"), n),
            "memcpy(&r1, &r0, (%s & 1u) ? sizeof r1 : 0);" % n,
            "memset(&bits, (int)(%s & 0xffu), sizeof bits);" % n]))
        if self.chance(2):
            self.read(self.rng.choice(["arr[0]", "arr[2]", "ls.v[2]", "p->v[1]", "*r1.p"]))

    def s_ptrloop(self):
        """Pointers that move in loops, with static or dynamic trip counts."""
        n = self.rng.choice(["(a & 3u)", "(b & 3u)", "3u", "2u"])
        self.emit(self.rng.choice([
            "for (int *e = &arr[0]; e < &arr[0] + %s; e++)\n\t*e = (int)((unsigned)*e + %s);"
            % (n, self.value(1)),
            "%s = h_walk(&%s, %s);" % (self.ptr_lvalue(), self.rng.choice(
                ["arr[0]", "p->v[0]", "hp[0]"]), n),
            "p1 = &arr[0];\nfor (unsigned k = 0; k < %s; k++)\n\tp1++;\n*p1 = (int)%s;"
            % (n, self.value(1)),
            "for (unsigned k = 0; k < %s; k++)\n\tap[k %% 3u] = &arr[k];\n*ap[%s %% 3u] = (int)%s;"
            % (n, self.rng.choice(["a", "b", "1u"]), self.value(1))]))
        self.read()

    def s_cursor(self):
        """A cursor over a stream's cells, in its field or a local, that moves in a
        loop (forwards from the bytes, or backwards into the header), an index,
        or a copy of dynamic length; then the header and the cursor are read."""
        n = self.rng.choice(["(a & 7u)", "(b & 7u)", "3u"])
        start = self.rng.choice(["2", "3", "(2 + (a & 7u))", "(2 + (b & 1u))"])
        self.emit(self.rng.choice([
            "sm.pos = &sm.cells[%s];\nfor (unsigned k = 0; k < %s && sm.pos < &sm.cells[10]; k++)\n"
            "\t*sm.pos++ = (int)%s;" % (start, n, self.value(1)),
            "sm.pos = &sm.cells[%s];\nfor (unsigned k = 0; k < %s && sm.pos > &sm.cells[0]; k++) {\n"
            "\t--sm.pos;\n\t*sm.pos = (int)((unsigned)*sm.pos + %s);\n}" % (start, n, self.value(1)),
            "{\n\tint *c = &sm.cells[%s];\n\tfor (unsigned k = 0; k < %s && c < &sm.cells[10]; k++)\n"
            "\t\t*c++ = (int)%s;\n}" % (start, n, self.value(1)),
            "sm.cells[2 + (%s & 7u)] = (int)%s;" % (self.rng.choice("ab"), self.value(1)),
            "(&sm.cells[5])[(int)(%s & 7u) - 5] = (int)%s;" % (self.rng.choice("ab"), self.value(1)),
            "memset(&sm.cells[%s], 0, (%s & 7u) * sizeof(int));" % (
                self.rng.choice(["2", "3"]), self.rng.choice("ab")),
            "sm.pos = &sm.cells[%s];\nwhile (sm.pos < &sm.cells[10] && (unsigned)*sm.pos %% 3u)\n"
            "\tsm.pos++;" % start]))
        self.read(self.rng.choice(["sm.cells[0]", "sm.cells[1]", "sm.cells[2]", "sm.cells[9]"]))
        self.emit("acc = acc * 31u + (unsigned)(sm.pos - &sm.cells[0]);")

    def s_rootcopy(self):
        """Cells behind the caller's pointer (the root they are kept behind),
        then a copy or fill of dynamic length through that very pointer (up to 6
        ints: op, pad and v, never the pointer field), then those cells read."""
        dst = self.rng.choice("pq")
        n = self.rng.choice(["a", "b"])
        self.emit("%s->op = (int)%s;" % (dst, self.value(1)))
        self.emit("%s->v[%d] = (int)%s;" % (dst, self.rng.randrange(4), self.value(1)))
        self.emit(self.rng.choice([
            "memmove(%s, %s, (%s %% 7u) * sizeof(int));" % (
                dst, self.rng.choice(["p", "q", "&ls"]), n),
            "memset(%s, %d, (%s %% 7u) * sizeof(int));" % (dst, self.rng.randrange(3), n),
            "memmove(&%s->v[1], %s->v, (%s & 3u) * sizeof(int));" % (
                dst, self.rng.choice("pq"), n)]))
        for cell in ("op", "v[0]", "v[%d]" % self.rng.randrange(1, 4)):
            self.read("%s->%s" % (dst, cell))

    def s_calls(self):
        """Indirect calls through a const table, recursion, struct returns, global escapes."""
        self.emit(self.rng.choice([
            "h_ops[(%s & 1u)](%s, (int)%s);" % (self.rng.choice("ab"), self.ptr_expr(1),
                                                self.value(1)),
            "h_ops[%d](%s, (int)%s);" % (self.rng.randrange(2), self.ptr_expr(1), self.value(1)),
            "h_rec(%s, (%s & 3u));" % (self.ptr_expr(1), self.rng.choice("ab")),
            "bg = h_mk(bg, %s);" % self.ptr_expr(1),
            "%s = h_mkref(%s, %s);" % (self.rng.choice(["r0", "r1", "*out"]), self.ptr_expr(1),
                                       self.ptr_expr(1)),
            "ext_gcapture(&%s);" % self.rng.choice(["g0", "g1", "garr[2]", "garr[(a & 3u)]"]),
            "ext_gwrite((int)%s);" % self.value(1),
            "h_rapply(&%s, (%s & 3u), h_ops);" % (self.rng.choice(["r0", "r1"]),
                                                  self.rng.choice("ab")),
            "h_rsave(&%s, (%s & 3u));" % (self.rng.choice(["r0", "r1"]), self.rng.choice("ab")),
            "h_rcopy(&%s, (%s & 3u));" % (self.rng.choice(["r0", "r1"]), self.rng.choice("ab"))]))
        if self.chance(2):
            self.read(self.rng.choice(["g0", "g1", "garr[2]", "*p0", "bg.f", "*bg.p", "*r1.p",
                                       "r0.k", "*r0.q", "*r0.p", "r1.k"]))

    def s_variadic(self):
        """Calls of variadic helpers: up to nine arguments (past the six integer
        registers into the overflow area), a static count or a dynamic one no larger
        than what was passed, pointers among the arguments, doubles beside ints, a
        va_copy, and a va_list handed on to a helper or to the other unit."""
        k = self.rng.randrange(1, 9)
        ints = ", ".join("(int)%s" % self.value(1) for _ in range(k))
        count = self.rng.choice(["%du" % k, "%du" % self.rng.randrange(k + 1),
                                 "(%s %% %du)" % (self.rng.choice("ab"), k + 1)])
        r = self.rng.randrange(6)
        if r in (0, 5):  # the count, the ints, one more int read after them
            self.emit("acc = acc * 31u + %s(%s, %s, (int)%s);" % (
                "h_vsum" if r == 0 else "h_vskip", count, ints, self.value(1)))
        elif r == 1:
            pairs = self.rng.randrange(1, 5)
            args = ", ".join("%s, (int)%s" % (self.ptr_expr(1), self.value(1)) for _ in range(pairs))
            count = self.rng.choice(["%du" % pairs, "(%s %% %du)" % (self.rng.choice("ab"), pairs + 1)])
            self.emit("h_vwrite(%s, %s);" % (count, args))
            self.read()
        elif r == 2:
            args = ", ".join(("(double)(%s & 0xffffu) * 0.5" if i & 1 else "(unsigned)%s")
                             % self.value(1) for i in range(k))
            self.emit("acc = acc * 31u + h_vmix(%s, %s);" % (count, args))
        elif r == 3:
            self.emit("acc = acc * 31u + h_vcopy(%s, (int)%s, %s, %s);" % (
                count, self.value(1), self.ptr_expr(1), ints))
            self.read()
        else:
            self.emit("acc = acc * 31u + h_vext(%s, %s);" % (count, ints))

    def s_rmatch(self):
        """The recursive matcher over a const program, with a pointer it writes
        through; then what it may have written is read."""
        name, ops = self.const_program("rprog", 4, 2, 9)
        cur = self.ptr_expr(1)
        self.emit("acc = acc * 31u + h_rmatch(%s, %du, 0u, (%s & 0x1fu), %s);" % (
            name, len(ops), self.value(1), cur))
        self.read()

    def const_program(self, prefix, opcodes, shortest, longest):
        """A const global program of struct insn, emitted before the function: its
        name and instructions (opcodes below `opcodes`, shortest to longest - 1)."""
        name = "%s_%s_%d" % (prefix, self.name, len(self.programs))
        ops = [(self.rng.randrange(opcodes), self.rng.randrange(256))
               for _ in range(self.rng.randrange(shortest, longest))]
        self.programs.append("static const struct insn %s[%d] = {%s};" % (
            name, len(ops), ", ".join("{%d, %d}" % op for op in ops)))
        return name, ops

    def s_switch(self):
        """A join of more than two paths."""
        self.emit("switch (%s %% 4u) {" % self.rng.choice(["a", "b", "(unsigned)p->v[1]"]))
        for case in self.rng.sample(range(4), self.rng.randrange(1, 4)):
            self.emit("case %d:" % case)
            self.depth += 1
            for _ in range(self.rng.randrange(1, 3)):
                self.rng.choice([self.s_ptr_assign, self.s_store, self.s_read])()
            if not self.chance(3):
                self.emit("break;")  # else fall through
            self.depth -= 1
        self.emit("default:\n\tbreak;\n}")

    def s_bits(self):
        field = self.rng.choice("abcd")
        self.emit(self.rng.choice([
            "bits.%s = %s;" % (field, self.value(1)),
            "bits.%s += 1;" % field if field != "c" else "bits.c = (int)((unsigned)bits.c & 7u);",
            "memcpy(&bits, %s, sizeof bits);" % self.ptr_expr(1),
            "memcpy(%s, &bits, sizeof bits);" % self.ptr_expr(1)]))
        self.read("bits.%s" % self.rng.choice("abcd"))

    def s_interp(self):
        """A little interpreter over a const program, the shape respec unrolls per
        program counter, moving a pointer among locals; an optional instruction skips
        the next one on a dynamic test, so the program counter joins."""
        if self.loop_var:
            return self.s_store()
        name, ops = self.const_program("prog", 9, 3, 13)
        cur = self.rng.choice(["p1", "r1.p", "ap[0]"])
        self.emit("for (unsigned pc = 0; pc < %du; pc++) {" % len(ops))
        self.emit("\tunsigned arg = %s[pc].arg;" % name)
        self.emit("\tswitch (%s[pc].op) {" % name)
        cases = [
            "%s = &arr[arg & 3u];" % cur,
            "*%s = (int)(arg + %s);" % (cur, self.value(1)),
            "acc = acc * 31u + (unsigned)*%s;" % cur,
            "if (%s & (1u << (arg & 7u)))\n\t%s = &x0;" % (self.rng.choice(["a", "b", "5u"]), cur),
            "ap[arg %% 3u] = %s;" % cur,
            "%s = ap[arg %% 3u];" % cur,
            "ext_write(%s, (int)arg);" % cur,
            "if (%s & (1u << (arg & 7u)))\n\tpc++;" % self.rng.choice(["a", "b", "6u"]),
            "%s = (arg & 1u) ? &x1 : &ls.v[arg & 3u];" % cur,
        ]
        for n, text in enumerate(cases):
            self.emit("\tcase %d:" % n)
            self.depth += 2
            self.emit(text + "\nbreak;")
            self.depth -= 2
        self.emit("\t}\n}")
        self.read("*" + cur)

    def s_pattern(self):
        """The shapes of the issue's examples, with random objects and values."""
        k = self.rng.randrange(8)
        x, y = self.rng.sample(["x0", "x1", "x2", "arr[1]", "ls.v[2]"], 2)
        ref = self.rng.choice(["r0", "r1"])
        idx = self.rng.choice(["a", "b"])
        c = self.rng.randrange(5, 99)
        if k == 0:  # fa: a field pointing into an array at a dynamic index
            self.emit("%s.p = &arr[%s & 3u];\n*%s.p = %d;" % (ref, idx, ref, c))
            self.read("arr[%d]" % self.rng.randrange(4))
        elif k == 1:  # fb: a dynamic join of two addresses in a field
            self.branch(lambda: self.emit("%s.p = &%s;" % (ref, x)),
                        lambda: self.emit("%s.p = &%s;" % (ref, y)))
            self.emit("*%s.p = %d;" % (ref, c))
            self.read(x)
            self.read(y)
        elif k == 2:  # fc: a struct holding a pointer to a local, copied to the caller
            self.emit("%s.p = &%s;\n*out = %s;\n*out->p = %d;" % (ref, x, ref, c))
            self.read(x)
        elif k == 3:  # fe: a store through q, which may be p
            self.emit("q->op = %d;" % c)
            self.read("p->op")
        elif k == 4:  # byval: the callee writes its copy, the original stays
            self.emit("gS.f = 3;\nacc += (unsigned)h_S(gS);")
            self.read("gS.f")
        elif k == 5:  # sel: the address of a pointer variable, maybe, then an unknown call
            self.emit("p1 = &%s;\nmaybe = %s ? 0 : &p1;\n(void)maybe;\next_nop();\n*p1 = %d;"
                      % (x, idx, c))
            self.read(x)
        elif k == 6:  # capture in the other unit, write through the capture
            self.emit("ext_capture(&%s);\next_write_captured(%d);" % (x, c))
            self.captured = True
            self.read(x)
        else:  # a pointer variable redirected by the other unit through its address
            self.emit("p0 = &%s;\next_capture_pp(&p0);\next_redirect(&%s);\n*p0 = %d;"
                      % (x, y, c))
            self.captured_pp = True
            self.read(x)
            self.read(y)

    def assume(self):
        """A fact on entry the driver makes true: about *p, *q (other fields than p's,
        so that p == q stays consistent) or *out."""
        obj, field = self.rng.choice([("p", "op"), ("p", "op"), ("p", "v[0]"), ("p", "pad"),
                                      ("q", "v[2]"), ("q", "v[3]"), ("out", "k")])
        if any(o == obj and f == field for o, f, _ in self.assumes):
            return
        value = self.rng.randrange(0, 4)
        self.assumes.append((obj, field, value))
        form = self.rng.randrange(3)
        if form == 0 and value == 0:
            self.emit("respec_assume(!%s->%s);" % (obj, field))
        elif form == 1:
            self.emit("respec_assume(!(%s->%s != %d));" % (obj, field, value))
        else:
            self.emit("respec_assume(%s->%s == %d);" % (obj, field, value))

    # ---- the whole function
    def generate(self):
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            self.assume()
        self.entry_at = len(self.lines)  # pointer globals are set after the facts
        self.block(self.rng.randrange(3, 9))
        if self.variadic:
            self.emit(SPEC_VARIADIC_READS)
        # Every int the function wrote, and where its pointers point, decide the result.
        for cell in ["x0", "x1", "x2", "arr[0]", "arr[1]", "arr[2]", "arr[3]", "ls.op",
                     "ls.v[0]", "ls.v[3]", "bg.f", "r0.k", "*p0", "*r0.p", "*ap[1]"]:
            self.read(cell)
        for ptr, target in [("p0", "&x0"), ("r0.p", "&x1"), ("ap[2]", "&arr[2]")]:
            self.emit("acc = acc * 31u + (%s == %s);" % (ptr, target))
        used = uses("\n".join(self.lines), LOCAL_ORDER)
        if "hp" in used:
            self.emit("free(hp);")
        self.emit("return acc;")
        globals_ = [n for n in GLOBALS if n in uses("\n".join(self.lines), list(GLOBALS))]
        entry = ["\t" + GLOBAL_ENTRY[n] for n in globals_ if n in GLOBAL_ENTRY]
        if "gtab" in globals_ and self.chance(2):  # a promise kept: nothing writes gtab
            entry.append("\trespec_static_memory(gtab, sizeof gtab);")
        body = "\n".join(self.lines[:self.entry_at] + entry + self.lines[self.entry_at:])
        while True:  # initializers refer to other locals
            more = uses("\n".join(LOCALS[n] for n in used), LOCAL_ORDER) - used
            if not more:
                break
            used |= more
        head = ["\t" + LOCALS[n] for n in LOCAL_ORDER if n in used]
        params = [n for n in PARAM_ORDER if n in uses("\n".join(head) + body, PARAM_ORDER)]
        if self.variadic:
            params = params or ["a"]
            body = body.replace("@LAST@", params[-1])
        self.params = params
        signature = "RESPEC_SPECIALIZE unsigned %s(%s)" % (
            self.name, parameter_list(params, self.variadic))
        self.text = "".join(p + "\n" for p in self.programs) + \
            "%s\n{\n%s\n%s\n}\n" % (signature, "\n".join(head), body)
        return self


# What a variadic spec function reads of its own variadic arguments: the driver
# passes a count, three ints and a pointer into its cells. A count-long loop over
# the list, and a copy of the list that reaches the pointer and writes through it.
SPEC_VARIADIC_READS = """{
	va_list va, vb;
	va_start(va, @LAST@);
	va_copy(vb, va);
	unsigned n = va_arg(va, unsigned) % 4u;
	for (unsigned k = 0; k < n; k++)
		acc = acc * 31u + (unsigned)va_arg(va, int);
	for (unsigned k = 0; k < 4u; k++)
		(void)va_arg(vb, int);
	int *vp = va_arg(vb, int *);
	*vp = (int)(acc + (unsigned)*vp);
	va_end(vb);
	va_end(va);
}"""
VARIADIC_CALL = ("\tunsigned vn = rnd() % 5u; /* a variadic function's arguments */\n"
                 "\tint v1 = (int)pick(), v2 = (int)pick(), v3 = (int)pick();\n"
                 "\tint *vp = &cells[rnd() % 8];")
VARIADIC_CALL_ARGUMENTS = "vn, v1, v2, v3, vp"


def parameter_list(params, variadic):
    """A spec function's C parameter list, `...` included."""
    named = ", ".join(PARAM_DECL[n] for n in params)
    return named + ", ..." if variadic else named or "void"


def uses(text, names):
    """Which of `names` the C text mentions as identifiers of their own."""
    found = set()
    for n in names:
        if re.search(r"(?<![\w.>])%s\b" % re.escape(n), text):
            found.add(n)
    return found


DRIVER_HEAD = r"""/* Calls each spec function on pseudo-random inputs and prints what it computed
   and the caller memory it could reach. */
#include <stdio.h>
#include "%(header)s"
static uint32_t state = %(seed)du;
static uint32_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}
static unsigned pick(void)
{
	switch (rnd() %% 4) {
	case 0: return rnd() %% 4;
	case 1: return rnd() %% 16;
	case 2: return rnd();
	default: return 0;
	}
}
static int cells[8];
static struct s s1, s2;
static struct ref outref;
static void fill(struct s *s)
{
	s->op = (int)(rnd() %% 4);
	s->pad = (int)(rnd() %% 4);
	for (int i = 0; i < 4; i++)
		s->v[i] = (int)pick();
	s->ptr = rnd() %% 3 ? &cells[rnd() %% 8] : &s->v[rnd() %% 4];
}
static void refill(void)
{
	for (int i = 0; i < 8; i++)
		cells[i] = (int)pick();
	fill(&s1);
	fill(&s2);
	outref.p = rnd() %% 2 ? &cells[rnd() %% 8] : &s1.v[rnd() %% 4];
	outref.q = &cells[rnd() %% 8];
	outref.k = (int)pick();
}
/* Where a pointer left in caller memory points, by name: addresses differ between builds. */
static const char *where(const int *ptr)
{
	static char name[32];
	for (int i = 0; i < 8; i++)
		if (ptr == &cells[i])
			return snprintf(name, sizeof name, "cells[%%d]", i), name;
	for (int i = 0; i < 4; i++) {
		if (ptr == &s1.v[i])
			return snprintf(name, sizeof name, "s1.v[%%d]", i), name;
		if (ptr == &s2.v[i])
			return snprintf(name, sizeof name, "s2.v[%%d]", i), name;
	}
	return ptr == &s1.op ? "s1.op" : ptr == &s2.op ? "s2.op" : "elsewhere";
}
static void show(const char *f, unsigned a, unsigned b, const struct s *q, int n, unsigned result)
{
	printf("%%s(%%u, %%u, %%s) #%%d = %%u\n", f, a, b, q == &s1 ? "p=q" : "p!=q", n, result);
	printf("  s1 %%d %%d [%%d %%d %%d %%d] %%s", s1.op, s1.pad, s1.v[0], s1.v[1], s1.v[2], s1.v[3],
	       where(s1.ptr));
	printf("  s2 %%d %%d [%%d %%d %%d %%d] %%s", s2.op, s2.pad, s2.v[0], s2.v[1], s2.v[2], s2.v[3],
	       where(s2.ptr));
	printf("  out %%d %%s", outref.k, where(outref.p));
	printf(" %%s\n  cells", where(outref.q));
	for (int i = 0; i < 8; i++)
		printf(" %%d", cells[i]);
	printf("\n");
%(show_globals)s}
"""


def driver(functions, inputs, seed, library):
    out = [DRIVER_HEAD % {"seed": seed | 1, "header": "lib.h" if library else "common.h",
                          "show_globals": LIB_SHOW if library else ""}]
    for f in functions:
        out.append("unsigned %s(%s);" % (f.name, parameter_list(f.params, f.variadic)))
    # Each function with its inputs, then all of them in a random order: what one call
    # leaves behind (a global the other unit captured, a static counter) meets the next.
    out.append("static void call(int f, int n)\n{")
    out.append("\trefill();")
    out.append("\tunsigned a = pick(), b = pick();")
    out.append("\tstruct s *q = rnd() % 3 == 0 ? &s1 : &s2; /* p and q alias */")
    if library:
        out.append(LIB_CALL.rstrip("\n"))
    if any(f.variadic for f in functions):
        out.append(VARIADIC_CALL)
    out.append("\tswitch (f) {")
    args = {"a": "a", "b": "b", "p": "&s1", "q": "q", "out": "&outref"}
    where = {"p": "s1.%s", "q": "q->%s", "out": "outref.%s"}
    for k, f in enumerate(functions):
        out.append("\tcase %d:" % k)
        for obj, field, value in f.assumes:
            out.append("\t\t%s = %d; /* respec_assume */" % (where[obj] % field, value))
        out.append('\t\tshow("%s", a, b, q, n, %s(%s));'
                   % (f.name, f.name, ", ".join([args[n] for n in f.params]
                                                + [VARIADIC_CALL_ARGUMENTS] * f.variadic)))
        out.append("\t\tbreak;")
    out.append("\t}\n\t(void)a;\n\t(void)b;\n}")
    out.append("int main(void)\n{")
    out.append("\tfor (int f = 0; f < %d; f++)" % len(functions))
    out.append("\t\tfor (int n = 0; n < %d; n++)\n\t\t\tcall(f, n);" % inputs)
    out.append("\tfor (int n = 0; n < %d; n++)" % inputs)
    out.append("\t\tcall((int)(rnd() %% %d), %d + n);" % (len(functions), inputs))
    out.append("\treturn 0;\n}")
    return "\n".join(out) + "\n"


# In a library program, lib.c defines the globals and the helpers (but
# SPEC_ONLY_HELPERS): respec
# is given spec.c and lib.c, the specialized object binds to lib.o's globals, the
# other unit changes one of them, and the driver sets and prints them around calls.
LIB_EXT_C = "#include \"lib.h\"\nvoid ext_bump_g1(void) { g1 = (int)((unsigned)g1 + 1u); }\n"
LIB_SHOW = (
    '\tprintf("  g %d %d [%d %d %d %d] %d %s\\n", g0, g1, garr[0], garr[1], garr[2], garr[3],\n'
    '\t       (int)gS.f, where(gp));\n')
LIB_CALL = "\tif (rnd() % 4 == 0)\n\t\tg0 = (int)pick();\n"


def declaration(definition):
    """`extern` declaration of a global or prototype of a helper, from its definition."""
    definition = definition.replace("static ", "", 1)
    if "(" in definition.split("=")[0] and "h_ops" not in definition:
        return definition.split("{")[0].strip() + ";"
    return "extern " + definition.split(" = ")[0].rstrip(";") + ";"


def generate(rng, inputs):
    """Returns ({file name: text}, description) of one program."""
    library = rng.random() < 0.5
    functions = [Function(rng, "f%d" % n, library).generate()
                 for n in range(rng.randrange(3, 8))]
    bodies = "\n".join(f.text for f in functions)
    used = uses(bodies, list(HELPERS))
    used |= {n for h in used for n in HELPER_NEEDS.get(h, [])}
    head = ["/* Generated by test/fuzz/alias_program.py. */", "#include <respec/respec.h>",
            '#include "%s"' % ("lib.h" if library else "common.h"),
            "RESPEC_PURE(ext_pure_sum);", "RESPEC_PURE(ext_pure_pick);"]
    files = {"common.h": COMMON_H, "ext.c": EXT_C}
    if library:
        in_lib = [n for n in HELPERS if n not in SPEC_ONLY_HELPERS]
        lib_defs = [GLOBALS[n].replace("static ", "", 1) for n in GLOBALS] + \
            [HELPERS[n].replace("static ", "", 1) for n in in_lib]
        files["lib.h"] = "\n".join(
            ["/* What lib.c defines: globals and helpers respec unfolds. */",
             "#pragma once", '#include "common.h"'] + [declaration(GLOBALS[n]) for n in GLOBALS]
            + [declaration(HELPERS[n]) for n in in_lib] + ["void ext_bump_g1(void);"]) + "\n"
        files["lib.c"] = "\n".join(["/* A generic source given to respec with the spec. */",
                                    '#include "lib.h"'] + lib_defs) + "\n"
        files["ext.c"] += LIB_EXT_C
        spec_parts = [HELPERS[n] for n in SPEC_ONLY_HELPERS if n in used]
    else:
        spec_parts = [GLOBALS[n] for n in GLOBALS if n in uses(bodies, list(GLOBALS))] + \
            [HELPERS[n] for n in HELPERS if n in used]
    files["spec.c"] = "\n".join(head + spec_parts + [""] + [f.text for f in functions])
    files["driver.c"] = driver(functions, inputs, rng.randrange(1, 2**32), library)
    description = "%d functions, %d lines of spec%s" % (
        len(functions), files["spec.c"].count("\n"), ", lib.c" if library else "")
    return files, description
