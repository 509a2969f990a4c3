set pagination off
set width 0
set print address off
break debugger_stop
run
up
echo ==== begin\n
print first
print third
print null_entity
print hole
print *positions
print *stables
print *entities
print set
print registry
print view
print pair_view
print owning
print non_owning
print runtime
print handle
print empty_handle
print $tessera_components(registry, second)
print $tessera_pool(registry, "velocity")
print registry.debug_components(first)
echo ==== end\n
kill
