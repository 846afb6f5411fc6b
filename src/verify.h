/* verify.h - the bytecode verifier: jump targets, operand ranges and mark-stack balance of a
 * compiled program, checked before any program runs. */
#ifndef VARIA_VERIFY_H
#define VARIA_VERIFY_H

#include "variant.h"

/* Checks one program of v. Returns false and reports at the rule-file line of the bad
 * instruction. */
bool verify_program(const Variant *v, const Program *p, DiagSink *sink);

#endif
