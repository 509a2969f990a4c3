// Umbrella header: includes every public header of tessera.
#ifndef TESSERA_TESSERA_HPP
#define TESSERA_TESSERA_HPP

#include "config/config.hpp"
#include "config/version.hpp"
#include "archive/binary.hpp"
#include "archive/fwd.hpp"
#include "core/algorithm.hpp"
#include "core/any.hpp"
#include "core/family.hpp"
#include "core/fwd.hpp"
#include "core/hashed_string.hpp"
#include "core/iterator.hpp"
#include "core/type_info.hpp"
#include "core/type_traits.hpp"
#include "signal/delegate.hpp"
#include "signal/fwd.hpp"
#include "signal/sigh.hpp"
#include "entity/component.hpp"
#include "entity/entity.hpp"
#include "entity/fwd.hpp"
#include "entity/handle.hpp"
#include "entity/helper.hpp"
#include "entity/mixin.hpp"
#include "entity/organizer.hpp"
#include "entity/registry.hpp"
#include "entity/snapshot.hpp"
#include "entity/sparse_set.hpp"
#include "entity/storage.hpp"

#endif
