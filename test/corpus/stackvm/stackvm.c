/*
 * stackvm.c — the generic stack machine (see stackvm.h). Written the way an
 * interpreter usually is: one dispatch loop, operands fetched as it goes, checks
 * before every stack access. Nothing here knows about specialization.
 */
#include "stackvm.h"

/* Wrapping 32-bit arithmetic without signed overflow. */
static int32_t wrap(uint32_t value)
{
	return (int32_t)value;
}

int sv_run(const unsigned char *code, size_t len, const int32_t *args, size_t nargs,
	   int32_t *result)
{
	int32_t stack[SV_STACK_MAX];
	int32_t locals[SV_LOCALS] = { 0 };
	size_t sp = 0;
	const unsigned char *pc = code, *end = code + len;
	/*
	 * Declared here rather than in the loop body: clang routes a return from a
	 * scope that owns a variable through a cleanup block shared with the loop's
	 * continuation, where respec would meet each fault path with the running one
	 * and lose the static stack pointer (correct, but not specialized).
	 */
	unsigned operand;
	unsigned char opcode;
	int32_t top, condition;

#define NEED(n)                                   \
	do {                                      \
		if (sp < (n))                     \
			return SV_STACK_UNDERFLOW; \
	} while (0)
#define ROOM()                                   \
	do {                                     \
		if (sp == SV_STACK_MAX)          \
			return SV_STACK_OVERFLOW; \
	} while (0)
#define OPERAND(var)                       \
	do {                               \
		if (pc == end)             \
			return SV_TRUNCATED; \
		(var) = *pc++;             \
	} while (0)

	while (pc < end) {
		switch (*pc++) {
		case SV_HALT:
			NEED(1);
			*result = stack[sp - 1];
			return SV_OK;
		case SV_PUSH:
			OPERAND(operand);
			ROOM();
			stack[sp++] = (int8_t)operand;
			break;
		case SV_ARG:
			OPERAND(operand);
			if (operand >= nargs)
				return SV_BAD_ARG;
			ROOM();
			stack[sp++] = args[operand];
			break;
		case SV_ADD:
			NEED(2);
			sp--;
			stack[sp - 1] = wrap((uint32_t)stack[sp - 1] + (uint32_t)stack[sp]);
			break;
		case SV_SUB:
			NEED(2);
			sp--;
			stack[sp - 1] = wrap((uint32_t)stack[sp - 1] - (uint32_t)stack[sp]);
			break;
		case SV_MUL:
			NEED(2);
			sp--;
			stack[sp - 1] = wrap((uint32_t)stack[sp - 1] * (uint32_t)stack[sp]);
			break;
		case SV_AND:
			NEED(2);
			sp--;
			stack[sp - 1] &= stack[sp];
			break;
		case SV_XOR:
			NEED(2);
			sp--;
			stack[sp - 1] ^= stack[sp];
			break;
		case SV_LT:
			NEED(2);
			sp--;
			stack[sp - 1] = stack[sp - 1] < stack[sp];
			break;
		case SV_SHR:
			OPERAND(operand);
			NEED(1);
			stack[sp - 1] = wrap((uint32_t)stack[sp - 1] >> (operand % 32));
			break;
		case SV_DUP:
			NEED(1);
			ROOM();
			stack[sp] = stack[sp - 1];
			sp++;
			break;
		case SV_SWAP:
			NEED(2);
			top = stack[sp - 1];
			stack[sp - 1] = stack[sp - 2];
			stack[sp - 2] = top;
			break;
		case SV_OVER:
			NEED(2);
			ROOM();
			stack[sp] = stack[sp - 2];
			sp++;
			break;
		case SV_DROP:
			NEED(1);
			sp--;
			break;
		case SV_LOAD:
			OPERAND(operand);
			if (operand >= SV_LOCALS)
				return SV_BAD_SLOT;
			ROOM();
			stack[sp++] = locals[operand];
			break;
		case SV_STORE:
			OPERAND(operand);
			if (operand >= SV_LOCALS)
				return SV_BAD_SLOT;
			NEED(1);
			locals[operand] = stack[--sp];
			break;
		case SV_JMP:
			OPERAND(operand);
			if (operand >= len)
				return SV_BAD_JUMP;
			pc = code + operand;
			break;
		case SV_JZ:
		case SV_JNZ:
			opcode = pc[-1];
			OPERAND(operand);
			if (operand >= len)
				return SV_BAD_JUMP;
			NEED(1);
			condition = stack[--sp];
			/*
			 * A taken jump goes straight back to the dispatch: joining it with the
			 * fall-through first would mix the two program counters.
			 */
			if ((condition == 0) == (opcode == SV_JZ)) {
				pc = code + operand;
				continue;
			}
			break;
		default:
			return SV_BAD_OPCODE;
		}
	}
	return SV_NO_HALT;
#undef NEED
#undef ROOM
#undef OPERAND
}
