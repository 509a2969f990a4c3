// Snapshots through cereal archives, for components that already have cereal serialize functions. The adapters
// wrap a cereal archive: each section starts with the pool's name (readable in cereal's JSON and XML archives, a
// hash of it in binary ones), reads are checked, and every failure, cereal's own included, is reported as
// cereal_adapter::error instead of an assertion or a crash. An optional module: link the CMake target
// tessera::cereal (which brings cereal); tessera/tessera.hpp never includes it.
#ifndef TESSERA_ARCHIVE_CEREAL_HPP
#define TESSERA_ARCHIVE_CEREAL_HPP

#include "../config/config.hpp"
#include "../core/fwd.hpp"
#include "../core/hashed_string.hpp"
#include "../core/type_info.hpp"
#include "../entity/entity.hpp"
#include "../entity/memory_report.hpp"
#include "../entity/snapshot.hpp"
#include <cereal/cereal.hpp>
#include <cereal/types/string.hpp>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace tessera::archive::cereal_adapter {

/// Thrown by input_archive and the loaders reading from it: what went wrong and in which pool. The registry being
/// loaded stays usable: it holds what was loaded before the error.
class error : public std::runtime_error {
public:
    /// Builds an error from its message.
    explicit error(const std::string &message) : std::runtime_error{"cereal archive: " + message} {}
};

} // namespace tessera::archive::cereal_adapter

namespace tessera::internal {

/// The key of a section: "entities" for the identifiers, the pool's name (memory_report.hpp) otherwise.
template<typename Type, typename Entity>
[[nodiscard]] std::string cereal_section_key(const id_type id) {
    return std::is_same_v<Type, Entity> ? std::string{"entities"} : pool_name<Type>(id);
}

/// What a section starts with: its key in text archives, the key's hash in binary ones (reading a string of a
/// length taken from corrupt bytes would allocate whatever that length says).
template<typename Archive>
inline constexpr bool cereal_text_archive = ::cereal::traits::is_text_archive<Archive>::value;

} // namespace tessera::internal

namespace tessera::archive::cereal_adapter {

/// Writes a snapshot of a registry of Entity identifiers through a cereal output archive. Select a pool with
/// section<Type>() (the identifiers with section<Entity>()) and hand the adapter to basic_snapshot::get.
template<typename Archive, typename Entity = entity>
class output_archive {
public:
    /// Writes through `target`, which must outlive the adapter.
    explicit output_archive(Archive &target) noexcept : archive{&target} {}

    /// Starts the section of pool `id` of Type, or of the identifiers when Type is Entity.
    template<typename Type>
    output_archive &section(const id_type id = type_hash<Type>::value()) {
        return open(tessera::internal::cereal_section_key<Type, Entity>(id));
    }

    /// Starts the section of the named pool `name` of Type (pass hashed_string{name} to the snapshot as its id).
    template<typename Type>
    output_archive &section(const std::string_view name) {
        return open(std::string{name});
    }

    /// Writes a count, an identifier or an element (through its cereal serialize function).
    template<typename Type>
    void operator()(const Type &value) {
        (*archive)(value);
    }

private:
    output_archive &open(const std::string &key) {
        if constexpr (tessera::internal::cereal_text_archive<Archive>) {
            (*archive)(::cereal::make_nvp("pool", key));
        } else {
            (*archive)(static_cast<std::uint64_t>(hashed_string::value(key.data(), key.size())));
        }

        return *this;
    }

    Archive *archive;
};

/// Reads a snapshot written by output_archive through the matching cereal input archive. section<Type>() checks
/// that the next section is that pool's; every read is checked; errors throw cereal_adapter::error.
template<typename Archive, typename Entity = entity>
class input_archive {
    [[noreturn]] void fail(const std::string &what) const {
        throw error{(key.empty() ? std::string{} : "pool '" + key + "': ") + what};
    }

    template<typename Type>
    void read(Type &value) {
        try {
            (*archive)(value);
        } catch (const error &) {
            throw;
        } catch (const std::exception &failure) {
            // cereal::Exception (data that ends or does not parse), and whatever a component's function throws
            fail(failure.what());
        }
    }

    input_archive &open(std::string expected) {
        key = std::move(expected);

        if constexpr (tessera::internal::cereal_text_archive<Archive>) {
            std::string found{};
            auto named = ::cereal::make_nvp("pool", found);
            read(named);

            if (found != key) {
                fail("the section found is '" + found + "'; sections must be read in the order they were written");
            }
        } else {
            std::uint64_t found{};
            read(found);

            if (found != static_cast<std::uint64_t>(hashed_string::value(key.data(), key.size()))) {
                fail("the next section is another one; sections must be read in the order they were written");
            }
        }

        return *this;
    }

public:
    /// Reads through `source`, which must outlive the adapter.
    explicit input_archive(Archive &source) noexcept : archive{&source} {}

    /// Checks that the next section is the one of pool `id` of Type (or of the identifiers when Type is Entity).
    template<typename Type>
    input_archive &section(const id_type id = type_hash<Type>::value()) {
        return open(tessera::internal::cereal_section_key<Type, Entity>(id));
    }

    /// Checks that the next section is the one of the named pool `name` of Type.
    template<typename Type>
    input_archive &section(const std::string_view name) {
        return open(std::string{name});
    }

    /// Reads a count, an identifier or an element; cereal's exceptions become cereal_adapter::error.
    template<typename Type>
    void operator()(Type &value) {
        read(value);
    }

    /// Reports data the loaders cannot use (an identifier they reject, an entity twice in a pool).
    [[noreturn]] void corrupt(const char *message) const { fail(message); }

private:
    Archive *archive;
    std::string key{};
};

} // namespace tessera::archive::cereal_adapter

#endif
