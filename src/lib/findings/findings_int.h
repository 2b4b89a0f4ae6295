/* segscan - findings (internal): what __transaction_state says of each
 * transactional id (txnstate.c), read for the findings (findings.c). */
#ifndef SS_FINDINGS_INT_H
#define SS_FINDINGS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "segscan/findings.h"

/* One TransactionLogValue record (TransactionMetadata as the coordinator wrote it). */
typedef struct trec {
    int64_t producer_id;
    int16_t epoch;
    int8_t state;           /* TransactionState id: 0 Empty, 1 Ongoing, 2 PrepareCommit, 3 PrepareAbort,
                     4 CompleteCommit, 5 CompleteAbort, 6 Dead, 7 PrepareEpochFence */
    int16_t client_version; /* clientTransactionVersion (KIP-890), 0 when absent */
    int32_t timeout_ms;
    int64_t start, update; /* transactionStartTimestampMs, transactionLastUpdateTimestampMs */
} trec;

/* A transactional id: its records in log order, and the partitions of its last one. */
typedef struct tid {
    char *id;
    size_t len;
    int32_t state_partition; /* its __transaction_state partition */
    trec *r;
    size_t n, cap;
    char **parts; /* "<topic>-<p>" of the last record's transactionPartitions */
    size_t nparts;
    bool deleted; /* its last record is a tombstone (the id expired) */
} tid;

typedef struct txnstate {
    bool read; /* a __transaction_state partition was among the inputs */
    tid *v;
    size_t n, cap;
    int64_t max_ts;
} txnstate;

bool ts_read(txnstate *t, const ss_inputs *in);
void ts_free(txnstate *t);
/* the transactional id whose records name this producer id (its latest), or NULL */
const tid *ts_of_pid(const txnstate *t, int64_t pid);

/* The findings (findings.c builds them). */
struct ss_findings {
    ss_groups *g;
    ss_timelines *data;
    ss_findings_opts opts;
    int64_t now;
    ss_finding *v;
    size_t n, cap;
    void **blocks; /* outputs arrays */
    size_t nblocks, blockcap;
    txnstate ts;
    bool nomem;
    ss_fnet *nets; /* the net answers (net.c), built with the findings */
    size_t nnets, netcap;
    ss_fnet_range *nr; /* their ranges */
    size_t nnr, nrcap;
};

/* net.c: the net answers of the findings held (sorted) and of every partition of groups [g_from, g_to),
 * replacing those held; false when memory ran out */
bool net_build(ss_findings *F, size_t g_from, size_t g_to);
void net_free(ss_findings *F);

#endif
