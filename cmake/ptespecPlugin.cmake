# ptespec_add_plugin(<target> <source>...)
#
# Builds a strategy plugin: a loadable module (`ptespec --plugin <file>`)
# from sources that use PTESPEC_PLUGIN (impl/plugin_api.h).  The module
# carries its own copy of the model (ptespec::model is static and PIC), so
# it needs nothing from the ptespec program that loads it, and exports only
# the entry point: two plugins never bind each other's symbols.
#
# Used in-tree by the tests and, through find_package(ptespec), out of tree.
# Strategy source also instantiates over Z3 words (the proofs' symbolic
# machine): ptespec::model brings the Z3 headers and library with it.

function(ptespec_add_plugin target)
  if(NOT ARGN)
    message(FATAL_ERROR "ptespec_add_plugin(${target}): give at least one source file")
  endif()
  add_library(${target} MODULE ${ARGN})
  target_link_libraries(${target} PRIVATE ptespec::model)
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_EXTENSIONS OFF
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  # An unresolved symbol is a link error here, not a dlopen error later.
  target_link_options(${target} PRIVATE LINKER:--no-undefined)
endfunction()
