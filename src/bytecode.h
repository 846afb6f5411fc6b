/* bytecode.h - the instruction set (expanded from opcodes.def), programs and their emitters. */
#ifndef VARIA_BYTECODE_H
#define VARIA_BYTECODE_H

#include "common.h"

typedef enum OperandShape {
    SHAPE_NONE, /* no operand */
    SHAPE_JUMP, /* u16 absolute code offset */
    SHAPE_DIR,  /* u8 direction index */
    SHAPE_CELL, /* u16 cell index */
    SHAPE_TYPE, /* u8 piece type index */
    SHAPE_ZONE, /* u8 zone index */
    SHAPE_BYTE, /* u8 small integer */
    SHAPE_DIRSET, /* u8 direction, u8 type set */
    SHAPE_SLIDE,  /* u8 direction, u8 type set or 255, u8 type set or 255 */
    SHAPE_COUNTER, /* u8 counter, i8 value */
    SHAPE__COUNT
} OperandShape;

typedef enum Opcode {
#define OP(name, shape, stack, synopsis) OP_##name,
#include "opcodes.def"
#undef OP
    OP__COUNT
} Opcode;

_Static_assert(OP__COUNT <= 256, "an opcode must fit in a byte");

typedef struct OpInfo {
    const char *name;
    OperandShape shape;
    int stack;
    const char *synopsis;
} OpInfo;

extern const OpInfo bc_opinfo[OP__COUNT];
/* Instruction lengths (opcode + operand), from the shapes: the VM reads this on every step. */
extern const uint8_t bc_instr_sizes[OP__COUNT];
/* Bytes an operand of this shape takes. */
int bc_shape_size(OperandShape shape);
/* Instruction length (opcode + operand). */
static inline int bc_instr_size(Opcode op) { return bc_instr_sizes[op]; }

typedef struct Program {
    uint8_t *code;
    int count, cap;
    int *lines;     /* rule-file line of each code byte (parallel to code) */
    int *cols;
    const char *file;
    char name[48];  /* "Pawn/white" for messages and disasm */
} Program;

void bc_init(Program *p, const char *name, const char *file);
void bc_free(Program *p);
/* Appends an instruction; returns its offset. operand is ignored for SHAPE_NONE. */
int bc_emit(Program *p, Opcode op, int operand, int line, int col);
/* Patches the u16 jump target of the jump instruction at offset `at`. */
void bc_patch(Program *p, int at, int target);
static inline int bc_read_u16(const uint8_t *c) { return c[0] | (c[1] << 8); }

#endif
