/**
 * @file tactics-bot.c
 * @brief A small OOPtimal Tactics bot on the C starter kit: in the Placement Phase it puts all
 * its chips on its field with the most neighbours it does not hold; in the Movement Phase it
 * passes.
 */
#include "botkit.h"

static void act(const tactics_view *v, void *user, char *command, size_t size) {
    int col, row, best_col = 0, best_row = 0, best_exposure = -1;
    (void)user;
    if (v->movement || v->chips == 0) {
        tactics_pass(command, size);
        return;
    }
    for (row = 1; row <= v->height; row++)
        for (col = 1; col <= v->width; col++) {
            int around[8][2], n, k, exposure = 0;
            if (tactics_at(v, col, row).owner != v->me) continue;
            n = tactics_neighbours(v, col, row, around);
            for (k = 0; k < n; k++) exposure += tactics_at(v, around[k][0], around[k][1]).owner != v->me;
            if (exposure > best_exposure) {
                best_exposure = exposure;
                best_col = col;
                best_row = row;
            }
        }
    if (best_exposure < 0)
        tactics_pass(command, size);
    else
        tactics_place(command, size, v->chips, best_col, best_row);
}

int main(void) { return tactics_run(act, NULL); }
