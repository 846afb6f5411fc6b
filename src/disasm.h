/* disasm.h - bytecode to text, for `varia disasm`, `varia trace` and the compiler's tests. */
#ifndef VARIA_DISASM_H
#define VARIA_DISASM_H

#include <stdio.h>

#include "variant.h"

/* Prints one instruction ("0012  STEP      ne        ; cur := ...   line 14") and returns the
 * offset of the next one. */
int disasm_instruction(const Variant *v, const Program *p, int pc, FILE *out);
/* Prints a whole program with a header line. */
void disasm_program(const Variant *v, const Program *p, FILE *out);
/* Every program of every piece type and owner. */
void disasm_variant(const Variant *v, FILE *out);

#endif
