#!/usr/bin/env python3
"""Turns the C++ code blocks of the documentation into translation units.

Usage: extract_blocks.py OUTPUT_DIR PAGE_NAME=FILE.md ...

For every page it writes OUTPUT_DIR/<page>.cpp (all the blocks of the page, each in a namespace of
its own, plus a main() that runs block N when given N), OUTPUT_DIR/<page>_standalone_<n>.cpp for
blocks marked standalone, OUTPUT_DIR/<page>_needs_<n>.cpp for blocks that need an optional target
(`needs:`), any block marked `file:` as a header in OUTPUT_DIR/include, and OUTPUT_DIR/<page>.cmake
listing what CMake has to build and run. docs/README.md explains the markers.
"""

import pathlib
import re
import sys

MARKER = re.compile(r"^\s*<!--\s*(no-compile|standalone|continued|(?:file|needs):\s*(\S+))\s*-->\s*$")
MAIN = re.compile(r"\bint\s+main\s*\(\s*\)")


def blocks_of(text):
    """Yields (line number, marker, file name, code) for each ```cpp block."""
    lines = text.splitlines()
    i = 0
    previous = ""
    while i < len(lines):
        line = lines[i]
        if line.strip() == "```cpp":
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                sys.exit(f"unterminated ```cpp block at line {start}")
            match = MARKER.match(previous)
            marker = match.group(1).split(":")[0] if match else None
            name = match.group(2) if match else None
            yield start, marker, name, "\n".join(lines[start:j]) + "\n"
            i = j + 1
            previous = ""
            continue
        if line.strip():
            previous = line
        i += 1


def write_if_changed(path, content):
    if not path.exists() or path.read_text() != content:
        path.write_text(content)


def split_includes(code):
    """Separates the #include lines (hoisted to the top of the page's unit) from the rest."""
    includes, body = [], []
    for line in code.splitlines():
        if line.lstrip().startswith("#include"):
            includes.append(line.strip())
            line = ""  # keeps the #line numbering right
        body.append(line)
    return includes, "\n".join(body) + "\n"


def main():
    out = pathlib.Path(sys.argv[1])
    (out / "include").mkdir(parents=True, exist_ok=True)
    for argument in sys.argv[2:]:
        page, source = argument.split("=", 1)
        text = pathlib.Path(source).read_text()
        includes = ["#include <tessera/tessera.hpp>"]
        parts = []
        runnable = []
        standalone = []
        needs = []
        namespace = None
        for number, (line, marker, name, code) in enumerate(blocks_of(text), start=1):
            where = f"// {source}:{line} (block {number})"
            if marker == "no-compile":
                continue
            if marker == "file":
                write_if_changed(out / "include" / name, code)
                continue
            if marker == "standalone":
                unit = f"{page}_standalone_{number}.cpp"
                write_if_changed(out / unit, f"{where}\n#line {line + 1} \"{source}\"\n{code}")
                standalone.append((number, unit, bool(MAIN.search(code))))
                continue
            if marker == "needs":
                # a unit of its own, like a standalone block, that links the optional target tessera::<name>
                unit = f"{page}_needs_{number}.cpp"
                write_if_changed(out / unit, f"{where}\n#line {line + 1} \"{source}\"\n{code}")
                needs.append((number, unit, bool(MAIN.search(code)), name))
                continue
            block_includes, body = split_includes(code)
            includes += [i for i in block_includes if i not in includes]
            prefix, suffix = "", ""
            if body.lstrip().startswith("// fragment"):
                prefix = "[[maybe_unused]] void fragment() {\n[[maybe_unused]] tessera::registry registry;\n"
                suffix = "}\n"
            has_main = bool(MAIN.search(body))
            body = MAIN.sub("auto run()", body)
            if marker != "continued" or namespace is None:
                namespace = f"block_{number}"
            parts.append(f"{where}\nnamespace {namespace} {{\n{prefix}#line {line + 1} \"{source}\"\n{body}{suffix}}} // namespace {namespace}\n")
            if has_main:
                runnable.append((number, namespace))
        dispatch = "".join(
            f"    case {number}: return docs_page::call([] {{ return docs_page::{namespace}::run(); }});\n"
            for number, namespace in runnable)
        unit = ("// Generated from " + source + " by test/docs/extract_blocks.py: do not edit.\n"
                + "\n".join(includes) + "\n#include <cstdlib>\n#include <type_traits>\n\n"
                + "namespace docs_page {\n"
                + "template<typename Block>\nint call(Block block) {\n"
                + "    if constexpr(std::is_void_v<decltype(block())>) {\n        block();\n        return 0;\n"
                + "    } else {\n        return block();\n    }\n}\n\n"
                + "\n".join(parts)
                + "} // namespace docs_page\n\n"
                + "int main(int argc, char **argv) {\n"
                + "    switch(argc > 1 ? std::atoi(argv[1]) : 0) {\n" + dispatch
                + "    default: return argc > 1 ? 2 : 0;\n    }\n}\n")
        write_if_changed(out / f"{page}.cpp", unit)
        cmake = [f"set(docs_{page}_runnable {' '.join(str(n) for n, _ in runnable)})"]
        cmake.append(f"set(docs_{page}_standalone {' '.join(f'{n}:{u}:{int(m)}' for n, u, m in standalone)})")
        cmake.append(f"set(docs_{page}_needs {' '.join(f'{n}:{u}:{int(m)}:{t}' for n, u, m, t in needs)})")
        write_if_changed(out / f"{page}.cmake", "\n".join(cmake) + "\n")


if __name__ == "__main__":
    main()
