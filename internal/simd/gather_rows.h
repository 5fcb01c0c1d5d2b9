// Rows of a table gathered by floating-point ids (gather_rows.c): Embedding's forward,
// for pkg/ops/nn (nn_embed.go).
#ifndef MXGO_GATHER_ROWS_H
#define MXGO_GATHER_ROWS_H

// mxgo_gather_rows copies, for i < n, row r(ids[i]) of src (rows of row_bytes bytes,
// rows of them) to dst + i*row_bytes, where r(v) is MXNet's Embedding clip: 0 for NaN,
// else trunc(v) clipped to [0, rows-1]. It is cut into up to parts runs of ids on the
// pool's threads (par.h).
void mxgo_gather_rows(char *dst, const char *src, const double *ids, long n, long rows, long row_bytes, long parts);

#endif
