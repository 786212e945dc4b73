// Eigen aliases used across the engine. Matrices are row-major (out, in) like the checkpoints,
// so y = W * x reads as in the papers. Dimension names: n_layers n_heads n_kv_heads head_dim
// d_model d_ff vocab_size n_ctx pos.
// Eigen is included here, once for every module, with GCC 12's false "-W(maybe-)uninitialized"
// reports inside its AVX-512 kernels (_mm512_undefined_ps) silenced for Eigen's own code only.
#pragma once
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <Eigen/Dense>
#pragma GCC diagnostic pop
#else
#include <Eigen/Dense>
#endif

namespace ts {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;
using RowVec = Eigen::RowVectorXf;
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
using VecMap = Eigen::Map<Vec>;
using ConstVecMap = Eigen::Map<const Vec>;

}  // namespace ts
