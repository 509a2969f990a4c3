# lldb formatters for tessera: summaries of identifiers, sparse sets and storages, registries, views, runtime views,
# groups and handles, and synthetic children for pools (their identifiers and elements) and registries (the size of
# each pool). Load them with
#     command script import /path/to/share/tessera/lldb/tessera_lldb.py
# (docs/debugging.md). The layout knowledge lives in tessera_layout.py, shared with the gdb printers; this file
# adapts lldb's values.

import os
import sys

import lldb


def _import_layout():
    here = os.path.dirname(os.path.abspath(__file__))
    # installed: next to this file; in the source tree: tools/common
    for folder in (here, os.path.normpath(os.path.join(here, '..', 'common'))):
        if os.path.isfile(os.path.join(folder, 'tessera_layout.py')) and folder not in sys.path:
            sys.path.insert(0, folder)
    import tessera_layout
    return tessera_layout


layout = _import_layout()

_static_cache = {}


def _plain(value):
    value = value.GetNonSyntheticValue()
    if value.GetType().IsReferenceType():
        value = value.Dereference().GetNonSyntheticValue()
    return value


class LldbNode(layout.Node):
    """An lldb.SBValue seen through the interface tessera_layout reads."""

    def __init__(self, value):
        self.value = _plain(value)

    def _type(self):
        return self.value.GetType().GetCanonicalType().GetUnqualifiedType()

    def type_name(self):
        return self._type().GetName()

    def is_pointer(self):
        return self._type().IsPointerType()

    def pointer_value(self):
        return self.value.GetValueAsUnsigned()

    def deref(self):
        return LldbNode(self.value.Dereference())

    def at(self, index):
        target = self._type().GetPointeeType()
        address = self.value.GetValueAsUnsigned() + index * target.GetByteSize()
        return LldbNode(self.value.CreateValueFromAddress('[%d]' % index, address, target))

    def member(self, name):
        found = self.value.GetChildMemberWithName(name)
        return LldbNode(found) if found.IsValid() else None

    def parts(self):
        out = []
        for pos in range(self.value.GetNumChildren()):
            child = self.value.GetChildAtIndex(pos)
            out.append((child.GetName(), LldbNode(child)))
        return out

    def to_int(self):
        return self.value.GetValueAsUnsigned()

    def size_of(self):
        return self._type().GetByteSize()

    def read_string(self, length):
        error = lldb.SBError()
        data = self.value.GetProcess().ReadMemory(self.value.GetValueAsUnsigned(), length, error)
        return data.decode('utf-8', 'replace') if error.Success() else ''

    def dynamic(self):
        found = self.value.GetDynamicValue(lldb.eDynamicDontRunTarget)
        return LldbNode(found) if found.IsValid() else self

    def dynamic_type_name(self):
        error = lldb.SBError()
        vtable = self.value.GetProcess().ReadPointerFromMemory(self.value.GetLoadAddress(), error)
        if error.Success():
            symbol = self.value.GetTarget().ResolveLoadAddress(vtable).GetSymbol()
            name = symbol.GetName() if symbol.IsValid() else None
            if name and name.startswith('vtable for '):
                return name[len('vtable for '):]
        return self.type_name()

    def static_int(self, type_name, member):
        key = (type_name, member)
        if key not in _static_cache:
            found = None
            # lldb may spell template arguments incompletely (std::allocator<>): the static members of that name
            # are searched for one whose class starts like type_name up to its first template argument
            start = type_name.split(',')[0].split('>')[0]
            variables = self.value.GetTarget().FindGlobalVariables(member, 4096)
            for pos in range(variables.GetSize()):
                variable = variables.GetValueAtIndex(pos)
                qualified = variable.GetName()
                if qualified == '%s::%s' % (type_name, member) or qualified.startswith(start + ',') or \
                        qualified == '%s::%s' % (start, member):
                    found = variable.GetValueAsUnsigned()
                    break
            _static_cache[key] = found
        return _static_cache[key]


def _resolved_name(value):
    """The name of the value's own type, typedefs resolved."""
    return value.GetNonSyntheticValue().GetType().GetCanonicalType().GetUnqualifiedType().GetName()


def summary(value, internal_dict):
    """The summary of any tessera value. lldb matches the regular expressions below against typedef names too,
    and a typedef nested in a tessera template (basic_registry<...>::storage_for_type<T>, a pool's sigh_type)
    starts like the template itself: the resolved name decides which summary applies, if any."""
    resolved = _resolved_name(value)
    for pattern, read, _ in _SUMMARIES:
        if pattern.match(resolved):
            try:
                return read(LldbNode(value))
            except Exception as error:  # a summary must never break the debugger's output
                return '<tessera: cannot read this value: %s>' % error
    return None


