/* compile.h - code generation: the checked piece items become one program per piece type and
 * owner, plus the rays and attack lines the fast generator and attack tests use. */
#ifndef VARIA_COMPILE_H
#define VARIA_COMPILE_H

#include "sema.h"

/* Programs for every piece type and owner, and the attack lines grouped from their rays.
 * Reports every error to s->sink; returns false when there was any. */
bool cg_compile(Sema *s);

#endif
