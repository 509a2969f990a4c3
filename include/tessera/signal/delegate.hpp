// delegate: a two-pointer, non-owning callable that binds functions, members and curried payloads.
#ifndef TESSERA_SIGNAL_DELEGATE_HPP
#define TESSERA_SIGNAL_DELEGATE_HPP

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "fwd.hpp"

namespace tessera {

namespace internal {

/// Which call arguments a candidate receives: `count` of them, starting at `offset`.
struct argument_slice {
    /// Index of the first call argument passed on.
    std::size_t offset{};
    /// Number of call arguments passed on.
    std::size_t count{};
    /// False when no slice makes the candidate callable.
    bool found{};
};

/// Whether Callable, given the curried Bound... first, accepts the arguments [Offset, Offset + N) of Tuple.
template<typename Ret, typename Callable, typename Tuple, std::size_t Offset, typename... Bound, std::size_t... Index>
consteval bool slice_fits(std::index_sequence<Index...>) {
    return std::is_invocable_r_v<Ret, Callable, Bound..., std::tuple_element_t<Offset + Index, Tuple>...>;
}

/// Finds the widest slice a candidate accepts, preferring leading over trailing arguments. A function
/// pointer has a fixed arity, so scanning from the widest slice down picks exactly "first N, else last N".
template<typename Ret, typename Callable, typename Tuple, std::size_t Count, typename... Bound>
consteval argument_slice pick_slice() {
    constexpr std::size_t total = std::tuple_size_v<Tuple>;
    if constexpr (slice_fits<Ret, Callable, Tuple, 0u, Bound...>(std::make_index_sequence<Count>{})) {
        return {0u, Count, true};
    } else if constexpr (slice_fits<Ret, Callable, Tuple, total - Count, Bound...>(std::make_index_sequence<Count>{})) {
        return {total - Count, Count, true};
    } else if constexpr (Count == 0u) {
        return {};
    } else {
        return pick_slice<Ret, Callable, Tuple, Count - 1u, Bound...>();
    }
}

/// Turns a stored payload back into what the candidate expects: a reference (Bound is Type &) or a pointer.
template<typename Bound>
[[nodiscard]] Bound unpack_payload(const void *payload) noexcept {
    using instance_type = std::remove_pointer_t<std::remove_reference_t<Bound>>;
    // The payload was taken from a Type & or Type *, so restoring its constness is sound.
    auto *instance = static_cast<instance_type *>(const_cast<void *>(payload));
    if constexpr (std::is_pointer_v<Bound>) {
        return instance;
    } else {
        return *instance;
    }
}

/// std::invoke that drops the result when Ret is void, so listeners may return anything.
template<typename Ret, typename... Type>
Ret invoke_as(Type &&...value) {
    if constexpr (std::is_void_v<Ret>) {
        static_cast<void>(tessera::internal::invoke(std::forward<Type>(value)...));
    } else {
        return tessera::internal::invoke(std::forward<Type>(value)...);
    }
}

/// Whether an argument forwarded as Type && can be bound: an lvalue, or a pointer (even a temporary one).
template<typename Type>
inline constexpr bool lasting_instance =
    std::is_lvalue_reference_v<Type> || std::is_pointer_v<std::remove_reference_t<Type>>;

/// Builds Ret(Rest...) out of a parameter list, dropping its first (curried) element.
template<typename Ret, typename First, typename... Rest>
struct drop_first_parameter {
    /// The signature without the curried parameter.
    using type = Ret(Rest...);
};

/// Function types deduced by the delegate's deduction guides, per kind of candidate.
template<typename>
struct candidate_signature;

/// Free functions: unbound they keep their signature; bound, the payload parameter disappears.
template<typename Ret, typename... Params, bool Noexcept>
struct candidate_signature<Ret (*)(Params...) noexcept(Noexcept)> {
    /// Signature when nothing is curried.
    using unbound_type = Ret(Params...);
    /// Signature when a payload is curried as first argument.
    template<typename>
    using bound_type = typename drop_first_parameter<Ret, Params...>::type;
};

// Member functions: unbound, the object becomes the first parameter with the member's qualifiers.
#define TESSERA_INTERNAL_MEMBER_SIGNATURE(Qualifiers, Object)                                                          \
    template<typename Ret, typename Class, typename... Params, bool Noexcept>                                          \
    struct candidate_signature<Ret (Class::*)(Params...) Qualifiers noexcept(Noexcept)> {                              \
        using unbound_type = Ret(Object, Params...);                                                                   \
        template<typename>                                                                                             \
        using bound_type = Ret(Params...);                                                                             \
    };

TESSERA_INTERNAL_MEMBER_SIGNATURE(, Class &)
TESSERA_INTERNAL_MEMBER_SIGNATURE(const, const Class &)
TESSERA_INTERNAL_MEMBER_SIGNATURE(&, Class &)
TESSERA_INTERNAL_MEMBER_SIGNATURE(const &, const Class &)
TESSERA_INTERNAL_MEMBER_SIGNATURE(&&, Class &&)
TESSERA_INTERNAL_MEMBER_SIGNATURE(const &&, const Class &&)

#undef TESSERA_INTERNAL_MEMBER_SIGNATURE

/// Data members are read. Unbound, from a const object passed first; bound to an instance, the delegate returns a
/// copy of the member, typed as the member is declared (as EnTT deduces it).
template<typename Type, typename Class>
requires(!std::is_function_v<Type>) struct candidate_signature<Type Class::*> {
    /// Signature when nothing is curried.
    using unbound_type = const Type &(const Class &);
    /// Signature when an instance is curried.
    template<typename>
    using bound_type = Type();
};

} // namespace internal

/// Primary template, left undefined: a delegate is always declared with a function type.
template<typename>
class delegate;

/// A non-owning callable: a thunk generated per candidate plus an optional instance or payload. It never
/// allocates and never calls through a virtual table, which keeps signal publication cheap.
template<typename Ret, typename... Args>
class delegate<Ret(Args...)> {
    using arguments = std::tuple<Args...>;

