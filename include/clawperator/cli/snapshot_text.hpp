// A UI hierarchy as a person reads it, for `snapshot --output pretty`: one line
// per node, indented by depth, with what identifies the node (class, text,
// resource id, content description, bounds) and what it can do. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "clawperator/json.hpp"

namespace clawperator::cli {

// The nodes of a UI Automator XML dump; nullopt when it holds no <node>.
// Malformed XML gives what could be read, never an exception.
std::optional<std::string> render_hierarchy(std::string_view xml);

// The snapshot result wrapper ({envelope, deviceId, ...}) as text: a header,
// then the tree of every snapshot step. nullopt unless "ok" is true and some
// step carries a hierarchy: failures stay JSON.
std::optional<std::string> render_snapshot_document(const Json& document);

// `snapshot --compact`'s document: a header (device, command, how many of how many nodes),
// then its nodes as the tree above, indented by their nodePath. nullopt unless "ok" is true
// and it holds `compact.nodes`.
std::optional<std::string> render_compact_document(const Json& document);

// `query`'s document: a header (device, how many of how many matches), then each match once,
// numbered, as a node line. nullopt unless "ok" is true and it holds `query.nodes`.
std::optional<std::string> render_query_document(const Json& document);

}  // namespace clawperator::cli
