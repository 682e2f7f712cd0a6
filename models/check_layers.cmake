# cmake -DDIR=<models/domain> -P check_layers.cmake
# Fails when a file of the domain includes a project header from outside domain/ (the poller, an
# item model, the libpq layer): the domain stays plain values and rules that every layer above
# may use. Qt and standard headers (<…>) are left to the domain library's link line, which has
# QtCore only.
file(GLOB _files "${DIR}/*.h" "${DIR}/*.cpp")
set(_bad "")
foreach(_f IN LISTS _files)
  file(STRINGS "${_f}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(_line IN LISTS _includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" _inc "${_line}")
    string(REGEX REPLACE "^domain/" "" _local "${_inc}")
    if(NOT EXISTS "${DIR}/${_local}" OR _local MATCHES "/")
      get_filename_component(_name "${_f}" NAME)
      string(APPEND _bad "\n  domain/${_name}: #include \"${_inc}\"")
    endif()
  endforeach()
endforeach()
if(_bad)
  message(FATAL_ERROR "The domain includes headers from outside domain/:${_bad}\n"
                      "Move what it needs into domain/, or the code that needs more out of it.")
endif()
