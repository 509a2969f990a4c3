set pagination off
set width 0
set print address off
set print static-members off
break debugger_stop
run
up
echo ==== begin\n
print first
print registry
print moving
print drawn
print handle
print registry.debug_components(second)
print $tessera_components(registry, first)
set print elements 3
print *sprites
echo ==== end\n
kill
