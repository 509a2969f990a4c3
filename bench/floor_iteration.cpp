// The floors of the iteration scenarios: the same arithmetic over plain arrays, no tessera header. A view or a
// group cannot beat these loops; tessera / floor is what the library's bookkeeping costs.
#include "common.hpp"
#include "model.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using bench::mass;
using bench::position;
using bench::velocity;

enum class kind { one, two, three, two_exclude, two_half };

template<kind Kind>
class floor_iteration {
public:
    explicit floor_iteration(const std::size_t count) : pos(count), vel(count), mas(count), frozen(count) {
        for (std::size_t index{}; index < count; ++index) {
            pos[index] = bench::initial_position(index);
            vel[index] = bench::initial_velocity(index);
            mas[index] = bench::initial_mass(index);
            frozen[index] = bench::is_frozen(index);
        }
    }

    void step() {
        const auto count = pos.size();

        for (std::size_t index{}; index < count; ++index) {
            if constexpr (Kind == kind::one) {
                bench::move_one(pos[index]);
            } else if constexpr (Kind == kind::two) {
                bench::move_two(pos[index], vel[index]);
            } else if constexpr (Kind == kind::three) {
                bench::move_three(pos[index], vel[index], mas[index]);
            } else if constexpr (Kind == kind::two_half) {
                if (bench::has_position_in_half(index) && bench::has_velocity_in_half(index)) {
                    bench::move_two(pos[index], vel[index]);
                }
            } else if (!frozen[index]) {
                bench::move_two(pos[index], vel[index]);
            }
        }
    }

    [[nodiscard]] std::uint64_t checksum() const {
        bench::checksum sum{};

        for (std::size_t index{}; index < pos.size(); ++index) {
            if (Kind == kind::two_half && !bench::has_position_in_half(index)) {
                continue;
            }

            sum.add(index, pos[index].x, pos[index].y);
        }

        return sum.value;
    }

private:
    std::vector<position> pos;
    std::vector<velocity> vel;
    std::vector<mass> mas;
    std::vector<std::uint8_t> frozen;
};

TESSERA_BENCH_FIXTURE("floor/iteration/view_1_callback", floor_iteration<kind::one>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_1_each", floor_iteration<kind::one>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_1_range", floor_iteration<kind::one>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_2_callback", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_2_each", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_2_range", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_3_callback", floor_iteration<kind::three>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_3_each", floor_iteration<kind::three>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_3_range", floor_iteration<kind::three>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_2_exclude", floor_iteration<kind::two_exclude>);
TESSERA_BENCH_FIXTURE("floor/iteration/runtime_view_2", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_full_2", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_full_2_each", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_full_2_range", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_full_3", floor_iteration<kind::three>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_full_3_each", floor_iteration<kind::three>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_full_3_range", floor_iteration<kind::three>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_partial_2", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_partial_2_each", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_partial_2_range", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_non_owning_2", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_non_owning_2_each", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_non_owning_2_range", floor_iteration<kind::two>);
TESSERA_BENCH_FIXTURE("floor/iteration/view_2_half", floor_iteration<kind::two_half>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_partial_2_half", floor_iteration<kind::two_half>);
TESSERA_BENCH_FIXTURE("floor/iteration/group_non_owning_2_half", floor_iteration<kind::two_half>);

} // namespace
