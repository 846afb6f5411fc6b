/* load.c - the load pipeline: source -> parse -> sema -> compile -> close directions ->
 * conclude -> read the start position -> verify. Each stage runs only when the ones before
 * it reported no error; the variant is returned only when none did. */
#include "load.h"

#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "fen.h"
#include "parse.h"
#include "sema.h"
#include "verify.h"
#include "zrf.h"

/* The start position must be readable: a bad one is reported at the setup line. Castling then
 * goes with the type of piece the start position has on the rook's cell; the owners with a
 * royal piece there are the ones who can lose one. */
static bool read_setup(Variant *v, SrcLoc setup_loc, DiagSink *sink) {
    Position pos;
    board_init(&pos, v);
    char err[200];
    bool ok = fen_read(&pos, v->setup, err, sizeof err);
    if (!ok) diag_error(sink, setup_loc, "bad setup position: %s", err);
    if (ok && v->nprelude) {
        /* without its prelude field the start would skip the set-up steps: say which it is */
        int field = 0;
        while (field < v->nfen_fields && v->fen_fields[field] != FEN_PRELUDE) field++;
        if (fen_count_fields(v->setup) <= field) {
            diag_error(sink, setup_loc,
                       "the setup position leaves out its '%s' field (field %d): end it with '1' to start with the "
                       "set-up steps, or '-' to skip them",
                       fen_field_name(FEN_PRELUDE), field + 1);
            ok = false;
        }
    }
    for (int o = 0; ok && o < v->nowners; o++)
        for (int t = 0; t < v->ntypes; t++) {
            int n = 0;
            for (int w = 0; w < v->cell_words; w++) n += __builtin_popcountll(pos.type_occ[t][w] & pos.occ[o][w]);
            v->start_count[o][t] = (uint8_t)(n > 255 ? 255 : n);
        }
    memset(v->start_columns, 0, sizeof v->start_columns);
    for (int c = 0; ok && c < v->ncells; c++)
        if (pos.cell[c] && PIECE_OWNER(pos.cell[c]) == 0 && v->cells[c].board == 0)
            v->start_columns[PIECE_TYPE(pos.cell[c])] |= 1u << v->cells[c].x;
    for (int c = 0; ok && c < v->ncells; c++)
        if (pos.cell[c] && variant_royal(v, PIECE_OWNER(pos.cell[c]), PIECE_TYPE(pos.cell[c])))
            v->royal_owners |= (uint8_t)(1u << PIECE_OWNER(pos.cell[c]));
    /* (a royal piece in hand, still to be dropped, counts too) */
    for (int p = 0; ok && v->has_hands && p < v->nplayers; p++)
        for (int t = 0; t < v->ntypes; t++)
            if (variant_royal(v, p, t) && pos.hand[p][t]) v->royal_owners |= (uint8_t)(1u << p);
    for (int i = 0; ok && i < v->ncastles; i++) {
        Cell from = v->castles[i].free ? pos.castle_rook[i] : v->castles[i].rook_from;
        Piece r = from == NO_CELL ? 0 : pos.cell[from];
        v->castles[i].rook_type = r ? (uint8_t)PIECE_TYPE(r) : v->castling_rook;
    }
    board_free(&pos);
    return ok;
}

static bool verify_programs(const Variant *v, DiagSink *sink) {
    bool ok = true;
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++) {
            ok = verify_program(v, &v->types[t].per_owner[o].prog, sink) && ok;
            ok = verify_program(v, &v->types[t].per_owner[o].rest, sink) && ok;
            if (v->types[t].drops) ok = verify_program(v, &v->types[t].drops[o], sink) && ok;
        }
    return ok;
}

/* The syntax tree of src: a rule file's, or a Zillions file's lowered (the game or variant the
 * setting ZRF_VARIANT_SETTING names, which the checker then does not see). */
static Ast *front_end(const Source *src, const OptionSetting *settings, int *nsettings, OptionSetting *kept,
                      ZrfKeep **keep, DiagSink *sink) {
    *keep = NULL;
    if (!zrf_detect(src)) {
        for (int i = 0; i < *nsettings; i++) kept[i] = settings[i];
        return parse_source(src, sink);
    }
    const char *variant = NULL;
    int n = 0;
    for (int i = 0; i < *nsettings; i++) {
        if (!strcmp(settings[i].name, ZRF_VARIANT_SETTING))
            variant = settings[i].value;
        else
            kept[n++] = settings[i];
    }
    *nsettings = n;
    return zrf_load(src, variant, sink, keep);
}

