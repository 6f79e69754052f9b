// The skills registry (docs/skills.md): which file is used, what it holds, and where the paths
// it names lead. Every path a registry entry (or a skill.json) names is relative to the skills
// repository, the parent of the registry's own directory, and must stay inside it once symlinks
// are resolved: a registry shared by others never makes us read or run a file outside it.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/json.hpp"

namespace clawperator::skills {

// Where the registry path came from, in lookup order (the one used is in every output).
enum class RegistrySource { Flag, Environment, WorkingDirectory, Installed };
std::string_view to_string(RegistrySource source);  // flag, environment, cwd, installed

struct RegistryLocation {
  std::filesystem::path path;  // absolute
  RegistrySource source = RegistrySource::Flag;
};

struct RegistryLookup {
  std::optional<std::string> flag;         // --registry
  std::optional<std::string> environment;  // CLAWPERATOR_SKILLS_REGISTRY (blank: unset)
  std::filesystem::path working_directory;
  std::optional<std::filesystem::path> home;  // $HOME, else the passwd entry's home
};

// The registry to use: --registry, then CLAWPERATOR_SKILLS_REGISTRY, then
// ./skills/skills-registry.json when it exists, then the installed
// ~/.clawperator/skills/skills/skills-registry.json. A named path (flag or environment) is used
// whether or not it exists (reading it then reports REGISTRY_READ_FAILED); with neither, the
// working directory's registry when there is one, else the installed one. Pure apart from one
// existence check.
RegistryLocation locate_registry(const RegistryLookup& lookup);

// The lookup of this process: its environment, working directory and home.
RegistryLookup process_registry_lookup(std::optional<std::string> flag);

// The installed skills repository, ~/.clawperator/skills (skills install clones into it).
std::optional<std::filesystem::path> installed_skills_directory(
    const std::optional<std::filesystem::path>& home);
std::filesystem::path installed_registry_path(const std::filesystem::path& skills_directory);

struct SkillEntry {
  std::string id;
  std::string application_id;
  std::string intent;
  std::string summary;
  std::string path;        // the skill's folder, relative to the repository
  std::string skill_file;  // SKILL.md, relative to the repository
  std::vector<std::string> scripts;
  std::vector<std::string> artifacts;
  bool has_artifacts = false;  // the entry has an `artifacts` member
  Json raw;                    // the entry as written, unknown keys kept
};

struct Registry {
  RegistryLocation location;
  std::filesystem::path root;  // the skills repository: dirname(dirname(registry))
  Json document;               // the file as read, unknown keys kept
  std::vector<SkillEntry> skills;

  // Exact match, first entry; nullptr when none.
  const SkillEntry* find(std::string_view id) const;
};

// The file is capped (kMaxRegistryBytes) and must be one JSON object with a `skills` array of
// objects whose string and array members have the types docs/skills.md gives; anything else is
// REGISTRY_READ_FAILED with details.registryPath and details.reason.
inline constexpr std::size_t kMaxRegistryBytes = std::size_t{8} << 20;
contract::Outcome<Registry> load_registry(const RegistryLocation& location);

// `relative`, a path from the registry or a skill.json (`field` names it for the message),
// resolved against the repository: refused unless it is relative, holds no NUL byte and, with
// its symlinks resolved, stays inside the repository (its own symlinks resolved too). The file
// need not exist: the longest existing prefix is resolved and the rest appended.
// SKILL_VALIDATION_FAILED with details.field, details.path and details.reason when refused.
contract::Outcome<std::filesystem::path> resolve_inside(const Registry& registry,
                                                        std::string_view relative,
                                                        std::string_view field);

// A skill id is a path component and a log field: non-empty, at most 200 bytes, none of '/',
// '\\', NUL or another control byte, and no "..". SKILL_ID_INVALID with details.skillId and
// details.reason when not. (`skills new` also wants a dot, neither first nor last, to derive
// the application id and the intent.)
contract::Status check_skill_id(std::string_view id);

// The members every skills output carries: registryPath and registrySource.
void add_registry_fields(Json& document, const Registry& registry);
void add_registry_fields(Json& document, const RegistryLocation& location);

// An error about a skill, with details.skillId and the registry fields.
contract::HostError skill_not_found(const Registry& registry, std::string_view id);

}  // namespace clawperator::skills
