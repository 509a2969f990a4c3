// A type-erased value with a small buffer, which can also alias an object it does not own.
#ifndef TESSERA_CORE_ANY_HPP
#define TESSERA_CORE_ANY_HPP

#include "../config/config.hpp"
#include "../config/std_parts.hpp"
#include "fwd.hpp"
#include "type_info.hpp"
#include "type_traits.hpp"
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace tessera {

/// How a basic_any holds its value.
enum class any_policy : std::uint8_t {
    /// No value.
    empty,
    /// Owned, allocated on the heap.
    dynamic,
    /// Owned, stored inside the any.
    embedded,
    /// Not owned: an alias of a non-const object.
    ref,
    /// Not owned: an alias of a const object.
    cref
};

/// A type-erased value. Small values that can be moved without throwing live inside the object; the others go
/// on the heap. With `Len == 0` every value is on the heap and its address never changes.
template<std::size_t Len, std::size_t Align>
class basic_any {
    static_assert(Align != 0u && (Align & (Align - 1u)) == 0u, "basic_any: the alignment must be a power of two");

    // Everything the any needs to know about the type it erased, one table per type.
    struct vtable_type {
        const type_info &(*info)() noexcept;
        // Destroys the owned value of `self`.
        void (*destroy)(basic_any &self) noexcept;
        // Builds an owned copy of `*from` into the empty `to`; null if the type cannot be copied.
        void (*copy)(basic_any &to, const void *from);
        // Moves the embedded value of `from` into the empty `to` and destroys the source.
        void (*relocate)(basic_any &to, basic_any &from) noexcept;
        bool (*equal)(const void *lhs, const void *rhs) noexcept;
        // Assign `*from` to `*to`; null if the type does not support the operation.
        void (*copy_assign)(void *to, const void *from);
        void (*move_assign)(void *to, void *from);
    };

    template<typename Type>
    static constexpr bool fits_in_buffer = Len != 0u && sizeof(Type) <= Len &&
                                           alignof(Type) <= Align &&std::is_nothrow_move_constructible_v<Type>;

    template<typename Type>
    struct handler {
        static const Type *get(const basic_any &self) noexcept { return static_cast<const Type *>(self.data()); }

        static Type *get(basic_any &self) noexcept {
            return static_cast<Type *>(const_cast<void *>(std::as_const(self).data()));
        }

        // An adopted pointer (see the std::in_place constructor) makes even a small value dynamic.
        static void destroy(basic_any &self) noexcept {
            if constexpr (std::is_array_v<Type>) {
                delete[] static_cast<std::remove_extent_t<Type> *>(const_cast<void *>(self.data()));
            } else if (self.mode == any_policy::embedded) {
                std::destroy_at(get(self));
            } else {
                delete get(self);
            }
        }

        static void copy(basic_any &to, const void *from) {
            to.template construct<Type>(*static_cast<const Type *>(from));
        }

        static void relocate(basic_any &to, basic_any &from) noexcept {
            if constexpr (fits_in_buffer<Type>) {
                ::new (static_cast<void *>(to.buffer.storage)) Type(std::move(*get(from)));
                std::destroy_at(get(from));
            }
        }

        static bool equal(const void *lhs, const void *rhs) noexcept {
            if constexpr (is_equality_comparable_v<Type>) {
                return *static_cast<const Type *>(lhs) == *static_cast<const Type *>(rhs);
            } else {
                return lhs == rhs;
            }
        }

        static void copy_assign(void *to, const void *from) {
            *static_cast<Type *>(to) = *static_cast<const Type *>(from);
        }

        static void move_assign(void *to, void *from) {
            *static_cast<Type *>(to) = std::move(*static_cast<Type *>(from));
        }

        // Taking the address of an operation instantiates it, so the ones the type cannot do stay null.
        static constexpr vtable_type make_vtable() noexcept {
            vtable_type table{&type_id<Type>, &destroy, nullptr, &relocate, &equal, nullptr, nullptr};
            if constexpr (internal::is_copy_constructible_v<Type>) {
                table.copy = &copy;
            }
            if constexpr (internal::is_copy_assignable_v<Type>) {
                table.copy_assign = &copy_assign;
            }
            if constexpr (std::is_move_assignable_v<Type>) {
                table.move_assign = &move_assign;
            }
            return table;
        }

        static constexpr vtable_type vtable = make_vtable();
    };

    // Builds an owned value into an empty any. The policy is set last, so a throwing constructor leaves the
    // any empty and nothing allocated.
    template<typename Type, typename... Args>
    void construct(Args &&...args) {
        static_assert(std::is_object_v<Type>, "basic_any: can only own object types");
        if constexpr (std::is_array_v<Type>) {
            static_assert(sizeof...(Args) == 0u && std::extent_v<Type> != 0u,
                          "basic_any: an array of known bound is built value-initialized, without arguments");
            buffer.instance = new Type();
            mode = any_policy::dynamic;
        } else if constexpr (fits_in_buffer<Type>) {
            if constexpr (std::is_aggregate_v<Type> &&
                          (sizeof...(Args) != 0u || !std::is_default_constructible_v<Type>)) {
                ::new (static_cast<void *>(buffer.storage)) Type{std::forward<Args>(args)...};
            } else {
                ::new (static_cast<void *>(buffer.storage)) Type(std::forward<Args>(args)...);
            }
            mode = any_policy::embedded;
        } else {
            if constexpr (std::is_aggregate_v<Type> &&
                          (sizeof...(Args) != 0u || !std::is_default_constructible_v<Type>)) {
                buffer.instance = new Type{std::forward<Args>(args)...};
            } else {
                buffer.instance = new Type(std::forward<Args>(args)...);
            }
            mode = any_policy::dynamic;
        }
        vtable = &handler<Type>::vtable;
    }

    template<typename Type, typename... Args>
    void initialize(Args &&...args) {
        if constexpr (std::is_void_v<Type>) {
            static_assert(sizeof...(Args) == 0u, "basic_any: an empty any takes no arguments");
        } else if constexpr (std::is_lvalue_reference_v<Type>) {
            static_assert(sizeof...(Args) == 1u && (std::is_lvalue_reference_v<Args> && ...),
                          "basic_any: an alias is built from exactly one lvalue");
            using referenced = std::remove_reference_t<Type>;
            // Binding to Type first rejects aliases that would drop a const.
            referenced &target = (std::forward<Args>(args), ...);
            buffer.instance = std::addressof(target);
            mode = std::is_const_v<referenced> ? any_policy::cref : any_policy::ref;
            vtable = &handler<std::remove_cv_t<referenced>>::vtable;
        } else {
            construct<std::remove_cv_t<Type>>(std::forward<Args>(args)...);
        }
    }

    // Takes over the value of `other`, which ends up empty.
    void take(basic_any &other) noexcept {
        if (other.mode == any_policy::embedded) {
            other.vtable->relocate(*this, other);
        } else {
            buffer.instance = other.buffer.instance;
        }
        vtable = std::exchange(other.vtable, nullptr);
        mode = std::exchange(other.mode, any_policy::empty);
        other.buffer.instance = nullptr;
    }

public:
    /// Size of the internal buffer.
    static constexpr auto length = Len;
    /// Alignment of the internal buffer.
    static constexpr auto alignment = Align;

    /// An empty any.
    constexpr basic_any() noexcept = default;

    /// Builds a `Type` from the arguments. With `Type = T &` or `const T &` the any aliases its only argument.
    template<typename Type, typename... Args>
    explicit basic_any(std::in_place_type_t<Type>, Args &&...args) {
        initialize<Type>(std::forward<Args>(args)...);
    }

    /// Takes ownership of `*value`, which must come from `new Type` (it is released with `delete`); a null
    /// pointer gives an empty any.
    template<typename Type>
    requires(!std::is_const_v<Type> && !std::is_void_v<Type>) explicit basic_any(std::in_place_t, Type *value) {
        if (value != nullptr) {
            buffer.instance = value;
            vtable = &handler<Type>::vtable;
            mode = any_policy::dynamic;
        }
    }

    /// Owns a copy of, or the moved, value.
    template<typename Type>
    requires(!std::is_same_v<std::decay_t<Type>, basic_any>) basic_any(Type &&value) {
        initialize<std::decay_t<Type>>(std::forward<Type>(value));
    }

    /// An owned copy of the value of `other` (also when `other` is an alias), or an empty any if the value
    /// cannot be copied.
    basic_any(const basic_any &other) {
        if (other.vtable != nullptr && other.vtable->copy != nullptr) {
            other.vtable->copy(*this, other.data());
        }
    }

    /// Takes over the value of `other`, which is left empty.
    basic_any(basic_any &&other) noexcept { take(other); }

    /// Destroys the owned value, if any.
    ~basic_any() { reset(); }

    /// Replaces the value with a copy of the value of `other`. If the copy throws, the any is unchanged.
    basic_any &operator=(const basic_any &other) {
        if (this != &other) {
            basic_any copy{other};
            reset();
            take(copy);
        }
        return *this;
    }

    /// Takes over the value of `other`, which is left empty.
    basic_any &operator=(basic_any &&other) noexcept {
        if (this != &other) {
            reset();
            take(other);
        }
        return *this;
    }

    /// Replaces the value with an owned copy of, or the moved, value.
    template<typename Type>
    requires(!std::is_same_v<std::decay_t<Type>, basic_any>) basic_any &operator=(Type &&value) {
        emplace<std::decay_t<Type>>(std::forward<Type>(value));
        return *this;
    }

    /// Whether there is a value.
    [[nodiscard]] bool has_value() const noexcept { return vtable != nullptr; }

    /// Whether there is a value of the type described by `req`.
    [[nodiscard]] bool has_value(const type_info &req) const noexcept { return vtable != nullptr && info() == req; }

    /// Whether there is a value of type `Type`.
    template<cvref_unqualified Type>
    [[nodiscard]] bool has_value() const noexcept {
        return has_value(type_id<Type>());
    }

    /// Whether there is a value.
    [[nodiscard]] explicit operator bool() const noexcept { return has_value(); }

    /// The type of the value; `type_id<void>()` if empty.
    [[nodiscard]] const type_info &info() const noexcept {
        return vtable != nullptr ? vtable->info() : type_id<void>();
    }

    /// Address of the value, or null if empty.
    [[nodiscard]] const void *data() const noexcept {
        return mode == any_policy::embedded ? static_cast<const void *>(buffer.storage) : buffer.instance;
    }

    /// Address of the value, or null if empty or a const alias.
    [[nodiscard]] void *data() noexcept {
        return mode == any_policy::cref ? nullptr : const_cast<void *>(std::as_const(*this).data());
    }

    /// Address of the value if its type is the one described by `req`, null otherwise.
    [[nodiscard]] const void *data(const type_info &req) const noexcept { return has_value(req) ? data() : nullptr; }

    /// Address of the value if its type is the one described by `req` and it may be modified, null otherwise.
    [[nodiscard]] void *data(const type_info &req) noexcept { return has_value(req) ? data() : nullptr; }

    /// Address of the value if it is a `Type`, null otherwise.
    template<typename Type>
    [[nodiscard]] const Type *data() const noexcept {
        return info() == type_id<Type>() ? static_cast<const Type *>(data()) : nullptr;
    }

    /// Address of the value if it is a `Type` and may be modified, null otherwise.
    template<typename Type>
    [[nodiscard]] Type *data() noexcept {
        const auto *const found = std::as_const(*this).template data<std::remove_const_t<Type>>();
        if constexpr (std::is_const_v<Type>) {
            return found;
        } else {
            // A const alias hands out its value for reading only.
            return mode == any_policy::cref ? nullptr : const_cast<Type *>(found);
        }
    }

    /// Replaces the value with a `Type` built from the arguments, which may refer to the current value. If the
    /// construction throws, the any is unchanged.
    template<typename Type, typename... Args>
    void emplace(Args &&...args) {
        basic_any replacement{std::in_place_type<Type>, std::forward<Args>(args)...};
        reset();
        take(replacement);
    }

    /// Copy-assigns the value of `other` to the value held, if both have the same type and the value held may
    /// be modified. Returns whether it happened.
    bool assign(const basic_any &other) {
        if (vtable == nullptr || mode == any_policy::cref || vtable->copy_assign == nullptr || info() != other.info()) {
            return false;
        }
        vtable->copy_assign(data(), other.data());
        return true;
    }

    /// Like the copy version, but moves from `other` when `other` owns its value.
    bool assign(basic_any &&other) {
        if (other.owner() && vtable != nullptr && vtable->move_assign != nullptr && mode != any_policy::cref &&
            info() == other.info()) {
            vtable->move_assign(data(), other.data());
            return true;
        }
        return assign(std::as_const(other));
    }

    /// Destroys the owned value, if any, and leaves the any empty.
    void reset() {
        if (owner()) {
            vtable->destroy(*this);
        }
        buffer.instance = nullptr;
        vtable = nullptr;
        mode = any_policy::empty;
    }

    /// Same type and equal values; types that cannot be compared are equal only to themselves (same address).
    [[nodiscard]] bool operator==(const basic_any &other) const noexcept {
        if (vtable == nullptr || other.vtable == nullptr) {
            return vtable == other.vtable;
        }
        return info() == other.info() && vtable->equal(data(), other.data());
    }

    /// An alias of the value; a const alias if this is itself a const alias.
    [[nodiscard]] basic_any as_ref() noexcept {
        basic_any alias{};
        if (vtable != nullptr) {
            alias.buffer.instance = std::as_const(*this).data();
            alias.vtable = vtable;
            alias.mode = mode == any_policy::cref ? any_policy::cref : any_policy::ref;
        }
        return alias;
    }

    /// A const alias of the value.
    [[nodiscard]] basic_any as_ref() const noexcept {
        basic_any alias{};
        if (vtable != nullptr) {
            alias.buffer.instance = data();
            alias.vtable = vtable;
            alias.mode = any_policy::cref;
        }
        return alias;
    }

    /// Whether the any owns its value (false when empty).
    [[nodiscard]] bool owner() const noexcept { return mode == any_policy::embedded || mode == any_policy::dynamic; }

    /// How the value is held.
    [[nodiscard]] any_policy policy() const noexcept { return mode; }

private:
    // A named union, so that every constructor visibly initializes it (the pointer; the bytes are written by the
    // placement new of an embedded value).
    union buffer_type {
        const void *instance;
        alignas(Align) std::byte storage[Len + static_cast<std::size_t>(Len == 0u)];
    };

    buffer_type buffer{nullptr};
    const vtable_type *vtable{};
    any_policy mode{any_policy::empty};
};

/// The value of an any as `Type` (a copy, or a reference with `const T &`). Misuse if the any holds another
/// type. A const any gives no non-const reference.
template<typename Type, std::size_t Len, std::size_t Align>
[[nodiscard]] Type any_cast(const basic_any<Len, Align> &data) {
    using value_type = std::remove_cvref_t<Type>;
    static_assert(!std::is_reference_v<Type> || std::is_const_v<std::remove_reference_t<Type>>,
                  "any_cast: a const any gives only copies or const references; cast to T or const T &");
    const auto *const instance = data.template data<value_type>();
    TESSERA_ASSERT(instance != nullptr, "any_cast: the any does not hold this type");
    return static_cast<Type>(*instance);
}

/// The value of an any as `Type`. Misuse if the any holds another type, or if a non-const reference is asked
/// of a const alias.
template<typename Type, std::size_t Len, std::size_t Align>
[[nodiscard]] Type any_cast(basic_any<Len, Align> &data) {
    using value_type = std::remove_cvref_t<Type>;
    if constexpr (std::is_reference_v<Type> && !std::is_const_v<std::remove_reference_t<Type>>) {
        auto *const instance = data.template data<value_type>();
        TESSERA_ASSERT(instance != nullptr || std::as_const(data).template data<value_type>() == nullptr,
                       "any_cast: the any is a const alias; ask for a const reference or a copy");
        TESSERA_ASSERT(instance != nullptr, "any_cast: the any does not hold this type");
        return static_cast<Type>(*instance);
    } else {
        return any_cast<Type>(std::as_const(data));
    }
}

/// The value of an any as `Type`. An owned value is moved out; an alias is copied, unless the type can only
/// be moved. Misuse if the any holds another type.
template<typename Type, std::size_t Len, std::size_t Align>
[[nodiscard]] Type any_cast(basic_any<Len, Align> &&data) {
    using value_type = std::remove_cvref_t<Type>;
    if constexpr (std::is_lvalue_reference_v<Type>) {
        return any_cast<Type>(data);
    } else if constexpr (internal::is_copy_constructible_v<value_type> && !std::is_rvalue_reference_v<Type>) {
        if (auto *const instance = data.template data<value_type>(); instance != nullptr && data.owner()) {
            return static_cast<Type>(std::move(*instance));
        }
        return any_cast<Type>(std::as_const(data));
    } else {
        auto *const instance = data.template data<value_type>();
        TESSERA_ASSERT(instance != nullptr || std::as_const(data).template data<value_type>() == nullptr,
                       "any_cast: the any is a const alias; ask for a const reference or a copy");
        TESSERA_ASSERT(instance != nullptr, "any_cast: the any does not hold this type");
        return static_cast<Type>(std::move(*instance));
    }
}

/// Address of the value if it is a `Type`, null otherwise (also for a null argument).
template<typename Type, std::size_t Len, std::size_t Align>
[[nodiscard]] const Type *any_cast(const basic_any<Len, Align> *data) noexcept {
    return data != nullptr ? data->template data<Type>() : nullptr;
}

/// Address of the value if it is a `Type` that may be modified, null otherwise (also for a const alias).
template<typename Type, std::size_t Len, std::size_t Align>
[[nodiscard]] Type *any_cast(basic_any<Len, Align> *data) noexcept {
    return data != nullptr ? data->template data<Type>() : nullptr;
}

/// An any that holds a `Type` built from the arguments (an alias with `Type = T &` or `const T &`).
template<typename Type, std::size_t Len = basic_any<>::length, std::size_t Align = basic_any<Len>::alignment,
         typename... Args>
[[nodiscard]] basic_any<Len, Align> make_any(Args &&...args) {
    basic_any<Len, Align> made(std::in_place_type<Type>, std::forward<Args>(args)...);
    return made;
}

/// An any for a value: an lvalue gives an alias (a const alias for a const lvalue), an rvalue an owned value.
template<std::size_t Len = basic_any<>::length, std::size_t Align = basic_any<Len>::alignment, typename Type>
[[nodiscard]] basic_any<Len, Align> forward_as_any(Type &&value) {
    return basic_any<Len, Align>{std::in_place_type<Type>, std::forward<Type>(value)};
}

} // namespace tessera

#endif