    template<auto Candidate, typename... Bound>
    static constexpr internal::argument_slice
        slice_for = internal::pick_slice<Ret, decltype(Candidate), arguments, sizeof...(Args), Bound...>();

    // Bound is empty (nothing curried), Type & (the payload is an instance) or Type * (passed as a pointer).
    template<auto Candidate, typename... Bound>
    static Ret thunk([[maybe_unused]] const void *payload, Args... args) {
        constexpr internal::argument_slice slice = slice_for<Candidate, Bound...>;
        [[maybe_unused]] auto forwarded = std::forward_as_tuple(std::forward<Args>(args)...);
        return [&]<std::size_t... Index>(std::index_sequence<Index...>)->Ret {
            return internal::invoke_as<Ret>(Candidate, internal::unpack_payload<Bound>(payload)...,
                                            std::forward<std::tuple_element_t<slice.offset + Index, arguments>>(
                                                std::get<slice.offset + Index>(forwarded))...);
        }
        (std::make_index_sequence<slice.count>{});
    }

    template<auto Candidate, typename Type>
    static constexpr bool bindable = slice_for<Candidate, const Type &>.found || slice_for<Candidate, Type &>.found ||
                                     slice_for<Candidate, const Type *>.found || slice_for<Candidate, Type *>.found;

    // The weakest access that works becomes the canonical form, so that connecting through obj, &obj or
    // std::as_const(obj) yields equal delegates and any of them can disconnect the others. Member pointers
    // never care about the form; the pointer forms only serve free functions that want a pointer.
    template<auto Candidate, typename Type>
    void bind(Type *value_or_instance) noexcept {
        if constexpr (slice_for<Candidate, const Type &>.found) {
            entry = &thunk<Candidate, const Type &>;
        } else if constexpr (slice_for<Candidate, Type &>.found) {
            entry = &thunk<Candidate, Type &>;
        } else if constexpr (slice_for<Candidate, const Type *>.found) {
            entry = &thunk<Candidate, const Type *>;
        } else {
            entry = &thunk<Candidate, Type *>;
        }
        bound = value_or_instance;
    }

public:
    /// The stored thunk: receives the instance or payload first, then the call arguments.
    using function_type = Ret(const void *, Args...);
    /// The signature of the delegate.
    using type = Ret(Args...);
    /// What a call returns.
    using result_type = Ret;

