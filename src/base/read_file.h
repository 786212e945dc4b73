// Reading a whole input file (settings, scripts, lessons, traces) safely: only a regular file
// (a symlink to one is fine) is read, never a device, pipe or socket such as /dev/zero, and only
// up to a size cap, so a hostile path can neither hang the reader nor exhaust memory.
#pragma once
#include <cstdint>
#include <string>

#include "base/error.h"

namespace ts {

// ok when `path` names a regular file, else "<path>: not a regular file (...)" or the reason.
Status check_regular_file(const std::string& path);
// The whole file, or an error naming the path when it is not a regular file, cannot be read, or
// holds more than max_bytes ("<path>: 3.2 MB is more than the 1 MB a <what> may hold").
Result<std::string> read_regular_file(const std::string& path, uint64_t max_bytes,
                                      const std::string& what);

}  // namespace ts
