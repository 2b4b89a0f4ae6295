/* segscan - the consumer-groups study in one call: PATHs -> inputs (and, when
 * asked, the coordinators' partitions beside them) -> the data partitions'
 * timelines -> the groups' history from __consumer_offsets -> the findings.
 * `segscan groups`, the default scan's groups line, explain, dups and --html
 * all run it; its problems come back as one list, in the order they were met.
 *
 * The library never prints.
 */
#ifndef SEGSCAN_STUDY_H
#define SEGSCAN_STUDY_H

#include <stdbool.h>
#include <stddef.h>

#include "segscan/analyze.h"
#include "segscan/errors.h"
#include "segscan/export.h"
#include "segscan/findings.h"
#include "segscan/groups.h"
#include "segscan/inputs.h"
#include "segscan/timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ss_study_opts {
    ss_groups_opts groups;        /* what is read of __consumer_offsets; its threads and max_batch_bytes
                                  read the timelines too; its `data` is the study's own */
    ss_findings_opts findings;    /* how the findings are built */
    bool include_temp;            /* broker temporaries are read (ss_inputs_new) */
    bool beside;                  /* each PATH's log directory's coordinators' partitions are read too
                                  (ss_inputs_add_coordinators): explain and dups of a data partition */
    bool inputs_reported;         /* the caller reads the same PATHs and reports them itself: their notes
                                  are not in the study's problems, and "-" (standard input) is skipped */
    const ss_inputs *read_before; /* with inputs_reported: the caller's inputs of the same PATHs, when it
                                     has them. When they hold no __consumer_offsets partition (nor, with
                                     beside, a log directory beside them a __consumer_offsets-N entry)
                                     the study has no groups, and it reads nothing again to find that. */
    const ss_analysis *analysis;  /* with read_before: the caller's analysis of it, when it ran one: the
                                     data partitions' batch headers it kept are not read again
                                     (ss_timelines_read_with), nor the __consumer_offsets and
                                     __transaction_state segments it kept (ss_an_opts.keep_offsets_bytes).
                                     It must outlive the study. Without one, the study reads each
                                     __transaction_state segment once into memory for its two readers
                                     (up to a quarter of groups.max_memory, at most 64 MiB). */
} ss_study_opts;

SS_API void ss_study_opts_default(ss_study_opts *o);
/* What an analysis's options say of the study too: threads, the batch size cap, the hanging
 * rule's timeout and "now". (Not the memory limit: it bounds the commits kept with
 * groups.commits, which a caller asks for, with its limit, or not.) */
SS_API void ss_study_opts_from_analysis(ss_study_opts *o, const ss_an_opts *ao);

typedef struct ss_study ss_study;

/* Run the study over npaths PATHs. SS_E_NOMEM when memory ran out before anything could be
 * read (*out NULL); otherwise SS_E_OK and *out, whose problems say what went wrong. */
SS_API ss_errkind ss_study_run(const char *const *paths, size_t npaths, const ss_study_opts *o, ss_study **out);
SS_API void ss_study_free(ss_study *s);

/* The inputs as the study read them (the PATHs, and the partitions beside them). */
SS_API const ss_inputs *ss_study_inputs(const ss_study *s);
/* A __consumer_offsets partition was among the inputs: without one, timelines, groups and
 * findings are NULL. */
SS_API bool ss_study_has_groups(const ss_study *s);
SS_API ss_timelines *ss_study_timelines(const ss_study *s);
SS_API ss_groups *ss_study_groups(const ss_study *s);
/* NULL when memory ran out building them (a problem says so). */
SS_API ss_findings *ss_study_findings(const ss_study *s);

/* Every note and failure of the run, in order: the inputs' (unless inputs_reported; not the
 * replicas notes: one copy of a partition given several times is read), the timelines',
 * a failed groups run's, the groups', the findings'. */
SS_API const ss_problems *ss_study_problems(const ss_study *s);
/* A PATH could not be read; the groups' run failed, or memory ran out: the results are incomplete. */
SS_API bool ss_study_input_failed(const ss_study *s);
SS_API bool ss_study_incomplete(const ss_study *s);

#ifdef __cplusplus
}
#endif

#endif
