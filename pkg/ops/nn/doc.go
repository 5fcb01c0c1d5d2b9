// Package nn registers the neural-network operators: layers, activations, normalisations,
// softmax and output layers, losses and spatial operators.
//
//	nn_common.go                shared checks, layouts and the float loop of the layers
//	nn_fc.go, nn_conv.go, nn_deconv.go  FullyConnected, Convolution, Deconvolution
//	nn_conv_chunk.go            several images per GEMM when each has few output positions
//	nn_conv_taps.go             im2col/col2im by a per-geometry tap table for short output lines
//	nn_conv_fc.go               windows covering the whole image: one GEMM of the batch, no im2col
//	nn_conv_gather.go           float32 1-D/2-D with many filters: one GEMM of the batch packing from the images
//	nn_scratch.go               pooled scratch buffers of the convolution paths
//	nn_pool.go, nn_upsample.go  Pooling, UpSampling
//	nn_norm.go                  BatchNorm, LayerNorm, InstanceNorm, GroupNorm
//	nn_norm_rows.go             their row sums (16 float64 sums) and affine step, in C for float32
//	nn_act.go                   Activation, LeakyReLU, Dropout
//	nn_embed.go, nn_v1.go       Embedding, L2Normalization, LRN; Pooling_v1
//	softmax.go, softmax_lane.go  softmax, log_softmax, softmin, SoftmaxOutput
//	loss_outputs.go, ctc.go     output layers in inference, khatri_rao; CTCLoss
//	spatial.go, roi_pooling.go, correlation.go  spatial transformers, ROIPooling, Correlation
//	rnn.go, rnn_cells.go        RNN (fused recurrent layers: rnn_relu, rnn_tanh, lstm, gru) and its cells
//
// Gradients, beside their forwards (Op.Grad; the *_backward_* operators are internal):
//
//	nn_fc_grad.go, nn_conv_grad.go  FullyConnected; Convolution (_backward_Convolution_weight)
//	nn_act_grad.go              Activation, LeakyReLU, Dropout (its mask redrawn from its seed)
//	nn_norm_grad.go             BatchNorm in training and its moving statistics; LayerNorm, InstanceNorm, GroupNorm
//	nn_norm_bngrad.go           BatchNorm's fused training gradient (_backward_BatchNorm_stats, _data)
//	nn_norm_lngrad.go           LayerNorm's fused gradient along the last axis (_backward_LayerNorm_data, _params)
//	nn_embed_grad.go            Embedding's dense weight gradient (_backward_Embedding)
//	softmax_grad.go             the softmax family, SoftmaxOutput (_backward_SoftmaxOutput), regression outputs,
//	                            softmax_cross_entropy
//	nn_pool_grad.go             Pooling, Pooling_v1 (_backward_Pooling, _backward_Pooling_v1)
//	nn_deconv_grad.go           Deconvolution (_backward_Deconvolution_data, _backward_Deconvolution_weight)
//	nn_upsample.go              UpSampling's, beside its forward
//	nn_l2lrn_grad.go            L2Normalization; LRN (_backward_LRN)
//	loss_outputs_grad.go        SVMOutput (_backward_SVMOutput)
//	ctc_grad.go                 CTCLoss's data (_backward_ctc_loss)
//	roi_pooling_grad.go         ROIPooling's data (_backward_ROIPooling)
//	spatial_grad.go             GridGenerator; BilinearSampler (_backward_BilinearSampler_data, _grid);
//	                            SpatialTransformer
//	correlation_grad.go         Correlation (_backward_Correlation_data1, _data2)
//	rnn_grad.go                 RNN: backpropagation through time (_backward_RNN), with rnn_cells.go's steps
package nn
