/* bytecode.h - the instruction set (expanded from opcodes.def), programs and their emitters. */
#ifndef VARIA_BYTECODE_H
#define VARIA_BYTECODE_H

#include "common.h"

/* The kinds of operand an instruction takes, as opcodes.def names them (without OPK_): each
 * kind fixes the operand's size, the range the verifier checks it against and how the
 * disassembler writes it. */
typedef enum OperandKind {
    OPK_NONE,        /* no operand */
    OPK_JUMP,        /* u16: code offset of an instruction */
    OPK_CELL,        /* u16: cell */
    OPK_DIR,         /* u8: direction */
    OPK_TYPE,        /* u8: piece type */
    OPK_ZONE,        /* u8: zone */
    OPK_TYPESET,     /* u8: index of Variant.typesets */
    OPK_TYPESET_OPT, /* u8: index of Variant.typesets, or 255 for none */
    OPK_COUNTER,     /* u8: counter */
    OPK_AMOUNT,      /* i8: a signed amount or bound */
    OPK_COUNT,       /* u8: a count, 1..64 */
    OPK_CASTLE,      /* u8: castling rule (its right) */
    OPK_KIND,        /* u8: move kind */
    OPK_PROMO,       /* u8: promotion set, 0 for none */
    OPK_FLAG,        /* u8: a flag of the move being made (`set-flag`) */
    OPK_TAG,         /* u8: a cell tag of the move being made (`tag`) */
    OPK_MODE,        /* u8: 0 or 1 (clear or set, compulsory or optional) */
    OPK_ZONE_OPT,    /* u8: zone, or 255 for every cell */
    OPK_LINES,       /* u8: index of Variant.linesets (the lines of `in-a-row`) */
    OPK_ORIENT,      /* u8: an orientation (Orientation) */
    OPK_PLAYER_OPT,  /* u8: a player or army (an owner), or 255 for the mover */
    OPK__COUNT
} OperandKind;

#define BC_MAX_OPERANDS 3

typedef enum Opcode {
#define OP(name, a, b, c, stack, synopsis) OP_##name,
#include "opcodes.def"
#undef OP
    OP__COUNT
} Opcode;

_Static_assert(OP__COUNT <= 256, "an opcode must fit in a byte");

typedef struct OpInfo {
    const char *name;
    OperandKind kinds[BC_MAX_OPERANDS]; /* OPK_NONE after the last operand */
    int stack;
    const char *synopsis;
} OpInfo;

extern const OpInfo bc_opinfo[OP__COUNT];
/* Instruction lengths (opcode + operand), from the shapes: the VM reads this on every step. */
extern const uint8_t bc_instr_sizes[OP__COUNT];
/* Instruction length (opcode + operand). */
static inline int bc_instr_size(Opcode op) { return bc_instr_sizes[op]; }

static inline int bc_read_u16(const uint8_t *c) { return c[0] | (c[1] << 8); }

/* The operands A, B, C of one instruction, as opcodes.def names them; 0 where it has none. */
typedef struct Operands {
    int a, b, c;
} Operands;

/* Bytes an operand of this kind takes in the code. */
static inline int bc_kind_size(OperandKind k) { return k == OPK_NONE ? 0 : (k == OPK_JUMP || k == OPK_CELL) ? 2 : 1; }

/* The one operand decoder (emitter, verifier, disassembler): the operands of the instruction at
 * code[pc], whose opcode is valid and whose bytes are all there, read by their kinds. */
static inline Operands bc_operands(const uint8_t *code, int pc) {
    const OpInfo *info = &bc_opinfo[code[pc]];
    const uint8_t *x = code + pc + 1;
    int val[BC_MAX_OPERANDS] = {0, 0, 0};
    for (int i = 0; i < BC_MAX_OPERANDS && info->kinds[i] != OPK_NONE; i++) {
        switch (info->kinds[i]) {
        case OPK_JUMP:
        case OPK_CELL: val[i] = bc_read_u16(x); break;
        case OPK_AMOUNT: val[i] = (int8_t)x[0]; break;
        default: val[i] = x[0]; break;
        }
        x += bc_kind_size(info->kinds[i]);
    }
    return (Operands){val[0], val[1], val[2]};
}

/* Does the instruction's operand A jump (a code offset)? */
static inline bool bc_jumps(Opcode op) { return bc_opinfo[op].kinds[0] == OPK_JUMP; }

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
    /* the program keeps a memory of the move it makes (add-partial, flags, tags): it runs in the
     * interpreter's copy that carries them (bc_emit sets it) */
    bool extended;
    int *lines; /* rule-file line of each code byte (parallel to code) */
    int *cols;
    const char *file;
    char name[48]; /* "Pawn/white" for messages and disasm */
} Program;

void bc_init(Program *p, const char *name, const char *file);
void bc_free(Program *p);
/* Appends an instruction; returns its offset. operand holds the operand bytes in order, low byte
 * first (ignored for an instruction without operands). */
int bc_emit(Program *p, Opcode op, int operand, int line, int col);
/* Patches the u16 jump target of the jump instruction at offset `at`. */
void bc_patch(Program *p, int at, int target);

#endif
