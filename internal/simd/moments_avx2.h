// Row moments and the normalisation's affine step for pkg/ops/nn (moments_avx2.c).
#ifndef MXGO_MOMENTS_AVX2_H
#define MXGO_MOMENTS_AVX2_H

int mxgo_moments_supported(void);

// The sum of x[0..n) and the sum of (x[i] - m)^2, both in double in sixteen running sums
// (nn's nnSum16 order, bit for bit).
double mxgo_sum16_f32(const float *x, long n);
double mxgo_sqdev16_f32(const float *x, long n, double m);

// y[r] = (float)(the sum of row r of x (rows of n), as mxgo_sum16_f32, / div), for many
// short rows (global pooling), split over up to width threads.
void mxgo_rowmean16_f32(float *y, const float *x, long rows, long n, double div, long width);

// BatchNorm's gradient sums of a row: out[0] += sum (x-m)^2, out[1] += sum g, out[2] +=
// sum g*(x-m), each in eight running sums (lane i % 8, combined as fold16's last steps,
// then the tail in order: nn's bnGradSums, bit for bit).
void mxgo_bnsums_f32(const float *x, const float *g, long n, double m, double *out);

// LayerNorm's gradient of one row of x with out_grad g, the row's mean m and inv =
// 1/sqrt(var + eps): out[i] = inv*((h - mean(h)) - (x-m)*mean(h*(x-m))*inv^2) with
// h = g*gamma, the sums in eight running sums (bnsums' order); nn's lnGradRow, bit for bit.
void mxgo_lngrad_row_f32(float *out, const float *x, const float *g, const float *gamma, long n, double m, double inv);

// dg[i] += g[i]*((x[i]-m)*inv), db[i] += g[i]: one row's share of LayerNorm's dgamma, dbeta.
void mxgo_lnparams_row_f32(double *dg, double *db, const float *x, const float *g, long n, double m, double inv);

// y[i] = ((x[i] - m) * s) * g + b in float32, rounded after each operation; g and b are
// rows of n (vec) or one value each.
void mxgo_affine_f32(float *y, const float *x, long n, float m, float s, const float *g, const float *b, int vec);

// LayerNorm over rows rows of n, each row's mean and 1/sqrt(var + eps) as mxgo_sum16_f32
// and mxgo_sqdev16_f32 give them (nn's lnRowStats): the forward (mxgo_affine_f32 with
// gamma and beta), the data gradient (mxgo_lngrad_row_f32) and the shares of dgamma and
// dbeta (mxgo_lnparams_row_f32, added to dg and db). One call for a block of rows.
void mxgo_layernorm_rows_f32(float *y, const float *x, long rows, long n, double eps, const float *gamma,
			     const float *beta);
void mxgo_lngrad_rows_f32(float *out, const float *x, const float *g, const float *gamma, long rows, long n,
			  double eps);
void mxgo_lnparams_rows_f32(double *dg, double *db, const float *x, const float *g, long rows, long n, double eps);

// BatchNorm over whole tensors, split over cores by channels (or rows) on up to width of
// par.c's threads; each is its Go twin in pkg/ops/nn, bit for bit. x is (outer, c,
// inner): channel j's rows start at (o*c + j)*inner, and every row may be short.

// mean[j] and var[j] of every channel: its sum row by row (each in mxgo_sum16_f32's
// order), the mean, then the squared deviations likewise, over outer*inner (bnStats).
void mxgo_bn_stats_f32(const float *x, long outer, long c, long inner, double *mean, double *var, long width);

// y[j], y[c+j], y[2c+j], y[3c+j] = mean, var, sum g, sum g*(x-mean) / sqrt(var+eps) of every
// channel (bnGradStats).
void mxgo_bn_gradstats_f32(const float *x, const float *g, long outer, long c, long inner, double eps, float *y,
			   long width);

// dx from x, the head gradient g, the statistics st of mxgo_bn_gradstats_f32 and gamma
// (unread when fix_gamma) (bnGradData).
void mxgo_bn_graddata_f32(const float *x, const float *g, const float *st, const float *gamma, float *dx, long outer,
			  long c, long inner, double eps, int fix_gamma, long width);

// y = ((x - mean[j]) * inv[j]) * gamma[j] + beta[j] in float32 steps (nnBatchNorm).
void mxgo_bn_affine_f32(float *y, const float *x, long outer, long c, long inner, const float *mean,
			const float *inv, const float *gamma, const float *beta, long width);

#endif