class PoolChildren(object):
    """Children of a sparse set or storage: its identifiers in packed order, or for storages its elements named by
    their identifiers. In-place holes and released identifiers are left out."""

    def __init__(self, value, internal_dict):
        self.value = value
        self.update()

    def update(self):
        self.pool = layout.Pool(LldbNode(self.value))
        self.positions = self.pool.positions()
        self.seen = []
        self.page_size = self.pool.page_size() if self.pool.has_elements() else 0
        return False

    def _position(self, index):
        for pos in self.positions:
            self.seen.append(pos)
            if len(self.seen) > index:
                break
        return self.seen[index] if index < len(self.seen) else None

    def num_children(self):
        return self.pool.in_use()

    def has_children(self):
        return self.pool.size != 0

    def get_child_index(self, name):
        return int(name.strip('[]')) if name.strip('[]').isdigit() else -1

    def get_child_at_index(self, index):
        pos = self._position(index)
        if pos is None:
            return None
        entity = self.pool.entity(pos).value
        if not self.pool.has_elements():
            return entity.CreateValueFromData('[%d]' % index, entity.GetData(), entity.GetType())
        element = self.pool.element(pos, self.page_size).value
        name = '[%s]' % layout.identifier_text(self.pool.raw(pos), self.pool.identifier_size)
        return element.CreateValueFromData(name, element.GetData(), element.GetType())


class RegistryChildren(object):
    """Children of a registry: the size of each pool, named as the memory report names it."""

    def __init__(self, value, internal_dict):
        self.value = value
        self.update()

    def update(self):
        self.pools = layout.Registry(LldbNode(self.value)).pools()
        return False

    def num_children(self):
        return len(self.pools)

    def has_children(self):
        return bool(self.pools)

    def get_child_index(self, name):
        for pos, (label, _) in enumerate(self.pools):
            if label == name:
                return pos
        return -1

    def get_child_at_index(self, index):
        if index >= len(self.pools):
            return None
        label, pool = self.pools[index]
        count = pool.in_use() if pool is not None else 0
        target = self.value.GetTarget()
        data = lldb.SBData.CreateDataFromUInt64Array(target.GetByteOrder(), target.GetAddressByteSize(), [count])
        return self.value.CreateValueFromData(label, data, target.GetBasicType(lldb.eBasicTypeUnsignedLongLong))


# what each kind of value shows, and the options of its summary: identifiers show their summary only (not the
# integer too); pools and registries expand their children
_SUMMARIES = [
    (layout.ENTITY_TYPE, layout.entity_text, '-v'),
    (layout.NULL_TYPE, lambda node: 'null', '-v'),
    (layout.TOMBSTONE_TYPE, lambda node: 'tombstone', '-v'),
    (layout.POOL_TYPE, lambda node: layout.Pool(node).summary(), '-e'),
    (layout.REGISTRY_TYPE, lambda node: layout.Registry(node).summary(), '-e'),
    (layout.VIEW_TYPE, layout.view_summary, ''),
    (layout.RUNTIME_VIEW_TYPE, layout.runtime_view_summary, ''),
    (layout.GROUP_TYPE, layout.group_summary, ''),
    (layout.HANDLE_TYPE, layout.handle_summary, ''),
]

class RawChildren(object):
    """The value's own children, for types that only look like a pool or a registry by their typedef name."""

    def __init__(self, value, internal_dict):
        self.value = value.GetNonSyntheticValue()

    def update(self):
        return False

    def num_children(self):
        return self.value.GetNumChildren()

    def has_children(self):
        return self.value.GetNumChildren() != 0

    def get_child_index(self, name):
        return self.value.GetIndexOfChildWithName(name)

    def get_child_at_index(self, index):
        return self.value.GetChildAtIndex(index)


def Children(value, internal_dict):
    """The children provider for the resolved type (see summary for why lldb's choice is not enough)."""
    resolved = _resolved_name(value)
    if layout.POOL_TYPE.match(resolved):
        return PoolChildren(value, internal_dict)
    if layout.REGISTRY_TYPE.match(resolved):
        return RegistryChildren(value, internal_dict)
    return RawChildren(value, internal_dict)


_CHILDREN = [(layout.POOL_TYPE, 'Children'), (layout.REGISTRY_TYPE, 'Children')]


def __lldb_init_module(debugger, internal_dict):
    module = __name__
    for pattern, _, options in _SUMMARIES:
        debugger.HandleCommand('type summary add -w tessera %s -x "%s" -F %s.summary' % (options, pattern.pattern, module))
    for pattern, provider in _CHILDREN:
        debugger.HandleCommand('type synthetic add -w tessera -x "%s" -l %s.%s' % (pattern.pattern, module, provider))
    debugger.HandleCommand('type category enable tessera')
