/* verify.c - the bytecode verifier, run on every program after compiling: opcodes and operands
 * in range, jumps onto instruction boundaries, and a mark-stack depth that is the same on every
 * path into an instruction and never below 0 or above MAX_MARKS. */
#include "verify.h"

#include <stdlib.h>
#include <string.h>

#include "source.h"

/* The location of instruction pc. The file name comes from the sink's source when there is one:
 * the diagnostic outlives the variant (and its path) when loading fails. */
static SrcLoc where(const DiagSink *sink, const Program *p, int pc) {
    bool in = pc >= 0 && pc < p->count;
    return (SrcLoc){.file = sink->source ? sink->source->path : p->file,
                    .line = in ? p->lines[pc] : 0,
                    .col = in ? p->cols[pc] : 0};
}

/* Code the compiler should never produce. */
static bool bad(DiagSink *sink, const Program *p, int pc, const char *msg) {
    diag_error(sink, where(sink, p, pc), "internal: bad bytecode in %s at %d: %s", p->name, pc, msg);
    return false;
}

/* Marks and backs that do not pair up: a mistake in the rule file's move block (said once,
 * not once per player: the line is enough). */
static bool unbalanced(DiagSink *sink, const Program *p, int pc, const char *msg) {
    diag_error(sink, where(sink, p, pc), "%s", msg);
    return false;
}

/* Why an operand of this kind and value is out of range for the game, or NULL. */
static const char *operand_fault(const Variant *v, const Program *p, OperandKind kind, int value) {
    switch (kind) {
    case OPK_NONE:
    case OPK_AMOUNT: return NULL;
    case OPK_JUMP: return value < p->count ? NULL : "jump out of the program";
    case OPK_CELL: return value < v->ncells ? NULL : "cell out of range";
    case OPK_DIR: return value < v->ndirs ? NULL : "direction out of range";
    case OPK_TYPE: return value < v->ntypes ? NULL : "piece type out of range";
    case OPK_ZONE: return value < v->nzones ? NULL : "zone out of range";
    case OPK_TYPESET: return value < v->ntypesets ? NULL : "type set out of range";
    case OPK_TYPESET_OPT: return value == 0xFF || value < v->ntypesets ? NULL : "type set out of range";
    case OPK_COUNTER: return value < v->ncounters ? NULL : "counter out of range";
    case OPK_COUNT: return value >= 1 && value <= 64 ? NULL : "count out of range";
    case OPK_CASTLE: return value < v->ncastles ? NULL : "castling right out of range";
    case OPK_KIND: return value < v->nkinds ? NULL : "move kind out of range";
    case OPK_PROMO: return value == 0 || value < v->npromos ? NULL : "promotion set out of range";
    case OPK_FLAG: return value < v->nmove_flags ? NULL : "move flag out of range";
    case OPK_TAG: return value < v->ntags ? NULL : "tag out of range";
    case OPK_MODE: return value <= 1 ? NULL : "mode out of range";
    case OPK_ZONE_OPT: return value == 0xFF || value < v->nzones ? NULL : "zone out of range";
    case OPK_LINES: return value < v->nlinesets ? NULL : "line set out of range";
    case OPK_ORIENT: return value < ORIENT__COUNT ? NULL : "orientation out of range";
    case OPK_PLAYER_OPT: return value == 0xFF || value < v->nowners ? NULL : "player out of range";
    case OPK__COUNT: break;
    }
    return "unknown operand kind";
}

bool verify_program(const Variant *v, const Program *p, DiagSink *sink) {
    if (p->count == 0) return true;
    bool *start = xcalloc((size_t)p->count + 1, sizeof(bool));
    int *depth = xmalloc(((size_t)p->count + 1) * sizeof(int));
    bool ok = true;
    for (int pc = 0; pc < p->count && ok;) {
        int op = p->code[pc];
        if (op >= OP__COUNT) {
            ok = bad(sink, p, pc, "unknown opcode");
            break;
        }
        start[pc] = true;
        int size = bc_instr_size((Opcode)op);
        if (pc + size > p->count) {
            ok = bad(sink, p, pc, "truncated instruction");
            break;
        }
        const Operands operand = bc_operands(p->code, pc);
        const int values[BC_MAX_OPERANDS] = {operand.a, operand.b, operand.c};
        for (int i = 0; i < BC_MAX_OPERANDS && ok; i++) {
            const char *why = operand_fault(v, p, bc_opinfo[op].kinds[i], values[i]);
            if (why) ok = bad(sink, p, pc, why);
        }
        pc += size;
    }
    /* control flow: every jump lands on an instruction; depth consistent (worklist walk) */
    if (ok) {
        for (int i = 0; i <= p->count; i++) depth[i] = -1;
        int *work = xmalloc(((size_t)p->count + 1) * sizeof(int));
        int nwork = 0;
        depth[0] = 0;
        work[nwork++] = 0;
        while (nwork && ok) {
            int pc = work[--nwork];
            int op = p->code[pc];
            int d = depth[pc] + bc_opinfo[op].stack;
            if (d < 0) {
                ok = unbalanced(sink, p, pc, "'back' without a matching 'mark'");
                break;
            }
            if (d > MAX_MARKS) {
                char msg[64];
                snprintf(msg, sizeof msg, "too many marks without a 'back' (limit is %d)", MAX_MARKS);
                ok = unbalanced(sink, p, pc, msg);
                break;
            }
            int succ[2], ns = 0;
            int next = pc + bc_instr_size((Opcode)op);
            int a = bc_jumps((Opcode)op) ? bc_operands(p->code, pc).a : -1;
            switch (op) {
            case OP_HALT: break;
            case OP_JUMP: succ[ns++] = a; break;
            case OP_FORK:
            case OP_PROBE:
            case OP_JT:
            case OP_JF:
                succ[ns++] = a;
                succ[ns++] = next;
                break;
            default: succ[ns++] = next; break;
            }
            for (int i = 0; i < ns && ok; i++) {
                int t = succ[i];
                if (t >= p->count || !start[t]) {
                    ok = bad(sink, p, pc, "control flows off an instruction");
                    break;
                }
                if (depth[t] < 0) {
                    depth[t] = d;
                    work[nwork++] = t;
                } else if (depth[t] != d)
                    ok = unbalanced(sink, p, t, "paths meet here with different numbers of 'mark's not taken 'back'");
            }
        }
        free(work);
    }
    free(start);
    free(depth);
    return ok;
}
