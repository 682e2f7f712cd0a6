# cmake -DDIR=<models/domain> -DALLOW=<domain[,pg…]> -P check_layers.cmake
# Fails when a file of DIR includes a project header ("…") from outside the folders in ALLOW (the
# first one is DIR's own): the domain stays plain values and rules every layer may use, and each
# layer above it (pg, store, itemmodels) sees only itself and the layers below it. Qt, libpq and
# standard headers (<…>) are left to each library's link line (the domain's has QtCore only).
string(REPLACE "," ";" ALLOW "${ALLOW}")
file(GLOB _files "${DIR}/*.h" "${DIR}/*.cpp")
get_filename_component(_root "${DIR}" DIRECTORY)
list(GET ALLOW 0 _own)
set(_bad "")
foreach(_f IN LISTS _files)
  file(STRINGS "${_f}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(_line IN LISTS _includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" _inc "${_line}")
    set(_ok FALSE)
    if(NOT _inc MATCHES "/" AND EXISTS "${DIR}/${_inc}")
      set(_ok TRUE) # beside it
    endif()
    foreach(_dir IN LISTS ALLOW)
      if(_inc MATCHES "^${_dir}/[^/]+$" AND EXISTS "${_root}/${_inc}")
        set(_ok TRUE)
      endif()
    endforeach()
    if(NOT _ok)
      get_filename_component(_name "${_f}" NAME)
      string(APPEND _bad "\n  ${_own}/${_name}: #include \"${_inc}\"")
    endif()
  endforeach()
endforeach()
if(_bad)
  string(REPLACE ";" ", " _allowed "${ALLOW}")
  message(FATAL_ERROR "${_own}/ includes headers from outside ${_allowed}:${_bad}\n"
                      "Move what it needs down, or the code that needs more up a layer.")
endif()
