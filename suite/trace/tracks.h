/*
 * tracks: where each event of a Chrome trace export goes (export_trace.c), so that a viewer
 * (Perfetto, chrome://tracing) draws it without breaking its one rule: on one (pid, tid) track,
 * complete events either follow each other or nest. GPU streams get one track each and their
 * events are clamped to follow each other; a host thread's events (NVTX ranges, API calls) nest
 * on its track, and one that overlaps without nesting goes to another track of the same thread
 * (a lane), as does a case that overlaps another on the "cases" track. GPU work that truly ran
 * at once on one stream (a CUDA graph's branches) gets lanes of its stream too.
 * Workload: every record of an export (millions) is placed here, so a lookup is one hash probe
 * and a placement pops and pushes a stack; what is kept is per track, never per event.
 *
 * The ids, all under 2^31 (Perfetto reads them as 32-bit numbers):
 *   pid  = the OS process id of a host process (processId of its records);
 *          VB_TRACKS_RUN_PID for the run itself: its "cases" track and host records that
 *          name no process;
 *          VB_TRACKS_GPU_PID(d) = 1000000000 + d for GPU d.
 *   tid  = on a GPU, the CUDA stream id (Kineto's choice); a stream id already shown on that
 *          GPU for another process or context gets 1000000 + n;
 *          in a host process, 1, 2, ... in order of appearance (CUPTI's thread ids are 32-bit
 *          pthread values, shown in the track's name), lanes included.
 */
#ifndef VB_TRACKS_H
#define VB_TRACKS_H

#include <stdint.h>

#define VB_TRACKS_RUN_PID    999999999
#define VB_TRACKS_GPU_PID(d) (1000000000 + (int64_t)(d))
#define VB_TRACKS_DUP_TID    1000000 /* the first tid of a GPU stream id seen twice */

struct vb_tracks;

/* One track. */
struct vb_track {
    int64_t pid, tid;
    int64_t thread;   /* host: the thread's id as recorded (-1: none); GPU: the stream id */
    int lane;         /* host: 0 for the thread's own track, k for its k-th overlap lane */
    int64_t last_end; /* GPU: the end of the latest event placed, -1 before the first */
    int64_t sort;     /* where it goes in its process: a thread's lanes after it, GPU by tid */
};

/* vb_tracks_new returns an empty table, NULL when out of memory. */
struct vb_tracks *vb_tracks_new(void);
/* vb_tracks_free frees t (NULL allowed). This can't fail. */
void vb_tracks_free(struct vb_tracks *t);

/* vb_tracks_process says whether pid is new to t (1, the first time only: the caller writes
 * its name then), 0, or -1 when out of memory. */
int vb_tracks_process(struct vb_tracks *t, int64_t pid);

/* vb_tracks_gpu returns the track of stream `stream` of context `context` of process `proc`
 * (any key the caller keeps apart: 0 for one process) on GPU `device`; *is_new is 1 when it
 * was made by this call. NULL when out of memory. The caller keeps last_end; the track stays
 * where it is until vb_tracks_free. */
struct vb_track *vb_tracks_gpu(struct vb_tracks *t, int device, int64_t proc, int context,
                               int stream, int *is_new);

/* vb_tracks_gpu_lane returns the first overlap lane (1, 2, ...) of that stream free at `start`
 * (its last_end no later), made when none is; for GPU work that ran at the same time as work
 * of its own stream (the branches of a CUDA graph, a programmatic dependent launch). *is_new
 * and memory as vb_tracks_gpu; the lane's `lane` field says which it is. */
struct vb_track *vb_tracks_gpu_lane(struct vb_tracks *t, int device, int64_t proc, int context,
                                    int stream, int64_t start, int *is_new);

/* vb_tracks_place returns the track of thread `thread` (-1: none recorded) of process pid where
 * an event [start, end] goes: the first lane of the thread where it nests in, or follows, what
 * that lane holds, or a new lane. Events of one thread must come by start, and at one start
 * the longer first. *is_new is 1 when the lane was made by this call. NULL when out of
 * memory. The track stays where it is until the thread's next new lane. */
struct vb_track *vb_tracks_place(struct vb_tracks *t, int64_t pid, int64_t thread, int64_t start,
                                 int64_t end, int *is_new);

#endif
