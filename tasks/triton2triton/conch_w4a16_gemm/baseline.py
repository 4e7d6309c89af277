"""GPTQ-style 4-bit weight-only linear layer C = x @ dequant(Wq) (x fp16 [M, K]; Wq int32 [K/8, N],
eight 4-bit codes per word along K, nibble k % 8 of word k // 8; fp16 scales [K/128, N], one per
128-row group and column; w[k, n] = (code - 8) * scales[k // 128, n]; fp32 accumulation, fp16 C)
with conch's mixed-precision GEMM kernel.

Package: conch-triton-kernels 1.3 (Apache-2.0). Callable:
conch.ops.quantization.gemm.mixed_precision_gemm(x, Wq, scales, None, weight_size_bits=4,
weight_bias=8, group_size=128). That wrapper builds the metadata (create_mixed_precision_metadata:
symmetric groups without zero points, fp16 metadata and output, fp32 accumulator), allocates a
zeroed C and an empty int32 `zeros` tensor, and mixed_precision_gemm_launcher launches
_gemm_kernel on cdiv(M, 128) * cdiv(N, 64) programs with conch's fixed tuning parameters. This
launch builds the same metadata with the package's helper and launches the same kernel with
the same arguments on the harness's C; the kernel never reads `zeros` in this mode, so any
int32 tensor stands in. The kernel reads up to 63 columns past N on the last rows of Wq and
scales (its loads are unmasked along N); those values only reach masked-out outputs."""
import triton
from conch.kernels.quantization.gemm import (
    TORCH_DTYPE_TO_TRITON,
    LoadOrder,
    _gemm_kernel,
    _get_matrix_a_eviction_policy,
    _get_matrix_b_eviction_policy,
    _get_metadata_eviction_policy,
    _get_tuning_parameters,
)
from conch.ops.quantization.gemm import create_mixed_precision_metadata

BITS = 4
BIAS = 8
GROUP = 128


def launch(x, Wq, scales, C, M, N, K):
    meta = create_mixed_precision_metadata(x, Wq, scales, None, BITS, BIAS, GROUP)
    tuning = _get_tuning_parameters()
    grid = lambda p: (triton.cdiv(meta.m_dim, p["cxpr_block_size_m"]) * triton.cdiv(meta.n_dim, p["cxpr_block_size_n"]),)
    # The cache policies the package picks for each operand, as its wrapper asks for them.
    eviction_policies = {"cxpr_meta_eviction_policy": _get_metadata_eviction_policy(),
                         "cxpr_matrix_b_eviction_policy": _get_matrix_b_eviction_policy(),
                         "cxpr_matrix_a_eviction_policy": _get_matrix_a_eviction_policy()}
    _gemm_kernel[grid](
        a_ptr=x, b_ptr=Wq, c_ptr=C, scales_ptr=scales, zeros_ptr=Wq, scales_a_ptr=None,
        m_dim=meta.m_dim, k_dim=meta.k_dim, n_dim=meta.n_dim,
        cxpr_w_nbits=meta.weight_size_bits, cxpr_weight_bias=meta.weight_bias,
        cxpr_group_size=meta.group_size, cxpr_unpack_mask=meta.unpack_mask,
        cxpr_elements_per_sample=meta.elements_per_sample,
        matrix_a_stride_m=x.stride(0), matrix_a_stride_k=x.stride(1),
        matrix_b_stride_k=Wq.stride(0), matrix_b_stride_n=Wq.stride(1),
        matrix_c_stride_m=C.stride(0), matrix_c_stride_n=C.stride(1),
        meta_stride_g=scales.stride(0), meta_stride_n=scales.stride(1),
        cxpr_input_dtype=TORCH_DTYPE_TO_TRITON[meta.input_dtype],
        cxpr_output_dtype=TORCH_DTYPE_TO_TRITON[meta.output_dtype],
        cxpr_acc_dtype=TORCH_DTYPE_TO_TRITON[meta.acc_dtype],
        cxpr_meta_dtype=TORCH_DTYPE_TO_TRITON[meta.meta_dtype],
        cxpr_channel_scale_mode=meta.channel_scale_mode.value,
        cxpr_w_group_mode=meta.weight_group_mode.value,
        cxpr_zero_is_scalar=meta.zero_is_scalar,
        cxpr_data_contiguous=meta.data_contiguous,
        cxpr_matrix_a_load_order=LoadOrder.MID.value,
        **eviction_policies,
        cxpr_swizzle_pid=True,
        cxpr_block_size_scale_a=tuning["cxpr_block_size_m"],
        cxpr_block_size_scale_b=tuning["cxpr_block_size_n"],
        **tuning,
    )
