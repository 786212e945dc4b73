// Includes Eigen with GCC 12's false "-W(maybe-)uninitialized" reports inside Eigen's AVX-512
// GEMM/GEMV kernels (_mm512_undefined_ps) silenced for Eigen's own code only. Engine sources
// that instantiate Eigen products include this FIRST, before any header that pulls in Eigen.
// (Better placed in base/tensor.h for every module; kept here until that file's owner moves it.)
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
