"""W8A8 int8 linear layer C = (A @ W^T) * sa[m] * sw[n] (A int8 [M, K] per-token quantized with fp32
scales sa [M], W int8 [N, K] per-output-channel quantized with fp32 scales sw [N], exact int32
accumulation, bf16 C) with conch's scaled GEMM kernel.

Package: conch-triton-kernels 1.3 (Apache-2.0). Callable:
conch.ops.quantization.gemm.scaled_gemm(A, W.t(), sa[:, None], sw[:, None], torch.bfloat16),
the call vLLM-style int8 layers make (weights stored [N, K], passed transposed; per-token and
per-channel scales as column vectors). That wrapper builds the metadata
(create_scaled_metadata: int32 accumulator, fp32 epilogue, weight-and-activation channel
scaling), allocates a zeroed C and an empty int32 `zeros` tensor, and scaled_gemm_launcher
launches _gemm_kernel on cdiv(M, 128) * cdiv(N, 64) programs with conch's fixed tuning
parameters. This launch builds the same metadata with the package's helper and launches the
same kernel with the same arguments on the harness's C; the kernel reads one element of
`zeros` it never uses (only the weight-group modes use it), so any int32 view stands in."""
import triton
import torch
from conch.kernels.quantization.gemm import (
    TORCH_DTYPE_TO_TRITON,
    LoadOrder,
    _gemm_kernel,
    _get_matrix_a_eviction_policy,
    _get_matrix_b_eviction_policy,
    _get_metadata_eviction_policy,
    _get_tuning_parameters,
)
from conch.ops.quantization.gemm import create_scaled_metadata


def launch(A, sa, W, sw, C, M, N, K):
    b = W.t()
    scale_a = sa.view(M, 1)
    scale_b = sw.view(N, 1)
    meta = create_scaled_metadata(A, b, scale_a, scale_b, torch.bfloat16)
    tuning = _get_tuning_parameters()
    grid = lambda p: (triton.cdiv(meta.m_dim, p["cxpr_block_size_m"]) * triton.cdiv(meta.n_dim, p["cxpr_block_size_n"]),)
    # The cache policies the package picks for each operand, as its wrapper asks for them.
    eviction_policies = {"cxpr_meta_eviction_policy": _get_metadata_eviction_policy(),
                         "cxpr_matrix_b_eviction_policy": _get_matrix_b_eviction_policy(),
                         "cxpr_matrix_a_eviction_policy": _get_matrix_a_eviction_policy()}
    _gemm_kernel[grid](
        a_ptr=A, b_ptr=b, c_ptr=C, scales_ptr=scale_b, zeros_ptr=sw.view(torch.int32), scales_a_ptr=scale_a,
        m_dim=meta.m_dim, k_dim=meta.k_dim, n_dim=meta.n_dim,
        cxpr_w_nbits=0, cxpr_weight_bias=0, cxpr_group_size=1, cxpr_unpack_mask=0,
        cxpr_elements_per_sample=1, cxpr_zero_is_scalar=True,
        matrix_a_stride_m=A.stride(0), matrix_a_stride_k=A.stride(1),
        matrix_b_stride_k=b.stride(0), matrix_b_stride_n=b.stride(1),
        matrix_c_stride_m=C.stride(0), matrix_c_stride_n=C.stride(1),
        meta_stride_g=1 if scale_b.numel() == 1 else scale_b.stride(0),
        meta_stride_n=1 if scale_b.numel() == 1 else scale_b.stride(1),
        cxpr_input_dtype=TORCH_DTYPE_TO_TRITON[meta.input_dtype],
        cxpr_output_dtype=TORCH_DTYPE_TO_TRITON[meta.output_dtype],
        cxpr_acc_dtype=TORCH_DTYPE_TO_TRITON[meta.acc_dtype],
        cxpr_meta_dtype=TORCH_DTYPE_TO_TRITON[meta.meta_dtype],
        cxpr_channel_scale_mode=meta.channel_scale_mode.value,
        cxpr_w_group_mode=meta.weight_group_mode.value,
        cxpr_data_contiguous=meta.data_contiguous,
        cxpr_matrix_a_load_order=LoadOrder.MID.value,
        **eviction_policies,
        cxpr_swizzle_pid=True,
        cxpr_block_size_scale_a=1 if scale_a.numel() == 1 else tuning["cxpr_block_size_m"],
        cxpr_block_size_scale_b=1 if scale_b.numel() == 1 else tuning["cxpr_block_size_n"],
        **tuning,
    )
