/*
 * store_columns: a case's columns, declared once. store_columns.c's table (VB_CASE_COLUMNS) has
 * a row for each column of `cases` and for each value vb_store_cases reads beside them (the
 * device's name, the variant's family, the pageable copies): its SQL name and type, how
 * vb_store_case writes it from struct vb_case_result, how vb_store_cases reads it into struct
 * vb_case_row, and its cell in `varbench export` (CSV, and Google Benchmark's JSON). The INSERT,
 * the SELECT, the fill of a row, export's header and cells, and the names a summary may not take
 * all come from that table, so a new column is a row there and its migration. This header is
 * what export and the tests see of the table; the store's own use of it is in store_int.h.
 * Workload: a run writes a few cases a second, a report reads a few hundred; the SQL is built
 * once a process.
 */
#ifndef VB_STORE_COLUMNS_H
#define VB_STORE_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* A value's place in `cases`: the column's declared type, or none (the SELECT computes it). */
enum vb_col_sql { VB_COL_COMPUTED, VB_COL_INTEGER, VB_COL_REAL, VB_COL_TEXT };

/* Where a value goes in struct vb_case_row, and what a NULL reads as. */
enum vb_col_field {
    VB_FIELD_NONE,    /* not read */
    VB_FIELD_INT,     /* int; NULL 0 */
    VB_FIELD_INT_NEG, /* int; NULL -1, unknown */
    VB_FIELD_I64,     /* int64_t; NULL 0 */
    VB_FIELD_I64_POS, /* int64_t; NULL 0, unknown (so a 0 is an empty cell) */
    VB_FIELD_DOUBLE,  /* double; NULL NaN, unknown */
    VB_FIELD_TEXT,    /* char[size]; NULL "" */
};

/* What a value is in export. */
enum vb_cell_kind {
    VB_CELL_NONE,    /* not exported */
    VB_CELL_FIELD,   /* the row's field, a number divided by per */
    VB_CELL_DERIVED, /* derive(row) */
    VB_CELL_OWN,     /* cells export writes itself (the run's, the crossover's): csv names them */
};

/* When a JSON key is written on a case's benchmark objects. */
enum vb_json_when {
    VB_JSON_ALWAYS, /* always, an unknown number as 0 */
    VB_JSON_KNOWN,  /* where the value is known */
    VB_JSON_FLOOR,  /* with the case's floor (floor_ms and floor_ratio known) */
};

struct vb_case_cell {
    enum vb_cell_kind kind;
    const char *csv;  /* the CSV column's header (VB_CELL_OWN: its columns', comma-separated);
                         NULL: not in the CSV */
    double per;       /* a number's unit: the cell is the field / per (1e6: ns as ms) */
    const char *json; /* its key on the case's benchmark objects; NULL: not in the JSON */
    int json_rank;    /* the keys' order, 1, 2, ... (the CSV's is the table's) */
    int digits;       /* a JSON number's precision (%.*g) */
    enum vb_json_when when;
    double (*derive)(const struct vb_case_row *r); /* VB_CELL_DERIVED: NaN unknown */
};

struct vb_case_column {
    const char *name; /* the column of cases, or the computed value's name */
    enum vb_col_sql sql;
    int written;        /* vb_store_case binds it (0: the id, a traced case's cost, computed) */
    const char *select; /* vb_store_cases' expression for it over cases c, variants v, host_env h
                           and TARGET_INFO_GPU g; NULL: "c.<name>" (where field is read) */
    enum vb_col_field field;
    size_t offset, size; /* the field in struct vb_case_row */
    struct vb_case_cell cell;
};

/* The table, in the CSV's order of its cells. Every cell with a csv header is a column of every
 * export, whatever the run holds (an unknown cell is empty): one header for every database. */
extern const struct vb_case_column vb_case_columns[];
extern const int vb_case_ncolumns;

/* One cell's value. */
struct vb_cell_value {
    int known;     /* 0: unknown, an empty CSV cell */
    char type;     /* 'i' (i), 'd' (d) or 't' (t) */
    int64_t i;     /* an integer */
    double d;      /* a number, divided by per */
    const char *t; /* a text, in the row */
};

/* vb_case_cell_value sets *v to column c's cell of row r (VB_CELL_FIELD or VB_CELL_DERIVED; any
 * other is unknown) and returns v->known. A text is always known (maybe ""). */
int vb_case_cell_value(const struct vb_case_column *c, const struct vb_case_row *r,
                       struct vb_cell_value *v);
/* vb_case_cell_in_json: 1 when column c's JSON key goes on row r's benchmark objects. */
int vb_case_cell_in_json(const struct vb_case_column *c, const struct vb_case_row *r);
/* vb_case_json_order writes the indexes of the columns that have a JSON key into idx (room for
 * vb_case_ncolumns), in their keys' order, and returns how many. This can't fail. */
int vb_case_json_order(int *idx);

#endif
