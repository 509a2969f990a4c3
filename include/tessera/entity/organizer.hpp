// The organizer: records tasks (free functions, members, raw callbacks), deduces which resources each one reads
// and writes from its parameters, and builds the dependency graph a scheduler can run. It never runs tasks.
#ifndef TESSERA_ENTITY_ORGANIZER_HPP
#define TESSERA_ENTITY_ORGANIZER_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "../core/type_info.hpp"
#include "../core/type_traits.hpp"
#include "fwd.hpp"
#include "helper.hpp"
#include "registry.hpp"
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tessera {

namespace internal {

/// A resource a task touches and whether it writes it.
struct organizer_access {
    const type_info *info{};
    bool read_only{};
};

/// How a task parameter is resolved and which resources it stands for.
template<typename Param, typename Registry>
struct organizer_param {
    // anything else is a context variable
    using type = std::remove_cvref_t<Param>;
    static_assert(std::is_lvalue_reference_v<Param>,
                  "organizer: task parameters are Registry &, a view or a group by value, or context variables by "
                  "reference");
    static constexpr bool uses_registry = false;
    static constexpr bool writes_registry = false;
    static constexpr bool read_only = std::is_const_v<std::remove_reference_t<Param>>;

    static void collect(std::vector<organizer_access> &out) { out.push_back({&type_id<type>(), read_only}); }

    static void prepare(Registry &reg) { reg.ctx().template emplace<type>(); }

    static decltype(auto) resolve(Registry &reg) { return reg.ctx().template emplace<type>(); }
};

template<typename Registry>
struct organizer_param<Registry &, Registry> {
    static constexpr bool uses_registry = true;
    static constexpr bool writes_registry = true;

    static void collect(std::vector<organizer_access> &) {}

    static void prepare(Registry &) {}

    static Registry &resolve(Registry &reg) { return reg; }
};

template<typename Registry>
struct organizer_param<const Registry &, Registry> {
    static constexpr bool uses_registry = true;
    static constexpr bool writes_registry = false;

    static void collect(std::vector<organizer_access> &) {}

    static void prepare(Registry &) {}

    static const Registry &resolve(Registry &reg) { return reg; }
};

template<typename... Get, typename... Exclude, typename Registry>
struct organizer_param<basic_view<get_t<Get...>, exclude_t<Exclude...>>, Registry> {
    static constexpr bool uses_registry = false;
    static constexpr bool writes_registry = false;

    static void collect(std::vector<organizer_access> &out) {
        (out.push_back({&type_id<typename Get::element_type>(), std::is_const_v<Get>}), ...);
        (out.push_back({&type_id<typename Exclude::element_type>(), true}), ...);
    }

    static void prepare(Registry &reg) {
        ((void)reg.template storage<typename Get::element_type>(), ...);
        ((void)reg.template storage<typename Exclude::element_type>(), ...);
    }

    static basic_view<get_t<Get...>, exclude_t<Exclude...>> resolve(Registry &reg) { return as_view{reg}; }
};

template<typename... Owned, typename... Get, typename... Exclude, typename Registry>
struct organizer_param<basic_group<owned_t<Owned...>, get_t<Get...>, exclude_t<Exclude...>>, Registry> {
    using group_type = basic_group<owned_t<Owned...>, get_t<Get...>, exclude_t<Exclude...>>;
    static constexpr bool uses_registry = false;
    static constexpr bool writes_registry = false;

    // as for views, the constness of each storage says whether the task writes it; excluded types are only read
    static void collect(std::vector<organizer_access> &out) {
        (out.push_back({&type_id<typename Owned::element_type>(), std::is_const_v<Owned>}), ...);
        (out.push_back({&type_id<typename Get::element_type>(), std::is_const_v<Get>}), ...);
        (out.push_back({&type_id<typename Exclude::element_type>(), true}), ...);
    }

    // creating a group arranges its owned pools: it happens here, before tasks run concurrently
    static void prepare(Registry &reg) { static_cast<void>(resolve(reg)); }

    static group_type resolve(Registry &reg) { return as_group{reg}; }
};

template<typename>
inline constexpr bool is_view_or_group_v = false;

template<typename... Args>
inline constexpr bool is_view_or_group_v<basic_view<Args...>> = true;

template<typename... Args>
inline constexpr bool is_view_or_group_v<basic_group<Args...>> = true;

template<typename Param, typename Registry>
struct organizer_param<const Param, Registry> : organizer_param<Param, Registry> {};

// a view or a group taken by const reference binds to the object the organizer builds
template<typename Param, typename Registry>
requires is_view_or_group_v<Param>
struct organizer_param<const Param &, Registry> : organizer_param<Param, Registry> {
};

/// Which parameters a candidate's payload takes first: none, or the instance/payload of a bound task.
template<typename Candidate, typename Payload>
consteval std::size_t organizer_skip() noexcept {
    if constexpr (std::is_void_v<Payload> || std::is_member_function_pointer_v<Candidate>) {
        return 0u;
    } else {
        return 1u;
    }
}

template<std::size_t Skip, typename List, std::size_t... Index>
auto drop_front(std::index_sequence<Index...>) -> type_list<type_list_element_t<Index + Skip, List>...>;

/// The parameters of a candidate that the organizer resolves (the payload, if any, removed).
template<auto Candidate, typename Payload>
using organizer_params =
    decltype(drop_front<organizer_skip<decltype(Candidate), Payload>(),
                        typename callable_arguments<std::remove_cvref_t<decltype(Candidate)>>::type>(
        std::make_index_sequence<callable_arguments<std::remove_cvref_t<decltype(Candidate)>>::type::size -
                                 organizer_skip<decltype(Candidate), Payload>()>{}));

template<typename Registry, typename... Param>
void organizer_collect(type_list<Param...>, std::vector<organizer_access> &out) {
    (organizer_param<Param, Registry>::collect(out), ...);
}

/// Applies the Req... overrides: `const T` makes T read-only, `T` read-write; resources not yet listed are added.
template<typename... Req>
void organizer_override(std::vector<organizer_access> &out) {
    (
        [&out]() {
            const auto *info = &type_id<std::remove_const_t<Req>>();
            bool found = false;

            for (auto &&elem : out) {
                if (*elem.info == *info) {
                    elem.read_only = std::is_const_v<Req>;
                    found = true;
                }
            }

            if (!found) {
                out.push_back({info, std::is_const_v<Req>});
            }
        }(),
        ...);
}

/// Merges duplicate resources: a resource read and written by the same task is written.
inline void organizer_merge(std::vector<organizer_access> &out) {
    std::vector<organizer_access> merged{};

    for (auto &&elem : out) {
        if (auto it = std::find_if(merged.begin(), merged.end(),
                                   [&](const auto &other) { return *other.info == *elem.info; });
            it != merged.end()) {
            it->read_only = it->read_only && elem.read_only;
        } else {
            merged.push_back(elem);
        }
    }

    out = std::move(merged);
}

} // namespace internal

/// Builds the task graph of a registry. Tasks are recorded in order; the order decides the dependencies.
template<typename Registry>
class basic_organizer final {
    using traits_type = typename Registry::entity_type;

public:
    /// The registry type.
    using registry_type = Registry;
    /// Identifier type.
    using entity_type = typename Registry::entity_type;
    /// Unsigned integer type.
    using size_type = std::size_t;
    /// The type of a raw task and of every vertex callback.
    using function_type = void(const void *, Registry &);

private:
    using prepare_type = void(Registry &);

    struct task {
        std::vector<internal::organizer_access> resources{};
        bool writes_registry{};
        const char *name{};
        const void *payload{};
        function_type *callback{};
        prepare_type *prepare{};
        const type_info *info{};
    };

    template<typename Params, typename... Req>
    static task describe(const char *name, const void *payload, function_type *callback, prepare_type *prepare,
                         const type_info &info) {
        task elem{{}, false, name, payload, callback, prepare, &info};
        internal::organizer_collect<Registry>(Params{}, elem.resources);
        internal::organizer_override<Req...>(elem.resources);
        internal::organizer_merge(elem.resources);
        elem.writes_registry = writes_registry(Params{}) || elem.resources.empty();
        return elem;
    }

    template<typename... Param>
    static constexpr bool writes_registry(type_list<Param...>) noexcept {
        return (internal::organizer_param<Param, Registry>::writes_registry || ...);
    }

    template<typename... Param>
    static void prepare_all(type_list<Param...>, Registry &reg) {
        (internal::organizer_param<Param, Registry>::prepare(reg), ...);
    }

    template<auto Candidate, typename Type, typename... Param>
    static void invoke(const void *payload, Registry &reg, type_list<Param...>) {
        if constexpr (std::is_void_v<Type>) {
            tessera::internal::invoke(Candidate, internal::organizer_param<Param, Registry>::resolve(reg)...);
        } else {
            auto *instance = static_cast<Type *>(const_cast<void *>(payload));

            if constexpr (std::is_member_function_pointer_v<decltype(Candidate)>) {
                tessera::internal::invoke(Candidate, *instance,
                                          internal::organizer_param<Param, Registry>::resolve(reg)...);
            } else {
                tessera::internal::invoke(Candidate, *instance,
                                          internal::organizer_param<Param, Registry>::resolve(reg)...);
            }
        }
    }

    template<auto Candidate, typename Type, typename... Req>
    void add(const void *payload, const char *name) {
        using params = internal::organizer_params<Candidate, Type>;
        function_type *callback =
            +[](const void *data, Registry &reg) { invoke<Candidate, Type>(data, reg, params{}); };
        prepare_type *prepare = +[](Registry &reg) { prepare_all(params{}, reg); };
        tasks.push_back(describe<params, Req...>(name, payload, callback, prepare,
                                                 type_id<std::integral_constant<decltype(Candidate), Candidate>>()));
    }

public:
    /// A task of the graph, with its resources and edges.
    struct vertex {
        /// Number of resources the task only reads (the registry not counted).
        [[nodiscard]] size_type ro_count() const noexcept { return count(true); }

        /// Number of resources the task writes (the registry not counted).
        [[nodiscard]] size_type rw_count() const noexcept { return count(false); }

        /// Writes up to `length` read-only resources to `buffer`; returns how many were written.
        [[nodiscard]] size_type ro_dependency(const type_info **buffer, const std::size_t length) const noexcept {
            return fill(true, buffer, length);
        }

        /// Writes up to `length` read-write resources to `buffer`; returns how many were written.
        [[nodiscard]] size_type rw_dependency(const type_info **buffer, const std::size_t length) const noexcept {
            return fill(false, buffer, length);
        }

        /// True if no task must run before this one.
        [[nodiscard]] bool top_level() const noexcept { return in.empty(); }

        /// A type_info unique to the task's candidate, type_id<void>() for raw tasks.
        [[nodiscard]] const type_info &info() const noexcept { return *node.info; }

        /// The name given to the task, or nullptr.
        [[nodiscard]] const char *name() const noexcept { return node.name; }

        /// Runs the task: callback()(data(), registry).
        [[nodiscard]] function_type *callback() const noexcept { return node.callback; }

        /// The instance or payload of the task, or nullptr.
        [[nodiscard]] const void *data() const noexcept { return node.payload; }

        /// The tasks that must wait for this one (indices into the graph).
        [[nodiscard]] const std::vector<std::size_t> &children() const noexcept { return out; }

        /// The tasks this one waits for.
        [[nodiscard]] const std::vector<std::size_t> &in_edges() const noexcept { return in; }

        /// Same as children().
        [[nodiscard]] const std::vector<std::size_t> &out_edges() const noexcept { return out; }

        /// Creates every pool and context variable the task uses, so tasks can then run concurrently.
        void prepare(registry_type &reg) const {
            if (node.prepare) {
                node.prepare(reg);
            }
        }

    private:
        friend class basic_organizer;

        [[nodiscard]] size_type count(const bool read_only) const noexcept {
            return static_cast<size_type>(
                std::count_if(node.resources.begin(), node.resources.end(),
                              [read_only](const auto &elem) { return elem.read_only == read_only; }));
        }

        [[nodiscard]] size_type fill(const bool read_only, const type_info **buffer,
                                     const std::size_t length) const noexcept {
            size_type written{};

            for (auto &&elem : node.resources) {
                if (elem.read_only == read_only && written < length) {
                    buffer[written++] = elem.info;
                }
            }

            return written;
        }

        // a copy: the graph stays valid when the organizer changes or goes away
        task node{};
        std::vector<std::size_t> in{};
        std::vector<std::size_t> out{};
    };

    /// Adds a free function task; Req... adds resources or overrides access modes (const T: read-only).
    template<auto Candidate, typename... Req>
    void emplace(const char *name = nullptr) {
        add<Candidate, void, Req...>(nullptr, name);
    }

    /// Adds a member function of `value_or_instance`, or a free function that takes it as its first parameter.
    template<auto Candidate, typename... Req, typename Type>
    void emplace(Type &value_or_instance, const char *name = nullptr) {
        add<Candidate, Type, Req...>(std::addressof(value_or_instance), name);
    }

    /// Same as above, with the instance given by pointer.
    template<auto Candidate, typename... Req, typename Type>
    void emplace(Type *value_or_instance, const char *name = nullptr) {
        TESSERA_ASSERT(value_or_instance != nullptr, "organizer: the instance of a task cannot be null");
        add<Candidate, Type, Req...>(value_or_instance, name);
    }

    /// Adds a raw task (for example a lambda decayed to a function pointer). It writes the registry, plus Req...
    template<typename... Req>
    void emplace(function_type *func, const void *payload = nullptr, const char *name = nullptr) {
        TESSERA_ASSERT(func != nullptr, "organizer: a raw task needs a function");
        task elem{{}, true, name, payload, func, nullptr, &type_id<void>()};
        internal::organizer_override<Req...>(elem.resources);
        tasks.push_back(std::move(elem));
    }

    /// The task graph: one vertex per task, in insertion order, with the transitive reduction of the edges.
    [[nodiscard]] std::vector<vertex> graph() const {
        const auto length = tasks.size();
        // adjacency[i][j]: task j must wait for task i (always i < j)
        std::vector<std::vector<bool>> adjacency(length, std::vector<bool>(length, false));

        const auto link = [&](const type_info *resource, auto &&mode_of) {
            std::size_t last_writer = length;
            std::vector<std::size_t> readers{};

            for (std::size_t pos{}; pos < length; ++pos) {
                const auto mode = mode_of(tasks[pos], resource);

                if (mode == 1) {
                    if (last_writer != length) {
                        adjacency[last_writer][pos] = true;
                    }

                    readers.push_back(pos);
                } else if (mode == 2) {
                    if (last_writer != length) {
                        adjacency[last_writer][pos] = true;
                    }

                    for (auto reader : readers) {
                        adjacency[reader][pos] = true;
                    }

                    readers.clear();
                    last_writer = pos;
                }
            }
        };

        // 0: not used, 1: read-only, 2: read-write
        std::vector<const type_info *> resources{};

        for (auto &&elem : tasks) {
            for (auto &&access : elem.resources) {
                if (std::none_of(resources.begin(), resources.end(),
                                 [&](auto *info) { return *info == *access.info; })) {
                    resources.push_back(access.info);
                }
            }
        }

        for (auto *resource : resources) {
            link(resource, [](const task &elem, const type_info *info) {
                for (auto &&access : elem.resources) {
                    if (*access.info == *info) {
                        return access.read_only ? 1 : 2;
                    }
                }

                return 0;
            });
        }

        // every task uses the registry; it is the one resource a raw task is known to touch
        link(nullptr, [](const task &elem, const type_info *) { return elem.writes_registry ? 2 : 1; });

        // transitive reduction: drop i -> j when j is reachable from another child of i
        std::vector<std::vector<bool>> reach(length, std::vector<bool>(length, false));

        for (std::size_t from = length; from; --from) {
            const auto curr = from - 1u;

            for (std::size_t next = curr + 1u; next < length; ++next) {
                if (adjacency[curr][next]) {
                    reach[curr][next] = true;

                    for (std::size_t pos = next + 1u; pos < length; ++pos) {
                        if (reach[next][pos]) {
                            reach[curr][pos] = true;
                        }
                    }
                }
            }
        }

        std::vector<vertex> result(length);

        for (std::size_t curr{}; curr < length; ++curr) {
            result[curr].node = tasks[curr];

            for (std::size_t next = curr + 1u; next < length; ++next) {
                if (adjacency[curr][next]) {
                    bool redundant = false;

                    for (std::size_t other = curr + 1u; other < next && !redundant; ++other) {
                        redundant = adjacency[curr][other] && reach[other][next];
                    }

                    if (!redundant) {
                        result[curr].out.push_back(next);
                        result[next].in.push_back(curr);
                    }
                }
            }
        }

        return result;
    }

    /// Forgets every task.
    void clear() { tasks.clear(); }

private:
    std::vector<task> tasks{};
};

} // namespace tessera

#endif
