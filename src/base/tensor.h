// Eigen aliases used across the engine. Matrices are row-major (out, in) like the checkpoints,
// so y = W * x reads as in the papers. Dimension names: n_layers n_heads n_kv_heads head_dim
// d_model d_ff vocab_size n_ctx pos.
#pragma once
#include <Eigen/Dense>

namespace ts {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::VectorXf;
using RowVec = Eigen::RowVectorXf;
using MatMap = Eigen::Map<Mat>;
using ConstMatMap = Eigen::Map<const Mat>;
using VecMap = Eigen::Map<Vec>;
using ConstVecMap = Eigen::Map<const Vec>;

}  // namespace ts
