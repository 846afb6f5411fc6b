/* disasm.c - prints programs: offset, opcode, operand by name, synopsis and rule-file line. */
#include "disasm.h"

#include <string.h>

/* One operand, named by its kind ("" for none and for an absent type set). */
static void operand_word(const Variant *v, OperandKind kind, int a, char *buf, size_t cap) {
    switch (kind) {
    case OPK_JUMP: snprintf(buf, cap, "-> %04d", a); break;
    case OPK_DIR: {
        const Direction *d = a < v->ndirs ? &v->dirs[a] : NULL;
        if (!d)
            snprintf(buf, cap, "dir?%d", a);
        else if (d->name[0])
            snprintf(buf, cap, "%s", d->name);
        else
            snprintf(buf, cap, "(%d,%d)", d->dx, d->dy);
        break;
    }
    case OPK_CELL: snprintf(buf, cap, "%s", a < v->ncells ? v->cells[a].name : "?"); break;
    case OPK_TYPE: snprintf(buf, cap, "%s", a < v->ntypes ? v->types[a].name : "?"); break;
    case OPK_ZONE: snprintf(buf, cap, "%s", a < v->nzones ? v->zones[a].name : "?"); break;
    case OPK_ZONE_OPT: snprintf(buf, cap, "%s", a == 0xFF ? "all" : a < v->nzones ? v->zones[a].name : "?"); break;
    case OPK_ORIENT: snprintf(buf, cap, "%s", variant_orientation_name((Orientation)a)); break;
    case OPK_PLAYER_OPT: snprintf(buf, cap, "%s", a == 0xFF ? "" : a < v->nowners ? v->player_names[a] : "?"); break;
    case OPK_LINES: {
        /* the lines by one direction of each: lines(n,e,ne,se) */
        size_t at = (size_t)snprintf(buf, cap, "lines(");
        for (int i = 0; a < v->nlinesets && i < v->linesets[a].n && at < cap; i++) {
            const Direction *d = &v->dirs[v->linesets[a].dirs[i]];
            at += d->name[0] ? (size_t)snprintf(buf + at, cap - at, "%s%s", i ? "," : "", d->name)
                             : (size_t)snprintf(buf + at, cap - at, "%s(%d,%d)", i ? "," : "", d->dx, d->dy);
        }
        if (at < cap) snprintf(buf + at, cap - at, ")");
        break;
    }
    case OPK_TYPESET_OPT:
        if (a == 0xFF) {
            buf[0] = 0;
            break;
        }
        /* fall through */
    case OPK_TYPESET: snprintf(buf, cap, "set%d", a); break;
    case OPK_COUNTER: snprintf(buf, cap, "%s", a < v->ncounters ? v->counters[a].name : "?"); break;
    case OPK_KIND: snprintf(buf, cap, "%s", a < v->nkinds ? v->kind_names[a] : "?"); break;
    case OPK_FLAG: snprintf(buf, cap, "%s", a < v->nmove_flags ? v->move_flag_names[a] : "?"); break;
    case OPK_TAG: snprintf(buf, cap, "%s", a < v->ntags ? v->tag_names[a] : "?"); break;
    case OPK_NONE: buf[0] = 0; break;
    default: snprintf(buf, cap, "%d", a); break;
    }
}

/* The operands of an instruction, each named by its kind, separated by spaces. */
static void operand_text(const Variant *v, Opcode op, Operands operand, char *buf, size_t cap) {
    const int values[BC_MAX_OPERANDS] = {operand.a, operand.b, operand.c};
    buf[0] = 0;
    for (int i = 0; i < BC_MAX_OPERANDS; i++) {
        char word[32];
        operand_word(v, bc_opinfo[op].kinds[i], values[i], word, sizeof word);
        if (!word[0]) continue;
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", len ? " " : "", word);
    }
}

int disasm_instruction(const Variant *v, const Program *p, int pc, FILE *out) {
    Opcode op = (Opcode)p->code[pc];
    if (op >= OP__COUNT) {
        fprintf(out, "%04d  ??? %d\n", pc, (int)op);
        return pc + 1;
    }
    char text[48];
    operand_text(v, op, bc_operands(p->code, pc), text, sizeof text);
    fprintf(out, "%04d  %-9s %-9s ; %-40s line %d\n", pc, bc_opinfo[op].name, text, bc_opinfo[op].synopsis,
            p->lines[pc]);
    return pc + bc_instr_size(op);
}

void disasm_program(const Variant *v, const Program *p, FILE *out) {
    fprintf(out, "== %s (%d bytes) ==\n", p->name, p->count);
    for (int pc = 0; pc < p->count;) pc = disasm_instruction(v, p, pc, out);
}

