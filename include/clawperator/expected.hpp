// A value or the reason there is none: the one errors-as-values type of the core, so that
// parsing untrusted input never throws across a module boundary and every failure keeps its
// evidence (std::expected is C++23). Expected<void, E> is a success without a value.
#pragma once

#include <type_traits>
#include <utility>
#include <variant>

namespace clawperator {

template <typename E>
struct Unexpected {
  // A constructor, not an aggregate: clang 14 has no C++20 parenthesized aggregate
  // initialization (Unexpected(message)). Implicit, as the aggregate was: `return {error};`.
  constexpr explicit(false) Unexpected(E value) : error(std::move(value)) {}

  E error;
};
template <typename E>
Unexpected(E) -> Unexpected<E>;

template <typename T, typename E>
class Expected {
 public:
  Expected(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  template <typename G>
  requires std::is_constructible_v<E, G> Expected(Unexpected<G> failure)
      : storage_(std::in_place_index<1>, std::move(failure.error)) {}

  bool has_value() const noexcept { return storage_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  // Preconditions: has_value() for value(), !has_value() for error().
  T& value() & { return std::get<0>(storage_); }
  const T& value() const& { return std::get<0>(storage_); }
  T&& value() && { return std::get<0>(std::move(storage_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  E& error() & { return std::get<1>(storage_); }
  const E& error() const& { return std::get<1>(storage_); }
  E&& error() && { return std::get<1>(std::move(storage_)); }

 private:
  std::variant<T, E> storage_;
};

template <typename E>
class Expected<void, E> {
 public:
  Expected() = default;
  template <typename G>
  requires std::is_constructible_v<E, G> Expected(Unexpected<G> failure)
      : failed_(true), error_(std::move(failure.error)) {}

  bool has_value() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return has_value(); }

  // Precondition: !has_value().
  E& error() & { return error_; }
  const E& error() const& { return error_; }
  E&& error() && { return std::move(error_); }

 private:
  bool failed_ = false;
  E error_{};
};

}  // namespace clawperator

// Propagation, for a function returning an Expected (or contract::Outcome/Status) whose error
// type can be made from the callee's: the error is returned unchanged, so the caller's code
// reads as its successful path. Where the error is transformed on the way, write it out.
// (Statement macros, not GNU statement expressions: the build is -Wpedantic.)
//
// CLAWPERATOR_TRY(f());  // f() returns an Expected<void, E> (a Status): its error, if any.
#define CLAWPERATOR_TRY(...)                                                        \
  do {                                                                              \
    if (auto clawperator_try_result_ = (__VA_ARGS__); !clawperator_try_result_) {   \
      return ::clawperator::Unexpected{std::move(clawperator_try_result_).error()}; \
    }                                                                               \
  } while (false)

// CLAWPERATOR_TRY_ASSIGN(Foo foo, read_foo());  // declares foo with the value, or returns the
// error. Expands to several statements: not the body of an unbraced if.
#define CLAWPERATOR_TRY_ASSIGN(declaration, ...) \
  CLAWPERATOR_TRY_ASSIGN_IMPL_(CLAWPERATOR_TRY_NAME_(__LINE__), declaration, __VA_ARGS__)
#define CLAWPERATOR_TRY_NAME_(line) CLAWPERATOR_TRY_NAME_IMPL_(line)
#define CLAWPERATOR_TRY_NAME_IMPL_(line) clawperator_try_result_##line
#define CLAWPERATOR_TRY_ASSIGN_IMPL_(result, declaration, ...)              \
  auto result = (__VA_ARGS__);                                              \
  if (!result) return ::clawperator::Unexpected{std::move(result).error()}; \
  declaration = std::move(result).value()
