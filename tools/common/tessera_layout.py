# How tessera's objects are laid out in memory, read through a debugger-neutral node interface. The gdb
# printers (tools/gdb/tessera_printers.py) and the lldb formatters (tools/lldb/tessera_lldb.py) wrap their own
# values in a Node and share everything else: identifiers, sparse sets and storages, registries, views, groups
# and handles. Only member names of tessera's classes and of the standard containers they use are relied on,
# and the containers of both libstdc++ and libc++ are read.

import re

# Index mask, version shift and version mask of the identifiers, by size in bytes (entity.hpp).
IDENTIFIER_LAYOUTS = {4: (0xFFFFF, 20, 0xFFF), 8: (0xFFFFFFFF, 32, 0xFFFFFFFF)}

# Defaults of TESSERA_SPARSE_PAGE and TESSERA_PACKED_PAGE (config.hpp), used when a debugger cannot read the
# page sizes from the program's debug information.
DEFAULT_SPARSE_PAGE = 4096
DEFAULT_PACKED_PAGE = 1024

# deletion_policy values (fwd.hpp)
SWAP_AND_POP, IN_PLACE, SWAP_ONLY = 0, 1, 2

POOL_TYPE = re.compile(r'^tessera::(basic_sparse_set|basic_storage|basic_sigh_mixin|basic_reactive_mixin)<')
REGISTRY_TYPE = re.compile(r'^tessera::basic_registry<')
VIEW_TYPE = re.compile(r'^tessera::basic_view<')
RUNTIME_VIEW_TYPE = re.compile(r'^tessera::basic_runtime_view<')
GROUP_TYPE = re.compile(r'^tessera::basic_group<')
HANDLE_TYPE = re.compile(r'^tessera::basic_handle<')
ENTITY_TYPE = re.compile(r'^tessera::entity$')
NULL_TYPE = re.compile(r'^tessera::null_t$')
TOMBSTONE_TYPE = re.compile(r'^tessera::tombstone_t$')
LIST_TYPE = re.compile(r'^std::(__1::)?(tuple|array)<')
TUPLE_LEAF = re.compile(r'^std::(__1::)?(_Head_base|__tuple_leaf)<(\d+)')


class Node(object):
    """A value in the debugged program. The gdb and lldb front ends implement these methods."""

    def type_name(self):
        """The name of the value's type: typedefs resolved, cv-qualifiers removed, references followed."""
        raise NotImplementedError

    def is_pointer(self):
        raise NotImplementedError

    def pointer_value(self):
        """The address a pointer holds."""
        raise NotImplementedError

    def deref(self):
        raise NotImplementedError

    def at(self, index):
        """The element at `index` of the array a pointer points into: *(pointer + index)."""
        raise NotImplementedError

    def member(self, name):
        """The data member called `name`, searched in base classes too; None if there is none."""
        raise NotImplementedError

    def parts(self):
        """The base class subobjects and non-static data members, in declaration order, as (name, node) pairs;
        base classes are named by their type. Elements of a C array, for arrays."""
        raise NotImplementedError

    def to_int(self):
        raise NotImplementedError

    def size_of(self):
        raise NotImplementedError

    def read_string(self, length):
        """The `length` characters a char pointer points to."""
        raise NotImplementedError

    def dynamic(self):
        """For a pointer to a polymorphic class: the pointer with the type of the most derived object."""
        return self

    def dynamic_type_name(self):
        """For an object of a polymorphic class: the name of its most derived type, as its vtable's symbol spells
        it (where a debugger's type names leave template parameter packs out)."""
        return self.type_name()

    def static_int(self, type_name, member):
        """The value of the static data member `member` of the type called `type_name`, or None."""
        return None


def member_of(node, *names):
    """The first data member found among `names`, or None."""
    for name in names:
        found = node.member(name)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------------------------------------------------------
# identifiers

def identifier_text(raw, size):
    """entity{index=.., version=..}, or null / tombstone by name."""
    index_mask, shift, version_mask = IDENTIFIER_LAYOUTS.get(size, IDENTIFIER_LAYOUTS[4])
    index = raw & index_mask
    version = (raw >> shift) & version_mask
    if index == index_mask:
        return 'null'
    if version == version_mask:
        return 'tombstone'
    return 'entity{index=%d, version=%d}' % (index, version)


