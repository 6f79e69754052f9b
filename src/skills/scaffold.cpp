#include "clawperator/skills/scaffold.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <tuple>
#include <vector>

#include "clawperator/io/atomic_file.hpp"
#include "clawperator/json.hpp"
#include "clawperator/skills/registry.hpp"
#include "clawperator/text.hpp"
#include "skill_files.hpp"

namespace clawperator::skills {
namespace {

namespace fs = std::filesystem;
using contract::HostError;

HostError scaffold_failed(const RegistryLocation& registry, const fs::path& path, std::string what,
                          const std::optional<std::string>& cause_message) {
  Json details = Json::object();
  details["path"] = path.string();
  const auto name = cause_message ? errno_name_of_message(*cause_message) : std::nullopt;
  details["cause"] = name ? Json(*name) : Json(nullptr);
  add_registry_fields(details, registry);
  std::string message = "Cannot scaffold the skill: " + what + " " + path.string();
  if (cause_message) message += ": " + *cause_message;
  return contract::readiness_error("SKILLS_SCAFFOLD_FAILED", std::move(message),
                                   std::move(details));
}

HostError scaffold_failed(const Registry& registry, const fs::path& path, std::string what,
                          const std::optional<std::string>& cause_message) {
  return scaffold_failed(registry.location, path, std::move(what), cause_message);
}

// What this run created, removed again (newest first) when a later step fails.
class ScaffoldUndo {
 public:
  void created_file(fs::path path) { made_.push_back({std::move(path), false}); }
  void created_directory(fs::path path) { made_.push_back({std::move(path), true}); }
  void commit() { made_.clear(); }
  ~ScaffoldUndo() {
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
      if (it->directory) {
        ::rmdir(it->path.c_str());
      } else {
        ::unlink(it->path.c_str());
      }
    }
  }

 private:
  struct Made {
    fs::path path;
    bool directory;
  };
  std::vector<Made> made_;
};

HostError id_without_dot(const std::string& id) {
  Json details = Json::object();
  details["skillId"] = id;
  details["reason"] = "it needs a dot, neither first nor last";
  return contract::validation_error(
      "SKILL_ID_INVALID",
      "skill_id must contain at least one dot so applicationId and intent can be derived",
      std::move(details));
}

HostError already_exists(const Registry& registry, const std::string& id, std::string message) {
  Json details = Json::object();
  details["skillId"] = id;
  add_registry_fields(details, registry);
  return contract::validation_error("SKILL_ALREADY_EXISTS", std::move(message), std::move(details));
}

// The id as a YAML scalar: plain when it is only letters, digits, '.', '-' and '_' (every
// usual id), else double-quoted, as JSON quotes it (a YAML double-quoted scalar reads it back),
// so that an id holding ": " or " #" cannot change the frontmatter.
std::string yaml_scalar_of_id(const std::string& id) {
  const bool plain = std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
  });
  return plain ? id : quote_json(id);
}

