/* bytecode.c - the opcode table (from opcodes.def) and the program emitters. */
#include "bytecode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const OpInfo bc_opinfo[OP__COUNT] = {
#define OP(name, a, b, c, stack, synopsis) {#name, {OPK_##a, OPK_##b, OPK_##c}, stack, synopsis},
#include "opcodes.def"
#undef OP
};

#define KIND_BYTES(k) ((k) == OPK_NONE ? 0 : ((k) == OPK_JUMP || (k) == OPK_CELL) ? 2 : 1)
const uint8_t bc_instr_sizes[OP__COUNT] = {
#define OP(name, a, b, c, stack, synopsis) 1 + KIND_BYTES(OPK_##a) + KIND_BYTES(OPK_##b) + KIND_BYTES(OPK_##c),
#include "opcodes.def"
#undef OP
};

void bc_init(Program *p, const char *name, const char *file) {
    memset(p, 0, sizeof *p);
    p->file = file;
    snprintf(p->name, sizeof p->name, "%s", name);
}

void bc_free(Program *p) {
    free(p->code);
    free(p->lines);
    free(p->cols);
    free(p->ops);
    free(p->plan);
    memset(p, 0, sizeof *p);
}

static void put_byte(Program *p, int byte, int line, int col) {
    if (p->count == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->code = xrealloc(p->code, (size_t)p->cap);
        p->lines = xrealloc(p->lines, (size_t)p->cap * sizeof(int));
        p->cols = xrealloc(p->cols, (size_t)p->cap * sizeof(int));
        p->ops = xrealloc(p->ops, (size_t)p->cap * sizeof(Operands));
    }
    p->code[p->count] = (uint8_t)byte;
    p->lines[p->count] = line;
    p->cols[p->count] = col;
    p->count++;
}

int bc_emit(Program *p, Opcode op, int operand, int line, int col) {
    int at = p->count;
    if (op == OP_PARTIAL || op == OP_FLAG || op == OP_SETFLAG || op == OP_TAG || op == OP_TAGGED || op == OP_FROM ||
        op == OP_TO)
        p->extended = true;
    put_byte(p, (int)op, line, col);
    switch (bc_instr_size(op) - 1) {
    case 1: put_byte(p, operand & 0xFF, line, col); break;
    case 2:
        put_byte(p, operand & 0xFF, line, col);
        put_byte(p, (operand >> 8) & 0xFF, line, col);
        break;
    case 3:
        put_byte(p, operand & 0xFF, line, col);
        put_byte(p, (operand >> 8) & 0xFF, line, col);
        put_byte(p, (operand >> 16) & 0xFF, line, col);
        break;
    default: break;
    }
    p->ops[at] = bc_operands(p->code, at);
    return at;
}

void bc_patch(Program *p, int at, int target) {
    ASSERT(bc_jumps((Opcode)p->code[at]), "only jumps are patched");
    p->code[at + 1] = (uint8_t)(target & 0xFF);
    p->code[at + 2] = (uint8_t)((target >> 8) & 0xFF);
    p->ops[at] = bc_operands(p->code, at);
}
