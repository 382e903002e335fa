// An interpreter whose program counter lives in memory reached through a
// dynamic pointer: PCRE2's match() keeps Fecode in a frame of the vector
// match_data->heapframes, and match_data is the caller's (dynamic) argument.
// Stores to it are not tracked, so the opcode load after `F->pc = program`
// is residual and so is the dispatch: the interpreter is copied, not unrolled.
//
//   respec explain frames-behind-pointer.c
//     26 D | 		switch (*F->pc) {
//
// The same with `struct frame frames[4]` a local of run() is fully unrolled.
#include <respec/respec.h>
struct frame {
	const unsigned char *pc;
	int acc;
};
struct match_data {
	struct frame *frames;
};
static const unsigned char program[] = {1, 1, 2, 0};
static int run(struct match_data *md, int x)
{
	struct frame *F = md->frames;
	F->pc = program;
	F->acc = x;
	for (;;) {
		switch (*F->pc) {
		case 0:
			return F->acc;
		case 1:
			F->acc += 3;
			break;
		case 2:
			F->acc *= 2;
			break;
		}
		F->pc++;
	}
}
RESPEC_SPECIALIZE int f(struct match_data *md, int x)
{
	return run(md, x);
}
