// Writing a file atomically without harming what the path names: the bytes go to a new temporary
// file beside the target (created exclusively, never through a link), then replace it by rename.
// Only a regular file or a path that does not exist yet is replaced; a symlink is followed (the
// link stays, its regular target is replaced); a device (/dev/full), directory or pipe is refused.
#pragma once
#include <functional>
#include <ostream>
#include <string>

#include "base/error.h"

namespace ts {

// The file that will be replaced: `path` itself, or the regular file a symlink points to.
Result<std::string> atomic_write_target(const std::string& path);
// Calls write(stream) on the temporary file, then renames it over the target; on any failure the
// temporary file is removed and the target is left as it was.
Status write_file_atomically(const std::string& path,
                             const std::function<Status(std::ostream&)>& write);

}  // namespace ts
