// A skills repository of its own in a temp directory, for tests that run `skills run` through
// the real binary (skills_run_test.cpp, policy_test.cpp).
#pragma once

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_files.hpp"

namespace clawperator::testing {

// A skills repository of its own in a temp directory: repo/skills/skills-registry.json and one
// folder per skill, each with one script, its SKILL.md and its skill.json.
class SkillsRepo {
 public:
  SkillsRepo() { std::filesystem::create_directories(root_ / "skills"); }

  void add(const std::string& id, const std::string& body) {
    const std::string folder = "skills/" + id;
    const std::string script = folder + "/scripts/run.sh";
    std::filesystem::create_directories(root_ / folder / "scripts");
    std::ofstream(root_ / script) << "#!/bin/sh\n" << body;
    ::chmod((root_ / script).c_str(), 0755);
    std::ofstream(root_ / folder / "SKILL.md") << "---\nname: " << id << "\n---\n";
    entries_.push_back({{"id", id},
                        {"applicationId", "com.test"},
                        {"intent", "run"},
                        {"summary", "test skill"},
                        {"path", folder},
                        {"skillFile", folder + "/SKILL.md"},
                        {"scripts", {script}},
                        {"artifacts", nlohmann::json::array()}});
    // skill.json is a copy of the entry: the dry-run gate of `skills run` checks it.
    std::ofstream(root_ / folder / "skill.json") << entries_.back().dump(2) << "\n";
    std::ofstream(registry()) << nlohmann::json{{"skills", entries_}}.dump();
  }
  std::string registry() const { return (root_ / "skills" / "skills-registry.json").string(); }
  std::string path(const std::string& name) const { return (root_ / name).string(); }

 private:
  TemporaryDirectory directory_{"skills-it"};
  const std::filesystem::path& root_ = directory_.path();
  std::vector<nlohmann::json> entries_;
};

}  // namespace clawperator::testing
