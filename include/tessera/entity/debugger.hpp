// Opt-in debugger support (it is not part of tessera/tessera.hpp):
// - on ELF platforms, a .debug_gdb_scripts entry that makes gdb load tessera's pretty-printers by itself;
// - the definition of registry::debug_components, the registry function a debugger calls (the registry declares
//   it), kept in the program even where nothing else calls it.
// Include it in one source file for the debugger, and in every source file that calls debug_components: the
// entries of several units merge. docs/debugging.md explains both.
#ifndef TESSERA_ENTITY_DEBUGGER_HPP
#define TESSERA_ENTITY_DEBUGGER_HPP

#include "fwd.hpp"
#include "pool_memory.hpp"
#include "registry.hpp"
#include <string>

// gdb runs the script of this entry when it loads the program (if the program's folder is in its auto-load
// safe-path). The script finds tessera_printers.py in the folder named by TESSERA_GDB_DIR (a string macro, or an
// environment variable of gdb), next to the program in ../share/tessera/gdb, or in the usual install prefixes.
// The "MS" flags let the linker merge the copies of this entry that several translation units bring.
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) && !defined(TESSERA_NO_GDB_SCRIPT)
#    ifdef TESSERA_GDB_DIR
#        define TESSERA_INTERNAL_GDB_DIR TESSERA_GDB_DIR
#    else
#        define TESSERA_INTERNAL_GDB_DIR ""
#    endif
#    define TESSERA_INTERNAL_GDB_LINE(text) ".ascii \"" text "\\n\"\n"
// clang-format off
asm(".pushsection \".debug_gdb_scripts\", \"MS\",@progbits,1\n"
    ".byte 4\n"
    TESSERA_INTERNAL_GDB_LINE("tessera-printers-loader")
    TESSERA_INTERNAL_GDB_LINE("import os, sys, gdb")
    TESSERA_INTERNAL_GDB_LINE("def _tessera_load_printers():")
    TESSERA_INTERNAL_GDB_LINE("    objfile = gdb.current_objfile()")
    TESSERA_INTERNAL_GDB_LINE("    folders = [os.environ.get('TESSERA_GDB_DIR', ''), '" TESSERA_INTERNAL_GDB_DIR "']")
    TESSERA_INTERNAL_GDB_LINE("    if objfile is not None and objfile.filename:")
    TESSERA_INTERNAL_GDB_LINE("        here = os.path.dirname(objfile.filename)")
    TESSERA_INTERNAL_GDB_LINE("        folders.append(os.path.join(here, '..', 'share', 'tessera', 'gdb'))")
    TESSERA_INTERNAL_GDB_LINE("    folders += ['/usr/local/share/tessera/gdb', '/usr/share/tessera/gdb']")
    TESSERA_INTERNAL_GDB_LINE("    for folder in folders:")
    TESSERA_INTERNAL_GDB_LINE("        if folder and os.path.isfile(os.path.join(folder, 'tessera_printers.py')):")
    TESSERA_INTERNAL_GDB_LINE("            if folder not in sys.path: sys.path.insert(0, folder)")
    TESSERA_INTERNAL_GDB_LINE("            import tessera_printers")
    TESSERA_INTERNAL_GDB_LINE("            tessera_printers.register(None)")
    TESSERA_INTERNAL_GDB_LINE("            return")
    TESSERA_INTERNAL_GDB_LINE("    gdb.write('tessera: tessera_printers.py not found; set TESSERA_GDB_DIR (docs/debugging.md)\\\\n')")
    TESSERA_INTERNAL_GDB_LINE("_tessera_load_printers()")
    ".byte 0\n"
    ".popsection\n");
// clang-format on
#    undef TESSERA_INTERNAL_GDB_LINE
#    undef TESSERA_INTERNAL_GDB_DIR
#endif

namespace tessera {

template<typename Entity, typename Allocator>
std::string basic_registry<Entity, Allocator>::debug_components(const entity_type entt) const {
    std::string out{};

    if (!valid(entt)) {
        return out.append("(not a valid entity)");
    }

    for (const auto &entry : pools) {
        if (entry.second->contains(entt)) {
            const auto &info = entry.second->info();
            out.append(out.empty() ? "" : ", ");
            internal::append_pool_name(out, info.name(), entry.first, entry.first != info.hash());
        }
    }

    return out;
}

/// Keeps the debugger entry points of Registry in the program: taking their addresses in a variable the compiler
/// must emit makes it emit the functions too. The default registry's are kept by including this header; for
/// another registry type, name `debugger_entry_points<YourRegistry>` once, e.g. in a static_cast<void>(...).
template<typename Registry>
[[gnu::used]] inline constexpr auto debugger_entry_points = &Registry::debug_components;

namespace internal {

/// The default registry's entry points, kept by including this header.
[[gnu::used]] inline constexpr auto default_debugger_entry_points = debugger_entry_points<registry>;

} // namespace internal

} // namespace tessera

#endif
