/*
 * vm.c — the bytecode interpreter (see vm.h for the instruction set).
 *
 * Registers are unsigned so that arithmetic wraps with defined behaviour; only
 * the ordered comparison and the returned value reinterpret them as signed.
 */
#include "vm.h"

struct vm_state {
	uint32_t regs[VM_NREGS];
	const int32_t *input;
	size_t ninput;
};

#define REG(vm, index) ((vm)->regs[(index) % VM_NREGS])

static int32_t vm_execute(struct vm_state *vm, const struct insn *prog)
{
	const struct insn *pc = prog;
	for (;;) {
		switch (pc->op) {
		case VM_LOADI:
			REG(vm, pc->dst) = (uint32_t)pc->imm;
			break;
		case VM_LOADIN: {
			/* Computed in 64 bits so that no index wraps back into range. */
			int64_t index = (int64_t)REG(vm, pc->src) + pc->imm;
			if (index < 0 || (uint64_t)index >= vm->ninput)
				return VM_FAULT;
			REG(vm, pc->dst) = (uint32_t)vm->input[index];
			break;
		}
		case VM_MOV:
			REG(vm, pc->dst) = REG(vm, pc->src);
			break;
		case VM_ADD:
			REG(vm, pc->dst) += REG(vm, pc->src);
			break;
		case VM_ADDI:
			REG(vm, pc->dst) += (uint32_t)pc->imm;
			break;
		case VM_SUB:
			REG(vm, pc->dst) -= REG(vm, pc->src);
			break;
		case VM_MUL:
			REG(vm, pc->dst) *= REG(vm, pc->src);
			break;
		case VM_XOR:
			REG(vm, pc->dst) ^= REG(vm, pc->src);
			break;
		case VM_AND:
			REG(vm, pc->dst) &= REG(vm, pc->src);
			break;
		case VM_SHL:
			REG(vm, pc->dst) <<= (uint32_t)pc->imm % 32;
			break;
		case VM_SHR:
			REG(vm, pc->dst) >>= (uint32_t)pc->imm % 32;
			break;
		case VM_JLT:
			if ((int32_t)REG(vm, pc->dst) < (int32_t)REG(vm, pc->src)) {
				pc = prog + pc->imm;
				continue;
			}
			break;
		case VM_JEQ:
			if (REG(vm, pc->dst) == REG(vm, pc->src)) {
				pc = prog + pc->imm;
				continue;
			}
			break;
		case VM_JMP:
			pc = prog + pc->imm;
			continue;
		case VM_RET:
			return (int32_t)REG(vm, pc->dst);
		default:
			return VM_FAULT;
		}
		pc++;
	}
}

int32_t vm_run(const struct insn *prog, const int32_t *input, size_t n)
{
	struct vm_state vm = { .input = input, .ninput = n };
	return vm_execute(&vm, prog);
}
