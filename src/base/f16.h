// IEEE half <-> float conversion (GGUF F16 tensors, fp16 attention records) and bfloat16.
#pragma once
#include <cstdint>
#include <cstring>

namespace ts {

float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);  // round to nearest even; overflow -> inf; NaN kept

inline float bf16_to_f32(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace ts
