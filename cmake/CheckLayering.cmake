# The layering rules of docs/architecture.md §1, checked on every build (cmake -P, from the
# `layering` target in CMakeLists.txt, which every layer's library depends on).
#
# 1. Each layer includes only the layers it declares. src/CMakeLists.txt's table
#    (clawperator_layer(NAME <folder> DEPENDS ...), cmake/ClawperatorLayers.cmake) is handed over
#    in LAYERS_FILE; every `#include "clawperator/<layer>/..."` of a file in src/<folder>/ or
#    include/clawperator/<folder>/ must name the folder itself or one of its DEPENDS. The
#    top-level headers belong to the layer that implements them (json.hpp, utf8.hpp: json;
#    suggest.hpp: contract) or to none (header-only: text.hpp, word_list.hpp, expected.hpp,
#    problem.hpp, dynamic_symbol.hpp). An upward or sideways include fails the build, naming the file, the header and the rule.
#    Folders outside the table (serve/, vdevice/, src/main.cpp) sit above every layer.
# 2. A front end's headers (cli/, mcp/, serve/) are included by no other folder. Only the
#    composition roots below may: each program's main wires the front ends together. A new
#    include of a front end from outside it fails the build, naming the file and the header; so
#    does an entry below that no longer exists, so that the list only shrinks.
cmake_minimum_required(VERSION 3.25)  # policies of a script run: IN_LIST
if(NOT LAYERS_FILE OR NOT EXISTS "${LAYERS_FILE}")
  message(FATAL_ERROR "CheckLayering.cmake: no LAYERS_FILE (configure the build again)")
endif()
include("${LAYERS_FILE}")  # layers, layer_depends_<layer>

# The top-level headers of include/clawperator/ and the layer each belongs to ("" for none).
set(top_level_headers
  "json.hpp=json" "utf8.hpp=json" "suggest.hpp=contract"
  "text.hpp=" "word_list.hpp=" "path_values.hpp=" "expected.hpp=" "problem.hpp=" "dynamic_symbol.hpp=")
foreach(entry IN LISTS top_level_headers)
  string(REPLACE "=" ";" parts "${entry}")
  list(GET parts 0 name)
  list(LENGTH parts part_count)
  set(top_layer_${name} "")
  if(part_count GREATER 1)
    list(GET parts 1 top_layer_${name})
  endif()
  list(APPEND top_level_names "${name}")
endforeach()

set(allowed
  "src/main.cpp -> clawperator/cli/app.hpp"
  "src/main.cpp -> clawperator/cli/mcp_command.hpp"
  "src/main.cpp -> clawperator/mcp/host.hpp"
  "src/serve/main.cpp -> clawperator/cli/app.hpp"
  "src/serve/main.cpp -> clawperator/cli/mcp_command.hpp"
  "src/serve/main.cpp -> clawperator/cli/serve_command.hpp"
  "src/serve/main.cpp -> clawperator/mcp/host.hpp")

file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/src/*.cpp" "${SOURCE_DIR}/src/*.hpp"
     "${SOURCE_DIR}/include/*.hpp")
set(found "")
set(problems "")
foreach(file IN LISTS sources)
  # The folder the file belongs to: src/<folder>/… or include/clawperator/<folder>/…; none for a
  # top file (src/main.cpp, include/clawperator/json.hpp). Its layer, when rule 1 applies to it:
  # the folder if the table declares it; for a top-level header, the layer it belongs to, or
  # "" (header-only: it may include no layer at all).
  string(REGEX REPLACE "^(src|include/clawperator)/" "" inside "${file}")
  set(folder "")
  set(layer "")
  set(checked FALSE)
  set(layer_depends_ "")
  if(inside MATCHES "/")
    string(REGEX REPLACE "/.*" "" folder "${inside}")
    if(folder IN_LIST layers)
      set(layer "${folder}")
      set(checked TRUE)
    endif()
  elseif(file MATCHES "^include/clawperator/")
    if(NOT inside IN_LIST top_level_names)
      string(APPEND problems "\n  ${file}: a top-level header in no layer; place it in "
                             "cmake/CheckLayering.cmake's top_level_headers")
      continue()
    endif()
    set(layer "${top_layer_${inside}}")
    set(checked TRUE)
  endif()

  file(STRINGS "${SOURCE_DIR}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+[\"<]clawperator/")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "clawperator/[^\">]+" header "${line}")
    string(REGEX REPLACE "^clawperator/" "" header_inside "${header}")
    # Rule 2: a front end's headers.
    if(header MATCHES "^clawperator/(cli|mcp|serve)/" AND NOT CMAKE_MATCH_1 STREQUAL folder)
      list(APPEND found "${file} -> ${header}")
    endif()
    if(NOT checked)
      continue()
    endif()
    # Rule 1: the layer of the header, against the file's layer and its DEPENDS.
    if(header_inside MATCHES "/")
      string(REGEX REPLACE "/.*" "" included "${header_inside}")
    elseif(header_inside IN_LIST top_level_names)
      set(included "${top_layer_${header_inside}}")
      if(NOT included)
        continue()  # header-only, anyone's
      endif()
    else()
      string(APPEND problems "\n  ${file} -> ${header}: no such top-level header in "
                             "cmake/CheckLayering.cmake's top_level_headers")
      continue()
    endif()
    if(included STREQUAL layer OR included IN_LIST layer_depends_${layer})
      continue()
    endif()
    if(layer)
      set(declared "${layer_depends_${layer}}")
      if(declared)
        string(REPLACE ";" " " declared "${declared}")
      else()
        set(declared "none")
      endif()
      string(APPEND problems "\n  ${file} -> ${header}: layer ${layer} includes ${included}, "
                             "which is not among its DEPENDS (${declared}) in src/CMakeLists.txt; "
                             "a layer includes only the layers it declares, all below it")
    else()
      string(APPEND problems "\n  ${file} -> ${header}: a header-only top-level header includes "
                             "layer ${included}")
    endif()
  endforeach()
endforeach()

foreach(edge IN LISTS found)
  if(NOT edge IN_LIST allowed)
    string(APPEND problems "\n  ${edge}: a front end's header from outside it; call src/service/ instead")
  endif()
endforeach()
foreach(edge IN LISTS allowed)
  if(NOT edge IN_LIST found)
    string(APPEND problems "\n  ${edge}: gone; take it off cmake/CheckLayering.cmake's list")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "The layering rules (docs/architecture.md §1) are broken:${problems}")
endif()
