#!/usr/bin/env python3
"""Usage: python3 test/support/unity_wrap.py test/<module>/<file>.cpp...

Lets a test file join its module's unity build (test/CMakeLists.txt, TESSERA_TEST_UNITY_BATCH): wraps the code after
its includes in `namespace { namespace unit_<its path> {`, so that its helpers cannot collide with another file's when
a batch of files compiles as one unit. Leaves alone, and names, the files that cannot be wrapped as they are: those
that specialize a template of another namespace or define macros (they stay units of their own, or need the wrapper
closed around those lines by hand). A file's `main` must stay outside the wrapper. Run clang-format afterwards."""
import pathlib
import re
import sys

UNWRAPPABLE = re.compile(r'^\s*template ?<>|^namespace tessera|(struct|class) tessera::|^#define', re.M)

for name in sys.argv[1:]:
    path = pathlib.Path(name)
    text = path.read_text()
    if re.search(r'^namespace unit_', text, re.M):
        continue
    if UNWRAPPABLE.search(text):
        print(f'{name}: left alone (specializes a template of another namespace or defines a macro)')
        continue
    lines = text.rstrip('\n').split('\n')
    # the wrapper opens after the last include, and after the #endif of a conditional include
    start = max((i for i, line in enumerate(lines) if re.match(r'#\s*include', line)), default=-1) + 1
    while start < len(lines) and re.match(r'\s*$|#\s*endif', lines[start]):
        start += 1
    unit = 'unit_' + re.sub(r'[^A-Za-z0-9]', '_', str(path).split('test/', 1)[1][:-len(path.suffix)])
    wrapped = lines[:start] + ['namespace {', f'namespace {unit} {{', ''] + lines[start:] + \
              ['', f'}} // namespace {unit}', '} // namespace']
    path.write_text('\n'.join(wrapped) + '\n')