std::string normalised_summary_lines(const std::string& summary) {
  std::string text;
  for (std::size_t i = 0; i < summary.size(); ++i) {
    if (summary[i] == '\r') {
      text += '\n';
      if (i + 1 < summary.size() && summary[i + 1] == '\n') ++i;
    } else {
      text += summary[i];
    }
  }
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    out += line.empty() ? "\n" : "  " + line + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string scaffold_skill_markdown(const std::string& id, const std::string& summary) {
  return "---\n"
         "name: " +
         yaml_scalar_of_id(id) +
         "\n"
         "description: |-\n" +
         normalised_summary_lines(summary) +
         "---\n"
         "\n"
         "# " +
         id +
         "\n"
         "\n" +
         std::string(kScaffoldChecklistPlaceholder) +
         ":\n"
         "\n"
         "- say what it does, on which app and screen, and what it prints;\n"
         "- replace the snapshot in `scripts/run.sh` with the actions it needs;\n"
         "- check it with `clawperator skills validate " +
         id +
         "`.\n"
         "\n"
         "## Run\n"
         "\n"
         "```sh\n"
         "clawperator skills run " +
         id +
         " --device <device_id>\n"
         "```\n"
         "\n"
         "The script reads `CLAWPERATOR_BIN`, `CLAWPERATOR_DEVICE_ID` and "
         "`CLAWPERATOR_OPERATOR_PACKAGE`\n"
         "(set by `skills run`) and runs one `clawperator exec`.\n";
}

// `text` as one single-quoted shell word: nothing in it is expanded.
std::string single_quoted(const std::string& text) {
  std::string word = "'";
  for (const char c : text) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return word + "'";
}

std::string scaffold_run_script(const std::string& id) {
  // The id appears in a comment (it ends at a newline, which an id cannot hold) and, quoted as
  // JSON, as one single-quoted word: it may hold quotes or '$', which have no place in shell
  // code otherwise.
  return "#!/bin/sh\n"
         "# Skill " +
         id +
         ": takes a snapshot of the device's current screen.\n"
         "# skills run sets CLAWPERATOR_BIN, CLAWPERATOR_DEVICE_ID and "
         "CLAWPERATOR_OPERATOR_PACKAGE;\n"
         "# run by hand, it uses `clawperator` from PATH and the only connected device.\n"
         "set -u\n"
         "\n"
         "bin=${CLAWPERATOR_BIN:-clawperator}\n"
         "set --\n"
         "if [ -n \"${CLAWPERATOR_DEVICE_ID:-}\" ]; then\n"
         "  set -- \"$@\" --device \"$CLAWPERATOR_DEVICE_ID\"\n"
         "fi\n"
         "if [ -n \"${CLAWPERATOR_OPERATOR_PACKAGE:-}\" ]; then\n"
         "  set -- \"$@\" --operator-package \"$CLAWPERATOR_OPERATOR_PACKAGE\"\n"
         "fi\n"
         "\n"
         "command_id=\"skill-$(date +%s)-$$\"\n"
         "execution='{\"commandId\":\"'\"$command_id\"'\",\"taskId\":\"skill-snapshot\","
         "\"source\":\"clawperator-skill\",\"expectedFormat\":\"android-ui-automator\","
         "\"timeoutMs\":30000,\"actions\":[{\"id\":\"snap\",\"type\":\"snapshot\"}]}'\n"
         "\n"
         "output=$(\"$bin\" exec \"$@\" --execution \"$execution\")\n"
         "status=$?\n"
         "printf '%s\\n' \"$output\"\n"
         "\n"
         "# The SkillResult line skills run reads (docs/skills.md, \"The result line\"): what the\n"
         "# skill achieved, one checkpoint per step, for recording compare to match.\n"
         "if [ \"$status\" -eq 0 ]; then skill_status=success; step=ok; else skill_status=failed; "
         "step=failed; fi\n"
         "printf '[Clawperator-Skill-Result]{\"contractVersion\":\"1.0.0\",\"skillId\":%s,"
         "\"status\":\"%s\",\"checkpoints\":[{\"id\":\"snapshot\",\"status\":\"%s\","
         "\"note\":\"snapshot of the current screen\"}]}\\n' " +
         single_quoted(quote_json(id)) +
         " \"$skill_status\" \"$step\"\n"
         "exit \"$status\"\n";
}

contract::Outcome<Json> init_registry(const RegistryLocation& location) {
  const fs::path& path = location.path;
  std::error_code error;
  if (fs::exists(fs::symlink_status(path, error))) {
    Json details = Json::object();
    add_registry_fields(details, location);
    return contract::failed(contract::validation_error(
        "REGISTRY_ALREADY_EXISTS",
        "A skills registry already exists at " + path.string() + "; it is left as it is",
        std::move(details)));
  }
  fs::create_directories(path.parent_path(), error);
  if (error) {
    return contract::failed(scaffold_failed(location, path.parent_path(),
                                            "cannot create the directory", error.message()));
  }
  if (auto written = io::write_new_file_atomically(path, R"({"schemaVersion":"1","skills":[]})"
                                                         "\n");
      !written) {
    // Taken between the look above and the link: still never replaced.
    if (written.error().message == std::strerror(EEXIST)) return init_registry(location);
    return contract::failed(
        scaffold_failed(location, path, "cannot create the registry", written.error().message));
  }
  Json out = Json::object();
  out["created"] = true;
  add_registry_fields(out, location);
  out["next"] = "Add a skill with: clawperator skills new <applicationId>.<intent>" +
                std::string(location.source == RegistrySource::Flag ? " --registry " + path.string()
                                                                    : std::string());
  return out;
}

contract::Outcome<Json> scaffold_skill(const Registry& registry, const ScaffoldRequest& request) {
  const std::string id(trim(request.id));
  // Every error names the registry (and the id), as every skills output does.
  const auto about_this_skill = [&](HostError error) {
    error.details["skillId"] = id;
    add_registry_fields(error.details, registry);
    return contract::failed(std::move(error));
  };
  if (auto checked = check_skill_id(id); !checked) return about_this_skill(checked.error());
  const auto dot = id.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == id.size()) {
    return about_this_skill(id_without_dot(id));
  }
  if (registry.find(id)) {
    return contract::failed(already_exists(registry, id, "Skill already exists: " + id));
  }
  const std::string folder = "skills/" + id;
  auto skill_dir = resolve_inside(registry, folder, "path");
  if (!skill_dir) return about_this_skill(skill_dir.error());
  std::error_code error;
  // The name itself (a link, dangling or not, counts) and where it leads.
  if (fs::exists(fs::symlink_status(registry.root / folder, error)) ||
      fs::exists(fs::symlink_status(*skill_dir, error))) {
    return contract::failed(
        already_exists(registry, id, "Skill directory already exists: " + skill_dir->string()));
  }
  std::string summary(request.summary ? trim(*request.summary) : std::string_view());
  if (summary.empty()) summary = std::string(kScaffoldSummaryPlaceholder) + id;

  Json entry = Json::object();
  entry["id"] = id;
  entry["applicationId"] = id.substr(0, dot);
  entry["intent"] = id.substr(dot + 1);
  entry["summary"] = summary;
  entry["path"] = folder;
  entry["skillFile"] = folder + "/SKILL.md";
  entry["scripts"] = Json::array({folder + "/" + kScaffoldScript});
  entry["artifacts"] = Json::array();

  const fs::path markdown = *skill_dir / "SKILL.md";
  const fs::path metadata = *skill_dir / "skill.json";
  const fs::path script = *skill_dir / kScaffoldScript;
  if (summary.find('\0') != std::string::npos) {
    return contract::failed(
        scaffold_failed(registry, markdown, "the summary holds a NUL byte for", std::nullopt));
  }

  ScaffoldUndo undo;
  // mkdir refuses a name that exists, a symlink included: nothing is created through a link.
  for (const fs::path& directory : {skill_dir->parent_path(), *skill_dir, script.parent_path()}) {
    if (::mkdir(directory.c_str(), 0755) == 0) {
      undo.created_directory(directory);
      continue;
    }
    const int saved = errno;
    struct stat status {};
    const bool usable_parent = saved == EEXIST && directory == skill_dir->parent_path() &&
                               ::lstat(directory.c_str(), &status) == 0 && S_ISDIR(status.st_mode);
    if (usable_parent) continue;
    return contract::failed(scaffold_failed(registry, directory, "cannot create the directory",
                                            std::string(std::strerror(saved))));
  }
  const std::string metadata_text = entry.dump(2) + "\n";
  for (const auto& [path, bytes, mode] :
       {std::tuple{markdown, scaffold_skill_markdown(id, summary), mode_t{0644}},
        std::tuple{metadata, metadata_text, mode_t{0644}},
        std::tuple{script, scaffold_run_script(id), mode_t{0755}}}) {
    if (auto written = io::write_exclusive_file(path, bytes); !written) {
      return contract::failed(
          scaffold_failed(registry, path, "cannot create", written.error().message));
    }
    undo.created_file(path);
    if (::chmod(path.c_str(), mode) != 0) {
      return contract::failed(scaffold_failed(registry, path, "cannot set the mode of",
                                              std::string(std::strerror(errno))));
    }
  }

  Json document = registry.document;
  document["skills"].push_back(entry);
  auto& skills = document["skills"];
  std::stable_sort(skills.begin(), skills.end(), [](const Json& a, const Json& b) {
    return a.value("id", std::string()) < b.value("id", std::string());
  });
  // The registry may be a link into a checkout: the file it leads to is replaced, not the link.
  fs::path registry_file = fs::canonical(registry.location.path, error);
  if (error) registry_file = registry.location.path;
  if (auto written = io::write_file_atomically(registry_file, document.dump(2) + "\n"); !written) {
    return contract::failed(scaffold_failed(registry, registry_file, "cannot rewrite the registry",
                                            written.error().message));
  }
  undo.commit();

  Json out = Json::object();
  out["created"] = true;
  out["skillId"] = id;
  out["skillPath"] = skill_dir->string();
  out["files"] = Json::array({markdown.string(), metadata.string(), script.string()});
  out["next"] =
      "Edit SKILL.md and scripts/run.sh, then verify with: clawperator skills validate " + id;
  add_registry_fields(out, registry);
  return out;
}

}  // namespace clawperator::skills
