/*
 * stackvm.h — a small stack machine over byte code, the corpus's second interpreter
 * shape: `while (pc < end) switch (*pc++)` with operands inline in the byte stream
 * (the interp example dispatches on structs instead). Arithmetic wraps at 32 bits,
 * and every fault (stack bounds, bad argument index, bad jump, truncated code) is
 * reported, never undefined.
 */
#ifndef STACKVM_H
#define STACKVM_H

#include <stddef.h>
#include <stdint.h>

enum sv_opcode {
	SV_HALT,  /* stop: the result is the top of the stack */
	SV_PUSH,  /* operand: signed byte to push */
	SV_ARG,   /* operand: index; pushes args[index], which must be < nargs */
	SV_ADD,   /* pop b, pop a, push a + b (and likewise below) */
	SV_SUB,
	SV_MUL,
	SV_AND,
	SV_XOR,
	SV_LT,    /* signed a < b, as 0 or 1 */
	SV_SHR,   /* operand: count (taken mod 32); logical shift of the top */
	SV_DUP,
	SV_SWAP,
	SV_OVER,  /* push a copy of the second element */
	SV_DROP,
	SV_LOAD,  /* operand: local slot to push */
	SV_STORE, /* operand: local slot to pop into */
	SV_JMP,   /* operand: absolute target offset in the code */
	SV_JZ,    /* operand: target; pops the condition, jumps when it is 0 */
	SV_JNZ,   /* operand: target; pops the condition, jumps when it is not 0 */
};

enum sv_status {
	SV_OK = 0,
	SV_STACK_OVERFLOW = -1,
	SV_STACK_UNDERFLOW = -2,
	SV_BAD_ARG = -3,
	SV_BAD_OPCODE = -4,
	SV_BAD_JUMP = -5,
	SV_BAD_SLOT = -6,
	SV_TRUNCATED = -7,
	SV_NO_HALT = -8,
};

enum { SV_STACK_MAX = 8, SV_LOCALS = 4 };

/*
 * Runs code[0..len) with all locals 0 and an empty stack. On SV_OK stores the
 * result in *result; on a fault leaves *result alone and returns the fault.
 */
int sv_run(const unsigned char *code, size_t len, const int32_t *args, size_t nargs,
	   int32_t *result);

#endif
