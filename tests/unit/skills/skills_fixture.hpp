// A skills repository in a fresh temporary directory, for the tests of src/skills: the
// registry at <root>/skills/skills-registry.json, files written on demand, all removed after.
#pragma once

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "clawperator/contract/outcome.hpp"
#include "clawperator/skills/registry.hpp"
#include "test_files.hpp"

namespace clawperator::skills::testing {

class SkillsRepository {
 public:
  SkillsRepository() {
    root_ = std::filesystem::canonical(directory_.path());
    std::filesystem::create_directories(root_ / "skills");
  }

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path registry_path() const { return root_ / "skills" / "skills-registry.json"; }

  // `text` at root/relative, its folders created.
  void write(const std::string& relative, const std::string& text) const {
    const auto path = root_ / relative;
    std::filesystem::create_directories(path.parent_path());
    clawperator::testing::write_file(path, text);
  }
  void write_registry(const Json& document) const {
    write("skills/skills-registry.json", document.dump(2));
  }

  // A complete skill: entry, skill.json (a copy of it), SKILL.md, one script and the artifacts
  // given (name -> content), at skills/<id>/.
  Json add_skill(const std::string& id,
                 const std::vector<std::pair<std::string, std::string>>& artifacts = {}) const {
    const std::string folder = "skills/" + id;
    Json entry = Json::object();
    entry["id"] = id;
    entry["applicationId"] = "com.example";
    entry["intent"] = "test";
    entry["summary"] = "A test skill";
    entry["path"] = folder;
    entry["skillFile"] = folder + "/SKILL.md";
    entry["scripts"] = Json::array({folder + "/scripts/run.sh"});
    entry["artifacts"] = Json::array();
    for (const auto& [name, content] : artifacts) {
      entry["artifacts"].push_back(folder + "/artifacts/" + name);
      write(folder + "/artifacts/" + name, content);
    }
    write(folder + "/SKILL.md", "---\nname: " + id + "\n---\n");
    write(folder + "/scripts/run.sh", "#!/bin/sh\necho ok\n");
    write(folder + "/skill.json", entry.dump(2) + "\n");
    return entry;
  }

  Registry load(const Json& document) const {
    write_registry(document);
    auto registry = load_registry({registry_path(), RegistrySource::Flag});
    if (!registry) FAIL(registry.error().message);
    return *registry;
  }

 private:
  clawperator::testing::TemporaryDirectory directory_{"skills-test"};
  std::filesystem::path root_;
};

inline Json registry_of(std::initializer_list<Json> entries) {
  Json document = Json::object();
  document["skills"] = Json::array();
  for (const Json& entry : entries) document["skills"].push_back(entry);
  return document;
}

// A refusal before anything reached a device: its code, exit code and disposition.
inline void expect_refusal(const contract::HostError& error, const std::string& code,
                           int exit_code) {
  INFO(error.message);
  CHECK(error.code == code);
  CHECK(contract::exit_code_of(error) == exit_code);
  const contract::Disposition disposition = contract::disposition_of(error);
  CHECK(disposition.delivery == contract::Delivery::NotDelivered);
  CHECK(disposition.retry == contract::Retry::Safe);
}

inline const char* kValidArtifact = R"({
  "commandId": "{{COMMAND_ID}}",
  "taskId": "{{TASK_ID}}",
  "source": "test",
  "expectedFormat": "android-ui-automator",
  "timeoutMs": 30000,
  "actions": [
    {"id": "open", "type": "open_app", "params": {"applicationId": "{{APP}}"}},
    {"id": "snap", "type": "snapshot"}
  ]
})";

}  // namespace clawperator::skills::testing
