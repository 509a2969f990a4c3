// splitmix64: the small seeded generator the randomized tests share, so that a seed printed by a failure replays the
// same run.
#ifndef TESSERA_TEST_SUPPORT_SPLITMIX_HPP
#define TESSERA_TEST_SUPPORT_SPLITMIX_HPP

#include <cstdint>

namespace tessera_test {

/// splitmix64 (Steele, Lea and Flood): one 64-bit word of state, a new value per call.
class splitmix64 {
public:
    explicit splitmix64(const std::uint64_t seed) noexcept : state{seed} {}

    /// The next value of the stream.
    std::uint64_t next() noexcept {
        auto value = (state += 0x9E3779B97F4A7C15ull);
        value = (value ^ (value >> 30u)) * 0xBF58476D1CE4E5B9ull;
        value = (value ^ (value >> 27u)) * 0x94D049BB133111EBull;
        return value ^ (value >> 31u);
    }

    /// A value in [0, bound).
    std::uint32_t below(const std::uint32_t bound) noexcept { return static_cast<std::uint32_t>(next() % bound); }

private:
    std::uint64_t state;
};

} // namespace tessera_test

#endif