def entity_text(node):
    return identifier_text(node.to_int(), node.size_of())


# ---------------------------------------------------------------------------------------------------------------
# standard containers (libstdc++ and libc++)

def vector_parts(node):
    """(pointer to the first element, size, capacity) of a std::vector."""
    impl = node.member('_M_impl')
    if impl is not None:
        first, last, end = impl.member('_M_start'), impl.member('_M_finish'), impl.member('_M_end_of_storage')
    else:
        first, last = node.member('__begin_'), node.member('__end_')
        cap = node.member('__end_cap_')
        end = member_of(cap, '__value_', '__first_') if cap is not None else last
    begin = first.pointer_value()
    width = first.deref().size_of() if begin else 1
    size = (last.pointer_value() - begin) // width if begin else 0
    capacity = (end.pointer_value() - begin) // width if begin else 0
    return first, size, capacity


def string_view_text(node):
    data = member_of(node, '_M_str', '__data_', '__data')
    length = member_of(node, '_M_len', '__size_', '__size')
    if data is None or length is None or data.pointer_value() == 0:
        return ''
    return data.read_string(length.to_int())


def tuple_items(node):
    """The elements of a std::tuple, in index order (libstdc++ lays them out from the last one)."""
    found = []

    def visit(part):
        name = part.type_name()
        leaf = TUPLE_LEAF.match(name)
        if leaf:
            value = member_of(part, '_M_head_impl', '__value_')
            if value is not None:
                found.append((int(leaf.group(3)), value))
            return
        for _, child in part.parts():
            if child.type_name().startswith('std::'):
                visit(child)

    visit(node)
    return [value for _, value in sorted(found, key=lambda item: item[0])]


def template_args(type_name):
    """The top-level template arguments spelled in a type name."""
    start = type_name.find('<')
    if start < 0:
        return []
    args, depth, current = [], 0, ''
    for char in type_name[start + 1:type_name.rfind('>')]:
        if char in '<([':
            depth += 1
        elif char in '>)]':
            depth -= 1
        if char == ',' and depth == 0:
            args.append(current.strip())
            current = ''
        else:
            current += char
    if current.strip():
        args.append(current.strip())
    return args


# ---------------------------------------------------------------------------------------------------------------
# pools

def find_base(node, pattern):
    """The base class subobject (or the node itself) whose type name starts with `pattern`."""
    if node.type_name().startswith(pattern):
        return node
    for _, part in node.parts():
        if part.type_name().startswith('tessera::'):
            found = find_base(part, pattern)
            if found is not None:
                return found
    return None


