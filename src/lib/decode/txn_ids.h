/* segscan - __transaction_state's transactional ids (internal): ss_txn_state_ids
 * (segscan/decode.h) over segments read before and kept in memory. */
#ifndef SS_DECODE_TXN_IDS_H
#define SS_DECODE_TXN_IDS_H

#include "inputs/kept.h"
#include "segscan/decode.h"

/* ss_txn_state_ids, each __transaction_state segment that kept holds read from its copy
 * (kept NULL: every one from its file). */
ss_errkind ss_txn_state_ids_kept(const ss_inputs *in, const ss_kept *kept, ss_txn_ids **out, ss_error *err);

#endif
