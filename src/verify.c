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
        const int a = operand.a;
        switch (bc_opinfo[op].shape) {
        case SHAPE_NONE: break;
        case SHAPE_JUMP:
            if (a >= p->count) ok = bad(sink, p, pc, "jump out of the program");
            break;
        case SHAPE_DIRSET:
            if (operand.b >= v->ntypesets) ok = bad(sink, p, pc, "type set out of range");
            if (a >= v->ndirs) ok = bad(sink, p, pc, "direction out of range");
            break;
        case SHAPE_SLIDE:
            /* 255: no set */
            if (operand.b != 0xFF && operand.b >= v->ntypesets) ok = bad(sink, p, pc, "type set out of range");
            if (operand.c != 0xFF && operand.c >= v->ntypesets) ok = bad(sink, p, pc, "type set out of range");
            if (a >= v->ndirs) ok = bad(sink, p, pc, "direction out of range");
            break;
        case SHAPE_COUNTER:
            if (a >= v->ncounters) ok = bad(sink, p, pc, "counter out of range");
            break;
        case SHAPE_TYPENUM:
            if (a >= v->ntypes) ok = bad(sink, p, pc, "piece type out of range");
            break;
        case SHAPE_DIR:
            if (a >= v->ndirs) ok = bad(sink, p, pc, "direction out of range");
            break;
        case SHAPE_CELL:
            if (a >= v->ncells) ok = bad(sink, p, pc, "cell out of range");
            break;
        case SHAPE_TYPE:
            if (a >= v->ntypes) ok = bad(sink, p, pc, "piece type out of range");
            break;
        case SHAPE_ZONE:
            if (a >= v->nzones) ok = bad(sink, p, pc, "zone out of range");
            break;
        case SHAPE_BYTE:
            if (op == OP_ADD && a != 0 && a >= v->npromos) ok = bad(sink, p, pc, "promotion set out of range");
            if ((op == OP_RIGHT || op == OP_CASTLED || op == OP_FREECASTLE) && a >= v->ncastles)
                ok = bad(sink, p, pc, "castling right out of range");
            if ((op == OP_TYPEIN || op == OP_PINCER || op == OP_COORD) && a >= v->ntypesets)
                ok = bad(sink, p, pc, "type set out of range");
            if (op == OP_KIND && a >= v->nkinds) ok = bad(sink, p, pc, "move kind out of range");
            break;
        case SHAPE__COUNT: break;
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
            int a = bc_opinfo[op].shape == SHAPE_JUMP ? bc_operands(p->code, pc).a : -1;
            switch (op) {
            case OP_HALT: break;
            case OP_JUMP: succ[ns++] = a; break;
            case OP_FORK:
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
