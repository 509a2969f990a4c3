// Must not compile: json_value::to_json of a value with an opaque part (describe() would show it).
#include <functional>
#include <tessera/archive/json_value.hpp>

struct with_callback {
    int count{};
    std::function<void()> callback{};
};

int main() { return static_cast<int>(tessera::json_value::to_json(with_callback{}).size()); }
