/*
 * vm.h — a small register bytecode machine, the generic code of respec's
 * interpreter example.
 *
 * A program is an array of fixed-size instructions run by a classic
 * `for (;;) switch (op)` loop over a register file kept in a state struct. Programs
 * read a caller-supplied array of input words; every input load is checked against
 * its length, so no program can read outside it. Specializing the interpreter to one
 * program turns the dispatch loop into straight-line code for that program.
 */
#ifndef INTERP_VM_H
#define INTERP_VM_H

#include <stddef.h>
#include <stdint.h>

/* Registers are 32-bit and wrap on overflow; register indices wrap modulo this. */
#define VM_NREGS 8

/* What vm_run returns for a program that loads outside its input or is malformed. */
#define VM_FAULT INT32_MIN

enum vm_op {
	VM_LOADI,  /* r[dst] = imm */
	VM_LOADIN, /* r[dst] = input[r[src] + imm], faulting outside the input */
	VM_MOV,    /* r[dst] = r[src] */
	VM_ADD,    /* r[dst] += r[src] */
	VM_ADDI,   /* r[dst] += imm */
	VM_SUB,    /* r[dst] -= r[src] */
	VM_MUL,    /* r[dst] *= r[src] */
	VM_XOR,    /* r[dst] ^= r[src] */
	VM_AND,    /* r[dst] &= r[src] */
	VM_SHL,    /* r[dst] <<= imm % 32 */
	VM_SHR,    /* r[dst] >>= imm % 32, logical */
	VM_JLT,    /* if ((int32_t)r[dst] < (int32_t)r[src]) jump to instruction imm */
	VM_JEQ,    /* if (r[dst] == r[src]) jump to instruction imm */
	VM_JMP,    /* jump to instruction imm */
	VM_RET,    /* return r[dst] */
};

struct insn {
	uint8_t op;
	uint8_t dst;
	uint8_t src;
	int32_t imm;
};

/* Runs prog over the n words at input; prog must end every path in VM_RET. */
int32_t vm_run(const struct insn *prog, const int32_t *input, size_t n);

#endif /* INTERP_VM_H */