static Variant *run_pipeline(const Source *src, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    sink->source = src;
    OptionSetting *kept = xmalloc(((size_t)nsettings + 1) * sizeof *kept);
    ZrfKeep *keep;
    Ast *root = front_end(src, settings, &nsettings, kept, &keep, sink);
    settings = kept;
    int first_diag = sink->count; /* (the diagnostics of the stages after the front end) */
    if (sink->errors || !root) {
        ast_free(root);
        zrf_keep_free(keep);
        free(kept);
        return NULL;
    }
    Variant *v = xcalloc(1, sizeof *v);
    v->path = xstrdup(src->path);
    Sema s = {.v = v, .sink = sink};
    bool ok = sema_check(&s, root, settings, nsettings);
    if (ok) ok = cg_compile(&s);
    if (ok) ok = sema_close_directions(&s);
    SrcLoc setup_loc = s.setup_loc; /* (its file is src's path, alive until the end) */
    sema_free(&s);
    ast_free(root);
    if (ok) {
        variant_conclude(v);
        ok = read_setup(v, setup_loc, sink);
    }
    if (ok) ok = verify_programs(v, sink);
    zrf_keep_annotate(keep, sink, first_diag);
    zrf_keep_free(keep);
    free(kept);
    if (!ok || sink->errors) {
        variant_free(v);
        return NULL;
    }
    return v;
}

Variant *load_source(const Source *src, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    const Source *old = sink->source;
    Variant *v = run_pipeline(src, settings, nsettings, sink);
    sink->source = old ? old : src;
    if (v) {
        /* programs name the file in runtime faults: point them at the variant's own copy */
        for (int t = 0; t < v->ntypes; t++)
            for (int o = 0; o < v->nowners; o++) {
                v->types[t].per_owner[o].prog.file = v->path;
                v->types[t].per_owner[o].rest.file = v->path;
            }
    }
    return v;
}

Variant *load_file(const char *path, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    const char *err = NULL;
    Source *src = source_load(path, &err);
    const char *hash = strrchr(path, '#');
    if (!src && hash && nsettings < MAX_OPTIONS) {
        /* "FILE#VARIANT": a Zillions file's game or variant, for callers that pass a path only */
        char *file = xstrndup(path, (size_t)(hash - path));
        Source *zsrc = source_load(file, &err);
        free(file);
        if (zsrc && zrf_detect(zsrc)) {
            OptionSetting *with = xmalloc(((size_t)nsettings + 1) * sizeof *with);
            for (int i = 0; i < nsettings; i++) with[i] = settings[i];
            with[nsettings] = (OptionSetting){ZRF_VARIANT_SETTING, hash + 1};
            Variant *v = load_source(zsrc, with, nsettings + 1, sink);
            sink->source = NULL;
            source_free(zsrc);
            free(with);
            return v;
        }
        source_free(zsrc);
        err = "no such file";
    }
    if (!src) {
        diag_error(sink, (SrcLoc){.file = path}, "cannot read rule file: %s", err ? err : "unknown error");
        return NULL;
    }
    Variant *v = load_source(src, settings, nsettings, sink);
    sink->source = NULL;
    source_free(src);
    return v;
}

Variant *load_string(const char *name, const char *text, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    Source *src = source_from_string(name, text);
    Variant *v = load_source(src, settings, nsettings, sink);
    sink->source = NULL;
    source_free(src);
    return v;
}

Variant *load_file_reported(const char *path, const OptionSetting *settings, int nsettings, FILE *out) {
    const char *why = NULL;
    Source *src = source_load(path, &why);
    if (!src) {
        fprintf(out, "%s: error: cannot read rule file: %s\n", path, why ? why : "unknown error");
        return NULL;
    }
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_source(src, settings, nsettings, &sink);
    diag_render(&sink, out);
    sink.source = NULL;
    diag_free(&sink);
    source_free(src);
    return v;
}
