#include <stdint.h>
struct insn { uint16_t code; int32_t k; };
int32_t run(const struct insn *pc, int32_t x);