/* A set of types, or "not" and the types it leaves out when they are fewer. */
static void disasm_types(const Variant *v, const char *label, uint32_t types, FILE *out) {
    uint32_t all = v->ntypes >= 32 ? ALL_TYPES : (1u << v->ntypes) - 1;
    types &= all;
    if (types == all) return;
    bool negated = __builtin_popcount(all & ~types) < __builtin_popcount(types);
    fprintf(out, " %s%s", label, negated ? " not" : "");
    for (int t = 0; t < v->ntypes; t++)
        if (((types >> t) & 1) != negated) fprintf(out, " %s", v->types[t].name);
}

static void disasm_zones(const Variant *v, int from, int to, int path, FILE *out) {
    if (from) fprintf(out, " from %s", v->zones[from - 1].name);
    if (to) fprintf(out, " to %s", v->zones[to - 1].name);
    if (path) fprintf(out, " within %s", v->zones[path - 1].name);
}

/* The attack rays and patterns that say more than the generation rays do: a victim filter,
 * zones, a hop. */
static void disasm_attack_filters(const Variant *v, const PieceProgram *pp, FILE *out) {
    bool any = false;
    for (int i = 0; i < pp->natk; i++) {
        const Ray *r = &pp->atk[i];
        if (r->victims == ALL_TYPES && !r->from_zone && !r->to_zone) continue;
        const Direction *d = &v->dirs[r->dir];
        fprintf(out, "%s %s(%d,%d)", any ? "" : "   attacks:", r->slide ? "slide" : "leap", d->dx, d->dy);
        any = true;
        if (r->victims != ALL_TYPES)
            for (int t = 0; t < v->ntypes; t++)
                if ((r->victims >> t) & 1) fprintf(out, " %s", v->types[t].name);
        if (r->from_zone) fprintf(out, " from %s", v->zones[r->from_zone - 1].name);
        if (r->to_zone) fprintf(out, " to %s", v->zones[r->to_zone - 1].name);
    }
    for (int i = 0; i < pp->npatterns; i++) {
        const CapturePattern *cp = &pp->patterns[i];
        bool shown = cp->method == CAP_HOP || cp->method == CAP_SLIDES || cp->method == CAP_PRIVILEGE;
        if (!shown && !cp->from_zone && !cp->to_zone) continue;
        fprintf(out, "%s %s", any ? "" : "   attacks:",
                cp->method == CAP_HOP             ? "hop"
                    : cp->method == CAP_STEPS     ? "steps"
                    : cp->method == CAP_SLIDES    ? "slides"
                    : cp->method == CAP_PRIVILEGE ? "privilege legs"
                                                  : "legs");
        any = true;
        for (int k = 0; k < cp->ndirs; k++) fprintf(out, " (%d,%d)", v->dirs[cp->dirs[k]].dx, v->dirs[cp->dirs[k]].dy);
        if (cp->from_zone) fprintf(out, " from %s", v->zones[cp->from_zone - 1].name);
        if (cp->to_zone) fprintf(out, " to %s", v->zones[cp->to_zone - 1].name);
        if (cp->method == CAP_HOP || cp->method == CAP_SLIDES) {
            if (cp->near) fprintf(out, " near");
            if (cp->range) fprintf(out, " range %d", cp->range);
            if (cp->method == CAP_HOP) disasm_types(v, "over", cp->screens, out);
            disasm_types(v, "takes", cp->victims, out);
            if (cp->path_zone) fprintf(out, " within %s", v->zones[cp->path_zone - 1].name);
        }
    }
    if (any) fprintf(out, "\n");
}

/* The moves the fast generator makes in C besides the rays (LineMove). */
static void disasm_lines(const Variant *v, const PieceProgram *pp, FILE *out) {
    if (!pp->nlines) return;
    fprintf(out, "   fast lines:");
    for (int i = 0; i < pp->nlines; i++) {
        const LineMove *l = &pp->lines[i];
        const char *kind = l->nlegs > 1 ? "legs"
            : l->hop                    ? (l->range ? "hop-near" : "hop")
            : l->range == 1             ? "leap"
                                        : "slide";
        fprintf(out, "%s %s", i ? "," : "", kind);
        for (int k = 0; k < l->nlegs; k++) {
            const Direction *d = &v->dirs[l->dirs[k]];
            if (d->link_board >= 0)
                fprintf(out, "(%s)", d->name);
            else
                fprintf(out, "(%d,%d)", d->dx, d->dy);
        }
        if (l->range > 1 && !l->hop) fprintf(out, " range %d", l->range);
        fprintf(out, "%s", l->mode == RAY_MOVE ? " move-only" : l->mode == RAY_CAPTURE ? " capture-only" : "");
        disasm_types(v, "over", l->hop ? l->screens : ALL_TYPES, out);
        disasm_types(v, "takes", l->victims, out);
        disasm_zones(v, l->from_zone, l->to_zone, l->path_zone, out);
    }
    fprintf(out, "\n");
}

