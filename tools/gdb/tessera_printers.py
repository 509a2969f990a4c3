# gdb pretty-printers for tessera: identifiers, sparse sets and storages, registries, views, runtime views, groups
# and handles, plus the convenience functions $tessera_components and $tessera_pool. Load them with
#     source /path/to/share/tessera/gdb/tessera_printers.py
# or let a program that includes <tessera/entity/debugger.hpp> load them by itself (docs/debugging.md). The
# layout knowledge lives in tessera_layout.py, shared with the lldb formatters; this file adapts gdb's values.

import os
import sys

import gdb
import gdb.printing


def _import_layout():
    here = os.path.dirname(os.path.abspath(__file__))
    # installed: next to this file; in the source tree: tools/common
    for folder in (here, os.path.normpath(os.path.join(here, '..', 'common'))):
        if os.path.isfile(os.path.join(folder, 'tessera_layout.py')) and folder not in sys.path:
            sys.path.insert(0, folder)
    import tessera_layout
    return tessera_layout


layout = _import_layout()

_REFERENCES = (gdb.TYPE_CODE_REF, getattr(gdb, 'TYPE_CODE_RVALUE_REF', gdb.TYPE_CODE_REF))
_static_cache = {}


def _plain(value):
    if value.type.strip_typedefs().code in _REFERENCES:
        value = value.referenced_value()
    return value


class GdbNode(layout.Node):
    """A gdb.Value seen through the interface tessera_layout reads."""

    def __init__(self, value):
        self.value = _plain(value)

    def _type(self):
        return self.value.type.strip_typedefs().unqualified()

    def type_name(self):
        kind = self._type()
        return kind.tag or kind.name or str(kind)

    def is_pointer(self):
        return self._type().code == gdb.TYPE_CODE_PTR

    def pointer_value(self):
        return int(self.value)

    def deref(self):
        return GdbNode(self.value.dereference())

    def at(self, index):
        return GdbNode((self.value + index).dereference())

    def member(self, name):
        if self._type().code not in (gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION):
            return None
        try:
            return GdbNode(self.value[name])
        except gdb.error:
            return None

    def parts(self):
        kind = self._type()
        if kind.code == gdb.TYPE_CODE_ARRAY:
            low, high = kind.range()
            return [('[%d]' % pos, GdbNode(self.value[pos])) for pos in range(low, high + 1)]
        if kind.code != gdb.TYPE_CODE_STRUCT:
            return []
        out = []
        for field in kind.fields():
            if field.is_base_class:
                out.append((field.name, GdbNode(self.value.cast(field.type))))
            elif hasattr(field, 'bitpos') and field.name:
                out.append((field.name, GdbNode(self.value[field])))
        return out

    def to_int(self):
        return int(self.value)

    def size_of(self):
        return self._type().sizeof

    def read_string(self, length):
        return self.value.string(length=length, errors='replace')

    def dynamic(self):
        try:
            return GdbNode(self.value.cast(self.value.dynamic_type))
        except gdb.error:
            return self

    def static_int(self, type_name, member):
        key = (type_name, member)
        if key not in _static_cache:
            try:
                _static_cache[key] = int(gdb.parse_and_eval('%s::%s' % (type_name, member)))
            except gdb.error:
                _static_cache[key] = None
        return _static_cache[key]


class _SummaryPrinter(object):
    """A printer that shows one line computed by tessera_layout."""

    def __init__(self, value, summary):
        self.value = value
        self.summary = summary

    def to_string(self):
        try:
            return self.summary(GdbNode(self.value))
        except (gdb.error, gdb.MemoryError, ValueError, AttributeError) as error:
            return '<tessera: cannot read this value: %s>' % error