    /// An empty delegate; calling it is a misuse.
    delegate() noexcept = default;

    /// A delegate already connected to Candidate, with at most one instance or payload.
    template<auto Candidate, typename... Type>
    delegate(connect_arg_t<Candidate>, Type &&...value_or_instance) noexcept {
        static_assert(sizeof...(Type) <= 1u, "delegate: at most one instance or payload can be bound");
        // The delegate stores only an address, so a temporary instance would dangle at once.
        static_assert((internal::lasting_instance<Type> && ...),
                      "delegate: the instance must be an lvalue or a pointer");
        connect<Candidate>(value_or_instance...);
    }

    /// A delegate over a user-provided thunk and its payload.
    delegate(function_type *function, const void *payload = nullptr) noexcept { connect(function, payload); }

    /// Binds a free function, or a member (function or data) whose object comes as the first call argument.
    /// Candidates that no slice of the arguments can call are rejected by the constraint.
    template<auto Candidate>
    requires(slice_for<Candidate>.found) void connect() noexcept {
        bound = nullptr;
        entry = &thunk<Candidate>;
    }

    /// Binds a member of value_or_instance, or a free function taking it as its first parameter. A const
    /// instance only admits const members.
    template<auto Candidate, typename Type>
    requires(bindable<Candidate, Type>) void connect(Type &value_or_instance) noexcept {
        bind<Candidate, Type>(std::addressof(value_or_instance));
    }

    /// Same as the reference overload; the delegate does not keep the pointee alive.
    template<auto Candidate, typename Type>
    requires(bindable<Candidate, Type>) void connect(Type *value_or_instance) noexcept {
        bind<Candidate, Type>(value_or_instance);
    }

    /// Binds a user-provided thunk, which receives payload as its first argument.
    void connect(function_type *function, const void *payload = nullptr) noexcept {
        entry = function;
        bound = payload;
    }

    /// Makes the delegate empty.
    void reset() noexcept { *this = delegate{}; }

    /// The stored thunk, nullptr when empty.
    [[nodiscard]] function_type *target() const noexcept { return entry; }

    /// The bound instance or payload, nullptr if there is none.
    [[nodiscard]] const void *data() const noexcept { return bound; }

    /// Calls the bound candidate; the delegate must not be empty.
    Ret operator()(Args... args) const {
        TESSERA_ASSERT(entry != nullptr, "delegate: calling an empty delegate");
        return entry(bound, std::forward<Args>(args)...);
    }

    /// True if a candidate is bound.
    [[nodiscard]] explicit operator bool() const noexcept { return entry != nullptr; }

    /// Two delegates are equal when they share the thunk (hence the candidate) and the instance or payload.
    [[nodiscard]] bool operator==(const delegate &other) const noexcept {
        return entry == other.entry && bound == other.bound;
    }

private:
    function_type *entry{nullptr};
    const void *bound{nullptr};
};

/// Deduces the signature of an unbound candidate.
template<auto Candidate>
delegate(connect_arg_t<Candidate>)
    -> delegate<typename internal::candidate_signature<decltype(Candidate)>::unbound_type>;

/// Deduces the signature of a candidate curried with an instance or payload.
template<auto Candidate, typename Type>
delegate(connect_arg_t<Candidate>, Type &&) -> delegate<typename internal::candidate_signature<
    decltype(Candidate)>::template bound_type<std::remove_pointer_t<std::remove_reference_t<Type>>>>;

/// Deduces the signature from a user-provided thunk.
template<typename Ret, typename... Args>
delegate(Ret (*)(const void *, Args...), const void * = nullptr) -> delegate<Ret(Args...)>;

} // namespace tessera

#endif