/* The alternatives of the rest program that run by C loops (Program.plan), in order. */
static void disasm_plan(const Variant *v, const Program *rest, FILE *out) {
    if (!rest->plan) return;
    fprintf(out, "   run in C:");
    for (int i = 0; i < rest->nplan; i++) {
        const PlannedAlt *a = &rest->plan[i];
        const Direction *d = &v->dirs[a->dir];
        const char *kind = a->kind == ALT_SLIDE ? "slide" : a->kind == ALT_LEAP ? "long-leap" : "strike";
        if (d->link_board >= 0)
            fprintf(out, " %s(%s)", kind, d->name);
        else
            fprintf(out, " %s(%d,%d)", kind, d->dx, d->dy);
    }
    fprintf(out, "\n");
}

/* The first steps of the rest program's branches when each goes to an enemy first
 * (PieceProgram.capture_guards): where none finds one, rest is not run. */
static void disasm_capture_guards(const Variant *v, const PieceProgram *pp, FILE *out) {
    if (!pp->ncapture_guards) return;
    fprintf(out, "   runs only with an enemy at:");
    for (int i = 0; i < pp->ncapture_guards; i++) {
        const CaptureGuard *g = &pp->capture_guards[i];
        const Direction *d = &v->dirs[g->dir];
        fprintf(out, " %s", g->rides ? "ride" : "step");
        if (d->link_board >= 0)
            fprintf(out, "(%s)", d->name);
        else
            fprintf(out, "(%d,%d)", d->dx, d->dy);
        if (g->beyond) fprintf(out, "+empty");
    }
    fprintf(out, "\n");
}

void disasm_variant(const Variant *v, FILE *out) {
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++) {
            const PieceType *pt = &v->types[t];
            const PieceProgram *pp = &pt->per_owner[o];
            disasm_program(v, &pp->prog, out);
            if (pp->ngen || pp->natk) {
                fprintf(out, "   fast rays:");
                for (int i = 0; i < pp->ngen; i++) {
                    const Direction *d = &v->dirs[pp->gen[i].dir];
                    const char *mode = pp->gen[i].mode == RAY_MOVE ? "m" : pp->gen[i].mode == RAY_CAPTURE ? "c" : "";
                    const char *kind = pp->gen[i].slide ? "slide" : "leap";
                    /* a link has no vector: it leads to the same x,y on another board */
                    if (d->link_board >= 0)
                        fprintf(out, " %s(%s)%s", kind, d->name, mode);
                    else
                        fprintf(out, " %s(%d,%d)%s", kind, d->dx, d->dy, mode);
                }
                fprintf(out, "%s\n", pt->fast_attack ? "  (attacks by rays)" : "  (attacks by program)");
            }
            disasm_lines(v, pp, out);
            disasm_plan(v, &pp->rest, out);
            disasm_capture_guards(v, pp, out);
            if (pt->fast_attack) disasm_attack_filters(v, pp, out);
            fprintf(out, "\n");
            /* the drop program: from every cell in turn, no piece moving */
            if (pt->drops && pt->drops[o].count) {
                disasm_program(v, &pt->drops[o], out);
                fprintf(out, "\n");
            }
        }
    /* who may move what: steering is a table, not a program */
    if (v->steered) {
        fprintf(out, "== steer ==\narmies:");
        for (int o = 0; o < v->nowners; o++)
            if ((v->steered >> o) & 1) fprintf(out, " %s", v->player_names[o]);
        fprintf(out, "\nthrough:");
        for (int i = 0; i < v->nsteer_links; i++) fprintf(out, " %s", v->dirs[v->steer_links[i]].name);
        fprintf(out, "%s\ninfluence:", v->steer_copy ? " (with copy)" : "");
        for (int t = 0; t < v->ntypes; t++)
            if (v->types[t].influence) fprintf(out, " %s %d", v->types[t].name, v->types[t].influence);
        /* the steer condition on the strengths that occur (none, and each piece's) */
        bool occurs[MAX_INFLUENCE + 1] = {[0] = true};
        for (int t = 0; t < v->ntypes; t++) occurs[v->types[t].influence] = true;
        fprintf(out, "\nmay move (influence/rival):");
        for (int a = 0; a <= MAX_INFLUENCE; a++)
            for (int b = 0; b <= MAX_INFLUENCE; b++)
                if (occurs[a] && occurs[b] && v->steer_allow[a][b]) fprintf(out, " %d/%d", a, b);
        fprintf(out, "\n\n");
    }
    if (v->has_allegiance) {
        fprintf(out, "== helps%s ==\n", v->allegiance_random ? " (dealt at random)" : "");
        for (int p = 0; p < v->nplayers; p++)
            fprintf(out, "%s: %s\n", v->player_names[p], v->player_names[v->allegiance[p]]);
    }
}