class Pool(object):
    """A sparse set, a storage or a mixin over one."""

    def __init__(self, node):
        self.node = node
        packed = node.member('packed')
        self.packed, self.size, self.capacity = vector_parts(packed)
        self.sparse, self.sparse_size, _ = vector_parts(node.member('sparse'))
        self.mode = node.member('mode').to_int()
        self.head = node.member('head').to_int()
        self.identifier_size = self.packed.deref().size_of() if self.packed.pointer_value() else 4
        info = node.member('info_')
        self.type = string_view_text(info.deref().member('name_')) if info.pointer_value() else ''
        self.type_hash = info.deref().member('hash_').to_int() if info.pointer_value() else 0
        self.payload = node.member('payload')
        self.index_mask, self.shift, self.version_mask = IDENTIFIER_LAYOUTS.get(self.identifier_size,
                                                                               IDENTIFIER_LAYOUTS[4])

    def is_entity_storage(self):
        return self.mode == SWAP_ONLY

    def has_elements(self):
        return self.payload is not None

    def name(self):
        return 'entity' if self.is_entity_storage() else self.type

    def in_use(self):
        """Identifiers in use: those before the boundary of the entity storage, the others without holes."""
        if self.is_entity_storage():
            return self.head
        return self.size - self.holes()

    def holes(self, limit=1 << 20):
        """Holes of an in-place set: the length of its free list, which starts at `head` and goes on through the
        index bits of each hole (sparse_set.hpp)."""
        if self.mode != IN_PLACE:
            return 0
        count, pos = 0, self.head
        while pos < self.size and count < limit:
            count += 1
            pos = self.raw(pos) & self.index_mask
        return count

    def raw(self, pos):
        return self.packed.at(pos).to_int()

    def entity(self, pos):
        return self.packed.at(pos)

    def is_hole(self, raw):
        return ((raw >> self.shift) & self.version_mask) == self.version_mask

    def positions(self):
        """The packed positions that hold an identifier in use, from 0 up."""
        last = self.head if self.is_entity_storage() else self.size
        for pos in range(last):
            if self.mode != IN_PLACE or not self.is_hole(self.raw(pos)):
                yield pos

    def page_size(self):
        base = find_base(self.node, 'tessera::basic_storage<')
        found = self.node.static_int(base.type_name(), 'page_size') if base is not None else None
        return found if found else DEFAULT_PACKED_PAGE

    def element(self, pos, page_size):
        pages = self.payload.member('first')
        return pages.at(pos // page_size).at(pos % page_size)

    def contains(self, raw):
        """True if the set holds exactly this identifier (same index and version)."""
        index = raw & self.index_mask
        if index == self.index_mask:
            return False
        page_size = self.node.static_int('tessera::entt_traits<%s>' % self.packed.deref().type_name(), 'page_size')
        page_size = page_size or DEFAULT_SPARSE_PAGE
        page = index // page_size
        if page >= self.sparse_size:
            return False
        entries = self.sparse.at(page)
        if entries.pointer_value() == 0:
            return False
        slot = entries.at(index % page_size).to_int()
        same_version = (slot >> self.shift) == (raw >> self.shift)
        return same_version and (slot & self.index_mask) != self.index_mask

    def listeners(self):
        """(construct, update, destroy) listener counts of a signal mixin, or None."""
        counts = []
        for name in ('construction', 'update', 'destruction'):
            signal = self.node.member(name)
            if signal is None:
                return None
            counts.append(vector_parts(signal.member('listeners'))[1])
        return tuple(counts)

    def summary(self):
        if self.is_entity_storage():
            return 'storage<entity>{in_use=%d, released=%d}' % (self.head, self.size - self.head)
        kind = 'sparse_set' if not self.type or self.type == 'void' else 'storage<%s>' % self.type
        if self.node.member('conn') is not None:
            kind = 'reactive_storage'
        text = '%s{size=%d' % (kind, self.size)
        holes = self.holes()
        if holes:
            text += ', holes=%d' % holes
        listeners = self.listeners()
        if listeners and any(listeners):
            text += ', listeners={construct=%d, update=%d, destroy=%d}' % listeners
        return text + '}'


def pool_at(pointer):
    """The pool a pointer points to, read with its most derived type, or None for a null pointer."""
    if pointer is None or pointer.pointer_value() == 0:
        return None
    return Pool(pointer.dynamic().deref())


def pool_label(pool, pool_id=None):
    """How a report names a pool: its type, then the hash of its name for a named pool."""
    if pool is None:
        return '(missing)'
    if pool_id is not None and pool_id != pool.type_hash:
        return '%s @0x%x' % (pool.name(), pool_id)
    return pool.name()


# ---------------------------------------------------------------------------------------------------------------
# registries

class Registry(object):
    def __init__(self, node):
        self.node = node
        self.entities = Pool(node.member('entities'))

    def table(self):
        """The vector of pool entries: the member `pools` of the registry's pool table (tables/pool_table.hpp)."""
        return self.node.member('pools').member('pools')

    def pools(self):
        """(label, pool) pairs, in the registry's order."""
        first, size, _ = vector_parts(self.table())
        out = []
        for pos in range(size):
            entry = first.at(pos)
            pool_id = entry.member('first').to_int()
            pool = pool_at(entry.member('second').member('object'))
            out.append((pool_label(pool, pool_id), pool))
        return out

    def components(self, raw):
        """The labels of the pools that contain the identifier."""
        return [label for label, pool in self.pools() if pool is not None and pool.contains(raw)]

    def summary(self):
        _, count, _ = vector_parts(self.table())
        return 'registry{entities=%d, released=%d, pools=%d}' % (
            self.entities.head, self.entities.size - self.entities.head, count)


# ---------------------------------------------------------------------------------------------------------------
# views, groups, handles

def pool_pointers(node, depth=0):
    """Pointers to pools held by an object, in declaration order (tuple elements in index order). Pools held by
    value (the member set of a non-owning group) are not pointers and are left out."""
    name = node.type_name()
    if node.is_pointer():
        target = node.deref() if node.pointer_value() else None
        target_name = target.type_name() if target is not None else ''
        if POOL_TYPE.match(target_name) or (target is None and depth > 0):
            return [node]
        return []
    if POOL_TYPE.match(name) or depth > 6:
        return []
    if name.startswith('std::') and 'tuple<' in name:
        parts = tuple_items(node)
    else:
        parts = [part for _, part in node.parts()]
    out = []
    for part in parts:
        out.extend(pool_pointers(part, depth + 1))
    return out


def pointer_groups(node):
    """The pool pointers of each data member (or base class) that holds some, in declaration order: a view
    keeps its get pools, then its exclude pools; a group handler its owned and get pools, then its exclude pools.
    The structure is read rather than the template arguments, which some debuggers spell incompletely."""
    parts = [part for _, part in node.parts()]
    # lists are tuples or arrays, kept even when empty (a view that excludes nothing); other members (a view's
    # cached leading pool) count only where there is no list (a single-type view keeps one pointer)
    lists = [part for part in parts if LIST_TYPE.match(part.type_name())]
    if lists:
        return [pool_pointers(part, 1) for part in lists]
    return [found for found in (pool_pointers(part, 1) for part in parts) if found]


def pool_list(pointers):
    return '[' + ', '.join(pool_entry(pointer) for pointer in pointers) + ']'


def pool_entry(pointer):
    pool = pool_at(pointer)
    return '(missing)' if pool is None else '%s: %d' % (pool_label(pool), pool.in_use())


def view_summary(node):
    groups = pointer_groups(node) + [[], []]
    return 'view{get=%s, exclude=%s}' % (pool_list(groups[0]), pool_list(groups[1]))


def runtime_view_summary(node):
    lists = []
    for _, part in node.parts():
        if part.type_name().startswith('std::') and 'vector<' in part.type_name():
            first, size, _ = vector_parts(part)
            lists.append([first.at(pos) for pos in range(size)])
    lists += [[], []]
    return 'runtime_view{get=%s, exclude=%s}' % (pool_list(lists[0]), pool_list(lists[1]))


def group_handler(node):
    """The handler a group points to (the registry owns it), or None for an invalid group."""
    for _, part in node.parts():
        if part.is_pointer() and part.pointer_value() and 'group_handler<' in part.deref().type_name():
            return part.deref()
    return None


def group_summary(node):
    handler = group_handler(node)
    if handler is None:
        return 'group{invalid}'
    groups = pointer_groups(handler) + [[], []]
    size = member_of(handler, 'len', 'length')
    members = find_members_set(handler)
    if size is not None:
        count = size.to_int()
    else:
        count = Pool(members).size if members is not None else 0
    if members is not None:
        # a handler with a member set of its own is a non-owning group's: it owns nothing
        return 'group{size=%d, owned=[], get=%s, exclude=%s}' % (count, pool_list(groups[0]), pool_list(groups[1]))
    # the split between owned and get pools comes from a type name that spells the type lists in full (lldb 14
    # spells the parameter packs of clang-built programs as empty lists: owned and get pools are then shown together)
    for name in (node.type_name(), handler.dynamic_type_name()):
        args = template_args(name) + ['', '', '']
        owned, gets, excludes = [len(template_args(arg)) for arg in args[:3]]
        if owned + gets == len(groups[0]) and excludes == len(groups[1]):
            return 'group{size=%d, owned=%s, get=%s, exclude=%s}' % (
                count, pool_list(groups[0][:owned]), pool_list(groups[0][owned:]), pool_list(groups[1]))
    return 'group{size=%d, owned_and_get=%s, exclude=%s}' % (count, pool_list(groups[0]), pool_list(groups[1]))


def find_members_set(handler):
    """The sparse set a non-owning group keeps its members in (held by value)."""
    for _, part in handler.parts():
        if not part.is_pointer() and part.type_name().startswith('tessera::basic_sparse_set<'):
            return part
    return None


def handle_summary(node):
    entity = member_of(node, 'entt')
    registry = member_of(node, 'reg')
    text = entity_text(entity) if entity is not None else '?'
    if registry is None or registry.pointer_value() == 0:
        return 'handle{%s, registry=null}' % text
    components = Registry(registry.deref()).components(entity.to_int())
    return 'handle{%s, components=[%s]}' % (text, ', '.join(components))