class PoolPrinter(object):
    """A sparse set or a storage: its summary, then its identifiers (with their elements, for storages) in packed
    order. In-place holes and released identifiers are left out."""

    def __init__(self, value):
        self.pool = layout.Pool(GdbNode(value))

    def to_string(self):
        return self.pool.summary()

    def display_hint(self):
        return 'map' if self.pool.has_elements() else 'array'

    def children(self):
        if self.pool.has_elements():
            page_size = self.pool.page_size()
            for pos in self.pool.positions():
                yield '[%d]' % pos, self.pool.entity(pos).value
                yield '[%d].value' % pos, self.pool.element(pos, page_size).value
        else:
            for pos in self.pool.positions():
                yield '[%d]' % pos, self.pool.entity(pos).value


class RegistryPrinter(object):
    """A registry: its counts, then the size of each pool by name."""

    def __init__(self, value):
        self.registry = layout.Registry(GdbNode(value))

    def to_string(self):
        return self.registry.summary()

    def children(self):
        for label, pool in self.registry.pools():
            yield label, gdb.Value(pool.in_use() if pool is not None else 0)


class _Subprinter(gdb.printing.SubPrettyPrinter):
    def __init__(self, name, pattern, make):
        super(_Subprinter, self).__init__(name)
        self.pattern = pattern
        self.make = make


def _summary(function):
    return lambda value: _SummaryPrinter(value, function)


class TesseraPrinter(gdb.printing.PrettyPrinter):
    """Dispatches on the type name; each kind can be turned off with `disable pretty-printer global tessera;KIND`."""

    def __init__(self):
        super(TesseraPrinter, self).__init__('tessera', [
            _Subprinter('entity', layout.ENTITY_TYPE, _summary(layout.entity_text)),
            _Subprinter('null', layout.NULL_TYPE, _summary(lambda node: 'null')),
            _Subprinter('tombstone', layout.TOMBSTONE_TYPE, _summary(lambda node: 'tombstone')),
            _Subprinter('pool', layout.POOL_TYPE, PoolPrinter),
            _Subprinter('registry', layout.REGISTRY_TYPE, RegistryPrinter),
            _Subprinter('view', layout.VIEW_TYPE, _summary(layout.view_summary)),
            _Subprinter('runtime_view', layout.RUNTIME_VIEW_TYPE, _summary(layout.runtime_view_summary)),
            _Subprinter('group', layout.GROUP_TYPE, _summary(layout.group_summary)),
            _Subprinter('handle', layout.HANDLE_TYPE, _summary(layout.handle_summary)),
        ])

    def __call__(self, value):
        kind = value.type.strip_typedefs()
        if kind.code in _REFERENCES:
            kind = kind.target().strip_typedefs()
        name = kind.unqualified().tag
        if not name:
            return None
        for printer in self.subprinters:
            if printer.enabled and printer.pattern.match(name):
                return printer.make(value)
        return None


class ComponentsFunction(gdb.Function):
    """$tessera_components(registry, entity): the names of the pools that contain the entity, read from memory (no
    call into the program, so it works on core files too)."""

    def __init__(self):
        super(ComponentsFunction, self).__init__('tessera_components')

    def invoke(self, registry, entity):
        names = layout.Registry(GdbNode(registry)).components(int(entity))
        return gdb.Value(', '.join(names))


class PoolFunction(gdb.Function):
    """$tessera_pool(registry, "name"): the pool with that label (as the registry printer shows it), with its own
    type, to print its elements."""

    def __init__(self):
        super(PoolFunction, self).__init__('tessera_pool')

    def invoke(self, registry, name):
        wanted = name.string()
        for label, pool in layout.Registry(GdbNode(registry)).pools():
            if pool is not None and label == wanted:
                return pool.node.value
        raise gdb.GdbError('tessera_pool: the registry has no pool called "%s"' % wanted)


def register(objfile=None):
    """Registers the printers for `objfile` (every object file when None) and defines the functions."""
    gdb.printing.register_pretty_printer(objfile, TesseraPrinter(), replace=True)
    ComponentsFunction()
    PoolFunction()


if __name__ == '__main__':
    # `source tessera_printers.py`: the printers apply to every object file
    register(None)
