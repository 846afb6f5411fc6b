/* bytecode.h - the instruction set (expanded from opcodes.def), programs and their emitters. */
#ifndef VARIA_BYTECODE_H
#define VARIA_BYTECODE_H

#include "common.h"

typedef enum OperandShape {
    SHAPE_NONE,    /* no operand */
    SHAPE_JUMP,    /* u16 absolute code offset */
    SHAPE_DIR,     /* u8 direction index */
    SHAPE_CELL,    /* u16 cell index */
    SHAPE_TYPE,    /* u8 piece type index */
    SHAPE_ZONE,    /* u8 zone index */
    SHAPE_BYTE,    /* u8 small integer */
    SHAPE_DIRSET,  /* u8 direction, u8 type set */
    SHAPE_SLIDE,   /* u8 direction, u8 type set or 255, u8 type set or 255 */
    SHAPE_COUNTER, /* u8 counter, i8 value */
    SHAPE_TYPENUM, /* u8 piece type, u8 number */
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
/* Instruction length (opcode + operand). */
static inline int bc_instr_size(Opcode op) { return bc_instr_sizes[op]; }

static inline int bc_read_u16(const uint8_t *c) { return c[0] | (c[1] << 8); }

/* The operands A, B, C of one instruction, as opcodes.def names them; 0 where the shape has none. */
typedef struct Operands {
    int a, b, c;
} Operands;

/* The one operand decoder (VM, verifier, disassembler): the operands of the instruction at
 * code[pc], whose opcode is valid and whose bytes are all there. Inline: the VM decodes every step. */
static inline Operands bc_operands(const uint8_t *code, int pc) {
    const Opcode op = (Opcode)code[pc];
    const uint8_t *x = code + pc + 1;
    const int size = bc_instr_size(op);
    Operands o = {0, 0, 0};
    /* by length first: most instructions have one byte of operand or none */
    if (size > 1) o.a = x[0];
    if (size > 2) {
        const OperandShape shape = bc_opinfo[op].shape;
        if (shape == SHAPE_JUMP || shape == SHAPE_CELL) {
            o.a |= x[1] << 8;
        } else {
            o.b = shape == SHAPE_COUNTER ? (int8_t)x[1] : x[1];
            if (size > 3) o.c = x[2];
        }
    }
    return o;
}

/* One alternative `FORK next; ...; next:` of a program, of a shape run in C (vm_plan):
 *   ALT_SLIDE   [WITHDRAW]; SLIDE d p c
 *   ALT_LEAP    [WITHDRAW]; (RIDE d | SLIDE d p c); then, while the piece met is an enemy of
 *               `victims` with an empty cell beyond: capture it, land there (with the
 *               captures land_pincer, land_coord) and SLIDE d p c on (a long leap)
 *   ALT_STRIKE  STEP d (or a ride to the first piece along d) onto an enemy of `victims`
 * Type sets are indices of Variant.typesets, 0xFF for none. */
typedef enum { ALT_SLIDE, ALT_LEAP, ALT_STRIKE } AltKind;
typedef struct PlannedAlt {
    uint8_t kind, dir;
    uint8_t pincer, coord;           /* the slides' landing captures */
    uint8_t land_pincer, land_coord; /* ALT_LEAP: the captures where a jump lands */
    uint8_t victims;
    bool first_lands;               /* ALT_LEAP: the cells before the first jump are landings */
    bool rides;                     /* ALT_STRIKE: over empty cells to the first piece */
    uint8_t withdraw_dir, withdraw; /* WITHDRAW's operands (withdraw 0xFF: none) */
    uint16_t pc;                    /* the alternative's FORK (for fault messages) */
} PlannedAlt;

typedef struct Program {
    uint8_t *code;
    int count, cap;
    /* the operands of the instruction at each offset, as bc_operands decodes them (kept by
     * bc_emit and bc_patch): the VM reads them rather than decode on every step */
    Operands *ops;
    /* the program's alternatives as vm_plan recognised them (NULL: not all of known shapes):
     * vm_run_plan runs them without the interpreter */
    struct PlannedAlt *plan;
    int nplan;
    int *lines; /* rule-file line of each code byte (parallel to code) */
    int *cols;
    const char *file;
    char name[48]; /* "Pawn/white" for messages and disasm */
} Program;

void bc_init(Program *p, const char *name, const char *file);
void bc_free(Program *p);
/* Appends an instruction; returns its offset. operand is ignored for SHAPE_NONE. */
int bc_emit(Program *p, Opcode op, int operand, int line, int col);
/* Patches the u16 jump target of the jump instruction at offset `at`. */
void bc_patch(Program *p, int at, int target);

#endif
