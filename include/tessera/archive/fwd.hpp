// Forward declarations of the archive module.
#ifndef TESSERA_ARCHIVE_FWD_HPP
#define TESSERA_ARCHIVE_FWD_HPP

#include <cstdint>

namespace tessera {

enum class archive_errc : std::uint8_t;
class archive_error;
class binary_output_archive;
class binary_input_archive;

} // namespace tessera

#endif
