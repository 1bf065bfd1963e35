/**
 * @file atoms-bot.c
 * @brief A small Atoms bot on the C starter kit: it places where one more atom explodes its own
 * cell, else on an empty corner, else on its own cells, else anywhere legal (the first such
 * cell, row by row).
 */
#include "botkit.h"

static void place(const atoms_view *v, void *user, int *px, int *py) {
    int x, y, best_rank = -1;
    (void)user;
    for (y = 0; y < v->height; y++)
        for (x = 0; x < v->width; x++) {
            atoms_cell c = atoms_at(v, x, y);
            int rank, limit = atoms_limit(v->width, v->height, x, y);
            if (!atoms_legal(v, x, y)) continue;
            if (c.owner != '.' && c.atoms == limit - 1)
                rank = 3;
            else if (c.owner == '.' && limit == 2)
                rank = 2;
            else
                rank = c.owner != '.' ? 1 : 0;
            if (rank > best_rank) {
                best_rank = rank;
                *px = x;
                *py = y;
            }
        }
}

int main(void) { return atoms_run(place, NULL); }
