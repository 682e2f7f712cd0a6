#pragma once
// An optional time in seconds (epoch seconds, or a span) in 8 bytes: std::optional<double> takes
// 16, and every lease carries a dozen of them in the rows, the tracker and the history (at 100 000
// leases, megabytes resident). NaN is "none": no column or difference the console reads is NaN.
// It reads like std::optional<double>, and converts to and from it.
#include <compare>
#include <limits>
#include <optional>

namespace lw {

class Seconds
{
public:
    constexpr Seconds() = default;
    constexpr Seconds(std::nullopt_t) {}
    constexpr Seconds(double v) : v_(v) {}
    constexpr Seconds(const std::optional<double>& o) : v_(o ? *o : kNone) {}
    constexpr operator std::optional<double>() const
    {
        return has_value() ? std::optional<double>(v_) : std::nullopt;
    }

    constexpr bool has_value() const { return v_ == v_; }
    constexpr explicit operator bool() const { return has_value(); }
    constexpr double operator*() const { return v_; }
    constexpr double value() const { return v_; }
    constexpr double value_or(double other) const { return has_value() ? v_ : other; }
    constexpr void reset() { v_ = kNone; }

    // As std::optional compares: none equals none, and is less than any value.
    friend constexpr bool operator==(Seconds a, Seconds b) { return (a <=> b) == 0; }
    friend constexpr std::partial_ordering operator<=>(Seconds a, Seconds b)
    {
        if (!a.has_value() || !b.has_value())
            return a.has_value() <=> b.has_value();
        return a.v_ <=> b.v_;
    }

private:
    static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    double v_ = kNone;
};

static_assert(sizeof(Seconds) == sizeof(double));

} // namespace lw
