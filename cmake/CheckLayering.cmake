# The layering rule of docs/architecture.md §1, checked on every build (cmake -P, from the
# `layering` target in CMakeLists.txt): a front end's headers (cli/, mcp/, serve/) are included by
# no other folder. Only the composition roots below may: each program's main wires the front
# ends together. A new include of a front end from outside it fails the build, naming the file
# and the header; so does an entry below that no longer exists, so that the list only shrinks.
cmake_minimum_required(VERSION 3.25)  # policies of a script run: IN_LIST
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
foreach(file IN LISTS sources)
  # The folder the file belongs to: src/<folder>/… or include/clawperator/<folder>/….
  string(REGEX REPLACE "^(src|include/clawperator)/" "" inside "${file}")
  if(inside MATCHES "/")
    string(REGEX REPLACE "/.*" "" folder "${inside}")
  else()
    set(folder "")  # a top file: src/main.cpp
  endif()
  file(STRINGS "${SOURCE_DIR}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"clawperator/(cli|mcp|serve)/")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "clawperator/(cli|mcp|serve)/[^\"]+" header "${line}")
    if(NOT CMAKE_MATCH_1 STREQUAL folder)
      list(APPEND found "${file} -> ${header}")
    endif()
  endforeach()
endforeach()

set(problems "")
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
  message(FATAL_ERROR "The layering rule (docs/architecture.md §1) is broken:${problems}")
endif()
