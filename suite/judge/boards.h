/*
 * boards: boards of one GPU model side by side, computed from stored case rows (no printing):
 * the report's spread section, `compare --across-devices` and `diagnose` read it. A board is a
 * device of a run (run id, CUDA id), labelled with the run's host, so a fleet database (many
 * nodes' runs merged, each of several devices) keeps its boards apart even where two nodes put
 * their GPUs on the same PCI bus locations. Per GPU model: its boards, and per case (variant and
 * axes) ok and timed on min_boards or more of them the min, median and max of its compared time
 * over those boards, the slowest board, and the board that is slowest most often.
 *
 * Workload: a fleet of 64 nodes of 8 GPUs with ~500 cases each (256k rows); the rows are grouped
 * by one sort, never by a search per case and board.
 */
#ifndef VB_BOARDS_H
#define VB_BOARDS_H

#include "store.h"

/* vb_boards_phase: the phase a case is held against another board or GPU on: "kernel" when its
 * floor is the kernel's (a device-resident variant: the copies around it are the host's), else
 * "e2e" (a name vb_store_samples takes). */
const char *vb_boards_phase(const struct vb_case_row *r);
/* vb_boards_time_ns: the case's median time in that phase. NaN or 0 when it has none. */
double vb_boards_time_ns(const struct vb_case_row *r);

/* One run's cases as the caller holds them (not copied: they must outlive the vb_boards). */
struct vb_boards_run {
    int64_t id;
    const char *host; /* the run's host name, "" or NULL when unknown */
    const struct vb_case_row *cases;
    int n;
};

/* One board. label: "<host> run R device D <bus>" (host and bus left out when unknown). */
struct vb_board {
    int run;        /* index of its run in the caller's array */
    int64_t run_id; /* that run's id */
    int device;     /* CUDA id */
    char host[256], model[256], bus[64], label[400];
    int slowest; /* cases it is the slowest board of */
};

/* One case of a model: its point and the spread of its time over the boards it is on. */
struct vb_boards_case {
    char variant[160], axes[256];
    int nboards;             /* boards it is ok and timed on */
    double min, median, max; /* ns, over those boards */
    int slowest;             /* the board (index in the model's boards) with the max */
};

struct vb_boards_model {
    char model[256];
    struct vb_board *boards; /* in order of first appearance: run, then device */
    int nboards;
    struct vb_boards_case *cases; /* in the order of the first board that has each */
    int ncases;
    const struct vb_case_row **at; /* at[case * nboards + board]: the row, or NULL */
    int most;                      /* the board slowest most often (the first of equals); -1
                                      when there is no case */
};

struct vb_boards {
    struct vb_boards_model *models; /* in order of first appearance */
    int nmodels;
};

/* vb_boards_compute groups the GPU cases (device_id >= 0) of runs[0..nr) by model and board and
 * fills *out with the cases ok and timed on min_boards (1 or more) boards of their model; a
 * model's boards are all its boards, whether or not a case qualifies. CPU-only cases are left
 * out. 0, or -1 with err (VB_E_SYS out of memory) and *out empty. Free with vb_boards_free. */
int vb_boards_compute(const struct vb_boards_run *runs, int nr, int min_boards,
                      struct vb_boards *out, struct vb_err *err);
/* vb_boards_free frees what vb_boards_compute filled (an empty one allowed). This can't fail. */
void vb_boards_free(struct vb_boards *b);

/* vb_boards_find: the model named model, or NULL. */
const struct vb_boards_model *vb_boards_find(const struct vb_boards *b, const char *model);
/* vb_boards_case_index: the index of the case of m with that variant and axes, or -1. */
int vb_boards_case_index(const struct vb_boards_model *m, const char *variant, const char *axes);
/* vb_boards_time: case c's compared time on board k of m, NaN when it is not on that board. */
double vb_boards_time(const struct vb_boards_model *m, int c, int k);

/* vb_boards_devices writes the devices of the GPU cases of rows[0..n) as "0, 1" into buf (cap
 * bytes) and returns how many there are; *lowest is the lowest (-1 without a GPU case). */
int vb_boards_devices(const struct vb_case_row *rows, int n, int *lowest, char *buf, size_t cap);
/* vb_boards_keep keeps, in order, the CPU-only cases of rows[0..*n) and the GPU cases on device
 * dev: one board of a run, as a one-GPU run holds it. */
void vb_boards_keep(struct vb_case_row *rows, int *n, int dev);
/* vb_boards_pick keeps of a side's cases rows[0..*n) those of the device it is judged on (see
 * Boards in compare.h): want (>= 0), or the run's only device, or under across its lowest one
 * (said in note, nn bytes). Sets *dev (-1: the side has no GPU case) and *ndev (its devices).
 * side ("base" or "candidate") and run name the side in messages. 0, or -1 with err
 * (VB_E_USAGE: no such device, or several and none named). */
int vb_boards_pick(struct vb_case_row *rows, int *n, int want, int across, const char *side,
                   int64_t run, int *dev, int *ndev, char *note, size_t nn, struct vb_err *err);

/* Runs read from a database for vb_boards_compute: their rows (owned) and host names. */
struct vb_boards_src {
    struct vb_boards_run *runs;
    struct vb_case_row **rows; /* rows[k]: runs[k].cases, owned */
    char (*hosts)[256];        /* hosts[k]: runs[k].host, owned */
    int n;
};

/* vb_boards_read reads the cases and host names of runs ids[0..n) of s into *src. 0, or -1 with
 * err (VB_E_USAGE when s has no such run, VB_E_DB, VB_E_SYS) and *src empty. Free with
 * vb_boards_src_free. */
int vb_boards_read(struct vb_store *s, const int64_t *ids, int n, struct vb_boards_src *src,
                   struct vb_err *err);
/* vb_boards_src_free frees what vb_boards_read filled (an empty one allowed). This can't fail. */
void vb_boards_src_free(struct vb_boards_src *src);

#endif
