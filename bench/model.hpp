// The components, initial values and per-entity arithmetic of the iteration and systems scenarios, shared by the
// tessera files and their floors so that both compute the same thing; only how the data is reached differs.
#ifndef TESSERA_BENCH_MODEL_HPP
#define TESSERA_BENCH_MODEL_HPP

#include "common.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

// ---- iteration: every entity has position, velocity and mass; every 16th is frozen ----

struct position {
    float x;
    float y;
};

struct velocity {
    float dx;
    float dy;
};

struct mass {
    float k;
};

struct frozen {};

inline position initial_position(const std::size_t index) { return {static_cast<float>(index % 1000u), 0.f}; }
inline velocity initial_velocity(const std::size_t index) { return {1.f + static_cast<float>(index % 3u), 2.f}; }
inline mass initial_mass(const std::size_t index) { return {0.5f + static_cast<float>(index % 4u) * 0.25f}; }
inline bool is_frozen(const std::size_t index) { return index % 16u == 0u; }
// The "half" iteration scenarios, where groups pay off: of every eight entities, two have a position and a
// velocity, three only a position and three only a velocity. A view leads with a pool of five in eight and rejects
// three of them; a group visits the two that matter.
inline bool has_position_in_half(const std::size_t index) { return index % 8u < 5u; }
inline bool has_velocity_in_half(const std::size_t index) { return index % 8u < 2u || index % 8u >= 5u; }

inline void move_one(position &pos) { pos.x += 1.f; }

inline void move_two(position &pos, const velocity &vel) {
    pos.x += vel.dx;
    pos.y += vel.dy;
}

inline void move_three(position &pos, const velocity &vel, const mass &mas) {
    pos.x += vel.dx * mas.k;
    pos.y += vel.dy * mas.k;
}

// ---- systems, in the manner of the public ecs_benchmark suite ----

namespace game {

inline constexpr float delta = 1.f / 60.f;

struct position {
    float x;
    float y;
};

struct velocity {
    float x;
    float y;
};

struct data {
    std::uint32_t thingy;
    std::uint32_t seed;
    std::uint32_t numgy;
    std::uint32_t mingy;
    double dingy;
};

enum class player_type : std::uint8_t { hero, monster, npc };

struct player {
    player_type type;
};

enum class status : std::uint8_t { alive, dead, spawn };

struct health {
    std::int32_t hp;
    std::int32_t max_hp;
    status state;
};

struct damage {
    std::int32_t atk;
    std::int32_t def;
};

struct sprite {
    char character;
};

struct framebuffer {
    static constexpr int width = 320;
    static constexpr int height = 240;
    std::vector<std::uint32_t> pixels = std::vector<std::uint32_t>(width * height, 0u);
};

/// What entity index gets. Plain: every entity has all seven components. Mixed: heroes (half) have all, monsters
/// (a quarter) have no data, NPCs (a quarter) have neither velocity, data nor damage.
struct kind {
    player_type type;
    bool has_velocity;
    bool has_data;
    bool has_damage;
};

inline kind kind_of(const std::size_t index, const bool mixed) {
    if (!mixed) {
        return {index % 2u == 0u ? player_type::hero : player_type::monster, true, true, true};
    }

    switch (index % 4u) {
    case 1u:
        return {player_type::monster, true, false, true};
    case 3u:
        return {player_type::npc, false, false, false};
    default:
        return {player_type::hero, true, true, true};
    }
}

inline position initial_position(const std::size_t index) {
    return {static_cast<float>(index % 320u), static_cast<float>(index % 240u)};
}

inline velocity initial_velocity(const std::size_t index) { return {1.f + static_cast<float>(index % 3u), 1.f}; }

inline data initial_data(const std::size_t index) {
    return {static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index) * 2654435761u | 1u, 0u, 0u, 0.};
}

inline health initial_health(const std::size_t index) { return {index % 10u == 0u ? 0 : 100, 100, status::alive}; }

inline damage initial_damage(const std::size_t index) {
    return {5 + static_cast<std::int32_t>(index % 3u), static_cast<std::int32_t>(index % 5u)};
}

inline void movement(position &pos, const velocity &vel) {
    pos.x += vel.x * delta;
    pos.y += vel.y * delta;
}

inline void update_data(data &value) {
    value.thingy = (value.thingy + 1u) % 1'000'000u;
    value.dingy += 0.0001 * static_cast<double>(delta);
    value.mingy = value.mingy ^ 1u;
    value.seed ^= value.seed << 13u;
    value.seed ^= value.seed >> 17u;
    value.seed ^= value.seed << 5u;
    value.numgy = value.seed;
}

inline void more_complex(const position &pos, velocity &vel, const data &value) {
    if (value.thingy % 10u == 0u) {
        if (pos.x > pos.y) {
            vel.x = static_cast<float>(static_cast<std::int32_t>(value.numgy % 17u) - 8);
            vel.y = static_cast<float>(static_cast<std::int32_t>((value.numgy >> 8u) % 17u) - 8);
        } else {
            vel.x = -vel.x;
            vel.y = -vel.y;
        }
    }
}

inline void update_health(health &value) {
    if (value.hp <= 0 && value.state != status::dead) {
        value.hp = 0;
        value.state = status::dead;
    } else if (value.state == status::dead && value.hp == 0) {
        value.hp = value.max_hp;
        value.state = status::spawn;
    } else if (value.state == status::spawn) {
        value.state = status::alive;
    }
}

inline void apply_damage(health &value, const damage &dmg) {
    const auto total = dmg.atk - dmg.def;

    if (value.hp > 0 && total > 0) {
        value.hp = std::max(value.hp - total, 0);
    }
}

inline void update_sprite(sprite &spr, const player &who, const health &value) {
    if (value.state == status::dead) {
        spr.character = '_';
    } else if (value.state == status::spawn) {
        spr.character = '*';
    } else {
        spr.character = who.type == player_type::hero ? 'H' : (who.type == player_type::monster ? 'M' : 'N');
    }
}

inline void render(framebuffer &buffer, const position &pos, const sprite &spr) {
    auto x = static_cast<int>(pos.x) % framebuffer::width;
    auto y = static_cast<int>(pos.y) % framebuffer::height;
    x += x < 0 ? framebuffer::width : 0;
    y += y < 0 ? framebuffer::height : 0;
    buffer.pixels[static_cast<std::size_t>(y * framebuffer::width + x)] += static_cast<unsigned char>(spr.character);
}

/// One entity's share of the checksum: which components it has and their fields.
inline void add_entity(checksum &sum, const std::size_t index, const position &pos, const velocity *vel,
                       const data *value, const player &who, const health &hp, const damage *dmg, const sprite &spr) {
    sum.add(index, pos.x, pos.y, static_cast<std::uint32_t>(who.type), hp.hp, hp.max_hp,
            static_cast<std::uint32_t>(hp.state), spr.character);

    if (vel) {
        sum.add(index, 1u, vel->x, vel->y);
    }

    if (value) {
        sum.add(index, 2u, value->thingy, value->seed, value->numgy, value->mingy, value->dingy);
    }

    if (dmg) {
        sum.add(index, 3u, dmg->atk, dmg->def);
    }
}

inline void add_framebuffer(checksum &sum, const framebuffer &buffer) {
    for (std::size_t pixel{}; pixel < buffer.pixels.size(); ++pixel) {
        sum.add(pixel, 0xFBu, buffer.pixels[pixel]);
    }
}

} // namespace game

} // namespace bench

#endif
