// libFuzzer target: the fuzzer's bytes choose the model interpreter's operations; any divergence between the
// registry and the model, failed assertion or sanitizer report is a crash.
#include "model/interpreter.hpp"
#include <cstddef>
#include <cstdint>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, const std::size_t size) {
    tessera_model::chooser source{std::span<const std::uint8_t>{data, size}};
    // a small population: short inputs reach crowded states, and checking the whole state stays cheap
    tessera_model::interpreter machine{source, 12u};
    // a bound keeps a long input from turning into a slow one
    machine.run(4096u);
    return 0;
}
