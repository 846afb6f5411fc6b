/* genctx.c - a fresh generation context (see genctx.h). */
#include "genctx.h"

void genctx_init(GenContext *ctx) {
    ctx->fast = true;
    ctx->trace = NULL;
    ctx->trace_user = NULL;
    ctx->diagram = false;
    ctx->attack_depth = 0;
    ctx->attack_fault.set = false;
    ctx->charge_ply = -1;
    ctx->unattacked = NO_CELL;
    ctx->count_seen = NULL;
    ctx->carried = 0;
    ctx->plan_share = NULL;
    ctx->undecided_ply = -1;
    ctx->undecided_key = 0;
    for (int i = 0; i < MAX_HISTORY + 2; i++) ctx->steps_left[i] = POSITION_STEP_BUDGET;
}
