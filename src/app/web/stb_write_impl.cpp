// The web build compiles stb_image_write here (the desktop links Debian's libstb instead): the
// window encodes its screenshots and exported PNGs with it.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
