// `tokenscope lesson ...`: check every lesson headless (`lesson check lessons/*.md`) or print a
// lesson's pages as text (`lesson show FILE`).
#pragma once

namespace ts {

int lesson_main(int argc, char** argv, const char* source_dir);  // argv[0] is "lesson"

}  // namespace ts
