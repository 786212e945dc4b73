// The GGUF v3 container (ggml's docs/gguf.md): header, typed key/value metadata, tensor infos,
// then tensor data aligned to general.alignment (default 32). GgufFile reads and checks the
// layout of any GGUF file (hostile input included: every count and size is checked against the
// bytes that remain before anything is allocated); GgufWriter writes one. Neither knows what a
// model or a tokenizer is: that mapping is in gguf_model.h and gguf_tokenizer.h.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "formats/byte_source.h"
#include "formats/ggml_types.h"
#include "formats/gguf_value.h"

namespace ts {

constexpr uint32_t kGgufVersion = 3;
constexpr uint32_t kGgufDefaultAlignment = 32;
constexpr uint32_t kGgufMaxDims = 4;
constexpr size_t kGgufMaxTensorName = 64;
// Counts no real model comes near (the largest vocabularies hold ~260k tokens), so a hostile
// header is refused at once instead of being parsed item by item.
constexpr uint64_t kGgufMaxArrayItems = uint64_t{1} << 24;
constexpr uint64_t kGgufMaxTensors = uint64_t{1} << 20;
constexpr uint64_t kGgufMaxKeys = uint64_t{1} << 20;
// The decoded metadata may take at most this much memory (and never more than the budget of
// memory_budget.h): a value is charged before it is allocated.
constexpr uint64_t kGgufMaxMetadataBytes = uint64_t{1} << 30;

struct GgufTensorInfo {
  std::string name;
  std::vector<uint64_t> ne;  // (n_dims) fastest-varying first: a row-major (out, in) matrix
                             // has ne = {in, out}
  uint32_t type = 0;         // GgmlType id
  uint64_t offset = 0;       // from the start of the data section
  uint64_t n_elements = 0;
  uint64_t n_bytes = 0;
  std::string shape_string() const;  // "[64, 512]" (ne order)
};

using GgufKv = std::pair<std::string, GgufValue>;

class GgufFile {
 public:
  static Result<GgufFile> open(const std::string& path);
  static Result<GgufFile> read(ByteSource src);

  const std::string& name() const { return src_.name(); }
  uint32_t version() const { return version_; }
  uint32_t alignment() const { return alignment_; }
  uint64_t data_offset() const { return data_offset_; }  // absolute offset of the data section
  uint64_t file_size() const { return src_.size(); }

  const std::vector<GgufKv>& metadata() const { return kv_; }
  const GgufValue* find(const std::string& key) const;  // nullptr when absent
  const std::vector<GgufTensorInfo>& tensors() const { return tensors_; }
  const GgufTensorInfo* find_tensor(const std::string& name) const;

  // The raw bytes of a tensor, and its values decoded to fp32 (F32, F16, BF16, Q8_0, Q4_0,
  // Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K).
  Result<std::vector<uint8_t>> read_tensor_bytes(const GgufTensorInfo& t) const;
  Result<std::vector<float>> read_tensor_f32(const GgufTensorInfo& t) const;
  // What read_tensor_f32 checks before it reads: a type tokenscope decodes, whole blocks.
  Status check_tensor_f32(const GgufTensorInfo& t) const;
  // read_tensor_f32's NaN/Inf verdict without holding the tensor: decoded a few blocks at a time
  // (at most ~1 MiB at once); the error names the tensor and the index as check_finite does.
  Status check_tensor_finite(const GgufTensorInfo& t) const;

 private:
  ByteSource src_;
  uint32_t version_ = 0;
  uint32_t alignment_ = kGgufDefaultAlignment;
  uint64_t data_offset_ = 0;
  std::vector<GgufKv> kv_;
  std::vector<GgufTensorInfo> tensors_;
};

class GgufWriter {
 public:
  // Sets (or replaces, keeping its place) a metadata key. general.alignment is written from
  // set_alignment, never from here.
  void set(const std::string& key, GgufValue value);
  Status set_alignment(uint32_t alignment);  // a power of two, at least 8 (spec: multiple of 8)
  // Adds a tensor converted from fp32. ne is fastest-first; data has prod(ne) values.
  Status add_tensor(const std::string& name, std::vector<uint64_t> ne, GgmlType type,
                    std::span<const float> data);
  // Adds a tensor whose bytes are already encoded in `type`.
  Status add_raw_tensor(const std::string& name, std::vector<uint64_t> ne, GgmlType type,
                        std::vector<uint8_t> bytes);

  Result<std::vector<uint8_t>> to_bytes() const;
  // Writes to `path` through a temporary file renamed into place.
  Status write_file(const std::string& path) const;

 private:
  struct Tensor {
    std::string name;
    std::vector<uint64_t> ne;
    GgmlType type;
    std::vector<uint8_t> bytes;
  };
  uint32_t alignment_ = kGgufDefaultAlignment;
  std::vector<GgufKv> kv_;
  std::vector<Tensor> tensors_;
};

}  // namespace ts
