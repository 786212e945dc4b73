// One GGUF metadata value: any of the 13 GGUF value types, arrays included (arrays of strings,
// of numbers, and of arrays). Scalars live in the widest field of their kind so every value
// round-trips exactly; the type tag says how it is stored in a file. No file I/O here.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts {

enum class GgufValueType : uint32_t {
  UInt8 = 0,
  Int8 = 1,
  UInt16 = 2,
  Int16 = 3,
  UInt32 = 4,
  Int32 = 5,
  Float32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
  UInt64 = 10,
  Int64 = 11,
  Float64 = 12,
};

const char* gguf_value_type_name(GgufValueType t);  // "uint32", "string", "array", ...
bool gguf_value_type_valid(uint32_t t);
// Bytes one scalar of type t takes in a file (String and Array: 0, they are variable).
size_t gguf_scalar_size(GgufValueType t);

struct GgufValue {
  GgufValueType type = GgufValueType::UInt32;
  GgufValueType elem = GgufValueType::UInt8;  // type == Array: the type of its items

  // Scalars (by kind of `type`); arrays (by kind of `elem`).
  uint64_t u = 0;  // UInt8, UInt16, UInt32, UInt64, Bool (0 or 1)
  int64_t i = 0;   // Int8, Int16, Int32, Int64
  double f = 0.0;  // Float32 (exactly representable), Float64
  std::string s;   // String
  std::vector<uint64_t> arr_u;
  std::vector<int64_t> arr_i;
  std::vector<double> arr_f;
  std::vector<std::string> arr_s;
  std::vector<GgufValue> arr_a;  // arrays of arrays

  bool operator==(const GgufValue&) const = default;

  static GgufValue u8(uint8_t v) { return unsigned_of(GgufValueType::UInt8, v); }
  static GgufValue u16(uint16_t v) { return unsigned_of(GgufValueType::UInt16, v); }
  static GgufValue u32(uint32_t v) { return unsigned_of(GgufValueType::UInt32, v); }
  static GgufValue u64(uint64_t v) { return unsigned_of(GgufValueType::UInt64, v); }
  static GgufValue i8(int8_t v) { return signed_of(GgufValueType::Int8, v); }
  static GgufValue i16(int16_t v) { return signed_of(GgufValueType::Int16, v); }
  static GgufValue i32(int32_t v) { return signed_of(GgufValueType::Int32, v); }
  static GgufValue i64(int64_t v) { return signed_of(GgufValueType::Int64, v); }
  static GgufValue f32(float v);
  static GgufValue f64(double v);
  static GgufValue boolean(bool v);
  static GgufValue str(std::string v);
  // Arrays: `elem` must be of the matching kind (checked by the writer); Float32 items are
  // rounded to float here, so a value compares equal to itself read back.
  static GgufValue strings(std::vector<std::string> v);
  static GgufValue unsigned_array(GgufValueType elem, std::vector<uint64_t> v);
  static GgufValue signed_array(GgufValueType elem, std::vector<int64_t> v);
  static GgufValue float_array(GgufValueType elem, std::vector<double> v);
  static GgufValue bool_array(std::vector<bool> v);
  static GgufValue array_of_arrays(std::vector<GgufValue> v);

  bool is_array() const { return type == GgufValueType::Array; }
  size_t array_size() const;
  // Conversions that succeed when the value is a scalar of a fitting kind.
  std::optional<int64_t> as_int() const;   // any integer type that fits in int64
  std::optional<double> as_float() const;  // any numeric type
  std::optional<bool> as_bool() const;
  const std::string* as_string() const;
  // Short printable form: 42, 1e-05, "text...", [string x 50257: "a", "b", ...].
  std::string describe(size_t max_chars = 80) const;

 private:
  static GgufValue unsigned_of(GgufValueType t, uint64_t v);
  static GgufValue signed_of(GgufValueType t, int64_t v);
};

// Any bytes from a file made safe for a one-line message: valid UTF-8 (bad bytes as <0xNN>),
// control characters, quotes and backslashes escaped, cut after max_chars bytes with "...".
std::string gguf_printable(std::string_view s, size_t max_chars = 80);
// Keys and tensor names must be valid UTF-8 without control characters (they are quoted in
// messages as they are); the reader refuses others and the writer never writes them.
bool gguf_name_ok(std::string_view s);

// The kind of storage a type uses: 'u' unsigned/bool, 'i' signed, 'f' float, 's' string, 'a'.
char gguf_value_kind(GgufValueType t);

}  // namespace ts
