/* Test helper: print ss_txn_state_ids() of the given PATHs, one line a
 * producer id: "<pid> <epoch> <state> <offset> <transactional.id>". Used by
 * test_internal.py, which builds the __transaction_state segments. */
#include <inttypes.h>
#include <stdio.h>

#include "segscan/decode.h"

int main(int argc, char **argv) {
    ss_inputs *in = ss_inputs_new(false);
    if (!in) return 2;
    for (int i = 1; i < argc; i++)
        if (ss_inputs_add(in, argv[i]) != SS_E_OK) {
            fprintf(stderr, "cannot add %s\n", argv[i]);
            return 2;
        }
    ss_inputs_finish(in);
    ss_txn_ids *ids;
    ss_error err;
    if (ss_txn_state_ids(in, &ids, &err) != SS_E_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    for (size_t i = 0; i < ss_txn_ids_count(ids); i++) {
        const ss_txn_id *e = ss_txn_ids_at(ids, i);
        const ss_txn_id *f = ss_txn_ids_find(ids, e->producer_id);
        if (f != e) {
            fprintf(stderr, "ss_txn_ids_find(%" PRId64 ") is not entry %zu\n", e->producer_id, i);
            return 1;
        }
        printf("%" PRId64 " %d %s %" PRId64 " %s\n", e->producer_id, (int)e->producer_epoch,
               ss_txn_state_name(e->state) ? ss_txn_state_name(e->state) : "?", e->offset, e->transactional_id);
    }
    if (ss_txn_ids_find(ids, -42) != NULL) return 1;
    ss_txn_ids_free(ids);
    ss_inputs_free(in);
    return 0;
}
