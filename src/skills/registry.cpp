#include "clawperator/skills/registry.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "clawperator/contract/hint_catalog.hpp"
#include "clawperator/expected.hpp"
#include "clawperator/io/account_home.hpp"
#include "clawperator/io/bounded_file.hpp"
#include "clawperator/problem.hpp"
#include "skill_files.hpp"

namespace clawperator::skills {
namespace {

namespace fs = std::filesystem;
using contract::HostError;

HostError read_failed(const RegistryLocation& location, std::string message, std::string reason) {
  Json details = Json::object();
  details["registryPath"] = location.path.string();
  details["registrySource"] = std::string(to_string(location.source));
  details["reason"] = std::move(reason);
  return contract::readiness_error("REGISTRY_READ_FAILED", std::move(message), std::move(details));
}

// A member of an entry: read, or why not (the key is the subject of the message: "intent must
// be a string"; the path is the entry's, filled by read_entry).
Expected<void, Problem> string_member(const Json& entry, const char* key, std::string& out) {
  const auto it = entry.find(key);
  if (it == entry.end()) return {};  // absent: empty
  if (!it->is_string()) return Unexpected(Problem{"", std::string(key) + " must be a string"});
  out = it->get<std::string>();
  return {};
}

Expected<void, Problem> list_member(const Json& entry, const char* key,
                                    std::vector<std::string>& out, bool& present) {
  const auto it = entry.find(key);
  present = it != entry.end();
  if (!present) return {};
  if (!it->is_array()) return Unexpected(Problem{"", std::string(key) + " must be an array"});
  for (const Json& item : *it) {
    if (!item.is_string()) {
      return Unexpected(Problem{"", std::string(key) + " must hold strings only"});
    }
    out.push_back(item.get<std::string>());
  }
  return {};
}

// The entry, or the reason it cannot be used: its path the entry's id, once there is one.
Expected<void, Problem> read_entry(const Json& raw, SkillEntry& entry) {
  if (!raw.is_object()) return Unexpected(Problem{"", "every entry of skills must be an object"});
  const auto id = raw.find("id");
  if (id == raw.end() || !id->is_string() || id->get<std::string>().empty()) {
    return Unexpected(Problem{"", "every entry of skills needs a non-empty string id"});
  }
  entry.id = id->get<std::string>();
  const auto in_entry = [&entry](Expected<void, Problem> read) {
    if (!read) read.error().path = entry.id;
    return read;
  };
  for (const auto& [key, target] :
       {std::pair{"applicationId", &entry.application_id}, std::pair{"intent", &entry.intent},
        std::pair{"summary", &entry.summary}, std::pair{"path", &entry.path},
        std::pair{"skillFile", &entry.skill_file}}) {
    CLAWPERATOR_TRY(in_entry(string_member(raw, key, *target)));
  }
  bool scripts_present = false;
  CLAWPERATOR_TRY(in_entry(list_member(raw, "scripts", entry.scripts, scripts_present)));
  CLAWPERATOR_TRY(in_entry(list_member(raw, "artifacts", entry.artifacts, entry.has_artifacts)));
  entry.raw = raw;
  return {};
}

// The path with its symlinks resolved as far as it exists, the rest appended lexically.
fs::path resolve_existing_prefix(const fs::path& path) {
  std::error_code error;
  fs::path existing = path;
  fs::path rest;
  while (!existing.empty() && !fs::exists(fs::symlink_status(existing, error))) {
    rest = rest.empty() ? existing.filename() : existing.filename() / rest;
    existing = existing.parent_path();
  }
  fs::path resolved = fs::weakly_canonical(existing.empty() ? fs::path("/") : existing, error);
  if (error) resolved = existing.lexically_normal();
  return rest.empty() ? resolved : (resolved / rest).lexically_normal();
}

bool is_inside(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

}  // namespace

std::string_view to_string(RegistrySource source) {
  switch (source) {
    case RegistrySource::Flag:
      return "flag";
    case RegistrySource::Environment:
      return "environment";
    case RegistrySource::WorkingDirectory:
      return "cwd";
    case RegistrySource::Installed:
      break;
  }
  return "installed";
}

std::optional<fs::path> installed_skills_directory(const std::optional<fs::path>& home) {
  if (!home || home->empty()) return std::nullopt;
  return *home / ".clawperator" / "skills";
}

fs::path installed_registry_path(const fs::path& skills_directory) {
  return skills_directory / "skills" / "skills-registry.json";
}

RegistryLocation locate_registry(const RegistryLookup& lookup) {
  const auto absolute = [&](const std::string& path) {
    const fs::path named(path);
    return (named.is_absolute() ? named : lookup.working_directory / named).lexically_normal();
  };
  if (lookup.flag) return {absolute(*lookup.flag), RegistrySource::Flag};
  if (lookup.environment && !lookup.environment->empty()) {
    return {absolute(*lookup.environment), RegistrySource::Environment};
  }
  const fs::path local = lookup.working_directory / "skills" / "skills-registry.json";
  std::error_code error;
  const auto installed = installed_skills_directory(lookup.home);
  if (fs::exists(local, error) || !installed) return {local, RegistrySource::WorkingDirectory};
  return {installed_registry_path(*installed), RegistrySource::Installed};
}

RegistryLookup process_registry_lookup(std::optional<std::string> flag) {
  RegistryLookup lookup;
  lookup.flag = std::move(flag);
  if (const char* value = std::getenv("CLAWPERATOR_SKILLS_REGISTRY"); value && *value) {
    lookup.environment = value;
  }
  std::error_code error;
  lookup.working_directory = fs::current_path(error);
  if (error) lookup.working_directory = "/";
  if (const char* home = std::getenv("HOME"); home && *home) {
    lookup.home = fs::path(home);
  } else if (auto entry = io::passwd_home_directory(::geteuid())) {
    lookup.home = fs::path(*entry);
  }
  return lookup;
}

const SkillEntry* Registry::find(std::string_view id) const {
  for (const SkillEntry& skill : skills) {
    if (skill.id == id) return &skill;
  }
  return nullptr;
}

contract::Outcome<Registry> load_registry(const RegistryLocation& location) {
  std::string bytes;
  if (auto read = io::read_regular_file(location.path, kMaxRegistryBytes, bytes); !read) {
    std::string message = "Cannot read the skills registry at " + location.path.string() + ": " +
                          read.error().message + ".";
    HostError error = read_failed(location, std::move(message), read.error().message);
    if (read.error().message == std::strerror(ENOENT)) {
      // Nothing there yet: a repository of one's own starts with `skills init`, which makes
      // this very file (docs/skills.md, "A repository from nothing").
      const bool named =
          location.source == RegistrySource::Flag || location.source == RegistrySource::Environment;
      const std::string command =
          named ? "clawperator skills init --registry " + location.path.string()
                : std::string("clawperator skills init");
      error.hint =
          contract::hint_text(contract::HintId::CreateSkillsRegistry, {{"command", command}});
    }
    return contract::failed(std::move(error));
  }
  Registry registry;
  registry.location = location;
  registry.root = location.path.parent_path().parent_path();
  registry.document = parse_json(bytes);
  if (registry.document.is_discarded()) {
    return contract::failed(read_failed(
        location, "The skills registry at " + location.path.string() + " is not valid JSON.",
        "invalid JSON"));
  }
  const auto skills =
      registry.document.is_object() ? registry.document.find("skills") : registry.document.end();
  if (!registry.document.is_object() || skills == registry.document.end() || !skills->is_array()) {
    return contract::failed(read_failed(
        location, "Invalid registry " + location.path.string() + ": a skills array is required.",
        "skills array required"));
  }
  for (const Json& raw : *skills) {
    SkillEntry entry;
    if (auto read = read_entry(raw, entry); !read) {
      const std::string reason = read.error().text();  // "<id>: intent must be a string"
      return contract::failed(read_failed(
          location, "Invalid registry " + location.path.string() + ": " + reason + ".", reason));
    }
    registry.skills.push_back(std::move(entry));
  }
  return registry;
}

contract::Outcome<fs::path> resolve_inside(const Registry& registry, std::string_view relative,
                                           std::string_view field) {
  const auto refuse = [&](std::string reason) {
    Json details = Json::object();
    details["field"] = std::string(field);
    details["path"] = std::string(relative);
    details["reason"] = reason;
    return contract::failed(contract::validation_error(
        "SKILL_VALIDATION_FAILED",
        std::string(field) + " '" + std::string(relative) + "' " + reason, std::move(details)));
  };
  if (relative.empty()) return refuse("is empty");
  if (relative.find('\0') != std::string_view::npos) return refuse("holds a NUL byte");
  const fs::path named{std::string(relative)};
  if (named.is_absolute()) return refuse("must be relative to the skills repository");
  const fs::path root = resolve_existing_prefix(registry.root);
  const fs::path resolved = resolve_existing_prefix(registry.root / named);
  if (!is_inside(resolved, root)) return refuse("leads outside the skills repository");
  return resolved;
}

contract::Status check_skill_id(std::string_view id) {
  const auto refuse = [&](std::string reason) {
    Json details = Json::object();
    details["skillId"] = std::string(id);
    details["reason"] = reason;
    return contract::failed(contract::validation_error(
        "SKILL_ID_INVALID", "Invalid skill id: " + reason, std::move(details)));
  };
  if (id.empty()) return refuse("it is empty");
  if (id.size() > 200) return refuse("it is longer than 200 bytes");
  for (const char c : id) {
    if (c == '/' || c == '\\') return refuse("it holds a path separator");
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return refuse("it holds a control character");
    }
  }
  if (id.find("..") != std::string_view::npos) return refuse("it holds '..'");
  return {};
}

void add_registry_fields(Json& document, const RegistryLocation& location) {
  document["registryPath"] = location.path.string();
  document["registrySource"] = std::string(to_string(location.source));
}

void add_registry_fields(Json& document, const Registry& registry) {
  add_registry_fields(document, registry.location);
}

HostError skill_not_found(const Registry& registry, std::string_view id) {
  Json details = Json::object();
  details["skillId"] = std::string(id);
  add_registry_fields(details, registry);
  return contract::validation_error("SKILL_NOT_FOUND", "Skill not found: " + std::string(id),
                                    std::move(details));
}

}  // namespace clawperator::skills
